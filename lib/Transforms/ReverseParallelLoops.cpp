//===- ReverseParallelLoops.cpp - Innermost dimension first ---------------===//
//
// Reverses the induction variables of scf.parallel ops in place so that the
// GPU mapping gives threadIdx.x to the innermost (contiguous) dimension.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_REVERSEPARALLELLOOPSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// Reverses the dimensions of `loop`: bounds and steps, and the uses of the
/// induction variables.
static void reverseDimensions(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  if (rank < 2)
    return;
  auto reversed = [](OperandRange range) {
    return llvm::to_vector(llvm::reverse(range));
  };
  SmallVector<Value> lower = reversed(loop.getLowerBound());
  SmallVector<Value> upper = reversed(loop.getUpperBound());
  SmallVector<Value> step = reversed(loop.getStep());
  loop.getLowerBoundMutable().assign(lower);
  loop.getUpperBoundMutable().assign(upper);
  loop.getStepMutable().assign(step);

  // New induction variables in reversed order replace the old ones.
  Block *body = loop.getBody();
  SmallVector<BlockArgument> oldIvs(body->getArguments().take_front(rank));
  SmallVector<BlockArgument> newIvs;
  for (BlockArgument iv : llvm::reverse(oldIvs))
    newIvs.push_back(body->addArgument(iv.getType(), iv.getLoc()));
  for (auto [oldIv, newIv] : llvm::zip(oldIvs, llvm::reverse(newIvs)))
    oldIv.replaceAllUsesWith(newIv);
  body->eraseArguments(0, rank);
}

namespace {
struct ReverseParallelLoopsPass
    : opsnn::impl::ReverseParallelLoopsPassBase<ReverseParallelLoopsPass> {
  void runOnOperation() override {
    getOperation()->walk([](scf::ParallelOp loop) { reverseDimensions(loop); });
  }
};
} // namespace
