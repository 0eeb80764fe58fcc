// Malformed input never crashes ops-nn-opt: it exits 1 with a located
// diagnostic (file:line:col), and writes no output file.
// RUN: split-file %s %t
// RUN: rm -f %t.out

// RUN: not ops-nn-opt %t/syntax.mlir -o %t.out 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not test -e %t.out
// SYNTAX: syntax.mlir:2:8: error: custom op 'layout.convrt' is unknown

// RUN: not ops-nn-opt %t/permutation.mlir 2>&1 | FileCheck %s --check-prefix=PERM
// PERM: permutation.mlir:2:41: error: custom op 'layout.convert' invalid layout "NHHW": dimension 'H' appears twice

// RUN: not ops-nn-opt %t/shapes.mlir 2>&1 | FileCheck %s --check-prefix=SHAPES
// SHAPES: shapes.mlir:2:8: error: 'layout.convert' op result shape 1x3x8x8 does not match shape 1x8x8x3 of the input in layout "NHWC"

// RUN: not ops-nn-opt %t/unknown-layout.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: unknown-layout.mlir:1:61: error: invalid layout "NCHQ": unknown dimension letter 'Q' (expected one of NGFCDHWMK)

// RUN: not ops-nn-opt %t/unknown-target.mlir 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: unknown-target.mlir:1:49: error: unknown target "b200"; known targets: t4, v100, a100, l4, h100, h200, host

// RUN: not ops-nn-opt %t/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: truncated.mlir:3:1: error: custom op 'layout.convert' expected string

//--- syntax.mlir
func.func @f(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32> {
  %y = layout.convrt %x from "NCHW" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return %y : tensor<1x8x8x3xf32>
}

//--- permutation.mlir
func.func @f(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32> {
  %y = layout.convert %x from "NCHW" to "NHHW" : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
  return %y : tensor<1x8x8x3xf32>
}

//--- shapes.mlir
func.func @f(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %y = layout.convert %x from "NCHW" to "NHWC" : tensor<1x3x8x8xf32> -> tensor<1x3x8x8xf32>
  return %y : tensor<1x3x8x8xf32>
}

//--- unknown-layout.mlir
func.func @f() attributes {x = #layout<"NCHW">, y = #layout<"NCHQ">} {
  return
}

//--- unknown-target.mlir
module attributes {opsnn.target = #opsnn.target<"b200">} {}

//--- truncated.mlir
func.func @f(%x: tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32> {
  %y = layout.convert %x from "NCHW" to
