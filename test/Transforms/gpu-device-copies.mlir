// RUN: ops-nn-opt %s --split-input-file --opsnn-gpu-device-copies | FileCheck %s

// A copy into a padded buffer's interior becomes a linalg.copy (a kernel
// in the GPU pipeline).
// CHECK-LABEL: func.func @into_interior
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%{{.*}} : memref<1x8x8x16xf16>) outs(%{{.*}} : memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>)
func.func @into_interior(%s: memref<1x8x8x16xf16>) -> memref<1x10x10x16xf16> {
  %p = memref.alloc() : memref<1x10x10x16xf16>
  %v = memref.subview %p[0, 1, 1, 0] [1, 8, 8, 16] [1, 1, 1, 1]
      : memref<1x10x10x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  memref.copy %s, %v : memref<1x8x8x16xf16> to memref<1x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  return %p : memref<1x10x10x16xf16>
}

// -----

// A constant's copy (host read-only data a kernel cannot read) stays.
// CHECK-LABEL: func.func @from_constant
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
memref.global "private" constant @w : memref<4xf32> = dense<1.0>
func.func @from_constant() -> memref<4xf32> {
  %g = memref.get_global @w : memref<4xf32>
  %m = memref.alloc() : memref<4xf32>
  memref.copy %g, %m : memref<4xf32> to memref<4xf32>
  return %m : memref<4xf32>
}

// -----

// Dynamic shapes stay host copies.
// CHECK-LABEL: func.func @dynamic
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @dynamic(%s: memref<?xf32>, %d: memref<?xf32>) {
  memref.copy %s, %d : memref<?xf32> to memref<?xf32>
  return
}
