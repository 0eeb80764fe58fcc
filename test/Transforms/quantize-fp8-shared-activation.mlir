// RUN: ops-nn-opt %s --opsnn-quantize="type=fp8" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-quantize="type=fp8" --opsnn-fuse-sibling-contractions | FileCheck %s --check-prefix=SIBLINGS
// RUN: ops-nn-opt %s --opsnn-quantize="type=int8" | FileCheck %s --check-prefix=INT8

// Attention's Q, K and V projections read the same hidden states, each
// through its own collapse_shape: FP8 quantizes them once (one
// elementwise op on the hidden states themselves, right after them, at
// the one scale their range gives; then the collapse_shape on the codes),
// so the three contractions share their input and
// --opsnn-fuse-sibling-contractions stacks them. INT8 likewise: one
// quant.qcast and quant.scast of the hidden states, the collapse_shape on
// the i8 codes. (INT8 quantized each collapse_shape apart: bert_tiny's Q, K
// and V stayed three GEMMs under INT8, one under FP8.) On the hidden
// states' own loops the op can join the LayerNorm kernel that writes them.
// CHECK-LABEL: func.func @qkv
// CHECK: tensor.empty() : tensor<1x16x32xf8E4M3FN>
// CHECK-NEXT: %[[Q3:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x16x32xf32>)
// CHECK: arith.truncf {{.*}} : f32 to f8E4M3FN
// CHECK: %[[Q:.*]] = tensor.collapse_shape %[[Q3]] {{\[}}[0, 1], [2]] : tensor<1x16x32xf8E4M3FN> into tensor<16x32xf8E4M3FN>
// CHECK-NOT: arith.truncf
// CHECK-COUNT-3: linalg.matmul {{.*}} ins(%[[Q]], %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x32xf8E4M3FN>)
// CHECK-NOT: arith.truncf
// CHECK: return

// A different range (scale) keeps its own codes.
// CHECK-LABEL: func.func @two_scales
// CHECK-COUNT-2: arith.truncf {{.*}} : f32 to f8E4M3FN

// INT8-LABEL: func.func @qkv
// INT8: %[[Q3:.*]] = quant.qcast %arg0 : tensor<1x16x32xf32> to tensor<1x16x32x!quant.uniform
// INT8: %[[C3:.*]] = quant.scast %[[Q3]] {{.*}} to tensor<1x16x32xi8>
// INT8: %[[Q:.*]] = tensor.collapse_shape %[[C3]] {{\[}}[0, 1], [2]] : tensor<1x16x32xi8> into tensor<16x32xi8>
// INT8-NOT: quant.qcast
// INT8-COUNT-3: linalg.matmul {{.*}} ins(%[[Q]], %{{.*}} : tensor<16x32xi8>, tensor<32x32xi8>)
// INT8-NOT: quant.qcast
// INT8: return
// INT8-LABEL: func.func @two_scales
// INT8-COUNT-2: quant.qcast

// SIBLINGS-LABEL: func.func @qkv
// SIBLINGS: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x32xf8E4M3FN>, tensor<32x3x32xf8E4M3FN>) outs(%{{.*}} : tensor<16x3x32xf32>)
// SIBLINGS-NOT: linalg.matmul
// SIBLINGS: return
#r = #precision.range<min = -2.0, max = 3.0, min_abs_nonzero = 0.01>
func.func @qkv(%h: tensor<1x16x32xf32>) -> (tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>) {
  %wq = arith.constant dense<0.5> : tensor<32x32xf32>
  %wk = arith.constant dense<0.25> : tensor<32x32xf32>
  %wv = arith.constant dense<-0.5> : tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %x0 = tensor.collapse_shape %h [[0, 1], [2]] {precision.ranges = [#r]} : tensor<1x16x32xf32> into tensor<16x32xf32>
  %q = linalg.matmul ins(%x0, %wq : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %x1 = tensor.collapse_shape %h [[0, 1], [2]] {precision.ranges = [#r]} : tensor<1x16x32xf32> into tensor<16x32xf32>
  %k = linalg.matmul ins(%x1, %wk : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %x2 = tensor.collapse_shape %h [[0, 1], [2]] {precision.ranges = [#precision.range<min = -3.0, max = 2.0, min_abs_nonzero = 0.02>]} : tensor<1x16x32xf32> into tensor<16x32xf32>
  %v = linalg.matmul ins(%x2, %wv : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %q, %k, %v : tensor<16x32xf32>, tensor<16x32xf32>, tensor<16x32xf32>
}

func.func @two_scales(%x: tensor<16x32xf32> {precision.range = #precision.range<min = -1.0, max = 1.0, min_abs_nonzero = 0.01>},
                      %y: tensor<16x32xf32> {precision.range = #precision.range<min = -4.0, max = 4.0, min_abs_nonzero = 0.01>})
    -> (tensor<16x32xf32>, tensor<16x32xf32>) {
  %w = arith.constant dense<0.5> : tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %b = linalg.matmul ins(%y, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %a, %b : tensor<16x32xf32>, tensor<16x32xf32>
}
