//===- TensorCoreWarpgroupMma.cpp - wgmma groups issued as NVVM ops -------===//
//
// See TensorCoreWarpgroupMma.h.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreWarpgroupMma.h"

#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

using namespace mlir;
using namespace mlir::opsnn;

LLVM::LLVMStructType mlir::opsnn::warpgroupSliceType(Type accumulatorType,
                                                     int64_t n) {
  return LLVM::LLVMStructType::getLiteral(
      accumulatorType.getContext(), SmallVector<Type>(n / 2, accumulatorType));
}

Value mlir::opsnn::zeroWarpgroupSlice(OpBuilder &b, Location loc,
                                      Type accumulatorType, int64_t n) {
  return LLVM::ZeroOp::create(b, loc, warpgroupSliceType(accumulatorType, n));
}

/// wgmma's name for `type`: an operand's (f32 read as TF32) or, with
/// `accumulator`, D's.
static NVVM::WGMMATypes wgmmaType(Type type, bool accumulator = false) {
  if (type.isF32())
    return accumulator ? NVVM::WGMMATypes::f32 : NVVM::WGMMATypes::tf32;
  if (type.isInteger(32))
    return NVVM::WGMMATypes::s32;
  if (type.isInteger(8))
    return NVVM::WGMMATypes::s8;
  if (type.isF16())
    return NVVM::WGMMATypes::f16;
  if (type.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (isa<Float8E4M3FNType>(type))
    return NVVM::WGMMATypes::e4m3;
  assert(isa<Float8E5M2Type>(type) && "no wgmma for this operand type");
  return NVVM::WGMMATypes::e5m2;
}

SmallVector<Value>
mlir::opsnn::emitWarpgroupMmaGroup(OpBuilder &b, Location loc, Type operandType,
                                   int64_t n,
                                   ArrayRef<WarpgroupMmaIssue> issues,
                                   ValueRange slices, uint64_t pendingGroups) {
  MLIRContext *ctx = b.getContext();
  bool integer = operandType.isInteger(8);
  Type accumulatorType = integer ? Type(b.getI32Type()) : Type(b.getF32Type());
  int64_t operandBytes = operandType.getIntOrFloatBitWidth() / 8;
  auto shape = NVVM::MMAShapeAttr::get(ctx, kWarpgroupM, n,
                                       kWarpgroupMmaKBytes / operandBytes);
  auto typeAB = NVVM::WGMMATypesAttr::get(ctx, wgmmaType(operandType));
  auto typeD = NVVM::WGMMATypesAttr::get(ctx, wgmmaType(accumulatorType, true));
  auto scaleD = NVVM::WGMMAScaleOutAttr::get(ctx, NVVM::WGMMAScaleOut::one);
  auto scaleAB = NVVM::WGMMAScaleInAttr::get(ctx, NVVM::WGMMAScaleIn::one);
  // Both K-major: A's rows, B's columns (its N x K rows).
  auto row = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::row);
  auto col = NVVM::MMALayoutAttr::get(ctx, NVVM::MMALayout::col);
  // Integer sums saturate, as the mma.sync kernel's (.satfinite).
  NVVM::MMAIntOverflowAttr overflow;
  if (integer)
    overflow =
        NVVM::MMAIntOverflowAttr::get(ctx, NVVM::MMAIntOverflow::satfinite);
  Type sliceType = warpgroupSliceType(accumulatorType, n);
  // A descriptor as the i64 wgmma takes (nvgpu's conversion turns the
  // descriptor into that i64, and the casts cancel), its start address
  // (bits 0-13, in 16-byte units) `bytes` further on: the sum stays in
  // the field, shared memory being under 256 KiB.
  DenseMap<Value, Value> i64Descriptors;
  auto asI64 = [&](Value descriptor, int64_t bytes) -> Value {
    assert(bytes % 16 == 0 && "a descriptor steps by 16-byte units");
    Value &value = i64Descriptors[descriptor];
    if (!value)
      value =
          UnrealizedConversionCastOp::create(b, loc, b.getI64Type(), descriptor)
              .getResult(0);
    if (bytes == 0)
      return value;
    return arith::AddIOp::create(
        b, loc, value,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(bytes / 16)));
  };
  SmallVector<Value> next(slices);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (const WarpgroupMmaIssue &issue : issues) {
    Value &d = next[issue.slice];
    d = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, sliceType, d, asI64(issue.descriptorA, issue.offsetA),
        asI64(issue.descriptorB, issue.offsetB), shape, typeAB, typeAB, typeD,
        scaleD, scaleAB, scaleAB, row, col, overflow);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, pendingGroups);
  return next;
}

void mlir::opsnn::storeWarpgroupSlice(OpBuilder &b, Location loc, Value slice,
                                      Value tile) {
  auto sliceType = cast<LLVM::LLVMStructType>(slice.getType());
  int64_t n = sliceType.getBody().size() * 2;
  Type f32 = b.getF32Type();
  // nvgpu's store takes f32 accumulators only: an i32 slice's values go
  // as the f32 of the same bits.
  if (!sliceType.getBody().front().isF32()) {
    Value bits = LLVM::PoisonOp::create(b, loc, warpgroupSliceType(f32, n));
    for (int64_t i = 0; i < n / 2; ++i) {
      Value x = LLVM::ExtractValueOp::create(b, loc, slice, i);
      bits = LLVM::InsertValueOp::create(
          b, loc, bits, LLVM::BitcastOp::create(b, loc, f32, x), i);
    }
    slice = bits;
  }
  // nvgpu's accumulator of 64 rows converts to a struct of this one slice.
  auto packed =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {slice.getType()});
  Value pack = LLVM::InsertValueOp::create(
      b, loc, LLVM::PoisonOp::create(b, loc, packed), slice,
      ArrayRef<int64_t>{0});
  auto accumulator = nvgpu::WarpgroupAccumulatorType::get(
      b.getContext(), VectorType::get({kWarpgroupM, n}, f32));
  Value result = UnrealizedConversionCastOp::create(b, loc, accumulator, pack)
                     .getResult(0);
  nvgpu::WarpgroupMmaStoreOp::create(b, loc, result, tile);
}
