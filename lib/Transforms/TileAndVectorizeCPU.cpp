//===- TileAndVectorizeCPU.cpp - Static tiles, then vectors ---------------===//
//
// Tiles every statically shaped linalg op with tile sizes that divide its
// loop bounds, decomposes 2-D convolution tiles into 1-D ones, and
// vectorizes what the upstream vectorizer accepts. The tile-size policy is
// documented in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_TILEANDVECTORIZECPUPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// The largest divisor of `size` that is at most `limit` (at least 1).
static int64_t largestDivisorAtMost(int64_t size, int64_t limit) {
  for (int64_t tile = std::min(size, std::max<int64_t>(limit, 1)); tile > 1;
       --tile)
    if (size % tile == 0)
      return tile;
  return 1;
}

/// Tile sizes of a convolution or pooling op: 1-D windows of the innermost
/// image dimension, everything else outside it tiled by 1.
static SmallVector<int64_t>
getConvolutionTileSizes(ArrayRef<int64_t> bounds,
                        const linalg::ConvolutionDimensions &dims,
                        int64_t vectorWidth) {
  SmallVector<int64_t> tiles(bounds.size(), 1);
  auto setAllButLast = [&](ArrayRef<unsigned> group, bool lastWhole) {
    for (auto [i, dim] : llvm::enumerate(group)) {
      bool last = i + 1 == group.size();
      if (!last)
        tiles[dim] = 1;
      else
        tiles[dim] = lastWhole ? bounds[dim]
                               : largestDivisorAtMost(bounds[dim], vectorWidth);
    }
  };
  setAllButLast(dims.outputImage, /*lastWhole=*/false);
  setAllButLast(dims.filterLoop, /*lastWhole=*/true);
  for (unsigned dim : dims.outputChannel)
    tiles[dim] = largestDivisorAtMost(bounds[dim], vectorWidth);
  for (unsigned dim : dims.inputChannel)
    tiles[dim] = largestDivisorAtMost(bounds[dim], vectorWidth);
  for (unsigned dim : dims.depth)
    tiles[dim] = largestDivisorAtMost(bounds[dim], vectorWidth);
  return tiles;
}

/// Tile sizes of any other linalg op: vectors along the two innermost
/// parallel dimensions and the innermost reduction dimension.
static SmallVector<int64_t> getGenericTileSizes(linalg::LinalgOp op,
                                                ArrayRef<int64_t> bounds,
                                                int64_t vectorWidth) {
  SmallVector<int64_t> tiles(bounds.size(), 1);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t parallelSeen = 0;
  bool reductionSeen = false;
  for (int64_t dim = bounds.size() - 1; dim >= 0; --dim) {
    if (iterators[dim] == utils::IteratorType::parallel) {
      if (parallelSeen < 2)
        tiles[dim] = largestDivisorAtMost(
            bounds[dim], parallelSeen == 0 ? vectorWidth : vectorWidth / 2);
      ++parallelSeen;
    } else if (!reductionSeen) {
      tiles[dim] = largestDivisorAtMost(bounds[dim], vectorWidth);
      reductionSeen = true;
    }
  }
  return tiles;
}

/// Vectors of i1 lower to packed bits in LLVM, while a memref of i1 keeps one
/// byte per element: transfers between the two would read and write the
/// wrong bits, so ops on boolean tensors stay scalar loops.
static bool hasI1Elements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.getElementType().isInteger(1);
}

/// A channels-first 1-D convolution or pooling (what 2-D ones decompose to)
/// on bf16: upstream vectorizes it by transposing its input vectors, and
/// x86 instruction selection cannot legalize those bf16 shuffles ("Do not
/// know how to soft promote this operator's operand"; a strided
/// conv_2d_nchw_fchw on bf16 inputs). Left as loops.
static bool isChannelsFirstOnBF16(linalg::LinalgOp op) {
  return isa<linalg::Conv1DNcwFcwOp, linalg::DepthwiseConv1DNcwCwOp,
             linalg::PoolingNcwMaxOp, linalg::PoolingNcwSumOp>(*op) &&
         llvm::any_of(op->getOperandTypes(), [](Type type) {
           return getElementTypeOrSelf(type).isBF16();
         });
}

/// A bf16 operand with a dimension that is not a power of two (after
/// tiling): its vectors (<9 x bfloat>) would need widening, which x86
/// instruction selection cannot do for bf16 either: `load <9 x bfloat>`
/// then `extractelement` alone aborts llc -mcpu=native with the same "Do
/// not know how to soft promote this operator's operand" (a 1x160 @
/// 160x9 matmul in mixed BF16, found by scripts/fuzz_graphs.py). Left as
/// loops. Any dimension, not only the innermost: a transposed read makes
/// another one innermost.
static bool hasUnevenBF16Operand(linalg::LinalgOp op) {
  return llvm::any_of(op->getOperandTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.getElementType().isBF16() &&
           llvm::any_of(shaped.getShape(), [](int64_t size) {
             return size > 1 && !llvm::isPowerOf2_64(size);
           });
  });
}

/// True when some indexing map decreases with a loop (`2 - d3`: a flip).
/// Tiling computes an operand's slice from the tile's first and last
/// iteration assuming the maps increase, which gives a flip the wrong slice.
static bool hasDecreasingIndexing(linalg::LinalgOp op) {
  bool decreasing = false;
  for (AffineMap map : op.getIndexingMapsArray())
    for (AffineExpr result : map.getResults())
      result.walk([&](AffineExpr expr) {
        auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
        if (!mul || mul.getKind() != AffineExprKind::Mul)
          return;
        for (AffineExpr side : {mul.getLHS(), mul.getRHS()})
          if (auto constant = dyn_cast<AffineConstantExpr>(side))
            decreasing |= constant.getValue() < 0;
      });
  return decreasing;
}

namespace {
struct TileAndVectorizeCPUPass
    : opsnn::impl::TileAndVectorizeCPUPassBase<TileAndVectorizeCPUPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (vectorWidth < 1) {
      func.emitError() << "vector-width must be positive, got "
                       << static_cast<int64_t>(vectorWidth);
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());

    // 1. Tile statically shaped ops into static tiles.
    SmallVector<linalg::LinalgOp> candidates;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          !hasDecreasingIndexing(op))
        candidates.push_back(op);
    });
    for (linalg::LinalgOp op : candidates) {
      SmallVector<int64_t> bounds = op.getStaticLoopRanges();
      FailureOr<linalg::ConvolutionDimensions> convDims =
          linalg::inferConvolutionDims(op);
      SmallVector<int64_t> tiles =
          succeeded(convDims) && linalg::isaConvolutionOpInterface(op)
              ? getConvolutionTileSizes(bounds, *convDims, vectorWidth)
              : getGenericTileSizes(op, bounds, vectorWidth);
      if (tiles == bounds)
        continue; // already one tile
      // tileUsingSCF reads 0 as "do not tile this dimension".
      SmallVector<OpFoldResult> tileSizes;
      for (auto [tile, bound] : llvm::zip(tiles, bounds))
        tileSizes.push_back(rewriter.getIndexAttr(tile == bound ? 0 : tile));
      scf::SCFTilingOptions options;
      options.setTileSizes(tileSizes);
      rewriter.setInsertionPoint(op);
      FailureOr<scf::SCFTilingResult> tiled = scf::tileUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
      if (failed(tiled))
        continue; // left whole: loops later
      rewriter.replaceOp(op, tiled->replacements);
    }

    // 2. 2-D convolution tiles with unit height -> 1-D convolutions.
    {
      RewritePatternSet patterns(&getContext());
      linalg::populateDecomposeConvolutionPatterns(patterns);
      scf::ForOp::getCanonicalizationPatterns(patterns, &getContext());
      tensor::populateFoldTensorEmptyPatterns(patterns);
      if (failed(applyPatternsGreedily(func, std::move(patterns))))
        return signalPassFailure();
    }

    // 3. Vectorize what the vectorizer accepts.
    SmallVector<Operation *> toVectorize;
    func.walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && !op.hasDynamicShape() &&
          !llvm::any_of(op->getOperandTypes(), hasI1Elements) &&
          !isChannelsFirstOnBF16(op) && !hasUnevenBF16Operand(op) &&
          succeeded(linalg::vectorizeOpPrecondition(op)))
        toVectorize.push_back(op);
    });
    for (Operation *op : toVectorize) {
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::VectorizationResult> result =
          linalg::vectorize(rewriter, op);
      if (succeeded(result))
        rewriter.replaceOp(op, result->replacements);
    }

    // 4. Clean up: fold slices into transfers so bufferization sees no
    // extra copies, and canonicalize the vector code.
    RewritePatternSet patterns(&getContext());
    vector::populateVectorTransferPermutationMapLoweringPatterns(patterns);
    // mul + multi_reduction (what matmul-like tiles vectorize to) ->
    // vector.contract, which vector-to-llvm lowers to FMAs.
    vector::populateVectorReductionToContractPatterns(patterns);
    vector::TransferReadOp::getCanonicalizationPatterns(patterns, &getContext());
    vector::TransferWriteOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    tensor::populateFoldTensorSubsetIntoVectorTransferPatterns(patterns);
    if (failed(applyPatternsGreedily(func, std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
