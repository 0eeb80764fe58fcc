// The tensor-core kernel as it runs on sm_75 (target t4), emulated on the
// CPU against NumPy: FP16 fragments of m16n8k8 (vector.contract of 16x8 and
// 8x8 f16), and copies without cp.async. Each thread's 16-byte copies are a
// load and a store through registers; in the pipelined K loop the loads of
// step min(k+1, last) come before the warps' compute on stage k mod 2 and
// their stores after it (past the last step, the last step again into a
// stage nothing reads any more; the emulation runs the
// same loads and stores, after the compute). Cases:
//  - a 256x256x64 GEMM with its bias and ReLU fused and a cast to f16
//    (32x32 blocks on T4's 40 SMs; two K steps);
//  - 160x160x96: 32x16 blocks of 4 warps, whose B tile has 64 chunks for
//    128 threads (the last round's loads re-read the last chunk and only
//    its stores are guarded); three K steps, so the last iteration re-reads
//    step 2 into the stage of step 1;
//  - a 3x3 NHWC convolution whose zero padding the kernel reads (M = 200
//    rows, ragged in 32-row blocks);
//  - K = 20, N = 17: both operands copied element by element (loads under
//    bounds checks, stores deferred like the 16-byte ones);
//  - a BF16 GEMM, which T4's tensor cores do not take: the generic path;
//  - an INT8 GEMM on the kernel's INT8 form (K x N B transposed into its
//    tile; on the GPU each m16n8k32 product is four m8n8k16), exact.
// Stages 1 (copy, barrier, compute, barrier) and 2 (the heuristic's
// maximum without cp.async) are both run; 3 still computes the same.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4 emulate-tensor-core-stages=1}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4 emulate-tensor-core-stages=3}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=t4" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// REF: out0 = np.maximum(in0.astype(np.float32) @ in1.astype(np.float32) + in2, 0).astype(np.float16)
// REF: out1 = in3.astype(np.float32) @ in4.astype(np.float32)
// REF: out2 = ref.conv_nhwc_hwcf(np.pad(in5, ((0, 0), (1, 1), (1, 1), (0, 0))), in6)
// REF: out3 = in7.astype(np.float32) @ in8.astype(np.float32)
// REF: out4 = ref.quantize(in9, ref.bf16) @ ref.quantize(in10, ref.bf16) + in11
// REF: out5 = in12.astype(np.int64) @ in13.astype(np.int64)
// VALUES: int [-8, 8]
// TOL: 1e-5

// Four f16 GEMMs on m16n8k8 fragments with 16-byte copies, done after the
// compute; the BF16 one untouched, the INT8 one on m16n8k32 fragments.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-LABEL: func.func @turing
// CHECK: memref.alloc() : memref<2x32x40xf16>
// CHECK: vector.load {{.*}} : memref<256x64xf16>, vector<8xf16>
// CHECK: vector.contract {{.*}} : vector<16x8xf16>, vector<8x8xf16> into vector<16x8xf32>
// CHECK: vector.load {{.*}} : memref<256x64xf16>, vector<8xf16>
// CHECK: vector.store {{.*}} : memref<2x32x40xf16>, vector<8xf16>
// The 160x160 GEMM's B copies: the last round's stores are guarded.
// CHECK: vector.load {{.*}} : memref<96x160xf16>, vector<8xf16>
// CHECK: scf.if
// CHECK-NEXT: vector.store {{.*}} : memref<2x32x24xf16>, vector<8xf16>
// CHECK-NOT: vector<16x16xf16>
// CHECK: linalg.matmul ins({{.*}} : memref<64x64xbf16>, memref<64x64xbf16>)
// CHECK-NOT: linalg.matmul
// CHECK: vector.contract {{.*}} : vector<16x32xi8>, vector<8x32xi8> into vector<16x8xi32>
// CHECK-NOT: linalg.matmul
// CHECK: return

func.func @turing(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>,
                  %pa: tensor<160x96xf16>, %pb: tensor<96x160xf16>,
                  %x: tensor<2x10x10x16xf16>, %w: tensor<3x3x16x32xf16>,
                  %ea: tensor<24x20xf16>, %eb: tensor<20x17xf16>,
                  %ba32: tensor<64x64xf32>, %bb32: tensor<64x64xf32>, %bc: tensor<64x64xf32>,
                  %ia: tensor<32x64xi8>, %ib: tensor<64x32xi8>)
    -> (tensor<256x256xf16>, tensor<160x160xf32>, tensor<2x10x10x32xf32>,
        tensor<24x17xf32>, tensor<64x64xf32>, tensor<32x32xi32>) {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %zi = arith.constant 0 : i32

  %e0 = tensor.empty() : tensor<256x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c0 = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%f0 : tensor<256x256xf32>) -> tensor<256x256xf32>
  %eh = tensor.empty() : tensor<256x256xf16>
  %r0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%c0, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%eh : tensor<256x256xf16>) {
  ^bb0(%v: f32, %bv: f32, %o: f16):
    %s = arith.addf %v, %bv : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>

  %e1 = tensor.empty() : tensor<160x160xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<160x160xf32>) -> tensor<160x160xf32>
  %r1 = linalg.matmul ins(%pa, %pb : tensor<160x96xf16>, tensor<96x160xf16>) outs(%f1 : tensor<160x160xf32>) -> tensor<160x160xf32>

  %xp = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zh : f16
  } : tensor<2x10x10x16xf16> to tensor<2x12x12x16xf16>
  %e2 = tensor.empty() : tensor<2x10x10x32xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x10x10x32xf32>) -> tensor<2x10x10x32xf32>
  %r2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%xp, %w : tensor<2x12x12x16xf16>, tensor<3x3x16x32xf16>) outs(%f2 : tensor<2x10x10x32xf32>) -> tensor<2x10x10x32xf32>

  %e3 = tensor.empty() : tensor<24x17xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<24x17xf32>) -> tensor<24x17xf32>
  %r3 = linalg.matmul ins(%ea, %eb : tensor<24x20xf16>, tensor<20x17xf16>) outs(%f3 : tensor<24x17xf32>) -> tensor<24x17xf32>

  %ba = arith.truncf %ba32 : tensor<64x64xf32> to tensor<64x64xbf16>
  %bb = arith.truncf %bb32 : tensor<64x64xf32> to tensor<64x64xbf16>
  %r4 = linalg.matmul ins(%ba, %bb : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%bc : tensor<64x64xf32>) -> tensor<64x64xf32>

  %e5 = tensor.empty() : tensor<32x32xi32>
  %f5 = linalg.fill ins(%zi : i32) outs(%e5 : tensor<32x32xi32>) -> tensor<32x32xi32>
  %r5 = linalg.matmul ins(%ia, %ib : tensor<32x64xi8>, tensor<64x32xi8>) outs(%f5 : tensor<32x32xi32>) -> tensor<32x32xi32>
  return %r0, %r1, %r2, %r3, %r4, %r5 : tensor<256x256xf16>, tensor<160x160xf32>, tensor<2x10x10x32xf32>,
                                        tensor<24x17xf32>, tensor<64x64xf32>, tensor<32x32xi32>
}
