// NCHW convolutions on tensor cores, checked without a GPU (the arithmetic
// runs on the CPU in Integration/CPU/tensor-core-nchw-emulated.mlir): the
// tensor-core pipeline rewrites them into NHWC between layout conversions
// (--opsnn-convert-convs-to-nhwc), which --opsnn-propagate-layouts cancels
// between the two convolutions: the first one's result conversion folds
// into the bias + ReLU that reads it, and the second one's input
// conversion moves above the zero pad (fewer bytes) and folds into that
// ReLU's output map, so the pad is one the kernel reads unpadded. What
// remains is the input's transpose and the tensor-core kernels: bias + ReLU
// fused into the first one's epilogue, and the output's transpose into the
// second one's (it stores its fragments to NCHW).
// REQUIRES: ptxas
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | %ptxas_check --arch sm_80 --arch sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" | FileCheck %s --check-prefix=PTX
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80 tensor-cores=true" --mlir-print-ir-after=opsnn-propagate-layouts 2>&1 >/dev/null | FileCheck %s --check-prefix=LAYOUT
// Without tensor cores nothing changes layout: two generic convolutions,
// both reading their zero padding through bounds checks
// (--opsnn-implicit-padding), from the NCHW input and the NCHW ReLU.
// RUN: ops-nn-opt %s --opsnn-lower-to-nvvm="chip=sm_80" --mlir-print-ir-after=one-shot-bufferize 2>&1 >/dev/null | FileCheck %s --check-prefix=GENERIC

// PTXAS-NOT: FAIL
// PTXAS-NOT: {{[1-9][0-9]* B spill}}
// PTXAS: OK block_kernel_0/block_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK block_kernel_0/block_kernel sm_90: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS: OK block_kernel_1/block_kernel sm_80: {{[0-9]+}} registers, {{[1-9][0-9]*}} B smem, 0 B spill stores, 0 B spill loads, 0 B stack
// PTXAS-NOT: FAIL

// LAYOUT: layout.convert %arg0 from "NCHW" to "NHWC" : tensor<8x64x56x56xf16> -> tensor<8x56x56x64xf16>
// LAYOUT-NOT: layout.convert
// LAYOUT: linalg.conv_2d_nhwc_hwcf
// LAYOUT-NOT: layout.convert
// LAYOUT: tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// LAYOUT-NOT: layout.convert
// LAYOUT: linalg.conv_2d_nhwc_hwcf
// LAYOUT: layout.convert %{{.*}} from "NHWC" to "NCHW" : tensor<8x56x56x64xf32> -> tensor<8x64x56x56xf32>
// LAYOUT-NOT: layout.convert

// Three kernels: the input's transpose; the first convolution with bias,
// ReLU and the cast to FP16 in its epilogue (the f32 product is never
// stored); the second reading its input unpadded (cp.async of 0 source
// bytes at the border) and storing its f32 elements one by one at their
// NCHW position (8 consecutive pixels of a channel per lane group).
// PTX: gpu.binary @block_kernel {{.*}}
// PTX-NOT: mma.sync
// PTX: gpu.binary @block_kernel_0 {{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{{.*}}max.NaN.f32{{.*}}cvt.rn.f16x2.f32
// PTX: gpu.binary @block_kernel_1 {{.*}}cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16, %r{{[0-9]+}};{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{{.*}}st.global.b32
// PTX-NOT: st.global.v
// PTX-NOT: gpu.binary

// GENERIC-NOT: linalg.conv_2d_nhwc
// GENERIC: memref.load %arg0[{{.*}}] : memref<8x64x56x56xf16>
// GENERIC-NOT: linalg.conv_2d_nhwc
// GENERIC: memref.load %{{.*}}[{{.*}}] : memref<8x64x56x56xf16>
// GENERIC-NOT: linalg.conv_2d_nhwc
func.func @block(%x: tensor<8x64x56x56xf16>, %bias: tensor<64xf32>) -> tensor<8x64x56x56xf32> {
  %w0 = arith.constant dense<0.01> : tensor<64x64x3x3xf16>
  %w1 = arith.constant dense<0.02> : tensor<64x64x3x3xf16>
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %xp = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero16 : f16
  } : tensor<8x64x56x56xf16> to tensor<8x64x58x58xf16>
  %e = tensor.empty() : tensor<8x64x56x56xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
  %y0 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%xp, %w0 : tensor<8x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%a : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
  %eh = tensor.empty() : tensor<8x64x56x56xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y0, %bias : tensor<8x64x56x56xf32>, tensor<64xf32>) outs(%eh : tensor<8x64x56x56xf16>) {
  ^bb0(%v: f32, %b: f32, %o: f16):
    %s = arith.addf %v, %b : f32
    %r = arith.maximumf %s, %zero : f32
    %t = arith.truncf %r : f32 to f16
    linalg.yield %t : f16
  } -> tensor<8x64x56x56xf16>
  %hp = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zero16 : f16
  } : tensor<8x64x56x56xf16> to tensor<8x64x58x58xf16>
  %y1 = linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%hp, %w1 : tensor<8x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%a : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
  return %y1 : tensor<8x64x56x56xf32>
}
