//===- Quantize.h - Post-training quantization to INT8 and FP8 --*- C++ -*-===//
//
// The reusable pieces of --opsnn-quantize: `quantizeFunction` rewrites the
// contractions of a function with a constant float weight (and the
// embedding lookups of constant tables) to INT8 or FP8 storage, and
// `populateLowerQuantCastPatterns` lowers the upstream `quant.qcast` it
// emits with round-to-nearest-even and saturation (what
// --opsnn-lower-quant runs before upstream's dcast lowering).
// --opsnn-assign-precision mode=int8|fp8 calls `quantizeFunction` too.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TRANSFORMS_QUANTIZE_H
#define OPSNN_TRANSFORMS_QUANTIZE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir {
class RewritePatternSet;
namespace opsnn {

/// The storage type quantized ops use.
enum class QuantizeType {
  /// Signed 8-bit integers, symmetric (zero point 0, range [-127, 127]):
  /// weights per output channel (or per tensor), activations per tensor;
  /// contractions on i8 x i8 accumulating in i32.
  Int8,
  /// 8-bit floats with a per-tensor scale; contractions compute in f32
  /// after `arith.extf`.
  FP8,
};

std::optional<QuantizeType> parseQuantizeType(StringRef name);

/// The FP8 storage format: E4M3FN (max 448) for weights and activations,
/// E5M2 (max 57344, two more exponent bits) for gradients.
enum class FP8Format { E4M3FN, E5M2 };

std::optional<FP8Format> parseFP8Format(StringRef name);

struct QuantizeOptions {
  QuantizeType type = QuantizeType::Int8;
  /// INT8 weights: one scale per output channel (else one per tensor).
  bool perChannel = true;
  /// The first and the last contraction of the function stay FP32.
  bool skipFirstLast = false;
  FP8Format fp8Format = FP8Format::E4M3FN;
};

/// Quantizes the function's contractions with a constant f32 weight
/// (linalg.matmul, linalg.batch_matmul, linalg.conv_2d_nchw_fchw,
/// linalg.conv_2d_nhwc_hwcf, linalg.conv_2d_nhwc_fhwc) and the
/// `tensor.extract` lookups of constant f32 tables inside linalg ops. The
/// activation's scale comes from its known range (`getKnownRange`): without
/// one the op stays FP32. Every op considered records
/// `precision.decision = {precision = <type>, reason = "..."}` with
/// `precision` one of i8, f8E4M3FN, f8E5M2 or f32.
LogicalResult quantizeFunction(func::FuncOp func,
                               const QuantizeOptions &options);

/// `quant.qcast` of a ranked tensor (or scalar) to a per-tensor
/// `!quant.uniform` with integer storage -> divide by the scale, round to
/// nearest even, add the zero point, clamp to the storage range in float
/// (no out-of-range conversion), `arith.fptosi`, `quant.scast`.
void populateLowerQuantCastPatterns(RewritePatternSet &patterns);

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_TRANSFORMS_QUANTIZE_H
