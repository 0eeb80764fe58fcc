// Thresholds that cannot mean anything: a clear error on the function (its
// location), exit code 1, never a silent all-FP32 or all-low result.
// (mode, underflow-fraction and lists errors: assign-precision.mlir.)
// RUN: not ops-nn-opt %s --opsnn-assign-precision="overflow-threshold=-1" 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// RUN: not ops-nn-opt %s --opsnn-assign-precision="overflow-threshold=nan" 2>&1 | FileCheck %s --check-prefix=OVERFLOWNAN
// RUN: not ops-nn-opt %s --opsnn-assign-precision="underflow-threshold=-1e-8" 2>&1 | FileCheck %s --check-prefix=UNDERFLOW
// RUN: not ops-nn-opt %s --opsnn-assign-precision="underflow-threshold=1e6" 2>&1 | FileCheck %s --check-prefix=UNDERBIG
// RUN: not ops-nn-opt %s --opsnn-assign-precision="overflow-threshold=big" 2>&1 | FileCheck %s --check-prefix=PARSE

// OVERFLOW: assign-precision-invalid.mlir:[[# @LINE + 6]]:1: error: opsnn-assign-precision: overflow-threshold must be positive, got -1
// OVERFLOWNAN: error: opsnn-assign-precision: overflow-threshold must be positive, got nan
// UNDERFLOW: error: opsnn-assign-precision: underflow-threshold must be in [0, overflow-threshold), got -1e-08
// UNDERBIG: error: opsnn-assign-precision: underflow-threshold must be in [0, overflow-threshold), got 1e+06
// PARSE: for the --overflow-threshold option: 'big' value invalid for floating point argument!

func.func @f(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
