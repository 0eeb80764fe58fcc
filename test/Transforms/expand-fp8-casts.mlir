// RUN: ops-nn-opt %s -split-input-file --opsnn-expand-fp8-casts | FileCheck %s
// (Numerics: test/Integration/CPU/fp8-conversions.mlir, bit for bit.)

// f32 -> E4M3FN: round the mantissa to 3 bits on the integer pattern
// (shift 20, bias 127 - 7 = 120 -> 960 = 120 << 3), subnormals below 2^-6
// (0x3C800000 = 1015021568) via |x| * 2^9 rounded to an integer, overflow
// above code 126 (448) and NaN to 127, then the sign.
// CHECK-LABEL: func @narrow_e4m3fn
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-DAG: %[[SHIFT:.+]] = arith.constant 20 : i32
// CHECK-DAG: %[[REBIAS:.+]] = arith.constant 960 : i32
// CHECK-DAG: %[[MINNORMAL:.+]] = arith.constant 1015021568 : i32
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 5.120000e+02 : f32
// CHECK-DAG: %[[MAXFINITE:.+]] = arith.constant 126 : i32
// CHECK-DAG: %[[NAN:.+]] = arith.constant 127 : i32
// CHECK: %[[BITS:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: arith.shrui %{{.+}}, %[[SHIFT]] : i32
// CHECK: %[[NORMAL:.+]] = arith.subi %{{.+}}, %[[REBIAS]] : i32
// CHECK: %[[SCALED:.+]] = arith.mulf %{{.+}}, %[[SCALE]] : f32
// CHECK: %[[RND:.+]] = math.roundeven %[[SCALED]] : f32
// CHECK: %[[SUB:.+]] = arith.fptoui %[[RND]] : f32 to i32
// CHECK: %[[ISSUB:.+]] = arith.cmpi ult, %{{.+}}, %[[MINNORMAL]] : i32
// CHECK: arith.select %[[ISSUB]], %[[SUB]], %[[NORMAL]] : i32
// CHECK: arith.cmpi ugt, %{{.+}}, %[[MAXFINITE]] : i32
// CHECK: arith.select %{{.+}}, %[[NAN]], %{{.+}} : i32
// CHECK: %[[CODE:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: arith.bitcast %[[CODE]] : i8 to f8E4M3FN
// CHECK-NOT: call
func.func @narrow_e4m3fn(%x: f32) -> f8E4M3FN {
  %q = arith.truncf %x : f32 to f8E4M3FN
  return %q : f8E4M3FN
}

// -----

// E5M2 -> f32: exponent rebiased by 127 - 15 = 112, mantissa moved up 21
// bits, subnormals as mantissa * 2^-16, exponent 31 -> infinity or NaN.
// CHECK-LABEL: func @widen_e5m2
// CHECK-SAME: (%[[Q:.+]]: f8E5M2)
// CHECK-DAG: %[[REBIAS:.+]] = arith.constant 112 : i32
// CHECK-DAG: %[[SUBSCALE:.+]] = arith.constant 1.52587891E-5 : f32
// CHECK-DAG: %[[INF:.+]] = arith.constant 2139095040 : i32
// CHECK-DAG: %[[QNAN:.+]] = arith.constant 2143289344 : i32
// CHECK-DAG: %[[ALLONES:.+]] = arith.constant 31 : i32
// CHECK: %[[B:.+]] = arith.bitcast %[[Q]] : f8E5M2 to i8
// CHECK: arith.extui %[[B]] : i8 to i32
// CHECK: arith.addi %{{.+}}, %[[REBIAS]] : i32
// CHECK: arith.uitofp
// CHECK: arith.mulf %{{.+}}, %[[SUBSCALE]] : f32
// CHECK: arith.cmpi eq, %{{.+}}, %[[ALLONES]] : i32
// CHECK: arith.select %{{.+}}, %[[INF]], %[[QNAN]] : i32
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK-NOT: call
func.func @widen_e5m2(%q: f8E5M2) -> f32 {
  %w = arith.extf %q : f8E5M2 to f32
  return %w : f32
}

// -----

// Vectors stay vectors (no unrolling); f16 sources go through f32 exactly,
// and FP8 -> bf16 comes back from f32 exactly.
// CHECK-LABEL: func @vectors
// CHECK: arith.extf %{{.+}} : vector<4x8xf16> to vector<4x8xf32>
// CHECK: arith.bitcast %{{.+}} : vector<4x8xf32> to vector<4x8xi32>
// CHECK: math.roundeven %{{.+}} : vector<4x8xf32>
// CHECK: arith.bitcast %{{.+}} : vector<4x8xi8> to vector<4x8xf8E5M2>
// CHECK: arith.bitcast %{{.+}} : vector<4x8xi32> to vector<4x8xf32>
// CHECK: arith.truncf %{{.+}} : vector<4x8xf32> to vector<4x8xbf16>
// CHECK-NOT: vector.extract
func.func @vectors(%h: vector<4x8xf16>, %q: vector<4x8xf8E4M3FN>) -> (vector<4x8xf8E5M2>, vector<4x8xbf16>) {
  %n = arith.truncf %h : vector<4x8xf16> to vector<4x8xf8E5M2>
  %b = arith.extf %q : vector<4x8xf8E4M3FN> to vector<4x8xbf16>
  return %n, %b : vector<4x8xf8E5M2>, vector<4x8xbf16>
}

// -----

// Formats without an inline expansion (here E4M3FNUZ) and f64 sources call
// the APFloat runtime (semantics numbers: llvm::APFloatBase::Semantics), one
// call per element; the declaration is added once.
// CHECK-LABEL: module
// CHECK: func.func private @_mlir_apfloat_convert(i32, i32, i64) -> i64
// CHECK-LABEL: func @runtime_fallback
// CHECK-COUNT-2: call @_mlir_apfloat_convert
// CHECK: vector.extract %{{.+}}[0] : f64 from vector<2xf64>
// CHECK-COUNT-2: call @_mlir_apfloat_convert
func.func @runtime_fallback(%x: f32, %y: f8E4M3FNUZ, %v: vector<2xf64>) -> (f8E4M3FNUZ, f32, vector<2xf8E4M3FN>) {
  %a = arith.truncf %x : f32 to f8E4M3FNUZ
  %b = arith.extf %y : f8E4M3FNUZ to f32
  %c = arith.truncf %v : vector<2xf64> to vector<2xf8E4M3FN>
  return %a, %b, %c : f8E4M3FNUZ, f32, vector<2xf8E4M3FN>
}

// -----

// Casts between types LLVM has are left alone, and no declaration is added.
// CHECK-LABEL: module
// CHECK-NOT: _mlir_apfloat_convert
// CHECK: arith.truncf %{{.+}} : f32 to f16
// CHECK: arith.extf %{{.+}} : bf16 to f32
func.func @wide(%x: f32, %y: bf16) -> (f16, f32) {
  %h = arith.truncf %x : f32 to f16
  %e = arith.extf %y : bf16 to f32
  return %h, %e : f16, f32
}
