//===- InterchangeParallelFirst.cpp - Parallel loops before reductions ----===//
//
// --opsnn-interchange-parallel-first: every linalg op gets its parallel
// loops first (in its output's order), so that the conversion to parallel
// loops maps all of them to the GPU grid, threads walk the output as it is
// stored, and neighbouring loops over the same output space fuse.
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

/// The loop order with `op`'s parallel loops first, then its reductions
/// (in their order); empty if that is the order already. The parallel
/// loops go in the order the op's one output indexes them, where it indexes
/// them all and the op is no transpose (a depthwise NCHW convolution's
/// loops n, oh, ow, c become n, c, oh, ow; an elementwise op whose
/// operands ALTE moved to NHWC, maps (n, c, h, w) -> (n, h, w, c), iterates
/// n, h, w, c): threads walk the output as it is stored, and the loops line
/// up with those of the ops before and after it, which
/// --opsnn-fuse-parallel-loops then fuses. Else, and for a transpose (a
/// layout conversion, which iterates as its producer), in their own order.
static SmallVector<unsigned> parallelFirstOrder(linalg::LinalgOp op) {
  SmallVector<unsigned> parallel, reduction;
  for (auto [i, type] : llvm::enumerate(op.getIteratorTypesArray()))
    (linalg::isParallelIterator(type) ? parallel : reduction).push_back(i);
  auto isTranspose = [&] {
    AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    return llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *input) {
      AffineMap map = op.getMatchingIndexingMap(input);
      return map.isPermutation() && map != out;
    });
  };
  if (op.getNumDpsInits() == 1 && !isTranspose()) {
    SmallVector<unsigned> outputOrder;
    for (AffineExpr e :
         op.getMatchingIndexingMap(op.getDpsInitOperand(0)).getResults())
      if (auto dim = dyn_cast<AffineDimExpr>(e);
          dim && llvm::is_contained(parallel, dim.getPosition()) &&
          !llvm::is_contained(outputOrder, dim.getPosition()))
        outputOrder.push_back(dim.getPosition());
    if (outputOrder.size() == parallel.size())
      parallel = outputOrder;
  }
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
      if (!parallelFirstOrder(op).empty())
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
