// The tensor-core kernel with M not a multiple of the block rows (nor of
// 16): ResNet-50's 7x7 stage and odd token counts. The grid has
// ceil(M / BM) block rows; the last one's A copies read row M-1 for the
// rows past M and its rows past M are not stored (on the GPU each lane's
// row store is guarded; here each row). Only when C's constant fill is
// folded (C is not read): the matmul accumulating into an argument keeps
// the generic path. Run on the CPU (emulate-on-cpu) against NumPy, with a
// fused bias + ReLU epilogue (applied inside the guard), an implicit-GEMM
// convolution with M = 2*5*5 = 50, M = 8 (one partial block), and an
// INT8 GEMM with M = 40 (its i32 zero fill folds too).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=host" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// REF: out0 = np.maximum(in0 @ in1 + in2, 0)
// REF: out1 = ref.conv_nhwc_hwcf(in3, in4)
// REF: out2 = in5 @ in6
// REF: out3 = in7 @ in8 + in9
// REF: out4 = in10.astype(np.int64) @ in11.astype(np.int64)
// TOL: 1e-5

// Three kernels (two shared tiles each; the last row is M-1 = 99, 49, 7),
// the fourth matmul reads C: generic path; the INT8 kernel (last row 39).
// CHECK-LABEL: func.func @ragged
// CHECK-COUNT-2: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf16>
// CHECK: affine.min affine_map<()[s0] -> (s0, 99)>
// CHECK-COUNT-2: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf16>
// CHECK: affine.min affine_map<()[s0] -> (s0, 49)>
// CHECK-COUNT-2: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf16>
// CHECK: affine.min affine_map<()[s0] -> (s0, 7)>
// CHECK-NOT: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf16>
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<40x32xf16>, memref<32x16xf16>)
// CHECK: affine.min affine_map<()[s0] -> (s0, 39)>
// CHECK-NOT: linalg.conv_2d

func.func @ragged(%a: tensor<100x64xf16>, %b: tensor<64x64xf16>, %bias: tensor<64xf32>,
                  %x: tensor<2x7x7x32xf16>, %w: tensor<3x3x32x64xf16>,
                  %a8: tensor<8x32xf16>, %b8: tensor<32x16xf16>,
                  %ac: tensor<40x32xf16>, %bc: tensor<32x16xf16>, %c: tensor<40x16xf32>,
                  %ai: tensor<40x64xi8>, %bi: tensor<64x32xi8>)
    -> (tensor<100x64xf32>, tensor<2x5x5x64xf32>, tensor<8x16xf32>, tensor<40x16xf32>, tensor<40x32xi32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<100x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<100x64xf32>) -> tensor<100x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<100x64xf16>, tensor<64x64xf16>) outs(%f0 : tensor<100x64xf32>) -> tensor<100x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<100x64xf32>, tensor<64xf32>) outs(%e0 : tensor<100x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<100x64xf32>

  %e1 = tensor.empty() : tensor<2x5x5x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x5x5x64xf32>) -> tensor<2x5x5x64xf32>
  %conv = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x7x7x32xf16>, tensor<3x3x32x64xf16>) outs(%f1 : tensor<2x5x5x64xf32>) -> tensor<2x5x5x64xf32>

  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %mm8 = linalg.matmul ins(%a8, %b8 : tensor<8x32xf16>, tensor<32x16xf16>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>

  %mmc = linalg.matmul ins(%ac, %bc : tensor<40x32xf16>, tensor<32x16xf16>) outs(%c : tensor<40x16xf32>) -> tensor<40x16xf32>
  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<40x32xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<40x32xi32>) -> tensor<40x32xi32>
  %mmi = linalg.matmul ins(%ai, %bi : tensor<40x64xi8>, tensor<64x32xi8>) outs(%fi : tensor<40x32xi32>) -> tensor<40x32xi32>
  return %r, %conv, %mm8, %mmc, %mmi : tensor<100x64xf32>, tensor<2x5x5x64xf32>, tensor<8x16xf32>, tensor<40x16xf32>, tensor<40x32xi32>
}
