//===- TransposeFolding.cpp - Transposes into indexing maps ---------------===//
//
// See TransposeFolding.h.
//
//===----------------------------------------------------------------------===//

#include "TransposeFolding.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"

using namespace mlir;

namespace {

/// linalg.transpose as the generic copy elementwise fusion can move into
/// its consumer.
struct GeneralizeTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (failed(linalg::generalizeNamedOp(
            rewriter, cast<linalg::LinalgOp>(op.getOperation()))))
      return rewriter.notifyMatchFailure(op, "could not generalize");
    return success();
  }
};

} // namespace

bool mlir::opsnn::isTransposingCopy(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 1 ||
      body.getTerminator()->getOperand(0) != body.getArgument(0))
    return false;
  AffineMap in = op.getIndexingMapsArray()[0];
  AffineMap out = op.getIndexingMapsArray()[1];
  return in.isPermutation() && out.isPermutation() && in != out;
}

namespace {

/// copy(transpose)(producer(...)) -> producer'(...) writing the copy's
/// layout: the producer's output map composed with the permutation.
struct FoldTransposeIntoProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp copy,
                                PatternRewriter &rewriter) const override {
    if (!copy.hasPureTensorSemantics() || !opsnn::isTransposingCopy(copy))
      return rewriter.notifyMatchFailure(copy, "not a transposing copy");
    Value input = copy.getDpsInputOperand(0)->get();
    auto producer = input.getDefiningOp<linalg::GenericOp>();
    if (!producer || !producer.hasPureTensorSemantics() ||
        producer->getNumResults() != 1 || !input.hasOneUse())
      return rewriter.notifyMatchFailure(
          copy, "input not the one result of a generic used only here");
    if (opsnn::isTransposingCopy(producer))
      return rewriter.notifyMatchFailure(copy, "producer is a transpose too");

    // The transposed init: the copy's (its values are never read) unless
    // the producer reads its init, which must then be a fill to recreate.
    OpOperand *init = producer.getDpsInitOperand(0);
    Value newInit = copy.getDpsInitOperand(0)->get();
    if (producer.payloadUsesValueFromOperand(init)) {
      auto fill = init->get().getDefiningOp<linalg::FillOp>();
      if (!fill || !fill.hasPureTensorSemantics())
        return rewriter.notifyMatchFailure(
            copy, "producer reads an init that is not a fill");
      newInit = linalg::FillOp::create(rewriter, fill.getLoc(),
                                       fill.getInputs(), ValueRange{newInit})
                    .getResult(0);
    }

    // producer writes r = M(l); the copy moves r to Pout(Pin^-1(r)).
    SmallVector<AffineMap> copyMaps = copy.getIndexingMapsArray();
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    maps.back() = copyMaps[1]
                      .compose(inversePermutation(copyMaps[0]))
                      .compose(maps.back());
    auto folded = linalg::GenericOp::create(
        rewriter, producer.getLoc(), copy.getResultTypes(),
        producer.getDpsInputs(), ValueRange{newInit}, maps,
        producer.getIteratorTypesArray());
    folded->setDiscardableAttrs(producer->getDiscardableAttrDictionary());
    rewriter.inlineRegionBefore(producer.getRegion(), folded.getRegion(),
                                folded.getRegion().begin());
    rewriter.replaceOp(copy, folded.getResults());
    rewriter.eraseOp(producer);
    return success();
  }
};

} // namespace

void mlir::opsnn::populateGeneralizeTransposePatterns(
    RewritePatternSet &patterns) {
  patterns.add<GeneralizeTranspose>(patterns.getContext());
}

void mlir::opsnn::populateFoldTransposeIntoProducerPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldTransposeIntoProducer>(patterns.getContext());
}
