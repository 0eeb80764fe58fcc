//===- ValueRanges.h - Known value ranges of tensors ------------*- C++ -*-===//
//
// Where the precision passes learn how large and how small a tensor's values
// get: constants are read exactly; other values carry what
// --opsnn-analyze-ranges recorded (interval propagation, calibration data,
// or a range the user put on a function argument). Also names values
// stably across compilations (`getValueKey`), which is how a calibration file
// written by `ops-nn-run --collect-ranges` finds its values again.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_VALUERANGES_H
#define OPSNN_ANALYSIS_VALUERANGES_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::opsnn {

/// Discardable attributes the range analysis writes.
/// On an op: `precision.ranges = [#precision.range<...> | unit, ...]`, one
/// entry per result (unit: nothing known), and `precision.range_source`.
constexpr llvm::StringLiteral kRangesAttrName = "precision.ranges";
constexpr llvm::StringLiteral kRangeSourceAttrName = "precision.range_source";
/// On a function argument: `{precision.range = #precision.range<...>}` and
/// optionally `precision.range_source` (default "user").
constexpr llvm::StringLiteral kArgRangeAttrName = "precision.range";

/// Where a range comes from. Only exact or measured ranges know how small
/// the non-zero values get; interval bounds only bound magnitudes.
enum class RangeSource { Constant, Calibration, User, Interval };

llvm::StringRef stringifyRangeSource(RangeSource source);
std::optional<RangeSource> parseRangeSource(llvm::StringRef name);

/// A value range: [min, max] and the smallest non-zero magnitude (0 when no
/// value is non-zero, or when the source cannot tell: see
/// `knowsSmallValues`).
struct KnownRange {
  double min = 0, max = 0, minAbsNonzero = 0;
  RangeSource source = RangeSource::Interval;

  double maxAbs() const;
  /// True when `minAbsNonzero` is a fact, not a placeholder (constants,
  /// calibration data, user ranges).
  bool knowsSmallValues() const { return source != RangeSource::Interval; }
  /// The smallest range holding both.
  KnownRange unionWith(const KnownRange &other) const;
};

/// Accumulates the range of a stream of values: min, max and the smallest
/// non-zero magnitude (0 when every value is 0).
class RangeBuilder {
public:
  void add(double x);
  /// nullopt when nothing was added.
  std::optional<KnownRange> finish(RangeSource source) const;

private:
  double min = 0, max = 0, minAbsNonzero = 0;
  bool any = false;
};

/// The range of `value` if known: exact for a dense float constant
/// (`arith.constant` or anything constant-foldable to one), else the one
/// recorded on its defining op or function argument, else nullopt.
std::optional<KnownRange> getKnownRange(Value value);

/// Records `range` for `value` (an op result or a function argument) as the
/// attributes above. An op keeps a single source: the last one recorded.
void recordRange(Value value, const KnownRange &range);

/// Removes every recorded range from `op` and the ops nested in it.
void clearRecordedRanges(Operation *op);

/// A name for `value` that survives re-parsing and the graph rewrites of
/// ops-nn (rewritten ops keep their location): `FUNC/LOC#RESULT` for op
/// results, `FUNC/arg#N` for function arguments. LOC is a NameLoc's name or
/// `LINE:COL` of a file location (the file name is left out, so stdin and a
/// file give the same keys). Empty for values with no usable location.
std::string getValueKey(Value value);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_VALUERANGES_H
