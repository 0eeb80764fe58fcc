// RUN: ops-nn-opt %s -split-input-file | FileCheck %s
// Round trip: the printed form parses back to the same IR.
// RUN: ops-nn-opt %s -split-input-file | ops-nn-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func @channels_last
// CHECK: layout.convert %{{.*}} from "NCHW" to "NHWC" : tensor<1x3x224x224xf32> -> tensor<1x224x224x3xf32>
func.func @channels_last(%x: tensor<1x3x224x224xf32>) -> tensor<1x224x224x3xf32> {
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x224x224xf32> -> tensor<1x224x224x3xf32>
  return %y : tensor<1x224x224x3xf32>
}

// -----

// CHECK-LABEL: func @blocked_dynamic_batch
// CHECK: layout.convert %{{.*}} from "NCHW" to "NCHW8c" : tensor<?x64x56x56xf16> -> tensor<?x8x56x56x8xf16>
// CHECK: layout.convert %{{.*}} from "NCHW8c" to "NHWC8c" : tensor<?x8x56x56x8xf16> -> tensor<?x56x56x8x8xf16>
func.func @blocked_dynamic_batch(%x: tensor<?x64x56x56xf16>) -> tensor<?x56x56x8x8xf16> {
  %b = layout.convert %x from "NCHW" to "NCHW8c" : tensor<?x64x56x56xf16> -> tensor<?x8x56x56x8xf16>
  %c = layout.convert %b from "NCHW8c" to "NHWC8c" : tensor<?x8x56x56x8xf16> -> tensor<?x56x56x8x8xf16>
  return %c : tensor<?x56x56x8x8xf16>
}

// -----

// Dynamic sizes anywhere, including the tiled dimension.
// CHECK-LABEL: func @all_dynamic
// CHECK: layout.convert %{{.*}} from "NCDHW" to "NDHWC32c" : tensor<?x?x?x?x?xbf16> -> tensor<?x?x?x?x?x32xbf16>
func.func @all_dynamic(%x: tensor<?x?x?x?x?xbf16>) -> tensor<?x?x?x?x?x32xbf16> {
  %y = layout.convert %x from "NCDHW" to "NDHWC32c" : tensor<?x?x?x?x?xbf16> -> tensor<?x?x?x?x?x32xbf16>
  return %y : tensor<?x?x?x?x?x32xbf16>
}

// -----

// Matrices and weights; integer and FP8 element types.
// CHECK-LABEL: func @matrix_and_weights
// CHECK: layout.convert %{{.*}} from "MK" to "KM" : tensor<128x64xi8> -> tensor<64x128xi8>
// CHECK: layout.convert %{{.*}} from "FCHW" to "HWCF" : tensor<32x16x3x3xf8E4M3FN> -> tensor<3x3x16x32xf8E4M3FN>
// CHECK: layout.convert %{{.*}} from "NC" to "NC4c" : tensor<8x16xf32> -> tensor<8x4x4xf32>
func.func @matrix_and_weights(%a: tensor<128x64xi8>, %w: tensor<32x16x3x3xf8E4M3FN>, %v: tensor<8x16xf32>)
    -> (tensor<64x128xi8>, tensor<3x3x16x32xf8E4M3FN>, tensor<8x4x4xf32>) {
  %at = layout.convert %a from "MK" to "KM" : tensor<128x64xi8> -> tensor<64x128xi8>
  %wt = layout.convert %w from "FCHW" to "HWCF" : tensor<32x16x3x3xf8E4M3FN> -> tensor<3x3x16x32xf8E4M3FN>
  %vb = layout.convert %v from "NC" to "NC4c" : tensor<8x16xf32> -> tensor<8x4x4xf32>
  return %at, %wt, %vb : tensor<64x128xi8>, tensor<3x3x16x32xf8E4M3FN>, tensor<8x4x4xf32>
}

// -----

// The layout attribute stands on its own too.
// CHECK-LABEL: func @attribute
// CHECK-SAME: layout.a = #layout<"NHWC">
// CHECK-SAME: layout.b = #layout<"NCHW32c">
// CHECK-SAME: layout.c = #layout<"KM">
func.func @attribute() attributes {layout.a = #layout<"NHWC">, layout.b = #layout<"NCHW32c">, layout.c = #layout<"KM">} {
  return
}
