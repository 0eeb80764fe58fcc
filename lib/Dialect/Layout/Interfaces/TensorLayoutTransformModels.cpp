//===- TensorLayoutTransformModels.cpp - ALTE model of tensor.pad ---------===//
//
// tensor.pad of an activation (the explicit padding in front of a
// convolution) computes in any layout: the rewrite permutes its low and high
// padding. Pads whose padding value is not a constant stay as they are.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformModels.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

namespace {
struct PadOpLayoutModel
    : LayoutTransformOpInterface::ExternalModel<PadOpLayoutModel,
                                                tensor::PadOp> {
  LayoutAttr getComputeLayout(Operation *op) const {
    auto pad = cast<tensor::PadOp>(op);
    int64_t rank = pad.getSourceType().getRank();
    if (rank < 3 || rank > 5 || !pad.getConstantPaddingValue())
      return {};
    return getAgnosticComputeLayout(op, rank, pad.getSource());
  }

  SmallVector<LayoutAttr> getLayoutCandidates(Operation *op) const {
    return getAgnosticCandidates(getComputeLayout(op));
  }

  // Operand 0 is the source; the others are dynamic padding sizes.
  bool isActivationOperand(Operation *, unsigned operandNumber) const {
    return operandNumber == 0;
  }
  bool isActivationResult(Operation *, unsigned) const { return true; }

  FailureOr<Operation *> rewriteInLayout(Operation *op, RewriterBase &rewriter,
                                         LayoutAttr layout) const {
    auto pad = cast<tensor::PadOp>(op);
    LayoutAttr current = getComputeLayout(op);
    Value paddingValue = pad.getConstantPaddingValue();
    if (!paddingValue || !isPermutationBetween(current, layout))
      return rewriter.notifyMatchFailure(op, "not an unblocked candidate");
    SmallVector<int64_t> relative = getRelativePermutation(current, layout);
    Location loc = op->getLoc();
    rewriter.setInsertionPoint(op);
    Value source = createConvert(rewriter, loc, pad.getSource(), current,
                                 layout);
    auto resultType = getConvertedType(pad.getResultType(), current, layout);
    auto newPad = tensor::PadOp::create(
        rewriter, loc, resultType, source,
        applyPermutation(pad.getMixedLowPad(), relative),
        applyPermutation(pad.getMixedHighPad(), relative), paddingValue,
        pad.getNofold());
    for (NamedAttribute attr : op->getDiscardableAttrs())
      newPad->setAttr(attr.getName(), attr.getValue());
    newPad->setAttr(kComputeLayoutAttrName, layout);
    rewriter.replaceOp(op, createConvert(rewriter, loc, newPad.getResult(),
                                         layout, current));
    return newPad.getOperation();
  }
};
} // namespace

void mlir::opsnn::layout::registerTensorLayoutTransformModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::PadOp::attachInterface<PadOpLayoutModel>(*context);
  });
}
