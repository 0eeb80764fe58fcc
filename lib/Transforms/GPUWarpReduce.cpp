//===- GPUWarpReduce.cpp - Row reductions as one warp per output ----------===//
//
// The generic GPU path gives a reduction one thread per output element,
// looping over the reduced dimension on its own: the 32 threads of a warp
// then read 32 different rows, addresses a row length apart (uncoalesced).
// Here a reduction over its innermost, contiguous dimension (the rows of a
// softmax, layer norm, mean or global pooling in NHWC... whichever layout
// ALTE chose, as long as the reduced dimension is the last one) becomes a
// kernel with one warp per output element: lane l reads elements l, l+32,
// ... of the row (consecutive lanes, consecutive addresses), combines them,
// and the lanes' partials meet in a butterfly of `gpu.shuffle xor`. Lane 0
// combines the total with the output's initial value and stores it; when
// that value is a constant a linalg.fill wrote into a fresh buffer, the
// constant is used directly and the fill goes (one launch and one pass over
// the output fewer).
//
// With emulate-on-cpu the same body runs as loops (the lanes' partials in a
// buffer, each shuffle a read of lane ^ offset), combining in the same
// order, so the indexing and the butterfly run against NumPy on the CPU.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-warp-reduce"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUWARPREDUCEPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {

constexpr int64_t kWarpSize = 32;

/// A linalg.generic on buffers whose last loop is its only reduction and
/// whose payload ends in `combiner(x, acc)`: x computed from the inputs, acc
/// the output's value, combiner associative and commutative.
struct RowReduction {
  linalg::GenericOp op;
  /// Static sizes of the parallel loops (loop order) and of the reduction.
  SmallVector<int64_t> parallelSizes;
  int64_t reductionSize = 0;
  Operation *combiner = nullptr;
  /// The combiner's operand that is not the accumulator.
  Value element;
  BlockArgument acc;
  /// The constant a preceding linalg.fill wrote to the output (and that
  /// fill), when it folds: lane 0 then combines the total with it instead
  /// of reading the output, and the fill goes.
  Value foldedInit;
  linalg::FillOp fill;

  int64_t rows() const {
    int64_t p = 1;
    for (int64_t s : parallelSizes)
      p *= s;
    return p;
  }
};

/// Combiners whose order does not matter (floating-point addition is
/// reassociated, as every parallel reduction does).
bool isReassociableCombiner(Operation *op) {
  return isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
             arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
             arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
             arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op);
}

bool isIdentityBuffer(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  return type && type.hasStaticShape() && type.getLayout().isIdentity();
}

/// The output's initial value, when it is a constant a linalg.fill wrote
/// into a fresh buffer that nothing else touches before the reduction: the
/// kernel then writes every output element (one per row: `everyElement`,
/// the output indexed by all parallel loops) without reading it.
void matchFoldableFill(RowReduction &red, bool everyElement) {
  Value out = red.op.getDpsInitOperand(0)->get();
  // A fresh buffer: memref.alloc, or the managed gpu.alloc the GPU
  // pipeline's host-buffer pass turns it into.
  if (!everyElement ||
      !isa_and_present<memref::AllocOp, gpu::AllocOp>(out.getDefiningOp()))
    return;
  Block *block = red.op->getBlock();
  linalg::FillOp fill;
  for (Operation *user : out.getUsers()) {
    if (user == red.op.getOperation())
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return;
    if (red.op->isBeforeInBlock(ancestor))
      continue; // read after the reduction
    auto candidate = dyn_cast<linalg::FillOp>(user);
    if (!candidate || fill || !candidate.hasPureBufferSemantics() ||
        candidate.getDpsInitOperand(0)->get() != out)
      return; // another use before the reduction: keep reading the output
    fill = candidate;
  }
  if (!fill)
    return;
  Value value = fill.getDpsInputOperand(0)->get();
  if (!matchPattern(value, m_Constant()))
    return;
  red.fill = fill;
  red.foldedInit = value;
}

FailureOr<RowReduction> matchRowReduction(linalg::GenericOp op,
                                          int64_t minSize) {
  auto reject = [&](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "reduction at " << op.getLoc() << ": " << why
                            << ": generic path\n");
    return failure();
  };
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return failure();
  unsigned numLoops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (numLoops == 0 || iterators.back() != utils::IteratorType::reduction)
    return failure();
  if (llvm::count(iterators, utils::IteratorType::reduction) != 1)
    return reject("more than one reduction loop");
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return reject("dynamic loop range");

  RowReduction red;
  red.op = op;
  red.parallelSizes.assign(ranges.begin(), ranges.end() - 1);
  red.reductionSize = ranges.back();
  if (red.reductionSize < std::max<int64_t>(minSize, kWarpSize))
    return reject("reduction shorter than min-reduction-size (or a warp)");

  unsigned reductionDim = numLoops - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isIdentityBuffer(input->get()) || !map.isProjectedPermutation())
      return reject("input not a static identity-layout buffer read through "
                    "a projected permutation");
    // Coalescing: the reduced loop walks the input's contiguous dimension,
    // or the input does not depend on it (a per-row operand).
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (cast<AffineDimExpr>(expr).getPosition() == reductionDim &&
          i + 1 != map.getNumResults())
        return reject("reduced dimension is not an input's innermost one");
  }
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (!isIdentityBuffer(init->get()) || !outMap.isProjectedPermutation() ||
      outMap.isFunctionOfDim(reductionDim))
    return reject("output not a static identity-layout buffer of the "
                  "parallel loops");
  Type outType = getElementTypeOrSelf(init->get().getType());
  if (!outType.isF32() && !outType.isInteger(32))
    return reject("accumulator not f32 or i32 (the shuffles move 32 bits)");

  Block &body = op.getRegion().front();
  Value yielded = body.getTerminator()->getOperand(0);
  red.acc = body.getArgument(body.getNumArguments() - 1);
  Operation *combiner = yielded.getDefiningOp();
  if (!combiner || combiner->getBlock() != &body ||
      !isReassociableCombiner(combiner) || !yielded.hasOneUse() ||
      !red.acc.hasOneUse() || red.acc.getUses().begin()->getOwner() != combiner)
    return reject("payload is not combiner(x, acc) with an associative, "
                  "commutative combiner and acc used once");
  red.combiner = combiner;
  red.element = combiner->getOperand(0) == red.acc ? combiner->getOperand(1)
                                                   : combiner->getOperand(0);
  matchFoldableFill(red, outMap.getNumResults() == numLoops - 1);
  return red;
}

/// An elementwise op that may close or continue a row group: all loops
/// parallel over the group's iteration space, one output written (not
/// read) through a permutation whose last loop is the innermost dimension,
/// inputs read with the last loop innermost or not at all (coalesced).
bool isRowElementwise(linalg::GenericOp op, ArrayRef<int64_t> ranges) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != ranges.size() ||
      op.getStaticLoopRanges() != ranges ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  unsigned last = op.getNumLoops() - 1;
  auto lastIsInnermostOrAbsent = [&](AffineMap map) {
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (cast<AffineDimExpr>(expr).getPosition() == last &&
          i + 1 != map.getNumResults())
        return false;
    return true;
  };
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!isIdentityBuffer(input->get()) || !map.isProjectedPermutation() ||
        !lastIsInnermostOrAbsent(map))
      return false;
  }
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  return isIdentityBuffer(init->get()) && outMap.isPermutation() &&
         outMap.getResults().back() == getAffineDimExpr(last, op.getContext()) &&
         op.getMatchingBlockArgument(init).use_empty();
}

/// Ops on the same rows run by one warp per row, in program order: a row
/// reduction first, then further row reductions and elementwise ops that
/// read what earlier members wrote (softmax: max, sum of exp(x - max),
/// exp(x - max) / sum; layer norm: mean, variance, normalise). A
/// reduction's per-row result stays in the warp's registers for the later
/// members (lane 0 still stores it); an elementwise member's lane writes
/// the elements a later member's same lane reads back.
struct RowGroup {
  SmallVector<RowReduction> reductions;
  /// Every member in order; reductions are those in `reductions`.
  SmallVector<linalg::GenericOp> members;
  /// How each member reads each buffer an earlier member wrote: the
  /// writer's own output map (checked when the group grows).
  DenseMap<Value, AffineMap> written;

  const RowReduction &head() const { return reductions.front(); }
  const RowReduction *reductionOf(linalg::GenericOp op) const {
    for (const RowReduction &red : reductions)
      if (red.op == op)
        return &red;
    return nullptr;
  }
};

/// Whether `op`, between group members, leaves the group's buffers alone:
/// no memory effects (index math, constants), a fresh allocation, or the
/// fill a following member reduction folds (checked by the caller).
bool isInertBetweenMembers(Operation *op) {
  return isa<memref::AllocOp, gpu::AllocOp>(op) || isMemoryEffectFree(op);
}

/// Extends `group` with `op` when it is a row op of the same iteration
/// space reading something the group wrote (and nothing the group wrote
/// in another way), writing a fresh buffer the group has not touched.
bool tryAppend(RowGroup &group, linalg::GenericOp op, int64_t minSize) {
  linalg::GenericOp headOp = group.head().op;
  SmallVector<int64_t> ranges = headOp.getStaticLoopRanges();
  std::optional<RowReduction> asReduction;
  if (op.getNumLoops() == ranges.size() && op.getStaticLoopRanges() == ranges) {
    FailureOr<RowReduction> red = matchRowReduction(op, minSize);
    if (succeeded(red))
      asReduction = *red;
  }
  if (!asReduction && !isRowElementwise(op, ranges))
    return false;
  bool readsGroup = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto it = group.written.find(input->get());
    if (it == group.written.end())
      continue;
    if (op.getMatchingIndexingMap(input) != it->second)
      return false; // another lane's or row's element: not in registers
    readsGroup = true;
  }
  Value out = op.getDpsInitOperand(0)->get();
  if (!readsGroup || !isa_and_present<memref::AllocOp, gpu::AllocOp>(
                         out.getDefiningOp()))
    return false;
  for (linalg::GenericOp member : group.members)
    for (OpOperand &operand : member->getOpOperands())
      if (operand.get() == out)
        return false;
  // A reduction that reads its output's old value needs it written before
  // the group's kernel: only a folded fill may stand in between.
  if (asReduction && !asReduction->foldedInit)
    return false;
  group.members.push_back(op);
  group.written[out] = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (asReduction)
    group.reductions.push_back(*asReduction);
  return true;
}

/// The row group starting at reduction `head`: the ops after it in its
/// block, as long as they join it, skipping inert ops and the folded fills
/// of joining reductions.
RowGroup collectRowGroup(const RowReduction &head, bool fuse, int64_t minSize) {
  RowGroup group;
  group.reductions.push_back(head);
  group.members.push_back(head.op);
  linalg::GenericOp headOp = head.op;
  group.written[headOp.getDpsInitOperand(0)->get()] =
      headOp.getMatchingIndexingMap(headOp.getDpsInitOperand(0));
  if (!fuse)
    return group;
  SmallVector<Operation *> pendingFills;
  for (Operation *next = head.op->getNextNode(); next;
       next = next->getNextNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(next)) {
      pendingFills.push_back(fill); // kept only if a joining reduction folds it
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(next);
    if (!generic) {
      if (isInertBetweenMembers(next))
        continue;
      break;
    }
    if (!tryAppend(group, generic, minSize))
      break;
    const RowReduction *joined = group.reductionOf(generic);
    // Every fill since the last member must be the one this member folds.
    bool fillsFold = llvm::all_of(pendingFills, [&](Operation *fill) {
      return joined && linalg::FillOp(joined->fill).getOperation() == fill;
    });
    if (!fillsFold) {
      group.members.pop_back();
      group.written.erase(generic.getDpsInitOperand(0)->get());
      if (joined)
        group.reductions.pop_back();
      break;
    }
    pendingFills.clear();
  }
  return group;
}

/// Builds the pieces of the kernel body shared by the GPU and CPU forms.
class RowGroupBuilder {
public:
  RowGroupBuilder(OpBuilder &b, Location loc, const RowGroup &group)
      : b(b), loc(loc), group(group) {}

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  int64_t rows() const { return group.head().rows(); }
  int64_t rowLength() const { return group.head().reductionSize; }

  /// The parallel loop indices of row `row` (row-major over the parallel
  /// loops).
  SmallVector<Value> delinearize(Value row) {
    SmallVector<Value> indices;
    int64_t stride = rows();
    AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
    for (int64_t size : group.head().parallelSizes) {
      stride /= size;
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(0, 1, s0.floorDiv(stride) % size), row));
    }
    return indices;
  }

  /// Starts a row: forgets the previous row's per-row values.
  void beginRow() { rowValues.clear(); }

  /// `op`'s payload at element `k` of the row at `parallel`: the reduced
  /// element x for a reduction, the yielded value otherwise. Buffers an
  /// earlier reduction of the group wrote are read from its registers.
  Value element(linalg::GenericOp op, ArrayRef<Value> parallel, Value k) {
    SmallVector<Value> ivs(parallel);
    ivs.push_back(k);
    IRMapping mapping;
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      Value value = rowValues.lookup(input->get());
      if (!value)
        value = memref::LoadOp::create(
            b, loc, input->get(),
            indicesOf(op.getMatchingIndexingMap(input), ivs));
      mapping.map(body.getArgument(input->getOperandNumber()), value);
    }
    const RowReduction *red = group.reductionOf(op);
    for (Operation &payloadOp : body.without_terminator())
      if (!red || &payloadOp != red->combiner)
        b.clone(payloadOp, mapping);
    return mapping.lookupOrDefault(
        red ? red->element : body.getTerminator()->getOperand(0));
  }

  /// combiner(x, acc) of `red` on new operands.
  Value combine(const RowReduction &red, Value x, Value acc) {
    IRMapping mapping;
    mapping.map(red.element, x);
    mapping.map(red.acc, acc);
    return b.clone(*red.combiner, mapping)->getResult(0);
  }

  /// Lane `lane`'s partial over elements lane, lane + 32, ... of the row.
  Value lanePartial(const RowReduction &red, ArrayRef<Value> parallel,
                    Value lane) {
    Value first = element(red.op, parallel, lane);
    auto loop = scf::ForOp::create(
        b, loc, addWarp(lane), cst(rowLength()), cst(kWarpSize),
        ValueRange{first},
        [&](OpBuilder &, Location, Value k, ValueRange iterArgs) {
          scf::YieldOp::create(
              b, loc,
              combine(red, element(red.op, parallel, k), iterArgs[0]));
        });
    return loop.getResult(0);
  }

  /// The row's result of `red` from its lanes' `total`:
  /// combiner(total, initial value), the initial value being the folded
  /// fill's constant or the output's element. Later members read it.
  Value rowResult(const RowReduction &red, ArrayRef<Value> parallel,
                  Value total) {
    Value old = red.foldedInit
                    ? red.foldedInit
                    : memref::LoadOp::create(b, loc, outputOf(red.op),
                                             outputIndices(red.op, parallel));
    Value result = combine(red, total, old);
    rowValues[outputOf(red.op)] = result;
    return result;
  }

  /// out[parallel] = `result` (one lane does it).
  void storeRowResult(const RowReduction &red, ArrayRef<Value> parallel,
                      Value result) {
    memref::StoreOp::create(b, loc, result, outputOf(red.op),
                            outputIndices(red.op, parallel));
  }

  /// Elementwise member `op` at elements first, first + step, ... of the
  /// row.
  void storeElements(linalg::GenericOp op, ArrayRef<Value> parallel,
                     Value first, int64_t step) {
    scf::ForOp::create(
        b, loc, first, cst(rowLength()), cst(step), ValueRange{},
        [&](OpBuilder &, Location, Value k, ValueRange) {
          Value value = element(op, parallel, k);
          SmallVector<Value> ivs(parallel);
          ivs.push_back(k);
          memref::StoreOp::create(
              b, loc, value, outputOf(op),
              indicesOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                        ivs));
          scf::YieldOp::create(b, loc);
        });
  }

  Value addWarp(Value lane) {
    return affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(0, 1,
                       getAffineSymbolExpr(0, b.getContext()) + kWarpSize),
        lane);
  }

private:
  static Value outputOf(linalg::GenericOp op) {
    return op.getDpsInitOperand(0)->get();
  }
  static SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> ivs) {
    return llvm::map_to_vector(map.getResults(), [&](AffineExpr e) {
      return ivs[cast<AffineDimExpr>(e).getPosition()];
    });
  }
  static SmallVector<Value> outputIndices(linalg::GenericOp op,
                                          ArrayRef<Value> parallel) {
    return indicesOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)),
                     parallel);
  }

  OpBuilder &b;
  Location loc;
  const RowGroup &group;
  /// This row's results of the group's reductions so far, by output buffer.
  DenseMap<Value, Value> rowValues;
};

/// One warp per row: blocks of `warps` warps, warp w of block b on row
/// b * warps + w. Each reduction's butterfly leaves its total in every lane
/// (lane 0 stores it, every lane goes on with it); each elementwise member
/// has lane l write elements l, l + 32, ... of the row.
void buildGPUKernel(OpBuilder &b, Location loc, const RowGroup &group,
                    int64_t warps) {
  RowGroupBuilder rb(b, loc, group);
  Value one = rb.cst(1);
  int64_t rows = rb.rows();
  auto launch = gpu::LaunchOp::create(
      b, loc, rb.cst(llvm::divideCeil(rows, warps)), one, one,
      rb.cst(warps * kWarpSize), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  Value tid = launch.getThreadIds().x;
  Value lane = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 1, s0 % kWarpSize), tid);
  Value row = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 2, s0 * warps + s1.floorDiv(kWarpSize)),
      ValueRange{launch.getBlockIds().x, tid});
  // Uniform per warp: the shuffles below see all 32 lanes or none.
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                        rb.cst(rows));
  scf::IfOp::create(b, loc, inRange, [&](OpBuilder &, Location) {
    SmallVector<Value> parallel = rb.delinearize(row);
    rb.beginRow();
    for (linalg::GenericOp member : group.members) {
      const RowReduction *red = group.reductionOf(member);
      if (!red) {
        rb.storeElements(member, parallel, lane, kWarpSize);
        continue;
      }
      Value partial = rb.lanePartial(*red, parallel, lane);
      for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
        Value other = gpu::ShuffleOp::create(b, loc, partial, offset,
                                             kWarpSize, gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        partial = rb.combine(*red, other, partial);
      }
      Value result = rb.rowResult(*red, parallel, partial);
      Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            lane, rb.cst(0));
      scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &, Location) {
        rb.storeRowResult(*red, parallel, result);
        scf::YieldOp::create(b, loc);
      });
    }
    scf::YieldOp::create(b, loc);
  });
  gpu::TerminatorOp::create(b, loc);
}

/// The same as loops: per row and per reduction, every lane's partial into
/// a buffer, then per butterfly step every lane's combine(partial[lane ^
/// offset], partial[lane]) (into a second buffer: the shuffles read the
/// values from before the step), then lane 0's total; elementwise members
/// over the whole row.
void buildCPUEmulation(OpBuilder &b, Location loc, const RowGroup &group) {
  RowGroupBuilder rb(b, loc, group);
  Value c0 = rb.cst(0), c1 = rb.cst(1), lanes = rb.cst(kWarpSize);
  // One pair of lane buffers per accumulator type.
  DenseMap<Type, std::pair<Value, Value>> laneBuffers;
  for (const RowReduction &red : group.reductions) {
    Type type = getElementTypeOrSelf(linalg::GenericOp(red.op).getDpsInitOperand(0)->get());
    if (laneBuffers.count(type))
      continue;
    auto lanesType = MemRefType::get({kWarpSize}, type);
    laneBuffers[type] = {memref::AllocaOp::create(b, loc, lanesType),
                         memref::AllocaOp::create(b, loc, lanesType)};
  }
  scf::ForOp::create(
      b, loc, c0, rb.cst(rb.rows()), c1, ValueRange{},
      [&](OpBuilder &, Location, Value row, ValueRange) {
        SmallVector<Value> parallel = rb.delinearize(row);
        rb.beginRow();
        for (linalg::GenericOp member : group.members) {
          const RowReduction *red = group.reductionOf(member);
          if (!red) {
            rb.storeElements(member, parallel, c0, 1);
            continue;
          }
          std::pair<Value, Value> buffers = laneBuffers.lookup(
              getElementTypeOrSelf(member.getDpsInitOperand(0)->get()));
          Value partials = buffers.first, next = buffers.second;
          scf::ForOp::create(
              b, loc, c0, lanes, c1, ValueRange{},
              [&](OpBuilder &, Location, Value lane, ValueRange) {
                memref::StoreOp::create(
                    b, loc, rb.lanePartial(*red, parallel, lane), partials,
                    lane);
                scf::YieldOp::create(b, loc);
              });
          for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
            scf::ForOp::create(
                b, loc, c0, lanes, c1, ValueRange{},
                [&](OpBuilder &, Location, Value lane, ValueRange) {
                  Value partner =
                      arith::XOrIOp::create(b, loc, lane, rb.cst(offset));
                  Value other =
                      memref::LoadOp::create(b, loc, partials, partner);
                  Value mine = memref::LoadOp::create(b, loc, partials, lane);
                  memref::StoreOp::create(b, loc, rb.combine(*red, other, mine),
                                          next, lane);
                  scf::YieldOp::create(b, loc);
                });
            memref::CopyOp::create(b, loc, next, partials);
          }
          Value total = memref::LoadOp::create(b, loc, partials, c0);
          rb.storeRowResult(*red, parallel,
                            rb.rowResult(*red, parallel, total));
        }
        scf::YieldOp::create(b, loc);
      });
}

struct GPUWarpReducePass
    : public opsnn::impl::GPUWarpReducePassBase<GPUWarpReducePass> {
  using Base::Base;

  void runOnOperation() override {
    if (warpsPerBlock < 1 || warpsPerBlock > 32) {
      emitError(getOperation().getLoc())
          << "warps-per-block must be in 1..32 (at most 1024 threads), got "
          << int64_t(warpsPerBlock);
      return signalPassFailure();
    }
    if (minReductionSize < 1) {
      emitError(getOperation().getLoc())
          << "min-reduction-size must be positive, got "
          << int64_t(minReductionSize);
      return signalPassFailure();
    }
    SmallVector<RowReduction> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      FailureOr<RowReduction> red = matchRowReduction(op, minReductionSize);
      if (succeeded(red))
        reductions.push_back(*red);
    });
    // Groups in program order; a reduction that joined an earlier group is
    // not the head of another.
    SmallVector<RowGroup> groups;
    DenseSet<Operation *> grouped;
    for (RowReduction &red : reductions) {
      if (grouped.contains(red.op))
        continue;
      groups.push_back(collectRowGroup(red, fuseRowOps, minReductionSize));
      for (linalg::GenericOp member : groups.back().members)
        grouped.insert(member);
    }
    for (RowGroup &group : groups) {
      // At the last member: the buffers the later members write are
      // allocated by then, and nothing between the members touches the
      // group's buffers (collectRowGroup).
      linalg::GenericOp last = group.members.back();
      OpBuilder b(last);
      Location loc = group.head().op->getLoc();
      if (emulateOnCPU)
        buildCPUEmulation(b, loc, group);
      else
        buildGPUKernel(b, loc, group, warpsPerBlock);
      for (linalg::GenericOp member : group.members)
        member.erase();
      for (RowReduction &red : group.reductions)
        if (red.fill)
          red.fill.erase();
    }
  }
};

} // namespace
