// RUN: ops-nn-opt %s -split-input-file --opsnn-expand-fp8-casts | FileCheck %s

// Scalar casts become one runtime call each; the APFloat semantics numbers
// are llvm::APFloatBase::Semantics (2 = IEEEsingle, 7 = Float8E5M2,
// 10 = Float8E4M3FN). The declaration is added once.
// CHECK-LABEL: module
// CHECK: func.func private @_mlir_apfloat_convert(i32, i32, i64) -> i64
// CHECK-LABEL: func @scalar
// CHECK-SAME: (%[[X:.+]]: f32, %[[Y:.+]]: f8E5M2)
// CHECK-DAG: %[[F32:.+]] = arith.constant 2 : i32
// CHECK-DAG: %[[E4M3:.+]] = arith.constant 10 : i32
// CHECK: %[[B:.+]] = arith.bitcast %[[X]] : f32 to i32
// CHECK: %[[W:.+]] = arith.extui %[[B]] : i32 to i64
// CHECK: %[[R:.+]] = call @_mlir_apfloat_convert(%[[F32]], %[[E4M3]], %[[W]]) : (i32, i32, i64) -> i64
// CHECK: %[[T:.+]] = arith.trunci %[[R]] : i64 to i8
// CHECK: %[[Q:.+]] = arith.bitcast %[[T]] : i8 to f8E4M3FN
// CHECK: %[[YB:.+]] = arith.bitcast %[[Y]] : f8E5M2 to i8
// CHECK: %[[YW:.+]] = arith.extui %[[YB]] : i8 to i64
// CHECK: call @_mlir_apfloat_convert(%{{.+}}, %{{.+}}, %[[YW]])
// CHECK: arith.trunci %{{.+}} : i64 to i32
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK-NOT: arith.truncf
// CHECK-NOT: arith.extf
func.func @scalar(%x: f32, %y: f8E5M2) -> (f8E4M3FN, f32) {
  %q = arith.truncf %x : f32 to f8E4M3FN
  %e = arith.extf %y : f8E5M2 to f32
  return %q, %e : f8E4M3FN, f32
}

// -----

// Vectors are unrolled element by element.
// CHECK-LABEL: func @vector
// CHECK-SAME: (%[[X:.+]]: vector<2x2xf32>)
// CHECK: vector.extract %[[X]][0, 0] : f32 from vector<2x2xf32>
// CHECK-COUNT-4: call @_mlir_apfloat_convert
// CHECK: vector.insert %{{.+}}, %{{.+}} [3] : f8E4M3FN into vector<4xf8E4M3FN>
// CHECK: vector.shape_cast %{{.+}} : vector<4xf8E4M3FN> to vector<2x2xf8E4M3FN>
func.func @vector(%x: vector<2x2xf32>) -> vector<2x2xf8E4M3FN> {
  %q = arith.truncf %x : vector<2x2xf32> to vector<2x2xf8E4M3FN>
  return %q : vector<2x2xf8E4M3FN>
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
