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

/// Builds the pieces of the kernel body shared by the GPU and CPU forms.
class RowReductionBuilder {
public:
  RowReductionBuilder(OpBuilder &b, Location loc, const RowReduction &red)
      : b(b), loc(loc), red(red), op(red.op) {}

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The parallel loop indices of row `row` (row-major over the parallel
  /// loops).
  SmallVector<Value> delinearize(Value row) {
    SmallVector<Value> indices;
    int64_t stride = red.rows();
    AffineExpr s0 = getAffineSymbolExpr(0, b.getContext());
    for (int64_t size : red.parallelSizes) {
      stride /= size;
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(0, 1, s0.floorDiv(stride) % size), row));
    }
    return indices;
  }

  /// The payload's x at reduction index `k` of the row at `parallel`.
  Value element(ArrayRef<Value> parallel, Value k) {
    SmallVector<Value> ivs(parallel);
    ivs.push_back(k);
    IRMapping mapping;
    Block &body = op.getRegion().front();
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      SmallVector<Value> indices = llvm::map_to_vector(
          map.getResults(), [&](AffineExpr e) {
            return ivs[cast<AffineDimExpr>(e).getPosition()];
          });
      mapping.map(body.getArgument(input->getOperandNumber()),
                  memref::LoadOp::create(b, loc, input->get(), indices));
    }
    for (Operation &payloadOp : body.without_terminator())
      if (&payloadOp != red.combiner)
        b.clone(payloadOp, mapping);
    return mapping.lookupOrDefault(red.element);
  }

  /// combiner(x, acc) on new operands.
  Value combine(Value x, Value acc) {
    IRMapping mapping;
    mapping.map(red.element, x);
    mapping.map(red.acc, acc);
    return b.clone(*red.combiner, mapping)->getResult(0);
  }

  /// Lane `lane`'s partial over elements lane, lane + 32, ... of the row.
  Value lanePartial(ArrayRef<Value> parallel, Value lane) {
    Value first = element(parallel, lane);
    Value start = affine::AffineApplyOp::create(
        b, loc,
        AffineMap::get(0, 1, getAffineSymbolExpr(0, b.getContext()) + kWarpSize),
        lane);
    auto loop = scf::ForOp::create(
        b, loc, start, cst(red.reductionSize), cst(kWarpSize),
        ValueRange{first},
        [&](OpBuilder &, Location, Value k, ValueRange iterArgs) {
          scf::YieldOp::create(b, loc,
                               combine(element(parallel, k), iterArgs[0]));
        });
    return loop.getResult(0);
  }

  /// out[parallel] = combiner(total, out[parallel]).
  void storeTotal(ArrayRef<Value> parallel, Value total) {
    OpOperand *init = op.getDpsInitOperand(0);
    AffineMap map = op.getMatchingIndexingMap(init);
    SmallVector<Value> indices =
        llvm::map_to_vector(map.getResults(), [&](AffineExpr e) {
          return parallel[cast<AffineDimExpr>(e).getPosition()];
        });
    Value old = red.foldedInit
                    ? red.foldedInit
                    : memref::LoadOp::create(b, loc, init->get(), indices);
    memref::StoreOp::create(b, loc, combine(total, old), init->get(), indices);
  }

private:
  OpBuilder &b;
  Location loc;
  const RowReduction &red;
  linalg::GenericOp op;
};

/// One warp per row: blocks of `warps` warps, warp w of block b on row
/// b * warps + w; the butterfly leaves the total in every lane, lane 0
/// stores it.
void buildGPUKernel(OpBuilder &b, Location loc, const RowReduction &red,
                    int64_t warps) {
  RowReductionBuilder rb(b, loc, red);
  Value one = rb.cst(1);
  int64_t rows = red.rows();
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
    Value partial = rb.lanePartial(parallel, lane);
    for (int32_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
      Value other = gpu::ShuffleOp::create(b, loc, partial, offset, kWarpSize,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
      partial = rb.combine(other, partial);
    }
    Value isLane0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          lane, rb.cst(0));
    scf::IfOp::create(b, loc, isLane0, [&](OpBuilder &, Location) {
      rb.storeTotal(parallel, partial);
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
  gpu::TerminatorOp::create(b, loc);
}

/// The same as loops: per row, every lane's partial into a buffer, then per
/// butterfly step every lane's combine(partial[lane ^ offset],
/// partial[lane]) (into a second buffer: the shuffles read the values from
/// before the step), then lane 0's total stored.
void buildCPUEmulation(OpBuilder &b, Location loc, const RowReduction &red) {
  RowReductionBuilder rb(b, loc, red);
  linalg::GenericOp op = red.op;
  Type type = getElementTypeOrSelf(op.getDpsInitOperand(0)->get());
  auto lanesType = MemRefType::get({kWarpSize}, type);
  Value partials = memref::AllocaOp::create(b, loc, lanesType);
  Value next = memref::AllocaOp::create(b, loc, lanesType);
  Value c0 = rb.cst(0), c1 = rb.cst(1), lanes = rb.cst(kWarpSize);
  scf::ForOp::create(
      b, loc, c0, rb.cst(red.rows()), c1, ValueRange{},
      [&](OpBuilder &, Location, Value row, ValueRange) {
        SmallVector<Value> parallel = rb.delinearize(row);
        scf::ForOp::create(
            b, loc, c0, lanes, c1, ValueRange{},
            [&](OpBuilder &, Location, Value lane, ValueRange) {
              memref::StoreOp::create(b, loc, rb.lanePartial(parallel, lane),
                                      partials, lane);
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
                memref::StoreOp::create(b, loc, rb.combine(other, mine), next,
                                        lane);
                scf::YieldOp::create(b, loc);
              });
          memref::CopyOp::create(b, loc, next, partials);
        }
        rb.storeTotal(parallel,
                      memref::LoadOp::create(b, loc, partials, c0));
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
    for (RowReduction &red : reductions) {
      OpBuilder b(red.op);
      Location loc = red.op.getLoc();
      if (emulateOnCPU)
        buildCPUEmulation(b, loc, red);
      else
        buildGPUKernel(b, loc, red, warpsPerBlock);
      red.op.erase();
      if (red.fill)
        red.fill.erase();
    }
  }
};

} // namespace
