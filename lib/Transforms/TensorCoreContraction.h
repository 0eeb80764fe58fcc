//===- TensorCoreContraction.h - Contractions that collapse to a GEMM -*- C++ -*-===//
//
// The tensor-core GEMM kernel (--opsnn-gpu-tensor-core-matmul) takes
// linalg.matmul; models bring their projections as linalg.generic
// contractions over more dimensions: the ONNX importer's MatMul of a
// [batch, seq, d] activation by a [d, h, dh] weight (the heads split off
// by reshape fusion) is out[b, s, h, e] += x[b, s, k] * w[k, h, e]. With
// row-major buffers whose M dimensions lead A and C, N dimensions trail B
// and C and K dimensions are together, the operands are plain matrices
// already: collapse_shape views (no copies) make the contraction a GEMM
// of M = b*s, N = h*e, K = k. Attention's batched GEMMs read Q, K and V
// where the projections wrote them, [b, s, h, d], and P V writes the
// context there: transposed views whose batches (b, h) are not contiguous
// and whose rows are h*d elements apart. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H
#define OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace mlir::opsnn {

/// A contraction that is a GEMM, or a batch of independent GEMMs, on
/// views of its static buffers (A and B may be strided: slices of a larger
/// buffer; C has the identity layout).
struct CollapsibleGemm {
  /// How one operand is viewed as a (batch of) matrices: its dimensions
  /// permuted (memref.transpose, strided, when the batch dimensions do not
  /// lead) and then collapsed (memref.collapse_shape) into the batch
  /// dimensions (one when they are contiguous, else each on its own) and
  /// the two matrix dimensions, the second of unit stride.
  struct OperandView {
    /// View dimension i is operand dimension permutation[i].
    SmallVector<int64_t> permutation;
    SmallVector<ReassociationIndices> groups;
    /// Its rows and batches start 16 bytes apart and its rows are whole
    /// 16-byte copies; otherwise the kernel copies it element by element
    /// (attention's 17 x 17 probabilities as A).
    bool wholeCopies = true;

    bool isIdentityPermutation() const;
  };

  Value a, b, c;
  /// A as M x K, B as K x N (N x K when `bTransposed`), C as M x N, each
  /// after its batch dimensions when `batch` is above 1.
  OperandView aView, bView, cView;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  /// The element type of A and B.
  Type elementType;
  /// B's N dimensions come before its K dimensions (a weight stored as
  /// [out, in]).
  bool bTransposed = false;

  /// The views of A, B and C: 2-D, or with batch dimensions in front.
  std::array<Value, 3> buildViews(OpBuilder &builder, Location loc) const;
};

/// `op` as a GEMM: two inputs of one element type (f16, bf16, i8, or f32
/// with `allowTF32`) and an accumulator of its type (f32, or i32 for i8),
/// a payload acc + ext(a) * ext(b) (arith.extf/extsi or no cast, in either
/// operand order), maps in which the M, N and K loops each index adjacent
/// dimensions in the same order everywhere, K last in A and N last in C
/// (unit-stride rows), K or N last in B; the batch loops may sit anywhere
/// (attention's heads in [b, s, h, d]); a view whose rows do not start 16
/// bytes apart, or are not whole 16-byte copies, is not `wholeCopies`.
/// Failure (the reason under
/// -debug-only=opsnn-gpu-tensor-core-matmul) otherwise.
FailureOr<CollapsibleGemm> matchCollapsibleGemm(linalg::GenericOp op,
                                                bool allowTF32);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H
