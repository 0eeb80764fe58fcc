// The tensor-core kernel with K not a multiple of BK and N not a multiple
// of BN, run on the CPU (emulate-on-cpu) against NumPy. A ragged K's last
// step copies zeros past K into A's and B's tiles alike (on the GPU a
// cp.async of 0 source bytes; here a select), so the padded steps add
// nothing; a ragged N's grid rounds the block columns up, B's copies past N
// re-read its last chunk (row N-1 of an N x K B) and the fragments past N
// are not stored (here each fragment under `col < N`; on the GPU each
// lane's store). Cases: a classifier-like GEMM (N = 1000, K = 72) with a
// bias + ReLU epilogue applied inside the guard; HWCF and FHWC
// convolutions with C = 8 (K = 3*3*8 = 72) and F = 120; a GEMM whose C is
// read (no fill: a ragged K is still allowed, a ragged N is not); TF32
// (K = 12, three 4-element copies per row, N = 56); INT8 (K = 48 in steps
// of 32, N = 240); and attention's scores with a head dimension of 8
// (K = 8 < BK = 16: one half-zero step) batched over (b, h).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-tf32}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// VALUES: int [-100, 100]
// REF: out0 = np.maximum(in0 @ in1 + in2, 0)
// REF: out1 = ref.conv_nhwc_hwcf(in3, in4)
// REF: out2 = ref.conv_nhwc_fhwc(in3, in5)
// REF: out3 = in8 + in6 @ in7
// REF: out4 = ref.round_tf32(in9).astype(np.float64) @ ref.round_tf32(in10)
// REF: out5 = in11.astype(np.int64) @ in12.astype(np.int64)
// REF: out6 = np.einsum('bhik,bhjk->bhij', in13, in14)
// TOL: 2e-6

// No contraction is left for the generic path. The first GEMM's grid has
// ceil(1000 / BN) block columns; its K loop runs to 72 in steps of BK
// (the last partly zeros) and its stores sit under col < 1000.
// CHECK-LABEL: func.func @ragged_nk
// CHECK: scf.for %{{.*}} = %c0 to %c72 step %c{{16|32}}
// CHECK: arith.cmpi ult, %{{.*}}, %c1000 : index
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.generic {{.*}}reduction

func.func @ragged_nk(%a: tensor<64x72xf16>, %b: tensor<72x1000xf16>, %bias: tensor<1000xf32>,
                     %x: tensor<2x6x6x8xf16>, %w: tensor<3x3x8x120xf16>, %wf: tensor<120x3x3x8xf16>,
                     %ac: tensor<32x40xf16>, %bc: tensor<40x64xf16>, %c: tensor<32x64xf32>,
                     %at: tensor<32x12xf32>, %bt: tensor<12x56xf32>,
                     %ai: tensor<32x48xi8>, %bi: tensor<48x240xi8>,
                     %q: tensor<2x3x16x8xf16>, %k: tensor<2x3x16x8xf16>)
    -> (tensor<64x1000xf32>, tensor<2x4x4x120xf32>, tensor<2x4x4x120xf32>, tensor<32x64xf32>,
        tensor<32x56xf32>, tensor<32x240xi32>, tensor<2x3x16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x1000xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x72xf16>, tensor<72x1000xf16>) outs(%f0 : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x1000xf32>, tensor<1000xf32>) outs(%e0 : tensor<64x1000xf32>) {
  ^bb0(%p: f32, %s: f32, %o: f32):
    %t = arith.addf %p, %s : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  } -> tensor<64x1000xf32>

  %e1 = tensor.empty() : tensor<2x4x4x120xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x120xf32>) -> tensor<2x4x4x120xf32>
  %hwcf = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x6x6x8xf16>, tensor<3x3x8x120xf16>) outs(%f1 : tensor<2x4x4x120xf32>) -> tensor<2x4x4x120xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x120xf32>) -> tensor<2x4x4x120xf32>
  %fhwc = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %wf : tensor<2x6x6x8xf16>, tensor<120x3x3x8xf16>) outs(%f2 : tensor<2x4x4x120xf32>) -> tensor<2x4x4x120xf32>

  %mmc = linalg.matmul ins(%ac, %bc : tensor<32x40xf16>, tensor<40x64xf16>) outs(%c : tensor<32x64xf32>) -> tensor<32x64xf32>

  %et = tensor.empty() : tensor<32x56xf32>
  %ft = linalg.fill ins(%zero : f32) outs(%et : tensor<32x56xf32>) -> tensor<32x56xf32>
  %mmt = linalg.matmul ins(%at, %bt : tensor<32x12xf32>, tensor<12x56xf32>) outs(%ft : tensor<32x56xf32>) -> tensor<32x56xf32>

  %zi = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<32x240xi32>
  %fi = linalg.fill ins(%zi : i32) outs(%ei : tensor<32x240xi32>) -> tensor<32x240xi32>
  %mmi = linalg.matmul ins(%ai, %bi : tensor<32x48xi8>, tensor<48x240xi8>) outs(%fi : tensor<32x240xi32>) -> tensor<32x240xi32>

  %es = tensor.empty() : tensor<2x3x16x16xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                             affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                             affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x16x8xf16>, tensor<2x3x16x8xf16>) outs(%fs : tensor<2x3x16x16xf32>) {
  ^bb0(%qe: f16, %ke: f16, %acc: f32):
    %qf = arith.extf %qe : f16 to f32
    %kf = arith.extf %ke : f16 to f32
    %p = arith.mulf %qf, %kf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3x16x16xf32>
  return %r, %hwcf, %fhwc, %mmc, %mmt, %mmi, %scores
      : tensor<64x1000xf32>, tensor<2x4x4x120xf32>, tensor<2x4x4x120xf32>, tensor<32x64xf32>,
        tensor<32x56xf32>, tensor<32x240xi32>, tensor<2x3x16x16xf32>
}
