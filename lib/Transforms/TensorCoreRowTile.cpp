//===- TensorCoreRowTile.cpp - The f32 row tile epilogues
//-------------------===//
//
// KernelBuilder's pieces around the block's f32 row tile in shared
// memory: the whole-rows softmax epilogue (row part maxima, sums,
// normalized rows) and the warpgroup (wgmma) kernel's 128-byte swizzled
// tiles, its CPU step and its epilogue. See TensorCoreKernelBuilder.h.
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

SmallVector<Value> KernelBuilder::swizzledIndices(Value stage, Value row,
                                                  Value col, int64_t rows) {
  MLIRContext *ctx = b.getContext();
  int64_t rowElements = swizzledRowElements();
  int64_t chunk = copyElements();
  int64_t atomRows = kWarpgroupRowBytes / kCopyBytes;
  AffineExpr s0, s1;
  bindSymbols(ctx, s0, s1);
  Value tileRow = apply(s1.floorDiv(rowElements) * rows + s0, {row, col});
  Value chunkIndex = apply((s0 % rowElements).floorDiv(chunk), {col});
  Value swizzled =
      arith::XOrIOp::create(b, loc, chunkIndex, rem(row, atomRows));
  Value tileCol = apply(s0 * chunk + s1 % chunk, {swizzled, col});
  return {stage, tileRow, tileCol};
}

void KernelBuilder::storeToRowTile(ArrayRef<Value> accs, Value wm0, Value wn0,
                                   Value rowTile) {
  for (int64_t i = 0; i < fragsM(); ++i)
    for (int64_t j = 0; j < fragsN(); ++j)
      vector::TransferWriteOp::create(
          b, loc, accs[i * fragsN() + j], rowTile,
          ValueRange{add(wm0, i * kMmaM), add(wn0, j * kMmaN)},
          ArrayRef<bool>{true, true});
}

void KernelBuilder::emitRowPartMaxima(Value tid, Value bm0, Value rowTile,
                                      Value partials) {
  const TensorCoreEpilogue &ep = mm.epilogue;
  auto vector1 = VectorType::get({1}, b.getF32Type());
  forEachRowPart(tid, bm0, [&](Value slot, Value r, Value part, Value row) {
    Value epRow = epilogueRow(row);
    Value nan = arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(std::numeric_limits<float>::quiet_NaN()));
    Value max = forColumns(part, nan, [&](Value col, Value max) {
      Value x = memref::LoadOp::create(b, loc, rowTile, ValueRange{r, col});
      Value v = ep.applyBeforeSoftmax(
          b, loc, vector::FromElementsOp::create(b, loc, vector1, x), epRow,
          col);
      Value y = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{0});
      memref::StoreOp::create(b, loc, y, rowTile, ValueRange{r, col});
      return arith::MaxNumFOp::create(b, loc, max, y).getResult();
    });
    memref::StoreOp::create(b, loc, max, partials, ValueRange{cst(0), slot});
  });
}

void KernelBuilder::emitRowPartSums(Value tid, Value bm0, Value rowTile,
                                    Value partials) {
  forEachRowPart(tid, bm0, [&](Value slot, Value r, Value part, Value) {
    Value max = combineParts(partials, 0, r, [&](Value x, Value y) -> Value {
      return arith::MaxNumFOp::create(b, loc, x, y);
    });
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    Value sum = forColumns(part, zero, [&](Value col, Value sum) {
      Value x = memref::LoadOp::create(b, loc, rowTile, ValueRange{r, col});
      Value e =
          math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, max));
      memref::StoreOp::create(b, loc, e, rowTile, ValueRange{r, col});
      return arith::AddFOp::create(b, loc, sum, e).getResult();
    });
    memref::StoreOp::create(b, loc, sum, partials, ValueRange{cst(1), slot});
  });
}

void KernelBuilder::emitNormalizedRows(Value tid, Value bm0, Value rowTile,
                                       Value partials) {
  const TensorCoreEpilogue &ep = mm.epilogue;
  int64_t width = columnPairWidth();
  auto type = VectorType::get({width}, b.getF32Type());
  forEachColumnPair(tid, mm.n, [&](Value r, Value col) {
    Value row = add(bm0, r);
    auto rowBody = [&] {
      Value e = vector::LoadOp::create(
          b, loc, type, rowTile, ValueRange{r, col},
          /*nontemporal=*/false, copyAlignment(width * 4));
      Value sum = combineParts(partials, 1, r, [&](Value x, Value y) -> Value {
        return arith::AddFOp::create(b, loc, x, y);
      });
      Value normalized = arith::DivFOp::create(
          b, loc, e, vector::BroadcastOp::create(b, loc, type, sum));
      ep.applyAfterSoftmax(b, loc, normalized, epilogueRow(row), col);
    };
    ifRowBelowM(row, rowBody);
  });
}

/// Whether `attr` is a float or integer zero (a fill that adds nothing).
static bool isZeroAttr(TypedAttr attr) {
  if (auto value = dyn_cast<FloatAttr>(attr))
    return value.getValue().isZero();
  if (auto value = dyn_cast<IntegerAttr>(attr))
    return value.getValue().isZero();
  return false;
}

void KernelBuilder::emitRowTileEpilogue(Value tid, Value bm0, Value bn0,
                                        Value rowTile) {
  const TensorCoreEpilogue &ep = mm.epilogue;
  int64_t width = columnPairWidth();
  auto type = VectorType::get({width}, mm.accumulatorType());
  // C's rows, like the row tile's, start at even columns for an even N.
  llvm::MaybeAlign align = copyAlignment(width * 4);
  forEachColumnPair(tid, cfg.blockN, [&](Value r, Value c) {
    Value row = add(bm0, r), col = add(bn0, c);
    auto store = [&] {
      Value v = vector::LoadOp::create(b, loc, type, rowTile, ValueRange{r, c},
                                       /*nontemporal=*/false, align);
      Value start;
      if (TypedAttr init = ep.init) {
        if (!isZeroAttr(init))
          start = arith::ConstantOp::create(
              b, loc, type, DenseElementsAttr::get(type, Attribute(init)));
      } else {
        start = vector::LoadOp::create(b, loc, type, mm.c, ValueRange{row, col},
                                       /*nontemporal=*/false, align);
      }
      if (start && mm.isInt8())
        v = arith::AddIOp::create(b, loc, start, v);
      else if (start)
        v = arith::AddFOp::create(b, loc, start, v);
      if (!ep.hasStages() || ep.storeProduct)
        vector::StoreOp::create(b, loc, v, mm.c, ValueRange{row, col},
                                /*nontemporal=*/false, align);
      if (ep.hasStages())
        ep.applyAndStore(b, loc, v, epilogueRow(row), col);
    };
    ifRowBelowM(row, [&] {
      if (raggedN())
        ifBelow(col, mm.n, store);
      else
        store();
    });
  });
}

void KernelBuilder::warpgroupStepOnCPU(Value stage, Value sA, Value sB,
                                       Value acc) {
  Type f32 = b.getF32Type();
  bool integer = mm.isInt8();
  forEachIndex(cfg.blockM, [&](Value r) {
    forEachIndex(cfg.blockN, [&](Value n) {
      Value start = memref::LoadOp::create(b, loc, acc, ValueRange{r, n});
      auto kLoop = scf::ForOp::create(
          b, loc, cst(0), cst(cfg.blockK), cst(1), ValueRange{start},
          [&](OpBuilder &nested, Location, Value k, ValueRange carried) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nested.getInsertionBlock(),
                                nested.getInsertionPoint());
            // An operand as wgmma reads it: i8 as i32, f32 as TF32, the
            // other floats as f32.
            auto element = [&](Value tile, SmallVector<Value> indices) {
              Value x = memref::LoadOp::create(b, loc, tile, indices);
              if (integer)
                return arith::ExtSIOp::create(b, loc, b.getI32Type(), x)
                    .getResult();
              if (x.getType().isF32())
                return truncateToTF32(x);
              return arith::ExtFOp::create(b, loc, f32, x).getResult();
            };
            Value x = element(sA, swizzledIndices(stage, r, k, cfg.blockM));
            Value y =
                mm.stagesBAsNK()
                    ? element(sB, swizzledIndices(stage, n, k, cfg.blockN))
                    : element(sB, swizzledIndices(stage, k, n, cfg.blockK));
            Value sum =
                integer
                    ? arith::AddIOp::create(b, loc, carried.front(),
                                            arith::MulIOp::create(b, loc, x, y))
                          .getResult()
                    : arith::AddFOp::create(b, loc, carried.front(),
                                            arith::MulFOp::create(b, loc, x, y))
                          .getResult();
            scf::YieldOp::create(b, loc, sum);
          });
      memref::StoreOp::create(b, loc, kLoop.getResult(0), acc,
                              ValueRange{r, n});
    });
  });
}

Value KernelBuilder::truncateToTF32(Value x) {
  Type i32 = b.getI32Type();
  Value bits = arith::BitcastOp::create(b, loc, i32, x);
  Value mask = arith::ConstantOp::create(
      b, loc, b.getI32IntegerAttr(int32_t(0xFFFFE000u)));
  Value truncated = arith::BitcastOp::create(
      b, loc, x.getType(), arith::AndIOp::create(b, loc, bits, mask));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  return arith::SelectOp::create(b, loc, isNaN, x, truncated);
}

void KernelBuilder::zeroRowTile(Value acc) {
  Type type = cast<MemRefType>(acc.getType()).getElementType();
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  forEachIndex(cfg.blockM, [&](Value r) {
    forEachIndex(cfg.blockN, [&](Value n) {
      memref::StoreOp::create(b, loc, zero, acc, ValueRange{r, n});
    });
  });
}

void KernelBuilder::forEachColumnPair(
    Value tid, int64_t columns, llvm::function_ref<void(Value, Value)> body) {
  int64_t width = columnPairWidth();
  int64_t chunks = columns / width;
  forEachSlot(tid, cfg.blockM * chunks, [&](Value slot) {
    body(div(slot, chunks), mul(rem(slot, chunks), width));
  });
}

void KernelBuilder::forEachRowPart(
    Value tid, Value bm0,
    llvm::function_ref<void(Value, Value, Value, Value)> body) {
  int64_t parts = rowParts();
  forEachSlot(tid, cfg.blockM * parts, [&](Value slot) {
    Value r = div(slot, parts), part = rem(slot, parts);
    Value row = add(bm0, r);
    auto rowBody = [&] { body(slot, r, part, row); };
    ifRowBelowM(row, rowBody);
  });
}

Value KernelBuilder::combineParts(
    Value partials, int64_t which, Value r,
    llvm::function_ref<Value(Value, Value)> combine) {
  int64_t parts = rowParts();
  Value first = mul(r, parts), result;
  for (int64_t j = 0; j < parts; ++j) {
    Value x = memref::LoadOp::create(b, loc, partials,
                                     ValueRange{cst(which), add(first, j)});
    result = result ? combine(result, x) : x;
  }
  return result;
}

Value KernelBuilder::forColumns(Value first, Value init,
                                llvm::function_ref<Value(Value, Value)> body) {
  auto loop = scf::ForOp::create(
      b, loc, first, cst(mm.n), cst(rowParts()), ValueRange{init},
      [&](OpBuilder &nested, Location, Value col, ValueRange carried) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        scf::YieldOp::create(b, loc, body(col, carried.front()));
      });
  return loop.getResult(0);
}
