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

// -----

// A linalg.generic contraction (the importer's x[b, s, k] * w[k, h, e])
// whose constant B reads K before N: the constant's dimensions become
// [h, e, k] and its map follows; the body and the other maps stay.
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4)>
// CHECK-DAG: #[[W:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @contraction_weight
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[\[\[}}1, 4], [2, 5], [3, -6]]]> : tensor<1x3x2xi8>
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[O]]]
// CHECK-SAME: ins(%{{.*}}, %[[WT]] : tensor<1x4x2xi8>, tensor<1x3x2xi8>)
// CHECK-SAME: precision.decision = "int8"
// CHECK: arith.extsi
#x5 = affine_map<(b, s, h, e, k) -> (b, s, k)>
#w5 = affine_map<(b, s, h, e, k) -> (k, h, e)>
#o5 = affine_map<(b, s, h, e, k) -> (b, s, h, e)>
func.func @contraction_weight(%x: tensor<1x4x2xi8>, %acc: tensor<1x4x1x3xi32>) -> tensor<1x4x1x3xi32> {
  %w = arith.constant dense<[[[1, 2, 3]], [[4, 5, -6]]]> : tensor<2x1x3xi8>
  %r = linalg.generic {indexing_maps = [#x5, #w5, #o5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x4x2xi8>, tensor<2x1x3xi8>) outs(%acc : tensor<1x4x1x3xi32>) attrs = {precision.decision = "int8"} {
  ^bb0(%a: i8, %b: i8, %c: i32):
    %a32 = arith.extsi %a : i8 to i32
    %b32 = arith.extsi %b : i8 to i32
    %m = arith.muli %a32, %b32 : i32
    %s = arith.addi %c, %m : i32
    linalg.yield %s : i32
  } -> tensor<1x4x1x3xi32>
  return %r : tensor<1x4x1x3xi32>
}

// -----

// Left alone: an FP8 contraction whose constant B is already N x K, and
// one whose B is not a constant.
// CHECK-LABEL: func.func @contraction_left_alone
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, -6.000000e+00]]> : tensor<2x3xf8E4M3FN>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<4x3xf8E4M3FN>, tensor<2x3xf8E4M3FN>)
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<4x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>)
#a3 = affine_map<(m, n, k) -> (m, k)>
#nk = affine_map<(m, n, k) -> (n, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#c3 = affine_map<(m, n, k) -> (m, n)>
func.func @contraction_left_alone(%x: tensor<4x3xf8E4M3FN>, %v: tensor<3x2xf8E4M3FN>, %acc: tensor<4x2xf32>)
    -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf8E4M3FN>
  %r0 = linalg.generic {indexing_maps = [#a3, #nk, #c3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x3xf8E4M3FN>, tensor<2x3xf8E4M3FN>) outs(%acc : tensor<4x2xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %c: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  %r1 = linalg.generic {indexing_maps = [#a3, #kn, #c3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %v : tensor<4x3xf8E4M3FN>, tensor<3x2xf8E4M3FN>) outs(%acc : tensor<4x2xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %c: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x2xf32>
  return %r0, %r1 : tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

// A constant HWCF INT8 filter (1 x 1 x C = 2 x F = 3) becomes FHWC and the
// convolution an NHWC-FHWC one with the same strides and dilations; the
// precision decision carries over. A filter that is not a constant, and
// an f16 one, are left alone.
// CHECK-LABEL: func.func @hwcf_filter
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1, 4]]], {{\[\[\[}}2, 5]]], {{\[\[\[}}3, -6]]]]> : tensor<3x1x1x2xi8>
// CHECK-NOT: linalg.conv_2d_nhwc_hwcf
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, precision.decision = "int8", strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%{{.*}}, %[[W]] : tensor<1x5x5x2xi8>, tensor<3x1x1x2xi8>)
// CHECK-COUNT-2: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.conv_2d_nhwc_fhwc
func.func @hwcf_filter(%x: tensor<1x5x5x2xi8>, %acc: tensor<1x3x3x3xi32>, %v: tensor<1x1x2x3xi8>,
                       %h: tensor<1x5x5x2xf16>, %accf: tensor<1x3x3x3xf32>)
    -> (tensor<1x3x3x3xi32>, tensor<1x3x3x3xi32>, tensor<1x3x3x3xf32>) {
  %w = arith.constant dense<[[[[1, 2, 3], [4, 5, -6]]]]> : tensor<1x1x2x3xi8>
  %r0 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, precision.decision = "int8"}
      ins(%x, %w : tensor<1x5x5x2xi8>, tensor<1x1x2x3xi8>) outs(%acc : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
  %r1 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %v : tensor<1x5x5x2xi8>, tensor<1x1x2x3xi8>) outs(%acc : tensor<1x3x3x3xi32>) -> tensor<1x3x3x3xi32>
  %wh = arith.constant dense<1.0> : tensor<1x1x2x3xf16>
  %r2 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%h, %wh : tensor<1x5x5x2xf16>, tensor<1x1x2x3xf16>) outs(%accf : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %r0, %r1, %r2 : tensor<1x3x3x3xi32>, tensor<1x3x3x3xi32>, tensor<1x3x3x3xf32>
}
