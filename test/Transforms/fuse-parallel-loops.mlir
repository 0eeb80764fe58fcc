// RUN: ops-nn-opt %s --opsnn-fuse-parallel-loops -split-input-file | FileCheck %s

// A fill loop, the loop that accumulates into it and an elementwise loop
// over the same space; the outputs are allocated right before their
// loops, as bufferization leaves them. The allocations move up and the
// three loops become one.
// CHECK-LABEL: func.func @fill_matmul_bias
// CHECK: %[[C:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: %[[D:.+]] = memref.alloc() : memref<4x4xf32>
// CHECK: scf.parallel (%[[I:.+]], %[[J:.+]]) =
// CHECK-NEXT: memref.store %{{.*}}, %[[C]][%[[I]], %[[J]]]
// CHECK: scf.for
// CHECK: memref.load %[[C]][%[[I]], %[[J]]]
// CHECK: memref.store %{{.*}}, %[[D]][%[[I]], %[[J]]]
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return %[[D]]
func.func @fill_matmul_bias(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %bias: memref<4xf32>) -> memref<4x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %c[%i, %j] : memref<4x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i, %k] : memref<4x8xf32>
      %y = memref.load %b[%k, %j] : memref<8x4xf32>
      %acc = memref.load %c[%i, %j] : memref<4x4xf32>
      %m = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %m : f32
      memref.store %s, %c[%i, %j] : memref<4x4xf32>
    }
  }
  %d = memref.alloc() : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %x = memref.load %c[%i, %j] : memref<4x4xf32>
    %y = memref.load %bias[%j] : memref<4xf32>
    %s = arith.addf %x, %y : f32
    memref.store %s, %d[%i, %j] : memref<4x4xf32>
  }
  memref.dealloc %c : memref<4x4xf32>
  return %d : memref<4x4xf32>
}

// -----

memref.global "private" constant @weight : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// The GPU pipeline's host-visible copy of a weight (a gpu.alloc and a copy
// of the constant global) moves up with its allocation.
// CHECK-LABEL: func.func @weight_copy
// CHECK: memref.get_global @weight
// CHECK: %[[W:.+]] = gpu.alloc  host_shared () : memref<4xf32>
// CHECK: memref.copy
// CHECK: scf.parallel
// CHECK: memref.load %[[W]]
// CHECK-NOT: scf.parallel
func.func @weight_copy(%x: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f32
  %t = gpu.alloc host_shared () : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x4xf32>
    %y = arith.mulf %v, %two : f32
    memref.store %y, %t[%i, %j] : memref<4x4xf32>
  }
  %g = memref.get_global @weight : memref<4xf32>
  %w = gpu.alloc host_shared () : memref<4xf32>
  memref.copy %g, %w : memref<4xf32> to memref<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %t[%i, %j] : memref<4x4xf32>
    %s = memref.load %w[%j] : memref<4xf32>
    %y = arith.addf %v, %s : f32
    memref.store %y, %out[%i, %j] : memref<4x4xf32>
  }
  return
}

// -----

// Not fused: the second loop reads what the first writes at other indices
// (a transpose), or through a view of the same buffer; a copy into a buffer
// the first loop may write (an argument) does not move.
// CHECK-LABEL: func.func @transposed_read
// CHECK-COUNT-2: scf.parallel
func.func @transposed_read(%x: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x4xf32>
    memref.store %v, %t[%i, %j] : memref<4x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %t[%j, %i] : memref<4x4xf32>
    memref.store %v, %out[%i, %j] : memref<4x4xf32>
  }
  return
}

// CHECK-LABEL: func.func @through_a_view
// CHECK-COUNT-2: scf.parallel
func.func @through_a_view(%x: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<16xf32>
  %t2 = memref.expand_shape %t [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %tt = memref.transpose %t2 (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x4xf32>
    memref.store %v, %t2[%i, %j] : memref<4x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %tt[%i, %j] : memref<4x4xf32, strided<[1, 4]>>
    memref.store %v, %out[%i, %j] : memref<4x4xf32>
  }
  return
}

// CHECK-LABEL: func.func @copy_into_an_argument
// CHECK: scf.parallel
// CHECK: memref.copy
// CHECK: scf.parallel
func.func @copy_into_an_argument(%x: memref<4x4xf32>, %w: memref<4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<4x4xf32>
    memref.store %v, %w[%j] : memref<4xf32>
  }
  %g = memref.get_global @weight : memref<4xf32>
  memref.copy %g, %w : memref<4xf32> to memref<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %s = memref.load %w[%j] : memref<4xf32>
    memref.store %s, %out[%i, %j] : memref<4x4xf32>
  }
  return
}
memref.global "private" constant @weight : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>

// -----

// A fill (through a view of its buffer) sits before another kernel, as
// bufferization leaves it: it moves down to the loop that reads the
// buffer, past the call that does not, and the two are fused. The fill of
// a buffer the call does see stays before the call.
// CHECK-LABEL: func.func @sink_fill
// CHECK: call @other
// CHECK-NEXT: scf.parallel
// CHECK-NEXT: memref.store %{{.*}}, %[[V:.+]][
// CHECK: memref.load %[[V]]
// CHECK-NOT: scf.parallel
// CHECK: return
func.func private @other(memref<4x4xf32>)
func.func @sink_fill(%x: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<16xf32>
  %v = memref.expand_shape %t [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %v[%i, %j] : memref<4x4xf32>
  }
  func.call @other(%x) : (memref<4x4xf32>) -> ()
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %v[%i, %j] : memref<4x4xf32>
    %b = memref.load %x[%i, %j] : memref<4x4xf32>
    %s = arith.addf %a, %b : f32
    memref.store %s, %out[%i, %j] : memref<4x4xf32>
  }
  memref.dealloc %t : memref<16xf32>
  return
}

// CHECK-LABEL: func.func @fill_seen_by_the_call
// CHECK: scf.parallel
// CHECK: call @other
// CHECK: scf.parallel
func.func @fill_seen_by_the_call(%out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %t[%i, %j] : memref<4x4xf32>
  }
  func.call @other(%t) : (memref<4x4xf32>) -> ()
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %t[%i, %j] : memref<4x4xf32>
    memref.store %a, %out[%i, %j] : memref<4x4xf32>
  }
  memref.dealloc %t : memref<4x4xf32>
  return
}

// -----

// A padded buffer's fill (a 6x6 space) between the loop producing the data
// and the copy of the data into the interior (4x4): it cannot fuse with
// the copy, so it moves above the producer (which does not touch the padded
// buffer), the subview with it, and the producer and the copy fuse.
// CHECK-LABEL: func.func @lift_fill
// CHECK: %[[P:.+]] = memref.alloc() : memref<6x6xf32>
// CHECK: %[[V:.+]] = memref.subview %[[P]]
// CHECK: scf.parallel {{.*}} to (%c6, %c6)
// CHECK-NEXT: memref.store %{{.*}}, %[[P]]
// CHECK: scf.parallel {{.*}} to (%c4, %c4)
// CHECK: arith.maximumf
// CHECK: memref.store %[[R:.+]], %[[D:.+]][
// CHECK: memref.load %[[D]]
// CHECK: memref.store %{{.*}}, %[[V]][
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @lift_fill(%x: memref<4x4xf32>) -> memref<6x6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %d = memref.alloc() : memref<4x4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %x[%i, %j] : memref<4x4xf32>
    %r = arith.maximumf %a, %zero : f32
    memref.store %r, %d[%i, %j] : memref<4x4xf32>
  }
  %p = memref.alloc() : memref<6x6xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c6) step (%c1, %c1) {
    memref.store %zero, %p[%i, %j] : memref<6x6xf32>
  }
  %v = memref.subview %p[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %d[%i, %j] : memref<4x4xf32>
    memref.store %a, %v[%i, %j] : memref<4x4xf32, strided<[6, 1], offset: 7>>
  }
  memref.dealloc %d : memref<4x4xf32>
  return %p : memref<6x6xf32>
}

// -----

// The loop before the fill reads the filled buffer: the fill stays after it.
// CHECK-LABEL: func.func @fill_stays_after_a_reader
// CHECK: scf.parallel {{.*}} to (%c4, %c4)
// CHECK: memref.load %[[P:.+]][
// CHECK: scf.parallel {{.*}} to (%c6, %c6)
// CHECK-NEXT: memref.store %{{.*}}, %[[P]]
// CHECK: scf.parallel {{.*}} to (%c4, %c4)
func.func @fill_stays_after_a_reader(%x: memref<4x4xf32>, %p: memref<6x6xf32>, %out: memref<4x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<6x6xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %t[%i, %j] : memref<6x6xf32>
    memref.store %a, %out[%i, %j] : memref<4x4xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c6) step (%c1, %c1) {
    memref.store %zero, %t[%i, %j] : memref<6x6xf32>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %a = memref.load %x[%i, %j] : memref<4x4xf32>
    memref.store %a, %t[%i, %j] : memref<6x6xf32>
  }
  memref.copy %t, %p : memref<6x6xf32> to memref<6x6xf32>
  memref.dealloc %t : memref<6x6xf32>
  return
}
