//===- PropagateLayouts.cpp - Push, cancel, hoist and fold conversions ----===//
//
// --opsnn-propagate-layouts, in three phases:
//  1. push conversions through layout-agnostic ops when that removes more
//     conversions than it adds (with the cleanup patterns, pairs cancel);
//  2. move conversions of arguments to the top of the function and merge
//     duplicates; hoist loop-invariant conversions out of loops;
//  3. fold the remaining transposing conversions into the indexing maps of
//     the linalg.generic that reads or writes them, and operand transposes
//     into linalg.matmul's maps (zero copy); transposed constant matmul
//     operands are transposed at compile time instead.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_PROPAGATELAYOUTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using layout::ConvertOp;
using layout::LayoutAttr;
using layout::LayoutTransformOpInterface;

using layout::isFreeToConvert;

/// Whether a conversion of `value` folds into the generic computing it
/// (FoldConversionIntoProducerGeneric: the generic writes the converted
/// layout itself, no copy): `value` is that generic's result read once,
/// whose init is free to convert and not read by the payload.
static bool foldsIntoProducerGeneric(Value value) {
  auto result = dyn_cast<OpResult>(value);
  auto generic = dyn_cast_if_present<linalg::GenericOp>(
      result ? result.getOwner() : nullptr);
  if (!generic || !generic.hasPureTensorSemantics() || !result.hasOneUse())
    return false;
  OpOperand *init = generic.getDpsInitOperand(result.getResultNumber());
  return isFreeToConvert(init->get()) &&
         generic.getMatchingBlockArgument(init).use_empty();
}

namespace {
/// Conversions that disappear minus conversions that appear, then (to
/// break ties) the bytes they convert: moving a conversion from a pad's or
/// a broadcast's result to its input converts less.
struct Gain {
  int conversions = 0;
  int64_t bytes = 0;
  bool operator>(const Gain &other) const {
    return std::tie(conversions, bytes) >
           std::tie(other.conversions, other.bytes);
  }
  void add(int count, Value value) {
    conversions += count;
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (type && type.hasStaticShape() && type.getElementType().isIntOrFloat())
      bytes += count * type.getNumElements() *
               llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  }
};
} // namespace

/// The Gain of rewriting `iface` to compute in `layout` instead of
/// `current`. With `foldIntoGenerics`, a conversion that will fold into the
/// generic producing its input costs nothing (see foldsIntoProducerGeneric).
static Gain conversionsRemoved(LayoutTransformOpInterface iface,
                               LayoutAttr current, LayoutAttr layout,
                               bool foldIntoGenerics) {
  bool zeroCopy =
      foldIntoGenerics && !current.isBlocked() && !layout.isBlocked();
  // A conversion of a value that is free to convert, or that the generic
  // computing it absorbs, costs nothing, added or removed.
  auto costsNothing = [&](Value value) {
    return isFreeToConvert(value) ||
           (zeroCopy && foldsIntoProducerGeneric(value));
  };
  Operation *op = iface.getOperation();
  Gain gain;
  llvm::SmallDenseSet<Value> seen;
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (!iface.isActivationOperand(operand.getOperandNumber()) ||
        !seen.insert(value).second)
      continue;
    auto convert = value.getDefiningOp<ConvertOp>();
    if (convert && convert.getSrcLayout() == layout &&
        convert.getDstLayout() == current) {
      // The pair cancels.
      if (value.hasOneUse() && !costsNothing(convert.getInput()))
        gain.add(1, value);
    } else if (!costsNothing(value)) {
      gain.add(-1, value);
    }
  }
  for (OpResult result : op->getResults()) {
    if (!iface.isActivationResult(result.getResultNumber()) ||
        result.use_empty())
      continue;
    bool allCancel = llvm::all_of(result.getUsers(), [&](Operation *user) {
      auto convert = dyn_cast<ConvertOp>(user);
      return convert && convert.getSrcLayout() == current &&
             convert.getDstLayout() == layout;
    });
    if (allCancel)
      gain.add(std::distance(result.getUsers().begin(),
                             result.getUsers().end()),
               result);
    else
      gain.add(-1, result);
  }
  return gain;
}

FailureOr<Operation *>
mlir::opsnn::pushConversionsThrough(RewriterBase &rewriter,
                                    LayoutTransformOpInterface iface,
                                    bool foldIntoGenerics) {
  Operation *op = iface.getOperation();
  SmallVector<LayoutAttr> candidates = iface.getLayoutCandidates();
  if (candidates.size() < 2)
    return rewriter.notifyMatchFailure(op, "no other layout");
  LayoutAttr current = candidates.front();

  std::optional<LayoutAttr> best;
  Gain bestGain;
  for (LayoutAttr layout : ArrayRef(candidates).drop_front()) {
    Gain gain = conversionsRemoved(iface, current, layout, foldIntoGenerics);
    if (gain > bestGain) {
      best = layout;
      bestGain = gain;
    }
  }
  if (!best)
    return rewriter.notifyMatchFailure(op, "no layout removes conversions");
  FailureOr<Operation *> newOp = iface.rewriteInLayout(rewriter, *best);
  if (failed(newOp))
    return failure();
  // Cancel the pairs the rewrite created with the conversions after the op
  // now, so that the op is not seen between two cancelling pairs and
  // rewritten back.
  for (OpResult result : (*newOp)->getResults())
    for (Operation *user : llvm::make_early_inc_range(result.getUsers())) {
      auto back = dyn_cast<ConvertOp>(user);
      if (!back)
        continue;
      for (Operation *next : llvm::make_early_inc_range(back->getUsers()))
        if (auto forth = dyn_cast<ConvertOp>(next))
          if (forth.getSrcLayout() == back.getDstLayout() &&
              forth.getDstLayout() == back.getSrcLayout() &&
              forth.getType() == result.getType())
            rewriter.replaceOp(forth, result);
      if (back->use_empty())
        rewriter.eraseOp(back);
    }
  return newOp;
}

namespace {
/// Rewrites a layout-agnostic op (anything but convolutions, contractions
/// and pooling, whose layout the cost model chose) into the layout of the
/// conversions around it when fewer conversions remain afterwards.
struct PushConversionsThroughAgnosticOp
    : OpInterfaceRewritePattern<LayoutTransformOpInterface> {
  PushConversionsThroughAgnosticOp(MLIRContext *context, bool foldIntoGenerics)
      : OpInterfaceRewritePattern(context),
        foldIntoGenerics(foldIntoGenerics) {}

  LogicalResult matchAndRewrite(LayoutTransformOpInterface iface,
                                PatternRewriter &rewriter) const override {
    Operation *op = iface.getOperation();
    OpClass opClass = computeOpFingerprint(op).opClass;
    if (opClass == OpClass::Convolution || opClass == OpClass::Contraction ||
        opClass == OpClass::Pooling)
      return rewriter.notifyMatchFailure(op, "layout chosen by the cost model");
    return pushConversionsThrough(rewriter, iface, foldIntoGenerics);
  }

  bool foldIntoGenerics;
};

/// Records the layout a generic computes in before a fold changes what its
/// operands look like (the layout is otherwise inferred from them).
static void pinComputeLayout(linalg::GenericOp op, RewriterBase &rewriter) {
  if (op->hasAttr(layout::kComputeLayoutAttrName))
    return;
  auto iface = dyn_cast<LayoutTransformOpInterface>(op.getOperation());
  if (!iface)
    return;
  if (LayoutAttr current = iface.getComputeLayout())
    rewriter.modifyOpInPlace(
        op, [&] { op->setAttr(layout::kComputeLayoutAttrName, current); });
}

/// generic(convert(x)) ==> generic(x) reading x through a permuted map.
struct FoldConversionIntoConsumerGeneric
    : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto convert = operand->get().getDefiningOp<ConvertOp>();
      if (!convert || convert.getSrcLayout().isBlocked() ||
          convert.getDstLayout().isBlocked())
        continue;
      // Result dim i of the conversion is source dim perm[i]: the source's
      // dim j is what the map's result perm^-1[j] indexes.
      SmallVector<int64_t> inverse = invertPermutationVector(
          layout::getRelativePermutation(convert.getSrcLayout(),
                                         convert.getDstLayout()));
      AffineMap map = op.getMatchingIndexingMap(operand);
      AffineMap newMap =
          AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                         applyPermutation(map.getResults(), inverse),
                         op.getContext());
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps[operand->getOperandNumber()] = newMap;
      pinComputeLayout(op, rewriter);
      rewriter.modifyOpInPlace(op, [&] {
        operand->set(convert.getInput());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no transposing conversion read");
  }
};

/// convert(generic(...)) ==> generic writing the converted layout directly
/// (its init converted: free when it is an empty or filled tensor).
struct FoldConversionIntoProducerGeneric : OpRewritePattern<ConvertOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertOp convert,
                                PatternRewriter &rewriter) const override {
    if (!foldsIntoProducerGeneric(convert.getInput()))
      return rewriter.notifyMatchFailure(
          convert, "not a generic's only use, or its init is read");
    if (convert.getSrcLayout().isBlocked() ||
        convert.getDstLayout().isBlocked())
      return rewriter.notifyMatchFailure(convert, "blocked layout");
    auto result = cast<OpResult>(convert.getInput());
    auto generic = cast<linalg::GenericOp>(result.getOwner());
    OpOperand *init = generic.getDpsInitOperand(result.getResultNumber());
    SmallVector<int64_t> permutation = layout::getRelativePermutation(
        convert.getSrcLayout(), convert.getDstLayout());
    Location loc = convert.getLoc();
    pinComputeLayout(generic, rewriter);
    rewriter.setInsertionPoint(generic);
    Value newInit =
        ConvertOp::create(rewriter, loc, convert.getType(), init->get(),
                          convert.getSrcLayout(), convert.getDstLayout());
    AffineMap map = generic.getMatchingIndexingMap(init);
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    maps[init->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                       applyPermutation(map.getResults(), permutation),
                       generic.getContext());
    rewriter.modifyOpInPlace(generic, [&] {
      init->set(newInit);
      generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      result.setType(convert.getType());
    });
    rewriter.replaceOp(convert, result);
    return success();
  }
};

/// The input of a 2-D transpose feeding `value` (a linalg.transpose with
/// permutation [1, 0], or an unblocked 2-D layout.convert between two
/// different layouts), or null.
static Value getTransposeInput(Value value) {
  if (auto transpose = value.getDefiningOp<linalg::TransposeOp>())
    if (transpose.hasPureTensorSemantics() &&
        transpose.getPermutation() == ArrayRef<int64_t>{1, 0})
      return transpose.getInput();
  if (auto convert = value.getDefiningOp<ConvertOp>())
    if (convert.getType().getRank() == 2 &&
        !convert.getSrcLayout().isBlocked() &&
        !convert.getDstLayout().isBlocked() &&
        convert.getSrcLayout() != convert.getDstLayout())
      return convert.getInput();
  return {};
}

/// `map` with its two results swapped: the same operand read transposed.
static AffineMap transposeResults(AffineMap map) {
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                        {map.getResult(1), map.getResult(0)},
                        map.getContext());
}

/// Rebuilds `op` with `inputs` and `maps`, keeping its other attributes.
static void replaceMatmul(linalg::MatmulOp op, ValueRange inputs,
                          ArrayRef<AffineMap> maps, PatternRewriter &rewriter) {
  SmallVector<NamedAttribute> attributes;
  for (NamedAttribute attr : op->getAttrs())
    if (attr.getName() != "operandSegmentSizes" &&
        attr.getName() != "indexing_maps" &&
        attr.getName() != "linalg.memoized_indexing_maps")
      attributes.push_back(attr);
  attributes.push_back(rewriter.getNamedAttr(
      "indexing_maps", rewriter.getAffineMapArrayAttr(maps)));
  rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
      op, op->getResultTypes(), inputs, op.getDpsInits(), attributes);
}

/// matmul(transpose(x), ...) ==> matmul reading x through a transposed
/// map: the operand transpose costs no copy (zero copy), unless x is a
/// constant, which FoldConstantMatmulOperandTranspose handles instead.
struct FoldTransposeIntoMatmul : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      Value source = getTransposeInput(inputs[i]);
      if (!source || matchPattern(source, m_Constant()))
        continue;
      inputs[i] = source;
      maps[i] = transposeResults(maps[i]);
      changed = true;
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "no transposed operand");
    replaceMatmul(op, inputs, maps, rewriter);
    return success();
  }
};

/// A constant matmul operand read through a transposed map (the weight of
/// `x @ W^T`) is transposed at compile time instead, and read through the
/// plain map: contiguous along the lanes, no run-time cost.
struct FoldConstantMatmulOperandTranspose
    : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    SmallVector<AffineMap> plain = op.getDefaultIndexingMaps(op.getContext());
    bool changed = false;
    for (unsigned i = 0; i < inputs.size(); ++i) {
      if (!matchPattern(inputs[i], m_Constant()) ||
          plain[i].getNumResults() != 2 ||
          maps[i] != transposeResults(plain[i]))
        continue;
      auto type = cast<RankedTensorType>(inputs[i].getType());
      MLIRContext *context = op.getContext();
      inputs[i] = ConvertOp::create(
          rewriter, op.getLoc(),
          type.clone({type.getDimSize(1), type.getDimSize(0)}), inputs[i],
          LayoutAttr::get(context, "MK"), LayoutAttr::get(context, "KM"));
      maps[i] = plain[i];
      changed = true;
    }
    if (!changed)
      return rewriter.notifyMatchFailure(op, "no transposed constant");
    replaceMatmul(op, inputs, maps, rewriter);
    return success();
  }
};

struct PropagateLayoutsPass
    : opsnn::impl::PropagateLayoutsPassBase<PropagateLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *context = &getContext();

    RewritePatternSet push(context);
    populateLayoutConversionCleanupPatterns(push);
    populatePropagateLayoutsPatterns(push, foldIntoGenerics);
    // Not converging within the driver's iterations leaves valid IR.
    (void)applyPatternsGreedily(func, std::move(push));

    // Conversions of arguments run first, once per call, whatever region
    // they were in; duplicates merge into them.
    if (!func.isExternal()) {
      Block &entry = func.getBody().front();
      Operation *insertionPoint = nullptr;
      func.walk([&](ConvertOp op) {
        auto argument = dyn_cast<BlockArgument>(op.getInput());
        if (!argument || argument.getOwner() != &entry)
          return;
        if (insertionPoint)
          op->moveAfter(insertionPoint);
        else
          op->moveBefore(&entry, entry.begin());
        insertionPoint = op;
      });
    }
    mergeDuplicateConversions(func);

    func.walk([&](LoopLikeOpInterface loop) {
      moveLoopInvariantCode(
          loop.getLoopRegions(),
          [&](Value value, Region *) {
            return loop.isDefinedOutsideOfLoop(value);
          },
          [&](Operation *op, Region *) {
            return isa<ConvertOp, tensor::EmptyOp>(op);
          },
          [&](Operation *op, Region *) { loop.moveOutOfLoop(op); });
    });

    if (foldIntoGenerics) {
      RewritePatternSet fold(context);
      populateLayoutConversionCleanupPatterns(fold);
      fold.add<FoldConversionIntoConsumerGeneric,
               FoldConversionIntoProducerGeneric, FoldTransposeIntoMatmul,
               FoldConstantMatmulOperandTranspose>(context);
      // Not converging within the driver's iterations leaves valid IR.
      (void)applyPatternsGreedily(func, std::move(fold));
    }
    func.walk([&](ConvertOp) { ++numConversions; });
  }
};
} // namespace

void mlir::opsnn::populatePropagateLayoutsPatterns(RewritePatternSet &patterns,
                                                   bool foldIntoGenerics) {
  patterns.add<PushConversionsThroughAgnosticOp>(patterns.getContext(),
                                                 foldIntoGenerics);
}
