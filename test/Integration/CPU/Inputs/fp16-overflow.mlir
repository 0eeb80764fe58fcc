// A dense layer whose pre-activation exceeds FP16's range (65504) on large
// inputs, scaled back down afterwards: in FP16 it turns into inf, in FP32 the
// result is finite. Weights are constants; the inputs decide the range, so
// only calibration (or a user range) can tell.
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<4x64xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<40.0> : tensor<64x16xf32>
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 1.0e-3 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x16xf32>)
                     outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("dense")
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %scale : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32> loc("rescale")
  return %r : tensor<4x16xf32>
}
