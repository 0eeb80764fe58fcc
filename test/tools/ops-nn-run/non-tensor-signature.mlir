// Only ranked tensors cross the boundary: other argument types are refused
// with the argument named.
// RUN: not ops-nn-run %s 2>&1 | FileCheck %s
// CHECK: ops-nn-run: error: argument #1 has type f32; only ranked tensors can be passed in and out

func.func @scale(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
