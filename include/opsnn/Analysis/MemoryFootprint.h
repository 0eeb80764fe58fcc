//===- MemoryFootprint.h - Weight and peak activation bytes ----*- C++ -*-===//
//
// How much memory a function needs: the bytes of its weights (dense tensor
// constants, and arguments marked `opsnn.weight`) and the peak of its live
// activation bytes, from a liveness sweep in program order over its tensor
// SSA values, grouped into the buffers bufferization would give them
// (destination-passing ops write into a dying init, views alias their
// source). Each figure also comes "as FP32" (every float element at 4 bytes,
// precision.cast a no-op), so that a mixed-precision function states its
// own saving. The report (--opsnn-report) prints these figures.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_MEMORYFOOTPRINT_H
#define OPSNN_ANALYSIS_MEMORYFOOTPRINT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::opsnn {

/// A function argument with this unit attribute holds weights (parameters an
/// importer kept out of the IR): counted with the weights, not live as an
/// activation.
constexpr llvm::StringLiteral kWeightArgAttrName = "opsnn.weight";

struct MemoryFootprint {
  /// Dense tensor constants plus `opsnn.weight` arguments, in their element
  /// types and with every float element at 4 bytes.
  int64_t weightBytes = 0, weightBytesFP32 = 0;
  /// The largest sum of live activation buffer bytes at any op, in the
  /// element types and as FP32 (each its own sweep).
  int64_t peakActivationBytes = 0, peakActivationBytesFP32 = 0;
  /// Where the live bytes (as stored) first reach their peak: the op, or
  /// the function itself when its arguments alone are the peak; null when
  /// nothing is live.
  Operation *peakOp = nullptr;
  /// Some counted tensor has a dynamic dimension (counted as 1).
  bool dynamic = false;

  int64_t getTotalBytes() const { return weightBytes + peakActivationBytes; }
  int64_t getTotalBytesFP32() const {
    return weightBytesFP32 + peakActivationBytesFP32;
  }
  /// 1 - total / total as FP32 (0 for an empty function).
  double getSavedFraction() const;
};

/// The footprint of `function` (a func.func or any op whose first region's
/// entry block holds the arguments). Program order is the pre-order walk of
/// its body; a value used inside a region (a loop body) stays live until
/// the end of the op that holds the region.
///
/// Buffers: a tensor.empty, an activation argument, or an op result that
/// aliases nothing starts a buffer with the value's bytes. A result of a
/// destination-passing op shares its tied init's buffer when no later op
/// reads that buffer (in-place update); the results of tensor.collapse_shape,
/// expand_shape, extract_slice, cast, reshape and bitcast share their
/// source's buffer; so does precision.cast in the FP32 sweep. A buffer is
/// live from its first definition to the last use of any value in it, both
/// ends included. Views of weights are weights (no activation bytes); a
/// destination-passing op never writes into a weight (a new buffer).
MemoryFootprint computeMemoryFootprint(Operation *function);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_MEMORYFOOTPRINT_H
