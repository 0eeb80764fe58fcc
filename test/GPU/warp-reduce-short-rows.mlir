// Rows shorter than a warp's vectors in --opsnn-gpu-warp-reduce: a warp
// runs 32 / L rows side by side, L lanes a row, L the most (a power of
// two) that leaves every lane one vector of the row; the butterfly stays
// among a row's lanes (xor L/2, ..., 1). A softmax over the 16 tokens of
// bert_tiny's attention is then one kernel: 4 lanes of 4 f32 a row, 8 rows
// a warp, 2 shuffles per reduction. In a last warp that is only partly
// rows (36 rows of 16: 4.5 warps), the lanes past the last row run on a
// copy of the last row and store nothing; a group whose payload reads
// memory of its own (a gather) is not run there and keeps the generic
// path. Checked without a GPU (ptxas for sm_80 and sm_90, no spills); the
// arithmetic runs on the CPU in Integration/CPU/gpu-warp-reduce-emulated.mlir
// and gpu-row-fusion-emulated.mlir.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-warp-reduce="warps-per-block=4" --canonicalize | FileCheck %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-warp-reduce="min-reduction-size=32" --canonicalize | FileCheck %s --check-prefix=LONG

// One kernel per function (the ragged gather's is the generic loop with
// its fill).
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK softmax16_kernel/softmax16_kernel sm_80
// PTXAS-NEXT: OK softmax16_kernel/softmax16_kernel sm_90
// PTXAS-NEXT: OK row_sum_ragged_kernel/row_sum_ragged_kernel sm_80
// PTXAS-NEXT: OK row_sum_ragged_kernel/row_sum_ragged_kernel sm_90
// PTXAS-NEXT: OK scale_ragged_kernel/scale_ragged_kernel sm_80
// PTXAS-NEXT: OK scale_ragged_kernel/scale_ragged_kernel sm_90
// PTXAS-NEXT: OK half_rows_kernel/half_rows_kernel sm_80
// PTXAS-NEXT: OK half_rows_kernel/half_rows_kernel sm_90
// PTXAS-NEXT: OK gather_sum_ragged_kernel/gather_sum_ragged_kernel sm_80
// PTXAS-NEXT: OK gather_sum_ragged_kernel/gather_sum_ragged_kernel sm_90
// PTXAS-NEXT: OK gather_sum_kernel/gather_sum_kernel sm_80
// PTXAS-NEXT: OK gather_sum_kernel/gather_sum_kernel sm_90
// PTXAS-NOT: OK

// The softmax's two butterflies: xor 2, then 1, 16-byte loads and stores.
// PTX-LABEL: gpu.binary @softmax16_kernel
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 2, 31, -1
// PTX-SAME: shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 1, 31, -1
// PTX-SAME: shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 2, 31, -1
// PTX-SAME: shfl.sync.bfly.b32 {{[^,]*}}, {{[^,]*}}, 1, 31, -1
// PTX-SAME: st.global.v4.b32
// PTX-NOT: gpu.binary @softmax16_kernel

// 32 rows of 16 f32 fill 4 warps of 8 rows: one block of 4 warps; lane =
// tid mod 4, row = tid / 4 (in its block of 32 rows); the warp's first row
// decides for the whole warp; no row is past the last, so no clamp.
// CHECK-LABEL: func.func @softmax16
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c1, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128
// CHECK: %[[WARPROW:.*]] = affine.apply #{{.*}}()[%[[TX]]]
// CHECK: arith.cmpi ult, %[[WARPROW]], %c32 : index
// CHECK-NOT: arith.minui
// CHECK: vector.load {{.*}} : memref<32x16xf32>, vector<4xf32>
// CHECK-NOT: scf.for
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// CHECK-NEXT: arith.maximumf
// CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK-NEXT: arith.maximumf
// CHECK-NOT: gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK: vector.store {{.*}} : memref<32x16xf32>, vector<4xf32>
// CHECK-NOT: linalg.generic
// CHECK: return

// 36 rows: 2 blocks of 32 rows; the last warp has 4 rows. Its lanes past
// row 35 read row 35 (minui) and skip the row's store (andi with the
// row's existence).
// CHECK-LABEL: func.func @row_sum_ragged
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c2, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128
// CHECK: %[[LANE:.*]] = affine.apply #[[LANEMAP:.*]]()[%[[TX]]]
// CHECK: %[[ROW:.*]] = affine.apply #[[ROWMAP:.*]]()[%[[BX]], %[[TX]]]
// CHECK: %[[WARPROW:.*]] = affine.apply #[[WARPMAP:.*]]()[%[[BX]], %[[TX]]]
// CHECK: %[[WARPIN:.*]] = arith.cmpi ult, %[[WARPROW]], %c36 : index
// CHECK: scf.if %[[WARPIN]] {
// CHECK: %[[EXISTS:.*]] = arith.cmpi ult, %[[ROW]], %c36 : index
// CHECK: %[[AT:.*]] = arith.minui %[[ROW]], %c35 : index
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]], %c0 : index
// CHECK: %[[STORE:.*]] = arith.andi %[[LANE0]], %[[EXISTS]] : i1
// CHECK: scf.if %[[STORE]] {
// CHECK-NEXT: memref.store

// The elementwise member's whole store is under the row's existence (it
// has no shuffle).
// CHECK-LABEL: func.func @scale_ragged
// CHECK: scf.if
// CHECK-NEXT: %[[EXISTS:.*]] = arith.cmpi ult, %{{.*}}, %c36 : index
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK: scf.if %[[EXISTS]] {
// CHECK: vector.store {{.*}} : memref<36x16xf32>, vector<4xf32>

// Rows of 24 f16: 8 f16 (16 bytes) a vector, 3 vectors, so 2 lanes a row
// (lane 0 has vectors 0 and 2: a loop from its second, 16 further on) and
// 16 rows a warp; one shuffle.
// CHECK-LABEL: func.func @half_rows
// CHECK: vector.load {{.*}} : memref<64x24xf16>, vector<8xf16>
// CHECK: scf.for %{{.*}} = %{{.*}} to %c24 step %c16
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32
// CHECK-NOT: gpu.shuffle

// A gather in the payload: a partial last warp keeps the generic path;
// whole warps take the kernel.
// CHECK-LABEL: func.func @gather_sum_ragged
// CHECK-NOT: gpu.launch
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK-LABEL: func.func @gather_sum
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32

// min-reduction-size=32: rows of 16 keep the generic path.
// LONG-LABEL: func.func @softmax16
// LONG-NOT: gpu.launch
// LONG: linalg.generic
// LONG-LABEL: func.func @row_sum_ragged

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

func.func @softmax16(%x: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<32xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<32xf32>) -> tensor<32xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<32x16xf32>) outs(%fm : tensor<32xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %es = tensor.empty() : tensor<32xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<32x16xf32>, tensor<32xf32>) outs(%fs : tensor<32xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.addf %e, %acc : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  %eo = tensor.empty() : tensor<32x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<32x16xf32>, tensor<32xf32>, tensor<32xf32>) outs(%eo : tensor<32x16xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<32x16xf32>
  return %out : tensor<32x16xf32>
}

func.func @row_sum_ragged(%x: tensor<36x16xf32>) -> tensor<36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<36xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<36xf32>) -> tensor<36xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<36x16xf32>) outs(%f : tensor<36xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<36xf32>
  return %r : tensor<36xf32>
}

func.func @scale_ragged(%x: tensor<36x16xf32>) -> tensor<36x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<36xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<36xf32>) -> tensor<36xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<36x16xf32>) outs(%f : tensor<36xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<36xf32>
  %eo = tensor.empty() : tensor<36x16xf32>
  %out = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r : tensor<36x16xf32>, tensor<36xf32>) outs(%eo : tensor<36x16xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %q = arith.divf %a, %s : f32
    linalg.yield %q : f32
  } -> tensor<36x16xf32>
  return %out : tensor<36x16xf32>
}

func.func @half_rows(%x: tensor<64x24xf16>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x24xf16>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f16, %acc: f32):
    %w = arith.extf %a : f16 to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @gather_sum_ragged(%ids: tensor<36x16xi32>, %table: tensor<100xf32>) -> tensor<36xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<36xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<36xf32>) -> tensor<36xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ids : tensor<36x16xi32>) outs(%f : tensor<36xf32>) {
  ^bb0(%id: i32, %acc: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<100xf32>
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<36xf32>
  return %r : tensor<36xf32>
}

func.func @gather_sum(%ids: tensor<32x16xi32>, %table: tensor<100xf32>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ids : tensor<32x16xi32>) outs(%f : tensor<32xf32>) {
  ^bb0(%id: i32, %acc: f32):
    %i = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%i] : tensor<100xf32>
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  return %r : tensor<32xf32>
}
