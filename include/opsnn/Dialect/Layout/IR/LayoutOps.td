//===- LayoutOps.td - Layout dialect operations ------------*- tablegen -*-===//
//
// Operations of the layout dialect: conversion between physical layouts.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
#define OPSNN_DIALECT_LAYOUT_IR_LAYOUTOPS_TD

include "opsnn/Dialect/Layout/IR/LayoutDialect.td"
include "opsnn/Dialect/Layout/IR/LayoutAttrs.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Layout_ConvertOp : Layout_Op<"convert",
    [Pure, AllElementTypesMatch<["input", "result"]>]> {
  let summary = "Converts a tensor from one physical layout to another";
  let description = [{
    Re-lays out `input`, stored in layout `from`, into layout `to`. Both
    layouts must describe the same logical dimensions; the operand and result
    shapes must be the physical shapes of one logical shape under `from` and
    `to`. Dynamic sizes are allowed; a static size converted into a blocked
    layout must be divisible by its tile.

    Example:

    ```mlir
    %nhwc = layout.convert %x from "NCHW" to "NHWC"
        : tensor<1x3x224x224xf32> -> tensor<1x224x224x3xf32>
    %blk = layout.convert %y from "NCHW" to "NCHW8c"
        : tensor<?x64x56x56xf16> -> tensor<?x8x56x56x8xf16>
    ```

    Folds: `from == to` (identity), `convert(convert(x, A -> B), B -> A)`
    (inverse pair) and constant operands. Canonicalization composes chains
    `A -> B -> C` into `A -> C`, converts `tensor.empty` in place and turns
    an `A -> A` conversion that only refines the shape into `tensor.cast`.
  }];
  let arguments = (ins AnyRankedTensor:$input,
                       Layout_LayoutAttr:$src_layout,
                       Layout_LayoutAttr:$dst_layout);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $input `from` custom<LayoutName>($src_layout) `to`
    custom<LayoutName>($dst_layout) attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // OPSNN_DIALECT_LAYOUT_IR_LAYOUTOPS_TD
