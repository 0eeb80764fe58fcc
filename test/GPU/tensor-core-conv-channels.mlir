// Convolutions of 3-channel images on tensor cores, checked without a GPU
// (the arithmetic runs on the CPU in
// Integration/CPU/tensor-core-conv-channels-emulated.mlir): the tensor-core
// pipeline pads C to 8 FP16 channels before bufferization
// (--opsnn-pad-conv-channels). ResNet-50's stem (224x224x3, 7x7, stride 2,
// padded by 3, 64 filters): K = 7 * 7 * 8 = 392, ragged in the last K
// step; its input is padded once for H, W and C (a fill and a copy kernel)
// and so is its filter, an argument here. ViT's patch embedding (16x16
// patches of a 224x224 image, 32 filters) with a constant filter: padded at
// compile time, so only the image's fill and copy kernels come with it.
// With tensor-core-pad-channels=false (and the kernel pass on its own) no
// channel is padded: the kernel copies the im2col rows element by element,
// each element from its own filter tap, the spatial padding read through
// bounds checks, K = 7 * 7 * 3 = 147: one kernel each.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-pad-conv-channels --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-pad-channels=false" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=UNPADDED-PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true tensor-core-pad-channels=false" | FileCheck %s --check-prefix=UNPADDED-PTX --implicit-check-not=mul.hi.s64
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=UNPADDED

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK stem_kernel_3/stem_kernel sm_80: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK stem_kernel_3/stem_kernel sm_90:
// PTXAS: OK patch_embedding_kernel_{{[0-9]+}}/patch_embedding_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL

// Four small kernels (fill and copy of the input and of the filter), then
// the tensor-core one; two and one for the patch embedding (kernels are
// numbered across the module).
// PTX: gpu.binary @stem_kernel {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @stem_kernel_0 {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @stem_kernel_1 {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @stem_kernel_2 {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @stem_kernel_3 {{.*}}cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16, %r{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX: gpu.binary @patch_embedding_kernel {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @patch_embedding_kernel_{{[0-9]+}} {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @patch_embedding_kernel_{{[0-9]+}} {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-NOT: gpu.binary

// The stem reads its padded 230x230x8 input as it is (the H and W padding
// is no longer implicit) with K = 392 (the last step's copies past K are
// zeros); the patch embedding's filter is a 32x16x16x8 constant.
// NVGPU-LABEL: func.func @stem
// NVGPU: memref.alloc() {{.*}} : memref<1x230x230x8xf16>
// NVGPU: memref.subview {{.*}}[0, 3, 3, 0] [1, 224, 224, 3] [1, 1, 1, 1]
// NVGPU: memref.alloc() {{.*}} : memref<7x7x8x64xf16>
// NVGPU: gpu.launch
// NVGPU: arith.cmpi slt, %{{.*}}, %c392 : index
// NVGPU: nvgpu.device_async_copy {{.*}} : memref<1x230x230x8xf16> to memref
// NVGPU: nvgpu.mma.sync
// NVGPU-NOT: linalg.conv_2d
// NVGPU-LABEL: func.func @patch_embedding
// NVGPU-DAG: memref.get_global {{.*}} : memref<32x16x16x8xf16>
// NVGPU-DAG: memref.alloc() {{.*}} : memref<1x224x224x8xf16>
// NVGPU: nvgpu.mma.sync
// NVGPU-NOT: linalg.conv_2d

// UNPADDED-PTXAS-NOT: FAIL
// UNPADDED-PTXAS-NOT: {{[1-9][0-9]* B spill}}
// UNPADDED-PTXAS: OK stem_kernel/stem_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// UNPADDED-PTXAS: OK stem_kernel/stem_kernel sm_90:
// UNPADDED-PTXAS: OK patch_embedding_kernel/patch_embedding_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// UNPADDED-PTXAS-NOT: FAIL

// One kernel each (with no 64-bit division: the element copies' indices
// are 32-bit, --implicit-check-not=mul.hi.s64): the stem's HWCF filter
// (K x 64) still comes in 16-byte cp.async copies, its input in 2-byte
// loads; so do the patch embedding's FHWC filter rows (K = 16*16*3 = 768,
// whole 16-byte copies).
// UNPADDED-PTX: gpu.binary @stem_kernel
// UNPADDED-PTX-SAME: ld.global.b16
// UNPADDED-PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16,
// UNPADDED-PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// UNPADDED-PTX-NOT: gpu.binary
// UNPADDED-PTX: gpu.binary @patch_embedding_kernel
// UNPADDED-PTX-SAME: ld.global.b16
// UNPADDED-PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// UNPADDED-PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// UNPADDED-PTX-NOT: gpu.binary

// Element (m, k) of the stem's im2col matrix is input[n, oh*2 + kh - 3,
// ow*2 + kw - 3, c] with k = (kh * 7 + kw) * 3 + c: a load of the unpadded
// 224x224x3 input under K's and H's and W's bounds, zeros elsewhere; the
// indices in 32-bit unsigned arithmetic (m < 12544, k < 160), H and W
// sign-extended (-3 above and left of the image).
// UNPADDED-LABEL: func.func @stem
// UNPADDED-NOT: memref.alloc() {{.*}} : memref<1x230x230
// UNPADDED-NOT: memref.alloc() {{.*}} : memref<7x7x8x64xf16>
// UNPADDED: gpu.launch
// UNPADDED: arith.cmpi slt, %{{.*}}, %c147 : index
// UNPADDED-NEXT: %[[M:.*]] = arith.index_castui %{{.*}} : index to i32
// UNPADDED-NEXT: %[[N32:.*]] = arith.divui %[[M]], %c12544_i32 : i32
// UNPADDED-NEXT: %[[N:.*]] = arith.index_castui %[[N32]] : i32 to index
// UNPADDED: %[[KH:.*]] = arith.divui %{{.*}}, %c21_i32 : i32
// UNPADDED-NEXT: %[[H0:.*]] = arith.addi %{{.*}}, %[[KH]] overflow<nsw> : i32
// UNPADDED-NEXT: %[[H32:.*]] = arith.addi %[[H0]], %c-3_i32 overflow<nsw> : i32
// UNPADDED-NEXT: %[[H:.*]] = arith.index_cast %[[H32]] : i32 to index
// UNPADDED: %[[KW0:.*]] = arith.divui %{{.*}}, %c3_i32 : i32
// UNPADDED-NEXT: %[[KW:.*]] = arith.remui %[[KW0]], %c7_i32 : i32
// UNPADDED-NEXT: %[[W0:.*]] = arith.addi %{{.*}}, %[[KW]] overflow<nsw> : i32
// UNPADDED-NEXT: %[[W32:.*]] = arith.addi %[[W0]], %c-3_i32 overflow<nsw> : i32
// UNPADDED-NEXT: %[[W:.*]] = arith.index_cast %[[W32]] : i32 to index
// UNPADDED: %[[C32:.*]] = arith.remui %{{.*}}, %c3_i32 : i32
// UNPADDED-NEXT: %[[C:.*]] = arith.index_castui %[[C32]] : i32 to index
// UNPADDED-NEXT: arith.cmpi sge, %[[H]], %c0
// UNPADDED-NEXT: arith.cmpi slt, %[[H]], %c224
// UNPADDED-NEXT: arith.andi
// UNPADDED-NEXT: arith.cmpi sge, %[[W]], %c0
// UNPADDED-NEXT: arith.cmpi slt, %[[W]], %c224
// UNPADDED: scf.if
// UNPADDED-NEXT: memref.load %arg0[%[[N]], %[[H]], %[[W]], %[[C]]] : memref<1x224x224x3xf16>
// UNPADDED-NEXT: scf.yield
// UNPADDED-NEXT: } else {
// UNPADDED-NEXT: scf.yield %cst : f16
// UNPADDED: nvgpu.device_async_copy {{.*}} : memref<147x64xf16> to memref<3x32x72xf16, #gpu.address_space<workgroup>>
// UNPADDED: nvgpu.mma.sync
// UNPADDED-NOT: linalg.conv_2d
// UNPADDED-LABEL: func.func @patch_embedding
// UNPADDED-NOT: memref.alloc() {{.*}} : memref<1x224x224x8xf16>
// UNPADDED: memref.load %{{.*}} : memref<1x224x224x3xf16>
// UNPADDED: nvgpu.device_async_copy {{.*}} : memref<32x768xf16> to memref<{{.*}}xf16, #gpu.address_space<workgroup>>
// UNPADDED: nvgpu.mma.sync
// UNPADDED-NOT: linalg.conv_2d

func.func @stem(%x: tensor<1x224x224x3xf16>, %w: tensor<7x7x3x64xf16>) -> tensor<1x112x112x64xf32> {
  %zero = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z16 : f16
  } : tensor<1x224x224x3xf16> to tensor<1x230x230x3xf16>
  %e = tensor.empty() : tensor<1x112x112x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  %y = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x230x230x3xf16>, tensor<7x7x3x64xf16>) outs(%f : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  return %y : tensor<1x112x112x64xf32>
}

func.func @patch_embedding(%x: tensor<1x224x224x3xf16>) -> tensor<1x14x14x32xf32> {
  %w = arith.constant dense<0.5> : tensor<32x16x16x3xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x14x14x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  %y = linalg.conv_2d_nhwc_fhwc {strides = dense<16> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x224x224x3xf16>, tensor<32x16x16x3xf16>) outs(%f : tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32>
  return %y : tensor<1x14x14x32xf32>
}
