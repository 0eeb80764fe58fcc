// fold-padding on buffers (see tensor-core-conv-padding.mlir): when the
// padded copy's data is written after the copy the kernel keeps reading
// the copy; a deallocation of the data between the copy and the kernel
// moves after the kernel.
// RUN: ops-nn-opt %s --split-input-file --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s

// On buffers: the data is written after its copy into the padded buffer,
// so the kernel must still read the copy.
// CHECK-LABEL: func.func @source_written_after_copy
// CHECK: memref.copy
// CHECK: linalg.fill
// CHECK: gpu.launch
// CHECK: nvgpu.device_async_copy %[[P:.+]][{{.*}}], %{{.*}}[{{.*}}], 8 {bypassL1} : memref<1x10x10x16xf16>
func.func @source_written_after_copy(%s: memref<1x8x8x16xf16>, %w: memref<3x3x16x16xf16>,
                                     %out: memref<1x8x8x16xf32>) {
  %h0 = arith.constant 0.0 : f16
  %h1 = arith.constant 1.0 : f16
  %p = memref.alloc() : memref<1x10x10x16xf16>
  linalg.fill ins(%h0 : f16) outs(%p : memref<1x10x10x16xf16>)
  %v = memref.subview %p[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1]
      : memref<1x10x10x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  memref.copy %s, %v : memref<1x8x8x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  linalg.fill ins(%h1 : f16) outs(%s : memref<1x8x8x16xf16>)
  linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<1x10x10x16xf16>, memref<3x3x16x16xf16>) outs(%out : memref<1x8x8x16xf32>)
  memref.dealloc %p : memref<1x10x10x16xf16>
  return
}

// -----

// On buffers: the data's deallocation right after its copy moves after
// the kernel, and the padded buffer goes with its deallocation.
// CHECK-LABEL: func.func @source_freed_after_copy
// CHECK: %[[S:.+]] = memref.alloc() : memref<1x8x8x16xf16>
// CHECK-NOT: memref.alloc() : memref<1x10x10x16xf16>
// CHECK: linalg.fill {{.*}} outs(%[[S]]
// CHECK-NOT: memref.copy
// CHECK: gpu.launch
// CHECK: nvgpu.device_async_copy %[[S]][{{.*}}], %{{.*}}[{{.*}}], 8, %{{.+}} {bypassL1}
// CHECK: gpu.terminator
// CHECK-NEXT: }
// CHECK-NEXT: memref.dealloc %[[S]]
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @source_freed_after_copy(%w: memref<3x3x16x16xf16>, %out: memref<1x8x8x16xf32>) {
  %h0 = arith.constant 0.0 : f16
  %h1 = arith.constant 1.0 : f16
  %s = memref.alloc() : memref<1x8x8x16xf16>
  linalg.fill ins(%h1 : f16) outs(%s : memref<1x8x8x16xf16>)
  %p = memref.alloc() : memref<1x10x10x16xf16>
  linalg.fill ins(%h0 : f16) outs(%p : memref<1x10x10x16xf16>)
  %v = memref.subview %p[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1]
      : memref<1x10x10x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  memref.copy %s, %v : memref<1x8x8x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  memref.dealloc %s : memref<1x8x8x16xf16>
  linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<1x10x10x16xf16>, memref<3x3x16x16xf16>) outs(%out : memref<1x8x8x16xf32>)
  memref.dealloc %p : memref<1x10x10x16xf16>
  return
}
