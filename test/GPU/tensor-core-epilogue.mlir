// The tensor-core GEMM's epilogue fusion, checked without a GPU: a fill of a
// constant into C becomes the accumulators' initial value, and the chain of
// elementwise consumers of the product (bias, ReLU, GELU, residual, the
// cast to f16) runs on the fragments before they are stored, so a matmul +
// bias + ReLU + cast is one kernel (three without fusion: fill, GEMM,
// elementwise). A consumer that reads the product transposed is fused too
// (its loops taken in the product's order, its output stored transposed);
// one that reduces it stays a separate kernel and the GEMM stores C.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=PTXAS90
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 | FileCheck %s --check-prefix=KERNELS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="fuse-epilogue=false" --canonicalize | FileCheck %s --check-prefix=NOFUSE

// Every kernel assembles for both architectures without spills, the fused
// 2048x2048 GEMM (128x128 blocks, 8 warps, 16 fragments each) included;
// its stages take more than 48 KiB, so its shared memory is dynamic.
// The epilogue adds no shared memory: the fused 256x256x128 GEMMs use as
// much as each other, with or without a transposed output.
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_bias_relu_f16_kernel/gemm_bias_relu_f16_kernel sm_80: {{[0-9]+}} registers, {{[0-9]+}} B smem + dynamic, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_bias_relu_f16_kernel/gemm_bias_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem + dynamic, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_gelu_residual_kernel/gemm_gelu_residual_kernel sm_80: {{[0-9]+}} registers, [[SMEM:[0-9]+]] B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_gelu_residual_kernel/gemm_gelu_residual_kernel sm_90: {{[0-9]+}} registers, [[SMEM]] B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_transposed_consumer_kernel/gemm_transposed_consumer_kernel sm_80: {{[0-9]+}} registers, [[SMEM]] B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS90: OK gemm_bias_relu_f16_kernel/gemm_bias_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem + dynamic, 0 B spill stores, 0 B spill loads
// PTXAS90: OK gemm_gelu_residual_kernel/gemm_gelu_residual_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads
// PTXAS90-NOT: FAIL
// PTXAS90-NOT: {{[1-9][0-9]* B spill}}

// The kernels, all of them: one per fused chain; the GEMM and its consumer
// where the consumer is not elementwise (the row sum is the warp-per-row
// kernel, its zero fill folded into it); the product returned as well as
// consumed is one kernel storing both.
// KERNELS: OK gemm_bias_relu_f16_kernel/gemm_bias_relu_f16_kernel sm_80
// KERNELS-NEXT: OK gemm_gelu_residual_kernel/gemm_gelu_residual_kernel sm_80
// KERNELS-NEXT: OK gemm_transposed_consumer_kernel/gemm_transposed_consumer_kernel sm_80
// KERNELS-NEXT: OK gemm_reduction_consumer_kernel/gemm_reduction_consumer_kernel sm_80
// KERNELS-NEXT: OK gemm_reduction_consumer_kernel_{{[0-9]+}}/gemm_reduction_consumer_kernel sm_80
// KERNELS-NEXT: OK gemm_product_also_returned_kernel/gemm_product_also_returned_kernel sm_80
// KERNELS-NOT: OK

// The fused kernel's PTX has mma.sync, then per lane and fragment row the bias
// as one 8-byte load, the ReLU, one conversion of two f32 to f16x2 and one
// 4-byte store.
// PTX-LABEL: gpu.binary @gemm_bias_relu_f16_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-SAME: ld.global.v2.b32
// PTX-SAME: max.NaN.f32
// PTX-SAME: cvt.rn.f16x2.f32
// PTX-SAME: st.global.b32
// PTX-LABEL: gpu.binary @gemm_gelu_residual_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// Before the nvgpu conversion (to-nvgpu=false), on the chain as three
// generics (the pipeline fuses them on tensors first; the pass fuses them
// too): no f32 buffer is left, the fill is gone, the payload runs on each
// 8-element row of a fragment and stores f16 to the last generic's output.
// VEC-LABEL: func.func @gemm_bias_relu_f16
// VEC-NOT: memref<2048x2048xf32>
// VEC: %[[OUT:.+]] = memref.alloc() {{.*}} : memref<2048x2048xf16>
// VEC-NOT: linalg.fill
// VEC: gpu.launch
// VEC: vector.contract
// VEC: scf.yield
// VEC: %[[ROW:.+]] = vector.extract %{{.*}}[0] : vector<8xf32> from vector<16x8xf32>
// VEC: %[[BIAS:.+]] = vector.load %{{.*}}[%{{.*}}] : memref<2048xf32>, vector<8xf32>
// VEC: %[[SUM:.+]] = arith.addf %[[ROW]], %[[BIAS]] : vector<8xf32>
// VEC: %[[RELU:.+]] = arith.maximumf %[[SUM]], %{{.*}} : vector<8xf32>
// VEC: %[[HALF:.+]] = arith.truncf %[[RELU]] : vector<8xf32> to vector<8xf16>
// VEC: vector.store %[[HALF]], %[[OUT]][{{.*}}] : memref<2048x2048xf16>, vector<8xf16>
// VEC-NOT: memref<2048x2048xf32>
// VEC: gpu.terminator
// VEC-NOT: linalg.generic
// VEC: return %[[OUT]]
// GELU and the f16 residual (identity map: an 8-element load per row).
// VEC-LABEL: func.func @gemm_gelu_residual
// VEC: gpu.launch
// VEC: vector.load %{{.*}} : memref<256x256xf16>, vector<8xf16>
// VEC: math.erf {{.*}} : vector<8xf32>
// VEC: arith.extf {{.*}} : vector<8xf16> to vector<8xf32>
// VEC: vector.store {{.*}} : memref<256x256xf16>, vector<8xf16>
// VEC-NOT: linalg.generic
// The transposed consumer is the epilogue: element (row, col) of the product
// is its element [col, row], stored one by one (8 rows of a column are 32
// consecutive bytes). C is not stored, nor allocated.
// VEC-LABEL: func.func @gemm_transposed_consumer
// VEC-NOT: linalg.fill
// VEC: %[[OUT:.+]] = memref.alloc() {{.*}} : memref<256x256xf32>
// VEC-NOT: memref.alloc
// VEC: gpu.launch
// VEC-NOT: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<256x256xf32>
// VEC: arith.maximumf {{.*}} : vector<8xf32>
// VEC: memref.store %{{.+}}, %[[OUT]][%[[COL:.+]], %[[ROW:.+]]] : memref<256x256xf32>
// VEC: memref.store %{{.+}}, %[[OUT]][%{{.+}}, %[[ROW]]] : memref<256x256xf32>
// VEC: gpu.terminator
// VEC-NOT: linalg.generic
// The reduction stays a linalg.generic after the kernel, which stores C
// (its fill still folded into the accumulators).
// VEC-LABEL: func.func @gemm_reduction_consumer
// VEC: gpu.launch
// VEC: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<256x256xf32>
// VEC: gpu.terminator
// VEC: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// The product is returned too: stored to C, and the biased copy to D.
// VEC-LABEL: func.func @gemm_product_also_returned
// VEC: gpu.launch
// VEC: vector.transfer_write {{.*}} : vector<16x8xf32>, memref<256x256xf32>
// VEC: arith.addf {{.*}} : vector<8xf32>
// VEC: vector.store {{.*}} : memref<256x256xf32>, vector<8xf32>
// VEC: gpu.terminator
// VEC-NOT: linalg.generic
// VEC: return

// After the nvgpu conversion: the payload on each lane's two elements.
// NVGPU-LABEL: func.func @gemm_bias_relu_f16
// NVGPU: nvgpu.mma.sync
// NVGPU: scf.yield
// NVGPU: gpu.lane_id
// NVGPU: vector.extract {{.*}} : vector<2xf32> from vector<2x2xf32>
// NVGPU: vector.load {{.*}} : memref<2048xf32>, vector<2xf32>
// NVGPU: arith.addf {{.*}} : vector<2xf32>
// NVGPU: arith.maximumf {{.*}} : vector<2xf32>
// NVGPU: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// NVGPU: vector.store {{.*}} : memref<2048x2048xf16>, vector<2xf16>
// NVGPU-NOT: memref<2048x2048xf32>
// NVGPU: gpu.terminator
// NVGPU-LABEL: func.func @gemm_product_also_returned
// NVGPU: vector.store {{.*}} : memref<256x256xf32>, vector<2xf32>
// NVGPU: arith.addf {{.*}} : vector<2xf32>
// NVGPU: vector.store {{.*}} : memref<256x256xf32>, vector<2xf32>

// Without fusion: the fill, the GEMM kernel reading C and three generics.
// NOFUSE-LABEL: func.func @gemm_bias_relu_f16
// NOFUSE: linalg.fill
// NOFUSE: gpu.launch
// NOFUSE-COUNT-3: linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
#row = affine_map<(i, j) -> (i)>
#tr = affine_map<(i, j) -> (j, i)>

func.func @gemm_bias_relu_f16(%a: tensor<2048x1024xf16>, %b: tensor<1024x2048xf16>, %bias: tensor<2048xf32>) -> tensor<2048x2048xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2048x1024xf16>, tensor<1024x2048xf16>) outs(%acc : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %e1 = tensor.empty() : tensor<2048x2048xf32>
  %biased = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<2048x2048xf32>, tensor<2048xf32>) outs(%e1 : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  %e2 = tensor.empty() : tensor<2048x2048xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%biased : tensor<2048x2048xf32>) outs(%e2 : tensor<2048x2048xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.maximumf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<2048x2048xf32>
  %eh = tensor.empty() : tensor<2048x2048xf16>
  %half = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%relu : tensor<2048x2048xf32>) outs(%eh : tensor<2048x2048xf16>) {
  ^bb0(%x: f32, %o: f16):
    %t = arith.truncf %x : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2048x2048xf16>
  return %half : tensor<2048x2048xf16>
}

func.func @gemm_gelu_residual(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %res: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %eh = tensor.empty() : tensor<256x256xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %res : tensor<256x256xf32>, tensor<256x256xf16>) outs(%eh : tensor<256x256xf16>) {
  ^bb0(%x: f32, %r0: f16, %o: f16):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %t = arith.mulf %x, %rsqrt2 : f32
    %erf = math.erf %t : f32
    %p = arith.addf %erf, %one : f32
    %h = arith.mulf %x, %half : f32
    %g = arith.mulf %h, %p : f32
    %rr = arith.extf %r0 : f16 to f32
    %s = arith.addf %g, %rr : f32
    %y = arith.truncf %s : f32 to f16
    linalg.yield %y : f16
  } -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}

func.func @gemm_transposed_consumer(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<256x256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.constant 0.0 : f32
    %s = arith.maximumf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @gemm_reduction_consumer(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%c : tensor<256x256xf32>) outs(%z1 : tensor<256xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  return %r : tensor<256xf32>
}

func.func @gemm_product_also_returned(%a: tensor<256x128xf16>, %b: tensor<128x256xf16>, %bias: tensor<256xf32>) -> (tensor<256x256xf32>, tensor<256x256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x256xf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %e1 = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e1 : tensor<256x256xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %c, %r : tensor<256x256xf32>, tensor<256x256xf32>
}
