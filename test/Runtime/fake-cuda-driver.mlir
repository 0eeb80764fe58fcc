// Compiled GPU host code, through libopsnn_cuda_runtime.so, against a
// stand-in libcuda.so that logs every driver call (kernels do not run):
// the runtime's mgpu* functions match what gpu-to-llvm emits, the PTX is
// loaded before the call (global constructors, in the JIT and in an
// artifact's model.so), arguments are registered and unregistered, the
// result lives in managed memory (prefetched to the device the kernel
// writes it on) and is freed by ops-nn-run, and a failing
// launch is reported.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.ones((7, 10), np.float32)); np.save('%t/b.npy', np.ones((7, 10), np.float32))"
// DEFINE: %{fake} = env OPSNN_CUDA_DRIVER=%opsnn_tools_dir/../lib/libopsnn_fake_cuda_driver.so
// RUN: %{fake} ops-nn-run %s --device=cuda --input=%t/a.npy --input=%t/b.npy --output-dir=%t/jit 2>&1 | FileCheck %s
// RUN: ops-nn-run %s --device=cuda --emit-artifact=%t/art
// RUN: %{fake} ops-nn-run %t/art --input=%t/a.npy --input=%t/b.npy --output-dir=%t/aot 2>&1 | FileCheck %s
// CHECK: fake-cuda: cuInit
// CHECK-NEXT: fake-cuda: cuModuleLoadDataEx PTX with .entry add_kernel, 3 options
// CHECK-NEXT: fake-cuda: cuMemHostRegister 280 bytes
// CHECK-NEXT: fake-cuda: cuMemHostRegister 280 bytes
// CHECK-NEXT: fake-cuda: cuMemAllocManaged 280 bytes
// CHECK-NEXT: fake-cuda: cuMemPrefetchAsync 280 bytes to device 0
// CHECK-NEXT: fake-cuda: cuModuleGetFunction add_kernel
// One thread per element: blocks of 32x8 over the 10x7 output.
// CHECK-NEXT: fake-cuda: cuLaunchKernel grid 1x1x1 block 32x8x1 shared 0
// CHECK-NEXT: fake-cuda: cuMemHostUnregister
// CHECK-NEXT: fake-cuda: cuMemHostUnregister
// CHECK-NEXT: fake-cuda: cuMemFree
// CHECK: fake-cuda: cuModuleUnload
// RUN: ls %t/jit/out0.npy %t/aot/out0.npy

// RUN: %{fake} env FAKE_CUDA_FAIL=launch not ops-nn-run %s --device=cuda --input=%t/a.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: ops-nn-run: error: cuLaunchKernel failed: fake error

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
