// MobileNetV2's 56 x 56 x 144 stride-1 depthwise convolution in NHWC FP16
// behind its zero padding, on the generic GPU path: one kernel reading the
// unpadded input through bounds checks (--opsnn-implicit-padding), 16-byte
// wide where the channels allow, declared with its exact block size
// (.reqntid, --opsnn-gpu-require-block-size: under .maxntid ptxas spilled 4
// bytes to fit more blocks). With implicit-padding=false, three kernels:
// fill, copy into the padded buffer's interior, convolution. No spills on
// sm_80 or sm_90.
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" | %ptxas_check --arch sm_80 --arch sm_90 --ptx-dir %t.implicit | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PTX < %t.implicit/dw_kernel.ptx
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 format=ptx implicit-padding=false" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=EXPLICIT

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK dw_kernel/dw_kernel sm_80: {{[0-9]+}} registers, 0 B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK dw_kernel/dw_kernel sm_90:
// PTXAS-NOT: OK

// PTX: .reqntid 32, 8, 1
// PTX-NOT: .maxntid
// PTX: ld.global.v4.b16

// EXPLICIT-NOT: FAIL
// EXPLICIT-NOT: {{[1-9][0-9]* B spill}}
// EXPLICIT-COUNT-6: OK dw_kernel
// EXPLICIT-NOT: OK

func.func @dw(%x: tensor<8x56x56x144xf16>, %w: tensor<3x3x144xf16>) -> tensor<8x56x56x144xf32> {
  %zero = arith.constant 0.0 : f16
  %fzero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f16
  } : tensor<8x56x56x144xf16> to tensor<8x58x58x144xf16>
  %e = tensor.empty() : tensor<8x56x56x144xf32>
  %f = linalg.fill ins(%fzero : f32) outs(%e : tensor<8x56x56x144xf32>) -> tensor<8x56x56x144xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<8x58x58x144xf16>, tensor<3x3x144xf16>) outs(%f : tensor<8x56x56x144xf32>) -> tensor<8x56x56x144xf32>
  return %y : tensor<8x56x56x144xf32>
}
