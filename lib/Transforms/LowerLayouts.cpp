//===- LowerLayouts.cpp - layout.convert to upstream linalg ---------------===//
//
// Lowers layout.convert through the logical (canonical-order) tensor: out of
// the source layout with linalg.unpack or a transpose, into the destination
// layout with linalg.pack or a transpose. Two unblocked layouts become one
// linalg.transpose with the composed permutation.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_LOWERLAYOUTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using layout::ConvertOp;
using layout::LayoutAttr;

/// Sizes of the logical tensor that `value`, stored in `layout`, holds.
static SmallVector<OpFoldResult> getLogicalSizes(OpBuilder &b, Location loc,
                                                 Value value,
                                                 LayoutAttr layout) {
  SmallVector<OpFoldResult> physical = tensor::getMixedSizes(b, loc, value);
  SmallVector<OpFoldResult> logical(layout.getLogicalRank());
  for (auto [i, dim] : llvm::enumerate(layout.getPermutation())) {
    int64_t tile = layout.getTileSizeOf(dim);
    OpFoldResult size = physical[i];
    if (tile != 1) {
      if (std::optional<int64_t> c = getConstantIntValue(size))
        size = b.getIndexAttr(*c * tile);
      else
        size = arith::MulIOp::create(
                   b, loc, getValueOrCreateConstantIndexOp(b, loc, size),
                   arith::ConstantIndexOp::create(b, loc, tile))
                   .getResult();
    }
    logical[dim] = size;
  }
  return logical;
}

/// Transposes `value` by `permutation` (result dim i = input dim perm[i]).
static Value transpose(OpBuilder &b, Location loc, Value value,
                       ArrayRef<int64_t> permutation) {
  if (isIdentityPermutation(permutation))
    return value;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  SmallVector<OpFoldResult> permuted = applyPermutation(sizes, permutation);
  Value init = tensor::EmptyOp::create(
      b, loc, permuted, getElementTypeOrSelf(value.getType()));
  return linalg::TransposeOp::create(b, loc, value, init, permutation)
      ->getResult(0);
}

/// linalg.pack/unpack's outer_dims_perm: empty when the outer dims keep the
/// logical order, so the printed IR stays minimal.
static ArrayRef<int64_t> getOuterDimsPerm(LayoutAttr layout) {
  ArrayRef<int64_t> permutation = layout.getPermutation();
  return isIdentityPermutation(permutation) ? ArrayRef<int64_t>() : permutation;
}

/// Stored tensor in `layout` -> logical tensor.
static Value toLogical(OpBuilder &b, Location loc, Value value,
                       LayoutAttr layout) {
  if (!layout.isBlocked())
    return transpose(b, loc, value, invertPermutationVector(
                                        layout.getPermutation()));
  SmallVector<OpFoldResult> sizes = getLogicalSizes(b, loc, value, layout);
  Value init = tensor::EmptyOp::create(
      b, loc, sizes, getElementTypeOrSelf(value.getType()));
  SmallVector<OpFoldResult> tiles = getAsIndexOpFoldResult(
      b.getContext(), layout.getInnerTileSizes());
  return linalg::UnPackOp::create(b, loc, value, init,
                                  layout.getInnerDimsPos(), tiles,
                                  getOuterDimsPerm(layout))
      .getResult();
}

/// Logical tensor -> stored tensor in `layout`.
static Value fromLogical(OpBuilder &b, Location loc, Value value,
                         LayoutAttr layout) {
  if (!layout.isBlocked())
    return transpose(b, loc, value, layout.getPermutation());
  SmallVector<OpFoldResult> tiles = getAsIndexOpFoldResult(
      b.getContext(), layout.getInnerTileSizes());
  Value init = linalg::PackOp::createDestinationTensor(
      b, loc, value, tiles, layout.getInnerDimsPos(), getOuterDimsPerm(layout));
  return linalg::PackOp::create(b, loc, value, init, layout.getInnerDimsPos(),
                                tiles, /*paddingValue=*/std::nullopt,
                                getOuterDimsPerm(layout))
      .getResult();
}

namespace {
struct LowerConvertOp : OpConversionPattern<ConvertOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LayoutAttr src = op.getSrcLayout(), dst = op.getDstLayout();
    Value input = adaptor.getInput();
    Value result;
    if (!src.isBlocked() && !dst.isBlocked()) {
      // One transpose: physical dst dim j holds logical dst.perm[j], which
      // sits at physical src dim inverse(src.perm)[dst.perm[j]].
      SmallVector<int64_t> inverse =
          invertPermutationVector(src.getPermutation());
      SmallVector<int64_t> composed;
      for (int64_t dim : dst.getPermutation())
        composed.push_back(inverse[dim]);
      result = transpose(rewriter, loc, input, composed);
    } else {
      result = fromLogical(rewriter, loc, toLogical(rewriter, loc, input, src),
                           dst);
    }
    if (result.getType() != op.getType())
      result = tensor::CastOp::create(rewriter, loc, op.getType(), result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerLayoutsPass
    : opsnn::impl::LowerLayoutsPassBase<LowerLayoutsPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalOp<ConvertOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateLowerLayoutsPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::opsnn::populateLowerLayoutsPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerConvertOp>(patterns.getContext());
}
