// Convolutions of 3-channel images on the tensor-core kernel, run on the
// CPU (emulate-on-cpu) against NumPy: --opsnn-pad-conv-channels appends
// zero channels to the input and filter (8 for FP16, 4 for TF32, 16 for
// INT8) before bufferization, and the kernel runs K = KH * KW * Cpad.
// Cases: ResNet's stem (7x7, stride 2, zero-padded by 3: one pad of the
// image for H, W and C); an NCHW image transposed and cast to NHWC FP16 for
// an FHWC patch embedding (the transpose writes into the padded buffer's
// interior); a constant 1x1 filter (padded at compile time); TF32; INT8;
// an FHWC 2x2 filter of 4 channels (M = 49, ragged), whose rows of
// K = 16 are whole 16-byte copies even though C is not.
// With emulate-tensor-core-pad-channels=false nothing is padded: the kernel
// copies the im2col rows element by element (each from its own filter tap,
// the stem's spatial padding through bounds checks) and runs K = KH*KW*3.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-tf32}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-pad-channels=false}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=host emulate-tensor-core-tf32 emulate-tensor-core-pad-channels=false emulate-tensor-core-stages=1}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32 emulate-tensor-core-pad-channels=false" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s --check-prefix=UNPADDED
// VALUES: int [-100, 100]
// REF: out0 = ref.conv_nhwc_hwcf(np.pad(in0, ((0, 0), (3, 3), (3, 3), (0, 0))), in1, strides=[2, 2])
// REF: out1 = ref.conv_nhwc_fhwc(ref.quantize(in2.transpose(0, 2, 3, 1), np.float16), in3, strides=[4, 4])
// REF: out2 = np.einsum('nhwc,cf->nhwf', in4, np.arange(1, 25).reshape(3, 8) / 8)
// REF: out3 = ref.conv_nhwc_hwcf(ref.round_tf32(in5), ref.round_tf32(in6))
// REF: out4 = ref.conv_nhwc_hwcf(in7, in8)
// REF: out5 = ref.conv_nhwc_fhwc(in9, in10)
// TOL: 2e-6

// Every convolution runs on the tensor-core kernel; the stem's K loop runs
// to 7 * 7 * 8 = 392.
// CHECK-LABEL: func.func @image_convs
// CHECK: scf.for %{{.*}} = %c0 to %c392 step
// CHECK-NOT: linalg.conv_2d

// Unpadded: K = 7*7*3, 4*4*3, 3, 3*3*3 (TF32), 3*3*3 (INT8) and 2*2*4, and
// no padded buffer for the stem; the last convolution loads its input
// element by element and its filter in 16-byte vectors.
// UNPADDED-LABEL: func.func @image_convs
// UNPADDED-NOT: memref<2x22x22x
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c147{{(_[0-9]+)?}} step
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c48{{(_[0-9]+)?}} step
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c3{{(_[0-9]+)?}} step
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c27{{(_[0-9]+)?}} step
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c27{{(_[0-9]+)?}} step
// UNPADDED: scf.for %{{.*}} = %{{.*}} to %c16{{(_[0-9]+)?}} step
// UNPADDED: memref.load %{{.*}} : memref<1x8x8x4xf16>
// UNPADDED: vector.transfer_read %{{.*}} {in_bounds = [true]} : memref<16x16xf16>, vector<8xf16>
// UNPADDED-NOT: linalg.conv_2d

func.func @image_convs(%x: tensor<2x16x16x3xf16>, %w: tensor<7x7x3x16xf16>,
                       %image: tensor<2x3x16x16xf32>, %wp: tensor<32x4x4x3xf16>,
                       %x1: tensor<1x5x5x3xf16>,
                       %xt: tensor<1x6x6x3xf32>, %wt: tensor<3x3x3x8xf32>,
                       %xi: tensor<1x6x6x3xi8>, %wi: tensor<3x3x3x16xi8>,
                       %xq: tensor<1x8x8x4xf16>, %wq: tensor<16x2x2x4xf16>)
    -> (tensor<2x8x8x16xf32>, tensor<2x4x4x32xf32>, tensor<1x5x5x8xf32>, tensor<1x4x4x8xf32>,
        tensor<1x4x4x16xi32>, tensor<1x7x7x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %z16 = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z16 : f16
  } : tensor<2x16x16x3xf16> to tensor<2x22x22x3xf16>
  %e0 = tensor.empty() : tensor<2x8x8x16xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %stem = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x22x22x3xf16>, tensor<7x7x3x16xf16>) outs(%f0 : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>

  %e16 = tensor.empty() : tensor<2x16x16x3xf16>
  %nhwc = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, c, h, w)>, affine_map<(n, h, w, c) -> (n, h, w, c)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%image : tensor<2x3x16x16xf32>) outs(%e16 : tensor<2x16x16x3xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x16x16x3xf16>
  %e1 = tensor.empty() : tensor<2x4x4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>
  %patches = linalg.conv_2d_nhwc_fhwc {strides = dense<4> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%nhwc, %wp : tensor<2x16x16x3xf16>, tensor<32x4x4x3xf16>) outs(%f1 : tensor<2x4x4x32xf32>) -> tensor<2x4x4x32xf32>

  %w1 = arith.constant dense<[[[[0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875, 1.0],
                               [1.125, 1.25, 1.375, 1.5, 1.625, 1.75, 1.875, 2.0],
                               [2.125, 2.25, 2.375, 2.5, 2.625, 2.75, 2.875, 3.0]]]]> : tensor<1x1x3x8xf16>
  %e2 = tensor.empty() : tensor<1x5x5x8xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>
  %pointwise = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x1, %w1 : tensor<1x5x5x3xf16>, tensor<1x1x3x8xf16>) outs(%f2 : tensor<1x5x5x8xf32>) -> tensor<1x5x5x8xf32>

  %e3 = tensor.empty() : tensor<1x4x4x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %tf32 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xt, %wt : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>) outs(%f3 : tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>

  %zi = arith.constant 0 : i32
  %e4 = tensor.empty() : tensor<1x4x4x16xi32>
  %f4 = linalg.fill ins(%zi : i32) outs(%e4 : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>
  %int8 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xi, %wi : tensor<1x6x6x3xi8>, tensor<3x3x3x16xi8>) outs(%f4 : tensor<1x4x4x16xi32>) -> tensor<1x4x4x16xi32>

  %e5 = tensor.empty() : tensor<1x7x7x16xf32>
  %f5 = linalg.fill ins(%zero : f32) outs(%e5 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %quad = linalg.conv_2d_nhwc_fhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xq, %wq : tensor<1x8x8x4xf16>, tensor<16x2x2x4xf16>) outs(%f5 : tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %stem, %patches, %pointwise, %tf32, %int8, %quad
      : tensor<2x8x8x16xf32>, tensor<2x4x4x32xf32>, tensor<1x5x5x8xf32>, tensor<1x4x4x8xf32>, tensor<1x4x4x16xi32>,
        tensor<1x7x7x16xf32>
}
