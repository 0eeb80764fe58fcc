//===- GPUTiledTranspose.cpp - Transposing kernels through shared tiles ---===//
//
// An elementwise op whose output's contiguous dimension is not its input's
// (a layout conversion NCHW <-> NHWC, with or without a cast or a fused
// batch norm) gets, on the generic GPU path, one thread per output element
// with threadIdx.x walking the output's contiguous dimension: the stores
// are coalesced, but the 32 loads of a warp are a whole input row apart,
// one 32-byte sector each for 2 or 4 useful bytes. Here such an op becomes
// a kernel that moves the data through a shared-memory tile: a block of
// T x R threads reads a T x T tile of each transposed input along the
// input's contiguous dimensions (consecutive threads, consecutive
// addresses), waits at a barrier, and writes the T x T outputs along the
// output's contiguous dimensions, reading the tile across (a row of T + 1
// elements: no bank conflicts). Both sides are coalesced.
//
// The contiguous dimensions are groups of loops: the input's trailing
// loops up to the first that is the output's innermost (H, W of NCHW read
// into NHWC), and the output's trailing loops up to the first of those (C
// of that NHWC); each group is tiled as one linear index. The other loops
// are the grid's z.
//
// With emulate-on-cpu the same index arithmetic runs as loops (per block:
// every thread's reads into the tile, then every thread's writes), so the
// tiling, the ragged edges and the fused payload run against NumPy on the
// CPU.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TensorCoreTiles.h"
#include "opsnn/Transforms/Passes.h"

#include "KernelBufferAccess.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tiled-transpose"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUTILEDTRANSPOSEPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {

/// An all-parallel linalg.generic on buffers that reads some inputs
/// ("staged") along other contiguous loops than it writes its output.
struct TiledTranspose {
  linalg::GenericOp op;
  SmallVector<int64_t> sizes;
  /// The loops contiguous in the staged inputs (outer to inner, in their
  /// order there), those contiguous in the output (in its order), and the
  /// rest (loop order).
  SmallVector<unsigned> inDims, outDims, outerDims;
  SmallVector<OpOperand *> staged;
  /// Where the kernel writes: the op's output, or the target of the copy
  /// that is the only reader of a fresh output buffer (the copy of a
  /// padded buffer's interior); then the kernel replaces the copy.
  Value output;
  Operation *absorbedCopy = nullptr;

  int64_t extent(ArrayRef<unsigned> dims) const {
    int64_t n = 1;
    for (unsigned d : dims)
      n *= sizes[d];
    return n;
  }
};

/// The loops of `map`'s trailing results, innermost last, up to (not
/// including) the first result that is not a loop or is one of `stop`.
SmallVector<unsigned> trailingDims(AffineMap map, ArrayRef<unsigned> stop) {
  SmallVector<unsigned> dims;
  for (AffineExpr e : llvm::reverse(map.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim || llvm::is_contained(stop, dim.getPosition()))
      break;
    dims.insert(dims.begin(), dim.getPosition());
  }
  return dims;
}

bool usesAnyDim(AffineMap map, ArrayRef<unsigned> dims) {
  return llvm::any_of(dims, [&](unsigned d) { return map.isFunctionOfDim(d); });
}

/// Whether a shared tile can hold `type`: a scalar of whole bytes.
bool isTileElementType(Type type) {
  return (isa<FloatType>(type) || isa<IntegerType>(type)) &&
         type.getIntOrFloatBitWidth() % 8 == 0;
}

FailureOr<TiledTranspose> matchTiledTranspose(linalg::GenericOp op,
                                              int64_t tile, int64_t minExtent) {
  auto fail = [&](const Twine &why) {
    LLVM_DEBUG(llvm::dbgs()
               << "not tiled at " << op.getLoc() << ": " << why << "\n");
    return failure();
  };
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 2 || op.getNumParallelLoops() != op.getNumLoops())
    return fail("not an all-parallel op on buffers with one output");
  TiledTranspose t;
  t.op = op;
  t.sizes = op.getStaticLoopRanges();
  if (ShapedType::isDynamicShape(t.sizes))
    return fail("dynamic loop ranges");
  if (op->getParentOfType<gpu::LaunchOp>())
    return fail("already in a kernel");
  // The payload is recomputed per element, in any order.
  for (Operation &payloadOp : op.getRegion().front().without_terminator()) {
    if (!isMemoryEffectFree(&payloadOp))
      return fail("payload with side effects");
    bool nestedIndex = false;
    for (Region &region : payloadOp.getRegions())
      nestedIndex |=
          region.walk([](linalg::IndexOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
    if (nestedIndex)
      return fail("linalg.index inside a payload region");
  }
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap outMap = op.getMatchingIndexingMap(init);
  if (!outMap.isPermutation())
    return fail("the output is not a permutation of the loops");
  unsigned outInner =
      cast<AffineDimExpr>(outMap.getResults().back()).getPosition();

  // The first input read along other loops than the output's innermost
  // decides the input group; the inputs that end in the same group and
  // move with the output's group go through the tile.
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (!isa<MemRefType>(input->get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<unsigned> dims = trailingDims(map, {outInner});
    if (dims.empty() || !map.isFunctionOfDim(outInner))
      continue;
    if (t.inDims.empty()) {
      t.inDims = dims;
      t.outDims = trailingDims(outMap, t.inDims);
    }
    if (dims != ArrayRef(t.inDims) || !usesAnyDim(map, t.outDims))
      continue;
    if (!isTileElementType(getElementTypeOrSelf(input->get())))
      return fail("an element type a shared tile cannot hold");
    if (viewedBuffer(input->get()) == viewedBuffer(init->get()))
      return fail("the output aliases a transposed input");
    t.staged.push_back(input);
  }
  if (t.staged.empty())
    return fail("no input is read across the output's contiguous loops");
  for (unsigned d = 0, e = op.getNumLoops(); d < e; ++d)
    if (!llvm::is_contained(t.inDims, d) && !llvm::is_contained(t.outDims, d))
      t.outerDims.push_back(d);

  int64_t inExtent = t.extent(t.inDims), outExtent = t.extent(t.outDims);
  if (inExtent < minExtent || outExtent < minExtent)
    return fail("contiguous extents " + Twine(inExtent) + " (input) and " +
                Twine(outExtent) + " (output), below min-extent " +
                Twine(minExtent));
  if (llvm::divideCeil(inExtent, tile) > kMaxGridDimYZ ||
      t.extent(t.outerDims) > kMaxGridDimYZ)
    return fail("more blocks than gridDim.y or gridDim.z allow");
  int64_t sharedBytes = 0;
  for (OpOperand *input : t.staged)
    sharedBytes += tile * (tile + 1) *
                   getElementTypeOrSelf(input->get()).getIntOrFloatBitWidth() /
                   8;
  if (sharedBytes > kStaticSharedMemoryBytes)
    return fail("tiles of " + Twine(sharedBytes) + " B exceed 48 KiB");
  t.output = init->get();
  return t;
}

/// Whether the op right before `t` (allocations, views and pure ops aside)
/// computes a staged input point for point over the same parallel loops:
/// `--opsnn-fuse-parallel-loops` then runs both in one kernel, where each
/// thread reads back the element it just wrote (a pooling or an
/// elementwise op whose NCHW result goes to NHWC; not a producer that is
/// tiled itself, `tiled`). That kernel's only
/// uncoalesced accesses are its transposed stores; a tiled kernel of its
/// own would add a launch and a pass over the staged buffer.
bool sharesKernelWithProducer(const TiledTranspose &t,
                              const DenseSet<Operation *> &tiled) {
  Operation *producer = t.op->getPrevNode();
  while (producer &&
         (isMemoryEffectFree(producer) || isa<ViewLikeOpInterface>(producer) ||
          (producer->getNumResults() == 1 &&
           hasSingleEffect<MemoryEffects::Allocate>(producer))))
    producer = producer->getPrevNode();
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(producer);
  if (!linalgOp || tiled.contains(producer) ||
      !linalgOp.hasPureBufferSemantics() || linalgOp.getNumDpsInits() != 1)
    return false;
  OpOperand *init = linalgOp.getDpsInitOperand(0);
  SmallVector<int64_t> ranges = linalgOp.getStaticLoopRanges();
  // The producer's output map over its parallel loops alone, and those
  // loops' sizes.
  SmallVector<unsigned> parallelLoops;
  linalgOp.getParallelDims(parallelLoops);
  SmallVector<AffineExpr> results;
  for (AffineExpr e : linalgOp.getMatchingIndexingMap(init).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    auto *it = dim ? llvm::find(parallelLoops, dim.getPosition())
                   : parallelLoops.end();
    if (it == parallelLoops.end())
      return false;
    results.push_back(
        getAffineDimExpr(it - parallelLoops.begin(), e.getContext()));
  }
  SmallVector<int64_t> parallelSizes =
      llvm::map_to_vector(parallelLoops, [&](unsigned d) { return ranges[d]; });
  AffineMap written =
      AffineMap::get(parallelLoops.size(), 0, results, linalgOp->getContext());
  linalg::GenericOp op = t.op;
  return parallelSizes == ArrayRef(t.sizes) &&
         llvm::any_of(t.staged, [&](OpOperand *input) {
           return input->get() == init->get() &&
                  op.getMatchingIndexingMap(input) == written;
         });
}

/// The source and target of `op` if it copies one whole buffer into
/// another.
std::optional<std::pair<Value, Value>> copyOperands(Operation *op) {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return std::make_pair(copy.getSource(), copy.getTarget());
  if (auto copy = dyn_cast<linalg::CopyOp>(op);
      copy && copy.hasPureBufferSemantics())
    return std::make_pair(copy.getInputs()[0], copy.getOutputs()[0]);
  return std::nullopt;
}

/// The copy of `t`'s output into another buffer, when that copy is the only
/// reader of the output, a buffer of this function the payload does not
/// read: bufferization's copy of
/// a result into the interior of a padded buffer. The kernel can write the
/// copy's target in its place (one kernel and one pass over memory fewer)
/// if nothing between the op and the copy writes the op's inputs.
Operation *findAbsorbableCopy(const TiledTranspose &t,
                              BufferAccessAnalysis &access) {
  linalg::GenericOp op = t.op;
  OpOperand *init = op.getDpsInitOperand(0);
  Value out = init->get();
  // The payload must not read the output, which goes.
  if (!isLocalBuffer(out) || !op.getMatchingBlockArgument(init).use_empty())
    return nullptr;
  Operation *copy = nullptr;
  for (Operation *user : out.getUsers()) {
    if (user == op.getOperation() || isDealloc(user))
      continue;
    std::optional<std::pair<Value, Value>> operands = copyOperands(user);
    if (copy || !operands || operands->first != out ||
        operands->second == out || user->getBlock() != op->getBlock() ||
        !op->isBeforeInBlock(user))
      return nullptr;
    copy = user;
  }
  if (!copy)
    return nullptr;
  for (Operation *between = op->getNextNode(); between != copy;
       between = between->getNextNode())
    for (OpOperand *input : op.getDpsInputOperands())
      if (isa<MemRefType>(input->get().getType()) &&
          access.accessOf(between, input->get()).write)
        return nullptr;
  return copy;
}

/// The kernel's index arithmetic and its two phases, for the GPU kernel
/// and its CPU emulation alike. A block covers tile `inTile` of the input
/// group's linear index, tile `outTile` of the output group's, and element
/// `outer` of the other loops; its threads are (tx, ty), tx < T, ty < R.
class TransposeKernelBuilder {
public:
  TransposeKernelBuilder(OpBuilder &b, Location loc, const TiledTranspose &t,
                         int64_t tile, int64_t blockRows)
      : b(b), loc(loc), t(t), tile(tile), blockRows(blockRows) {}

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  int64_t tilesIn() const { return llvm::divideCeil(t.extent(t.inDims), tile); }
  int64_t tilesOut() const {
    return llvm::divideCeil(t.extent(t.outDims), tile);
  }
  int64_t outerCount() const { return t.extent(t.outerDims); }

  /// One tile per staged input: T rows (output group) of T + 1 elements
  /// (input group; one of padding), in `memorySpace`.
  SmallVector<Type> tileTypes(Attribute memorySpace) const {
    return llvm::map_to_vector(t.staged, [&](OpOperand *input) -> Type {
      return MemRefType::get({tile, tile + 1},
                             getElementTypeOrSelf(input->get()),
                             MemRefLayoutAttrInterface(), memorySpace);
    });
  }

  /// Starts block (inTile, outTile, outer): its origins and outer loops.
  void beginBlock(Value inTile, Value outTile, Value outer) {
    in0 = mulConstant(inTile, tile);
    out0 = mulConstant(outTile, tile);
    outerIndices.clear();
    delinearize(outer, t.outerDims, outerIndices);
  }

  /// Phase 1: thread (tx, ty) copies staged element (in0 + tx, out0 + ty +
  /// r) into tiles[s][ty + r][tx], r = 0, R, ..., T - R: consecutive tx,
  /// consecutive input addresses.
  void loadTiles(ArrayRef<Value> tiles, Value tx, Value ty) {
    forEachRow(ty, [&](Value rowInTile) {
      Value in = addValues(in0, tx), out = addValues(out0, rowInTile);
      ifInBounds(in, out, [&] {
        SmallVector<Value> ivs = loopIndices(in, out);
        for (auto [input, tileBuffer] : llvm::zip(t.staged, tiles)) {
          linalg::GenericOp op = t.op;
          Value v = memref::LoadOp::create(
              b, loc, input->get(),
              indicesOf(op.getMatchingIndexingMap(input), ivs));
          memref::StoreOp::create(b, loc, v, tileBuffer,
                                  ValueRange{rowInTile, tx});
        }
      });
    });
  }

  /// Phase 2: thread (tx, ty) computes output element (in0 + ty + r,
  /// out0 + tx): staged operands from tiles[s][tx][ty + r], the others
  /// from their buffers; consecutive tx, consecutive output addresses.
  void storeOutputs(ArrayRef<Value> tiles, Value tx, Value ty) {
    forEachRow(ty, [&](Value rowInTile) {
      Value in = addValues(in0, rowInTile), out = addValues(out0, tx);
      ifInBounds(in, out, [&] {
        SmallVector<Value> ivs = loopIndices(in, out);
        linalg::GenericOp op = t.op;
        Block &body = op.getRegion().front();
        IRMapping mapping;
        for (OpOperand &operand : op->getOpOperands()) {
          BlockArgument arg = body.getArgument(operand.getOperandNumber());
          if (arg.use_empty())
            continue;
          Value value;
          if (auto *it = llvm::find(t.staged, &operand); it != t.staged.end())
            value = memref::LoadOp::create(b, loc, tiles[it - t.staged.begin()],
                                           ValueRange{tx, rowInTile});
          else if (isa<MemRefType>(operand.get().getType()))
            value = memref::LoadOp::create(
                b, loc, operand.get(),
                indicesOf(op.getMatchingIndexingMap(&operand), ivs));
          else
            value = operand.get();
          mapping.map(arg, value);
        }
        for (Operation &payloadOp : body.without_terminator()) {
          if (auto index = dyn_cast<linalg::IndexOp>(payloadOp))
            mapping.map(index.getResult(), ivs[index.getDim()]);
          else
            b.clone(payloadOp, mapping);
        }
        memref::StoreOp::create(
            b, loc,
            mapping.lookupOrDefault(body.getTerminator()->getOperand(0)),
            t.output,
            indicesOf(op.getMatchingIndexingMap(op.getDpsInitOperand(0)), ivs));
      });
    });
  }

private:
  Value mulConstant(Value v, int64_t c) {
    AffineExpr s0 = b.getAffineSymbolExpr(0);
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(0, 1, s0 * c),
                                         v);
  }
  Value addValues(Value x, Value y) {
    AffineExpr s0 = b.getAffineSymbolExpr(0), s1 = b.getAffineSymbolExpr(1);
    return affine::AffineApplyOp::create(b, loc, AffineMap::get(0, 2, s0 + s1),
                                         ValueRange{x, y});
  }

  /// Sets ivs[d] for the loops `dims` (innermost last) from their linear
  /// index `linear`.
  void delinearize(Value linear, ArrayRef<unsigned> dims,
                   SmallVectorImpl<Value> &ivs) {
    if (ivs.size() < t.sizes.size())
      ivs.resize(t.sizes.size());
    AffineExpr s0 = b.getAffineSymbolExpr(0);
    int64_t stride = t.extent(dims);
    for (unsigned d : dims) {
      int64_t size = t.sizes[d];
      stride /= size;
      if (dims.size() == 1) {
        ivs[d] = linear;
        continue;
      }
      AffineExpr e = s0.floorDiv(stride);
      if (d != dims.front())
        e = e % size;
      ivs[d] = affine::AffineApplyOp::create(b, loc, AffineMap::get(0, 1, e),
                                             linear);
    }
  }

  SmallVector<Value> loopIndices(Value in, Value out) {
    SmallVector<Value> ivs(outerIndices);
    delinearize(in, t.inDims, ivs);
    delinearize(out, t.outDims, ivs);
    return ivs;
  }

  /// `map` (an indexing map: the loop indices themselves where its results
  /// are loops) at the loop indices `ivs`.
  SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> ivs) {
    return llvm::to_vector(*affine::expandAffineMap(b, loc, map, ivs));
  }

  /// body(ty + r) for r = 0, R, ..., T - R.
  void forEachRow(Value ty, function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, cst(0), cst(tile), cst(blockRows), ValueRange{},
                       [&](OpBuilder &, Location, Value r, ValueRange) {
                         body(addValues(ty, r));
                         scf::YieldOp::create(b, loc);
                       });
  }

  /// body() where (in, out) is inside the groups' extents; no test where
  /// the tiles divide them.
  void ifInBounds(Value in, Value out, function_ref<void()> body) {
    Value cond;
    auto below = [&](Value v, int64_t extent) {
      if (extent % tile == 0)
        return;
      Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                                       cst(extent));
      cond = cond ? arith::AndIOp::create(b, loc, cond, lt) : lt;
    };
    below(in, t.extent(t.inDims));
    below(out, t.extent(t.outDims));
    if (!cond)
      return body();
    scf::IfOp::create(b, loc, cond, [&](OpBuilder &, Location) {
      body();
      scf::YieldOp::create(b, loc);
    });
  }

  OpBuilder &b;
  Location loc;
  const TiledTranspose &t;
  int64_t tile, blockRows;
  Value in0, out0;
  SmallVector<Value> outerIndices;
};

/// gpu.launch: grid (output tiles, input tiles, outer), blocks of T x R
/// threads, the tiles as workgroup attributions.
void buildGPUKernel(OpBuilder &b, Location loc, const TiledTranspose &t,
                    int64_t tile, int64_t blockRows) {
  TransposeKernelBuilder kb(b, loc, t, tile, blockRows);
  auto shared =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value one = kb.cst(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.cst(kb.tilesOut()), kb.cst(kb.tilesIn()),
      kb.cst(kb.outerCount()), kb.cst(tile), kb.cst(blockRows), one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, kb.tileTypes(shared));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  SmallVector<Value> tiles(launch.getWorkgroupAttributions());
  kb.beginBlock(launch.getBlockIds().y, launch.getBlockIds().x,
                launch.getBlockIds().z);
  Value tx = launch.getThreadIds().x, ty = launch.getThreadIds().y;
  kb.loadTiles(tiles, tx, ty);
  gpu::BarrierOp::create(b, loc);
  kb.storeOutputs(tiles, tx, ty);
  gpu::TerminatorOp::create(b, loc);
}

/// The same blocks in sequence; per block every thread's phase 1, then
/// every thread's phase 2 (the barrier between them).
void buildCPUEmulation(OpBuilder &b, Location loc, const TiledTranspose &t,
                       int64_t tile, int64_t blockRows) {
  TransposeKernelBuilder kb(b, loc, t, tile, blockRows);
  SmallVector<Value> tiles;
  for (Type type : kb.tileTypes(Attribute()))
    tiles.push_back(memref::AllocOp::create(b, loc, cast<MemRefType>(type)));
  Value c0 = kb.cst(0), c1 = kb.cst(1);
  auto forEach = [&](int64_t count, function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, c0, kb.cst(count), c1, ValueRange{},
                       [&](OpBuilder &, Location, Value i, ValueRange) {
                         body(i);
                         scf::YieldOp::create(b, loc);
                       });
  };
  auto forEachThread = [&](function_ref<void(Value, Value)> body) {
    forEach(blockRows,
            [&](Value ty) { forEach(tile, [&](Value tx) { body(tx, ty); }); });
  };
  forEach(kb.outerCount(), [&](Value outer) {
    forEach(kb.tilesIn(), [&](Value inTile) {
      forEach(kb.tilesOut(), [&](Value outTile) {
        kb.beginBlock(inTile, outTile, outer);
        forEachThread([&](Value tx, Value ty) { kb.loadTiles(tiles, tx, ty); });
        forEachThread(
            [&](Value tx, Value ty) { kb.storeOutputs(tiles, tx, ty); });
      });
    });
  });
  for (Value tileBuffer : tiles)
    memref::DeallocOp::create(b, loc, tileBuffer);
}

struct GPUTiledTransposePass
    : public opsnn::impl::GPUTiledTransposePassBase<GPUTiledTransposePass> {
  using Base::Base;

  LogicalResult verifyOptions() {
    Location loc = getOperation().getLoc();
    if (tile < 1 || blockRows < 1 || tile % blockRows)
      return emitError(loc) << "tile (" << int64_t(tile)
                            << ") must be a positive multiple of block-rows ("
                            << int64_t(blockRows) << ")";
    if (tile * blockRows > 1024)
      return emitError(loc) << "tile x block-rows = " << tile * blockRows
                            << " threads per block; CUDA allows at most 1024";
    if (minExtent < 1)
      return emitError(loc)
             << "min-extent must be positive, got " << int64_t(minExtent);
    return success();
  }

  /// Static linalg.transpose ops that move the innermost dimension as the
  /// equivalent linalg.generic (which stays when it is not tiled).
  void generalizeTransposes() {
    SmallVector<linalg::TransposeOp> transposes;
    getOperation().walk([&](linalg::TransposeOp op) {
      if (op.hasPureBufferSemantics() &&
          !ShapedType::isDynamicShape(op.getStaticLoopRanges()) &&
          op.getPermutation().back() != int64_t(op.getPermutation().size()) - 1)
        transposes.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (linalg::TransposeOp op : transposes) {
      rewriter.setInsertionPoint(op);
      (void)linalg::generalizeNamedOp(rewriter, op);
    }
  }

  void runOnOperation() override {
    if (failed(verifyOptions()))
      return signalPassFailure();
    generalizeTransposes();
    std::vector<TiledTranspose> matches;
    BufferAccessAnalysis access;
    DenseSet<Operation *> tiled;
    getOperation().walk([&](linalg::GenericOp op) {
      FailureOr<TiledTranspose> t = matchTiledTranspose(op, tile, minExtent);
      if (failed(t))
        return;
      if (sharesKernelWithProducer(*t, tiled)) {
        LLVM_DEBUG(llvm::dbgs() << "not tiled at " << op.getLoc()
                                << ": fuses with its producer\n");
        return;
      }
      if (absorbCopies && (t->absorbedCopy = findAbsorbableCopy(*t, access)))
        t->output = copyOperands(t->absorbedCopy)->second;
      tiled.insert(op);
      matches.push_back(std::move(*t));
    });
    for (TiledTranspose &t : matches) {
      Operation *kernelPoint = t.absorbedCopy ? t.absorbedCopy : t.op;
      OpBuilder b(kernelPoint);
      if (emulateOnCPU)
        buildCPUEmulation(b, t.op.getLoc(), t, tile, blockRows);
      else
        buildGPUKernel(b, t.op.getLoc(), t, tile, blockRows);
      Value unused = t.op.getDpsInitOperand(0)->get();
      t.op.erase();
      if (!t.absorbedCopy)
        continue;
      t.absorbedCopy->erase();
      eraseUnusedBuffer(unused);
    }
  }
};

} // namespace
