// Rows wider than any tensor-core block (N = 264): the softmax is not
// absorbed (see ../tensor-core-softmax-rows-emulated.mlir).
// REF: s = in0.astype(np.float64) @ in1.astype(np.float64)
// REF: e = np.exp(s - s.max(-1, keepdims=True))
// REF: out0 = e / e.sum(-1, keepdims=True)
// TOL: 1e-6
func.func @wide(%a: tensor<16x16xf16>, %b: tensor<16x264xf16>) -> tensor<16x264xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x264xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x264xf32>) -> tensor<16x264xf32>
  %s = linalg.matmul ins(%a, %b : tensor<16x16xf16>, tensor<16x264xf16>) outs(%f : tensor<16x264xf32>) -> tensor<16x264xf32>
  %e2 = tensor.empty() : tensor<16x264xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x264xf32>) outs(%e2 : tensor<16x264xf32>) -> tensor<16x264xf32>
  return %p : tensor<16x264xf32>
}
