// --repeat times the runs and --json prints a machine-readable summary; the
// output file holds the result.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(6, dtype=np.float32).reshape(2, 3))"
// RUN: ops-nn-run %s --input=%t/x.npy --output-dir=%t --repeat=3 --warmup=1 --json | FileCheck %s
// RUN: %python -c "import numpy as np; y = np.load('%t/out0.npy'); assert y.dtype == np.float32 and y.tolist() == [[0, 2, 4], [6, 8, 10]], y"
// CHECK: "device": "cpu"
// CHECK: "entry": "double"
// CHECK: "dtype": "<f4"
// CHECK: "shape": [
// CHECK-NEXT: 2,
// CHECK-NEXT: 3
// CHECK: "time_ms": {
// CHECK-DAG: "median":
// CHECK-DAG: "repeat": 3
// CHECK-DAG: "warmup": 1

func.func @double(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = arith.addf %x, %x : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
