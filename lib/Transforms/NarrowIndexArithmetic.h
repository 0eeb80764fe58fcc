//===- NarrowIndexArithmetic.h - Affine index math in 32 bits --*- C++ -*-===//
//
// Index arithmetic a kernel builder knows to be small and non-negative at
// its root (a row of the implicit im2col matrix, a column of K) lowered as
// 32-bit integer arithmetic with unsigned division instead of as index
// (64-bit) signed floordiv/mod, which is what lower-affine makes of an
// affine.apply: on NVPTX, 64-bit signed division by a constant is a 64-bit
// mul.hi (emulated in several 32-bit instructions) plus the sign fix-ups.
//
// The builder marks the affine.apply ops with the exclusive upper bounds of
// their operands (which are at least 0); once nothing else needs them as
// affine.apply (upstream's vector-to-mma conversion takes scalar arith.addi
// /muli/divui in a kernel for elementwise fragment ops, affine.apply not),
// narrowMarkedIndexArithmetic rewrites each whose every subexpression
// provably fits in i32 and whose every floordiv/mod divides a non-negative
// value by a positive constant; the others stay affine.apply.
// Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_NARROWINDEXARITHMETIC_H
#define OPSNN_LIB_TRANSFORMS_NARROWINDEXARITHMETIC_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"

namespace mlir::opsnn {

/// Marks `apply` for narrowMarkedIndexArithmetic: operand i lies in
/// [0, operandBounds[i]).
void markNarrowable(affine::AffineApplyOp apply,
                    ArrayRef<int64_t> operandBounds);

/// Rewrites every marked affine.apply under `root` whose expression fits in
/// 32 bits (see the file comment) as i32 arith ops and one index cast;
/// drops the mark of the others. Returns how many it rewrote.
int64_t narrowMarkedIndexArithmetic(Operation *root);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_NARROWINDEXARITHMETIC_H
