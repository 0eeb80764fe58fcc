// Every pass declares the dialects it creates ops of (dependentDialects):
// each runs alone on input that loads only the dialects of its own ops
// (func, layout / linalg, tensor, arith / precision), and must create the
// others' ops without crashing ("dialect not loaded"). The CHECK lines make
// sure each pass did create them.
// RUN: split-file %s %t
// RUN: ops-nn-opt %t/layout.mlir --opsnn-lower-layouts | FileCheck %s --check-prefix=LOWER-LAYOUTS
// RUN: ops-nn-opt %t/layout.mlir --opsnn-lower-layouts --opsnn-lower-packs | FileCheck %s --check-prefix=LOWER-PACKS
// RUN: ops-nn-opt %t/layout.mlir --opsnn-propagate-layouts | FileCheck %s --check-prefix=PROPAGATE
// RUN: ops-nn-opt %t/graph.mlir --opsnn-assign-layouts="target=a100" | FileCheck %s --check-prefix=ASSIGN-LAYOUTS
// RUN: ops-nn-opt %t/graph.mlir --opsnn-score-layouts="target=a100" | FileCheck %s --check-prefix=SCORE
// RUN: ops-nn-opt %t/graph.mlir --opsnn-fingerprint | FileCheck %s --check-prefix=FINGERPRINT
// RUN: ops-nn-opt %t/graph.mlir --opsnn-analyze-ranges | FileCheck %s --check-prefix=RANGES
// RUN: ops-nn-opt %t/graph.mlir --opsnn-assign-precision="mode=mixed-fp16" | FileCheck %s --check-prefix=PRECISION
// RUN: ops-nn-opt %t/graph.mlir --opsnn-decompose-aggregated-ops | FileCheck %s --check-prefix=DECOMPOSE
// RUN: ops-nn-opt %t/graph.mlir --opsnn-tile-and-vectorize-cpu | FileCheck %s --check-prefix=VECTORIZE
// RUN: ops-nn-opt %t/graph.mlir --opsnn-report="file=%t/report.json" | FileCheck %s --check-prefix=REPORT
// RUN: ops-nn-opt %t/graph.mlir --opsnn-optimize="precision=mixed-bf16" | FileCheck %s --check-prefix=OPTIMIZE
// RUN: ops-nn-opt %t/casts.mlir --opsnn-lower-precision | FileCheck %s --check-prefix=LOWER-PRECISION
// RUN: ops-nn-opt %t/casts.mlir --opsnn-eliminate-casts | FileCheck %s --check-prefix=ELIMINATE

// LOWER-LAYOUTS: linalg.transpose
// LOWER-LAYOUTS: linalg.pack
// LOWER-PACKS-NOT: linalg.pack
// LOWER-PACKS: tensor.expand_shape
// PROPAGATE: func.func @convert
// ASSIGN-LAYOUTS: layout.convert
// SCORE: opsnn.layout_scores
// FINGERPRINT: opsnn.fingerprint
// RANGES: precision.ranges
// PRECISION: precision.cast
// DECOMPOSE: math.exp
// VECTORIZE: vector.contract
// REPORT: func.func @graph
// OPTIMIZE: bf16
// LOWER-PRECISION: arith.truncf
// LOWER-PRECISION: arith.extf
// ELIMINATE: func.func @casts

//--- layout.mlir
func.func @convert(%x: tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32> {
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x8x4x4xf32> -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}
func.func @blocked(%x: tensor<1x64x4x4xf32>) -> tensor<1x2x4x4x32xf32> {
  %y = layout.convert %x from "NCHW" to "NCHW32c" : tensor<1x64x4x4xf32> -> tensor<1x2x4x4x32xf32>
  return %y : tensor<1x2x4x4x32xf32>
}

//--- graph.mlir
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @graph(%x: tensor<1x64x58x58xf32>, %a: tensor<16x64xf32>) -> (tensor<1x64x54x54xf32>, tensor<16x32xf32>) {
  %w = arith.constant dense<0.5> : tensor<64x64x3x3xf32>
  %b = arith.constant dense<0.25> : tensor<64x32xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x56x56xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %c = linalg.conv_2d_nchw_fchw ins(%x, %w : tensor<1x64x58x58xf32>, tensor<64x64x3x3xf32>)
                                outs(%acc : tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x64x56x56xf32>) outs(%e : tensor<1x64x56x56xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x64x56x56xf32>
  %e2 = tensor.empty() : tensor<1x64x54x54xf32>
  %acc2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %c2 = linalg.conv_2d_nchw_fchw ins(%r, %w : tensor<1x64x56x56xf32>, tensor<64x64x3x3xf32>)
                                 outs(%acc2 : tensor<1x64x54x54xf32>) -> tensor<1x64x54x54xf32>
  %em = tensor.empty() : tensor<16x32xf32>
  %accm = linalg.fill ins(%zero : f32) outs(%em : tensor<16x32xf32>) -> tensor<16x32xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<16x64xf32>, tensor<64x32xf32>) outs(%accm : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.softmax dimension(1) ins(%mm : tensor<16x32xf32>) outs(%em : tensor<16x32xf32>) -> tensor<16x32xf32>
  return %c2, %s : tensor<1x64x54x54xf32>, tensor<16x32xf32>
}

//--- casts.mlir
func.func @casts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %h = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
  %f = precision.cast %h : tensor<4x8xf16> to tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}
