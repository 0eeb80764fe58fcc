// NHWC convolutions with an HWCF filter whose F is not whole 16-byte
// copies (F = 5 and 10 f16, F = 12 i8), their zero fill folded so that N
// = F may be ragged, on the tensor-core kernel emulated on the CPU against
// NumPy. The filter is the K x F matrix B: its rows of 5, 10 or 12 elements
// are copied element by element (plain loads under bounds checks), as a
// matmul's B is. It used to be read in 16-byte chunks that ran into the
// next filter row: a silent miscompile (relative L2 1.3 on a 5-filter
// convolution), found by scripts/fuzz_graphs.py once it ran the tensor-core
// kernel.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=t4}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul 2>&1 >/dev/null | FileCheck %s
// REF: out0 = ref.conv_nhwc_hwcf(in0, in1)
// REF: out1 = ref.conv_nhwc_hwcf(in2, in3, strides=[2, 2])
// REF: out2 = ref.conv_nhwc_hwcf(in4.astype(np.int64), in5.astype(np.int64))
// VALUES: int [-100, 100]
// TOL: 1e-6

// Every convolution on the kernel; the filters read one element at a time.
// CHECK-LABEL: func.func @odd_filters
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.load %{{.*}} : memref<72x5xf16
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.load %{{.*}} : memref<144x10xf16
// CHECK-NOT: linalg.conv_2d
// CHECK: memref.load %{{.*}} : memref<144x12xi8
// CHECK-NOT: linalg.conv_2d
// CHECK: return

func.func @odd_filters(%x: tensor<1x6x9x8xf16>, %w: tensor<3x3x8x5xf16>,
                       %x2: tensor<2x9x9x16xf16>, %w2: tensor<3x3x16x10xf16>,
                       %xi: tensor<1x6x6x16xi8>, %wi: tensor<3x3x16x12xi8>)
    -> (tensor<1x4x7x5xf32>, tensor<2x4x4x10xf32>, tensor<1x4x4x12xi32>) {
  %zero = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %e0 = tensor.empty() : tensor<1x4x7x5xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<1x4x7x5xf32>) -> tensor<1x4x7x5xf32>
  %y0 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x9x8xf16>, tensor<3x3x8x5xf16>) outs(%f0 : tensor<1x4x7x5xf32>) -> tensor<1x4x7x5xf32>
  %e1 = tensor.empty() : tensor<2x4x4x10xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x4x4x10xf32>) -> tensor<2x4x4x10xf32>
  %y1 = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x2, %w2 : tensor<2x9x9x16xf16>, tensor<3x3x16x10xf16>) outs(%f1 : tensor<2x4x4x10xf32>) -> tensor<2x4x4x10xf32>
  %e2 = tensor.empty() : tensor<1x4x4x12xi32>
  %f2 = linalg.fill ins(%zi : i32) outs(%e2 : tensor<1x4x4x12xi32>) -> tensor<1x4x4x12xi32>
  %y2 = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xi, %wi : tensor<1x6x6x16xi8>, tensor<3x3x16x12xi8>) outs(%f2 : tensor<1x4x4x12xi32>) -> tensor<1x4x4x12xi32>
  return %y0, %y1, %y2 : tensor<1x4x7x5xf32>, tensor<2x4x4x10xf32>, tensor<1x4x4x12xi32>
}
