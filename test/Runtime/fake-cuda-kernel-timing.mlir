// ops-nn-run --repeat on CUDA: the inputs are uploaded once to managed
// memory prefetched to the device (so the kernels read device memory, not
// host memory over the bus) and are not host-registered by the compiled
// code; every launch is bracketed by CUDA events, whose times are summed
// per call and reported as kernel_time_ms next to the whole call's time.
// The output run after the timed ones passes fresh host copies, as a plain
// run does. The stand-in driver logs the calls and says every kernel takes
// FAKE_CUDA_KERNEL_MS.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.ones((7, 10), np.float32)); np.save('%t/b.npy', np.ones((7, 10), np.float32))"
// DEFINE: %{fake} = env OPSNN_CUDA_DRIVER=%opsnn_tools_dir/../lib/libopsnn_fake_cuda_driver.so FAKE_CUDA_KERNEL_MS=1.5
// RUN: %{fake} ops-nn-run %s --device=cuda --input=%t/a.npy --input=%t/b.npy --repeat=2 --warmup=1 --json 2>&1 | FileCheck %s
// RUN: ops-nn-run %s --device=cuda --emit-artifact=%t/art
// RUN: %{fake} ops-nn-run %t/art --input=%t/a.npy --input=%t/b.npy --repeat=2 --warmup=1 --json 2>&1 | FileCheck %s

// The two inputs, uploaded once.
// CHECK: fake-cuda: cuModuleLoadDataEx PTX with .entry add_kernel
// CHECK-NEXT: fake-cuda: cuMemAllocManaged 280 bytes
// CHECK-NEXT: fake-cuda: cuMemPrefetchAsync 280 bytes to device 0
// CHECK-NEXT: fake-cuda: cuMemAllocManaged 280 bytes
// CHECK-NEXT: fake-cuda: cuMemPrefetchAsync 280 bytes to device 0
// One warm-up and two timed calls: each allocates its result (prefetched
// to the device, where the kernel writes it), launches and frees it; the
// uploaded inputs are neither registered nor unregistered.
// CHECK-NOT: cuMemHost
// CHECK: fake-cuda: cuLaunchKernel grid 1x1x1 block 32x8x1 shared 0
// CHECK-NEXT: fake-cuda: cuMemFree
// CHECK-NOT: cuMemHost
// CHECK: fake-cuda: cuLaunchKernel grid 1x1x1 block 32x8x1 shared 0
// CHECK-NEXT: fake-cuda: cuMemFree
// CHECK-NOT: cuMemHost
// CHECK: fake-cuda: cuLaunchKernel grid 1x1x1 block 32x8x1 shared 0
// CHECK-NEXT: fake-cuda: cuMemFree
// The inputs are freed; the output run registers its own host copies.
// CHECK-NEXT: fake-cuda: cuMemFree
// CHECK-NEXT: fake-cuda: cuMemFree
// CHECK-NEXT: fake-cuda: cuMemHostRegister 280 bytes
// CHECK-NEXT: fake-cuda: cuMemHostRegister 280 bytes
// CHECK: fake-cuda: cuLaunchKernel grid 1x1x1 block 32x8x1 shared 0
// CHECK-NEXT: fake-cuda: cuMemHostUnregister
// CHECK-NEXT: fake-cuda: cuMemHostUnregister
// One kernel of 1.5 ms per call.
// CHECK: "kernel_time_ms": {
// CHECK-NEXT: "max": 1.5,
// CHECK-NEXT: "median": 1.5,
// CHECK-NEXT: "min": 1.5
// CHECK: "time_ms": {
// CHECK: "repeat": 2,
// CHECK-NEXT: "warmup": 1

// Without a driver, timing fails like running does, with the reason.
// RUN: env OPSNN_CUDA_DRIVER=%t/no-such-driver.so not ops-nn-run %s --device=cuda --input=%t/a.npy --input=%t/b.npy --repeat=2 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: ops-nn-run: error: --device=cuda: no CUDA driver

// On the CPU the inputs are marshalled once too, and there is no kernel
// time.
// RUN: ops-nn-run %s --input=%t/a.npy --input=%t/b.npy --repeat=2 --json | FileCheck %s --check-prefix=CPU
// CPU-NOT: kernel_time_ms
// CPU: "time_ms": {

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
