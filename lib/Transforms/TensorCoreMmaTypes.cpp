//===- TensorCoreMmaTypes.cpp - mma.sync operand types upstream lacks -----===//
//
// See TensorCoreMmaTypes.h. The bf16 and FP8 rewrites mirror upstream's
// nvgpu.mma.sync -> nvvm.mma.sync lowering for f16 (same operand order,
// row-major A, column-major B), with the multiplicand registers as i32:
// the PTX type of bf16 and FP8 fragments (.b32 holding two .bf16, four
// .e4m3 or .e5m2).
//
//===----------------------------------------------------------------------===//

#include "TensorCoreMmaTypes.h"

#include "opsnn/Target/TargetDescription.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::opsnn;

FailureOr<TensorCoreISA>
mlir::opsnn::lookupTensorCoreISA(Location loc, llvm::StringRef targetName) {
  std::optional<TargetDescription> target = lookupTarget(targetName);
  if (!target)
    return emitError(loc) << "unknown target '" << targetName
                          << "' (known: " << getKnownTargetNames() << ")";
  std::optional<TensorCoreISA> isa = getTensorCoreISA(*target);
  if (!isa)
    return emitError(loc) << "target '" << targetName << "' (" << target->chip
                          << ") has no mma.sync the tensor-core kernel uses "
                             "(sm_75 or later)";
  return *isa;
}

/// The rows of a fragment of 32-bit rows (vector<R x 2 x f16>, vector<R x
/// 4 x i8>) as R i32 registers.
static SmallVector<Value> packedRegisters(OpBuilder &b, Location loc,
                                          Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  assert(type.getDimSize(1) * type.getElementTypeBitWidth() == 32 &&
         "fragment rows are 32-bit registers");
  auto wordType = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> registers;
  for (int64_t row = 0; row < type.getDimSize(0); ++row) {
    Value rowValue = vector::ExtractOp::create(b, loc, fragment, row);
    Value word = vector::BitCastOp::create(b, loc, wordType, rowValue);
    registers.push_back(vector::ExtractOp::create(b, loc, word, 0));
  }
  return registers;
}

/// Whether `op` is an mma.sync of `shape` on fragments of types `a`, `b`
/// and `c`; an error at `op` naming `what` and the expected form if not.
static LogicalResult checkFragments(nvgpu::MmaSyncOp op,
                                    std::array<int64_t, 3> shape, VectorType a,
                                    VectorType b, VectorType c,
                                    StringRef what) {
  if (op.getMmaShapeAsArray() == shape && op.getMatrixA().getType() == a &&
      op.getMatrixB().getType() == b && op.getMatrixC().getType() == c)
    return success();
  return op.emitError() << what << " tensor-core fragments: expected an m"
                        << shape[0] << "n" << shape[1] << "k" << shape[2]
                        << " mma.sync on " << a << ", " << b << " and " << c;
}

/// nvgpu.mma.sync m16n8k32 .s8 -> four nvvm.mma.sync m8n8k16 .s8 (sm_75).
/// In the PTX ISA's fragment layouts (g = lane / 4, t = lane % 4) the
/// m16n8k32 A registers a0..a3 hold rows g, g+8, g, g+8 at columns
/// 4t.., 4t.., 16+4t.., 16+4t..; B's b0, b1 rows 4t.. and 16+4t.. of
/// column g; C's c0 c1 row g and c2 c3 row g+8 at columns 2t, 2t+1. Each
/// m8n8k16 takes one A register (row g, columns 4t..), one B register
/// (rows 4t.., column g) and two accumulators (row g, columns 2t, 2t+1):
/// rows 0-7 are (a0, b0) then (a2, b1) on c0 c1, rows 8-15 (a1, b0) then
/// (a3, b1) on c2 c3. Saturating like upstream's m16n8k32 (.satfinite).
static LogicalResult rewriteAsTuringInt8(nvgpu::MmaSyncOp op) {
  MLIRContext *ctx = op.getContext();
  auto i8 = IntegerType::get(ctx, 8), i32 = IntegerType::get(ctx, 32);
  auto cType = VectorType::get({2, 2}, i32);
  if (failed(checkFragments(op, {16, 8, 32}, VectorType::get({4, 4}, i8),
                            VectorType::get({2, 4}, i8), cType,
                            "sm_75 int8")))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> a = packedRegisters(b, loc, op.getMatrixA());
  SmallVector<Value> bRegs = packedRegisters(b, loc, op.getMatrixB());
  auto pairType = LLVM::LLVMStructType::getLiteral(ctx, {i32, i32});
  auto mma = [&](Value aReg, Value bReg, ArrayRef<Value> acc) {
    auto op = NVVM::MmaOp::create(
        b, loc, pairType, ValueRange{aReg}, ValueRange{bReg}, acc,
        /*shape=*/{8, 8, 16}, /*b1Op=*/std::nullopt,
        NVVM::MMAIntOverflow::satfinite,
        std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::s8, NVVM::MMATypes::s8},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
    return SmallVector<Value>{LLVM::ExtractValueOp::create(b, loc, op, 0),
                              LLVM::ExtractValueOp::create(b, loc, op, 1)};
  };
  SmallVector<Value> d;
  for (int64_t half = 0; half < 2; ++half) {
    SmallVector<Value> acc;
    for (int64_t col = 0; col < 2; ++col)
      acc.push_back(vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                              ArrayRef<int64_t>{half, col}));
    acc = mma(a[half], bRegs[0], acc);
    acc = mma(a[half + 2], bRegs[1], acc);
    llvm::append_range(d, acc);
  }
  Value result = vector::FromElementsOp::create(b, loc, cType, d);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// The PTX type of mma.sync operands of `element` that the kernel reads as
/// f16 fragments: bf16, or FP8 (two codes per f16).
static std::optional<NVVM::MMATypes> reinterpretedMmaType(Type element) {
  if (element.isBF16())
    return NVVM::MMATypes::bf16;
  if (isa<Float8E4M3FNType>(element))
    return NVVM::MMATypes::e4m3;
  if (isa<Float8E5M2Type>(element))
    return NVVM::MMATypes::e5m2;
  return std::nullopt;
}

/// The FP8 mma.sync as inline PTX: nvvm.mma.sync has no .e4m3/.e5m2 form
/// (MLIR 22's verifier takes FP8 only in the block-scaled variants), so
/// this is what CUTLASS writes. With side effects: LLVM must neither move
/// it under a branch nor drop it (mma.sync is warp-collective); ptxas
/// schedules it all the same. Operands: A's four and B's two registers,
/// C's four f32; result D's four f32.
static Value buildFP8MmaAsm(OpBuilder &b, Location loc, Type resultType,
                            NVVM::MMATypes type, ArrayRef<Value> a,
                            ArrayRef<Value> bRegs, ArrayRef<Value> c) {
  std::string ptxType = stringifyMMATypes(type).str();
  std::string asmString = "mma.sync.aligned.m16n8k32.row.col.f32." + ptxType +
                          "." + ptxType +
                          ".f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                          "{$10, $11, $12, $13};";
  SmallVector<Value> operands(a);
  llvm::append_range(operands, bRegs);
  llvm::append_range(operands, c);
  auto mma = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, asmString,
      /*constraints=*/"=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  return mma.getResult(0);
}

/// nvgpu.mma.sync m16n8k16 on f16 fragments holding the bits of `type`
/// operands -> an mma.sync of `type` into f32: nvvm.mma.sync m16n8k16
/// .bf16, or m16n8k32 .e4m3/.e5m2 as inline PTX (two FP8 codes per f16:
/// the same registers).
static LogicalResult rewriteReinterpreted(nvgpu::MmaSyncOp op,
                                          NVVM::MMATypes type) {
  auto f16 = Float16Type::get(op.getContext());
  auto cType = VectorType::get({2, 2}, Float32Type::get(op.getContext()));
  bool bf16 = type == NVVM::MMATypes::bf16;
  if (failed(checkFragments(op, {16, 8, 16}, VectorType::get({4, 2}, f16),
                            VectorType::get({2, 2}, f16), cType,
                            bf16 ? "bf16" : "fp8")))
    return failure();
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> a = packedRegisters(b, loc, op.getMatrixA());
  SmallVector<Value> bRegs = packedRegisters(b, loc, op.getMatrixB());
  SmallVector<Value> c;
  for (int64_t row = 0; row < 2; ++row)
    for (int64_t col = 0; col < 2; ++col)
      c.push_back(vector::ExtractOp::create(b, loc, op.getMatrixC(),
                                            ArrayRef<int64_t>{row, col}));
  Type f32 = b.getF32Type();
  auto resultType = LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                     {f32, f32, f32, f32});
  Value product;
  if (bf16)
    product = NVVM::MmaOp::create(
        b, loc, resultType, a, bRegs, c, /*shape=*/{16, 8, 16},
        /*b1Op=*/std::nullopt, /*intOverflow=*/std::nullopt,
        std::array<NVVM::MMATypes, 2>{type, type},
        std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                       NVVM::MMALayout::col});
  else
    product = buildFP8MmaAsm(b, loc, resultType, type, a, bRegs, c);
  SmallVector<Value> d;
  for (int64_t i = 0; i < 4; ++i)
    d.push_back(LLVM::ExtractValueOp::create(b, loc, product, i));
  Value result = vector::FromElementsOp::create(b, loc, cType, d);
  op.getResult().replaceAllUsesWith(result);
  op.erase();
  return success();
}

/// `fragment` (an f32 vector) with every element rounded to TF32 by
/// cvt.rna.tf32.f32 (nvvm.convert.float.to.tf32 rna), as f32 bits again.
static Value roundToTF32(OpBuilder &b, Location loc, Value fragment) {
  auto type = cast<VectorType>(fragment.getType());
  SmallVector<Value> elements;
  SmallVector<int64_t> position(type.getRank(), 0);
  for (int64_t linear = 0; linear < type.getNumElements(); ++linear) {
    int64_t rest = linear;
    for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
      position[dim] = rest % type.getDimSize(dim);
      rest /= type.getDimSize(dim);
    }
    Value element = vector::ExtractOp::create(b, loc, fragment, position);
    auto tf32 = NVVM::ConvertFloatToTF32Op::create(
        b, loc, b.getI32Type(), element, NVVM::FPRoundingMode::RNA,
        NVVM::SaturationMode::NONE, /*relu=*/false);
    elements.push_back(
        arith::BitcastOp::create(b, loc, b.getF32Type(), tf32));
  }
  return vector::FromElementsOp::create(b, loc, type, elements);
}

/// Marks `op` .tf32 and rounds its A and B operands to TF32 first: mma.sync
/// .tf32 reads only the top 19 bits of each register (a truncation), while
/// TF32 as cuBLAS and the CPU emulation define it rounds to nearest. A
/// fragment several mma.sync read (A across a warp's N fragments) is
/// rounded once, next to where it is defined (`rounded` remembers it).
static void markAndRoundTF32(nvgpu::MmaSyncOp op,
                             DenseMap<Value, Value> &rounded) {
  op.setTf32EnabledAttr(UnitAttr::get(op.getContext()));
  for (OpOperand *operand : {&op.getMatrixAMutable(), &op.getMatrixBMutable()}) {
    Value fragment = operand->get();
    auto [it, inserted] = rounded.try_emplace(fragment, Value());
    if (inserted) {
      OpBuilder b(op.getContext());
      b.setInsertionPointAfterValue(fragment);
      it->second = roundToTF32(b, op.getLoc(), fragment);
    }
    operand->set(it->second);
  }
}

LogicalResult mlir::opsnn::finalizeMmaOperandTypes(Operation *root,
                                                   Type elementType,
                                                   const TensorCoreISA &isa) {
  bool turingInt8 = elementType.isInteger(8) && !isa.int8M16N8K32;
  if (elementType.isF16() || (elementType.isInteger(8) && !turingInt8))
    return success(); // upstream's types are right (i8: m16n8k32 .s8)
  SmallVector<nvgpu::MmaSyncOp> mmas;
  root->walk([&](nvgpu::MmaSyncOp op) { mmas.push_back(op); });
  if (turingInt8) {
    for (nvgpu::MmaSyncOp op : mmas)
      if (failed(rewriteAsTuringInt8(op)))
        return failure();
    return success();
  }
  DenseMap<Value, Value> roundedTF32;
  for (nvgpu::MmaSyncOp op : mmas) {
    if (elementType.isF32()) {
      markAndRoundTF32(op, roundedTF32);
      continue;
    }
    std::optional<NVVM::MMATypes> type = reinterpretedMmaType(elementType);
    if (!type)
      return op.emitError() << "tensor-core fragments of type " << elementType
                            << " are not supported";
    if (failed(rewriteReinterpreted(op, *type)))
      return failure();
  }
  return success();
}
