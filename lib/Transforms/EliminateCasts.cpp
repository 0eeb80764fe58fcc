//===- EliminateCasts.cpp - Narrowing casts before data movement ----------===//
//
// --opsnn-eliminate-casts: patterns that move a narrowing precision.cast of
// a data-movement result onto that op's input, so data moves in the narrow
// type and casts meet their inverses; the cast folder does the rest.
// Duplicate casts of one value merge.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_ELIMINATECASTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using precision::CastOp;

/// The narrow element type of a narrowing cast whose input has one use.
static Type getNarrowedElement(CastOp cast, Value source) {
  Type from = getElementTypeOrSelf(cast.getInput().getType());
  Type to = getElementTypeOrSelf(cast.getType());
  if (to.getIntOrFloatBitWidth() >= from.getIntOrFloatBitWidth() ||
      !cast.getInput().hasOneUse() ||
      getElementTypeOrSelf(source.getType()) != from)
    return {};
  return to;
}

static Value castTo(PatternRewriter &rewriter, Location loc, Value value,
                    Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  return CastOp::create(rewriter, loc, type.clone(element), value);
}

namespace {
/// cast(tensor.pad(x, c)) ==> tensor.pad(cast(x), cast(c)).
struct CastBeforePad : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getInput().getDefiningOp<tensor::PadOp>();
    Value padding = pad ? pad.getConstantPaddingValue() : Value();
    Type element = pad ? getNarrowedElement(op, pad.getSource()) : Type();
    if (!pad || !padding || !element)
      return rewriter.notifyMatchFailure(op, "not a narrowing cast of a pad");
    Location loc = pad.getLoc();
    Value source = castTo(rewriter, loc, pad.getSource(), element);
    Value value = arith::TruncFOp::create(rewriter, loc, element, padding);
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, op.getType(), source, pad.getMixedLowPad(), pad.getMixedHighPad(),
        value, pad.getNofold());
    return success();
  }
};

/// cast(linalg.transpose(x)) ==> linalg.transpose(cast(x)).
struct CastBeforeTranspose : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getInput().getDefiningOp<linalg::TransposeOp>();
    Type element = transpose && transpose.hasPureTensorSemantics()
                       ? getNarrowedElement(op, transpose.getInput())
                       : Type();
    if (!element)
      return rewriter.notifyMatchFailure(op, "not a narrowing cast of a transpose");
    Location loc = transpose.getLoc();
    Value input = castTo(rewriter, loc, transpose.getInput(), element);
    Value init = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, transpose.getInit()),
        element);
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(
        op, input, init, transpose.getPermutation());
    return success();
  }
};

/// cast(layout.convert(x)) ==> layout.convert(cast(x)).
struct CastBeforeLayoutConvert : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto convert = op.getInput().getDefiningOp<layout::ConvertOp>();
    Type element = convert ? getNarrowedElement(op, convert.getInput()) : Type();
    if (!element)
      return rewriter.notifyMatchFailure(op, "not a narrowing cast of a convert");
    Value input = castTo(rewriter, convert.getLoc(), convert.getInput(), element);
    rewriter.replaceOpWithNewOp<layout::ConvertOp>(
        op, op.getType(), input, convert.getSrcLayout(), convert.getDstLayout());
    return success();
  }
};

/// cast(reshape(x)) ==> reshape(cast(x)) for collapse/expand_shape.
template <typename ReshapeOp>
struct CastBeforeReshape : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    auto reshape = op.getInput().template getDefiningOp<ReshapeOp>();
    Type element = reshape ? getNarrowedElement(op, reshape.getSrc()) : Type();
    if (!element)
      return rewriter.notifyMatchFailure(op, "not a narrowing cast of a reshape");
    Value source = castTo(rewriter, reshape.getLoc(), reshape.getSrc(), element);
    Operation *clone = rewriter.clone(*reshape);
    clone->setOperand(0, source);
    clone->getResult(0).setType(op.getType());
    rewriter.replaceOp(op, clone->getResult(0));
    return success();
  }
};

/// Casts of one value to one type, one per consumer (the precision policy
/// inserts them at each low-precision op), are one cast: later ones in the
/// block reuse the first, so the value is converted and stored once.
struct MergeDuplicateCasts : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    for (Operation *user : op.getInput().getUsers()) {
      auto earlier = dyn_cast<CastOp>(user);
      if (earlier && earlier != op && earlier.getType() == op.getType() &&
          earlier->getBlock() == op->getBlock() &&
          earlier->isBeforeInBlock(op)) {
        rewriter.replaceOp(op, earlier.getResult());
        return success();
      }
    }
    return rewriter.notifyMatchFailure(op, "no earlier cast of its input");
  }
};

struct EliminateCastsPass
    : opsnn::impl::EliminateCastsPassBase<EliminateCastsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<MergeDuplicateCasts, CastBeforePad, CastBeforeTranspose,
                 CastBeforeLayoutConvert,
                 CastBeforeReshape<tensor::CollapseShapeOp>,
                 CastBeforeReshape<tensor::ExpandShapeOp>>(&getContext());
    // Not converging within the driver's iterations leaves valid IR.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace
