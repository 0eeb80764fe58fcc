// linalg.generic contractions on the tensor-core kernel, checked without a
// GPU: the importer's projection x[b, s, k] * w[k, h, e] -> [b, s, h, e]
// and a weight stored [out, in] become GEMMs on collapse_shape views of
// their buffers (M = b*s, N = h*e or n, K = k): cp.async, ldmatrix,
// mma.sync, assembled for sm_80 and sm_90 without spills. A batched
// contraction (Q K^T per head) is a batch of GEMMs on 3-D views, one per
// gridDim.z, each block on rank-reduced slices of its batch; its C fill
// folds. Batch dimensions need not lead an operand: attention's Q, K, V
// and context in [b, s, h, d] are read and written through transposed
// views (memref.transpose), several batch dimensions through the block's
// delinearized z index. An A stored K x M, dimensions interleaved in an
// operand, or a payload other than acc + a * b keep the generic path. A
// batched GEMM's elementwise consumers fuse into its epilogue when C's
// batch dimensions lead it (rows of C viewed as batch * M x N); a ragged
// M's stores into each batch's slice are guarded. The arithmetic
// runs on the CPU in Integration/CPU/tensor-core-contraction-emulated.mlir.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK projection_kernel/projection_kernel sm_80
// PTXAS: OK projection_kernel/projection_kernel sm_90
// PTXAS: OK transposed_weight_kernel/transposed_weight_kernel sm_80
// PTXAS: OK transposed_weight_kernel/transposed_weight_kernel sm_90
// PTXAS: OK batched_kernel/batched_kernel sm_80
// PTXAS: OK batched_kernel/batched_kernel sm_90
// PTXAS: OK batch_not_leading_kernel/batch_not_leading_kernel sm_80
// PTXAS: OK batch_not_leading_kernel/batch_not_leading_kernel sm_90
// PTXAS: OK heads_kernel/heads_kernel sm_80
// PTXAS: OK heads_kernel/heads_kernel sm_90
// PTXAS: OK context_in_rows_kernel/context_in_rows_kernel sm_80
// PTXAS: OK context_in_rows_kernel/context_in_rows_kernel sm_90
// PTXAS: OK batched_scaled_kernel/batched_scaled_kernel sm_80
// PTXAS: OK batched_scaled_kernel/batched_scaled_kernel sm_90
// PTXAS: OK batched_ragged_kernel/batched_ragged_kernel sm_80
// PTXAS: OK batched_ragged_kernel/batched_ragged_kernel sm_90
// PTXAS-NOT: FAIL

// PTX-LABEL: gpu.binary @projection_kernel
// PTX-SAME: cp.async.cg.shared.global
// PTX-SAME: ldmatrix.sync.aligned
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: gpu.binary @projection_kernel_
// PTX-LABEL: gpu.binary @transposed_weight_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @batched_kernel
// PTX-SAME: %ctaid.z
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// Batch z's slice of C starts z * 128 * 128 elements in: its lanes' f32
// pairs are still 8-byte aligned, one store each.
// PTX-NOT: st.global.b32
// PTX-SAME: st.global.v2.b32
// PTX-NOT: st.global.b32
// PTX-NOT: gpu.binary @batched_kernel_
// PTX-LABEL: gpu.binary @batch_not_leading_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @heads_kernel
// PTX-SAME: %ctaid.z
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: gpu.binary @heads_kernel_
// PTX-LABEL: gpu.binary @context_in_rows_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: gpu.binary @context_in_rows_kernel_
// PTX-LABEL: gpu.binary @k_major_a_kernel
// PTX-NOT: mma.sync
// PTX-LABEL: gpu.binary @interleaved_kernel
// PTX-NOT: mma.sync
// PTX-LABEL: gpu.binary @not_multiply_add_kernel
// PTX-NOT: mma.sync
// PTX-LABEL: gpu.binary @batched_scaled_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: gpu.binary @batched_scaled_kernel_

// CHECK-LABEL: func.func @projection
// CHECK-DAG: %[[A:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : memref<4x128x256xf16> into memref<512x256xf16>
// CHECK-DAG: %[[B:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2]] : memref<256x4x64xf16> into memref<256x256xf16>
// CHECK-DAG: %[[C:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3]] : memref<4x128x4x64xf32> into memref<512x256xf32>
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @transposed_weight
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : memref<4x128x256xf16> into memref<512x256xf16>
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @batched
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %c4)
// CHECK: memref.subview %arg0[%[[BZ]], 0, 0] [1, 128, 64] [1, 1, 1] : memref<4x128x64xf16> to memref<128x64xf16, strided<[64, 1], offset: ?>>
// CHECK: memref.subview %arg1[%[[BZ]], 0, 0] [1, 64, 128] [1, 1, 1]
// CHECK: memref.subview %{{.*}}[%[[BZ]], 0, 0] [1, 128, 128] [1, 1, 1] : memref<4x128x128xf32>
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @batch_not_leading
// CHECK: %[[QT:.*]] = memref.transpose %arg0 (d0, d1, d2) -> (d1, d0, d2) : memref<128x4x64xf16> to memref<4x128x64xf16, strided<[64, 256, 1]>>
// CHECK: gpu.launch blocks(%{{[a-z0-9]+}}, %{{[a-z0-9]+}}, %[[BZ:[a-z0-9]+]]) in
// CHECK: memref.subview %[[QT]]{{\[}}%[[BZ]], 0, 0] [1, 128, 64] [1, 1, 1] : memref<4x128x64xf16, strided<[64, 256, 1]>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @heads
// CHECK-DAG: %[[Q:.*]] = memref.transpose %arg0 (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<2x128x4x64xf16> to memref<2x4x128x64xf16, strided<[32768, 64, 256, 1]>>
// CHECK-DAG: %[[K:.*]] = memref.transpose %arg1 (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %[[BZ:.*]]) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %c8)
// CHECK-DAG: %[[H:.*]] = affine.apply #{{.*}}()[%[[BZ]]]
// CHECK-DAG: %[[B:.*]] = affine.apply #{{.*}}()[%[[BZ]]]
// CHECK: memref.subview %[[Q]]{{\[}}%[[B]], %[[H]], 0, 0] [1, 1, 128, 64] [1, 1, 1, 1] : memref<2x4x128x64xf16, strided<[32768, 64, 256, 1]>> to memref<128x64xf16, strided<[256, 1], offset: ?>>
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @context_in_rows
// CHECK: memref.transpose %{{.*}} (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<2x128x4x64xf32> to memref<2x4x128x64xf32, strided<[32768, 64, 256, 1]>>
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @k_major_a
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @interleaved
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @not_multiply_add
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic
// CHECK-LABEL: func.func @batched_scaled
// CHECK: %[[ROWS:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : memref<4x128x128xf32> into memref<512x128xf32>
// CHECK: gpu.launch
// CHECK: nvgpu.mma.sync
// CHECK: %[[MASK:.*]] = vector.load %arg2[%{{.*}}, %{{.*}}] {{.*}} : memref<4x128xf32>, vector<2xf32>
// CHECK: %[[SCALED:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<2xf32>
// CHECK: %[[MASKED:.*]] = arith.addf %[[SCALED]], %[[MASK]] : vector<2xf32>
// CHECK: vector.store %[[MASKED]], %[[ROWS]]
// CHECK-NOT: linalg.generic
// CHECK-LABEL: func.func @batched_ragged
// CHECK: gpu.launch
// CHECK: %[[SLICE:.*]] = memref.subview %{{.*}} [1, 40, 128] [1, 1, 1] : memref<4x40x128xf32> to memref<40x128xf32
// CHECK: nvgpu.mma.sync
// CHECK: scf.if
// CHECK-NEXT: vector.store %{{.*}}, %[[SLICE]]
// CHECK: scf.if
// CHECK-NEXT: vector.store %{{.*}}, %[[SLICE]]

func.func @projection(%x: tensor<4x128x256xf16>, %w: tensor<256x4x64xf16>) -> tensor<4x128x4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x4x64xf32>) -> tensor<4x128x4x64xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, s, h, e, k) -> (b, s, k)>, affine_map<(b, s, h, e, k) -> (k, h, e)>, affine_map<(b, s, h, e, k) -> (b, s, h, e)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x256xf16>, tensor<256x4x64xf16>) outs(%f : tensor<4x128x4x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x4x64xf32>
  return %p : tensor<4x128x4x64xf32>
}

func.func @transposed_weight(%x: tensor<4x128x256xf16>, %w: tensor<256x256xf16>) -> tensor<4x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (n, k)>, affine_map<(b, s, n, k) -> (b, s, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x256xf16>, tensor<256x256xf16>) outs(%f : tensor<4x128x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x256xf32>
  return %p : tensor<4x128x256xf32>
}

func.func @batched(%q: tensor<4x128x64xf16>, %k: tensor<4x64x128xf16>) -> tensor<4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x128x64xf16>, tensor<4x64x128xf16>) outs(%f : tensor<4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %p : tensor<4x128x128xf32>
}

// The batch dimension second in A: each batch's M x K matrix has rows 256
// elements apart, a transposed view.
func.func @batch_not_leading(%q: tensor<128x4x64xf16>, %k: tensor<4x64x128xf16>) -> tensor<4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (i, b, k)>, affine_map<(b, i, j, k) -> (b, k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<128x4x64xf16>, tensor<4x64x128xf16>) outs(%f : tensor<4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %p : tensor<4x128x128xf32>
}

// Attention's scores with Q and K where the projections wrote them,
// [b, s, h, d]: batches (b, h) not contiguous (two batch dimensions, the
// block's z index delinearized), rows h*d = 256 elements apart.
func.func @heads(%q: tensor<2x128x4x64xf16>, %k: tensor<2x128x4x64xf16>) -> tensor<2x4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x128x128xf32>) -> tensor<2x4x128x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, i, h, d)>, affine_map<(b, h, i, j, d) -> (b, j, h, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x128x4x64xf16>, tensor<2x128x4x64xf16>) outs(%f : tensor<2x4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x128x128xf32>
  return %p : tensor<2x4x128x128xf32>
}

// P V writing the context as [b, s, h, d] (C transposed too).
func.func @context_in_rows(%p: tensor<2x4x128x128xf16>, %v: tensor<2x128x4x64xf16>) -> tensor<2x128x4x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x4x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x4x64xf32>) -> tensor<2x128x4x64xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, k) -> (b, h, i, k)>, affine_map<(b, h, i, j, k) -> (b, k, h, j)>, affine_map<(b, h, i, j, k) -> (b, i, h, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%p, %v : tensor<2x4x128x128xf16>, tensor<2x128x4x64xf16>) outs(%f : tensor<2x128x4x64xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x128x4x64xf32>
  return %c : tensor<2x128x4x64xf32>
}

// A stored K x M (M innermost): its rows are not K-contiguous.
func.func @k_major_a(%x: tensor<4x64x128xf16>, %w: tensor<64x128xf16>) -> tensor<4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, k, i)>, affine_map<(b, i, j, k) -> (k, j)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x64x128xf16>, tensor<64x128xf16>) outs(%f : tensor<4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  return %p : tensor<4x128x128xf32>
}

// M dimensions b and s with K between them in A: not a matrix.
func.func @interleaved(%x: tensor<4x256x128xf16>, %w: tensor<256x256xf16>) -> tensor<4x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, k, s)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x256x128xf16>, tensor<256x256xf16>) outs(%f : tensor<4x128x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x256xf32>
  return %p : tensor<4x128x256xf32>
}

// acc - a * b.
func.func @not_multiply_add(%x: tensor<4x128x256xf16>, %w: tensor<256x256xf16>) -> tensor<4x128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x256xf32>) -> tensor<4x128x256xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, s, n, k) -> (b, s, k)>, affine_map<(b, s, n, k) -> (k, n)>, affine_map<(b, s, n, k) -> (b, s, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x256xf16>, tensor<256x256xf16>) outs(%f : tensor<4x128x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.subf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x256xf32>
  return %p : tensor<4x128x256xf32>
}

// The scores' scaling and a mask per (batch, key) fuse into a batched
// GEMM's epilogue: batch i's stores are rows i * 128 ... of C viewed as
// (4 * 128) x 128; the mask's row is (row floordiv 128).
func.func @batched_scaled(%q: tensor<4x128x64xf16>, %k: tensor<4x128x64xf16>, %mask: tensor<4x128xf32>) -> tensor<4x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e = tensor.empty() : tensor<4x128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128x128xf32>) -> tensor<4x128x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, j, k)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x128x64xf16>, tensor<4x128x64xf16>) outs(%f : tensor<4x128x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x128x128xf32>
  %e2 = tensor.empty() : tensor<4x128x128xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%p, %mask : tensor<4x128x128xf32>, tensor<4x128xf32>) outs(%e2 : tensor<4x128x128xf32>) {
  ^bb0(%x: f32, %mk: f32, %o: f32):
    %r = arith.mulf %x, %scale : f32
    %t = arith.addf %r, %mk : f32
    linalg.yield %t : f32
  } -> tensor<4x128x128xf32>
  return %y : tensor<4x128x128xf32>
}

// M = 40 rows per batch: the last block row's rows past 40 would be the
// next batch's, so the stores into each batch's slice are guarded.
func.func @batched_ragged(%q: tensor<4x40x64xf16>, %k: tensor<4x128x64xf16>) -> tensor<4x40x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x40x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x40x128xf32>) -> tensor<4x40x128xf32>
  %p = linalg.generic {indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, j, k)>, affine_map<(b, i, j, k) -> (b, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x40x64xf16>, tensor<4x128x64xf16>) outs(%f : tensor<4x40x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %m = arith.mulf %a32, %b32 : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x40x128xf32>
  return %p : tensor<4x40x128xf32>
}
