// RUN: ops-nn-opt %s -split-input-file -verify-diagnostics

func.func @cast_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'precision.cast' op requires the same shape for all operands and results}}
  %y = precision.cast %x : tensor<4xf32> to tensor<8xf16>
  return
}

// -----

func.func @cast_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'precision.cast' op operand #0 must be float or ranked tensor of floats, but got 'tensor<4xi32>'}}
  %y = precision.cast %x : tensor<4xi32> to tensor<4xf16>
  return
}

// -----

func.func @cast_tensor_to_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{'precision.cast' op requires the same shape for all operands and results}}
  %y = precision.cast %x : tensor<f32> to f16
  return
}

// -----

func.func @scale_type(%x: tensor<4xf16>, %s: f32) {
  // expected-error @+1 {{'precision.scale' op failed to verify that all of {input, result} have same type}}
  %y = "precision.scale"(%x, %s) : (tensor<4xf16>, f32) -> tensor<4xf32>
  return
}

// -----

func.func @unscale_results(%x: tensor<4xf16>, %s: f32) {
  // expected-error @+2 {{'precision.unscale_and_check' op failed to infer returned types}}
  // expected-error @+1 {{'precision.unscale_and_check' op inferred type(s) 'tensor<4xf16>', 'i1' are incompatible with return type(s) of operation 'tensor<4xf32>', 'i1'}}
  %y:2 = "precision.unscale_and_check"(%x, %s) : (tensor<4xf16>, f32) -> (tensor<4xf32>, i1)
  return
}

// -----

func.func @bad_init_scale(%s: f32, %t: i32, %f: i1) {
  // expected-error @+1 {{'precision.update_loss_scale' op init_scale must be positive and finite, got 0}}
  %a, %b = precision.update_loss_scale %s, %t, %f {init_scale = 0.0}
  return
}

// -----

func.func @bad_growth(%s: f32, %t: i32, %f: i1) {
  // expected-error @+1 {{'precision.update_loss_scale' op growth_factor must be greater than 1, got 1}}
  %a, %b = precision.update_loss_scale %s, %t, %f {growth_factor = 1.0}
  return
}

// -----

func.func @bad_backoff(%s: f32, %t: i32, %f: i1) {
  // expected-error @+1 {{'precision.update_loss_scale' op backoff_factor must be in (0, 1), got 1.5}}
  %a, %b = precision.update_loss_scale %s, %t, %f {backoff_factor = 1.5}
  return
}

// -----

func.func @bad_interval(%s: f32, %t: i32, %f: i1) {
  // expected-error @+1 {{'precision.update_loss_scale' op growth_interval must be at least 1, got 0}}
  %a, %b = precision.update_loss_scale %s, %t, %f {growth_interval = 0}
  return
}

// -----

// expected-error @+1 {{storage type 'index' is not a float or signless integer type}}
func.func @assignment_index() attributes {a = #precision.assignment<storage = index, compute = f32, accumulate = f32>} {
  return
}

// -----

// expected-error @+1 {{accumulate type 'f16' is narrower than compute type 'f32'}}
func.func @assignment_narrow_accumulate() attributes {a = #precision.assignment<storage = f16, compute = f32, accumulate = f16>} {
  return
}

// -----

// expected-error @+1 {{range min 2.000000e+00 is greater than max 1.000000e+00}}
func.func @range_inverted() attributes {r = #precision.range<min = 2.0, max = 1.0, min_abs_nonzero = 1.0>} {
  return
}

// -----

// expected-error @+1 {{min_abs_nonzero -1.000000e+00 is negative}}
func.func @range_negative_min_abs() attributes {r = #precision.range<min = -2.0, max = 1.0, min_abs_nonzero = -1.0>} {
  return
}

// -----

// expected-error @+1 {{min_abs_nonzero 5.000000e+00 exceeds the largest magnitude of the range}}
func.func @range_min_abs_too_big() attributes {r = #precision.range<min = -2.0, max = 1.0, min_abs_nonzero = 5.0>} {
  return
}

// -----

// expected-error @+1 {{range bounds must not be NaN}}
func.func @range_nan() attributes {r = #precision.range<min = 0x7FF8000000000000, max = 1.0, min_abs_nonzero = 1.0>} {
  return
}
