//===- ConvertConvsToNHWC.cpp - NCHW convolutions onto tensor cores -------===//
//
// --opsnn-convert-convs-to-nhwc: an NCHW convolution whose types and shape
// fit the tensor-core kernel (an implicit GEMM over NHWC inputs, see
// TensorCoreConv.h) is rewritten into NHWC between layout conversions, by
// ALTE's own LayoutTransformOpInterface. This is what ALTE's cost model
// charges a channels-first convolution on tensor cores (the transposes
// cuDNN runs around an NHWC kernel); --opsnn-propagate-layouts afterwards
// cancels and folds what it can.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "TensorCoreMmaTypes.h"
#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_CONVERTCONVSTONHWCPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The input, filter and result types of convolution `op` on tensors, when
/// all three are static.
static std::optional<std::array<RankedTensorType, 3>>
getStaticConvTypes(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return std::nullopt;
  std::array<RankedTensorType, 3> types = {
      dyn_cast<RankedTensorType>(op.getDpsInputs()[0].getType()),
      dyn_cast<RankedTensorType>(op.getDpsInputs()[1].getType()),
      dyn_cast<RankedTensorType>(op->getResultTypes()[0])};
  if (llvm::any_of(types, [](RankedTensorType type) {
        return !type || !type.hasStaticShape();
      }))
    return std::nullopt;
  return types;
}

/// Whether the tensor-core kernel takes `op` once it is an NHWC
/// convolution: static shapes, tensor-core types, and C whole 16-byte
/// copies or F a multiple of 8 (then --opsnn-pad-conv-channels pads C).
static bool takesTensorCoresInNHWC(linalg::Conv2DNchwFchwOp op,
                                   bool allowTF32, const TensorCoreISA &isa) {
  std::optional<std::array<RankedTensorType, 3>> types = getStaticConvTypes(op);
  if (!types)
    return false;
  auto [input, filter, output] = *types;
  Type element = input.getElementType();
  if (!takesTensorCoreTypes(element, filter.getElementType(),
                            output.getElementType(),
                            allowTF32 || op->hasAttr(kTF32Attr), isa))
    return false;
  int64_t granule = copyElements(element.getIntOrFloatBitWidth() / 8);
  return input.getDimSize(1) % granule == 0 || output.getDimSize(1) % 8 == 0;
}

/// Copies `from`'s discardable attributes (precision decisions,
/// opsnn.tf32) to `to`, another kind of op: not the indexing maps linalg
/// memoizes there, which are `from`'s.
static void copyDiscardableAttrs(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs())
    if (attr.getName() != "linalg.memoized_indexing_maps")
      to->setAttr(attr.getName(), attr.getValue());
}

/// The HWCF convolution ALTE's rewrite built, with an FHWC filter instead:
/// an 8-bit (INT8, FP8) kernel copies an F x K filter by cp.async, but
/// transposes a K x F one into shared memory with plain loads and byte
/// stores (8-bit fragments have no ldmatrix.trans).
static void useFHWCFilter(RewriterBase &rewriter, linalg::Conv2DNhwcHwcfOp hwcf,
                          Value fchwFilter) {
  MLIRContext *ctx = rewriter.getContext();
  rewriter.setInsertionPoint(hwcf);
  Value filter = layout::createConvert(
      rewriter, hwcf.getLoc(), fchwFilter, layout::LayoutAttr::get(ctx, "FCHW"),
      layout::LayoutAttr::get(ctx, "FHWC"));
  auto fhwc = linalg::Conv2DNhwcFhwcOp::create(
      rewriter, hwcf.getLoc(), hwcf.getResultTypes(),
      ValueRange{hwcf.getInputs()[0], filter}, hwcf.getOutputs(),
      hwcf.getStrides(), hwcf.getDilations());
  copyDiscardableAttrs(hwcf, fhwc);
  Value hwcfFilter = hwcf.getInputs()[1];
  rewriter.replaceOp(hwcf, fhwc);
  if (auto convert = hwcfFilter.getDefiningOp<layout::ConvertOp>();
      convert && convert->use_empty())
    rewriter.eraseOp(convert);
}

/// Whether `op` is a depthwise convolution written as a grouped one (what
/// the importer emits for group = C: one input and one output channel per
/// group, between reshapes of the NCHW tensors), with static shapes.
static bool isGroupedDepthwise(linalg::Conv2DNgchwGfchwOp op) {
  std::optional<std::array<RankedTensorType, 3>> types = getStaticConvTypes(op);
  if (!types)
    return false;
  auto [input, filter, output] = *types;
  return input.getDimSize(2) == 1 && filter.getDimSize(1) == 1 &&
         filter.getDimSize(2) == 1 && output.getDimSize(2) == 1;
}

/// `op` (see isGroupedDepthwise) as a linalg.depthwise_conv_2d_nhwc_hwc
/// between layout conversions and the reshapes that drop the unit group
/// dimensions (they fold with the importer's): channels innermost, as the
/// generic GPU path wants next to NHWC neighbours, whose conversions then
/// cancel with these.
static void rewriteGroupedDepthwiseInNHWC(RewriterBase &rewriter,
                                          linalg::Conv2DNgchwGfchwOp op) {
  MLIRContext *ctx = rewriter.getContext();
  Location loc = op.getLoc();
  auto layoutOf = [&](StringRef name) {
    return layout::LayoutAttr::get(ctx, name);
  };
  // [N, G, 1, H, W] <-> [N, G, H, W]; [G, 1, 1, KH, KW] -> [G, KH, KW].
  SmallVector<ReassociationIndices> image = {{0}, {1, 2}, {3}, {4}};
  SmallVector<ReassociationIndices> window = {{0, 1, 2}, {3}, {4}};
  rewriter.setInsertionPoint(op);
  auto toNHWC = [&](Value grouped) {
    Value nchw = tensor::CollapseShapeOp::create(rewriter, loc, grouped, image);
    return layout::createConvert(rewriter, loc, nchw, layoutOf("NCHW"),
                                 layoutOf("NHWC"));
  };
  Value input = toNHWC(op.getInputs()[0]);
  Value init = toNHWC(op.getOutputs()[0]);
  Value filter = layout::createConvert(
      rewriter, loc,
      tensor::CollapseShapeOp::create(rewriter, loc, op.getInputs()[1], window),
      layoutOf("CHW"), layoutOf("HWC"));
  auto depthwise = linalg::DepthwiseConv2DNhwcHwcOp::create(
      rewriter, loc, TypeRange{init.getType()}, ValueRange{input, filter},
      ValueRange{init}, op.getStrides(), op.getDilations());
  copyDiscardableAttrs(op, depthwise);
  Value nchw = layout::createConvert(rewriter, loc, depthwise.getResult(0),
                                     layoutOf("NHWC"), layoutOf("NCHW"));
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
      op, op.getResultTypes()[0], nchw, image);
}

namespace {
struct ConvertConvsToNHWCPass
    : opsnn::impl::ConvertConvsToNHWCPassBase<ConvertConvsToNHWCPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<TensorCoreISA> isa =
        lookupTensorCoreISA(getOperation().getLoc(), targetName);
    if (failed(isa))
      return signalPassFailure();
    SmallVector<linalg::Conv2DNchwFchwOp> convs;
    getOperation().walk([&](linalg::Conv2DNchwFchwOp op) {
      if (takesTensorCoresInNHWC(op, allowTF32, *isa))
        convs.push_back(op);
    });
    auto nhwc = layout::LayoutAttr::get(&getContext(), "NHWC");
    IRRewriter rewriter(&getContext());
    for (linalg::Conv2DNchwFchwOp op : convs) {
      Value filter = op.getInputs()[1];
      bool byteOperands =
          hasByteOperands(getElementTypeOrSelf(filter.getType()));
      auto relayout = cast<layout::LayoutTransformOpInterface>(*op);
      FailureOr<Operation *> rewritten = relayout.rewriteInLayout(rewriter, nhwc);
      auto hwcf = succeeded(rewritten)
                      ? dyn_cast<linalg::Conv2DNhwcHwcfOp>(*rewritten)
                      : nullptr;
      if (!hwcf) {
        op.emitError("opsnn-convert-convs-to-nhwc: could not rewrite the "
                     "convolution into NHWC");
        return signalPassFailure();
      }
      if (byteOperands)
        useFHWCFilter(rewriter, hwcf, filter);
      ++numConverted;
    }
    if (convs.empty())
      return;
    // The function goes channels-last: so do its depthwise convolutions,
    // which would otherwise sit between two transposes each (MobileNet's,
    // between pointwise convolutions).
    SmallVector<linalg::Conv2DNgchwGfchwOp> depthwise;
    getOperation().walk([&](linalg::Conv2DNgchwGfchwOp op) {
      if (isGroupedDepthwise(op))
        depthwise.push_back(op);
    });
    for (linalg::Conv2DNgchwGfchwOp op : depthwise) {
      rewriteGroupedDepthwiseInNHWC(rewriter, op);
      ++numDepthwise;
    }
    // The importer's named depthwise op: ALTE's own rewrite.
    SmallVector<linalg::DepthwiseConv2DNchwChwOp> named;
    getOperation().walk([&](linalg::DepthwiseConv2DNchwChwOp op) {
      if (getStaticConvTypes(op))
        named.push_back(op);
    });
    for (linalg::DepthwiseConv2DNchwChwOp op : named) {
      auto relayout = cast<layout::LayoutTransformOpInterface>(*op);
      if (failed(relayout.rewriteInLayout(rewriter, nhwc))) {
        op.emitError("opsnn-convert-convs-to-nhwc: could not rewrite the "
                     "depthwise convolution into NHWC");
        return signalPassFailure();
      }
      ++numDepthwise;
    }
    followConvertedNeighbours();
  }

  /// The other convolutions and the pooling ops (whose layout a cost model
  /// may have chosen next to channels-first neighbours) move to the layout
  /// of the conversions around them where that removes some, as
  /// --opsnn-propagate-layouts moves layout-agnostic ops: a max pool
  /// between two converted convolutions would otherwise sit between two
  /// transposes. The conversions are first cancelled and pushed through
  /// the agnostic ops in between, then each op is tried in turn until none
  /// moves (each move removes conversions, or converted bytes: it ends).
  /// 2-D NHWC convolutions stay: that is where the tensor-core kernel
  /// takes them (the ones rewritten here, and any the input had).
  void followConvertedNeighbours() {
    func::FuncOp func = getOperation();
    auto propagate = [&] {
      RewritePatternSet patterns(&getContext());
      populateLayoutConversionCleanupPatterns(patterns);
      populatePropagateLayoutsPatterns(patterns);
      // The depthwise rewrite's reshapes against the importer's, and
      // through its accumulator's fill (which the conversion cleanup then
      // re-creates in NHWC).
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                           &getContext());
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
      linalg::FillOp::getCanonicalizationPatterns(patterns, &getContext());
      tensor::EmptyOp::getCanonicalizationPatterns(patterns, &getContext());
      return applyPatternsGreedily(func, std::move(patterns));
    };
    IRRewriter rewriter(&getContext());
    for (bool moved = true; moved;) {
      // Not converging within the driver's iterations leaves valid IR.
      (void)propagate();
      moved = false;
      SmallVector<layout::LayoutTransformOpInterface> candidates;
      func.walk([&](layout::LayoutTransformOpInterface op) {
        OpClass opClass = computeOpFingerprint(op).opClass;
        if ((opClass == OpClass::Convolution || opClass == OpClass::Pooling) &&
            !isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(*op))
          candidates.push_back(op);
      });
      for (layout::LayoutTransformOpInterface op : candidates)
        if (succeeded(pushConversionsThrough(rewriter, op))) {
          ++numFollowed;
          moved = true;
        }
    }
  }
};
} // namespace
