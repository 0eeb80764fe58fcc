// Two BF16 GEMMs where the first one's kernel lands between the second
// one's fill and the second GEMM (the kernel sits at its last epilogue
// stage). The first kernel's BF16 products are nvvm.mma.sync ops
// (rewriteBF16MmaSync), which work on registers but declare no memory
// effects: the buffer analysis takes them as touching nothing, so the
// second GEMM still folds its fill into its accumulators (no fill left, C
// not read) and its softmax runs in its kernel. (It used to take them as
// touching everything: the fill stayed, C was read, and the softmax kept
// its own kernels; bert_tiny in mixed-bf16 had 28 kernels instead of 18.)
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @two_gemms
// CHECK: gpu.launch
// CHECK: nvvm.mma.sync
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: nvvm.mma.sync
// CHECK: math.exp
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK: return
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @two_gemms(%a: memref<64x32xbf16>, %b: memref<32x64xbf16>, %bias: memref<64xf32>,
                     %q: memref<64x32xbf16>, %k: memref<32x64xbf16>) -> (memref<64x64xf32>, memref<64x64xbf16>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c1 : memref<64x64xf32>)
  %c2 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x64xf32>)
  %y = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias : memref<64x64xf32>, memref<64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%x: f32, %v: f32, %o: f32):
    %s = arith.addf %x, %v : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c1 : memref<64x64xf32>
  linalg.matmul ins(%q, %k : memref<64x32xbf16>, memref<32x64xbf16>) outs(%c2 : memref<64x64xf32>)
  %p = memref.alloc() : memref<64x64xf32>
  linalg.softmax dimension(1) ins(%c2 : memref<64x64xf32>) outs(%p : memref<64x64xf32>)
  memref.dealloc %c2 : memref<64x64xf32>
  %h = memref.alloc() : memref<64x64xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : memref<64x64xf32>) outs(%h : memref<64x64xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.dealloc %p : memref<64x64xf32>
  return %y, %h : memref<64x64xf32>, memref<64x64xbf16>
}
