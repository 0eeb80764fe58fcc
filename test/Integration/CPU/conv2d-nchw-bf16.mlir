// RUN: %check %s
// A strided conv_2d_nchw_fchw on bf16 inputs accumulating in f32, as
// --opsnn-assign-precision="mode=mixed-bf16" leaves it (the named op): the
// CPU pipeline runs it as loops (--opsnn-tile-and-vectorize-cpu does not
// vectorize channels-first bf16 convolutions: x86 instruction selection
// aborted on the transposed bf16 vectors). Found by scripts/fuzz_graphs.py.
// REF: out0 = ref.conv_nc(ref.quantize(in0, ref.bf16), ref.quantize(in1, ref.bf16), strides=[2, 2])
// TOL: 1e-6

func.func @conv(%xf: tensor<2x6x11x9xf32>, %wf: tensor<6x6x1x1xf32>) -> tensor<2x6x6x5xf32> {
  %x = arith.truncf %xf : tensor<2x6x11x9xf32> to tensor<2x6x11x9xbf16>
  %w = arith.truncf %wf : tensor<6x6x1x1xf32> to tensor<6x6x1x1xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x6x5xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  %y = linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x6x11x9xbf16>, tensor<6x6x1x1xbf16>) outs(%a : tensor<2x6x6x5xf32>) -> tensor<2x6x6x5xf32>
  return %y : tensor<2x6x6x5xf32>
}
