// Bad options: a clear error on the function, never a crash.
// RUN: ops-nn-opt %s --opsnn-quantize="type=int4" -verify-diagnostics
// RUN: not ops-nn-opt %s --opsnn-quantize="type=fp8 fp8-format=e4m3" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not ops-nn-opt %s --opsnn-quantize="per-channel=maybe" 2>&1 | FileCheck %s --check-prefix=BOOL

// FORMAT: error: opsnn-quantize: unknown fp8-format 'e4m3' (expected e4m3fn or e5m2)
// BOOL: for the --per-channel option: 'maybe' is invalid value for boolean argument

// expected-error @+1 {{opsnn-quantize: unknown type 'int4' (expected int8 or fp8)}}
func.func @f(%x: tensor<4x3xf32> {precision.range = #precision.range<min = -1.0, max = 1.0, min_abs_nonzero = 0.1>})
    -> tensor<4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
