// A post-training-quantized GEMM (--opsnn-quantize: per-tensor i8
// activations from the argument's range, per-channel i8 weights, i32
// accumulation, dequantization to f32) on the INT8 tensor-core kernel: the
// i32 zero fill folds into the accumulators and the dequantization
// (sitofp x per-channel scale) is fused into its stores, so the model is
// two kernels (quantize the activations; GEMM + dequantize). The generic
// path has two as well (its fill, scalar GEMM and dequantization share a
// loop: --opsnn-fuse-parallel-loops), without tensor cores.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=int8}),opsnn-lower-to-nvvm{chip=sm_80 tensor-cores=true})" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=int8}),opsnn-lower-to-nvvm{chip=sm_80 tensor-cores=true})" | FileCheck %s
// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=int8}),opsnn-lower-to-nvvm{chip=sm_80})" | %ptxas_check --arch sm_80 | FileCheck %s --check-prefix=GENERIC

// PTXAS-NOT: FAIL
// PTXAS: OK qmm_kernel/qmm_kernel sm_80
// PTXAS: OK qmm_kernel_0/qmm_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: qmm_kernel_1
// PTXAS-NOT: FAIL

// The constant i8 weight is stored N x K at compile time
// (--opsnn-transpose-byte-weights): both tiles come by cp.async, none is
// transposed byte by byte into shared memory.
// CHECK-LABEL: gpu.binary @qmm_kernel_0
// CHECK-NOT: st.shared.b8
// CHECK-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// CHECK-NOT: st.shared.b8
// CHECK-SAME: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// CHECK-SAME: cvt.rn.f32.s32
// CHECK-NOT: gpu.binary @qmm_kernel_1

// GENERIC: OK qmm_kernel_0/qmm_kernel sm_80
// GENERIC-NOT: qmm_kernel_1
func.func @qmm(%x: tensor<256x64xf32> {precision.range = #precision.range<min = -1.0, max = 1.0, min_abs_nonzero = 0.01>}) -> tensor<256x128xf32> {
  %w = arith.constant dense<0.5> : tensor<64x128xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%x, %w : tensor<256x64xf32>, tensor<64x128xf32>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}
