// The tensor-core GEMM kernel's tiled algorithm on the CPU with the tiles
// the heuristic picks for an A100 on a small problem: 32x16x32 blocks (128
// blocks, at least one per SM), 16x8 warp tiles, 4 warps; the B tile has
// fewer 16-byte chunks (64) than threads (128), so its copies are guarded;
// four K steps accumulate in the fragments. Also a non-zero initial C (the
// kernel accumulates into C like linalg.matmul). Three pipeline stages by
// default (K steps k into stage k mod 3, the last one wrapping around);
// two and three explicitly.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=3}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=a100 emulate-on-cpu" --canonicalize | FileCheck %s
// REF: out0 = in0.astype(np.float32) @ in1.astype(np.float32) + in2
// TOL: 1e-5

// The emulation's shared tiles have the stage dimension; the prologue
// fills stages 0 and 1 before the K loop.
// CHECK-LABEL: func.func @mm_acc
// CHECK: memref.alloc() : memref<3x32x40xf16>
// CHECK: memref.alloc() : memref<3x32x24xf16>
// CHECK: vector.transfer_write {{.*}}[%c0, {{.*}}] {{.*}} : vector<8xf16>, memref<3x32x40xf16>
// CHECK: vector.transfer_write {{.*}}[%c1, {{.*}}] {{.*}} : vector<8xf16>, memref<3x32x40xf16>
// CHECK: scf.for {{.*}} = %c0 to %c128 step %c32

func.func @mm_acc(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
