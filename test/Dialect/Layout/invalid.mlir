// RUN: ops-nn-opt %s -split-input-file -verify-diagnostics

func.func @different_logical_dims(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'layout.convert' op layouts "NC" and "MK" do not describe the same logical dimensions}}
  %y = layout.convert %x from "NC" to "MK" : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @input_rank(%x: tensor<1x3x8xf32>) {
  // expected-error @+1 {{'layout.convert' op input rank 3 does not match rank 4 of layout "NCHW"}}
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @result_rank(%x: tensor<1x64x8x8xf32>) {
  // expected-error @+1 {{'layout.convert' op result rank 4 does not match rank 5 of layout "NCHW8c"}}
  %y = layout.convert %x from "NCHW" to "NCHW8c" : tensor<1x64x8x8xf32> -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @wrong_tile_size(%x: tensor<1x64x8x8xf32>) {
  // expected-error @+1 {{'layout.convert' op result dimension 4 has size 16 but layout "NCHW8c" tiles dimension 'C' by 8}}
  %y = layout.convert %x from "NCHW" to "NCHW8c" : tensor<1x64x8x8xf32> -> tensor<1x8x8x8x16xf32>
  return
}

// -----

func.func @not_divisible(%x: tensor<1x60x8x8xf32>) {
  // expected-error @+1 {{'layout.convert' op dimension 'C' of size 60 is not divisible by tile size 8 of layout "NCHW8c"}}
  %y = layout.convert %x from "NCHW" to "NCHW8c" : tensor<1x60x8x8xf32> -> tensor<1x8x8x8x8xf32>
  return
}

// -----

// The permutation NCHW -> NHWC moves C last: 1x3x8x4 becomes 1x8x4x3.
func.func @mismatched_shape(%x: tensor<1x3x8x4xf32>) {
  // expected-error @+1 {{'layout.convert' op result shape 1x4x8x3 does not match shape 1x8x4x3 of the input in layout "NHWC"}}
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8x4xf32> -> tensor<1x4x8x3xf32>
  return
}

// -----

func.func @mismatched_element_type(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'layout.convert' op failed to verify that all of {input, result} have same element type}}
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf16>
  return
}

// -----

func.func @unknown_letter(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NCXW": unknown dimension letter 'X' (expected one of NGFCDHWMK)}}
  %y = layout.convert %x from "NCXW" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @repeated_letter(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NHHC": dimension 'H' appears twice}}
  %y = layout.convert %x from "NCHW" to "NHHC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @lower_case_first(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "nchw": expected upper-case dimension letters first}}
  %y = layout.convert %x from "nchw" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @zero_tile(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NCHW0c": expected a positive tile size at offset 4}}
  %y = layout.convert %x from "NCHW" to "NCHW0c" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @tile_without_letter(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NCHW8": expected a lower-case dimension letter after tile size 8}}
  %y = layout.convert %x from "NCHW" to "NCHW8" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @tile_of_missing_dim(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NCHW8d": tile 'd' does not name an outer dimension}}
  %y = layout.convert %x from "NCHW" to "NCHW8d" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

func.func @tiled_twice(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{invalid layout "NCHW8c4c": dimension 'C' is tiled twice}}
  %y = layout.convert %x from "NCHW" to "NCHW8c4c" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return
}

// -----

// expected-error @+1 {{invalid layout "NQ": unknown dimension letter 'Q'}}
func.func @bad_attribute() attributes {layout.x = #layout<"NQ">} {
  return
}
