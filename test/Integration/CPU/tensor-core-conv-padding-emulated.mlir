// Zero-padded NHWC convolutions on the tensor-core kernel, run on the CPU
// (emulate-on-cpu) against NumPy: the kernel reads the unpadded input
// (fold-padding), with the taps outside it zero-filled, instead of the
// padded copy tensor.pad bufferizes to. Same padding on both sides (a
// ResNet 3x3), uneven padding with stride 2 and an FHWC 7x7 filter, and a
// padded input that is also read afterwards (a residual) with a bias and
// ReLU epilogue. "host" picks large blocks (rows of several images per
// block), "a100" the smallest.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=2}" %s
// RUN: ops-nn-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --opsnn-gpu-tensor-core-matmul="target=host emulate-on-cpu" | FileCheck %s
// REF: pad = lambda t, top, bottom, left, right: np.pad(t, ((0, 0), (top, bottom), (left, right), (0, 0)))
// REF: out0 = ref.conv_nhwc_hwcf(pad(in0, 1, 1, 1, 1), in1)
// REF: out1 = ref.conv_nhwc_fhwc(pad(in2, 3, 1, 2, 2), in3, strides=[2, 2])
// REF: out2 = np.maximum(ref.conv_nhwc_hwcf(pad(in4, 1, 1, 1, 1), in5) + in6, 0) + in4.astype(np.float32)
// TOL: 1e-5

// No padded buffer, fill or copy is left: the kernels read the arguments.
// CHECK-LABEL: func.func @padded
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.map
// CHECK-NOT: linalg.conv_2d
// CHECK: return

func.func @padded(%x0: tensor<2x8x8x16xf16>, %w0: tensor<3x3x16x32xf16>,
                  %x1: tensor<1x9x9x16xf16>, %w1: tensor<16x7x7x16xf16>,
                  %x2: tensor<1x6x6x16xf16>, %w2: tensor<3x3x16x16xf16>,
                  %bias: tensor<16xf32>)
    -> (tensor<2x8x8x32xf32>, tensor<1x4x4x16xf32>, tensor<1x6x6x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %h0 = arith.constant 0.0 : f16
  %p0 = tensor.pad %x0 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %h0 : f16
  } : tensor<2x8x8x16xf16> to tensor<2x10x10x16xf16>
  %e0 = tensor.empty() : tensor<2x8x8x32xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  %y0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p0, %w0 : tensor<2x10x10x16xf16>, tensor<3x3x16x32xf16>) outs(%a0 : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>

  %p1 = tensor.pad %x1 low[0, 3, 2, 0] high[0, 1, 2, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %h0 : f16
  } : tensor<1x9x9x16xf16> to tensor<1x13x13x16xf16>
  %e1 = tensor.empty() : tensor<1x4x4x16xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %y1 = linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p1, %w1 : tensor<1x13x13x16xf16>, tensor<16x7x7x16xf16>) outs(%a1 : tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>

  %p2 = tensor.pad %x2 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %h0 : f16
  } : tensor<1x6x6x16xf16> to tensor<1x8x8x16xf16>
  %e2 = tensor.empty() : tensor<1x6x6x16xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p2, %w2 : tensor<1x8x8x16xf16>, tensor<3x3x16x16xf16>) outs(%a2 : tensor<1x6x6x16xf32>) -> tensor<1x6x6x16xf32>
  %r2 = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (f)>,
                       affine_map<(n, h, w, f) -> (n, h, w, f)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %bias : tensor<1x6x6x16xf32>, tensor<16xf32>) outs(%e2 : tensor<1x6x6x16xf32>) {
  ^bb0(%v: f32, %b: f32, %o: f32):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x6x6x16xf32>
  %y2 = linalg.generic {
      indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, h, w, f)>,
                       affine_map<(n, h, w, f) -> (n, h, w, f)>],
      iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r2, %x2 : tensor<1x6x6x16xf32>, tensor<1x6x6x16xf16>) outs(%e2 : tensor<1x6x6x16xf32>) {
  ^bb0(%v: f32, %x: f16, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %v, %xf : f32
    linalg.yield %s : f32
  } -> tensor<1x6x6x16xf32>
  return %y0, %y1, %y2 : tensor<2x8x8x32xf32>, tensor<1x4x4x16xf32>, tensor<1x6x6x16xf32>
}
