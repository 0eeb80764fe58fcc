// Post-training quantization: INT8 (weights per output channel, activation
// per tensor through quant.qcast/scast, i8 x i8 -> i32, per-axis
// quant.scast + quant.dcast back), FP8 (E4M3FN or E5M2 with per-tensor
// scales, f32 compute), embedding tables, and the ops that stay FP32.
// RUN: ops-nn-opt %s --opsnn-quantize | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-quantize="per-channel=false" | FileCheck %s --check-prefix=TENSOR
// RUN: ops-nn-opt %s --opsnn-quantize="type=fp8" | FileCheck %s --check-prefix=FP8
// RUN: ops-nn-opt %s --opsnn-quantize="type=fp8 fp8-format=e5m2" | FileCheck %s --check-prefix=E5M2
// RUN: ops-nn-opt %s --opsnn-quantize="skip-first-last" | FileCheck %s --check-prefix=FIRSTLAST
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-analyze-ranges,opsnn-quantize))" | FileCheck %s --check-prefix=INTERVAL
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize,linalg-generalize-named-ops))" | FileCheck %s --check-prefix=GENERIC
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8},linalg-generalize-named-ops))" | FileCheck %s --check-prefix=GENERIC-FP8
// The quantized IR lowers (quant casts included) with the CPU pipeline:
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=int8}),opsnn-lower-to-cpu)" | FileCheck %s --check-prefix=LLVM
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-cpu)" | FileCheck %s --check-prefix=LLVM

// LLVM-NOT: quant.
// LLVM-NOT: linalg.
// LLVM: llvm.func @matmul

#range = #precision.range<min = -2.0, max = 1.5, min_abs_nonzero = 0.01>
#ids = affine_map<(b, d) -> (b)>
#rows = affine_map<(b, d) -> (b, d)>

// The activation (|x| <= 2 from the argument's range) gets the scale 2/127;
// each weight column its own max|w|/127; the result's scales are their
// products, on axis 1. Weight codes round to nearest, ties to even.
// CHECK-LABEL: func @matmul
// CHECK: %[[Q:.*]] = quant.qcast %arg0 : tensor<4x3xf32> to tensor<4x3x!quant.uniform<i8<-127:127>:f32, 0.015748031496062992>>
// CHECK: %[[X:.*]] = quant.scast %[[Q]] : tensor<4x3x!quant.uniform<i8<-127:127>:f32, 0.015748031496062992>> to tensor<4x3xi8>
// CHECK: %[[W:.*]] = arith.constant dense<{{\[}}[127, -127], [32, 32], [-127, 16]]> : tensor<3x2xi8>
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : i32) outs(%{{.*}} : tensor<4x2xi32>)
// CHECK: %[[MM:.*]] = linalg.matmul
// CHECK-SAME: precision.decision = {precision = i8, reason = "int8: per-channel weights (2 scales), activation scale 0.01575 (user range), i32 accumulation"}
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<4x3xi8>, tensor<3x2xi8>) outs(%[[ACC]] : tensor<4x2xi32>)
// CHECK: %[[R:.*]] = quant.scast %[[MM]] : tensor<4x2xi32> to tensor<4x2x!quant.uniform<i32:f32:1, {1.2400024800049599E-4,6.2000124000247993E-5}>>
// CHECK: %[[Y:.*]] = quant.dcast %[[R]] : {{.*}} to tensor<4x2xf32>
// CHECK: return %[[Y]]

// In FP8 the weights take max|w|/448 (1.0 -> 448), the activation is
// scaled, saturated and rounded to E4M3FN, the matmul computes in f32, one
// multiply after.
// (The activation's codes come right after the activation: here the
// argument, so first.)
// FP8-LABEL: func @matmul
// FP8: %[[X:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<4x3xf32>) outs(%{{.*}} : tensor<4x3xf8E4M3FN>)
// FP8: arith.divf
// FP8: arith.maximumf %{{.*}}, %{{.*}} : f32
// FP8: arith.minimumf
// FP8: arith.truncf %{{.*}} : f32 to f8E4M3FN
// FP8: %[[W:.*]] = arith.constant dense<{{\[}}[4.480000e+02, -2.240000e+02], [1.120000e+02, 5.600000e+01], [-4.480000e+02, 2.800000e+01]]> : tensor<3x2xf8E4M3FN>
// FP8: %[[MM:.*]] = linalg.matmul
// FP8-SAME: precision.decision = {precision = f8E4M3FN, reason = "fp8: f8E4M3FN weights (scale 0.002232) and activation (scale 0.004464, user range), f32 accumulation"}
// FP8-SAME: ins(%[[X]], %[[W]] : tensor<4x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>) outs(%{{.*}} : tensor<4x2xf32>)
// FP8: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[MM]] : tensor<4x2xf32>)
// FP8: arith.constant 9.96492326E-6 : f32
// FP8: return %[[Y]]

// The payloads: i8 codes sign-extended, multiplied and summed in i32; FP8
// codes extended to f32.
// GENERIC-LABEL: func @matmul
// GENERIC: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[C:.*]]: i32):
// GENERIC: %[[AE:.*]] = arith.extsi %[[A]] : i8 to i32
// GENERIC: %[[BE:.*]] = arith.extsi %[[B]] : i8 to i32
// GENERIC: %[[M:.*]] = arith.muli %[[AE]], %[[BE]] : i32
// GENERIC: arith.addi %[[C]], %[[M]] : i32
// GENERIC-FP8-LABEL: func @matmul
// GENERIC-FP8: ^bb0(%[[A:.*]]: f8E4M3FN, %[[B:.*]]: f8E4M3FN, %[[C:.*]]: f32):
// GENERIC-FP8: arith.extf %[[A]] : f8E4M3FN to f32
// GENERIC-FP8: arith.extf %[[B]] : f8E4M3FN to f32
// GENERIC-FP8: arith.mulf
// GENERIC-FP8: arith.addf

// E5M2 (gradients): max 57344.
// E5M2-LABEL: func @matmul
// E5M2: arith.truncf %{{.*}} : f32 to f8E5M2
// E5M2: arith.constant dense<{{\[}}[5.734400e+04, -2.867200e+04], {{.*}} : tensor<3x2xf8E5M2>
// E5M2: linalg.matmul {precision.decision = {precision = f8E5M2,

func.func @matmul(%x: tensor<4x3xf32> {precision.range = #range}) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[1.0, -0.5], [0.25, 0.125], [-1.0, 0.0625]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// Per output channel (axis 1 of NCHW): 0.5/127, 2/127, and an all-zero
// channel (scale 1); 1.0 / (2/127) = 63.5 rounds to even, 64. The range
// calibration recorded on the producer gives the activation scale 3/127.
// CHECK-LABEL: func @conv_nchw
// CHECK: quant.qcast %{{.*}} : tensor<1x2x5x5xf32> to tensor<1x2x5x5x!quant.uniform<i8<-127:127>:f32, 0.023622047244094488>>
// CHECK: arith.constant dense<{{\[\[\[\[}}127]], {{\[\[}}-127]]], {{\[\[\[}}127]], {{\[\[}}64]]], {{\[\[\[}}0]], {{\[\[}}0]]]]> : tensor<3x2x1x1xi8>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: precision.decision = {precision = i8, reason = "int8: per-channel weights (3 scales), activation scale 0.02362 (calibration range), i32 accumulation"}
// CHECK-SAME: strides = dense<1> : tensor<2xi64>
// CHECK-SAME: -> tensor<1x3x5x5xi32>
// CHECK: quant.scast %{{.*}} : tensor<1x3x5x5xi32> to tensor<1x3x5x5x!quant.uniform<i32:f32:1, {9.3000186000372003E-5,3.7200074400148801E-4,0.023622047244094488}>>
// CHECK: quant.dcast

// One scale for the whole weight: 2/127 (0.5 -> 31.75 -> 32).
// TENSOR-LABEL: func @conv_nchw
// TENSOR: arith.constant dense<{{\[\[\[\[}}32]], {{\[\[}}-32]]], {{\[\[\[}}127]], {{\[\[}}64]]], {{\[\[\[}}0]], {{\[\[}}0]]]]> : tensor<3x2x1x1xi8>
// TENSOR: linalg.conv_2d_nchw_fchw {{.*}}reason = "int8: per-tensor weights, activation scale 0.02362 (calibration range), i32 accumulation"
// TENSOR: quant.scast %{{.*}} : tensor<1x3x5x5xi32> to tensor<1x3x5x5x!quant.uniform<i32:f32, 3.7200074400148801E-4>>

func.func @conv_nchw(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"],
                       precision.ranges = [#precision.range<min = 0.0, max = 3.0, min_abs_nonzero = 0.01>],
                       precision.range_source = "calibration"}
      ins(%x : tensor<1x2x5x5xf32>) outs(%x : tensor<1x2x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %in, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x2x5x5xf32>
  %w = arith.constant dense<[[[[0.5]], [[-0.5]]], [[[2.0]], [[1.0]]], [[[0.0]], [[0.0]]]]> : tensor<3x2x1x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x5x5xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r, %w : tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) outs(%acc : tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// NHWC/HWCF: the output channel is axis 3; a non-zero init is added in f32
// after dequantization (the i32 accumulator starts at zero).
// CHECK-LABEL: func @conv_nhwc_init
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x4x4x2xi8>, tensor<1x1x2x2xi8>) outs(%{{.*}} : tensor<1x4x4x2xi32>)
// CHECK: %[[R:.*]] = quant.scast %{{.*}} : tensor<1x4x4x2xi32> to tensor<1x4x4x2x!quant.uniform<i32:f32:3, {1.2400024800049599E-4,6.2000124000247993E-5}>>
// CHECK: %[[D:.*]] = quant.dcast %[[R]]
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[D]], %arg1 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>)
// CHECK: arith.addf
// CHECK: return %[[Y]]

// FP8 with a non-zero init: scale first, then add.
// FP8-LABEL: func @conv_nhwc_init
// FP8: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}ins(%{{.*}}, %{{.*}} : tensor<1x4x4x2xf8E4M3FN>, tensor<1x1x2x2xf8E4M3FN>)
// FP8: linalg.generic {{.*}} ins(%[[C]], %arg1 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>)
// FP8: arith.mulf
// FP8: arith.addf

func.func @conv_nhwc_init(%x: tensor<1x4x4x2xf32> {precision.range = #range}, %init: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = arith.constant dense<[[[[1.0, 0.25], [-1.0, 0.5]]]]> : tensor<1x1x2x2xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) outs(%init : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}

// Batch matmul: the channel is n (axis 2), shared by the batches.
// CHECK-LABEL: func @batch_matmul
// CHECK: arith.constant dense<{{\[\[\[}}127, 127], [0, 64], [64, 0]], {{\[\[}}-64, 32], [32, 0], [0, 0]]]> : tensor<2x3x2xi8>
// CHECK: linalg.batch_matmul {precision.decision = {precision = i8,
// CHECK: quant.scast %{{.*}} : tensor<2x4x2xi32> to tensor<2x4x2x!quant.uniform<i32:f32:2, {1.2400024800049599E-4,6.2000124000247993E-5}>>

func.func @batch_matmul(%x: tensor<2x4x3xf32> {precision.range = #range}) -> tensor<2x4x2xf32> {
  %w = arith.constant dense<[[[1.0, 0.5], [0.0, 0.25], [0.5, 0.0]], [[-0.5, 0.125], [0.25, 0.0], [0.0, 0.0]]]> : tensor<2x3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<2x4x3xf32>, tensor<2x3x2xf32>) outs(%acc : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  return %y : tensor<2x4x2xf32>
}

// CHECK-LABEL: func @no_range
// CHECK-NOT: quant.
// CHECK: linalg.matmul {precision.decision = {precision = f32, reason = "no known range for the activation (run --opsnn-analyze-ranges, calibrate, or put precision.range on the argument)"}} ins(%arg0, %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>)

func.func @no_range(%x: tensor<4x3xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<0.5> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// CHECK-LABEL: func @weight_argument
// CHECK-NOT: quant.
// CHECK: linalg.matmul {precision.decision = {precision = f32, reason = "the weight (operand 1) is not a dense constant"}}

func.func @weight_argument(%x: tensor<4x3xf32> {precision.range = #range}, %w: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// CHECK-LABEL: func @weight_inf
// CHECK-NOT: quant.
// CHECK: linalg.matmul {precision.decision = {precision = f32, reason = "the weight holds infinities or NaN"}}
func.func @weight_inf(%x: tensor<4x3xf32> {precision.range = #range}) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[1.0, 0x7F800000], [0.25, 0.125], [-1.0, 0.0625]]> : tensor<3x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// A chain: each activation's range is read before any op is rewritten, and
// a rewritten op's recorded range moves to the value that replaces it.
// CHECK-LABEL: func @mlp
// CHECK: linalg.matmul {{.*}}activation scale 0.01575 (user range)
// CHECK: quant.dcast %{{.*}} {precision.range_source = "calibration", precision.ranges = [#precision.range<min = -4.000000e+00, max = 4.000000e+00
// CHECK: linalg.matmul {{.*}}activation scale 0.0315 (calibration range)
// CHECK: linalg.matmul {{.*}}activation scale 0.06299 (calibration range)

// FIRSTLAST-LABEL: func @mlp
// FIRSTLAST: linalg.matmul {precision.decision = {precision = f32, reason = "first contraction kept FP32 (skip-first-last)"}
// FIRSTLAST: quant.qcast
// FIRSTLAST: linalg.matmul {precision.decision = {precision = i8,
// FIRSTLAST: quant.dcast{{.*}}
// FIRSTLAST-NOT: quant.
// FIRSTLAST: linalg.matmul {precision.decision = {precision = f32, reason = "last contraction kept FP32 (skip-first-last)"}

func.func @mlp(%x: tensor<4x4xf32> {precision.range = #range}) -> tensor<4x4xf32> {
  %w = arith.constant dense<0.5> : tensor<4x4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = linalg.matmul {precision.ranges = [#precision.range<min = -4.0, max = 4.0, min_abs_nonzero = 0.01>], precision.range_source = "calibration"}
      ins(%x, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %b = linalg.matmul {precision.ranges = [#precision.range<min = -8.0, max = 8.0, min_abs_nonzero = 0.01>], precision.range_source = "calibration"}
      ins(%a, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  %c = linalg.matmul ins(%b, %w : tensor<4x4xf32>, tensor<4x4xf32>) outs(%acc : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}

// Tables: stored in 8 bits with one scale (max|t| = 2), only the gathered
// elements converted back in the lookup's payload.
// CHECK-LABEL: func @embedding
// CHECK: %[[T:.*]] = arith.constant dense<{{\[}}[32, -64], [16, 127], [-8, 0]]> : tensor<3x2xi8>
// CHECK-NOT: tensor<3x2xf32>
// CHECK: linalg.generic
// CHECK-SAME: precision.decision = {precision = i8, reason = "embedding table stored in i8 (scale 0.01575), gathered elements converted to f32"}
// CHECK: %[[E:.*]] = tensor.extract %[[T]][%{{.*}}, %{{.*}}] : tensor<3x2xi8>
// CHECK: %[[F:.*]] = arith.sitofp %[[E]] : i8 to f32
// CHECK: %[[S:.*]] = arith.constant 0.0157480314 : f32
// CHECK: %[[V:.*]] = arith.mulf %[[F]], %[[S]] : f32
// CHECK: linalg.yield %[[V]] : f32

// FP8-LABEL: func @embedding
// FP8: %[[T:.*]] = arith.constant dense<{{\[}}[1.120000e+02, -2.240000e+02], [5.600000e+01, 4.480000e+02], [-2.800000e+01, 0.000000e+00]]> : tensor<3x2xf8E4M3FN>
// FP8: precision.decision = {precision = f8E4M3FN, reason = "embedding table stored in f8E4M3FN (scale 0.004464), gathered elements converted to f32"}
// FP8: %[[E:.*]] = tensor.extract %[[T]]
// FP8: arith.extf %[[E]] : f8E4M3FN to f32
// FP8: arith.mulf

func.func @embedding(%ids: tensor<2xi32>) -> tensor<2x2xf32> {
  %table = arith.constant dense<[[0.5, -1.0], [0.25, 2.0], [-0.125, 0.0]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %rows = linalg.generic {indexing_maps = [#ids, #rows], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2xi32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<3x2xf32>
    linalg.yield %v : f32
  } -> tensor<2x2xf32>
  return %rows : tensor<2x2xf32>
}

// The range from --opsnn-analyze-ranges' interval propagation: relu of
// [-2, 1.5] is [0, 1.5], scale 1.5/127.
// INTERVAL-LABEL: func @relu_matmul
// INTERVAL: quant.qcast %{{.*}} : tensor<4x3xf32> to tensor<4x3x!quant.uniform<i8<-127:127>:f32, 0.011811023622047244>>
// INTERVAL: linalg.matmul {{.*}}activation scale 0.01181 (interval range)

func.func @relu_matmul(%x: tensor<4x3xf32> {precision.range = #precision.range<min = -2.0, max = 1.5, min_abs_nonzero = 0.01>}) -> tensor<4x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x3xf32>) outs(%e0 : tensor<4x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x3xf32>
  %w = arith.constant dense<[[1.0, -0.5], [0.25, 0.125], [-1.0, 0.0625]]> : tensor<3x2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%r, %w : tensor<4x3xf32>, tensor<3x2xf32>) outs(%acc : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
