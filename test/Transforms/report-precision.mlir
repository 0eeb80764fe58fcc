// RUN: ops-nn-opt %s --opsnn-report="file=- target=a100" -o /dev/null | FileCheck %s
// RUN: ops-nn-opt %s --pass-pipeline='builtin.module(func.func(opsnn-assign-precision{mode=mixed-fp16}),canonicalize,opsnn-report{file=-})' -o /dev/null | FileCheck %s --check-prefix=ASSIGN

// The report's precision fields (what --opsnn-assign-precision decided,
// what --opsnn-analyze-ranges recorded) and its memory figures.

// @mixed is a matmul as --opsnn-assign-precision{mode=mixed-fp16} leaves
// it: the weight folded to f16, the input cast down, the FP32 accumulator
// cast down and back up for the f32 result.
//
// Weights: 8x16 f16 = 256 B, as FP32 512 B.
// Buffers in program order: %x 128 B (until %x16), %e 256 B (filled and
// accumulated into in place, until %y16), %x16 64 B (until the matmul),
// %y16 128 B (until %y32), %y32 256 B (until the return). At the cast of
// %x: 128 + 256 + 64 = 448 B, the peak.
// As FP32 the casts are no-ops: %x 128 B until the matmul, %e 256 B
// (with %y16, %y32) until the return: 384 B from %e on.
// Saved: 1 - (256 + 448) / (512 + 384) = 1 - 704 / 896 = 0.2142857.
// CHECK-LABEL: "memory": {
// CHECK-NEXT: "dynamic": false,
// CHECK-NEXT: "peak_activation_bytes": 448,
// CHECK-NEXT: "peak_activation_bytes_fp32": 384,
// CHECK-NEXT: "peak_at": {
// CHECK-NEXT: "loc": "{{.*}}report-precision.mlir:[[@LINE+29]]:{{[0-9]+}}",
// CHECK-NEXT: "op": "precision.cast"
// CHECK-NEXT: },
// CHECK-NEXT: "saved_fraction": 0.21428{{[0-9]*}},
// CHECK-NEXT: "weight_bytes": 256,
// CHECK-NEXT: "weight_bytes_fp32": 512
// CHECK-NEXT: },
// CHECK-NEXT: "name": "mixed",
// The decision and the recorded range of the matmul.
// CHECK: "op": "linalg.generic",
// CHECK-NEXT: "precision": "fp16",
// CHECK-NEXT: "precision_reason": "low list",
// CHECK-NEXT: "range_source": "interval",
// CHECK-NEXT: "ranges": [
// CHECK-NEXT: {
// CHECK-NEXT: "max": 32,
// CHECK-NEXT: "min": -32,
// CHECK-NEXT: "min_abs_nonzero": 0
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "tensor_cores": true
#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#mn = affine_map<(m, n, k) -> (m, n)>
func.func @mixed(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<5.000000e-01> : tensor<8x16xf16>
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %x16 = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %y = linalg.generic {indexing_maps = [#mk, #kn, #mn], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x16, %w : tensor<4x8xf16>, tensor<8x16xf16>) outs(%f : tensor<4x16xf32>)
      attrs = {precision.decision = {precision = f16, reason = "low list"},
               precision.ranges = [#precision.range<min = -32.0, max = 32.0, min_abs_nonzero = 0.0>],
               precision.range_source = "interval"} {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %y16 = precision.cast %y : tensor<4x16xf32> to tensor<4x16xf16>
  %y32 = precision.cast %y16 : tensor<4x16xf16> to tensor<4x16xf32>
  return %y32 : tensor<4x16xf32>
}

// One range per result, null where nothing is known; a bound JSON cannot
// hold (an interval that overflowed) is a string.
// CHECK-LABEL: "name": "ranges",
// CHECK: "range_source": "calibration",
// CHECK-NEXT: "ranges": [
// CHECK-NEXT: {
// CHECK-NEXT: "max": 2,
// CHECK-NEXT: "min": -1.5,
// CHECK-NEXT: "min_abs_nonzero": 0.001
// CHECK-NEXT: },
// CHECK-NEXT: null
// CHECK-NEXT: ],
// CHECK: "range_source": "interval",
// CHECK-NEXT: "ranges": [
// CHECK-NEXT: {
// CHECK-NEXT: "max": "inf",
// CHECK-NEXT: "min": 0,
#id = affine_map<(i) -> (i)>
func.func @ranges(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %e = tensor.empty() : tensor<16xf32>
  %a, %b = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e, %e : tensor<16xf32>, tensor<16xf32>)
      attrs = {precision.ranges = [#precision.range<min = -1.5, max = 2.0, min_abs_nonzero = 1.0e-3>, unit],
               precision.range_source = "calibration"} {
  ^bb0(%i: f32, %o1: f32, %o2: f32):
    %ex = math.exp %i : f32
    linalg.yield %i, %ex : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<16xf32>)
      attrs = {precision.ranges = [#precision.range<min = 0.0, max = 0x7FF0000000000000, min_abs_nonzero = 0.0>],
               precision.range_source = "interval"} {
  ^bb0(%i: f32, %o: f32):
    %ex = math.exp %i : f32
    linalg.yield %ex : f32
  } -> tensor<16xf32>
  return %a, %c : tensor<16xf32>, tensor<16xf32>
}

// Module memory: the weights of every function (256 + 1536 B, as FP32
// 512 + 1536 B), the largest peak (@weights: %x, %e and a new buffer for
// the first matmul, whose init the second one reads: 128 + 256 + 256 B).
// Saved: 1 - (1792 + 640) / (2048 + 640) = 0.0952381.
// CHECK-LABEL: "name": "weights",
// CHECK: "memory": {
// CHECK-NEXT: "dynamic": false,
// CHECK-NEXT: "peak_activation_bytes": 640,
// CHECK-NEXT: "peak_activation_bytes_fp32": 640,
// CHECK-NEXT: "saved_fraction": 0.095238{{[0-9]*}},
// CHECK-NEXT: "weight_bytes": 1792,
// CHECK-NEXT: "weight_bytes_fp32": 2048
// CHECK-NEXT: },
// CHECK-NEXT: "schema": "opsnn-report",

// Through the pass itself: the f32 matmul of @weights is rewritten (its
// weight folds to f16: 512 B as FP32, 256 B stored), the one whose
// constant overflows FP16 stays FP32 and says why.
// ASSIGN: "weight_bytes": 1280,
// ASSIGN-NEXT: "weight_bytes_fp32": 1536
// ASSIGN-NEXT: },
// ASSIGN-NEXT: "name": "weights",
// ASSIGN: "op": "linalg.generic",
// ASSIGN-NEXT: "precision": "fp16",
// ASSIGN-NEXT: "precision_reason": "low list",
// ASSIGN: "op": "linalg.matmul",
// ASSIGN-NEXT: "precision": "fp32",
// ASSIGN-NEXT: "precision_reason": "range: |x| up to 100000 > 65504{{.*}}",
func.func @weights(%x: tensor<4x8xf32>) -> tensor<4x16xf32> {
  %w = arith.constant dense<5.000000e-01> : tensor<8x16xf32>
  %big = arith.constant dense<1.000000e+05> : tensor<16x16xf32>
  %z = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y2 = linalg.matmul ins(%y, %big : tensor<4x16xf32>, tensor<16x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %y2 : tensor<4x16xf32>
}
