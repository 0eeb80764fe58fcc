// RUN: %check %s
// An indexing map that decreases with a loop (a flip, `2 - d3`, as ONNX
// Slice with negative steps or ConvTranspose's weight flip imports to) after
// a reshape: the CPU pipeline must not tile it (tiling assumes increasing
// maps) and must compute the flip.
// REF: out0 = np.flip(in0, axis=(2, 3)).reshape(1, 2, 1, 3, 3)
// TOL: 0
func.func @flip(%w: tensor<1x2x3x3xf32>) -> tensor<1x2x1x3x3xf32> {
  %x = tensor.expand_shape %w [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 3, 3] : tensor<1x2x3x3xf32> into tensor<1x1x2x3x3xf32>
  %e = tensor.empty() : tensor<1x2x1x3x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, 2 - d3, 2 - d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x2x3x3xf32>) outs(%e : tensor<1x2x1x3x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x1x3x3xf32>
  return %r : tensor<1x2x1x3x3xf32>
}
