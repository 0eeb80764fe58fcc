// The tensor-core kernel's BF16 and TF32 forms, checked without a GPU
// (their arithmetic runs on the CPU in
// Integration/CPU/tensor-core-dtypes-emulated.mlir). BF16: the tiles are
// byte buffers viewed as bf16 for the cp.async copies and as f16 for
// upstream's ldmatrix conversion (same bits), and every mma.sync becomes
// nvvm.mma.sync .bf16 (m16n8k16, i32 registers). TF32: f32 tiles (rows
// padded by 4 elements), m16n8k8 mma.sync marked tf32Enabled whose A and B
// registers are first rounded to TF32 (cvt.rna.tf32.f32: the hardware
// would truncate them; cuBLAS and the CPU emulation round), for matmuls
// with allow-tf32 and for any op carrying `opsnn.tf32`; without either an
// f32 matmul keeps the generic path, as does a matmul mixing f16 and bf16.
// INT8: i8 x i8 -> i32 on upstream's m16n8k32 .s8 mma.sync (saturating),
// B staged N x K: an FHWC filter by cp.async as it is, a K x N matrix
// transposed by plain loads and byte stores into shared memory.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-tf32=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true tensor-core-tf32=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=NOTF32
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=I8LOADS
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="allow-tf32" --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="allow-tf32 to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=64,64,16,32,32" 2>&1 | FileCheck %s --check-prefix=BADBK

// An i8 GEMM's K step must hold whole m16n8k32 fragments.
// BADBK: error: tiles=64,64,16,...: BK must be a multiple of 32 for 'i8' operands (one mma.sync fragment's K)

// Every tensor-core kernel assembles for both architectures without
// local-memory spills (A100 tiles).
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK gemm_bf16_kernel/gemm_bf16_kernel sm_80: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_bf16_kernel/gemm_bf16_kernel sm_90: {{[0-9]+}} registers, 12288 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_tf32_kernel/gemm_tf32_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv_bf16_kernel/conv_bf16_kernel sm_80: {{[0-9]+}} registers, 15360 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv_tf32_attr_kernel/conv_tf32_attr_kernel sm_80: {{[0-9]+}} registers, 13824 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_bf16_fused_kernel/gemm_bf16_fused_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_i8_kernel/gemm_i8_kernel sm_80: {{[0-9]+}} registers, 6912 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK gemm_i8_kernel/gemm_i8_kernel sm_90: {{[0-9]+}} registers, 6912 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv_i8_kernel/conv_i8_kernel sm_80: {{[0-9]+}} registers, 4608 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}

// PTX-LABEL: gpu.binary @gemm_bf16_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-NOT: f16.f16
// PTX-LABEL: gpu.binary @gemm_tf32_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: cvt.rna.tf32.f32
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-LABEL: gpu.binary @conv_bf16_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// PTX-LABEL: gpu.binary @conv_tf32_attr_kernel
// PTX-SAME: cvt.rna.tf32.f32
// PTX-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// PTX-LABEL: gpu.binary @gemm_mixed_kernel
// PTX-NOT: mma.sync
// PTX-LABEL: gpu.binary @gemm_bf16_fused_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// The i32 zero fills fold into the accumulators: one kernel each.
// PTX-LABEL: gpu.binary @gemm_i8_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: st.shared.b32
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32
// PTX-NOT: gpu.binary @gemm_i8_kernel_
// The K x N INT8 B is transposed into its N x K tile in 4 x 4 byte blocks:
// 4-byte loads along N, byte permutes, 4-byte shared stores along K; no
// byte loads or stores.
// I8LOADS-NOT: {{(ld.global|st.shared)}}.{{[bsu]}}8
// I8LOADS-LABEL: gpu.binary @gemm_i8_kernel
// I8LOADS-SAME: ld.global.b32
// I8LOADS-SAME: prmt.b32
// I8LOADS-SAME: st.shared.b32
// I8LOADS-NOT: {{(ld.global|st.shared)}}.{{[bsu]}}8
// PTX-LABEL: gpu.binary @conv_i8_kernel
// PTX-NOT: st.shared.b8
// PTX-SAME: mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32

// Without tensor-core-tf32 only the op with the attribute is on TF32.
// NOTF32-LABEL: gpu.binary @gemm_tf32_kernel
// NOTF32-NOT: mma.sync
// NOTF32-LABEL: gpu.binary @conv_bf16_kernel
// NOTF32-LABEL: gpu.binary @conv_tf32_attr_kernel
// NOTF32-SAME: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32

// NVGPU-LABEL: func.func @gemm_bf16
// NVGPU: workgroup(%[[A:.*]] : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>, %[[B:.*]] : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>)
// NVGPU-DAG: %[[FA:.*]] = memref.view %[[A]][%{{.*}}][] : {{.*}} to memref<3x32x40xf16, #gpu.address_space<workgroup>>
// NVGPU-DAG: %[[CA:.*]] = memref.view %[[A]][%{{.*}}][] : {{.*}} to memref<3x32x40xbf16, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.device_async_copy {{.*}}, %[[CA]][{{.*}}], 8 {bypassL1} : memref<256x128xbf16> to memref<3x32x40xbf16, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.ldmatrix %[[FA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xf16>
// NVGPU: vector.bitcast {{.*}} : vector<2xf16> to vector<1xi32>
// NVGPU: nvvm.mma.sync A[{{.*}}]  B[{{.*}}]  C[{{.*}}] {{{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// NVGPU-NOT: nvgpu.mma.sync
// NVGPU-LABEL: func.func @gemm_tf32
// NVGPU: workgroup(%{{.*}} : memref<3x32x36xf32, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.device_async_copy {{.*}}, 4 {bypassL1} : memref<256x128xf32>
// NVGPU: %[[FRAG_A:.*]] = nvgpu.ldmatrix {{.*}} -> vector<4x1xf32>
// NVGPU-COUNT-4: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// NVGPU: %[[ROUNDED_A:.*]] = vector.from_elements {{.*}} : vector<4x1xf32>
// NVGPU-COUNT-2: nvvm.convert.float.to.tf32 {{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// NVGPU: %[[ROUNDED_B:.*]] = vector.from_elements {{.*}} : vector<2x1xf32>
// NVGPU: nvgpu.mma.sync(%[[ROUNDED_A]], %[[ROUNDED_B]], %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// NVGPU-LABEL: func.func @gemm_mixed
// NVGPU: linalg.matmul

// Before the nvgpu conversion the bf16 fragments are still bf16 (the f16
// reading is only for upstream's conversion).
// VEC-LABEL: func.func @gemm_bf16
// VEC: vector.contract {{.*}} : vector<16x16xbf16>, vector<8x16xbf16> into vector<16x8xf32>
// VEC-LABEL: func.func @gemm_tf32
// VEC: vector.contract {{.*}} : vector<16x8xf32>, vector<8x8xf32> into vector<16x8xf32>

func.func @gemm_bf16(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

func.func @gemm_tf32(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xf32>, tensor<128x256xf32>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

func.func @conv_bf16(%x: tensor<1x58x58x64xbf16>, %w: tensor<3x3x64x64xbf16>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x58x58x64xbf16>, tensor<3x3x64x64xbf16>) outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %y : tensor<1x56x56x64xf32>
}

// FHWC filter, f32 as TF32 by the op's attribute (no allow-tf32 needed).
func.func @conv_tf32_attr(%x: tensor<1x30x30x32xf32>, %w: tensor<64x3x3x32xf32>) -> tensor<1x28x28x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  %y = linalg.conv_2d_nhwc_fhwc {opsnn.tf32, strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x30x30x32xf32>, tensor<64x3x3x32xf32>) outs(%acc : tensor<1x28x28x64xf32>) -> tensor<1x28x28x64xf32>
  return %y : tensor<1x28x28x64xf32>
}

// Mixed input types keep the generic path.
func.func @gemm_mixed(%a: tensor<64x64xf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = linalg.matmul ins(%a, %b : tensor<64x64xf16>, tensor<64x64xbf16>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// BF16 with a fused epilogue: bias, ReLU, stored as bf16.
func.func @gemm_bf16_fused(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>, %bias: tensor<256xf32>) -> tensor<256x256xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xbf16>, tensor<128x256xbf16>) outs(%acc : tensor<256x256xf32>) -> tensor<256x256xf32>
  %eb = tensor.empty() : tensor<256x256xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%eb : tensor<256x256xbf16>) {
  ^bb0(%x: f32, %y: f32, %o: bf16):
    %s = arith.addf %x, %y : f32
    %z = arith.maximumf %s, %zero : f32
    %t = arith.truncf %z : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<256x256xbf16>
  return %r : tensor<256x256xbf16>
}

func.func @gemm_i8(%a: tensor<256x128xi8>, %b: tensor<128x256xi8>) -> tensor<256x256xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<256x256xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<256x256xi32>) -> tensor<256x256xi32>
  %c = linalg.matmul ins(%a, %b : tensor<256x128xi8>, tensor<128x256xi8>) outs(%acc : tensor<256x256xi32>) -> tensor<256x256xi32>
  return %c : tensor<256x256xi32>
}

func.func @conv_i8(%x: tensor<1x30x30x32xi8>, %w: tensor<64x3x3x32xi8>) -> tensor<1x28x28x64xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x28x28x64xi32>
  %acc = linalg.fill ins(%zero : i32) outs(%e : tensor<1x28x28x64xi32>) -> tensor<1x28x28x64xi32>
  %y = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x30x30x32xi8>, tensor<64x3x3x32xi8>) outs(%acc : tensor<1x28x28x64xi32>) -> tensor<1x28x28x64xi32>
  return %y : tensor<1x28x28x64xi32>
}
