//===- LowerPacks.cpp - linalg.pack/unpack to pad, reshape, transpose -----===//
//
// A thin pass over upstream linalg::lowerPack / linalg::lowerUnPack so the
// CPU pipeline never meets a pack op it cannot loop.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_LOWERPACKSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

namespace {
struct LowerPacksPass : opsnn::impl::LowerPacksPassBase<LowerPacksPass> {
  void runOnOperation() override {
    SmallVector<Operation *> packs;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::PackOp, linalg::UnPackOp>(op))
        packs.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : packs) {
      rewriter.setInsertionPoint(op);
      if (auto pack = dyn_cast<linalg::PackOp>(op)) {
        if (failed(linalg::lowerPack(rewriter, pack))) {
          pack.emitError("cannot lower linalg.pack");
          return signalPassFailure();
        }
        continue;
      }
      if (failed(linalg::lowerUnPack(rewriter, cast<linalg::UnPackOp>(op)))) {
        op->emitError("cannot lower linalg.unpack");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
