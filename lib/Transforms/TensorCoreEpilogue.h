//===- TensorCoreEpilogue.h - What the tensor-core GEMM absorbs -*- C++ -*-===//
//
// The accumulator initialization and the elementwise consumers that the
// tensor-core GEMM kernel (--opsnn-gpu-tensor-core-matmul) folds into
// itself: a `linalg.fill` of a constant becomes the accumulators' initial
// value, and a chain of all-parallel `linalg.generic`s reading the product
// (bias, residual, ReLU, GELU, the cast to f16, a layout conversion) is
// applied to the accumulator fragments before they are stored. The
// producer is any GEMM whose C is an M x N view of its output: a matmul
// (C itself) or an NHWC convolution run as an implicit GEMM (N*OH*OW x F),
// whose consumers iterate over N, OH, OW, F (in any order) and are read in
// the same collapsed M x N space. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCOREEPILOGUE_H
#define OPSNN_LIB_TRANSFORMS_TENSORCOREEPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::opsnn {

/// How the epilogue reads one operand of a stage (or writes the last
/// stage's output) in the GEMM's M x N space.
struct EpilogueOperand {
  /// The buffer, or once TensorCoreEpilogue::buildViews ran, its M x N
  /// view; a scalar operand itself.
  Value value;
  /// (m, n) -> the indices of `value`: m, n or constants, and for a row
  /// dimension read on its own (m floordiv stride) mod size (null for a
  /// scalar).
  AffineMap map;
  /// The memref.collapse_shape that gives the view (empty: none needed).
  SmallVector<ReassociationIndices> collapse;
};

/// What the kernel of a GEMM C += A * B absorbs. Empty (the default): the
/// accumulators start from C and are stored to C, as the producer does.
struct TensorCoreEpilogue {
  /// The producer's output (C for a matmul, the NHWF buffer for a
  /// convolution; the kernel writes an M x N view of it).
  Value product;
  /// The f32 constant C is filled with: the accumulators start at it and
  /// C is not read. Null: C is read.
  TypedAttr init;
  /// The fill of `init`, when nothing reads C between it and the matmul
  /// (the kernel writes all of C, or nobody reads C any more).
  linalg::FillOp deadFill;
  /// The elementwise consumers in program order: the first reads C, each
  /// next one the previous one's output, through a permutation of its
  /// loops (a consumer that iterates in NCHW order reads an NHWC product
  /// transposed: its loops are taken in the product's order). The kernel
  /// applies their payloads to the fragments and writes the outputs in
  /// `storesOutput`, each through its own map (a permutation: its own row
  /// indices).
  SmallVector<linalg::GenericOp> stages;
  /// Per stage: whether the kernel stores its output. Always the last one;
  /// an earlier one when its buffer is read after the chain (a block's
  /// output that feeds both the next convolution, cast to f16, and a
  /// residual add in f32) and no later stage overwrites it in place.
  SmallVector<bool> storesOutput;
  /// Whether the kernel still stores the plain product to C (C has another
  /// reader or is not a local buffer, and no stage writes C in place).
  bool storeProduct = true;
  /// Allocations (and their deallocations) of the buffers nobody writes
  /// any more: C and the intermediate outputs of a chain.
  SmallVector<Operation *> deadBuffers;
  /// The stages' operands in the M x N space: their memref inputs other than
  /// the chain's current value, and the outputs the kernel stores.
  llvm::DenseMap<OpOperand *, EpilogueOperand> operands{};

  /// A softmax over the product's columns between stages [0, softmaxAt)
  /// and the rest (attention's scores: scaled, masked, normalized over the
  /// keys, cast to f16). The kernel then covers whole rows in one block
  /// (MatmulTileConfig::wholeRows): it applies the stages before the
  /// softmax to the product in an f32 row tile in shared memory, takes
  /// each row's maximum and sum of exponentials there, and applies the
  /// stages after it to the normalized rows. Null: none.
  linalg::SoftmaxOp softmax;
  size_t softmaxAt = 0;
  /// Whether the kernel stores the softmax's output (the chain's last, or
  /// read after it), through `softmaxOutput`, its M x N view.
  bool storesSoftmax = false;
  EpilogueOperand softmaxOutput;

  bool hasStages() const { return !stages.empty() || softmax; }

  /// Creates the M x N views (memref.collapse_shape) of the operands that
  /// need one at `b`'s insertion point, which the operands dominate (the
  /// anchor). Before applyAndStore.
  void buildViews(OpBuilder &b, Location loc);
  /// Where the kernel goes: at the last stage, which every operand of the
  /// chain dominates (the output of a consumer is usually allocated after
  /// the matmul); else at the matmul.
  Operation *anchor(Operation *matmul) const;

  /// Applies the stages to `acc`, a vector<n x f32> of product elements
  /// (row, col + 0 .. n-1), and stores the outputs in `storesOutput`. The other
  /// operands are loaded, and the output stored, at the indices their M x N
  /// maps give. Not with a softmax (see applyBeforeSoftmax).
  void applyAndStore(OpBuilder &b, Location loc, Value acc, Value row,
                     Value col) const;

  /// With a softmax: the stages before it applied to the product elements
  /// `acc` (their outputs in `storesOutput` stored); returns the softmax's
  /// input elements.
  Value applyBeforeSoftmax(OpBuilder &b, Location loc, Value acc, Value row,
                           Value col) const;
  /// With a softmax: stores its output elements `normalized` if
  /// `storesSoftmax`, then applies and stores the stages after it.
  void applyAfterSoftmax(OpBuilder &b, Location loc, Value normalized,
                         Value row, Value col) const;

  /// applyAndStore on each row of the 2-D fragment `acc` at (row, col).
  void applyToFragment(OpBuilder &b, Location loc, Value acc, Value row,
                       Value col) const;

  /// Replaces the kernel builder's store of product elements `store` (a
  /// 16x8 fragment `vector.transfer_write`, or after the nvgpu conversion a
  /// lane's `vector.store` of vector<2xf32>) with the epilogue's; keeps it
  /// only if `storeProduct`. Nothing to do without stages.
  LogicalResult rewriteProductStore(Operation *store) const;
  /// The same for every store into `c` inside `kernel`, and with
  /// `rowsPerBatch` into a batch's slice of it (a memref.subview whose first
  /// offset is the batch): its rows are the epilogue's rows from batch *
  /// rowsPerBatch on.
  LogicalResult rewriteProductStores(Operation *kernel, Value c,
                                     int64_t rowsPerBatch = 0) const;

  /// Erases `producer` and what the kernel absorbed (with the views of
  /// dead buffers left unused).
  void eraseAbsorbed(Operation *producer) const;
};

/// The init and the consumers of `producer` the kernel can absorb; never
/// fails (the reasons for leaving a consumer alone are printed under
/// -debug-only=opsnn-gpu-tensor-core-matmul). `product` is the producer's
/// output and `gemmDims` groups its dimensions into the GEMM's rows and
/// columns: {{0}, {1}} for a matmul, {{0, 1, 2}, {3}} for an NHWC
/// convolution (M = N*OH*OW, N = F). A consumer is fused when each operand
/// map reads every group's dimensions in order and together, or none of
/// them, so that it collapses to the M x N space; a row dimension read on
/// its own is taken from the row index ((row floordiv stride) mod size: a
/// batched GEMM's mask per batch, a per-image operand of a convolution).
///
/// With `rowSoftmax`, the chain may go on through a linalg.softmax over the
/// last dimension of the product when that dimension alone is the GEMM's
/// columns (see TensorCoreEpilogue::softmax): its input is the chain's
/// current value in the product's order, nobody else reads it, and its f32
/// output is a buffer of the product's shape that overlaps nothing the
/// kernel reads.
TensorCoreEpilogue
matchTensorCoreEpilogue(linalg::LinalgOp producer, Value product,
                        ArrayRef<ReassociationIndices> gemmDims,
                        bool rowSoftmax = false);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCOREEPILOGUE_H
