//===- TransposeByteWeights.cpp - Constant INT8 B operands stored N x K ---===//
//
// --opsnn-transpose-byte-weights: the tensor-core kernel reads an INT8 B
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

#include "TensorCoreMmaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_TRANSPOSEBYTEWEIGHTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The K x N 8-bit constant `attr` as an N x K one, or null for constants
/// that are not DenseElementsAttr (resources).
static DenseElementsAttr transposeByteMatrix(Attribute attr) {
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
/// (m, n, k) -> (m, k), (n, k), (m, n), body acc + extsi(a) * extsi(b);
/// likewise FP8 x FP8 -> f32 with acc + extf(a) * extf(b).
struct TransposeByteWeight : OpRewritePattern<linalg::MatmulOp> {
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
    Type element = aType.getElementType();
    if (!hasByteOperands(element) || bType.getElementType() != element ||
        cType.getElementType() != tensorCoreAccumulatorType(element))
      return rewriter.notifyMatchFailure(
          op, "not i8 x i8 -> i32 nor FP8 x FP8 -> f32");
    Attribute weights;
    if (!matchPattern(b, m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "B is not a constant");
    DenseElementsAttr transposed = transposeByteMatrix(weights);
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
          Type acc = cType.getElementType();
          Value sum;
          if (isa<IntegerType>(element)) {
            Value lhs = arith::ExtSIOp::create(nested, nestedLoc, acc, args[0]);
            Value rhs = arith::ExtSIOp::create(nested, nestedLoc, acc, args[1]);
            Value product = arith::MulIOp::create(nested, nestedLoc, lhs, rhs);
            sum = arith::AddIOp::create(nested, nestedLoc, args[2], product);
          } else {
            Value lhs = arith::ExtFOp::create(nested, nestedLoc, acc, args[0]);
            Value rhs = arith::ExtFOp::create(nested, nestedLoc, acc, args[1]);
            Value product = arith::MulFOp::create(nested, nestedLoc, lhs, rhs);
            sum = arith::AddFOp::create(nested, nestedLoc, args[2], product);
          }
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

struct TransposeByteWeightsPass
    : opsnn::impl::TransposeByteWeightsPassBase<TransposeByteWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeByteWeight>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
