// RUN: ops-nn-opt %s --split-input-file --opsnn-transpose-byte-weights | FileCheck %s

// A constant K x N INT8 weight (K = 2, N = 3) is stored N x K at compile
// time and read as [n, k] by the equivalent contraction; the precision
// decision carries over.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @constant_weight
// CHECK-SAME: (%[[X:.*]]: tensor<4x2xi8>, %[[ACC:.*]]: tensor<4x3xi32>)
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1, 4], [2, 5], [3, -6]]> : tensor<3x2xi8>
// CHECK-NOT: linalg.matmul
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %[[W]] : tensor<4x2xi8>, tensor<3x2xi8>) outs(%[[ACC]] : tensor<4x3xi32>)
// CHECK-SAME: precision.decision = "int8"
// CHECK: ^bb0(%[[L:.*]]: i8, %[[RH:.*]]: i8, %[[S:.*]]: i32):
// CHECK: %[[L32:.*]] = arith.extsi %[[L]] : i8 to i32
// CHECK: %[[R32:.*]] = arith.extsi %[[RH]] : i8 to i32
// CHECK: %[[P:.*]] = arith.muli %[[L32]], %[[R32]] : i32
// CHECK: %[[SUM:.*]] = arith.addi %[[S]], %[[P]] : i32
// CHECK: linalg.yield %[[SUM]] : i32
// CHECK: return %[[R]]
func.func @constant_weight(%x: tensor<4x2xi8>, %acc: tensor<4x3xi32>) -> tensor<4x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, -6]]> : tensor<2x3xi8>
  %r = linalg.matmul {precision.decision = "int8"} ins(%x, %w : tensor<4x2xi8>, tensor<2x3xi8>) outs(%acc : tensor<4x3xi32>) -> tensor<4x3xi32>
  return %r : tensor<4x3xi32>
}

// -----

// An FP8 weight (E4M3FN codes) likewise, into f32 with extf/mulf/addf.
// CHECK-LABEL: func.func @fp8_weight
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, -6.000000e+00]]> : tensor<3x2xf8E4M3FN>
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %[[W]] : tensor<4x2xf8E4M3FN>, tensor<3x2xf8E4M3FN>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK: ^bb0(%[[L:.*]]: f8E4M3FN, %[[RH:.*]]: f8E4M3FN, %[[S:.*]]: f32):
// CHECK: %[[L32:.*]] = arith.extf %[[L]] : f8E4M3FN to f32
// CHECK: %[[R32:.*]] = arith.extf %[[RH]] : f8E4M3FN to f32
// CHECK: %[[P:.*]] = arith.mulf %[[L32]], %[[R32]] : f32
// CHECK: %[[SUM:.*]] = arith.addf %[[S]], %[[P]] : f32
// CHECK: linalg.yield %[[SUM]] : f32
func.func @fp8_weight(%x: tensor<4x2xf8E4M3FN>, %acc: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf8E4M3FN>
  %r = linalg.matmul ins(%x, %w : tensor<4x2xf8E4M3FN>, tensor<2x3xf8E4M3FN>) outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// A splat weight stays a splat of the transposed shape.
// CHECK-LABEL: func.func @splat_weight
// CHECK: arith.constant dense<127> : tensor<128x64xi8>
// CHECK: linalg.generic
// CHECK-NOT: linalg.matmul
func.func @splat_weight(%x: tensor<256x64xi8>, %acc: tensor<256x128xi32>) -> tensor<256x128xi32> {
  %w = arith.constant dense<127> : tensor<64x128xi8>
  %r = linalg.matmul ins(%x, %w : tensor<256x64xi8>, tensor<64x128xi8>) outs(%acc : tensor<256x128xi32>) -> tensor<256x128xi32>
  return %r : tensor<256x128xi32>
}

// -----

// Left alone: a B that is not a constant (nothing to do at compile time),
// an f16 GEMM (ldmatrix.trans reads its K x N B), a constant A (only B is
// read N x K), a matmul on buffers, and FP8 operands of two formats.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: linalg.generic
// CHECK-COUNT-5: linalg.matmul
// CHECK-NOT: linalg.generic
func.func @left_alone(%x: tensor<4x2xi8>, %w: tensor<2x3xi8>, %acc: tensor<4x3xi32>,
                      %h: tensor<4x2xf16>, %accf: tensor<4x3xf32>,
                      %bx: memref<4x2xi8>, %bacc: memref<4x3xi32>)
    -> (tensor<4x3xi32>, tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xf32>) {
  %r0 = linalg.matmul ins(%x, %w : tensor<4x2xi8>, tensor<2x3xi8>) outs(%acc : tensor<4x3xi32>) -> tensor<4x3xi32>
  %wh = arith.constant dense<1.0> : tensor<2x3xf16>
  %r1 = linalg.matmul ins(%h, %wh : tensor<4x2xf16>, tensor<2x3xf16>) outs(%accf : tensor<4x3xf32>) -> tensor<4x3xf32>
  %a = arith.constant dense<3> : tensor<4x2xi8>
  %r2 = linalg.matmul ins(%a, %w : tensor<4x2xi8>, tensor<2x3xi8>) outs(%acc : tensor<4x3xi32>) -> tensor<4x3xi32>
  %bw = memref.get_global @w : memref<2x3xi8>
  linalg.matmul ins(%bx, %bw : memref<4x2xi8>, memref<2x3xi8>) outs(%bacc : memref<4x3xi32>)
  %q = arith.truncf %h : tensor<4x2xf16> to tensor<4x2xf8E4M3FN>
  %w5 = arith.constant dense<1.0> : tensor<2x3xf8E5M2>
  %r3 = linalg.matmul ins(%q, %w5 : tensor<4x2xf8E4M3FN>, tensor<2x3xf8E5M2>) outs(%accf : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %r0, %r1, %r2, %r3 : tensor<4x3xi32>, tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xf32>
}
memref.global "private" constant @w : memref<2x3xi8> = dense<1>
