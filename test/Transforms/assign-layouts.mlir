// ALTE decisions on A100 (f32 convolutions costed as TF32 tensor-core work,
// where channels-first data pays cuDNN's transposes around each conv).
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 strategy=greedy prefer=conv:nhwc" | FileCheck %s --check-prefix=GREEDY
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=host" | FileCheck %s --check-prefix=HOST
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 allow-tf32=false" | FileCheck %s --check-prefix=HOST
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 strategy=greedy allow-tf32=false" | FileCheck %s --check-prefix=SEED
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 strategy=greedy allow-tf32=false intensity-threshold=1000" | FileCheck %s --check-prefix=NOSEED
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 prefer=pool:nhwc annotate" | FileCheck %s --check-prefix=PINNED
// RUN: ops-nn-opt %s --opsnn-assign-layouts="target=a100 abi=free" | FileCheck %s --check-prefix=FREE

#id = affine_map<(n, c, h, w) -> (n, c, h, w)>

// conv -> relu -> conv. Both convolutions move to NHWC; the relu between
// them follows (it costs the same in either layout) instead of costing two
// conversions; so does the pad. What remains: the input once, the filters
// (function arguments, converted at run time) and the result.
// CHECK-LABEL: func @conv_relu_conv
// CHECK: %[[X:.*]] = layout.convert %arg0 from "NCHW" to "NHWC" : tensor<1x64x56x56xf32> -> tensor<1x56x56x64xf32>
// CHECK: %[[XP:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[W1:.*]] = layout.convert %arg1 from "FCHW" to "HWCF"
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[XP]], %[[W1]] :
// CHECK-NOT: layout.convert %[[C1]]
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[C1]] : tensor<1x56x56x64xf32>) {{.*}} attrs = {layout.compute_layout = #layout<"NHWC">}
// CHECK: %[[W2:.*]] = layout.convert %arg2 from "FCHW" to "HWCF"
// CHECK: %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[R]], %[[W2]] :
// CHECK: %[[OUT:.*]] = layout.convert %[[C2]] from "NHWC" to "NCHW"
// CHECK: return %[[OUT]]
// Greedy (the convolutions pinned, nothing else considered): the relu and
// the pad stay NCHW and the activations convert twice more.
// GREEDY-LABEL: func @conv_relu_conv
// GREEDY: tensor.pad %arg0 low[0, 0, 1, 1]
// GREEDY: layout.convert %{{.*}} from "NCHW" to "NHWC"
// GREEDY: %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// GREEDY: %[[B:.*]] = layout.convert %[[C1]] from "NHWC" to "NCHW"
// GREEDY: %[[R:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<1x64x56x56xf32>)
// GREEDY: layout.convert %[[R]] from "NCHW" to "NHWC"
// GREEDY: linalg.conv_2d_nhwc_hwcf
// On the host, and on A100 without TF32, NCHW costs no more: nothing moves.
// HOST-LABEL: func @conv_relu_conv
// HOST-NOT: layout.convert
// HOST: linalg.conv_2d_nchw_fchw
// HOST-NOT: layout.convert
// HOST: linalg.conv_2d_nchw_fchw
// HOST-NOT: layout.convert
// HOST: return
// abi=free: the caller passes and receives NHWC; only the filters convert.
// FREE-LABEL: func @conv_relu_conv
// FREE-SAME: (%arg0: tensor<1x56x56x64xf32> {layout.layout = #layout<"NHWC">}, %arg1: tensor<64x64x3x3xf32>, %arg2: tensor<64x64x3x3xf32>)
// FREE-SAME: -> (tensor<1x54x54x64xf32> {layout.layout = #layout<"NHWC">})
// FREE-NOT: layout.convert %arg0
// FREE: layout.convert %arg1 from "FCHW" to "HWCF"
// FREE: layout.convert %arg2 from "FCHW" to "HWCF"
// FREE-NOT: layout.convert
// FREE: return
func.func @conv_relu_conv(%x: tensor<1x64x56x56xf32>, %w1: tensor<64x64x3x3xf32>, %w2: tensor<64x64x3x3xf32>) -> tensor<1x64x54x54xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x64x56x56xf32>
  %e1 = tensor.empty() : tensor<1x64x54x54xf32>
  %acc0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xp, %w1 : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%acc0 : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x64x56x56xf32>) outs(%e0 : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%r, %w2 : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) outs(%acc1 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  return %c2 : tensor<1x64x54x54xf32>
}

// Mixed layouts: max pooling of the NCHW input stays NCHW (converting its
// output is 4x cheaper than converting its input), the convolutions after
// it run NHWC.
// CHECK-LABEL: func @pool_conv_relu_conv
// CHECK: %[[P:.*]] = linalg.pooling_nchw_max {{.*}} ins(%arg0, %{{.*}} : tensor<1x64x112x112xf32>, tensor<2x2xf32>)
// CHECK: layout.convert %[[P]] from "NCHW" to "NHWC" : tensor<1x64x56x56xf32> -> tensor<1x56x56x64xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.conv_2d_nhwc_hwcf
// Pinned by prefer=pool:nhwc, the pooling converts its input instead;
// annotate shows each op's estimate per layout and why it got its layout.
// PINNED-LABEL: func @pool_conv_relu_conv
// PINNED: layout.convert %arg0 from "NCHW" to "NHWC" : tensor<1x64x112x112xf32> -> tensor<1x112x112x64xf32>
// PINNED: linalg.pooling_nhwc_max
// PINNED-SAME: layout.decision = {from = #layout<"NCHW">, layout = #layout<"NHWC">, reason = "prefer", seconds = {NCHW = {{.*}} : f64, NHWC = {{.*}} : f64}}
// PINNED: linalg.conv_2d_nhwc_hwcf
// PINNED-SAME: layout.decision = {from = #layout<"NCHW">, layout = #layout<"NHWC">, reason = "cost-model"
func.func @pool_conv_relu_conv(%x: tensor<1x64x112x112xf32>, %w1: tensor<64x64x3x3xf32>, %w2: tensor<64x64x3x3xf32>) -> tensor<1x64x52x52xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %k = tensor.empty() : tensor<2x2xf32>
  %ep = tensor.empty() : tensor<1x64x56x56xf32>
  %ip = linalg.fill ins(%ninf : f32) outs(%ep : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %p = linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %k : tensor<1x64x112x112xf32>, tensor<2x2xf32>) outs(%ip : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %e1 = tensor.empty() : tensor<1x64x54x54xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w1 : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>) outs(%acc1 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1 : tensor<1x64x54x54xf32>) outs(%e1 : tensor<1x64x54x54xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x54x54xf32>
  %e2 = tensor.empty() : tensor<1x64x52x52xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64x52x52xf32>) -> tensor<1x64x52x52xf32>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%r, %w2 : tensor<1x64x54x54xf32>, tensor<64x64x3x3xf32>) outs(%acc2 : tensor<1x64x52x52xf32>) -> tensor<1x64x52x52xf32>
  return %c2 : tensor<1x64x52x52xf32>
}

// Constant filters are converted at compile time: no run-time conversion.
// CHECK-LABEL: func @f16_constant_filters
// CHECK-DAG: arith.constant dense<1.500000e+00> : tensor<3x3x64x64xf16>
// CHECK-DAG: arith.constant dense<5.000000e-01> : tensor<3x3x64x64xf16>
// CHECK: layout.convert %arg0 from "NCHW" to "NHWC"
// CHECK-NOT: layout.convert
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: layout.convert
// CHECK: linalg.conv_2d_nhwc_hwcf
// CHECK-NEXT: layout.convert %{{.*}} from "NHWC" to "NCHW"
func.func @f16_constant_filters(%x: tensor<1x64x58x58xf16>) -> tensor<1x64x54x54xf16> {
  %w1 = arith.constant dense<1.5> : tensor<64x64x3x3xf16>
  %w2 = arith.constant dense<0.5> : tensor<64x64x3x3xf16>
  %zero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<1x64x56x56xf16>
  %acc1 = linalg.fill ins(%zero : f16) outs(%e1 : tensor<1x64x56x56xf16>) -> tensor<1x64x56x56xf16>
  %c1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%acc1 : tensor<1x64x56x56xf16>) -> tensor<1x64x56x56xf16>
  %e2 = tensor.empty() : tensor<1x64x54x54xf16>
  %acc2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<1x64x54x54xf16>) -> tensor<1x64x54x54xf16>
  %c2 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%c1, %w2 : tensor<1x64x56x56xf16>, tensor<64x64x3x3xf16>) outs(%acc2 : tensor<1x64x54x54xf16>) -> tensor<1x64x54x54xf16>
  return %c2 : tensor<1x64x54x54xf16>
}

// A single convolution between fixed NCHW boundaries: converting around it
// costs exactly the transposes cuDNN would do for NCHW, so it stays.
// CHECK-LABEL: func @lone_conv
// CHECK-NOT: layout.convert
// CHECK: linalg.conv_2d_nchw_fchw
func.func @lone_conv(%x: tensor<1x64x58x58xf16>, %w: tensor<64x64x3x3xf16>, %o: tensor<1x64x56x56xf16>) -> tensor<1x64x56x56xf16> {
  %c = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%o : tensor<1x64x56x56xf16>) -> tensor<1x64x56x56xf16>
  return %c : tensor<1x64x56x56xf16>
}

// Elementwise work alone never pays for a conversion.
// CHECK-LABEL: func @relu_only
// CHECK-NOT: layout.convert
// CHECK: return
func.func @relu_only(%x: tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x64x56x56xf32>) outs(%e0 : tensor<1x64x56x56xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  return %r : tensor<1x64x56x56xf32>
}

// The seed rule: conv_2d_nhwc_fhwc in f32 on CUDA cores reads its FHWC
// filter one sector per lane (score well under 0.5) and does about 11
// FLOPs per byte, so greedy moves it to its cheapest layout (NCHW, where
// the lanes walk the width); with a higher intensity threshold it stays.
// SEED-LABEL: func @fhwc_filter
// SEED: layout.convert %arg1 from "FHWC" to "FCHW"
// SEED: linalg.conv_2d_nchw_fchw
// NOSEED-LABEL: func @fhwc_filter
// NOSEED-NOT: layout.convert
// NOSEED: linalg.conv_2d_nhwc_fhwc
func.func @fhwc_filter(%x: tensor<1x9x9x8xf32>, %w: tensor<16x3x3x8xf32>, %o: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x9x9x8xf32>, tensor<16x3x3x8xf32>) outs(%o : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %0 : tensor<1x7x7x16xf32>
}
