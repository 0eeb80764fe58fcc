//===- LowerPrecision.cpp - precision ops to arith/math/linalg ------------===//
//
// Lowers the precision dialect: casts to arith.extf/truncf, loss scaling to
// f32 arithmetic, the non-finite check to a linalg.reduce of `x - x == 0`,
// and the loss-scale update to scalar arith with selects (GradScaler rules).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_LOWERPRECISIONPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using namespace mlir::opsnn::precision;

/// `type` with its element type replaced by `elementType`.
static Type withElementType(Type type, Type elementType) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

/// Converts float `value` to `targetType` (same shape), rounding to nearest
/// even. Between two types of one width (f16 <-> bf16) goes through f32,
/// which is exact, so the result is still rounded once.
static Value convertFloat(OpBuilder &b, Location loc, Value value,
                          Type targetType) {
  Type source = value.getType();
  if (source == targetType)
    return value;
  unsigned from = cast<FloatType>(getElementTypeOrSelf(source)).getWidth();
  unsigned to = cast<FloatType>(getElementTypeOrSelf(targetType)).getWidth();
  if (from < to)
    return arith::ExtFOp::create(b, loc, targetType, value);
  if (from > to)
    return arith::TruncFOp::create(b, loc, targetType, value);
  Type wide = withElementType(source, b.getF32Type());
  Value extended = arith::ExtFOp::create(b, loc, wide, value);
  return arith::TruncFOp::create(b, loc, targetType, extended);
}

/// A tensor shaped like `like` filled with scalar `value` (or `value` itself
/// when `like` is a scalar).
static Value broadcastLike(OpBuilder &b, Location loc, Value value,
                           Value like) {
  if (!isa<RankedTensorType>(like.getType()))
    return value;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, like);
  Value init = tensor::EmptyOp::create(b, loc, sizes, value.getType());
  return linalg::FillOp::create(b, loc, value, init).getResult(0);
}

/// `input * factor` computed in f32, rounded back to the input's type.
static Value multiplyInF32(OpBuilder &b, Location loc, Value input,
                           Value factor) {
  Type type = input.getType();
  Value wide = convertFloat(b, loc, input, withElementType(type, b.getF32Type()));
  Value product =
      arith::MulFOp::create(b, loc, wide, broadcastLike(b, loc, factor, wide));
  return convertFloat(b, loc, product, type);
}

/// i1: `x` is finite. `x - x` is 0 for finite `x` and NaN otherwise; unlike
/// math.isfinite this lowers on the n-D vectors of the vectorized CPU
/// pipeline (no llvm.is.fpclass on arrays of vectors).
static Value isFinite(OpBuilder &b, Location loc, Value x) {
  Value difference = arith::SubFOp::create(b, loc, x, x);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(x.getType()));
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, difference,
                               zero);
}

/// i1 that is true when every element of `value` is finite: one
/// linalg.reduce over every dimension for tensors.
static Value allFinite(OpBuilder &b, Location loc, Value value) {
  auto tensorType = dyn_cast<RankedTensorType>(value.getType());
  if (!tensorType)
    return isFinite(b, loc, value);
  if (tensorType.getRank() == 0)
    return isFinite(b, loc,
                    tensor::ExtractOp::create(b, loc, value, ValueRange{}));
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                       b.getI1Type());
  init = linalg::FillOp::create(b, loc, trueValue, init).getResult(0);
  SmallVector<int64_t> dims =
      llvm::to_vector(llvm::seq<int64_t>(0, tensorType.getRank()));
  auto reduce = linalg::ReduceOp::create(
      b, loc, value, init, dims,
      [](OpBuilder &nb, Location nloc, ValueRange args) {
        Value finite = isFinite(nb, nloc, args[0]);
        Value both = arith::AndIOp::create(nb, nloc, finite, args[1]);
        linalg::YieldOp::create(nb, nloc, both);
      });
  return tensor::ExtractOp::create(b, loc, reduce.getResult(0), ValueRange{});
}

namespace {
struct LowerCastOp : OpConversionPattern<CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, convertFloat(rewriter, op.getLoc(),
                                        adaptor.getInput(), op.getType()));
    return success();
  }
};

struct LowerScaleOp : OpConversionPattern<ScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, multiplyInF32(rewriter, op.getLoc(),
                                         adaptor.getInput(),
                                         adaptor.getScale()));
    return success();
  }
};

struct LowerUnscaleAndCheckOp : OpConversionPattern<UnscaleAndCheckOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnscaleAndCheckOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    Value inverse = arith::DivFOp::create(rewriter, loc, one,
                                          adaptor.getScale());
    SmallVector<Value> results;
    Value finite = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    for (Value input : adaptor.getInputs()) {
      results.push_back(multiplyInF32(rewriter, loc, input, inverse));
      finite = arith::AndIOp::create(rewriter, loc, finite,
                                     allFinite(rewriter, loc, input));
    }
    Value trueValue = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    results.push_back(arith::XOrIOp::create(rewriter, loc, finite, trueValue));
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct LowerUpdateLossScaleOp : OpConversionPattern<UpdateLossScaleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UpdateLossScaleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type f32 = b.getF32Type(), f64 = b.getF64Type();
    Value scale = adaptor.getScale();
    Value tracker = adaptor.getGrowthTracker();
    Value found = adaptor.getFoundNonFinite();

    // torch multiplies the float scale by a double factor, then stores float.
    auto scaleBy = [&](const APFloat &factor) -> Value {
      Value wide = arith::ExtFOp::create(b, loc, f64, scale);
      Value f = arith::ConstantOp::create(b, loc, b.getFloatAttr(f64, factor));
      return arith::TruncFOp::create(b, loc, f32,
                                     arith::MulFOp::create(b, loc, wide, f));
    };
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
    Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
    Value interval =
        arith::ConstantIntOp::create(b, loc, op.getGrowthInterval(), 32);
    Value successful = arith::AddIOp::create(b, loc, tracker, one);
    Value grow = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       successful, interval);
    Value grown = scaleBy(op.getGrowthFactor());
    Value grownFinite = math::IsFiniteOp::create(b, loc, grown);
    Value useGrown = arith::AndIOp::create(b, loc, grow, grownFinite);
    Value finiteScale = arith::SelectOp::create(b, loc, useGrown, grown, scale);
    Value newScale = arith::SelectOp::create(
        b, loc, found, scaleBy(op.getBackoffFactor()), finiteScale);
    Value finiteTracker =
        arith::SelectOp::create(b, loc, grow, zero, successful);
    Value newTracker =
        arith::SelectOp::create(b, loc, found, zero, finiteTracker);
    rewriter.replaceOp(op, {newScale, newTracker});
    return success();
  }
};

struct LowerPrecisionPass
    : opsnn::impl::LowerPrecisionPassBase<LowerPrecisionPass> {
  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<PrecisionDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateLowerPrecisionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace

void mlir::opsnn::populateLowerPrecisionPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerCastOp, LowerScaleOp, LowerUnscaleAndCheckOp,
               LowerUpdateLossScaleOp>(patterns.getContext());
}
