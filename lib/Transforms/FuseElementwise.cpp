//===- FuseElementwise.cpp - Elementwise fusion that spares contractions --===//
//
// Upstream's elementwise fusion (the patterns and greedy driver of
// -linalg-fuse-elementwise-ops) with one more rule in its cost hook: a
// producer that computes (more than a cast or a copy) is not fused into a
// contraction. Fused there, it runs once per output column instead of once
// per element (softmax's division by the row sum inside attention's P V:
// N times per element of P), and the contraction's payload is no longer
// acc + a * b, so the tensor-core kernel cannot take it. Casts still fuse
// (f16 operands extended in the payload are what the kernel matches).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_FUSEELEMENTWISEPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

namespace {

/// Whether `producer`'s payload only casts or moves values.
bool onlyCastsOrCopies(Operation *producer) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic)
    return false;
  return llvm::all_of(generic.getRegion().front().without_terminator(),
                      [](Operation &op) { return isa<CastOpInterface>(op); });
}

/// Upstream's rule (a producer used once), and no computing producer into a
/// contraction.
bool shouldFuse(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return !consumer || !linalg::isaContractionOpInterface(consumer) ||
         onlyCastsOrCopies(producer);
}

struct FuseElementwisePass
    : public opsnn::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn usedOnce = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse();
    };
    // What -linalg-fuse-elementwise-ops runs, with `shouldFuse` for the
    // elementwise fusion itself.
    linalg::populateElementwiseOpsFusionPatterns(patterns, shouldFuse);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, usedOnce);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, usedOnce);
    (void)applyPatternsGreedily(
        getOperation(), std::move(patterns),
        GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
