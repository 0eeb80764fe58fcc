// RUN: ops-nn-opt %s --opsnn-decompose-aggregated-ops | FileCheck %s

// Softmax over dimension 1: max-reduce, exp(x - max), sum-reduce, divide.
// CHECK-LABEL: func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x6x5xf32>) -> tensor<2x6x5xf32> {
  %e = tensor.empty() : tensor<2x6x5xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x6x5xf32>) outs(%e : tensor<2x6x5xf32>) -> tensor<2x6x5xf32>
  return %s : tensor<2x6x5xf32>
}

// Nothing else changes.
// CHECK-LABEL: func @no_aggregates
// CHECK-NEXT: return %arg0
func.func @no_aggregates(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
