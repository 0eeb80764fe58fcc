// Two FP16 GEMMs on the warpgroup kernel, the first one's output cast to
// f16 for the second (an MLP), where the first one's kernel lands between
// the second one's fill and the second GEMM (the kernel sits at its last
// epilogue stage). The first kernel holds ops that declare no memory
// effects (nvgpu.warpgroup.mma and its accumulator, nvvm.fence.proxy): the
// buffer analysis takes them as working on registers and workgroup tiles,
// so the second GEMM still folds its fill into its accumulators (no fill
// left, C not read). (It took them as touching everything: the fill stayed
// a kernel of its own, and in bert_tiny so did attention's softmax.)
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="target=h100 warpgroup-mma=true" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @two_gemms
// CHECK-NOT: linalg.
// CHECK: gpu.launch
// CHECK: nvgpu.warpgroup.mma
// CHECK: arith.truncf {{.*}} to vector<2xf16>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: nvgpu.warpgroup.mma
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK: return
#id = affine_map<(i, j) -> (i, j)>
func.func @two_gemms(%x: memref<64x64xf16>, %w1: memref<64x128xf16>,
                     %w2: memref<128x64xf16>) -> memref<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x128xf32>)
  linalg.matmul ins(%x, %w1 : memref<64x64xf16>, memref<64x128xf16>) outs(%c1 : memref<64x128xf32>)
  %c2 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x64xf32>)
  %h = memref.alloc() : memref<64x128xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1 : memref<64x128xf32>) outs(%h : memref<64x128xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.maximumf %v, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c1 : memref<64x128xf32>
  linalg.matmul ins(%h, %w2 : memref<64x128xf16>, memref<128x64xf16>) outs(%c2 : memref<64x64xf32>)
  memref.dealloc %h : memref<64x128xf16>
  return %c2 : memref<64x64xf32>
}
