//===- DecomposeAggregatedOps.cpp - linalg.softmax into generics ----------===//
//
// --opsnn-decompose-aggregated-ops: a thin pass over upstream's
// AggregatedOpInterface::decomposeOperation, which no upstream pass runs,
// plus the same steps for a softmax on buffers (one that the tensor-core
// kernel kept through bufferization and then did not absorb).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATEDOPSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// The value `v` is computed from element for element, if any: the input
/// of an elementwise op or generic read as its output is written
/// (attention's scale, its mask added, precision casts), or a reshape's
/// source.
static Value elementwiseSource(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return nullptr;
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op))
    return expand.getSrc();
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op))
    return collapse.getSrc();
  if (op->hasTrait<OpTrait::Elementwise>()) {
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        return operand;
    return nullptr;
  }
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumReductionLoops() > 0)
    return nullptr;
  AffineMap written =
      generic.getMatchingIndexingMap(generic.getDpsInitOperand(0));
  for (OpOperand *input : generic.getDpsInputOperands())
    if (input->get().getType() == v.getType() &&
        generic.getMatchingIndexingMap(input) == written)
      return input->get();
  return nullptr;
}

/// Whether `softmax` normalizes the last dimension of what a contraction
/// computes: its input comes, element for element (elementwiseSource), from
/// a linalg op with reduction loops other than linalg.reduce. A loose test:
/// the tensor-core kernel checks the rest after bufferization, and a later
/// run decomposes what it leaves.
static bool normalizesContraction(linalg::SoftmaxOp softmax) {
  auto type = dyn_cast<RankedTensorType>(softmax.getInput().getType());
  if (!type || !type.hasStaticShape() ||
      softmax.getDimension() + 1 != uint64_t(type.getRank()))
    return false;
  for (Value v = softmax.getInput(); v; v = elementwiseSource(v))
    if (auto producer = v.getDefiningOp<linalg::LinalgOp>())
      if (producer.getNumReductionLoops() > 0)
        return !isa<linalg::ReduceOp>(producer.getOperation());
  return false;
}

/// Iterators of `rank` parallel loops but for loop `reduced`.
static SmallVector<utils::IteratorType> iteratorsReducing(int64_t rank,
                                                          int64_t reduced) {
  SmallVector<utils::IteratorType> loops(rank, utils::IteratorType::parallel);
  loops[reduced] = utils::IteratorType::reduction;
  return loops;
}

/// `softmax` on buffers as the steps of upstream's decomposition on
/// tensors: m = max over the dimension (from maxnumf's identity, NaN, as
/// upstream starts it), out = exp(in - m),
/// s = sum of out, out = out / s. One row buffer serves m and then s.
static LogicalResult decomposeOnBuffers(RewriterBase &rewriter,
                                        linalg::SoftmaxOp softmax) {
  Location loc = softmax.getLoc();
  Value in = softmax.getInput(), out = softmax.getOutput();
  auto type = cast<MemRefType>(in.getType());
  if (in == out)
    return softmax.emitOpError("on buffers needs an output apart from its "
                               "input (exp(x - max) overwrites x)");
  int64_t rank = type.getRank(), dim = softmax.getDimension();
  Type element = type.getElementType();
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<int64_t> rowShape;
  SmallVector<Value> dynamicSizes;
  SmallVector<AffineExpr> rowExprs;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == dim)
      continue;
    rowShape.push_back(type.getDimSize(d));
    rowExprs.push_back(getAffineDimExpr(d, ctx));
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(memref::DimOp::create(rewriter, loc, in, d));
  }
  AffineMap all = rewriter.getMultiDimIdentityMap(rank);
  AffineMap row = AffineMap::get(rank, 0, rowExprs, ctx);
  Value rows = memref::AllocOp::create(
      rewriter, loc, MemRefType::get(rowShape, element), dynamicSizes);
  auto fill = [&](arith::AtomicRMWKind kind) {
    Value identity = arith::getIdentityValue(kind, element, rewriter, loc,
                                             /*useOnlyFiniteValue=*/true);
    linalg::FillOp::create(rewriter, loc, identity, rows);
  };
  // Reduces `source` into `rows` with `combine`.
  auto reduce = [&](Value source, auto combine) {
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{source}, ValueRange{rows},
        ArrayRef<AffineMap>{all, row}, iteratorsReducing(rank, dim),
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, combine(b, l, args[0], args[1]));
        });
  };
  // out = f(source, rows) elementwise.
  auto broadcast = [&](Value source, auto f) {
    SmallVector<utils::IteratorType> parallel(rank,
                                              utils::IteratorType::parallel);
    linalg::GenericOp::create(
        rewriter, loc, ValueRange{source, rows}, ValueRange{out},
        ArrayRef<AffineMap>{all, row, all}, parallel,
        [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, f(b, l, args[0], args[1]));
        });
  };
  fill(arith::AtomicRMWKind::maxnumf);
  reduce(in, [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return arith::MaxNumFOp::create(b, l, x, acc);
  });
  broadcast(in, [](OpBuilder &b, Location l, Value x, Value max) -> Value {
    return math::ExpOp::create(b, l, arith::SubFOp::create(b, l, x, max));
  });
  fill(arith::AtomicRMWKind::addf);
  reduce(out, [](OpBuilder &b, Location l, Value x, Value acc) -> Value {
    return arith::AddFOp::create(b, l, x, acc);
  });
  broadcast(out, [](OpBuilder &b, Location l, Value e, Value sum) -> Value {
    return arith::DivFOp::create(b, l, e, sum);
  });
  memref::DeallocOp::create(rewriter, loc, rows);
  rewriter.eraseOp(softmax);
  return success();
}

namespace {
struct DecomposeAggregatedOpsPass
    : opsnn::impl::DecomposeAggregatedOpsPassBase<DecomposeAggregatedOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      auto softmax = dyn_cast<linalg::SoftmaxOp>(op.getOperation());
      if (softmax && softmax.hasPureBufferSemantics()) {
        if (failed(decomposeOnBuffers(rewriter, softmax)))
          return signalPassFailure();
        continue;
      }
      if (softmax && keepContractionSoftmax && normalizesContraction(softmax))
        continue;
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
