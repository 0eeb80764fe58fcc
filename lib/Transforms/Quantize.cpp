//===- Quantize.cpp - Post-training quantization to INT8 and FP8 ----------===//
//
// --opsnn-quantize: rewrites the contractions of a function whose weight is
// a constant f32 tensor, and the lookups of constant f32 embedding tables,
// to 8-bit storage. Weights and tables are quantized at compile time; an
// activation is quantized at run time with the scale its known range gives
// (calibration, a user range or interval analysis: `getKnownRange`).
//
// INT8 is symmetric (zero point 0, codes in [-127, 127]): weights per output
// channel, activations per tensor through upstream `quant.qcast` /
// `quant.scast`; the contraction is the same linalg named op on i8 x i8
// accumulating in i32, and its result goes back to f32 through `quant.scast`
// to a per-axis `!quant.uniform<i32:f32:AXIS, {s_x * s_w[c], ...}>` and
// `quant.dcast`. FP8 stores weights, activations and tables as E4M3FN (or
// E5M2) with one scale per tensor and computes in f32 after `arith.extf`.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Quantize.h"

#include "opsnn/Analysis/ValueRanges.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::opsnn {
#define GEN_PASS_DEF_QUANTIZEPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

std::optional<QuantizeType> mlir::opsnn::parseQuantizeType(StringRef name) {
  return llvm::StringSwitch<std::optional<QuantizeType>>(name)
      .Case("int8", QuantizeType::Int8)
      .Case("fp8", QuantizeType::FP8)
      .Default(std::nullopt);
}

std::optional<FP8Format> mlir::opsnn::parseFP8Format(StringRef name) {
  return llvm::StringSwitch<std::optional<FP8Format>>(name)
      .Case("e4m3fn", FP8Format::E4M3FN)
      .Case("e5m2", FP8Format::E5M2)
      .Default(std::nullopt);
}

namespace {
/// Symmetric INT8 codes: [-127, 127] (-128 unused, so that negation is
/// exact and the scale is max|x| / 127).
constexpr int64_t kInt8Max = 127;

std::string formatDouble(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", x);
  return buffer;
}

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

FloatType getFP8Type(MLIRContext *context, FP8Format format) {
  if (format == FP8Format::E5M2)
    return Float8E5M2Type::get(context);
  return Float8E4M3FNType::get(context);
}

/// The largest finite magnitude of the FP8 format.
double getFP8Max(FP8Format format) {
  return format == FP8Format::E5M2 ? 57344.0 : 448.0;
}

void recordDecision(Operation *op, Type precision, const Twine &reason) {
  Builder b(op->getContext());
  op->setAttr("precision.decision",
              b.getDictionaryAttr(
                  {b.getNamedAttr("precision", TypeAttr::get(precision)),
                   b.getNamedAttr("reason", b.getStringAttr(reason.str()))}));
}

/// True when `value` is all zeros: a zero splat constant or a fill with 0.
bool isZeroTensor(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs().front();
  return matchPattern(value, m_AnyZeroFloat()) || matchPattern(value, m_Zero());
}

/// A tensor shaped like `like` filled with zeros of `element`.
Value createZeroTensor(OpBuilder &b, Location loc, Value like, Type element) {
  Value empty = tensor::EmptyOp::create(b, loc, tensor::getMixedSizes(b, loc, like),
                                        element);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  return linalg::FillOp::create(b, loc, ValueRange{zero}, ValueRange{empty})
      .getResult(0);
}

/// An element-wise linalg.generic over `inputs` (all shaped like the first)
/// whose payload `body` maps the input elements to one `element` value.
Value mapElementwise(
    OpBuilder &b, Location loc, ValueRange inputs, Type element,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  auto type = cast<RankedTensorType>(inputs.front().getType());
  Value init = tensor::EmptyOp::create(
      b, loc, tensor::getMixedSizes(b, loc, inputs.front()), element);
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              b.getMultiDimIdentityMap(type.getRank()));
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, inputs, ValueRange{init}, maps,
      iterators, [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        linalg::YieldOp::create(nested, nestedLoc,
                                body(nested, nestedLoc, args.drop_back()));
      });
  return generic.getResult(0);
}

/// Erases the op defining `value` (an f32 constant replaced by its 8-bit
/// copy) when nothing reads it any more.
void eraseIfDead(Value value) {
  if (Operation *op = value.getDefiningOp(); op && op->use_empty())
    op->erase();
}

Value createF32(OpBuilder &b, Location loc, double value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// Where a contraction's output channels are: the parallel loop that indexes
/// the weight and the result but not the activation (n of a matmul, f of a
/// convolution). Nullopt when there is no such loop or more than one.
struct ChannelAxes {
  unsigned weight; // dimension of the weight
  unsigned result; // dimension of the result
};

std::optional<ChannelAxes> findChannelAxes(linalg::LinalgOp op) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<ChannelAxes> found;
  for (auto [position, expr] : llvm::enumerate(maps[1].getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(expr);
    if (!dim || iterators[dim.getPosition()] != utils::IteratorType::parallel ||
        maps[0].isFunctionOfDim(dim.getPosition()))
      continue;
    std::optional<unsigned> resultPosition = maps[2].getResultPosition(dim);
    if (!resultPosition)
      continue;
    if (found)
      return std::nullopt;
    found = ChannelAxes{static_cast<unsigned>(position), *resultPosition};
  }
  return found;
}

/// `op` re-created on new operands and result type: the named op's builder
/// writes the payload for the new element types (extsi to i32 for i8, extf
/// to f32 for FP8). Strides, dilations and indexing maps carry over; the
/// `cast` attribute does not (INT8 codes are signed).
template <typename OpTy>
Operation *recreateNamedOp(OpBuilder &b, OpTy op, Type resultType,
                           ValueRange inputs, Value init) {
  SmallVector<NamedAttribute> attributes;
  for (NamedAttribute attribute : op->getAttrs()) {
    StringRef name = attribute.getName().getValue();
    if (name == "operandSegmentSizes" || name == "cast" ||
        name.starts_with("precision."))
      continue;
    attributes.push_back(attribute);
  }
  return OpTy::create(b, op.getLoc(), TypeRange{resultType}, inputs,
                      ValueRange{init}, attributes);
}

Operation *recreateContraction(OpBuilder &b, Operation *op, Type resultType,
                               ValueRange inputs, Value init) {
  return llvm::TypeSwitch<Operation *, Operation *>(op)
      .Case<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::Conv2DNchwFchwOp,
            linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(
          [&](auto typed) {
            return recreateNamedOp(b, typed, resultType, inputs, init);
          })
      .Default([](Operation *) { return nullptr; });
}

bool isQuantizableContraction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return isa<linalg::MatmulOp, linalg::BatchMatmulOp, linalg::Conv2DNchwFchwOp,
             linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp>(op) &&
         linalgOp.hasPureTensorSemantics() &&
         linalgOp.getNumDpsInputs() == 2 && linalgOp.getNumDpsInits() == 1 &&
         llvm::all_of(op->getOperandTypes(), isF32Tensor);
}

/// True when no value of the float constant is infinite or NaN.
bool allFinite(DenseElementsAttr values) {
  return llvm::all_of(values.getValues<APFloat>(),
                      [](const APFloat &value) { return value.isFinite(); });
}

/// The `tensor.extract`s in `op`'s payload that read a constant f32 tensor
/// defined outside it: embedding lookups.
SmallVector<tensor::ExtractOp> findConstantLookups(linalg::LinalgOp op) {
  SmallVector<tensor::ExtractOp> lookups;
  op->walk([&](tensor::ExtractOp extract) {
    DenseElementsAttr table;
    if (!op->getRegion(0).isAncestor(extract.getTensor().getParentRegion()) &&
        isF32Tensor(extract.getTensor().getType()) &&
        matchPattern(extract.getTensor(), m_Constant(&table)) &&
        allFinite(table))
      lookups.push_back(extract);
  });
  return lookups;
}

/// The values of a float constant as doubles.
SmallVector<double> readValues(DenseElementsAttr values) {
  SmallVector<double> result;
  result.reserve(values.getNumElements());
  for (APFloat value : values.getValues<APFloat>())
    result.push_back(value.convertToDouble());
  return result;
}

double maxAbsOf(ArrayRef<double> values) {
  double largest = 0;
  for (double value : values)
    largest = std::max(largest, std::fabs(value));
  return largest;
}

/// Symmetric INT8 code of `value / scale`: nearest, ties to even, clamped.
int8_t quantizeToInt8(double value, double scale) {
  double code = std::nearbyint(value / scale);
  return static_cast<int8_t>(
      std::clamp<double>(code, -kInt8Max, kInt8Max));
}

/// `value / scale` in `type` (FP8): nearest, ties to even, saturated.
APFloat quantizeToFP8(double value, double scale, FloatType type,
                      double maxFinite) {
  APFloat result(std::clamp(value / scale, -maxFinite, maxFinite));
  bool losesInfo;
  result.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                 &losesInfo);
  return result;
}

class Quantizer {
public:
  Quantizer(func::FuncOp func, const QuantizeOptions &options)
      : func(func), options(options), b(func.getContext()),
        f32(b.getF32Type()) {
    storage = options.type == QuantizeType::Int8
                  ? Type(b.getI8Type())
                  : Type(getFP8Type(func.getContext(), options.fp8Format));
    fp8Max = getFP8Max(options.fp8Format);
  }

  LogicalResult run();

private:
  /// Quantizes one contraction or records why it stays FP32. `range` is
  /// its activation's, read before any op was rewritten.
  void quantizeContraction(linalg::LinalgOp op,
                           const std::optional<KnownRange> &range);
  /// The `element` codes of `activation` at `scale`: `quantizeRoot` of the
  /// tensor the activation reshapes or pads with zeros (its root), once
  /// per root, element type and scale, right after the root, then the
  /// activation's reshapes and paddings replayed on the codes; every
  /// contraction reading the root shares them: Q, K and V projections then
  /// read one input, and --opsnn-fuse-sibling-contractions can stack them.
  /// Before the reshapes the quantization has its producer's loops, so a
  /// LayerNorm's row kernel can absorb it; a convolution's zero padding
  /// goes on the codes (zero is code 0), so the tensor-core kernel reads
  /// them unpadded.
  Value quantizeActivation(Value activation, double scale, Type element,
                           llvm::function_ref<Value(Value root)> quantizeRoot);
  /// The rewrites; they return the f32 value replacing the op's result.
  Value rewriteInt8(linalg::LinalgOp op, DenseElementsAttr weights,
                    double activationMaxAbs, StringRef rangeSource);
  Value rewriteFP8(linalg::LinalgOp op, DenseElementsAttr weights,
                   double activationMaxAbs, StringRef rangeSource);
  /// Stores the constant tables `op` gathers from in 8 bits and converts
  /// the gathered elements back.
  void quantizeLookups(linalg::LinalgOp op,
                       ArrayRef<tensor::ExtractOp> lookups);

  func::FuncOp func;
  const QuantizeOptions &options;
  OpBuilder b;
  Type f32, storage;
  double fp8Max;
  /// Each quantized table: the 8-bit constant and its scale.
  DenseMap<Value, std::pair<Value, double>> tables;
  /// The `element` codes of an activation (of its type) at a scale.
  struct ActivationCodes {
    Type type, element;
    double scale;
    Value codes;
  };
  /// Each quantized activation's codes (of its root, and reshaped), by its
  /// root (quantizeActivation).
  DenseMap<Value, SmallVector<ActivationCodes>> activationCodes;
};
} // namespace

/// Whether `op` pads with zeros by static amounts: a zero is code 0 at any
/// scale, so padding the codes is padding the quantized tensor.
static bool isStaticZeroPad(Operation *op) {
  auto pad = dyn_cast<tensor::PadOp>(op);
  if (!pad || !pad.getLow().empty() || !pad.getHigh().empty())
    return false;
  Value value = pad.getConstantPaddingValue();
  return value && isZeroTensor(value);
}

/// `codes` padded as `like` pads (isStaticZeroPad), with zero codes.
static Value padCodes(OpBuilder &b, tensor::PadOp like, Value codes) {
  Type element = getElementTypeOrSelf(codes.getType());
  Value zero = arith::ConstantOp::create(b, like.getLoc(), element,
                                         b.getZeroAttr(element));
  return tensor::PadOp::create(
      b, like.getLoc(), like.getResultType().clone(element), codes,
      like.getMixedLowPad(), like.getMixedHighPad(), zero, like.getNofold());
}

Value Quantizer::quantizeActivation(
    Value activation, double scale, Type element,
    llvm::function_ref<Value(Value root)> quantizeRoot) {
  // The tensor the activation reshapes (static collapse_shape and
  // expand_shape: no size operands) or pads with zeros (a convolution's
  // input: the codes are padded, and the FP8 kernel can read them
  // unpadded), and those ops, last first.
  SmallVector<Operation *> reshapes;
  Value root = activation;
  while (Operation *def = root.getDefiningOp()) {
    bool reshape = isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def) &&
                   def->getNumOperands() == 1;
    if (!reshape && !isStaticZeroPad(def))
      break;
    reshapes.push_back(def);
    root = def->getOperand(0);
  }
  SmallVector<ActivationCodes> &known = activationCodes[root];
  auto lookup = [&](Type type) -> Value {
    for (const ActivationCodes &entry : known)
      if (entry.type == type && entry.element == element &&
          entry.scale == scale)
        return entry.codes;
    return nullptr;
  };
  // A padded activation's type does not say how it is padded: only its
  // root's codes are shared.
  bool padded = llvm::any_of(reshapes, llvm::IsaPred<tensor::PadOp>);
  if (Value codes = padded ? Value() : lookup(activation.getType()))
    return codes;
  OpBuilder::InsertionGuard guard(b);
  Value codes = lookup(root.getType());
  if (!codes) {
    b.setInsertionPointAfterValue(root);
    codes = quantizeRoot(root);
    known.push_back({root.getType(), element, scale, codes});
  }
  // The activation's reshapes and paddings, replayed on the codes.
  b.setInsertionPointAfterValue(codes);
  for (Operation *reshape : llvm::reverse(reshapes)) {
    if (auto pad = dyn_cast<tensor::PadOp>(reshape)) {
      codes = padCodes(b, pad, codes);
      continue;
    }
    Operation *copy = b.clone(*reshape);
    copy->setDiscardableAttrs(ArrayRef<NamedAttribute>{});
    copy->setOperand(0, codes);
    Value result = copy->getResult(0);
    result.setType(cast<RankedTensorType>(result.getType()).clone(element));
    codes = result;
  }
  if (!padded)
    known.push_back({activation.getType(), element, scale, codes});
  return codes;
}

void Quantizer::quantizeContraction(linalg::LinalgOp op,
                                    const std::optional<KnownRange> &range) {
  DenseElementsAttr weights;
  if (!matchPattern(op.getDpsInputs()[1], m_Constant(&weights))) {
    recordDecision(op, f32, "the weight (operand 1) is not a dense constant");
    return;
  }
  if (!allFinite(weights)) {
    recordDecision(op, f32, "the weight holds infinities or NaN");
    return;
  }
  if (!range) {
    recordDecision(op, f32,
                   "no known range for the activation (run "
                   "--opsnn-analyze-ranges, calibrate, or put "
                   "precision.range on the argument)");
    return;
  }
  double maxAbs = range->maxAbs();
  if (!std::isfinite(maxAbs) || maxAbs <= 0) {
    recordDecision(op, f32,
                   "the activation range [" + formatDouble(range->min) +
                       ", " + formatDouble(range->max) +
                       "] gives no finite non-zero scale");
    return;
  }
  StringRef source = stringifyRangeSource(range->source);
  // The range recorded for the result stays known to later passes.
  std::optional<KnownRange> resultRange = getKnownRange(op->getResult(0));
  Value result = options.type == QuantizeType::Int8
                     ? rewriteInt8(op, weights, maxAbs, source)
                     : rewriteFP8(op, weights, maxAbs, source);
  if (resultRange)
    recordRange(result, *resultRange);
}

Value Quantizer::rewriteInt8(linalg::LinalgOp op, DenseElementsAttr weights,
                            double activationMaxAbs, StringRef rangeSource) {
  Operation *original = op.getOperation();
  Location loc = original->getLoc();
  Value activation = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  auto weightType = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  auto resultType = cast<RankedTensorType>(original->getResult(0).getType());
  Type i8 = b.getI8Type(), i32 = b.getI32Type();

  // Weights: one scale per output channel (or one for the tensor).
  std::optional<ChannelAxes> axes;
  if (options.perChannel)
    axes = findChannelAxes(op);
  if (axes && resultType.isDynamicDim(axes->result))
    axes.reset();
  int64_t channels = axes ? weightType.getDimSize(axes->weight) : 1;
  int64_t stride = 1;
  if (axes)
    for (int64_t dim : weightType.getShape().drop_front(axes->weight + 1))
      stride *= dim;
  auto channelOf = [&](size_t index) -> int64_t {
    return axes ? (static_cast<int64_t>(index) / stride) % channels : 0;
  };
  SmallVector<double> values = readValues(weights);
  SmallVector<double> weightScales(channels, 0.0);
  for (auto [index, value] : llvm::enumerate(values))
    weightScales[channelOf(index)] =
        std::max(weightScales[channelOf(index)], std::fabs(value));
  for (double &scale : weightScales)
    scale = scale > 0 ? scale / kInt8Max : 1.0; // an all-zero channel: any
  SmallVector<int8_t> codes;
  codes.reserve(values.size());
  for (auto [index, value] : llvm::enumerate(values))
    codes.push_back(quantizeToInt8(value, weightScales[channelOf(index)]));

  // Activation: per tensor, through upstream quant.
  double activationScale = activationMaxAbs / kInt8Max;
  unsigned signedFlag = quant::QuantizationFlags::Signed;
  auto activationQType = quant::UniformQuantizedType::get(
      signedFlag, i8, f32, activationScale, /*zeroPoint=*/0, -kInt8Max,
      kInt8Max);
  // (Zero point 0: a zero padding goes on the codes, zero is code 0.)
  Value activationCodes = quantizeActivation(
      activation, activationScale, i8, [&](Value root) -> Value {
        auto rootType = cast<RankedTensorType>(root.getType());
        Value quantized = quant::QuantizeCastOp::create(
            b, root.getLoc(), rootType.clone(activationQType), root);
        return quant::StorageCastOp::create(b, root.getLoc(),
                                            rootType.clone(i8), quantized);
      });
  b.setInsertionPoint(original);
  Value weightCodes = arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(DenseElementsAttr::get(weightType.clone(i8),
                                             ArrayRef<int8_t>(codes))));

  // The contraction on the codes, accumulating in i32.
  Value accumulator = createZeroTensor(b, loc, init, i32);
  Operation *integerOp =
      recreateContraction(b, original, resultType.clone(i32),
                          {activationCodes, weightCodes}, accumulator);

  // Back to f32: s_x * s_w[c] per output channel.
  int64_t i32Min = quant::QuantizedType::getDefaultMinimumForInteger(true, 32);
  int64_t i32Max = quant::QuantizedType::getDefaultMaximumForInteger(true, 32);
  Type resultQType;
  if (axes) {
    SmallVector<double> scales;
    for (double weightScale : weightScales)
      scales.push_back(activationScale * weightScale);
    resultQType = quant::UniformQuantizedPerAxisType::get(
        signedFlag, i32, f32, scales, SmallVector<int64_t>(channels, 0),
        axes->result, i32Min, i32Max);
  } else {
    resultQType = quant::UniformQuantizedType::get(
        signedFlag, i32, f32, activationScale * weightScales.front(), 0,
        i32Min, i32Max);
  }
  Value result = quant::StorageCastOp::create(
      b, loc, resultType.clone(resultQType), integerOp->getResult(0));
  result = quant::DequantizeCastOp::create(b, loc, resultType, result);
  if (!isZeroTensor(init))
    result = mapElementwise(b, loc, {result, init}, f32,
                            [](OpBuilder &nb, Location nl, ValueRange args) {
                              return arith::AddFOp::create(nb, nl, args[0],
                                                           args[1]);
                            });
  Value oldWeights = op.getDpsInputs()[1];
  original->getResult(0).replaceAllUsesWith(result);
  original->erase();
  eraseIfDead(oldWeights);

  std::string weightsText =
      axes ? "per-channel weights (" + std::to_string(channels) + " scales)"
           : std::string("per-tensor weights");
  recordDecision(integerOp, i8,
                 "int8: " + weightsText + ", activation scale " +
                     formatDouble(activationScale) + " (" + rangeSource +
                     " range), i32 accumulation");
  return result;
}

Value Quantizer::rewriteFP8(linalg::LinalgOp op, DenseElementsAttr weights,
                           double activationMaxAbs, StringRef rangeSource) {
  Operation *original = op.getOperation();
  Location loc = original->getLoc();
  Value activation = op.getDpsInputs()[0];
  Value init = op.getDpsInits()[0];
  auto weightType = cast<RankedTensorType>(op.getDpsInputs()[1].getType());
  auto resultType = cast<RankedTensorType>(original->getResult(0).getType());
  auto fp8 = cast<FloatType>(storage);

  // Weights: the largest magnitude maps to the format's largest finite.
  SmallVector<double> values = readValues(weights);
  double weightMaxAbs = maxAbsOf(values);
  double weightScale = weightMaxAbs > 0 ? weightMaxAbs / fp8Max : 1.0;
  SmallVector<APFloat> codes;
  codes.reserve(values.size());
  for (double value : values)
    codes.push_back(quantizeToFP8(value, weightScale, fp8, fp8Max));

  b.setInsertionPoint(original);
  Value weightCodes = arith::ConstantOp::create(
      b, loc,
      cast<TypedAttr>(DenseElementsAttr::get(weightType.clone(fp8), codes)));
  double activationScale = activationMaxAbs / fp8Max;
  // Scaled, saturated (E4M3FN has no infinity: overflow would be NaN),
  // rounded to FP8.
  Value activationCodes =
      quantizeActivation(activation, activationScale, fp8, [&](Value root) {
        double maxFinite = fp8Max;
        return mapElementwise(
            b, root.getLoc(), {root}, fp8,
            [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
              Value scaled = arith::DivFOp::create(
                  nb, nl, args[0], createF32(nb, nl, activationScale));
              scaled = arith::MaximumFOp::create(nb, nl, scaled,
                                                 createF32(nb, nl, -maxFinite));
              scaled = arith::MinimumFOp::create(nb, nl, scaled,
                                                 createF32(nb, nl, maxFinite));
              return arith::TruncFOp::create(nb, nl, fp8, scaled);
            });
      });

  // The contraction reads FP8 and accumulates in f32; its result is in
  // units of s_x * s_w, and the original accumulator is added after.
  bool zeroInit = isZeroTensor(init);
  Value accumulator = zeroInit ? init : createZeroTensor(b, loc, init, f32);
  Operation *fp8Op =
      recreateContraction(b, original, resultType,
                          {activationCodes, weightCodes}, accumulator);
  SmallVector<Value> epilogueInputs = {fp8Op->getResult(0)};
  if (!zeroInit)
    epilogueInputs.push_back(init);
  double resultScale = activationScale * weightScale;
  Value result = mapElementwise(
      b, loc, epilogueInputs, f32,
      [&](OpBuilder &nb, Location nl, ValueRange args) -> Value {
        Value scaled = arith::MulFOp::create(nb, nl, args[0],
                                             createF32(nb, nl, resultScale));
        if (args.size() > 1)
          scaled = arith::AddFOp::create(nb, nl, scaled, args[1]);
        return scaled;
      });
  Value oldWeights = op.getDpsInputs()[1];
  original->getResult(0).replaceAllUsesWith(result);
  original->erase();
  eraseIfDead(oldWeights);

  std::string typeName;
  llvm::raw_string_ostream(typeName) << fp8;
  recordDecision(fp8Op, fp8,
                 "fp8: " + typeName + " weights (scale " +
                     formatDouble(weightScale) + ") and activation (scale " +
                     formatDouble(activationScale) + ", " + rangeSource +
                     " range), f32 accumulation");
  return result;
}

void Quantizer::quantizeLookups(linalg::LinalgOp op,
                                ArrayRef<tensor::ExtractOp> lookups) {
  bool int8 = options.type == QuantizeType::Int8;
  SmallVector<std::string> scaleTexts;
  for (tensor::ExtractOp extract : lookups) {
    Value table = extract.getTensor();
    auto [entry, inserted] = tables.try_emplace(table);
    if (inserted) {
      DenseElementsAttr values;
      (void)matchPattern(table, m_Constant(&values));
      SmallVector<double> elements = readValues(values);
      double maxAbs = maxAbsOf(elements);
      double limit = int8 ? double(kInt8Max) : fp8Max;
      double scale = maxAbs > 0 ? maxAbs / limit : 1.0;
      auto tableType = cast<RankedTensorType>(table.getType());
      DenseElementsAttr stored;
      if (int8) {
        SmallVector<int8_t> codes;
        for (double element : elements)
          codes.push_back(quantizeToInt8(element, scale));
        stored = DenseElementsAttr::get(tableType.clone(storage),
                                        ArrayRef<int8_t>(codes));
      } else {
        SmallVector<APFloat> codes;
        for (double element : elements)
          codes.push_back(
              quantizeToFP8(element, scale, cast<FloatType>(storage), fp8Max));
        stored = DenseElementsAttr::get(tableType.clone(storage), codes);
      }
      b.setInsertionPointAfter(table.getDefiningOp());
      Value constant = arith::ConstantOp::create(b, table.getLoc(),
                                                 cast<TypedAttr>(stored));
      entry->second = {constant, scale};
    }
    auto [storedTable, scale] = entry->second;
    // Only the gathered elements are converted back.
    b.setInsertionPoint(extract);
    Location loc = extract.getLoc();
    Value code = tensor::ExtractOp::create(b, loc, storedTable,
                                           extract.getIndices());
    Value wide = int8 ? Value(arith::SIToFPOp::create(b, loc, f32, code))
                      : Value(arith::ExtFOp::create(b, loc, f32, code));
    Value value =
        arith::MulFOp::create(b, loc, wide, createF32(b, loc, scale));
    extract.getResult().replaceAllUsesWith(value);
    extract->erase();
    scaleTexts.push_back(formatDouble(scale));
  }
  std::string typeName;
  llvm::raw_string_ostream(typeName) << storage;
  recordDecision(op, storage,
                 "embedding table stored in " + typeName + " (scale " +
                     llvm::join(scaleTexts, ", ") +
                     "), gathered elements converted to f32");
}

LogicalResult Quantizer::run() {
  SmallVector<linalg::LinalgOp> contractions;
  SmallVector<std::pair<linalg::LinalgOp, SmallVector<tensor::ExtractOp>>>
      lookups;
  func.walk([&](linalg::LinalgOp op) {
    if (isQuantizableContraction(op)) {
      contractions.push_back(op);
      return;
    }
    if (!op.hasPureTensorSemantics())
      return;
    SmallVector<tensor::ExtractOp> found = findConstantLookups(op);
    if (!found.empty())
      lookups.emplace_back(op, std::move(found));
  });

  // Ranges first: a rewritten op's result is a new value.
  SmallVector<std::optional<KnownRange>> ranges;
  for (linalg::LinalgOp op : contractions)
    ranges.push_back(getKnownRange(op.getDpsInputs()[0]));

  for (auto [index, op] : llvm::enumerate(contractions)) {
    if (options.skipFirstLast &&
        (index == 0 || index + 1 == contractions.size())) {
      recordDecision(op, f32,
                     index == 0 ? "first contraction kept FP32 "
                                  "(skip-first-last)"
                                : "last contraction kept FP32 "
                                  "(skip-first-last)");
      continue;
    }
    quantizeContraction(op, ranges[index]);
  }
  for (auto &[op, found] : lookups)
    quantizeLookups(op, found);

  // Original tables and weights that nothing reads any more.
  for (auto &[table, entry] : tables)
    eraseIfDead(table);
  return success();
}

LogicalResult mlir::opsnn::quantizeFunction(func::FuncOp func,
                                            const QuantizeOptions &options) {
  return Quantizer(func, options).run();
}

namespace {
struct QuantizePass : opsnn::impl::QuantizePassBase<QuantizePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    QuantizeOptions options;
    std::optional<QuantizeType> parsedType = parseQuantizeType(type);
    if (!parsedType) {
      func.emitError() << "opsnn-quantize: unknown type '" << type
                       << "' (expected int8 or fp8)";
      return signalPassFailure();
    }
    std::optional<FP8Format> format = parseFP8Format(fp8Format);
    if (!format) {
      func.emitError() << "opsnn-quantize: unknown fp8-format '" << fp8Format
                       << "' (expected e4m3fn or e5m2)";
      return signalPassFailure();
    }
    options.type = *parsedType;
    options.fp8Format = *format;
    options.perChannel = perChannel;
    options.skipFirstLast = skipFirstLast;
    if (failed(quantizeFunction(func, options)))
      return signalPassFailure();
  }
};
} // namespace
