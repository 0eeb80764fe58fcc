//===- InterchangeParallelFirst.cpp - Parallel loops before reductions ----===//
//
// --opsnn-interchange-parallel-first: every linalg.generic (and
// linalg.reduce, generalized) gets its parallel loops first, so that the
// conversion to parallel loops maps all of them to the GPU grid.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_INTERCHANGEPARALLELFIRSTPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// The loop order with `op`'s parallel loops first, each group in its
/// order; empty if that is the order already.
static SmallVector<unsigned> parallelFirstOrder(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallel : reduction).push_back(i);
  SmallVector<unsigned> order = parallel;
  llvm::append_range(order, reduction);
  if (llvm::equal(order, llvm::seq<unsigned>(0, order.size())))
    return {};
  return order;
}

namespace {
struct InterchangeParallelFirstPass
    : opsnn::impl::InterchangeParallelFirstPassBase<
          InterchangeParallelFirstPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isa<linalg::GenericOp, linalg::ReduceOp>(op.getOperation()) &&
          !parallelFirstOrder(op).empty())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::LinalgOp op : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> generalized =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generalized)) {
          op->emitError("opsnn-interchange-parallel-first: could not "
                        "generalize the op");
          return signalPassFailure();
        }
        generic = *generalized;
      }
      if (failed(linalg::interchangeGenericOp(rewriter, generic,
                                              parallelFirstOrder(generic)))) {
        generic->emitError("opsnn-interchange-parallel-first: could not "
                           "interchange the loops");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
