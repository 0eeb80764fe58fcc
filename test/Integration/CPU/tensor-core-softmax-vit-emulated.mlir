// ViT-B/16's attention scores (197 tokens: the 196 patches and the class
// token; 2 heads of 64 here) with their softmax in the scores' kernel,
// emulated on the CPU against NumPy: rows of 197 take 256-wide blocks
// (rule 9 of the tile heuristic), a ragged M and an odd N, P cast to f16.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: s = np.einsum('hik,hjk->hij', in0, in1) * np.float32(0.125)
// REF: e = np.exp(s - s.max(-1, keepdims=True))
// REF: out0 = ref.quantize(e / e.sum(-1, keepdims=True), np.float16)
// (The kernel adds a row's exponentials in parts: a few f16 roundings of
// P differ from the reference's.)
// TOL: 1e-4

// One kernel; its row tile 256 columns wide (+ 2).
// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK: memref.alloc() : memref<{{[0-9]+}}x258xf32>
// CHECK: math.exp
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.generic
// CHECK: return

#id = affine_map<(h, i, j) -> (h, i, j)>
func.func @vit_scores(%q: tensor<2x197x64xf16>, %k: tensor<2x197x64xf16>) -> tensor<2x197x197xf16> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<2x197x197xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x197x197xf32>) -> tensor<2x197x197xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(h, i, j, k) -> (h, i, k)>, affine_map<(h, i, j, k) -> (h, j, k)>, affine_map<(h, i, j, k) -> (h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x197x64xf16>, tensor<2x197x64xf16>) outs(%f0 : tensor<2x197x197xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x197x197xf32>
  %e1 = tensor.empty() : tensor<2x197x197xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : tensor<2x197x197xf32>) outs(%e1 : tensor<2x197x197xf32>) {
  ^bb0(%s: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    linalg.yield %x : f32
  } -> tensor<2x197x197xf32>
  %e2 = tensor.empty() : tensor<2x197x197xf32>
  %probs = linalg.softmax dimension(2) ins(%scaled : tensor<2x197x197xf32>) outs(%e2 : tensor<2x197x197xf32>) -> tensor<2x197x197xf32>
  %e3 = tensor.empty() : tensor<2x197x197xf16>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%probs : tensor<2x197x197xf32>) outs(%e3 : tensor<2x197x197xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x197x197xf16>
  return %p : tensor<2x197x197xf16>
}
