// RUN: ops-nn-opt %s --opsnn-quantize="type=fp8" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-quantize="type=int8" | FileCheck %s --check-prefix=INT8

// A convolution's zero-padded input: FP8 quantizes the tensor before its
// padding (zero is code 0 at any scale) and pads the codes with FP8 zeros,
// so the padded tensor is FP8 and the tensor-core kernel can read it
// unpadded (fold-padding), as it does an FP16 one. (Quantized after the
// padding, the f32 padding stayed a fill and a copy of its own, and the
// quantizing op another kernel: resnet_tiny under FP8 had 20 kernels
// instead of 11.) Two convolutions with different paddings share the
// codes of their input, each padding them its own way.
// CHECK-LABEL: func.func @padded
// CHECK: %[[CODES:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x8x8x16xf32>)
// CHECK: arith.truncf {{.*}} : f32 to f8E4M3FN
// CHECK-DAG: %[[PAD1:.*]] = tensor.pad %[[CODES]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK-DAG: %[[PAD2:.*]] = tensor.pad %[[CODES]] low[0, 0, 0, 0] high[0, 2, 2, 0]
// CHECK-DAG: arith.constant 0.000000e+00 : f8E4M3FN
// CHECK-DAG: tensor.yield %{{.*}} : f8E4M3FN
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD1]], %{{.*}} : tensor<1x10x10x16xf8E4M3FN>, tensor<3x3x16x16xf8E4M3FN>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD2]], %{{.*}} : tensor<1x10x10x16xf8E4M3FN>, tensor<3x3x16x16xf8E4M3FN>)
// CHECK-NOT: arith.truncf {{.*}} : f32 to f8E4M3FN
// CHECK: return

// INT8 likewise: the unpadded tensor through quant.qcast and scast, once,
// the i8 codes padded with zeros (zero point 0) for each convolution.
// INT8-LABEL: func.func @padded
// INT8: %[[Q:.*]] = quant.qcast %arg0 : tensor<1x8x8x16xf32> to tensor<1x8x8x16x!quant.uniform
// INT8: %[[CODES:.*]] = quant.scast %[[Q]] {{.*}} to tensor<1x8x8x16xi8>
// INT8-DAG: %[[PAD1:.*]] = tensor.pad %[[CODES]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// INT8-DAG: %[[PAD2:.*]] = tensor.pad %[[CODES]] low[0, 0, 0, 0] high[0, 2, 2, 0]
// INT8-DAG: tensor.yield %{{.*}} : i8
// INT8-NOT: quant.qcast
// INT8: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD1]], %{{.*}} : tensor<1x10x10x16xi8>, tensor<3x3x16x16xi8>)
// INT8-NOT: quant.qcast
// INT8: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PAD2]], %{{.*}} : tensor<1x10x10x16xi8>, tensor<3x3x16x16xi8>)
// INT8-NOT: quant.qcast
// INT8: return

// A tensor read padded by one convolution and unpadded by another (a
// ResNet block's output: the next block's 3x3 convolution and its 1x1
// downsample) at the same scale: one quantization, the padded reader's
// codes padded. (INT8 quantized it twice, and resnet_tiny had a kernel
// more than under FP16 and FP8.)
// CHECK-LABEL: func.func @padded_and_unpadded
// CHECK: %[[CODES:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x8x8x16xf32>)
// CHECK: tensor.pad %[[CODES]]
// CHECK-NOT: arith.truncf {{.*}} : f32 to f8E4M3FN
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[CODES]], %{{.*}} : tensor<1x8x8x16xf8E4M3FN>, tensor<1x1x16x16xf8E4M3FN>)
// INT8-LABEL: func.func @padded_and_unpadded
// INT8: %[[Q:.*]] = quant.qcast %arg0
// INT8: %[[CODES:.*]] = quant.scast %[[Q]]
// INT8-NOT: quant.qcast
// INT8: tensor.pad %[[CODES]]
// INT8-NOT: quant.qcast
// INT8: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[CODES]], %{{.*}} : tensor<1x8x8x16xi8>, tensor<1x1x16x16xi8>)
// INT8-LABEL: func.func @padded_with_one
// INT8: quant.qcast %{{.*}} : tensor<1x10x10x16xf32>

// Padding with another value (not a code at every scale) is quantized
// with the padded tensor.
// CHECK-LABEL: func.func @padded_with_one
// CHECK: tensor.pad %arg0
// CHECK: tensor.yield %{{.*}} : f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x10x10x16xf32>)
// CHECK: arith.truncf {{.*}} : f32 to f8E4M3FN
#r = #precision.range<min = -2.0, max = 3.0, min_abs_nonzero = 0.01>
func.func @padded(%x: tensor<1x8x8x16xf32>) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %w = arith.constant dense<0.5> : tensor<3x3x16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p1 = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } {precision.ranges = [#r]} : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p1, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p2 = tensor.pad %x low[0, 0, 0, 0] high[0, 2, 2, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } {precision.ranges = [#r]} : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %c1, %c2 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}

func.func @padded_and_unpadded(%x: tensor<1x8x8x16xf32> {precision.range = #r}) -> (tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>) {
  %w = arith.constant dense<0.5> : tensor<3x3x16x16xf32>
  %w1 = arith.constant dense<0.25> : tensor<1x1x16x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } {precision.ranges = [#r]} : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x8x8x16xf32>, tensor<1x1x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %c1, %c2 : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>
}

func.func @padded_with_one(%x: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %w = arith.constant dense<0.5> : tensor<3x3x16x16xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<1x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } {precision.ranges = [#r]} : tensor<1x8x8x16xf32> to tensor<1x10x10x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x10x10x16xf32>, tensor<3x3x16x16xf32>) outs(%f : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %c : tensor<1x8x8x16xf32>
}
