//===- PromoteAccumulators.cpp - Reduction accumulators in registers ------===//
//
// --opsnn-promote-accumulators: a loop that loads and stores one buffer
// element at loop-invariant indices each iteration (linalg's loops for a
// reduction: `C[i, j] = C[i, j] + a * b` for every k) carries the element
// as an iteration argument instead: loaded once before the loop, stored
// once after it. On the GPU's generic path this takes a global load and
// store out of every step of a reduction. Loads of an element stored
// earlier in the same block then read the stored value, stores that a
// later store of the same element overwrites go, and so do stores into a
// buffer nothing reads any more.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "BufferViews.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_PROMOTEACCUMULATORSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

namespace {
/// The load and store of an accumulator element in a loop body.
struct Accumulator {
  memref::LoadOp load;
  memref::StoreOp store;
};
} // namespace

/// Whether everything in `loop` other than `acc`'s load and store leaves
/// its buffer alone: every memory effect is on a value that cannot alias
/// it (an effect on no particular value, or an op that declares none, may
/// touch anything).
static bool onlyAccessedBy(scf::ForOp loop, Accumulator acc,
                           AliasAnalysis &aliases) {
  Value buffer = acc.load.getMemRef();
  WalkResult result = loop.getBody()->walk([&](Operation *op) {
    if (op == acc.load || op == acc.store)
      return WalkResult::advance();
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::interrupt();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value target = effect.getValue();
      if (!target || !aliases.alias(target, buffer).isNo())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// The accumulator of `loop`: a load in its body at indices defined
/// outside it, followed by the only store to that buffer, at the same
/// indices, with nothing else in the loop touching the buffer.
static std::optional<Accumulator> findAccumulator(scf::ForOp loop,
                                                  AliasAnalysis &aliases) {
  for (memref::LoadOp load : loop.getBody()->getOps<memref::LoadOp>()) {
    if (!llvm::all_of(load.getIndices(), [&](Value index) {
          return loop.isDefinedOutsideOfLoop(index);
        }) ||
        !loop.isDefinedOutsideOfLoop(load.getMemRef()))
      continue;
    memref::StoreOp store;
    for (Operation *op = load->getNextNode(); op; op = op->getNextNode()) {
      auto candidate = dyn_cast<memref::StoreOp>(op);
      if (candidate && candidate.getMemRef() == load.getMemRef() &&
          candidate.getIndices() == load.getIndices()) {
        store = candidate;
        break;
      }
    }
    if (!store)
      continue;
    Accumulator acc{load, store};
    if (onlyAccessedBy(loop, acc, aliases))
      return acc;
  }
  return std::nullopt;
}

/// Carries `acc` through `loop` as an iteration argument; returns the loop
/// that replaces `loop`.
static scf::ForOp promote(scf::ForOp loop, Accumulator acc) {
  IRRewriter rewriter(loop);
  Location loc = acc.load.getLoc();
  Value buffer = acc.load.getMemRef();
  SmallVector<Value> indices(acc.load.getIndices());
  rewriter.setInsertionPoint(loop);
  Value init = memref::LoadOp::create(rewriter, loc, buffer, indices);
  Value stored = acc.store.getValueToStore();
  FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
      rewriter, init, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        return SmallVector<Value>{stored};
      });
  auto promoted = cast<scf::ForOp>(replaced->getOperation());
  rewriter.replaceOp(acc.load, promoted.getRegionIterArgs().back());
  rewriter.eraseOp(acc.store);
  rewriter.setInsertionPointAfter(promoted);
  memref::StoreOp::create(rewriter, loc, promoted.getResults().back(), buffer,
                          indices);
  return promoted;
}

/// Whether `op` (with the ops it contains) may have one of `Effects` on
/// memory that `buffer` may alias.
template <typename... Effects>
static bool mayAffect(Operation *op, Value buffer, AliasAnalysis &aliases) {
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
    WalkResult result = op->walk([&](Operation *nested) {
      return nested != op && mayAffect<Effects...>(nested, buffer, aliases)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    return result.wasInterrupted();
  }
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [&](const MemoryEffects::EffectInstance &e) {
    return isa<Effects...>(e.getEffect()) &&
           (!e.getValue() || !aliases.alias(e.getValue(), buffer).isNo());
  });
}

static bool mayWrite(Operation *op, Value buffer, AliasAnalysis &aliases) {
  return mayAffect<MemoryEffects::Write, MemoryEffects::Free>(op, buffer,
                                                              aliases);
}

/// The nearest store before `access` in its block of the element it
/// touches (same buffer, same indices), unless an op in between `blocks`.
static memref::StoreOp
earlierStoreOfElement(Operation *access, Value buffer, ValueRange indices,
                      function_ref<bool(Operation *)> blocks) {
  for (Operation *op = access->getPrevNode(); op; op = op->getPrevNode()) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (store && store.getMemRef() == buffer && store.getIndices() == indices)
      return store;
    if (blocks(op))
      return {};
  }
  return {};
}

/// A load of the element that an earlier store in the same block wrote,
/// with nothing in between that may write the buffer, reads the stored
/// value (the fill's zero becomes the accumulator's initial value; the
/// consumer reads the sum the loop carried).
static void forwardStoredValues(Block &block, AliasAnalysis &aliases) {
  for (memref::LoadOp load :
       llvm::make_early_inc_range(block.getOps<memref::LoadOp>())) {
    Value buffer = load.getMemRef();
    memref::StoreOp store = earlierStoreOfElement(
        load, buffer, load.getIndices(),
        [&](Operation *op) { return mayWrite(op, buffer, aliases); });
    if (!store)
      continue;
    load.replaceAllUsesWith(store.getValueToStore());
    load.erase();
  }
}

/// A store that a later store in the same block overwrites (same buffer,
/// same indices), with nothing in between that may read the buffer, goes:
/// a fused fill's store once its value is the accumulator's initial value
/// and the loop carries the sum in a register (global pooling, a generic
/// GEMM: the output was written twice).
static void eraseOverwrittenStores(Block &block, AliasAnalysis &aliases) {
  for (memref::StoreOp store :
       llvm::make_early_inc_range(block.getOps<memref::StoreOp>())) {
    Value buffer = store.getMemRef();
    memref::StoreOp earlier = earlierStoreOfElement(
        store, buffer, store.getIndices(), [&](Operation *op) {
          return mayAffect<MemoryEffects::Read, MemoryEffects::Free>(op, buffer,
                                                                     aliases);
        });
    if (earlier)
      earlier.erase();
  }
}

/// Whether `buffer` is only written: its uses (through views: ops that
/// take it, return memrefs and access nothing) are stores into it and its
/// deallocation.
static bool isWriteOnly(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    if (auto store = dyn_cast<memref::StoreOp>(user)) {
      if (store.getValueToStore() == buffer)
        return false;
      continue;
    }
    if (isa<memref::DeallocOp, gpu::DeallocOp>(user))
      continue;
    if (!opsnn::isBufferView(user) ||
        !llvm::all_of(user->getResults(), isWriteOnly))
      return false;
  }
  return true;
}

/// Erases the stores into buffers allocated here that nothing reads any
/// more (a fused contraction's C once its consumer reads the forwarded
/// sum).
static void eraseUnreadStores(Operation *root) {
  SmallVector<Value> buffers;
  root->walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(op) &&
        op->getNumResults() > 0 && isWriteOnly(op->getResult(0)))
      buffers.push_back(op->getResult(0));
  });
  for (Value buffer : buffers) {
    SmallVector<Value> worklist = {buffer};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : llvm::make_early_inc_range(v.getUsers())) {
        if (isa<memref::StoreOp>(user))
          user->erase();
        else if (!isa<memref::DeallocOp, gpu::DeallocOp>(user))
          llvm::append_range(worklist, user->getResults());
      }
    }
  }
}

namespace {
struct PromoteAccumulatorsPass
    : opsnn::impl::PromoteAccumulatorsPassBase<PromoteAccumulatorsPass> {
  void runOnOperation() override {
    AliasAnalysis &aliases = getAnalysis<AliasAnalysis>();
    // Innermost loops first: a promoted inner loop's load and store become
    // the next loop's accumulator (a sum over H and W).
    // Kernels built already (tensor cores, warp reductions) share memory
    // between threads: left alone.
    auto inKernel = [](Operation *op) {
      return op->getParentOfType<gpu::LaunchOp>() ||
             op->getParentOfType<gpu::GPUFuncOp>();
    };
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (!inKernel(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      while (std::optional<Accumulator> acc = findAccumulator(loop, aliases))
        loop = promote(loop, *acc);
    getOperation()->walk([&](Block *block) {
      if (!block->empty() && !inKernel(&block->front())) {
        forwardStoredValues(*block, aliases);
        eraseOverwrittenStores(*block, aliases);
      }
    });
    eraseUnreadStores(getOperation());
  }
};
} // namespace
