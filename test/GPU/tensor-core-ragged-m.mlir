// Tensor-core kernels whose M is not a multiple of the block rows (nor of
// 16), checked without a GPU (the arithmetic runs on the CPU in
// Integration/CPU/tensor-core-ragged-m-emulated.mlir): ResNet-50's 7x7
// stage (batch 8: M = 392; 3x3, 512 -> 512) with a fused bias + ReLU -> f16
// epilogue, and a 100-row GEMM. The grid rounds the block rows up, the A
// copies of rows past M read row M-1 (affine.min) and every lane's store of
// a product row is guarded by `row < M` after the nvgpu conversion, with
// the epilogue inside the guard. A ragged M whose C is read (no constant
// fill to fold) keeps the generic path.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,32,32,32" 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,32,32,32 fuse-epilogue=false" 2>&1 | FileCheck %s --check-prefix=NOFOLD

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK stage4_conv_kernel/stage4_conv_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK stage4_conv_kernel/stage4_conv_kernel sm_90: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_100_kernel/gemm_100_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL

// PTX-LABEL: gpu.binary @stage4_conv_kernel
// PTX-SAME: cp.async.cg.shared.global
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @gemm_100_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @gemm_reads_c_kernel
// PTX-NOT: mma.sync

// NVGPU-DAG: #[[MIN391:.*]] = affine_map<()[s0, s1] -> ({{.*}}, 391)>
// NVGPU-DAG: #[[MIN99:.*]] = affine_map<()[s0, s1] -> ({{.*}}, 99)>
// NVGPU-LABEL: func.func @stage4_conv
// NVGPU: affine.min #[[MIN391]]
// NVGPU: nvgpu.mma.sync
// NVGPU: %[[BELOW:.*]] = arith.cmpi ult, %{{.*}}, %c392 : index
// NVGPU-NEXT: scf.if %[[BELOW]] {
// NVGPU: arith.maximumf
// NVGPU: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// NVGPU: vector.store {{.*}} : memref<392x512xf16{{.*}}>, vector<2xf16>
// NVGPU-LABEL: func.func @gemm_100
// NVGPU: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c{{[0-9]+}}, %{{.*}} = %c{{[0-9]+}}
// NVGPU: affine.min #[[MIN99]]
// NVGPU: arith.cmpi ult, %{{.*}}, %c100 : index
// NVGPU-LABEL: func.func @gemm_reads_c
// NVGPU-NOT: gpu.launch
// NVGPU: linalg.matmul

// Forced tiles need not divide a ragged M when C's fill folds (392 and
// 100 rows in blocks of 64 are accepted); where C is read they must.
// FORCED-NOT: error: {{.*}}(392x512x4608)
// FORCED-NOT: error: {{.*}}(100x64x256)
// FORCED: :[[@LINE+33]]:8: error: tiles=64,64,32,...: BM and BN must divide the GEMM's M and N (100x64x256): C is read (no constant fill folds)
// FORCED-NOT: error
// Without the fold C would be read past M: an error for every ragged M.
// NOFOLD: error: tiles=64,64,32,...: BM and BN must divide the GEMM's M and N (392x512x4608): C is read (no constant fill folds)

func.func @stage4_conv(%x: tensor<8x9x9x512xf16>, %w: tensor<3x3x512x512xf16>, %bias: tensor<512xf32>) -> tensor<8x7x7x512xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x7x7x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x7x7x512xf32>) -> tensor<8x7x7x512xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<8x9x9x512xf16>, tensor<3x3x512x512xf16>) outs(%acc : tensor<8x7x7x512xf32>) -> tensor<8x7x7x512xf32>
  %eh = tensor.empty() : tensor<8x7x7x512xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %bias : tensor<8x7x7x512xf32>, tensor<512xf32>) outs(%eh : tensor<8x7x7x512xf16>) {
  ^bb0(%p: f32, %q: f32, %o: f16):
    %s = arith.addf %p, %q : f32
    %t = arith.maximumf %s, %zero : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x7x7x512xf16>
  return %r : tensor<8x7x7x512xf16>
}

func.func @gemm_100(%a: tensor<100x256xf16>, %b: tensor<256x64xf16>) -> tensor<100x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<100x64xf32>) -> tensor<100x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<100x256xf16>, tensor<256x64xf16>) outs(%acc : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %c : tensor<100x64xf32>
}

func.func @gemm_reads_c(%a: tensor<100x256xf16>, %b: tensor<256x64xf16>, %c: tensor<100x64xf32>) -> tensor<100x64xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<100x256xf16>, tensor<256x64xf16>) outs(%c : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %r : tensor<100x64xf32>
}
