// RUN: ops-nn-opt %s --opsnn-analyze-ranges -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-analyze-ranges="calibration=%S/Inputs/calibration.json" -split-input-file | FileCheck %s --check-prefix=CAL

#map = affine_map<(d0) -> (d0)>

// A user range on the argument propagates through the payload: exp is
// monotone. Interval bounds know nothing of small magnitudes (0).
// CHECK-LABEL: func @exp
// CHECK: linalg.generic
// CHECK-SAME: precision.range_source = "interval"
// CHECK-SAME: precision.ranges = [#precision.range<min = 0.36787944117144233, max = 162754.79141900392, min_abs_nonzero = 0.000000e+00>]
func.func @exp(%x: tensor<8xf32> {precision.range = #precision.range<min = -1.0, max = 12.0, min_abs_nonzero = 0.5>}) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// Contractions: the accumulator is iterated once per reduced element
// (64 * 0.5 * 2 = 64); data movement keeps the range; softmax is [0, 1]
// whatever its input.
// CHECK-LABEL: func @dense_softmax
// CHECK: linalg.fill {{.*}}precision.ranges = [#precision.range<min = 0.000000e+00, max = 0.000000e+00
// CHECK: linalg.matmul {{.*}}precision.ranges = [#precision.range<min = -6.400000e+01, max = 6.400000e+01
// CHECK: tensor.expand_shape {{.*}}precision.ranges = [#precision.range<min = -6.400000e+01, max = 6.400000e+01
// CHECK: linalg.softmax {{.*}}precision.ranges = [#precision.range<min = 0.000000e+00, max = 1.000000e+00
func.func @dense_softmax(%x: tensor<4x64xf32> {precision.range = #precision.range<min = -2.0, max = 2.0, min_abs_nonzero = 0.5>}) -> tensor<4x16xf32> {
  %w = arith.constant dense<0.5> : tensor<64x16xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %x3 = tensor.expand_shape %m [[0], [1, 2]] output_shape [4, 16, 1] : tensor<4x16xf32> into tensor<4x16x1xf32>
  %c = tensor.collapse_shape %x3 [[0], [1, 2]] : tensor<4x16x1xf32> into tensor<4x16xf32>
  %r = linalg.softmax dimension(1) ins(%c : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// A sum over 100000 elements: past the iteration budget the linear growth
// is extrapolated exactly. ReLU (max with 0) clamps the low end.
// CHECK-LABEL: func @long_sum_relu
// CHECK: linalg.reduce {{.*}}precision.ranges = [#precision.range<min = -1.000000e+05, max = 2.000000e+05
// CHECK: linalg.generic {{.*}}precision.ranges = [#precision.range<min = 0.000000e+00, max = 2.000000e+05
func.func @long_sum_relu(%x: tensor<4x100000xf32> {precision.range = #precision.range<min = -1.0, max = 2.0, min_abs_nonzero = 0.5>}) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x100000xf32>) outs(%f : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%s : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Without a range for the argument nothing downstream is bounded, except
// what bounds itself (tanh); a max-reduction starting from -inf is fine
// (the fill's infinite range is used, not recorded).
// CHECK-LABEL: func @unbounded
// CHECK: %[[M:.+]] = linalg.matmul
// CHECK-NOT: precision.ranges
// CHECK-SAME: -> tensor<2x2xf32>
// CHECK: linalg.generic {{.*}}precision.ranges = [#precision.range<min = -1.000000e+00, max = 1.000000e+00
// CHECK: linalg.fill
// CHECK-NOT: precision.ranges
// CHECK-SAME: -> tensor<2xf32>
// CHECK: linalg.reduce {{.*}}precision.ranges = [#precision.range<min = -1.000000e+00, max = 1.000000e+00
func.func @unbounded(%x: tensor<2x2xf32>) -> tensor<2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x2xf32>
  %e1 = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %r = linalg.reduce ins(%t : tensor<2x2xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.maximumf %in, %acc : f32
      linalg.yield %a : f32
    }
  return %r : tensor<2xf32>
}

// -----

// Calibration: keyed values take the measured range (source
// "calibration", small magnitudes known); the argument's range is recorded
// on the argument; values after them are propagated from the measurement.
// CAL-LABEL: func @calibrated
// CAL-SAME: precision.range = #precision.range<min = -4.000000e+00, max = 4.000000e+00, min_abs_nonzero = 1.250000e-01>, precision.range_source = "calibration"
// CAL: linalg.matmul {{.*}}precision.range_source = "calibration", precision.ranges = [#precision.range<min = -7.000000e+04, max = 1.200000e+01, min_abs_nonzero = 5.000000e-01>]
// CAL: linalg.generic {{.*}}precision.range_source = "interval", precision.ranges = [#precision.range<min = 0.000000e+00, max = 1.200000e+01
// CAL: linalg.generic {{.*}}precision.range_source = "calibration", precision.ranges = [#precision.range<min = 0.000000e+00, max = 3.000000e+00, min_abs_nonzero = 1.000000e-09>]
func.func @calibrated(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32> loc("dense")
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %z : f32
    linalg.yield %0 : f32
  } -> tensor<2x2xf32> loc("relu")
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%r : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %in : f32
    linalg.yield %0 : f32
  } -> tensor<2x2xf32> loc("tiny")
  return %t : tensor<2x2xf32>
}

// -----

// Layout conversions and casts inserted for an op carry that op's location,
// the key of its calibrated output: they take their operand's range and
// source (the argument's calibration, then the reshape's interval) instead of
// the matmul's measured one.
// CAL-LABEL: func @inserted_for_calibrated
// CAL: layout.convert {{.*}}precision.range_source = "calibration", precision.ranges = [#precision.range<min = -4.000000e+00, max = 4.000000e+00, min_abs_nonzero = 1.250000e-01>]
// CAL: precision.cast {{.*}}precision.range_source = "interval", precision.ranges = [#precision.range<min = -4.000000e+00, max = 4.000000e+00, min_abs_nonzero = 0.000000e+00>]
// CAL: linalg.matmul {{.*}}precision.range_source = "calibration", precision.ranges = [#precision.range<min = -7.000000e+04, max = 1.200000e+01, min_abs_nonzero = 5.000000e-01>]
func.func @inserted_for_calibrated(%x: tensor<2x1x1x2xf32>) -> tensor<2x2xf16> {
  %w = arith.constant dense<1.0> : tensor<2x2xf16>
  %e = tensor.empty() : tensor<2x2xf16>
  %c = layout.convert %x from "NCHW" to "NHWC" : tensor<2x1x1x2xf32> -> tensor<2x1x2x1xf32> loc("dense")
  %r = tensor.collapse_shape %c [[0], [1, 2, 3]] : tensor<2x1x2x1xf32> into tensor<2x2xf32>
  %h = precision.cast %r : tensor<2x2xf32> to tensor<2x2xf16> loc("dense")
  %m = linalg.matmul ins(%h, %w : tensor<2x2xf16>, tensor<2x2xf16>) outs(%e : tensor<2x2xf16>) -> tensor<2x2xf16> loc("dense")
  return %m : tensor<2x2xf16>
}
