// The warpgroup (wgmma) kernel for Hopper, checked without a GPU:
// --opsnn-lower-to-nvvm="chip=sm_90a" runs FP16/BF16 GEMMs on
// nvgpu.warpgroup.mma (wgmma.mma_async m64nNk16) over tiles that cp.async
// copies into the 128-byte swizzled layout, fenced for the async proxy; B
// stored K x N is read transposed. B stored N x K (an FHWC filter, a
// weight stored [out, in]) is read K-major as A is, by NVVM's own wgmma
// ops, one per 64-row slice and 32 bytes of K, one fence, commit and wait
// per K step: FP16/BF16, FP8 (m64nNk32 .e4m3), TF32 (m64nNk8 .tf32, the
// descriptors of tf32 tensors over f32 tiles) and INT8 (m64nNk32
// .s32.s8.s8, its accumulators stored to an i32 row tile). ptxas for
// sm_90a assembles them without spills. Attention's scores with their
// softmax (K stored N x K, a fill of zero) run on it too, the softmax over
// its row tile. What the kernel does not take (an 8-bit B stored K x N,
// which is transposed while it is copied; TF32 with B K x N) keeps
// mma.sync; chip=sm_90 is the mma.sync kernel throughout; the option needs
// an sm_90 target.
// REQUIRES: ptxas
// RUN: rm -rf %t && ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90a tensor-cores=true" | %ptxas_check --arch sm_90a --ptx-dir %t | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --input-file=%t/gemm_f16_kernel.ptx --check-prefix=F16
// RUN: FileCheck %s --input-file=%t/gemm_f16_kernel.ptx --check-prefix=F16N
// RUN: FileCheck %s --input-file=%t/gemm_bf16_kernel.ptx --check-prefix=BF16
// RUN: FileCheck %s --input-file=%t/gemm_i8_kernel.ptx --check-prefix=I8
// RUN: FileCheck %s --input-file=%t/gemm_tf32_kernel.ptx --check-prefix=TF32
// RUN: FileCheck %s --input-file=%t/conv_fhwc_kernel.ptx --check-prefix=CONV
// RUN: FileCheck %s --input-file=%t/gemm_fp8_nk_kernel.ptx --check-prefix=FP8NK
// RUN: FileCheck %s --input-file=%t/gemm_fp8_kn_kernel.ptx --check-prefix=FP8KN
// RUN: FileCheck %s --input-file=%t/scores_softmax_kernel.ptx --check-prefix=SOFTMAX
// RUN: FileCheck %s --input-file=%t/gemm_tf32_nk_kernel.ptx --check-prefix=TF32NK
// RUN: FileCheck %s --input-file=%t/conv_i8_nk_kernel.ptx --check-prefix=I8NK
// RUN: FileCheck %s --input-file=%t/scores_wide_kernel.ptx --check-prefix=WIDE
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | FileCheck %s --check-prefix=HOPPER-MMA
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90a tensor-cores=true format=ptx tensor-core-wgmma-group-in-flight=false" | FileCheck %s --check-prefix=PIPEWAIT
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true" --canonicalize | FileCheck %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true stages=2" --canonicalize | FileCheck %s --check-prefix=S2
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true stages=1" --canonicalize | FileCheck %s --check-prefix=S1
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true wgmma-group-in-flight=false" --canonicalize | FileCheck %s --check-prefix=WAIT
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true tiles=64,64,32,32,32" --canonicalize | FileCheck %s --check-prefix=TILES
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=a100 warpgroup-mma=true" 2>&1 | FileCheck %s --check-prefix=BADTARGET

// Eleven kernels, every one assembled for sm_90a without spills.
// PTXAS-COUNT-11: OK {{.*}} sm_90a: {{[0-9]+}} registers, {{.*}} 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL

// The f16 GEMM with its bias + ReLU + f16 cast epilogue: 128x128 blocks of
// one warpgroup, 4 k16 wgmmas per 64-wide K step and 64-row half (8 per
// step), the copies fenced for the async proxy before the barrier; each
// step's group left in flight (wait_group 1: the previous step's group
// done) and, after a barrier, the next step's copies into the stage that
// group read; the last group waited for (wait_group 0) after the loop; the
// epilogue's f16 pairs stored as 4-byte words. (The blocks of the loop
// come in any order.)
// F16-DAG: .target sm_90a
// F16-DAG: .reqntid 128, 1, 1
// F16-DAG: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// F16-DAG: cp.async.wait_group
// F16-DAG: fence.proxy.async.shared::cta;
// F16-DAG: wgmma.fence.sync.aligned;
// F16-DAG: wgmma.commit_group.sync.aligned;
// F16-DAG: wgmma.wait_group.sync.aligned{{[[:space:]]+}}1;
// F16-DAG: wgmma.wait_group.sync.aligned{{[[:space:]]+}}0;
// F16-DAG: st.global.b32
// F16N-NOT: {{mma.sync|ldmatrix}}
// F16N-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// F16N-NOT: {{wgmma.mma_async|mma.sync|ldmatrix}}
// BF16-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// The FHWC filter and the FP8 B stored N x K: K-major B, no transpose
// immediates for FP8.
// CONV-NOT: mma.sync
// CONV: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CONV-NOT: mma.sync
// FP8NK-NOT: mma.sync
// FP8NK: wgmma.fence.sync.aligned;
// FP8NK-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1;
// FP8NK: wgmma.commit_group.sync.aligned;
// FP8NK-NEXT: wgmma.wait_group.sync.aligned{{[[:space:]]+}}1;
// FP8NK-NEXT: bar.sync
// FP8NK-NOT: mma.sync
// INT8 with a filter stored FHWC: 64x64 blocks, 4 wgmmas per K step (128
// bytes), saturating as the mma.sync kernel's.
// I8NK-NOT: mma.sync
// I8NK: wgmma.fence.sync.aligned;
// I8NK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8.satfinite {{{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p;
// I8NK: wgmma.commit_group.sync.aligned;
// I8NK-NEXT: wgmma.wait_group.sync.aligned{{[[:space:]]+}}1;
// I8NK-NEXT: bar.sync
// I8NK: wgmma.wait_group.sync.aligned{{[[:space:]]+}}0;
// I8NK-NEXT: bar.sync
// I8NK-NOT: mma.sync
// Scores over 256 keys (BERT at sequence 256): 64x256 blocks, m64n256k16
// (128 accumulators a thread), the softmax over the row tile.
// WIDE-NOT: mma.sync
// WIDE-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// WIDE: ex2.approx
// WIDE-NOT: mma.sync
// BERT-base's scores (128 keys: BN = 128 covers the rows), 4 k16 wgmmas
// per 64-wide K step; the softmax's exp in the same kernel.
// SOFTMAX-NOT: mma.sync
// SOFTMAX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// SOFTMAX: ex2.approx
// TF32 with a weight stored [out, in]: 4 k8 wgmmas per 32-wide K step.
// TF32NK-NOT: mma.sync
// TF32NK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32
// TF32NK-NOT: mma.sync
// The i8, TF32 and FP8 K x N kernels: mma.sync (an 8-bit B is transposed
// while it is copied).
// FP8KN-NOT: wgmma
// FP8KN: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// I8-NOT: wgmma
// I8: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// TF32-NOT: wgmma
// TF32: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

// HOPPER-MMA-NOT: wgmma
// HOPPER-MMA: .target sm_90
// HOPPER-MMA-NOT: wgmma

// The pipeline's tensor-core-wgmma-group-in-flight=false: every group
// waited for (the PTX strings escape the tab as \09).
// PIPEWAIT-NOT: wgmma.wait_group.sync.aligned \091;
// PIPEWAIT: wgmma.wait_group.sync.aligned \090;
// PIPEWAIT-NOT: wgmma.wait_group.sync.aligned \091;

// Before the NVVM lowering: tiles rounded to 1024 bytes in dynamic shared
// memory, chunks swizzled by XOR, descriptors of each stage's tiles, the
// accumulators stored to the row tile and read back by the epilogue.
// CHECK: #[[$ALIGN:.*]] = affine_map<()[s0] -> ((-s0) mod 1024)>
// CHECK-LABEL: func.func @gemm_f16
// CHECK: gpu.launch
// CHECK-SAME: threads({{.*}}) in ({{.*}} = %c128,
// CHECK-SAME: dynamic_shared_memory_size %c99328_i32
// CHECK: gpu.dynamic_shared_memory
// CHECK: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: affine.apply #[[$ALIGN]]()[%[[BASE]]]
// CHECK: memref<3x128x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref<3x128x64xf16, #gpu.address_space<workgroup>>
// CHECK: memref<128x132xf32, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.mma.init.accumulator -> <fragmented = vector<128x128xf32>>
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}} : memref<128x64xf16, #gpu.address_space<workgroup>>, <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x128xf16, #gpu.address_space<workgroup>>, <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// (waitGroup = 1, the op's default, is not printed.)
// CHECK: nvgpu.warpgroup.mma {{.*}} {transposeB} :
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.warpgroup.mma.store {{.*}} to memref<128x128xf32, strided<[132, 1]>, #gpu.address_space<workgroup>>
// CHECK-NEXT: gpu.barrier
// CHECK: vector.load {{.*}} : memref<128x132xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// CHECK: arith.maximumf
// CHECK: arith.truncf
// CHECK: vector.store {{.*}} : memref<1536x1536xf16>, vector<2xf16>
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @gemm_bf16
// CHECK: nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<64x64xf32>>
// CHECK-LABEL: func.func @gemm_i8
// CHECK-NOT: nvgpu.warpgroup
// CHECK: nvgpu.mma.sync
// An N x K B: per K step, one nvvm.wgmma.mma_async per 64-row slice and
// 32 bytes of K (2 x 4 for FP8's 128-byte rows), each on descriptors of
// where it reads, B K-major (col); one fence before them, one commit and
// one wait after. The accumulators are wgmma's D registers, one struct per
// slice, stored through nvgpu's store.
// CHECK-LABEL: func.func @conv_fhwc
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: nvgpu.mma.sync
// CHECK-LABEL: func.func @gemm_fp8_nk
// CHECK-NOT: nvgpu.warpgroup.mma.init.accumulator
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(f32,
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]], %{{.*}} = %[[ZERO]],
// One descriptor per operand and step, the stage's first wgmma's; the
// others add to its start address (16-byte units): slice 1 at +8192
// bytes (512), K at +32 bytes (2) per wgmma.
// CHECK: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor {{.*}} : memref<64x32xf8E4M3FN, #gpu.address_space<workgroup>>, <tensor = memref<64x128xf8E4M3FN, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// CHECK: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor {{.*}} : memref<32x128xf8E4M3FN, #gpu.address_space<workgroup>>, <tensor = memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// CHECK-NOT: nvgpu.warpgroup.generate.descriptor
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: %[[A0:.*]] = builtin.unrealized_conversion_cast %[[DA]] {{.*}} to i64
// CHECK: %[[B0:.*]] = builtin.unrealized_conversion_cast %[[DB]] {{.*}} to i64
// CHECK: nvvm.wgmma.mma_async %[[A0]], %[[B0]],
// CHECK: %[[A1:.*]] = arith.addi %[[A0]], %c512_i64 : i64
// CHECK: nvvm.wgmma.mma_async %[[A1]], %[[B0]],
// CHECK: %[[A2:.*]] = arith.addi %[[A0]], %c2_i64 : i64
// CHECK: %[[B2:.*]] = arith.addi %[[B0]], %c2_i64 : i64
// CHECK: nvvm.wgmma.mma_async %[[A2]], %[[B2]],
// CHECK: arith.addi %[[A0]], %c514_i64 : i64
// CHECK-COUNT-5: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NEXT: gpu.barrier
// CHECK: builtin.unrealized_conversion_cast {{.*}} to !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
// CHECK: nvgpu.warpgroup.mma.store {{.*}} to memref<64x128xf32, strided<[132, 1]>, #gpu.address_space<workgroup>>
// CHECK: nvgpu.warpgroup.mma.store {{.*}} to memref<64x128xf32, strided<[132, 1], offset: 8448>, #gpu.address_space<workgroup>>
// CHECK-LABEL: func.func @gemm_fp8_kn
// CHECK-NOT: nvgpu.warpgroup
// CHECK: return
// The scores' softmax on the warpgroup's row tile (BM x (BN + 2)), after
// its accumulators are stored there.
// CHECK-LABEL: func.func @gemm_tf32_nk
// CHECK: nvgpu.warpgroup.generate.descriptor {{.*}} : memref<8x64xf32, #gpu.address_space<workgroup>>, {{.*}} -> <tensor = memref<8x64xtf32, #gpu.address_space<workgroup>>>
// CHECK: nvvm.wgmma.mma_async {{.*}} D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
// CHECK-LABEL: func.func @scores_softmax
// CHECK: nvvm.wgmma.mma_async
// CHECK: nvgpu.warpgroup.mma.store {{.*}} to memref<64x128xf32, strided<[130, 1]>, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: arith.maxnumf
// CHECK: gpu.barrier
// CHECK: math.exp
// CHECK: gpu.barrier
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax
// INT8: s32 accumulators, their bits stored through an f32 view of the
// row tile and read back through an i32 one by the dequantizing epilogue.
// CHECK-LABEL: func.func @conv_i8_nk
// CHECK: %[[ZERO:.*]] = llvm.mlir.zero : !llvm.struct<(i32,
// CHECK: %[[I32TILE:.*]] = memref.view {{.*}} to memref<64x68xi32, #gpu.address_space<workgroup>>
// CHECK: %[[F32TILE:.*]] = memref.view {{.*}} to memref<64x68xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]],
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 64, k = 32>, D[<s32>, <one>, <satfinite>], A[<s8>, <one>, <row>], B[<s8>, <one>, <col>]
// CHECK: memref.subview %[[F32TILE]]
// CHECK: llvm.bitcast {{.*}} : i32 to f32
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: vector.load %[[I32TILE]]{{.*}} vector<2xi32>
// CHECK: arith.sitofp {{.*}} : vector<2xi32> to vector<2xf32>
// CHECK: arith.maximumf
// CHECK: vector.store {{.*}} : memref<2048x512xf32>, vector<2xf32>

// A forced depth; fixed tiles are the mma.sync kernel's.
// S2-LABEL: func.func @gemm_f16
// S2: dynamic_shared_memory_size %c68608_i32
// S2: memref<2x128x64xf16, #gpu.address_space<workgroup>>
// S2: nvgpu.warpgroup.mma {{.*}} {transposeB} :
// One stage: no copies to overlap; every group waited for.
// S1-LABEL: func.func @gemm_f16
// S1-NOT: nvvm.wgmma.wait.group
// S1: nvgpu.warpgroup.mma {{.*}} {transposeB, waitGroup = 0 : i64}
// S1-NOT: nvvm.wgmma.wait.group
// S1-LABEL: func.func @conv_fhwc
// S1-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// S1: nvvm.wgmma.wait.group.sync.aligned 0
// S1-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// wgmma-group-in-flight=false: each step waits for its group before the
// copies, which come first, as on mma.sync.
// WAIT-LABEL: func.func @gemm_f16
// WAIT: scf.for
// WAIT: nvgpu.device_async_copy
// WAIT: nvgpu.warpgroup.mma {{.*}} {transposeB, waitGroup = 0 : i64}
// WAIT-NEXT: scf.yield
// WAIT-LABEL: func.func @conv_fhwc
// WAIT: nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT-NEXT: scf.yield
// TILES-LABEL: func.func @gemm_f16
// TILES-NOT: nvgpu.warpgroup
// TILES: nvgpu.mma.sync

// BADTARGET: error: warpgroup-mma needs a target whose chip is sm_90 (wgmma is Hopper's, sm_90a), got 'a100' (sm_80)

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

func.func @gemm_f16(%a: tensor<1536x256xf16>, %b: tensor<256x1536xf16>, %bias: tensor<1536xf32>) -> tensor<1536x1536xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1536x1536xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  %c = linalg.matmul ins(%a, %b : tensor<1536x256xf16>, tensor<256x1536xf16>) outs(%acc : tensor<1536x1536xf32>) -> tensor<1536x1536xf32>
  %eh = tensor.empty() : tensor<1536x1536xf16>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<1536x1536xf32>, tensor<1536xf32>) outs(%eh : tensor<1536x1536xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    %h = arith.truncf %m : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1536x1536xf16>
  return %r : tensor<1536x1536xf16>
}

func.func @gemm_bf16(%a: tensor<128x64xbf16>, %b: tensor<64x128xbf16>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

func.func @gemm_i8(%a: tensor<128x64xi8>, %b: tensor<64x128xi8>) -> tensor<128x128xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<128x128xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<128x128xi32>) -> tensor<128x128xi32>
  %c = linalg.matmul ins(%a, %b : tensor<128x64xi8>, tensor<64x128xi8>) outs(%acc : tensor<128x128xi32>) -> tensor<128x128xi32>
  return %c : tensor<128x128xi32>
}

func.func @gemm_tf32(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul {opsnn.tf32} ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

func.func @conv_fhwc(%x: tensor<2x16x16x64xf16>, %w: tensor<64x3x3x64xf16>) -> tensor<2x14x14x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x14x14x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<2x16x16x64xf16>, tensor<64x3x3x64xf16>) outs(%acc : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  return %c : tensor<2x14x14x64xf32>
}

func.func @gemm_fp8_nk(%x: tensor<1x32x64x256xf8E4M3FN>, %w: tensor<2048x1x1x256xf8E4M3FN>) -> tensor<1x32x64x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x32x64x2048xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64x2048xf32>) -> tensor<1x32x64x2048xf32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x32x64x256xf8E4M3FN>, tensor<2048x1x1x256xf8E4M3FN>) outs(%acc : tensor<1x32x64x2048xf32>) -> tensor<1x32x64x2048xf32>
  return %c : tensor<1x32x64x2048xf32>
}

func.func @gemm_fp8_kn(%a: tensor<128x128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) outs(%acc : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

func.func @gemm_tf32_nk(%a: tensor<256x256xf32>, %b: tensor<192x256xf32>) -> tensor<256x192xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x192xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x192xf32>) -> tensor<256x192xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<256x256xf32>, tensor<192x256xf32>) outs(%acc : tensor<256x192xf32>) attrs = {opsnn.tf32} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x192xf32>
  return %c : tensor<256x192xf32>
}

func.func @scores_softmax(%q: tensor<1x12x128x64xf16>, %k: tensor<1x12x128x64xf16>) -> tensor<1x12x128x128xf16> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<1x12x128x128xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x12x128x64xf16>, tensor<1x12x128x64xf16>) outs(%f0 : tensor<1x12x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x12x128x128xf32>
  %e1 = tensor.empty() : tensor<1x12x128x128xf32>
  %probs = linalg.softmax dimension(3) ins(%scores : tensor<1x12x128x128xf32>) outs(%e1 : tensor<1x12x128x128xf32>) -> tensor<1x12x128x128xf32>
  %e2 = tensor.empty() : tensor<1x12x128x128xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs : tensor<1x12x128x128xf32>) outs(%e2 : tensor<1x12x128x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1x12x128x128xf16>
  return %p : tensor<1x12x128x128xf16>
}

func.func @conv_i8_nk(%x: tensor<1x32x64x256xi8>, %w: tensor<512x1x1x256xi8>) -> tensor<1x32x64x512xf32> {
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %scale = arith.constant 0.01 : f32
  %e = tensor.empty() : tensor<1x32x64x512xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<1x32x64x512xi32>) -> tensor<1x32x64x512xi32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%x, %w : tensor<1x32x64x256xi8>, tensor<512x1x1x256xi8>) outs(%acc : tensor<1x32x64x512xi32>) -> tensor<1x32x64x512xi32>
  %ef = tensor.empty() : tensor<1x32x64x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x32x64x512xi32>) outs(%ef : tensor<1x32x64x512xf32>) {
  ^bb0(%v: i32, %o: f32):
    %f = arith.sitofp %v : i32 to f32
    %s = arith.mulf %f, %scale : f32
    %m = arith.maximumf %s, %fzero : f32
    linalg.yield %m : f32
  } -> tensor<1x32x64x512xf32>
  return %r : tensor<1x32x64x512xf32>
}

func.func @scores_wide(%q: tensor<96x256x64xf16>, %k: tensor<96x256x64xf16>) -> tensor<96x256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<96x256x256xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<96x256x256xf32>) -> tensor<96x256x256xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, j, k)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<96x256x64xf16>, tensor<96x256x64xf16>) outs(%f0 : tensor<96x256x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<96x256x256xf32>
  %e1 = tensor.empty() : tensor<96x256x256xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<96x256x256xf32>) outs(%e1 : tensor<96x256x256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    linalg.yield %x : f32
  } -> tensor<96x256x256xf32>
  %e2 = tensor.empty() : tensor<96x256x256xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<96x256x256xf32>) outs(%e2 : tensor<96x256x256xf32>) -> tensor<96x256x256xf32>
  %e3 = tensor.empty() : tensor<96x256x256xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%probs : tensor<96x256x256xf32>) outs(%e3 : tensor<96x256x256xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<96x256x256xf16>
  return %p : tensor<96x256x256xf16>
}
