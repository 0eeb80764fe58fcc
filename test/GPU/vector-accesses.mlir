// Elementwise kernels of the generic GPU path with vector accesses
// (--opsnn-vectorize-parallel-loops, on by default in the pipeline): each
// thread loads and stores up to 16 bytes of consecutive elements, one
// ld.global.v4 / st.global.v4 per operand, instead of one element. With
// vectorize-accesses=false, the one-element kernels of before.
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" | %ptxas_check --arch sm_80 --arch sm_90 --ptx-dir %t.wide | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=WIDE < %t.wide/bias_relu_residual_kernel.ptx
// RUN: FileCheck %s --check-prefix=SHORT < %t.wide/short_rows_kernel.ptx
// RUN: FileCheck %s --check-prefix=MERGED < %t.wide/merged_rows_kernel.ptx
// RUN: FileCheck %s --check-prefix=POOL < %t.wide/global_pool_kernel.ptx
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_75 format=ptx" | %ptxas_check --arch sm_75 | FileCheck %s --check-prefix=PTXAS75
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx vectorize-accesses=false" | %ptxas_check --arch sm_80 --ptx-dir %t.scalar
// RUN: FileCheck %s --check-prefix=SCALAR < %t.scalar/bias_relu_residual_kernel.ptx

// PTXAS-COUNT-8: 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS75-COUNT-4: 0 B spill stores, 0 B spill loads, 0 B stack

// NHWC, C = 256: x (f32) and the bias as two 16-byte halves each, the f16
// residual and the f16 result as one 16-byte access.
// (The images, N = 2, are a loop in the thread, which LLVM unrolls.)
// WIDE-LABEL: .entry bias_relu_residual_kernel
// WIDE-COUNT-5: ld.global.v4.b32
// WIDE-NOT: ld.global
// WIDE: st.global.v4.b32
// WIDE-COUNT-5: ld.global.v4.b32
// WIDE-NOT: ld.global
// WIDE: st.global.v4.b32
// WIDE-NOT: {{ld|st}}.global
// SCALAR-LABEL: .entry bias_relu_residual_kernel
// SCALAR-NOT: .v4
// SCALAR: ld.global.b32
// SCALAR: ld.global.b32
// SCALAR: ld.global.b16
// SCALAR: st.global.b16
func.func @bias_relu_residual(%x: tensor<2x8x8x256xf32>, %b: tensor<256xf32>, %r: tensor<2x8x8x256xf16>) -> tensor<2x8x8x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x256xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b, %r : tensor<2x8x8x256xf32>, tensor<256xf32>, tensor<2x8x8x256xf16>)
      outs(%e : tensor<2x8x8x256xf16>) {
  ^bb0(%a: f32, %bb: f32, %rr: f16, %o: f16):
    %s = arith.addf %a, %bb : f32
    %m = arith.maximumf %s, %zero : f32
    %re = arith.extf %rr : f16 to f32
    %t = arith.addf %m, %re : f32
    %h = arith.truncf %t : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x8x8x256xf16>
  return %y : tensor<2x8x8x256xf16>
}

// C = 64 f16 with a per-channel scale: two elements (4 bytes) per thread,
// so that a row still has the 32 vectors of a block's x threads: one
// 4-byte access (a .b32 of two f16) per operand. Without the scale (every access reads whole
// rows) the rows merge with W (64 x 8 = 512) and take 16 bytes.
// (The images, N = 2, are unrolled as above.)
// SHORT-LABEL: .entry short_rows_kernel
// SHORT-COUNT-2: ld.global.b32
// SHORT-NOT: ld.global
// SHORT: st.global.b32
// SHORT-COUNT-2: ld.global.b32
// SHORT-NOT: ld.global
// SHORT: st.global.b32
// SHORT-NOT: st.global
// SHORT-NOT: .b16
func.func @short_rows(%x: tensor<2x8x8x64xf16>, %s: tensor<64xf16>) -> tensor<2x8x8x64xf16> {
  %e = tensor.empty() : tensor<2x8x8x64xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>,
                       affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : tensor<2x8x8x64xf16>, tensor<64xf16>) outs(%e : tensor<2x8x8x64xf16>) {
  ^bb0(%a: f16, %k: f16, %o: f16):
    %m = arith.mulf %a, %k : f16
    linalg.yield %m : f16
  } -> tensor<2x8x8x64xf16>
  return %y : tensor<2x8x8x64xf16>
}

// MERGED-LABEL: .entry merged_rows_kernel
// MERGED: ld.global.v4.b32
// MERGED-NOT: ld.global
// MERGED: st.global.v4.b32
func.func @merged_rows(%x: tensor<2x8x8x64xf16>) -> tensor<2x8x8x64xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x8x8x64xf16>
  %y = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x8x8x64xf16>) outs(%e : tensor<2x8x8x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.maximumf %a, %zero : f16
    linalg.yield %m : f16
  } -> tensor<2x8x8x64xf16>
  return %y : tensor<2x8x8x64xf16>
}

// NHWC global average pooling's sum, f16 into f32 (a loop over the pixels
// inside each thread): 8 channels per thread, one 16-byte load per pixel,
// 8 accumulators, the 8 sums as two 16-byte stores; the fused zero fill
// is the accumulators' initial value and stores nothing
// (--opsnn-promote-accumulators erases its overwritten store).
// POOL-LABEL: .entry global_pool_kernel
// POOL-NOT: st.global
// POOL: ld.global.v4.b32
// POOL-NOT: ld.global.b16
// POOL-COUNT-2: st.global.v4.b32
// POOL-NOT: st.global
func.func @global_pool(%x: tensor<8x7x7x512xf16>) -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, h, w, c)>, affine_map<(n, c, h, w) -> (n, c)>],
                       iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<8x7x7x512xf16>) outs(%f : tensor<8x512xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8x512xf32>
  return %r : tensor<8x512xf32>
}
