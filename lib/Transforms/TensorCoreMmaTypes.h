//===- TensorCoreMmaTypes.h - mma.sync operand types upstream lacks -*- C++ -*-===//
//
// Upstream's fragment conversion (convertVectorToNVVMCompatibleMMASync)
// maps f16 and f32 contractions onto nvgpu.mma.sync, but not bf16 ones, and
// leaves f32 ones without the TF32 marker the NVVM lowering needs. The
// tensor-core kernel (GPUTensorCoreMatmul.cpp) reads bf16 tiles as f16
// fragments (same bits, same m16n8k16 register layout) and fixes the types
// here, after that conversion. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCOREMMATYPES_H
#define OPSNN_LIB_TRANSFORMS_TENSORCOREMMATYPES_H

#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::opsnn {

/// The unit attribute that lets an f32 op run as TF32 (a precision
/// decision of --opsnn-assign-precision="mode=tf32").
constexpr llvm::StringLiteral kTF32Attr = "opsnn.tf32";

/// Whether the tensor-core kernel takes A and B of `element`: f16, bf16,
/// i8, FP8 (f8E4M3FN, f8E5M2), and f32 (run as TF32) when `allowTF32`.
inline bool isTensorCoreOperandType(Type element, bool allowTF32) {
  return element.isF16() || element.isBF16() || element.isInteger(8) ||
         isTensorCoreFP8Type(element) || (allowTF32 && element.isF32());
}

/// Whether A and B of `element` are 8-bit (i8, FP8): their mma.sync B
/// fragments come from N x K rows (there is no 8-bit ldmatrix.trans), so
/// a B is staged, and a constant B best stored, N x K.
inline bool hasByteOperands(Type element) {
  return element.isIntOrFloat() && element.getIntOrFloatBitWidth() == 8;
}

/// The accumulator (C) type for A and B of `element`: i32 for i8, else f32.
inline Type tensorCoreAccumulatorType(Type element) {
  MLIRContext *ctx = element.getContext();
  return element.isInteger(8) ? Type(IntegerType::get(ctx, 32))
                              : Type(Float32Type::get(ctx));
}

/// Whether a GEMM or convolution reading A of `a` and B of `b` into C of
/// `c` has the tensor-core kernel's types: one operand type it takes (and
/// `isa`'s chip multiplies) and that type's accumulator.
inline bool takesTensorCoreTypes(Type a, Type b, Type c, bool allowTF32,
                                 const TensorCoreISA &isa = {}) {
  return a == b && isTensorCoreOperandType(a, allowTF32) &&
         isa.takesOperandType(a) && c == tensorCoreAccumulatorType(a);
}

/// The tensor-core instructions of the target named `targetName` (a
/// tensor-core pass's `target` option), or an error at `loc`: an unknown
/// target, or one without the mma.sync the kernel uses (before sm_75).
FailureOr<TensorCoreISA> lookupTensorCoreISA(Location loc,
                                             llvm::StringRef targetName);

/// Gives every nvgpu.mma.sync under `root` the operand type `elementType`
/// of the kernel's A and B, in instructions of `isa`'s chip:
///  - f16, i8: nothing to do (upstream's m16n8k16 .f16, m16n8k32 .s8),
///    except i8 on sm_75, which has no m16n8k32: each becomes four
///    nvvm.mma.sync m8n8k16 .s8 on the same registers;
///  - f32: marks them `tf32Enabled` (m16n8k8 .tf32) and rounds their A
///    and B fragments to TF32 first (cvt.rna.tf32.f32: the hardware would
///    truncate);
///  - bf16: their operands are f16 fragments holding bf16 bits; each
///    becomes an nvvm.mma.sync m16n8k16 .bf16 (the registers bitcast to
///    i32, two bf16 each), whose accumulators are rebuilt as the
///    vector<2x2xf32> the surrounding code uses;
///  - FP8: their operands are m16n8k16 f16 fragments holding pairs of FP8
///    codes (the k32 FP8 fragment's bytes are, register for register, the
///    k16 f16 fragment's); each becomes an nvvm.mma.sync m16n8k32 .e4m3
///    (.e5m2) into f32, rebuilt like bf16's.
/// Fails (with an error) for any other type or fragment shape.
LogicalResult finalizeMmaOperandTypes(Operation *root, Type elementType,
                                      const TensorCoreISA &isa);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCOREMMATYPES_H
