// Tensor-core kernels whose N is not a multiple of the block columns or
// whose K is not one of BK, checked without a GPU (the arithmetic runs on
// the CPU in Integration/CPU/tensor-core-ragged-nk-emulated.mlir).
// ResNet-50's classifier at batch 64 (N = 1000 classes, K = 2048) with its
// bias: 32x16 blocks, 63 block columns of which the last holds 8 of its 16
// (before, only 16x8 blocks divided N). Its B copies past N re-read the
// last 8-column chunk (affine.min), and each lane's store sits under
// `col < 1000` with the bias inside the guard. A C = 8 convolution (K =
// 3*3*8 = 72 in steps of 16 or 32; F = 120 ragged too): the last K step's
// copies past K are cp.async copies of 0 source bytes (the hardware's
// zero fill) for A and B. TF32 with K = 12 (three 4-element copies a row)
// and INT8 with K = 48 (steps of 32) and N = 240 (M = 512). Where C is read (no fill
// folds), a ragged K is still taken, a ragged N is not.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-tf32=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-tf32=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="allow-tf32" --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="allow-tf32 tiles=32,16,16,16,8" 2>&1 | FileCheck %s --check-prefix=FORCED

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK classifier_kernel/classifier_kernel sm_80: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK classifier_kernel/classifier_kernel sm_90: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv_c8_kernel/conv_c8_kernel sm_80:
// PTXAS: OK gemm_tf32_k12_kernel/gemm_tf32_k12_kernel sm_80:
// PTXAS: OK gemm_i8_kernel/gemm_i8_kernel sm_80:
// PTXAS: OK gemm_reads_c_kernel/gemm_reads_c_kernel sm_80:
// The heuristic's largest tiles take both raggednesses without spills:
// 128x128x16 blocks, 8 block columns for N = 1000, 5 K steps for K = 72.
// PTXAS: OK ragged_large_kernel/ragged_large_kernel sm_80: {{[0-9]+}} registers, 31488 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK ragged_large_kernel/ragged_large_kernel sm_90: {{[0-9]+}} registers, 31488 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL

// Every GEMM is a tensor-core kernel; the zero-filled copies take a
// register source size.
// PTX-LABEL: gpu.binary @classifier_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @conv_c8_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16, %r
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @gemm_tf32_k12_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16, %r
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-LABEL: gpu.binary @gemm_i8_kernel
// PTX-SAME: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// PTX-LABEL: gpu.binary @gemm_reads_c_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// NVGPU-DAG: #[[LASTCHUNK:.*]] = affine_map<()[s0, s1] -> ({{.*}}, 992)>
// NVGPU-DAG: #[[LASTI8:.*]] = affine_map<()[s0, s1] -> ({{.*}}, 236)>
// NVGPU-LABEL: func.func @classifier
// NVGPU: gpu.launch blocks({{.*}}) in ({{.*}} = %c63, {{.*}} = %c2, {{.*}} = %c1)
// NVGPU: affine.min #[[LASTCHUNK]]
// NVGPU: nvgpu.mma.sync
// NVGPU: %[[INSIDE:.*]] = arith.cmpi ult, %{{.*}}, %c1000 : index
// NVGPU-NEXT: scf.if %[[INSIDE]] {
// NVGPU: arith.addf {{.*}} : vector<2xf32>
// NVGPU: vector.store {{.*}} : memref<64x1000xf32>, vector<2xf32>
// The C = 8 convolution: A's chunk past K = 72 copies 0 elements.
// NVGPU-LABEL: func.func @conv_c8
// NVGPU: %[[INK:.*]] = arith.cmpi slt, %{{.*}}, %c72 : index
// NVGPU: %[[SRC:.*]] = arith.select %[[INK]], %c8, %c0 : index
// NVGPU: nvgpu.device_async_copy {{.*}}, 8, %[[SRC]] {bypassL1} : memref<2x10x10x8xf16>
// NVGPU-LABEL: func.func @gemm_tf32_k12
// NVGPU: arith.select %{{.*}}, %c4, %c0 : index
// INT8 (B read along N, transposed into its N x K tile in 4 x 4 blocks):
// 32x32 blocks, B's blocks past N re-read columns 236 .. 239, its rows
// past K are zeros (a select per 4-byte row: these copies are plain
// loads), stores under col < 240.
// NVGPU-LABEL: func.func @gemm_i8
// NVGPU: gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}} = %c16, {{.*}} = %c1)
// NVGPU: affine.min #[[LASTI8]]
// NVGPU-COUNT-4: arith.select %{{.*}}, %{{.*}}, %cst{{.*}} : vector<4xi8>
// NVGPU: arith.cmpi ult, %{{.*}}, %c240 : index
// NVGPU-LABEL: func.func @gemm_reads_c
// NVGPU: gpu.launch blocks({{.*}}) in ({{.*}} = %c{{[0-9]+}}, {{.*}} = %c{{[0-9]+}}, {{.*}} = %c1)
// NVGPU: arith.cmpi slt, %{{.*}}, %c40 : index
// NVGPU-NOT: arith.cmpi ult, %{{.*}}, %c64 : index
// NVGPU: return

// Forced tiles: a ragged N is accepted where C's fill folds (the
// classifier, 1000 in blocks of 16) and an error where C is read.
// FORCED-NOT: error: {{.*}}(64x1000x2048)
// FORCED: error: tiles=32,16,16,...: BK must be a multiple of 32 for 'i8' operands
// FORCED: error: tiles=32,16,16,...: BM and BN must divide the GEMM's M and N (32x40x40): C is read (no constant fill folds)

func.func @classifier(%a: tensor<64x2048xf16>, %b: tensor<2048x1000xf16>, %bias: tensor<1000xf32>) -> tensor<64x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<64x2048xf16>, tensor<2048x1000xf16>) outs(%f : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<64x1000xf32>, tensor<1000xf32>) outs(%e : tensor<64x1000xf32>) {
  ^bb0(%p: f32, %s: f32, %o: f32):
    %t = arith.addf %p, %s : f32
    linalg.yield %t : f32
  } -> tensor<64x1000xf32>
  return %r : tensor<64x1000xf32>
}

func.func @conv_c8(%x: tensor<2x10x10x8xf16>, %w: tensor<3x3x8x120xf16>) -> tensor<2x8x8x120xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x120xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x120xf32>) -> tensor<2x8x8x120xf32>
  %c = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x8xf16>, tensor<3x3x8x120xf16>) outs(%f : tensor<2x8x8x120xf32>) -> tensor<2x8x8x120xf32>
  return %c : tensor<2x8x8x120xf32>
}

func.func @gemm_tf32_k12(%a: tensor<128x12xf32>, %b: tensor<12x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x12xf32>, tensor<12x64xf32>) outs(%f : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %c : tensor<128x64xf32>
}

func.func @gemm_i8(%a: tensor<512x48xi8>, %b: tensor<48x240xi8>) -> tensor<512x240xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<512x240xi32>
  %f = linalg.fill ins(%zero : i32) outs(%e : tensor<512x240xi32>) -> tensor<512x240xi32>
  %c = linalg.matmul ins(%a, %b : tensor<512x48xi8>, tensor<48x240xi8>) outs(%f : tensor<512x240xi32>) -> tensor<512x240xi32>
  return %c : tensor<512x240xi32>
}

func.func @gemm_reads_c(%a: tensor<32x40xf16>, %b: tensor<40x40xf16>, %c: tensor<32x40xf32>) -> tensor<32x40xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<32x40xf16>, tensor<40x40xf16>) outs(%c : tensor<32x40xf32>) -> tensor<32x40xf32>
  return %r : tensor<32x40xf32>
}

func.func @ragged_large(%a: tensor<8192x72xf16>, %b: tensor<72x1000xf16>) -> tensor<8192x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8192x1000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8192x1000xf32>) -> tensor<8192x1000xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8192x72xf16>, tensor<72x1000xf16>) outs(%f : tensor<8192x1000xf32>) -> tensor<8192x1000xf32>
  return %mm : tensor<8192x1000xf32>
}
