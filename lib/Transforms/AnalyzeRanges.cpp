//===- AnalyzeRanges.cpp - --opsnn-analyze-ranges -------------------------===//
//
// Thin pass over RangeAnalysis: reads the calibration file once per pass
// instance and records the ranges of every function.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/RangeAnalysis.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_ANALYZERANGESPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {
struct AnalyzeRangesPass
    : opsnn::impl::AnalyzeRangesPassBase<AnalyzeRangesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    if (calibrationFile.empty())
      return success();
    llvm::Expected<CalibrationTable> table =
        CalibrationTable::read(calibrationFile);
    if (!table) {
      loadError = llvm::toString(table.takeError());
      return success(); // reported, located, on the first function
    }
    calibration = std::make_shared<CalibrationTable>(std::move(*table));
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!loadError.empty()) {
      func.emitError() << "opsnn-analyze-ranges: " << loadError;
      return signalPassFailure();
    }
    analyzeRanges(func, calibration.get());
  }

private:
  std::shared_ptr<const CalibrationTable> calibration;
  std::string loadError;
};
} // namespace
