// --opsnn-optimize: ALTE, ranges, precision and cast cleanup in one flag.
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100" | FileCheck %s --check-prefix=LAYOUT
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100 precision=mixed-fp16" | FileCheck %s --check-prefix=MIXED
// RUN: ops-nn-opt %s --opsnn-optimize="layouts=false precision=mixed-bf16" | FileCheck %s --check-prefix=BF16
// Running it twice changes nothing but the order of the constants
// (propagation re-creates them): same conversions, casts and decisions.
// RUN: ops-nn-opt %s --opsnn-optimize="target=a100 precision=mixed-fp16" > %t.once.mlir
// RUN: ops-nn-opt %t.once.mlir --opsnn-optimize="target=a100 precision=mixed-fp16" > %t.twice.mlir
// RUN: grep -v "arith.constant" %t.once.mlir | sed -e 's/%cst[_0-9]*//g' > %t.once.txt
// RUN: grep -v "arith.constant" %t.twice.mlir | sed -e 's/%cst[_0-9]*//g' > %t.twice.txt
// RUN: diff %t.once.txt %t.twice.txt
// RUN: not ops-nn-opt %s --opsnn-optimize="target=a1000" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ops-nn-opt %s --opsnn-optimize="precision=int9" 2>&1 | FileCheck %s --check-prefix=MODE

// FP32: the conv runs NHWC on A100 (its weights are converted once), the
// function keeps its NCHW signature, types are untouched.
// LAYOUT-LABEL: func @conv_relu_conv
// LAYOUT-SAME: (%{{.*}}: tensor<1x64x56x56xf32>
// LAYOUT: layout.convert %{{.*}} from "NCHW" to "NHWC"
// LAYOUT: linalg.conv_2d_nhwc_hwcf
// LAYOUT-NOT: precision.cast
// LAYOUT: return {{.*}} : tensor<1x64x56x56xf32>

// Mixed FP16: the conv computes on FP16 storage with FP32 accumulation (an
// NHWC conv stays the named op on f16 inputs with its f32 output, which is
// what the tensor-core kernel matches), the ReLU follows it (through the
// layout conversion); ranges are recorded.
// MIXED-LABEL: func @conv_relu_conv
// MIXED: precision.ranges
// MIXED: linalg.conv_2d_nhwc_hwcf {{.*}}precision.decision = {precision = f16, reason = "low list"}{{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%{{.*}} : tensor<1x56x56x64xf32>)
// MIXED: linalg.generic {{.*}}precision.decision = {precision = f16, reason = "follows its inputs"}
// MIXED: return {{.*}} : tensor<1x64x56x56xf32>

// BF16 without layouts: no conversion, BF16 storage.
// BF16-LABEL: func @conv_relu_conv
// BF16-NOT: layout.convert
// BF16: precision.decision = {precision = bf16, reason = "low list"}

// TARGET: error: opsnn-assign-layouts: unknown target "a1000"
// MODE: error: opsnn-assign-precision: unknown mode 'int9'

func.func @conv_relu_conv(%x: tensor<1x64x56x56xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x56x56xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x64x56x56xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  %padded2 = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x56x56xf32> to tensor<1x64x58x58xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%padded2, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>) outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  return %c2 : tensor<1x64x56x56xf32>
}
