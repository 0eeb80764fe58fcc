// Attention's scores and their softmax in one tensor-core kernel, emulated
// on the CPU against NumPy: Q K^T per (batch, head) (a batched GEMM of
// 40 x 40 x 32: a ragged M for A100 tiles), scaled, masked per (batch,
// key), normalized over the keys, cast to f16 for P V. The kernel covers
// whole rows (BN >= 40), keeps the scaled scores in its f32 row tile and
// writes only P in f16 and the probabilities in f32 (returned too); no
// scores buffer, no softmax kernel. Also with the host's tiles, on the
// warpgroup kernel (h100 tiles, emulate-tensor-core-warpgroup-mma: K is
// read K-major, the softmax on its row tile), and with the softmax apart
// (fuse-softmax=false: the decomposed softmax kernels).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-fuse-softmax=false emulate-warp-reductions emulate-gpu-loops}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-fuse-softmax=false" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s --check-prefix=APART
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: s = np.einsum('bhik,bhjk->bhij', in0, in1) * np.float32(0.17677669) + in2[:, None, None, :]
// REF: e = np.exp(s - s.max(-1, keepdims=True))
// REF: out1 = e / e.sum(-1, keepdims=True)
// REF: out0 = ref.quantize(out1, np.float16)
// (The kernel adds a row's exponentials in parts: a few f16 roundings of
// P differ from the reference's, 4.9e-4 each.)
// TOL: 1e-4

// One kernel: its f32 row tile and the row parts' partial maxima and sums,
// then the rows' maxima and sums (exp), then the normalized rows stored
// twice (f32 and f16).
// On the warpgroup kernel: swizzled 64 x 64 tiles (Q; K as 64 rows of
// 64), the whole-rows row tile (64 x (64 + 2)) and its partials (2 parts
// per row), no fragments, no softmax kernel.
// WG-LABEL: IR Dump After GPUTensorCoreMatmulPass
// WG-NOT: vector.contract
// WG-DAG: memref.alloc() : memref<1x64x64xf16>
// WG-DAG: memref.alloc() : memref<64x66xf32>
// WG-DAG: memref.alloc() : memref<2x128xf32>
// WG-NOT: vector.contract
// WG-NOT: linalg.softmax
// WG: math.exp
// WG-NOT: vector.contract
// WG-NOT: linalg.softmax

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK: memref.alloc() : memref<{{[0-9]+}}x{{[0-9]+}}xf32>
// CHECK: memref.alloc() : memref<2x{{[0-9]+}}xf32>
// CHECK: math.exp
// CHECK: arith.divf
// CHECK-NOT: linalg.softmax
// CHECK-NOT: linalg.generic
// CHECK: return

// With the softmax apart: decomposed before bufferization, its steps left
// to the generic path.
// APART-LABEL: IR Dump After GPUTensorCoreMatmulPass
// APART-NOT: linalg.softmax
// APART: arith.maxnumf
// APART: math.exp
// APART: arith.divf
// APART: return

#id = affine_map<(b, h, i, j) -> (b, h, i, j)>
#key = affine_map<(b, h, i, j) -> (b, j)>
func.func @scores(%q: tensor<2x3x40x32xf16>, %k: tensor<2x3x40x32xf16>,
                  %mask: tensor<2x40xf32>)
    -> (tensor<2x3x40x40xf16>, tensor<2x3x40x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.17677669 : f32
  %e0 = tensor.empty() : tensor<2x3x40x40xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x3x40x40xf32>) -> tensor<2x3x40x40xf32>
  %scores = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                            iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x3x40x32xf16>, tensor<2x3x40x32xf16>) outs(%f0 : tensor<2x3x40x40xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x40x40xf32>
  %e1 = tensor.empty() : tensor<2x3x40x40xf32>
  %masked = linalg.generic {indexing_maps = [#id, #key, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%scores, %mask : tensor<2x3x40x40xf32>, tensor<2x40xf32>) outs(%e1 : tensor<2x3x40x40xf32>) {
  ^bb0(%s: f32, %m: f32, %o: f32):
    %x = arith.mulf %s, %scale : f32
    %y = arith.addf %x, %m : f32
    linalg.yield %y : f32
  } -> tensor<2x3x40x40xf32>
  %e2 = tensor.empty() : tensor<2x3x40x40xf32>
  %probs = linalg.softmax dimension(3) ins(%masked : tensor<2x3x40x40xf32>) outs(%e2 : tensor<2x3x40x40xf32>) -> tensor<2x3x40x40xf32>
  %e3 = tensor.empty() : tensor<2x3x40x40xf16>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%probs : tensor<2x3x40x40xf32>) outs(%e3 : tensor<2x3x40x40xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x3x40x40xf16>
  return %p, %probs : tensor<2x3x40x40xf16>, tensor<2x3x40x40xf32>
}
