//===- PrecisionAttrs.cpp - Precision dialect attributes ------------------===//
//
// Verifiers and helpers of #precision.assignment and #precision.range.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::opsnn::precision;

/// `custom<Double>`: a float literal, printed so that it reads back exactly.
static ParseResult parseDouble(AsmParser &parser, FailureOr<APFloat> &value) {
  APFloat parsed(0.0);
  if (parser.parseFloat(llvm::APFloat::IEEEdouble(), parsed))
    return failure();
  value = parsed;
  return success();
}

static void printDouble(AsmPrinter &printer, const APFloat &value) {
  printer.printFloat(value);
}

#define GET_ATTRDEF_CLASSES
#include "opsnn/Dialect/Precision/IR/PrecisionAttrs.cpp.inc"

void PrecisionDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "opsnn/Dialect/Precision/IR/PrecisionAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// AssignmentAttr
//===----------------------------------------------------------------------===//

static unsigned getScalarBitWidth(Type type) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatType.getWidth();
  return cast<IntegerType>(type).getWidth();
}

LogicalResult
AssignmentAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                       Type storage, Type compute, Type accumulate) {
  for (auto [role, type] :
       {std::pair<StringRef, Type>{"storage", storage},
        {"compute", compute},
        {"accumulate", accumulate}}) {
    bool ok = isa<FloatType>(type) ||
              (isa<IntegerType>(type) && cast<IntegerType>(type).isSignless());
    if (!ok)
      return emitError() << role << " type " << type
                         << " is not a float or signless integer type";
  }
  if (getScalarBitWidth(accumulate) < getScalarBitWidth(compute))
    return emitError() << "accumulate type " << accumulate
                       << " is narrower than compute type " << compute;
  return success();
}

//===----------------------------------------------------------------------===//
// RangeAttr
//===----------------------------------------------------------------------===//

LogicalResult
RangeAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                  APFloat minValue, APFloat maxValue,
                  APFloat minAbsNonzeroValue) {
  double min = minValue.convertToDouble();
  double max = maxValue.convertToDouble();
  double minAbsNonzero = minAbsNonzeroValue.convertToDouble();
  if (std::isnan(min) || std::isnan(max) || std::isnan(minAbsNonzero))
    return emitError() << "range bounds must not be NaN";
  if (min > max)
    return emitError() << "range min " << min << " is greater than max "
                       << max;
  if (minAbsNonzero < 0)
    return emitError() << "min_abs_nonzero " << minAbsNonzero
                       << " is negative";
  if (minAbsNonzero > std::max(std::fabs(min), std::fabs(max)))
    return emitError() << "min_abs_nonzero " << minAbsNonzero
                       << " exceeds the largest magnitude of the range";
  return success();
}

double RangeAttr::getMaxAbs() const {
  return std::max(std::fabs(getMinValue()), std::fabs(getMaxValue()));
}

bool RangeAttr::fitsIn(FloatType type) const {
  const llvm::fltSemantics &semantics = type.getFloatSemantics();
  double largest = APFloat::getLargest(semantics).convertToDouble();
  double smallestNormal =
      APFloat::getSmallestNormalized(semantics).convertToDouble();
  if (getMaxAbs() > largest)
    return false;
  double minAbsNonzero = getMinAbsNonzeroValue();
  return minAbsNonzero == 0 || minAbsNonzero >= smallestNormal;
}
