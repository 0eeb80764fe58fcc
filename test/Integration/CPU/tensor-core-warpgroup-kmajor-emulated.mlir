// The warpgroup (wgmma, sm_90a) kernel with B staged N x K and read
// K-major, run on the CPU (emulate-on-cpu with warpgroup-mma) against
// NumPy: FP8 (E4M3FN, E5M2; 128 FP8 per 128-byte swizzled row, BK = 128)
// and FP16/BF16 whose B is stored N x K (FHWC filters, a weight stored
// [out, in], attention's K in Q K^T). The copies write B's rows into the
// swizzled tile as they write A's; the products read both through the
// same layout. Cases: an FP8 1x1 convolution (a GEMM, 256 x 128, with a
// ragged K = 192 = 1.5 BK) with a bias + ReLU, an FP8 3x3 convolution
// (K = 288), an E5M2 1x1 convolution with a ragged M (40) and N (48), an
// FP16 GEMM reading C with a ragged M and N, an FP16 batch of Q K^T, a
// BF16 convolution, and TF32 (f32 marked opsnn.tf32; BK = 32): a GEMM
// whose weight is stored [out, in] with a ragged M and a convolution. The
// TF32 operands are truncated to TF32 as wgmma reads them (the 13 low
// mantissa bits dropped; the reference does the same). The FP8 and BF16
// inputs are rounded first
// (arith.truncf, as tensor-core-fp8-emulated.mlir), so the references are
// exact but for the f32 sums' order. h100 and h200 pick their tiles; then
// two stages.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h200 emulate-tensor-core-warpgroup-mma emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: f8 = lambda v, t: v.astype(t).astype(np.float64)
// REF: e4, e5 = ref.f8e4m3fn, ref.f8e5m2
// REF: out0 = np.maximum(ref.conv_nhwc_fhwc(f8(in0, e4), f8(in1, e4)) + in2, 0)
// REF: out1 = ref.conv_nhwc_fhwc(f8(in3, e4), f8(in4, e4))
// REF: out2 = ref.conv_nhwc_fhwc(f8(in5, e5), f8(in6, e5))
// REF: out3 = in9 + in7 @ in8.T
// REF: out4 = np.einsum('bik,bjk->bij', in10, in11)
// REF: bf = lambda v: ref.quantize(v, ref.bf16)
// REF: out5 = ref.conv_nhwc_fhwc(bf(in12), bf(in13))
// REF: tf = lambda v: (v.astype(np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
// REF: out6 = tf(in14) @ tf(in15).T
// REF: out7 = ref.conv_nhwc_fhwc(tf(in16), tf(in17))
// TOL: 1e-5

// Every contraction took the warpgroup kernel: A and B tiles of 128-byte
// rows (128 FP8, 64 FP16/BF16, 32 TF32), no fragments.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK-NOT: linalg.conv_2d
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x128xf8E4M3FN>
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x128xf8E5M2>
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x64xf16>
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x64xbf16>
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x32xf32>
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK-NOT: linalg.conv_2d
// CHECK: return

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(b, h, w, f) -> (b, h, w, f)>
#col = affine_map<(b, h, w, f) -> (f)>
#qa = affine_map<(b, i, j, k) -> (b, i, k)>
#qb = affine_map<(b, i, j, k) -> (b, j, k)>
#qc = affine_map<(b, i, j, k) -> (b, i, j)>

func.func @kmajor(%a0f: tensor<1x16x16x192xf32>, %b0f: tensor<128x1x1x192xf32>, %bias: tensor<128xf32>,
                  %xf: tensor<2x10x10x32xf32>, %wf: tensor<64x3x3x32xf32>,
                  %a2f: tensor<1x5x8x64xf32>, %b2f: tensor<48x1x1x64xf32>,
                  %a3: tensor<200x64xf16>, %b3: tensor<136x64xf16>, %c3: tensor<200x136xf32>,
                  %q: tensor<4x64x64xf16>, %k: tensor<4x128x64xf16>,
                  %xbf: tensor<2x6x6x64xf32>, %wbf: tensor<64x3x3x64xf32>,
                  %at: tensor<100x96xf32>, %bt: tensor<64x96xf32>,
                  %xt: tensor<2x6x6x32xf32>, %wt: tensor<64x3x3x32xf32>)
    -> (tensor<1x16x16x128xf32>, tensor<2x8x8x64xf32>, tensor<1x5x8x48xf32>,
        tensor<200x136xf32>, tensor<4x64x128xf32>, tensor<2x4x4x64xf32>,
        tensor<100x64xf32>, tensor<2x4x4x64xf32>) {
  %zero = arith.constant 0.0 : f32

  // FP8 E4M3 1x1 convolution: a GEMM with a ragged K, bias + ReLU.
  %a0 = arith.truncf %a0f : tensor<1x16x16x192xf32> to tensor<1x16x16x192xf8E4M3FN>
  %b0 = arith.truncf %b0f : tensor<128x1x1x192xf32> to tensor<128x1x1x192xf8E4M3FN>
  %e0 = tensor.empty() : tensor<1x16x16x128xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x16x16x128xf32>) -> tensor<1x16x16x128xf32>
  %p0 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%a0, %b0 : tensor<1x16x16x192xf8E4M3FN>, tensor<128x1x1x192xf8E4M3FN>) outs(%f0 : tensor<1x16x16x128xf32>) -> tensor<1x16x16x128xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p0, %bias : tensor<1x16x16x128xf32>, tensor<128xf32>) outs(%e0 : tensor<1x16x16x128xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    %r = arith.maximumf %sum, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x16x128xf32>

  // FP8 E4M3 3x3 convolution.
  %x = arith.truncf %xf : tensor<2x10x10x32xf32> to tensor<2x10x10x32xf8E4M3FN>
  %w = arith.truncf %wf : tensor<64x3x3x32xf32> to tensor<64x3x3x32xf8E4M3FN>
  %e1 = tensor.empty() : tensor<2x8x8x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %conv = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xf8E4M3FN>, tensor<64x3x3x32xf8E4M3FN>) outs(%f1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>

  // FP8 E5M2 1x1 convolution, ragged M and N.
  %a2 = arith.truncf %a2f : tensor<1x5x8x64xf32> to tensor<1x5x8x64xf8E5M2>
  %b2 = arith.truncf %b2f : tensor<48x1x1x64xf32> to tensor<48x1x1x64xf8E5M2>
  %e2 = tensor.empty() : tensor<1x5x8x48xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x5x8x48xf32>) -> tensor<1x5x8x48xf32>
  %p2 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%a2, %b2 : tensor<1x5x8x64xf8E5M2>, tensor<48x1x1x64xf8E5M2>) outs(%f2 : tensor<1x5x8x48xf32>) -> tensor<1x5x8x48xf32>

  // FP16, B stored N x K, C read, ragged M and N.
  %p3 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a3, %b3 : tensor<200x64xf16>, tensor<136x64xf16>) outs(%c3 : tensor<200x136xf32>) {
  ^bb0(%x3: f16, %y3: f16, %acc: f32):
    %x32 = arith.extf %x3 : f16 to f32
    %y32 = arith.extf %y3 : f16 to f32
    %m = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<200x136xf32>

  // FP16 Q K^T, a batch of 4.
  %e4 = tensor.empty() : tensor<4x64x128xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
  %p4 = linalg.generic {indexing_maps = [#qa, #qb, #qc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x64x64xf16>, tensor<4x128x64xf16>) outs(%f4 : tensor<4x64x128xf32>) {
  ^bb0(%x4: f16, %y4: f16, %acc: f32):
    %x32 = arith.extf %x4 : f16 to f32
    %y32 = arith.extf %y4 : f16 to f32
    %m = arith.mulf %x32, %y32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x64x128xf32>

  // BF16 3x3 convolution.
  %xb = arith.truncf %xbf : tensor<2x6x6x64xf32> to tensor<2x6x6x64xbf16>
  %wb = arith.truncf %wbf : tensor<64x3x3x64xf32> to tensor<64x3x3x64xbf16>
  %e5 = tensor.empty() : tensor<2x4x4x64xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32>
  %p5 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<2x6x6x64xbf16>, tensor<64x3x3x64xbf16>) outs(%f5 : tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32>
  // TF32: a weight stored [out, in] with a ragged M (100), and a
  // convolution.
  %e6 = tensor.empty() : tensor<100x64xf32>
  %f6 = linalg.fill ins(%zero : f32) outs(%e6 : tensor<100x64xf32>) -> tensor<100x64xf32>
  %p6 = linalg.generic {indexing_maps = [#a, #bt, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%at, %bt : tensor<100x96xf32>, tensor<64x96xf32>) outs(%f6 : tensor<100x64xf32>) attrs = {opsnn.tf32} {
  ^bb0(%x6: f32, %y6: f32, %acc: f32):
    %m = arith.mulf %x6, %y6 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<100x64xf32>
  %e7 = tensor.empty() : tensor<2x4x4x64xf32>
  %f7 = linalg.fill ins(%zero : f32) outs(%e7 : tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32>
  %p7 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>, opsnn.tf32}
      ins(%xt, %wt : tensor<2x6x6x32xf32>, tensor<64x3x3x32xf32>) outs(%f7 : tensor<2x4x4x64xf32>) -> tensor<2x4x4x64xf32>
  return %r0, %conv, %p2, %p3, %p4, %p5, %p6, %p7
      : tensor<1x16x16x128xf32>, tensor<2x8x8x64xf32>, tensor<1x5x8x48xf32>, tensor<200x136xf32>,
        tensor<4x64x128xf32>, tensor<2x4x4x64xf32>, tensor<100x64xf32>, tensor<2x4x4x64xf32>
}
