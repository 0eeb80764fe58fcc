// NHWC convolutions as implicit GEMMs on the tensor-core kernel, run on the
// CPU (emulate-on-cpu) against NumPy: the im2col index arithmetic of the
// A copies (m -> n, oh, ow; k -> kh, kw, c), the collapsed filter and
// output views and the transposed B operand of FHWC filters. Target "host"
// (2 SMs) picks large blocks with 4 warps; "a100" (108 SMs) picks the
// smallest blocks, one warp, guarded copies. Stride 1 with batch 2, stride
// 2, a strided 1x1 (ResNet's downsample) and dilation 2.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// The pipeline's stage indexing with two and three stages explicitly.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-stages=3}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=host emulate-on-cpu" | FileCheck %s
// REF: out0 = ref.conv_nhwc_hwcf(in0, in1)
// REF: out1 = ref.conv_nhwc_hwcf(in2, in3, strides=[2, 2])
// REF: out2 = ref.conv_nhwc_fhwc(in4, in5, strides=[2, 2])
// REF: out3 = ref.conv_nhwc_fhwc(in6, in7, dilations=[2, 2])
// TOL: 1e-5

// Every convolution took the kernel path: GEMM views, no conv left.
// CHECK-LABEL: func.func @convs
// CHECK: memref.collapse_shape {{.*}} : memref<3x3x32x64xf16> into memref<288x64xf16>
// CHECK: memref.collapse_shape {{.*}} : memref<2x8x8x64xf32> into memref<128x64xf32>
// CHECK: memref.collapse_shape {{.*}} : memref<3x3x16x32xf16> into memref<144x32xf16>
// CHECK: memref.collapse_shape {{.*}} : memref<128x1x1x64xf16> into memref<128x64xf16>
// CHECK: memref.collapse_shape {{.*}} : memref<32x3x3x16xf16> into memref<32x144xf16>
// CHECK-NOT: linalg.conv_2d

func.func @convs(%x0: tensor<2x10x10x32xf16>, %w0: tensor<3x3x32x64xf16>,
                 %x1: tensor<1x17x17x16xf16>, %w1: tensor<3x3x16x32xf16>,
                 %x2: tensor<2x16x16x64xf16>, %w2: tensor<128x1x1x64xf16>,
                 %x3: tensor<1x12x12x16xf16>, %w3: tensor<32x3x3x16xf16>)
    -> (tensor<2x8x8x64xf32>, tensor<1x8x8x32xf32>, tensor<2x8x8x128xf32>, tensor<1x8x8x32xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x8x8x64xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %y0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x0, %w0 : tensor<2x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%a0 : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %e1 = tensor.empty() : tensor<1x8x8x32xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y1 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x1, %w1 : tensor<1x17x17x16xf16>, tensor<3x3x16x32xf16>) outs(%a1 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %e2 = tensor.empty() : tensor<2x8x8x128xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  %y2 = linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x2, %w2 : tensor<2x16x16x64xf16>, tensor<128x1x1x64xf16>) outs(%a2 : tensor<2x8x8x128xf32>) -> tensor<2x8x8x128xf32>
  %a3 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  %y3 = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%x3, %w3 : tensor<1x12x12x16xf16>, tensor<32x3x3x16xf16>) outs(%a3 : tensor<1x8x8x32xf32>) -> tensor<1x8x8x32xf32>
  return %y0, %y1, %y2, %y3 : tensor<2x8x8x64xf32>, tensor<1x8x8x32xf32>, tensor<2x8x8x128xf32>, tensor<1x8x8x32xf32>
}
