// The tensor-core kernel for sm_75 (Turing, T4), checked without a GPU:
// --opsnn-lower-to-nvvm="chip=sm_75 tensor-cores=true" picks the t4 target,
// whose tensor cores multiply FP16 as mma.sync.m16n8k8 (no m16n8k16) and
// which has no cp.async. The kernels' PTX must hold m16n8k8 mma.sync,
// ldmatrix, 16-byte global loads (ld.global.v4) and shared stores
// (st.shared.v4), no cp.async, and assemble with ptxas for sm_75 (and
// sm_80, which runs sm_75 code) without spills. In the K loop the loads of
// the next step come before the fragments' ldmatrix/mma.sync and their
// stores after them, so the loads are in flight while the tensor cores
// work. INT8 GEMMs run as m8n8k16 mma.sync, four per m16n8k32 fragment
// product of the sm_80 kernel; BF16 and TF32 keep the generic path.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_75 tensor-cores=true" | %ptxas_check --arch sm_75 --arch sm_80 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_75 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=t4 to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=t4 to-nvgpu=false tiles=32,16,32,16,8" --canonicalize | FileCheck %s --check-prefix=GUARD
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=t4" --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: not ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="target=v100" 2>&1 | FileCheck %s --check-prefix=V100
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=t4 tiles=64,64,32,32,32 stages=3" | FileCheck %s --check-prefix=S3

// Only the four FP16 kernels and the INT8 one use shared memory. The BERT FFN GEMM takes
// 128x128x32 blocks of 8 warps and two stages of 18.5 KiB; the ResNet 3x3
// convolution 128x64x32 (58x58 padded input read in place).
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK ffn_kernel/ffn_kernel sm_75: {{[0-9]+}} registers, 37888 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK ffn_kernel/ffn_kernel sm_80: {{[0-9]+}} registers, 37888 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv3x3_kernel/conv3x3_kernel sm_75: {{[0-9]+}} registers, 29696 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK small_kernel/small_kernel sm_75: {{[0-9]+}} registers, 4608 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK classifier_kernel/classifier_kernel sm_75: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK bf16_kernel/bf16_kernel sm_75: {{[0-9]+}} registers, 0 B smem
// PTXAS: OK int8_kernel/int8_kernel sm_75: {{[0-9]+}} registers, 3072 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK tf32_kernel/tf32_kernel sm_75: {{[0-9]+}} registers, 0 B smem

// Prologue: step 0's loads and stores; loop: barrier, step k+1's loads,
// the fragments, then the stores.
// PTX-NOT: cp.async
// PTX-LABEL: gpu.binary @ffn_kernel
// PTX-SAME: chip = "sm_75"
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: st.shared.v4.b32
// PTX-SAME: bar.sync{{[^;]*}}0;
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
// PTX-SAME: st.shared.v4.b32
// PTX-LABEL: gpu.binary @conv3x3_kernel
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @small_kernel
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @classifier_kernel
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @bf16_kernel
// PTX-NOT: mma.sync
// INT8: K x N B transposed into its N x K tile with byte stores (it is an
// argument, not a constant weight), m8n8k16 mma.sync.
// PTX-LABEL: gpu.binary @int8_kernel
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.s8.s32
// PTX-NOT: m16n8k32
// PTX-NOT: cp.async

// The vector form of the FFN kernel's K loop (two stages, BK = 32: four
// k8 steps of m16n8k8 fragments): the loads of step min(k + 1, 23) before
// the contractions, their 16-byte stores into stage (k + 1) mod 2 after.
// VEC-DAG: #[[LOADK:.+]] = affine_map<()[s0] -> (736, s0 + 32)>
// VEC-LABEL: func.func @ffn
// VEC: gpu.launch {{.*}} workgroup({{.*}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<2x32x136xf16, #gpu.address_space<workgroup>>)
// VEC-COUNT-4: vector.store {{.*}} {alignment = 16 : i64} : memref<2x{{.*}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// VEC: scf.for %[[K:.+]] = %c0 to %c768 step %c32
// VEC-NEXT: gpu.barrier
// VEC: affine.min #[[LOADK]]()[%[[K]]]
// VEC-COUNT-4: vector.load {{.*}} {alignment = 16 : i64} : memref<{{512x768|768x3072}}xf16>, vector<8xf16>
// VEC-NOT: vector.store
// VEC-COUNT-64: vector.contract {{.*}} : vector<16x8xf16>, vector<8x8xf16> into vector<16x8xf32>
// VEC-NOT: vector.contract
// VEC-NOT: scf.if
// VEC-COUNT-4: vector.store {{.*}} {alignment = 16 : i64} : memref<2x{{.*}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// VEC-NEXT: scf.yield
// The generic path for the rest.
// VEC-LABEL: func.func @bf16
// VEC-NOT: gpu.launch
// VEC: linalg.matmul
// VEC-LABEL: func.func @int8
// VEC: gpu.launch
// VEC: vector.contract {{.*}} : vector<16x32xi8>, vector<8x32xi8> into vector<16x8xi32>
// VEC-NOT: linalg.matmul
// VEC-LABEL: func.func @tf32
// VEC-NOT: gpu.launch
// VEC: linalg.matmul {opsnn.tf32}

// With 32x16 blocks of four warps (128 threads) the small GEMM's B tile
// (32 x 16) has 64 chunks: threads 64 .. 127 load chunk 63 again and do
// not store it.
// GUARD-LABEL: func.func @small
// GUARD: scf.for
// GUARD: %[[FITS:.+]] = arith.cmpi ult, %{{.*}}, %c64 : index
// GUARD: %[[CHUNK:.+]] = affine.min #{{.*}}()[%{{.*}}]
// GUARD: vector.load %{{.*}} : memref<64x16xf16>, vector<8xf16>
// GUARD: vector.contract
// GUARD: scf.if %[[FITS]] {
// GUARD-NEXT: vector.store {{.*}} : memref<2x32x24xf16, #gpu.address_space<workgroup>>, vector<8xf16>

// After the nvgpu conversion: m16n8k8 mma.sync, no async copies; INT8's
// m16n8k32 rewritten into nvvm.mma.sync m8n8k16.
// NVGPU-LABEL: func.func @ffn
// NVGPU-NOT: nvgpu.device_async
// NVGPU: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8]} : (vector<2x2xf16>, vector<1x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// NVGPU-NOT: nvgpu.device_async
// NVGPU-LABEL: func.func @int8
// NVGPU: nvvm.mma.sync {{.*}} {intOverflowBehavior = #nvvm.mma_int_overflow<satfinite>, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<s8>, multiplicandBPtxType = #nvvm.mma_type<s8>, shape = #nvvm.shape<m = 8, n = 8, k = 16>}

// V100: error: target 'v100' (sm_70) has no mma.sync the tensor-core kernel uses (sm_75 or later)
// Three stages may be forced (they compute the same; the heuristic stops
// at two without cp.async).
// S3-LABEL: func.func @ffn
// S3: workgroup({{.*}} : memref<3x64x40xf16, #gpu.address_space<workgroup>>
// BERT-base FFN GEMM (f16, 512 tokens) with bias + GELU-free ReLU epilogue.
func.func @ffn(%a: tensor<512x768xf16>, %b: tensor<768x3072xf16>, %bias: tensor<3072xf32>) -> tensor<512x3072xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x3072xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %c = linalg.matmul ins(%a, %b : tensor<512x768xf16>, tensor<768x3072xf16>) outs(%acc : tensor<512x3072xf32>) -> tensor<512x3072xf32>
  %eh = tensor.empty() : tensor<512x3072xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<512x3072xf32>, tensor<3072xf32>) outs(%eh : tensor<512x3072xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<512x3072xf16>
  return %r : tensor<512x3072xf16>
}

// ResNet-50 stage-1 3x3 convolution, NHWC f16, zero padding folded.
func.func @conv3x3(%x: tensor<8x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<8x56x56x64xf32> {
  %zh = arith.constant 0.0 : f16
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zh : f16
  } : tensor<8x56x56x64xf16> to tensor<8x58x58x64xf16>
  %e = tensor.empty() : tensor<8x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<8x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%acc : tensor<8x56x56x64xf32>) -> tensor<8x56x56x64xf32>
  return %c : tensor<8x56x56x64xf32>
}

// A small GEMM whose B tile (32 x 16) has fewer 16-byte chunks than the
// block has threads: the last round's stores are guarded.
func.func @small(%a: tensor<32x64xf16>, %b: tensor<64x16xf16>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %c = linalg.matmul ins(%a, %b : tensor<32x64xf16>, tensor<64x16xf16>) outs(%acc : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %c : tensor<32x16xf32>
}

// ResNet-50's classifier: N = 1000 is ragged in every block width; the
// stores past N are guarded after the nvgpu conversion, as on sm_80.
func.func @classifier(%a: tensor<64x2048xf16>, %b: tensor<2048x1000xf16>) -> tensor<64x1000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x1000xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x2048xf16>, tensor<2048x1000xf16>) outs(%acc : tensor<64x1000xf32>) -> tensor<64x1000xf32>
  return %c : tensor<64x1000xf32>
}

// No Turing mma.sync for these: the generic path.
func.func @bf16(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
func.func @int8(%a: tensor<128x128xi8>, %b: tensor<128x128xi8>, %c: tensor<128x128xi32>) -> tensor<128x128xi32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x128xi8>, tensor<128x128xi8>) outs(%c : tensor<128x128xi32>) -> tensor<128x128xi32>
  return %r : tensor<128x128xi32>
}
func.func @tf32(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>, %c: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul {opsnn.tf32} ins(%a, %b : tensor<128x128xf32>, tensor<128x128xf32>) outs(%c : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
