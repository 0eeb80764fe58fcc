// RUN: %check %s
// RUN: %check --pipeline="func.func(opsnn-propagate-layouts),opsnn-lower-to-cpu" %s
// Matmul operand transposes, as written (a transpose copy, a transposed
// map on a constant weight) and after propagation (the copy folded into
// the matmul's map, the weight transposed at compile time).
// REF: w = np.array([[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]])
// REF: out0 = (in0.T @ in1) @ w.T
// TOL: 1e-5

func.func @mm(%a: tensor<5x7xf32>, %b: tensor<5x3xf32>) -> tensor<7x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1.0, 2.0, 0.5], [3.0, 4.0, -1.0]]> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<7x5xf32>
  %at = linalg.transpose ins(%a : tensor<5x7xf32>) outs(%e : tensor<7x5xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<7x3xf32>
  %acc1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<7x3xf32>) -> tensor<7x3xf32>
  %m1 = linalg.matmul ins(%at, %b : tensor<7x5xf32>, tensor<5x3xf32>) outs(%acc1 : tensor<7x3xf32>) -> tensor<7x3xf32>
  %e2 = tensor.empty() : tensor<7x2xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<7x2xf32>) -> tensor<7x2xf32>
  %m2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%m1, %w : tensor<7x3xf32>, tensor<2x3xf32>) outs(%acc2 : tensor<7x2xf32>) -> tensor<7x2xf32>
  return %m2 : tensor<7x2xf32>
}
