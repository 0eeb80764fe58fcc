// RUN: %check %s
// conv_2d_nchw_fchw with stride 2 on an odd-sized image (7x13), f32.
// REF: out0 = ref.conv_nc(in0, in1, strides=[2, 2])
// TOL: 1e-5

func.func @conv(%x: tensor<2x3x7x13xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<2x8x3x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x3x6xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x3x6xf32>) -> tensor<2x8x3x6xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x3x7x13xf32>, tensor<8x3x3x3xf32>)
      outs(%acc : tensor<2x8x3x6xf32>) -> tensor<2x8x3x6xf32>
  return %y : tensor<2x8x3x6xf32>
}
