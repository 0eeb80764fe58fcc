// The tensor-core convolution's epilogue fusion, checked without a GPU: an
// NHWC convolution run as an implicit GEMM folds its output's zero fill
// into the accumulators and applies its elementwise consumers (per-channel
// bias, residual, ReLU, the cast to f16) to the fragments in the GEMM's
// M x N space (M = N*OH*OW, N = F) before they are stored, so conv + bias +
// ReLU + cast is one kernel (three without fusion: fill, conv, elementwise)
// and the f32 output never reaches global memory. A consumer that reads
// the output with OH and OW swapped is fused too: each of its row indices
// is taken from the M x N row ((row floordiv stride) mod size). No kernel
// divides in 64 bits (--implicit-check-not=mul.hi.s64 on the PTX run): the
// im2col indices are 32-bit (lib/Transforms/NarrowIndexArithmetic.h).
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_90 tensor-cores=true" | %ptxas_check --arch sm_90 | FileCheck %s --check-prefix=PTXAS90
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX --implicit-check-not=mul.hi.s64
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul --canonicalize | FileCheck %s --check-prefix=NVGPU
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="fuse-epilogue=false" --canonicalize | FileCheck %s --check-prefix=NOFUSE

// The kernels, all of them, for both architectures without spills: one per
// fused convolution (ResNet-50's stage-1 3x3 + bias + ReLU + f16, the
// downsample 1x1 stride 2 + f16 shortcut + ReLU + f16, the conv + the
// residual read with OH and OW swapped).
// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK conv3x3_bias_relu_f16_kernel/conv3x3_bias_relu_f16_kernel sm_80: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NEXT: OK conv3x3_bias_relu_f16_kernel/conv3x3_bias_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NEXT: OK downsample_residual_relu_f16_kernel/downsample_residual_relu_f16_kernel sm_80: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NEXT: OK downsample_residual_relu_f16_kernel/downsample_residual_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NEXT: OK conv_consumer_swaps_oh_ow_kernel/conv_consumer_swaps_oh_ow_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem
// PTXAS-NEXT: OK conv_consumer_swaps_oh_ow_kernel/conv_consumer_swaps_oh_ow_kernel sm_90: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem
// PTXAS-NOT: OK
// PTXAS90-NOT: FAIL
// PTXAS90: OK conv3x3_bias_relu_f16_kernel/conv3x3_bias_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads
// PTXAS90: OK downsample_residual_relu_f16_kernel/downsample_residual_relu_f16_kernel sm_90: {{[0-9]+}} registers, {{[0-9]+}} B smem, 0 B spill stores, 0 B spill loads
// PTXAS90-NOT: FAIL
// PTXAS90-NOT: {{[1-9][0-9]* B spill}}

// The fused kernels' PTX has mma.sync, then per lane and fragment row the
// bias as one 8-byte load (the f16 shortcut as one 4-byte load of two
// halves, each widened), the
// ReLU, one conversion of two f32 to f16x2 and one 4-byte store.
// PTX-LABEL: gpu.binary @conv3x3_bias_relu_f16_kernel
// PTX-SAME: cp.async.cg.shared.global
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-SAME: ld.global.v2.b32
// PTX-SAME: max.NaN.f32
// PTX-SAME: cvt.rn.f16x2.f32
// PTX-SAME: st.global.b32
// PTX-LABEL: gpu.binary @downsample_residual_relu_f16_kernel
// PTX-SAME: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// PTX-SAME: ld.global.v2.b16
// PTX-SAME: max.NaN.f32
// PTX-SAME: cvt.rn.f16x2.f32
// PTX-SAME: st.global.b32

// After the nvgpu conversion: no f32 output buffer, the payload on each
// lane's two elements, the bias read by column, the f16 result stored to
// the M x N view of the consumer's output (3136 = 56*56 rows).
// NVGPU-LABEL: func.func @conv3x3_bias_relu_f16
// NVGPU-NOT: memref<1x56x56x64xf32>
// NVGPU: %[[OUT:.+]] = memref.alloc() {{.*}} : memref<1x56x56x64xf16>
// NVGPU: %[[VIEW:.+]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2], [3]] : memref<1x56x56x64xf16> into memref<3136x64xf16>
// NVGPU: gpu.launch
// NVGPU: nvgpu.mma.sync
// NVGPU: gpu.lane_id
// NVGPU: vector.load %arg2[%{{.+}}] {alignment = 8 : i64} : memref<64xf32>, vector<2xf32>
// NVGPU: arith.addf {{.*}} : vector<2xf32>
// NVGPU: arith.maximumf {{.*}} : vector<2xf32>
// NVGPU: arith.truncf {{.*}} : vector<2xf32> to vector<2xf16>
// NVGPU: vector.store {{.*}}, %[[VIEW]][{{.*}}] {alignment = 4 : i64} : memref<3136x64xf16>, vector<2xf16>
// NVGPU-NOT: vector.store {{.*}}, vector<2xf32>
// NVGPU: gpu.terminator
// NVGPU-NOT: linalg.
// NVGPU: return %[[OUT]]
// The shortcut through its own M x N view (784 = 28*28 rows).
// NVGPU-LABEL: func.func @downsample_residual_relu_f16
// NVGPU-NOT: memref<1x28x28x512xf32>
// NVGPU-DAG: %[[SHORTCUT:.+]] = memref.collapse_shape %arg2 {{\[\[}}0, 1, 2], [3]] : memref<1x28x28x512xf16> into memref<784x512xf16>
// NVGPU: gpu.launch
// NVGPU: nvgpu.mma.sync
// NVGPU: vector.load %[[SHORTCUT]][{{.*}}] {alignment = 4 : i64} : memref<784x512xf16>, vector<2xf16>
// NVGPU: vector.store {{.*}} : memref<784x512xf16>, vector<2xf16>
// NVGPU: gpu.terminator
// NVGPU-NOT: linalg.
// The consumer that swaps OH and OW: its residual is read at (n, ow, oh)
// from the row index, the consumer is the epilogue.
// NVGPU-LABEL: func.func @conv_consumer_swaps_oh_ow
// NVGPU: gpu.launch
// NVGPU: vector.load %arg2[{{.*}}] {{.*}} : memref<1x16x16x64xf32>, vector<2xf32>
// NVGPU: vector.store {{.*}} : memref<256x64xf32>, vector<2xf32>
// NVGPU: gpu.terminator
// NVGPU-NOT: linalg.generic

// Without fusion: the fill, the conv kernel reading its output, the
// consumer.
// NOFUSE-LABEL: func.func @conv3x3_bias_relu_f16
// NOFUSE: linalg.fill
// NOFUSE: gpu.launch
// NOFUSE: linalg.generic

#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#ch = affine_map<(n, h, w, f) -> (f)>
#swap = affine_map<(n, h, w, f) -> (n, w, h, f)>

func.func @conv3x3_bias_relu_f16(%in: tensor<1x58x58x64xf16>, %f: tensor<3x3x64x64xf16>, %bias: tensor<64xf32>) -> tensor<1x56x56x64xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%acc : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %eh = tensor.empty() : tensor<1x56x56x64xf16>
  %r = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %bias : tensor<1x56x56x64xf32>, tensor<64xf32>) outs(%eh : tensor<1x56x56x64xf16>) {
  ^bb0(%x: f32, %b: f32, %o: f16):
    %s = arith.addf %x, %b : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %z : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x56x56x64xf16>
  return %r : tensor<1x56x56x64xf16>
}

func.func @downsample_residual_relu_f16(%in: tensor<1x56x56x256xf16>, %f: tensor<1x1x256x512xf16>, %shortcut: tensor<1x28x28x512xf16>) -> tensor<1x28x28x512xf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%in, %f : tensor<1x56x56x256xf16>, tensor<1x1x256x512xf16>) outs(%acc : tensor<1x28x28x512xf32>) -> tensor<1x28x28x512xf32>
  %eh = tensor.empty() : tensor<1x28x28x512xf16>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %shortcut : tensor<1x28x28x512xf32>, tensor<1x28x28x512xf16>) outs(%eh : tensor<1x28x28x512xf16>) {
  ^bb0(%x: f32, %s: f16, %o: f16):
    %se = arith.extf %s : f16 to f32
    %sum = arith.addf %x, %se : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %sum, %z : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x28x28x512xf16>
  return %r : tensor<1x28x28x512xf16>
}

func.func @conv_consumer_swaps_oh_ow(%in: tensor<1x18x18x32xf16>, %f: tensor<3x3x32x64xf16>, %res: tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%in, %f : tensor<1x18x18x32xf16>, tensor<3x3x32x64xf16>) outs(%acc : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %e1 = tensor.empty() : tensor<1x16x16x64xf32>
  %r = linalg.generic {indexing_maps = [#id, #swap, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %res : tensor<1x16x16x64xf32>, tensor<1x16x16x64xf32>) outs(%e1 : tensor<1x16x16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<1x16x16x64xf32>
  return %r : tensor<1x16x16x64xf32>
}
