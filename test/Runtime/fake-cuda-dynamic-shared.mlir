// A tensor-core GEMM whose tiles need more than 48 KiB of shared memory
// (A100 tiles: 128x128 blocks, BK = 32, three stages = 56832 B) takes them
// from dynamic shared memory: the launch carries the size and the runtime
// raises the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (8)
// to it first, as the driver requires past 48 KiB (the stand-in driver
// logs the calls; kernels do not run).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.ones((2048, 128), np.float16)); np.save('%t/b.npy', np.ones((128, 1024), np.float16))"
// DEFINE: %{fake} = env OPSNN_CUDA_DRIVER=%opsnn_tools_dir/../lib/libopsnn_fake_cuda_driver.so
// RUN: %{fake} ops-nn-run %s --device=cuda --pipeline="opsnn-lower-to-nvvm{chip=sm_80 format=ptx tensor-cores=true}" --input=%t/a.npy --input=%t/b.npy 2>&1 | FileCheck %s
// CHECK: fake-cuda: cuModuleGetFunction gemm_kernel
// CHECK-NEXT: fake-cuda: cuFuncSetAttribute 8 = 56832
// CHECK-NEXT: fake-cuda: cuLaunchKernel grid 8x16x1 block 256x1x1 shared 56832

// Within 48 KiB (two stages forced: 37888 B of static shared memory)
// nothing is raised and the launch asks for no dynamic shared memory.
// RUN: %{fake} ops-nn-run %s --device=cuda --pipeline="opsnn-lower-to-nvvm{chip=sm_80 format=ptx tensor-cores=true tensor-core-stages=2}" --input=%t/a.npy --input=%t/b.npy 2>&1 | FileCheck %s --check-prefix=STATIC
// STATIC: fake-cuda: cuModuleGetFunction gemm_kernel
// STATIC-NOT: cuFuncSetAttribute
// STATIC: fake-cuda: cuLaunchKernel grid 8x16x1 block 256x1x1 shared 0

func.func @gemm(%a: tensor<2048x128xf16>, %b: tensor<128x1024xf16>) -> tensor<2048x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x128xf16>, tensor<128x1024xf16>) outs(%c : tensor<2048x1024xf32>) -> tensor<2048x1024xf32>
  return %r : tensor<2048x1024xf32>
}
