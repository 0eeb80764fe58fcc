// RUN: ops-nn-opt %s --opsnn-fuse-elementwise="fuse-narrowing-casts=false" --split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-fuse-elementwise --split-input-file | FileCheck %s --check-prefix=NARROW

// Elementwise producers fuse into elementwise consumers as upstream's
// -linalg-fuse-elementwise-ops does: one generic.
// CHECK-LABEL: func.func @chain
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: linalg.generic
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e2 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// -----

// A cast fuses into a contraction (its payload extends the operand); a
// division by a per-row sum (softmax's last step) does not: the
// contraction keeps acc + ext(a) * ext(b) and the division stays a
// generic of its own, run once per element.
// CHECK-LABEL: func.func @into_contraction
// CHECK: %[[P:.*]] = linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[P]], %{{.*}} : tensor<32x64xf32>, tensor<64x16xf16>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT: arith.extf %[[B]]
// CHECK-NOT: arith.divf
// CHECK: return
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
#id = affine_map<(i, k) -> (i, k)>
#row = affine_map<(i, k) -> (i)>
func.func @into_contraction(%e: tensor<32x64xf32>, %sum: tensor<32xf32>, %v: tensor<64x16xf16>) -> tensor<32x16xf32> {
  %ep = tensor.empty() : tensor<32x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : tensor<32x64xf32>, tensor<32xf32>) outs(%ep : tensor<32x64xf32>) {
  ^bb0(%x: f32, %s: f32, %o: f32):
    %r = arith.divf %x, %s : f32
    linalg.yield %r : f32
  } -> tensor<32x64xf32>
  %ev = tensor.empty() : tensor<64x16xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(k, j) -> (k, j)>, affine_map<(k, j) -> (k, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : tensor<64x16xf16>) outs(%ev : tensor<64x16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %r = arith.extf %x : f16 to f32
    linalg.yield %r : f32
  } -> tensor<64x16xf32>
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<32x16xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<32x16xf32>) -> tensor<32x16xf32>
  %o = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%p, %v32 : tensor<32x64xf32>, tensor<64x16xf32>) outs(%fc : tensor<32x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<32x16xf32>
  return %o : tensor<32x16xf32>
}

// -----

// A transpose feeding a contraction is a copy: it folds into the
// contraction's input map (Q read as [b, s, h, d]). A computing producer
// (the projection's bias) does not fuse into the transpose: it stays in
// its own layout, where the projection GEMM's epilogue can take it.
// CHECK-DAG: #[[QMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d4)>
// CHECK-LABEL: func.func @transpose_into_consumer
// CHECK: %[[BIASED:.*]] = linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<2x16x4x8xf32>, tensor<4x8xf32>) outs(%{{.*}} : tensor<2x16x4x8xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[QMAP]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[BIASED]], %arg2 : tensor<2x16x4x8xf32>, tensor<2x4x8x16xf32>)
// CHECK-NOT: linalg.transpose
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @transpose_into_consumer(%q: tensor<2x16x4x8xf32>, %bias: tensor<4x8xf32>, %kt: tensor<2x4x8x16xf32>) -> tensor<2x4x16x16xf32> {
  %e0 = tensor.empty() : tensor<2x16x4x8xf32>
  %qb = linalg.generic {indexing_maps = [affine_map<(b, s, h, d) -> (b, s, h, d)>, affine_map<(b, s, h, d) -> (h, d)>, affine_map<(b, s, h, d) -> (b, s, h, d)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q, %bias : tensor<2x16x4x8xf32>, tensor<4x8xf32>) outs(%e0 : tensor<2x16x4x8xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %r = arith.addf %x, %c : f32
    linalg.yield %r : f32
  } -> tensor<2x16x4x8xf32>
  %e1 = tensor.empty() : tensor<2x4x16x8xf32>
  %qt = linalg.transpose ins(%qb : tensor<2x16x4x8xf32>) outs(%e1 : tensor<2x4x16x8xf32>) permutation = [0, 2, 1, 3]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x4x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4x16x16xf32>) -> tensor<2x4x16x16xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%qt, %kt : tensor<2x4x16x8xf32>, tensor<2x4x8x16xf32>) outs(%f : tensor<2x4x16x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x16xf32>
  return %s : tensor<2x4x16x16xf32>
}

// -----

// A transpose of a contraction's result folds into the contraction's
// output map (P V writes [b, s, h, d]), not into the next contraction,
// which then reads a plain [b, s, h*d] operand; the zero fill is
// recreated in the transposed shape.
// CHECK-DAG: #[[CMAP:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @transpose_into_contraction_output
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x16x4x8xf32>)
// CHECK: %[[CTX:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[CMAP]]], {{.*}} outs(%[[F]] : tensor<2x16x4x8xf32>)
// CHECK: tensor.collapse_shape %[[CTX]] {{\[\[}}0], [1], [2, 3]] : tensor<2x16x4x8xf32> into tensor<2x16x32xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @transpose_into_contraction_output(%p: tensor<2x4x16x16xf32>, %v: tensor<2x4x16x8xf32>) -> tensor<2x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x4x16x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x4x16x8xf32>) -> tensor<2x4x16x8xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x16x16xf32>, tensor<2x4x16x8xf32>) outs(%f : tensor<2x4x16x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x16x8xf32>
  %e1 = tensor.empty() : tensor<2x16x4x8xf32>
  %t = linalg.transpose ins(%c : tensor<2x4x16x8xf32>) outs(%e1 : tensor<2x16x4x8xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %t [[0], [1], [2, 3]] : tensor<2x16x4x8xf32> into tensor<2x16x32xf32>
  return %r : tensor<2x16x32xf32>
}

// -----

// An elementwise producer whose transpose is returned writes the
// transposed layout itself (its init is the transpose's: never read).
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @transpose_into_elementwise_output
// CHECK: %[[E:.*]] = tensor.empty() : tensor<16x8xf32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[T]]], {{.*}} ins(%arg0 : tensor<8x16xf32>) outs(%[[E]] : tensor<16x8xf32>)
// CHECK: math.exp
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @transpose_into_elementwise_output(%x: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %e0 = tensor.empty() : tensor<8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e0 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e1 = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%y : tensor<8x16xf32>) outs(%e1 : tensor<16x8xf32>) permutation = [1, 0]
  return %t : tensor<16x8xf32>
}

// -----

// A producer that reads an init other than a fill (a running sum in an
// argument) cannot be recreated transposed: the transpose stays a copy.
// CHECK-LABEL: func.func @transposed_accumulator_stays
// CHECK: %[[A:.*]] = linalg.generic {{.*}} outs(%arg1 : tensor<8x16xf32>)
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8x16xf32>) outs(%{{.*}} : tensor<16x8xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]]
// CHECK: return %[[T]]
func.func @transposed_accumulator_stays(%x: tensor<8x16xf32>, %acc: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %a = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%acc : tensor<8x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%a : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  return %t : tensor<16x8xf32>
}

// -----

// With fuse-narrowing-casts=false (the GPU pipeline), a narrowing cast
// (f32 activations to f16) does not fuse into a contraction: the
// contraction reads f16, as the tensor-core kernel needs (f32 x f16
// operands are none of its types), and half the bytes; a widening one
// does. By default (the CPU pipeline) it fuses.
// NARROW-LABEL: func.func @narrowing_cast_stays_out
// NARROW: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<16x32xf32>, tensor<32x8xf16>)
// NARROW: arith.truncf
// NARROW-NOT: linalg.generic
// CHECK-LABEL: func.func @narrowing_cast_stays_out
// CHECK: %[[H:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<16x32xf32>) outs(%{{.*}} : tensor<16x32xf16>)
// CHECK: arith.truncf
// CHECK: linalg.generic {{.*}} ins(%[[H]], %arg1 : tensor<16x32xf16>, tensor<32x8xf16>)
// CHECK-NOT: arith.truncf
// CHECK: return
func.func @narrowing_cast_stays_out(%x: tensor<16x32xf32>, %w: tensor<32x8xf16>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x32xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i, k)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<16x32xf16>
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<16x8xf32>
  %fc = linalg.fill ins(%zero : f32) outs(%ec : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %w : tensor<16x32xf16>, tensor<32x8xf16>) outs(%fc : tensor<16x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// The context cast to f16 after P V, transposed back to [b, s, h, d] for
// the output projection, whose K is (h, d): folded into that contraction
// the transpose would split K by s. It folds into the cast's output map
// instead (the cast writes [b, s, h, d]); the projection reads it as is.
// CHECK-DAG: #[[CASTOUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-DAG: #[[ADJ:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// NARROW-LABEL: func.func @transpose_keeps_k_adjacent
// CHECK-LABEL: func.func @transpose_keeps_k_adjacent
// CHECK: %[[H:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[CASTOUT]]], {{.*}} ins(%arg0 : tensor<2x4x16x8xf32>) outs(%{{.*}} : tensor<2x16x4x8xf16>)
// CHECK: arith.truncf
// CHECK: linalg.generic {indexing_maps = [#[[ADJ]], #{{.*}}, #{{.*}}], {{.*}} ins(%[[H]], %arg1 : tensor<2x16x4x8xf16>, tensor<4x8x32xf16>)
func.func @transpose_keeps_k_adjacent(%ctx: tensor<2x4x16x8xf32>, %w: tensor<4x8x32xf16>) -> tensor<2x16x32xf32> {
  %e0 = tensor.empty() : tensor<2x4x16x8xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(b, h, s, d) -> (b, h, s, d)>, affine_map<(b, h, s, d) -> (b, h, s, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ctx : tensor<2x4x16x8xf32>) outs(%e0 : tensor<2x4x16x8xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x4x16x8xf16>
  %e1 = tensor.empty() : tensor<2x16x4x8xf16>
  %t = linalg.transpose ins(%h : tensor<2x4x16x8xf16>) outs(%e1 : tensor<2x16x4x8xf16>) permutation = [0, 2, 1, 3]
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, s, n, h, d) -> (b, s, h, d)>, affine_map<(b, s, n, h, d) -> (h, d, n)>, affine_map<(b, s, n, h, d) -> (b, s, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%t, %w : tensor<2x16x4x8xf16>, tensor<4x8x32xf16>) outs(%f : tensor<2x16x32xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x16x32xf32>
  return %o : tensor<2x16x32xf32>
}

// -----

// A matmul marked to run as TF32 (--opsnn-assign-precision) between the
// importer's reshapes: folding them rebuilds it as a 3-D generic
// contraction, which keeps opsnn.tf32 for the tensor-core kernel.
// CHECK-LABEL: func.func @tf32_through_reshapes
// CHECK-NOT: tensor.collapse_shape
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x8x16xf32>, tensor<16x32xf32>)
// CHECK-SAME: attrs =  {opsnn.tf32}
func.func @tf32_through_reshapes(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>) -> tensor<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %x2 = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x8x16xf32> into tensor<16x16xf32>
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m = linalg.matmul {opsnn.tf32} ins(%x2, %w : tensor<16x16xf32>, tensor<16x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %m3 = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
  return %m3 : tensor<2x8x32xf32>
}

// -----

// Attention's scores as imported: Q and K transposed to [b, h, s, d] and
// [b, h, d, s] (copies), collapsed over b, h, a TF32 batch_matmul, its
// result expanded back. Folding the reshapes replaces the expand_shape, and
// fusing the transposing copies into the contraction erases it after
// redirecting its uses, neither with a replacement notice for the
// contraction: the listener still carries opsnn.tf32 to the final
// generic. (It was lost: bert_tiny's Q K^T and P V stayed off the tensor
// cores under precision=tf32, 20 kernels with 8 mma.sync against 18/12.)
// CHECK-LABEL: func.func @tf32_scores
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]
// CHECK-SAME: attrs =  {opsnn.tf32}
func.func @tf32_scores(%q: tensor<1x16x4x8xf32>, %k: tensor<1x16x4x8xf32>) -> tensor<1x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %eq = tensor.empty() : tensor<1x4x16x8xf32>
  %qt = linalg.transpose ins(%q : tensor<1x16x4x8xf32>) outs(%eq : tensor<1x4x16x8xf32>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<1x4x8x16xf32>
  %kt = linalg.transpose ins(%k : tensor<1x16x4x8xf32>) outs(%ek : tensor<1x4x8x16xf32>) permutation = [0, 2, 3, 1]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<1x4x16x8xf32> into tensor<4x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x4x8x16xf32> into tensor<4x8x16xf32>
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul {opsnn.tf32} ins(%q3, %k3 : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  return %s4 : tensor<1x4x16x16xf32>
}
