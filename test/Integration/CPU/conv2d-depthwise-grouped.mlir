// RUN: %check %s
// Depthwise (NHWC, stride 2) and grouped (NGCHW, 2 groups) convolutions.
// REF: out0 = ref.depthwise_nhwc_hwc(in0, in1, strides=[2, 2])
// REF: out1 = ref.grouped_ngchw_gfchw(in2, in3)
// TOL: 1e-5

func.func @conv(%x: tensor<1x11x9x32xf32>, %w: tensor<3x3x32xf32>,
                %g: tensor<1x2x4x7x7xf32>, %gw: tensor<2x6x4x3x3xf32>)
    -> (tensor<1x5x4x32xf32>, tensor<1x2x6x5x5xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x5x4x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x4x32xf32>) -> tensor<1x5x4x32xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x11x9x32xf32>, tensor<3x3x32xf32>)
      outs(%acc : tensor<1x5x4x32xf32>) -> tensor<1x5x4x32xf32>
  %e2 = tensor.empty() : tensor<1x2x6x5x5xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x6x5x5xf32>) -> tensor<1x2x6x5x5xf32>
  %z = linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%g, %gw : tensor<1x2x4x7x7xf32>, tensor<2x6x4x3x3xf32>)
      outs(%acc2 : tensor<1x2x6x5x5xf32>) -> tensor<1x2x6x5x5xf32>
  return %y, %z : tensor<1x5x4x32xf32>, tensor<1x2x6x5x5xf32>
}
