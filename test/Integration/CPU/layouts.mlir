// RUN: %check %s
// Layout conversions lowered and executed: transposes and blocked packs,
// including a channel count that needs padding (C = 12 into 8-blocks is
// rejected by the verifier, so blocks of 4 and 6 here). Exact.
// REF: out0 = in0.transpose(0, 2, 3, 1)
// REF: out1 = in0.reshape(2, 3, 4, 7, 5).transpose(0, 1, 3, 4, 2)
// REF: out2 = in0.reshape(2, 2, 6, 7, 5).transpose(0, 3, 4, 1, 2)
// REF: out3 = in0
// REF: out4 = in1.T
// TOL: 0

func.func @layouts(%x: tensor<2x12x7x5xf32>, %m: tensor<9x13xf32>)
    -> (tensor<2x7x5x12xf32>, tensor<2x3x7x5x4xf32>, tensor<2x7x5x2x6xf32>, tensor<2x12x7x5xf32>, tensor<13x9xf32>) {
  %a = layout.convert %x from "NCHW" to "NHWC" : tensor<2x12x7x5xf32> -> tensor<2x7x5x12xf32>
  %b = layout.convert %x from "NCHW" to "NCHW4c" : tensor<2x12x7x5xf32> -> tensor<2x3x7x5x4xf32>
  %c = layout.convert %a from "NHWC" to "NHWC6c" : tensor<2x7x5x12xf32> -> tensor<2x7x5x2x6xf32>
  %d = layout.convert %c from "NHWC6c" to "NCHW" : tensor<2x7x5x2x6xf32> -> tensor<2x12x7x5xf32>
  %t = layout.convert %m from "MK" to "KM" : tensor<9x13xf32> -> tensor<13x9xf32>
  return %a, %b, %c, %d, %t : tensor<2x7x5x12xf32>, tensor<2x3x7x5x4xf32>, tensor<2x7x5x2x6xf32>, tensor<2x12x7x5xf32>, tensor<13x9xf32>
}
