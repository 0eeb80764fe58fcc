// RUN: ops-nn-opt %s -split-input-file -canonicalize | FileCheck %s

// A conversion to the layout the tensor is already in folds away.
// CHECK-LABEL: func @identity
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>)
// CHECK-NOT: layout.convert
// CHECK: return %[[X]]
func.func @identity(%x: tensor<?x3x8x8xf32>) -> tensor<?x3x8x8xf32> {
  %y = layout.convert %x from "NHWC" to "NHWC" : tensor<?x3x8x8xf32> -> tensor<?x3x8x8xf32>
  return %y : tensor<?x3x8x8xf32>
}

// -----

// convert(convert(x, A -> B), B -> A) folds to x, blocked layouts included.
// CHECK-LABEL: func @inverse_pair
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>, %[[Y:.+]]: tensor<?x64x7x7xf16>)
// CHECK-NOT: layout.convert
// CHECK: return %[[X]], %[[Y]]
func.func @inverse_pair(%x: tensor<1x3x8x8xf32>, %y: tensor<?x64x7x7xf16>) -> (tensor<1x3x8x8xf32>, tensor<?x64x7x7xf16>) {
  %a = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  %b = layout.convert %a from "NHWC" to "NCHW" : tensor<1x8x8x3xf32> -> tensor<1x3x8x8xf32>
  %c = layout.convert %y from "NCHW" to "NHWC16c" : tensor<?x64x7x7xf16> -> tensor<?x7x7x4x16xf16>
  %d = layout.convert %c from "NHWC16c" to "NCHW" : tensor<?x7x7x4x16xf16> -> tensor<?x64x7x7xf16>
  return %b, %d : tensor<1x3x8x8xf32>, tensor<?x64x7x7xf16>
}

// -----

// A chain A -> B -> C becomes one conversion A -> C; B's users keep theirs.
// CHECK-LABEL: func @compose_chain
// CHECK-SAME: (%[[X:.+]]: tensor<2x16x4x4xf32>)
// CHECK: %[[B:.+]] = layout.convert %[[X]] from "NCHW" to "NHWC" : tensor<2x16x4x4xf32> -> tensor<2x4x4x16xf32>
// CHECK: %[[C:.+]] = layout.convert %[[X]] from "NCHW" to "NCHW8c" : tensor<2x16x4x4xf32> -> tensor<2x2x4x4x8xf32>
// CHECK: return %[[B]], %[[C]]
func.func @compose_chain(%x: tensor<2x16x4x4xf32>) -> (tensor<2x4x4x16xf32>, tensor<2x2x4x4x8xf32>) {
  %b = layout.convert %x from "NCHW" to "NHWC" : tensor<2x16x4x4xf32> -> tensor<2x4x4x16xf32>
  %c = layout.convert %b from "NHWC" to "NCHW8c" : tensor<2x4x4x16xf32> -> tensor<2x2x4x4x8xf32>
  return %b, %c : tensor<2x4x4x16xf32>, tensor<2x2x4x4x8xf32>
}

// -----

// A round trip whose result type is more static than its input composes into
// an A -> A conversion that only refines the shape: a tensor.cast.
// CHECK-LABEL: func @round_trip_refines_type
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>)
// CHECK-NOT: layout.convert
// CHECK: %[[R:.+]] = tensor.cast %[[X]] : tensor<?x3x8x8xf32> to tensor<1x3x8x8xf32>
// CHECK: return %[[R]]
func.func @round_trip_refines_type(%x: tensor<?x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %a = layout.convert %x from "NCHW" to "NHWC" : tensor<?x3x8x8xf32> -> tensor<?x8x8x3xf32>
  %b = layout.convert %a from "NHWC" to "NCHW" : tensor<?x8x8x3xf32> -> tensor<1x3x8x8xf32>
  return %b : tensor<1x3x8x8xf32>
}

// -----

// Constants are converted at compile time: weights cost nothing at run time.
// Logical NCHW [n=0][c][h][w] = c*4 + h*2 + w + 1; NHWC holds [n][h][w][c].
// CHECK-LABEL: func @constant_permutation
// CHECK-NOT: layout.convert
// CHECK: %[[C:.+]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 5.000000e+00], [2.000000e+00, 6.000000e+00]], {{\[\[}}3.000000e+00, 7.000000e+00], [4.000000e+00, 8.000000e+00]]]]> : tensor<1x2x2x2xf32>
// CHECK: return %[[C]]
func.func @constant_permutation() -> tensor<1x2x2x2xf32> {
  %c = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]> : tensor<1x2x2x2xf32>
  %y = layout.convert %c from "NCHW" to "NHWC" : tensor<1x2x2x2xf32> -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// Blocked constant: NC -> NC2c splits C into blocks of 2; then a weight
// FCHW -> HWCF transpose with 1x1 spatial dims is a plain F<->C transpose.
// CHECK-LABEL: func @constant_blocked
// CHECK-DAG: arith.constant dense<{{\[\[\[}}1, 2], [3, 4]], {{\[\[}}5, 6], [7, 8]]]> : tensor<2x2x2xi32>
// CHECK-DAG: arith.constant dense<{{\[\[\[\[}}1, 4], [2, 5], [3, 6]]]]> : tensor<1x1x3x2xi8>
// CHECK-NOT: layout.convert
func.func @constant_blocked() -> (tensor<2x2x2xi32>, tensor<1x1x3x2xi8>) {
  %c = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %y = layout.convert %c from "NC" to "NC2c" : tensor<2x4xi32> -> tensor<2x2x2xi32>
  %w = arith.constant dense<[[[[1]], [[2]], [[3]]], [[[4]], [[5]], [[6]]]]> : tensor<2x3x1x1xi8>
  %v = layout.convert %w from "FCHW" to "HWCF" : tensor<2x3x1x1xi8> -> tensor<1x1x3x2xi8>
  return %y, %v : tensor<2x2x2xi32>, tensor<1x1x3x2xi8>
}

// -----

// Splat constants keep their value under any layout.
// CHECK-LABEL: func @constant_splat
// CHECK: %[[C:.+]] = arith.constant dense<1.500000e+00> : tensor<4x2x2x2x8xf16>
// CHECK: return %[[C]]
func.func @constant_splat() -> tensor<4x2x2x2x8xf16> {
  %c = arith.constant dense<1.5> : tensor<4x16x2x2xf16>
  %y = layout.convert %c from "NCHW" to "NHWC8c" : tensor<4x16x2x2xf16> -> tensor<4x2x2x2x8xf16>
  return %y : tensor<4x2x2x2x8xf16>
}

// -----

// Converting an empty tensor only changes its shape.
// CHECK-LABEL: func @empty
// CHECK: %[[E:.+]] = tensor.empty() : tensor<8x7x7x32xf32>
// CHECK-NOT: layout.convert
// CHECK: return %[[E]]
func.func @empty() -> tensor<8x7x7x32xf32> {
  %e = tensor.empty() : tensor<8x32x7x7xf32>
  %y = layout.convert %e from "NCHW" to "NHWC" : tensor<8x32x7x7xf32> -> tensor<8x7x7x32xf32>
  return %y : tensor<8x7x7x32xf32>
}

// -----

// Nothing to fold: a single conversion of a function argument stays.
// CHECK-LABEL: func @no_fold
// CHECK: layout.convert %{{.*}} from "NCDHW" to "NDHWC"
func.func @no_fold(%x: tensor<1x4x2x2x2xf32>) -> tensor<1x2x2x2x4xf32> {
  %y = layout.convert %x from "NCDHW" to "NDHWC" : tensor<1x4x2x2x2xf32> -> tensor<1x2x2x2x4xf32>
  return %y : tensor<1x2x2x2x4xf32>
}
