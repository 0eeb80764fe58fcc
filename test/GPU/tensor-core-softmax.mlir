// Attention's scores and their softmax in one tensor-core kernel, checked
// without a GPU: Q K^T per (batch, head) of BERT-base's shape at batch 8
// (8 x 12 heads of 128 x 128 x 64), scaled, masked per (batch, key), normalized over the keys and cast
// to f16 for P V. The kernel covers whole rows (64 x 128 blocks) and
// normalizes them in an f32 row tile in the shared memory its stages used
// (33.5 KiB; two threads per row): no scores in f32 in global memory, no
// softmax kernels. It
// assembles for sm_80 and sm_90 without spills. The arithmetic runs on the
// CPU in Integration/CPU/tensor-core-softmax{,-rows}-emulated.mlir.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-fuse-softmax=false" | %ptxas_check --arch sm_80 | FileCheck %s --check-prefix=APART
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,32,32,32" --canonicalize | FileCheck %s --check-prefix=NARROW
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="fuse-softmax=false" --canonicalize | FileCheck %s --check-prefix=NARROW

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK attention_kernel/attention_kernel sm_80: {{[0-9]+}} registers, 34304 B smem
// PTXAS: OK attention_kernel/attention_kernel sm_90: {{[0-9]+}} registers, 34304 B smem
// PTXAS-NOT: attention_kernel_0
// ViT-B's 197 tokens: one kernel of 256-wide blocks.
// PTXAS: OK vit_scores_kernel/vit_scores_kernel sm_80
// PTXAS: OK vit_scores_kernel/vit_scores_kernel sm_90
// PTXAS-NOT: vit_scores_kernel_0

// One kernel: cp.async tiles, mma.sync, exp (ex2), the f16 pairs stored.
// PTX-LABEL: gpu.binary @attention_kernel
// PTX: cp.async.cg.shared.global
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: ex2.approx
// PTX: st.global.b32
// PTX-NOT: gpu.binary @attention_kernel_0

// The softmax apart: the scores' kernel, then the softmax's (a warp per
// row).
// APART: OK attention_kernel/attention_kernel sm_80
// APART: OK attention_kernel_0/attention_kernel sm_80

// NVGPU-LABEL: func.func @attention
// NVGPU: gpu.launch
// NVGPU-SAME: workgroup(%[[SMEM:.+]] : memref<34304xi8, #gpu.address_space<workgroup>>)
// NVGPU: %[[TILE:.+]] = memref.view %[[SMEM]][%{{.+}}][] : memref<34304xi8, #gpu.address_space<workgroup>> to memref<64x130xf32, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.mma.sync
// NVGPU: gpu.barrier
// NVGPU: vector.store %{{.+}}, %[[TILE]][%{{.+}}, %{{.+}}] {alignment = 8 : i64} : memref<64x130xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// NVGPU: gpu.barrier
// NVGPU: %[[PARTS:.+]] = memref.view %[[SMEM]][%{{.+}}][] : memref<34304xi8, #gpu.address_space<workgroup>> to memref<2x128xf32, #gpu.address_space<workgroup>>
// NVGPU: scf.for
// NVGPU: arith.maxnumf
// NVGPU: memref.store %{{.+}}, %[[PARTS]][%c0
// NVGPU: gpu.barrier
// NVGPU: arith.maxnumf
// NVGPU: math.exp
// NVGPU: memref.store %{{.+}}, %[[PARTS]][%c1
// NVGPU: gpu.barrier
// NVGPU: vector.load %{{.+}} {alignment = 8 : i64} : memref<64x130xf32, #gpu.address_space<workgroup>>, vector<2xf32>
// NVGPU: arith.divf
// NVGPU: arith.truncf
// NVGPU: vector.store {{.+}} {alignment = 4 : i64} : memref<12288x128xf16>, vector<2xf16>
// NVGPU: gpu.terminator
// NVGPU-NOT: linalg.
// NVGPU: return

// Blocks narrower than the rows, or fuse-softmax=false: the kernel takes
// the scale and the mask, the softmax follows on buffers.
// NARROW-LABEL: func.func @attention
// NARROW: gpu.launch
// NARROW: gpu.terminator
// NARROW: linalg.softmax dimension(3)
// NARROW: linalg.generic
// NARROW: arith.truncf

#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#key = affine_map<(b, h, i, j) -> (b, j)>
func.func @attention(%q: tensor<8x12x128x64xf16>, %k: tensor<8x12x128x64xf16>,
                     %mask: tensor<8x128xf32>) -> tensor<8x12x128x128xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<8x12x128x128xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x12x128x128xf32>) -> tensor<8x12x128x128xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<8x12x128x64xf16>, tensor<8x12x128x64xf16>) outs(%f0 : tensor<8x12x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x12x128x128xf32>
  %e1 = tensor.empty() : tensor<8x12x128x128xf32>
  %masked = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %mask : tensor<8x12x128x128xf32>, tensor<8x128xf32>) outs(%e1 : tensor<8x12x128x128xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    %y = arith.addf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<8x12x128x128xf32>
  %e2 = tensor.empty() : tensor<8x12x128x128xf32>
  %probs = linalg.softmax dimension(3) ins(%masked : tensor<8x12x128x128xf32>) outs(%e2 : tensor<8x12x128x128xf32>) -> tensor<8x12x128x128xf32>
  %e3 = tensor.empty() : tensor<8x12x128x128xf16>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs : tensor<8x12x128x128xf32>) outs(%e3 : tensor<8x12x128x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x12x128x128xf16>
  return %p : tensor<8x12x128x128xf16>
}

// ViT-B/16's scores, 2 heads of 197 tokens (see
// Integration/CPU/tensor-core-softmax-vit-emulated.mlir).
#hid = affine_map<(h, i, j) -> (h, i, j)>
func.func @vit_scores(%q: tensor<2x197x64xf16>, %k: tensor<2x197x64xf16>) -> tensor<2x197x197xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<2x197x197xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x197x197xf32>) -> tensor<2x197x197xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, j, k)>, affine_map<(h, i, j, k) -> (h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x197x64xf16>, tensor<2x197x64xf16>) outs(%f0 : tensor<2x197x197xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x197x197xf32>
  %e1 = tensor.empty() : tensor<2x197x197xf32>
  %scaled = linalg.generic {indexing_maps = [#hid, #hid], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x197x197xf32>) outs(%e1 : tensor<2x197x197xf32>) {
  ^bb0(%s: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    linalg.yield %x : f32
  } -> tensor<2x197x197xf32>
  %e2 = tensor.empty() : tensor<2x197x197xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<2x197x197xf32>) outs(%e2 : tensor<2x197x197xf32>) -> tensor<2x197x197xf32>
  %e3 = tensor.empty() : tensor<2x197x197xf16>
  %p = linalg.generic {indexing_maps = [#hid, #hid], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%probs : tensor<2x197x197xf32>) outs(%e3 : tensor<2x197x197xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x197x197xf16>
  return %p : tensor<2x197x197xf16>
}
