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

/// The trip count of dimension `dim` of `loop` when it runs from 0 with
/// step 1 to a constant.
static std::optional<int64_t> plainTripCount(scf::ParallelOp loop,
                                             unsigned dim) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[dim]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[dim]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[dim]);
  if (!lb || !ub || !step || *lb != 0 || *step != 1)
    return std::nullopt;
  return ub;
}

/// The loop's first store, its own or in a loop inside (null if none).
static memref::StoreOp firstStore(scf::ParallelOp loop) {
  memref::StoreOp first;
  loop.getBody()->walk([&](memref::StoreOp store) {
    first = store;
    return WalkResult::interrupt();
  });
  return first;
}

/// The position among the loop's induction variables of `store`'s index
/// `fromLast` places before its last, if that index is one.
static std::optional<unsigned>
ivPosition(scf::ParallelOp loop, memref::StoreOp store, unsigned fromLast) {
  ValueRange indices = store.getIndices();
  if (indices.size() <= fromLast)
    return std::nullopt;
  auto ivs = loop.getInductionVars();
  auto it = llvm::find(ivs, indices[indices.size() - 1 - fromLast]);
  if (it == ivs.end())
    return std::nullopt;
  return it - ivs.begin();
}

/// Whether `type` is a scalar a lane of the body may compute.
static bool isScalar(Type type) { return type.isIntOrIndexOrFloat(); }

/// Classifies the ops of `block` (the loop's body, or the body of an
/// scf.for in it that depends on the dimension): which depend on it
/// (`dependent` grows with their results), that every access that does
/// reads contiguous elements along it, and that nothing else writes memory.
static LogicalResult analyzeBlock(Block &block, DenseSet<Value> &dependent,
                                  LoopWidening &w, std::string &reason) {
  auto fail = [&](const Twine &why) {
    reason = why.str();
    return failure();
  };
  auto name = [](Operation &op) {
    return ("'" + op.getName().getStringRef() + "'").str();
  };
  auto isDependent = [&](Value v) { return dependent.contains(v); };
  for (Operation &op : block.without_terminator()) {
    if (auto forOp = dyn_cast<scf::ForOp>(op)) {
      if (isDependent(forOp.getLowerBound()) ||
          isDependent(forOp.getUpperBound()) || isDependent(forOp.getStep()))
        return fail("an inner loop's bounds depend on the dimension");
      // It depends on the dimension if an initial value or an op inside
      // does (the iteration values are then one per element, even those
      // that would not need to be).
      bool varies = llvm::any_of(forOp.getInitArgs(), isDependent);
      forOp.getBody()->walk([&](Operation *nested) {
        varies |= isa<memref::StoreOp>(nested) ||
                  llvm::any_of(nested->getOperands(), isDependent);
      });
      if (!varies) {
        WalkResult effects = forOp.getBody()->walk([&](Operation *nested) {
          return isa<memref::LoadOp, scf::ForOp, scf::YieldOp>(nested) ||
                         isMemoryEffectFree(nested)
                     ? WalkResult::advance()
                     : WalkResult::interrupt();
        });
        if (effects.wasInterrupted())
          return fail("an inner loop has memory effects");
        continue;
      }
      if (!llvm::all_of(forOp.getResultTypes(), isScalar))
        return fail("an inner loop carries non-scalar values");
      w.varying.insert(&op);
      dependent.insert(forOp.getRegionIterArgs().begin(),
                       forOp.getRegionIterArgs().end());
      dependent.insert(op.result_begin(), op.result_end());
      if (failed(analyzeBlock(*forOp.getBody(), dependent, w, reason)))
        return failure();
      continue;
    }
    if (op.getNumRegions() != 0)
      return fail(name(op) + " has regions (other than an scf.for)");
    bool varies = llvm::any_of(op.getOperands(), isDependent);
    if (isa<memref::StoreOp>(op))
      varies = true; // checked below: it must move with the dimension
    if (!varies) {
      // Once per iteration, as before: it must not write memory.
      if (!isa<memref::LoadOp>(op) && !isMemoryEffectFree(&op))
        return fail(name(op) + " has memory effects");
      continue;
    }
    w.varying.insert(&op);
    dependent.insert(op.result_begin(), op.result_end());
    if (isa<memref::LoadOp, memref::StoreOp>(op)) {
      auto [buffer, indices] = bufferAndIndices(&op);
      if (indices.empty() || indices.back() != w.iv() ||
          llvm::any_of(indices.drop_back(), isDependent))
        return fail("an access does not move along the last dimension of "
                    "its buffer with the loop's dimension");
      if (wholeElementBytes(cast<MemRefType>(buffer.getType())) == 0)
        return fail("an access has elements of no whole bytes");
      w.wideAccesses.push_back(&op);
      continue;
    }
    if (!isMemoryEffectFree(&op))
      return fail(name(op) + " has memory effects");
    if (!llvm::all_of(op.getOperandTypes(), isScalar) ||
        !llvm::all_of(op.getResultTypes(), isScalar))
      return fail(name(op) + " works on non-scalar values");
  }
  return success();
}

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
  memref::StoreOp store = firstStore(loop);
  if (!store)
    return fail("the loop stores nothing");

  LoopWidening w;
  w.loop = loop;
  // The dimension: the last index of every store (analyzeBlock checks the
  // others).
  std::optional<unsigned> dim = ivPosition(loop, store, 0);
  if (!dim)
    return fail("the stores' last index is not an induction variable");
  w.dim = *dim;
  std::optional<int64_t> tripCount = plainTripCount(loop, w.dim);
  if (!tripCount)
    return fail("the dimension is not 0 to a constant with step 1");
  w.tripCount = *tripCount;

  // Forward: every op with an operand that depends on the dimension.
  DenseSet<Value> dependent = {w.iv()};
  if (failed(analyzeBlock(*loop.getBody(), dependent, w, reason)))
    return failure();
  return w;
}

int64_t LoopWidening::chooseLanes(int64_t vectorBytes,
                                  int64_t minRowVectors) const {
  SmallVector<Value> buffers = llvm::map_to_vector(
      wideAccesses, [](Operation *op) { return bufferAndIndices(op).first; });
  return widestVectorLanes(buffers, tripCount, minRowVectors, vectorBytes);
}

/// Emits `op` (which depends on the dimension) for `lanes.size()`
/// consecutive elements at the rewriter's insertion point: a load or store
/// as one vector access, an scf.for with one iteration value per element
/// (its body likewise), any other op once per element. `lanes[k]` maps
/// every value to element k's.
static void widenOp(Operation *op, RewriterBase &rewriter,
                    MutableArrayRef<IRMapping> lanes,
                    const SetVector<Operation *> &varying, bool aligned) {
  int64_t count = lanes.size();
  Location loc = op->getLoc();
  if (auto forOp = dyn_cast<scf::ForOp>(op)) {
    // Iteration value i of element k is new iteration value i x count + k.
    SmallVector<Value> inits;
    for (Value init : forOp.getInitArgs())
      for (IRMapping &lane : lanes)
        inits.push_back(lane.lookupOrDefault(init));
    IRMapping &first = lanes.front();
    auto widened = scf::ForOp::create(
        rewriter, loc, first.lookupOrDefault(forOp.getLowerBound()),
        first.lookupOrDefault(forOp.getUpperBound()),
        first.lookupOrDefault(forOp.getStep()), inits,
        [&](OpBuilder &, Location, Value iv, ValueRange iterArgs) {
          for (auto [k, lane] : llvm::enumerate(lanes)) {
            lane.map(forOp.getInductionVar(), iv);
            for (auto [i, arg] : llvm::enumerate(forOp.getRegionIterArgs()))
              lane.map(arg, iterArgs[i * count + k]);
          }
          for (Operation &inner : forOp.getBody()->without_terminator()) {
            if (varying.contains(&inner)) {
              widenOp(&inner, rewriter, lanes, varying, aligned);
              continue;
            }
            // Once for every element.
            Operation *clone = rewriter.clone(inner, first);
            for (IRMapping &lane : lanes.drop_front())
              for (auto [from, to] :
                   llvm::zip(inner.getResults(), clone->getResults()))
                lane.map(from, to);
          }
          SmallVector<Value> yielded;
          for (Value v : forOp.getBody()->getTerminator()->getOperands())
            for (IRMapping &lane : lanes)
              yielded.push_back(lane.lookupOrDefault(v));
          scf::YieldOp::create(rewriter, loc, yielded);
        });
    for (auto [k, lane] : llvm::enumerate(lanes))
      for (auto [i, result] : llvm::enumerate(forOp.getResults()))
        lane.map(result, widened.getResult(i * count + k));
    return;
  }
  if (!isa<memref::LoadOp, memref::StoreOp>(op)) {
    for (IRMapping &lane : lanes)
      rewriter.clone(*op, lane);
    return;
  }
  auto [buffer, indices] = bufferAndIndices(op);
  Value mappedBuffer = lanes.front().lookupOrDefault(buffer);
  SmallVector<Value> mappedIndices = llvm::map_to_vector(
      indices, [&](Value v) { return lanes.front().lookupOrDefault(v); });
  auto vectorType = VectorType::get(
      {count}, cast<MemRefType>(buffer.getType()).getElementType());
  llvm::MaybeAlign alignment;
  if (aligned)
    alignment = llvm::MaybeAlign(vectorAccessAlignment(buffer, count));
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    Value wide = vector::LoadOp::create(rewriter, loc, vectorType, mappedBuffer,
                                        mappedIndices,
                                        /*nontemporal=*/false, alignment);
    for (auto [k, lane] : llvm::enumerate(lanes))
      lane.map(load.getResult(),
               vector::ExtractOp::create(rewriter, loc, wide, k));
    return;
  }
  Value value = cast<memref::StoreOp>(op).getValueToStore();
  SmallVector<Value> elements = llvm::map_to_vector(
      lanes, [&](IRMapping &lane) { return lane.lookupOrDefault(value); });
  Value wide =
      vector::FromElementsOp::create(rewriter, loc, vectorType, elements);
  vector::StoreOp::create(rewriter, loc, wide, mappedBuffer, mappedIndices,
                          /*nontemporal=*/false, alignment);
}

void LoopWidening::apply(RewriterBase &rewriter, int64_t lanes, bool aligned) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value step = arith::ConstantIndexOp::create(rewriter, loc, lanes);
  rewriter.modifyOpInPlace(
      loop, [&] { loop.getStepMutable().slice(dim, 1).assign(step); });

  // Element k's copy of every value that depends on the dimension; its
  // index is iv + k.
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

  // In place in the loop's body: the ops that do not depend on the
  // dimension stay as they are (those inside a widened scf.for are cloned
  // with it).
  SmallVector<Operation *> replaced;
  for (Operation *op : varying) {
    if (op->getBlock() != body)
      continue;
    rewriter.setInsertionPoint(op);
    widenOp(op, rewriter, lane, varying, aligned);
    replaced.push_back(op);
  }
  for (Operation *op : llvm::reverse(replaced))
    rewriter.eraseOp(op);
}

/// The reassociation of a rank-`rank` buffer that merges its last two
/// dimensions.
static SmallVector<ReassociationIndices> lastTwoMerged(int64_t rank) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank - 2; ++i)
    groups.push_back({i});
  groups.push_back({rank - 2, rank - 1});
  return groups;
}

/// Merges the loop's row dimension `d` (the last index of its first store)
/// with the one before it, `e` (the second-to-last), into one dimension of
/// E x T iterations, when every access that uses either has [..., e, d] as
/// its last indices into a buffer of rows of T that collapse with the
/// dimension before them (memref.collapse_shape, made before the loop), and
/// nothing else uses them, and the loop has a third dimension. Then
/// accesses index the collapsed buffers with the merged variable: no
/// division. Returns whether it merged.
static bool mergeRowWithPrevious(scf::ParallelOp loop, RewriterBase &rewriter) {
  // A dimension must remain besides the merged one: the GPU's blocks keep
  // their rows of threads along y (a 1-D loop gets blocks of 32 threads).
  if (loop.getNumLoops() < 3)
    return false;
  memref::StoreOp store = firstStore(loop);
  std::optional<unsigned> dim =
      store ? ivPosition(loop, store, 0) : std::nullopt;
  std::optional<unsigned> prev =
      store ? ivPosition(loop, store, 1) : std::nullopt;
  if (!dim || !prev || *dim == *prev)
    return false;
  unsigned dPos = *dim, ePos = *prev;
  std::optional<int64_t> rows = plainTripCount(loop, ePos);
  std::optional<int64_t> row = plainTripCount(loop, dPos);
  if (!rows || !row)
    return false;
  Value d = loop.getInductionVars()[dPos], e = loop.getInductionVars()[ePos];

  // Every use of either variable: an access [..., e, d] of a buffer made
  // outside the loop whose rows of `row` elements collapse.
  SmallVector<Operation *> accesses;
  for (Value iv : {d, e}) {
    for (Operation *user : iv.getUsers()) {
      if (!isa<memref::LoadOp, memref::StoreOp>(user) ||
          user->getParentOp() != loop)
        return false;
      auto [buffer, indices] = bufferAndIndices(user);
      auto type = cast<MemRefType>(buffer.getType());
      int64_t rank = type.getRank();
      if (rank < 2 || indices.back() != d || indices[rank - 2] != e ||
          llvm::is_contained(indices.drop_back(2), d) ||
          llvm::is_contained(indices.drop_back(2), e) ||
          type.getDimSize(rank - 1) != *row ||
          !loop.isDefinedOutsideOfLoop(buffer))
        return false;
      if (!memref::CollapseShapeOp::isGuaranteedCollapsible(
              type, lastTwoMerged(rank)))
        return false;
      if (!llvm::is_contained(accesses, user))
        accesses.push_back(user);
    }
  }

  // One collapsed view per buffer, before the loop.
  DenseMap<Value, Value> collapsed;
  for (Operation *op : accesses) {
    Value buffer = bufferAndIndices(op).first;
    if (collapsed.count(buffer))
      continue;
    int64_t rank = cast<MemRefType>(buffer.getType()).getRank();
    rewriter.setInsertionPoint(loop);
    collapsed[buffer] = memref::CollapseShapeOp::create(
        rewriter, buffer.getLoc(), buffer, lastTwoMerged(rank));
  }
  for (Operation *op : accesses) {
    auto [buffer, indices] = bufferAndIndices(op);
    SmallVector<Value> merged(indices.drop_back(2));
    merged.push_back(d);
    rewriter.setInsertionPoint(op);
    if (auto load = dyn_cast<memref::LoadOp>(op))
      rewriter.replaceOpWithNewOp<memref::LoadOp>(load, collapsed[buffer],
                                                  merged);
    else
      rewriter.replaceOpWithNewOp<memref::StoreOp>(
          op, cast<memref::StoreOp>(op).getValueToStore(), collapsed[buffer],
          merged);
  }

  // The loop: d runs over rows x row, e goes.
  rewriter.setInsertionPoint(loop);
  Value bound =
      arith::ConstantIndexOp::create(rewriter, loop.getLoc(), *rows * *row);
  rewriter.modifyOpInPlace(loop, [&] {
    auto without = [&](OperandRange range) {
      SmallVector<Value> values(range);
      values.erase(values.begin() + ePos);
      return values;
    };
    SmallVector<Value> upper(loop.getUpperBound());
    upper[dPos] = bound;
    upper.erase(upper.begin() + ePos);
    SmallVector<Value> lower = without(loop.getLowerBound());
    SmallVector<Value> steps = without(loop.getStep());
    loop.getLowerBoundMutable().assign(lower);
    loop.getUpperBoundMutable().assign(upper);
    loop.getStepMutable().assign(steps);
    loop.getBody()->eraseArgument(ePos);
  });
  return true;
}

/// The most elements a vector of `vectorBytes` may hold in `loop`: of the
/// narrowest element its own loads and stores move (1 if unknown).
static int64_t maxLanes(scf::ParallelOp loop, int64_t vectorBytes) {
  SmallVector<Value> buffers;
  for (Operation &op : loop.getBody()->without_terminator())
    if (isa<memref::LoadOp, memref::StoreOp>(op))
      buffers.push_back(bufferAndIndices(&op).first);
  int64_t narrowest = narrowestElementBytes(buffers);
  return narrowest ? std::max<int64_t>(vectorBytes / narrowest, 1) : 1;
}

namespace {
struct VectorizeParallelLoopsPass
    : opsnn::impl::VectorizeParallelLoopsPassBase<VectorizeParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (vectorBytes < 2 || vectorBytes > 16 ||
        !llvm::isPowerOf2_64(vectorBytes)) {
      emitError(getOperation().getLoc())
          << "vector-bytes must be 2, 4, 8 or 16, got " << int64_t(vectorBytes);
      return signalPassFailure();
    }
    if (minRowVectors < 1) {
      emitError(getOperation().getLoc())
          << "min-row-vectors must be positive, got " << int64_t(minRowVectors);
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
      // Rows too short for the widest vectors and enough threads along
      // them: merged with the rows before them where every access allows.
      auto rowTooShort = [&] {
        memref::StoreOp store = firstStore(loop);
        std::optional<unsigned> dim =
            store ? ivPosition(loop, store, 0) : std::nullopt;
        std::optional<int64_t> row =
            dim ? plainTripCount(loop, *dim) : std::nullopt;
        return row && *row < maxLanes(loop, vectorBytes) * minRowVectors;
      };
      while (rowTooShort() && mergeRowWithPrevious(loop, rewriter)) {
      }
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
