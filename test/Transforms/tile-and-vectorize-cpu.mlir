// RUN: ops-nn-opt %s -split-input-file --opsnn-tile-and-vectorize-cpu | FileCheck %s
// RUN: ops-nn-opt %s -split-input-file --opsnn-tile-and-vectorize-cpu="vector-width=4" | FileCheck %s --check-prefix=NARROW

// A matmul: 8 rows x 16 columns per tile, 16-deep reduction steps, one
// vector.contract per tile.
// CHECK-LABEL: func @matmul
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %[[C8:.+]] iter_args
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %[[C16:.+]] iter_args
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %[[C16]] iter_args
// CHECK: vector.transfer_read {{.*}} : tensor<64x32xf32>, vector<8x16xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<32x48xf32>, vector<16x16xf32>
// CHECK: vector.contract {{.*}} : vector<8x16xf32>, vector<16x16xf32> into vector<8x16xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.matmul
// NARROW-LABEL: func @matmul
// NARROW: vector.contract {{.*}} : vector<2x4xf32>, vector<4x4xf32> into vector<2x4xf32>
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>, %c: tensor<64x48xf32>) -> tensor<64x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>) outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
  return %r : tensor<64x48xf32>
}

// -----

// Odd sizes get tiles that divide them (7 -> 7, 13 -> 13, 33 -> 11): every
// tile is static, no masks.
// CHECK-LABEL: func @odd_matmul
// CHECK: scf.for {{.*}} step %{{.+}} iter_args
// CHECK: vector.contract {{.*}} : vector<7x13xf32>, vector<13x11xf32> into vector<7x11xf32>
func.func @odd_matmul(%a: tensor<7x13xf32>, %b: tensor<13x33xf32>, %c: tensor<7x33xf32>) -> tensor<7x33xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<7x13xf32>, tensor<13x33xf32>) outs(%c : tensor<7x33xf32>) -> tensor<7x33xf32>
  return %r : tensor<7x33xf32>
}

// -----

// A 2-D convolution is tiled to unit output rows and unit filter rows, the
// tile decomposed into a 1-D convolution and vectorized (one contraction
// per filter column).
// CHECK-LABEL: func @conv
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : tensor<1x3x10x10xf32>, vector<1x3x10xf32>
// CHECK-COUNT-3: vector.contract {{.*}} : vector<1x8x3xf32>, vector<3x8xf32> into vector<1x8x8xf32>
// CHECK-NOT: linalg.conv
func.func @conv(%x: tensor<1x3x10x10xf32>, %w: tensor<8x3x3x3xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %y = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x3x10x10xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// -----

// Dynamic shapes are left to scalar loops.
// CHECK-LABEL: func @dynamic
// CHECK-NOT: scf.for
// CHECK-NOT: vector.
// CHECK: linalg.matmul
func.func @dynamic(%a: tensor<?x32xf32>, %b: tensor<32x48xf32>, %c: tensor<?x48xf32>) -> tensor<?x48xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<?x32xf32>, tensor<32x48xf32>) outs(%c : tensor<?x48xf32>) -> tensor<?x48xf32>
  return %r : tensor<?x48xf32>
}

// -----

// An elementwise op: vectors along the two innermost dimensions.
// CHECK-LABEL: func @relu
// CHECK: vector.transfer_read {{.*}} : tensor<2x5x8x32xf32>, vector<1x1x8x16xf32>
// CHECK: arith.maximumf {{.*}} : vector<1x1x8x16xf32>
func.func @relu(%x: tensor<2x5x8x32xf32>) -> tensor<2x5x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x8x32xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x5x8x32xf32>) outs(%e : tensor<2x5x8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x5x8x32xf32>
  return %r : tensor<2x5x8x32xf32>
}

// -----

// A strided channels-first convolution on bf16 (what mixed-bf16 leaves):
// tiled and decomposed into conv_1d_ncw_fcw, but not vectorized, since
// upstream vectorizes NCW by transposing bf16 vectors and x86 instruction
// selection aborts on those ("Do not know how to soft promote this
// operator's operand"). f16 is vectorized.
// CHECK-LABEL: func @nchw_conv_bf16
// CHECK: linalg.conv_1d_ncw_fcw
// CHECK-NOT: vector.transpose
// CHECK-LABEL: func @nchw_conv_f16
// CHECK-NOT: linalg.conv_1d_ncw_fcw
// CHECK: vector.transpose
func.func @nchw_conv_bf16(%x: tensor<2x6x11x9xbf16>, %w: tensor<6x6x1x1xbf16>) -> tensor<2x6x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x6x5xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x6x11x9xbf16>, tensor<6x6x1x1xbf16>) outs(%a : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  return %y : tensor<2x6x6x5xf32>
}
func.func @nchw_conv_f16(%x: tensor<2x6x11x9xf16>, %w: tensor<6x6x1x1xf16>) -> tensor<2x6x6x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x6x5xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x6x11x9xf16>, tensor<6x6x1x1xf16>) outs(%a : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  return %y : tensor<2x6x6x5xf32>
}

// -----

// A bf16 operand with a dimension that is not a power of two (a 1x160 @
// 160x9 matmul in mixed BF16): not vectorized, since x86 instruction
// selection cannot widen <9 x bfloat> ("Do not know how to soft promote
// this operator's operand" on a load and an extractelement). The same
// matmul with 8 columns is.
// CHECK-LABEL: func @bf16_uneven_columns
// CHECK: linalg.matmul
// CHECK-NOT: vector.contract
// CHECK-LABEL: func @bf16_even_columns
// CHECK-NOT: linalg.matmul
// CHECK: vector.contract
func.func @bf16_uneven_columns(%a: tensor<1x160xbf16>, %b: tensor<160x9xbf16>) -> tensor<1x9xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x9xf32>) -> tensor<1x9xf32>
  %y = linalg.matmul ins(%a, %b : tensor<1x160xbf16>, tensor<160x9xbf16>) outs(%f : tensor<1x9xf32>) -> tensor<1x9xf32>
  return %y : tensor<1x9xf32>
}
func.func @bf16_even_columns(%a: tensor<1x160xbf16>, %b: tensor<160x8xbf16>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8xf32>) -> tensor<1x8xf32>
  %y = linalg.matmul ins(%a, %b : tensor<1x160xbf16>, tensor<160x8xbf16>) outs(%f : tensor<1x8xf32>) -> tensor<1x8xf32>
  return %y : tensor<1x8xf32>
}
