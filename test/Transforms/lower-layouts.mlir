// RUN: ops-nn-opt %s -split-input-file --opsnn-lower-layouts | FileCheck %s

// Two unblocked layouts: one transpose with the composed permutation.
// CHECK-LABEL: func @nchw_to_nhwc
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x8x4x3xf32>
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<1x3x8x4xf32>) outs(%[[E]] : tensor<1x8x4x3xf32>) permutation = [0, 2, 3, 1]
// CHECK: return %[[T]]
func.func @nchw_to_nhwc(%x: tensor<1x3x8x4xf32>) -> tensor<1x8x4x3xf32> {
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8x4xf32> -> tensor<1x8x4x3xf32>
  return %y : tensor<1x8x4x3xf32>
}

// -----

// NHWC -> NCHW is the inverse permutation; dynamic sizes come from tensor.dim.
// CHECK-LABEL: func @nhwc_to_nchw_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x8x?x3xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[N:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK-DAG: %[[W:.+]] = tensor.dim %[[X]], %[[C2]]
// CHECK: %[[E:.+]] = tensor.empty(%[[N]], %[[W]]) : tensor<?x3x8x?xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<?x8x?x3xf32>) outs(%[[E]] : tensor<?x3x8x?xf32>) permutation = [0, 3, 1, 2]
func.func @nhwc_to_nchw_dynamic(%x: tensor<?x8x?x3xf32>) -> tensor<?x3x8x?xf32> {
  %y = layout.convert %x from "NHWC" to "NCHW" : tensor<?x8x?x3xf32> -> tensor<?x3x8x?xf32>
  return %y : tensor<?x3x8x?xf32>
}

// -----

// 3-D and matrix layouts.
// CHECK-LABEL: func @ndhwc_and_km
// CHECK: linalg.transpose ins(%{{.+}} : tensor<2x4x3x5x6xf16>) outs(%{{.+}} : tensor<2x3x5x6x4xf16>) permutation = [0, 2, 3, 4, 1]
// CHECK: linalg.transpose ins(%{{.+}} : tensor<16x32xi8>) outs(%{{.+}} : tensor<32x16xi8>) permutation = [1, 0]
func.func @ndhwc_and_km(%x: tensor<2x4x3x5x6xf16>, %m: tensor<16x32xi8>) -> (tensor<2x3x5x6x4xf16>, tensor<32x16xi8>) {
  %y = layout.convert %x from "NCDHW" to "NDHWC" : tensor<2x4x3x5x6xf16> -> tensor<2x3x5x6x4xf16>
  %t = layout.convert %m from "MK" to "KM" : tensor<16x32xi8> -> tensor<32x16xi8>
  return %y, %t : tensor<2x3x5x6x4xf16>, tensor<32x16xi8>
}

// -----

// Into a blocked layout: linalg.pack; the outer permutation is dropped when
// it is the identity.
// CHECK-LABEL: func @nchw_to_nchw8c
// CHECK-SAME: (%[[X:.+]]: tensor<?x64x7x7xf32>)
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x8x7x7x8xf32>
// CHECK: %[[P:.+]] = linalg.pack %[[X]] inner_dims_pos = [1] inner_tiles = [8] into %[[E]] : tensor<?x64x7x7xf32> -> tensor<?x8x7x7x8xf32>
// CHECK: return %[[P]]
func.func @nchw_to_nchw8c(%x: tensor<?x64x7x7xf32>) -> tensor<?x8x7x7x8xf32> {
  %y = layout.convert %x from "NCHW" to "NCHW8c" : tensor<?x64x7x7xf32> -> tensor<?x8x7x7x8xf32>
  return %y : tensor<?x8x7x7x8xf32>
}

// -----

// Out of a blocked layout: linalg.unpack into the logical tensor; a dynamic
// tiled dimension is recomputed as blocks * tile.
// CHECK-LABEL: func @nchw8c_to_nchw
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x7x7x8xf32>)
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[B:.+]] = tensor.dim %[[X]], %[[C1]]
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[C:.+]] = arith.muli %[[B]], %[[C8]]
// CHECK: %[[E:.+]] = tensor.empty(%[[C]]) : tensor<2x?x7x7xf32>
// CHECK: %[[U:.+]] = linalg.unpack %[[X]] inner_dims_pos = [1] inner_tiles = [8] into %[[E]] : tensor<2x?x7x7x8xf32> -> tensor<2x?x7x7xf32>
// CHECK: return %[[U]]
func.func @nchw8c_to_nchw(%x: tensor<2x?x7x7x8xf32>) -> tensor<2x?x7x7xf32> {
  %y = layout.convert %x from "NCHW8c" to "NCHW" : tensor<2x?x7x7x8xf32> -> tensor<2x?x7x7xf32>
  return %y : tensor<2x?x7x7xf32>
}

// -----

// Blocked to blocked goes through the logical tensor: unpack, then pack with
// the NHWC outer permutation.
// CHECK-LABEL: func @nchw8c_to_nhwc4c
// CHECK: %[[U:.+]] = linalg.unpack %{{.+}} inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} : tensor<1x2x3x3x8xf16> -> tensor<1x16x3x3xf16>
// CHECK: %[[P:.+]] = linalg.pack %[[U]] outer_dims_perm = [0, 2, 3, 1] inner_dims_pos = [1] inner_tiles = [4] into %{{.+}} : tensor<1x16x3x3xf16> -> tensor<1x3x3x4x4xf16>
// CHECK: return %[[P]]
func.func @nchw8c_to_nhwc4c(%x: tensor<1x2x3x3x8xf16>) -> tensor<1x3x3x4x4xf16> {
  %y = layout.convert %x from "NCHW8c" to "NHWC4c" : tensor<1x2x3x3x8xf16> -> tensor<1x3x3x4x4xf16>
  return %y : tensor<1x3x3x4x4xf16>
}

// -----

// A blocked layout to an unblocked permutation: unpack, then transpose.
// CHECK-LABEL: func @nhwc8c_to_nchw
// CHECK: %[[U:.+]] = linalg.unpack %{{.+}} outer_dims_perm = [0, 2, 3, 1] inner_dims_pos = [1] inner_tiles = [8] into %{{.+}} : tensor<1x3x3x2x8xf32> -> tensor<1x16x3x3xf32>
// CHECK-NOT: linalg.transpose
// CHECK: return %[[U]]
func.func @nhwc8c_to_nchw(%x: tensor<1x3x3x2x8xf32>) -> tensor<1x16x3x3xf32> {
  %y = layout.convert %x from "NHWC8c" to "NCHW" : tensor<1x3x3x2x8xf32> -> tensor<1x16x3x3xf32>
  return %y : tensor<1x16x3x3xf32>
}

// -----

// Other ops are left alone; so is IR without conversions.
// CHECK-LABEL: func @untouched
// CHECK-NEXT: arith.addf
func.func @untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
