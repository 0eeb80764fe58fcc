// RUN: %check %s
// matmul (odd sizes) and batch_matmul, f32.
// REF: out0 = in0 @ in1
// REF: out1 = np.matmul(in2, in3)
// TOL: 1e-5

func.func @mm(%a: tensor<7x13xf32>, %b: tensor<13x33xf32>, %x: tensor<3x16x32xf32>, %y: tensor<3x32x24xf32>)
    -> (tensor<7x33xf32>, tensor<3x16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x33xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<7x33xf32>) -> tensor<7x33xf32>
  %c = linalg.matmul ins(%a, %b : tensor<7x13xf32>, tensor<13x33xf32>) outs(%acc : tensor<7x33xf32>) -> tensor<7x33xf32>
  %e2 = tensor.empty() : tensor<3x16x24xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<3x16x24xf32>) -> tensor<3x16x24xf32>
  %d = linalg.batch_matmul ins(%x, %y : tensor<3x16x32xf32>, tensor<3x32x24xf32>) outs(%acc2 : tensor<3x16x24xf32>) -> tensor<3x16x24xf32>
  return %c, %d : tensor<7x33xf32>, tensor<3x16x24xf32>
}
