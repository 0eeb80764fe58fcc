//===- FuseParallelLoops.cpp - One kernel for adjacent parallel loops -----===//
//
// --opsnn-fuse-parallel-loops: upstream's parallel-loop fusion
// (scf::naivelyFuseParallelOps: adjacent scf.parallel loops with the same
// bounds, each accessing what the other writes only at its own indices,
// become one loop, hence one GPU kernel), after moving fills next to their
// readers and out of the way the allocations that keep such loops apart:
// bufferization allocates each op's output right before the op, and an
// allocation is a side effect that ends upstream's chains of adjacent
// loops.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "BufferViews.h"

#include "mlir/Analysis/AliasAnalysis.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_FUSEPARALLELLOOPSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// An allocation of a static shape, on the host or the GPU (synchronous).
static bool isStaticAllocation(Operation *op) {
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    return alloc->getNumOperands() == 0;
  if (auto alloc = dyn_cast<gpu::AllocOp>(op))
    return alloc->getNumOperands() == 0 && !alloc.getAsyncToken();
  return false;
}

/// A copy of a constant global (a weight) into a buffer allocated in this
/// block: nothing else writes either, so it may run earlier.
static bool isConstantCopy(Operation *op) {
  auto copy = dyn_cast<memref::CopyOp>(op);
  if (!copy)
    return false;
  auto source = copy.getSource().getDefiningOp<memref::GetGlobalOp>();
  Operation *target = copy.getTarget().getDefiningOp();
  if (!source || !target || target->getBlock() != op->getBlock() ||
      !isStaticAllocation(target))
    return false;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      op, source.getNameAttr());
  return global && global.getConstant();
}

/// Moves allocations, constant globals and their copies, and views (of
/// buffers defined before those loops) above the parallel loops right
/// before them. Their operands come first (an op is moved only
/// past loops that do not define them); the loops cannot use what is
/// allocated after them. Buffers live for the length of those loops longer:
/// the fused kernel needs them anyway.
static void hoistAboveParallelLoops(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (!isStaticAllocation(&op) && !isa<memref::GetGlobalOp>(op) &&
        !isConstantCopy(&op) && !opsnn::isBufferView(&op))
      continue;
    Operation *before = &op;
    while (auto loop = dyn_cast_or_null<scf::ParallelOp>(before->getPrevNode())) {
      bool operandsFromLoop = llvm::any_of(op.getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && def->getBlock() == &block && !def->isBeforeInBlock(loop);
      });
      if (operandsFromLoop)
        break;
      before = loop;
    }
    if (before != &op)
      op.moveBefore(before);
  }
}

/// The allocation `view` is a view of (through ops that take a buffer,
/// return memrefs and access nothing), or `view` itself.
static Value allocationOf(Value view) {
  while (Operation *def = view.getDefiningOp()) {
    if (isStaticAllocation(def) || def->getNumOperands() == 0 ||
        !opsnn::isBufferView(def) ||
        !isa<BaseMemRefType>(def->getOperand(0).getType()))
      break;
    view = def->getOperand(0);
  }
  return view;
}

/// The buffer `loop` fills: its body only computes indices and stores
/// values defined outside it (a constant) into one buffer (or a view of
/// one) allocated in the same block.
static Value filledBuffer(scf::ParallelOp loop) {
  Value buffer;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store) {
      if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
        return {};
      continue;
    }
    if (!loop.isDefinedOutsideOfLoop(store.getValueToStore()) ||
        (buffer && store.getMemRef() != buffer))
      return {};
    buffer = store.getMemRef();
  }
  if (!buffer)
    return {};
  buffer = allocationOf(buffer);
  Operation *alloc = buffer.getDefiningOp();
  if (!alloc || alloc->getBlock() != loop->getBlock() ||
      !isStaticAllocation(alloc))
    return {};
  return buffer;
}

/// The first op after `loop` in its block that accesses `buffer`, directly
/// or in a region, through the buffer or a view of it (an op that takes a
/// buffer and returns a memref is a view; it accesses nothing itself).
/// Null when an access cannot be placed (none after `loop`: nothing to
/// sink to).
static Operation *firstAccessAfter(scf::ParallelOp loop, Value buffer) {
  Block *block = loop->getBlock();
  Operation *first = nullptr;
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (loop->isAncestor(user))
        continue;
      if (opsnn::isBufferView(user)) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      Operation *access = block->findAncestorOpInBlock(*user);
      if (!access || access->isBeforeInBlock(loop))
        return nullptr;
      if (!first || access->isBeforeInBlock(first))
        first = access;
    }
  }
  return first;
}

/// Moves fill loops down to the first op that accesses their buffer, next
/// to the loop that reads it (bufferization leaves a fill where its tensor
/// was created, often before other kernels). Nothing in between touches
/// the buffer, and a fill reads no memory.
static void sinkFills(Block &block) {
  for (auto loop : llvm::make_early_inc_range(block.getOps<scf::ParallelOp>())) {
    Value buffer = filledBuffer(loop);
    if (!buffer)
      continue;
    Operation *access = firstAccessAfter(loop, buffer);
    if (access && access != loop->getNextNode())
      loop->moveBefore(access);
  }
}

/// Whether `op` or an op in it uses `buffer` or a view of it.
static bool accessesBuffer(Operation *op, Value buffer) {
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (op->isAncestor(user))
        return true;
      if (opsnn::isBufferView(user))
        llvm::append_range(worklist, user->getResults());
    }
  }
  return false;
}

/// Whether two parallel loops have the same iteration space (what upstream
/// fusion asks first).
static bool sameBounds(scf::ParallelOp x, scf::ParallelOp y) {
  return x.getLowerBound() == y.getLowerBound() &&
         x.getUpperBound() == y.getUpperBound() && x.getStep() == y.getStep();
}

/// Moves a fill loop that cannot fuse with the loop after it (another
/// iteration space: a padded buffer's fill before the copy into its
/// interior) above the parallel loops before it that do not touch its
/// buffer, so that they meet the loop after it: the loop producing the
/// padding's data and the copy of that data then fuse. A fill reads no
/// memory, and what it uses from the block is defined before those loops.
static void liftFills(Block &block) {
  for (auto loop : llvm::make_early_inc_range(block.getOps<scf::ParallelOp>())) {
    Value buffer = filledBuffer(loop);
    auto next = dyn_cast_or_null<scf::ParallelOp>(loop->getNextNode());
    if (!buffer || !next || sameBounds(loop, next))
      continue;
    SetVector<Value> used;
    getUsedValuesDefinedAbove(loop.getRegion(), used);
    used.insert(loop->getOperands().begin(), loop->getOperands().end());
    Operation *before = loop;
    while (auto prev = dyn_cast_or_null<scf::ParallelOp>(before->getPrevNode())) {
      bool usesFromPrev = llvm::any_of(used, [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && def->getBlock() == &block && !def->isBeforeInBlock(prev);
      });
      if (usesFromPrev || accessesBuffer(prev, buffer))
        break;
      before = prev;
    }
    if (before != loop)
      loop->moveBefore(before);
  }
}

namespace {
struct FuseParallelLoopsPass
    : opsnn::impl::FuseParallelLoopsPassBase<FuseParallelLoopsPass> {
  void runOnOperation() override {
    getOperation()->walk([](Block *block) {
      sinkFills(*block);
      hoistAboveParallelLoops(*block);
      liftFills(*block);
    });
    AliasAnalysis &aliases = getAnalysis<AliasAnalysis>();
    auto mayAlias = [&](Value x, Value y) {
      return !aliases.alias(x, y).isNo();
    };
    getOperation()->walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        scf::naivelyFuseParallelOps(region, mayAlias);
    });
  }
};
} // namespace
