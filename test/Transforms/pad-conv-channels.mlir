// RUN: ops-nn-opt %s --split-input-file --opsnn-pad-conv-channels | FileCheck %s
// RUN: ops-nn-opt %s --split-input-file --opsnn-pad-conv-channels="allow-tf32" | FileCheck %s --check-prefix=TF32
// RUN: ops-nn-opt %s --split-input-file --opsnn-pad-conv-channels="target=t4" | FileCheck %s --check-prefix=T4
// RUN: not ops-nn-opt %s --opsnn-pad-conv-channels="allow-tf32=maybe" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not ops-nn-opt %s --split-input-file --opsnn-pad-conv-channels="target=v100" 2>&1 | FileCheck %s --check-prefix=V100

// BADOPT: for the --allow-tf32 option: 'maybe' is invalid
// V100: error: target 'v100' (sm_70) has no mma.sync the tensor-core kernel uses (sm_75 or later)

// A constant HWCF filter is padded at compile time: channel c of each
// (kh, kw) row keeps its F values, channels 3..7 are zeros. The input (a
// function argument) is padded by a tensor.pad of C only.
// T4 pads FP16 convolutions alike.
// T4-LABEL: func.func @hwcf_constant_filter
// T4: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>)
// CHECK-LABEL: func.func @hwcf_constant_filter
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xf16>)
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, {{.*}}], [1.700000e+01, {{.*}}, 2.400000e+01], [0.000000e+00, 0.000000e+00, {{.*}}], {{.*}}]]]> : tensor<1x1x8x8xf16>
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 0, 0, 5]
// CHECK: tensor.yield %{{.*}} : f16
// CHECK: } : tensor<1x4x4x3xf16> to tensor<1x4x4x8xf16>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %[[W]] : tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>)
func.func @hwcf_constant_filter(%x: tensor<1x4x4x3xf16>) -> tensor<1x4x4x8xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0],
                              [9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0],
                              [17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0]]]]> : tensor<1x1x3x8xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x4x3xf16>, tensor<1x1x3x8xf16>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// -----

// ResNet's stem: a 7x7 stride-2 convolution of a zero-padded (3 each side)
// 3-channel image. The spatial and the channel padding become one pad of
// the image; an FHWC filter that is an argument is padded along its last
// dimension.
// T4 has no BF16 tensor cores: left alone.
// T4-LABEL: func.func @fhwc_spatially_padded
// T4-NOT: high[0, 3, 3, 5]
// T4: linalg.conv_2d_nhwc_fhwc {{.*}} : tensor<2x38x38x3xbf16>, tensor<16x7x7x3xbf16>)
// CHECK-LABEL: func.func @fhwc_spatially_padded
// CHECK-SAME: (%[[X:.*]]: tensor<2x32x32x3xbf16>, %[[W:.*]]: tensor<16x7x7x3xbf16>)
// CHECK-NOT: tensor.pad %[[X]] low[0, 3, 3, 0] high[0, 3, 3, 0]
// CHECK-DAG: %[[P:.*]] = tensor.pad %[[X]] low[0, 3, 3, 0] high[0, 3, 3, 5]
// CHECK-DAG: %[[PW:.*]] = tensor.pad %[[W]] low[0, 0, 0, 0] high[0, 0, 0, 5]
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[P]], %[[PW]] : tensor<2x38x38x8xbf16>, tensor<16x7x7x8xbf16>)
func.func @fhwc_spatially_padded(%x: tensor<2x32x32x3xbf16>, %w: tensor<16x7x7x3xbf16>) -> tensor<2x16x16x16xf32> {
  %z = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : bf16
  } : tensor<2x32x32x3xbf16> to tensor<2x38x38x3xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x16x16x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  %y = linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x38x38x3xbf16>, tensor<16x7x7x3xbf16>) outs(%f : tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
  return %y : tensor<2x16x16x16xf32>
}

// -----

// A padding of another value is not merged: the channels are padded on top.
// CHECK-LABEL: func.func @nonzero_spatial_padding
// CHECK: %[[S:.*]] = tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[P:.*]] = tensor.pad %[[S]] low[0, 0, 0, 0] high[0, 0, 0, 5]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %{{.*}} : tensor<1x6x6x8xf16>, tensor<3x3x8x8xf16>)
func.func @nonzero_spatial_padding(%x: tensor<1x4x4x3xf16>, %w: tensor<3x3x3x8xf16>) -> tensor<1x4x4x8xf32> {
  %one = arith.constant 1.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f16
  } : tensor<1x4x4x3xf16> to tensor<1x6x6x3xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x6x6x3xf16>, tensor<3x3x3x8xf16>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// -----

// An input computed for the convolution alone (the NCHW -> NHWC transpose
// and cast of an imported image) is computed into the padded tensor's
// interior: a zero fill of 1x8x8x8, the transpose on its 1x8x8x3 slice.
// CHECK-LABEL: func.func @fused_into_producer
// CHECK-NOT: tensor.pad
// CHECK: %[[FILL:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%{{.*}} : tensor<1x8x8x8xf16>)
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %[[FILL]][0, 0, 0, 0] [1, 8, 8, 3] [1, 1, 1, 1]
// CHECK: %[[T:.*]] = linalg.generic {{.*}} outs(%[[SLICE]] : tensor<1x8x8x3xf16>)
// CHECK: arith.truncf
// CHECK: %[[P:.*]] = tensor.insert_slice %[[T]] into %[[FILL]][0, 0, 0, 0] [1, 8, 8, 3] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x8x8xf16>, tensor<2x2x8x16xf16>)
func.func @fused_into_producer(%image: tensor<1x3x8x8xf32>, %w: tensor<2x2x3x16xf16>) -> tensor<1x4x4x16xf32> {
  %e16 = tensor.empty() : tensor<1x8x8x3xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%image : tensor<1x3x8x8xf32>) outs(%e16 : tensor<1x8x8x3xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x8x8x3xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x8x8x3xf16>, tensor<2x2x3x16xf16>) outs(%f : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  return %y : tensor<1x4x4x16xf32>
}

// -----

// INT8 pads to 16 channels (16 bytes), into an i32 accumulator.
// T4 runs INT8 as m8n8k16: padded alike.
// T4-LABEL: func.func @int8
// T4: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x16xi8>, tensor<3x3x16x8xi8>)
// CHECK-LABEL: func.func @int8
// CHECK: tensor.pad %{{.*}} high[0, 0, 0, 13]
// CHECK: tensor.pad %{{.*}} high[0, 0, 13, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x16xi8>, tensor<3x3x16x8xi8>)
func.func @int8(%x: tensor<1x6x6x3xi8>, %w: tensor<3x3x3x8xi8>) -> tensor<1x4x4x8xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x4x4x8xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x3xi8>, tensor<3x3x3x8xi8>) outs(%f : tensor<1x4x4x8xi32>) -> tensor<1x4x4x8xi32>
  return %y : tensor<1x4x4x8xi32>
}

// -----

// f32 convolutions only with allow-tf32 (to 4 channels), or when the
// precision policy marked them opsnn.tf32.
// CHECK-LABEL: func.func @f32
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>)
// TF32-LABEL: func.func @f32
// TF32: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>)
// TF32: linalg.conv_2d_nhwc_hwcf {{.*}} : tensor<1x6x6x4xf32>, tensor<3x3x4x8xf32>)
func.func @f32(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x8xf32>) -> (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %t = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, opsnn.tf32}
      ins(%x, %w : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %y, %t : tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>
}

// -----

// Left alone: C already a multiple of 8; F = 10 (not a multiple of 8, which
// the tensor-core kernel needs); a dynamic batch; an f16 output (not the
// f32 accumulator).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tensor.pad
// CHECK: return
func.func @left_alone(%x8: tensor<1x6x6x8xf16>, %w8: tensor<3x3x8x8xf16>,
                      %x: tensor<1x6x6x3xf16>, %w10: tensor<3x3x3x10xf16>,
                      %xd: tensor<?x6x6x3xf16>, %w: tensor<3x3x3x8xf16>, %od: tensor<?x4x4x8xf32>,
                      %o16: tensor<1x4x4x8xf16>)
    -> (tensor<1x4x4x8xf32>, tensor<1x4x4x10xf32>, tensor<?x4x4x8xf32>, tensor<1x4x4x8xf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %a = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x8, %w8 : tensor<1x6x6x8xf16>, tensor<3x3x8x8xf16>) outs(%f : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %e10 = tensor.empty() : tensor<1x4x4x10xf32>
  %f10 = linalg.fill ins(%zero : f32) outs(%e10 : tensor<1x4x4x10xf32>) -> tensor<1x4x4x10xf32>
  %b = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w10 : tensor<1x6x6x3xf16>, tensor<3x3x3x10xf16>) outs(%f10 : tensor<1x4x4x10xf32>) -> tensor<1x4x4x10xf32>
  %c = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xd, %w : tensor<?x6x6x3xf16>, tensor<3x3x3x8xf16>) outs(%od : tensor<?x4x4x8xf32>) -> tensor<?x4x4x8xf32>
  %d = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x3xf16>, tensor<3x3x3x8xf16>) outs(%o16 : tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  return %a, %b, %c, %d : tensor<1x4x4x8xf32>, tensor<1x4x4x10xf32>, tensor<?x4x4x8xf32>, tensor<1x4x4x8xf16>
}
