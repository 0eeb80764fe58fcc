//===- ValueRanges.cpp - Known value ranges of tensors --------------------===//
//
// See ValueRanges.h: exact ranges of constants, the attributes
// --opsnn-analyze-ranges records, and stable value keys.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/ValueRanges.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::opsnn;

StringRef mlir::opsnn::stringifyRangeSource(RangeSource source) {
  switch (source) {
  case RangeSource::Constant:
    return "constant";
  case RangeSource::Calibration:
    return "calibration";
  case RangeSource::User:
    return "user";
  case RangeSource::Interval:
    return "interval";
  }
  llvm_unreachable("unknown range source");
}

std::optional<RangeSource> mlir::opsnn::parseRangeSource(StringRef name) {
  return llvm::StringSwitch<std::optional<RangeSource>>(name)
      .Case("constant", RangeSource::Constant)
      .Case("calibration", RangeSource::Calibration)
      .Case("user", RangeSource::User)
      .Case("interval", RangeSource::Interval)
      .Default(std::nullopt);
}

double KnownRange::maxAbs() const {
  return std::max(std::fabs(min), std::fabs(max));
}

KnownRange KnownRange::unionWith(const KnownRange &other) const {
  KnownRange result = *this;
  result.min = std::min(min, other.min);
  result.max = std::max(max, other.max);
  // 0 means "no non-zero value" (or unknown for intervals): the other side's
  // figure is then the only one.
  if (minAbsNonzero == 0)
    result.minAbsNonzero = other.minAbsNonzero;
  else if (other.minAbsNonzero != 0)
    result.minAbsNonzero = std::min(minAbsNonzero, other.minAbsNonzero);
  if (!other.knowsSmallValues())
    result.source = other.source;
  return result;
}

void RangeBuilder::add(double x) {
  min = any ? std::min(min, x) : x;
  max = any ? std::max(max, x) : x;
  any = true;
  double magnitude = std::fabs(x);
  if (magnitude != 0 && (minAbsNonzero == 0 || magnitude < minAbsNonzero))
    minAbsNonzero = magnitude;
}

std::optional<KnownRange> RangeBuilder::finish(RangeSource source) const {
  if (!any)
    return std::nullopt;
  return KnownRange{min, max, minAbsNonzero, source};
}

/// The exact range of a dense float constant.
static std::optional<KnownRange> getConstantRange(Value value) {
  DenseElementsAttr values;
  if (!matchPattern(value, m_Constant(&values)) ||
      !isa<FloatType>(values.getElementType()) || values.empty())
    return std::nullopt;
  RangeBuilder range;
  if (values.isSplat())
    range.add(values.getSplatValue<APFloat>().convertToDouble());
  else
    for (APFloat x : values.getValues<APFloat>())
      range.add(x.convertToDouble());
  return range.finish(RangeSource::Constant);
}

static KnownRange fromAttr(precision::RangeAttr attr, RangeSource source) {
  return KnownRange{attr.getMinValue(), attr.getMaxValue(),
                    attr.getMinAbsNonzeroValue(), source};
}

static RangeSource sourceOf(Attribute attr, RangeSource fallback) {
  if (auto name = dyn_cast_or_null<StringAttr>(attr))
    if (std::optional<RangeSource> source = parseRangeSource(name))
      return *source;
  return fallback;
}

std::optional<KnownRange> mlir::opsnn::getKnownRange(Value value) {
  if (std::optional<KnownRange> constant = getConstantRange(value))
    return constant;
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast<func::FuncOp>(argument.getOwner()->getParentOp());
    if (!func || argument.getOwner() != &func.getBody().front())
      return std::nullopt;
    unsigned index = argument.getArgNumber();
    auto attr = func.getArgAttrOfType<precision::RangeAttr>(index,
                                                            kArgRangeAttrName);
    if (!attr)
      return std::nullopt;
    return fromAttr(attr, sourceOf(func.getArgAttr(index, kRangeSourceAttrName),
                                   RangeSource::User));
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  auto ranges = op->getAttrOfType<ArrayAttr>(kRangesAttrName);
  if (!ranges || ranges.size() != op->getNumResults()) {
    // Casts and layout conversions keep the values (up to rounding).
    if (isa<precision::CastOp, layout::ConvertOp>(op))
      return getKnownRange(op->getOperand(0));
    return std::nullopt;
  }
  auto attr = dyn_cast<precision::RangeAttr>(ranges[result.getResultNumber()]);
  if (!attr)
    return std::nullopt;
  return fromAttr(attr, sourceOf(op->getAttr(kRangeSourceAttrName),
                                 RangeSource::Interval));
}

static precision::RangeAttr toAttr(MLIRContext *context,
                                   const KnownRange &range) {
  return precision::RangeAttr::get(context, range.min, range.max,
                                   range.minAbsNonzero);
}

void mlir::opsnn::recordRange(Value value, const KnownRange &range) {
  MLIRContext *context = value.getContext();
  StringAttr source =
      StringAttr::get(context, stringifyRangeSource(range.source));
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto func = cast<func::FuncOp>(argument.getOwner()->getParentOp());
    func.setArgAttr(argument.getArgNumber(), kArgRangeAttrName,
                    toAttr(context, range));
    func.setArgAttr(argument.getArgNumber(), kRangeSourceAttrName, source);
    return;
  }
  auto result = cast<OpResult>(value);
  Operation *op = result.getOwner();
  SmallVector<Attribute> ranges(op->getNumResults(), UnitAttr::get(context));
  if (auto existing = op->getAttrOfType<ArrayAttr>(kRangesAttrName);
      existing && existing.size() == ranges.size())
    ranges.assign(existing.begin(), existing.end());
  ranges[result.getResultNumber()] = toAttr(context, range);
  op->setAttr(kRangesAttrName, ArrayAttr::get(context, ranges));
  op->setAttr(kRangeSourceAttrName, source);
}

void mlir::opsnn::clearRecordedRanges(Operation *root) {
  root->walk([](Operation *op) {
    op->removeAttr(kRangesAttrName);
    op->removeAttr(kRangeSourceAttrName);
    if (auto func = dyn_cast<func::FuncOp>(op))
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (func.getArgAttr(i, kRangeSourceAttrName) &&
            func.getArgAttrOfType<StringAttr>(i, kRangeSourceAttrName)
                    .getValue() != "user") {
          func.removeArgAttr(i, kArgRangeAttrName);
          func.removeArgAttr(i, kRangeSourceAttrName);
        }
  });
}

/// `NAME` of a NameLoc, `LINE:COL` of a file location, looking through
/// fused and call-site locations; empty when there is neither.
static std::string renderLocation(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return std::to_string(file.getLine()) + ":" +
           std::to_string(file.getColumn());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return renderLocation(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string text = renderLocation(inner); !text.empty())
        return text;
  return "";
}

std::string mlir::opsnn::getValueKey(Value value) {
  Operation *scope = value.getParentRegion()
                         ? value.getParentRegion()->getParentOp()
                         : nullptr;
  auto func = scope ? (isa<func::FuncOp>(scope)
                           ? cast<func::FuncOp>(scope)
                           : scope->getParentOfType<func::FuncOp>())
                    : func::FuncOp();
  std::string prefix = func ? func.getName().str() + "/" : "";
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (!func || argument.getOwner() != &func.getBody().front())
      return "";
    return prefix + "arg#" + std::to_string(argument.getArgNumber());
  }
  auto result = cast<OpResult>(value);
  std::string location = renderLocation(result.getOwner()->getLoc());
  if (location.empty())
    return "";
  return prefix + location + "#" + std::to_string(result.getResultNumber());
}
