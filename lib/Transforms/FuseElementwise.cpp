//===- FuseElementwise.cpp - Elementwise fusion that spares contractions --===//
//
// Upstream's elementwise fusion (the patterns and greedy driver of
// -linalg-fuse-elementwise-ops) with one more rule in its cost hook: a
// producer that computes (more than a cast or a copy) is not fused into a
// contraction. Fused there, it runs once per output column instead of once
// per element (softmax's division by the row sum inside attention's P V:
// N times per element of P), and the contraction's payload is no longer
// acc + a * b, so the tensor-core kernel cannot take it. Casts still fuse
// (f16 operands extended in the payload are what the kernel matches), and
// so do transposes, which are folded into the indexing maps of their
// neighbours (TransposeFolding.h).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "TensorCoreMmaTypes.h"
#include "TransposeFolding.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
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

/// Whether `producer`'s payload only casts or moves values; without
/// `narrowing`, only widening casts (extf, extsi, extui) count. A narrowing
/// cast fused into a contraction would make it read the wide type (f32
/// activations into an f16 GEMM: twice the bytes, and no tensor-core kernel
/// for mixed f32 x f16 operands); it stays with its producer instead.
bool onlyMovesValues(Operation *producer, bool narrowing) {
  auto generic = dyn_cast<linalg::GenericOp>(producer);
  if (!generic)
    return false;
  return llvm::all_of(
      generic.getRegion().front().without_terminator(), [&](Operation &op) {
        return narrowing ? isa<CastOpInterface>(op)
                         : isa<arith::ExtFOp, arith::ExtSIOp, arith::ExtUIOp>(op);
      });
}

/// Whether the contraction `consumer`, reading `fused` through the
/// transposing copy `copy` folded into its map, would still find each of
/// its M, N and K loop groups adjacent in that operand (batch loops may go
/// anywhere): what its tensor-core kernel needs of an operand.
bool keepsGroupsAdjacent(linalg::GenericOp consumer, OpOperand *fused,
                         linalg::GenericOp copy) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(
          cast<linalg::LinalgOp>(consumer.getOperation()));
  if (failed(dims))
    return true;
  SmallVector<AffineMap> copyMaps = copy.getIndexingMapsArray();
  AffineMap fusedMap = copyMaps[0]
                           .compose(inversePermutation(copyMaps[1]))
                           .compose(consumer.getMatchingIndexingMap(fused));
  for (const SmallVector<unsigned, 2> &group : {dims->m, dims->n, dims->k}) {
    SmallVector<unsigned> positions;
    for (auto [i, expr] : llvm::enumerate(fusedMap.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(expr);
          dim && llvm::is_contained(group, dim.getPosition()))
        positions.push_back(i);
    for (size_t i = 1; i < positions.size(); ++i)
      if (positions[i] != positions[i - 1] + 1)
        return false;
  }
  return true;
}

/// Upstream's rule (a producer used once), and:
/// - no computing producer into a contraction (widening casts are fine,
///   narrowing ones with `fuseNarrowingCasts`);
/// - no computing producer into a transpose, which stays a copy that moves
///   on into its consumer's indexing map (the producer follows it there by
///   elementwise fusion, or stays the epilogue of a GEMM);
/// - no transpose into a contraction that would read an M, N or K group
///   apart: the transpose folds into its producer's output map instead
///   (attention's P V, or the cast of its result, writes [b, s, h, d] for
///   the output projection to read as the plain [b*s, h*d] matrix it is;
///   its K = (h, d) would be split by s in [b, h, s, d]).
bool shouldFuse(OpOperand *fused, bool fuseNarrowingCasts) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::GenericOp>(fused->getOwner());
  if (!consumer)
    return true;
  bool producerOnlyMoves = onlyMovesValues(producer, fuseNarrowingCasts);
  if (opsnn::isTransposingCopy(consumer))
    return producerOnlyMoves;
  if (!linalg::isaContractionOpInterface(
          cast<linalg::LinalgOp>(consumer.getOperation())))
    return true;
  if (!producerOnlyMoves)
    return false;
  auto copy = cast<linalg::GenericOp>(producer);
  return !opsnn::isTransposingCopy(copy) ||
         keepsGroupsAdjacent(consumer, fused, copy);
}

/// Carries `opsnn.tf32` (a precision decision the tensor-core kernel
/// honours) from a contraction to the op that replaces it: reshape folding
/// and elementwise fusion rebuild contractions as new generics (upstream
/// keeps no discardable attributes), behind a reshape when one was folded.
/// Two rewrites give no replacement notice, and are followed here:
///  - folding a reshape of a contraction's result by expansion replaces the
///    reshape, not the contraction (which then dies unused): the reshape's
///    source carries the decision (attention's batched Q K^T and P V, whose
///    results are expanded to [b, h, s, s]);
///  - elementwise fusion of a producer into a contraction redirects the
///    contraction's uses to the fused op and erases it: the fused op is the
///    contraction inserted by the rewrite right before it, with its result
///    types.
struct KeepTF32Listener : RewriterBase::Listener {
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    // (Its body may not be built yet: what it is is asked later.)
    if (isa<linalg::LinalgOp>(op))
      inserted.insert(op);
  }
  void notifyOperationErased(Operation *op) override {
    // (Its body is already gone: only contractions carry the attribute.)
    inserted.erase(op);
    Attribute tf32 = op->getAttr(opsnn::kTF32Attr);
    Operation *fused = op->getPrevNode();
    if (tf32 && fused && inserted.contains(fused) &&
        fused->getResultTypes() == op->getResultTypes() && isContraction(fused))
      fused->setAttr(opsnn::kTF32Attr, tf32);
  }
  void notifyOperationReplaced(Operation *op, ValueRange values) override {
    Attribute tf32 = op->getAttr(opsnn::kTF32Attr);
    if (!tf32 && isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op))
      if (Operation *source = op->getOperand(0).getDefiningOp())
        tf32 = source->getAttr(opsnn::kTF32Attr);
    if (!tf32)
      return;
    for (Value value : values) {
      Operation *def = value.getDefiningOp();
      while (def && isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
        def = def->getOperand(0).getDefiningOp();
      if (def && isContraction(def))
        def->setAttr(opsnn::kTF32Attr, tf32);
    }
  }
  static bool isContraction(Operation *op) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    return linalgOp && op->getNumRegions() == 1 && !op->getRegion(0).empty() &&
           !op->getRegion(0).front().empty() &&
           linalg::isaContractionOpInterface(linalgOp);
  }
  /// Linalg ops the rewrites created, still alive.
  DenseSet<Operation *> inserted;
};

struct FuseElementwisePass
    : public opsnn::impl::FuseElementwisePassBase<FuseElementwisePass> {
  using Base::Base;

  void runOnOperation() override {
    // Transposes move into their consumers' input maps first (as copies, by
    // elementwise fusion, once reshapes have been folded around them);
    // those left fold into their producers' output maps.
    fuse(/*foldTransposesIntoProducers=*/false);
    fuse(/*foldTransposesIntoProducers=*/true);
  }

  void fuse(bool foldTransposesIntoProducers) {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    linalg::ControlFusionFn usedOnce = [](OpOperand *fused) {
      Operation *producer = fused->get().getDefiningOp();
      return producer && producer->hasOneUse();
    };
    // What -linalg-fuse-elementwise-ops runs, with `shouldFuse` for the
    // elementwise fusion itself.
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [narrowing = bool(fuseNarrowingCasts)](OpOperand *fused) {
          return shouldFuse(fused, narrowing);
        });
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, usedOnce);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, usedOnce);
    opsnn::populateGeneralizeTransposePatterns(patterns);
    if (foldTransposesIntoProducers)
      opsnn::populateFoldTransposeIntoProducerPatterns(patterns);
    // Not converging within the driver's default iterations is not an
    // error: what was fused so far is correct IR.
    KeepTF32Listener keepTF32;
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig()
                                    .setUseTopDownTraversal()
                                    .setListener(&keepTF32));
  }
};

} // namespace
