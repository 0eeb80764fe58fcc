// The tensor-core GEMM kernel's tiled algorithm on the CPU with the tiles
// the heuristic picks for an A100 on a small problem: 32x16x32 blocks (128
// blocks, at least one per SM), 16x8 warp tiles, 4 warps; the B tile has
// fewer 16-byte chunks (64) than threads (128), so its copies are guarded;
// four K steps accumulate in the fragments. Also a non-zero initial C (the
// kernel accumulates into C like linalg.matmul).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// REF: out0 = in0.astype(np.float32) @ in1.astype(np.float32) + in2
// TOL: 1e-5

func.func @mm_acc(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
