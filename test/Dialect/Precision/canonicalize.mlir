// RUN: ops-nn-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: func @cast_to_same_type
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @cast_to_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = precision.cast %x : tensor<4xf32> to tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// f16 -> f32 is exact, so going back to f16 gives x itself.
// CHECK-LABEL: func @exact_round_trip
// CHECK-SAME: (%[[X:.+]]: tensor<?x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @exact_round_trip(%x: tensor<?x8xf16>) -> tensor<?x8xf16> {
  %w = precision.cast %x : tensor<?x8xf16> to tensor<?x8xf32>
  %y = precision.cast %w : tensor<?x8xf32> to tensor<?x8xf16>
  return %y : tensor<?x8xf16>
}

// -----

// An exact first step is skipped: one rounding from the source is the same.
// CHECK-LABEL: func @exact_then_rounding
// CHECK-SAME: (%[[X:.+]]: tensor<4xf16>, %[[Y:.+]]: tensor<4xbf16>, %[[Z:.+]]: f8E4M3FN)
// CHECK-DAG: %[[A:.+]] = precision.cast %[[X]] : tensor<4xf16> to tensor<4xbf16>
// CHECK-DAG: %[[B:.+]] = precision.cast %[[Y]] : tensor<4xbf16> to tensor<4xf16>
// CHECK-DAG: %[[C:.+]] = precision.cast %[[Z]] : f8E4M3FN to f32
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @exact_then_rounding(%x: tensor<4xf16>, %y: tensor<4xbf16>, %z: f8E4M3FN) -> (tensor<4xbf16>, tensor<4xf16>, f32) {
  %xw = precision.cast %x : tensor<4xf16> to tensor<4xf32>
  %a = precision.cast %xw : tensor<4xf32> to tensor<4xbf16>
  %yw = precision.cast %y : tensor<4xbf16> to tensor<4xf32>
  %b = precision.cast %yw : tensor<4xf32> to tensor<4xf16>
  %zh = precision.cast %z : f8E4M3FN to f16
  %c = precision.cast %zh : f16 to f32
  return %a, %b, %c : tensor<4xbf16>, tensor<4xf16>, f32
}

// -----

// f32 -> f16 rounds, so f32 -> f16 -> f32 is not an identity: both casts stay.
// CHECK-LABEL: func @rounding_round_trip_kept
// CHECK: %[[H:.+]] = precision.cast %{{.+}} : tensor<4xf32> to tensor<4xf16>
// CHECK: %[[W:.+]] = precision.cast %[[H]] : tensor<4xf16> to tensor<4xf32>
// CHECK: return %[[W]]
func.func @rounding_round_trip_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %h = precision.cast %x : tensor<4xf32> to tensor<4xf16>
  %w = precision.cast %h : tensor<4xf16> to tensor<4xf32>
  return %w : tensor<4xf32>
}

// -----

// Constants round to nearest, ties to even: 0.1 -> 0.0999755859375;
// 65520 (halfway to the next binade step past f16's max) -> +inf;
// 65504 (f16 max) stays; 1e-8 (below half the smallest subnormal) -> 0;
// 2049 and 2051 are ties (f16 spacing is 2 there) -> 2048 and 2052.
// CHECK-LABEL: func @constant_f16_rounding
// CHECK: arith.constant dense<[9.997550e-02, 0x7C00, 6.550400e+04, 0.000000e+00, 2.048000e+03, 2.052000e+03]> : tensor<6xf16>
// CHECK-NOT: precision.cast
func.func @constant_f16_rounding() -> tensor<6xf16> {
  %c = arith.constant dense<[0.1, 65520.0, 65504.0, 1.0e-8, 2049.0, 2051.0]> : tensor<6xf32>
  %h = precision.cast %c : tensor<6xf32> to tensor<6xf16>
  return %h : tensor<6xf16>
}

// -----

// bf16 keeps 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 and
// goes to the even one, 1; 1 + 3 * 2^-8 rounds up to 1 + 2^-6.
// CHECK-LABEL: func @constant_bf16_rounding
// CHECK-DAG: arith.constant 1.000000e+00 : bf16
// CHECK-DAG: arith.constant 1.015630e+00 : bf16
func.func @constant_bf16_rounding() -> (bf16, bf16) {
  %a = arith.constant 1.00390625 : f32
  %b = arith.constant 1.01171875 : f32
  %ha = precision.cast %a : f32 to bf16
  %hb = precision.cast %b : f32 to bf16
  return %ha, %hb : bf16, bf16
}

// -----

// Splat constants and FP8: 300 is inside E4M3FN's range (max 448) and rounds
// to 288, the nearest value (spacing 32 in [256, 512)).
// CHECK-LABEL: func @constant_fp8
// CHECK: arith.constant dense<2.880000e+02> : tensor<2x2xf8E4M3FN>
func.func @constant_fp8() -> tensor<2x2xf8E4M3FN> {
  %c = arith.constant dense<300.0> : tensor<2x2xf32>
  %h = precision.cast %c : tensor<2x2xf32> to tensor<2x2xf8E4M3FN>
  return %h : tensor<2x2xf8E4M3FN>
}

// -----

// CHECK-LABEL: func @scale_by_one
// CHECK-SAME: (%[[X:.+]]: tensor<f32>, %[[S:.+]]: f32)
// CHECK: %[[Y:.+]] = precision.scale %[[X]] by %[[S]]
// CHECK: return %[[X]], %[[Y]]
func.func @scale_by_one(%x: tensor<f32>, %s: f32) -> (tensor<f32>, tensor<f32>) {
  %one = arith.constant 1.0 : f32
  %a = precision.scale %x by %one : tensor<f32>
  %b = precision.scale %x by %s : tensor<f32>
  return %a, %b : tensor<f32>, tensor<f32>
}

// -----

// Constant gradients are unscaled at compile time; the flag says whether any
// element was infinite or NaN.
// CHECK-LABEL: func @unscale_constants
// CHECK-DAG: %[[G:.+]] = arith.constant dense<[1.000000e+00, 2.000000e+00, -2.500000e-01]> : tensor<3xf16>
// CHECK-DAG: %[[FALSE:.+]] = arith.constant false
// CHECK-DAG: %[[I:.+]] = arith.constant dense<[0x7C00, 5.000000e-01]> : tensor<2xf16>
// CHECK-DAG: %[[TRUE:.+]] = arith.constant true
// CHECK: return %[[G]], %[[FALSE]], %[[I]], %[[TRUE]]
func.func @unscale_constants() -> (tensor<3xf16>, i1, tensor<2xf16>, i1) {
  %s = arith.constant 2.0 : f32
  %g = arith.constant dense<[2.0, 4.0, -0.5]> : tensor<3xf16>
  %u:2 = precision.unscale_and_check %g by %s : tensor<3xf16>
  %i = arith.constant dense<[0x7C00, 1.0]> : tensor<2xf16>
  %v:2 = precision.unscale_and_check %i by %s : tensor<2xf16>
  return %u#0, %u#1, %v#0, %v#1 : tensor<3xf16>, i1, tensor<2xf16>, i1
}

// -----

// GradScaler rules on constants (defaults: growth 2, backoff 0.5, interval
// 2000): an ordinary finite step counts; the 2000th grows the scale and
// resets; a non-finite step backs off and resets; growth that would overflow
// keeps the scale.
// CHECK-LABEL: func @update_constants
// CHECK-DAG: %[[S64K:.+]] = arith.constant 6.553600e+04 : f32
// CHECK-DAG: %[[T6:.+]] = arith.constant 6 : i32
// CHECK-DAG: %[[S128K:.+]] = arith.constant 1.310720e+05 : f32
// CHECK-DAG: %[[T0:.+]] = arith.constant 0 : i32
// CHECK-DAG: %[[S32K:.+]] = arith.constant 3.276800e+04 : f32
// CHECK-DAG: %[[SBIG:.+]] = arith.constant 3.000000e+38 : f32
// CHECK: return %[[S64K]], %[[T6]], %[[S128K]], %[[T0]], %[[S32K]], %[[T0]], %[[SBIG]], %[[T0]]
func.func @update_constants() -> (f32, i32, f32, i32, f32, i32, f32, i32) {
  %s = arith.constant 65536.0 : f32
  %big = arith.constant 3.0e38 : f32
  %t5 = arith.constant 5 : i32
  %t1999 = arith.constant 1999 : i32
  %false = arith.constant false
  %true = arith.constant true
  %a, %ta = precision.update_loss_scale %s, %t5, %false
  %b, %tb = precision.update_loss_scale %s, %t1999, %false
  %c, %tc = precision.update_loss_scale %s, %t5, %true
  %d, %td = precision.update_loss_scale %big, %t1999, %false
  return %a, %ta, %b, %tb, %c, %tc, %d, %td : f32, i32, f32, i32, f32, i32, f32, i32
}

// -----

// Custom factors are honoured.
// CHECK-LABEL: func @update_custom
// CHECK-DAG: %[[S:.+]] = arith.constant 4.096000e+03 : f32
// CHECK-DAG: %[[T:.+]] = arith.constant 0 : i32
// CHECK: return %[[S]], %[[T]]
func.func @update_custom() -> (f32, i32) {
  %s = arith.constant 1024.0 : f32
  %t = arith.constant 9 : i32
  %false = arith.constant false
  %a, %ta = precision.update_loss_scale %s, %t, %false {growth_factor = 4.0, growth_interval = 10}
  return %a, %ta : f32, i32
}
