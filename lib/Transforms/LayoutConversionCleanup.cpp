//===- LayoutConversionCleanup.cpp - Conversions that cost nothing --------===//
//
// Patterns that move layout.convert onto values whose conversion is free:
// a linalg.fill (fill the converted init instead) and a tensor.empty of any
// shape (an empty tensor of the converted shape). Together with the op's
// folders (inverse pairs, constants) and canonicalizations (chains), they
// are the cleanup the ALTE passes run after every change.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Dominance.h"

using namespace mlir;
using namespace mlir::opsnn;
using layout::ConvertOp;

namespace {
/// convert(linalg.fill(v, init)) ==> linalg.fill(v, convert(init)).
struct ConvertOfFill : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getInput().getDefiningOp<linalg::FillOp>();
    if (!fill || !fill.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "input is not a tensor fill");
    Value init = ConvertOp::create(rewriter, op.getLoc(), op.getType(),
                                   fill.getOutputs()[0], op.getSrcLayout(),
                                   op.getDstLayout());
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, fill.getInputs()[0], init);
    return success();
  }
};

/// convert(tensor.empty(sizes)) ==> tensor.empty(permuted sizes), for
/// unblocked layouts with dynamic sizes too (the op's own canonicalization
/// covers static blocked shapes).
struct ConvertOfDynamicEmpty : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp op,
                                PatternRewriter &rewriter) const override {
    auto empty = op.getInput().getDefiningOp<tensor::EmptyOp>();
    if (!empty)
      return rewriter.notifyMatchFailure(op, "input is not tensor.empty");
    if (op.getSrcLayout().isBlocked() || op.getDstLayout().isBlocked())
      return rewriter.notifyMatchFailure(op, "blocked layout");
    if (op.getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "static: canonicalization's job");
    SmallVector<int64_t> permutation =
        layout::getRelativePermutation(op.getSrcLayout(), op.getDstLayout());
    SmallVector<OpFoldResult> sizes =
        applyPermutation(empty.getMixedSizes(), permutation);
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(
        op, sizes, op.getType().getElementType(), op.getType().getEncoding());
    return success();
  }
};
} // namespace

void mlir::opsnn::mergeDuplicateConversions(Operation *root) {
  DominanceInfo dominance(root);
  SmallVector<ConvertOp> converts;
  root->walk([&](ConvertOp op) { converts.push_back(op); });
  // Erased duplicates are remembered, not inspected: their memory is gone.
  DenseSet<Operation *> erased;
  for (ConvertOp op : converts) {
    if (erased.contains(op.getOperation()))
      continue;
    for (Operation *user :
         llvm::make_early_inc_range(op.getInput().getUsers())) {
      auto other = dyn_cast<ConvertOp>(user);
      if (!other || other == op || other.getType() != op.getType() ||
          other.getSrcLayout() != op.getSrcLayout() ||
          other.getDstLayout() != op.getDstLayout() ||
          !dominance.properlyDominates(op.getOperation(), other))
        continue;
      other.getResult().replaceAllUsesWith(op.getResult());
      erased.insert(other.getOperation());
      other->erase();
    }
  }
}

void mlir::opsnn::populateLayoutConversionCleanupPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConvertOfFill, ConvertOfDynamicEmpty>(patterns.getContext());
  ConvertOp::getCanonicalizationPatterns(patterns, patterns.getContext());
  tensor::EmptyOp::getCanonicalizationPatterns(patterns,
                                               patterns.getContext());
}
