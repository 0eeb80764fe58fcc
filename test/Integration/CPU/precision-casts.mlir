// RUN: %check %s
// Storage in bf16, FP8 E4M3FN and FP8 E5M2 (casts through precision.cast,
// FP8 emulated on the CPU), a bf16 x bf16 matmul accumulating in f32, and
// GradScaler-style unscaling. The reference rounds with ml_dtypes, so the
// tolerance only covers f32 accumulation order.
// REF: out0 = ref.quantize(in0, ref.bf16)
// REF: out1 = ref.quantize(in0, ref.f8e4m3fn)
// REF: out2 = ref.quantize(in0, ref.f8e5m2)
// REF: out3 = ref.quantize(in0, ref.bf16) @ ref.quantize(in1, ref.bf16)
// REF: out4 = ref.quantize(ref.quantize(in0 * 1024, np.float16) / 1024, np.float16)
// TOL: 1e-6

func.func @casts(%x: tensor<16x24xf32>, %y: tensor<24x8xf32>)
    -> (tensor<16x24xf32>, tensor<16x24xf32>, tensor<16x24xf32>, tensor<16x8xf32>, tensor<16x24xf32>) {
  %b = precision.cast %x : tensor<16x24xf32> to tensor<16x24xbf16>
  %b32 = precision.cast %b : tensor<16x24xbf16> to tensor<16x24xf32>
  %q = precision.cast %x : tensor<16x24xf32> to tensor<16x24xf8E4M3FN>
  %q32 = precision.cast %q : tensor<16x24xf8E4M3FN> to tensor<16x24xf32>
  %r = precision.cast %x : tensor<16x24xf32> to tensor<16x24xf8E5M2>
  %r32 = precision.cast %r : tensor<16x24xf8E5M2> to tensor<16x24xf32>

  %yb = precision.cast %y : tensor<24x8xf32> to tensor<24x8xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul ins(%b, %yb : tensor<16x24xbf16>, tensor<24x8xbf16>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>

  // Loss scaling round trip in f16: scale by 1024, unscale, check.
  %s = arith.constant 1024.0 : f32
  %h = precision.cast %x : tensor<16x24xf32> to tensor<16x24xf16>
  %hs = precision.scale %x by %s : tensor<16x24xf32>
  %hs16 = precision.cast %hs : tensor<16x24xf32> to tensor<16x24xf16>
  %u:2 = precision.unscale_and_check %hs16 by %s : tensor<16x24xf16>
  %u32 = precision.cast %u#0 : tensor<16x24xf16> to tensor<16x24xf32>
  return %b32, %q32, %r32, %mm, %u32 : tensor<16x24xf32>, tensor<16x24xf32>, tensor<16x24xf32>, tensor<16x8xf32>, tensor<16x24xf32>
}
