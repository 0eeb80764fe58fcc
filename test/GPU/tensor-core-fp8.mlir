// A post-training-quantized GEMM in FP8 (--opsnn-quantize type=fp8: E4M3FN
// activations and weights, f32 accumulation, the scales' product applied
// after) on the FP8 tensor-core kernel of sm_89 and later: mma.sync
// m16n8k32 .e4m3 (.e5m2) into f32, A and B read by ldmatrix as the f16
// fragments whose registers they share (two FP8 codes per f16), both tiles
// by cp.async (the constant weight is stored N x K at compile time:
// --opsnn-transpose-byte-weights). The zero fill folds into the
// accumulators and the rescale is fused into the stores: two kernels
// (quantize the activations; GEMM + rescale). sm_80 has no FP8 mma.sync:
// its GEMM stays on the generic path. FP8 mma.sync needs PTX ISA 8.4.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_90 tensor-cores=true})" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_89 tensor-cores=true})" | %ptxas_check --arch sm_89 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_90 tensor-cores=true})" | FileCheck %s --check-prefixes=CHECK,E4M3
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8 fp8-format=e5m2}),opsnn-lower-to-nvvm{chip=sm_90 tensor-cores=true})" | FileCheck %s --check-prefixes=CHECK,E5M2
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_80 tensor-cores=true})" | %ptxas_check --arch sm_80 | FileCheck %s --check-prefix=AMPERE
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_80 tensor-cores=true})" | FileCheck %s --check-prefix=AMPERE-PTX
// The emulated test's FP8 GEMMs and convolution (E4M3 and E5M2 inputs,
// K x N and FHWC B, ragged M, fused bias + ReLU), assembled: every kernel
// without spills, the three contractions on FP8 mma.sync.
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/tensor-core-fp8-emulated.mlir --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=DIRECT --implicit-check-not=FAIL --implicit-check-not="{{[1-9][0-9]*}} B spill"
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/tensor-core-fp8-emulated.mlir --opsnn-lower-to-nvvm="chip=sm_89 tensor-cores=true" | %ptxas_check --arch sm_89 | FileCheck %s --check-prefix=DIRECT --implicit-check-not=FAIL --implicit-check-not="{{[1-9][0-9]*}} B spill"
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/tensor-core-fp8-emulated.mlir --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | FileCheck %s --check-prefix=DIRECT-PTX
// The FP8 convolution of the quantization test, on sm_90.
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/quantize-conv.mlir --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_90 tensor-cores=true})" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=DIRECT --implicit-check-not=FAIL --implicit-check-not="{{[1-9][0-9]*}} B spill"

// PTXAS-NOT: FAIL
// PTXAS: OK qmm_kernel/qmm_kernel sm_{{89|90}}
// PTXAS: OK qmm_kernel_0/qmm_kernel sm_{{89|90}}: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: qmm_kernel_1
// PTXAS-NOT: FAIL

// CHECK-LABEL: gpu.binary @qmm_kernel_0
// CHECK-SAME: .version 8.4
// CHECK-NOT: st.shared.b8
// CHECK-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// CHECK-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: ldmatrix.sync.aligned.m8n8.x4.trans
// E4M3-SAME: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// E5M2-SAME: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
// CHECK-NOT: gpu.binary @qmm_kernel_1

// The sm_80 GEMM: no mma.sync, still two kernels.
// AMPERE-NOT: FAIL
// AMPERE: OK qmm_kernel_0/qmm_kernel sm_80
// AMPERE-NOT: qmm_kernel_1
// AMPERE-PTX-LABEL: gpu.binary @qmm_kernel_0
// AMPERE-PTX-SAME: .version 8.0
// AMPERE-PTX-NOT: mma.sync
// DIRECT: OK {{.*}}: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack

// DIRECT-PTX-COUNT-2: mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// DIRECT-PTX: mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32
func.func @qmm(%x: tensor<256x64xf32> {precision.range = #precision.range<min = -1.0, max = 1.0, min_abs_nonzero = 0.01>}) -> tensor<256x128xf32> {
  %w = arith.constant dense<0.5> : tensor<64x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x128xf32>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
