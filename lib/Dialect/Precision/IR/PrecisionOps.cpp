//===- PrecisionOps.cpp - Precision dialect operations --------------------===//
//
// Folders and verifiers of precision.cast and the loss-scaling ops. All
// arithmetic on constants goes through APFloat so folding rounds exactly as
// the hardware would (round to nearest, ties to even).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::opsnn::precision;

#define GET_OP_CLASSES
#include "opsnn/Dialect/Precision/IR/PrecisionOps.cpp.inc"

bool mlir::opsnn::precision::isExactConversion(Type from, Type to) {
  auto fromType = dyn_cast<FloatType>(from);
  auto toType = dyn_cast<FloatType>(to);
  if (!fromType || !toType)
    return false;
  return APFloat::isRepresentableBy(fromType.getFloatSemantics(),
                                    toType.getFloatSemantics());
}

/// Rounds `value` to `semantics`, nearest-even.
static APFloat roundTo(APFloat value, const llvm::fltSemantics &semantics) {
  bool losesInfo = false;
  value.convert(semantics, APFloat::rmNearestTiesToEven, &losesInfo);
  return value;
}

/// Applies `fn` to every element of a float constant (scalar or dense),
/// producing a constant of `resultType`.
static Attribute mapFloatConstant(Attribute constant, Type resultType,
                                  function_ref<APFloat(APFloat)> fn) {
  auto resultElementType = cast<FloatType>(getElementTypeOrSelf(resultType));
  if (auto scalar = dyn_cast_if_present<FloatAttr>(constant))
    return FloatAttr::get(resultElementType, fn(scalar.getValue()));
  auto dense = dyn_cast_if_present<DenseFPElementsAttr>(constant);
  if (!dense)
    return {};
  return dense.mapValues(resultElementType, [&](const APFloat &value) {
    return fn(value).bitcastToAPInt();
  });
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  Type resultType = getType();
  if (getInput().getType() == resultType)
    return getInput();

  // cast(cast(x : A to B) : B to C) == cast(x : A to C) when A to B is exact.
  if (auto producer = getInput().getDefiningOp<CastOp>()) {
    Value source = producer.getInput();
    if (isExactConversion(getElementTypeOrSelf(source),
                          getElementTypeOrSelf(producer.getType()))) {
      if (source.getType() == resultType)
        return source;
      getInputMutable().assign(source);
      return getResult();
    }
  }

  const llvm::fltSemantics &semantics =
      cast<FloatType>(getElementTypeOrSelf(resultType)).getFloatSemantics();
  return mapFloatConstant(adaptor.getInput(), resultType, [&](APFloat value) {
    return roundTo(value, semantics);
  });
}

//===----------------------------------------------------------------------===//
// ScaleOp
//===----------------------------------------------------------------------===//

OpFoldResult ScaleOp::fold(FoldAdaptor adaptor) {
  auto scale = dyn_cast_if_present<FloatAttr>(adaptor.getScale());
  if (scale && scale.getValue().isExactlyValue(1.0))
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// UnscaleAndCheckOp
//===----------------------------------------------------------------------===//

LogicalResult UnscaleAndCheckOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location>, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, adaptor.getInputs().getTypes());
  inferredReturnTypes.push_back(IntegerType::get(context, 1));
  return success();
}

LogicalResult
UnscaleAndCheckOp::fold(FoldAdaptor adaptor,
                        SmallVectorImpl<OpFoldResult> &results) {
  auto scale = dyn_cast_if_present<FloatAttr>(adaptor.getScale());
  if (!scale)
    return failure();
  if (llvm::any_of(adaptor.getInputs(), [](Attribute attr) {
        return !isa_and_present<FloatAttr, DenseFPElementsAttr>(attr);
      }))
    return failure();

  const llvm::fltSemantics &f32 = APFloat::IEEEsingle();
  APFloat inverse(1.0f);
  inverse.divide(scale.getValue(), APFloat::rmNearestTiesToEven);
  bool foundNonFinite = false;
  for (auto [input, constant] : llvm::zip(getInputs(), adaptor.getInputs())) {
    const llvm::fltSemantics &semantics =
        cast<FloatType>(getElementTypeOrSelf(input)).getFloatSemantics();
    results.push_back(mapFloatConstant(
        constant, input.getType(), [&](APFloat value) {
          foundNonFinite |= !value.isFinite();
          APFloat wide = roundTo(value, f32);
          wide.multiply(inverse, APFloat::rmNearestTiesToEven);
          return roundTo(wide, semantics);
        }));
  }
  results.push_back(
      IntegerAttr::get(IntegerType::get(getContext(), 1), foundNonFinite));
  return success();
}

//===----------------------------------------------------------------------===//
// UpdateLossScaleOp
//===----------------------------------------------------------------------===//

LogicalResult UpdateLossScaleOp::verify() {
  double initScale = getInitScale().convertToDouble();
  if (!(initScale > 0) || !std::isfinite(initScale))
    return emitOpError() << "init_scale must be positive and finite, got "
                         << initScale;
  if (!(getGrowthFactor().convertToDouble() > 1.0))
    return emitOpError() << "growth_factor must be greater than 1, got "
                         << getGrowthFactor().convertToDouble();
  double backoff = getBackoffFactor().convertToDouble();
  if (!(backoff > 0.0 && backoff < 1.0))
    return emitOpError() << "backoff_factor must be in (0, 1), got "
                         << backoff;
  if (getGrowthInterval() < 1)
    return emitOpError() << "growth_interval must be at least 1, got "
                         << getGrowthInterval();
  return success();
}

LogicalResult
UpdateLossScaleOp::fold(FoldAdaptor adaptor,
                        SmallVectorImpl<OpFoldResult> &results) {
  auto scale = dyn_cast_if_present<FloatAttr>(adaptor.getScale());
  auto tracker = dyn_cast_if_present<IntegerAttr>(adaptor.getGrowthTracker());
  auto found = dyn_cast_if_present<IntegerAttr>(adaptor.getFoundNonFinite());
  if (!scale || !tracker || !found)
    return failure();

  // Mirrors torch's _amp_update_scale_: the product is formed in double and
  // stored as float; growth is applied only when the stored scale is finite.
  float newScale = scale.getValue().convertToFloat();
  int64_t newTracker = tracker.getValue().getSExtValue();
  if (!found.getValue().isZero()) {
    newScale = static_cast<float>(newScale * getBackoffFactor().convertToDouble());
    newTracker = 0;
  } else if (newTracker + 1 ==
             static_cast<int64_t>(getGrowthInterval())) {
    float grown =
        static_cast<float>(newScale * getGrowthFactor().convertToDouble());
    if (std::isfinite(grown))
      newScale = grown;
    newTracker = 0;
  } else {
    ++newTracker;
  }
  results.push_back(FloatAttr::get(Float32Type::get(getContext()), newScale));
  results.push_back(
      IntegerAttr::get(IntegerType::get(getContext(), 32), newTracker));
  return success();
}
