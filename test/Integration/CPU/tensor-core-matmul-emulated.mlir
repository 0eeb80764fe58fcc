// The tensor-core GEMM kernel's tiled algorithm, run on the CPU: the same
// block tiles, 16-byte copy distribution over threads, warp tiles and
// m16n8k16 fragment contractions as --opsnn-gpu-tensor-core-matmul emits
// for the GPU, as sequential loops (emulate-on-cpu), checked against NumPy.
// Target "host" (2 SMs) picks the big tiles: 128x128x32 blocks, 64x32 warp
// tiles, 8 warps (256 threads), two K steps, four blocks. The truncation
// and the bias add take the ordinary path. The heuristic's pipeline has two
// stages here (K = 64 is two K steps of 32); three stages force BK = 16
// (four K steps, the copies of step k+2 into stage (k+2) mod 3).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-stages=2}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-stages=3}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=host" | FileCheck %s
// REF: out0 = (in0.astype(np.float32) @ in1.astype(np.float32) + in2).astype(np.float16)
// TOL: 1e-3

// The emulated kernel reached the LLVM dialect: no linalg.matmul left.
// CHECK: llvm.func @mm_bias
// CHECK-NOT: linalg.matmul

func.func @mm_bias(%a: tensor<256x64xf16>, %b: tensor<64x256xf16>, %bias: tensor<256xf32>) -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %eh = tensor.empty() : tensor<256x256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%eh : tensor<256x256xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}
