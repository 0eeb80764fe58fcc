//===- LayoutTransformOpInterface.cpp - Ops ALTE can re-lay out -----------===//
//
// The generated interface definitions and the shared helpers of
// opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"

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

SmallVector<int64_t>
mlir::opsnn::layout::getRelativePermutation(LayoutAttr from, LayoutAttr to) {
  assert(!from.isBlocked() && !to.isBlocked() &&
         from.getLogicalDims() == to.getLogicalDims() &&
         "expected unblocked layouts of the same logical dimensions");
  SmallVector<int64_t> inverseFrom = invertPermutationVector(
      SmallVector<int64_t>(from.getPermutation()));
  SmallVector<int64_t> permutation;
  for (int64_t logical : to.getPermutation())
    permutation.push_back(inverseFrom[logical]);
  return permutation;
}

LayoutAttr mlir::opsnn::layout::inferComputeLayout(Value activation,
                                                   int64_t rank) {
  auto matchesRank = [&](LayoutAttr layout) {
    return layout && layout.getLogicalRank() == rank;
  };
  if (Operation *producer = activation.getDefiningOp()) {
    if (auto convert = dyn_cast<ConvertOp>(producer))
      if (matchesRank(convert.getDstLayout()))
        return convert.getDstLayout();
    // Recurses through chains of layout-agnostic producers up to the nearest
    // op that knows its layout (SSA values have no cycles within a block).
    if (auto iface = dyn_cast<LayoutTransformOpInterface>(producer))
      if (iface.isActivationResult(cast<OpResult>(activation).getResultNumber()))
        if (LayoutAttr layout = iface.getComputeLayout(); matchesRank(layout))
          return layout;
  }
  return getChannelsFirstLayout(activation.getContext(), rank);
}
