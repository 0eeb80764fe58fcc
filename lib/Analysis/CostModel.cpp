//===- CostModel.cpp - Roofline estimates every decision consults ---------===//
//
// See CostModel.h for the model; docs/CostModel.md for where the numbers
// come from.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/CostModel.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

#include <cassert>

using namespace mlir;
using namespace mlir::opsnn;

StringRef mlir::opsnn::stringifyPrecision(Precision precision) {
  switch (precision) {
  case Precision::FP32:
    return "fp32";
  case Precision::TF32:
    return "tf32";
  case Precision::FP16:
    return "fp16";
  case Precision::BF16:
    return "bf16";
  case Precision::FP8:
    return "fp8";
  case Precision::INT8:
    return "int8";
  }
  llvm_unreachable("unknown Precision");
}

/// Alignment, in elements, the contracted dimensions need for tensor cores:
/// 16 bytes, one vector load per thread, which is half the k-step of the
/// mma.sync shapes (m16n8k8 TF32, m16n8k16 FP16/BF16, m16n8k32 8-bit).
static int64_t getMmaAlignment(Precision precision) {
  switch (precision) {
  case Precision::TF32:
    return 4;
  case Precision::FP16:
  case Precision::BF16:
    return 8;
  case Precision::FP8:
  case Precision::INT8:
    return 16;
  case Precision::FP32:
    return 0;
  }
  llvm_unreachable("unknown Precision");
}

double CostModel::getPeakOpsPerSecond(Precision precision,
                                      bool tensorCores) const {
  double tera = 1e12;
  if (!tensorCores)
    return target.peakFp32Tflops * tera;
  switch (precision) {
  case Precision::FP32:
    return target.peakFp32Tflops * tera;
  case Precision::TF32:
    return target.peakTf32Tflops * tera;
  case Precision::FP16:
    return target.peakFp16Tflops * tera;
  case Precision::BF16:
    return target.peakBf16Tflops * tera;
  case Precision::FP8:
    return target.peakFp8Tflops * tera;
  case Precision::INT8:
    return target.peakInt8Tops * tera;
  }
  llvm_unreachable("unknown Precision");
}

bool CostModel::isTensorCoreEligible(const OpFingerprint &fp,
                                     Precision precision) const {
  if (fp.opClass != OpClass::Contraction && fp.opClass != OpClass::Convolution)
    return false;
  int64_t alignment = getMmaAlignment(precision);
  if (alignment == 0 || getPeakOpsPerSecond(precision, true) <= 0)
    return false;
  // The dimensions the MMA tiles: K and N of a GEMM, the reduced input
  // channels and the output channels of a convolution.
  bool sawContracted = false;
  for (auto [role, size] : llvm::zip(fp.roles, fp.sizes)) {
    bool contracted = role == DimRole::K || role == DimRole::N ||
                      role == DimRole::InputChannel ||
                      role == DimRole::OutputChannel;
    if (!contracted)
      continue;
    sawContracted = true;
    if (!size || *size % alignment != 0)
      return false;
  }
  return sawContracted;
}

CostEstimate CostModel::estimateOp(const OpFingerprint &fp,
                                   Precision precision, double bytesScale,
                                   double memoryEfficiency) const {
  assert(!fp.isSymbolic() && "evaluate symbolic counts first");
  assert(memoryEfficiency > 0 && memoryEfficiency <= 1 &&
         "efficiency is a fraction");
  CostEstimate estimate;
  estimate.tensorCores = isTensorCoreEligible(fp, precision);
  double flops = *fp.flops.getStaticValue();
  double bytes =
      (*fp.bytesRead.getStaticValue() + *fp.bytesWritten.getStaticValue()) *
      bytesScale;
  double peak = getPeakOpsPerSecond(precision, estimate.tensorCores);
  estimate.computeSeconds = peak > 0 ? flops / peak : 0;
  estimate.memorySeconds =
      bytes / (bandwidthBytesPerSecond() * memoryEfficiency);
  return estimate;
}

CostEstimate CostModel::estimateChannelsFirstConvolution(
    const OpFingerprint &fp, Precision precision, double inputBytes,
    double outputBytes, double bytesScale) const {
  CostEstimate estimate = estimateOp(fp, precision, bytesScale);
  if (fp.opClass != OpClass::Convolution || !estimate.tensorCores)
    return estimate;
  // Transposes in and out, each memory bound, in sequence with the op.
  CostEstimate transposes = estimateLayoutConvert(inputBytes * bytesScale);
  transposes.memorySeconds +=
      estimateLayoutConvert(outputBytes * bytesScale).memorySeconds;
  estimate.memorySeconds += transposes.memorySeconds;
  estimate.computeSeconds += transposes.memorySeconds;
  return estimate;
}

CostEstimate CostModel::estimateLayoutConvert(double bytes,
                                              double readEfficiency,
                                              double writeEfficiency) const {
  assert(readEfficiency > 0 && writeEfficiency > 0 &&
         "efficiencies are fractions");
  CostEstimate estimate;
  estimate.memorySeconds = bytes / (bandwidthBytesPerSecond() * readEfficiency) +
                           bytes / (bandwidthBytesPerSecond() * writeEfficiency);
  return estimate;
}

CostEstimate CostModel::estimateCast(double elements, double sourceBytes,
                                     double resultBytes) const {
  CostEstimate estimate;
  estimate.memorySeconds =
      elements * (sourceBytes + resultBytes) / bandwidthBytesPerSecond();
  estimate.computeSeconds =
      elements / getPeakOpsPerSecond(Precision::FP32, false);
  return estimate;
}

/// The precision an op computes in, from the narrowest float (or integer)
/// element type among its operands.
Precision mlir::opsnn::inferComputePrecision(Operation *op) {
  Precision precision = Precision::FP32;
  unsigned narrowest = 32;
  for (Type type : op->getOperandTypes()) {
    Type element = getElementTypeOrSelf(type);
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() >= narrowest)
      continue;
    narrowest = element.getIntOrFloatBitWidth();
    if (element.isF16())
      precision = Precision::FP16;
    else if (element.isBF16())
      precision = Precision::BF16;
    else if (isa<FloatType>(element) && narrowest == 8)
      precision = Precision::FP8;
    else if (element.isInteger(8))
      precision = Precision::INT8;
  }
  return precision;
}

