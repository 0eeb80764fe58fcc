//===- DecomposeAggregatedOps.cpp - linalg.softmax into generics ----------===//
//
// --opsnn-decompose-aggregated-ops: a thin pass over upstream's
// AggregatedOpInterface::decomposeOperation, which no upstream pass runs.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEDOPSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

namespace {
struct DecomposeAggregatedOpsPass
    : opsnn::impl::DecomposeAggregatedOpsPassBase<DecomposeAggregatedOpsPass> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitOpError("could not be decomposed");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
