// RUN: ops-nn-opt %s --split-input-file --opsnn-convert-convs-to-nhwc | FileCheck %s
// RUN: ops-nn-opt %s --split-input-file --opsnn-convert-convs-to-nhwc="allow-tf32" | FileCheck %s --check-prefix=TF32
// RUN: ops-nn-opt %s --split-input-file --opsnn-convert-convs-to-nhwc="target=t4" | FileCheck %s --check-prefix=T4
// RUN: not ops-nn-opt %s --opsnn-convert-convs-to-nhwc="allow-tf32=maybe" 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not ops-nn-opt %s --split-input-file --opsnn-convert-convs-to-nhwc="target=v100" 2>&1 | FileCheck %s --check-prefix=V100
// RUN: not ops-nn-opt %s --split-input-file --opsnn-convert-convs-to-nhwc="target=nope" 2>&1 | FileCheck %s --check-prefix=NOPE

// BADOPT: for the --allow-tf32 option: 'maybe' is invalid
// V100: error: target 'v100' (sm_70) has no mma.sync the tensor-core kernel uses (sm_75 or later)
// NOPE: error: unknown target 'nope' (known: {{.*}}a100{{.*}})

// An FP16 NCHW convolution accumulating in FP32 runs in NHWC between layout
// conversions (ALTE's rewrite: input, filter FCHW -> HWCF and accumulator
// in, result out); strides, dilations and other attributes carry over.
// The accumulator's fill is re-created in NHWC (the conversion cleanup).
// The same on T4 (FP16 tensor cores).
// T4-LABEL: func.func @f16_conv
// T4: linalg.conv_2d_nhwc_hwcf
// CHECK-LABEL: func.func @f16_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x32x10x10xf16>, %[[W:.*]]: tensor<64x32x3x3xf16>)
// CHECK: %[[XC:.*]] = layout.convert %[[X]] from "NCHW" to "NHWC" : tensor<1x32x10x10xf16> -> tensor<1x10x10x32xf16>
// CHECK: %[[WC:.*]] = layout.convert %[[W]] from "FCHW" to "HWCF" : tensor<64x32x3x3xf16> -> tensor<3x3x32x64xf16>
// CHECK: %[[AC:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x64xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, precision.decision = {{.*}}, strides = dense<[1, 2]> : tensor<2xi64>} ins(%[[XC]], %[[WC]] : tensor<1x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%[[AC]] : tensor<1x4x4x64xf32>)
// CHECK: %[[Y:.*]] = layout.convert %[[C]] from "NHWC" to "NCHW" : tensor<1x4x4x64xf32> -> tensor<1x64x4x4xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @f16_conv(%x: tensor<1x32x10x10xf16>, %w: tensor<64x32x3x3xf16>) -> tensor<1x64x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<[1, 2]> : tensor<2xi64>, dilations = dense<[2, 1]> : tensor<2xi64>, precision.decision = {precision = f16, reason = "low list"}}
      ins(%x, %w : tensor<1x32x10x10xf16>, tensor<64x32x3x3xf16>) outs(%f : tensor<1x64x4x4xf32>) -> tensor<1x64x4x4xf32>
  return %y : tensor<1x64x4x4xf32>
}

// -----

// f32: converted only where TF32 is allowed (the option, or the op's
// opsnn.tf32 attribute); otherwise the generic path keeps FP32 and the
// convolution keeps its layout.
// CHECK-LABEL: func.func @f32_conv
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: layout.convert
// TF32-LABEL: func.func @f32_conv
// TF32-NOT: linalg.conv_2d_nchw_fchw
// TF32: linalg.conv_2d_nhwc_hwcf
func.func @f32_conv(%x: tensor<2x8x6x6xf32>, %w: tensor<16x8x3x3xf32>, %acc: tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x8x6x6xf32>, tensor<16x8x3x3xf32>) outs(%acc : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  return %y : tensor<2x16x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @tf32_attribute
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}opsnn.tf32
func.func @tf32_attribute(%x: tensor<2x8x6x6xf32>, %w: tensor<16x8x3x3xf32>, %acc: tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, opsnn.tf32}
      ins(%x, %w : tensor<2x8x6x6xf32>, tensor<16x8x3x3xf32>) outs(%acc : tensor<2x16x4x4xf32>) -> tensor<2x16x4x4xf32>
  return %y : tensor<2x16x4x4xf32>
}

// -----

// INT8 with an i32 accumulator, and BF16: converted. The INT8 filter
// becomes FHWC (F x K: the kernel copies it by cp.async, where a K x F one
// would be transposed into shared memory byte by byte).
// CHECK-LABEL: func.func @int8_and_bf16
// CHECK-SAME: (%{{.*}}: tensor<1x16x6x6xi8>, %[[W:[^:]*]]: tensor<16x16x3x3xi8>
// CHECK-NOT: "HWCF"
// CHECK: %[[WF:.*]] = layout.convert %[[W]] from "FCHW" to "FHWC" : tensor<16x16x3x3xi8> -> tensor<16x3x3x16xi8>
// CHECK-NOT: "HWCF"
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%{{.*}}, %[[WF]] : tensor<1x6x6x16xi8>, tensor<16x3x3x16xi8>) outs(%{{.*}} : tensor<1x4x4x16xi32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x16xbf16>, tensor<3x3x16x16xbf16>) outs(%{{.*}} : tensor<1x4x4x16xf32>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
// T4's tensor cores take INT8 (as m8n8k16) but not BF16: the INT8
// convolution runs in NHWC, the BF16 one stays NCHW for the generic path.
// T4-LABEL: func.func @int8_and_bf16
// T4: linalg.conv_2d_nhwc_fhwc {{.*}} : tensor<1x6x6x16xi8>, tensor<16x3x3x16xi8>)
// T4: linalg.conv_2d_nchw_fchw {{.*}} : tensor<1x16x6x6xbf16>, tensor<16x16x3x3xbf16>)
// T4-NOT: layout.convert
// T4: return
func.func @int8_and_bf16(%x: tensor<1x16x6x6xi8>, %w: tensor<16x16x3x3xi8>, %acc: tensor<1x16x4x4xi32>,
                         %xb: tensor<1x16x6x6xbf16>, %wb: tensor<16x16x3x3xbf16>, %accb: tensor<1x16x4x4xf32>)
    -> (tensor<1x16x4x4xi32>, tensor<1x16x4x4xf32>) {
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x6x6xi8>, tensor<16x16x3x3xi8>) outs(%acc : tensor<1x16x4x4xi32>) -> tensor<1x16x4x4xi32>
  %yb = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<1x16x6x6xbf16>, tensor<16x16x3x3xbf16>) outs(%accb : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %y, %yb : tensor<1x16x4x4xi32>, tensor<1x16x4x4xf32>
}

// -----

// An image's 3 channels: converted when F is a multiple of 8 (then
// --opsnn-pad-conv-channels pads C to 8), left alone when it is not (the
// kernel would take it neither way).
// CHECK-LABEL: func.func @image_channels
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x3xf16>, tensor<3x3x3x16xf16>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x3x8x8xf16>, tensor<10x3x3x3xf16>)
func.func @image_channels(%x: tensor<1x3x8x8xf16>, %w16: tensor<16x3x3x3xf16>, %acc16: tensor<1x16x6x6xf32>,
                          %w10: tensor<10x3x3x3xf16>, %acc10: tensor<1x10x6x6xf32>)
    -> (tensor<1x16x6x6xf32>, tensor<1x10x6x6xf32>) {
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w16 : tensor<1x3x8x8xf16>, tensor<16x3x3x3xf16>) outs(%acc16 : tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w10 : tensor<1x3x8x8xf16>, tensor<10x3x3x3xf16>) outs(%acc10 : tensor<1x10x6x6xf32>) -> tensor<1x10x6x6xf32>
  return %a, %b : tensor<1x16x6x6xf32>, tensor<1x10x6x6xf32>
}

// -----

// What the kernel would not take either way keeps its layout: an FP16
// accumulator, mixed input types, a dynamic batch, buffers. NHWC
// convolutions are not touched.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: layout.convert
// CHECK-COUNT-3: linalg.conv_2d_nchw_fchw
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-NOT: layout.convert
func.func @left_alone(%x: tensor<1x16x6x6xf16>, %w: tensor<16x16x3x3xf16>, %acc16: tensor<1x16x4x4xf16>,
                      %xf: tensor<1x16x6x6xf32>, %accf: tensor<1x16x4x4xf32>,
                      %xd: tensor<?x16x6x6xf16>, %accd: tensor<?x16x4x4xf32>,
                      %xn: tensor<1x6x6x16xf16>, %wn: tensor<3x3x16x16xf16>, %accn: tensor<1x4x4x16xf32>,
                      %bx: memref<1x16x6x6xf16>, %bw: memref<16x16x3x3xf16>, %bacc: memref<1x16x4x4xf32>)
    -> (tensor<1x16x4x4xf16>, tensor<1x16x4x4xf32>, tensor<?x16x4x4xf32>, tensor<1x4x4x16xf32>) {
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x6x6xf16>, tensor<16x16x3x3xf16>) outs(%acc16 : tensor<1x16x4x4xf16>) -> tensor<1x16x4x4xf16>
  %b = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xf, %w : tensor<1x16x6x6xf32>, tensor<16x16x3x3xf16>) outs(%accf : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xd, %w : tensor<?x16x6x6xf16>, tensor<16x16x3x3xf16>) outs(%accd : tensor<?x16x4x4xf32>) -> tensor<?x16x4x4xf32>
  %d = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xn, %wn : tensor<1x6x6x16xf16>, tensor<3x3x16x16xf16>) outs(%accn : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%bx, %bw : memref<1x16x6x6xf16>, memref<16x16x3x3xf16>) outs(%bacc : memref<1x16x4x4xf32>)
  return %a, %b, %c, %d : tensor<1x16x4x4xf16>, tensor<1x16x4x4xf32>, tensor<?x16x4x4xf32>, tensor<1x4x4x16xf32>
}

// -----

// A max pool between two converted convolutions follows them into NHWC
// (as --opsnn-propagate-layouts moves layout-agnostic ops): the
// conversions between the three cancel, one stays at each end. Its input
// and output are the convolutions' alone, so no other reader needs NCHW.
// CHECK-LABEL: func.func @pool_follows
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x16x10x10xf16>
// CHECK: layout.convert %[[X]] from "NCHW" to "NHWC"
// CHECK-NOT: from "NHWC" to "NCHW"
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: layout.convert %[[C1]]
// CHECK: %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x8x16xf32>, tensor<2x2xf32>)
// CHECK-NOT: layout.convert %[[P]]
// CHECK: %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} -> tensor<1x2x2x16xf32>
// CHECK: %[[Y:.*]] = layout.convert %[[C2]] from "NHWC" to "NCHW"
// CHECK: return %[[Y]]
func.func @pool_follows(%x: tensor<1x16x10x10xf16>, %w1: tensor<16x16x3x3xf16>, %w2: tensor<16x16x3x3xf32>)
    -> tensor<1x16x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x16x8x8xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x16x10x10xf16>, tensor<16x16x3x3xf16>) outs(%a1 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %window = tensor.empty() : tensor<2x2xf32>
  %e2 = tensor.empty() : tensor<1x16x4x4xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %p = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%c1, %window : tensor<1x16x8x8xf32>, tensor<2x2xf32>) outs(%a2 : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %e3 = tensor.empty() : tensor<1x16x2x2xf32>
  %a3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, opsnn.tf32}
      ins(%p, %w2 : tensor<1x16x4x4xf32>, tensor<16x16x3x3xf32>) outs(%a3 : tensor<1x16x2x2xf32>) -> tensor<1x16x2x2xf32>
  return %c2 : tensor<1x16x2x2xf32>
}

// -----

// An NHWC convolution the input already had stays NHWC although moving it
// to NCHW would cancel the conversions around it: that is where the
// tensor-core kernel takes it.
// CHECK-LABEL: func.func @nhwc_conv_stays
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x16xf16>, tensor<3x3x16x16xf16>)
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x6x6x16xf16>, tensor<3x3x16x16xf16>)
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @nhwc_conv_stays(%x: tensor<1x16x6x6xf16>, %w: tensor<16x16x3x3xf16>, %acc: tensor<1x16x4x4xf32>,
                           %wn: tensor<3x3x16x16xf16>, %accn: tensor<1x4x4x16xf32>)
    -> (tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>) {
  %a = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x6x6xf16>, tensor<16x16x3x3xf16>) outs(%acc : tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
  %xn = layout.convert %x from "NCHW" to "NHWC" : tensor<1x16x6x6xf16> -> tensor<1x6x6x16xf16>
  %bn = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xn, %wn : tensor<1x6x6x16xf16>, tensor<3x3x16x16xf16>) outs(%accn : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %b = layout.convert %bn from "NHWC" to "NCHW" : tensor<1x4x4x16xf32> -> tensor<1x16x4x4xf32>
  return %a, %b : tensor<1x16x4x4xf32>, tensor<1x16x4x4xf32>
}

// -----

// MobileNet's pair as the importer writes it: a pointwise convolution (on
// tensor cores) and a depthwise one as a grouped convolution with one
// channel per group, between reshapes. The function goes channels-last, so
// the depthwise one becomes depthwise_conv_2d_nhwc_hwc (the reshapes fold,
// its filled accumulator is filled in NHWC): no conversion between the two.
// The grouped convolution with two channels per group keeps its form.
// CHECK-LABEL: func.func @depthwise_follows
// CHECK: %[[P:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: layout.convert %[[P]]
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x6x32xf32>)
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%[[F]] : tensor<1x6x6x32xf32>)
// CHECK: %[[Y:.*]] = layout.convert %[[D]] from "NHWC" to "NCHW"
// CHECK: return %[[Y]]
// CHECK-LABEL: func.func @grouped_left_alone
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.depthwise
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x16x2x8x8xf32>, tensor<16x2x2x3x3xf32>)
func.func @depthwise_follows(%x: tensor<1x16x8x8xf16>, %wp: tensor<32x16x1x1xf16>, %wd: tensor<32x1x1x3x3xf32>)
    -> tensor<1x32x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %p = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %wp : tensor<1x16x8x8xf16>, tensor<32x16x1x1xf16>) outs(%a : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %pg = tensor.expand_shape %p [[0], [1, 2], [3], [4]] output_shape [1, 32, 1, 8, 8] : tensor<1x32x8x8xf32> into tensor<1x32x1x8x8xf32>
  %ed = tensor.empty() : tensor<1x32x1x6x6xf32>
  %ad = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x32x1x6x6xf32>) -> tensor<1x32x1x6x6xf32>
  %dg = linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%pg, %wd : tensor<1x32x1x8x8xf32>, tensor<32x1x1x3x3xf32>) outs(%ad : tensor<1x32x1x6x6xf32>) -> tensor<1x32x1x6x6xf32>
  %d = tensor.collapse_shape %dg [[0], [1, 2], [3], [4]] : tensor<1x32x1x6x6xf32> into tensor<1x32x6x6xf32>
  return %d : tensor<1x32x6x6xf32>
}
func.func @grouped_left_alone(%x: tensor<1x16x2x8x8xf32>, %w: tensor<16x2x2x3x3xf32>, %acc: tensor<1x16x2x6x6xf32>,
                              %xp: tensor<1x16x8x8xf16>, %wp: tensor<32x16x1x1xf16>, %accp: tensor<1x32x8x8xf32>)
    -> (tensor<1x16x2x6x6xf32>, tensor<1x32x8x8xf32>) {
  %p = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xp, %wp : tensor<1x16x8x8xf16>, tensor<32x16x1x1xf16>) outs(%accp : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %y = linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x16x2x8x8xf32>, tensor<16x2x2x3x3xf32>) outs(%acc : tensor<1x16x2x6x6xf32>) -> tensor<1x16x2x6x6xf32>
  return %y, %p : tensor<1x16x2x6x6xf32>, tensor<1x32x8x8xf32>
}
// The same pair with the depthwise convolution as the importer's named op
// (depthwise_conv_2d_nchw_chw): ALTE's rewrite, the same result.
// CHECK-LABEL: func.func @named_depthwise_follows
// CHECK: %[[P:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: layout.convert %[[P]]
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x6x6x32xf32>)
// CHECK: %[[D:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]], %{{.*}} : tensor<1x8x8x32xf32>, tensor<3x3x32xf32>) outs(%[[F]] : tensor<1x6x6x32xf32>)
// CHECK: %[[Y:.*]] = layout.convert %[[D]] from "NHWC" to "NCHW"
// CHECK: return %[[Y]]
func.func @named_depthwise_follows(%x: tensor<1x16x8x8xf16>, %wp: tensor<32x16x1x1xf16>, %wd: tensor<32x3x3xf32>)
    -> tensor<1x32x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x8x8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %p = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %wp : tensor<1x16x8x8xf16>, tensor<32x16x1x1xf16>) outs(%a : tensor<1x32x8x8xf32>) -> tensor<1x32x8x8xf32>
  %ed = tensor.empty() : tensor<1x32x6x6xf32>
  %ad = linalg.fill ins(%zero : f32) outs(%ed : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %wd : tensor<1x32x8x8xf32>, tensor<32x3x3xf32>) outs(%ad : tensor<1x32x6x6xf32>) -> tensor<1x32x6x6xf32>
  return %d : tensor<1x32x6x6xf32>
}
