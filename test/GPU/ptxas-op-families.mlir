// Every op family of the executed CPU tests, lowered with
// --opsnn-lower-to-nvvm for sm_80 and for sm_90: each kernel's PTX must
// assemble with ptxas for both architectures.
// REQUIRES: ptxas
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/conv2d-nchw.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/conv2d-nchw-dilated.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/conv2d-nhwc.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/conv2d-depthwise-grouped.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/conv3d.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/pooling.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/pooling3d.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/matmul.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/matmul-int8.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/matmul-f16.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/elementwise.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/reductions.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/layouts.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/dynamic-shapes.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/precision-casts.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/fp8-conversions.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/examples/resnet_block.mlir --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/examples/resnet_block.mlir --opsnn-lower-to-nvvm="chip=sm_90" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=SM90
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/matmul.mlir --opsnn-lower-to-nvvm="chip=sm_90" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=SM90

// CHECK: OK {{.*}} sm_80: {{[0-9]+}} registers, {{.*}}, 0 B spill stores, 0 B spill loads
// CHECK: OK {{.*}} sm_90: {{[0-9]+}} registers, {{.*}}, 0 B spill stores, 0 B spill loads
// CHECK-NOT: FAIL
// SM90: OK {{.*}} sm_90: {{[0-9]+}} registers
// SM90-NOT: FAIL
