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

// On buffers (a softmax the tensor-core kernel kept and did not absorb):
// the same steps, the row maxima then the row sums in one row buffer.
// CHECK-LABEL: func @softmax_on_buffers
// CHECK-SAME: (%[[IN:.+]]: memref<4x6xf32>, %[[OUT:.+]]: memref<4x6xf32>)
// CHECK: %[[ROWS:.+]] = memref.alloc() : memref<4xf32>
// CHECK: %[[NAN:.+]] = arith.constant 0xFFC00000 : f32
// CHECK: linalg.fill ins(%[[NAN]] : f32) outs(%[[ROWS]] : memref<4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[IN]] : memref<4x6xf32>) outs(%[[ROWS]] : memref<4xf32>)
// CHECK: arith.maxnumf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} ins(%[[IN]], %[[ROWS]] : memref<4x6xf32>, memref<4xf32>) outs(%[[OUT]] : memref<4x6xf32>)
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: linalg.fill ins(%[[ZERO]] : f32) outs(%[[ROWS]] : memref<4xf32>)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[OUT]] : memref<4x6xf32>) outs(%[[ROWS]] : memref<4xf32>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}ins(%[[OUT]], %[[ROWS]] : memref<4x6xf32>, memref<4xf32>) outs(%[[OUT]] : memref<4x6xf32>)
// CHECK: arith.divf
// CHECK: memref.dealloc %[[ROWS]] : memref<4xf32>
// CHECK-NOT: linalg.softmax
func.func @softmax_on_buffers(%in: memref<4x6xf32>, %out: memref<4x6xf32>) {
  linalg.softmax dimension(1) ins(%in : memref<4x6xf32>) outs(%out : memref<4x6xf32>)
  return
}

// Dynamic sizes: the row buffer takes the input's.
// CHECK-LABEL: func @softmax_on_dynamic_buffers
// CHECK-SAME: (%[[IN:.+]]: memref<?x6xf32>, %[[OUT:.+]]: memref<?x6xf32>)
// CHECK: %[[N:.+]] = memref.dim %[[IN]], %{{.+}} : memref<?x6xf32>
// CHECK: %[[ROWS:.+]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: memref.dealloc %[[ROWS]] : memref<?xf32>
func.func @softmax_on_dynamic_buffers(%in: memref<?x6xf32>, %out: memref<?x6xf32>) {
  linalg.softmax dimension(1) ins(%in : memref<?x6xf32>) outs(%out : memref<?x6xf32>)
  return
}
