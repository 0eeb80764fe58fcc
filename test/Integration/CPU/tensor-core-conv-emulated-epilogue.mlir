// NHWC convolutions on the tensor-core kernel with their epilogues fused,
// run on the CPU (emulate-on-cpu) against NumPy: the zero fill of the output
// folds into the accumulators and the elementwise consumers, which iterate
// over (n, oh, ow, f), run on the fragments in the kernel's M x N space
// (M = N*OH*OW rows, F columns): a per-channel bias read as a column
// vector, a residual through the M x N view of its buffer, ReLU and the
// cast to f16. Two ResNet shapes: a 3x3 conv + bias + ReLU, and the
// bottleneck tail, a strided 1x1 (FHWC) + f16 shortcut + ReLU. Inputs are
// bufferized first so the pass sees the consumers as separate generics (a
// chain of two for the tail) rather than the pipeline's fused one; the
// second run goes through the pipeline on tensors, with A100 tiles (one
// warp per block, guarded copies).
// RUN: %check --pipeline="one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=host emulate-on-cpu" | FileCheck %s
// REF: out0 = np.maximum(ref.conv_nhwc_hwcf(in0, in1) + in2, 0).astype(np.float16)
// REF: out1 = np.maximum(ref.conv_nhwc_fhwc(in3, in4, strides=[2, 2]) + in5, 0).astype(np.float16)
// TOL: 1e-3

// Both convolutions took the kernel path with everything fused: no f32
// output buffer, no fill, no generic left; the epilogue stores f16 rows to
// the M x N views of the outputs, reading the bias by column and the
// shortcut through its own M x N view.
// CHECK-LABEL: func.func @conv_epilogues
// CHECK-NOT: memref<2x8x8x64xf32>
// CHECK-NOT: memref<2x8x8x128xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[OUT0:.+]] = memref.alloc() {{.*}} : memref<2x8x8x64xf16>
// CHECK: %[[VIEW0:.+]] = memref.collapse_shape %[[OUT0]] {{\[\[}}0, 1, 2], [3]] : memref<2x8x8x64xf16> into memref<128x64xf16>
// CHECK: scf.for
// CHECK: vector.load %arg2[%{{.+}}] : memref<64xf32>, vector<8xf32>
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: arith.truncf {{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: vector.store %{{.+}}, %[[VIEW0]][{{.*}}] : memref<128x64xf16>, vector<8xf16>
// CHECK: %[[OUT1:.+]] = memref.alloc() {{.*}} : memref<2x8x8x128xf16>
// CHECK-DAG: %[[SHORTCUT:.+]] = memref.collapse_shape %arg5 {{\[\[}}0, 1, 2], [3]] : memref<2x8x8x128xf16> into memref<128x128xf16>
// CHECK-DAG: %[[VIEW1:.+]] = memref.collapse_shape %[[OUT1]] {{\[\[}}0, 1, 2], [3]] : memref<2x8x8x128xf16> into memref<128x128xf16>
// CHECK: scf.for
// CHECK: vector.load %[[SHORTCUT]][{{.*}}] : memref<128x128xf16>, vector<8xf16>
// CHECK: arith.extf
// CHECK: arith.maximumf {{.*}} : vector<8xf32>
// CHECK: vector.store %{{.+}}, %[[VIEW1]][{{.*}}] : memref<128x128xf16>, vector<8xf16>
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref<2x8x8x128xf32>
// CHECK-NOT: linalg.conv_2d
// CHECK: return %[[OUT0]], %[[OUT1]]

#id = affine_map<(n, h, w, f) -> (n, h, w, f)>
#ch = affine_map<(n, h, w, f) -> (f)>

func.func @conv_epilogues(%x0: tensor<2x10x10x32xf16>, %w0: tensor<3x3x32x64xf16>, %bias: tensor<64xf32>,
                          %x1: tensor<2x16x16x64xf16>, %w1: tensor<128x1x1x64xf16>, %shortcut: tensor<2x8x8x128xf16>)
    -> (tensor<2x8x8x64xf16>, tensor<2x8x8x128xf16>) {
  %zero = arith.constant 0.0 : f32
  // 3x3 + bias + ReLU + f16, one generic.
  %e0 = tensor.empty() : tensor<2x8x8x64xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %y0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x0, %w0 : tensor<2x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%a0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %h0 = tensor.empty() : tensor<2x8x8x64xf16>
  %r0 = linalg.generic {indexing_maps = [#id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y0, %bias : tensor<2x8x8x64xf32>, tensor<64xf32>) outs(%h0 : tensor<2x8x8x64xf16>) {
  ^bb0(%v: f32, %b: f32, %o: f16):
    %s = arith.addf %v, %b : f32
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %s, %z : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x8x64xf16>
  // Strided 1x1 + f16 shortcut, then ReLU + f16: a chain of two.
  %e1 = tensor.empty() : tensor<2x8x8x128xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  %y1 = linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x1, %w1 : tensor<2x16x16x64xf16>, tensor<128x1x1x64xf16>) outs(%a1 : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  %e2 = tensor.empty() : tensor<2x8x8x128xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1, %shortcut : tensor<2x8x8x128xf32>, tensor<2x8x8x128xf16>) outs(%e2 : tensor<2x8x8x128xf32>) {
  ^bb0(%v: f32, %r: f16, %o: f32):
    %rr = arith.extf %r : f16 to f32
    %s = arith.addf %v, %rr : f32
    linalg.yield %s : f32
  } -> tensor<2x8x8x128xf32>
  %h1 = tensor.empty() : tensor<2x8x8x128xf16>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%sum : tensor<2x8x8x128xf32>) outs(%h1 : tensor<2x8x8x128xf16>) {
  ^bb0(%v: f32, %o: f16):
    %z = arith.constant 0.0 : f32
    %m = arith.maximumf %v, %z : f32
    %t = arith.truncf %m : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x8x128xf16>
  return %r0, %r1 : tensor<2x8x8x64xf16>, tensor<2x8x8x128xf16>
}
