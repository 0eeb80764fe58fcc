//===- LayoutTransformOpInterface.td - Ops ALTE can re-lay out -*- tablegen -*-===//
//
// How an op tells the Automatic Layout Transformation Engine which layouts it
// can compute in and how to rewrite itself into one of them. Upstream ops get
// it through external models (opsnn/Dialect/Layout/Interfaces/
// LayoutTransformModels.h); another compiler attaches it to its own ops.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_TD
#define OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def LayoutTransformOpInterface : OpInterface<"LayoutTransformOpInterface"> {
  let cppNamespace = "::mlir::opsnn::layout";
  let description = [{
    An op whose activation operands and results share one physical layout
    (its *compute layout*, e.g. `NCHW` for `linalg.conv_2d_nchw_fchw`) and
    that can be rewritten to compute in another layout of the same logical
    dimensions (`NHWC`: `linalg.conv_2d_nhwc_hwcf`).

    Activation values are the ones whose layout the whole graph agrees on:
    images and feature maps. Other operands (filters, biases, pooling
    windows) are not activations; the rewrite converts them as the new op
    needs (a constant filter then folds at compile time).

    `rewriteInLayout` keeps the program's meaning: it converts every
    activation operand from the current layout to the new one, creates the
    op in the new layout and converts every activation result back, so the
    IR stays valid after each single rewrite. When neighbours are rewritten
    too, the back-to-back conversions cancel (layout.convert folds inverse
    pairs).
  }];
  let methods = [
    InterfaceMethod<
      "The layout the op's activation operands and results are in now.",
      "::mlir::opsnn::layout::LayoutAttr", "getComputeLayout">,
    InterfaceMethod<
      "The layouts the op can compute in, the current one first.",
      "::llvm::SmallVector<::mlir::opsnn::layout::LayoutAttr>",
      "getLayoutCandidates">,
    InterfaceMethod<
      "Whether operand `operandNumber` is an activation (in the compute layout).",
      "bool", "isActivationOperand", (ins "unsigned":$operandNumber)>,
    InterfaceMethod<
      "Whether result `resultNumber` is an activation (in the compute layout).",
      "bool", "isActivationResult", (ins "unsigned":$resultNumber)>,
    InterfaceMethod<
      [{Replaces the op by one computing in `layout` (one of the candidates,
        not the current one), with layout.convert ops around it; returns the
        new op, or failure (and leaves the IR unchanged) when the op cannot.}],
      "::mlir::FailureOr<::mlir::Operation *>", "rewriteInLayout",
      (ins "::mlir::RewriterBase &":$rewriter,
           "::mlir::opsnn::layout::LayoutAttr":$layout)>,
  ];
}

#endif // OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_TD
