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

/// The alignment the pass takes a buffer argument of a function or an
/// allocation without an `alignment` to have: malloc's and the runtime's
/// (ops-nn-run copies its inputs to 64-byte boundaries; cuMemAlloc gives
/// 256).
static constexpr int64_t kBufferAlignment = 16;

/// The bytes of one element of `type`, or 0 for types a vector access does
/// not take (i1, sub-byte or index elements).
static int64_t elementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!isa<IntegerType, FloatType>(element))
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : 0;
}

/// The alignment in bytes that the data of `buffer` (its aligned pointer)
/// is known to start at: through views to the buffer they view, 0 where
/// unknown.
static int64_t knownBaseAlignment(Value buffer) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(buffer))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
                     arg.getOwner()->isEntryBlock()
                 ? kBufferAlignment
                 : 0;
    Operation *def = buffer.getDefiningOp();
    auto attrAlignment = [&](std::optional<uint64_t> align, int64_t dflt) {
      return align ? std::max<int64_t>(*align, dflt) : dflt;
    };
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return attrAlignment(alloc.getAlignment(), kBufferAlignment);
    if (isa<gpu::AllocOp>(def))
      return kBufferAlignment;
    if (auto alloca = dyn_cast<memref::AllocaOp>(def))
      return attrAlignment(alloca.getAlignment(), 0);
    if (auto global = dyn_cast<memref::GetGlobalOp>(def)) {
      auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          global, global.getNameAttr());
      return symbol ? attrAlignment(symbol.getAlignment(), 0) : 0;
    }
    // memref.view starts its result `byte_shift` bytes into the source's
    // data, which the result type does not record.
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift)
        return 0;
      int64_t source = knownBaseAlignment(view.getSource());
      return *shift == 0 ? source
                         : std::min<int64_t>(source, *shift & -*shift);
    }
    // Other views share the source's aligned pointer (a subview's or
    // reinterpret_cast's offset is in its type, which the caller checks).
    if (auto transpose = dyn_cast<memref::TransposeOp>(def)) {
      buffer = transpose.getIn();
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      buffer = view.getViewSource();
      continue;
    }
    return 0;
  }
}

namespace {
/// Which ops of an elementwise loop's body depend on its chosen induction
/// variable, and how they access memory. Built by `analyze`.
struct LoopWidening {
  mutable scf::ParallelOp loop;
  /// The widened dimension: the last index of every store.
  unsigned dim = 0;
  /// Its trip count (lower bound 0, step 1).
  int64_t tripCount = 0;
  /// The loads and stores whose address moves with the dimension: each
  /// reads or writes contiguous elements along it.
  SmallVector<Operation *> wideAccesses;
  /// The ops that depend on the dimension, in body order.
  SetVector<Operation *> varying;

  Value iv() const { return loop.getInductionVars()[dim]; }

  /// The alignment in bytes a vector of `lanes` elements of `buffer` may
  /// declare (at most kBufferAlignment), or 0 if a vector access could
  /// split it wrongly (a row that does not start on a whole vector).
  static int64_t vectorAlignment(Value buffer, int64_t lanes);
  /// The widest lane count up to `vectorBytes` bytes of the narrowest
  /// element, leaving at least `minRowVectors` vectors along the dimension;
  /// 1 if none.
  int64_t chooseLanes(int64_t vectorBytes, int64_t minRowVectors) const;
  /// Rewrites the loop to handle `lanes` elements per iteration.
  void apply(RewriterBase &rewriter, int64_t lanes, bool aligned) const;
};
} // namespace

/// The last indices and address of `op` (a memref.load or store).
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
    if (auto store = dyn_cast<memref::StoreOp>(op))
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
      if (elementBytes(cast<MemRefType>(buffer.getType())) == 0)
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

int64_t LoopWidening::vectorAlignment(Value buffer, int64_t lanes) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bytes = elementBytes(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      strides.back() != 1)
    return 0;
  // Every vector starts at a multiple of `lanes` elements past the start
  // of its row; the rows (and the offset) must keep that alignment.
  int64_t align = std::min(lanes * bytes, kBufferAlignment);
  int64_t unit = align / bytes;
  auto multiple = [&](int64_t v) {
    return !ShapedType::isDynamic(v) && v % unit == 0;
  };
  if (!multiple(offset) ||
      !llvm::all_of(ArrayRef(strides).drop_back(), multiple))
    return 0;
  return knownBaseAlignment(buffer) >= align ? align : 0;
}

int64_t LoopWidening::chooseLanes(int64_t vectorBytes,
                                  int64_t minRowVectors) const {
  int64_t narrowest = std::numeric_limits<int64_t>::max();
  for (Operation *op : wideAccesses)
    narrowest = std::min(narrowest,
                         elementBytes(cast<MemRefType>(
                             bufferAndIndices(op).first.getType())));
  for (int64_t lanes = vectorBytes / narrowest; lanes >= 2; lanes /= 2) {
    if (tripCount % lanes != 0 || tripCount / lanes < minRowVectors)
      continue;
    if (llvm::all_of(wideAccesses, [&](Operation *op) {
          return vectorAlignment(bufferAndIndices(op).first, lanes) != 0;
        }))
      return lanes;
  }
  return 1;
}

void LoopWidening::apply(RewriterBase &rewriter, int64_t lanes,
                         bool aligned) const {
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
      alignment = llvm::MaybeAlign(vectorAlignment(buffer, lanes));
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
