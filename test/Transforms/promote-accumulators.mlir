// RUN: ops-nn-opt %s --opsnn-promote-accumulators -split-input-file | FileCheck %s

// A reduction's loop as linalg lowers it: the element of C (a buffer of
// its own, which the argument A cannot alias) is carried in iter_args,
// loaded once before the loop and stored once after it.
// CHECK-LABEL: func.func @dot
// CHECK: %[[C:.+]] = memref.alloc
// CHECK: %[[INIT:.+]] = memref.load %[[C]][%[[I:.+]]] : memref<4xf32>
// CHECK: %[[SUM:.+]] = scf.for {{.*}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32)
// CHECK-NOT: memref.load %[[C]]
// CHECK-NOT: memref.store
// CHECK: arith.addf %[[ACC]]
// CHECK: scf.yield
// CHECK: memref.store %[[SUM]], %[[C]][%[[I]]]
func.func @dot(%a: memref<4x8xf32>, %i: index) -> memref<4xf32> {
  %c = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i, %k] : memref<4x8xf32>
    %acc = memref.load %c[%i] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %c[%i] : memref<4xf32>
  }
  return %c : memref<4xf32>
}

// -----

// A sum over H and W: the inner loop's accumulator, once promoted, is the
// outer loop's. The zero stored before the loops is forwarded to them, and
// its store goes (the sum's store overwrites it, nothing reads it between).
// CHECK-LABEL: func.func @sum_hw
// CHECK: %[[ZERO:.+]] = arith.constant 0.0
// CHECK-NOT: memref.store
// CHECK-NOT: memref.load %{{.*}} : memref<2x8xf32>
// CHECK: %[[OUTER:.+]] = scf.for {{.*}} iter_args(%[[A:.+]] = %[[ZERO]]) -> (f32)
// CHECK: %[[INNER:.+]] = scf.for {{.*}} iter_args(%[[B:.+]] = %[[A]]) -> (f32)
// CHECK: scf.yield %[[INNER]]
// CHECK: memref.store %[[OUTER]]
func.func @sum_hw(%x: memref<2x5x5x8xf32>, %n: index, %ch: index) -> memref<2x8xf32> {
  %out = memref.alloc() : memref<2x8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %out[%n, %ch] : memref<2x8xf32>
  scf.for %h = %c0 to %c5 step %c1 {
    scf.for %w = %c0 to %c5 step %c1 {
      %v = memref.load %x[%n, %h, %w, %ch] : memref<2x5x5x8xf32>
      %acc = memref.load %out[%n, %ch] : memref<2x8xf32>
      %s = arith.addf %acc, %v : f32
      memref.store %s, %out[%n, %ch] : memref<2x8xf32>
    }
  }
  return %out : memref<2x8xf32>
}

// -----

// Left alone: the loop also reads C elsewhere; the index is the loop's;
// a store to a buffer that may be C (two arguments may alias); an op whose
// effects are unknown.
// CHECK-LABEL: func.func @reads_another_element
// CHECK-NOT: iter_args
func.func @reads_another_element(%c: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %x = memref.load %c[%k] : memref<8xf32>
    %acc = memref.load %c[%i] : memref<8xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %c[%i] : memref<8xf32>
  }
  return
}

// CHECK-LABEL: func.func @index_varies
// CHECK-NOT: iter_args
func.func @index_varies(%a: memref<8xf32>, %c: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %x = memref.load %a[%k] : memref<8xf32>
    %acc = memref.load %c[%k] : memref<8xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %c[%k] : memref<8xf32>
  }
  return
}

// CHECK-LABEL: func.func @may_alias
// CHECK-NOT: iter_args
func.func @may_alias(%a: memref<8xf32>, %c: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = memref.load %c[%i] : memref<8xf32>
    %s = arith.addf %acc, %acc : f32
    memref.store %s, %c[%i] : memref<8xf32>
    memref.store %s, %a[%k] : memref<8xf32>
  }
  return
}

func.func private @opaque(memref<8xf32>)

// CHECK-LABEL: func.func @unknown_effects
// CHECK-NOT: iter_args
func.func @unknown_effects(%c: memref<8xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c8 step %c1 {
    %acc = memref.load %c[%i] : memref<8xf32>
    %s = arith.addf %acc, %acc : f32
    memref.store %s, %c[%i] : memref<8xf32>
    func.call @opaque(%c) : (memref<8xf32>) -> ()
  }
  return
}

// -----

// Forwarding stops at an op that may write the buffer.
// CHECK-LABEL: func.func @forward
// CHECK: memref.store %[[V:.+]], %[[C:.+]][%[[I:.+]]]
// CHECK: %[[X:.+]] = arith.addf %[[V]], %[[V]]
// CHECK: call @opaque
// CHECK: %[[L:.+]] = memref.load %[[C]][%[[I]]]
// CHECK: return %[[X]], %[[L]]
func.func private @opaque(memref<8xf32>)
func.func @forward(%c: memref<8xf32>, %i: index, %v: f32) -> (f32, f32) {
  memref.store %v, %c[%i] : memref<8xf32>
  %a = memref.load %c[%i] : memref<8xf32>
  %x = arith.addf %a, %a : f32
  func.call @opaque(%c) : (memref<8xf32>) -> ()
  %b = memref.load %c[%i] : memref<8xf32>
  return %x, %b : f32, f32
}

// -----

// Once the fill and the sum are forwarded, nothing reads C: its stores go
// (the buffer and its deallocation stay for canonicalization). D, which
// is returned, keeps its stores; so does E, which a call reads.
// CHECK-LABEL: func.func @unread_stores
// CHECK: %[[C:.+]] = memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.store {{.*}}, %[[C]]
// CHECK: memref.store %{{.*}}, %[[D:.+]][
// CHECK: memref.store %{{.*}}, %[[E:.+]][
// CHECK: memref.dealloc %[[C]]
func.func private @reads(memref<4xf32>)
func.func @unread_stores(%a: memref<4x8xf32>, %i: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  memref.store %zero, %c[%i] : memref<4xf32>
  scf.for %k = %c0 to %c8 step %c1 {
    %x = memref.load %a[%i, %k] : memref<4x8xf32>
    %acc = memref.load %c[%i] : memref<4xf32>
    %s = arith.addf %acc, %x : f32
    memref.store %s, %c[%i] : memref<4xf32>
  }
  %sum = memref.load %c[%i] : memref<4xf32>
  memref.store %sum, %d[%i] : memref<4xf32>
  memref.store %sum, %e[%i] : memref<4xf32>
  func.call @reads(%e) : (memref<4xf32>) -> ()
  memref.dealloc %c : memref<4xf32>
  memref.dealloc %e : memref<4xf32>
  return %d : memref<4xf32>
}

// -----

// A store overwritten later stays when something in between may read the
// element (a call with unknown effects) and goes when nothing does.
// CHECK-LABEL: func.func @overwritten_stores
// CHECK: memref.store %{{.+}}, %[[B:.+]][%[[I:.+]]]
// CHECK: call @opaque
// CHECK-NOT: memref.store
// CHECK: memref.store %{{.+}}, %[[B]][%[[I]]]
// CHECK-NOT: memref.store
// CHECK: return
func.func private @opaque(memref<8xf32>)
func.func @overwritten_stores(%b: memref<8xf32>, %i: index, %x: f32, %y: f32) {
  memref.store %x, %b[%i] : memref<8xf32>
  call @opaque(%b) : (memref<8xf32>) -> ()
  memref.store %y, %b[%i] : memref<8xf32>
  %z = arith.addf %x, %y : f32
  memref.store %z, %b[%i] : memref<8xf32>
  memref.store %x, %b[%i] : memref<8xf32>
  return
}
