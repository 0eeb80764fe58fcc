// An attention block (Q K^T and P V as batched linalg.generic
// contractions, linalg.softmax between, P cast to f16) through the GPU
// pipeline with tensor cores, checked without a GPU: two kernels, the
// batched GEMMs on mma.sync (gridDim.z over batch x heads), the softmax and
// the cast in Q K^T's (whole rows per block, see tensor-core-softmax.mlir).
// With tensor-core-fuse-softmax=false three: the softmax with the cast as
// one warp-per-row kernel; the softmax's division stays out of P V
// (--opsnn-fuse-elementwise). All assemble for sm_80 and sm_90 without
// spills. The arithmetic runs on the CPU in
// Integration/CPU/attention-emulated.mlir.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=FUSED-PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=FUSED
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-fuse-softmax=false" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-fuse-softmax=false" | FileCheck %s

// FUSED-PTXAS-NOT: FAIL
// FUSED-PTXAS-NOT: {{[1-9][0-9]* B spill}}
// FUSED-PTXAS: OK attn_kernel/attn_kernel sm_80
// FUSED-PTXAS-NEXT: OK attn_kernel/attn_kernel sm_90
// FUSED-PTXAS-NEXT: OK attn_kernel_0/attn_kernel sm_80
// FUSED-PTXAS-NEXT: OK attn_kernel_0/attn_kernel sm_90
// FUSED-PTXAS-NOT: OK

// FUSED-LABEL: gpu.binary @attn_kernel
// FUSED-SAME: %ctaid.z
// FUSED-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FUSED-SAME: ex2.approx
// FUSED-LABEL: gpu.binary @attn_kernel_0
// FUSED-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FUSED-NOT: gpu.binary

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK attn_kernel/attn_kernel sm_80
// PTXAS-NEXT: OK attn_kernel/attn_kernel sm_90
// PTXAS-NEXT: OK attn_kernel_0/attn_kernel sm_80
// PTXAS-NEXT: OK attn_kernel_0/attn_kernel sm_90
// PTXAS-NEXT: OK attn_kernel_1/attn_kernel sm_80
// PTXAS-NEXT: OK attn_kernel_1/attn_kernel sm_90
// PTXAS-NOT: OK

// CHECK-LABEL: gpu.binary @attn_kernel
// CHECK-SAME: %ctaid.z
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// The softmax: each lane reads 8 f32 scores (two 16-byte loads) and
// writes 8 f16 (one 16-byte store), converted in pairs.
// CHECK-LABEL: gpu.binary @attn_kernel_0
// CHECK-SAME: ld.global.v4.b32
// CHECK-SAME: shfl.sync.bfly.b32
// CHECK-SAME: st.global.v4.b32
// CHECK-SAME: cvt.rn.f16x2.f32
// CHECK-NOT: mma.sync
// CHECK-LABEL: gpu.binary @attn_kernel_1
// CHECK-SAME: %ctaid.z
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: gpu.binary

func.func @attn(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) outs(%f : tensor<2x4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x128x128xf32>
  %es = tensor.empty() : tensor<2x4x128x128xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x128x128xf32>) outs(%es : tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %ph = arith.truncf %p : tensor<2x4x128x128xf32> to tensor<2x4x128x128xf16>
  %e2 = tensor.empty() : tensor<2x4x128x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4x128x64xf32>) -> tensor<2x4x128x64xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<2x4x128x128xf16>, tensor<2x4x128x64xf16>) outs(%f2 : tensor<2x4x128x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}
