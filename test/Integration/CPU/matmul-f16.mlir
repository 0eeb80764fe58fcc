// RUN: %check %s
// f16 inputs and outputs, f32 accumulation (casts inside the named op).
// REF: out0 = (in0 @ in1).astype(np.float16)
// TOL: 1e-3

func.func @mm(%a: tensor<32x48xf16>, %b: tensor<48x40xf16>) -> tensor<32x40xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x40xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x40xf32>) -> tensor<32x40xf32>
  %c = linalg.matmul ins(%a, %b : tensor<32x48xf16>, tensor<48x40xf16>) outs(%acc : tensor<32x40xf32>) -> tensor<32x40xf32>
  %h = arith.truncf %c : tensor<32x40xf32> to tensor<32x40xf16>
  return %h : tensor<32x40xf16>
}
