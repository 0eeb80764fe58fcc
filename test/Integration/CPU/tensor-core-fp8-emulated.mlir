// The tensor-core kernel's FP8 form (f8E4M3FN or f8E5M2 x the same -> f32,
// mma.sync m16n8k32 on sm_89 and later), run on the CPU (emulate-on-cpu)
// against NumPy. The inputs are rounded to FP8 first (arith.truncf, bit
// for bit ml_dtypes' rounding: fp8-conversions.mlir), so the reference is
// exact and only the f32 sums' order differs: TOL 1e-6.
// 8-bit B fragments come from N x K rows, as INT8's: the matmuls' K x N B
// is transposed while it is copied into its N x K tile; the FHWC
// convolution's filter already is N x K. 16 FP8 elements per copy, BK = 32.
// Targets "host" (large blocks), "h100" (small blocks, 3 stages) and "l4"
// (sm_89) take the FP8 kernel; "a100" (sm_80, no FP8 mma.sync) keeps the
// generic path. The E5M2 GEMM has a ragged M (40 rows) and a fused bias
// and ReLU epilogue.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=l4 emulate-tensor-core-stages=2}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s --check-prefix=AMPERE
// REF: f8 = lambda v, t: v.astype(t).astype(np.float64)
// REF: e4, e5 = ref.f8e4m3fn, ref.f8e5m2
// REF: out0 = f8(in0, e4) @ f8(in1, e4)
// REF: out1 = ref.conv_nhwc_fhwc(f8(in2, e4), f8(in3, e4))
// REF: out2 = np.maximum(f8(in4, e5) @ f8(in5, e5) + in6.astype(np.float64)[None, :], 0)
// TOL: 1e-6

// Every contraction took the kernel path (FP8 fragments, f32
// accumulators), every fill and consumer folded into it.
// CHECK-LABEL: func.func @fp8
// CHECK-DAG: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x48xf8E4M3FN>
// CHECK-DAG: vector.contract {{.*}} : vector<16x32xf8E4M3FN>, vector<8x32xf8E4M3FN> into vector<16x8xf32>
// CHECK-DAG: vector.contract {{.*}} : vector<16x32xf8E5M2>, vector<8x32xf8E5M2> into vector<16x8xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.fill

// AMPERE-LABEL: func.func @fp8
// AMPERE-NOT: vector.contract
// AMPERE: linalg.matmul
// AMPERE-NOT: vector.contract

func.func @fp8(%a32: tensor<128x96xf32>, %b32: tensor<96x64xf32>,
               %x32: tensor<2x10x10x32xf32>, %w32: tensor<64x3x3x32xf32>,
               %a5: tensor<40x64xf32>, %b5: tensor<64x48xf32>, %bias: tensor<48xf32>)
    -> (tensor<128x64xf32>, tensor<2x8x8x64xf32>, tensor<40x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %a = arith.truncf %a32 : tensor<128x96xf32> to tensor<128x96xf8E4M3FN>
  %b = arith.truncf %b32 : tensor<96x64xf32> to tensor<96x64xf8E4M3FN>
  %e0 = tensor.empty() : tensor<128x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<128x96xf8E4M3FN>, tensor<96x64xf8E4M3FN>) outs(%f0 : tensor<128x64xf32>) -> tensor<128x64xf32>

  %x = arith.truncf %x32 : tensor<2x10x10x32xf32> to tensor<2x10x10x32xf8E4M3FN>
  %w = arith.truncf %w32 : tensor<64x3x3x32xf32> to tensor<64x3x3x32xf8E4M3FN>
  %e1 = tensor.empty() : tensor<2x8x8x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %conv = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xf8E4M3FN>, tensor<64x3x3x32xf8E4M3FN>) outs(%f1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>

  // E5M2, ragged M, bias + ReLU.
  %a8 = arith.truncf %a5 : tensor<40x64xf32> to tensor<40x64xf8E5M2>
  %b8 = arith.truncf %b5 : tensor<64x48xf32> to tensor<64x48xf8E5M2>
  %e2 = tensor.empty() : tensor<40x48xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40x48xf32>) -> tensor<40x48xf32>
  %mm2 = linalg.matmul ins(%a8, %b8 : tensor<40x64xf8E5M2>, tensor<64x48xf8E5M2>) outs(%f2 : tensor<40x48xf32>) -> tensor<40x48xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm2, %bias : tensor<40x48xf32>, tensor<48xf32>) outs(%e2 : tensor<40x48xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %sum = arith.addf %v, %s : f32
    %r = arith.maximumf %sum, %zero : f32
    linalg.yield %r : f32
  } -> tensor<40x48xf32>
  return %mm, %conv, %y : tensor<128x64xf32>, tensor<2x8x8x64xf32>, tensor<40x48xf32>
}
