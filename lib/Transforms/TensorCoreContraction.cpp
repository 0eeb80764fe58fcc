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

std::array<Value, 3> CollapsibleGemm::buildViews(OpBuilder &builder,
                                                 Location loc) const {
  return {memref::CollapseShapeOp::create(builder, loc, a, aGroups),
          memref::CollapseShapeOp::create(builder, loc, b, bGroups),
          memref::CollapseShapeOp::create(builder, loc, c, cGroups)};
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
  for (Value v : {gemm.a, gemm.b, gemm.c}) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
      return reject("operand not a static identity-layout buffer");
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
  // The batch loops first in every operand, in one order; then each group
  // adjacent in each operand that has it, in one order.
  int64_t numBatch = dims->batch.size();
  if (numBatch) {
    int64_t first = 0;
    SmallVector<unsigned> order = adjacentPositions(cMap, dims->batch, first);
    for (AffineMap map : {aMap, bMap, cMap})
      if (order.empty() || adjacentPositions(map, dims->batch, first) != order ||
          first != 0)
        return reject("batch dimensions do not lead every operand in one "
                      "order");
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
  if (aM != numBatch || cM != numBatch ||
      aK != numBatch + int64_t(mInA.size()) ||
      cN != numBatch + int64_t(mInC.size()))
    return reject("A is not M x K or C not M x N");
  if (mInA != mInC || nInB != nInC || kInA != kInB)
    return reject("dimensions in different orders in different operands");
  gemm.bTransposed = bN == numBatch;
  if (!gemm.bTransposed &&
      (bK != numBatch || bN != numBatch + int64_t(kInB.size())))
    return reject("B is neither K x N nor N x K");

  auto group = [](int64_t first, size_t size) {
    ReassociationIndices indices;
    for (size_t i = 0; i < size; ++i)
      indices.push_back(first + i);
    return indices;
  };
  int64_t numM = mInA.size(), numN = nInB.size(), numK = kInA.size();
  int64_t o = numBatch; // the matrix groups follow the batch group
  gemm.aGroups = {group(o, numM), group(o + numM, numK)};
  gemm.cGroups = {group(o, numM), group(o + numM, numN)};
  gemm.bGroups = gemm.bTransposed
                     ? SmallVector<ReassociationIndices>{group(o, numN),
                                                         group(o + numN, numK)}
                     : SmallVector<ReassociationIndices>{group(o, numK),
                                                         group(o + numK, numN)};
  if (numBatch)
    for (auto *groups : {&gemm.aGroups, &gemm.bGroups, &gemm.cGroups})
      groups->insert(groups->begin(), group(0, numBatch));
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
