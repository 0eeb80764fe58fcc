// The precision policy: mixed FP16 lowers the matmul (FP32 accumulation,
// stored FP16) and the relu that follows it; softmax stays FP32; constants
// out of FP16's range keep their op FP32, the rest are stored FP16.
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16" | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 keep-io-types=false" | FileCheck %s --check-prefix=IO
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-bf16" | FileCheck %s --check-prefix=BF16
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 keep-first-last-fp32" | FileCheck %s --check-prefix=FIRSTLAST
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=fp32" | FileCheck %s --check-prefix=FP32
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=tf32" | FileCheck %s --check-prefix=TF32
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=tf32 keep-first-last-fp32" | FileCheck %s --check-prefix=TF32FL
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 lists=%S/Inputs/precision-lists.json" | FileCheck %s --check-prefix=LISTS
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-analyze-ranges{calibration=%S/Inputs/calibration.json},opsnn-assign-precision{mode=mixed-fp16}))" | FileCheck %s --check-prefix=CAL
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 underflow-fraction=0.5" | FileCheck %s --check-prefix=FRACTION
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 underflow-fraction=0.2" | FileCheck %s --check-prefix=FRACTION2
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 range-tf32" | FileCheck %s --check-prefix=RANGETF32
// RUN: ops-nn-opt %s --opsnn-assign-precision="mode=mixed-fp16 range-tf32 keep-first-last-fp32" | FileCheck %s --check-prefix=RANGETF32FL
// RUN: not ops-nn-opt %s --opsnn-assign-precision="underflow-fraction=1.5" 2>&1 | FileCheck %s --check-prefix=BADFRACTION
// RUN: not ops-nn-opt %s --opsnn-assign-precision="mode=fp12" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-analyze-ranges{calibration=%S/Inputs/calibration.json},opsnn-assign-precision{mode=int8}))" | FileCheck %s --check-prefix=INT8
// RUN: not ops-nn-opt %s --opsnn-assign-precision="lists=%S/Inputs/bad-precision-lists.json" 2>&1 | FileCheck %s --check-prefix=BADLIST
// RUN: not ops-nn-opt %s --opsnn-assign-precision="lists=%S/Inputs/no-such-lists.json" 2>&1 | FileCheck %s --check-prefix=NOLIST

// MODE: error: opsnn-assign-precision: unknown mode 'fp12' (expected fp32, tf32, fp16, bf16, mixed-fp16, mixed-bf16, int8, fp8)
// mode=int8 quantizes (--opsnn-quantize): contractions with constant
// weights whose activation range is known; the others stay FP32.
// INT8-LABEL: func @mm_relu
// INT8: linalg.matmul {precision.decision = {precision = f32, reason =
// INT8-LABEL: func @calibrated
// INT8-COUNT-3: precision.decision = {precision = i8
// BADLIST: error: opsnn-assign-precision: {{.*}}bad-precision-lists.json: low[0]: unknown op class 'convolutionz'
// NOLIST: error: opsnn-assign-precision: cannot read lists file '{{.*}}no-such-lists.json'

// CHECK-LABEL: func @mm_relu
// CHECK: %[[A:.*]] = precision.cast %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: %[[B:.*]] = precision.cast %arg1 : tensor<8x16xf32> to tensor<8x16xf16>
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x16xf16>) outs(%{{.*}} : tensor<4x16xf32>)
// CHECK-SAME: precision.decision = {precision = f16, reason = "low list"}
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[H:.*]] = precision.cast %[[M]] : tensor<4x16xf32> to tensor<4x16xf16>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<4x16xf16>) outs(%{{.*}} : tensor<4x16xf16>)
// CHECK-SAME: precision.decision = {precision = f16, reason = "follows its inputs"}
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[OUT:.*]] = precision.cast %[[R]] : tensor<4x16xf16> to tensor<4x16xf32>
// CHECK: return %[[OUT]]
// IO-LABEL: func @mm_relu(%arg0: tensor<4x8xf16>, %arg1: tensor<8x16xf16>) -> tensor<4x16xf16>
// IO-NOT: precision.cast %arg
// IO: return %{{.*}} : tensor<4x16xf16>
// BF16-LABEL: func @mm_relu
// BF16: precision.cast %arg0 : tensor<4x8xf32> to tensor<4x8xbf16>
// Ops that stay FP32 record why, like the lowered ones.
// FIRSTLAST-LABEL: func @mm_relu
// FIRSTLAST-NOT: precision.cast
// FIRSTLAST: linalg.matmul {precision.decision = {precision = f32, reason = "keep-first-last-fp32"}}
// FIRSTLAST: linalg.generic {{.*}}precision.decision = {precision = f32, reason = "follows its FP32 inputs"}
// FIRSTLAST: return
// FP32-NOT: precision.cast
// FP32-NOT: opsnn.tf32
// mode=tf32 keeps FP32 storage and marks the contractions for TF32 tensor
// cores, the ranges notwithstanding (TF32 has FP32's exponent range);
// elementwise ops and softmax are left alone.
// TF32-NOT: precision.cast
// TF32-LABEL: func @mm_relu
// TF32: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "mode"}}
// TF32-NOT: opsnn.tf32
// TF32-LABEL: func @ranges
// TF32-COUNT-3: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "mode"}}
// TF32-LABEL: func @softmax_stays
// TF32-NOT: opsnn.tf32
// TF32-LABEL: func @calibrated
// With keep-first-last-fp32 the first and last contraction of each
// function stay FP32 (one matmul: it is both).
// TF32FL-LABEL: func @mm_relu
// TF32FL: linalg.matmul {precision.decision = {precision = f32, reason = "keep-first-last-fp32"}}
// TF32FL-LABEL: func @ranges
// TF32FL: linalg.matmul {precision.decision = {precision = f32, reason = "keep-first-last-fp32"}}
// TF32FL: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "mode"}}
// TF32FL: linalg.matmul {precision.decision = {precision = f32, reason = "keep-first-last-fp32"}}
// With "elementwise" on the low list the relu is lowered for that reason.
// LISTS-LABEL: func @mm_relu
// LISTS: precision.decision = {precision = f16, reason = "low list"}
// LISTS: precision.decision = {precision = f16, reason = "low list"}

// 70000 overflows FP16 and 1e-9 underflows it: those matmuls stay FP32;
// the third one's constant is stored in FP16 (folded at compile time).
// BF16's range holds both: all three lowered.
// CHECK-LABEL: func @ranges
// CHECK-DAG: arith.constant dense<{{.*}}> : tensor<2x2xf16>
// CHECK-DAG: linalg.matmul {precision.decision = {precision = f32, reason = "range: |x| up to 70000 > 65504 (constant)"}}
// CHECK-DAG: linalg.matmul {precision.decision = {precision = f32, reason = "range: non-zero |x| down to 1e-09 < 1e-08 (constant)"}}
// One of the three non-zero values of %tiny is below 1e-8 (33%): under a
// 50% fraction its matmul is lowered, under 20% it is not.
// FRACTION-LABEL: func @ranges
// FRACTION-NOT: down to
// FRACTION: return
// FRACTION2-LABEL: func @ranges
// FRACTION2: reason = "range: non-zero |x| down to 1e-09 < 1e-08 for 33.3333% of the non-zero values (constant)"
// BADFRACTION: error: opsnn-assign-precision: underflow-fraction must be in [0, 1), got 1.5
// With range-tf32 the two run as TF32 (FP32's range, 10-bit mantissa):
// marked for the tensor-core kernel, their inputs left FP32. Under
// keep-first-last-fp32 the first and last contraction stay FP32.
// RANGETF32-LABEL: func @ranges
// RANGETF32-DAG: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "range: |x| up to 70000 > 65504 (constant); TF32 keeps FP32's range"}} ins(%arg0, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>)
// RANGETF32-DAG: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "range: non-zero |x| down to 1e-09 < 1e-08 (constant); TF32 keeps FP32's range"}} ins(%arg0, %{{.*}} : tensor<2x2xf32>, tensor<2x2xf32>)
// RANGETF32-DAG: precision.decision = {precision = f16, reason = "low list"}
// RANGETF32FL-LABEL: func @ranges
// RANGETF32FL: linalg.matmul {precision.decision = {precision = f32, reason = "range: |x| up to 70000 > 65504 (constant)"}}
// RANGETF32FL: linalg.matmul {opsnn.tf32, precision.decision = {precision = tf32, reason = "range: non-zero |x| down to 1e-09 < 1e-08 (constant); TF32 keeps FP32's range"}}
// RANGETF32FL: linalg.matmul {precision.decision = {precision = f32, reason = "keep-first-last-fp32"}}
// Only contractions and convolutions run as TF32; an elementwise op out of
// range stays FP32.
// RANGETF32-LABEL: func @range_elementwise
// RANGETF32-NOT: opsnn.tf32
// RANGETF32: precision.decision = {precision = f32, reason = "range: |x| up to 70000 > 65504 (constant)"}
// BF16-LABEL: func @ranges
// BF16-NOT: reason = "range
// BF16: return

// CHECK-LABEL: func @softmax_stays
// CHECK-NOT: precision.cast
// CHECK: linalg.softmax

#id = affine_map<(i, j) -> (i, j)>
func.func @mm_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
func.func @ranges(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %big = arith.constant dense<[[70000.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %tiny = arith.constant dense<[[1.0e-9, 1.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %fine = arith.constant dense<[[0.5, 1.0], [2.0, 1.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = linalg.matmul ins(%a, %big : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = linalg.matmul ins(%a, %tiny : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = linalg.matmul ins(%a, %fine : tensor<2x2xf32>, tensor<2x2xf32>) outs(%acc : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
func.func @range_elementwise(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %big = arith.constant dense<[[70000.0, 1.0], [1.0, 1.0]]> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %big : tensor<2x2xf32>, tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
func.func @softmax_stays(%a: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %s : tensor<4x16xf32>
}

// Measured ranges (calibration file, keyed by the ops' locations): the
// tensor reaching -70000 and the one with values down to 1e-9 keep their
// matmuls in FP32; the third matmul, with an interval range that fits, and
// the argument's calibrated range (|x| <= 4) let it run in FP16. Interval
// bounds say nothing about small values, so they never trigger the
// underflow rule.
// CAL-LABEL: func @calibrated
// CAL: linalg.matmul {{{.*}}precision.decision = {precision = f32, reason = "range: |x| up to 70000 > 65504 (calibration)"}
// CAL: linalg.matmul {{{.*}}precision.decision = {precision = f32, reason = "range: non-zero |x| down to 1e-09 < 1e-08 (calibration)"}
// CAL: linalg.generic {{.*}}precision.decision = {precision = f16, reason = "low list"}
func.func @calibrated(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %w = arith.constant dense<1.0> : tensor<2x2xf32>
  %e = tensor.empty() : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %big = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32> loc("dense")
  %tiny = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32> loc("tiny")
  %fine = linalg.matmul ins(%x, %w : tensor<2x2xf32>, tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %big, %tiny, %fine : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// An NHWC convolution stays the named op on FP16 inputs with its FP32
// output (its region extends them): the tensor-core kernel matches it by
// name. Its result is stored in FP16 (a cast down and back up for FP32
// users). So does an NCHW one: the tensor-core pipeline rewrites it into
// NHWC by name (--opsnn-convert-convs-to-nhwc).
// CHECK-LABEL: func @nhwc_conv_stays_named
// CHECK: %[[X:.*]] = precision.cast %arg0 : tensor<1x10x10x32xf32> to tensor<1x10x10x32xf16>
// CHECK: %[[W:.*]] = precision.cast %arg1 : tensor<3x3x32x64xf32> to tensor<3x3x32x64xf16>
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}}precision.decision = {precision = f16, reason = "low list"}{{.*}} ins(%[[X]], %[[W]] : tensor<1x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%{{.*}} : tensor<1x8x8x64xf32>)
// CHECK: precision.cast %[[C]] : tensor<1x8x8x64xf32> to tensor<1x8x8x64xf16>
// CHECK-LABEL: func @nchw_conv_stays_named
// CHECK-NOT: linalg.generic
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}precision.decision = {precision = f16, reason = "low list"}{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x32x10x10xf16>, tensor<64x32x3x3xf16>) outs(%{{.*}} : tensor<1x64x8x8xf32>)
func.func @nhwc_conv_stays_named(%x: tensor<1x10x10x32xf32>, %w: tensor<3x3x32x64xf32>) -> tensor<1x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x8x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x10x10x32xf32>, tensor<3x3x32x64xf32>) outs(%f : tensor<1x8x8x64xf32>) -> tensor<1x8x8x64xf32>
  return %c : tensor<1x8x8x64xf32>
}
func.func @nchw_conv_stays_named(%x: tensor<1x32x10x10xf32>, %w: tensor<64x32x3x3xf32>) -> tensor<1x64x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x8x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x32x10x10xf32>, tensor<64x32x3x3xf32>) outs(%f : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
  return %c : tensor<1x64x8x8xf32>
}
