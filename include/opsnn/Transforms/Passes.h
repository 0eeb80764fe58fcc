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
#include "llvm/ADT/DenseSet.h"

namespace mlir {
class RewritePatternSet;
class RewriterBase;
namespace opsnn {
namespace layout {
class LayoutTransformOpInterface;
} // namespace layout
} // namespace opsnn
namespace linalg {
class GenericOp;
class LinalgOp;
} // namespace linalg
namespace opsnn {

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

/// Fuses `siblings`, contractions on static tensors that compute alike,
/// read one input in common and a constant of one type as the other, into
/// an init filled with one value, into a single linalg.generic: the
/// constants stacked along a new parallel loop placed before N (in C and in
/// the constants), and each sibling replaced by the unit slice
/// [.., i, ..] of the result along that dimension
/// (--opsnn-fuse-sibling-contractions). Fails, changing nothing, otherwise.
FailureOr<linalg::GenericOp>
fuseSiblingContractions(RewriterBase &rewriter,
                        ArrayRef<linalg::LinalgOp> siblings);

/// Merges the elementwise linalg.generics that compute alike, each on
/// another slice of one tensor along one dimension (unit slices [.., i, ..]
/// for every i, or ranges that cover it), into one generic over that tensor
/// whose result the old ones are slices of (their differing constant inputs
/// stacked or concatenated). With `sources`, only slices of those tensors;
/// the merged results are added to it (chains of consumers).
void populateMergeSlicedElementwisePatterns(
    RewritePatternSet &patterns, llvm::DenseSet<Value> *sources = nullptr);

#define GEN_PASS_REGISTRATION
#include "opsnn/Transforms/Passes.h.inc"

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_TRANSFORMS_PASSES_H
