// RUN: %check %s
// 3-D convolutions: NCDHW/FCDHW (stride 2) and NDHWC/DHWCF.
// REF: out0 = ref.conv_nc(in0, in1, strides=[2, 2, 2])
// REF: out1 = ref.conv_nhwc_hwcf(in2, in3)
// TOL: 1e-5

func.func @conv(%x: tensor<1x3x7x9x5xf32>, %w: tensor<4x3x3x3x3xf32>,
                %y: tensor<1x5x6x7x8xf32>, %v: tensor<3x3x3x8x4xf32>)
    -> (tensor<1x4x3x4x2xf32>, tensor<1x3x4x5x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x3x4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x3x4x2xf32>) -> tensor<1x4x3x4x2xf32>
  %a = linalg.conv_3d_ncdhw_fcdhw {strides = dense<2> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %w : tensor<1x3x7x9x5xf32>, tensor<4x3x3x3x3xf32>)
      outs(%acc : tensor<1x4x3x4x2xf32>) -> tensor<1x4x3x4x2xf32>
  %e2 = tensor.empty() : tensor<1x3x4x5x4xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x3x4x5x4xf32>) -> tensor<1x3x4x5x4xf32>
  %b = linalg.conv_3d_ndhwc_dhwcf {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%y, %v : tensor<1x5x6x7x8xf32>, tensor<3x3x3x8x4xf32>)
      outs(%acc2 : tensor<1x3x4x5x4xf32>) -> tensor<1x3x4x5x4xf32>
  return %a, %b : tensor<1x4x3x4x2xf32>, tensor<1x3x4x5x4xf32>
}
