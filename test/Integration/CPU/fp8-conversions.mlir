// RUN: %check %s
// FP8 conversions, bit for bit against ml_dtypes: every one of the 256
// codes of E4M3FN and E5M2 widened to f32 (NaN included), and a sweep of
// f32 values (every representable value, every tie, values next to the
// ties, subnormals, overflow, infinities, NaN) narrowed to each format.
// INPUT0: np.arange(256, dtype=np.uint8).view(np.int8)
// INPUT1: ref.fp8_sweep(ref.f8e4m3fn)
// INPUT2: ref.fp8_sweep(ref.f8e5m2)
// REF: codes = np.arange(256, dtype=np.uint8)
// REF: out0 = codes.view(ref.f8e4m3fn).astype(np.float32)
// REF: out1 = codes.view(ref.f8e5m2).astype(np.float32)
// REF: out2 = in1.astype(np.float32).astype(ref.f8e4m3fn).view(np.int8)
// REF: out3 = in2.astype(np.float32).astype(ref.f8e5m2).view(np.int8)
// REF: out4 = in1.astype(np.float32).astype(ref.f8e4m3fn).astype(np.float16)
// TOL: 0

func.func @fp8(%codes: tensor<256xi8>, %x: tensor<1024xf32>, %y: tensor<1024xf32>)
    -> (tensor<256xf32>, tensor<256xf32>, tensor<1024xi8>, tensor<1024xi8>, tensor<1024xf16>) {
  %q4 = arith.bitcast %codes : tensor<256xi8> to tensor<256xf8E4M3FN>
  %w4 = arith.extf %q4 : tensor<256xf8E4M3FN> to tensor<256xf32>
  %q5 = arith.bitcast %codes : tensor<256xi8> to tensor<256xf8E5M2>
  %w5 = arith.extf %q5 : tensor<256xf8E5M2> to tensor<256xf32>
  %n4 = arith.truncf %x : tensor<1024xf32> to tensor<1024xf8E4M3FN>
  %b4 = arith.bitcast %n4 : tensor<1024xf8E4M3FN> to tensor<1024xi8>
  %n5 = arith.truncf %y : tensor<1024xf32> to tensor<1024xf8E5M2>
  %b5 = arith.bitcast %n5 : tensor<1024xf8E5M2> to tensor<1024xi8>
  // FP8 -> f16 directly (exact).
  %h = arith.extf %n4 : tensor<1024xf8E4M3FN> to tensor<1024xf16>
  return %w4, %w5, %b4, %b5, %h : tensor<256xf32>, tensor<256xf32>, tensor<1024xi8>, tensor<1024xi8>, tensor<1024xf16>
}
