//===- LayoutDialect.td - The layout dialect ---------------*- tablegen -*-===//
//
// The `layout` dialect names physical layouts of logical tensors and converts
// between them. It is the IR that the Automatic Layout Transformation Engine
// (ALTE) reasons about.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
#define OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD

include "mlir/IR/OpBase.td"

def Layout_Dialect : Dialect {
  let name = "layout";
  let cppNamespace = "::mlir::opsnn::layout";
  let summary = "Physical data layouts of logical tensors and conversions between them";
  let description = [{
    A *logical* tensor has named dimensions in a canonical order (`N`, `F`,
    `C`, `D`, `H`, `W`, `M`, `K`: batch, filters, channels, depth, height,
    width, and the two matrix dimensions). A *layout* says how those logical
    dimensions are stored: an order of the outer dimensions (a permutation of
    the logical ones) followed by optional inner tiles, so `#layout<"NCHW">`
    is the identity, `#layout<"NHWC">` the channels-last permutation and
    `#layout<"NCHW32c">` the blocked form whose physical shape is
    `N x C/32 x H x W x 32`.

    `layout.convert` moves a tensor from one layout to another. Conversions
    fold when they are identities, inverse pairs or applied to constants, so
    that the layout assignment passes can insert them freely and let
    canonicalization remove the redundant ones.
  }];
  let useDefaultAttributePrinterParser = 0;
  let extraClassDeclaration = [{
    /// Adds the attributes (defined in LayoutAttrs.cpp).
    void registerAttributes();

    /// `#layout<"NHWC">`: the dialect's only attribute, without a mnemonic.
    ::mlir::Attribute parseAttribute(::mlir::DialectAsmParser &parser,
                                     ::mlir::Type type) const override;
    void printAttribute(::mlir::Attribute attr,
                        ::mlir::DialectAsmPrinter &printer) const override;
  }];
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Layout_Op<string mnemonic, list<Trait> traits = []>
    : Op<Layout_Dialect, mnemonic, traits>;

#endif // OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_TD
