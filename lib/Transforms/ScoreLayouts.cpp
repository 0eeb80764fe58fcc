//===- ScoreLayouts.cpp - Attach layout locality scores -------------------===//
//
// A thin pass over computeLayoutScores: the scores of every statically
// shaped linalg op become an `opsnn.layout_scores` array.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/LayoutScore.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_SCORELAYOUTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {
struct ScoreLayoutsPass : opsnn::impl::ScoreLayoutsPassBase<ScoreLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetDescription> target = lookupTarget(targetName);
    if (!target) {
      getOperation()->emitError()
          << "opsnn-score-layouts: unknown target \"" << targetName
          << "\"; known targets: " << getKnownTargetNames();
      return signalPassFailure();
    }
    Builder b(&getContext());
    getOperation()->walk([&](linalg::LinalgOp op) {
      FailureOr<SmallVector<LayoutScore>> scores =
          computeLayoutScores(op, *target);
      if (failed(scores))
        return;
      SmallVector<Attribute> entries;
      for (const LayoutScore &score : *scores)
        entries.push_back(b.getDictionaryAttr({
            b.getNamedAttr("output", b.getStringAttr(score.outputLayout)),
            b.getNamedAttr("lanes_walk",
                           b.getStringAttr("d" + std::to_string(score.threadDim))),
            b.getNamedAttr("operand", b.getI64IntegerAttr(score.operand)),
            b.getNamedAttr("layout", b.getStringAttr(score.layout)),
            b.getNamedAttr("score", b.getF64FloatAttr(score.score)),
            b.getNamedAttr("stride", b.getI64IntegerAttr(score.stride)),
        }));
      op->setAttr("opsnn.layout_scores", b.getArrayAttr(entries));
    });
  }
};
} // namespace
