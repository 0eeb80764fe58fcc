//===- TensorCoreWarpgroupMma.h - wgmma groups issued as NVVM ops -*- C++ -*-//
//
// The warpgroup kernel's K-major products (B staged N x K) as NVVM's own
// wgmma ops: one wgmma.fence, the step's wgmma.mma_async ops, one
// commit_group and one wait_group per K step (upstream's
// nvgpu.warpgroup.mma fences and commits around each op, and takes no
// i8 operands). The accumulators are the registers of wgmma's D, one
// literal struct per 64-row slice; they reach the row tile through
// upstream's nvgpu.warpgroup.mma.store (its fragment layout).
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCOREWARPGROUPMMA_H
#define OPSNN_LIB_TRANSFORMS_TENSORCOREWARPGROUPMMA_H

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/Builders.h"

namespace mlir::opsnn {

/// The registers of one 64-row slice's D of wgmma.mma_async m64nN: N/2
/// values of `accumulatorType` (f32, or i32 for i8 operands) per thread.
LLVM::LLVMStructType warpgroupSliceType(Type accumulatorType, int64_t n);

/// A slice's accumulators at zero.
Value zeroWarpgroupSlice(OpBuilder &b, Location loc, Type accumulatorType,
                         int64_t n);

/// One wgmma of a K step: D(slice) += A * B, 32 bytes of K of K-major
/// tiles, each operand a descriptor (an !nvgpu.warpgroup.descriptor) and
/// the bytes past its start address where the wgmma reads (a multiple of
/// 16, added to the start address field as upstream steps descriptors).
struct WarpgroupMmaIssue {
  Value descriptorA;
  int64_t offsetA;
  Value descriptorB;
  int64_t offsetB;
  int64_t slice;
};

/// A K step's wgmmas as one group: wgmma.fence, an m64n`n`k(32 bytes)
/// wgmma.mma_async per issue, in order, on `slices` (warpgroupSliceType
/// values), commit_group, then wait_group `pendingGroups` (0: this group
/// done; 1: the previous one, this one in flight). Both operands K-major
/// (A row, B col), `operandType` f16, bf16, FP8, i8 (s8) or f32 (read as
/// TF32). Returns the slices' new values.
SmallVector<Value> emitWarpgroupMmaGroup(OpBuilder &b, Location loc,
                                         Type operandType, int64_t n,
                                         ArrayRef<WarpgroupMmaIssue> issues,
                                         ValueRange slices,
                                         uint64_t pendingGroups);

/// Stores a slice into `tile` (64 x N of f32 in shared memory) in wgmma's
/// fragment layout, through nvgpu.warpgroup.mma.store. An i32 slice goes
/// bit for bit: the tile's bytes then hold i32 (read them through an i32
/// view).
void storeWarpgroupSlice(OpBuilder &b, Location loc, Value slice, Value tile);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCOREWARPGROUPMMA_H
