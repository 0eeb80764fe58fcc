// Quantized convolutions (INT8: i8 x i8 -> i32 kernels, quant casts lowered
// with rounding; FP8: E4M3FN operands widened in the kernels) lowered with
// --opsnn-lower-to-nvvm: every kernel must assemble with ptxas.
// REQUIRES: ptxas
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/quantize-conv.mlir --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=int8}),opsnn-lower-to-nvvm{chip=sm_80})" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/quantize-conv.mlir --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_80})" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/quantize-embedding.mlir --pass-pipeline="builtin.module(func.func(opsnn-quantize{type=fp8}),opsnn-lower-to-nvvm{chip=sm_80})" | %ptxas_check --arch sm_80 | FileCheck %s

// CHECK: OK {{.*}} sm_80: {{[0-9]+}} registers
// CHECK-NOT: FAIL
