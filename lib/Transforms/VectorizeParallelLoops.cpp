//===- VectorizeParallelLoops.cpp - Wide accesses in elementwise loops ----===//
//
// --opsnn-vectorize-parallel-loops: an elementwise scf.parallel (on the GPU's
// generic path, a kernel with one thread per iteration) handles V
// consecutive elements of its contiguous innermost dimension per iteration:
// one vector load per operand, the scalar body once per element, one vector
// store per result. A warp then moves 16 bytes per thread and instruction
// instead of one element.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "VectorAccessAlignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-vectorize-parallel-loops"

namespace mlir::opsnn {
#define GEN_PASS_DEF_VECTORIZEPARALLELLOOPSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {
/// Which ops of an elementwise loop's body depend on its chosen induction
/// variable, and how they access memory. Built by `analyze`.
struct LoopWidening {
  scf::ParallelOp loop;
  /// The widened dimension: the last index of every store.
  unsigned dim = 0;
  /// Its trip count (lower bound 0, step 1).
  int64_t tripCount = 0;
  /// The loads and stores whose address moves with the dimension: each
  /// reads or writes contiguous elements along it.
  SmallVector<Operation *> wideAccesses;
  /// The ops that depend on the dimension, in body order.
  SetVector<Operation *> varying;

  Value iv() { return loop.getInductionVars()[dim]; }

  /// The widest lane count up to `vectorBytes` bytes of the narrowest
  /// element, leaving at least `minRowVectors` vectors along the dimension;
  /// 1 if none.
  int64_t chooseLanes(int64_t vectorBytes, int64_t minRowVectors) const;
  /// Rewrites the loop to handle `lanes` elements per iteration.
  void apply(RewriterBase &rewriter, int64_t lanes, bool aligned);
};
} // namespace

/// The buffer and indices of `op` (a memref.load or store).
static std::pair<Value, ValueRange> bufferAndIndices(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return {load.getMemRef(), load.getIndices()};
  auto store = cast<memref::StoreOp>(op);
  return {store.getMemRef(), store.getIndices()};
}

/// Whether `type` is a scalar a lane of the body may compute.
static bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// The analysis of `loop`, or failure with the reason it stays scalar.
static FailureOr<LoopWidening> analyze(scf::ParallelOp loop,
                                       std::string &reason) {
  auto fail = [&](const Twine &why) {
    reason = why.str();
    return failure();
  };
  if (!loop.getInitVals().empty())
    return fail("the loop reduces values");
  if (loop.getBody()->getTerminator()->getNumOperands() != 0)
    return fail("the loop reduces values");
  auto stores = llvm::to_vector(loop.getBody()->getOps<memref::StoreOp>());
  if (stores.empty())
    return fail("the loop stores nothing");

  LoopWidening w;
  w.loop = loop;
  // The dimension: the last index of every store.
  Value last = stores.front().getIndices().empty()
                   ? Value()
                   : stores.front().getIndices().back();
  auto ivs = loop.getInductionVars();
  auto it = llvm::find(ivs, last);
  if (it == ivs.end())
    return fail("the stores' last index is not an induction variable");
  w.dim = it - ivs.begin();
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[w.dim]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[w.dim]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[w.dim]);
  if (!lb || !ub || !step || *lb != 0 || *step != 1)
    return fail("the dimension is not 0 to a constant with step 1");
  w.tripCount = *ub;

  // Forward: every op with an operand that depends on the dimension.
  DenseSet<Value> dependent = {w.iv()};
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumRegions() != 0)
      return fail(Twine("'") + op.getName().getStringRef() +
                  "' has regions (a loop inside the iteration)");
    bool varies = llvm::any_of(op.getOperands(), [&](Value v) {
      return dependent.contains(v);
    });
    if (isa<memref::StoreOp>(op))
      varies = true; // checked below: it must move with the dimension
    if (!varies) {
      // Once per iteration, as before: it must not write memory.
      if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(&op))
        return fail(Twine("'") + op.getName().getStringRef() +
                    "' has memory effects");
      continue;
    }
    w.varying.insert(&op);
    dependent.insert(op.result_begin(), op.result_end());
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      auto [buffer, indices] = bufferAndIndices(&op);
      if (indices.empty() || indices.back() != w.iv() ||
          llvm::any_of(indices.drop_back(),
                       [&](Value v) { return dependent.contains(v); }))
        return fail("an access does not move along the last dimension of "
                    "its buffer with the loop's dimension");
      if (wholeElementBytes(cast<MemRefType>(buffer.getType())) == 0)
        return fail("an access has elements of no whole bytes");
      w.wideAccesses.push_back(&op);
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return fail(Twine("'") + op.getName().getStringRef() +
                  "' has memory effects");
    if (!llvm::all_of(op.getOperandTypes(), isScalar) ||
        !llvm::all_of(op.getResultTypes(), isScalar))
      return fail(Twine("'") + op.getName().getStringRef() +
                  "' works on non-scalar values");
  }
  return w;
}

int64_t LoopWidening::chooseLanes(int64_t vectorBytes,
                                  int64_t minRowVectors) const {
  int64_t narrowest = std::numeric_limits<int64_t>::max();
  for (Operation *op : wideAccesses)
    narrowest = std::min(narrowest,
                         wholeElementBytes(cast<MemRefType>(
                             bufferAndIndices(op).first.getType())));
  for (int64_t lanes = vectorBytes / narrowest; lanes >= 2; lanes /= 2) {
    if (tripCount % lanes != 0 || tripCount / lanes < minRowVectors)
      continue;
    if (llvm::all_of(wideAccesses, [&](Operation *op) {
          return vectorAccessAlignment(bufferAndIndices(op).first, lanes) != 0;
        }))
      return lanes;
  }
  return 1;
}

void LoopWidening::apply(RewriterBase &rewriter, int64_t lanes,
                         bool aligned) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  rewriter.modifyOpInPlace(
      loop, [&] { loop.getStepMutable().slice(dim, 1).assign(step); });

  // Lane k's copy of every varying value; lane k's index is iv + k.
  Block *body = loop.getBody();
  SmallVector<IRMapping> lane(lanes);
  bool ivComputes = llvm::any_of(iv().getUsers(), [](Operation *user) {
    return !isa<memref::LoadOp, memref::StoreOp>(user);
  });
  rewriter.setInsertionPointToStart(body);
  for (int64_t k = 1; k < lanes && ivComputes; ++k)
    lane[k].map(iv(), arith::AddIOp::create(
                          rewriter, loc, iv(),
                          arith::ConstantIndexOp::create(rewriter, loc, k)));

  for (Operation *op : varying) {
    rewriter.setInsertionPoint(op);
    Location opLoc = op->getLoc();
    if (!isa<memref::LoadOp, memref::StoreOp>(op)) {
      for (int64_t k = 0; k < lanes; ++k)
        rewriter.clone(*op, lane[k]);
      continue;
    }
    auto [buffer, indices] = bufferAndIndices(op);
    auto vectorType = VectorType::get(
        {lanes}, cast<MemRefType>(buffer.getType()).getElementType());
    llvm::MaybeAlign alignment;
    if (aligned)
      alignment = llvm::MaybeAlign(vectorAccessAlignment(buffer, lanes));
    if (auto load = dyn_cast<memref::LoadOp>(op)) {
      Value wide = vector::LoadOp::create(rewriter, opLoc, vectorType, buffer,
                                          indices, /*nontemporal=*/false,
                                          alignment);
      for (int64_t k = 0; k < lanes; ++k)
        lane[k].map(load.getResult(),
                    vector::ExtractOp::create(rewriter, opLoc, wide, k));
      continue;
    }
    Value value = cast<memref::StoreOp>(op).getValueToStore();
    SmallVector<Value> elements;
    for (int64_t k = 0; k < lanes; ++k)
      elements.push_back(lane[k].lookupOrDefault(value));
    Value wide =
        vector::FromElementsOp::create(rewriter, opLoc, vectorType, elements);
    vector::StoreOp::create(rewriter, opLoc, wide, buffer, indices,
                            /*nontemporal=*/false, alignment);
  }
  for (Operation *op : llvm::reverse(varying))
    rewriter.eraseOp(op);
}

namespace {
struct VectorizeParallelLoopsPass
    : opsnn::impl::VectorizeParallelLoopsPassBase<VectorizeParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBytes < 2 || vectorBytes > 16 ||
        !llvm::isPowerOf2_64(vectorBytes)) {
      emitError(getOperation().getLoc())
          << "vector-bytes must be 2, 4, 8 or 16, got "
          << int64_t(vectorBytes);
      return signalPassFailure();
    }
    if (minRowVectors < 1) {
      emitError(getOperation().getLoc())
          << "min-row-vectors must be positive, got "
          << int64_t(minRowVectors);
      return signalPassFailure();
    }
    // The outermost parallel loops outside kernels: each is a kernel-to-be.
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (!loop->getParentOfType<scf::ParallelOp>() &&
          !loop->getParentOfType<gpu::LaunchOp>() &&
          !loop->hasAttr(gpu::getMappingAttrName()))
        loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      std::string reason;
      FailureOr<LoopWidening> widening = analyze(loop, reason);
      if (failed(widening)) {
        LLVM_DEBUG(llvm::dbgs() << "scalar loop at " << loop.getLoc() << ": "
                                << reason << "\n");
        continue;
      }
      int64_t lanes = widening->chooseLanes(vectorBytes, minRowVectors);
      if (lanes > 1)
        widening->apply(rewriter, lanes, aligned);
    }
  }
};
} // namespace
