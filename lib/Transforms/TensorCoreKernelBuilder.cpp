//===- TensorCoreKernelBuilder.cpp - The tensor-core kernel builder
//---------===//
//
// KernelBuilder's batches, shared-memory tile types, warp fragments
// (ldmatrix/mma.sync as vector.contract), accumulator loads and stores,
// and the loops and guards the other pieces share. See
// TensorCoreKernelBuilder.h.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreKernelBuilder.h"

#include "NarrowIndexArithmetic.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::opsnn;

Value mlir::opsnn::oneElement(OpBuilder &b, Location loc, Value vector,
                              int64_t e) {
  Value element = vector::ExtractOp::create(b, loc, vector, e);
  auto type = VectorType::get({1}, element.getType());
  return vector::FromElementsOp::create(b, loc, type, ValueRange{element});
}

void KernelBuilder::bindBatch(Value index) {
  auto slice = [&](Value batched) -> Value {
    auto type = cast<MemRefType>(batched.getType());
    int64_t rank = type.getRank();
    int64_t rows = type.getDimSize(rank - 2), cols = type.getDimSize(rank - 1);
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    Value rest = index;
    for (int64_t i = rank - 3; i > 0; --i) {
      offsets[i] = rem(rest, type.getDimSize(i));
      rest = div(rest, type.getDimSize(i));
    }
    offsets[0] = rest;
    SmallVector<OpFoldResult> sizes(rank, b.getIndexAttr(1));
    sizes[rank - 2] = b.getIndexAttr(rows);
    sizes[rank - 1] = b.getIndexAttr(cols);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    auto sliceType =
        cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
            {rows, cols}, type, offsets, sizes, strides));
    return memref::SubViewOp::create(b, loc, sliceType, batched, offsets, sizes,
                                     strides);
  };
  mm.a = slice(mm.a);
  mm.b = slice(mm.b);
  mm.c = slice(mm.c);
  bindBatchRows(index);
}

MemRefType KernelBuilder::sharedTypeA(Attribute space, Type element) const {
  if (cfg.warpgroup)
    return swizzledTileType(cfg.blockM, cfg.blockK, space, element);
  return MemRefType::get({cfg.stages, cfg.blockM,
                          viewColumns(cfg.blockK + cfg.sharedPad, element)},
                         element, MemRefLayoutAttrInterface(), space);
}

MemRefType KernelBuilder::sharedTypeB(Attribute space, Type element) const {
  assert(cfg.stagesBAsNK == mm.stagesBAsNK() &&
         "tiles chosen for another B layout");
  if (cfg.warpgroup && mm.stagesBAsNK())
    return swizzledTileType(cfg.blockN, cfg.blockK, space, element);
  if (cfg.warpgroup)
    return swizzledTileType(cfg.blockK, cfg.blockN, space, element);
  if (mm.stagesBAsNK())
    return MemRefType::get({cfg.stages, cfg.blockN,
                            viewColumns(cfg.blockK + cfg.sharedPad, element)},
                           element, MemRefLayoutAttrInterface(), space);
  return MemRefType::get({cfg.stages, cfg.blockK,
                          viewColumns(cfg.blockN + cfg.sharedPad, element)},
                         element, MemRefLayoutAttrInterface(), space);
}

SmallVector<Value> KernelBuilder::loadAccumulators(Value row0, Value col0) {
  SmallVector<Value> accs;
  auto type = VectorType::get({kMmaM, kMmaN}, mm.accumulatorType());
  if (TypedAttr init = mm.epilogue.init) {
    // One splat constant: upstream's mma.sync conversion maps it to the
    // register fragments.
    Value splat = arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, Attribute(init)));
    accs.assign(fragsPerWarp(), splat);
    return accs;
  }
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(mm.accumulatorType())));
  for (int64_t i = 0; i < fragsM(); ++i)
    for (int64_t j = 0; j < fragsN(); ++j)
      accs.push_back(vector::TransferReadOp::create(
          b, loc, type, mm.c,
          ValueRange{add(row0, i * kMmaM), add(col0, j * kMmaN)}, zero,
          ArrayRef<bool>{true, true}));
  return accs;
}

void KernelBuilder::storeAccumulators(ArrayRef<Value> accs, Value row0,
                                      Value col0) {
  const TensorCoreEpilogue &ep = mm.epilogue;
  // Rows past a ragged M: the nvgpu form's per-lane stores are guarded
  // after the conversion (guardRaggedStores), which needs in-bounds
  // fragment writes; the vector form masks them; the CPU form stores row
  // by row below.
  // Fragments past a ragged N (whole fragments: N is a multiple of 8)
  // likewise.
  bool rowsInBounds = !raggedM() || nvgpuForm;
  bool colsInBounds = !raggedN() || nvgpuForm;
  for (int64_t i = 0; i < fragsM(); ++i)
    for (int64_t j = 0; j < fragsN(); ++j) {
      Value acc = accs[i * fragsN() + j];
      Value row = add(row0, i * kMmaM), col = add(col0, j * kMmaN);
      auto store = [&] {
        if (applyEpilogue && storesElements()) {
          storeRowsInBounds(acc, row, col);
          return;
        }
        if (!applyEpilogue || !ep.hasStages() || ep.storeProduct)
          vector::TransferWriteOp::create(
              b, loc, acc, mm.c, ValueRange{row, col},
              ArrayRef<bool>{rowsInBounds, colsInBounds});
        if (applyEpilogue && ep.hasStages())
          ep.applyToFragment(b, loc, acc, epilogueRow(row), col);
      };
      if (applyEpilogue && raggedN())
        ifBelow(col, mm.n, store);
      else
        store();
    }
}

SmallVector<Value> KernelBuilder::warpStep(Value wm0, Value wn0, Value stage,
                                           Value sA, Value sB,
                                           ArrayRef<Value> accs) {
  SmallVector<Value> result(accs);
  Type element = fragmentType ? fragmentType : mm.elementType;
  Value pad = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(element)));
  int64_t packing = packedElements();
  int64_t fragK = mmaK() / packing;
  auto aType = VectorType::get({kMmaM, fragK}, element);
  auto bType = VectorType::get({kMmaN, fragK}, element);
  MLIRContext *ctx = b.getContext();
  // (stage, k, n) -> (n, k): the B fragment of a K x N tile.
  AffineMap transpose = AffineMap::get(
      3, 0, {getAffineDimExpr(2, ctx), getAffineDimExpr(1, ctx)}, ctx);
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto maps = b.getAffineMapArrayAttr({AffineMap::get(3, 0, {m, k}, ctx),
                                       AffineMap::get(3, 0, {n, k}, ctx),
                                       AffineMap::get(3, 0, {m, n}, ctx)});
  auto iterators = b.getArrayAttr(
      {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
       vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
  for (int64_t kk = 0; kk < cfg.blockK; kk += mmaK()) {
    Value kIdx = cst(kk / packing);
    SmallVector<Value> fragA, fragB;
    for (int64_t i = 0; i < fragsM(); ++i)
      fragA.push_back(vector::TransferReadOp::create(
          b, loc, aType, sA, ValueRange{stage, add(wm0, i * kMmaM), kIdx}, pad,
          ArrayRef<bool>{true, true}));
    for (int64_t j = 0; j < fragsN(); ++j)
      fragB.push_back(mm.stagesBAsNK()
                          ? vector::TransferReadOp::create(
                                b, loc, bType, sB,
                                ValueRange{stage, add(wn0, j * kMmaN), kIdx},
                                pad, ArrayRef<bool>{true, true})
                          : vector::TransferReadOp::create(
                                b, loc, bType, sB,
                                ValueRange{stage, kIdx, add(wn0, j * kMmaN)},
                                pad, transpose, ArrayRef<bool>{true, true}));
    if (roundToTF32) {
      for (Value &frag : fragA)
        frag = roundFragmentToTF32(frag);
      for (Value &frag : fragB)
        frag = roundFragmentToTF32(frag);
    }
    for (int64_t i = 0; i < fragsM(); ++i)
      for (int64_t j = 0; j < fragsN(); ++j) {
        Value &acc = result[i * fragsN() + j];
        acc = vector::ContractionOp::create(b, loc, fragA[i], fragB[j], acc,
                                            maps, iterators);
      }
  }
  return result;
}

void KernelBuilder::forEachIndex(int64_t count,
                                 llvm::function_ref<void(Value)> body) {
  scf::ForOp::create(b, loc, cst(0), cst(count), cst(1), ValueRange{},
                     [&](OpBuilder &nested, Location, Value i, ValueRange) {
                       OpBuilder::InsertionGuard guard(b);
                       b.setInsertionPoint(nested.getInsertionBlock(),
                                           nested.getInsertionPoint());
                       body(i);
                       scf::YieldOp::create(b, loc);
                     });
}

void KernelBuilder::storeRowsInBounds(Value acc, Value row, Value col) {
  const TensorCoreEpilogue &ep = mm.epilogue;
  auto storeAt = [&](Value elements, Value r, Value c) {
    if (!ep.hasStages() || ep.storeProduct)
      vector::TransferWriteOp::create(b, loc, elements, mm.c, ValueRange{r, c},
                                      ArrayRef<bool>{true});
    if (ep.hasStages())
      ep.applyAndStore(b, loc, elements, epilogueRow(r), c);
  };
  vector::TransferWriteOp::create(b, loc, acc, fragmentScratch,
                                  ValueRange{cst(0), cst(0)},
                                  ArrayRef<bool>{true, true});
  forEachIndex(kMmaM, [&](Value r) {
    Value rowR = add(row, r);
    auto storeRow = [&] {
      if (mm.n % kMmaN == 0) {
        auto type = VectorType::get({kMmaN}, mm.accumulatorType());
        Value zero = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(b.getZeroAttr(mm.accumulatorType())));
        storeAt(vector::TransferReadOp::create(b, loc, type, fragmentScratch,
                                               ValueRange{r, cst(0)}, zero,
                                               ArrayRef<bool>{true}),
                rowR, col);
        return;
      }
      forEachIndex(kMmaN, [&](Value e) {
        Value colE = add(col, e);
        ifBelow(colE, mm.n, [&] {
          Value element =
              memref::LoadOp::create(b, loc, fragmentScratch, ValueRange{r, e});
          storeAt(vector::FromElementsOp::create(
                      b, loc, VectorType::get({1}, element.getType()),
                      ValueRange{element}),
                  rowR, colE);
        });
      });
    };
    ifRowBelowM(rowR, storeRow);
  });
}

void KernelBuilder::forEachSlot(Value tid, int64_t count,
                                llvm::function_ref<void(Value)> body) {
  int64_t threads = numThreads();
  scf::ForOp::create(b, loc, cst(0), cst(llvm::divideCeil(count, threads)),
                     cst(1), ValueRange{},
                     [&](OpBuilder &nested, Location, Value round, ValueRange) {
                       OpBuilder::InsertionGuard guard(b);
                       b.setInsertionPoint(nested.getInsertionBlock(),
                                           nested.getInsertionPoint());
                       AffineExpr s0, s1;
                       bindSymbols(b.getContext(), s0, s1);
                       Value slot = apply(s0 * threads + s1, {round, tid});
                       if (count % threads)
                         ifBelow(slot, count, [&] { body(slot); });
                       else
                         body(slot);
                       scf::YieldOp::create(b, loc);
                     });
}

void KernelBuilder::ifBelow(Value index, int64_t bound,
                            llvm::function_ref<void()> body) {
  Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index,
                                      cst(bound));
  scf::IfOp::create(b, loc, below, [&](OpBuilder &nested, Location) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
    body();
    scf::YieldOp::create(b, loc);
  });
}

Value KernelBuilder::roundFragmentToTF32(Value frag) {
  auto type = cast<VectorType>(frag.getType());
  auto intType = type.clone(b.getI32Type());
  auto splat = [&](uint32_t value) -> Value {
    return arith::ConstantOp::create(
        b, loc, intType,
        DenseElementsAttr::get(intType, b.getI32IntegerAttr(int32_t(value))));
  };
  Value bits = arith::BitcastOp::create(b, loc, intType, frag);
  Value halfUlp = arith::AddIOp::create(b, loc, bits, splat(0x1000));
  Value rounded = arith::BitcastOp::create(
      b, loc, type, arith::AndIOp::create(b, loc, halfUlp, splat(0xFFFFE000)));
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, frag, frag);
  return arith::SelectOp::create(b, loc, isNaN, frag, rounded);
}
