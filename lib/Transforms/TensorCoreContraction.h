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
// of M = b*s, N = h*e, K = k. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H
#define OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace mlir::opsnn {

/// A contraction that is a GEMM, or a batch of independent GEMMs, on
/// collapsed views of its static identity-layout buffers.
struct CollapsibleGemm {
  Value a, b, c;
  /// The groups collapsing A to M x K, B to K x N (N x K when
  /// `bTransposed`) and C to M x N, each after a batch group when `batch`
  /// is above 1 (the batch loops leading every operand).
  SmallVector<ReassociationIndices> aGroups, bGroups, cGroups;
  int64_t m = 0, n = 0, k = 0, batch = 1;
  /// The element type of A and B.
  Type elementType;
  /// B's N dimensions come before its K dimensions (a weight stored as
  /// [out, in]).
  bool bTransposed = false;

  /// The collapse_shape views of A, B and C (3-D when batched).
  std::array<Value, 3> buildViews(OpBuilder &builder, Location loc) const;
};

/// `op` as a GEMM: two inputs of one element type (f16, bf16, i8, or f32
/// with `allowTF32`) and an accumulator of its type (f32, or i32 for i8),
/// a payload acc + ext(a) * ext(b) (arith.extf/extsi or no cast, in either
/// operand order), maps in which the batch, M, N and K loops each index
/// adjacent dimensions (batch leading every operand, then M leading A and
/// C, N trailing C, K trailing A), in the same order everywhere. Failure (the reason under
/// -debug-only=opsnn-gpu-tensor-core-matmul) otherwise.
FailureOr<CollapsibleGemm> matchCollapsibleGemm(linalg::GenericOp op,
                                                bool allowTF32);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCORECONTRACTION_H
