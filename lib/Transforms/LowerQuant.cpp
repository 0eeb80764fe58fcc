//===- LowerQuant.cpp - quant.qcast / quant.dcast to arith and linalg -----===//
//
// --opsnn-lower-quant: the lowering of upstream `quant` casts both pipelines
// run. `quant.qcast` leaves its rounding to the pipeline; upstream's
// --lower-quant-ops truncates (`arith.fptosi` of x / scale) and clamps after
// the conversion, so an input outside the calibrated range converts out of
// range (poison). Per-tensor casts to integer storage are lowered here
// instead: divide, round to nearest even, add the zero point, clamp in float
// (NaN to the lowest code), convert. Everything else (`quant.dcast`, per-axis
// and sub-channel types, unranked tensors) goes through upstream's patterns;
// pairs of `quant.scast` that meet their inverse fold.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"
#include "opsnn/Transforms/Quantize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Quant/Transforms/Passes.h"
#include "mlir/Dialect/Shape/IR/Shape.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_LOWERQUANTPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {
/// True when `value` converts to `type` exactly.
bool isExactIn(double value, FloatType type) {
  APFloat converted(value);
  bool losesInfo = false;
  converted.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  return !losesInfo;
}

struct LowerQuantizeCast : OpRewritePattern<quant::QuantizeCastOp> {
  // Ahead of upstream's pattern for the same op.
  LowerQuantizeCast(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(quant::QuantizeCastOp op,
                                PatternRewriter &rewriter) const override {
    auto quantized = dyn_cast<quant::UniformQuantizedType>(
        getElementTypeOrSelf(op.getResult().getType()));
    if (!quantized)
      return rewriter.notifyMatchFailure(op, "not a per-tensor uniform type");
    auto storage = dyn_cast<IntegerType>(quantized.getStorageType());
    if (!storage)
      return rewriter.notifyMatchFailure(op, "storage is not an integer");
    Type inputType = op.getInput().getType();
    auto tensorType = dyn_cast<RankedTensorType>(inputType);
    if (!tensorType && !isa<FloatType>(inputType))
      return rewriter.notifyMatchFailure(op, "unranked input");
    auto expressed = cast<FloatType>(getElementTypeOrSelf(inputType));
    double low = quantized.getStorageTypeMin();
    double high = quantized.getStorageTypeMax();
    if (!isExactIn(low, expressed) || !isExactIn(high, expressed))
      return rewriter.notifyMatchFailure(
          op, "storage bounds not exact in the expressed type");
    double scale = quantized.getScale();
    double zeroPoint = quantized.getZeroPoint();
    bool isSigned = quantized.isSigned();

    auto quantize = [&](OpBuilder &b, Location loc, Value x) -> Value {
      auto constant = [&](double value) -> Value {
        return arith::ConstantOp::create(b, loc,
                                         b.getFloatAttr(expressed, value));
      };
      Value code = arith::DivFOp::create(b, loc, x, constant(scale));
      code = math::RoundEvenOp::create(b, loc, code);
      if (zeroPoint != 0)
        code = arith::AddFOp::create(b, loc, code, constant(zeroPoint));
      // maxnumf/minnumf: NaN becomes the lowest code, never poison.
      code = arith::MaxNumFOp::create(b, loc, code, constant(low));
      code = arith::MinNumFOp::create(b, loc, code, constant(high));
      if (isSigned)
        return arith::FPToSIOp::create(b, loc, storage, code);
      return arith::FPToUIOp::create(b, loc, storage, code);
    };

    Location loc = op.getLoc();
    Value codes;
    if (!tensorType) {
      codes = quantize(rewriter, loc, op.getInput());
    } else {
      Value init = tensor::EmptyOp::create(
          rewriter, loc, tensor::getMixedSizes(rewriter, loc, op.getInput()),
          storage);
      int64_t rank = tensorType.getRank();
      SmallVector<AffineMap> maps(2, rewriter.getMultiDimIdentityMap(rank));
      SmallVector<utils::IteratorType> iterators(
          rank, utils::IteratorType::parallel);
      codes = linalg::GenericOp::create(
                  rewriter, loc, TypeRange{init.getType()},
                  ValueRange{op.getInput()}, ValueRange{init}, maps, iterators,
                  [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
                    linalg::YieldOp::create(
                        b, nestedLoc, quantize(b, nestedLoc, args[0]));
                  })
                  .getResult(0);
    }
    rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, op.getType(), codes);
    return success();
  }
};

/// scast(scast(x)) with x of the result's type is x.
void foldStorageCastPairs(Operation *root) {
  root->walk([](quant::StorageCastOp cast) {
    auto inner = cast.getInput().getDefiningOp<quant::StorageCastOp>();
    if (inner && inner.getInput().getType() == cast.getType())
      cast.getResult().replaceAllUsesWith(inner.getInput());
  });
  SmallVector<quant::StorageCastOp> casts;
  root->walk([&](quant::StorageCastOp cast) { casts.push_back(cast); });
  for (quant::StorageCastOp cast : llvm::reverse(casts))
    if (cast->use_empty())
      cast->erase();
}

struct LowerQuantPass : opsnn::impl::LowerQuantPassBase<LowerQuantPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateLowerQuantCastPatterns(patterns);
    quant::populateLowerQuantOpsPatterns(patterns);
    ConversionTarget target(*context);
    target.addLegalOp<quant::StorageCastOp>();
    target.addIllegalDialect<quant::QuantDialect>();
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, shape::ShapeDialect,
                           tensor::TensorDialect>();
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    foldStorageCastPairs(getOperation());
  }
};
} // namespace

void mlir::opsnn::populateLowerQuantCastPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerQuantizeCast>(patterns.getContext());
}
