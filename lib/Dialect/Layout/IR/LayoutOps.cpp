//===- LayoutOps.cpp - Layout dialect operations --------------------------===//
//
// layout.convert: custom syntax, verifier, folders (identity, inverse pair,
// constants) and canonicalization patterns (chain composition, empty
// tensors).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

//===----------------------------------------------------------------------===//
// Custom directive: a layout written as a bare string, `from "NCHW"`.
//===----------------------------------------------------------------------===//

static ParseResult parseLayoutName(OpAsmParser &parser, LayoutAttr &layout) {
  SMLoc loc = parser.getCurrentLocation();
  std::string name;
  if (parser.parseString(&name))
    return failure();
  layout = LayoutAttr::getChecked([&] { return parser.emitError(loc); },
                                  parser.getContext(), StringRef(name));
  return success(static_cast<bool>(layout));
}

static void printLayoutName(OpAsmPrinter &printer, Operation *,
                            LayoutAttr layout) {
  printer.printString(layout.getName());
}

#define GET_OP_CLASSES
#include "opsnn/Dialect/Layout/IR/LayoutOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

static std::string formatShape(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(
      shape, os,
      [&](int64_t size) {
        if (ShapedType::isDynamic(size))
          os << "?";
        else
          os << size;
      },
      "x");
  return text;
}

/// Checks that `type` can hold a tensor stored in `layout`: its rank, and the
/// sizes of its inner tile dimensions.
static LogicalResult verifyPhysicalType(ConvertOp op, RankedTensorType type,
                                        LayoutAttr layout, StringRef what) {
  if (type.getRank() != layout.getPhysicalRank())
    return op.emitOpError()
           << what << " rank " << type.getRank() << " does not match rank "
           << layout.getPhysicalRank() << " of layout \"" << layout.getName()
           << "\"";
  int64_t outerRank = layout.getLogicalRank();
  for (auto [j, tile] : llvm::enumerate(layout.getInnerTiles())) {
    int64_t size = type.getDimSize(outerRank + j);
    if (!ShapedType::isDynamic(size) && size != tile.size)
      return op.emitOpError()
             << what << " dimension " << outerRank + j << " has size " << size
             << " but layout \"" << layout.getName() << "\" tiles dimension '"
             << layout.getDimLetter(tile.dim) << "' by " << tile.size;
  }
  return success();
}

LogicalResult ConvertOp::verify() {
  LayoutAttr src = getSrcLayout(), dst = getDstLayout();
  if (src.getLogicalDims() != dst.getLogicalDims())
    return emitOpError() << "layouts \"" << src.getName() << "\" and \""
                         << dst.getName()
                         << "\" do not describe the same logical dimensions";
  RankedTensorType inputType = getInput().getType();
  RankedTensorType resultType = getResult().getType();
  if (failed(verifyPhysicalType(*this, inputType, src, "input")) ||
      failed(verifyPhysicalType(*this, resultType, dst, "result")))
    return failure();

  SmallVector<int64_t> logical = src.logicalShape(inputType.getShape());
  for (LayoutAttr::InnerTile tile : dst.getInnerTiles()) {
    int64_t size = logical[tile.dim];
    if (!ShapedType::isDynamic(size) && size % tile.size != 0)
      return emitOpError() << "dimension '" << dst.getDimLetter(tile.dim)
                           << "' of size " << size
                           << " is not divisible by tile size " << tile.size
                           << " of layout \"" << dst.getName() << "\"";
  }
  SmallVector<int64_t> expected = dst.physicalShape(logical);
  if (failed(verifyCompatibleShape(expected, resultType.getShape())))
    return emitOpError() << "result shape " << formatShape(resultType.getShape())
                         << " does not match shape " << formatShape(expected)
                         << " of the input in layout \"" << dst.getName()
                         << "\"";
  return success();
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

/// Re-lays out the elements of a constant. Works on raw storage so that
/// large weights fold quickly; sub-byte element types are left alone.
static Attribute foldConstantConvert(DenseElementsAttr input,
                                     RankedTensorType resultType,
                                     LayoutAttr src, LayoutAttr dst) {
  if (!resultType.hasStaticShape())
    return {};
  if (input.isSplat())
    return DenseElementsAttr::get(resultType,
                                  input.getSplatValue<Attribute>());
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(input);
  if (!dense)
    return {};
  // Non-splat raw storage holds one whole number of bytes per element, except
  // for bit-packed i1.
  if (resultType.getElementType().isInteger(1))
    return {};
  ArrayRef<char> inputData = dense.getRawData();
  size_t elementBytes = inputData.size() / input.getNumElements();
  if (elementBytes == 0 ||
      inputData.size() != elementBytes * input.getNumElements())
    return {};

  ArrayRef<int64_t> inputShape = input.getType().getShape();
  ArrayRef<int64_t> resultShape = resultType.getShape();
  SmallVector<int64_t> inputStrides(inputShape.size(), 1);
  for (int64_t i = static_cast<int64_t>(inputShape.size()) - 2; i >= 0; --i)
    inputStrides[i] = inputStrides[i + 1] * inputShape[i + 1];

  std::vector<char> resultData(resultType.getNumElements() * elementBytes);
  SmallVector<int64_t> resultIndex(resultShape.size(), 0);
  SmallVector<int64_t> logicalIndex(src.getLogicalRank(), 0);
  SmallVector<int64_t> inputIndex(inputShape.size(), 0);
  for (int64_t linear = 0, e = resultType.getNumElements(); linear < e;
       ++linear) {
    dst.physicalToLogicalIndex(resultIndex, logicalIndex);
    src.logicalToPhysicalIndex(logicalIndex, inputIndex);
    int64_t inputLinear = 0;
    for (auto [index, stride] : llvm::zip(inputIndex, inputStrides))
      inputLinear += index * stride;
    std::memcpy(&resultData[linear * elementBytes],
                &inputData[inputLinear * elementBytes], elementBytes);
    // Advance the row-major result index.
    for (int64_t d = static_cast<int64_t>(resultShape.size()) - 1; d >= 0;
         --d) {
      if (++resultIndex[d] < resultShape[d])
        break;
      resultIndex[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(resultType, resultData);
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  LayoutAttr src = getSrcLayout(), dst = getDstLayout();
  // Identity.
  if (src == dst && getInput().getType() == getType())
    return getInput();
  // Inverse pair: convert(convert(x, A -> B), B -> A) == x.
  if (auto producer = getInput().getDefiningOp<ConvertOp>())
    if (producer.getDstLayout() == src && producer.getSrcLayout() == dst &&
        producer.getInput().getType() == getType())
      return producer.getInput();
  // Constant input.
  if (auto constant = dyn_cast_if_present<DenseElementsAttr>(adaptor.getInput()))
    return foldConstantConvert(constant, getType(), src, dst);
  return {};
}

//===----------------------------------------------------------------------===//
// Canonicalization
//===----------------------------------------------------------------------===//

namespace {
/// convert(convert(x, A -> B), B -> C)  ==>  convert(x, A -> C).
struct ComposeConvertChain : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<ConvertOp>();
    if (!producer)
      return rewriter.notifyMatchFailure(op, "input is not a layout.convert");
    if (producer.getDstLayout() != op.getSrcLayout())
      return rewriter.notifyMatchFailure(op, "producer's layout differs");
    rewriter.replaceOpWithNewOp<ConvertOp>(op, op.getType(),
                                           producer.getInput(),
                                           producer.getSrcLayout(),
                                           op.getDstLayout());
    return success();
  }
};

/// convert(x, A -> A) whose result type only refines x's shape (a static
/// size where x has a dynamic one) ==> tensor.cast: no data moves.
struct IdentityConvertToCast : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getSrcLayout() != op.getDstLayout())
      return rewriter.notifyMatchFailure(op, "layouts differ");
    rewriter.replaceOpWithNewOp<tensor::CastOp>(op, op.getType(),
                                                op.getInput());
    return success();
  }
};

/// convert(tensor.empty) ==> tensor.empty of the converted shape.
struct ConvertEmptyTensor : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getInput().getDefiningOp<tensor::EmptyOp>())
      return rewriter.notifyMatchFailure(op, "input is not tensor.empty");
    RankedTensorType type = op.getType();
    if (!type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic result shape");
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, type.getShape(),
                                                 type.getElementType(),
                                                 type.getEncoding());
    return success();
  }
};
} // namespace

void ConvertOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                            MLIRContext *context) {
  patterns.add<ComposeConvertChain, ConvertEmptyTensor, IdentityConvertToCast>(
      context);
}
