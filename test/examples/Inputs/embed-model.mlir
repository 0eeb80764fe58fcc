// Input of test/examples/embed.test: convolution, ReLU, convolution in the
// frameworks' NCHW layout, which opsnn-optimize runs channels-last.
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @conv_relu_conv(%x: tensor<1x64x58x58xf32>, %w1: tensor<64x64x3x3xf32>,
                          %w2: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x64x56x56xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c1 = linalg.conv_2d_nchw_fchw ins(%x, %w1 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
                                 outs(%acc1 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x64x56x56xf32>) outs(%e1 : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  %e2 = tensor.empty() : tensor<1x64x54x54xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%r, %w2 : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>)
                                 outs(%acc2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  return %c2 : tensor<1x64x54x54xf32>
}
