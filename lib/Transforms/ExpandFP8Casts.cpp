//===- ExpandFP8Casts.cpp - FP8 casts to APFloat runtime calls ------------===//
//
// Rewrites arith.extf / arith.truncf whose source or result element type
// has fewer than 16 bits into `_mlir_apfloat_convert(sem_in, sem_out, bits)`
// calls, unrolling vectors element by element.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
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

/// Converts scalar float `value` to float type `to` through the runtime.
static Value convertScalar(OpBuilder &b, Location loc, Value value,
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
/// extf/truncf with an FP8 side -> runtime calls.
template <typename CastOp>
struct ExpandNarrowFloatCast : OpRewritePattern<CastOp> {
  using OpRewritePattern<CastOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    Type inElement = getElementTypeOrSelf(op.getIn().getType());
    Type outElement = getElementTypeOrSelf(op.getType());
    if (!isNarrowFloat(inElement) && !isNarrowFloat(outElement))
      return rewriter.notifyMatchFailure(op, "no FP8 side");
    auto to = cast<FloatType>(outElement);
    Location loc = op.getLoc();
    auto vectorType = dyn_cast<VectorType>(op.getType());
    if (!vectorType) {
      rewriter.replaceOp(op, convertScalar(rewriter, loc, op.getIn(), to));
      return success();
    }
    if (vectorType.isScalable())
      return rewriter.notifyMatchFailure(op, "scalable vector");
    // Unroll: flatten to 1-D, convert each element, reshape back.
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
      Value converted = convertScalar(rewriter, loc, element, to);
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
