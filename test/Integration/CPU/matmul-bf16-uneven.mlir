// RUN: %check %s
// A bf16 matmul with 9 columns accumulating in f32 (the classifier of a
// graph scripts/fuzz_graphs.py made in mixed BF16): the CPU pipeline runs
// it as loops, since x86 instruction selection aborted on its <9 x bfloat>
// vectors (--opsnn-tile-and-vectorize-cpu leaves bf16 operands with a
// dimension that is not a power of two unvectorized). Against NumPy on the
// bf16-rounded inputs.
// REF: out0 = ref.quantize(in0, ref.bf16) @ ref.quantize(in1, ref.bf16)
// TOL: 1e-6

func.func @classifier(%af: tensor<3x160xf32>, %bf: tensor<160x9xf32>) -> tensor<3x9xf32> {
  %a = arith.truncf %af : tensor<3x160xf32> to tensor<3x160xbf16>
  %b = arith.truncf %bf : tensor<160x9xf32> to tensor<160x9xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x9xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x9xf32>) -> tensor<3x9xf32>
  %y = linalg.matmul ins(%a, %b : tensor<3x160xbf16>, tensor<160x9xbf16>) outs(%f : tensor<3x9xf32>) -> tensor<3x9xf32>
  return %y : tensor<3x9xf32>
}
