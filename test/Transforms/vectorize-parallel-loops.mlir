// RUN: ops-nn-opt %s -split-input-file --opsnn-vectorize-parallel-loops="aligned=true" | FileCheck %s
// RUN: ops-nn-opt %s -split-input-file --opsnn-vectorize-parallel-loops | FileCheck %s --check-prefix=UNALIGNED
// RUN: ops-nn-opt %s -split-input-file --opsnn-vectorize-parallel-loops="min-row-vectors=1 vector-bytes=8 aligned=true" | FileCheck %s --check-prefix=NARROW

// f16 NHWC with C = 256: 8 elements (16 bytes) per iteration. The bias
// moves with C too (one vector per iteration); the body runs once per
// element; one 16-byte store.
// CHECK-LABEL: func @bias_residual_f16
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK-NEXT: scf.parallel (%[[C:.+]], %[[W:.+]], %[[H:.+]], %[[N:.+]]) = {{.*}} step (%[[C8]], %c1, %c1, %c1)
// CHECK: %[[X:.+]] = vector.load %arg0[%[[N]], %[[H]], %[[W]], %[[C]]] {alignment = 16 : i64} : memref<4x56x56x256xf16>, vector<8xf16>
// CHECK: vector.extract %[[X]][7] : f16 from vector<8xf16>
// CHECK: %[[B:.+]] = vector.load %arg1[%[[C]]] {alignment = 16 : i64} : memref<256xf16>, vector<8xf16>
// CHECK-COUNT-8: arith.addf
// CHECK: %[[Y:.+]] = vector.from_elements {{.*}} : vector<8xf16>
// CHECK: vector.store %[[Y]], %arg2[%[[N]], %[[H]], %[[W]], %[[C]]] {alignment = 16 : i64} : memref<4x56x56x256xf16>, vector<8xf16>
// CHECK-NOT: memref.load
// CHECK-NOT: memref.store
// UNALIGNED-LABEL: func @bias_residual_f16
// UNALIGNED: vector.load %arg0{{.*}} : memref<4x56x56x256xf16>, vector<8xf16>
// UNALIGNED-NOT: alignment
// UNALIGNED: vector.store
// NARROW-LABEL: func @bias_residual_f16
// NARROW: vector.load %arg0{{.*}} {alignment = 8 : i64} : memref<4x56x56x256xf16>, vector<4xf16>
func.func @bias_residual_f16(%x: memref<4x56x56x256xf16>, %b: memref<256xf16>, %y: memref<4x56x56x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c56 = arith.constant 56 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c, %w, %h, %n) = (%c0, %c0, %c0, %c0) to (%c256, %c56, %c56, %c4) step (%c1, %c1, %c1, %c1) {
    %a = memref.load %x[%n, %h, %w, %c] : memref<4x56x56x256xf16>
    %bb = memref.load %b[%c] : memref<256xf16>
    %s = arith.addf %a, %bb : f16
    memref.store %s, %y[%n, %h, %w, %c] : memref<4x56x56x256xf16>
    scf.reduce
  }
  return
}

// -----

// f32 in, f16 out: lanes for the narrowest element (8 f16), so the f32
// vectors are 32 bytes, declared 16-byte aligned (two 16-byte accesses). A
// per-row operand (indexed by %r only) stays one scalar load.
// CHECK-LABEL: func @mixed_widths
// CHECK: vector.load %arg0{{.*}} {alignment = 16 : i64} : memref<64x1024xf32>, vector<8xf32>
// CHECK: memref.load %arg1[%{{.+}}] : memref<64xf32>
// CHECK-COUNT-8: arith.truncf
// CHECK: vector.store {{.*}} {alignment = 16 : i64} : memref<64x1024xf16>, vector<8xf16>
func.func @mixed_widths(%x: memref<64x1024xf32>, %s: memref<64xf32>, %y: memref<64x1024xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c1024, %c64) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<64x1024xf32>
    %k = memref.load %s[%r] : memref<64xf32>
    %m = arith.mulf %a, %k : f32
    %t = arith.truncf %m : f32 to f16
    memref.store %t, %y[%r, %c] : memref<64x1024xf16>
    scf.reduce
  }
  return
}

// -----

// C = 64 with a per-channel operand (rows cannot merge): at least 32
// vectors must remain along C (the block's 32 threads along x), so 2 f16
// per iteration; with min-row-vectors=1 and 8-byte vectors, 4.
// CHECK-LABEL: func @short_rows
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK-NEXT: scf.parallel {{.*}} step (%[[C2]], %c1)
// CHECK: vector.load {{.*}} {alignment = 4 : i64} : memref<32x64xf16>, vector<2xf16>
// NARROW-LABEL: func @short_rows
// NARROW: vector.load {{.*}} {alignment = 8 : i64} : memref<32x64xf16>, vector<4xf16>
func.func @short_rows(%x: memref<32x64xf16>, %s: memref<64xf16>, %y: memref<32x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<32x64xf16>
    %k = memref.load %s[%c] : memref<64xf16>
    %m = arith.mulf %a, %k : f16
    memref.store %m, %y[%r, %c] : memref<32x64xf16>
    scf.reduce
  }
  return
}

// -----

// With a per-channel operand (rows cannot merge): too short a row (16
// elements, 8 vectors of 2 < 32) and an odd trip count (99): no widening.
// CHECK-LABEL: func @too_short
// CHECK-NOT: vector.
// CHECK: memref.load
// CHECK-NOT: vector.
// CHECK-LABEL: func @odd_trip_count
// CHECK-NOT: vector.
// NARROW-LABEL: func @too_short
// NARROW: vector<4xf16>
func.func @too_short(%x: memref<32x16xf16>, %s: memref<16xf16>, %y: memref<32x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c16, %c32) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<32x16xf16>
    %k = memref.load %s[%c] : memref<16xf16>
    %m = arith.mulf %a, %k : f16
    memref.store %m, %y[%r, %c] : memref<32x16xf16>
    scf.reduce
  }
  return
}
func.func @odd_trip_count(%x: memref<4x99xf32>, %s: memref<99xf32>, %y: memref<4x99xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c99 = arith.constant 99 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c99, %c4) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<4x99xf32>
    %k = memref.load %s[%c] : memref<99xf32>
    %m = arith.mulf %a, %k : f32
    memref.store %m, %y[%r, %c] : memref<4x99xf32>
    scf.reduce
  }
  return
}

// -----

// Rows too short for 8 f16 x 32 threads that every access reads whole
// ([..., h, w, c] on contiguous buffers): the last two dimensions merge,
// through memref.collapse_shape views made before the loop, until a row is
// long enough (C = 16 x W = 8 = 128: still short; x H = 4 = 512; one
// collapse per step, which canonicalization composes), then 8 lanes. A per-row operand (indexed by the batch alone) stays as it is.
// CHECK-LABEL: func @merged_rows
// CHECK-DAG: %[[X1:.+]] = memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<2x4x8x16xf16> into memref<2x4x128xf16>
// CHECK-DAG: %[[Y1:.+]] = memref.collapse_shape %arg2 {{\[\[}}0], [1], [2, 3]] : memref<2x4x8x16xf16> into memref<2x4x128xf16>
// CHECK-DAG: %[[X:.+]] = memref.collapse_shape %[[X1]] {{\[\[}}0], [1, 2]] : memref<2x4x128xf16> into memref<2x512xf16>
// CHECK-DAG: %[[Y:.+]] = memref.collapse_shape %[[Y1]] {{\[\[}}0], [1, 2]] : memref<2x4x128xf16> into memref<2x512xf16>
// CHECK: scf.parallel (%[[M:.+]], %[[N:.+]]) = (%c0, %c0) to (%c512, %c2) step
// CHECK: vector.load %[[X]][%[[N]], %[[M]]] {alignment = 16 : i64} : memref<2x512xf16>, vector<8xf16>
// CHECK: memref.load %arg1[%[[N]]] : memref<2xf16>
// CHECK: vector.store {{.*}}, %[[Y]][%[[N]], %[[M]]] {alignment = 16 : i64} : memref<2x512xf16>, vector<8xf16>
func.func @merged_rows(%x: memref<2x4x8x16xf16>, %s: memref<2xf16>, %y: memref<2x4x8x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%c, %w, %h, %n) = (%c0, %c0, %c0, %c0) to (%c16, %c8, %c4, %c2) step (%c1, %c1, %c1, %c1) {
    %a = memref.load %x[%n, %h, %w, %c] : memref<2x4x8x16xf16>
    %k = memref.load %s[%n] : memref<2xf16>
    %m = arith.mulf %a, %k : f16
    memref.store %m, %y[%n, %h, %w, %c] : memref<2x4x8x16xf16>
    scf.reduce
  }
  return
}

// -----

// Rows that do not merge: a view whose rows are not contiguous (a row
// stride of 24 for rows of 16), and an index used as a value.
// CHECK-LABEL: func @strided_rows
// CHECK-NOT: collapse_shape
// CHECK-LABEL: func @iota_rows
// CHECK-NOT: collapse_shape
// CHECK: return
func.func @strided_rows(%x: memref<32x16xf16, strided<[24, 1]>>, %y: memref<32x16xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c16, %c32) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<32x16xf16, strided<[24, 1]>>
    memref.store %a, %y[%r, %c] : memref<32x16xf16>
    scf.reduce
  }
  return
}
func.func @iota_rows(%y: memref<32x16xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c16, %c32) step (%c1, %c1) {
    %i = arith.index_cast %c : index to i32
    memref.store %i, %y[%r, %c] : memref<32x16xi32>
    scf.reduce
  }
  return
}

// -----

// A loop inside the iteration (NHWC global pooling, the accumulator in
// registers): it carries one value per element (4 f32), its body reads a
// 16-byte vector per pixel; the pixel indices stay scalar.
// CHECK-LABEL: func @pooling_sum
// CHECK: scf.parallel (%[[C:[a-z0-9]+]], %[[N:[a-z0-9]+]]) =
// CHECK: %[[SUM:[0-9]+]]:4 = scf.for %[[H:[a-z0-9]+]] = %c0 to %c7 step %c1 iter_args({{.*}}) -> (f32, f32, f32, f32)
// CHECK: %[[V:.+]] = vector.load %arg0[%[[N]], %[[H]], %[[C]]] {alignment = 16 : i64} : memref<8x7x256xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.addf
// CHECK: scf.yield
// CHECK: vector.from_elements %[[SUM]]#0, %[[SUM]]#1, %[[SUM]]#2, %[[SUM]]#3 : vector<4xf32>
// CHECK: vector.store {{.*}}, %arg1[%[[N]], %[[C]]] {alignment = 16 : i64} : memref<8x256xf32>, vector<4xf32>
func.func @pooling_sum(%x: memref<8x7x256xf32>, %y: memref<8x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant 0.0 : f32
  scf.parallel (%c, %n) = (%c0, %c0) to (%c256, %c8) step (%c1, %c1) {
    %s = scf.for %h = %c0 to %c7 step %c1 iter_args(%acc = %cst) -> f32 {
      %a = memref.load %x[%n, %h, %c] : memref<8x7x256xf32>
      %t = arith.addf %a, %acc : f32
      scf.yield %t : f32
    }
    memref.store %s, %y[%n, %c] : memref<8x256xf32>
    scf.reduce
  }
  return
}

// -----

// A GEMM on the generic path (j innermost): each thread computes 4
// consecutive columns of C, B's row read as one vector per k, A's element
// once (broadcast to the 4 products).
// CHECK-LABEL: func @gemm_columns
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} -> (f32, f32, f32, f32)
// CHECK: %[[A:.+]] = memref.load %arg0[%{{.+}}, %[[K]]] : memref<64x32xf32>
// CHECK: vector.load %arg1[%[[K]], %{{.+}}] {alignment = 16 : i64} : memref<32x128xf32>, vector<4xf32>
// CHECK-COUNT-4: arith.mulf %[[A]]
// CHECK: vector.store {{.*}} : memref<64x128xf32>, vector<4xf32>
func.func @gemm_columns(%a: memref<64x32xf32>, %b: memref<32x128xf32>, %c: memref<64x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %cst = arith.constant 0.0 : f32
  scf.parallel (%j, %i) = (%c0, %c0) to (%c128, %c64) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %cst) -> f32 {
      %x = memref.load %a[%i, %k] : memref<64x32xf32>
      %y = memref.load %b[%k, %j] : memref<32x128xf32>
      %p = arith.mulf %x, %y : f32
      %t = arith.addf %p, %acc : f32
      scf.yield %t : f32
    }
    memref.store %s, %c[%i, %j] : memref<64x128xf32>
    scf.reduce
  }
  return
}

// -----

// INT8: 16 lanes. A value stored that does not move with the dimension
// (a constant) is broadcast into the vector.
// CHECK-LABEL: func @int8_and_constant
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<4x512xi8>, vector<16xi8>
// CHECK-COUNT-16: arith.addi
// CHECK: vector.store {{.*}} : memref<4x512xi8>, vector<16xi8>
// CHECK: %[[Z:.+]] = vector.from_elements %{{.+}}, %{{.+}}
// CHECK: vector.store %[[Z]], %arg2{{.*}} : memref<4x512xi32>, vector<16xi32>
func.func @int8_and_constant(%x: memref<4x512xi8>, %y: memref<4x512xi8>, %z: memref<4x512xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c512 = arith.constant 512 : index
  %one = arith.constant 1 : i8
  %zero = arith.constant 0 : i32
  scf.parallel (%c, %r) = (%c0, %c0) to (%c512, %c4) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<4x512xi8>
    %s = arith.addi %a, %one : i8
    memref.store %s, %y[%r, %c] : memref<4x512xi8>
    memref.store %zero, %z[%r, %c] : memref<4x512xi32>
    scf.reduce
  }
  return
}

// -----

// The index itself as a value (an iota): lane k computes with %c + k.
// CHECK-LABEL: func @iota
// CHECK: scf.parallel (%[[C:.+]]) =
// CHECK-DAG: %[[K1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C1:.+]] = arith.addi %[[C]], %[[K1]] : index
// CHECK-DAG: %[[K3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C3:.+]] = arith.addi %[[C]], %[[K3]] : index
// CHECK-DAG: arith.index_cast %[[C]] : index to i32
// CHECK-DAG: arith.index_cast %[[C3]] : index to i32
// CHECK: vector.store {{.*}} : memref<256xi32>, vector<4xi32>
func.func @iota(%y: memref<256xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %i = arith.index_cast %c : index to i32
    memref.store %i, %y[%c] : memref<256xi32>
    scf.reduce
  }
  return
}

// -----

// Views: a row stride of 264 and an offset of 4 f16 keep 8-byte alignment
// only (4 lanes); a dynamic outer size keeps static strides (8 lanes); a
// dynamic row stride does not.
// CHECK-LABEL: func @offset_view
// CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<8x256xf16, strided<[264, 1], offset: 4>>, vector<4xf16>
// CHECK-LABEL: func @dynamic_batch
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<?x256xf16>, vector<8xf16>
// CHECK-LABEL: func @dynamic_stride
// CHECK-NOT: vector.
// CHECK: return
func.func @offset_view(%x: memref<8x256xf16, strided<[264, 1], offset: 4>>, %y: memref<8x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c8) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<8x256xf16, strided<[264, 1], offset: 4>>
    memref.store %a, %y[%r, %c] : memref<8x256xf16>
    scf.reduce
  }
  return
}
func.func @dynamic_batch(%x: memref<?x256xf16>, %y: memref<?x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?x256xf16>
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %n) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<?x256xf16>
    memref.store %a, %y[%r, %c] : memref<?x256xf16>
    scf.reduce
  }
  return
}
func.func @dynamic_stride(%x: memref<8x256xf16, strided<[?, 1]>>, %y: memref<8x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c8) step (%c1, %c1) {
    %a = memref.load %x[%r, %c] : memref<8x256xf16, strided<[?, 1]>>
    memref.store %a, %y[%r, %c] : memref<8x256xf16>
    scf.reduce
  }
  return
}

// -----

// Buffers whose start is not known to be aligned: an alloca without an
// alignment stays scalar, one with 16 is widened; a memref.view 8 bytes
// into its buffer keeps 8-byte alignment (4 f16).
// CHECK-LABEL: func @alloca_unaligned
// CHECK-NOT: vector.
// CHECK-LABEL: func @alloca_aligned
// CHECK: vector<8xf16>
// CHECK-LABEL: func @view_shift
// CHECK: vector.load {{.*}} {alignment = 8 : i64} : memref<4x256xf16>, vector<4xf16>
func.func @alloca_unaligned(%y: memref<4x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %t = memref.alloca() : memref<4x256xf16>
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c4) step (%c1, %c1) {
    %a = memref.load %t[%r, %c] : memref<4x256xf16>
    memref.store %a, %y[%r, %c] : memref<4x256xf16>
    scf.reduce
  }
  return
}
func.func @alloca_aligned(%y: memref<4x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  %t = memref.alloca() {alignment = 16 : i64} : memref<4x256xf16>
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c4) step (%c1, %c1) {
    %a = memref.load %t[%r, %c] : memref<4x256xf16>
    memref.store %a, %y[%r, %c] : memref<4x256xf16>
    scf.reduce
  }
  return
}
func.func @view_shift(%buf: memref<4096xi8>, %y: memref<4x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  %v = memref.view %buf[%c8][] : memref<4096xi8> to memref<4x256xf16>
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c4) step (%c1, %c1) {
    %a = memref.load %v[%r, %c] : memref<4x256xf16>
    memref.store %a, %y[%r, %c] : memref<4x256xf16>
    scf.reduce
  }
  return
}

// -----

// Loops that keep their shape: a transposing read (the dimension indexes a
// row, not consecutive elements), a row reduction inside the iteration
// (its reads move along rows, not along the dimension), a reducing parallel
// loop, a loop already mapped to the GPU,
// and a store whose last index is not an induction variable.
// CHECK-LABEL: func @transposing
// CHECK-NOT: vector.
// CHECK-LABEL: func @inner_loop
// CHECK-NOT: vector.
// CHECK-LABEL: func @reducing
// CHECK-NOT: vector.
// CHECK-LABEL: func @mapped
// CHECK-NOT: vector.
// CHECK-LABEL: func @fixed_column
// CHECK-NOT: vector.
// CHECK: return
func.func @transposing(%x: memref<256x64xf32>, %y: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c, %r) = (%c0, %c0) to (%c256, %c64) step (%c1, %c1) {
    %a = memref.load %x[%c, %r] : memref<256x64xf32>
    memref.store %a, %y[%r, %c] : memref<64x256xf32>
    scf.reduce
  }
  return
}
func.func @inner_loop(%x: memref<256x64xf32>, %y: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %s = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> f32 {
      %a = memref.load %x[%c, %k] : memref<256x64xf32>
      %n = arith.addf %acc, %a : f32
      scf.yield %n : f32
    }
    memref.store %s, %y[%c] : memref<256xf32>
    scf.reduce
  }
  return
}
func.func @reducing(%x: memref<256xf32>, %y: memref<256xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.parallel (%c) = (%c0) to (%c256) step (%c1) init (%zero) -> f32 {
    %a = memref.load %x[%c] : memref<256xf32>
    memref.store %a, %y[%c] : memref<256xf32>
    scf.reduce(%a : f32) {
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}
func.func @mapped(%x: memref<256xf32>, %y: memref<256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %a = memref.load %x[%c] : memref<256xf32>
    memref.store %a, %y[%c] : memref<256xf32>
    scf.reduce
  } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  return
}
func.func @fixed_column(%x: memref<256xf32>, %y: memref<256x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.parallel (%c) = (%c0) to (%c256) step (%c1) {
    %a = memref.load %x[%c] : memref<256xf32>
    memref.store %a, %y[%c, %c0] : memref<256x4xf32>
    scf.reduce
  }
  return
}

// -----

// A body that loads through the dimension but stores through another
// induction variable (each store must move with it): scalar.
// CHECK-LABEL: func @stores_disagree
// CHECK-NOT: vector.
// CHECK: return
func.func @stores_disagree(%x: memref<64x64xf32>, %y: memref<64x64xf32>, %z: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c64) step (%c1, %c1) {
    %a = memref.load %x[%j, %i] : memref<64x64xf32>
    memref.store %a, %y[%j, %i] : memref<64x64xf32>
    memref.store %a, %z[%i, %j] : memref<64x64xf32>
    scf.reduce
  }
  return
}
