// RUN: ops-nn-opt %s -split-input-file --opsnn-score-layouts="target=a100" | FileCheck %s --check-prefix=A100
// RUN: ops-nn-opt %s -split-input-file --opsnn-score-layouts="target=host" | FileCheck %s --check-prefix=HOST
// RUN: not ops-nn-opt %s -split-input-file --opsnn-score-layouts="target=tpu" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: opsnn-score-layouts: unknown target "tpu"; known targets: t4, v100, a100, l4, h100, h200, host

// conv_2d_nchw_fchw, f32, 64 -> 64 channels, 56x56. Output in NCHW: lanes
// walk the width (d3): an NCHW input is read with stride 1 (all of every
// sector used), an NHWC one with stride C = 64 (4 of 32 bytes); the filter
// does not depend on the width (stride 0, one fetch serves the warp).
// Output in NHWC: lanes walk the filters (d1): the input no longer depends
// on them, an HWCF filter has stride 1 and FCHW/FHWC stride 3*3*64 = 576.
// A100-LABEL: func @conv_nchw
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d3", layout = "NCHW", operand = 0 : i64, output = "NCHW", score = 1.000000e+00 : f64, stride = 1 : i64},
// A100-SAME: {lanes_walk = "d3", layout = "NHWC", operand = 0 : i64, output = "NCHW", score = 1.250000e-01 : f64, stride = 64 : i64},
// A100-SAME: {lanes_walk = "d3", layout = "FCHW", operand = 1 : i64, output = "NCHW", score = 1.000000e+00 : f64, stride = 0 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "FCHW", operand = 1 : i64, output = "NHWC", score = 1.250000e-01 : f64, stride = 576 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "HWCF", operand = 1 : i64, output = "NHWC", score = 1.000000e+00 : f64, stride = 1 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "NCHW", operand = 2 : i64, output = "NHWC", score = 1.250000e-01 : f64, stride = 3136 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "NHWC", operand = 2 : i64, output = "NHWC", score = 1.000000e+00 : f64, stride = 1 : i64}]
// On the host (64-byte lines): stride 1 uses whole lines; stride 64
// elements uses 4 bytes of each.
// HOST-LABEL: func @conv_nchw
// HOST: opsnn.layout_scores = [
// HOST-SAME: {lanes_walk = "d3", layout = "NCHW", operand = 0 : i64, output = "NCHW", score = 1.000000e+00 : f64, stride = 1 : i64},
// HOST-SAME: {lanes_walk = "d3", layout = "NHWC", operand = 0 : i64, output = "NCHW", score = 6.250000e-02 : f64, stride = 64 : i64},
func.func @conv_nchw(%x: tensor<1x64x58x58xf32>, %w: tensor<64x64x3x3xf32>, %o: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %0 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// The NHWC form of the same convolution: its operands' current layouts are
// recognised (input NHWC, filter HWCF), so the same candidates get the
// same scores.
// A100-LABEL: func @conv_nhwc
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d2", layout = "NHWC", operand = 0 : i64, output = "NCHW", score = 1.250000e-01 : f64, stride = 64 : i64},
// A100-SAME: {lanes_walk = "d3", layout = "HWCF", operand = 1 : i64, output = "NHWC", score = 1.000000e+00 : f64, stride = 1 : i64},
func.func @conv_nhwc(%x: tensor<1x58x58x64xf32>, %w: tensor<3x3x64x64xf32>, %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
  %0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xf32>, tensor<3x3x64x64xf32>) outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %0 : tensor<1x56x56x64xf32>
}

// -----

// Max pooling with stride 2 in NCHW: adjacent output columns read input
// columns two apart, so half of every sector is used; in NHWC the lanes
// walk the channels and the input is contiguous. The window operand is
// never read and gets no score.
// A100-LABEL: func @pool
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d3", layout = "NCHW", operand = 0 : i64, output = "NCHW", score = 5.000000e-01 : f64, stride = 2 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "NHWC", operand = 0 : i64, output = "NHWC", score = 1.000000e+00 : f64, stride = 1 : i64},
// A100-NOT: operand = 1 :
// A100-SAME: operand = 2
// On the host the stride-2 input also uses half of each 64-byte line.
// HOST-LABEL: func @pool
// HOST: opsnn.layout_scores = [
// HOST-SAME: {lanes_walk = "d3", layout = "NCHW", operand = 0 : i64, output = "NCHW", score = 5.000000e-01 : f64, stride = 2 : i64},
// HOST-SAME: {lanes_walk = "d1", layout = "NHWC", operand = 0 : i64, output = "NHWC", score = 1.000000e+00 : f64, stride = 1 : i64},
func.func @pool(%x: tensor<1x64x113x113xf32>, %o: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %k = tensor.empty() : tensor<3x3xf32>
  %0 = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x64x113x113xf32>, tensor<3x3xf32>) outs(%o : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %0 : tensor<1x64x56x56xf32>
}

// -----

// An elementwise op on 4-D tensors: operands named by loop (NCHW); one in
// the same layout as the output reads contiguously.
// A100-LABEL: func @relu
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d3", layout = "NCHW", operand = 0 : i64, output = "NCHW", score = 1.000000e+00 : f64, stride = 1 : i64},
// A100-SAME: {lanes_walk = "d3", layout = "NHWC", operand = 0 : i64, output = "NCHW", score = 1.250000e-01 : f64, stride = 32 : i64},
// HOST-LABEL: func @relu
// HOST: opsnn.layout_scores = [
// HOST-SAME: {lanes_walk = "d3", layout = "NHWC", operand = 0 : i64, output = "NCHW", score = 6.250000e-02 : f64, stride = 32 : i64},
func.func @relu(%x: tensor<2x32x16x16xf32>) -> tensor<2x32x16x16xf32> {
  %e = tensor.empty() : tensor<2x32x16x16xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x32x16x16xf32>) outs(%e : tensor<2x32x16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %a, %z : f32
    linalg.yield %r : f32
  } -> tensor<2x32x16x16xf32>
  return %0 : tensor<2x32x16x16xf32>
}

// -----

// A matmul: with C row-major (MN) the lanes walk n: B is contiguous as
// KN and 64 elements apart as NK; A does not depend on n. With C
// column-major (NM) they walk m: A is contiguous only as KM.
// A100-LABEL: func @matmul
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d1", layout = "MK", operand = 0 : i64, output = "MN", score = 1.000000e+00 : f64, stride = 0 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "KN", operand = 1 : i64, output = "MN", score = 1.000000e+00 : f64, stride = 1 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "NK", operand = 1 : i64, output = "MN", score = 1.250000e-01 : f64, stride = 64 : i64},
// A100-SAME: {lanes_walk = "d0", layout = "MK", operand = 0 : i64, output = "NM", score = 1.250000e-01 : f64, stride = 64 : i64},
// A100-SAME: {lanes_walk = "d0", layout = "KM", operand = 0 : i64, output = "NM", score = 1.000000e+00 : f64, stride = 1 : i64},
// HOST-LABEL: func @matmul
// HOST: opsnn.layout_scores = [
// HOST-SAME: {lanes_walk = "d1", layout = "KN", operand = 1 : i64, output = "MN", score = 1.000000e+00 : f64, stride = 1 : i64},
// HOST-SAME: {lanes_walk = "d1", layout = "NK", operand = 1 : i64, output = "MN", score = 6.250000e-02 : f64, stride = 64 : i64},
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x96xf32>, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x96xf32>) outs(%c : tensor<128x96xf32>) -> tensor<128x96xf32>
  return %0 : tensor<128x96xf32>
}

// -----

// Dynamic shapes are not scored (no attribute), nor are ops that are not
// linalg structured ops.
// A100-LABEL: func @dynamic
// A100-NOT: opsnn.layout_scores
func.func @dynamic(%a: tensor<?x64xf32>, %b: tensor<64x96xf32>, %c: tensor<?x96xf32>) -> tensor<?x96xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<?x64xf32>, tensor<64x96xf32>) outs(%c : tensor<?x96xf32>) -> tensor<?x96xf32>
  %1 = layout.convert %0 from "MK" to "KM" : tensor<?x96xf32> -> tensor<96x?xf32>
  return %0 : tensor<?x96xf32>
}

// -----

// Index-typed operands (embedding ids) are 8-byte elements; the ids do not
// depend on the column the lanes walk.
// A100-LABEL: func @gather
// A100: opsnn.layout_scores = [
// A100-SAME: {lanes_walk = "d1", layout = "M", operand = 0 : i64, output = "MK", score = 1.000000e+00 : f64, stride = 0 : i64},
// A100-SAME: {lanes_walk = "d1", layout = "MK", operand = 1 : i64, output = "MK", score = 1.000000e+00 : f64, stride = 1 : i64},
func.func @gather(%ids: tensor<4xindex>, %table: tensor<100x4xf32>) -> tensor<4x4xf32> {
  %eg = tensor.empty() : tensor<4x4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<4xindex>) outs(%eg : tensor<4x4xf32>) {
  ^bb0(%id: index, %o: f32):
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%id, %j] : tensor<100x4xf32>
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %g : tensor<4x4xf32>
}
