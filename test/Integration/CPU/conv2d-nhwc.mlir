// RUN: %check %s
// conv_2d_nhwc_hwcf (stride 2) and conv_2d_nhwc_fhwc (dilation 2), f32.
// REF: out0 = ref.conv_nhwc_hwcf(in0, in1, strides=[2, 2])
// REF: out1 = ref.conv_nhwc_fhwc(in0, in2, dilations=[2, 2])
// TOL: 1e-5

func.func @conv(%x: tensor<2x9x11x16xf32>, %w: tensor<3x3x16x24xf32>, %v: tensor<8x3x3x16xf32>)
    -> (tensor<2x4x5x24xf32>, tensor<2x5x7x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x5x24xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x5x24xf32>) -> tensor<2x4x5x24xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x9x11x16xf32>, tensor<3x3x16x24xf32>)
      outs(%acc : tensor<2x4x5x24xf32>) -> tensor<2x4x5x24xf32>
  %e2 = tensor.empty() : tensor<2x5x7x8xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x5x7x8xf32>) -> tensor<2x5x7x8xf32>
  %z = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%x, %v : tensor<2x9x11x16xf32>, tensor<8x3x3x16xf32>)
      outs(%acc2 : tensor<2x5x7x8xf32>) -> tensor<2x5x7x8xf32>
  return %y, %z : tensor<2x4x5x24xf32>, tensor<2x5x7x8xf32>
}
