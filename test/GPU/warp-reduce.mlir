// Row reductions as one warp per output element (--opsnn-gpu-warp-reduce,
// on by default in --opsnn-lower-to-nvvm), checked without a GPU: the
// kernel reads its row with consecutive lanes on consecutive addresses and
// combines the lanes' partials with five shuffles (shfl.sync.bfly); it
// assembles for sm_80 and sm_90 without spills. With warp-reductions=false
// the same reductions are the generic one-thread-per-output loops. The
// arithmetic runs on the CPU in
// Integration/CPU/gpu-warp-reduce-emulated.mlir.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 warp-reductions=false" | FileCheck %s --check-prefix=OFF
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-warp-reduce="warps-per-block=4 vectorize=false" --canonicalize | FileCheck %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-warp-reduce="warps-per-block=4" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-warp-reduce="fuse-row-ops=false" --canonicalize | FileCheck %s --check-prefix=NOFUSE
// RUN: not ops-nn-opt %s --opsnn-gpu-warp-reduce="warps-per-block=0" 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: not ops-nn-opt %s --opsnn-gpu-warp-reduce="warps-per-block=33" 2>&1 | FileCheck %s --check-prefix=BADWARPS33
// RUN: not ops-nn-opt %s --opsnn-gpu-warp-reduce="min-reduction-size=0" 2>&1 | FileCheck %s --check-prefix=BADMIN

// One kernel per warp reduction: the fills fold (also after the pipeline
// has moved the output to managed memory); the column sum, a generic
// one-thread-per-column loop, shares one kernel with its fill.
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK row_sum_kernel/row_sum_kernel sm_80
// PTXAS-NEXT: OK row_sum_kernel/row_sum_kernel sm_90
// PTXAS-NEXT: OK softmax_den_kernel/softmax_den_kernel sm_80
// PTXAS-NEXT: OK softmax_den_kernel/softmax_den_kernel sm_90
// PTXAS-NEXT: OK col_sum_kernel/col_sum_kernel sm_80
// PTXAS-NEXT: OK col_sum_kernel/col_sum_kernel sm_90
// A softmax (max, sum of exp(x - max), exp(x - max) / sum) is one kernel.
// PTXAS-NEXT: OK softmax_kernel/softmax_kernel sm_80
// PTXAS-NEXT: OK softmax_kernel/softmax_kernel sm_90
// PTXAS-NOT: FAIL

// Each lane reads 4 f32 (16 bytes) at a time.
// PTX-LABEL: gpu.binary @row_sum_kernel
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-NOT: gpu.binary
// PTX-LABEL: gpu.binary @softmax_den_kernel
// PTX-SAME: shfl.sync.bfly.b32
// PTX-NOT: gpu.binary @softmax_den_kernel
// PTX-LABEL: gpu.binary @softmax_kernel
// PTX-SAME: ld.global.v4.b32
// PTX-SAME: shfl.sync.bfly.b32
// PTX-SAME: st.global.v4.b32
// PTX-NOT: gpu.binary @softmax_kernel
// OFF-NOT: shfl.sync

// One warp per row: 4 warps (128 threads) per block, 1024 rows -> 256
// blocks; lane = tid mod 32, row = block * 4 + tid / 32; the first element
// at the lane, the rest 32 apart; five xor shuffles; lane 0 stores.
// CHECK-LABEL: func.func @row_sum
// CHECK-NOT: linalg.fill
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1, %{{.*}} = %c1) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c128
// CHECK: %[[LANE:.*]] = affine.apply #{{.*}}()[%[[TX]]]
// CHECK: %[[ROW:.*]] = affine.apply #{{.*}}()[%[[BX]], %[[TX]]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ROW]], %c1024 : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[R:.*]] = affine.apply #{{.*}}()[%[[BX]], %[[TX]]]
// CHECK: memref.load %{{.*}}[%[[R]], %[[LANE]]] : memref<1024x768xf32>
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %c768 step %c32
// CHECK: memref.load %{{.*}}[%[[R]], %[[K]]] : memref<1024x768xf32>
// CHECK: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c8_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c4_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c2_i32, %c32_i32 : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// The zero fill folds into the row's result (every lane has it; lane 0
// stores it): no fill, no load of the output.
// CHECK: %[[TOTAL:.*]] = arith.addf %{{.*}}, %cst : f32
// CHECK-NEXT: arith.cmpi eq, %[[LANE]], %c0 : index
// CHECK-NEXT: scf.if
// CHECK-NEXT: memref.store %[[TOTAL]]
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// The column reduction keeps the generic path.
// CHECK-LABEL: func.func @col_sum
// CHECK-NOT: gpu.launch
// CHECK: linalg.generic

// Softmax: one launch, at the consumer (its output allocated by then);
// per row the max butterfly (the -inf init folds away), the sum butterfly
// reading the max from registers, then every lane writes elements lane,
// lane + 32, ... of the output from the two registers. Lane 0's stores of
// the max and the sum go with their buffers, which nothing else reads: no
// intermediate reaches memory.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.fill
// CHECK: %[[OUT:.*]] = memref.alloc() {{.*}} : memref<1024x1024xf32>
// CHECK-NOT: memref.alloc
// CHECK: gpu.launch
// CHECK: %[[LANE:.*]] = affine.apply
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf
// CHECK: arith.subf %{{.*}}, %[[MAX]] : f32
// CHECK: gpu.shuffle  xor %{{.*}}, %c1_i32, %c32_i32 : f32
// CHECK-NEXT: arith.addf
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %{{.*}}, %cst : f32
// CHECK-NEXT: scf.for %[[K:.*]] = %[[LANE]] to %c1024 step %c32
// CHECK-NEXT: %[[X:.*]] = memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<1024x1024xf32>
// CHECK-NEXT: arith.subf %[[X]], %[[MAX]] : f32
// CHECK-NEXT: math.exp
// CHECK-NEXT: %[[Y:.*]] = arith.divf %{{.*}}, %[[SUM]] : f32
// CHECK-NEXT: memref.store %[[Y]], %[[OUT]][%{{.*}}, %[[K]]] : memref<1024x1024xf32>
// CHECK-NOT: gpu.launch
// CHECK-NOT: linalg.generic
// CHECK: return %[[OUT]]

// With vector accesses (the default): rows of 768 and 1024 f32, 4 elements
// per lane and access; lane l starts at 4 l and steps 128 elements (the
// warp's 32 vectors). Its partial combines the 4 in order, then 4 per step;
// the softmax's elementwise member stores 4 at a time.
// VEC-LABEL: func.func @row_sum
// VEC: scf.if
// VEC-NEXT: %[[R:.*]] = affine.apply #{{.*}}()[%{{.*}}, %{{.*}}]
// VEC-NEXT: %[[START:.*]] = affine.apply #{{.*}}()[%{{.*}}]
// VEC-NEXT: %[[V:.*]] = vector.load %{{.*}}[%[[R]], %[[START]]] {alignment = 16 : i64} : memref<1024x768xf32>, vector<4xf32>
// VEC-COUNT-4: vector.extract %[[V]]
// VEC-COUNT-3: arith.addf
// VEC: scf.for %[[K:.*]] = %{{.*}} to %c768 step %c128
// VEC-NEXT: vector.load %{{.*}}[%[[R]], %[[K]]] {alignment = 16 : i64} : memref<1024x768xf32>, vector<4xf32>
// VEC-COUNT-4: vector.extract
// VEC-COUNT-4: arith.addf
// VEC: gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : f32
// VEC-LABEL: func.func @softmax
// VEC: scf.for %[[K:.*]] = %{{.*}} to %c1024 step %c128 {
// VEC-NEXT: %[[X:.*]] = vector.load %{{.*}}[%{{.*}}, %[[K]]] {alignment = 16 : i64} : memref<1024x1024xf32>, vector<4xf32>
// VEC-COUNT-4: arith.divf
// VEC: %[[Y:.*]] = vector.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// VEC-NEXT: vector.store %[[Y]], %{{.*}}[%{{.*}}, %[[K]]] {alignment = 16 : i64} : memref<1024x1024xf32>, vector<4xf32>

// Without fuse-row-ops: a kernel per reduction, the consumer left to the
// generic path.
// NOFUSE-LABEL: func.func @softmax
// NOFUSE-COUNT-2: gpu.launch
// NOFUSE: linalg.generic

// BADWARPS: error: warps-per-block must be in 1..32 (at most 1024 threads), got 0
// BADWARPS33: error: warps-per-block must be in 1..32 (at most 1024 threads), got 33
// BADMIN: error: min-reduction-size must be positive, got 0

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_sum(%x: tensor<1024x768xf32>) -> tensor<1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1024xf32>) -> tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x768xf32>) outs(%f : tensor<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

func.func @softmax_den(%x: tensor<512x1024xf32>, %m: tensor<512xf32>) -> tensor<512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<512xf32>) -> tensor<512xf32>
  %r = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<512x1024xf32>, tensor<512xf32>) outs(%f : tensor<512xf32>) {
  ^bb0(%a: f32, %mx: f32, %acc: f32):
    %d = arith.subf %a, %mx : f32
    %ex = math.exp %d : f32
    %s = arith.addf %ex, %acc : f32
    linalg.yield %s : f32
  } -> tensor<512xf32>
  return %r : tensor<512xf32>
}

func.func @col_sum(%x: tensor<768x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<768x64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

func.func @softmax(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %em = tensor.empty() : tensor<1024xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%em : tensor<1024xf32>) -> tensor<1024xf32>
  %max = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x1024xf32>) outs(%fm : tensor<1024xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1024xf32>
  %es = tensor.empty() : tensor<1024xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<1024xf32>) -> tensor<1024xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %max : tensor<1024x1024xf32>, tensor<1024xf32>) outs(%fs : tensor<1024xf32>) {
  ^bb0(%a: f32, %m: f32, %acc: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %s = arith.addf %e, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1024xf32>
  %eo = tensor.empty() : tensor<1024x1024xf32>
  %out = linalg.generic {indexing_maps = [#id2, #row, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max, %sum : tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024xf32>) outs(%eo : tensor<1024x1024xf32>) {
  ^bb0(%a: f32, %m: f32, %s: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %e = math.exp %d : f32
    %r = arith.divf %e, %s : f32
    linalg.yield %r : f32
  } -> tensor<1024x1024xf32>
  return %out : tensor<1024x1024xf32>
}
