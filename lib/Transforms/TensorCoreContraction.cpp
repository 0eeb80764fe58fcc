//===- TensorCoreContraction.cpp - Contractions that collapse to a GEMM ---===//
//
// See TensorCoreContraction.h.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreContraction.h"
#include "TensorCoreMmaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

using namespace mlir;
using namespace mlir::opsnn;

/// `operand` with its dimensions in `view.permutation`'s order
/// (memref.transpose, a strided view) and collapsed by `view.groups`.
static Value buildView(OpBuilder &builder, Location loc, Value operand,
                       const CollapsibleGemm::OperandView &view) {
  Value permuted = operand;
  if (!view.isIdentityPermutation())
    permuted = memref::TransposeOp::create(
        builder, loc, operand,
        AffineMapAttr::get(AffineMap::getPermutationMap(
            view.permutation, builder.getContext())));
  return memref::CollapseShapeOp::create(builder, loc, permuted, view.groups);
}

std::array<Value, 3> CollapsibleGemm::buildViews(OpBuilder &builder,
                                                 Location loc) const {
  return {buildView(builder, loc, a, aView), buildView(builder, loc, b, bView),
          buildView(builder, loc, c, cView)};
}

bool CollapsibleGemm::OperandView::isIdentityPermutation() const {
  for (auto [i, dim] : llvm::enumerate(permutation))
    if (dim != int64_t(i))
      return false;
  return true;
}

/// `value` through at most one widening cast (extf, extsi) to a block
/// argument: that argument, or null.
static BlockArgument castSource(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg;
  Operation *cast = value.getDefiningOp();
  if (!isa_and_present<arith::ExtFOp, arith::ExtSIOp>(cast))
    return nullptr;
  return dyn_cast<BlockArgument>(cast->getOperand(0));
}

/// Whether the payload is yield(acc + ext(a) * ext(b)), in any operand order,
/// with addf/mulf on a float accumulator and addi/muli on an integer one:
/// what linalg.matmul computes.
static bool isMultiplyAccumulate(linalg::GenericOp op) {
  Block &body = op.getRegion().front();
  if (body.getNumArguments() != 3)
    return false;
  Operation *add = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!isa_and_present<arith::AddFOp, arith::AddIOp>(add))
    return false;
  BlockArgument acc = body.getArgument(2);
  Value product = add->getOperand(0) == acc ? add->getOperand(1)
                  : add->getOperand(1) == acc ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  bool floatOps = isa<arith::AddFOp>(add);
  if (!mul || (floatOps ? !isa<arith::MulFOp>(mul) : !isa<arith::MulIOp>(mul)))
    return false;
  BlockArgument x = castSource(mul->getOperand(0));
  BlockArgument y = castSource(mul->getOperand(1));
  BlockArgument a = body.getArgument(0), b = body.getArgument(1);
  return x && y && ((x == a && y == b) || (x == b && y == a));
}

/// The positions of `dims` (loop indices) in `map`'s results if they are
/// adjacent there, in `map`'s order; empty otherwise.
static SmallVector<unsigned> adjacentPositions(AffineMap map,
                                               ArrayRef<unsigned> dims,
                                               int64_t &first) {
  SmallVector<unsigned> order;
  first = -1;
  for (auto [i, expr] : llvm::enumerate(map.getResults())) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (!llvm::is_contained(dims, dim))
      continue;
    if (first < 0)
      first = i;
    else if (int64_t(i) != first + int64_t(order.size()))
      return {};
    order.push_back(dim);
  }
  if (order.size() != dims.size())
    return {};
  return order;
}

/// The position of loop `dim` in `map`'s results.
static unsigned positionOf(AffineMap map, unsigned dim) {
  return *map.getResultPosition(getAffineDimExpr(dim, map.getContext()));
}

/// The view of an operand of type `type` whose batch loops are `batch`
/// (in the order every view takes them) and whose matrix groups start at
/// `first` and `second` with `firstSize` and `secondSize` dimensions:
/// the permutation puts the batch dimensions first, then the groups; each
/// group collapses to one dimension, the batch dimensions too when that
/// needs no copy. Failure if the groups do not collapse or `second` does
/// not end with the innermost dimension (unit stride). The view is
/// `wholeCopies` when its offset, its strides and its rows are multiples of
/// `align` elements.
static FailureOr<CollapsibleGemm::OperandView>
buildOperandView(AffineMap map, ArrayRef<unsigned> batch, MemRefType type,
                 int64_t first, int64_t firstSize, int64_t second,
                 int64_t secondSize, int64_t align) {
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (second + secondSize != rank ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic) || strides.back() != 1)
    return failure();
  CollapsibleGemm::OperandView view;
  for (unsigned dim : batch)
    view.permutation.push_back(positionOf(map, dim));
  for (int64_t i = 0; i < firstSize; ++i)
    view.permutation.push_back(first + i);
  for (int64_t i = 0; i < secondSize; ++i)
    view.permutation.push_back(second + i);

  // The strides of the permuted view.
  SmallVector<int64_t> viewStrides, viewSizes;
  for (unsigned dim : view.permutation) {
    viewStrides.push_back(strides[dim]);
    viewSizes.push_back(shape[dim]);
  }
  auto contiguous = [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i + 1 < end; ++i)
      if (viewStrides[i] != viewStrides[i + 1] * viewSizes[i + 1])
        return false;
    return true;
  };
  int64_t numBatch = batch.size();
  auto group = [](int64_t begin, int64_t size) {
    ReassociationIndices indices;
    for (int64_t i = 0; i < size; ++i)
      indices.push_back(begin + i);
    return indices;
  };
  if (contiguous(0, numBatch)) {
    if (numBatch)
      view.groups.push_back(group(0, numBatch));
  } else {
    for (int64_t i = 0; i < numBatch; ++i)
      view.groups.push_back({i});
  }
  view.groups.push_back(group(numBatch, firstSize));
  view.groups.push_back(group(numBatch + firstSize, secondSize));
  if (!contiguous(numBatch, numBatch + firstSize) ||
      !contiguous(numBatch + firstSize, rank))
    return failure();
  // Rows and batches start where whole copies can, and rows are whole
  // copies (for a row-major operand the row stride is the row).
  if (offset % align != 0)
    view.wholeCopies = false;
  for (ReassociationIndices &indices : view.groups)
    if (viewStrides[indices.back()] != 1 &&
        viewStrides[indices.back()] % align != 0)
      view.wholeCopies = false;
  int64_t rowElements = 1;
  for (int64_t dim : view.groups.back())
    rowElements *= viewSizes[dim];
  if (rowElements % align != 0)
    view.wholeCopies = false;
  return view;
}

FailureOr<CollapsibleGemm>
mlir::opsnn::matchCollapsibleGemm(linalg::GenericOp op, bool allowTF32) {
  auto reject = [&](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "contraction at " << op.getLoc() << ": " << why
                            << ": generic path\n");
    return failure();
  };
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumReductionLoops() == 0)
    return failure();
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(cast<linalg::LinalgOp>(op.getOperation()));
  if (failed(dims) || dims->m.empty() || dims->n.empty() || dims->k.empty())
    return failure();
  if (!isMultiplyAccumulate(op))
    return reject("payload is not acc + a * b");

  CollapsibleGemm gemm;
  gemm.a = op.getDpsInputOperand(0)->get();
  gemm.b = op.getDpsInputOperand(1)->get();
  gemm.c = op.getDpsInitOperand(0)->get();
  // A and B may be strided views (Q, K and V: slices of one buffer); C is
  // written whole.
  for (Value v : {gemm.a, gemm.b, gemm.c}) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() ||
        (v == gemm.c && !type.getLayout().isIdentity()))
      return reject("operand not a static buffer (C of identity layout)");
  }
  gemm.elementType = getElementTypeOrSelf(gemm.a.getType());
  if (getElementTypeOrSelf(gemm.b.getType()) != gemm.elementType ||
      !isTensorCoreOperandType(gemm.elementType, allowTF32) ||
      getElementTypeOrSelf(gemm.c.getType()) !=
          tensorCoreAccumulatorType(gemm.elementType))
    return reject("types are not a tensor-core GEMM's (f32 needs allow-tf32)");

  AffineMap aMap = op.getMatchingIndexingMap(op.getDpsInputOperand(0));
  AffineMap bMap = op.getMatchingIndexingMap(op.getDpsInputOperand(1));
  AffineMap cMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  if (!aMap.isProjectedPermutation() || !bMap.isProjectedPermutation() ||
      !cMap.isProjectedPermutation())
    return reject("operand maps are not projected permutations");
  // The batch loops in C's order; every view takes them in that order.
  SmallVector<unsigned> batch;
  for (AffineExpr expr : cMap.getResults()) {
    unsigned dim = cast<AffineDimExpr>(expr).getPosition();
    if (llvm::is_contained(dims->batch, dim))
      batch.push_back(dim);
  }
  int64_t aM, aK, bK, bN, cM, cN;
  SmallVector<unsigned> mInA = adjacentPositions(aMap, dims->m, aM);
  SmallVector<unsigned> kInA = adjacentPositions(aMap, dims->k, aK);
  SmallVector<unsigned> kInB = adjacentPositions(bMap, dims->k, bK);
  SmallVector<unsigned> nInB = adjacentPositions(bMap, dims->n, bN);
  SmallVector<unsigned> mInC = adjacentPositions(cMap, dims->m, cM);
  SmallVector<unsigned> nInC = adjacentPositions(cMap, dims->n, cN);
  if (mInA.empty() || kInA.empty() || kInB.empty() || nInB.empty() ||
      mInC.empty() || nInC.empty())
    return reject("M, N or K dimensions not adjacent in an operand");
  if (mInA != mInC || nInB != nInC || kInA != kInB)
    return reject("dimensions in different orders in different operands");
  int64_t numM = mInA.size(), numN = nInB.size(), numK = kInA.size();
  gemm.bTransposed = bK > bN;

  // Each operand a (batch of) row-major matrices: M x K, K x N or N x K,
  // M x N, rows strided by whatever lies between and after the groups
  // (attention's heads: Q, K and V read in [b, s, h, d], P V's context
  // written in it).
  int64_t align = 16 / (gemm.elementType.getIntOrFloatBitWidth() / 8);
  auto typeOf = [](Value v) { return cast<MemRefType>(v.getType()); };
  FailureOr<CollapsibleGemm::OperandView> aView = buildOperandView(
      aMap, batch, typeOf(gemm.a), aM, numM, aK, numK, align);
  FailureOr<CollapsibleGemm::OperandView> bView =
      gemm.bTransposed ? buildOperandView(bMap, batch, typeOf(gemm.b), bN,
                                          numN, bK, numK, align)
                       : buildOperandView(bMap, batch, typeOf(gemm.b), bK,
                                          numK, bN, numN, align);
  FailureOr<CollapsibleGemm::OperandView> cView = buildOperandView(
      cMap, batch, typeOf(gemm.c), cM, numM, cN, numN, /*align=*/1);
  if (failed(aView) || failed(cView))
    return reject("A is not M x K or C not M x N with unit-stride rows");
  if (failed(bView))
    return reject("B is neither K x N nor N x K with unit-stride rows");
  gemm.aView = *aView;
  gemm.bView = *bView;
  gemm.cView = *cView;

  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned d : dims->batch)
    gemm.batch *= ranges[d];
  gemm.m = gemm.n = gemm.k = 1;
  for (unsigned d : dims->m)
    gemm.m *= ranges[d];
  for (unsigned d : dims->n)
    gemm.n *= ranges[d];
  for (unsigned d : dims->k)
    gemm.k *= ranges[d];
  return gemm;
}
