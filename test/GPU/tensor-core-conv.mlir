// NHWC convolutions on the tensor-core GEMM kernel as implicit GEMMs,
// checked without a GPU: f16 x f16 -> f32 conv_2d_nhwc_hwcf/fhwc through
// --opsnn-lower-to-nvvm="tensor-cores=true" for sm_80 and sm_90. The A
// tile's 16-byte copies read the input directly (no im2col buffer) and must
// still become cp.async; the kernels assemble with ptxas without spills;
// a convolution whose C is not a multiple of 8 is taken with its A copied
// element by element (the pipeline pads its channels first:
// --opsnn-pad-conv-channels).
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=PTXAS90
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX --implicit-check-not=mul.hi.s64
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="to-nvgpu=false" --canonicalize | FileCheck %s --check-prefix=VEC
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: not ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="tiles=32,8,16,16,8 fuse-epilogue=false" 2>&1 | FileCheck %s --check-prefix=BADTILES

// The tensor-core kernels (the only ones with shared memory) assemble for
// both architectures without local-memory spills. ResNet-50's stage-1 3x3
// (58x58x64 padded input, 56x56x64 output; A100 tiles 32x32x32, 4 warps,
// 3 stages of 5120 B): 48/48 registers on sm_80/sm_90 (38/38 with one
// stage). The 1x1 stride-2 conv has K = 64: two K steps, two stages.
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK conv3x3_kernel/conv3x3_kernel sm_80: {{[0-9]+}} registers, 6912 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv3x3_kernel/conv3x3_kernel sm_90: {{[0-9]+}} registers, 6912 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv1x1s2_kernel/conv1x1s2_kernel sm_80: {{[0-9]+}} registers, 3840 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK conv1x1s2_kernel/conv1x1s2_kernel sm_90: {{[0-9]+}} registers, 3840 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK resnet_3x3_kernel/resnet_3x3_kernel sm_80: {{[0-9]+}} registers, 15360 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK resnet_3x3_kernel/resnet_3x3_kernel sm_90: {{[0-9]+}} registers, 15360 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// ResNet-50's downsample (M = 784 = 16 x 49) takes 64x32 blocks of 4
// warps, 13 block rows of which the last holds 16 of its 64 (a ragged M,
// 6% of the grid), rather than the 16x32 one-warp blocks that divide M:
// 3 stages of 7680 B.
// PTXAS: OK resnet_downsample_kernel/resnet_downsample_kernel sm_80: {{[0-9]+}} registers, 23040 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK resnet_downsample_kernel/resnet_downsample_kernel sm_90: {{[0-9]+}} registers, 23040 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS90-NOT: FAIL
// PTXAS90: OK resnet_3x3_kernel/resnet_3x3_kernel sm_90: {{[0-9]+}} registers, 15360 B smem, 0 B spill stores, 0 B spill loads
// PTXAS90-NOT: FAIL
// PTXAS90-NOT: {{[1-9][0-9]* B spill}}

// No kernel divides in 64 bits (--implicit-check-not=mul.hi.s64 on the PTX
// run): the im2col indices are split from m and k in 32-bit unsigned
// arithmetic (lib/Transforms/NarrowIndexArithmetic.h).
// The implicit-GEMM kernels have 16-byte cp.async copies, ldmatrix (x4 for
// A; transposed x2 for an HWCF filter, plain x2 for an FHWC one) and
// mma.sync m16n8k16; the C = 4 convolution's comes after the pipeline's
// two kernels padding its input to 8 channels (a fill, a copy) and two for
// its filter (an argument).
// PTX-LABEL: gpu.binary @conv3x3_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @conv1x1s2_kernel
// PTX-SAME: cp.async.cg.shared.global [{{[^]]+}}], [{{[^]]+}}], 16;
// PTX-SAME: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @conv_c4_kernel
// PTX-NOT: mma.sync
// PTX: gpu.binary @conv_c4_kernel_3 {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-LABEL: gpu.binary @resnet_downsample_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32

// Before the nvgpu conversion: the output and the filter become GEMM views,
// the grid covers M = N*OH*OW rows (16x8 blocks for 256x64 on the A100:
// 8 x 16 blocks of one warp), and each A copy is one vector<8xf16> read
// of the 4-D input at (n, h, w, c) = (m / 256, (m / 16) % 16 + k / 96,
// m % 16 + (k / 32) % 3, k % 32), in 32-bit unsigned arithmetic (m and k
// are below M = 256 and K = 288).
// VEC-LABEL: func.func @conv3x3
// VEC: memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<3x3x32x64xf16> into memref<288x64xf16>
// VEC: %[[C:.+]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : memref<1x16x16x64xf32> into memref<256x64xf32>
// VEC: gpu.launch blocks({{.*}}) in ({{.*}} = %c8, {{.*}} = %c16, {{.*}}) threads({{.*}}) in ({{.*}} = %c32, {{.*}}) workgroup({{.*}} : memref<3x16x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<3x32x16xf16, #gpu.address_space<workgroup>>)
// The zero fill folds into the accumulators: C is not read.
// VEC-NOT: vector.transfer_read %[[C]]
// VEC: scf.for
// VEC: %[[M:.+]] = arith.index_castui %{{.+}} : index to i32
// VEC-NEXT: %[[N32:.+]] = arith.divui %[[M]], %c256_i32 : i32
// VEC-NEXT: %[[N:.+]] = arith.index_castui %[[N32]] : i32 to index
// VEC: %[[OHW:.+]] = arith.divui %{{.+}}, %c16_i32 : i32
// VEC-NEXT: %[[OH:.+]] = arith.remui %[[OHW]], %c16_i32 : i32
// VEC-NEXT: %[[K:.+]] = arith.index_castui %{{.+}} : index to i32
// VEC-NEXT: %[[KH:.+]] = arith.divui %[[K]], %c96_i32 : i32
// VEC-NEXT: %[[H32:.+]] = arith.addi %[[OH]], %[[KH]] overflow<nsw> : i32
// VEC-NEXT: %[[H:.+]] = arith.index_castui %[[H32]] : i32 to index
// VEC: %[[W:.+]] = arith.index_castui %{{.+}} : i32 to index
// VEC: %[[CH32:.+]] = arith.remui %{{.+}}, %c32_i32 : i32
// VEC-NEXT: %[[CH:.+]] = arith.index_castui %[[CH32]] : i32 to index
// VEC-NEXT: vector.transfer_read %arg0[%[[N]], %[[H]], %[[W]], %[[CH]]], %{{.*}} {in_bounds = [true]} : memref<1x18x18x32xf16>, vector<8xf16>
// VEC-NOT: linalg.conv_2d
// The FHWC filter is the F x K matrix; its tile is staged as BN x BK and
// read without a permutation map.
// VEC-LABEL: func.func @conv1x1s2
// VEC: memref.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : memref<128x1x1x64xf16> into memref<128x64xf16>
// VEC: workgroup({{.*}} : memref<2x16x40xf16, #gpu.address_space<workgroup>>, {{.*}} : memref<2x8x40xf16, #gpu.address_space<workgroup>>)
// VEC: vector.transfer_read %arg0[{{.*}}], %{{.*}} {in_bounds = [true]} : memref<2x16x16x64xf16>, vector<8xf16>
// VEC: vector.transfer_read {{.*}} {in_bounds = [true, true]} : memref<2x8x40xf16, #gpu.address_space<workgroup>>, vector<8x16xf16>
// VEC-NOT: linalg.conv_2d
// C = 4: a 16-byte chunk would span two filter taps, so A's elements are
// loaded one by one: element e of a chunk is channel e mod 4 (the chunks
// start at multiples of 8 in K).
// VEC-LABEL: func.func @conv_c4
// VEC: gpu.launch
// VEC: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c0] : memref<1x18x18x4xf16>
// VEC: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c1] : memref<1x18x18x4xf16>
// VEC: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c2] : memref<1x18x18x4xf16>
// VEC: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c3] : memref<1x18x18x4xf16>
// VEC-NOT: linalg.conv_2d
// An FHWC filter of whole rows (K = 16) keeps its 16-byte copies while A
// is copied element by element.
// VEC-LABEL: func.func @conv_fhwc_c4
// VEC: gpu.launch
// VEC: memref.load %arg0[%{{.*}}, %{{.*}}, %{{.*}}, %c3] : memref<1x17x17x4xf16>
// VEC: vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<64x16xf16>, vector<8xf16>
// VEC-NOT: memref.load %{{.*}} : memref<64x16xf16>
// VEC-NOT: linalg.conv_2d

// After upstream's nvgpu conversion the input reads are cp.async copies
// from the 4-D input into the A tile.
// NVGPU-LABEL: func.func @conv3x3
// NVGPU-COUNT-2: nvgpu.device_async_copy %arg0[{{.*}}, {{.*}}, {{.*}}, {{.*}}], %{{.*}}[%c0, {{.*}}], 8 {bypassL1} : memref<1x18x18x32xf16> to memref<3x16x40xf16, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.device_async_copy {{.*}} : memref<288x64xf16> to memref<3x32x16xf16, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.device_async_create_group
// NVGPU: nvgpu.device_async_wait {{.*}} {numGroups = 1 : i32}
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<3x16x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = true} : memref<3x32x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// NVGPU: nvgpu.mma.sync
// NVGPU-NOT: vector.contract
// NVGPU-LABEL: func.func @conv1x1s2
// NVGPU: nvgpu.device_async_copy %arg0[{{.*}}], 8 {bypassL1} : memref<2x16x16x64xf16> to memref<2x16x40xf16, #gpu.address_space<workgroup>>
// NVGPU: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// NVGPU: nvgpu.ldmatrix {{.*}} {numTiles = 2 : i32, transpose = false} : memref<2x8x40xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// NVGPU: nvgpu.mma.sync
// NVGPU-NOT: vector.contract
// NVGPU-LABEL: func.func @resnet_3x3
// NVGPU-LABEL: func.func @conv_fhwc_c4
// NVGPU: nvgpu.device_async_copy {{.*}}, 8 {bypassL1} : memref<64x16xf16> to memref<{{.*}}xf16, #gpu.address_space<workgroup>>

// Forced tiles that do not divide a convolution's implicit GEMM are an
// error at the convolution (M = 784 here), not a silent generic path. (A
// ragged M is accepted when the output's zero fill folds into the
// accumulators: fuse-epilogue=false keeps C read, so M must divide.)
// BADTILES: tensor-core-conv.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tiles=32,8,16,...: BM and BN must divide the GEMM's M and N (784x512x256): C is read (no constant fill folds)

func.func @conv3x3(%in: tensor<1x18x18x32xf16>, %f: tensor<3x3x32x64xf16>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x18x18x32xf16>, tensor<3x3x32x64xf16>) outs(%acc : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %c : tensor<1x16x16x64xf32>
}

func.func @conv1x1s2(%in: tensor<2x16x16x64xf16>, %f: tensor<128x1x1x64xf16>) -> tensor<2x8x8x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x128xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<2x16x16x64xf16>, tensor<128x1x1x64xf16>) outs(%acc : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  return %c : tensor<2x8x8x128xf32>
}

func.func @resnet_3x3(%in: tensor<1x58x58x64xf16>, %f: tensor<3x3x64x64xf16>) -> tensor<1x56x56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %c : tensor<1x56x56x64xf32>
}

func.func @conv_c4(%in: tensor<1x18x18x4xf16>, %f: tensor<3x3x4x64xf16>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x18x18x4xf16>, tensor<3x3x4x64xf16>) outs(%acc : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %c : tensor<1x16x16x64xf32>
}

// FHWC with C = 4 and a 2x2 filter: A is copied element by element, but
// the filter's rows are K = 2*2*4 = 16 elements, whole 16-byte chunks.
func.func @conv_fhwc_c4(%in: tensor<1x17x17x4xf16>, %f: tensor<64x2x2x4xf16>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x17x17x4xf16>, tensor<64x2x2x4xf16>) outs(%acc : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %c : tensor<1x16x16x64xf32>
}

// ResNet-50's stage-1 -> stage-2 downsample: 1x1 stride 2 (M = 784, so
// only 16-row blocks divide it).
func.func @resnet_downsample(%in: tensor<1x56x56x256xf16>, %f: tensor<1x1x256x512xf16>) -> tensor<1x28x28x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x56x56x256xf16>, tensor<1x1x256x512xf16>) outs(%acc : tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32>
  return %c : tensor<1x28x28x512xf32>
}
