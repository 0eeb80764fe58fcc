// RUN: ops-nn-opt %s --split-input-file --opsnn-assign-precision="mode=fp8 range-tf32" | FileCheck %s
// RUN: ops-nn-opt %s --split-input-file --opsnn-assign-precision="mode=int8 range-tf32" | FileCheck %s --check-prefix=INT8
// RUN: ops-nn-opt %s --split-input-file --opsnn-assign-precision="mode=fp8" | FileCheck %s --check-prefix=PLAIN
// RUN: ops-nn-opt %s --split-input-file --opsnn-assign-precision="mode=fp8 range-tf32 keep-first-last-fp32" | FileCheck %s --check-prefix=FIRSTLAST

// With range-tf32, quantization's FP32 leftovers run as TF32: attention's
// scores (activation by activation: no constant weight) after a quantized
// projection; the projection is FP8 (INT8). Without range-tf32 the scores
// stay plain FP32. With keep-first-last-fp32 the scores are the last
// contraction and stay FP32 (the projection, the first, is not quantized).
// CHECK-LABEL: func.func @scores
// CHECK: linalg.matmul {precision.decision = {precision = f8E4M3FN
// CHECK: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "left in FP32 by fp8 quantization (the weight (operand 1) is not a dense constant); TF32 keeps FP32's range"}}
// INT8-LABEL: func.func @scores
// INT8: linalg.matmul {precision.decision = {precision = i8
// INT8: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "left in FP32 by int8 quantization (the weight (operand 1) is not a dense constant); TF32 keeps FP32's range"}}
// PLAIN-LABEL: func.func @scores
// PLAIN-NOT: opsnn.tf32
// PLAIN: return
// FIRSTLAST-LABEL: func.func @scores
// FIRSTLAST-NOT: opsnn.tf32
// FIRSTLAST: return
func.func @scores(%x: tensor<16x32xf32> {precision.range = #precision.range<min = -1.0, max = 1.0, min_abs_nonzero = 0.01>},
                  %k: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %w = arith.constant dense<0.5> : tensor<32x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
  %q = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
  %e2 = tensor.empty() : tensor<16x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul ins(%q, %k : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// -----

// An op forced to FP32 stays FP32.
// CHECK-LABEL: func.func @forced
// CHECK-NOT: opsnn.tf32
// CHECK: return
func.func @forced(%a: tensor<16x32xf32>, %b: tensor<32x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul {opsnn.precision = "fp32"} ins(%a, %b : tensor<16x32xf32>, tensor<32x16xf32>) outs(%f : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}
