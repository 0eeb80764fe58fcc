// Two FP8 GEMMs, the first one's output requantized to FP8 for the second
// (what --opsnn-quantize type=fp8 makes of an MLP), where the first one's
// kernel lands between the second one's fill and the second GEMM (the
// kernel sits at its last epilogue stage). The first kernel's FP8 products
// are inline PTX with side effects (nvvm.mma.sync has no FP8 form), which
// declares a write of anything: the buffer analysis takes inline assembly
// without an address operand as touching nothing, so the second GEMM still
// folds its fill into its accumulators (no fill left, C not read). (It
// took it as touching everything: the fill stayed a kernel of its own.)
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="target=h100" --canonicalize | FileCheck %s

// CHECK-LABEL: func.func @two_gemms
// CHECK-NOT: linalg.
// CHECK: gpu.launch
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// CHECK: arith.truncf {{.*}} to vector<2xf8E4M3FN>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: llvm.inline_asm has_side_effects {{.*}}"mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32
// CHECK: gpu.terminator
// CHECK-NOT: linalg.
// CHECK: return
#id = affine_map<(i, j) -> (i, j)>
#map_a = affine_map<(m, n, k) -> (m, k)>
#map_b = affine_map<(m, n, k) -> (n, k)>
#map_c = affine_map<(m, n, k) -> (m, n)>
func.func @two_gemms(%x: memref<64x32xf8E4M3FN>, %w1: memref<128x32xf8E4M3FN>,
                     %w2: memref<32x128xf8E4M3FN>) -> memref<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %inv = arith.constant 4.0 : f32
  %c1 = memref.alloc() : memref<64x128xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x128xf32>)
  linalg.generic {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : memref<64x32xf8E4M3FN>, memref<128x32xf8E4M3FN>) outs(%c1 : memref<64x128xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %acc: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %c2 = memref.alloc() : memref<64x32xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x32xf32>)
  %h = memref.alloc() : memref<64x128xf8E4M3FN>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1 : memref<64x128xf32>) outs(%h : memref<64x128xf8E4M3FN>) {
  ^bb0(%v: f32, %o: f8E4M3FN):
    %r = arith.maximumf %v, %zero : f32
    %q = arith.divf %r, %inv : f32
    %t = arith.truncf %q : f32 to f8E4M3FN
    linalg.yield %t : f8E4M3FN
  }
  memref.dealloc %c1 : memref<64x128xf32>
  linalg.generic {indexing_maps = [#map_a, #map_b, #map_c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %w2 : memref<64x128xf8E4M3FN>, memref<32x128xf8E4M3FN>) outs(%c2 : memref<64x32xf32>) {
  ^bb0(%a: f8E4M3FN, %b: f8E4M3FN, %acc: f32):
    %a32 = arith.extf %a : f8E4M3FN to f32
    %b32 = arith.extf %b : f8E4M3FN to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<64x128xf8E4M3FN>
  return %c2 : memref<64x32xf32>
}
