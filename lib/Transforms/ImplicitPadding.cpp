//===- ImplicitPadding.cpp - Read padded operands through bounds checks ---===//
//
// --opsnn-implicit-padding: a linalg op that reads a constant-padded
// `tensor.pad` reads the pad's source instead, at the source position its
// indexing map gives less the low padding, and takes the padding value
// where that position is outside the source. The padded tensor is never
// built: on the GPU's generic path that is a fill kernel over the whole
// padded buffer and a copy kernel into its interior fewer, and one pass
// over the data less (what cuDNN calls implicit padding).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_IMPLICITPADDINGPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// Ops the tensor-core kernel takes, which fold a zero padding into their
/// own copies (`--opsnn-gpu-tensor-core-matmul` matches the pad's fill and
/// copy after bufferization).
static bool isTensorCoreCandidate(linalg::LinalgOp op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(op) ||
         linalg::isaContractionOpInterface(op);
}

namespace {
/// Whether `op` reads `input` transposed: through a permutation of its
/// loops other than its first output's (a layout conversion, which
/// --opsnn-gpu-tiled-transpose stages through shared memory when it reads
/// an operand, not a load in its payload).
bool readsTransposed(linalg::LinalgOp op, OpOperand *input) {
  AffineMap map = op.getMatchingIndexingMap(input);
  return op.getNumDpsInits() > 0 && map.isPermutation() &&
         map != op.getMatchingIndexingMap(op.getDpsInitOperand(0));
}

/// Whether `pad` adds elements before or after dimension `d`.
bool isPaddedDim(tensor::PadOp pad, int64_t d) {
  return !isConstantIntValue(pad.getMixedLowPad()[d], 0) ||
         !isConstantIntValue(pad.getMixedHighPad()[d], 0);
}

/// Whether every dimension `pad` pads has a static, non-zero size in its
/// source: the clamped read then always has an element to read (a source
/// empty along a padded dimension has none, and its size may be known only
/// at run time).
bool padsOnlyNonEmptyStaticDims(tensor::PadOp pad) {
  RankedTensorType source = pad.getSourceType();
  for (int64_t d = 0, e = source.getRank(); d < e; ++d)
    if (isPaddedDim(pad, d) &&
        (source.isDynamicDim(d) || source.getDimSize(d) == 0))
      return false;
  return true;
}

/// The first input of `op` that is a `tensor.pad` with a constant padding
/// value, of padded dimensions with static non-zero sizes, and that `op`
/// does not read transposed, or null.
OpOperand *findPaddedInput(linalg::LinalgOp op) {
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto pad = input->get().getDefiningOp<tensor::PadOp>();
    if (pad && pad.getConstantPaddingValue() &&
        padsOnlyNonEmptyStaticDims(pad) && !readsTransposed(op, input))
      return input;
  }
  return nullptr;
}

/// linalg.generic(..., pad(%src, low, high, %v), ...) {payload(%p, ...)}
///   -> linalg.generic(..., ...) {
///        pos_d = map_d(linalg.index...) - low_d
///        in = AND over padded d of 0 <= pos_d < dim(%src, d)
///        %p = select(in, tensor.extract %src[clamp(pos, 0, dim - 1)], %v)
///        payload(%p, ...)}
struct ReadPadSourceInPayload : OpInterfaceRewritePattern<linalg::LinalgOp> {
  ReadPadSourceInPayload(MLIRContext *context, bool keepTensorCoreOps)
      : OpInterfaceRewritePattern(context),
        keepTensorCoreOps(keepTensorCoreOps) {}

  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (keepTensorCoreOps && isTensorCoreCandidate(op))
      return rewriter.notifyMatchFailure(
          op, "the tensor-core kernel folds the padding itself");
    OpOperand *padded = findPaddedInput(op);
    if (!padded)
      return rewriter.notifyMatchFailure(op, "no constant-padded input");
    unsigned inputIndex = padded->getOperandNumber();
    AffineMap map = op.getMatchingIndexingMap(padded);
    auto pad = padded->get().getDefiningOp<tensor::PadOp>();

    linalg::GenericOp generic;
    if (auto existing = dyn_cast<linalg::GenericOp>(op.getOperation())) {
      generic = existing;
    } else {
      FailureOr<linalg::GenericOp> generalized =
          linalg::generalizeNamedOp(rewriter, op);
      if (failed(generalized))
        return rewriter.notifyMatchFailure(op, "cannot be generalized");
      generic = *generalized;
    }

    // Outside the payload: the padded dimensions' low padding, as index
    // values (a dynamic one stays an SSA value).
    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(generic);
    Value source = pad.getSource();
    RankedTensorType sourceType = pad.getSourceType();
    SmallVector<int64_t> paddedDims;
    for (int64_t d = 0, e = sourceType.getRank(); d < e; ++d)
      if (isPaddedDim(pad, d))
        paddedDims.push_back(d);
    SmallVector<Value> lows(sourceType.getRank());
    for (int64_t d : paddedDims)
      lows[d] = getValueOrCreateConstantIndexOp(rewriter, loc,
                                                pad.getMixedLowPad()[d]);
    Value paddingValue = pad.getConstantPaddingValue();

    // In the payload: the source position, its bounds check and the read.
    // Positions outside the source read its nearest element in each padded
    // dimension (of static size: findPaddedInput): every load stays in
    // bounds, and the select discards it.
    Block &body = generic.getRegion().front();
    rewriter.setInsertionPointToStart(&body);
    Location payloadLoc = generic.getLoc();
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, payloadLoc, v);
    };
    SmallVector<Value> loopIndices;
    for (unsigned i = 0, e = generic.getNumLoops(); i < e; ++i)
      loopIndices.push_back(linalg::IndexOp::create(rewriter, payloadLoc, i));
    SmallVector<Value> positions =
        affine::expandAffineMap(rewriter, payloadLoc, map, loopIndices).value();
    Value zero = index(0);
    Value inBounds;
    for (int64_t d : paddedDims) {
      positions[d] =
          arith::SubIOp::create(rewriter, payloadLoc, positions[d], lows[d]);
      Value notBelow = arith::CmpIOp::create(
          rewriter, payloadLoc, arith::CmpIPredicate::sge, positions[d], zero);
      Value notAbove =
          arith::CmpIOp::create(rewriter, payloadLoc, arith::CmpIPredicate::slt,
                                positions[d], index(sourceType.getDimSize(d)));
      Value both =
          arith::AndIOp::create(rewriter, payloadLoc, notBelow, notAbove);
      inBounds =
          inBounds ? arith::AndIOp::create(rewriter, payloadLoc, inBounds, both)
                   : both;
    }
    for (int64_t d : paddedDims) {
      Value atLeastZero =
          arith::MaxSIOp::create(rewriter, payloadLoc, positions[d], zero);
      positions[d] =
          arith::MinSIOp::create(rewriter, payloadLoc, atLeastZero,
                                 index(sourceType.getDimSize(d) - 1));
    }
    Value element =
        tensor::ExtractOp::create(rewriter, payloadLoc, source, positions);
    if (paddingValue.getParentRegion() == &pad.getRegion()) {
      // A constant defined in the pad's body: one of its own here.
      paddingValue =
          rewriter.clone(*paddingValue.getDefiningOp())->getResult(0);
    }
    Value value = inBounds
                      ? arith::SelectOp::create(rewriter, payloadLoc, inBounds,
                                                element, paddingValue)
                      : element;

    // The padded operand goes: its block argument is the value read.
    rewriter.modifyOpInPlace(generic, [&] {
      body.getArgument(inputIndex).replaceAllUsesWith(value);
      body.eraseArgument(inputIndex);
      generic.getInputsMutable().erase(inputIndex);
      SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
      maps.erase(maps.begin() + inputIndex);
      generic.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }

  bool keepTensorCoreOps;
};

struct ImplicitPaddingPass
    : opsnn::impl::ImplicitPaddingPassBase<ImplicitPaddingPass> {
  using ImplicitPaddingPassBase::ImplicitPaddingPassBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ReadPadSourceInPayload>(&getContext(), keepTensorCoreOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
