// RUN: %check %s
// conv_2d_nchw_fchw with dilation 2 and a 5x3 filter, odd sizes.
// REF: out0 = ref.conv_nc(in0, in1, dilations=[2, 2])
// TOL: 1e-5

func.func @conv(%x: tensor<1x5x13x9xf32>, %w: tensor<6x5x5x3xf32>) -> tensor<1x6x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x6x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x5x13x9xf32>, tensor<6x5x5x3xf32>)
      outs(%acc : tensor<1x6x5x5xf32>) -> tensor<1x6x5x5xf32>
  return %y : tensor<1x6x5x5xf32>
}
