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

// Every kernel (fills, the two tensor-core GEMMs, the f32 GEMM) assembles
// for both architectures with no local-memory spills; the GEMM kernels use
// shared memory. Registers (sm_80 PTX): 126/124 for 128x128 blocks on
// sm_80/sm_90.
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_large_kernel_0/gemm_large_kernel sm_80: {{[0-9]+}} registers, 18944 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_large_kernel_0/gemm_large_kernel sm_90: {{[0-9]+}} registers, 18944 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_small_kernel_1/gemm_small_kernel sm_80: {{[0-9]+}} registers, 4096 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_small_kernel_1/gemm_small_kernel sm_90: {{[0-9]+}} registers, 4096 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_f32_kernel_2/gemm_f32_kernel sm_90
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// For sm_90 the tiles are the H100's (132 SMs): smaller blocks for the
// small GEMM (2816 B of shared memory).
// PTXAS90: OK gemm_large_kernel_0/gemm_large_kernel sm_90: {{[0-9]+}} registers, 18944 B smem, 0 B spill stores, 0 B spill loads
// PTXAS90: OK gemm_small_kernel_1/gemm_small_kernel sm_90: {{[0-9]+}} registers, 2816 B smem, 0 B spill stores, 0 B spill loads
// PTXAS90-NOT: FAIL

// The tensor-core kernel's PTX has 16-byte cp.async copies with a commit and
// a wait, ldmatrix (x4 for A, transposed x2 for B), mma.sync m16n8k16 with
// f32 accumulation, 16-byte aligned shared tiles.
// PTX-LABEL: gpu.binary @gemm_large_kernel_0
// PTX-SAME: .shared .align 16
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: cp.async.commit_group;
// PTX-SAME: cp.async.wait_group{{[^;]*}}0;
// PTX-SAME: bar.sync{{[^;]*}}0;
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @gemm_small_kernel_1
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// The f32 GEMM keeps the generic path.
// PTX-LABEL: gpu.binary @gemm_f32_kernel_2
// PTX-NOT: mma.sync

// Without the option the pipeline is unchanged: no tensor-core code.
// DEFAULT-NOT: mma.sync
// DEFAULT-NOT: ldmatrix
// DEFAULT-NOT: cp.async

// Heuristic tiles for the A100 (108 SMs): 2048x2048 -> 128x128 blocks
// (256 blocks >= 108), 64x32 warp tiles: 8 warps; BK = 32; rows padded by 8.
// VEC-LABEL: func.func @gemm_large
// VEC-DAG: %[[C16:.+]] = arith.constant 16 : index
// VEC-DAG: %[[C256:.+]] = arith.constant 256 : index
// VEC: gpu.launch blocks({{.*}}) in ({{.*}} = %[[C16]], {{.*}} = %[[C16]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[C256]], {{.*}}) workgroup({{.*}} : memref<128x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x136xf16, #gpu.address_space<workgroup>>)
// 4 x 4 accumulator fragments per warp, read from C before the K loop.
// VEC-COUNT-16: vector.transfer_read {{.*}} : memref<2048x2048xf32>, vector<16x8xf32>
// VEC: scf.for {{.*}} step %c32 iter_args({{.*}}) -> (vector<16x8xf32>, {{.*}}vector<16x8xf32>) {
// 128x32 A tile and 32x128 B tile: 512 16-byte chunks each, 2 per thread.
// VEC-COUNT-2: vector.transfer_write {{.*}} : vector<8xf16>, memref<128x40xf16, #gpu.address_space<workgroup>>
// VEC-COUNT-2: vector.transfer_write {{.*}} : vector<8xf16>, memref<32x136xf16, #gpu.address_space<workgroup>>
// VEC: gpu.barrier
// Two k16 steps x 16 fragments.
// VEC-COUNT-32: vector.contract {{.*}} : vector<16x16xf16>, vector<8x16xf16> into vector<16x8xf32>
// VEC: gpu.barrier
// VEC: scf.yield
// VEC-COUNT-16: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<2048x2048xf32>
// Small problem: 32x16 blocks (128 blocks), 16x8 warp tiles, 4 warps; the
// 64 B-tile chunks are guarded for 128 threads.
// VEC-LABEL: func.func @gemm_small
// VEC: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<32x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<32x24xf16, #gpu.address_space<workgroup>>)
// VEC: scf.if
// VEC-NEXT: affine.apply
// The f32 GEMM is left alone.
// VEC-LABEL: func.func @gemm_f32
// VEC-NOT: gpu.launch
// VEC: linalg.matmul

// After upstream's nvgpu conversion: cp.async groups, ldmatrix, mma.sync.
// NVGPU-LABEL: func.func @gemm_large
// NVGPU-COUNT-4: nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// NVGPU: nvgpu.device_async_create_group
// NVGPU: nvgpu.device_async_wait
// NVGPU: gpu.barrier
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<32x136xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// NVGPU: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// NVGPU-NOT: vector.contract
// NVGPU-LABEL: func.func @gemm_small

// Fixed tiles: 64x64x16 blocks of 32x32 warp tiles (4 warps).
// TILES-LABEL: func.func @gemm_large
// TILES: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c128, {{.*}}) workgroup({{.*}} : memref<64x24xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<16x72xf16, #gpu.address_space<workgroup>>)
// TILES: scf.for {{.*}} step %c16

// BADTARGET: error: unknown target 'nope'

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
