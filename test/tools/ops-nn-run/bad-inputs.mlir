// ops-nn-run checks its inputs against the entry function's signature and
// names the offending argument; every failure exits 1 and writes nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.ones((2, 3), np.float32)); np.save('%t/x64.npy', np.ones((2, 3))); np.save('%t/x43.npy', np.ones((4, 3), np.float32)); np.save('%t/r3.npy', np.ones((2, 3, 1), np.float32)); np.save('%t/b.npy', np.ones((3,), np.float32))"

// RUN: ops-nn-run %s --input=%t/x.npy --input=%t/b.npy --output-dir=%t/ok | FileCheck %s --check-prefix=OK
// OK: out0: <f4 [2x3] -> {{.*}}out0.npy

// RUN: not ops-nn-run %s --input=%t/x.npy --output-dir=%t/count 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: ops-nn-run: error: @add_bias takes 2 argument(s) but 1 input(s) were given

// RUN: not ops-nn-run %s --input=%t/x64.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: ops-nn-run: error: argument #0 (tensor<?x3xf32>): expected .npy dtype '<f4' for element type f32, got '<f8'

// RUN: not ops-nn-run %s --input=%t/x.npy --input=%t/x43.npy 2>&1 | FileCheck %s --check-prefix=RANK
// RANK: ops-nn-run: error: argument #1 (tensor<3xf32>): expected rank 1, got an array of rank 2

// RUN: not ops-nn-run %s --input=%t/r3.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=RANK0
// RANK0: ops-nn-run: error: argument #0 (tensor<?x3xf32>): expected rank 2, got an array of rank 3

// RUN: %python -c "import numpy as np; np.save('%t/b4.npy', np.ones((4,), np.float32))"
// RUN: not ops-nn-run %s --input=%t/x.npy --input=%t/b4.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: ops-nn-run: error: argument #1 (tensor<3xf32>): dimension 0 has size 4, expected 3

// RUN: not ops-nn-run %s --input=%t/missing.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: ops-nn-run: error: input #0: cannot open '{{.*}}missing.npy'

// RUN: echo "not numpy" > %t/bad.npy
// RUN: not ops-nn-run %s --input=%t/bad.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: ops-nn-run: error: input #0: {{.*}}bad.npy: not a .npy file (bad magic)

// RUN: not ops-nn-run %s --entry=nope --input=%t/x.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: ops-nn-run: error: no function @nope with a body in the module (functions: @add_bias)

// RUN: not ops-nn-run %s --device=tpu 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: ops-nn-run: error: --device must be 'cpu' or 'cuda', got 'tpu'

// RUN: not ops-nn-run %s --input=%t/x.npy --input=%t/b.npy --pipeline='bogus-pass' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: ops-nn-run: error: --pipeline: {{.*}}'bogus-pass' does not refer to a registered pass or pass pipeline

// Nothing was written by the failing runs.
// RUN: not ls %t/count/out0.npy

func.func @add_bias(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %e = tensor.empty(%n) : tensor<?x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<?x3xf32>, tensor<3xf32>) outs(%e : tensor<?x3xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
