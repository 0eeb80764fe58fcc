// Padded operands on the GPU's generic path, read through bounds checks
// (--opsnn-implicit-padding): a depthwise convolution behind an asymmetric
// zero padding (stride 2), a max pooling behind a -inf padding, and a
// convolution behind a zero padding, all of one input. No padded buffer is
// filled or copied; run on the CPU as the GPU's loops (emulate-gpu-loops)
// against NumPy. With the tensor-core kernel (emulated, TF32), the
// convolution keeps its pad, which that kernel folds into its copies.
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops}" %s
// RUN: %check --tol=2e-3 --pipeline="opsnn-lower-to-cpu{emulate-gpu-loops emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx implicit-padding=false" --mlir-print-ir-after=gpu-kernel-outlining -o /dev/null 2>&1 | FileCheck %s --check-prefix=FILLED
// REF: out0 = ref.depthwise_nhwc_hwc(np.pad(in0, ((0, 0), (1, 2), (2, 0), (0, 0))), in1, strides=[2, 2])
// REF: out1 = ref.pool_nhwc(np.pad(in0, ((0, 0), (1, 1), (1, 1), (0, 0)), constant_values=-np.inf), [3, 3], strides=[2, 2])
// REF: out2 = ref.conv_nhwc_hwcf(np.pad(in0, ((0, 0), (1, 1), (1, 1), (0, 0))), in2)
// TOL: 1e-5

// Two kernels: no padded buffer is allocated, every fill of an output
// shares its op's kernel, and the depthwise convolution and the pooling
// (one output space, both only reading the input) share one.
// GPU-LABEL: func.func @pads
// GPU-NOT: memref<2x12x13x16xf32>
// GPU-NOT: memref<2x11x13x16xf32>
// GPU-COUNT-2: gpu.launch_func
// GPU-NOT: gpu.launch_func
// GPU: return

// Without it: eight, the fills of the three padded buffers (two of them in
// one kernel), the three copies into their interiors, and the three ops,
// which read different buffers.
// FILLED-LABEL: func.func @pads
// FILLED-COUNT-8: gpu.launch_func
// FILLED-NOT: gpu.launch_func
// FILLED: return

func.func @pads(%x: tensor<2x9x11x16xf32>, %w: tensor<3x3x16xf32>, %f: tensor<3x3x16x8xf32>)
    -> (tensor<2x5x6x16xf32>, tensor<2x5x6x16xf32>, tensor<2x9x11x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p0 = tensor.pad %x low[0, 1, 2, 0] high[0, 2, 0, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x9x11x16xf32> to tensor<2x12x13x16xf32>
  %e0 = tensor.empty() : tensor<2x5x6x16xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x5x6x16xf32>) -> tensor<2x5x6x16xf32>
  %y0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p0, %w : tensor<2x12x13x16xf32>, tensor<3x3x16xf32>) outs(%a0 : tensor<2x5x6x16xf32>) -> tensor<2x5x6x16xf32>
  %p1 = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %ninf : f32
  } : tensor<2x9x11x16xf32> to tensor<2x11x13x16xf32>
  %a1 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<2x5x6x16xf32>) -> tensor<2x5x6x16xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %y1 = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p1, %win : tensor<2x11x13x16xf32>, tensor<3x3xf32>) outs(%a1 : tensor<2x5x6x16xf32>) -> tensor<2x5x6x16xf32>
  %p2 = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<2x9x11x16xf32> to tensor<2x11x13x16xf32>
  %e2 = tensor.empty() : tensor<2x9x11x8xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x9x11x8xf32>) -> tensor<2x9x11x8xf32>
  %y2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p2, %f : tensor<2x11x13x16xf32>, tensor<3x3x16x8xf32>) outs(%a2 : tensor<2x9x11x8xf32>) -> tensor<2x9x11x8xf32>
  return %y0, %y1, %y2 : tensor<2x5x6x16xf32>, tensor<2x5x6x16xf32>, tensor<2x9x11x8xf32>
}
