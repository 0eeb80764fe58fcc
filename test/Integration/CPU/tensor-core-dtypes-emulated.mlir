// The tensor-core kernel's BF16 and TF32 forms, run on the CPU
// (emulate-on-cpu) against NumPy: bf16 tiles (8 elements per 16-byte copy)
// with m16n8k16 fragments, and f32 tiles (4 elements per copy, rows padded
// by 4) with m16n8k8 fragments whose operands are rounded to TF32 (to
// nearest, ties away from zero: the GPU kernel's cvt.rna.tf32.f32). The
// references round to bf16 (ml_dtypes) and to TF32 exactly as the kernel
// does, so the tolerance only covers the f32 accumulation order; with the
// TF32 rounding left out of the reference (or truncation in its place) the
// TF32 outputs miss it by two orders of magnitude (3e-4 and 9e-4).
// Matmuls on target "host" (large blocks, 4 warps) and "a100" (one-warp
// blocks, guarded copies); convolutions HWCF and FHWC (a transposed B).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-tf32}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=host emulate-tensor-core-tf32" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// REF: out0 = ref.quantize(in0, ref.bf16) @ ref.quantize(in1, ref.bf16)
// REF: out1 = ref.conv_nhwc_fhwc(ref.quantize(in2, ref.bf16), ref.quantize(in3, ref.bf16))
// REF: out2 = ref.round_tf32(in4).astype(np.float64) @ ref.round_tf32(in5)
// REF: out3 = ref.conv_nhwc_hwcf(ref.round_tf32(in6), ref.round_tf32(in7), strides=[2, 2])
// TOL: 2e-6

// Every contraction took the kernel path: bf16 tiles and fragments of 16,
// f32 tiles and fragments of 8 rounded to TF32.
// CHECK-LABEL: func.func @dtypes
// CHECK-DAG: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xbf16>
// CHECK-DAG: vector.contract {{.*}} : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
// CHECK-DAG: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK-DAG: arith.addi {{.*}} : vector<16x8xi32>
// CHECK-DAG: arith.andi {{.*}} : vector<16x8xi32>
// CHECK-DAG: vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d

func.func @dtypes(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>,
                  %x: tensor<2x10x10x32xf32>, %w: tensor<64x3x3x32xf32>,
                  %a32: tensor<128x96xf32>, %b32: tensor<96x64xf32>,
                  %x32: tensor<1x17x17x16xf32>, %w32: tensor<3x3x16x32xf32>)
    -> (tensor<128x128xf32>, tensor<2x8x8x64xf32>, tensor<128x64xf32>, tensor<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %ab = precision.cast %a : tensor<128x64xf32> to tensor<128x64xbf16>
  %bb = precision.cast %b : tensor<64x128xf32> to tensor<64x128xbf16>
  %e0 = tensor.empty() : tensor<128x128xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  %mm = linalg.matmul ins(%ab, %bb : tensor<128x64xbf16>, tensor<64x128xbf16>) outs(%f0 : tensor<128x128xf32>) -> tensor<128x128xf32>

  %xb = precision.cast %x : tensor<2x10x10x32xf32> to tensor<2x10x10x32xbf16>
  %wb = precision.cast %w : tensor<64x3x3x32xf32> to tensor<64x3x3x32xbf16>
  %e1 = tensor.empty() : tensor<2x8x8x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %conv = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xb, %wb : tensor<2x10x10x32xbf16>, tensor<64x3x3x32xbf16>) outs(%f1 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>

  %e2 = tensor.empty() : tensor<128x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<128x64xf32>) -> tensor<128x64xf32>
  %mm32 = linalg.matmul ins(%a32, %b32 : tensor<128x96xf32>, tensor<96x64xf32>) outs(%f2 : tensor<128x64xf32>) -> tensor<128x64xf32>

  %e3 = tensor.empty() : tensor<1x8x8x32xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %conv32 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x32, %w32 : tensor<1x17x17x16xf32>, tensor<3x3x16x32xf32>) outs(%f3 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %mm, %conv, %mm32, %conv32 : tensor<128x128xf32>, tensor<2x8x8x64xf32>, tensor<128x64xf32>, tensor<1x8x8x32xf32>
}
