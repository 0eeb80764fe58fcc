// The tensor-core GEMM path, checked without a GPU: f16 x f16 -> f32
// linalg.matmul through --opsnn-lower-to-nvvm="tensor-cores=true" for sm_80
// and sm_90. The kernels' PTX must contain cp.async, ldmatrix and
// mma.sync.m16n8k16 and assemble with ptxas without spills; the structure
// before the nvgpu conversion (tiles from the heuristic) and after it is
// checked too; matmuls the path does not handle keep the generic kernels.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=PTXAS90
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=DEFAULT
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,16,32,32 to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=TILES
// RUN: not ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="target=nope" 2>&1 | FileCheck %s --check-prefix=BADTARGET
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="stages=1" --canonicalize | FileCheck %s --check-prefix=S1
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="stages=2" --canonicalize | FileCheck %s --check-prefix=S2
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-stages=1" | %ptxas_check --arch sm_80 | FileCheck %s --check-prefix=PTXAS-S1
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-stages=1" | FileCheck %s --check-prefix=PTX-S1
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=0,0,0,0,0" 2>&1 | FileCheck %s --check-prefix=BADZERO
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,24,32,32" 2>&1 | FileCheck %s --check-prefix=BADFRAG
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,16,48,32" 2>&1 | FileCheck %s --check-prefix=BADWARP
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=512,64,16,16,8" 2>&1 | FileCheck %s --check-prefix=BADTHREADS
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=128,128,48,64,32 to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=RAGGEDK
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=128,128,256,64,32 stages=2" 2>&1 | FileCheck %s --check-prefix=BADSMEM
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="stages=0" 2>&1 | FileCheck %s --check-prefix=BADSTAGES

// Every kernel (the two tensor-core GEMMs, whose zero fills are folded into
// the accumulators; the f32 GEMM and its fill) assembles for both
// architectures with no local-memory spills; the GEMM kernels use shared
// memory: three stages (gemm_large: 3 x 18944 B with BK = 32, past 48 KiB,
// so dynamic shared memory: ptxas counts only the 1-byte symbol it starts
// at; gemm_small: 3 x 4096 B, static). Registers (sm_80 PTX): 122/124 for
// 128x128 blocks on sm_80/sm_90 (120/124 with one stage, 122/124 with two).
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_large_kernel/gemm_large_kernel sm_80: {{[0-9]+}} registers, 1 B smem + dynamic, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_large_kernel/gemm_large_kernel sm_90: {{[0-9]+}} registers, 1 B smem + dynamic, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_small_kernel/gemm_small_kernel sm_80: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_small_kernel/gemm_small_kernel sm_90: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_f32_kernel/gemm_f32_kernel sm_90
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// For sm_90 the tiles are the H100's (132 SMs): smaller blocks for the
// small GEMM (3 stages of 2816 B).
// PTXAS90: OK gemm_large_kernel/gemm_large_kernel sm_90: {{[0-9]+}} registers, 1 B smem + dynamic, 0 B spill stores, 0 B spill loads
// PTXAS90: OK gemm_small_kernel/gemm_small_kernel sm_90: {{[0-9]+}} registers, 8448 B smem, 0 B spill stores, 0 B spill loads
// PTXAS90-NOT: FAIL
// One stage: today's single-buffered figures (BK = 32 fits again).
// PTXAS-S1: OK gemm_large_kernel/gemm_large_kernel sm_80: {{[0-9]+}} registers, 18944 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-S1: OK gemm_small_kernel/gemm_small_kernel sm_80: {{[0-9]+}} registers, 4096 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-S1-NOT: FAIL

// The tensor-core kernel's PTX has 16-byte cp.async copies with a commit and
// a wait that leaves one group (the next step's copies) in flight,
// ldmatrix (x4 for A, transposed x2 for B), mma.sync m16n8k16 with f32
// accumulation, 16-byte aligned shared tiles (gemm_large: the dynamic
// shared memory's symbol).
// PTX-LABEL: gpu.binary @gemm_large_kernel
// PTX-SAME: .shared .align 16 .b8 __dynamic_shmem__0
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: cp.async.commit_group;
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// (the loop header block comes last in the PTX)
// PTX-SAME: cp.async.wait_group{{[^;]*}}1;
// PTX-SAME: bar.sync{{[^;]*}}0;
// PTX-LABEL: gpu.binary @gemm_small_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// Each lane stores its two f32 of a fragment row as one 8-byte store (the
// stores are declared 8-byte aligned; element-aligned, NVPTX splits them).
// PTX-NOT: st.global.b32
// PTX-SAME: st.global.v2.b32
// PTX-NOT: st.global.b32
// The f32 GEMM keeps the generic path (one kernel with its fill).
// PTX-LABEL: gpu.binary @gemm_f32_kernel
// PTX-NOT: mma.sync
// PTX-NOT: gpu.binary

// With one stage every wait drains all groups.
// PTX-S1-LABEL: gpu.binary @gemm_large_kernel
// PTX-S1-NOT: cp.async.wait_group{{[^;]*}}1;
// PTX-S1: cp.async.wait_group{{[^;]*}}0;
// PTX-S1-NOT: cp.async.wait_group{{[^;]*}}1;
// PTX-S1-LABEL: gpu.binary @gemm_f32_kernel

// Without the option the pipeline is unchanged: no tensor-core code.
// DEFAULT-NOT: mma.sync
// DEFAULT-NOT: ldmatrix
// DEFAULT-NOT: cp.async

// Heuristic tiles for the A100 (108 SMs): 2048x2048 -> 128x128 blocks
// (256 blocks >= 108), 64x32 warp tiles: 8 warps; rows padded by 8; three
// stages with BK = 32 (3 x 18944 B = 56832 B: within the A100's budget of
// 81 KiB, two blocks per SM). Past 48 KiB the tiles are views of dynamic
// shared memory, A at byte 0 and B at byte 3 x 128 x 40 x 2 = 30720, and
// the launch asks for the bytes. Stage s of K step k is s = k mod 3.
// VEC-DAG: #[[NEXTK:.+]] = affine_map<()[s0] -> (s0 + 64)>
// VEC-DAG: #[[NEXTSTAGE:.+]] = affine_map<()[s0] -> (s0 floordiv 32 - ((s0 floordiv 32 + 2) floordiv 3) * 3 + 2)>
// VEC-DAG: #[[STAGE:.+]] = affine_map<()[s0] -> ((s0 floordiv 32) mod 3)>
// VEC-LABEL: func.func @gemm_large
// VEC-DAG: %[[C16:.+]] = arith.constant 16 : index
// VEC-DAG: %[[C256:.+]] = arith.constant 256 : index
// VEC-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16x8xf32>
// VEC-DAG: %[[BYTES:.+]] = arith.constant 56832 : i32
// VEC: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]], {{.*}} = %[[C16]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]], {{.*}}) dynamic_shared_memory_size %[[BYTES]] {
// VEC-NEXT: %[[SMEM:.+]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// VEC-NEXT: %[[SA:.+]] = memref.view %[[SMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x40xf16, #gpu.address_space<workgroup>>
// VEC-NEXT: %[[SB:.+]] = memref.view %[[SMEM]][%c30720][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x32x136xf16, #gpu.address_space<workgroup>>
// 4 x 4 accumulator fragments per warp, starting at the zero C is filled
// with (the fill is gone; C is not read).
// VEC-NOT: linalg.fill
// VEC-NOT: vector.transfer_read {{.*}} : memref<2048x2048xf32>
// Prologue: K steps 0 and 1 into stages 0 and 1 (128x32 A tile and 32x128
// B tile: 512 16-byte chunks each, two per thread).
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SA]][%c0, {{.*}}] {{.*}} : vector<8xf16>, memref<3x128x40xf16, #gpu.address_space<workgroup>>
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SB]][%c0, {{.*}}] {{.*}} : vector<8xf16>, memref<3x32x136xf16, #gpu.address_space<workgroup>>
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SA]][%c1, {{.*}}] {{.*}} : vector<8xf16>, memref<3x128x40xf16, #gpu.address_space<workgroup>>
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SB]][%c1, {{.*}}] {{.*}} : vector<8xf16>, memref<3x32x136xf16, #gpu.address_space<workgroup>>
// One barrier per step, then step k+2 into stage (k+2) mod 3 while the
// warps compute on stage k mod 3.
// VEC: scf.for %[[K:.+]] = %c0 to %c1024 step %c32 iter_args({{.*}} = %[[ZERO]], {{.*}} = %[[ZERO]], {{.*}}) -> (vector<16x8xf32>, {{.*}}vector<16x8xf32>) {
// VEC-NEXT: gpu.barrier
// VEC-NEXT: %[[NK:.+]] = affine.apply #[[NEXTK]]()[%[[K]]]
// VEC-NEXT: %[[NS:.+]] = affine.apply #[[NEXTSTAGE]]()[%[[K]]]
// VEC-NEXT: %[[IN:.+]] = arith.cmpi ult, %[[NK]], %c1024
// VEC-NEXT: scf.if %[[IN]] {
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SA]][%[[NS]], {{.*}}]
// VEC-COUNT-2: vector.transfer_write {{.*}}, %[[SB]][%[[NS]], {{.*}}]
// VEC-NEXT: {{^ *}}}{{$}}
// VEC-NEXT: %[[S:.+]] = affine.apply #[[STAGE]]()[%[[K]]]
// VEC-NEXT: vector.transfer_read %[[SA]][%[[S]], {{.*}} : memref<3x128x40xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
// VEC-NOT: gpu.barrier
// VEC: vector.transfer_read %[[SB]][%[[S]], {{.*}} : memref<3x32x136xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
// Two k16 steps x 16 fragments.
// VEC-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// VEC-NOT: gpu.barrier
// VEC: vector.transfer_read %[[SA]][%[[S]], {{.*}} : memref<3x128x40xf16, #gpu.address_space<workgroup>>, vector<16x16xf16>
// VEC-COUNT-16: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// VEC-NOT: gpu.barrier
// VEC: scf.yield
// VEC-COUNT-16: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<2048x2048xf32>
// Small problem: 32x16 blocks (128 blocks), 16x8 warp tiles, 4 warps, BK
// = 32, three stages; the 64 B-tile chunks are guarded for 128 threads.
// VEC-LABEL: func.func @gemm_small
// VEC: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<3x32x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<3x32x24xf16, #gpu.address_space<workgroup>>)
// VEC: scf.if
// VEC-NEXT: affine.apply
// The f32 GEMM is left alone.
// VEC-LABEL: func.func @gemm_f32
// VEC-NOT: gpu.launch
// VEC: linalg.matmul

// The GPU form: the copies are cp.async (nvgpu.device_async_copy), one
// group per K step, and the fragments upstream's ldmatrix and mma.sync.
// The prologue commits steps 0 and 1; each iteration waits until at most
// one group (step k+1) is pending, synchronizes, commits step k+2 (an empty
// group past the end, so every thread counts the same groups) and computes.
// NVGPU-LABEL: func.func @gemm_large
// NVGPU-COUNT-4: nvgpu.device_async_copy {{.*}}[%c0, {{.*}}], 8 {bypassL1}
// NVGPU-NEXT: %[[G0:.+]] = nvgpu.device_async_create_group
// NVGPU-NOT: nvgpu.device_async_wait
// NVGPU-COUNT-4: nvgpu.device_async_copy {{.*}}[%c1, {{.*}}], 8 {bypassL1}
// NVGPU-NEXT: %[[G1:.+]] = nvgpu.device_async_create_group
// NVGPU-NOT: nvgpu.device_async_wait
// NVGPU: scf.for {{.*}} iter_args(%[[T:.+]] = %[[G1]], {{.*}}) -> (!nvgpu.device.async.token, vector<2x2xf32>
// NVGPU-NEXT: nvgpu.device_async_wait %[[T]] {numGroups = 1 : i32}
// NVGPU-NEXT: gpu.barrier
// NVGPU: %[[NEXT:.+]] = scf.if {{.*}} -> (!nvgpu.device.async.token) {
// NVGPU-COUNT-4: nvgpu.device_async_copy
// NVGPU-NEXT: %[[G:.+]] = nvgpu.device_async_create_group
// NVGPU-NEXT: scf.yield %[[G]]
// NVGPU-NEXT: } else {
// NVGPU-NEXT: %[[E:.+]] = nvgpu.device_async_create_group{{ *$}}
// NVGPU-NEXT: scf.yield %[[E]]
// NVGPU-NOT: gpu.barrier
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<3x128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<3x32x136xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// NVGPU: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// NVGPU-NOT: vector.contract
// NVGPU-NOT: gpu.barrier
// NVGPU: scf.yield %[[NEXT]],
// The lanes' f32 pairs at even columns: 8-byte aligned stores.
// NVGPU: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<2048x2048xf32>, vector<2xf32>
// NVGPU-LABEL: func.func @gemm_small

// stages=1 keeps the single-buffered kernel: BK = 32, no prologue; copy,
// commit, wait for everything, barrier, compute, barrier.
// S1-LABEL: func.func @gemm_large
// S1: workgroup({{.*}} : memref<1x128x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<1x32x136xf16, #gpu.address_space<workgroup>>)
// S1-NOT: nvgpu.device_async_copy
// S1: scf.for {{.*}} step %c32 iter_args({{.*}}) -> (vector<2x2xf32>,
// S1-COUNT-4: nvgpu.device_async_copy {{.*}}[%c0, {{.*}}], 8 {bypassL1}
// S1-NEXT: %[[G:.+]] = nvgpu.device_async_create_group
// S1-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// S1-NEXT: gpu.barrier
// S1: nvgpu.mma.sync
// S1: gpu.barrier
// S1-NEXT: scf.yield
// S1-LABEL: func.func @gemm_small

// stages=2 keeps BK = 32 (2 x 18944 B) and waits for all but zero groups.
// S2-LABEL: func.func @gemm_large
// S2: workgroup({{.*}} : memref<2x128x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<2x32x136xf16, #gpu.address_space<workgroup>>)
// S2: scf.for {{.*}} step %c32
// S2-NEXT: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// S2-NEXT: gpu.barrier
// S2-NOT: gpu.barrier
// S2: scf.yield
// S2-LABEL: func.func @gemm_small

// Fixed tiles: 64x64x16 blocks of 32x32 warp tiles (4 warps), the
// heuristic's three stages.
// TILES-LABEL: func.func @gemm_large
// TILES: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<3x64x24xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<3x16x72xf16, #gpu.address_space<workgroup>>)
// TILES: scf.for {{.*}} step %c16

// BADTARGET: error: unknown target 'nope'
// Forced tiles or stages that break a constraint are errors, not a silent
// fallback to the generic path.
// BADZERO: error: tiles=0,0,0,0,0: every size must be positive
// BADFRAG: error: tiles=64,64,24,32,32: WM must be a multiple of 16, WN of 8 and BK of 16 (mma.sync m16n8k16 fragments)
// BADWARP: error: tiles=64,64,16,48,32: the warp tile WM x WN must divide the block tile BM x BN
// BADTHREADS: error: tiles=512,64,16,16,8: more than 1024 threads per block
// A BK that does not divide K is a ragged K, not an error: 22 steps of 48
// cover K = 1024, and the last one's copies past K are zeros (A's columns
// and B's rows at 1024 and beyond; a select of the in-bounds flag here,
// a cp.async of 0 source bytes on the GPU).
// RAGGEDK-LABEL: func.func @gemm_large
// RAGGEDK: scf.for %{{.*}} = %c0 to %c1024 step %c48
// RAGGEDK: %[[INA:.*]] = arith.cmpi slt, %{{.*}}, %c1024 : index
// RAGGEDK: arith.select %[[INA]], %{{.*}}, %cst{{.*}} : vector<8xf16>
// RAGGEDK: %[[INB:.*]] = arith.cmpi slt, %{{.*}}, %c1024 : index
// RAGGEDK: arith.select %[[INB]], %{{.*}}, %cst{{.*}} : vector<8xf16>
// RAGGEDK-LABEL: func.func @gemm_small
// Forced tiles may use all the shared memory an A100 block can opt in to
// (163 KiB), not more.
// BADSMEM: tensor-core-matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tiles=128,128,256,...: 2 stage(s) of 137216 B exceed the 166912 B of shared memory a block may use on a100
// BADSTAGES: error: stages must be at least 1 (or -1 for the heuristic's), got 0

func.func @gemm_large(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>) -> tensor<2048x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%acc : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %c : tensor<2048x2048xf32>
}

func.func @gemm_small(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

func.func @gemm_f32(%a: tensor<64x32xf32>, %b: tensor<32x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}
