// RUN: %check %s
// Max and sum pooling, NCHW and NHWC; average = sum * 1/(window size).
// REF: out0 = ref.pool_nc(in0, [3, 3], strides=[2, 2], kind="max")
// REF: out1 = ref.pool_nc(in0, [2, 2], strides=[2, 2], kind="sum") / 4
// REF: out2 = ref.pool_nhwc(in1, [3, 3], strides=[1, 1], kind="max")
// REF: out3 = ref.pool_nhwc(in1, [2, 3], strides=[2, 1], kind="sum")
// TOL: 1e-6

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @pool(%x: tensor<2x5x9x13xf32>, %y: tensor<1x7x8x16xf32>)
    -> (tensor<2x5x4x6xf32>, tensor<2x5x4x6xf32>, tensor<1x5x6x16xf32>, tensor<1x3x6x16xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %quarter = arith.constant 0.25 : f32
  %k33 = tensor.empty() : tensor<3x3xf32>
  %k22 = tensor.empty() : tensor<2x2xf32>
  %k23 = tensor.empty() : tensor<2x3xf32>

  %e0 = tensor.empty() : tensor<2x5x4x6xf32>
  %i0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>
  %max = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k33 : tensor<2x5x9x13xf32>, tensor<3x3xf32>) outs(%i0 : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>

  %i1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>
  %sum = linalg.pooling_nchw_sum {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k22 : tensor<2x5x9x13xf32>, tensor<2x2xf32>) outs(%i1 : tensor<2x5x4x6xf32>) -> tensor<2x5x4x6xf32>
  %avg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x5x4x6xf32>) outs(%e0 : tensor<2x5x4x6xf32>) {
  ^bb0(%s: f32, %o: f32):
    %a = arith.mulf %s, %quarter : f32
    linalg.yield %a : f32
  } -> tensor<2x5x4x6xf32>

  %e2 = tensor.empty() : tensor<1x5x6x16xf32>
  %i2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x5x6x16xf32>) -> tensor<1x5x6x16xf32>
  %nmax = linalg.pooling_nhwc_max {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%y, %k33 : tensor<1x7x8x16xf32>, tensor<3x3xf32>) outs(%i2 : tensor<1x5x6x16xf32>) -> tensor<1x5x6x16xf32>

  %e3 = tensor.empty() : tensor<1x3x6x16xf32>
  %i3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x6x16xf32>) -> tensor<1x3x6x16xf32>
  %nsum = linalg.pooling_nhwc_sum {strides = dense<[2, 1]> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%y, %k23 : tensor<1x7x8x16xf32>, tensor<2x3xf32>) outs(%i3 : tensor<1x3x6x16xf32>) -> tensor<1x3x6x16xf32>
  return %max, %avg, %nmax, %nsum : tensor<2x5x4x6xf32>, tensor<2x5x4x6xf32>, tensor<1x5x6x16xf32>, tensor<1x3x6x16xf32>
}
