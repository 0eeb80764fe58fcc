// RUN: ops-nn-opt %s --opsnn-lower-to-cpu | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="vectorize=false" | FileCheck %s --check-prefix=SCALAR

// The CPU pipeline leaves nothing but the LLVM dialect: layout and precision
// ops, linalg, tensors, vectors and FP8 casts all lowered, the FP8 casts
// without runtime calls. (Numerics are
// checked by executing: test/Integration/CPU.)
// CHECK-LABEL: llvm.func @block
// CHECK-NOT: layout.
// CHECK-NOT: precision.
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.
// CHECK-NOT: memref.
// CHECK-NOT: vector.
// CHECK-NOT: arith.
// CHECK-NOT: scf.
// FP8 casts are integer code, not runtime calls.
// CHECK-NOT: @_mlir_apfloat_convert
// The vectorized matmul uses LLVM vector FMAs.
// CHECK: llvm.intr.fmuladd{{.*}}vector<
// CHECK-NOT: @_mlir_apfloat_convert

// Without vectorization: scalar loops, no vector FMAs.
// SCALAR-LABEL: llvm.func @block
// SCALAR-NOT: vector<
// SCALAR: llvm.return

func.func @block(%x: tensor<1x8x4x4xf32>, %w: tensor<32x16xf32>) -> (tensor<1x4x4x8xf32>, tensor<16x16xf32>) {
  %h = layout.convert %x from "NCHW" to "NHWC" : tensor<1x8x4x4xf32> -> tensor<1x4x4x8xf32>
  %q = precision.cast %w : tensor<32x16xf32> to tensor<32x16xf8E4M3FN>
  %d = precision.cast %q : tensor<32x16xf8E4M3FN> to tensor<32x16xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e2 = tensor.empty() : tensor<16x32xf32>
  %t = linalg.transpose ins(%d : tensor<32x16xf32>) outs(%e2 : tensor<16x32xf32>) permutation = [1, 0]
  %m = linalg.matmul ins(%t, %d : tensor<16x32xf32>, tensor<32x16xf32>) outs(%acc : tensor<16x16xf32>) -> tensor<16x16xf32>
  return %h, %m : tensor<1x4x4x8xf32>, tensor<16x16xf32>
}
