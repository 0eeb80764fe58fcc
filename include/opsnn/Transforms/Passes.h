//===- Passes.h - ops-nn passes ---------------------------------*- C++ -*-===//
//
// Declarations and registration of every ops-nn pass, plus the reusable
// pattern sets the passes are thin wrappers around.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TRANSFORMS_PASSES_H
#define OPSNN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class RewriterBase;
namespace opsnn {
namespace layout {
class LayoutTransformOpInterface;
} // namespace layout

#define GEN_PASS_DECL
#include "opsnn/Transforms/Passes.h.inc"

/// layout.convert -> linalg.transpose / linalg.pack / linalg.unpack.
void populateLowerLayoutsPatterns(RewritePatternSet &patterns);

/// Moves layout.convert through linalg.fill and tensor.empty (static and
/// dynamic sizes) and, with the op's own canonicalizations, cancels and
/// composes conversions: the cleanup every ALTE pass runs.
void populateLayoutConversionCleanupPatterns(RewritePatternSet &patterns);

/// Replaces every layout.convert by an identical one (same input and
/// layouts) that dominates it: one conversion per value and layout.
void mergeDuplicateConversions(Operation *root);

/// Pushes layout.convert through layout-agnostic ops when that removes
/// conversions (--opsnn-propagate-layouts). With `foldIntoGenerics` a
/// conversion a generic's output map will absorb (the generic computing its
/// input, read only there) counts as none.
void populatePropagateLayoutsPatterns(RewritePatternSet &patterns,
                                      bool foldIntoGenerics = true);

/// Rewrites `op` into the candidate layout that removes the most
/// conversions around it, counted as --opsnn-propagate-layouts counts them
/// (that pass does this for layout-agnostic ops), and cancels the pairs that
/// meet; fails when no layout removes any.
FailureOr<Operation *>
pushConversionsThrough(RewriterBase &rewriter,
                       layout::LayoutTransformOpInterface op,
                       bool foldIntoGenerics = true);

/// precision ops -> arith / math / tensor / linalg.
void populateLowerPrecisionPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "opsnn/Transforms/Passes.h.inc"

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_TRANSFORMS_PASSES_H
