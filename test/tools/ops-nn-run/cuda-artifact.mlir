// --device=cuda compiles for the GPU (PTX JIT-compiled by the driver) and
// writes a self-contained artifact: model.so (host code + embedded PTX) and
// the GPU runtime it needs, neither linking LLVM nor MLIR. Without a CUDA
// driver, running says so and exits 1; with one, test/GPU runs the models.
// UNSUPPORTED: cuda-device
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.arange(70, dtype=np.float32).reshape(7, 10)); np.save('%t/b.npy', np.ones((7, 10), np.float32))"
// RUN: ops-nn-run %s --device=cuda --emit-artifact=%t/art | FileCheck %s --check-prefix=EMIT
// EMIT: artifact: {{.*}}art
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/art/manifest.json
// MANIFEST: "device": "cuda",
// MANIFEST: "entry": "add",
// MANIFEST: "library": "model.so",
// RUN: ls %t/art | FileCheck %s --check-prefix=FILES
// FILES: libopsnn_cuda_runtime.so
// FILES: model.so
// RUN: ldd %t/art/model.so | FileCheck %s --check-prefix=LDD --implicit-check-not=libLLVM --implicit-check-not=libMLIR
// LDD: libopsnn_cuda_runtime.so => {{.*}}art/libopsnn_cuda_runtime.so

// No driver: a clear error from the compiler and from the artifact.
// RUN: env OPSNN_CUDA_DRIVER=%t/no-libcuda.so not ops-nn-run %s --device=cuda --input=%t/a.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=JIT
// JIT: ops-nn-run: error: --device=cuda: no CUDA driver: {{.*}}no-libcuda.so: cannot open shared object file
// RUN: env OPSNN_CUDA_DRIVER=%t/no-libcuda.so not ops-nn-run %t/art --input=%t/a.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=AOT
// AOT: ops-nn-run: error: the artifact is for cuda: no CUDA driver: {{.*}}no-libcuda.so: cannot open shared object file

func.func @add(%a: tensor<7x10xf32>, %b: tensor<7x10xf32>) -> tensor<7x10xf32> {
  %e = tensor.empty() : tensor<7x10xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<7x10xf32>, tensor<7x10xf32>) outs(%e : tensor<7x10xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<7x10xf32>
  return %r : tensor<7x10xf32>
}
