//===- CostModel.h - Roofline estimates every decision consults -*- C++ -*-===//
//
// One class for every cost question ALTE and the precision policy ask: how
// long an op takes for a (layout efficiency, precision) choice on a target,
// whether tensor cores apply, and what a layout.convert or precision.cast
// costs. A roofline: time = max(FLOPs / peak, bytes / (bandwidth x
// efficiency)), with the peaks of opsnn/Target/TargetDescription.h.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_COSTMODEL_H
#define OPSNN_ANALYSIS_COSTMODEL_H

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Target/TargetDescription.h"

namespace mlir::opsnn {

/// The precision an op computes in.
enum class Precision { FP32, TF32, FP16, BF16, FP8, INT8 };

StringRef stringifyPrecision(Precision precision);

/// The precision `op` computes in, from the narrowest float (or integer)
/// element type among its operands.
Precision inferComputePrecision(Operation *op);

struct CostEstimate {
  double computeSeconds = 0;
  double memorySeconds = 0;
  /// Whether the compute time assumes tensor cores.
  bool tensorCores = false;

  double seconds() const { return std::max(computeSeconds, memorySeconds); }
  bool isMemoryBound() const { return memorySeconds >= computeSeconds; }
};

class CostModel {
public:
  explicit CostModel(TargetDescription target) : target(std::move(target)) {}

  const TargetDescription &getTarget() const { return target; }

  /// Tensor cores (or the CPU's matrix/dot units, for INT8 on the host
  /// table) apply to convolutions and contractions whose precision has a
  /// peak on this target and whose contraction dimensions (K and N of a
  /// GEMM; input and output channels of a convolution) are multiples of
  /// the MMA alignment: 4 elements for TF32, 8 for FP16/BF16, 16 for FP8
  /// and INT8. Dynamic sizes are not assumed aligned.
  bool isTensorCoreEligible(const OpFingerprint &fp,
                            Precision precision) const;

  /// Peak operations per second for `precision`: the tensor-core rate when
  /// `tensorCores`, the FP32 CUDA-core rate otherwise (a conservative floor
  /// for FP16/BF16 arithmetic off the tensor cores).
  double getPeakOpsPerSecond(Precision precision, bool tensorCores) const;

  /// Roofline time of a fingerprinted op. `bytesScale` rescales the
  /// fingerprint's bytes for a narrower or wider storage type than the one
  /// it was computed for (0.5 for f32 -> f16); `memoryEfficiency` in (0, 1]
  /// is the fraction of every fetched line the access pattern uses (the
  /// layout score). Symbolic counts must be evaluated first: `fp` must be
  /// static.
  CostEstimate estimateOp(const OpFingerprint &fp, Precision precision,
                          double bytesScale = 1.0,
                          double memoryEfficiency = 1.0) const;

  /// A convolution whose activations are stored channels-first (NCHW) when
  /// it runs on tensor cores: implicit-GEMM kernels load the reduced
  /// channels as vectors, so channels-first data is transposed to
  /// channels-last and back around the convolution (what cuDNN does for
  /// NCHW tensor-core convolutions). `inputBytes` and `outputBytes` are the
  /// activation tensors. Off the tensor cores the layout costs nothing
  /// extra beyond `memoryEfficiency`.
  CostEstimate estimateChannelsFirstConvolution(const OpFingerprint &fp,
                                                Precision precision,
                                                double inputBytes,
                                                double outputBytes,
                                                double bytesScale = 1.0) const;

  /// A layout.convert of `bytes`: read once and written once; a transposing
  /// conversion reads or writes with the efficiencies given.
  CostEstimate estimateLayoutConvert(double bytes, double readEfficiency = 1.0,
                                     double writeEfficiency = 1.0) const;

  /// A precision.cast of `elements` from `sourceBytes` to `resultBytes`
  /// per element (memory bound).
  CostEstimate estimateCast(double elements, double sourceBytes,
                            double resultBytes) const;

private:
  double bandwidthBytesPerSecond() const {
    return target.dramBandwidthGBps * 1e9;
  }

  TargetDescription target;
};

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_COSTMODEL_H
