//===- FuseSiblingContractions.cpp - One GEMM for GEMMs that share A ------===//
//
// --opsnn-fuse-sibling-contractions: contractions that read the same input
// with constant weights of one shape (a Transformer's Q, K and V
// projections) become one contraction over the weights stacked along a new
// parallel dimension next to N: one kernel reads the shared input once and
// computes an N three times as wide. Each old result is a unit slice of the
// new one. Weights that differ in N only (grouped-query attention) are
// concatenated along it instead, each old result a range of the new one.
// The elementwise consumers of those slices that do the same thing to each
// (the projections' bias adds and casts) merge the same way, so that the
// tensor-core kernel still absorbs them as its epilogue.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-fuse-sibling-contractions"

namespace mlir::opsnn {
#define GEN_PASS_DEF_FUSESIBLINGCONTRACTIONSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The type of `parts` (static tensors of one element type) joined at
/// dimension `dim`: stacked along a new dimension there when `stack` (one
/// shape), else concatenated along it (shapes that differ there only).
/// Null otherwise.
static RankedTensorType joinedType(ArrayRef<RankedTensorType> parts,
                                   int64_t dim, bool stack) {
  RankedTensorType first = parts.front();
  SmallVector<int64_t> shape(first.getShape());
  if (stack)
    shape.insert(shape.begin() + dim, int64_t(parts.size()));
  else
    shape[dim] = 0;
  for (RankedTensorType part : parts) {
    if (part.getElementType() != first.getElementType() ||
        part.getRank() != first.getRank())
      return nullptr;
    for (int64_t i = 0, e = first.getRank(); i < e; ++i)
      if (part.getDimSize(i) != first.getDimSize(i) && (stack || i != dim))
        return nullptr;
    if (!stack)
      shape[dim] += part.getDimSize(dim);
  }
  return RankedTensorType::get(shape, first.getElementType());
}

/// `parts` (dense constants of one byte-sized element type) joined at
/// dimension `dim` as joinedType joins their types (part i of a stack is
/// the slice [.., i, ..] of the result). Null otherwise.
static DenseElementsAttr joinConstants(ArrayRef<Attribute> parts, int64_t dim,
                                       bool stack) {
  SmallVector<DenseElementsAttr> dense;
  SmallVector<RankedTensorType> types;
  for (Attribute part : parts) {
    auto attr = dyn_cast<DenseElementsAttr>(part);
    if (!attr)
      return nullptr;
    dense.push_back(attr);
    types.push_back(cast<RankedTensorType>(attr.getType()));
  }
  DenseElementsAttr first = dense.front();
  auto type = cast<RankedTensorType>(first.getType());
  Type element = type.getElementType();
  RankedTensorType joined = joinedType(types, dim, stack);
  if (!joined || !element.isIntOrFloat() ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return nullptr;
  if (stack && llvm::all_equal(parts) && first.isSplat())
    return first.resizeSplat(joined);

  // Row-major: for each index of the dimensions before `dim`, each part's
  // block of the dimensions from `dim` on, in turn.
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  int64_t outer = 1;
  for (int64_t size : type.getShape().take_front(dim))
    outer *= size;
  SmallVector<int64_t> inner;
  for (DenseElementsAttr part : dense) {
    inner.push_back(elementBytes);
    for (int64_t size :
         cast<RankedTensorType>(part.getType()).getShape().drop_front(dim))
      inner.back() *= size;
  }
  std::vector<char> data(outer * llvm::sum_of(inner));
  char *to = data.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (auto [part, bytes] : llvm::zip(dense, inner)) {
      ArrayRef<char> raw = part.getRawData();
      if (part.isSplat()) {
        for (int64_t e = 0; e < bytes; e += elementBytes)
          std::memcpy(to + e, raw.data(), elementBytes);
      } else {
        std::memcpy(to, raw.data() + o * bytes, bytes);
      }
      to += bytes;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(joined, data);
}

/// `map` over one more loop (the last), which it does not read.
static AffineMap withGroupLoop(AffineMap map) {
  return AffineMap::get(map.getNumDims() + 1, map.getNumSymbols(),
                        map.getResults(), map.getContext());
}

/// `map` over one more loop (the last), read as its result at `position`.
static AffineMap readingGroupLoop(AffineMap map, int64_t position) {
  SmallVector<AffineExpr> results(map.getResults());
  results.insert(results.begin() + position,
                 getAffineDimExpr(map.getNumDims(), map.getContext()));
  return AffineMap::get(map.getNumDims() + 1, map.getNumSymbols(), results,
                        map.getContext());
}

/// The position of loop `dim` in `map`'s results, if it is one of them.
static std::optional<int64_t> resultPosition(AffineMap map, AffineExpr dim) {
  std::optional<unsigned> position = map.getResultPosition(dim);
  if (!position)
    return std::nullopt;
  return int64_t(*position);
}

/// A linalg.generic like `like` (its payload, loops and discardable
/// attributes) on `inputs` and `init` through `maps`; with `groupLoop` one
/// loop more, parallel and last.
static linalg::GenericOp buildLike(RewriterBase &rewriter,
                                   linalg::LinalgOp like, ValueRange inputs,
                                   Value init, ArrayRef<AffineMap> maps,
                                   bool groupLoop = false) {
  SmallVector<utils::IteratorType> iterators = like.getIteratorTypesArray();
  if (groupLoop)
    iterators.push_back(utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, like.getLoc(), TypeRange{init.getType()}, inputs,
      ValueRange{init}, maps, iterators);
  rewriter.cloneRegionBefore(like->getRegion(0), generic.getRegion(),
                             generic.getRegion().end());
  for (NamedAttribute attr : like->getDiscardableAttrs())
    if (attr.getName() != "linalg.memoized_indexing_maps")
      generic->setAttr(attr.getName(), attr.getValue());
  return generic;
}

/// Erases `value`'s producer and, transitively, what it reads, while nothing
/// else uses them and they have no side effects.
static void eraseDeadProducers(RewriterBase &rewriter, Value value) {
  Operation *op = value ? value.getDefiningOp() : nullptr;
  if (!op || !isOpTriviallyDead(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  rewriter.eraseOp(op);
  for (Value operand : operands)
    eraseDeadProducers(rewriter, operand);
}

/// The op of `ops` (in one block) that comes first.
static Operation *earliest(ArrayRef<Operation *> ops) {
  Operation *first = ops.front();
  for (Operation *op : ops)
    if (op->isBeforeInBlock(first))
      first = op;
  return first;
}

/// Replaces each of `ops` by its slice and erases what only it used.
static void replaceBySlices(RewriterBase &rewriter, ArrayRef<Operation *> ops,
                            ArrayRef<Value> slices) {
  for (auto [op, slice] : llvm::zip_equal(ops, slices)) {
    SmallVector<Value> operands(op->getOperands());
    rewriter.replaceOp(op, slice);
    for (Value operand : operands)
      eraseDeadProducers(rewriter, operand);
  }
}

/// The discardable attributes of `op` that can change how it is lowered
/// (`opsnn.tf32`): all but the precision analysis' annotations
/// (`precision.*`, which differ per op) and linalg's memoized maps.
static SmallVector<NamedAttribute> loweringAttrs(Operation *op) {
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (!attr.getName().strref().starts_with("precision.") &&
        attr.getName() != "linalg.memoized_indexing_maps")
      attrs.push_back(attr);
  return attrs;
}

/// Whether `a` and `b` apply the same payload through the same maps and
/// loops and lower alike: on operands of the same types, or with
/// `varyingLoop` of the same element types over the same loop ranges but
/// that loop's.
static bool sameComputation(linalg::LinalgOp a, linalg::LinalgOp b,
                            std::optional<unsigned> varyingLoop = {}) {
  if (a->getName() != b->getName() || a->getBlock() != b->getBlock() ||
      loweringAttrs(a) != loweringAttrs(b) ||
      a.getIndexingMapsArray() != b.getIndexingMapsArray() ||
      a.getIteratorTypesArray() != b.getIteratorTypesArray() ||
      !OperationEquivalence::isRegionEquivalentTo(
          &a->getRegion(0), &b->getRegion(0),
          OperationEquivalence::IgnoreLocations))
    return false;
  if (!varyingLoop)
    return a->getOperandTypes() == b->getOperandTypes() &&
           a->getResultTypes() == b->getResultTypes();
  auto elementTypes = [](Operation *op) {
    SmallVector<Type> types;
    for (Type type :
         llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes()))
      types.push_back(getElementTypeOrSelf(type));
    return types;
  };
  if (elementTypes(a) != elementTypes(b) || a.hasDynamicShape() ||
      b.hasDynamicShape())
    return false;
  SmallVector<int64_t> aRanges = a.getStaticLoopRanges();
  SmallVector<int64_t> bRanges = b.getStaticLoopRanges();
  for (auto [i, sizes] : llvm::enumerate(llvm::zip(aRanges, bRanges)))
    if (i != *varyingLoop && std::get<0>(sizes) != std::get<1>(sizes))
      return false;
  return true;
}

/// Whether `op` is a contraction of two static tensors into one whose
/// operands are indexed by loops alone (projected permutations): a
/// (batched) GEMM. Not a convolution: its fused form would be a generic
/// that the tensor-core convolution kernel does not take.
static bool isGemmLike(linalg::LinalgOp op) {
  return op.hasPureTensorSemantics() && op.getNumDpsInputs() == 2 &&
         op.getNumDpsInits() == 1 && op.getNumReductionLoops() > 0 &&
         !op.hasDynamicShape() &&
         llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
           return map.isProjectedPermutation();
         });
}

/// Which input `a` and `b` both read, the same non-constant value, if one.
static std::optional<unsigned> sharedInputOf(linalg::LinalgOp a,
                                             linalg::LinalgOp b) {
  for (unsigned i = 0; i < 2; ++i) {
    Value input = a.getDpsInputOperand(i)->get();
    if (input == b.getDpsInputOperand(i)->get() &&
        !matchPattern(input, m_Constant()))
      return i;
  }
  return std::nullopt;
}

/// The value a contraction's init is filled with: a linalg.fill's, or the
/// value defined outside it that a linalg.generic without inputs yields to
/// every element (a fill once elementwise fusion has folded a cast into
/// it). Null otherwise.
static Value initFillValue(linalg::LinalgOp op) {
  Value init = op.getDpsInitOperand(0)->get();
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return fill.value();
  auto generic = init.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 0 ||
      generic.getNumResults() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !generic.getIndexingMapsArray().front().isPermutation())
    return Value();
  Value yielded = generic.getBody()->getTerminator()->getOperand(0);
  if (generic.getRegion().isAncestor(yielded.getParentRegion()))
    return Value();
  return yielded;
}

/// Where siblings like `op` join: its shared input (the other is the
/// weights) and the loop of the first dimension of C that only the weights
/// index (N, or M when the weights are the first input), at `cPosition` in
/// C and `wPosition` in the weights.
struct JoinLoop {
  unsigned shared, weight, loop;
  int64_t cPosition, wPosition;
};
static std::optional<JoinLoop> joinLoopOf(linalg::LinalgOp op,
                                          unsigned shared) {
  JoinLoop join{shared, 1 - shared, 0, 0, 0};
  AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  AffineMap wMap =
      op.getMatchingIndexingMap(op.getDpsInputOperand(join.weight));
  AffineMap sMap = op.getMatchingIndexingMap(op.getDpsInputOperand(shared));
  auto weightSide = [&](AffineExpr expr) {
    return isa<AffineDimExpr>(expr) && resultPosition(wMap, expr) &&
           !resultPosition(sMap, expr);
  };
  auto cResults = cMap.getResults();
  join.cPosition = llvm::find_if(cResults, weightSide) - cResults.begin();
  if (join.cPosition == int64_t(cResults.size()))
    return std::nullopt;
  AffineExpr loop = cResults[join.cPosition];
  join.loop = cast<AffineDimExpr>(loop).getPosition();
  join.wPosition = *resultPosition(wMap, loop);
  return join;
}

/// The slices of `fused` along `dim` with the sizes of `types` (theirs
/// there), one after the other; without `dim` (unit slices) when `unit`.
static SmallVector<Value> slicesAlong(RewriterBase &rewriter, Location loc,
                                      Value fused, int64_t dim, bool unit,
                                      ArrayRef<RankedTensorType> types) {
  auto fusedType = cast<RankedTensorType>(fused.getType());
  SmallVector<OpFoldResult> offsets(fusedType.getRank(),
                                    rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes,
      strides(fusedType.getRank(), rewriter.getIndexAttr(1));
  for (int64_t size : fusedType.getShape())
    sizes.push_back(rewriter.getIndexAttr(size));
  SmallVector<Value> slices;
  int64_t offset = 0;
  for (RankedTensorType type : types) {
    int64_t size = unit ? 1 : type.getDimSize(dim);
    offsets[dim] = rewriter.getIndexAttr(offset);
    sizes[dim] = rewriter.getIndexAttr(size);
    slices.push_back(tensor::ExtractSliceOp::create(rewriter, loc, type, fused,
                                                    offsets, sizes, strides));
    offset += size;
  }
  return slices;
}

FailureOr<linalg::GenericOp>
mlir::opsnn::fuseSiblingContractions(RewriterBase &rewriter,
                                     ArrayRef<linalg::LinalgOp> siblings) {
  linalg::LinalgOp first = siblings.front();
  if (siblings.size() < 2 ||
      llvm::SmallPtrSet<Operation *, 4>(
          llvm::from_range, llvm::map_range(siblings, [](linalg::LinalgOp op) {
            return op.getOperation();
          })).size() != siblings.size())
    return rewriter.notifyMatchFailure(first, "not two or more distinct ops");
  auto reject = [&](const Twine &why) {
    return rewriter.notifyMatchFailure(first, why);
  };
  if (!isGemmLike(first))
    return reject("not a static GEMM-like contraction on tensors");
  std::optional<unsigned> shared = sharedInputOf(first, siblings[1]);
  if (!shared)
    return reject("siblings do not share an input");
  std::optional<JoinLoop> join = joinLoopOf(first, *shared);
  if (!join)
    return reject("no dimension of the result comes from the weights alone");
  Value fillValue = initFillValue(first);
  if (!fillValue)
    return reject("the init is not a fill");
  // Weights of one shape stack along a new loop; weights that differ in the
  // join loop's extent only (grouped-query attention's K and V beside Q)
  // concatenate along it.
  bool stack = true;
  SmallVector<Attribute> weights;
  SmallVector<RankedTensorType> resultTypes;
  for (linalg::LinalgOp op : siblings) {
    if (op != first && !sameComputation(first, op, join->loop))
      return reject("siblings compute differently");
    stack &= op->getOperandTypes() == first->getOperandTypes();
    if (op.getDpsInputOperand(*shared)->get() !=
        first.getDpsInputOperand(*shared)->get())
      return reject("siblings do not share an input");
    Attribute attr;
    if (!matchPattern(op.getDpsInputOperand(join->weight)->get(),
                      m_Constant(&attr)))
      return reject("a sibling's other input is not a constant");
    weights.push_back(attr);
    if (initFillValue(op) != fillValue)
      return reject("siblings' inits are not fills of one value");
    resultTypes.push_back(cast<RankedTensorType>(op->getResult(0).getType()));
  }
  DenseElementsAttr joined = joinConstants(weights, join->wPosition, stack);
  if (!joined)
    return reject("weights are not dense constants of byte-sized elements");
  RankedTensorType fusedType =
      joinedType(resultTypes, join->cPosition, stack);
  if (!fusedType)
    return reject("results differ elsewhere than along the joined dimension");

  // The fused op goes where the earliest sibling was.
  SmallVector<Operation *> ops = llvm::map_to_vector(
      siblings, [](linalg::LinalgOp op) { return op.getOperation(); });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(earliest(ops));
  Location loc = first.getLoc();
  Value empty = tensor::EmptyOp::create(rewriter, loc, fusedType.getShape(),
                                        fusedType.getElementType());
  Value init =
      linalg::FillOp::create(rewriter, loc, fillValue, empty).getResult(0);
  SmallVector<Value> inputs(2);
  inputs[*shared] = first.getDpsInputOperand(*shared)->get();
  inputs[join->weight] = arith::ConstantOp::create(rewriter, loc, joined);
  SmallVector<AffineMap> maps = first.getIndexingMapsArray();
  linalg::GenericOp fused;
  if (stack) {
    maps[*shared] = withGroupLoop(maps[*shared]);
    maps[join->weight] = readingGroupLoop(maps[join->weight], join->wPosition);
    maps[2] = readingGroupLoop(maps[2], join->cPosition);
    fused = buildLike(rewriter, first, inputs, init, maps, /*groupLoop=*/true);
  } else {
    fused = buildLike(rewriter, first, inputs, init, maps);
  }
  SmallVector<Value> slices = slicesAlong(rewriter, loc, fused.getResult(0),
                                          join->cPosition, stack, resultTypes);
  replaceBySlices(rewriter, ops, slices);
  return fused;
}

namespace {
/// A slice that takes part of one dimension of its source and the whole of
/// every other: one index, dropping the dimension (`unit`, [.., i, ..]), or
/// a range of it, keeping the rank ([.., offset : offset + size, ..]).
struct SliceAlongOneDim {
  int64_t dim, offset, size;
  bool unit;
};
} // namespace

static std::optional<SliceAlongOneDim>
sliceAlongOneDim(tensor::ExtractSliceOp slice) {
  RankedTensorType source = slice.getSourceType();
  llvm::SmallBitVector dropped = slice.getDroppedDims();
  if (!source.hasStaticShape() || dropped.count() > 1 ||
      llvm::any_of(slice.getStaticStrides(),
                   [](int64_t stride) { return stride != 1; }) ||
      llvm::any_of(slice.getStaticOffsets(), ShapedType::isDynamic) ||
      llvm::any_of(slice.getStaticSizes(), ShapedType::isDynamic))
    return std::nullopt;
  std::optional<int64_t> dim;
  if (dropped.any())
    dim = dropped.find_first();
  for (int64_t i = 0, e = source.getRank(); i < e; ++i) {
    bool whole = slice.getStaticOffsets()[i] == 0 &&
                 slice.getStaticSizes()[i] == source.getDimSize(i);
    if (whole || i == dim)
      continue;
    if (dim)
      return std::nullopt;
    dim = i;
  }
  if (!dim)
    return std::nullopt;
  return SliceAlongOneDim{*dim, slice.getStaticOffsets()[*dim],
                          slice.getStaticSizes()[*dim], dropped.any()};
}

namespace {
/// Elementwise linalg.generics that each read one slice of the same tensor
/// along one dimension, the slices covering it, and otherwise the same
/// values or constants, into one generic over the whole tensor; each old
/// result is a slice of the new one. Unit slices [.., i, ..] (one per index;
/// the generics alike) add a loop over i and stack the constants that
/// differ; ranges [.., o : o + n, ..] (one after the other; the generics
/// alike but for the extent of the loop that walks that dimension)
/// lengthen that loop and concatenate the constants along it. With
/// `sources`, only slices of those tensors, to which it adds its results.
struct MergeSlicedElementwise : OpRewritePattern<linalg::GenericOp> {
  MergeSlicedElementwise(MLIRContext *context, llvm::DenseSet<Value> *sources)
      : OpRewritePattern(context), sources(sources) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        op.hasDynamicShape() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
      std::optional<SliceAlongOneDim> part =
          slice && (!sources || sources->contains(slice.getSource()))
              ? sliceAlongOneDim(slice)
              : std::nullopt;
      if (!part)
        continue;
      // The loop that walks the sliced dimension (ranges), or the one
      // after it (unit slices: the group loop goes before it).
      AffineMap map = op.getMatchingIndexingMap(operand);
      if (part->dim >= map.getNumResults() ||
          !isa<AffineDimExpr>(map.getResult(part->dim)))
        continue;
      AffineExpr anchor = map.getResult(part->dim);
      SmallVector<linalg::GenericOp> siblings = slicedSiblings(
          op, slice.getSource(), *part, operand->getOperandNumber(),
          cast<AffineDimExpr>(anchor).getPosition());
      if (siblings.empty())
        continue;
      FailureOr<Value> merged =
          merge(rewriter, siblings, operand->getOperandNumber(),
                slice.getSource(), part->dim, part->unit, anchor);
      if (failed(merged))
        return failure();
      if (sources)
        sources->insert(*merged);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "reads no slice of a tensor "
                                           "whose other slices feed its "
                                           "siblings");
  }

private:
  /// The generics like `op` that read the slices of `source` along
  /// `part.dim` (of `part`'s kind) as their operand `number`, in slice
  /// order; empty unless the slices cover `source` once, each read by one
  /// such generic. Ranges may differ in the extent of loop `anchorLoop`.
  static SmallVector<linalg::GenericOp>
  slicedSiblings(linalg::GenericOp op, Value source,
                 const SliceAlongOneDim &part, unsigned number,
                 unsigned anchorLoop) {
    SmallVector<std::pair<int64_t, linalg::GenericOp>> found;
    for (Operation *user : source.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      std::optional<SliceAlongOneDim> other =
          slice && slice.getSource() == source ? sliceAlongOneDim(slice)
                                               : std::nullopt;
      if (!other || other->dim != part.dim || other->unit != part.unit)
        continue;
      if (!slice->hasOneUse())
        return {};
      OpOperand &use = *slice->use_begin();
      auto sibling = dyn_cast<linalg::GenericOp>(use.getOwner());
      std::optional<unsigned> varying;
      if (!part.unit)
        varying = anchorLoop;
      if (!sibling || use.getOperandNumber() != number ||
          !sameComputation(op, sibling, varying))
        return {};
      found.push_back({other->offset, sibling});
    }
    // Offsets 0, 1, ... (unit) or each range where the last one ended.
    llvm::sort(found,
               [](const auto &a, const auto &b) { return a.first < b.first; });
    int64_t extent =
        cast<RankedTensorType>(source.getType()).getDimSize(part.dim);
    int64_t next = 0;
    SmallVector<linalg::GenericOp> siblings;
    for (auto [offset, sibling] : found) {
      if (offset != next)
        return {};
      next += part.unit
                  ? 1
                  : cast<RankedTensorType>(
                        sibling.getDpsInputOperand(number)->get().getType())
                        .getDimSize(part.dim);
      siblings.push_back(sibling);
    }
    if (next != extent || siblings.size() < 2)
      return {};
    return siblings;
  }

  /// The merged generic's result, or failure (nothing changed).
  static FailureOr<Value> merge(PatternRewriter &rewriter,
                                ArrayRef<linalg::GenericOp> siblings,
                                unsigned sliced, Value source, int64_t dim,
                                bool unit, AffineExpr anchor) {
    linalg::GenericOp first = siblings.front();
    AffineMap outMap = first.getMatchingIndexingMap(first.getDpsInitOperand(0));
    std::optional<int64_t> outPosition = resultPosition(outMap, anchor);
    if (!outPosition)
      return rewriter.notifyMatchFailure(first, "the output drops the loop "
                                                "that walks the slices");

    // Each input: the sliced one (the whole source), one value all read
    // (not along the lengthened loop), or constants joined at a position.
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<std::pair<DenseElementsAttr, unsigned>> joins;
    for (OpOperand *operand : first.getDpsInputOperands()) {
      unsigned number = operand->getOperandNumber();
      AffineMap map = first.getMatchingIndexingMap(operand);
      std::optional<int64_t> position = resultPosition(map, anchor);
      if (number == sliced) {
        inputs.push_back(source);
        maps.push_back(unit ? readingGroupLoop(map, dim) : map);
        continue;
      }
      if (llvm::all_of(siblings, [&](linalg::GenericOp op) {
            return op->getOperand(number) == operand->get();
          })) {
        if (!unit && position)
          return rewriter.notifyMatchFailure(
              first, "a shared input is read along the lengthened loop");
        inputs.push_back(operand->get());
        maps.push_back(unit ? withGroupLoop(map) : map);
        continue;
      }
      SmallVector<Attribute> parts;
      for (linalg::GenericOp op : siblings) {
        Attribute attr;
        if (!matchPattern(op->getOperand(number), m_Constant(&attr)))
          return rewriter.notifyMatchFailure(
              op, "an input differs and is not a constant");
        parts.push_back(attr);
      }
      if (!unit && !position)
        return rewriter.notifyMatchFailure(
            first, "a constant that differs is not read along the loop");
      int64_t at = position.value_or(0);
      DenseElementsAttr joined = joinConstants(parts, at, unit);
      if (!joined)
        return rewriter.notifyMatchFailure(
            first, "an input is not a dense constant of byte-sized elements");
      joins.push_back({joined, inputs.size()});
      inputs.push_back(Value());
      maps.push_back(unit ? readingGroupLoop(map, at) : map);
    }
    maps.push_back(unit ? readingGroupLoop(outMap, *outPosition) : outMap);
    SmallVector<RankedTensorType> resultTypes;
    for (linalg::GenericOp op : siblings)
      resultTypes.push_back(cast<RankedTensorType>(op.getResult(0).getType()));
    RankedTensorType fusedType = joinedType(resultTypes, *outPosition, unit);
    if (!fusedType)
      return rewriter.notifyMatchFailure(
          first, "results differ elsewhere than along the merged dimension");

    // The merged generic goes where the earliest sibling was.
    SmallVector<Operation *> ops = llvm::map_to_vector(
        siblings, [](linalg::GenericOp op) { return op.getOperation(); });
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(earliest(ops));
    Location loc = first.getLoc();
    for (auto [joined, index] : joins)
      inputs[index] = arith::ConstantOp::create(rewriter, loc, joined);
    Value init = tensor::EmptyOp::create(rewriter, loc, fusedType.getShape(),
                                         fusedType.getElementType());
    linalg::GenericOp fused =
        buildLike(rewriter, first, inputs, init, maps, /*groupLoop=*/unit);
    SmallVector<Value> slices = slicesAlong(rewriter, loc, fused.getResult(0),
                                            *outPosition, unit, resultTypes);
    replaceBySlices(rewriter, ops, slices);
    return fused.getResult(0);
  }

  llvm::DenseSet<Value> *sources;
};
} // namespace

void mlir::opsnn::populateMergeSlicedElementwisePatterns(
    RewritePatternSet &patterns, llvm::DenseSet<Value> *sources) {
  patterns.add<MergeSlicedElementwise>(patterns.getContext(), sources);
}

/// Whether `op` may join a group: a contraction of two static tensors into
/// a filled one, one of its inputs a constant.
static bool isCandidate(linalg::LinalgOp op) {
  if (!isGemmLike(op) || !initFillValue(op))
    return false;
  return llvm::any_of(op.getDpsInputOperands(), [](OpOperand *operand) {
    return matchPattern(operand->get(), m_Constant());
  });
}

namespace {
struct FuseSiblingContractionsPass
    : opsnn::impl::FuseSiblingContractionsPassBase<
          FuseSiblingContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> candidates;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (isCandidate(op))
        candidates.push_back(op);
    });
    // Groups of siblings: the candidates that read the first one's
    // non-constant input and compute as it does.
    IRRewriter rewriter(&getContext());
    llvm::DenseSet<Operation *> grouped;
    // The fused results: only their slices' consumers merge (an ONNX
    // Split's parts are left as they are).
    llvm::DenseSet<Value> fusedResults;
    for (linalg::LinalgOp op : candidates) {
      if (grouped.contains(op))
        continue;
      SmallVector<linalg::LinalgOp> group = {op};
      for (linalg::LinalgOp other : candidates) {
        if (other == op || grouped.contains(other))
          continue;
        std::optional<unsigned> shared = sharedInputOf(op, other);
        std::optional<JoinLoop> join =
            shared ? joinLoopOf(op, *shared) : std::nullopt;
        if (join && sameComputation(op, other, join->loop))
          group.push_back(other);
      }
      if (group.size() < 2)
        continue;
      for (linalg::LinalgOp member : group)
        grouped.insert(member);
      FailureOr<linalg::GenericOp> fused =
          fuseSiblingContractions(rewriter, group);
      if (succeeded(fused))
        fusedResults.insert(fused->getResult(0));
      else
        LLVM_DEBUG(llvm::dbgs() << "siblings at " << op.getLoc()
                                << " left apart\n");
    }
    if (!mergeConsumers || fusedResults.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateMergeSlicedElementwisePatterns(patterns, &fusedResults);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
