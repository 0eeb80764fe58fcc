//===- ExpandFP8Casts.cpp - FP8 casts as integer and f32 arithmetic -------===//
//
// LLVM has no FP8 types. Conversions between f32 (or f16/bf16, through f32,
// exactly) and f8E4M3FN / f8E5M2 are rewritten into bit manipulation on i32
// and i8 plus a few f32 operations, so that they vectorize on the CPU and
// run inside GPU kernels. Rounding is to nearest, ties to even, and the
// special values follow llvm::APFloat (and ml_dtypes): E4M3FN has no
// infinity, so overflow, infinities and NaN become NaN (S.1111.111); E5M2
// overflows to infinity. Other narrow formats (FNUZ variants, FP6, FP4) and
// f64 sources call `_mlir_apfloat_convert` from MLIR's APFloat runtime.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_EXPANDFP8CASTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

static constexpr llvm::StringLiteral kConvertFn = "_mlir_apfloat_convert";

/// True for the narrow float types LLVM cannot represent.
static bool isNarrowFloat(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  return floatType && floatType.getWidth() < 16;
}

//===----------------------------------------------------------------------===//
// Inline expansion for E4M3FN and E5M2
//===----------------------------------------------------------------------===//

namespace {
/// The parameters of an FP8 format the inline expansion handles.
struct FP8Format {
  unsigned exponentBits;
  unsigned mantissaBits;
  int bias;
  bool hasInfinity;   // E5M2: exponent all ones is inf/NaN, as in IEEE
  uint8_t maxFinite;  // largest finite magnitude code
  uint8_t nan;        // the NaN code (positive)
  uint8_t overflow;   // what a too-large magnitude becomes

  static std::optional<FP8Format> get(Type type) {
    if (isa<Float8E4M3FNType>(type))
      return FP8Format{4, 3, 7, false, 0x7E, 0x7F, 0x7F};
    if (isa<Float8E5M2Type>(type))
      return FP8Format{5, 2, 15, true, 0x7B, 0x7E, 0x7C};
    return std::nullopt;
  }
};

/// Builds scalar-or-vector integer and float arithmetic of one shape.
class ShapedBuilder {
public:
  ShapedBuilder(OpBuilder &b, Location loc, Type shapeLike)
      : b(b), loc(loc), shape(dyn_cast<VectorType>(shapeLike)) {}

  Type type(Type element) const {
    return shape ? Type(VectorType::get(shape.getShape(), element,
                                        shape.getScalableDims()))
                 : element;
  }
  Value intConst(unsigned width, int64_t value) const {
    return splat(b.getIntegerAttr(b.getIntegerType(width), value));
  }
  Value f32Const(double value) const {
    return splat(b.getF32FloatAttr(value));
  }

  OpBuilder &b;
  Location loc;
  VectorType shape;

private:
  /// `scalar`, or a vector of the builder's shape filled with it.
  Value splat(TypedAttr scalar) const {
    if (!shape)
      return arith::ConstantOp::create(b, loc, scalar);
    auto vectorType = cast<VectorType>(type(scalar.getType()));
    return arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(DenseElementsAttr::get(vectorType, scalar)));
  }
};
} // namespace

/// f32 `value` -> FP8 bits (i8) of `format`, rounding to nearest even.
static Value truncF32ToFP8Bits(const ShapedBuilder &sb, Value value,
                               const FP8Format &format) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  auto c32 = [&](int64_t v) { return sb.intConst(32, v); };
  Value bits = arith::BitcastOp::create(b, loc, sb.type(b.getI32Type()), value);
  Value sign = arith::AndIOp::create(b, loc, bits, c32(0x80000000));
  Value absBits = arith::AndIOp::create(b, loc, bits, c32(0x7FFFFFFF));

  // Normal results: round the 23-bit mantissa to M bits (nearest even; a
  // carry rolls into the exponent), then rebias the exponent.
  int64_t shift = 23 - format.mantissaBits;
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, absBits, c32(shift)), c32(1));
  Value rounding = arith::AddIOp::create(b, loc, lsb, c32((1 << (shift - 1)) - 1));
  Value rounded = arith::ShRUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, absBits, rounding), c32(shift));
  Value normal = arith::SubIOp::create(
      b, loc, rounded, c32(int64_t(127 - format.bias) << format.mantissaBits));

  // Subnormal results (below the format's smallest normal 2^(1-bias)):
  // scale so that one unit is the smallest subnormal and round to an
  // integer; 2^M is the smallest normal's code, as it should be.
  Value absValue = math::AbsFOp::create(b, loc, value);
  Value scaled = arith::MulFOp::create(
      b, loc, absValue,
      sb.f32Const(std::ldexp(1.0, format.bias - 1 + format.mantissaBits)));
  Value subnormal = arith::FPToUIOp::create(
      b, loc, sb.type(b.getI32Type()), math::RoundEvenOp::create(b, loc, scaled));
  Value isSubnormal = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, absBits,
      c32(int64_t(127 + 1 - format.bias) << 23));
  Value code = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);

  // Overflow (infinite inputs included), then NaN.
  Value overflows = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, code,
                            c32(format.maxFinite)),
      arith::XOrIOp::create(b, loc, isSubnormal, sb.intConst(1, 1)));
  code = arith::SelectOp::create(b, loc, overflows, c32(format.overflow), code);
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      absBits, c32(0x7F800000));
  code = arith::SelectOp::create(b, loc, isNaN, c32(format.nan), code);

  code = arith::OrIOp::create(b, loc, code,
                              arith::ShRUIOp::create(b, loc, sign, c32(24)));
  return arith::TruncIOp::create(b, loc, sb.type(b.getI8Type()), code);
}

/// FP8 bits (i8) of `format` -> f32 (exact).
static Value extFP8BitsToF32(const ShapedBuilder &sb, Value bits8,
                             const FP8Format &format) {
  OpBuilder &b = sb.b;
  Location loc = sb.loc;
  auto c32 = [&](int64_t v) { return sb.intConst(32, v); };
  Type i32 = sb.type(b.getI32Type());
  Value bits = arith::ExtUIOp::create(b, loc, i32, bits8);
  Value signBit = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, bits, c32(0x80)), c32(24));
  Value magnitude = arith::AndIOp::create(b, loc, bits, c32(0x7F));
  Value exponent = arith::ShRUIOp::create(b, loc, magnitude,
                                          c32(format.mantissaBits));
  Value mantissa =
      arith::AndIOp::create(b, loc, magnitude, c32((1 << format.mantissaBits) - 1));

  // Normal: rebias the exponent, widen the mantissa.
  Value normal = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, exponent, c32(127 - format.bias)),
          c32(23)),
      arith::ShLIOp::create(b, loc, mantissa, c32(23 - format.mantissaBits)));
  // Subnormal (and zero): mantissa * 2^(1 - bias - M), exact in f32.
  Value subnormalValue = arith::MulFOp::create(
      b, loc, arith::UIToFPOp::create(b, loc, sb.type(b.getF32Type()), mantissa),
      sb.f32Const(std::ldexp(1.0, 1 - format.bias - int(format.mantissaBits))));
  Value subnormal = arith::BitcastOp::create(b, loc, i32, subnormalValue);
  Value isSubnormal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            exponent, c32(0));
  Value result = arith::SelectOp::create(b, loc, isSubnormal, subnormal, normal);

  // Specials.
  Value nanBits = c32(0x7FC00000);
  if (format.hasInfinity) {
    int64_t allOnes = (1 << format.exponentBits) - 1;
    Value special = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          exponent, c32(allOnes));
    Value isInf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        mantissa, c32(0));
    Value inf = arith::SelectOp::create(b, loc, isInf, c32(0x7F800000), nanBits);
    result = arith::SelectOp::create(b, loc, special, inf, result);
  } else {
    Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        magnitude, c32(format.nan));
    result = arith::SelectOp::create(b, loc, isNaN, nanBits, result);
  }
  result = arith::OrIOp::create(b, loc, result, signBit);
  return arith::BitcastOp::create(b, loc, sb.type(b.getF32Type()), result);
}

/// Converts between float types LLVM has (exactly widening to or rounding
/// once from f32).
static Value convertWide(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = getElementTypeOrSelf(value.getType());
  Type toElement = getElementTypeOrSelf(to);
  if (from == toElement)
    return value;
  if (cast<FloatType>(from).getWidth() < cast<FloatType>(toElement).getWidth())
    return arith::ExtFOp::create(b, loc, to, value);
  return arith::TruncFOp::create(b, loc, to, value);
}

//===----------------------------------------------------------------------===//
// Fallback: the APFloat runtime
//===----------------------------------------------------------------------===//

/// Converts scalar float `value` to float type `to` through the runtime.
static Value convertScalarWithRuntime(OpBuilder &b, Location loc, Value value,
                                      FloatType to) {
  auto from = cast<FloatType>(value.getType());
  Type i64 = b.getI64Type();
  Value bits = arith::BitcastOp::create(
      b, loc, b.getIntegerType(from.getWidth()), value);
  Value wide = arith::ExtUIOp::create(b, loc, i64, bits);
  auto semantics = [&](FloatType type) {
    return arith::ConstantIntOp::create(
        b, loc,
        static_cast<int64_t>(
            llvm::APFloatBase::SemanticsToEnum(type.getFloatSemantics())),
        32);
  };
  Value result =
      func::CallOp::create(b, loc, kConvertFn, TypeRange{i64},
                           ValueRange{semantics(from), semantics(to), wide})
          .getResult(0);
  Value narrow =
      arith::TruncIOp::create(b, loc, b.getIntegerType(to.getWidth()), result);
  return arith::BitcastOp::create(b, loc, to, narrow);
}

namespace {
/// extf/truncf with an FP8 side.
template <typename CastOp>
struct ExpandNarrowFloatCast : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Type inElement = getElementTypeOrSelf(op.getIn().getType());
    Type outElement = getElementTypeOrSelf(op.getType());
    if (!isNarrowFloat(inElement) && !isNarrowFloat(outElement))
      return rewriter.notifyMatchFailure(op, "no FP8 side");
    if (isa<VectorType>(op.getType()) &&
        cast<VectorType>(op.getType()).isScalable())
      return rewriter.notifyMatchFailure(op, "scalable vector");
    Location loc = op.getLoc();
    ShapedBuilder sb(rewriter, loc, op.getType());
    Type f32 = sb.type(rewriter.getF32Type());
    auto isInlineSource = [](Type type) {
      return type.isF32() || type.isF16() || type.isBF16();
    };

    // Inline: f32/f16/bf16 <-> E4M3FN/E5M2.
    if (std::optional<FP8Format> format = FP8Format::get(outElement);
        format && isInlineSource(inElement)) {
      Value wide = convertWide(rewriter, loc, op.getIn(), f32);
      Value bits = truncF32ToFP8Bits(sb, wide, *format);
      rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, op.getType(), bits);
      return success();
    }
    if (std::optional<FP8Format> format = FP8Format::get(inElement);
        format && isInlineSource(outElement)) {
      Value bits = arith::BitcastOp::create(
          rewriter, loc, sb.type(rewriter.getI8Type()), op.getIn());
      Value wide = extFP8BitsToF32(sb, bits, *format);
      rewriter.replaceOp(op, convertWide(rewriter, loc, wide, op.getType()));
      return success();
    }

    // Anything else: one runtime call per element.
    auto to = cast<FloatType>(outElement);
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType) {
      rewriter.replaceOp(op,
                         convertScalarWithRuntime(rewriter, loc, op.getIn(), to));
      return success();
    }
    int64_t count = vectorType.getNumElements();
    auto flatIn = VectorType::get({count}, inElement);
    auto flatOut = VectorType::get({count}, outElement);
    Value input =
        vector::ShapeCastOp::create(rewriter, loc, flatIn, op.getIn());
    Value result = arith::ConstantOp::create(
        rewriter, loc, flatOut,
        DenseElementsAttr::get(flatOut, rewriter.getFloatAttr(to, 0.0)));
    for (int64_t i = 0; i < count; ++i) {
      Value element = vector::ExtractOp::create(rewriter, loc, input, i);
      Value converted = convertScalarWithRuntime(rewriter, loc, element, to);
      result = vector::InsertOp::create(rewriter, loc, converted, result, i);
    }
    rewriter.replaceOpWithNewOp<vector::ShapeCastOp>(op, vectorType, result);
    return success();
  }
};

struct ExpandFP8CastsPass
    : opsnn::impl::ExpandFP8CastsPassBase<ExpandFP8CastsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandNarrowFloatCast<arith::ExtFOp>,
                 ExpandNarrowFloatCast<arith::TruncFOp>>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();

    // Declare the runtime function once if anything calls it.
    bool used = false;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == kConvertFn)
        used = true;
    });
    if (!used || SymbolTable::lookupSymbolIn(module, kConvertFn))
      return;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto decl = func::FuncOp::create(
        b, module.getLoc(), kConvertFn,
        b.getFunctionType({i32, i32, i64}, {i64}));
    decl.setPrivate();
  }
};
} // namespace
