// RUN: %check %s
// INT8 x INT8 matmul accumulating in i32: exact.
// VALUES: int [-128, 127]
// REF: out0 = in0.astype(np.int64) @ in1.astype(np.int64)
// TOL: 0

func.func @mm(%a: tensor<17x64xi8>, %b: tensor<64x24xi8>) -> tensor<17x24xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<17x24xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<17x24xi32>) -> tensor<17x24xi32>
  %c = linalg.matmul ins(%a, %b : tensor<17x64xi8>, tensor<64x24xi8>) outs(%acc : tensor<17x24xi32>) -> tensor<17x24xi32>
  return %c : tensor<17x24xi32>
}
