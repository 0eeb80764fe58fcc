//===- PadConvChannels.cpp - Zero channels up to the tensor-core granule --===//
//
// --opsnn-pad-conv-channels: an NHWC convolution whose C is not a multiple
// of one 16-byte copy (an image's 3 channels) gets zero channels appended
// to its input and filter, so the tensor-core kernel (GPUTensorCoreMatmul)
// can run it as an implicit GEMM with K = KH * KW * Cpad. The extra
// channels multiply zeros by zeros: the result is unchanged. A constant
// filter is padded here (no kernel); the input is padded by a tensor.pad,
// merged with the zero spatial padding already in front of the convolution
// (one buffer, one copy kernel).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "TensorCoreMmaTypes.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_PADCONVCHANNELSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// `attr` (a dense constant of `type`'s rank) with zeros appended along
/// dimension `dim` up to `type`'s size, or null for constants that are not
/// DenseElementsAttr (resources: padded by a tensor.pad instead).
static DenseElementsAttr padDenseConstant(Attribute attr,
                                          RankedTensorType type, int64_t dim) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return nullptr;
  ArrayRef<int64_t> from = dense.getType().getShape(),
                    to = type.getShape();
  // Row-major: each run of from[dim..] elements (with the inner dimensions)
  // lands at the start of a run of to[dim..] elements.
  int64_t inner = 1;
  for (int64_t d = dim + 1; d < type.getRank(); ++d)
    inner *= to[d];
  int64_t fromRun = from[dim] * inner, toRun = to[dim] * inner;
  int64_t runs = dense.getNumElements() / fromRun;
  auto pad = [&](auto values, auto zero) {
    SmallVector<decltype(zero)> padded(runs * toRun, zero);
    auto it = values.begin();
    for (int64_t r = 0; r < runs; ++r)
      for (int64_t i = 0; i < fromRun; ++i, ++it)
        padded[r * toRun + i] = *it;
    return DenseElementsAttr::get(type, padded);
  };
  Type element = type.getElementType();
  if (auto floatType = dyn_cast<FloatType>(element))
    return pad(dense.getValues<APFloat>(),
               APFloat::getZero(floatType.getFloatSemantics()));
  return pad(dense.getValues<APInt>(),
             APInt::getZero(element.getIntOrFloatBitWidth()));
}

/// `source` with zeros appended along `dim` up to `size` (and, when given,
/// the static `low`/`high` padding of the other dimensions).
static Value padWithZeros(PatternRewriter &rewriter, Location loc,
                          Value source, int64_t dim, int64_t size,
                          ArrayRef<int64_t> low = {},
                          ArrayRef<int64_t> high = {}) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<int64_t> lows(low.empty() ? SmallVector<int64_t>(type.getRank())
                                        : SmallVector<int64_t>(low));
  SmallVector<int64_t> highs(high.empty()
                                 ? SmallVector<int64_t>(type.getRank())
                                 : SmallVector<int64_t>(high));
  highs[dim] += size - type.getDimSize(dim);
  SmallVector<int64_t> shape(type.getShape());
  for (int64_t d = 0; d < type.getRank(); ++d)
    shape[d] += lows[d] + highs[d];
  auto padded = RankedTensorType::get(shape, type.getElementType());

  if (Attribute constant; matchPattern(source, m_Constant(&constant)))
    if (DenseElementsAttr attr = padDenseConstant(constant, padded, dim);
        attr && llvm::all_of(lows, [](int64_t l) { return l == 0; }))
      return arith::ConstantOp::create(rewriter, loc, attr);

  Value zero = arith::ConstantOp::create(
      rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(rewriter, loc, padded, source,
                               getAsIndexOpFoldResult(rewriter.getContext(),
                                                      lows),
                               getAsIndexOpFoldResult(rewriter.getContext(),
                                                      highs),
                               zero);
}

namespace {
/// Pads C of a conv_2d_nhwc_hwcf (filter dimension 2) or conv_2d_nhwc_fhwc
/// (filter dimension 3) to the tensor-core copy granule, when the tensor-
/// core kernel then takes it: static shapes, one tensor-core input type, its
/// accumulator as the output, F a multiple of 8.
template <typename ConvOp, int64_t FilterChannelDim>
struct PadConvChannels : OpRewritePattern<ConvOp> {
  PadConvChannels(MLIRContext *ctx, bool allowTF32, const TensorCoreISA &isa)
      : OpRewritePattern<ConvOp>(ctx), allowTF32(allowTF32), isa(isa) {}

  LogicalResult matchAndRewrite(ConvOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Value input = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    auto inType = dyn_cast<RankedTensorType>(input.getType());
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    auto outType = dyn_cast<RankedTensorType>(op.getResultTypes()[0]);
    if (!inType || !filterType || !outType || !inType.hasStaticShape() ||
        !filterType.hasStaticShape() || !outType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Type element = inType.getElementType();
    if (!takesTensorCoreTypes(element, filterType.getElementType(),
                              outType.getElementType(),
                              allowTF32 || op->hasAttr(kTF32Attr), isa))
      return rewriter.notifyMatchFailure(
          op, "not a tensor-core type of the target (f16/bf16/i8/FP8; f32 with "
              "allow-tf32 or opsnn.tf32; sm_75: f16) "
              "accumulating into f32 (i32)");
    int64_t channels = inType.getDimSize(3);
    int64_t granule = copyElements(element.getIntOrFloatBitWidth() / 8);
    if (channels % granule == 0)
      return rewriter.notifyMatchFailure(op, "C is a multiple of 16 bytes");
    if (outType.getDimSize(3) % 8)
      return rewriter.notifyMatchFailure(
          op, "F is not a multiple of 8: the tensor-core kernel would not "
              "take it padded either");

    int64_t padded = llvm::alignTo(channels, granule);
    Location loc = op.getLoc();
    // A zero spatial padding in front: one pad of its source instead.
    Value newInput;
    auto spatial = input.template getDefiningOp<tensor::PadOp>();
    if (spatial && isZeroConstant(spatial.getConstantPaddingValue())) {
      std::optional<SmallVector<int64_t>> low = staticPads(spatial, true),
                                          high = staticPads(spatial, false);
      if (low && high && (*low)[3] == 0 && (*high)[3] == 0)
        newInput = padWithZeros(rewriter, loc, spatial.getSource(), 3,
                                padded, *low, *high);
    }
    if (!newInput)
      newInput = padWithZeros(rewriter, loc, input, 3, padded);
    Value newFilter =
        padWithZeros(rewriter, loc, filter, FilterChannelDim, padded);
    rewriter.modifyOpInPlace(op, [&] {
      op->setOperand(0, newInput);
      op->setOperand(1, newFilter);
    });
    return success();
  }

  /// The static low (or high) padding of `pad`, if all static.
  static std::optional<SmallVector<int64_t>> staticPads(tensor::PadOp pad,
                                                        bool low) {
    SmallVector<int64_t> pads;
    for (OpFoldResult p : low ? pad.getMixedLowPad() : pad.getMixedHighPad()) {
      std::optional<int64_t> value = getConstantIntValue(p);
      if (!value)
        return std::nullopt;
      pads.push_back(*value);
    }
    return pads;
  }

  static bool isZeroConstant(Value v) {
    return v && (matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero()));
  }

  bool allowTF32;
  TensorCoreISA isa;
};

struct PadConvChannelsPass
    : opsnn::impl::PadConvChannelsPassBase<PadConvChannelsPass> {
  using Base::Base;

  void runOnOperation() override {
    FailureOr<TensorCoreISA> isa =
        lookupTensorCoreISA(getOperation().getLoc(), targetName);
    if (failed(isa))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<PadConvChannels<linalg::Conv2DNhwcHwcfOp, 2>,
                 PadConvChannels<linalg::Conv2DNhwcFhwcOp, 3>>(
        &getContext(), allowTF32, *isa);
    // One application per convolution: the padded one no longer matches.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // A padded input computed by an elementwise op for the convolution
    // alone (the importer's NCHW -> NHWC transpose and cast) is computed
    // into the padded tensor's interior instead (upstream's pad fusion: a
    // zero fill, the op on a slice of it): no copy kernel.
    SmallVector<Operation *> channelPads;
    getOperation()->walk([&](tensor::PadOp pad) {
      auto producer = pad.getSource().getDefiningOp<linalg::LinalgOp>();
      if (producer && producer->hasOneUse() && padsChannels(pad))
        channelPads.push_back(pad);
    });
    RewritePatternSet fusion(&getContext());
    linalg::populateFuseTensorPadWithProducerLinalgOpPatterns(fusion);
    GreedyRewriteConfig onlyThesePads;
    onlyThesePads.setStrictness(GreedyRewriteStrictness::ExistingOps);
    if (failed(applyOpPatternsGreedily(channelPads, std::move(fusion),
                                       onlyThesePads)))
      return signalPassFailure();
  }

  /// Whether `pad` is one of this pass's: it pads C of an NHWC
  /// convolution's input (the convolutions' own padding is of H and W).
  static bool padsChannels(tensor::PadOp pad) {
    auto type = pad.getResultType();
    return type.getRank() == 4 && pad->hasOneUse() &&
           isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(
               *pad->getUsers().begin()) &&
           pad->getUses().begin()->getOperandNumber() == 0 &&
           type.getDimSize(3) != pad.getSourceType().getDimSize(3);
  }
};
} // namespace
