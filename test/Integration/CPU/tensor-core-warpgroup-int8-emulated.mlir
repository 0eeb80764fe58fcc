// INT8 on the warpgroup (wgmma, sm_90a) kernel, run on the CPU
// (emulate-on-cpu with warpgroup-mma) against NumPy: s32 += s8 x s8 with B
// stored N x K (an FHWC filter, a weight stored [out, in]), 128 i8 per
// 128-byte swizzled row (BK = 128). The accumulators go to an i32 row tile
// that the epilogue reads. Cases: a 3x3 convolution (K = 576 = 4.5 BK,
// ragged) with a dequantizing epilogue (sitofp, scale, ReLU), and a GEMM
// that adds to C (read, i32) with a ragged M (40) and N (72). h100 and
// h200 pick their tiles; then two stages. The sums are exact; the
// dequantized ones are rounded to f32 once.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h200 emulate-tensor-core-warpgroup-mma emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// VALUES: int [-127, 127]
// REF: i64 = lambda v: v.astype(np.int64)
// REF: out0 = np.maximum(ref.conv_nhwc_fhwc(i64(in0), i64(in1)).astype(np.float32) * np.float32(0.01), 0)
// REF: out1 = i64(in4) + i64(in2) @ i64(in3).T
// TOL: 1e-6

// Both took the warpgroup kernel: i8 tiles of 128-byte rows, the
// accumulators in an i32 row tile, no fragments.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK-DAG: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x128xi8>
// CHECK-DAG: memref.alloc() : memref<{{64|128}}x{{68|132}}xi32>
// CHECK-DAG: arith.muli
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.generic {{.*}}"reduction"
// CHECK: return

func.func @int8_kmajor(%x: tensor<2x10x10x64xi8>, %w: tensor<128x3x3x64xi8>,
                       %a: tensor<40x96xi8>, %b: tensor<72x96xi8>, %c: tensor<40x72xi32>)
    -> (tensor<2x8x8x128xf32>, tensor<40x72xi32>) {
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %scale = arith.constant 0.01 : f32
  %e0 = tensor.empty() : tensor<2x8x8x128xi32>
  %f0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<2x8x8x128xi32>) -> tensor<2x8x8x128xi32>
  %p0 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x64xi8>, tensor<128x3x3x64xi8>) outs(%f0 : tensor<2x8x8x128xi32>) -> tensor<2x8x8x128xi32>
  %d0 = tensor.empty() : tensor<2x8x8x128xf32>
  %r0 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                        iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p0 : tensor<2x8x8x128xi32>) outs(%d0 : tensor<2x8x8x128xf32>) {
  ^bb0(%v: i32, %o: f32):
    %f = arith.sitofp %v : i32 to f32
    %s = arith.mulf %f, %scale : f32
    %m = arith.maximumf %s, %fzero : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x128xf32>
  %p1 = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<40x96xi8>, tensor<72x96xi8>) outs(%c : tensor<40x72xi32>) {
  ^bb0(%x1: i8, %y1: i8, %acc: i32):
    %x32 = arith.extsi %x1 : i8 to i32
    %y32 = arith.extsi %y1 : i8 to i32
    %m = arith.muli %x32, %y32 : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  } -> tensor<40x72xi32>
  return %r0, %p1 : tensor<2x8x8x128xf32>, tensor<40x72xi32>
}
