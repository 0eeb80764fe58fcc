//===- Report.cpp - JSON report of fingerprints and estimates -------------===//
//
// --opsnn-report: per-op fingerprints and cost-model estimates, precision
// decisions and value ranges, per-function totals and memory footprint
// (weights, peak activations, as stored and as FP32), as versioned JSON
// (schema in docs/Report.md).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/CostModel.h"
#include "opsnn/Analysis/LayoutScore.h"
#include "opsnn/Analysis/MemoryFootprint.h"
#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Analysis/ValueRanges.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cmath>

namespace mlir::opsnn {
#define GEN_PASS_DEF_REPORTPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The scores of `op`'s operands in their current layouts (with the output
/// in its current layout), and the memory efficiency they add up to: total
/// bytes over effective bytes (each operand's bytes divided by its score).
static std::optional<std::pair<llvm::json::Array, double>>
getCurrentLayoutScores(Operation *op, const TargetDescription &target) {
  FailureOr<SmallVector<LayoutScore>> scores = computeLayoutScores(op, target);
  if (failed(scores))
    return std::nullopt;
  llvm::json::Array entries;
  double bytes = 0, effectiveBytes = 0;
  for (const LayoutScore &score : *scores) {
    if (!score.isCurrent)
      continue;
    auto type = cast<RankedTensorType>(op->getOperand(score.operand).getType());
    double operandBytes = type.getNumElements() * getElementByteWidth(type);
    bytes += operandBytes;
    effectiveBytes += operandBytes / score.score;
    entries.push_back(llvm::json::Object{{"operand", score.operand},
                                         {"layout", score.layout},
                                         {"score", score.score},
                                         {"stride", score.stride}});
  }
  return std::make_pair(std::move(entries),
                        effectiveBytes > 0 ? bytes / effectiveBytes : 1.0);
}

static llvm::json::Value countToJson(const SymbolicCount &count) {
  if (std::optional<double> value = count.getStaticValue())
    return static_cast<int64_t>(*value);
  return count.str();
}

static std::string locationToString(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().str() + ":" +
            std::to_string(fileLoc.getLine()) + ":" +
            std::to_string(fileLoc.getColumn()));
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

/// A double as JSON: non-finite values (which JSON cannot hold) as strings.
static llvm::json::Value doubleToJson(double value) {
  if (std::isfinite(value))
    return value;
  if (std::isnan(value))
    return "nan";
  return value > 0 ? "inf" : "-inf";
}

/// The report's name for a float type: fp32, fp16, bf16, else as printed.
static std::string precisionName(Type type) {
  if (type.isF32())
    return "fp32";
  if (type.isF16())
    return "fp16";
  if (type.isBF16())
    return "bf16";
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// Adds what --opsnn-assign-precision decided for `op` (`precision`,
/// `precision_reason`) and what --opsnn-analyze-ranges recorded on it
/// (`ranges`, one per result, null where unknown; `range_source`).
static void addPrecisionFields(Operation *op, llvm::json::Object &entry) {
  if (auto decision = op->getAttrOfType<DictionaryAttr>("precision.decision")) {
    if (auto precision = decision.getAs<TypeAttr>("precision"))
      entry["precision"] = precisionName(precision.getValue());
    if (auto reason = decision.getAs<StringAttr>("reason"))
      entry["precision_reason"] = reason.getValue();
  }
  if (auto ranges = op->getAttrOfType<ArrayAttr>(kRangesAttrName)) {
    llvm::json::Array entries;
    for (Attribute attr : ranges) {
      auto range = dyn_cast<precision::RangeAttr>(attr);
      if (!range) {
        entries.push_back(nullptr); // unit: nothing known for this result
        continue;
      }
      entries.push_back(llvm::json::Object{
          {"min", doubleToJson(range.getMinValue())},
          {"max", doubleToJson(range.getMaxValue())},
          {"min_abs_nonzero", doubleToJson(range.getMinAbsNonzeroValue())}});
    }
    entry["ranges"] = std::move(entries);
  }
  if (auto source = op->getAttrOfType<StringAttr>(kRangeSourceAttrName))
    entry["range_source"] = source.getValue();
}

/// The `memory` object of docs/Report.md.
static llvm::json::Object memoryToJson(const MemoryFootprint &footprint) {
  llvm::json::Object memory{
      {"weight_bytes", footprint.weightBytes},
      {"weight_bytes_fp32", footprint.weightBytesFP32},
      {"peak_activation_bytes", footprint.peakActivationBytes},
      {"peak_activation_bytes_fp32", footprint.peakActivationBytesFP32},
      {"saved_fraction", footprint.getSavedFraction()},
      {"dynamic", footprint.dynamic}};
  // Where the peak is reached (per function only).
  if (footprint.peakOp)
    memory["peak_at"] = llvm::json::Object{
        {"op", footprint.peakOp->getName().getStringRef()},
        {"loc", locationToString(footprint.peakOp->getLoc())}};
  return memory;
}

namespace {
struct ReportPass : opsnn::impl::ReportPassBase<ReportPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<TargetDescription> target = lookupTarget(targetName);
    if (!target) {
      module.emitError() << "opsnn-report: unknown target \"" << targetName
                         << "\"; known targets: " << getKnownTargetNames();
      return signalPassFailure();
    }
    CostModel model(*target);

    llvm::json::Array functions;
    // Module memory: weights of all functions, the largest peak (one
    // function runs at a time).
    MemoryFootprint moduleMemory;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      MemoryFootprint memory = computeMemoryFootprint(func);
      moduleMemory.weightBytes += memory.weightBytes;
      moduleMemory.weightBytesFP32 += memory.weightBytesFP32;
      moduleMemory.peakActivationBytes = std::max(
          moduleMemory.peakActivationBytes, memory.peakActivationBytes);
      moduleMemory.peakActivationBytesFP32 =
          std::max(moduleMemory.peakActivationBytesFP32,
                   memory.peakActivationBytesFP32);
      moduleMemory.dynamic |= memory.dynamic;
      llvm::json::Array ops;
      double totalFlops = 0, totalBytes = 0, totalSeconds = 0;
      int64_t unknownOps = 0, symbolicOps = 0, conversions = 0;
      func.walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (isFingerprintIrrelevant(op))
          return WalkResult::advance();
        OpFingerprint fp = computeOpFingerprint(op);
        llvm::json::Object entry{
            {"op", op->getName().getStringRef()},
            {"loc", locationToString(op->getLoc())},
            {"class", stringifyOpClass(fp.opClass)}};
        if (isa<layout::ConvertOp>(op))
          ++conversions;
        // The layout the op computes in and, after
        // --opsnn-assign-layouts="annotate", why.
        if (auto iface = dyn_cast<layout::LayoutTransformOpInterface>(op))
          if (layout::LayoutAttr computeLayout = iface.getComputeLayout())
            entry["layout"] = computeLayout.getName();
        if (auto decision = op->getAttrOfType<DictionaryAttr>("layout.decision"))
          if (auto reason = decision.getAs<StringAttr>("reason"))
            entry["layout_reason"] = reason.getValue();
        if (fp.opClass == OpClass::Unknown) {
          entry["reason"] = fp.unknownReason;
          addPrecisionFields(op, entry);
          ++unknownOps;
          ops.push_back(std::move(entry));
          return WalkResult::skip();
        }
        entry["flops"] = countToJson(fp.flops);
        entry["bytes_read"] = countToJson(fp.bytesRead);
        entry["bytes_written"] = countToJson(fp.bytesWritten);
        Precision precision = inferComputePrecision(op);
        entry["precision"] = stringifyPrecision(precision);
        entry["tensor_cores"] = model.isTensorCoreEligible(fp, precision);
        addPrecisionFields(op, entry);
        if (fp.isSymbolic()) {
          entry["estimated_seconds"] = nullptr;
          ++symbolicOps;
        } else {
          double efficiency = 1.0;
          if (auto scores = getCurrentLayoutScores(op, *target)) {
            entry["layout_scores"] = std::move(scores->first);
            efficiency = scores->second;
            entry["memory_efficiency"] = efficiency;
          }
          CostEstimate estimate =
              model.estimateOp(fp, precision, /*bytesScale=*/1.0, efficiency);
          entry["intensity"] = fp.getArithmeticIntensity().value_or(0.0);
          entry["estimated_seconds"] = estimate.seconds();
          entry["bound"] = estimate.isMemoryBound() ? "memory" : "compute";
          totalFlops += *fp.flops.getStaticValue();
          totalBytes += *fp.bytesRead.getStaticValue() +
                        *fp.bytesWritten.getStaticValue();
          totalSeconds += estimate.seconds();
        }
        ops.push_back(std::move(entry));
        return WalkResult::skip(); // the payload is part of the op
      });
      functions.push_back(llvm::json::Object{
          {"name", func.getName()},
          {"memory", memoryToJson(memory)},
          {"ops", std::move(ops)},
          {"totals", llvm::json::Object{{"flops", totalFlops},
                                        {"bytes", totalBytes},
                                        {"estimated_seconds", totalSeconds},
                                        {"layout_conversions", conversions},
                                        {"unknown_ops", unknownOps},
                                        {"symbolic_ops", symbolicOps}}}});
    }
    llvm::json::Object report{{"schema", "opsnn-report"},
                              {"version", 1},
                              {"target", target->name},
                              {"functions", std::move(functions)},
                              {"memory", memoryToJson(moduleMemory)}};

    std::string error;
    std::unique_ptr<llvm::ToolOutputFile> output =
        openOutputFile(file, &error);
    if (!output) {
      module.emitError() << "opsnn-report: " << error;
      return signalPassFailure();
    }
    output->os() << llvm::formatv("{0:2}",
                                  llvm::json::Value(std::move(report)))
                 << "\n";
    output->keep();
  }
};
} // namespace
