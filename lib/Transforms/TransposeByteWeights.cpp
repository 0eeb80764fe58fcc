//===- TransposeByteWeights.cpp - Constant INT8 B operands stored N x K ---===//
//
// --opsnn-transpose-byte-weights: the tensor-core kernel reads an INT8 B
// as N x K fragments (8-bit mma.sync operands have no ldmatrix.trans), so
// a K x N B is transposed while it is copied into shared memory, through
// registers, in 4 x 4 byte blocks. A quantized weight is a
// constant, so this pass transposes it once, at compile time, and rewrites
// the linalg.matmul into the equivalent linalg.generic contraction that
// reads it as [n, k]; the kernel then copies it with cp.async, as it does
// an FHWC filter. A linalg.generic contraction's constant B (the
// importer's x[b, s, k] * w[k, h, e]) has its dimensions permuted to
// [n..., k...] the same way, and a constant HWCF filter becomes FHWC (the
// convolution an NHWC-FHWC one). FP8 weights stored N x K are also what
// Hopper's wgmma reads (8-bit wgmma operands are K-major only).
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

/// The 8-bit constant `attr` with its dimensions permuted: dimension i of
/// the result is dimension perm[i] of `attr`. Null for constants that are
/// not DenseElementsAttr (resources).
static DenseElementsAttr permuteByteConstant(Attribute attr,
                                             ArrayRef<int64_t> perm) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return nullptr;
  auto type = cast<RankedTensorType>(dense.getType());
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<int64_t> permuted =
      llvm::map_to_vector(perm, [&](int64_t d) { return shape[d]; });
  auto result = RankedTensorType::get(permuted, type.getElementType());
  if (dense.isSplat())
    return dense.resizeSplat(result);
  // The source stride of each result dimension; then every result element,
  // in order, read from its source offset.
  int64_t rank = shape.size();
  SmallVector<int64_t> srcStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    srcStrides[d] = srcStrides[d + 1] * shape[d + 1];
  ArrayRef<char> raw = dense.getRawData();
  std::vector<char> data(raw.size());
  SmallVector<int64_t> index(rank, 0);
  for (char &out : data) {
    int64_t src = 0;
    for (int64_t i = 0; i < rank; ++i)
      src += index[i] * srcStrides[perm[i]];
    out = raw[src];
    for (int64_t i = rank - 1; i >= 0 && ++index[i] == permuted[i]; --i)
      index[i] = 0;
  }
  return DenseElementsAttr::getFromRawBuffer(result, data);
}

/// `from`'s discardable attributes (precision decisions and the like; not
/// linalg's memoized maps) onto its replacement `to`.
static void copyDiscardableAttrs(Operation *from, Operation *to) {
  for (NamedAttribute attr : from->getDiscardableAttrs())
    if (attr.getName() != "linalg.memoized_indexing_maps")
      to->setAttr(attr.getName(), attr.getValue());
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
    DenseElementsAttr transposed = permuteByteConstant(weights, {1, 0});
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
    copyDiscardableAttrs(op, generic);
    rewriter.replaceOp(op, generic.getResults());
    return success();
  }
};

/// A linalg.generic contraction of 8-bit operands whose B (input 1) is a
/// dense constant read with some reduction (K) dimension before a parallel
/// (N) one, e.g. the importer's x[b, s, k] * w[k, h, e]: the constant's
/// dimensions are permuted to its parallel dimensions, then its reduction
/// ones (each group in its order), and its indexing map likewise. The
/// same contraction, its B stored N x K.
struct TransposeByteWeightOfContraction : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
        op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
      return rewriter.notifyMatchFailure(op, "not a contraction on tensors");
    OpOperand *a = op.getDpsInputOperand(0), *b = op.getDpsInputOperand(1);
    Type element = getElementTypeOrSelf(a->get().getType());
    auto bType = dyn_cast<RankedTensorType>(b->get().getType());
    if (!hasByteOperands(element) || !bType || !bType.hasStaticShape() ||
        bType.getElementType() != element)
      return rewriter.notifyMatchFailure(op, "not 8-bit x 8-bit");
    AffineMap bMap = op.getMatchingIndexingMap(b);
    if (!bMap.isProjectedPermutation() || bMap.getNumResults() == 0)
      return rewriter.notifyMatchFailure(op, "B's map is not of dimensions");
    // B's results, parallel dimensions first.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    SmallVector<int64_t> perm;
    for (utils::IteratorType kind :
         {utils::IteratorType::parallel, utils::IteratorType::reduction})
      for (auto [i, expr] : llvm::enumerate(bMap.getResults()))
        if (iterators[cast<AffineDimExpr>(expr).getPosition()] == kind)
          perm.push_back(i);
    if (llvm::is_sorted(perm))
      return rewriter.notifyMatchFailure(op, "B is already N x K");
    Attribute weights;
    if (!matchPattern(b->get(), m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "B is not a constant");
    DenseElementsAttr permuted = permuteByteConstant(weights, perm);
    if (!permuted)
      return rewriter.notifyMatchFailure(op, "B is not a dense constant");

    Value bt = arith::ConstantOp::create(rewriter, op.getLoc(), permuted);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    maps[b->getOperandNumber()] = bMap.getSubMap(
        llvm::map_to_vector(perm, [](int64_t i) { return unsigned(i); }));
    rewriter.modifyOpInPlace(op, [&] {
      b->set(bt);
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

/// linalg.conv_2d_nhwc_hwcf of 8-bit operands whose HWCF filter is a dense
/// constant into linalg.conv_2d_nhwc_fhwc of the filter permuted to FHWC
/// (the implicit GEMM's B stored N x K), same strides and dilations.
struct TransposeByteFilter : OpRewritePattern<linalg::Conv2DNhwcHwcfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNhwcHwcfOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    Value x = op.getDpsInputOperand(0)->get();
    Value filter = op.getDpsInputOperand(1)->get();
    Type element = getElementTypeOrSelf(x.getType());
    auto filterType = dyn_cast<RankedTensorType>(filter.getType());
    if (!hasByteOperands(element) || !filterType ||
        !filterType.hasStaticShape() || filterType.getElementType() != element)
      return rewriter.notifyMatchFailure(op, "not 8-bit x 8-bit");
    Attribute weights;
    if (!matchPattern(filter, m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "the filter is not a constant");
    DenseElementsAttr fhwc = permuteByteConstant(weights, {3, 0, 1, 2});
    if (!fhwc)
      return rewriter.notifyMatchFailure(op, "the filter is not dense");
    Value permuted = arith::ConstantOp::create(rewriter, op.getLoc(), fhwc);
    auto conv = linalg::Conv2DNhwcFhwcOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), ValueRange{x, permuted},
        op.getDpsInits(), op.getStrides(), op.getDilations());
    copyDiscardableAttrs(op, conv);
    rewriter.replaceOp(op, conv.getResults());
    return success();
  }
};

struct TransposeByteWeightsPass
    : opsnn::impl::TransposeByteWeightsPassBase<TransposeByteWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TransposeByteWeight, TransposeByteWeightOfContraction,
                 TransposeByteFilter>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
