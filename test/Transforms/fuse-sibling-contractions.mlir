// RUN: ops-nn-opt %s --opsnn-fuse-sibling-contractions -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-fuse-sibling-contractions="merge-consumers=false" -split-input-file | FileCheck %s --check-prefix=APART

// Q, K and V projections of one input with their bias adds: one matmul
// over the weights stacked as K x 3 x N (wq, wk, wv in that order along
// the new dimension), one bias add over the 3 x N stacked biases, and Q,
// K and V unit slices of the merged result.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-LABEL: func.func @qkv
// CHECK-SAME: (%[[X:.+]]: tensor<4x2xf16>)
// CHECK-DAG: %[[STACKB:.+]] = arith.constant dense<{{\[}}[5.000000e-01, 5.000000e-01], [1.000000e+00, 2.000000e+00], [2.500000e-01, 2.500000e-01]]> : tensor<3x2xf32>
// CHECK-DAG: %[[STACKW:.+]] = arith.constant dense<{{\[}}{{\[}}[1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00], [9.000000e+00, 1.000000e+01]], {{\[}}[3.000000e+00, 4.000000e+00], [7.000000e+00, 8.000000e+00], [1.100000e+01, 1.200000e+01]]]> : tensor<2x3x2xf16>
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<4x3x2xf32>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%[[EMPTY]] : tensor<4x3x2xf32>)
// CHECK: %[[GEMM:.+]] = linalg.generic {indexing_maps = [#[[A]], #[[W]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%[[X]], %[[STACKW]] : tensor<4x2xf16>, tensor<2x3x2xf16>) outs(%[[FILL]] : tensor<4x3x2xf32>)
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[ADD:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[BIAS]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[GEMM]], %[[STACKB]] : tensor<4x3x2xf32>, tensor<3x2xf32>)
// CHECK: %[[Q:.+]] = tensor.extract_slice %[[ADD]][0, 0, 0] [4, 1, 2] [1, 1, 1] : tensor<4x3x2xf32> to tensor<4x2xf32>
// CHECK: %[[K:.+]] = tensor.extract_slice %[[ADD]][0, 1, 0] [4, 1, 2] [1, 1, 1]
// CHECK: %[[V:.+]] = tensor.extract_slice %[[ADD]][0, 2, 0] [4, 1, 2] [1, 1, 1]
// CHECK-NOT: linalg.matmul
// CHECK: return %[[Q]], %[[K]], %[[V]]

// Without merge-consumers the bias adds stay three, on the slices.
// APART-LABEL: func.func @qkv
// APART: %[[GEMM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x3x2xf32>)
// APART: %[[Q:.+]] = tensor.extract_slice %[[GEMM]][0, 0, 0] [4, 1, 2] [1, 1, 1]
// APART: %[[K:.+]] = tensor.extract_slice %[[GEMM]][0, 1, 0] [4, 1, 2] [1, 1, 1]
// APART: %[[V:.+]] = tensor.extract_slice %[[GEMM]][0, 2, 0] [4, 1, 2] [1, 1, 1]
// APART: linalg.generic {{.*}} ins(%[[Q]], %{{.+}} : tensor<4x2xf32>, tensor<2xf32>)
// APART: linalg.generic {{.*}} ins(%[[K]], %{{.+}} : tensor<4x2xf32>, tensor<2xf32>)
// APART: linalg.generic {{.*}} ins(%[[V]], %{{.+}} : tensor<4x2xf32>, tensor<2xf32>)
#row = affine_map<(m, n) -> (m, n)>
#col = affine_map<(m, n) -> (n)>
func.func @qkv(%x: tensor<4x2xf16>)
    -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf16>
  %wk = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf16>
  %wv = arith.constant dense<[[9.0, 10.0], [11.0, 12.0]]> : tensor<2x2xf16>
  %bq = arith.constant dense<0.5> : tensor<2xf32>
  %bk = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %bv = arith.constant dense<0.25> : tensor<2xf32>
  %e0 = tensor.empty() : tensor<4x2xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<4x2xf16>, tensor<2x2xf16>) outs(%f0 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e1 = tensor.empty() : tensor<4x2xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<4x2xf16>, tensor<2x2xf16>) outs(%f1 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<4x2xf16>, tensor<2x2xf16>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %o0 = tensor.empty() : tensor<4x2xf32>
  %qb = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%q, %bq : tensor<4x2xf32>, tensor<2xf32>) outs(%o0 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  %o1 = tensor.empty() : tensor<4x2xf32>
  %kb = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%k, %bk : tensor<4x2xf32>, tensor<2xf32>) outs(%o1 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  %o2 = tensor.empty() : tensor<4x2xf32>
  %vb = linalg.generic {indexing_maps = [#row, #col, #row], iterator_types = ["parallel", "parallel"]} ins(%v, %bv : tensor<4x2xf32>, tensor<2xf32>) outs(%o2 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %qb, %kb, %vb : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// The importer's form after reshape propagation: each projection writes
// [b, s, heads, d] from a weight [k, heads, d]; the new dimension goes
// before the heads. The bias adds also round to f16 (a shared scalar stays
// shared) and their outputs are sliced along the same dimension.
// CHECK-LABEL: func.func @heads
// CHECK: %[[GEMM:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x4x8xf16>, tensor<8x2x2x4xf16>) outs(%{{.+}} : tensor<1x4x2x2x4xf32>)
// CHECK: %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[GEMM]], %{{.+}}, %{{.+}} : tensor<1x4x2x2x4xf32>, tensor<2x2x4xf32>, f32) outs(%{{.+}} : tensor<1x4x2x2x4xf16>)
// CHECK: tensor.extract_slice %[[ADD]][0, 0, 0, 0, 0] [1, 4, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<1x4x2x2x4xf16> to tensor<1x4x2x4xf16>
// CHECK: tensor.extract_slice %[[ADD]][0, 0, 1, 0, 0] [1, 4, 1, 2, 4] [1, 1, 1, 1, 1] : tensor<1x4x2x2x4xf16> to tensor<1x4x2x4xf16>
#a = affine_map<(b, s, h, d, k) -> (b, s, k)>
#w = affine_map<(b, s, h, d, k) -> (k, h, d)>
#c = affine_map<(b, s, h, d, k) -> (b, s, h, d)>
#id4 = affine_map<(b, s, h, d) -> (b, s, h, d)>
#hd = affine_map<(b, s, h, d) -> (h, d)>
func.func @heads(%x: tensor<1x4x8xf16>, %scale: f32)
    -> (tensor<1x4x2x4xf16>, tensor<1x4x2x4xf16>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense<1.0> : tensor<8x2x4xf16>
  %wk = arith.constant dense<2.0> : tensor<8x2x4xf16>
  %bq = arith.constant dense<0.5> : tensor<2x4xf32>
  %bk = arith.constant dense<1.5> : tensor<2x4xf32>
  %e0 = tensor.empty() : tensor<1x4x2x4xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
  %q = linalg.generic {indexing_maps = [#a, #w, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %wq : tensor<1x4x8xf16>, tensor<8x2x4xf16>) outs(%f0 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f16, %w: f16, %acc: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.extf %w : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<1x4x2x4xf32>
  %e1 = tensor.empty() : tensor<1x4x2x4xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32>
  %k = linalg.generic {indexing_maps = [#a, #w, #c], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%x, %wk : tensor<1x4x8xf16>, tensor<8x2x4xf16>) outs(%f1 : tensor<1x4x2x4xf32>) {
  ^bb0(%in: f16, %w: f16, %acc: f32):
    %0 = arith.extf %in : f16 to f32
    %1 = arith.extf %w : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<1x4x2x4xf32>
  %o0 = tensor.empty() : tensor<1x4x2x4xf16>
  %qb = linalg.generic {indexing_maps = [#id4, #hd, affine_map<(b, s, h, d) -> ()>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q, %bq, %scale : tensor<1x4x2x4xf32>, tensor<2x4xf32>, f32) outs(%o0 : tensor<1x4x2x4xf16>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %o: f16):
    %0 = arith.addf %a, %b : f32
    %1 = arith.mulf %0, %s : f32
    %2 = arith.truncf %1 : f32 to f16
    linalg.yield %2 : f16
  } -> tensor<1x4x2x4xf16>
  %o1 = tensor.empty() : tensor<1x4x2x4xf16>
  %kb = linalg.generic {indexing_maps = [#id4, #hd, affine_map<(b, s, h, d) -> ()>, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k, %bk, %scale : tensor<1x4x2x4xf32>, tensor<2x4xf32>, f32) outs(%o1 : tensor<1x4x2x4xf16>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %o: f16):
    %0 = arith.addf %a, %b : f32
    %1 = arith.mulf %0, %s : f32
    %2 = arith.truncf %1 : f32 to f16
    linalg.yield %2 : f16
  } -> tensor<1x4x2x4xf16>
  return %qb, %kb : tensor<1x4x2x4xf16>, tensor<1x4x2x4xf16>
}

// -----

// The weights as the first input (W x^T): the new dimension goes before M,
// which comes from the weights alone.
// CHECK-LABEL: func.func @weights_first
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%{{.+}}, %arg0 : tensor<2x4x8xf32>, tensor<8x3xf32>) outs(%{{.+}} : tensor<2x4x3xf32>)
// CHECK-COUNT-2: tensor.extract_slice %{{.+}}[{{.+}}] [1, 4, 3] [1, 1, 1] : tensor<2x4x3xf32> to tensor<4x3xf32>
func.func @weights_first(%x: tensor<8x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<1.0> : tensor<4x8xf32>
  %w1 = arith.constant dense<2.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r0 = linalg.matmul ins(%w0, %x : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  %r1 = linalg.matmul ins(%w1, %x : tensor<4x8xf32>, tensor<8x3xf32>) outs(%f : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r0, %r1 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// Left apart: weights of different shapes, a weight that is not a
// constant, inits filled with different values, different payloads (a sum
// of products and a max of products), and a contraction with no sibling.
// CHECK-LABEL: func.func @not_siblings
// CHECK-COUNT-4: linalg.matmul
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: tensor.extract_slice
#xa = affine_map<(m, n, k) -> (m, k)>
#xb = affine_map<(m, n, k) -> (k, n)>
#xc = affine_map<(m, n, k) -> (m, n)>
func.func @not_siblings(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x4xf32>
  %c2 = arith.constant dense<3.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = linalg.fill ins(%one : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r0 = linalg.matmul ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r1 = linalg.matmul ins(%x, %c1 : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %r2 = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r3 = linalg.matmul ins(%x, %c2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%g : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r4 = linalg.generic {indexing_maps = [#xa, #xb, #xc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %c2 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.maximumf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %r5 = linalg.generic {indexing_maps = [#xa, #xb, #xc], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<4x8xf32>, tensor<4x4xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Dynamic shapes are left alone (the slices would need dynamic sizes).
// CHECK-LABEL: func.func @dynamic
// CHECK-COUNT-2: linalg.matmul
func.func @dynamic(%x: tensor<?x8xf32>, %n: index) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r0 = linalg.matmul ins(%x, %c0 : tensor<?x8xf32>, tensor<8x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r1 = linalg.matmul ins(%x, %c1 : tensor<?x8xf32>, tensor<8x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r0, %r1 : tensor<?x8xf32>, tensor<?x8xf32>
}

// -----

// Consumers that differ stay apart: Q gets a ReLU, K a bias; and a slice
// with two readers. The contractions fuse all the same.
// CHECK-LABEL: func.func @consumers_differ
// CHECK: %[[GEMM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x2x8xf32>)
// CHECK: %[[Q:.+]] = tensor.extract_slice %[[GEMM]][0, 0, 0]
// CHECK: %[[K:.+]] = tensor.extract_slice %[[GEMM]][0, 1, 0]
// CHECK: linalg.generic {{.*}} ins(%[[Q]] : tensor<4x8xf32>)
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}} ins(%[[K]], %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
#r = affine_map<(m, n) -> (m, n)>
#n = affine_map<(m, n) -> (n)>
func.func @consumers_differ(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %b = arith.constant dense<3.0> : tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul ins(%x, %c1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %qr = linalg.generic {indexing_maps = [#r, #r], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.maximumf %a, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %kb = linalg.generic {indexing_maps = [#r, #n, #r], iterator_types = ["parallel", "parallel"]} ins(%k, %b : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %qr, %kb : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Merged consumers whose other input differs and is not a constant (a
// residual per projection) stay apart.
// CHECK-LABEL: func.func @residuals_differ
// CHECK: %[[GEMM:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<4x2x8xf32>)
// CHECK-COUNT-2: linalg.generic {{.*}} ins(%{{.+}}, %arg{{[12]}} : tensor<4x8xf32>, tensor<4x8xf32>)
#rr = affine_map<(m, n) -> (m, n)>
func.func @residuals_differ(%x: tensor<4x8xf32>, %r0: tensor<4x8xf32>, %r1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul ins(%x, %c1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %qa = linalg.generic {indexing_maps = [#rr, #rr, #rr], iterator_types = ["parallel", "parallel"]} ins(%q, %r0 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %ka = linalg.generic {indexing_maps = [#rr, #rr, #rr], iterator_types = ["parallel", "parallel"]} ins(%k, %r1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %qa, %ka : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Convolutions that share their input (a bottleneck's first 1x1 and its
// shortcut) are left alone: a fused one would be a generic that the
// tensor-core convolution kernel does not take.
// CHECK-LABEL: func.func @sibling_convs
// CHECK-COUNT-2: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: tensor.extract_slice
func.func @sibling_convs(%x: tensor<1x8x8x16xf16>) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %w0 = arith.constant dense<1.0> : tensor<1x1x16x16xf16>
  %w1 = arith.constant dense<2.0> : tensor<1x1x16x16xf16>
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w0 : tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w1 : tensor<1x8x8x16xf16>, tensor<1x1x16x16xf16>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %c0, %c1 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}

// -----

// Only the consumers of the pass's own fused results merge: generics that
// read every unit slice of an argument alike (an ONNX Split's parts, whose
// consumers may need whole buffers) are left as they are.
// CHECK-LABEL: func.func @unstacked
// CHECK-COUNT-2: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %arg1 : tensor<4x8xf32>, tensor<8xf32>, f32)
#u = affine_map<(m, n) -> (m, n)>
#v = affine_map<(m, n) -> (n)>
#s = affine_map<(m, n) -> ()>
func.func @unstacked(%t: tensor<2x4x8xf32>, %scale: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %b0 = arith.constant dense<1.0> : tensor<8xf32>
  %b1 = arith.constant dense<2.0> : tensor<8xf32>
  %t0 = tensor.extract_slice %t[0, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<4x8xf32>
  %t1 = tensor.extract_slice %t[1, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r0 = linalg.generic {indexing_maps = [#u, #v, #s, #u], iterator_types = ["parallel", "parallel"]} ins(%t0, %b0, %scale : tensor<4x8xf32>, tensor<8xf32>, f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    %1 = arith.mulf %0, %c : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  %r1 = linalg.generic {indexing_maps = [#u, #v, #s, #u], iterator_types = ["parallel", "parallel"]} ins(%t1, %b1, %scale : tensor<4x8xf32>, tensor<8xf32>, f32) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    %1 = arith.mulf %0, %c : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %r0, %r1 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Left apart (slices of arguments; they would not merge either as the
// pass's own results): slices of the innermost dimension, and slices that
// do not cover the tensor (index 1 of 3 is not read).
// CHECK-LABEL: func.func @not_merged
// CHECK-COUNT-4: linalg.generic
#w2 = affine_map<(m) -> (m)>
func.func @not_merged(%t: tensor<4x2xf32>, %r: tensor<3x4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %t0 = tensor.extract_slice %t[0, 0] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4xf32>
  %t1 = tensor.extract_slice %t[0, 1] [4, 1] [1, 1] : tensor<4x2xf32> to tensor<4xf32>
  %r0 = tensor.extract_slice %r[0, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
  %r2 = tensor.extract_slice %r[2, 0] [1, 4] [1, 1] : tensor<3x4xf32> to tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %a0 = linalg.generic {indexing_maps = [#w2, #w2], iterator_types = ["parallel"]} ins(%t0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %a1 = linalg.generic {indexing_maps = [#w2, #w2], iterator_types = ["parallel"]} ins(%t1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %b0 = linalg.generic {indexing_maps = [#w2, #w2], iterator_types = ["parallel"]} ins(%r0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  %b2 = linalg.generic {indexing_maps = [#w2, #w2], iterator_types = ["parallel"]} ins(%r2 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %a0, %a1, %b0, %b2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Inits filled by a linalg.generic without inputs (what elementwise fusion
// leaves of a fill and a cast) count as fills of the value they yield.
// CHECK-LABEL: func.func @generic_fills
// CHECK: %[[FILL:.+]] = linalg.fill ins(%arg1 : f32) outs(%{{.+}} : tensor<4x2x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%[[FILL]] : tensor<4x2x8xf32>)
// CHECK-NOT: linalg.matmul
#o = affine_map<(m, n) -> (m, n)>
func.func @generic_fills(%x: tensor<4x8xf32>, %init: f32) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f0 = linalg.generic {indexing_maps = [#o], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %init : f32
  } -> tensor<4x8xf32>
  %f1 = linalg.generic {indexing_maps = [#o], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    linalg.yield %init : f32
  } -> tensor<4x8xf32>
  %q = linalg.matmul ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f0 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul ins(%x, %c1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %q, %k : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Siblings that would lower differently stay apart: one is marked to run
// as TF32 (`opsnn.tf32`), the other is not. The precision analysis'
// annotations (`precision.*`), which differ per op, do not count.
// CHECK-LABEL: func.func @lowered_differently
// CHECK-COUNT-2: linalg.matmul
// CHECK-LABEL: func.func @annotated_differently
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic {{.*}} attrs = {precision.ranges = "q"}
func.func @lowered_differently(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul {opsnn.tf32} ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul ins(%x, %c1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %q, %k : tensor<4x8xf32>, tensor<4x8xf32>
}
func.func @annotated_differently(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant dense<1.0> : tensor<8x8xf32>
  %c1 = arith.constant dense<2.0> : tensor<8x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.matmul {precision.ranges = "q"} ins(%x, %c0 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.matmul {precision.ranges = "k"} ins(%x, %c1 : tensor<4x8xf32>, tensor<8x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %q, %k : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Grouped-query attention: K and V have fewer heads than Q, so the weights
// differ in N only and concatenate along it (no new dimension): one GEMM of
// N = 4 + 2 + 2 heads' columns; Q, K and V are column ranges of its result.
// Their bias adds merge the same way, the biases concatenated.
// CHECK-LABEL: func.func @grouped_query
// CHECK-DAG: %[[B:.+]] = arith.constant dense<[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 3.000000e+00, 3.000000e+00]> : tensor<8xf32>
// CHECK-DAG: %[[W:.+]] = arith.constant dense<{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.000000e+00, 2.000000e+00, 3.000000e+00, 3.000000e+00], {{.*}}]> : tensor<2x8xf16>
// CHECK: %[[GEMM:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %[[W]] : tensor<4x2xf16>, tensor<2x8xf16>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK: %[[ADD:.+]] = linalg.generic {{.*}} ins(%[[GEMM]], %[[B]] : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.+}} : tensor<4x8xf32>)
// CHECK: %[[Q:.+]] = tensor.extract_slice %[[ADD]][0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
// CHECK: %[[K:.+]] = tensor.extract_slice %[[ADD]][0, 4] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
// CHECK: %[[V:.+]] = tensor.extract_slice %[[ADD]][0, 6] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
// CHECK: return %[[Q]], %[[K]], %[[V]]
#gr = affine_map<(m, n) -> (m, n)>
#gc = affine_map<(m, n) -> (n)>
func.func @grouped_query(%x: tensor<4x2xf16>)
    -> (tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %wq = arith.constant dense<1.0> : tensor<2x4xf16>
  %wk = arith.constant dense<2.0> : tensor<2x2xf16>
  %wv = arith.constant dense<3.0> : tensor<2x2xf16>
  %bq = arith.constant dense<1.0> : tensor<4xf32>
  %bk = arith.constant dense<2.0> : tensor<2xf32>
  %bv = arith.constant dense<3.0> : tensor<2xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %q = linalg.matmul ins(%x, %wq : tensor<4x2xf16>, tensor<2x4xf16>) outs(%f4 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %k = linalg.matmul ins(%x, %wk : tensor<4x2xf16>, tensor<2x2xf16>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %v = linalg.matmul ins(%x, %wv : tensor<4x2xf16>, tensor<2x2xf16>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %qb = linalg.generic {indexing_maps = [#gr, #gc, #gr], iterator_types = ["parallel", "parallel"]} ins(%q, %bq : tensor<4x4xf32>, tensor<4xf32>) outs(%e4 : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %kb = linalg.generic {indexing_maps = [#gr, #gc, #gr], iterator_types = ["parallel", "parallel"]} ins(%k, %bk : tensor<4x2xf32>, tensor<2xf32>) outs(%e2 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  %vb = linalg.generic {indexing_maps = [#gr, #gc, #gr], iterator_types = ["parallel", "parallel"]} ins(%v, %bv : tensor<4x2xf32>, tensor<2xf32>) outs(%e2 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %qb, %kb, %vb : tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// Ranges of a tensor that its slices do not cover, or consumers that read
// a shared input along the loop that would lengthen: not merged (slices of
// arguments, as above).
// CHECK-LABEL: func.func @ranges_not_merged
// CHECK-COUNT-4: linalg.generic
#rr2 = affine_map<(m, n) -> (m, n)>
func.func @ranges_not_merged(%t: tensor<4x8xf32>, %s: tensor<4x4xf32>, %w: tensor<2x4xf32>) -> (tensor<4x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %a = tensor.extract_slice %t[0, 0] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %b = tensor.extract_slice %t[0, 4] [4, 2] [1, 1] : tensor<4x8xf32> to tensor<4x2xf32>
  %c = tensor.extract_slice %s[0, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %d = tensor.extract_slice %s[2, 0] [2, 4] [1, 1] : tensor<4x4xf32> to tensor<2x4xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %ec = tensor.empty() : tensor<2x4xf32>
  %ra = linalg.generic {indexing_maps = [#rr2, #rr2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%e4 : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %rb = linalg.generic {indexing_maps = [#rr2, #rr2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<4x2xf32>) outs(%e2 : tensor<4x2xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.exp %x : f32
    linalg.yield %0 : f32
  } -> tensor<4x2xf32>
  %rc = linalg.generic {indexing_maps = [#rr2, #rr2, #rr2], iterator_types = ["parallel", "parallel"]} ins(%c, %w : tensor<2x4xf32>, tensor<2x4xf32>) outs(%ec : tensor<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  %rd = linalg.generic {indexing_maps = [#rr2, #rr2, #rr2], iterator_types = ["parallel", "parallel"]} ins(%d, %w : tensor<2x4xf32>, tensor<2x4xf32>) outs(%ec : tensor<2x4xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<2x4xf32>
  return %ra, %rb, %rc, %rd : tensor<4x4xf32>, tensor<4x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
