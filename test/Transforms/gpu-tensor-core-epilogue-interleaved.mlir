// Epilogue matching across a kernel built before: --opsnn-gpu-tensor-core-matmul
// converts GEMMs in program order, each kernel placed at its last stage, so
// an earlier GEMM's kernel may sit between a later GEMM and its consumers
// (attention's Q, K and V projections after the precision casts). The
// kernel's memory accesses are read from its ops: it blocks the fusion only
// where it touches the later chain's buffers. Both forms of the kernel: the
// vector form and the nvgpu one (ldmatrix, cp.async).
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="to-nvgpu=false tiles=32,16,32,16,8" -split-input-file | FileCheck %s
// RUN: ops-nn-opt %s --opsnn-gpu-tensor-core-matmul="to-nvgpu=true tiles=32,16,32,16,8" -split-input-file | FileCheck %s --check-prefixes=CHECK,NVGPU

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>

// Two projections of one A, their bias + cast consumers after both GEMMs:
// the first kernel (reading A, writing D1) lands between the second GEMM
// and its consumer; both consumers are fused.
// CHECK-LABEL: func.func @interleaved_projections
// CHECK-SAME: (%[[A:.+]]: memref<64x32xf16>,
// CHECK-NOT: linalg.generic
// CHECK: %[[D1:.+]] = memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// NVGPU: nvgpu.ldmatrix
// CHECK: vector.store {{.*}}, %[[D1]][{{.*}}]{{.*}} : memref<64x64xf16>
// CHECK: gpu.terminator
// CHECK: %[[D2:.+]] = memref.alloc() : memref<64x64xf16>
// CHECK: gpu.launch
// CHECK: vector.store {{.*}}, %[[D2]][{{.*}}]{{.*}} : memref<64x64xf16>
// CHECK: gpu.terminator
// CHECK-NOT: linalg.generic
// CHECK: return %[[D1]], %[[D2]]
func.func @interleaved_projections(%a: memref<64x32xf16>, %b1: memref<32x64xf16>, %b2: memref<32x64xf16>,
                                   %bias1: memref<64xf32>, %bias2: memref<64xf32>) -> (memref<64x64xf16>, memref<64x64xf16>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x64xf32>)
  linalg.matmul ins(%a, %b1 : memref<64x32xf16>, memref<32x64xf16>) outs(%c1 : memref<64x64xf32>)
  %c2 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x64xf32>)
  linalg.matmul ins(%a, %b2 : memref<64x32xf16>, memref<32x64xf16>) outs(%c2 : memref<64x64xf32>)
  %d1 = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias1 : memref<64x64xf32>, memref<64xf32>) outs(%d1 : memref<64x64xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  %d2 = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %bias2 : memref<64x64xf32>, memref<64xf32>) outs(%d2 : memref<64x64xf16>) {
  ^bb0(%x: f32, %y: f32, %o: f16):
    %s = arith.addf %x, %y : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  }
  memref.dealloc %c1 : memref<64x64xf32>
  memref.dealloc %c2 : memref<64x64xf32>
  return %d1, %d2 : memref<64x64xf16>, memref<64x64xf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The second consumer also reads what the first kernel writes (D1): the
// first kernel must run before it, so it stays a consumer of its own.
// CHECK-LABEL: func.func @reads_what_the_earlier_kernel_writes
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %{{.+}} : memref<64x64xf32>, memref<64x64xf16>)
func.func @reads_what_the_earlier_kernel_writes(%a: memref<64x32xf16>, %b1: memref<32x64xf16>, %b2: memref<32x64xf16>)
    -> (memref<64x64xf16>, memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<64x64xf32>)
  linalg.matmul ins(%a, %b1 : memref<64x32xf16>, memref<32x64xf16>) outs(%c1 : memref<64x64xf32>)
  %c2 = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c2 : memref<64x64xf32>)
  linalg.matmul ins(%a, %b2 : memref<64x32xf16>, memref<32x64xf16>) outs(%c2 : memref<64x64xf32>)
  %d1 = memref.alloc() : memref<64x64xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c1 : memref<64x64xf32>) outs(%d1 : memref<64x64xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  }
  %d2 = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %d1 : memref<64x64xf32>, memref<64x64xf16>) outs(%d2 : memref<64x64xf32>) {
  ^bb0(%x: f32, %r: f16, %o: f32):
    %e = arith.extf %r : f16 to f32
    %s = arith.addf %x, %e : f32
    linalg.yield %s : f32
  }
  memref.dealloc %c1 : memref<64x64xf32>
  memref.dealloc %c2 : memref<64x64xf32>
  return %d1, %d2 : memref<64x64xf16>, memref<64x64xf32>
}
