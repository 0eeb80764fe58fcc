// A whole attention block as a model brings it (Q K^T and P V as batched
// linalg.generic contractions, linalg.softmax between, P cast to f16),
// through the GPU pipeline's algorithms on the CPU (emulate-on-cpu)
// against NumPy: Q K^T and P V on the tensor-core kernel (batches of GEMMs,
// B transposed for K as stored), the softmax and the cast as one row group
// (max, exp, sum, division, truncation per warp) when it is kept apart
// (emulate-tensor-core-fuse-softmax=false). The division stays out of
// P V (--opsnn-fuse-elementwise): on a GPU the block is three kernels. By
// default the softmax and the cast run in Q K^T's kernel (two kernels;
// see tensor-core-softmax-emulated.mlir).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-warp-reductions emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-warp-reductions emulate-tensor-core-matmul=a100 emulate-tensor-core-fuse-softmax=false}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-warp-reductions emulate-tensor-core-matmul=a100 emulate-tensor-core-fuse-softmax=false" --mlir-print-ir-after=opsnn-gpu-warp-reduce -o /dev/null 2>&1 | FileCheck %s
// REF: s = np.einsum('bhik,bhjk->bhij', in0, in1); e = np.exp(s - s.max(axis=3, keepdims=True)); p = (e / e.sum(axis=3, keepdims=True)).astype(np.float16).astype(np.float64); out0 = np.einsum('bhik,bhkj->bhij', p, in2)
// TOL: 1e-3

// After both passes: the two batched GEMMs' loops over the batches (on
// per-batch subviews) around one softmax row loop; no linalg op left.
// CHECK-LABEL: IR Dump After GPUWarpReducePass
// CHECK-NOT: linalg.
// CHECK: memref.subview %{{.*}} : memref<8x128x64xf16> to memref<128x64xf16
// CHECK-NOT: linalg.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024 step
// CHECK-COUNT-2: arith.xori %{{.*}}, %c16
// CHECK-NOT: arith.xori %{{.*}}, %c16
// CHECK: memref.subview %{{.*}} : memref<8x128x128xf16> to memref<128x128xf16
// CHECK-NOT: linalg.
// CHECK: return

func.func @attn(%q: tensor<2x4x128x64xf16>, %k: tensor<2x4x128x64xf16>, %v: tensor<2x4x128x64xf16>) -> tensor<2x4x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, j, k)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x4x128x64xf16>, tensor<2x4x128x64xf16>) outs(%f : tensor<2x4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x128x128xf32>
  %es = tensor.empty() : tensor<2x4x128x128xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x128x128xf32>) outs(%es : tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %ph = arith.truncf %p : tensor<2x4x128x128xf32> to tensor<2x4x128x128xf16>
  %e2 = tensor.empty() : tensor<2x4x128x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x4x128x64xf32>) -> tensor<2x4x128x64xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, h, k, j)>, affine_map<(b, h, i, j, k) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%ph, %v : tensor<2x4x128x128xf16>, tensor<2x4x128x64xf16>) outs(%f2 : tensor<2x4x128x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x128x64xf32>
  return %o : tensor<2x4x128x64xf32>
}
