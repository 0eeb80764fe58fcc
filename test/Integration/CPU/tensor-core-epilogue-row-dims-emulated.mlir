// Epilogue operands that read the GEMM's row dimensions apart, run on the
// CPU through the tensor-core kernel (emulate-on-cpu, A100 tiles) against
// NumPy: an NHWC convolution's rows are (n, oh, ow), and its consumer adds
// a residual stored with OH and OW swapped, scales per image n and adds a
// vector per output column ow. Each such index comes from the row index,
// (row floordiv stride) mod size; the consumer is the kernel's epilogue
// (no generic left, no f32 output written before it).
// RUN: %check --pipeline="opsnn-lower-to-cpu{emulate-tensor-core-matmul=a100}" %s
// RUN: ops-nn-opt %s --opsnn-lower-to-cpu="emulate-tensor-core-matmul=a100" --mlir-print-ir-after=opsnn-gpu-tensor-core-matmul -o /dev/null 2>&1 | FileCheck %s
// REF: out0 = (ref.conv_nhwc_hwcf(in0, in1) + in2.transpose(0, 2, 1, 3)) * in3[:, None, None, None] + in4[None, None, :, None]
// TOL: 1e-5

// CHECK-LABEL: IR Dump After GPUTensorCoreMatmulPass
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: return

func.func @row_dims(%x: tensor<2x10x10x32xf16>, %w: tensor<3x3x32x64xf16>, %res: tensor<2x8x8x64xf32>,
                    %scale: tensor<2xf32>, %percol: tensor<8xf32>) -> tensor<2x8x8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<2x10x10x32xf16>, tensor<3x3x32x64xf16>) outs(%acc : tensor<2x8x8x64xf32>) -> tensor<2x8x8x64xf32>
  %e1 = tensor.empty() : tensor<2x8x8x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, f) -> (n, h, w, f)>, affine_map<(n, h, w, f) -> (n, w, h, f)>,
                                        affine_map<(n, h, w, f) -> (n)>, affine_map<(n, h, w, f) -> (w)>,
                                        affine_map<(n, h, w, f) -> (n, h, w, f)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %res, %scale, %percol : tensor<2x8x8x64xf32>, tensor<2x8x8x64xf32>, tensor<2xf32>, tensor<8xf32>)
      outs(%e1 : tensor<2x8x8x64xf32>) {
  ^bb0(%v: f32, %rv: f32, %s: f32, %p: f32, %o: f32):
    %a = arith.addf %v, %rv : f32
    %m = arith.mulf %a, %s : f32
    %y = arith.addf %m, %p : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8x64xf32>
  return %r : tensor<2x8x8x64xf32>
}
