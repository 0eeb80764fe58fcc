// A loss-scaled training step (the linear-layer backward of the executed CPU
// test, with its f16 gradients and dynamic batch) lowered with
// --opsnn-lower-to-nvvm: the scaling, the unscale-and-check reductions and the
// backward kernels must assemble with ptxas for sm_80 and sm_90, and the
// GradScaler update stays in host code.
// REQUIRES: ptxas
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/loss-scaling.mlir --opsnn-loss-scaling="growth-interval=3" --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s
// RUN: ops-nn-opt %opsnn_src_root/test/Integration/CPU/loss-scaling.mlir --opsnn-loss-scaling --opsnn-lower-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=HOST

// CHECK: OK linear_backward_kernel{{.*}} sm_80: {{[0-9]+}} registers, {{.*}}, 0 B spill stores, 0 B spill loads
// CHECK: OK linear_backward_kernel{{.*}} sm_90: {{[0-9]+}} registers, {{.*}}, 0 B spill stores, 0 B spill loads
// CHECK-NOT: FAIL

// The host entry takes the scale and tracker memrefs and checks the grown
// scale for finiteness (GradScaler keeps the old scale when growth overflows).
// HOST: llvm.func @linear_backward(
// HOST: "llvm.intr.is.fpclass"(%{{.+}}) <{bit = 504 : i32}> : (f32) -> i1
