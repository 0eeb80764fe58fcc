// RUN: ops-nn-opt %s -split-input-file --opsnn-lower-packs | FileCheck %s

// pack -> pad (to a multiple of the tile) + expand_shape + transpose.
// CHECK-LABEL: func @pack_channels_last
// CHECK-SAME: (%[[X:.+]]: tensor<1x16x4x4xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x4x4x2x8xf32>
// CHECK: %[[P:.+]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 0, 0]
// CHECK: %[[R:.+]] = tensor.expand_shape %[[P]] {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 2, 8, 4, 4]
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[R]] : tensor<1x2x8x4x4xf32>) outs(%[[E]] : tensor<1x4x4x2x8xf32>) permutation = [0, 3, 4, 1, 2]
// CHECK: return %[[T]]
// CHECK-NOT: linalg.pack
func.func @pack_channels_last(%x: tensor<1x16x4x4xf32>) -> tensor<1x4x4x2x8xf32> {
  %e = tensor.empty() : tensor<1x4x4x2x8xf32>
  %p = linalg.pack %x outer_dims_perm = [0, 2, 3, 1] inner_dims_pos = [1] inner_tiles = [8] into %e : tensor<1x16x4x4xf32> -> tensor<1x4x4x2x8xf32>
  return %p : tensor<1x4x4x2x8xf32>
}

// -----

// unpack -> transpose + collapse_shape + slice (dropping padding) + copy.
// CHECK-LABEL: func @unpack
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x4x4x8xf32>)
// CHECK: %[[T:.+]] = linalg.transpose ins(%[[X]] : tensor<1x2x4x4x8xf32>) outs(%{{.+}} : tensor<1x2x8x4x4xf32>) permutation = [0, 1, 4, 2, 3]
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[T]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x8x4x4xf32> into tensor<1x16x4x4xf32>
// CHECK: %[[S:.+]] = tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 16, 4, 4] [1, 1, 1, 1]
// CHECK: linalg.copy ins(%[[S]] : tensor<1x16x4x4xf32>)
// CHECK-NOT: linalg.unpack
func.func @unpack(%x: tensor<1x2x4x4x8xf32>) -> tensor<1x16x4x4xf32> {
  %e = tensor.empty() : tensor<1x16x4x4xf32>
  %u = linalg.unpack %x inner_dims_pos = [1] inner_tiles = [8] into %e : tensor<1x2x4x4x8xf32> -> tensor<1x16x4x4xf32>
  return %u : tensor<1x16x4x4xf32>
}

// -----

// A padded pack (10 channels into blocks of 4) keeps its padding value.
// CHECK-LABEL: func @pack_with_padding
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: tensor.pad %{{.+}} low[0, 0] high[0, 2]
// CHECK: tensor.yield %[[ZERO]]
// CHECK: tensor.expand_shape {{.*}} output_shape [3, 3, 4]
func.func @pack_with_padding(%x: tensor<3x10xf32>) -> tensor<3x3x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x3x4xf32>
  %p = linalg.pack %x padding_value(%zero : f32) inner_dims_pos = [1] inner_tiles = [4] into %e : tensor<3x10xf32> -> tensor<3x3x4xf32>
  return %p : tensor<3x3x4xf32>
}
