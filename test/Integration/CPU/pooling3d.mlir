// RUN: %check %s
// 3-D pooling, NDHWC, max and sum.
// REF: out0 = ref.pool_nhwc(in0, [2, 2, 2], strides=[2, 2, 2], kind="max")
// REF: out1 = ref.pool_nhwc(in0, [3, 3, 3], kind="sum")
// TOL: 1e-6

func.func @pool(%x: tensor<1x6x7x8x4xf32>) -> (tensor<1x3x3x4x4xf32>, tensor<1x4x5x6x4xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %k2 = tensor.empty() : tensor<2x2x2xf32>
  %k3 = tensor.empty() : tensor<3x3x3xf32>
  %e0 = tensor.empty() : tensor<1x3x3x4x4xf32>
  %i0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<1x3x3x4x4xf32>) -> tensor<1x3x3x4x4xf32>
  %max = linalg.pooling_ndhwc_max {strides = dense<2> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %k2 : tensor<1x6x7x8x4xf32>, tensor<2x2x2xf32>) outs(%i0 : tensor<1x3x3x4x4xf32>) -> tensor<1x3x3x4x4xf32>
  %e1 = tensor.empty() : tensor<1x4x5x6x4xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x5x6x4xf32>) -> tensor<1x4x5x6x4xf32>
  %sum = linalg.pooling_ndhwc_sum {strides = dense<1> : tensor<3xi64>, dilations = dense<1> : tensor<3xi64>}
      ins(%x, %k3 : tensor<1x6x7x8x4xf32>, tensor<3x3x3xf32>) outs(%i1 : tensor<1x4x5x6x4xf32>) -> tensor<1x4x5x6x4xf32>
  return %max, %sum : tensor<1x3x3x4x4xf32>, tensor<1x4x5x6x4xf32>
}
