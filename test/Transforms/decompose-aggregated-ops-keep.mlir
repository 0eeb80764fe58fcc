// RUN: ops-nn-opt %s --opsnn-decompose-aggregated-ops="keep-contraction-softmax" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-decompose-aggregated-ops | FileCheck %s --check-prefix=ALL

// keep-contraction-softmax (the tensor-core pipelines) leaves a softmax
// over the last dimension of a contraction's result, through elementwise
// ops and reshapes, for the tensor-core kernel; the rest is decomposed.
// ALL-NOT: linalg.softmax

// Attention's scores: Q K^T, a precision round trip, a reshape, the scale.
// CHECK-LABEL: func @scores
// CHECK: linalg.softmax dimension(3)
func.func @scores(%q: tensor<4x16x8xf32>, %k: tensor<4x8x16xf32>) -> tensor<1x4x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35 : f32
  %e = tensor.empty() : tensor<4x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<4x16x8xf32>, tensor<4x8x16xf32>) outs(%f : tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %h = arith.truncf %s : tensor<4x16x16xf32> to tensor<4x16x16xf16>
  %x = arith.extf %h : tensor<4x16x16xf16> to tensor<4x16x16xf32>
  %r = tensor.expand_shape %x [[0, 1], [2], [3]] output_shape [1, 4, 16, 16] : tensor<4x16x16xf32> into tensor<1x4x16x16xf32>
  %e1 = tensor.empty() : tensor<1x4x16x16xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<1x4x16x16xf32>) outs(%e1 : tensor<1x4x16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %scale : f32
    linalg.yield %y : f32
  } -> tensor<1x4x16x16xf32>
  %e2 = tensor.empty() : tensor<1x4x16x16xf32>
  %p = linalg.softmax dimension(3) ins(%scaled : tensor<1x4x16x16xf32>) outs(%e2 : tensor<1x4x16x16xf32>) -> tensor<1x4x16x16xf32>
  return %p : tensor<1x4x16x16xf32>
}

// Not over the last dimension: decomposed.
// CHECK-LABEL: func @other_dimension
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @other_dimension(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %e2 = tensor.empty() : tensor<8x8xf32>
  %p = linalg.softmax dimension(0) ins(%s : tensor<8x8xf32>) outs(%e2 : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %p : tensor<8x8xf32>
}

// Not a contraction's result (a classifier's argument, a reduction's):
// decomposed.
// CHECK-LABEL: func @no_contraction
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @no_contraction(%x: tensor<2x10xf32>, %y: tensor<2x10x3xf32>) -> (tensor<2x10xf32>, tensor<2x10xf32>) {
  %e = tensor.empty() : tensor<2x10xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<2x10xf32>) outs(%e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x10xf32>) -> tensor<2x10xf32>
  %r = linalg.reduce ins(%y : tensor<2x10x3xf32>) outs(%f : tensor<2x10xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<2x10xf32>
  %q = linalg.softmax dimension(1) ins(%r : tensor<2x10xf32>) outs(%e2 : tensor<2x10xf32>) -> tensor<2x10xf32>
  return %p, %q : tensor<2x10xf32>, tensor<2x10xf32>
}


// Dynamic shapes: the kernel needs static ones.
// CHECK-LABEL: func @dynamic
// CHECK-NOT: linalg.softmax
// CHECK: return
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<4x8xf32>, %n: index) -> tensor<?x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<?x4xf32>, tensor<4x8xf32>) outs(%f : tensor<?x8xf32>) -> tensor<?x8xf32>
  %e2 = tensor.empty(%n) : tensor<?x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<?x8xf32>) outs(%e2 : tensor<?x8xf32>) -> tensor<?x8xf32>
  return %p : tensor<?x8xf32>
}
