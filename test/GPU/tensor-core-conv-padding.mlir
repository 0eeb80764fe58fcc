// fold-padding: a convolution on the tensor-core path reads a zero-padded
// input unpadded (taps outside it are cp.async copies of 0 source bytes,
// which zero-fill), and the padded buffer, its fill and the copy into it
// go. Executed on the CPU against NumPy in
// Integration/CPU/tensor-core-conv-padding-emulated.mlir.
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true format=ptx" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: ops-nn-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s
// RUN: ops-nn-opt %s --split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="fold-padding=false" --canonicalize | FileCheck %s --check-prefix=NOFOLD

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK resnet_3x3_kernel/resnet_3x3_kernel sm_80
// PTXAS: OK resnet_3x3_kernel/resnet_3x3_kernel sm_90

// The A copies carry their source size (0 outside the input).
// PTX-LABEL: gpu.binary @resnet_3x3_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16, %r{{[0-9]+}};
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// One kernel, and no host copy into a padded buffer between kernels (on
// the GPU pipeline tensor.pad's copy runs on the host, on managed memory).
// HOST-LABEL: func.func @resnet_3x3
// HOST-NOT: memref.copy
// HOST: gpu.launch_func @resnet_3x3_kernel::@resnet_3x3_kernel
// HOST-NOT: gpu.launch_func
// HOST: return

// CHECK-LABEL: func.func @resnet_3x3
// CHECK-SAME: (%[[X:.+]]: memref<2x8x8x64xf16>
// CHECK-NOT: memref.alloc() {{.*}} : memref<2x10x10x64xf16>
// CHECK-NOT: memref.copy
// CHECK: gpu.launch
// CHECK: nvgpu.device_async_copy %[[X]][{{.*}}], %{{.*}}[{{.*}}], 8, %{{.+}} {bypassL1}
// NOFOLD-LABEL: func.func @resnet_3x3
// NOFOLD: memref.copy
// NOFOLD: gpu.launch
// NOFOLD-NOT: nvgpu.device_async_copy {{.*}}, 8, %{{.+}} {bypassL1}
func.func @resnet_3x3(%x: tensor<2x8x8x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<2x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %h0 = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %h0 : f16
  } : tensor<2x8x8x64xf16> to tensor<2x10x10x64xf16>
  %e = tensor.empty() : tensor<2x8x8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x10x10x64xf16>, tensor<3x3x64x64xf16>) outs(%acc : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  return %y : tensor<2x8x8x64xf32>
}

// -----

// Padding with another value stays a padded copy (the kernel zero-fills).
// CHECK-LABEL: func.func @padded_with_one
// CHECK: linalg.map
// CHECK: memref.copy
// CHECK: gpu.launch
func.func @padded_with_one(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %one : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x16xf16>, tensor<3x3x16x16xf16>) outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %y : tensor<1x8x8x16xf32>
}

// -----

// A padded buffer two convolutions read: the first kernel may not drop it.
// CHECK-LABEL: func.func @padded_read_twice
// CHECK: linalg.map
// CHECK: memref.copy
// CHECK: gpu.launch
// CHECK: gpu.launch
func.func @padded_read_twice(%x: tensor<1x8x8x16xf16>, %w: tensor<3x3x16x16xf16>)
    -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %h0 = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %h0 : f16
  } : tensor<1x8x8x16xf16> to tensor<1x10x10x16xf16>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x16xf16>, tensor<3x3x16x16xf16>) outs(%acc : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x8x8x16xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %y2 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x16xf16>, tensor<3x3x16x16xf16>) outs(%acc2 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %y, %y2 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}
