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

#include "VectorAccessAlignment.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
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
  if (red.reductionSize < minSize)
    return reject("reduction shorter than min-reduction-size");

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

/// Whether every `map` result that is the loop `last` is the final result
/// (the loop walks the buffer's innermost dimension, or not at all).
bool lastLoopInnermostOrAbsent(AffineMap map, unsigned last) {
  for (auto [i, expr] : llvm::enumerate(map.getResults()))
    if (cast<AffineDimExpr>(expr).getPosition() == last &&
        i + 1 != map.getNumResults())
      return false;
  return true;
}

/// An all-parallel linalg.generic over `ranges` on static identity
/// buffers with one output, written through a permutation and not read
/// (its block argument unused), inputs through projected permutations.
bool isPlainParallelGeneric(linalg::GenericOp op, ArrayRef<int64_t> ranges) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() != ranges.size() ||
      op.getStaticLoopRanges() != ranges ||
      op.getNumParallelLoops() != op.getNumLoops())
    return false;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isIdentityBuffer(input->get()) ||
        !op.getMatchingIndexingMap(input).isProjectedPermutation())
      return false;
  OpOperand *init = op.getDpsInitOperand(0);
  return isIdentityBuffer(init->get()) &&
         op.getMatchingIndexingMap(init).isPermutation() &&
         op.getMatchingBlockArgument(init).use_empty();
}

/// How a row op takes part in a row group.
enum class RowOpKind {
  /// A row reduction: its result per row stays in the warp's registers.
  Reduction,
  /// Elementwise over the rows' elements (all of the group's loops): lane l
  /// writes elements l, l+32, ... of its row.
  Elementwise,
  /// Elementwise over the rows themselves (the group's parallel loops
  /// only), such as a mean from a sum: every lane computes it from
  /// registers, lane 0 stores it.
  PerRow,
};

/// An elementwise member over the group's whole iteration space: the row
/// loop (the last) innermost or absent in every operand, and innermost in
/// the output (coalesced).
bool isRowElementwise(linalg::GenericOp op, ArrayRef<int64_t> ranges) {
  if (!isPlainParallelGeneric(op, ranges))
    return false;
  unsigned last = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands())
    if (!lastLoopInnermostOrAbsent(op.getMatchingIndexingMap(input), last))
      return false;
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  return outMap.getResults().back() == getAffineDimExpr(last, op.getContext());
}

/// A member in program order: the op, its kind, and its operands' indexing
/// maps lifted to the group's loops (a per-row op's loops are the group's
/// leading ones).
struct RowMember {
  linalg::GenericOp op;
  RowOpKind kind;
  SmallVector<AffineMap> liftedMaps;
};

/// Ops on the same rows run by one warp per row, in program order: a row
/// reduction first, then row reductions, elementwise ops and per-row ops
/// that read what earlier members wrote (softmax: max, exp(x - max), sum,
/// division; layer norm: sum, mean, variance, normalise). Every access of
/// the group to a buffer the group writes goes through one map, so a
/// member reads only what its own warp (per row) or lane (per element)
/// wrote before it, in program order; a per-row value also stays in the
/// warp's registers for the later members (lane 0 still stores it).
struct RowGroup {
  SmallVector<RowReduction> reductions;
  SmallVector<RowMember> members;
  /// The map through which the group accesses each buffer it writes, and
  /// every map through which it reads the others.
  DenseMap<Value, AffineMap> written;
  DenseMap<Value, SmallVector<AffineMap>> readOnly;

  const RowReduction &head() const { return reductions.front(); }
  const RowReduction *reductionOf(linalg::GenericOp op) const {
    for (const RowReduction &red : reductions)
      if (red.op == op)
        return &red;
    return nullptr;
  }
  unsigned numLoops() const {
    return linalg::GenericOp(head().op).getNumLoops();
  }
};

/// The member `op` of kind `kind` with its maps lifted to `loops` loops.
RowMember makeMember(linalg::GenericOp op, RowOpKind kind, unsigned loops) {
  RowMember member{op, kind, {}};
  for (AffineMap map : op.getIndexingMapsArray())
    member.liftedMaps.push_back(
        AffineMap::get(loops, 0, map.getResults(), op.getContext()));
  return member;
}

/// Records `member`'s accesses in `group`.
void recordAccesses(RowGroup &group, const RowMember &member) {
  linalg::GenericOp op = member.op;
  for (OpOperand &operand : op->getOpOperands()) {
    AffineMap map = member.liftedMaps[operand.getOperandNumber()];
    if (op.isDpsInit(&operand))
      group.written[operand.get()] = map;
    else if (!group.written.count(operand.get()))
      group.readOnly[operand.get()].push_back(map);
  }
}

/// Whether `op`, between group members, leaves the group's buffers alone:
/// no memory effects (index math, constants) or a fresh allocation.
bool isInertBetweenMembers(Operation *op) {
  return isa<memref::AllocOp, gpu::AllocOp>(op) || isMemoryEffectFree(op);
}

/// Extends `group` with `op` when it is a row op of the group's rows that
/// reads something the group wrote, accessing every buffer the group
/// touches through the map the group uses for it, and writing a fresh
/// buffer. A joining reduction must have its initial value folded: from a
/// fill before the head (matchRowReduction), or from one of `pendingFills`
/// (since the last member) of a constant into its output.
bool tryAppend(RowGroup &group, linalg::GenericOp op, int64_t minSize,
               ArrayRef<linalg::FillOp> pendingFills) {
  const RowReduction &head = group.head();
  linalg::GenericOp headOp = head.op;
  SmallVector<int64_t> ranges = headOp.getStaticLoopRanges();
  std::optional<RowReduction> asReduction;
  RowOpKind kind;
  if (op.getNumLoops() == ranges.size() &&
      op.getStaticLoopRanges() == ArrayRef<int64_t>(ranges)) {
    FailureOr<RowReduction> red = matchRowReduction(op, minSize);
    if (succeeded(red)) {
      asReduction = *red;
      kind = RowOpKind::Reduction;
    }
  }
  if (!asReduction) {
    if (isRowElementwise(op, ranges))
      kind = RowOpKind::Elementwise;
    else if (isPlainParallelGeneric(op, head.parallelSizes))
      kind = RowOpKind::PerRow;
    else
      return false;
  }
  RowMember member = makeMember(op, kind, group.numLoops());
  // A view of a buffer the group writes would read it around the maps (and
  // another lane's store without a barrier).
  for (OpOperand &operand : op->getOpOperands()) {
    Value root = operand.get();
    while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
      root = view.getViewSource();
    if (root != operand.get() && group.written.count(root))
      return false;
  }
  bool readsGroup = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto it = group.written.find(input->get());
    if (it == group.written.end())
      continue;
    if (member.liftedMaps[input->getOperandNumber()] != it->second)
      return false; // another lane's or row's element
    readsGroup = true;
  }
  OpOperand *init = op.getDpsInitOperand(0);
  Value out = init->get();
  AffineMap outMap = member.liftedMaps[init->getOperandNumber()];
  if (!readsGroup ||
      !isa_and_present<memref::AllocOp, gpu::AllocOp>(out.getDefiningOp()))
    return false;
  if (auto it = group.written.find(out);
      it != group.written.end() && it->second != outMap)
    return false;
  if (auto it = group.readOnly.find(out); it != group.readOnly.end())
    for (AffineMap map : it->second)
      if (map != outMap)
        return false;
  if (asReduction && !asReduction->foldedInit) {
    // The last fill since the previous member, of a constant into the
    // output: nothing between reads it, the reduction writes every row.
    for (linalg::FillOp fill : llvm::reverse(pendingFills)) {
      if (fill.getDpsInitOperand(0)->get() != out)
        continue;
      Value value = fill.getDpsInputOperand(0)->get();
      if (matchPattern(value, m_Constant())) {
        asReduction->fill = fill;
        asReduction->foldedInit = value;
      }
      break;
    }
    if (!asReduction->foldedInit)
      return false; // its output's earlier values would be needed
  }
  // Every fill since the last member must be the one this member folds.
  for (linalg::FillOp fill : pendingFills)
    if (!asReduction || asReduction->fill != fill)
      return false;
  recordAccesses(group, member);
  group.members.push_back(std::move(member));
  if (asReduction)
    group.reductions.push_back(*asReduction);
  return true;
}

/// The row group starting at reduction `head`: the ops after it in its
/// block, as long as they join it, skipping inert ops and the fills that
/// joining reductions fold.
RowGroup collectRowGroup(const RowReduction &head, bool fuse, int64_t minSize) {
  RowGroup group;
  group.reductions.push_back(head);
  group.members.push_back(
      makeMember(head.op, RowOpKind::Reduction, group.numLoops()));
  recordAccesses(group, group.members.back());
  if (!fuse)
    return group;
  SmallVector<linalg::FillOp> pendingFills;
  for (Operation *next = head.op->getNextNode(); next;
       next = next->getNextNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(next)) {
      if (!fill.hasPureBufferSemantics())
        break;
      pendingFills.push_back(fill); // kept only if a joining reduction folds it
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(next);
    if (!generic) {
      if (isInertBetweenMembers(next))
        continue;
      break;
    }
    if (!tryAppend(group, generic, minSize, pendingFills))
      break;
    pendingFills.clear();
  }
  return group;
}

/// Builds the pieces of the kernel body shared by the GPU and CPU forms.
/// A lane handles `width` consecutive elements of a row at a time: one
/// vector load per operand that runs along the row, the payload once per
/// element, one vector store per elementwise result (`aligned`: declaring
/// the vectors' alignment, as the GPU form does).
class RowGroupBuilder {
public:
  RowGroupBuilder(OpBuilder &b, Location loc, const RowGroup &group,
                  int64_t width, int64_t lanesPerRow, bool aligned)
      : b(b), loc(loc), group(group), width(width), lanesPerRow(lanesPerRow),
        aligned(aligned) {}

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

  /// `op`'s payload at elements k, ..., k + width - 1 of the row at
  /// `parallel` (one value: at the row itself for a per-row member, whose
  /// `k` is null): the reduced element x for a reduction, the yielded value
  /// otherwise. Buffers an earlier reduction of the group wrote are read
  /// from its registers; operands along the row as one vector each.
  SmallVector<Value> elements(linalg::GenericOp op, ArrayRef<Value> parallel,
                              Value k) {
    SmallVector<Value> ivs(parallel);
    if (k) // not for a per-row member, whose loops are the parallel ones
      ivs.push_back(k);
    int64_t count = k ? width : 1;
    SmallVector<IRMapping> lanes(count);
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument arg = body.getArgument(input->getOperandNumber());
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<Value> indices = indicesOf(map, ivs);
      Value value = rowValues.lookup(input->get());
      if (!value && k && count > 1 && alongRow(map)) {
        Value vector = vector::LoadOp::create(
            b, loc, VectorType::get({count}, arg.getType()), input->get(),
            indices, /*nontemporal=*/false, alignment(input->get()));
        for (int64_t i = 0; i < count; ++i)
          lanes[i].map(arg, vector::ExtractOp::create(b, loc, vector, i));
        continue;
      }
      if (!value)
        value = memref::LoadOp::create(b, loc, input->get(), indices);
      for (IRMapping &lane : lanes)
        lane.map(arg, value);
    }
    const RowReduction *red = group.reductionOf(op);
    SmallVector<Value> results;
    for (IRMapping &lane : lanes) {
      for (Operation &payloadOp : body.without_terminator())
        if (!red || &payloadOp != red->combiner)
          b.clone(payloadOp, lane);
      results.push_back(lane.lookupOrDefault(
          red ? red->element : body.getTerminator()->getOperand(0)));
    }
    return results;
  }

  /// combiner(x, acc) of `red` on new operands.
  Value combine(const RowReduction &red, Value x, Value acc) {
    IRMapping mapping;
    mapping.map(red.element, x);
    mapping.map(red.acc, acc);
    return b.clone(*red.combiner, mapping)->getResult(0);
  }

  /// The distance between two vectors of the row that one lane handles.
  int64_t laneStep() const { return lanesPerRow * width; }

  /// Lane `lane`'s partial over its elements of the row (`lane` counted
  /// within the row's lanes): the `width` elements from lane x width, then
  /// those laneStep() further on, ..., combined in that order.
  Value lanePartial(const RowReduction &red, ArrayRef<Value> parallel,
                    Value lane) {
    Value first = laneStart(lane);
    SmallVector<Value> xs = elements(red.op, parallel, first);
    Value partial = xs.front();
    for (Value x : ArrayRef(xs).drop_front())
      partial = combine(red, x, partial);
    int64_t step = laneStep();
    if (rowLength() <= step)
      return partial; // one vector per lane
    auto loop = scf::ForOp::create(
        b, loc, addConstant(first, step), cst(rowLength()), cst(step),
        ValueRange{partial},
        [&](OpBuilder &, Location, Value k, ValueRange iterArgs) {
          Value acc = iterArgs[0];
          for (Value x : elements(red.op, parallel, k))
            acc = combine(red, x, acc);
          scf::YieldOp::create(b, loc, acc);
        });
    return loop.getResult(0);
  }

  /// The first element of the row that lane `lane` handles.
  Value laneStart(Value lane) {
    AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(0, 1, s0 * width), lane);
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

  /// Per-row member `op`'s value for the row at `parallel`, from the
  /// registers or memory; later members read it from registers.
  Value perRowResult(linalg::GenericOp op, ArrayRef<Value> parallel) {
    Value result = elements(op, parallel, /*k=*/Value()).front();
    rowValues[outputOf(op)] = result;
    return result;
  }

  /// out[parallel] = `result` for a reduction or a per-row member (one
  /// lane does it).
  void storePerRowResult(linalg::GenericOp op, ArrayRef<Value> parallel,
                         Value result) {
    memref::StoreOp::create(b, loc, result, outputOf(op),
                            outputIndices(op, parallel));
  }

  /// Elementwise member `op` at the `width` elements from first, first +
  /// step, ... of the row.
  void storeElements(linalg::GenericOp op, ArrayRef<Value> parallel,
                     Value first, int64_t step) {
    auto storeAt = [&](Value k) {
      SmallVector<Value> values = elements(op, parallel, k);
      SmallVector<Value> ivs(parallel);
      ivs.push_back(k);
      Value out = outputOf(op);
      SmallVector<Value> indices =
          indicesOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), ivs);
      if (values.size() == 1) {
        memref::StoreOp::create(b, loc, values.front(), out, indices);
        return;
      }
      auto type =
          VectorType::get({int64_t(values.size())}, values.front().getType());
      Value vector = vector::FromElementsOp::create(b, loc, type, values);
      vector::StoreOp::create(b, loc, vector, out, indices,
                              /*nontemporal=*/false, alignment(out));
    };
    if (rowLength() <= step)
      return storeAt(first); // one vector per lane
    scf::ForOp::create(b, loc, first, cst(rowLength()), cst(step), ValueRange{},
                       [&](OpBuilder &, Location, Value k, ValueRange) {
                         storeAt(k);
                         scf::YieldOp::create(b, loc);
                       });
  }

  Value addConstant(Value v, int64_t c) {
    return affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(0, 1, getAffineSymbolExpr(0, b.getContext()) + c), v);
  }

private:
  static Value outputOf(linalg::GenericOp op) {
    return op.getDpsInitOperand(0)->get();
  }
  /// Whether an operand read through `map` (on the group's loops) runs
  /// along the row: the row loop indexes it (innermost, as the matchers
  /// require).
  bool alongRow(AffineMap map) const {
    return llvm::is_contained(
        map.getResults(),
        getAffineDimExpr(map.getNumDims() - 1, map.getContext()));
  }
  /// The alignment a vector access of `buffer` declares in the GPU form.
  llvm::MaybeAlign alignment(Value buffer) const {
    return aligned ? llvm::MaybeAlign(vectorAccessAlignment(buffer, width))
                   : llvm::MaybeAlign();
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
  int64_t width;
  /// Lanes that share a row (a power of two dividing the warp); each lane
  /// has at least one vector of it.
  int64_t lanesPerRow;
  bool aligned;
  /// This row's results of the group's reductions so far, by output buffer.
  DenseMap<Value, Value> rowValues;
};

/// The elements a lane of `group` handles at a time: the most, up to 16
/// bytes of the narrowest element read or written along the rows, that
/// divide the row and keep every such buffer's rows on the vector's
/// alignment; for a row of at least a warp's elements, also leaving every
/// lane of the warp a whole vector. 1 if none.
int64_t chooseRowVectorWidth(const RowGroup &group) {
  SmallVector<Value> rowBuffers;
  for (const RowMember &member : group.members) {
    if (member.kind == RowOpKind::PerRow)
      continue;
    linalg::GenericOp op = member.op;
    unsigned last = op.getNumLoops() - 1;
    for (OpOperand &operand : op->getOpOperands())
      if (op.getMatchingIndexingMap(&operand).isFunctionOfDim(last))
        rowBuffers.push_back(operand.get());
  }
  int64_t length = group.head().reductionSize;
  return widestVectorLanes(rowBuffers, length,
                           length >= kWarpSize ? kWarpSize : 1);
}

/// The lanes that share a row of `rowLength` elements read `width` at a
/// time: the whole warp when there is a vector for every lane, else the
/// most (a power of two) that still get one each, the warp then running
/// 32 / that many rows side by side (a softmax over 16 tokens: 4 lanes of
/// 4 f32 per row, 8 rows per warp).
int64_t chooseLanesPerRow(int64_t rowLength, int64_t width) {
  int64_t vectors = rowLength / width;
  if (vectors >= kWarpSize)
    return kWarpSize;
  return int64_t(llvm::bit_floor(uint64_t(vectors)));
}

/// Whether the members' payloads only compute (no memory access of their
/// own): the lanes of a row past the last run them on a copy of the last
/// row, and only their stores are skipped.
bool payloadsOnlyCompute(const RowGroup &group) {
  return llvm::all_of(group.members, [](const RowMember &member) {
    linalg::GenericOp op = member.op;
    return llvm::all_of(op.getRegion().front().without_terminator(),
                        [](Operation &op) { return isMemoryEffectFree(&op); });
  });
}

/// Whether the group's rows fill the warps of `lanesPerRow`-lane rows.
bool fillsWarps(const RowGroup &group, int64_t lanesPerRow) {
  return group.head().rows() % (kWarpSize / lanesPerRow) == 0;
}

/// Blocks of `warps` warps, each warp on 32 / lanesPerRow consecutive rows,
/// lanesPerRow lanes per row (the whole warp for a row of at least 32
/// vectors): block b, thread t on row b * warps * (32 / lanesPerRow) + t /
/// lanesPerRow as its lane t mod lanesPerRow. Each reduction's butterfly
/// (among the row's lanes) leaves its total in every lane of the row (the
/// row's lane 0 stores it, every lane goes on with it); each elementwise
/// member has lane l write elements l, l + lanesPerRow, ... of the row
/// (vectors of `width`). Warps past the last row skip everything, so the
/// shuffles see full warps; in the last warp, rows past the last run on a
/// copy of the last row and store nothing.
void buildGPUKernel(OpBuilder &b, Location loc, const RowGroup &group,
                    int64_t warps, int64_t width, int64_t lanesPerRow) {
  RowGroupBuilder rb(b, loc, group, width, lanesPerRow, /*aligned=*/true);
  Value one = rb.cst(1);
  int64_t rows = rb.rows();
  int64_t rowsPerWarp = kWarpSize / lanesPerRow;
  int64_t rowsPerBlock = warps * rowsPerWarp;
  auto launch = gpu::LaunchOp::create(
      b, loc, rb.cst(llvm::divideCeil(rows, rowsPerBlock)), one, one,
      rb.cst(warps * kWarpSize), one, one);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  AffineExpr s0, s1;
  bindSymbols(b.getContext(), s0, s1);
  auto apply = [&](AffineExpr e, ValueRange operands) -> Value {
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(0, operands.size(), e), operands);
  };
  Value bid = launch.getBlockIds().x, tid = launch.getThreadIds().x;
  Value lane = apply(s0 % lanesPerRow, tid);
  Value row = apply(s0 * rowsPerBlock + s1.floorDiv(lanesPerRow), {bid, tid});
  // The warp's first row: uniform per warp, so the shuffles below see all
  // 32 lanes or none.
  Value warpRow =
      rowsPerWarp == 1
          ? row
          : apply(s0 * rowsPerBlock + s1.floorDiv(kWarpSize) * rowsPerWarp,
                  {bid, tid});
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        warpRow, rb.cst(rows));
  scf::IfOp::create(b, loc, inRange, [&](OpBuilder &, Location) {
    // Whether this lane's row exists, where the last warp may have rows
    // past the last (null otherwise); those lanes read the last row.
    Value rowExists;
    Value at = row;
    if (!fillsWarps(group, lanesPerRow)) {
      rowExists = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                        rb.cst(rows));
      at = arith::MinUIOp::create(b, loc, row, rb.cst(rows - 1));
    }
    // Runs `body` where this lane's row exists (and `condition` holds).
    auto guarded = [&](Value condition, function_ref<void()> body) {
      if (rowExists)
        condition = condition
                        ? arith::AndIOp::create(b, loc, condition, rowExists)
                        : rowExists;
      if (!condition)
        return body();
      scf::IfOp::create(b, loc, condition, [&](OpBuilder &, Location) {
        body();
        scf::YieldOp::create(b, loc);
      });
    };
    auto isLane0 = [&]() -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                   rb.cst(0));
    };
    SmallVector<Value> parallel = rb.delinearize(at);
    rb.beginRow();
    for (const RowMember &member : group.members) {
      if (member.kind == RowOpKind::Elementwise) {
        guarded(Value(), [&] {
          rb.storeElements(member.op, parallel, rb.laneStart(lane),
                           rb.laneStep());
        });
        continue;
      }
      if (member.kind == RowOpKind::PerRow) {
        Value result = rb.perRowResult(member.op, parallel);
        guarded(isLane0(),
                [&] { rb.storePerRowResult(member.op, parallel, result); });
        continue;
      }
      const RowReduction *red = group.reductionOf(member.op);
      Value partial = rb.lanePartial(*red, parallel, lane);
      // Partners lane ^ offset stay among the row's lanes (lanesPerRow
      // divides the warp).
      for (int32_t offset = lanesPerRow / 2; offset > 0; offset /= 2) {
        Value other = gpu::ShuffleOp::create(b, loc, partial, offset,
                                             kWarpSize, gpu::ShuffleMode::XOR)
                          .getShuffleResult();
        partial = rb.combine(*red, other, partial);
      }
      Value result = rb.rowResult(*red, parallel, partial);
      guarded(isLane0(),
              [&] { rb.storePerRowResult(red->op, parallel, result); });
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
void buildCPUEmulation(OpBuilder &b, Location loc, const RowGroup &group,
                       int64_t width, int64_t lanesPerRow) {
  // Unaligned: a NumPy view need not be.
  RowGroupBuilder rb(b, loc, group, width, lanesPerRow, /*aligned=*/false);
  Value c0 = rb.cst(0), c1 = rb.cst(1), lanes = rb.cst(lanesPerRow);
  // One pair of lane buffers per accumulator type.
  DenseMap<Type, std::pair<Value, Value>> laneBuffers;
  for (const RowReduction &red : group.reductions) {
    Type type = getElementTypeOrSelf(
        linalg::GenericOp(red.op).getDpsInitOperand(0)->get());
    if (laneBuffers.count(type))
      continue;
    auto lanesType = MemRefType::get({lanesPerRow}, type);
    laneBuffers[type] = {memref::AllocaOp::create(b, loc, lanesType),
                         memref::AllocaOp::create(b, loc, lanesType)};
  }
  scf::ForOp::create(
      b, loc, c0, rb.cst(rb.rows()), c1, ValueRange{},
      [&](OpBuilder &, Location, Value row, ValueRange) {
        SmallVector<Value> parallel = rb.delinearize(row);
        rb.beginRow();
        for (const RowMember &member : group.members) {
          if (member.kind == RowOpKind::Elementwise) {
            rb.storeElements(member.op, parallel, c0, width);
            continue;
          }
          if (member.kind == RowOpKind::PerRow) {
            rb.storePerRowResult(member.op, parallel,
                                 rb.perRowResult(member.op, parallel));
            continue;
          }
          const RowReduction *red = group.reductionOf(member.op);
          linalg::GenericOp op = member.op;
          std::pair<Value, Value> buffers = laneBuffers.lookup(
              getElementTypeOrSelf(op.getDpsInitOperand(0)->get()));
          Value partials = buffers.first, next = buffers.second;
          scf::ForOp::create(
              b, loc, c0, lanes, c1, ValueRange{},
              [&](OpBuilder &, Location, Value lane, ValueRange) {
                memref::StoreOp::create(
                    b, loc, rb.lanePartial(*red, parallel, lane), partials,
                    lane);
                scf::YieldOp::create(b, loc);
              });
          for (int64_t offset = lanesPerRow / 2; offset > 0; offset /= 2) {
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
          rb.storePerRowResult(red->op, parallel,
                               rb.rowResult(*red, parallel, total));
        }
        scf::YieldOp::create(b, loc);
      });
}

struct GPUWarpReducePass
    : public opsnn::impl::GPUWarpReducePassBase<GPUWarpReducePass> {
  using Base::Base;

  /// linalg.reduce over the last dimension of one input into one output
  /// (what the ONNX importer's ReduceSum/ReduceMean/ReduceMax and layer
  /// norm give) as the equivalent linalg.generic, which the matcher takes.
  void generalizeLastDimReduces() {
    SmallVector<linalg::ReduceOp> reduces;
    getOperation().walk([&](linalg::ReduceOp op) {
      auto type = dyn_cast<MemRefType>(op.getInputs().front().getType());
      if (op.hasPureBufferSemantics() && op.getInputs().size() == 1 &&
          op.getInits().size() == 1 && type &&
          op.getDimensions() == ArrayRef<int64_t>{type.getRank() - 1})
        reduces.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::ReduceOp op : reduces) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
  }

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
    generalizeLastDimReduces();
    SmallVector<RowReduction> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      FailureOr<RowReduction> red = matchRowReduction(op, minReductionSize);
      if (succeeded(red))
        reductions.push_back(*red);
    });
    // Groups in program order; a reduction that joined an earlier group is
    // not the head of another.
    std::vector<RowGroup> groups;
    DenseSet<Operation *> grouped;
    for (RowReduction &red : reductions) {
      if (grouped.contains(red.op))
        continue;
      groups.push_back(collectRowGroup(red, fuseRowOps, minReductionSize));
      for (const RowMember &member : groups.back().members)
        grouped.insert(member.op);
    }
    for (RowGroup &group : groups) {
      // At the last member: the buffers the later members write are
      // allocated by then, and nothing between the members touches the
      // group's buffers (collectRowGroup).
      linalg::GenericOp last = group.members.back().op;
      OpBuilder b(last);
      Location loc = group.head().op->getLoc();
      int64_t width = vectorize ? chooseRowVectorWidth(group) : 1;
      int64_t lanesPerRow =
          chooseLanesPerRow(group.head().reductionSize, width);
      if (!fillsWarps(group, lanesPerRow) && !payloadsOnlyCompute(group)) {
        LLVM_DEBUG(llvm::dbgs()
                   << "row group at " << loc
                   << ": rows past the last would run a payload that "
                      "accesses memory: generic path\n");
        continue;
      }
      if (emulateOnCPU)
        buildCPUEmulation(b, loc, group, width, lanesPerRow);
      else
        buildGPUKernel(b, loc, group, warpsPerBlock, width, lanesPerRow);
      for (RowMember &member : group.members)
        member.op.erase();
      for (RowReduction &red : group.reductions)
        if (red.fill)
          red.fill.erase();
    }
  }
};

} // namespace
