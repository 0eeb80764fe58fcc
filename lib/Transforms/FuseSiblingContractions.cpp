//===- FuseSiblingContractions.cpp - One GEMM for GEMMs that share A ------===//
//
// --opsnn-fuse-sibling-contractions: contractions that read the same input
// with constant weights of one shape (a Transformer's Q, K and V
// projections) become one contraction over the weights stacked along a new
// parallel dimension next to N: one kernel reads the shared input once and
// computes an N three times as wide. Each old result is a unit slice of the
// new one. The elementwise consumers of those slices that do the same thing
// to each (the projections' bias adds and casts) merge the same way, so that
// the tensor-core kernel still absorbs them as its epilogue.
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

/// `parts` (one type, byte-sized elements) stacked along a new dimension
/// at `dim`: part i is the slice [.., i, ..] of the result. Null if a part
/// is not a DenseElementsAttr of such elements.
static DenseElementsAttr stackConstants(ArrayRef<Attribute> parts,
                                        int64_t dim) {
  auto first = dyn_cast<DenseElementsAttr>(parts.front());
  if (!first)
    return nullptr;
  auto type = cast<RankedTensorType>(first.getType());
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return nullptr;
  SmallVector<int64_t> shape(type.getShape());
  shape.insert(shape.begin() + dim, int64_t(parts.size()));
  auto stacked = RankedTensorType::get(shape, element);
  if (llvm::all_equal(parts) && first.isSplat())
    return first.resizeSplat(stacked);

  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  int64_t outer = 1, inner = elementBytes;
  for (auto [i, size] : llvm::enumerate(type.getShape()))
    (int64_t(i) < dim ? outer : inner) *= size;
  std::vector<char> data(outer * inner * parts.size());
  for (auto [i, part] : llvm::enumerate(parts)) {
    auto dense = dyn_cast<DenseElementsAttr>(part);
    if (!dense || dense.getType() != type)
      return nullptr;
    ArrayRef<char> raw = dense.getRawData();
    for (int64_t o = 0; o < outer; ++o) {
      char *to = data.data() + (o * parts.size() + i) * inner;
      if (dense.isSplat()) {
        for (int64_t e = 0; e < inner; e += elementBytes)
          std::memcpy(to + e, raw.data(), elementBytes);
      } else {
        std::memcpy(to, raw.data() + o * inner, inner);
      }
    }
  }
  return DenseElementsAttr::getFromRawBuffer(stacked, data);
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

/// The unit slices [.., i, ..] (i = 0 .. size-1) of `fused` along `dim`,
/// each of type `type` (`fused`'s without `dim`).
static SmallVector<Value> unitSlices(RewriterBase &rewriter, Location loc,
                                     Value fused, int64_t dim,
                                     RankedTensorType type) {
  auto fusedType = cast<RankedTensorType>(fused.getType());
  SmallVector<OpFoldResult> offsets(fusedType.getRank(),
                                    rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(fusedType.getRank(),
                                           rewriter.getIndexAttr(1));
  for (int64_t size : fusedType.getShape())
    sizes.push_back(rewriter.getIndexAttr(size));
  sizes[dim] = rewriter.getIndexAttr(1);
  SmallVector<Value> slices;
  for (int64_t i = 0, e = fusedType.getDimSize(dim); i < e; ++i) {
    offsets[dim] = rewriter.getIndexAttr(i);
    slices.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, type, fused, offsets, sizes, strides));
  }
  return slices;
}

/// A linalg.generic like `like` (its payload and discardable attributes)
/// with one more loop, parallel and last: `maps` and `operands` as given.
static linalg::GenericOp
buildWithGroupLoop(RewriterBase &rewriter, linalg::LinalgOp like,
                   ValueRange inputs, Value init, ArrayRef<AffineMap> maps) {
  SmallVector<utils::IteratorType> iterators = like.getIteratorTypesArray();
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

/// Whether `a` and `b` apply the same payload to operands of the same types
/// through the same maps and loops, and lower alike.
static bool sameComputation(linalg::LinalgOp a, linalg::LinalgOp b) {
  return a->getName() == b->getName() && a->getBlock() == b->getBlock() &&
         loweringAttrs(a) == loweringAttrs(b) &&
         a->getOperandTypes() == b->getOperandTypes() &&
         a->getResultTypes() == b->getResultTypes() &&
         a.getIndexingMapsArray() == b.getIndexingMapsArray() &&
         a.getIteratorTypesArray() == b.getIteratorTypesArray() &&
         OperationEquivalence::isRegionEquivalentTo(
             &a->getRegion(0), &b->getRegion(0),
             OperationEquivalence::IgnoreLocations);
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
  // The shared input and the constant one.
  std::optional<unsigned> sharedInput = sharedInputOf(first, siblings[1]);
  if (!sharedInput)
    return reject("siblings do not share an input");
  unsigned shared = *sharedInput, weight = 1 - shared;
  SmallVector<Attribute> weights;
  Value fillValue = initFillValue(first);
  if (!fillValue)
    return reject("the init is not a fill");
  for (linalg::LinalgOp op : siblings) {
    if (op != first && !sameComputation(first, op))
      return reject("siblings compute differently");
    if (op.getDpsInputOperand(shared)->get() !=
        first.getDpsInputOperand(shared)->get())
      return reject("siblings do not share an input");
    Attribute attr;
    if (!matchPattern(op.getDpsInputOperand(weight)->get(), m_Constant(&attr)))
      return reject("a sibling's other input is not a constant");
    weights.push_back(attr);
    if (initFillValue(op) != fillValue)
      return reject("siblings' inits are not fills of one value");
  }

  // The new loop goes next to the weights' side of C (N, or M when the
  // weights are the first input): before the first dimension of C that the
  // weights index and the shared input does not, and before that dimension
  // in the weights.
  AffineMap cMap = first.getMatchingIndexingMap(first.getDpsInitOperand(0));
  AffineMap wMap =
      first.getMatchingIndexingMap(first.getDpsInputOperand(weight));
  AffineMap sMap =
      first.getMatchingIndexingMap(first.getDpsInputOperand(shared));
  auto weightSide = [&](AffineExpr expr) {
    return isa<AffineDimExpr>(expr) && resultPosition(wMap, expr) &&
           !resultPosition(sMap, expr);
  };
  auto cResults = cMap.getResults();
  int64_t cPosition = llvm::find_if(cResults, weightSide) - cResults.begin();
  if (cPosition == int64_t(cResults.size()))
    return reject("no dimension of the result comes from the weights alone");
  int64_t wPosition = *resultPosition(wMap, cResults[cPosition]);
  DenseElementsAttr stacked = stackConstants(weights, wPosition);
  if (!stacked)
    return reject("weights are not dense constants of byte-sized elements");

  // Siblings in program order; the fused op goes where the first one was.
  SmallVector<linalg::LinalgOp> ordered(siblings);
  llvm::sort(ordered, [](linalg::LinalgOp a, linalg::LinalgOp b) {
    return a->isBeforeInBlock(b);
  });
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(ordered.front());
  Location loc = first.getLoc();
  auto resultType = cast<RankedTensorType>(first->getResult(0).getType());
  SmallVector<int64_t> shape(resultType.getShape());
  shape.insert(shape.begin() + cPosition, int64_t(siblings.size()));
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape,
                                        resultType.getElementType());
  Value init = linalg::FillOp::create(rewriter, loc, fillValue, empty)
                   .getResult(0);
  Value weightsValue = arith::ConstantOp::create(rewriter, loc, stacked);
  SmallVector<Value> inputs(2);
  inputs[shared] = first.getDpsInputOperand(shared)->get();
  inputs[weight] = weightsValue;
  SmallVector<AffineMap> maps = first.getIndexingMapsArray();
  maps[shared] = withGroupLoop(maps[shared]);
  maps[weight] = readingGroupLoop(maps[weight], wPosition);
  maps[2] = readingGroupLoop(maps[2], cPosition);
  linalg::GenericOp fused =
      buildWithGroupLoop(rewriter, first, inputs, init, maps);
  SmallVector<Value> slices =
      unitSlices(rewriter, loc, fused.getResult(0), cPosition, resultType);
  for (auto [sibling, slice] : llvm::zip(siblings, slices)) {
    linalg::LinalgOp op = sibling;
    Value oldInit = op.getDpsInitOperand(0)->get();
    Value oldWeights = op.getDpsInputOperand(weight)->get();
    rewriter.replaceOp(op, slice);
    eraseDeadProducers(rewriter, oldInit);
    eraseDeadProducers(rewriter, oldWeights);
  }
  return fused;
}

/// The dimension `slice` takes one index of, if it takes the whole of every
/// other dimension and drops that one (rank-reducing): [.., i, ..].
static std::optional<int64_t> unitSliceDim(tensor::ExtractSliceOp slice) {
  auto source = slice.getSourceType();
  if (!source.hasStaticShape() || slice.getDroppedDims().count() != 1)
    return std::nullopt;
  int64_t dim = slice.getDroppedDims().find_first();
  for (int64_t i = 0, e = source.getRank(); i < e; ++i) {
    if (slice.getStaticStrides()[i] != 1)
      return std::nullopt;
    if (i == dim)
      continue;
    if (slice.getStaticOffsets()[i] != 0 ||
        slice.getStaticSizes()[i] != source.getDimSize(i))
      return std::nullopt;
  }
  if (ShapedType::isDynamic(slice.getStaticOffsets()[dim]))
    return std::nullopt;
  return dim;
}

namespace {
/// Elementwise linalg.generics that each read one unit slice [.., i, ..] of
/// the same tensor, for every i, and otherwise the same values or constants
/// of one type, into one generic over the whole tensor (a loop more, the
/// constants stacked); each old result is a unit slice of the new one.
struct MergeSlicedElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
        op.getNumLoops() != op.getNumParallelLoops() ||
        op.hasDynamicShape() ||
        op.payloadUsesValueFromOperand(op.getDpsInitOperand(0)))
      return rewriter.notifyMatchFailure(op, "not elementwise on tensors");
    // The first input that is a unit slice of a tensor whose other unit
    // slices along that dimension each feed a generic like this one.
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto slice = operand->get().getDefiningOp<tensor::ExtractSliceOp>();
      std::optional<int64_t> dim = slice ? unitSliceDim(slice) : std::nullopt;
      if (!dim)
        continue;
      SmallVector<linalg::GenericOp> siblings =
          slicedSiblings(op, slice.getSource(), *dim,
                         operand->getOperandNumber());
      if (siblings.empty())
        continue;
      return merge(rewriter, siblings, operand->getOperandNumber(),
                   slice.getSource(), *dim);
    }
    return rewriter.notifyMatchFailure(op, "reads no unit slice of a tensor "
                                           "whose other slices feed its "
                                           "siblings");
  }

private:
  /// The generics like `op` that read slice i of `source` along `dim` as
  /// their operand `number`, in slice order; empty if some slice has none.
  static SmallVector<linalg::GenericOp>
  slicedSiblings(linalg::GenericOp op, Value source, int64_t dim,
                 unsigned number) {
    int64_t count = cast<RankedTensorType>(source.getType()).getDimSize(dim);
    SmallVector<linalg::GenericOp> siblings(count);
    for (Operation *user : source.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || slice.getSource() != source || unitSliceDim(slice) != dim)
        continue;
      int64_t index = slice.getStaticOffsets()[dim];
      if (index < 0 || index >= count || !slice->hasOneUse())
        return {};
      OpOperand &use = *slice->use_begin();
      auto sibling = dyn_cast<linalg::GenericOp>(use.getOwner());
      if (!sibling || use.getOperandNumber() != number || siblings[index] ||
          !sameComputation(op, sibling))
        return {};
      siblings[index] = sibling;
    }
    if (llvm::is_contained(siblings, linalg::GenericOp()))
      return {};
    return siblings;
  }

  static LogicalResult merge(PatternRewriter &rewriter,
                             ArrayRef<linalg::GenericOp> siblings,
                             unsigned sliced, Value source, int64_t dim) {
    linalg::GenericOp first = siblings.front();
    // The loop that walks the dimension after the sliced one: the group
    // loop goes before it in the output and in every stacked input.
    AffineMap slicedMap = first.getIndexingMapsArray()[sliced];
    if (dim >= slicedMap.getNumResults() ||
        !isa<AffineDimExpr>(slicedMap.getResult(dim)))
      return rewriter.notifyMatchFailure(
          first, "the slices drop the innermost dimension or are read at an "
                 "expression");
    AffineExpr anchor = slicedMap.getResult(dim);
    AffineMap outMap = first.getMatchingIndexingMap(first.getDpsInitOperand(0));
    std::optional<int64_t> outPosition = resultPosition(outMap, anchor);
    if (!outPosition)
      return rewriter.notifyMatchFailure(first, "the output drops the loop "
                                                "after the sliced dimension");

    // Each input: the sliced one (the whole source), one value all read,
    // or constants stacked at a position (null: not stacked).
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<std::pair<DenseElementsAttr, unsigned>> stacks;
    for (OpOperand *operand : first.getDpsInputOperands()) {
      unsigned number = operand->getOperandNumber();
      AffineMap map = first.getMatchingIndexingMap(operand);
      if (number == sliced) {
        inputs.push_back(source);
        maps.push_back(readingGroupLoop(map, dim));
        continue;
      }
      if (llvm::all_of(siblings, [&](linalg::GenericOp op) {
            return op->getOperand(number) == operand->get();
          })) {
        inputs.push_back(operand->get());
        maps.push_back(withGroupLoop(map));
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
      int64_t position = resultPosition(map, anchor).value_or(0);
      DenseElementsAttr stacked = stackConstants(parts, position);
      if (!stacked)
        return rewriter.notifyMatchFailure(
            first, "an input is not a dense constant of byte-sized elements");
      stacks.push_back({stacked, inputs.size()});
      inputs.push_back(Value());
      maps.push_back(readingGroupLoop(map, position));
    }
    maps.push_back(readingGroupLoop(outMap, *outPosition));

    // The fused generic goes where the earliest sibling was.
    linalg::GenericOp earliest = first;
    for (linalg::GenericOp op : siblings)
      if (op->isBeforeInBlock(earliest))
        earliest = op;
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(earliest);
    Location loc = first.getLoc();
    for (auto [stacked, index] : stacks)
      inputs[index] = arith::ConstantOp::create(rewriter, loc, stacked);
    auto resultType = cast<RankedTensorType>(first.getResult(0).getType());
    SmallVector<int64_t> shape(resultType.getShape());
    shape.insert(shape.begin() + *outPosition, int64_t(siblings.size()));
    Value init = tensor::EmptyOp::create(rewriter, loc, shape,
                                         resultType.getElementType());
    linalg::GenericOp fused =
        buildWithGroupLoop(rewriter, first, inputs, init, maps);
    SmallVector<Value> slices =
        unitSlices(rewriter, loc, fused.getResult(0), *outPosition, resultType);
    for (auto [op, slice] : llvm::zip(siblings, slices)) {
      SmallVector<Value> operands(op->getOperands());
      rewriter.replaceOp(op, slice);
      for (Value operand : operands)
        eraseDeadProducers(rewriter, operand);
    }
    return success();
  }
};
} // namespace

void mlir::opsnn::populateMergeSlicedElementwisePatterns(
    RewritePatternSet &patterns) {
  patterns.add<MergeSlicedElementwise>(patterns.getContext());
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
    for (linalg::LinalgOp op : candidates) {
      if (grouped.contains(op))
        continue;
      SmallVector<linalg::LinalgOp> group = {op};
      for (linalg::LinalgOp other : candidates)
        if (other != op && !grouped.contains(other) &&
            sameComputation(op, other) && sharedInputOf(op, other))
          group.push_back(other);
      if (group.size() < 2)
        continue;
      for (linalg::LinalgOp member : group)
        grouped.insert(member);
      if (failed(fuseSiblingContractions(rewriter, group)))
        LLVM_DEBUG(llvm::dbgs() << "siblings at " << op.getLoc()
                                << " left apart\n");
    }
    if (!mergeConsumers)
      return;
    RewritePatternSet patterns(&getContext());
    populateMergeSlicedElementwisePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
