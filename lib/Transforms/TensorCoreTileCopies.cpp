//===- TensorCoreTileCopies.cpp - Global-to-shared tile copies
//--------------===//
//
// KernelBuilder's copies of the A and B tiles into shared memory: 16-byte
// cp.async chunks (or vector copies, or element copies), a convolution's
// implicit im2col rows, transposed 8-bit B tiles, the matrices' edges and a
// padded input's bounds as zeros, and the synchronous copies' deferred
// stores. See TensorCoreKernelBuilder.h.
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

Value KernelBuilder::clampedNextStepK0(Value k0) {
  MLIRContext *ctx = b.getContext();
  int64_t lastK0 = (blockSteps(mm.k, cfg.blockK) - 1) * cfg.blockK;
  AffineExpr next = getAffineSymbolExpr(0, ctx) + (cfg.stages - 1) * cfg.blockK;
  return affine::AffineMinOp::create(
      b, loc,
      AffineMap::get(0, 1, {next, getAffineConstantExpr(lastK0, ctx)}, ctx),
      ValueRange{k0});
}

void KernelBuilder::storePendingCopies() {
  for (PendingStore &pending : std::exchange(pendingStores, {})) {
    auto store = [&]() {
      emitTileStore(pending.value, pending.dst, pending.indices);
    };
    if (!pending.guard) {
      store();
      continue;
    }
    scf::IfOp::create(b, loc, pending.guard, [&](OpBuilder &, Location) {
      store();
      scf::YieldOp::create(b, loc);
    });
  }
}

void KernelBuilder::emitTileStore(Value value, Value dst, ValueRange indices) {
  auto vectorType = dyn_cast<VectorType>(value.getType());
  if (!vectorType) {
    memref::StoreOp::create(b, loc, value, dst, indices);
    return;
  }
  int64_t bytes =
      vectorType.getNumElements() * vectorType.getElementTypeBitWidth() / 8;
  vector::StoreOp::create(b, loc, value, dst, indices,
                          /*nontemporal=*/false, copyAlignment(bytes));
}

void KernelBuilder::emitCopies(Value tid, Value bm0, Value bn0, Value k0,
                               Value stage, Value sA, Value sB) {
  int64_t zeroK = raggedK() ? mm.k : 0;
  MatrixEdges aEdges;
  aEdges.clampRows = raggedM() ? mm.m : 0;
  // Element copies check every column against the matrix's.
  aEdges.zeroCols = mm.aElementCopies ? mm.k : zeroK;
  copyTile(tid, mm.a, sA, stage, cfg.blockM, cfg.blockK, bm0, k0, aEdges,
           aIndexMaps, /*transposeIntoTile=*/false, aBounds, mm.aElementCopies);
  MatrixEdges bEdges;
  if (mm.bTransposed) {
    bEdges.clampRows = raggedN() ? mm.n : 0;
    bEdges.zeroCols = mm.bElementCopies ? mm.k : zeroK;
    copyTile(tid, mm.b, sB, stage, cfg.blockN, cfg.blockK, bn0, k0, bEdges, {},
             /*transposeIntoTile=*/false, {}, mm.bElementCopies);
  } else {
    bEdges.zeroRows = zeroK;
    // Element copies: zeros past N (no chunk to re-read).
    if (mm.bElementCopies)
      bEdges.zeroCols = mm.n;
    else
      bEdges.clampCols = raggedN() ? mm.n : 0;
    copyTile(tid, mm.b, sB, stage, cfg.blockK, cfg.blockN, k0, bn0, bEdges, {},
             /*transposeIntoTile=*/mm.stagesBAsNK(), {}, mm.bElementCopies);
  }
}

void KernelBuilder::copyTile(Value tid, Value src, Value dst, Value stage,
                             int64_t rows, int64_t cols, Value row0, Value col0,
                             const MatrixEdges &edges,
                             ArrayRef<AffineMap> srcMaps,
                             bool transposeIntoTile,
                             ArrayRef<int64_t> srcBounds, bool elementCopies) {
  assert((!elementCopies || (edges.zeroCols && !edges.clampCols)) &&
         "element copies: zeros past the matrix's columns");
  int64_t copyWidth = copyElements();
  // A transposed copy (of 8-bit elements) takes 4 x 4 blocks: four 4-byte
  // loads along the source's rows, four 4-byte stores along the tile's
  // (see the branch below). Element copies: a row at a time.
  int64_t rowGroup = 1;
  if (transposeIntoTile && !elementCopies) {
    copyWidth = kTransposeBlock;
    rowGroup = kTransposeBlock;
  } else if (transposeIntoTile) {
    copyWidth = std::gcd(copyWidth, cols);
  }
  assert(cols % copyWidth == 0 && "tile rows split into whole copies");
  assert(rows % rowGroup == 0 && "tile columns split into whole blocks");
  assert(edges.clampCols % copyWidth == 0 &&
         "clamped columns split into whole copies");
  assert((!transposeIntoTile || !edges.clampRows) &&
         "a transposed source's rows are K: zeros past it, not clamped");
  assert((!cfg.warpgroup || !transposeIntoTile) &&
         "swizzled tiles take rows as they are");
  int64_t perRow = cols / copyWidth;
  int64_t chunks = rows / rowGroup * perRow;
  int64_t threads = numThreads();
  auto type = VectorType::get({copyWidth}, mm.elementType);
  Value pad = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(mm.elementType)));
  auto clampBelow = [&](Value index, int64_t last) -> Value {
    return affine::AffineMinOp::create(
        b, loc,
        AffineMap::get(0, 1,
                       {getAffineSymbolExpr(0, b.getContext()),
                        getAffineConstantExpr(last, b.getContext())},
                       b.getContext()),
        ValueRange{index});
  };
  for (int64_t first = 0; first < chunks; first += threads) {
    // `guard`: whether the copy exists, for deferred stores (see
    // deferStores) that read a clamped chunk.
    auto emit = [&](OpBuilder &nested, Value chunk, bool guarded, Value guard) {
      OpBuilder::InsertionGuard insertionGuard(b);
      b.setInsertionPoint(nested.getInsertionBlock(),
                          nested.getInsertionPoint());
      Value row = mul(div(chunk, perRow), rowGroup);
      Value col = mul(rem(chunk, perRow), copyWidth);
      Value srcRow = add(row0, row), srcCol = add(col0, col);
      // An implicit matrix's element copies whose chunks hold whole
      // channel vectors (C = 4, 2 or 1 f16) index by the column in
      // chunks (col0 is a K step's, a whole number of chunks): each
      // element's channel is then a constant. Otherwise (C = 3) by the
      // column itself: the maps of the column in chunks simplify less
      // (ptxas sm_80, the ResNet stem: 1508 SASS instructions against
      // 1213).
      Value implicitCol = srcCol;
      int64_t implicitColScale = 1;
      if (elementCopies && !srcMaps.empty() && mm.conv &&
          copyWidth % mm.conv->channels == 0) {
        AffineExpr s0, s1;
        bindSymbols(b.getContext(), s0, s1);
        implicitCol =
            applyNarrowable(s0.floorDiv(copyWidth) + s1 % perRow, {col0, chunk},
                            {implicitMatrixBounds()[1], chunks});
        implicitColScale = copyWidth;
      }
      if (edges.clampRows)
        srcRow = clampBelow(srcRow, edges.clampRows - 1);
      if (edges.clampCols)
        srcCol = clampBelow(srcCol, edges.clampCols - copyWidth);
      if (elementCopies) {
        // Each load under its bounds check (not a select of clamped
        // indices): the addresses stay one base plus constant offsets.
        Value inRows =
            edges.zeroRows
                ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        srcRow, cst(edges.zeroRows))
                : Value();
        for (int64_t e = 0; e < copyWidth; ++e) {
          Value srcColE = add(srcCol, e);
          Value inBounds = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::slt, srcColE, cst(edges.zeroCols));
          if (inRows)
            inBounds = arith::AndIOp::create(b, loc, inRows, inBounds);
          SmallVector<Value> srcIndices = {srcRow, srcColE};
          if (!srcMaps.empty()) {
            srcIndices = implicitIndices(srcMaps, srcRow, implicitCol,
                                         implicitColScale, e);
            if (Value inSource = boundsPredicate(srcIndices, srcBounds))
              inBounds = arith::AndIOp::create(b, loc, inBounds, inSource);
          }
          auto ifOp = scf::IfOp::create(
              b, loc, inBounds,
              [&](OpBuilder &nested, Location) {
                scf::YieldOp::create(nested, loc,
                                     ValueRange{memref::LoadOp::create(
                                         nested, loc, src, srcIndices)});
              },
              [&](OpBuilder &nested, Location) {
                scf::YieldOp::create(nested, loc, ValueRange{pad});
              });
          Value v = ifOp.getResult(0);
          Value tileCol = add(col, e);
          SmallVector<Value> dstIndices =
              transposeIntoTile ? SmallVector<Value>{stage, tileCol, row}
                                : SmallVector<Value>{stage, row, tileCol};
          // The warpgroup's tiles: each element where its chunk lands.
          if (cfg.warpgroup)
            dstIndices = swizzledIndices(stage, row, tileCol, rows);
          storeToTile(v, dst, dstIndices, guard);
        }
        return;
      }
      if (rowGroup > 1) {
        // Rows srcRow .. srcRow+3 at columns srcCol .. srcCol+3, each a
        // 4-byte load (zeros past the edges), then tile row col+e gets
        // the 4 bytes of column e, one 4-byte store at column `row`.
        auto wordType = VectorType::get({copyWidth}, mm.elementType);
        SmallVector<Value> lines;
        for (int64_t r = 0; r < rowGroup; ++r) {
          SmallVector<Value> indices = {add(srcRow, r), srcCol};
          Value inside =
              clampToBounds(indices, {edges.zeroRows, edges.zeroCols},
                            /*nonNegative=*/true);
          Value line = vector::LoadOp::create(
              b, loc, wordType, src, indices, /*nontemporal=*/false,
              copyAlignment(copyWidth * elementBytes()));
          if (inside)
            line = arith::SelectOp::create(
                b, loc, inside, line,
                arith::ConstantOp::create(b, loc, wordType,
                                          b.getZeroAttr(wordType)));
          lines.push_back(line);
        }
        for (int64_t e = 0; e < copyWidth; ++e) {
          SmallVector<Value> bytes =
              llvm::map_to_vector(lines, [&](Value line) -> Value {
                return vector::ExtractOp::create(b, loc, line, e);
              });
          Value word = vector::FromElementsOp::create(
              b, loc, VectorType::get({rowGroup}, mm.elementType), bytes);
          storeToTile(word, dst, ValueRange{stage, add(col, e), row}, guard);
        }
        return;
      }
      SmallVector<Value> matrixIndices = {srcRow, srcCol};
      Value inBounds =
          clampToBounds(matrixIndices, {edges.zeroRows, edges.zeroCols},
                        /*nonNegative=*/true);
      SmallVector<Value> srcIndices = matrixIndices;
      if (!srcMaps.empty())
        srcIndices =
            implicitIndices(srcMaps, matrixIndices[0], matrixIndices[1]);
      if (Value inSource = clampToBounds(srcIndices, srcBounds))
        inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, inSource)
                            : inSource;
      // The loaded chunk, or zeros outside the bounds (the plain loads).
      auto zeroOutside = [&](Value v) -> Value {
        if (!inBounds)
          return v;
        return arith::SelectOp::create(
            b, loc, inBounds, v,
            arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type)));
      };
      SmallVector<Value> dstIndices = {stage, row, col};
      if (cfg.warpgroup)
        dstIndices = swizzledIndices(stage, row, col, rows);
      if (asyncCopies) {
        // What createAsyncGroups would make of the transfer pair.
        Value srcElements =
            inBounds ? arith::SelectOp::create(b, loc, inBounds, cst(copyWidth),
                                               cst(0))
                     : Value();
        Value token = nvgpu::DeviceAsyncCopyOp::create(
            b, loc, dst, dstIndices, src, srcIndices, b.getIndexAttr(copyWidth),
            srcElements, b.getUnitAttr());
        if (!guarded)
          copyTokens.push_back(token);
        return;
      }
      if (deferStores) {
        // vector.load/store (the GPU pipeline lowers no transfers that
        // are not cp.async or fragments), aligned: one 16-byte access.
        Value v = zeroOutside(vector::LoadOp::create(
            b, loc, type, src, srcIndices, /*nontemporal=*/false,
            copyAlignment(kCopyBytes)));
        storeToTile(v, dst, dstIndices, guard);
        return;
      }
      Value v = zeroOutside(vector::TransferReadOp::create(
          b, loc, type, src, srcIndices, pad, ArrayRef<bool>{true}));
      vector::TransferWriteOp::create(b, loc, v, dst, dstIndices,
                                      ArrayRef<bool>{true});
    };
    Value chunk = add(tid, first);
    if (first + threads <= chunks) {
      emit(b, chunk, /*guarded=*/false, /*guard=*/nullptr);
      continue;
    }
    // The last round has fewer chunks than threads.
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          chunk, cst(chunks));
    if (deferStores) {
      // Loads of the last chunk instead, the stores under the guard.
      emit(b, clampBelow(chunk, chunks - 1), /*guarded=*/false, inRange);
      continue;
    }
    scf::IfOp::create(b, loc, inRange, [&](OpBuilder &nested, Location) {
      emit(nested, chunk, /*guarded=*/true, /*guard=*/nullptr);
      scf::YieldOp::create(nested, loc);
    });
  }
}

Value KernelBuilder::applyNarrowable(AffineExpr expr, ValueRange operands,
                                     ArrayRef<int64_t> bounds) {
  auto apply = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, operands.size(), expr), operands);
  markNarrowable(apply, bounds);
  return apply;
}

SmallVector<Value> KernelBuilder::implicitIndices(ArrayRef<AffineMap> srcMaps,
                                                  Value row, Value col,
                                                  int64_t colScale,
                                                  int64_t colOffset) {
  AffineExpr k = getAffineSymbolExpr(1, b.getContext());
  auto [rowBound, colBound] = implicitMatrixBounds();
  std::array<int64_t, 2> bounds = {rowBound, colBound / colScale};
  return llvm::map_to_vector(srcMaps, [&](AffineMap map) -> Value {
    return applyNarrowable(
        map.getResult(0).replace(k, k * colScale + colOffset), {row, col},
        bounds);
  });
}

Value KernelBuilder::clampToBounds(SmallVectorImpl<Value> &indices,
                                   ArrayRef<int64_t> bounds, bool nonNegative) {
  Value inBounds = boundsPredicate(indices, bounds, nonNegative);
  if (!inBounds)
    return nullptr;
  for (auto [index, bound] : llvm::zip(indices, bounds))
    if (bound)
      index = arith::SelectOp::create(b, loc, inBounds, index, cst(0));
  return inBounds;
}

Value KernelBuilder::boundsPredicate(ArrayRef<Value> indices,
                                     ArrayRef<int64_t> bounds,
                                     bool nonNegative) {
  Value inBounds;
  for (auto [index, bound] : llvm::zip(indices, bounds)) {
    if (!bound)
      continue;
    Value atLeastZero =
        nonNegative ? Value()
                    : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                            index, cst(0));
    Value both = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index,
                                       cst(bound));
    if (atLeastZero)
      both = arith::AndIOp::create(b, loc, atLeastZero, both);
    inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds, both) : both;
  }
  return inBounds;
}

void KernelBuilder::storeToTile(Value value, Value dst, ValueRange indices,
                                Value guard) {
  if (deferStores) {
    pendingStores.push_back(
        {value, dst, SmallVector<Value, 3>(indices), guard});
    return;
  }
  assert(!guard && "an immediate store is guarded by its scf.if");
  emitTileStore(value, dst, indices);
}
