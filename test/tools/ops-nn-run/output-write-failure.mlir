// An output that cannot be written is an error (exit 1) and leaves neither a
// truncated file nor its temporary behind: .npy files are written next to
// their destination and renamed into place once complete.
// RUN: rm -rf %t && mkdir -p %t/out/out0.npy
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((4,), np.float32))"
// RUN: not ops-nn-run %s --input=%t/x.npy --output-dir=%t/out 2>&1 | FileCheck %s
// RUN: test -d %t/out/out0.npy
// RUN: not ls %t/out/out0.npy.tmp
// CHECK: ops-nn-run: error: error while writing '{{.*}}out0.npy'

// The same run into a writable directory leaves exactly the output.
// RUN: ops-nn-run %s --input=%t/x.npy --output-dir=%t/ok
// RUN: ls %t/ok | FileCheck %s --check-prefix=OK --implicit-check-not=tmp
// OK: out0.npy

func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = arith.addf %x, %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
