//===- TransposeInt8Weights.cpp - Constant INT8 B operands stored N x K ---===//
//
// --opsnn-transpose-int8-weights: the tensor-core kernel reads an INT8 B
// as N x K fragments (8-bit mma.sync operands have no ldmatrix.trans), so
// a K x N B is transposed while it is copied into shared memory, through
// registers, in 4 x 4 byte blocks. A quantized weight is a
// constant, so this pass transposes it once, at compile time, and rewrites
// the linalg.matmul into the equivalent linalg.generic contraction that
// reads it as [n, k]; the kernel then copies it with cp.async, as it does
// an FHWC filter.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_TRANSPOSEINT8WEIGHTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The K x N i8 constant `attr` as an N x K one, or null for constants that
/// are not DenseElementsAttr (resources).
static DenseElementsAttr transposeI8Matrix(Attribute attr) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return nullptr;
  auto type = cast<RankedTensorType>(dense.getType());
  int64_t k = type.getDimSize(0), n = type.getDimSize(1);
  auto transposed = RankedTensorType::get({n, k}, type.getElementType());
  if (dense.isSplat())
    return dense.resizeSplat(transposed);
  ArrayRef<char> raw = dense.getRawData();
  std::vector<char> data(raw.size());
  for (int64_t row = 0; row < k; ++row)
    for (int64_t col = 0; col < n; ++col)
      data[col * k + row] = raw[row * n + col];
  return DenseElementsAttr::getFromRawBuffer(transposed, data);
}

namespace {
/// linalg.matmul(A: M x K i8, B: constant K x N i8) -> i32 into a
/// linalg.generic contraction of A and the transposed constant, maps
/// (m, n, k) -> (m, k), (n, k), (m, n), body acc + extsi(a) * extsi(b).
struct TransposeInt8Weight : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    if (op.hasUserDefinedMaps())
      return rewriter.notifyMatchFailure(op, "user-defined indexing maps");
    Value a = op.getDpsInputOperand(0)->get();
    Value b = op.getDpsInputOperand(1)->get();
    Value c = op.getDpsInitOperand(0)->get();
    auto aType = dyn_cast<RankedTensorType>(a.getType());
    auto bType = dyn_cast<RankedTensorType>(b.getType());
    auto cType = dyn_cast<RankedTensorType>(c.getType());
    if (!aType || !bType || !cType || !bType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "B of unknown shape");
    if (!aType.getElementType().isInteger(8) ||
        !bType.getElementType().isInteger(8) ||
        !cType.getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not i8 x i8 -> i32");
    Attribute weights;
    if (!matchPattern(b, m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "B is not a constant");
    DenseElementsAttr transposed = transposeI8Matrix(weights);
    if (!transposed)
      return rewriter.notifyMatchFailure(op, "B is not a dense constant");

    Location loc = op.getLoc();
    Value bt = arith::ConstantOp::create(rewriter, loc, transposed);
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                   AffineMap::get(3, 0, {n, k}, ctx),
                                   AffineMap::get(3, 0, {m, n}, ctx)};
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, op.getResultTypes(), ValueRange{a, bt}, ValueRange{c},
        maps, iterators,
        [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
          Type i32 = nested.getI32Type();
          Value lhs = arith::ExtSIOp::create(nested, nestedLoc, i32, args[0]);
          Value rhs = arith::ExtSIOp::create(nested, nestedLoc, i32, args[1]);
          Value product = arith::MulIOp::create(nested, nestedLoc, lhs, rhs);
          Value sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
          linalg::YieldOp::create(nested, nestedLoc, sum);
        });
    // Precision decisions and the like; not linalg's memoized maps.
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName() != "linalg.memoized_indexing_maps")
        generic->setAttr(attr.getName(), attr.getValue());
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

struct TransposeInt8WeightsPass
    : opsnn::impl::TransposeInt8WeightsPassBase<TransposeInt8WeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeInt8Weight>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
