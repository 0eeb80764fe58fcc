//===- LayoutTransformOpInterface.cpp - Ops ALTE can re-lay out -----------===//
//
// The generated interface definitions and the shared helpers of
// opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.cpp.inc"

LayoutAttr mlir::opsnn::layout::getChannelsFirstLayout(MLIRContext *context,
                                                       int64_t rank) {
  switch (rank) {
  case 3:
    return LayoutAttr::get(context, "NCW");
  case 4:
    return LayoutAttr::get(context, "NCHW");
  case 5:
    return LayoutAttr::get(context, "NCDHW");
  default:
    return {};
  }
}

LayoutAttr mlir::opsnn::layout::getChannelsLastLayout(MLIRContext *context,
                                                      int64_t rank) {
  switch (rank) {
  case 3:
    return LayoutAttr::get(context, "NWC");
  case 4:
    return LayoutAttr::get(context, "NHWC");
  case 5:
    return LayoutAttr::get(context, "NDHWC");
  default:
    return {};
  }
}

bool mlir::opsnn::layout::isChannelsLast(LayoutAttr layout) {
  return !layout.isBlocked() && !layout.getPermutation().empty() &&
         layout.getDimLetter(layout.getPermutation().back()) == 'C';
}

RankedTensorType mlir::opsnn::layout::getConvertedType(RankedTensorType type,
                                                       LayoutAttr from,
                                                       LayoutAttr to) {
  return type.clone(to.physicalShape(from.logicalShape(type.getShape())));
}

Value mlir::opsnn::layout::createConvert(OpBuilder &builder, Location loc,
                                         Value value, LayoutAttr from,
                                         LayoutAttr to) {
  if (from == to)
    return value;
  // Undo a conversion instead of stacking its inverse on it.
  if (auto producer = value.getDefiningOp<ConvertOp>())
    if (producer.getSrcLayout() == to && producer.getDstLayout() == from)
      return producer.getInput();
  auto type = cast<RankedTensorType>(value.getType());
  return ConvertOp::create(builder, loc, getConvertedType(type, from, to),
                           value, from, to);
}

bool mlir::opsnn::layout::isPermutationBetween(LayoutAttr from,
                                               LayoutAttr to) {
  return from && to && !from.isBlocked() && !to.isBlocked() &&
         from.getLogicalDims() == to.getLogicalDims();
}

SmallVector<int64_t>
mlir::opsnn::layout::getRelativePermutation(LayoutAttr from, LayoutAttr to) {
  assert(isPermutationBetween(from, to) &&
         "expected unblocked layouts of the same logical dimensions");
  SmallVector<int64_t> inverseFrom = invertPermutationVector(
      SmallVector<int64_t>(from.getPermutation()));
  SmallVector<int64_t> permutation;
  for (int64_t logical : to.getPermutation())
    permutation.push_back(inverseFrom[logical]);
  return permutation;
}

LayoutAttr mlir::opsnn::layout::getAgnosticComputeLayout(
    Operation *op, int64_t rank, Value firstActivation) {
  auto matchesRank = [&](LayoutAttr layout) {
    return layout && layout.getLogicalRank() == rank;
  };
  if (auto attr = op->getAttrOfType<LayoutAttr>(kComputeLayoutAttrName);
      matchesRank(attr))
    return attr;
  if (Operation *producer = firstActivation.getDefiningOp()) {
    if (auto convert = dyn_cast<ConvertOp>(producer))
      if (matchesRank(convert.getDstLayout()))
        return convert.getDstLayout();
    // Recurses through chains of layout-agnostic producers up to the nearest
    // op that knows its layout (SSA values have no cycles within a block).
    if (auto iface = dyn_cast<LayoutTransformOpInterface>(producer))
      if (iface.isActivationResult(
              cast<OpResult>(firstActivation).getResultNumber()))
        if (LayoutAttr layout = iface.getComputeLayout(); matchesRank(layout))
          return layout;
  }
  return getChannelsFirstLayout(op->getContext(), rank);
}

SmallVector<LayoutAttr>
mlir::opsnn::layout::getAgnosticCandidates(LayoutAttr current) {
  if (!current)
    return {};
  MLIRContext *context = current.getContext();
  int64_t rank = current.getLogicalRank();
  SmallVector<LayoutAttr> candidates = {current};
  for (LayoutAttr layout : {getChannelsFirstLayout(context, rank),
                            getChannelsLastLayout(context, rank)})
    if (layout && layout.getLogicalDims() == current.getLogicalDims() &&
        !llvm::is_contained(candidates, layout))
      candidates.push_back(layout);
  return candidates;
}

bool mlir::opsnn::layout::isFreeToConvert(Value value) {
  if (matchPattern(value, m_Constant()))
    return true;
  Operation *producer = value.getDefiningOp();
  if (isa_and_present<tensor::EmptyOp>(producer))
    return true;
  if (auto fill = dyn_cast_if_present<linalg::FillOp>(producer))
    return static_cast<bool>(
        fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>());
  return false;
}
