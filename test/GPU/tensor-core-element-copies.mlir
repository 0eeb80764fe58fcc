// Tensor-core kernels on operands whose rows are not whole 16-byte copies
// and on N that is not a multiple of 8, checked without a GPU (the
// arithmetic runs on the CPU in
// Integration/CPU/tensor-core-element-copies-emulated.mlir, same cases:
// ViT attention over 17 tokens, a 10-class head, K = 20 / N = 17 GEMMs,
// TF32 K = 6 / N = 5, INT8 K = 20 / N = 17, C read with K = 20). Such an
// operand is copied element by element (plain 2-, 4- or 1-byte loads and
// shared stores, each under its bounds check) while the others keep their
// 16-byte cp.async; every kernel assembles for sm_80 and sm_90 without
// spills. An odd N splits each lane's pair of product columns into two
// stores, each under its own `col < N`.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-tf32=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-tf32=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="allow-tf32" --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90a tensor-cores=true tensor-core-tf32=true" | %ptxas_check --arch sm_90a | FileCheck %s --check-prefix=HOPPER
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90a tensor-cores=true tensor-core-tf32=true" | FileCheck %s --check-prefix=HOPPER-PTX

// On sm_90a the warpgroup (wgmma) kernel takes element copies too (of A
// or B): each element stored in the swizzled tile where its 16-byte chunk
// lands, fenced for the async proxy with the step's cp.async copies. The
// six FP16 GEMMs run on wgmma; TF32 with a B stored K x N and INT8 (B
// transposed while copied) keep mma.sync. All assemble for sm_90a without
// spills.
// HOPPER-NOT: FAIL
// HOPPER-COUNT-8: OK element_copies_kernel{{(_[0-6])?}}/element_copies_kernel sm_90a: {{[0-9]+}} registers, {{.*}} 0 B spill stores, 0 B spill loads, 0 B stack
// HOPPER-NOT: FAIL
// HOPPER-PTX: gpu.binary @element_copies_kernel {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// HOPPER-PTX: gpu.binary @element_copies_kernel_0 {{.*}}ld.global.b16{{.*}}st.shared.b16{{.*}}fence.proxy.async.shared::cta{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// HOPPER-PTX: gpu.binary @element_copies_kernel_1 {{.*}}ld.global.b16{{.*}}st.shared.b16{{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// HOPPER-PTX: gpu.binary @element_copies_kernel_2 {{.*}}wgmma.mma_async
// HOPPER-PTX: gpu.binary @element_copies_kernel_3 {{.*}}wgmma.mma_async
// HOPPER-PTX: gpu.binary @element_copies_kernel_4 {{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// HOPPER-PTX: gpu.binary @element_copies_kernel_5 {{.*}}mma.sync.aligned
// HOPPER-PTX: gpu.binary @element_copies_kernel_6 {{.*}}wgmma.mma_async

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS-COUNT-16: OK element_copies_kernel{{(_[0-6])?}}/element_copies_kernel sm_{{80|90}}: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}

// The scores: Q and K by cp.async (rows of 8 f16), the stores scalar. P V:
// P by 2-byte loads, V by cp.async. The TF32 and INT8 GEMMs: 4- and 1-byte
// loads. All eight contractions have mma.sync.
// PTX: gpu.binary @element_copies_kernel {{.*}}cp.async.cg.shared.global{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: gpu.binary @element_copies_kernel_0 {{.*}}ld.global.b16{{.*}}st.shared.b16{{.*}}cp.async.cg.shared.global{{.*}}mma.sync.aligned.m16n8k16
// PTX: gpu.binary @element_copies_kernel_1 {{.*}}mma.sync.aligned.m16n8k16
// PTX: gpu.binary @element_copies_kernel_2 {{.*}}ld.global.b16{{.*}}mma.sync.aligned.m16n8k16
// PTX: gpu.binary @element_copies_kernel_3 {{.*}}mma.sync.aligned.m16n8k16
// PTX: gpu.binary @element_copies_kernel_4 {{.*}}ld.global.b32{{.*}}st.shared.b32{{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX: gpu.binary @element_copies_kernel_5 {{.*}}ld.global.b8{{.*}}st.shared.b8{{.*}}mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// PTX: gpu.binary @element_copies_kernel_6 {{.*}}mma.sync.aligned.m16n8k16

// Before the nvgpu lowering's end: the scores' grid covers 17 keys in 3
// block columns of 8; each lane's pair of columns is two one-element
// stores under col < 17 and col + 1 < 17, the scaling inside; P's copies
// load single elements under k < 17.
// NVGPU-LABEL: func.func @element_copies
// NVGPU: gpu.launch blocks({{.*}}) in ({{.*}} = %c3, {{.*}} = %c2, {{.*}} = %c4)
// NVGPU: nvgpu.mma.sync
// NVGPU: arith.cmpi ult, %{{.*}}, %c17 : index
// NVGPU: scf.if
// NVGPU: arith.mulf {{.*}} : vector<1xf32>
// NVGPU: vector.store {{.*}} : memref<68x17xf32>, vector<1xf32>
// NVGPU: %[[C1:.*]] = arith.addi %{{.*}}, %c1 : index
// NVGPU: arith.cmpi ult, %[[C1]], %c17 : index
// NVGPU: scf.if
// NVGPU: arith.mulf {{.*}} : vector<1xf32>
// NVGPU: vector.store {{.*}} : memref<68x17xf32>, vector<1xf32>
// NVGPU: gpu.launch
// NVGPU: arith.cmpi slt, %{{.*}}, %c17 : index
// NVGPU: memref.load {{.*}} : memref<17x17xf16, strided<[17, 1], offset: ?>>
// NVGPU: memref.store {{.*}} : memref<{{.*}}xf16, #gpu.address_space<workgroup>>
// NVGPU: return

func.func @element_copies(%q: tensor<1x17x4x8xf16>, %k: tensor<1x17x4x8xf16>,
                          %p: tensor<1x4x17x17xf16>, %v: tensor<1x17x4x8xf16>,
                          %cls: tensor<1x32xf16>, %head: tensor<32x10xf16>, %hb: tensor<10xf32>,
                          %a: tensor<24x20xf16>, %b: tensor<20x17xf16>,
                          %x: tensor<13x24xf16>, %w: tensor<19x24xf16>,
                          %at: tensor<16x6xf32>, %bt: tensor<6x5xf32>,
                          %ai: tensor<32x20xi8>, %bi: tensor<20x17xi8>,
                          %ac: tensor<16x20xf16>, %bc: tensor<20x16xf16>, %c: tensor<16x16xf32>)
    -> (tensor<1x4x17x17xf32>, tensor<1x4x17x8xf32>, tensor<1x10xf32>, tensor<24x17xf32>,
        tensor<13x19xf32>, tensor<16x5xf32>, tensor<32x17xi32>, tensor<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.35355339 : f32

  %es = tensor.empty() : tensor<1x4x17x17xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1x4x17x17xf32>) -> tensor<1x4x17x17xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<1x17x4x8xf16>, tensor<1x17x4x8xf16>) outs(%fs : tensor<1x4x17x17xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x17x17xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x4x17x17xf32>) outs(%es : tensor<1x4x17x17xf32>) {
  ^bb0(%in: f32, %o: f32):
    %t = arith.mulf %in, %scale : f32
    linalg.yield %t : f32
  } -> tensor<1x4x17x17xf32>

  %eo = tensor.empty() : tensor<1x4x17x8xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<1x4x17x8xf32>) -> tensor<1x4x17x8xf32>
  %ctx = linalg.generic {indexing_maps = [affine_map<(b, h, i, d, j) -> (b, h, i, j)>, affine_map<(b, h, i, d, j) -> (b, j, h, d)>,
                                        affine_map<(b, h, i, d, j) -> (b, h, i, d)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<1x4x17x17xf16>, tensor<1x17x4x8xf16>) outs(%fo : tensor<1x4x17x8xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x17x8xf32>

  %eh = tensor.empty() : tensor<1x10xf32>
  %fh = linalg.fill ins(%zero : f32) outs(%eh : tensor<1x10xf32>) -> tensor<1x10xf32>
  %logits = linalg.matmul ins(%cls, %head : tensor<1x32xf16>, tensor<32x10xf16>) outs(%fh : tensor<1x10xf32>) -> tensor<1x10xf32>
  %biased = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%logits, %hb : tensor<1x10xf32>, tensor<10xf32>) outs(%eh : tensor<1x10xf32>) {
  ^bb0(%l: f32, %r: f32, %o: f32):
    %t = arith.addf %l, %r : f32
    linalg.yield %t : f32
  } -> tensor<1x10xf32>

  %e3 = tensor.empty() : tensor<24x17xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<24x17xf32>) -> tensor<24x17xf32>
  %mm3 = linalg.matmul ins(%a, %b : tensor<24x20xf16>, tensor<20x17xf16>) outs(%f3 : tensor<24x17xf32>) -> tensor<24x17xf32>

  %e4 = tensor.empty() : tensor<13x19xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<13x19xf32>) -> tensor<13x19xf32>
  %mm4 = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (i, j)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<13x24xf16>, tensor<19x24xf16>) outs(%f4 : tensor<13x19xf32>) {
  ^bb0(%l: f16, %r: f16, %acc: f32):
    %l32 = arith.extf %l : f16 to f32
    %r32 = arith.extf %r : f16 to f32
    %m = arith.mulf %l32, %r32 : f32
    %sum = arith.addf %acc, %m : f32
    linalg.yield %sum : f32
  } -> tensor<13x19xf32>

  %e5 = tensor.empty() : tensor<16x5xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<16x5xf32>) -> tensor<16x5xf32>
  %mm5 = linalg.matmul ins(%at, %bt : tensor<16x6xf32>, tensor<6x5xf32>) outs(%f5 : tensor<16x5xf32>) -> tensor<16x5xf32>

  %zi = arith.constant 0 : i32
  %e6 = tensor.empty() : tensor<32x17xi32>
  %f6 = linalg.fill ins(%zi : i32) outs(%e6 : tensor<32x17xi32>) -> tensor<32x17xi32>
  %mm6 = linalg.matmul ins(%ai, %bi : tensor<32x20xi8>, tensor<20x17xi8>) outs(%f6 : tensor<32x17xi32>) -> tensor<32x17xi32>

  %mm7 = linalg.matmul ins(%ac, %bc : tensor<16x20xf16>, tensor<20x16xf16>) outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %scaled, %ctx, %biased, %mm3, %mm4, %mm5, %mm6, %mm7
      : tensor<1x4x17x17xf32>, tensor<1x4x17x8xf32>, tensor<1x10xf32>, tensor<24x17xf32>,
        tensor<13x19xf32>, tensor<16x5xf32>, tensor<32x17xi32>, tensor<16x16xf32>
}
