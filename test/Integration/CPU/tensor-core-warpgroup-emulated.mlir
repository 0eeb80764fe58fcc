// The warpgroup (wgmma, sm_90a) kernel run on the CPU (emulate-on-cpu with
// warpgroup-mma) against NumPy: the cp.async copies into the 128-byte
// swizzled tiles (chunk ^ row mod 8; B in 64-column panels), the
// pipeline's stages, the products read back through the same layout, and
// the epilogue that walks the f32 row tile: C's fill folded or C read, a
// bias + ReLU, ragged M, N and K (also where C is read: the epilogue's
// loads of C are under the stores' guards), an implicit-GEMM convolution
// reading its padded input unpadded, a batch of GEMMs, BF16. h100 and h200 pick their
// tiles (64 or 128 rows and columns), then two stages are forced.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h200 emulate-tensor-core-warpgroup-mma emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// RUN: not ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-warpgroup-mma" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADTARGET
// REF: pad = lambda t: np.pad(t, ((0, 0), (1, 1), (1, 1), (0, 0)))
// REF: out0 = np.maximum(in0 @ in1 + in2, 0)
// REF: out1 = in5 + ref.quantize(in3, ref.bf16) @ ref.quantize(in4, ref.bf16)
// REF: out2 = in6 @ in7
// REF: out3 = ref.conv_nhwc_hwcf(pad(in8), in9, strides=[2, 2])
// REF: out4 = np.einsum('bmk,bkn->bmn', in10, in11)
// REF: out5 = in14 + in12 @ in13
// TOL: 1e-5

// Every contraction took the warpgroup kernel: swizzled tiles of 64
// columns, the f32 row tile, no fragments.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.conv_2d
// CHECK-COUNT-12: memref.alloc() : memref<{{[1-4]}}x{{64|128}}x64x{{f16|bf16}}>
// CHECK-NOT: vector.contract
// CHECK: return

// BADTARGET: error: warpgroup-mma needs a target whose chip is sm_90

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

func.func @warpgroup(%a0: tensor<256x320xf16>, %b0: tensor<320x192xf16>, %bias: tensor<192xf32>,
                     %a1f: tensor<128x192xf32>, %b1f: tensor<192x256xf32>, %c1: tensor<128x256xf32>,
                     %a2: tensor<200x200xf16>, %b2: tensor<200x136xf16>,
                     %x3: tensor<2x15x15x32xf16>, %w3: tensor<3x3x32x64xf16>,
                     %a4: tensor<4x64x96xf16>, %b4: tensor<4x96x64xf16>,
                     %a5: tensor<200x64xf16>, %b5: tensor<64x136xf16>, %c5: tensor<200x136xf32>)
    -> (tensor<256x192xf32>, tensor<128x256xf32>, tensor<200x136xf32>, tensor<2x8x8x64xf32>, tensor<4x64x64xf32>,
        tensor<200x136xf32>) {
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16

  // Bias + ReLU on a folded zero fill.
  %e0 = tensor.empty() : tensor<256x192xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<256x192xf32>) -> tensor<256x192xf32>
  %m0 = linalg.matmul ins(%a0, %b0 : tensor<256x320xf16>, tensor<320x192xf16>) outs(%f0 : tensor<256x192xf32>) -> tensor<256x192xf32>
  %r0 = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m0, %bias : tensor<256x192xf32>, tensor<192xf32>) outs(%e0 : tensor<256x192xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  } -> tensor<256x192xf32>

  // BF16 accumulating into C (C is read).
  %a1 = precision.cast %a1f : tensor<128x192xf32> to tensor<128x192xbf16>
  %b1 = precision.cast %b1f : tensor<192x256xf32> to tensor<192x256xbf16>
  %m1 = linalg.matmul ins(%a1, %b1 : tensor<128x192xbf16>, tensor<192x256xbf16>) outs(%c1 : tensor<128x256xf32>) -> tensor<128x256xf32>

  // Ragged M (200), N (136) and K (200 = 3 x 64 + 8).
  %e2 = tensor.empty() : tensor<200x136xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<200x136xf32>) -> tensor<200x136xf32>
  %m2 = linalg.matmul ins(%a2, %b2 : tensor<200x200xf16>, tensor<200x136xf16>) outs(%f2 : tensor<200x136xf32>) -> tensor<200x136xf32>

  // A padded, strided 3x3 convolution: implicit GEMM, padding folded.
  %p3 = tensor.pad %x3 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %hzero : f16
  } : tensor<2x15x15x32xf16> to tensor<2x17x17x32xf16>
  %e3 = tensor.empty() : tensor<2x8x8x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %m3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p3, %w3 : tensor<2x17x17x32xf16>, tensor<3x3x32x64xf16>) outs(%f3 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>

  // A batch of four GEMMs.
  %e4 = tensor.empty() : tensor<4x64x64xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
  %m4 = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a4, %b4 : tensor<4x64x96xf16>, tensor<4x96x64xf16>) outs(%f4 : tensor<4x64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x64x64xf32>

  // Ragged M and N with C read (no fill to fold).
  %m5 = linalg.matmul ins(%a5, %b5 : tensor<200x64xf16>, tensor<64x136xf16>) outs(%c5 : tensor<200x136xf32>) -> tensor<200x136xf32>

  return %r0, %m1, %m2, %m3, %m4, %m5 : tensor<256x192xf32>, tensor<128x256xf32>, tensor<200x136xf32>, tensor<2x8x8x64xf32>, tensor<4x64x64xf32>,
                                        tensor<200x136xf32>
}
