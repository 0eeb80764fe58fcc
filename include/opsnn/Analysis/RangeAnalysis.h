//===- RangeAnalysis.h - Value ranges by intervals and calibration -*- C++ -*-//
//
// The analysis behind --opsnn-analyze-ranges: every float tensor of a
// function gets a range, from calibration data where the value was measured
// (layout conversions and casts take their operand's: the passes that insert
// them reuse another op's location, the calibration key), otherwise by interval
// propagation from constants (exact), user ranges on arguments, and the ranges
// already known upstream. Ranges are recorded with `recordRange`
// (ValueRanges.h). The calibration file format lives here too, so that the
// writer (`ops-nn-run --collect-ranges`) and the reader agree.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_RANGEANALYSIS_H
#define OPSNN_ANALYSIS_RANGEANALYSIS_H

#include "opsnn/Analysis/ValueRanges.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
namespace func {
class FuncOp;
} // namespace func
namespace opsnn {

/// Measured ranges by value key (`getValueKey`). On disk:
///
///   {"version": 1, "samples": 4,
///    "ranges": {"main/12:10#0": {"min": -3.1, "max": 7.5,
///                                "min_abs_nonzero": 0.0012}, ...}}
struct CalibrationTable {
  llvm::StringMap<KnownRange> ranges;
  /// How many input samples were merged into the table.
  int64_t samples = 0;

  /// Adds one measurement (union with what the key already has).
  void merge(llvm::StringRef key, const KnownRange &range);
  /// Adds every entry of `other`.
  void merge(const CalibrationTable &other);

  /// Reads a table; errors say "FILE:LINE:COL: ..." for syntax errors and
  /// name the key for bad entries.
  static llvm::Expected<CalibrationTable> read(llvm::StringRef path);
  /// Writes the table (to a temporary file renamed into place).
  llvm::Error write(llvm::StringRef path) const;
  void writeJSON(llvm::raw_ostream &os) const;
};

struct RangeAnalysisStats {
  unsigned calibrated = 0, propagated = 0, unknown = 0;
};

/// Records a range for every float-typed op result and argument of `func`
/// it can bound. `calibration` may be null. Previously recorded interval
/// ranges are recomputed (user and calibration ones on arguments kept).
RangeAnalysisStats analyzeRanges(func::FuncOp func,
                                 const CalibrationTable *calibration);

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_ANALYSIS_RANGEANALYSIS_H
