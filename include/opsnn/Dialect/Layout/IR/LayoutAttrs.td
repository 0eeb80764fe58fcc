//===- LayoutAttrs.td - Layout dialect attributes ----------*- tablegen -*-===//
//
// The layout attribute: a named physical layout, stored as its parsed form
// (logical dimensions, outer permutation, inner tiles).
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_IR_LAYOUTATTRS_TD
#define OPSNN_DIALECT_LAYOUT_IR_LAYOUTATTRS_TD

include "opsnn/Dialect/Layout/IR/LayoutDialect.td"
include "mlir/IR/AttrTypeBase.td"

def Layout_LayoutAttr : AttrDef<Layout_Dialect, "Layout"> {
  // Written without a mnemonic (`#layout<"NHWC">`): the dialect's own
  // parse/print hooks handle it, so only the attribute's name is set here.
  let attrName = "layout.layout";
  let summary = "A physical layout of a logical tensor";
  let description = [{
    Written `#layout<"NHWC">`. The string lists the outer physical dimensions
    with upper-case letters, outermost first, followed by inner tiles written
    as a size and the lower-case letter of the tiled dimension
    (`"NCHW32c"`, `"NHWC8c"`). Logical dimensions are ordered canonically
    (`N G F C D H W M K`), so `"NCHW"`, `"NCDHW"`, `"NC"`, `"MK"` and `"FCHW"`
    are identities and `"NHWC"`, `"NDHWC"`, `"KM"`, `"HWCF"` permutations.

    The C++ API follows `linalg.pack`: `getPermutation()` gives, for each
    outer physical dimension, the logical dimension it holds;
    `getInnerTiles()` gives the tiled logical dimensions and tile sizes,
    appended innermost in the order written; `physicalShape()` maps a logical
    shape to the stored one (dynamic sizes stay dynamic).

    Example:

    ```mlir
    #layout<"NCHW32c">   // logical NCHW, physical N x C/32 x H x W x 32
    ```
  }];
  let parameters = (ins
    StringRefParameter<"the layout as written, e.g. NHWC8c">:$name,
    StringRefParameter<"logical dimension letters in canonical order">:$logicalDims,
    ArrayRefParameter<"int64_t", "outer permutation">:$permutation,
    ArrayRefParameter<"int64_t", "tiled logical dimensions">:$innerDimsPos,
    ArrayRefParameter<"int64_t", "tile sizes">:$innerTileSizes
  );
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The body `"NHWC"` of `#layout<"NHWC">`, for the dialect's hooks.
    static ::mlir::Attribute parse(::mlir::AsmParser &parser, ::mlir::Type);
    void print(::mlir::AsmPrinter &printer) const;

    /// Parses `name` ("NCHW", "NHWC8c", ...); asserts that it is valid.
    static LayoutAttr get(::mlir::MLIRContext *context, ::llvm::StringRef name);
    /// Parses `name` ("NCHW", "NHWC8c", ...); on failure reports through
    /// `emitError` and returns a null attribute.
    static LayoutAttr getChecked(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        ::mlir::MLIRContext *context, ::llvm::StringRef name);

    /// Number of logical dimensions.
    int64_t getLogicalRank() const { return getLogicalDims().size(); }
    /// Number of physical dimensions: outer dimensions plus inner tiles.
    int64_t getPhysicalRank() const {
      return getPermutation().size() + getInnerDimsPos().size();
    }
    bool isIdentity() const;
    bool isBlocked() const { return !getInnerDimsPos().empty(); }

    /// One inner tile: the logical dimension it tiles and its size.
    struct InnerTile { int64_t dim; int64_t size; };
    ::llvm::SmallVector<InnerTile> getInnerTiles() const;
    /// Tile size applied to logical dimension `dim` (1 when untiled).
    int64_t getTileSizeOf(int64_t dim) const;

    /// Physical (stored) shape of a tensor with `logicalShape`. Tiled static
    /// sizes are rounded up (as linalg.pack pads); dynamic sizes stay dynamic.
    ::llvm::SmallVector<int64_t>
    physicalShape(::llvm::ArrayRef<int64_t> logicalShape) const;
    /// Logical shape of a tensor stored with `physicalShape`.
    ::llvm::SmallVector<int64_t>
    logicalShape(::llvm::ArrayRef<int64_t> physicalShape) const;

    /// Index maps between logical and physical element coordinates.
    void physicalToLogicalIndex(::llvm::ArrayRef<int64_t> physical,
                                ::llvm::MutableArrayRef<int64_t> logical) const;
    void logicalToPhysicalIndex(::llvm::ArrayRef<int64_t> logical,
                                ::llvm::MutableArrayRef<int64_t> physical) const;

    /// Letter of logical dimension `dim` ('N', 'C', ...).
    char getDimLetter(int64_t dim) const { return getLogicalDims()[dim]; }
  }];
}

#endif // OPSNN_DIALECT_LAYOUT_IR_LAYOUTATTRS_TD
