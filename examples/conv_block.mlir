// A conv -> relu -> conv block as the layout and precision passes leave it
// before clean-up: each convolution runs channels-last (NHWC/HWCF) in f16,
// with layout.convert and precision.cast inserted around it. The function
// keeps the framework's NCHW f32 interface.
//
// ./scripts/demo.sh shows what canonicalization makes of it (the weights are
// cast to f16 and re-laid out to HWCF at compile time: no run-time cost) and
// then the lowering of what is left to upstream linalg and arith. The
// NHWC -> NCHW -> NHWC pair around the ReLU survives canonicalization: pushing
// conversions through elementwise ops is --opsnn-propagate-layouts' job (ALTE).
module attributes {opsnn.target = #opsnn.target<"a100">} {
  func.func @conv_block(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
    %w1 = arith.constant dense<0.125> : tensor<4x4x1x1xf32>
    %w2 = arith.constant dense<[[[[0.5]], [[-0.25]], [[1.0]], [[2.0]]],
                                [[[1.0]], [[1.0]], [[1.0]], [[1.0]]],
                                [[[0.0]], [[0.5]], [[0.0]], [[0.5]]],
                                [[[3.0]], [[0.0]], [[-1.0]], [[0.1]]]]> : tensor<4x4x1x1xf32>

    // First convolution, NHWC / HWCF in f16 with f32 accumulation.
    %xh = precision.cast %x : tensor<1x4x8x8xf32> to tensor<1x4x8x8xf16>
    %x_nhwc = layout.convert %xh from "NCHW" to "NHWC" : tensor<1x4x8x8xf16> -> tensor<1x8x8x4xf16>
    %w1h = precision.cast %w1 : tensor<4x4x1x1xf32> to tensor<4x4x1x1xf16>
    %w1_hwcf = layout.convert %w1h from "FCHW" to "HWCF" : tensor<4x4x1x1xf16> -> tensor<1x1x4x4xf16>
    %zero = arith.constant 0.0 : f32
    %e1 = tensor.empty() : tensor<1x8x8x4xf32>
    %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %c1 = linalg.conv_2d_nhwc_hwcf ins(%x_nhwc, %w1_hwcf : tensor<1x8x8x4xf16>, tensor<1x1x4x4xf16>)
                                   outs(%acc1 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %c1h = precision.cast %c1 : tensor<1x8x8x4xf32> to tensor<1x8x8x4xf16>
    %c1_nchw = layout.convert %c1h from "NHWC" to "NCHW" : tensor<1x8x8x4xf16> -> tensor<1x4x8x8xf16>

    // ReLU in NCHW (where a framework-layout op would leave it).
    %e2 = tensor.empty() : tensor<1x4x8x8xf16>
    %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                          affine_map<(n, c, h, w) -> (n, c, h, w)>],
                         iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%c1_nchw : tensor<1x4x8x8xf16>) outs(%e2 : tensor<1x4x8x8xf16>) {
    ^bb0(%in: f16, %out: f16):
      %zh = arith.constant 0.0 : f16
      %m = arith.maximumf %in, %zh : f16
      linalg.yield %m : f16
    } -> tensor<1x4x8x8xf16>

    // Second convolution: converts back to NHWC.
    %r_nhwc = layout.convert %r from "NCHW" to "NHWC" : tensor<1x4x8x8xf16> -> tensor<1x8x8x4xf16>
    %w2h = precision.cast %w2 : tensor<4x4x1x1xf32> to tensor<4x4x1x1xf16>
    %w2_hwcf = layout.convert %w2h from "FCHW" to "HWCF" : tensor<4x4x1x1xf16> -> tensor<1x1x4x4xf16>
    %e3 = tensor.empty() : tensor<1x8x8x4xf32>
    %acc2 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %c2 = linalg.conv_2d_nhwc_hwcf ins(%r_nhwc, %w2_hwcf : tensor<1x8x8x4xf16>, tensor<1x1x4x4xf16>)
                                   outs(%acc2 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %y = layout.convert %c2 from "NHWC" to "NCHW" : tensor<1x8x8x4xf32> -> tensor<1x4x8x8xf32>
    return %y : tensor<1x4x8x8xf32>
  }
}
