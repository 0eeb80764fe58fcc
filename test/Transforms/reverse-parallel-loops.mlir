// RUN: ops-nn-opt %s -split-input-file --opsnn-reverse-parallel-loops | FileCheck %s

// Bounds, steps and induction variables reversed; the body unchanged.
// CHECK-LABEL: func @two_d
// CHECK-SAME: (%[[M:.+]]: memref<7x33xf32>, %[[V:.+]]: f32)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
// CHECK-DAG: %[[C33:.+]] = arith.constant 33 : index
// CHECK: scf.parallel (%[[J:.+]], %[[I:.+]]) = (%[[C0]], %[[C1]]) to (%[[C33]], %[[C7]]) step (%[[C1]], %[[C2]]) {
// CHECK-NEXT: memref.store %[[V]], %[[M]][%[[I]], %[[J]]] : memref<7x33xf32>
func.func @two_d(%m: memref<7x33xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  scf.parallel (%i, %j) = (%c1, %c0) to (%c7, %c33) step (%c2, %c1) {
    memref.store %v, %m[%i, %j] : memref<7x33xf32>
  }
  return
}

// -----

// Three dimensions with a reduction: the reduction is untouched.
// CHECK-LABEL: func @three_d_reduce
// CHECK: scf.parallel (%[[K:.+]], %[[J:.+]], %[[I:.+]]) = {{.*}} init (%{{.+}}) -> f32 {
// CHECK: memref.load %{{.+}}[%[[I]], %[[J]], %[[K]]]
// CHECK: scf.reduce
func.func @three_d_reduce(%m: memref<2x3x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c2, %c3, %c4) step (%c1, %c1, %c1) init (%zero) -> f32 {
    %x = memref.load %m[%i, %j, %k] : memref<2x3x4xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// -----

// One-dimensional loops are left alone.
// CHECK-LABEL: func @one_d
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}})
func.func @one_d(%m: memref<8xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %v, %m[%i] : memref<8xf32>
  }
  return
}
