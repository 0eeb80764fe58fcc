//===- LinalgLayoutTransformModels.cpp - ALTE models of linalg ops --------===//
//
// LayoutTransformOpInterface for linalg:
//  - named convolutions and pooling, as families of named ops that differ
//    only in layout (conv_2d_nchw_fchw <-> conv_2d_nhwc_hwcf, ...);
//  - linalg.generic: any generic over activations of rank 3-5 (elementwise,
//    broadcasts, reductions, batch norm as lowered), by permuting its
//    indexing maps and its loops;
//  - linalg.softmax, by moving its dimension; linalg.reduce, by moving its
//    reduced dimensions.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformModels.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

//===----------------------------------------------------------------------===//
// Named convolutions and pooling
//===----------------------------------------------------------------------===//

namespace {
using NamedOpBuilder = Operation *(*)(OpBuilder &, Location, TypeRange,
                                      ValueRange, ValueRange,
                                      ArrayRef<NamedAttribute>);

template <typename OpTy>
Operation *buildNamedOp(OpBuilder &b, Location loc, TypeRange resultTypes,
                        ValueRange inputs, ValueRange outputs,
                        ArrayRef<NamedAttribute> attributes) {
  return OpTy::create(b, loc, resultTypes, inputs, outputs, attributes)
      .getOperation();
}

/// One member of a family of named ops that compute the same thing in
/// different layouts: its activation layout (input and output) and the
/// layout of its second input (the filter; empty for a pooling window,
/// which has no layout).
struct NamedLayoutVariant {
  StringRef opName;
  StringRef activation;
  StringRef weight;
  NamedOpBuilder build;
};

// Families; within one, the first variant of each activation layout is the
// one a rewrite into that layout creates (nhwc_hwcf rather than nhwc_fhwc:
// the CPU pipeline decomposes and vectorizes it, and the filter's output
// channels are then innermost, which is what lanes walk in NHWC).
// Upstream has no channels-first 3-D pooling, so pooling_ndhwc_* is not in
// a family.
const NamedLayoutVariant kConv1D[] = {
    {"linalg.conv_1d_ncw_fcw", "NCW", "FCW", buildNamedOp<linalg::Conv1DNcwFcwOp>},
    {"linalg.conv_1d_nwc_wcf", "NWC", "WCF", buildNamedOp<linalg::Conv1DNwcWcfOp>},
};
const NamedLayoutVariant kConv2D[] = {
    {"linalg.conv_2d_nchw_fchw", "NCHW", "FCHW", buildNamedOp<linalg::Conv2DNchwFchwOp>},
    {"linalg.conv_2d_nhwc_hwcf", "NHWC", "HWCF", buildNamedOp<linalg::Conv2DNhwcHwcfOp>},
    {"linalg.conv_2d_nhwc_fhwc", "NHWC", "FHWC", buildNamedOp<linalg::Conv2DNhwcFhwcOp>},
};
const NamedLayoutVariant kConv3D[] = {
    {"linalg.conv_3d_ncdhw_fcdhw", "NCDHW", "FCDHW", buildNamedOp<linalg::Conv3DNcdhwFcdhwOp>},
    {"linalg.conv_3d_ndhwc_dhwcf", "NDHWC", "DHWCF", buildNamedOp<linalg::Conv3DNdhwcDhwcfOp>},
};
// Grouped: the output [N, G, F, H, W] is labelled like the input, as the
// next layer sees it.
const NamedLayoutVariant kGrouped2D[] = {
    {"linalg.conv_2d_ngchw_gfchw", "NGCHW", "GFCHW", buildNamedOp<linalg::Conv2DNgchwGfchwOp>},
    {"linalg.conv_2d_nhwgc_gfhwc", "NHWGC", "GFHWC", buildNamedOp<linalg::Conv2DNhwgcGfhwcOp>},
    {"linalg.conv_2d_ngchw_fgchw", "NGCHW", "FGCHW", buildNamedOp<linalg::Conv2DNgchwFgchwOp>},
};
const NamedLayoutVariant kDepthwise2D[] = {
    {"linalg.depthwise_conv_2d_nchw_chw", "NCHW", "CHW", buildNamedOp<linalg::DepthwiseConv2DNchwChwOp>},
    {"linalg.depthwise_conv_2d_nhwc_hwc", "NHWC", "HWC", buildNamedOp<linalg::DepthwiseConv2DNhwcHwcOp>},
};
const NamedLayoutVariant kDepthwise1D[] = {
    {"linalg.depthwise_conv_1d_ncw_cw", "NCW", "CW", buildNamedOp<linalg::DepthwiseConv1DNcwCwOp>},
    {"linalg.depthwise_conv_1d_nwc_wc", "NWC", "WC", buildNamedOp<linalg::DepthwiseConv1DNwcWcOp>},
};
const NamedLayoutVariant kPoolMax2D[] = {
    {"linalg.pooling_nchw_max", "NCHW", "", buildNamedOp<linalg::PoolingNchwMaxOp>},
    {"linalg.pooling_nhwc_max", "NHWC", "", buildNamedOp<linalg::PoolingNhwcMaxOp>},
};
const NamedLayoutVariant kPoolSum2D[] = {
    {"linalg.pooling_nchw_sum", "NCHW", "", buildNamedOp<linalg::PoolingNchwSumOp>},
    {"linalg.pooling_nhwc_sum", "NHWC", "", buildNamedOp<linalg::PoolingNhwcSumOp>},
};
const NamedLayoutVariant kPoolMax1D[] = {
    {"linalg.pooling_ncw_max", "NCW", "", buildNamedOp<linalg::PoolingNcwMaxOp>},
    {"linalg.pooling_nwc_max", "NWC", "", buildNamedOp<linalg::PoolingNwcMaxOp>},
};
const NamedLayoutVariant kPoolSum1D[] = {
    {"linalg.pooling_ncw_sum", "NCW", "", buildNamedOp<linalg::PoolingNcwSumOp>},
    {"linalg.pooling_nwc_sum", "NWC", "", buildNamedOp<linalg::PoolingNwcSumOp>},
};

const ArrayRef<NamedLayoutVariant> kFamilies[] = {
    kConv1D,      kConv2D,    kConv3D,    kGrouped2D, kDepthwise2D, kDepthwise1D,
    kPoolMax2D,   kPoolSum2D, kPoolMax1D, kPoolSum1D,
};

/// The family of `name` and the op's own entry in it.
std::pair<ArrayRef<NamedLayoutVariant>, const NamedLayoutVariant *>
lookupVariant(StringRef name) {
  for (ArrayRef<NamedLayoutVariant> family : kFamilies)
    for (const NamedLayoutVariant &variant : family)
      if (variant.opName == name)
        return {family, &variant};
  llvm_unreachable("model attached to an op outside every family");
}

template <typename OpTy>
struct NamedOpLayoutModel
    : LayoutTransformOpInterface::ExternalModel<NamedOpLayoutModel<OpTy>,
                                                OpTy> {
  LayoutAttr getComputeLayout(Operation *op) const {
    return LayoutAttr::get(op->getContext(),
                           lookupVariant(op->getName().getStringRef())
                               .second->activation);
  }

  SmallVector<LayoutAttr> getLayoutCandidates(Operation *op) const {
    auto [family, self] = lookupVariant(op->getName().getStringRef());
    SmallVector<LayoutAttr> candidates = {
        LayoutAttr::get(op->getContext(), self->activation)};
    for (const NamedLayoutVariant &variant : family) {
      LayoutAttr layout = LayoutAttr::get(op->getContext(), variant.activation);
      if (!llvm::is_contained(candidates, layout))
        candidates.push_back(layout);
    }
    return candidates;
  }

  // Operand 0 is the image, operand 2 the accumulator; operand 1 the filter
  // or the pooling window.
  bool isActivationOperand(Operation *, unsigned operandNumber) const {
    return operandNumber != 1;
  }
  bool isActivationResult(Operation *, unsigned) const { return true; }

  FailureOr<Operation *> rewriteInLayout(Operation *op, RewriterBase &rewriter,
                                         LayoutAttr layout) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!linalgOp.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    auto [family, self] = lookupVariant(op->getName().getStringRef());
    const NamedLayoutVariant *target = nullptr;
    for (const NamedLayoutVariant &variant : family)
      if (variant.activation == layout.getName()) {
        target = &variant;
        break;
      }
    if (!target)
      return rewriter.notifyMatchFailure(op, "no variant in that layout");

    MLIRContext *context = op->getContext();
    LayoutAttr current = LayoutAttr::get(context, self->activation);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value image = createConvert(rewriter, loc, op->getOperand(0), current,
                                layout);
    Value second = op->getOperand(1);
    if (!self->weight.empty())
      second = createConvert(rewriter, loc, second,
                             LayoutAttr::get(context, self->weight),
                             LayoutAttr::get(context, target->weight));
    Value init = createConvert(rewriter, loc, op->getOperand(2), current,
                               layout);
    SmallVector<NamedAttribute> attributes;
    for (NamedAttribute attr : op->getAttrs())
      if (attr.getName() != "operandSegmentSizes" &&
          attr.getName() != "linalg.memoized_indexing_maps")
        attributes.push_back(attr);
    Operation *newOp = target->build(rewriter, loc, TypeRange{init.getType()},
                                     ValueRange{image, second},
                                     ValueRange{init}, attributes);
    rewriter.replaceOp(op, createConvert(rewriter, loc, newOp->getResult(0),
                                         layout, current));
    return newOp;
  }
};

//===----------------------------------------------------------------------===//
// linalg.generic
//===----------------------------------------------------------------------===//

/// The rank of the generic's activations: the highest tensor rank among its
/// operands when it is 3, 4 or 5; 0 when the generic has none.
int64_t getActivationRank(linalg::GenericOp op) {
  int64_t rank = 0;
  for (Type type : op->getOperandTypes())
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      rank = std::max(rank, tensor.getRank());
  return rank >= 3 && rank <= 5 ? rank : 0;
}

struct GenericOpLayoutModel
    : LayoutTransformOpInterface::ExternalModel<GenericOpLayoutModel,
                                                linalg::GenericOp> {
  static bool isActivation(linalg::GenericOp op, Value value) {
    int64_t rank = getActivationRank(op);
    auto type = dyn_cast<RankedTensorType>(value.getType());
    return rank != 0 && type && type.getRank() == rank;
  }

  LayoutAttr getComputeLayout(Operation *op) const {
    auto generic = cast<linalg::GenericOp>(op);
    int64_t rank = getActivationRank(generic);
    if (rank == 0)
      return {};
    for (Value operand : op->getOperands())
      if (isActivation(generic, operand))
        return getAgnosticComputeLayout(op, rank, operand);
    return {};
  }

  SmallVector<LayoutAttr> getLayoutCandidates(Operation *op) const {
    return getAgnosticCandidates(getComputeLayout(op));
  }

  bool isActivationOperand(Operation *op, unsigned operandNumber) const {
    auto generic = cast<linalg::GenericOp>(op);
    return isActivation(generic, op->getOperand(operandNumber));
  }
  bool isActivationResult(Operation *op, unsigned resultNumber) const {
    auto generic = cast<linalg::GenericOp>(op);
    return isActivation(generic, op->getResult(resultNumber));
  }

  FailureOr<Operation *> rewriteInLayout(Operation *op, RewriterBase &rewriter,
                                         LayoutAttr layout) const {
    auto generic = cast<linalg::GenericOp>(op);
    if (!generic.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    LayoutAttr current = getComputeLayout(op);
    if (!isPermutationBetween(current, layout))
      return rewriter.notifyMatchFailure(op, "not an unblocked candidate");
    SmallVector<int64_t> relative = getRelativePermutation(current, layout);

    // Operands in the new layout and their maps, still over the old loops.
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    SmallVector<Value> inputs, inits;
    SmallVector<AffineMap> maps;
    for (OpOperand &operand : op->getOpOperands()) {
      AffineMap map = generic.getMatchingIndexingMap(&operand);
      Value value = operand.get();
      if (isActivation(generic, value)) {
        value = createConvert(rewriter, loc, value, current, layout);
        map = AffineMap::get(map.getNumDims(), map.getNumSymbols(),
                             applyPermutation(map.getResults(), relative),
                             op->getContext());
      }
      (generic.isDpsInit(&operand) ? inits : inputs).push_back(value);
      maps.push_back(map);
    }

    // Reorder the loops so that the output's (or else the first input's)
    // innermost physical dimension is the innermost loop: new loop i is old
    // loop order[i].
    unsigned numLoops = generic.getNumLoops();
    SmallVector<int64_t> order = llvm::to_vector(llvm::seq<int64_t>(0, numLoops));
    auto asLoopPermutation = [&](AffineMap map) -> std::optional<SmallVector<int64_t>> {
      if (map.getNumResults() != numLoops || !map.isPermutation())
        return std::nullopt;
      SmallVector<int64_t> loops;
      for (AffineExpr expr : map.getResults())
        loops.push_back(cast<AffineDimExpr>(expr).getPosition());
      return loops;
    };
    SmallVector<unsigned> anchors;
    for (unsigned i = generic.getNumDpsInputs(); i < maps.size(); ++i)
      anchors.push_back(i);
    for (unsigned i = 0; i < generic.getNumDpsInputs(); ++i)
      anchors.push_back(i);
    for (unsigned i : anchors)
      if (isActivation(generic, op->getOperand(i)))
        if (auto loops = asLoopPermutation(maps[i])) {
          order = *loops;
          break;
        }
    SmallVector<int64_t> position = invertPermutationVector(order);
    SmallVector<AffineExpr> replacements;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      replacements.push_back(rewriter.getAffineDimExpr(position[loop]));
    for (AffineMap &map : maps)
      map = map.replaceDimsAndSymbols(replacements, {}, numLoops,
                                      map.getNumSymbols());
    SmallVector<utils::IteratorType> iterators =
        applyPermutation(generic.getIteratorTypesArray(), order);

    SmallVector<Type> resultTypes;
    for (Value init : inits)
      resultTypes.push_back(init.getType());
    auto newOp = linalg::GenericOp::create(rewriter, loc, resultTypes, inputs,
                                           inits, maps, iterators);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setAttr(attr.getName(), attr.getValue());
    newOp->setAttr(kComputeLayoutAttrName, layout);
    rewriter.inlineRegionBefore(generic.getRegion(), newOp.getRegion(),
                                newOp.getRegion().end());
    newOp.getRegion().walk([&](linalg::IndexOp index) {
      index.setDim(position[index.getDim()]);
    });

    SmallVector<Value> results;
    for (auto [oldResult, newResult] :
         llvm::zip(op->getResults(), newOp->getResults()))
      results.push_back(isActivation(generic, oldResult)
                            ? createConvert(rewriter, loc, newResult, layout,
                                            current)
                            : Value(newResult));
    rewriter.replaceOp(op, results);
    return newOp.getOperation();
  }
};

//===----------------------------------------------------------------------===//
// linalg.softmax
//===----------------------------------------------------------------------===//

struct SoftmaxOpLayoutModel
    : LayoutTransformOpInterface::ExternalModel<SoftmaxOpLayoutModel,
                                                linalg::SoftmaxOp> {
  static int64_t getRank(Operation *op) {
    return cast<linalg::SoftmaxOp>(op).getInputOperandType().getRank();
  }

  LayoutAttr getComputeLayout(Operation *op) const {
    int64_t rank = getRank(op);
    if (rank < 3 || rank > 5)
      return {};
    return getAgnosticComputeLayout(op, rank, op->getOperand(0));
  }
  SmallVector<LayoutAttr> getLayoutCandidates(Operation *op) const {
    return getAgnosticCandidates(getComputeLayout(op));
  }
  bool isActivationOperand(Operation *, unsigned) const { return true; }
  bool isActivationResult(Operation *, unsigned) const { return true; }

  FailureOr<Operation *> rewriteInLayout(Operation *op, RewriterBase &rewriter,
                                         LayoutAttr layout) const {
    auto softmax = cast<linalg::SoftmaxOp>(op);
    if (!softmax.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "expected tensor semantics");
    LayoutAttr current = getComputeLayout(op);
    if (!isPermutationBetween(current, layout))
      return rewriter.notifyMatchFailure(op, "not an unblocked candidate");
    SmallVector<int64_t> relative = getRelativePermutation(current, layout);
    int64_t dimension =
        llvm::find(relative, static_cast<int64_t>(softmax.getDimension())) -
        relative.begin();
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value input = createConvert(rewriter, loc, softmax.getInput(), current,
                                layout);
    Value output = createConvert(rewriter, loc, softmax.getOutput(), current,
                                 layout);
    auto newOp = linalg::SoftmaxOp::create(rewriter, loc,
                                           TypeRange{output.getType()}, input,
                                           output, dimension);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newOp->setAttr(attr.getName(), attr.getValue());
    newOp->setAttr(kComputeLayoutAttrName, layout);
    rewriter.replaceOp(op, createConvert(rewriter, loc, newOp.getResult()[0],
                                         layout, current));
    return newOp.getOperation();
  }
};

//===----------------------------------------------------------------------===//
// linalg.reduce
//===----------------------------------------------------------------------===//

/// linalg.reduce over an activation: the reduced dimensions move with the
/// layout. Only when the kept dimensions stay in the same order (reducing
/// the channels, or all the spatial dimensions, of NCHW <-> NHWC): the
/// result, which is not an activation, must not change.
struct ReduceOpLayoutModel
    : LayoutTransformOpInterface::ExternalModel<ReduceOpLayoutModel,
                                                linalg::ReduceOp> {
  static int64_t getRank(Operation *op) {
    auto reduce = cast<linalg::ReduceOp>(op);
    if (reduce.getInputs().size() != 1)
      return 0;
    int64_t rank =
        cast<ShapedType>(reduce.getInputs()[0].getType()).getRank();
    return rank >= 3 && rank <= 5 ? rank : 0;
  }

  /// The reduced dimensions in `layout`, when the kept ones keep their
  /// order.
  static std::optional<SmallVector<int64_t>>
  getDimensionsIn(linalg::ReduceOp reduce, LayoutAttr current,
                  LayoutAttr layout) {
    SmallVector<int64_t> relative = getRelativePermutation(current, layout);
    SmallVector<int64_t> dims, keptOld, keptNew;
    ArrayRef<int64_t> reduced = reduce.getDimensions();
    for (auto [newDim, oldDim] : llvm::enumerate(relative)) {
      if (llvm::is_contained(reduced, oldDim))
        dims.push_back(newDim);
      else
        keptNew.push_back(oldDim);
    }
    for (int64_t d = 0; d < static_cast<int64_t>(relative.size()); ++d)
      if (!llvm::is_contained(reduced, d))
        keptOld.push_back(d);
    if (keptOld != keptNew)
      return std::nullopt;
    return dims;
  }

  LayoutAttr getComputeLayout(Operation *op) const {
    int64_t rank = getRank(op);
    if (rank == 0)
      return {};
    return getAgnosticComputeLayout(op, rank, op->getOperand(0));
  }
  SmallVector<LayoutAttr> getLayoutCandidates(Operation *op) const {
    LayoutAttr current = getComputeLayout(op);
    SmallVector<LayoutAttr> candidates;
    for (LayoutAttr layout : getAgnosticCandidates(current))
      if (layout == current ||
          getDimensionsIn(cast<linalg::ReduceOp>(op), current, layout))
        candidates.push_back(layout);
    return candidates;
  }
  bool isActivationOperand(Operation *, unsigned operandNumber) const {
    return operandNumber == 0;
  }
  bool isActivationResult(Operation *, unsigned) const { return false; }

  FailureOr<Operation *> rewriteInLayout(Operation *op, RewriterBase &rewriter,
                                         LayoutAttr layout) const {
    auto reduce = cast<linalg::ReduceOp>(op);
    LayoutAttr current = getComputeLayout(op);
    if (!reduce.hasPureTensorSemantics() ||
        !isPermutationBetween(current, layout))
      return rewriter.notifyMatchFailure(op, "not an unblocked candidate");
    std::optional<SmallVector<int64_t>> dims =
        getDimensionsIn(reduce, current, layout);
    if (!dims)
      return rewriter.notifyMatchFailure(op, "kept dimensions would move");
    rewriter.setInsertionPoint(op);
    Value input = createConvert(rewriter, op->getLoc(), reduce.getInputs()[0],
                                current, layout);
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(0, input);
      reduce.setDimensions(*dims);
      op->setAttr(kComputeLayoutAttrName, layout);
    });
    return op;
  }
};

template <typename... OpTys>
void attachNamedModels(MLIRContext *context) {
  (OpTys::template attachInterface<NamedOpLayoutModel<OpTys>>(*context), ...);
}
} // namespace

void mlir::opsnn::layout::registerLinalgLayoutTransformModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    attachNamedModels<
        linalg::Conv1DNcwFcwOp, linalg::Conv1DNwcWcfOp, linalg::Conv2DNchwFchwOp,
        linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp,
        linalg::Conv3DNcdhwFcdhwOp, linalg::Conv3DNdhwcDhwcfOp,
        linalg::Conv2DNgchwGfchwOp, linalg::Conv2DNhwgcGfhwcOp,
        linalg::Conv2DNgchwFgchwOp,
        linalg::DepthwiseConv2DNchwChwOp, linalg::DepthwiseConv2DNhwcHwcOp,
        linalg::DepthwiseConv1DNcwCwOp, linalg::DepthwiseConv1DNwcWcOp,
        linalg::PoolingNchwMaxOp, linalg::PoolingNhwcMaxOp,
        linalg::PoolingNchwSumOp, linalg::PoolingNhwcSumOp,
        linalg::PoolingNcwMaxOp, linalg::PoolingNwcMaxOp,
        linalg::PoolingNcwSumOp, linalg::PoolingNwcSumOp>(context);
    linalg::GenericOp::attachInterface<GenericOpLayoutModel>(*context);
    linalg::SoftmaxOp::attachInterface<SoftmaxOpLayoutModel>(*context);
    linalg::ReduceOp::attachInterface<ReduceOpLayoutModel>(*context);
  });
}
