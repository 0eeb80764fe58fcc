// RUN: ops-nn-opt %s --pass-pipeline="builtin.module(gpu.module(opsnn-gpu-require-block-size))" | FileCheck %s

// A kernel with a known block size states it exactly; a non-kernel
// function, a kernel without a size and one that has .reqntid already are
// left alone.
// CHECK-LABEL: llvm.func @known
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.reqntid = array<i32: 32, 8, 1>
// CHECK-NOT: nvvm.maxntid
// CHECK-LABEL: llvm.func @device_function
// CHECK-SAME: nvvm.maxntid = array<i32: 64, 1, 1>
// CHECK-LABEL: llvm.func @unknown
// CHECK-NOT: ntid
// CHECK-LABEL: llvm.func @required
// CHECK-SAME: nvvm.maxntid = array<i32: 128, 1, 1>
// CHECK-SAME: nvvm.reqntid = array<i32: 64, 1, 1>
gpu.module @kernels {
  llvm.func @known() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 32, 8, 1>} {
    llvm.return
  }
  llvm.func @device_function() attributes {nvvm.maxntid = array<i32: 64, 1, 1>} {
    llvm.return
  }
  llvm.func @unknown() attributes {nvvm.kernel} {
    llvm.return
  }
  llvm.func @required() attributes {nvvm.kernel, nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.reqntid = array<i32: 64, 1, 1>} {
    llvm.return
  }
}
