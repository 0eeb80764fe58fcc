// RUN: ops-nn-opt %s --opsnn-fuse-elementwise --split-input-file | FileCheck %s

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
