// RUN: ops-nn-opt %s --opsnn-propagate-layouts | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-propagate-layouts="fold-into-generics=false" | FileCheck %s --check-prefix=NOFOLD

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NHWC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>

// A relu between a conversion and its inverse computes in the other
// layout instead: both conversions disappear.
// CHECK-LABEL: func @push_through_relu
// CHECK-NOT: layout.convert
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x8x8x16xf32>) {{.*}} attrs = {layout.compute_layout = #layout<"NHWC">}
// CHECK-NOT: layout.convert
// CHECK: return %[[R]]
func.func @push_through_relu(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %a = layout.convert %x from "NHWC" to "NCHW" : tensor<1x8x8x16xf32> -> tensor<1x16x8x8xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  %b = layout.convert %r from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  return %b : tensor<1x8x8x16xf32>
}

// Pushing would remove one conversion and add two (%y and the result): the
// add stays NCHW. (The remaining conversion is then folded into its map.)
// NOFOLD-LABEL: func @not_worth_pushing
// NOFOLD: %[[A:.*]] = layout.convert %arg0 from "NHWC" to "NCHW"
// NOFOLD: linalg.generic {{.*}} ins(%[[A]], %arg1 : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>)
// NOFOLD-NOT: layout.compute_layout
func.func @not_worth_pushing(%x: tensor<1x8x8x16xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %a = layout.convert %x from "NHWC" to "NCHW" : tensor<1x8x8x16xf32> -> tensor<1x16x8x8xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %y : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// Filled and empty tensors are re-created in the new layout, also with a
// dynamic size.
// CHECK-LABEL: func @fill_and_empty
// CHECK-NOT: layout.convert
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x16xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<1x8x8x16xf32>)
// CHECK: %[[D:.*]] = tensor.empty(%arg0) : tensor<?x8x8x16xf32>
// CHECK: return %[[F]], %[[D]]
func.func @fill_and_empty(%n: index) -> (tensor<1x8x8x16xf32>, tensor<?x8x8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %a = layout.convert %f from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  %d = tensor.empty(%n) : tensor<?x16x8x8xf32>
  %b = layout.convert %d from "NCHW" to "NHWC" : tensor<?x16x8x8xf32> -> tensor<?x8x8x16xf32>
  return %a, %b : tensor<1x8x8x16xf32>, tensor<?x8x8x16xf32>
}

// Constants (weights) are converted at compile time.
// CHECK-LABEL: func @constant
// CHECK: %[[C:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]], {{\[\[}}3.000000e+00]]], {{\[\[\[}}4.000000e+00]], {{\[\[}}5.000000e+00]], {{\[\[}}6.000000e+00]]]]> : tensor<2x3x1x1xf32>
// CHECK-NEXT: return %[[C]]
func.func @constant() -> tensor<2x3x1x1xf32> {
  %c = arith.constant dense<[[[[1.0, 2.0, 3.0]]], [[[4.0, 5.0, 6.0]]]]> : tensor<2x1x1x3xf32>
  %a = layout.convert %c from "NHWC" to "NCHW" : tensor<2x1x1x3xf32> -> tensor<2x3x1x1xf32>
  return %a : tensor<2x3x1x1xf32>
}

// A loop-invariant conversion runs once, before the loop (a conversion of
// an argument: at the top of the function).
// CHECK-LABEL: func @hoist
// CHECK: %[[A:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK-NOT: layout.convert
// CHECK: scf.for
// CHECK-NOT: layout.convert
// CHECK: arith.addf %{{.*}}, %[[A]] : tensor<1x8x8x16xf32>
func.func @hoist(%x: tensor<1x16x8x8xf32>, %n: index) -> tensor<1x8x8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e) -> tensor<1x8x8x16xf32> {
    %a = layout.convert %x from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
    %s = arith.addf %acc, %a : tensor<1x8x8x16xf32>
    scf.yield %s : tensor<1x8x8x16xf32>
  }
  return %r : tensor<1x8x8x16xf32>
}

// Zero copy: the generic reads the NHWC tensor through a permuted map.
// CHECK-LABEL: func @fold_into_consumer
// CHECK-NOT: layout.convert
// CHECK: linalg.generic {indexing_maps = [#[[NHWC]], #[[ID]], #[[ID]]]{{.*}} ins(%arg0, %arg1 : tensor<1x8x8x16xf32>, tensor<1x16x8x8xf32>) outs(%{{.*}} : tensor<1x16x8x8xf32>)
// NOFOLD-LABEL: func @fold_into_consumer
// NOFOLD: layout.convert %arg0 from "NHWC" to "NCHW"
func.func @fold_into_consumer(%x: tensor<1x8x8x16xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %a = layout.convert %x from "NHWC" to "NCHW" : tensor<1x8x8x16xf32> -> tensor<1x16x8x8xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %y : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  return %r : tensor<1x16x8x8xf32>
}

// Zero copy: the generic writes NHWC directly.
// CHECK-LABEL: func @fold_into_producer
// CHECK-NOT: layout.convert
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x8x8x16xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[NHWC]]]{{.*}} outs(%[[E]] : tensor<1x8x8x16xf32>)
// CHECK-NOT: layout.convert
// NOFOLD-LABEL: func @fold_into_producer
// NOFOLD: layout.convert %{{.*}} from "NCHW" to "NHWC"
func.func @fold_into_producer(%x: tensor<1x16x8x8xf32>, %y: tensor<1x16x8x8xf32>) -> tensor<1x8x8x16xf32> {
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x16x8x8xf32>
  %a = layout.convert %r from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  return %a : tensor<1x8x8x16xf32>
}

// Two readers of one conversion share it.
// CHECK-LABEL: func @merge_duplicates
// CHECK: %[[A:.*]] = layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK-NOT: layout.convert
// CHECK: return %[[A]], %[[A]]
func.func @merge_duplicates(%x: tensor<1x16x8x8xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %a = layout.convert %x from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  %b = layout.convert %x from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  return %a, %b : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}

// Matmul operand transposes: an activation transpose becomes a transposed
// map (zero copy); a constant weight read through a transposed map is
// transposed at compile time and read plainly.
// CHECK-LABEL: func @matmul_transposes
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NOT: linalg.transpose
// CHECK: %[[M1:.*]] = linalg.matmul indexing_maps = [#[[MK_T:.*]], #[[KN:.*]], #[[MN:.*]]] ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x2xf32>)
// CHECK: linalg.matmul ins(%[[M1]], %[[W]] : tensor<3x2xf32>, tensor<2x2xf32>)
// NOFOLD-LABEL: func @matmul_transposes
// NOFOLD: linalg.transpose
func.func @matmul_transposes(%a: tensor<2x3xf32>, %b: tensor<2x2xf32>) -> tensor<3x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<3x2xf32>
  %at = linalg.transpose ins(%a : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m1 = linalg.matmul ins(%at, %b : tensor<3x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<3x2xf32>) -> tensor<3x2xf32>
  %m2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%m1, %w : tensor<3x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<3x2xf32>) -> tensor<3x2xf32>
  return %m2 : tensor<3x2xf32>
}

// A conversion after a pad moves before it: as many conversions either
// way, but the unpadded tensor is the smaller one to convert (and an NHWC
// convolution reading the pad reads it unpadded on tensor cores).
// CHECK-LABEL: func @push_above_pad
// CHECK-SAME: (%[[X:.*]]: tensor<1x16x8x8xf16>)
// CHECK: %[[C:.*]] = layout.convert %[[X]] from "NCHW" to "NHWC" : tensor<1x16x8x8xf16> -> tensor<1x8x8x16xf16>
// CHECK: %[[P:.*]] = tensor.pad %[[C]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: return %[[P]] : tensor<1x10x10x16xf16>
// NOFOLD-LABEL: func @push_above_pad
// NOFOLD: layout.convert %{{.*}} : tensor<1x16x8x8xf16> -> tensor<1x8x8x16xf16>
// NOFOLD: tensor.pad
func.func @push_above_pad(%x: tensor<1x16x8x8xf16>) -> tensor<1x10x10x16xf16> {
  %zero = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f16
  } : tensor<1x16x8x8xf16> to tensor<1x16x10x10xf16>
  %c = layout.convert %p from "NCHW" to "NHWC" : tensor<1x16x10x10xf16> -> tensor<1x10x10x16xf16>
  return %c : tensor<1x10x10x16xf16>
}

// A conversion that lands on a generic's only result costs nothing: the
// generic writes the converted layout itself (zero copy). So the softmax
// (which cannot absorb a conversion) moves into NHWC, and its input
// conversion folds into the ReLU's output map. Without folding, the
// conversion stays after the softmax.
// CHECK-LABEL: func @push_onto_generic
// CHECK-NOT: layout.convert
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[NHWC]]]
// CHECK-NOT: layout.convert
// CHECK: linalg.softmax {{.*}}dimension(3) {{.*}} -> tensor<1x8x8x16xf32>
// CHECK-NOT: layout.convert
// NOFOLD-LABEL: func @push_onto_generic
// NOFOLD: linalg.softmax {{.*}}dimension(1) {{.*}} -> tensor<1x16x8x8xf32>
// NOFOLD: layout.convert
func.func @push_onto_generic(%x: tensor<1x16x8x8xf32>) -> tensor<1x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x16x8x8xf32>) outs(%e : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %s = linalg.softmax dimension(1) ins(%r : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c = layout.convert %s from "NCHW" to "NHWC" : tensor<1x16x8x8xf32> -> tensor<1x8x8x16xf32>
  return %c : tensor<1x8x8x16xf32>
}
