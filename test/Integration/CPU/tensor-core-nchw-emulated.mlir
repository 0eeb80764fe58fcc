// NCHW convolutions on the tensor-core kernel, run on the CPU
// (emulate-on-cpu) against NumPy: the tensor-core pipeline rewrites each
// into NHWC between layout conversions (--opsnn-convert-convs-to-nhwc),
// propagates them (--opsnn-propagate-layouts: the conversion after the
// ReLU folds into its output map and the one between the padded ReLU
// output and the second convolution moves above the pad, which the
// kernel then reads unpadded), and runs the NHWC kernels. Cases: an FP16
// conv -> bias + ReLU -> zero pad -> conv chain; a TF32 convolution with
// stride 2; a 3-channel 7x7 stride-2 stem (channels padded to 4 for TF32);
// INT8 with an i32 accumulator (its filter FCHW -> FHWC, copied by
// cp.async); a MobileNet pair, a pointwise FP16 convolution and the
// importer's grouped form of a depthwise one (run as
// depthwise_conv_2d_nhwc_hwc on the generic path, between no transposes).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-tf32}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// REF: h = ref.quantize(ref.relu(ref.conv_nc(in0, in1) + in2.reshape(1, 16, 1, 1)), np.float16)
// REF: out0 = ref.conv_nc(np.pad(h, ((0, 0), (0, 0), (1, 1), (1, 1))), in3)
// REF: out1 = ref.conv_nc(ref.round_tf32(in4), ref.round_tf32(in5), strides=[2, 2])
// REF: out2 = ref.conv_nc(np.pad(ref.round_tf32(in6), ((0, 0), (0, 0), (3, 3), (3, 3))), ref.round_tf32(in7), strides=[2, 2])
// REF: out3 = ref.conv_nc(in8, in9)
// REF: out4 = ref.grouped_ngchw_gfchw(ref.conv_nc(in10, in11).reshape(1, 32, 1, 8, 8), in12).reshape(1, 32, 6, 6)
// VALUES: int [-100, 100]
// TOL: 2e-6

// Every convolution takes the kernel (no conv left), as an NHWC implicit
// GEMM: the filters are K x F views of HWCF constants or transposes.
// CHECK-LABEL: func.func @nchw_convs
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.collapse_shape {{.*}} : memref<3x3x16x16xf16> into memref<144x16xf16>
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.collapse_shape {{.*}} : memref<3x3x16x32xf16> into memref<144x32xf16>
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.collapse_shape {{.*}} : memref<3x3x8x16xf32> into memref<72x16xf32>
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.collapse_shape {{.*}} : memref<7x7x4x16xf32> into memref<196x16xf32>
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.collapse_shape {{.*}} : memref<32x3x3x16xi8> into memref<32x144xi8>
// CHECK-NOT: linalg.conv_2d
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x8x8x32xf32>, memref<3x3x32xf32>) outs(%{{.*}} : memref<1x6x6x32xf32>)
// CHECK-NOT: linalg.conv_2d

func.func @nchw_convs(%x: tensor<2x16x10x10xf16>, %w0: tensor<16x16x3x3xf16>, %bias: tensor<16xf32>,
                      %w1: tensor<32x16x3x3xf16>,
                      %xt: tensor<1x8x9x9xf32>, %wt: tensor<16x8x3x3xf32>,
                      %image: tensor<1x3x20x20xf32>, %stem: tensor<16x3x7x7xf32>,
                      %xi: tensor<1x16x6x6xi8>, %wi: tensor<32x16x3x3xi8>,
                      %xm: tensor<1x16x8x8xf16>, %wm: tensor<32x16x1x1xf16>, %wd: tensor<32x1x1x3x3xf32>)
    -> (tensor<2x32x8x8xf32>, tensor<1x16x4x4xf32>, tensor<1x16x10x10xf32>, tensor<1x32x4x4xi32>,
        tensor<1x32x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %e0 = tensor.empty() : tensor<2x16x8x8xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %y0 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w0 : tensor<2x16x10x10xf16>, tensor<16x16x3x3xf16>) outs(%a0 : tensor<2x16x8x8xf32>) -> tensor<2x16x8x8xf32>
  %eh = tensor.empty() : tensor<2x16x8x8xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y0, %bias : tensor<2x16x8x8xf32>, tensor<16xf32>) outs(%eh : tensor<2x16x8x8xf16>) {
  ^bb0(%v: f32, %b: f32, %o: f16):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x16x8x8xf16>
  %hp = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero16 : f16
  } : tensor<2x16x8x8xf16> to tensor<2x16x10x10xf16>
  %e1 = tensor.empty() : tensor<2x32x8x8xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %y1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%hp, %w1 : tensor<2x16x10x10xf16>, tensor<32x16x3x3xf16>) outs(%a1 : tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>

  %et = tensor.empty() : tensor<1x16x4x4xf32>
  %at = linalg.fill ins(%zero : f32) outs(%et : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %yt = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xt, %wt : tensor<1x8x9x9xf32>, tensor<16x8x3x3xf32>) outs(%at : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>

  %ip = tensor.pad %image low[0, 0, 3, 3] high[0, 0, 3, 3] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero : f32
  } : tensor<1x3x20x20xf32> to tensor<1x3x26x26xf32>
  %es = tensor.empty() : tensor<1x16x10x10xf32>
  %as = linalg.fill ins(%zero : f32) outs(%es : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %ys = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%ip, %stem : tensor<1x3x26x26xf32>, tensor<16x3x7x7xf32>) outs(%as : tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<1x32x4x4xi32>
  %ai = linalg.fill ins(%zi : i32) outs(%ei : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>
  %yi = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xi, %wi : tensor<1x16x6x6xi8>, tensor<32x16x3x3xi8>) outs(%ai : tensor<1x32x4x4xi32>) -> tensor<1x32x4x4xi32>

  %em = tensor.empty() : tensor<1x32x8x8xf32>
  %am = linalg.fill ins(%zero : f32) outs(%em : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %pw = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xm, %wm : tensor<1x16x8x8xf16>, tensor<32x16x1x1xf16>) outs(%am : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %pg = tensor.expand_shape %pw [[0], [1, 2], [3], [4]] output_shape [1, 32, 1, 8, 8] : tensor<1x32x8x8xf32> into tensor<1x32x1x8x8xf32>
  %ed = tensor.empty() : tensor<1x32x1x6x6xf32>
  %ad = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x32x1x6x6xf32>) -> tensor<1x32x1x6x6xf32>
  %dg = linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%pg, %wd : tensor<1x32x1x8x8xf32>, tensor<32x1x1x3x3xf32>) outs(%ad : tensor<1x32x1x6x6xf32>) -> tensor<1x32x1x6x6xf32>
  %dw = tensor.collapse_shape %dg [[0], [1, 2], [3], [4]] : tensor<1x32x1x6x6xf32> into tensor<1x32x6x6xf32>
  return %y1, %yt, %ys, %yi, %dw : tensor<2x32x8x8xf32>, tensor<1x16x4x4xf32>, tensor<1x16x10x10xf32>, tensor<1x32x4x4xi32>,
      tensor<1x32x6x6xf32>
}
