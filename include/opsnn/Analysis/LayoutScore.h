//===- LayoutScore.h - How well a layout suits an op's accesses -*- C++ -*-===//
//
// The layout locality score: for an op, a choice of its output's layout
// (which decides the loop dimension that adjacent threads or vector lanes
// walk), and a candidate layout of one operand, the fraction of every
// fetched sector (GPU) or cache line (CPU) that the op uses. 1 means every
// fetched byte is used; 1/8 means f32 accesses one sector apart. Model and
// examples: docs/LayoutScore.md.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_LAYOUTSCORE_H
#define OPSNN_ANALYSIS_LAYOUTSCORE_H

#include "opsnn/Target/TargetDescription.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::opsnn {

/// One score: operand `operand` stored in `layout` while lanes walk
/// `threadDim` (the loop dimension of the output's innermost physical
/// dimension under `outputLayout`).
struct LayoutScore {
  std::string outputLayout;
  unsigned threadDim = 0;
  unsigned operand = 0;
  std::string layout;
  /// Used bytes / fetched bytes for one warp (GPU) or one cache line's
  /// worth of vectorized iterations (CPU), in (0, 1]; 1 for operands every
  /// lane reads at the same place.
  double score = 1;
  /// Element distance between the accesses of adjacent threads (0 when the
  /// operand does not depend on the thread dimension).
  int64_t stride = 0;
  /// Whether both the output and this operand are in their current layouts
  /// (the layouts the IR has now).
  bool isCurrent = false;
};

/// The logical dimension letters of each operand of `op` in its current
/// physical order ("NCHW" for a conv_2d_nchw_fchw input, "HWCF" for a
/// conv_2d_nhwc_hwcf filter, "MK"/"KN"/"MN" for a matmul), derived from the
/// loop roles of its fingerprint; nullopt where no letters apply (a 1-D
/// bias of a generic, batched contractions).
SmallVector<std::optional<std::string>> inferOperandLayouts(Operation *op);

/// The candidate layouts for an operand whose current layout has `letters`:
/// NCHW/NHWC, NCDHW/NDHWC, FCHW/HWCF/FHWC, FCDHW/DHWCF, CHW/HWC, and both
/// orders of a matrix.
SmallVector<std::string> getCandidateLayouts(StringRef letters);

/// Every score of `op` on `target`: for each candidate of the output, for
/// each operand, for each of the operand's candidates. Failure (with no
/// scores) when the op is not a linalg structured op with static shapes and
/// one output whose layout letters are known. The layout dialect must be
/// loaded (passes declare it as a dependent dialect).
FailureOr<SmallVector<LayoutScore>>
computeLayoutScores(Operation *op, const TargetDescription &target);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_LAYOUTSCORE_H
