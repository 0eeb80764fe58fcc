//===- TransposeFolding.h - Transposes into indexing maps -------*- C++ -*-===//
//
// A transpose moves no value anywhere a neighbouring linalg.generic could
// not read or write it itself: folded into the generic's indexing map it
// costs no copy (the zero-copy folding of DESIGN.md's layout conversions,
// at the linalg level). The importer's attention heads are the case that
// matters: [b, s, h, d] -> [b, h, s, d] before Q K^T and P V, and back
// after, four copies per layer that become strided reads and writes of the
// batched GEMMs. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TRANSPOSEFOLDING_H
#define OPSNN_LIB_TRANSFORMS_TRANSPOSEFOLDING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {

/// Whether `op` copies its one input to its one init through permutation
/// maps that differ: a transpose.
bool isTransposingCopy(linalg::GenericOp op);

/// linalg.transpose -> linalg.generic: a copy whose input map permutes,
/// which elementwise fusion moves into its consumer's input map.
void populateGeneralizeTransposePatterns(RewritePatternSet &patterns);

/// A generic copy that permutes its input, folded into the output map of
/// the linalg.generic producing that input (used only there). For the
/// copies elementwise fusion left (it had its turn first): a contraction's
/// result, or what a contraction would read with an M, N or K group split.
/// The producer's init is recreated in the transposed shape: the copy's
/// own init when the producer does not read its init, a linalg.fill of it
/// with the same value when the producer's init was such a fill (a
/// contraction's zero). Run after elementwise fusion has had its turn.
void populateFoldTransposeIntoProducerPatterns(RewritePatternSet &patterns);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TRANSPOSEFOLDING_H
