//===- OpFingerprint.h - What an operation is and costs ---------*- C++ -*-===//
//
// The operator fingerprint ALTE and the precision policy consult: an op's
// class (convolution, contraction, pooling, elementwise, ...), its FLOPs,
// the minimum bytes it reads and writes, its arithmetic intensity and the
// role each loop dimension plays. Derived from the linalg structured-op
// interface (iterator types, indexing maps, payload), so a linalg.generic
// that is a convolution or a matmul is recognised as one.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_OPFINGERPRINT_H
#define OPSNN_ANALYSIS_OPFINGERPRINT_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::opsnn {

enum class OpClass {
  Convolution,
  Contraction,
  Pooling,
  Elementwise,
  Broadcast,
  Reduction,
  Normalization,
  Softmax,
  Gather,
  DataMovement,
  Unknown,
};

/// "conv", "contraction", "pooling", ...
StringRef stringifyOpClass(OpClass opClass);

/// The op-class names users write in pass options and policy files (with
/// aliases: convolution, contraction, matmul, pooling, normalization,
/// data_movement).
constexpr llvm::StringLiteral kOpClassOptionNames =
    "conv, gemm, pool, elementwise, broadcast, reduction, norm, softmax, "
    "data-movement";

/// Parses one of kOpClassOptionNames (or an alias); nullopt otherwise.
std::optional<OpClass> parseOpClassOptionName(StringRef name);

/// A count that may depend on dynamic loop sizes: a sum of terms
/// `coefficient * d_i * d_j * ...` over the op's dynamic loop dimensions.
class SymbolicCount {
public:
  SymbolicCount() = default;
  /// coefficient * product of the dynamic dimensions `symbols`.
  static SymbolicCount term(double coefficient, ArrayRef<unsigned> symbols);

  SymbolicCount &operator+=(const SymbolicCount &other);
  SymbolicCount scaled(double factor) const;

  bool isStatic() const;
  /// The value when static; failure otherwise.
  std::optional<double> getStaticValue() const;
  /// The value with every dynamic dimension d<i> set to `sizeOf(i)`.
  double evaluate(llvm::function_ref<double(unsigned)> sizeOf) const;
  /// "1204224*d0 + 512", or "3456" when static.
  std::string str() const;

private:
  struct Term {
    double coefficient;
    SmallVector<unsigned> symbols; // sorted loop-dimension indices
  };
  SmallVector<Term> terms;
};

/// Role of a loop dimension.
enum class DimRole {
  Batch,
  OutputChannel,
  InputChannel,
  Depth,   // depthwise/grouped channel, kept through the op
  Spatial, // output image dimension of a conv/pool
  Window,  // filter/pooling window dimension
  M,
  N,
  K,
  Parallel,
  Reduction,
};

StringRef stringifyDimRole(DimRole role);

struct OpFingerprint {
  OpClass opClass = OpClass::Unknown;
  /// Arithmetic operations: a multiply-add counts 2; casts count 0.
  SymbolicCount flops;
  /// Each operand read once / each result written once.
  SymbolicCount bytesRead;
  SymbolicCount bytesWritten;
  /// Loop dimensions, in order: their role and static size (nullopt when
  /// dynamic and unbounded; those appear as d<i> in the counts).
  SmallVector<DimRole> roles;
  SmallVector<std::optional<int64_t>> sizes;
  /// Dynamic loop dimensions replaced by a constant upper bound (from
  /// ValueBoundsOpInterface): the counts are then upper bounds.
  SmallVector<unsigned> boundedDims;
  /// Why the op is Unknown (empty otherwise).
  std::string unknownReason;

  /// flops / (bytes read + written), when every count is static.
  std::optional<double> getArithmeticIntensity() const;
  bool isSymbolic() const {
    return !flops.isStatic() || !bytesRead.isStatic() ||
           !bytesWritten.isStatic();
  }
};

/// Bytes one element of `type` (or of its element type) occupies in memory:
/// index counts 8, i1 and sub-byte types 1, non-numeric types 0.
int64_t getElementByteWidth(Type type);

/// Fingerprint of `op`: linalg structured ops are analysed through the
/// interface; data-movement ops (layout.convert, pads, reshapes, packs,
/// concat) get their bytes; anything else is Unknown with a reason.
OpFingerprint computeOpFingerprint(Operation *op);

/// True for ops a fingerprint says nothing useful about: constants, empty
/// tensors, terminators, ops without tensor operands or results.
bool isFingerprintIrrelevant(Operation *op);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_OPFINGERPRINT_H
