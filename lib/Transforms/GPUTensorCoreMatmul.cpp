//===- GPUTensorCoreMatmul.cpp - linalg.matmul to a tensor-core kernel ----===//
//
// The first tensor-core path of the GPU pipeline: an f16 x f16 -> f32
// linalg.matmul on buffers becomes a kernel with a thread-block tile staged
// in shared memory, warp tiles of m16n8k16 fragments written as
// vector.contract, and accumulators in registers across the K loop. The
// fragment-to-lane mapping (ldmatrix, mma.sync) and the cp.async copies are
// upstream's: nvgpu::createAsyncGroups and
// convertVectorToNVVMCompatibleMMASync. The same builder can emit the
// kernel as sequential loops (emulate-on-cpu), so the tiling, the copy
// distribution and the fragment offsets run on the CPU against NumPy.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPBUFFERSPASS
#define GEN_PASS_DEF_GPUTENSORCOREMATMULPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

namespace {

constexpr int64_t kThreadsPerWarp = 32;
/// Elements per 16-byte copy of f16 data (one cp.async).
constexpr int64_t kCopyElements = 8;

/// A matmul the tensor-core kernel handles: C(MxN, f32) += A(MxK, f16) *
/// B(KxN, f16), static identity-layout buffers.
struct TensorCoreMatmul {
  Value a, b, c;
  int64_t m, n, k;
};

/// Builds the kernel body. The GPU form calls each piece once with the
/// hardware ids; the CPU form calls it in loops over the same ids, so the
/// index arithmetic (what can be checked without a GPU) is shared.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const TensorCoreMatmul &mm,
                const MatmulTileConfig &cfg)
      : b(b), loc(loc), mm(mm), cfg(cfg) {}

  int64_t numThreads() const { return cfg.numWarps() * kThreadsPerWarp; }
  int64_t fragsM() const { return cfg.warpM / kMmaM; }
  int64_t fragsN() const { return cfg.warpN / kMmaN; }
  int64_t fragsPerWarp() const { return fragsM() * fragsN(); }

  Value cst(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  // Index arithmetic as affine.apply: convert-vector-to-gpu treats scalar
  // arith ops in a fragment's slice as elementwise ops it cannot convert.
  Value apply(AffineExpr expr, ValueRange operands) {
    // Not composed here: loop bodies under construction are not yet linked
    // into their op, which affine's operand canonicalization walks.
    return affine::AffineApplyOp::create(
        b, loc, AffineMap::get(0, operands.size(), expr), operands);
  }
  Value add(Value x, Value y) {
    AffineExpr s0, s1;
    bindSymbols(b.getContext(), s0, s1);
    return apply(s0 + s1, {x, y});
  }
  Value add(Value x, int64_t y) {
    return y ? apply(getAffineSymbolExpr(0, b.getContext()) + y, {x}) : x;
  }
  Value mul(Value x, int64_t y) {
    return apply(getAffineSymbolExpr(0, b.getContext()) * y, {x});
  }
  Value div(Value x, int64_t y) {
    return apply(getAffineSymbolExpr(0, b.getContext()).floorDiv(y), {x});
  }
  Value rem(Value x, int64_t y) {
    return apply(getAffineSymbolExpr(0, b.getContext()) % y, {x});
  }

  /// Shared-memory tiles of one stage (rows padded by cfg.sharedPad).
  MemRefType sharedTypeA(Attribute space) const {
    return MemRefType::get({cfg.blockM, cfg.blockK + cfg.sharedPad},
                           b.getF16Type(), MemRefLayoutAttrInterface(), space);
  }
  MemRefType sharedTypeB(Attribute space) const {
    return MemRefType::get({cfg.blockK, cfg.blockN + cfg.sharedPad},
                           b.getF16Type(), MemRefLayoutAttrInterface(), space);
  }

  /// The 16-byte copies of thread `tid` for the K step at `k0`: chunk
  /// c = i * threads + tid of the A tile (BK/8 chunks per row) and of the B
  /// tile (BN/8 per row), guarded when the chunks do not divide evenly.
  void emitCopies(Value tid, Value bm0, Value bn0, Value k0, Value sA,
                  Value sB) {
    copyTile(tid, mm.a, sA, cfg.blockM, cfg.blockK, bm0, k0);
    copyTile(tid, mm.b, sB, cfg.blockK, cfg.blockN, k0, bn0);
  }

  /// Origin of warp `warp`'s tile inside the block tile.
  std::pair<Value, Value> warpOrigin(Value warp) {
    return {mul(div(warp, cfg.warpsN()), cfg.warpM),
            mul(rem(warp, cfg.warpsN()), cfg.warpN)};
  }

  /// The accumulator fragments (16x8 f32) of the warp tile at global
  /// (row0, col0), read from C.
  SmallVector<Value> loadAccumulators(Value row0, Value col0) {
    SmallVector<Value> accs;
    auto type = VectorType::get({kMmaM, kMmaN}, b.getF32Type());
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    for (int64_t i = 0; i < fragsM(); ++i)
      for (int64_t j = 0; j < fragsN(); ++j)
        accs.push_back(vector::TransferReadOp::create(
            b, loc, type, mm.c,
            ValueRange{add(row0, i * kMmaM), add(col0, j * kMmaN)}, zero,
            ArrayRef<bool>{true, true}));
    return accs;
  }

  void storeAccumulators(ArrayRef<Value> accs, Value row0, Value col0) {
    for (int64_t i = 0; i < fragsM(); ++i)
      for (int64_t j = 0; j < fragsN(); ++j)
        vector::TransferWriteOp::create(
            b, loc, accs[i * fragsN() + j], mm.c,
            ValueRange{add(row0, i * kMmaM), add(col0, j * kMmaN)},
            ArrayRef<bool>{true, true});
  }

  /// One K step of a warp: for every k16 slice of the staged tiles, the
  /// 16x16 A fragments and the 8x16 (transposed) B fragments at the warp
  /// origin (wm0, wn0) inside the block tile, one contraction per
  /// accumulator fragment.
  SmallVector<Value> warpStep(Value wm0, Value wn0, Value sA, Value sB,
                              ArrayRef<Value> accs) {
    SmallVector<Value> result(accs);
    Value pad = arith::ConstantOp::create(b, loc, b.getF16FloatAttr(0));
    auto aType = VectorType::get({kMmaM, kMmaK}, b.getF16Type());
    auto bType = VectorType::get({kMmaN, kMmaK}, b.getF16Type());
    MLIRContext *ctx = b.getContext();
    AffineMap transpose = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx);
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    auto maps = b.getAffineMapArrayAttr(
        {AffineMap::get(3, 0, {m, k}, ctx), AffineMap::get(3, 0, {n, k}, ctx),
         AffineMap::get(3, 0, {m, n}, ctx)});
    auto iterators = b.getArrayAttr(
        {vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
         vector::IteratorTypeAttr::get(ctx, vector::IteratorType::parallel),
         vector::IteratorTypeAttr::get(ctx, vector::IteratorType::reduction)});
    for (int64_t kk = 0; kk < cfg.blockK; kk += kMmaK) {
      Value kIdx = cst(kk);
      SmallVector<Value> fragA, fragB;
      for (int64_t i = 0; i < fragsM(); ++i)
        fragA.push_back(vector::TransferReadOp::create(
            b, loc, aType, sA, ValueRange{add(wm0, i * kMmaM), kIdx}, pad,
            ArrayRef<bool>{true, true}));
      for (int64_t j = 0; j < fragsN(); ++j)
        fragB.push_back(vector::TransferReadOp::create(
            b, loc, bType, sB, ValueRange{kIdx, add(wn0, j * kMmaN)}, pad,
            transpose, ArrayRef<bool>{true, true}));
      for (int64_t i = 0; i < fragsM(); ++i)
        for (int64_t j = 0; j < fragsN(); ++j) {
          Value &acc = result[i * fragsN() + j];
          acc = vector::ContractionOp::create(b, loc, fragA[i], fragB[j], acc,
                                              maps, iterators);
        }
    }
    return result;
  }

private:
  void copyTile(Value tid, Value src, Value dst, int64_t rows, int64_t cols,
                Value row0, Value col0) {
    int64_t perRow = cols / kCopyElements;
    int64_t chunks = rows * perRow;
    int64_t threads = numThreads();
    auto type = VectorType::get({kCopyElements}, b.getF16Type());
    Value pad = arith::ConstantOp::create(b, loc, b.getF16FloatAttr(0));
    for (int64_t first = 0; first < chunks; first += threads) {
      Value chunk = add(tid, first);
      auto emit = [&](OpBuilder &nested) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(),
                            nested.getInsertionPoint());
        Value row = div(chunk, perRow);
        Value col = mul(rem(chunk, perRow), kCopyElements);
        Value v = vector::TransferReadOp::create(
            b, loc, type, src, ValueRange{add(row0, row), add(col0, col)}, pad,
            ArrayRef<bool>{true});
        vector::TransferWriteOp::create(b, loc, v, dst, ValueRange{row, col},
                                        ArrayRef<bool>{true});
      };
      if (first + threads <= chunks) {
        emit(b);
        continue;
      }
      // The last round has fewer chunks than threads.
      Value inRange = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, chunk, cst(chunks));
      scf::IfOp::create(b, loc, inRange, [&](OpBuilder &nested, Location) {
        emit(nested);
        scf::YieldOp::create(nested, loc);
      });
    }
  }

  OpBuilder &b;
  Location loc;
  const TensorCoreMatmul &mm;
  const MatmulTileConfig &cfg;
};

} // namespace

/// The matmuls this path handles; the rest keep the generic path.
static FailureOr<TensorCoreMatmul> matchTensorCoreMatmul(linalg::MatmulOp op) {
  if (!op.hasPureBufferSemantics())
    return failure();
  if (op.hasUserDefinedMaps()) {
    LLVM_DEBUG(llvm::dbgs() << "transposed/broadcast matmul: generic path\n");
    return failure();
  }
  auto memref = [](Value v, Type element) -> MemRefType {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || type.getElementType() != element)
      return nullptr;
    return type;
  };
  Builder b(op.getContext());
  Value a = op.getDpsInputOperand(0)->get();
  Value bv = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  MemRefType aType = memref(a, b.getF16Type());
  MemRefType bType = memref(bv, b.getF16Type());
  MemRefType cType = memref(c, b.getF32Type());
  if (!aType || !bType || !cType)
    return failure();
  return TensorCoreMatmul{a, bv, c, aType.getDimSize(0), bType.getDimSize(1),
                          aType.getDimSize(1)};
}

/// The kernel as a gpu.launch (shared tiles as workgroup attributions).
static gpu::LaunchOp buildGPUKernel(OpBuilder &b, Location loc,
                                    const TensorCoreMatmul &mm,
                                    const MatmulTileConfig &cfg) {
  KernelBuilder kb(b, loc, mm, cfg);
  auto shared = gpu::AddressSpaceAttr::get(b.getContext(),
                                           gpu::AddressSpace::Workgroup);
  Value one = kb.cst(1);
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.cst(mm.n / cfg.blockN), kb.cst(mm.m / cfg.blockM), one,
      kb.cst(kb.numThreads()), one, one, /*dynamicSharedMemorySize=*/nullptr,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{},
      TypeRange{kb.sharedTypeA(shared), kb.sharedTypeB(shared)});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value sA = launch.getWorkgroupAttributions()[0];
  Value sB = launch.getWorkgroupAttributions()[1];
  Value bn0 = kb.mul(launch.getBlockIds().x, cfg.blockN);
  Value bm0 = kb.mul(launch.getBlockIds().y, cfg.blockM);
  Value tid = launch.getThreadIds().x;
  std::pair<Value, Value> origin = kb.warpOrigin(kb.div(tid, kThreadsPerWarp));
  Value wm0 = origin.first, wn0 = origin.second;
  Value row0 = kb.add(bm0, wm0), col0 = kb.add(bn0, wn0);
  SmallVector<Value> accs = kb.loadAccumulators(row0, col0);
  auto loop = scf::ForOp::create(
      b, loc, kb.cst(0), kb.cst(mm.k), kb.cst(cfg.blockK), accs,
      [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
        kb.emitCopies(tid, bm0, bn0, k0, sA, sB);
        gpu::BarrierOp::create(b, loc);
        SmallVector<Value> next =
            kb.warpStep(wm0, wn0, sA, sB, llvm::to_vector(iterAccs));
        // The next step's copies overwrite the tiles.
        gpu::BarrierOp::create(b, loc);
        scf::YieldOp::create(b, loc, next);
      });
  kb.storeAccumulators(llvm::to_vector_of<Value>(loop.getResults()), row0,
                       col0);
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

/// The same kernel as sequential loops: blocks, then per K step every
/// thread's copies and every warp's fragments, on plain buffers.
static void buildCPUEmulation(OpBuilder &b, Location loc,
                              const TensorCoreMatmul &mm,
                              const MatmulTileConfig &cfg) {
  KernelBuilder kb(b, loc, mm, cfg);
  Value sA = memref::AllocOp::create(b, loc, kb.sharedTypeA(Attribute()));
  Value sB = memref::AllocOp::create(b, loc, kb.sharedTypeB(Attribute()));
  Value c0 = kb.cst(0), c1 = kb.cst(1);
  int64_t warps = cfg.numWarps(), frags = kb.fragsPerWarp();
  auto blockLoops = [&](OpBuilder &, Location, Value by, ValueRange) {
    scf::ForOp::create(
        b, loc, c0, kb.cst(mm.n / cfg.blockN), c1, ValueRange{},
        [&](OpBuilder &, Location, Value bx, ValueRange) {
          Value bn0 = kb.mul(bx, cfg.blockN), bm0 = kb.mul(by, cfg.blockM);
          SmallVector<std::pair<Value, Value>> origins;
          SmallVector<Value> accs;
          for (int64_t w = 0; w < warps; ++w) {
            origins.push_back(kb.warpOrigin(kb.cst(w)));
            llvm::append_range(
                accs, kb.loadAccumulators(kb.add(bm0, origins[w].first),
                                          kb.add(bn0, origins[w].second)));
          }
          auto loop = scf::ForOp::create(
              b, loc, c0, kb.cst(mm.k), kb.cst(cfg.blockK), accs,
              [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
                scf::ForOp::create(
                    b, loc, c0, kb.cst(kb.numThreads()), c1, ValueRange{},
                    [&](OpBuilder &, Location, Value tid, ValueRange) {
                      kb.emitCopies(tid, bm0, bn0, k0, sA, sB);
                      scf::YieldOp::create(b, loc);
                    });
                SmallVector<Value> next;
                for (int64_t w = 0; w < warps; ++w)
                  llvm::append_range(
                      next, kb.warpStep(origins[w].first, origins[w].second,
                                        sA, sB,
                                        llvm::to_vector(iterAccs.slice(
                                            w * frags, frags))));
                scf::YieldOp::create(b, loc, next);
              });
          for (int64_t w = 0; w < warps; ++w)
            kb.storeAccumulators(
                llvm::to_vector_of<Value>(loop.getResults().slice(w * frags, frags)),
                kb.add(bm0, origins[w].first), kb.add(bn0, origins[w].second));
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  };
  scf::ForOp::create(b, loc, c0, kb.cst(mm.m / cfg.blockM), c1, ValueRange{},
                     blockLoops);
  memref::DeallocOp::create(b, loc, sA);
  memref::DeallocOp::create(b, loc, sB);
}

/// Upstream's nvgpu mapping of the kernel: global-to-shared vector copies
/// to cp.async groups, fragments to ldmatrix + mma.sync.
static LogicalResult lowerKernelToNVGPU(gpu::LaunchOp launch) {
  IRRewriter rewriter(launch.getContext());
  nvgpu::createAsyncGroups(rewriter, launch, /*bypassL1=*/true);
  RewritePatternSet patterns(launch.getContext());
  populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
  if (failed(applyPatternsGreedily(launch, std::move(patterns))))
    return launch.emitError("vector-to-mma preparation did not converge");
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, launch)))
    return launch.emitError("fragments do not map to nvgpu.mma.sync");
  return success();
}

namespace {
struct GPUTensorCoreMatmulPass
    : public opsnn::impl::GPUTensorCoreMatmulPassBase<
          GPUTensorCoreMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetDescription> target = lookupTarget(targetName);
    if (!target) {
      emitError(getOperation().getLoc())
          << "unknown target '" << targetName
          << "' (known: " << getKnownTargetNames() << ")";
      return signalPassFailure();
    }
    if (!tiles.empty() && tiles.size() != 5) {
      emitError(getOperation().getLoc())
          << "tiles takes five sizes BM,BN,BK,WM,WN";
      return signalPassFailure();
    }
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation().walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    for (linalg::MatmulOp op : matmuls) {
      FailureOr<TensorCoreMatmul> mm = matchTensorCoreMatmul(op);
      if (failed(mm))
        continue;
      std::optional<MatmulTileConfig> cfg = tileConfig(*mm);
      if (!cfg) {
        LLVM_DEBUG(llvm::dbgs() << "no tiles divide " << mm->m << "x" << mm->n
                                << "x" << mm->k << ": generic path\n");
        continue;
      }
      LLVM_DEBUG(llvm::dbgs() << "tensor-core matmul " << mm->m << "x"
                              << mm->n << "x" << mm->k << ": " << cfg->str()
                              << "\n");
      OpBuilder b(op);
      if (emulateOnCPU) {
        buildCPUEmulation(b, op.getLoc(), *mm, *cfg);
      } else {
        gpu::LaunchOp launch = buildGPUKernel(b, op.getLoc(), *mm, *cfg);
        if (toNVGPU && failed(lowerKernelToNVGPU(launch)))
          return signalPassFailure();
      }
      op.erase();
    }
  }

  /// The heuristic's tiles, or the fixed ones if they fit the shape.
  std::optional<MatmulTileConfig> tileConfig(const TensorCoreMatmul &mm) {
    if (tiles.empty())
      return selectMatmulTiles(*lookupTarget(targetName), mm.m, mm.n, mm.k,
                               /*elementBytes=*/2);
    MatmulTileConfig cfg;
    cfg.blockM = tiles[0];
    cfg.blockN = tiles[1];
    cfg.blockK = tiles[2];
    cfg.warpM = tiles[3];
    cfg.warpN = tiles[4];
    bool valid = cfg.warpM % kMmaM == 0 && cfg.warpN % kMmaN == 0 &&
                 cfg.blockK % kMmaK == 0 && cfg.warpM > 0 && cfg.warpN > 0 &&
                 cfg.blockM % cfg.warpM == 0 && cfg.blockN % cfg.warpN == 0 &&
                 mm.m % cfg.blockM == 0 && mm.n % cfg.blockN == 0 &&
                 mm.k % cfg.blockK == 0;
    if (!valid)
      return std::nullopt;
    return cfg;
  }
};
} // namespace

namespace {
struct GPUAlignWorkgroupBuffersPass
    : public opsnn::impl::GPUAlignWorkgroupBuffersPassBase<
          GPUAlignWorkgroupBuffersPass> {
  void runOnOperation() override {
    constexpr int64_t kAlignment = 16;
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e;
           ++i) {
        auto align = dyn_cast_if_present<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, name));
        if (align && align.getInt() >= kAlignment)
          continue;
        func.setWorkgroupAttributionAttr(
            i, name, IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                      kAlignment));
      }
    });
  }
};
} // namespace
