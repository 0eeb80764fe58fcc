// Attention's scores with their softmax over rows of 129 to 256 keys on the
// warpgroup (wgmma) kernel, emulated on the CPU against NumPy: Q K^T per
// (batch, head) with 200 keys (a ragged M and N; ViT-B has 197), scaled
// and normalized over the keys. No 128-wide block covers the rows: the
// kernel takes 64 x 256 blocks (one 64-row slice, BN = 256), its row tile
// 64 x (256 + 2) over the stages; h100 tiles, then two stages forced
// (head dimension 128: two K steps).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: s = np.einsum('bhik,bhjk->bhij', in0, in1) * np.float32(0.125)
// REF: e = np.exp(s - s.max(-1, keepdims=True))
// REF: out0 = e / e.sum(-1, keepdims=True)
// TOL: 1e-5

// One kernel: the warpgroup's swizzled tiles (Q as 64 rows of 64; K as
// 256 rows of 64), the whole-rows row tile (64 x 258) and its partials
// (2 parts per row), no fragments, no softmax kernel.
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: vector.contract
// CHECK-DAG: memref.alloc() : memref<{{[12]}}x64x64xf16>
// CHECK-DAG: memref.alloc() : memref<{{[12]}}x256x64xf16>
// CHECK-DAG: memref.alloc() : memref<64x258xf32>
// CHECK-DAG: memref.alloc() : memref<2x128xf32>
// CHECK-NOT: vector.contract
// CHECK-NOT: linalg.softmax
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK: return

func.func @wide_scores(%q: tensor<2x2x200x128xf16>, %k: tensor<2x2x200x128xf16>)
    -> tensor<2x2x200x200xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<2x2x200x200xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x2x200x200xf32>) -> tensor<2x2x200x200xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x2x200x128xf16>, tensor<2x2x200x128xf16>) outs(%f0 : tensor<2x2x200x200xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x2x200x200xf32>
  %e1 = tensor.empty() : tensor<2x2x200x200xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>, affine_map<(b, h, i, j) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x2x200x200xf32>) outs(%e1 : tensor<2x2x200x200xf32>) {
  ^bb0(%s: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    linalg.yield %x : f32
  } -> tensor<2x2x200x200xf32>
  %e2 = tensor.empty() : tensor<2x2x200x200xf32>
  %probs = linalg.softmax dimension(3) ins(%scaled : tensor<2x2x200x200xf32>) outs(%e2 : tensor<2x2x200x200xf32>) -> tensor<2x2x200x200xf32>
  return %probs : tensor<2x2x200x200xf32>
}
