//===- GPUTensorCoreMatmul.cpp - Matmul and conv to a tensor-core kernel --===//
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
// NHWC convolutions run on the same kernel as implicit GEMMs
// (TensorCoreConv.cpp): the output and filter are GEMM views, and only the
// A copies differ, reading im2col chunks straight from the input.
//
// The accumulator init (a fill of a constant) and the elementwise consumers
// (bias, residual, activation, cast) of a matmul or convolution are folded
// into the kernel: see TensorCoreEpilogue.cpp. A softmax over the columns
// among them makes the block cover whole rows: the accumulators go to an
// f32 row tile in shared memory after the K loop, and the block's threads
// normalize its rows there (storeToRowTile, emitRowPartMaxima,
// emitRowPartSums, emitNormalizedRows).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "KernelBufferAccess.h"
#include "NarrowIndexArithmetic.h"
#include "TensorCoreContraction.h"
#include "TensorCoreConv.h"
#include "TensorCoreEpilogue.h"
#include "TensorCoreMmaTypes.h"
#include "VectorAccessAlignment.h"
#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <numeric>

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
/// The bytes of one tile copy (cp.async, or a vector load and store).
constexpr int64_t kCopyBytes = 16;
/// The side of the byte blocks an 8-bit K x N B is transposed in while it
/// is copied into its N x K tile: 4 x 4, one 4-byte load per source row
/// and one 4-byte store per tile row.
constexpr int64_t kTransposeBlock = 4;

/// Element `e` of the 1-D `vector` as a vector<1x...> (extract and
/// from_elements: the GPU pipeline lowers no extract_strided_slice).
Value oneElement(OpBuilder &b, Location loc, Value vector, int64_t e) {
  Value element = vector::ExtractOp::create(b, loc, vector, e);
  auto type = VectorType::get({1}, element.getType());
  return vector::FromElementsOp::create(b, loc, type, ValueRange{element});
}

/// A matmul the tensor-core kernel handles: C(MxN, f32) += A(MxK) *
/// B(KxN), A and B f16, bf16, FP8 (E4M3FN, E5M2), or f32 run as TF32; or
/// C(i32) += A(i8) * B(i8). Static identity-layout buffers.
struct TensorCoreMatmul {
  Value a, b, c;
  int64_t m, n, k;
  /// The element type of A and B.
  Type elementType;

  bool isInt8() const { return elementType.isInteger(8); }
  int64_t elementBytes() const {
    return elementType.getIntOrFloatBitWidth() / 8;
  }
  /// C's element type: i32 for i8 operands, else f32.
  Type accumulatorType() const {
    return tensorCoreAccumulatorType(elementType);
  }
  /// B's tile is staged N x K: a transposed B (an FHWC filter) as it is,
  /// and an 8-bit (i8, FP8) B always (mma.sync's 8-bit B fragments come
  /// from N x K rows: there is no 8-bit ldmatrix.trans), transposed while
  /// it is copied.
  bool stagesBAsNK() const {
    return bTransposed || hasByteOperands(elementType);
  }
  /// B is stored N x K (an FHWC filter): staged as a BN x BK tile and read
  /// as fragments without the transpose.
  bool bTransposed = false;
  /// A's (B's) rows do not start 16 bytes apart or are not whole 16-byte
  /// copies (K, or N for a K x N B, not a multiple of 8 f16): its tiles
  /// are copied element by element (plain loads), zeros past its columns.
  bool aElementCopies = false, bElementCopies = false;
  /// K may be any size: the operands whose rows run along K (A, and an
  /// N x K B) are copied element by element.
  bool anyK() const {
    return k % copyElements(elementBytes()) == 0 ||
           (aElementCopies && (!bTransposed || bElementCopies));
  }
  /// For a convolution: `a` is its NHWC input, read as the implicit im2col
  /// matrix through conv->inputIndexMaps; `b` and `c` are the GEMM views.
  std::optional<ImplicitGemmConv> conv = std::nullopt;
  /// For a linalg.generic contraction: `a`, `b` and `c` are its buffers
  /// until the views of `collapsed` replace them.
  std::optional<CollapsibleGemm> collapsed = std::nullopt;
  /// Independent GEMMs of m x n x k (a batched contraction): `a`, `b` and
  /// `c` have a leading batch dimension, and each block (CPU: each
  /// iteration of an outer loop) works on the 2-D slices of one.
  int64_t batch = 1;
  /// The fill and the elementwise consumers the kernel absorbs.
  TensorCoreEpilogue epilogue = {};
};

/// How a tile copy treats the edges of its source matrix (0: nothing
/// there), in the matrix's own rows and columns.
struct MatrixEdges {
  /// Rows at or past `clampRows` read row clampRows - 1, and chunks at or
  /// past column `clampCols` read the last chunk before it: the products
  /// they feed are not stored (a ragged M or N).
  int64_t clampRows = 0, clampCols = 0;
  /// Rows at or past `zeroRows` and columns at or past `zeroCols` are
  /// zeros: they add to every product (a ragged K).
  int64_t zeroRows = 0, zeroCols = 0;
};

/// Builds the kernel body. The GPU form calls each piece once with the
/// hardware ids; the CPU form calls it in loops over the same ids, so the
/// index arithmetic (what can be checked without a GPU) is shared.
class KernelBuilder {
public:
  KernelBuilder(OpBuilder &b, Location loc, const TensorCoreMatmul &mm,
                const MatmulTileConfig &cfg, const TensorCoreISA &isa)
      : b(b), loc(loc), mm(mm), cfg(cfg), mmaISA(isa) {
    if (mm.conv) {
      aIndexMaps = mm.conv->inputIndexMaps(b.getContext());
      aBounds = mm.conv->inputBounds();
    }
  }

  int64_t numThreads() const { return cfg.numWarps() * kThreadsPerWarp; }

  std::array<Value, 3> getOperands() const { return {mm.a, mm.b, mm.c}; }
  void setOperands(std::array<Value, 3> operands) {
    std::tie(mm.a, mm.b, mm.c) = std::tuple_cat(operands);
    batchRow0 = nullptr;
  }

  /// A batched GEMM: from here on A, B and C are the 2-D slices of batch
  /// `index` (rank-reducing subviews, strided by the slice; no copies). A
  /// view with several batch dimensions takes `index` delinearized over
  /// them (row-major, the batch loops' order in every view).
  void bindBatch(Value index) {
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
      auto sliceType = cast<MemRefType>(memref::SubViewOp::inferRankReducedResultType(
          {rows, cols}, type, offsets, sizes, strides));
      return memref::SubViewOp::create(b, loc, sliceType, batched, offsets,
                                       sizes, strides);
    };
    mm.a = slice(mm.a);
    mm.b = slice(mm.b);
    mm.c = slice(mm.c);
    bindBatchRows(index);
  }
  /// Only the epilogue's rows of batch `index` (no slices of A, B, C).
  void bindBatchRows(Value index) { batchRow0 = mul(index, mm.m); }
  /// The first row of the bound batch in the epilogue's (batch * M) x N
  /// space; null outside a batch.
  Value batchRow0;
  /// M is not a multiple of BM: the last block row reaches past M. Its A
  /// copies read row M-1 instead (those rows of the accumulators only feed
  /// rows >= M) and its rows >= M are not stored.
  bool raggedM() const { return mm.m % cfg.blockM != 0; }
  /// N is not a multiple of BN: likewise for the last block column, whose
  /// B copies past N read B's last column chunk (row N-1 of an N x K B) and
  /// whose fragments past N (N is a multiple of 8) are not stored.
  bool raggedN() const { return mm.n % cfg.blockN != 0; }
  /// K is not a multiple of BK: the last K step's copies past K are zeros
  /// in A and B alike (stale or uninitialized shared memory times zero
  /// could still be a NaN).
  bool raggedK() const { return mm.k % cfg.blockK != 0; }
  int64_t blockRows() const { return llvm::divideCeil(mm.m, cfg.blockM); }
  int64_t blockCols() const { return llvm::divideCeil(mm.n, cfg.blockN); }
  int64_t elementBytes() const { return mm.elementBytes(); }
  /// Elements per cp.async: 8 (f16, bf16), 4 (f32) or 16 (i8).
  int64_t copyElements() const {
    return opsnn::copyElements(elementBytes());
  }
  /// K of one fragment: 16 (m16n8k16, f16/bf16; sm_75: m16n8k8 f16), 8
  /// (m16n8k8, tf32) or 32 (m16n8k32, i8).
  int64_t mmaK() const { return mmaISA.fragmentK(elementBytes()); }
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

  /// Shared-memory tiles of all the pipeline's stages: the leading
  /// dimension is the stage (rows padded by cfg.sharedPad). One buffer with
  /// a dynamic stage index rather than S attributions: the K loop stays a
  /// loop (no unrolling by S) and ldmatrix takes the stage as one more index.
  /// As `element` (a view of the same bytes): rows of packedElements()
  /// fewer elements when f16 elements view FP8 tiles.
  MemRefType sharedTypeA(Attribute space, Type element) const {
    if (cfg.warpgroup)
      return swizzledTileType(cfg.blockM, cfg.blockK, space, element);
    return MemRefType::get({cfg.stages, cfg.blockM,
                            viewColumns(cfg.blockK + cfg.sharedPad, element)},
                           element, MemRefLayoutAttrInterface(), space);
  }
  MemRefType sharedTypeB(Attribute space, Type element) const {
    assert(cfg.stagesBAsNK == mm.stagesBAsNK() &&
           "tiles chosen for another B layout");
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
  /// The warpgroup kernel's tiles (MatmulTileConfig::warpgroup): a
  /// `rows` x `cols` tile as cols / 64 panels of `rows` rows of one
  /// 128-byte swizzled row each (see swizzledIndices), stacked along the
  /// rows, per stage.
  MemRefType swizzledTileType(int64_t rows, int64_t cols, Attribute space,
                              Type element) const {
    int64_t rowElements = swizzledRowElements();
    assert(cols % rowElements == 0 && "whole panels");
    return MemRefType::get({cfg.stages, cols / rowElements * rows, rowElements},
                           element, MemRefLayoutAttrInterface(), space);
  }
  /// A and B elements per 128-byte row of a swizzled tile.
  int64_t swizzledRowElements() const {
    return kWarpgroupRowBytes / elementBytes();
  }
  /// The indices in stage `stage` of a swizzled tile of `rows` rows
  /// (swizzledTileType) of its element (row, col): panel col / 64 starts
  /// at row panel * rows; in it, the 16-byte chunk (col mod 64) / 8 of row
  /// `row` lies at chunk ((col mod 64) / 8) ^ (row mod 8). This is wgmma's
  /// 128-byte swizzle (what TMA's SWIZZLE_128B writes): each 8 rows form a
  /// 1024-byte atom whose rows' chunks are permuted by the row's index in
  /// it, so the 8 rows of an 8 x 16-byte core matrix sit in distinct banks.
  /// The copies write through it and the CPU form reads through it.
  SmallVector<Value> swizzledIndices(Value stage, Value row, Value col,
                                     int64_t rows) {
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

  /// `columns` elements of A and B as elements of `element`.
  int64_t viewColumns(int64_t columns, Type element) const {
    int64_t bits = mm.elementType.getIntOrFloatBitWidth();
    int64_t viewBits = element.getIntOrFloatBitWidth();
    assert((columns * bits) % viewBits == 0 && "rows of whole view elements");
    return columns * bits / viewBits;
  }
  /// Elements of A and B per element of the fragments: 2 when the GPU form
  /// reads FP8 tiles as f16 fragments, else 1.
  int64_t packedElements() const {
    return fragmentType ? fragmentType.getIntOrFloatBitWidth() /
                              mm.elementType.getIntOrFloatBitWidth()
                        : 1;
  }

  /// The element type the fragments are read as. The GPU form reads bf16
  /// tiles as f16 (same bits) and FP8 tiles as f16 (two codes each: an
  /// m16n8k32 FP8 fragment's registers are an m16n8k16 f16 one's):
  /// upstream's fragment conversion handles f16 only, and
  /// finalizeMmaOperandTypes gives the mma.sync its real type.
  Type fragmentType;
  /// Round the f32 fragments to TF32, to nearest with ties away from zero
  /// (the CPU form of the GPU kernel's cvt.rna.tf32.f32, which
  /// finalizeMmaOperandTypes adds before every mma.sync .tf32).
  bool roundToTF32 = false;

  /// Emit the global-to-shared copies as nvgpu.device_async_copy (cp.async)
  /// instead of vector transfers (the GPU form with to-nvgpu): the K loop
  /// then commits and waits for its groups itself (see buildGPUKernel).
  bool asyncCopies = false;
  /// The kernel goes to nvgpu (the GPU form with to-nvgpu): its fragment
  /// stores stay whole (see storeAccumulators).
  bool nvgpuForm = false;
  /// The GPU forms' vector copies are aligned to their size (as cp.async's
  /// must be), so that each is one global or shared access. The CPU
  /// emulation's are not: an unaligned host buffer (a NumPy view) must not
  /// fault where x86 would need aligned loads.
  bool alignCopies = false;
  llvm::MaybeAlign copyAlignment(int64_t bytes) const {
    return alignCopies ? llvm::MaybeAlign(bytes) : llvm::MaybeAlign();
  }
  /// The tokens of the unguarded async copies emitted since the last
  /// takeCopyTokens (the guarded ones' tokens stay in their scf.if: the
  /// tokens order nothing after the NVVM lowering, the groups do).
  SmallVector<Value> takeCopyTokens() { return std::exchange(copyTokens, {}); }

  /// Synchronous copies (no cp.async: sm_75) whose shared-memory stores
  /// wait for storePendingCopies: a copy's loads are issued where it is
  /// emitted, its stores later (after the warps' compute on the previous
  /// stage, so that the loads' latency hides behind it). Every load then
  /// reads inside its source: a copy that the last, partial round of
  /// chunks does not have re-reads the last chunk, and its store is
  /// guarded instead of the whole copy.
  bool deferStores = false;
  /// The K offset of step min(k+S-1, last) for the step at `k0`: what
  /// iteration k of the pipelined K loop loads with synchronous copies
  /// (the last S-1 iterations re-load the last step; see buildGPUKernel).
  Value clampedNextStepK0(Value k0) {
    MLIRContext *ctx = b.getContext();
    int64_t lastK0 = (blockSteps(mm.k, cfg.blockK) - 1) * cfg.blockK;
    AffineExpr next =
        getAffineSymbolExpr(0, ctx) + (cfg.stages - 1) * cfg.blockK;
    return affine::AffineMinOp::create(
        b, loc,
        AffineMap::get(0, 1, {next, getAffineConstantExpr(lastK0, ctx)}, ctx),
        ValueRange{k0});
  }

  /// Emits the deferred stores (see deferStores), in the order of their
  /// loads.
  void storePendingCopies() {
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

  /// A shared-memory store of a copy: memref.store of a scalar, or a
  /// vector.store aligned to its size (a 16-byte chunk, a 4-byte word).
  void emitTileStore(Value value, Value dst, ValueRange indices) {
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

  /// The 16-byte copies of thread `tid` for the K step at `k0`: chunk
  /// c = i * threads + tid of the A tile (BK/8 chunks per row) and of the B
  /// tile (BN/8 per row), guarded when the chunks do not divide evenly.
  /// A convolution's A chunks come from its input (implicit im2col); a
  /// transposed B is copied as a BN x BK tile (BK/8 chunks per row); an
  /// i8 B stored K x N is transposed into its BN x BK tile in 4 x 4 byte
  /// blocks: four 4-byte loads along N (rows k .. k+3), four 4-byte stores
  /// along K (plain loads and stores, not cp.async). The tiles land in
  /// stage `stage` of sA and sB.
  void emitCopies(Value tid, Value bm0, Value bn0, Value k0, Value stage,
                  Value sA, Value sB) {
    int64_t zeroK = raggedK() ? mm.k : 0;
    MatrixEdges aEdges;
    aEdges.clampRows = raggedM() ? mm.m : 0;
    // Element copies check every column against the matrix's.
    aEdges.zeroCols = mm.aElementCopies ? mm.k : zeroK;
    copyTile(tid, mm.a, sA, stage, cfg.blockM, cfg.blockK, bm0, k0, aEdges,
             aIndexMaps, /*transposeIntoTile=*/false, aBounds,
             mm.aElementCopies);
    MatrixEdges bEdges;
    if (mm.bTransposed) {
      bEdges.clampRows = raggedN() ? mm.n : 0;
      bEdges.zeroCols = mm.bElementCopies ? mm.k : zeroK;
      copyTile(tid, mm.b, sB, stage, cfg.blockN, cfg.blockK, bn0, k0, bEdges,
               {}, /*transposeIntoTile=*/false, {}, mm.bElementCopies);
    } else {
      bEdges.zeroRows = zeroK;
      // Element copies: zeros past N (no chunk to re-read).
      if (mm.bElementCopies)
        bEdges.zeroCols = mm.n;
      else
        bEdges.clampCols = raggedN() ? mm.n : 0;
      copyTile(tid, mm.b, sB, stage, cfg.blockK, cfg.blockN, k0, bn0, bEdges,
               {}, /*transposeIntoTile=*/mm.stagesBAsNK(), {},
               mm.bElementCopies);
    }
  }

  /// Origin of warp `warp`'s tile inside the block tile.
  std::pair<Value, Value> warpOrigin(Value warp) {
    return {mul(div(warp, cfg.warpsN()), cfg.warpM),
            mul(rem(warp, cfg.warpsN()), cfg.warpN)};
  }

  /// The accumulator fragments (16x8 f32) of the warp tile at global
  /// (row0, col0), read from C or, when C's fill is folded, the constant.
  SmallVector<Value> loadAccumulators(Value row0, Value col0) {
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

  /// The fragments' stores to C. With `applyEpilogue` (the CPU form) the
  /// epilogue's stores replace them here; the GPU form keeps them for
  /// TensorCoreEpilogue::rewriteProductStores after the nvgpu conversion,
  /// which cannot map the payload ops onto register fragments.
  void storeAccumulators(ArrayRef<Value> accs, Value row0, Value col0) {
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

  /// The whole-rows epilogue's shared memory (MatmulTileConfig::wholeRows):
  /// the f32 row tile (BM rows of BN + kRowTilePad) and the partial maxima
  /// and sums of the row parts (rowParts() per row).
  MemRefType rowTileType(Attribute space) const {
    return MemRefType::get({cfg.blockM, cfg.blockN + kRowTilePad},
                           b.getF32Type(), MemRefLayoutAttrInterface(), space);
  }
  MemRefType rowPartialsType(Attribute space) const {
    return MemRefType::get({2, cfg.blockM * rowParts()}, b.getF32Type(),
                           MemRefLayoutAttrInterface(), space);
  }
  /// The threads that share a row (MatmulTileConfig::rowParts): each walks
  /// the columns j, j + parts, ... of its part j.
  int64_t rowParts() const { return cfg.rowParts(); }

  /// The whole-rows epilogue, first step: the accumulator fragments of the
  /// warp at (wm0, wn0) of the block into the row tile.
  void storeToRowTile(ArrayRef<Value> accs, Value wm0, Value wn0,
                      Value rowTile) {
    for (int64_t i = 0; i < fragsM(); ++i)
      for (int64_t j = 0; j < fragsN(); ++j)
        vector::TransferWriteOp::create(
            b, loc, accs[i * fragsN() + j], rowTile,
            ValueRange{add(wm0, i * kMmaM), add(wn0, j * kMmaN)},
            ArrayRef<bool>{true, true});
  }

  /// Second step, thread `tid`'s row parts (slot s: row s / parts, part
  /// s mod parts; rows below M): the epilogue's stages before the softmax
  /// applied in place, and the part's maximum into partials[0][s] (from
  /// maxnumf's identity, NaN, where the softmax's decomposition starts).
  void emitRowPartMaxima(Value tid, Value bm0, Value rowTile, Value partials) {
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

  /// Third step (after a barrier): the row's maximum from its parts', then
  /// exp(x - max) in place over the part's columns and their sum into
  /// partials[1][s].
  void emitRowPartSums(Value tid, Value bm0, Value rowTile, Value partials) {
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

  /// Last step (after a barrier), thread `tid`'s pairs of columns (single
  /// columns for an odd N) in row-major order over the block's rows below
  /// M: exp / sum (the parts' sums added in part order), put through the
  /// epilogue's stages after the softmax and stored. Adjacent threads take
  /// adjacent columns: coalesced stores.
  void emitNormalizedRows(Value tid, Value bm0, Value rowTile, Value partials) {
    const TensorCoreEpilogue &ep = mm.epilogue;
    int64_t width = mm.n % 2 ? 1 : 2;
    int64_t chunks = mm.n / width;
    auto type = VectorType::get({width}, b.getF32Type());
    forEachSlot(tid, cfg.blockM * chunks, [&](Value slot) {
      Value r = div(slot, chunks);
      Value col = mul(rem(slot, chunks), width);
      Value row = add(bm0, r);
      auto rowBody = [&] {
        Value e = vector::LoadOp::create(
            b, loc, type, rowTile, ValueRange{r, col},
            /*nontemporal=*/false, copyAlignment(width * 4));
        Value sum =
            combineParts(partials, 1, r, [&](Value x, Value y) -> Value {
              return arith::AddFOp::create(b, loc, x, y);
            });
        Value normalized = arith::DivFOp::create(
            b, loc, e, vector::BroadcastOp::create(b, loc, type, sum));
        ep.applyAfterSoftmax(b, loc, normalized, epilogueRow(row), col);
      };
      ifRowBelowM(row, rowBody);
    });
  }

  /// `row` of the bound batch's slice as a row of the epilogue's space.
  Value epilogueRow(Value row) {
    return batchRow0 ? add(row, batchRow0) : row;
  }

  /// Apply the epilogue where the accumulators are stored (CPU form).
  bool applyEpilogue = false;

  /// One K step of a warp: for every k16 slice of the staged tiles, the
  /// 16x16 A fragments and the 8x16 B fragments (read transposed from a
  /// K x N tile, straight from an N x K one) at the warp
  /// origin (wm0, wn0) inside the block tile, one contraction per
  /// accumulator fragment. The tiles are read from stage `stage` (as
  /// fragmentType, when set).
  SmallVector<Value> warpStep(Value wm0, Value wn0, Value stage, Value sA,
                              Value sB, ArrayRef<Value> accs) {
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
    auto maps = b.getAffineMapArrayAttr(
        {AffineMap::get(3, 0, {m, k}, ctx), AffineMap::get(3, 0, {n, k}, ctx),
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
            b, loc, aType, sA, ValueRange{stage, add(wm0, i * kMmaM), kIdx},
            pad, ArrayRef<bool>{true, true}));
      for (int64_t j = 0; j < fragsN(); ++j)
        fragB.push_back(
            mm.stagesBAsNK()
                ? vector::TransferReadOp::create(
                      b, loc, bType, sB,
                      ValueRange{stage, add(wn0, j * kMmaN), kIdx}, pad,
                      ArrayRef<bool>{true, true})
                : vector::TransferReadOp::create(
                      b, loc, bType, sB,
                      ValueRange{stage, kIdx, add(wn0, j * kMmaN)}, pad,
                      transpose, ArrayRef<bool>{true, true}));
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

  /// The warpgroup kernel's epilogue (MatmulTileConfig::warpgroup), once
  /// the block's product is in the f32 row tile (and, on the GPU, after a
  /// barrier): thread `tid`'s pairs of columns (single columns for an odd
  /// N) in row-major order over the block's rows below M and columns below
  /// N, each the row tile's plus C's folded fill (or C), stored to C and/or
  /// put through the epilogue's stages. Adjacent threads take adjacent
  /// columns: conflict-free shared reads, coalesced stores.
  void emitRowTileEpilogue(Value tid, Value bm0, Value bn0, Value rowTile) {
    const TensorCoreEpilogue &ep = mm.epilogue;
    int64_t width = mm.n % 2 ? 1 : 2;
    int64_t chunks = cfg.blockN / width;
    auto type = VectorType::get({width}, mm.accumulatorType());
    // C's rows, like the row tile's, start at even columns for an even N.
    llvm::MaybeAlign align = copyAlignment(width * 4);
    forEachSlot(tid, cfg.blockM * chunks, [&](Value slot) {
      Value r = div(slot, chunks);
      Value c = mul(rem(slot, chunks), width);
      Value row = add(bm0, r), col = add(bn0, c);
      auto store = [&] {
        Value v =
            vector::LoadOp::create(b, loc, type, rowTile, ValueRange{r, c},
                                   /*nontemporal=*/false, align);
        Value start;
        if (TypedAttr init = ep.init) {
          auto value = dyn_cast<FloatAttr>(init);
          if (!value || !value.getValue().isZero())
            start = arith::ConstantOp::create(
                b, loc, type, DenseElementsAttr::get(type, Attribute(init)));
        } else {
          start =
              vector::LoadOp::create(b, loc, type, mm.c, ValueRange{row, col},
                                     /*nontemporal=*/false, align);
        }
        if (start)
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

  /// The CPU form of the warpgroup's work on one K step: every product
  /// A(r, k) * B(k, n) of the stage's swizzled tiles (read through
  /// swizzledIndices, as the copies wrote them) added to `acc`, the f32
  /// BM x BN(+pad) row tile, in f32, k in order.
  void warpgroupStepOnCPU(Value stage, Value sA, Value sB, Value acc) {
    Type f32 = b.getF32Type();
    forEachIndex(cfg.blockM, [&](Value r) {
      forEachIndex(cfg.blockN, [&](Value n) {
        Value start = memref::LoadOp::create(b, loc, acc, ValueRange{r, n});
        auto kLoop = scf::ForOp::create(
            b, loc, cst(0), cst(cfg.blockK), cst(1), ValueRange{start},
            [&](OpBuilder &nested, Location, Value k, ValueRange carried) {
              OpBuilder::InsertionGuard guard(b);
              b.setInsertionPoint(nested.getInsertionBlock(),
                                  nested.getInsertionPoint());
              auto element = [&](Value tile, SmallVector<Value> indices) {
                Value x = memref::LoadOp::create(b, loc, tile, indices);
                return arith::ExtFOp::create(b, loc, f32, x).getResult();
              };
              Value x = element(sA, swizzledIndices(stage, r, k, cfg.blockM));
              Value y = element(sB, swizzledIndices(stage, k, n, cfg.blockK));
              Value sum = arith::AddFOp::create(
                  b, loc, carried.front(), arith::MulFOp::create(b, loc, x, y));
              scf::YieldOp::create(b, loc, sum);
            });
        memref::StoreOp::create(b, loc, kLoop.getResult(0), acc,
                                ValueRange{r, n});
      });
    });
  }

  /// Zeros into the first BM x BN elements of the row tile `acc` (the CPU
  /// form's warpgroup accumulators, per block).
  void zeroRowTile(Value acc) {
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    forEachIndex(cfg.blockM, [&](Value r) {
      forEachIndex(cfg.blockN, [&](Value n) {
        memref::StoreOp::create(b, loc, zero, acc, ValueRange{r, n});
      });
    });
  }

private:
  /// Calls `body` with 0 .. count-1, in an scf.for.
  void forEachIndex(int64_t count, llvm::function_ref<void(Value)> body) {
    scf::ForOp::create(b, loc, cst(0), cst(count), cst(1), ValueRange{},
                       [&](OpBuilder &nested, Location, Value i, ValueRange) {
                         OpBuilder::InsertionGuard guard(b);
                         b.setInsertionPoint(nested.getInsertionBlock(),
                                             nested.getInsertionPoint());
                         body(i);
                         scf::YieldOp::create(b, loc);
                       });
  }

  /// The CPU form's store of a fragment that may reach past M (rows) or,
  /// when N is not a multiple of 8, past N (columns): the fragment goes to
  /// `fragmentScratch`, then each row r < M is stored (and put through the
  /// epilogue) on its own, or each of its elements below N. Loops, not
  /// unrolled: guarded stores of every element would swell the emulation.
  void storeRowsInBounds(Value acc, Value row, Value col) {
    const TensorCoreEpilogue &ep = mm.epilogue;
    auto storeAt = [&](Value elements, Value r, Value c) {
      if (!ep.hasStages() || ep.storeProduct)
        vector::TransferWriteOp::create(b, loc, elements, mm.c,
                                        ValueRange{r, c},
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
          storeAt(vector::TransferReadOp::create(
                      b, loc, type, fragmentScratch, ValueRange{r, cst(0)},
                      zero, ArrayRef<bool>{true}),
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

public:
  /// The CPU form's 16 x 8 accumulator buffer for storeRowsInBounds (null
  /// when every fragment is stored whole).
  Value fragmentScratch;
  bool storesElements() const { return raggedM() || mm.n % kMmaN; }

private:
  /// Calls `body` with slots tid, tid + threads, ... below `count`, in an
  /// scf.for over the rounds (guarded when the threads do not divide
  /// `count`).
  void forEachSlot(Value tid, int64_t count,
                   llvm::function_ref<void(Value)> body) {
    int64_t threads = numThreads();
    scf::ForOp::create(
        b, loc, cst(0), cst(llvm::divideCeil(count, threads)), cst(1),
        ValueRange{},
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

  /// Calls `body(slot, r, part, row)` for thread `tid`'s row parts whose
  /// row (bm0 + r) is below M.
  void
  forEachRowPart(Value tid, Value bm0,
                 llvm::function_ref<void(Value, Value, Value, Value)> body) {
    int64_t parts = rowParts();
    forEachSlot(tid, cfg.blockM * parts, [&](Value slot) {
      Value r = div(slot, parts), part = rem(slot, parts);
      Value row = add(bm0, r);
      auto rowBody = [&] { body(slot, r, part, row); };
      ifRowBelowM(row, rowBody);
    });
  }

  /// The parts' partials[which][r * parts + 0 ..] of row r combined in
  /// part order.
  Value combineParts(Value partials, int64_t which, Value r,
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

  /// An scf.for over the columns `first`, `first` + parts, ... below N
  /// carrying one f32 value from `init`: `body(col, value)` returns the next
  /// value.
  Value forColumns(Value first, Value init,
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

  /// Emits `body` for `row`, under `scf.if row < M` when M is ragged.
  void ifRowBelowM(Value row, llvm::function_ref<void()> body) {
    if (raggedM())
      ifBelow(row, mm.m, body);
    else
      body();
  }

  /// Emits `body` under `scf.if index < bound`.
  void ifBelow(Value index, int64_t bound, llvm::function_ref<void()> body) {
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        index, cst(bound));
    scf::IfOp::create(b, loc, below, [&](OpBuilder &nested, Location) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(nested.getInsertionBlock(),
                          nested.getInsertionPoint());
      body();
      scf::YieldOp::create(b, loc);
    });
  }

  /// Rounds every f32 element to TF32 (10 mantissa bits) as
  /// cvt.rna.tf32.f32 does: half an ulp of TF32 (bit 12) added to the
  /// magnitude bits, then the 13 low bits cleared; a carry moves into the
  /// exponent as it should, and NaNs pass unchanged.
  Value roundFragmentToTF32(Value frag) {
    auto type = cast<VectorType>(frag.getType());
    auto intType = type.clone(b.getI32Type());
    auto splat = [&](uint32_t value) -> Value {
      return arith::ConstantOp::create(
          b, loc, intType,
          DenseElementsAttr::get(intType,
                                 b.getI32IntegerAttr(int32_t(value))));
    };
    Value bits = arith::BitcastOp::create(b, loc, intType, frag);
    Value halfUlp = arith::AddIOp::create(b, loc, bits, splat(0x1000));
    Value rounded = arith::BitcastOp::create(
        b, loc, type, arith::AndIOp::create(b, loc, halfUlp, splat(0xFFFFE000)));
    Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO,
                                        frag, frag);
    return arith::SelectOp::create(b, loc, isNaN, frag, rounded);
  }

  /// Copies a rows x cols tile at (row0, col0) of the source matrix to
  /// stage `stage` of `dst`, its edges as `edges` says. With `srcMaps` the
  /// matrix is implicit: element (r, c) of it is src[srcMaps(r, c)] (one
  /// map per source dimension, symbols r and c).
  /// With `transposeIntoTile` element (r, c) goes to dst[stage, c, r]; the
  /// copies are then 4 x 4 blocks of 8-bit elements (kTransposeBlock), or
  /// element copies.
  /// With `srcBounds`, a copy whose source index i lies outside
  /// [0, srcBounds[i]) (for each non-zero bound) writes zeros and reads
  /// nothing. Zeros (here and at `edges`) are a cp.async of 0 source bytes
  /// (it zero-fills the rest), or a select on the CPU and for transposed
  /// copies; the indices are clamped to 0 so that no address outside the
  /// source is formed. With `elementCopies` (a source whose rows are not
  /// whole 16-byte copies: an explicit matrix, or a convolution's im2col
  /// matrix whose C is not) each chunk is copied element by element, plain
  /// loads and stores, every element checked against the edges and the
  /// source bounds on its own.
  void copyTile(Value tid, Value src, Value dst, Value stage, int64_t rows,
                int64_t cols, Value row0, Value col0,
                const MatrixEdges &edges = {},
                ArrayRef<AffineMap> srcMaps = {},
                bool transposeIntoTile = false,
                ArrayRef<int64_t> srcBounds = {}, bool elementCopies = false) {
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
    assert((!cfg.warpgroup || (!transposeIntoTile && !elementCopies)) &&
           "swizzled tiles take whole 16-byte chunks");
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
      auto emit = [&](OpBuilder &nested, Value chunk, bool guarded,
                      Value guard) {
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
          implicitCol = applyNarrowable(s0.floorDiv(copyWidth) + s1 % perRow,
                                        {col0, chunk},
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
              edges.zeroRows ? arith::CmpIOp::create(b, loc,
                                                     arith::CmpIPredicate::slt,
                                                     srcRow,
                                                     cst(edges.zeroRows))
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
            storeToTile(v, dst,
                        transposeIntoTile ? ValueRange{stage, tileCol, row}
                                          : ValueRange{stage, row, tileCol},
                        guard);
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
            SmallVector<Value> bytes = llvm::map_to_vector(
                lines, [&](Value line) -> Value {
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
          inBounds = inBounds ? arith::AndIOp::create(b, loc, inBounds,
                                                      inSource)
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
              inBounds ? arith::SelectOp::create(b, loc, inBounds,
                                                 cst(copyWidth), cst(0))
                       : Value();
          Value token = nvgpu::DeviceAsyncCopyOp::create(
              b, loc, dst, dstIndices, src, srcIndices,
              b.getIndexAttr(copyWidth), srcElements, b.getUnitAttr());
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
      Value inRange = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, chunk, cst(chunks));
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

  /// The rows and columns the copies of the implicit A matrix (a
  /// convolution's im2col rows) read: below M and K rounded up to whole
  /// tiles (the grid's rows; the K loop's last step).
  std::array<int64_t, 2> implicitMatrixBounds() const {
    return {blockSteps(mm.m, cfg.blockM) * cfg.blockM,
            blockSteps(mm.k, cfg.blockK) * cfg.blockK};
  }

  /// affine.apply of `expr` marked for 32-bit arithmetic
  /// (NarrowIndexArithmetic.h): operand i lies in [0, bounds[i]).
  Value applyNarrowable(AffineExpr expr, ValueRange operands,
                        ArrayRef<int64_t> bounds) {
    auto apply = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(0, operands.size(), expr), operands);
    markNarrowable(apply, bounds);
    return apply;
  }

  /// The source indices srcMaps(row, col * colScale + colOffset) of an
  /// element of the implicit A matrix, in 32-bit arithmetic. An element
  /// copy passes its chunk's column in chunks (colScale = the chunk's
  /// elements) and its offset in the chunk: the maps then simplify the
  /// offset's channel and tap to constants where they can (C = 4: channel
  /// e mod 4).
  SmallVector<Value> implicitIndices(ArrayRef<AffineMap> srcMaps, Value row,
                                     Value col, int64_t colScale = 1,
                                     int64_t colOffset = 0) {
    AffineExpr k = getAffineSymbolExpr(1, b.getContext());
    auto [rowBound, colBound] = implicitMatrixBounds();
    std::array<int64_t, 2> bounds = {rowBound, colBound / colScale};
    return llvm::map_to_vector(srcMaps, [&](AffineMap map) -> Value {
      return applyNarrowable(
          map.getResult(0).replace(k, k * colScale + colOffset), {row, col},
          bounds);
    });
  }

  /// Whether `indices` lie in `bounds` (see copyTile), null when there are
  /// no bounds; the bounded indices become 0 where they do not. Indices
  /// known not to be negative (`nonNegative`) are only compared with the
  /// bound.
  Value clampToBounds(SmallVectorImpl<Value> &indices,
                      ArrayRef<int64_t> bounds, bool nonNegative = false) {
    Value inBounds = boundsPredicate(indices, bounds, nonNegative);
    if (!inBounds)
      return nullptr;
    for (auto [index, bound] : llvm::zip(indices, bounds))
      if (bound)
        index = arith::SelectOp::create(b, loc, inBounds, index, cst(0));
    return inBounds;
  }

  /// Whether `indices` lie in `bounds` (see clampToBounds), null when there
  /// are no bounds.
  Value boundsPredicate(ArrayRef<Value> indices, ArrayRef<int64_t> bounds,
                        bool nonNegative = false) {
    Value inBounds;
    for (auto [index, bound] : llvm::zip(indices, bounds)) {
      if (!bound)
        continue;
      Value atLeastZero =
          nonNegative ? Value()
                      : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                              index, cst(0));
      Value both = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                         index, cst(bound));
      if (atLeastZero)
        both = arith::AndIOp::create(b, loc, atLeastZero, both);
      inBounds =
          inBounds ? arith::AndIOp::create(b, loc, inBounds, both) : both;
    }
    return inBounds;
  }

  OpBuilder &b;
  Location loc;
  /// A copy: a batched GEMM's operands are rebound to one batch's slices.
  TensorCoreMatmul mm;
  const MatmulTileConfig &cfg;
  SmallVector<AffineMap, 4> aIndexMaps;
  /// A padded convolution's input bounds (ImplicitGemmConv::inputBounds).
  SmallVector<int64_t, 4> aBounds;
  SmallVector<Value> copyTokens;
  const TensorCoreISA &mmaISA;
  /// A shared-memory store of a synchronous copy (see deferStores).
  struct PendingStore {
    Value value, dst;
    SmallVector<Value, 3> indices;
    /// Null, or whether the copy exists (the last round of chunks).
    Value guard;
  };
  SmallVector<PendingStore> pendingStores;
  /// Emits `value`'s store to dst[indices] now or, with deferStores, into
  /// pendingStores (under `guard`, when set).
  void storeToTile(Value value, Value dst, ValueRange indices, Value guard) {
    if (deferStores) {
      pendingStores.push_back(
          {value, dst, SmallVector<Value, 3>(indices), guard});
      return;
    }
    assert(!guard && "an immediate store is guarded by its scf.if");
    emitTileStore(value, dst, indices);
  }
};

} // namespace

/// The matmuls this path handles; the rest keep the generic path.
static FailureOr<TensorCoreMatmul>
matchTensorCoreMatmul(linalg::MatmulOp op, bool allowTF32, bool rowSoftmax) {
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
  Type element = getElementTypeOrSelf(a.getType());
  if (!isTensorCoreOperandType(element, allowTF32)) {
    LLVM_DEBUG(llvm::dbgs() << "matmul on " << element
                            << " (f32 needs allow-tf32): generic path\n");
    return failure();
  }
  MemRefType aType = memref(a, element);
  MemRefType bType = memref(bv, element);
  MemRefType cType = memref(c, tensorCoreAccumulatorType(element));
  if (!aType || !bType || !cType)
    return failure();
  TensorCoreMatmul mm{a,
                      bv,
                      c,
                      aType.getDimSize(0),
                      bType.getDimSize(1),
                      aType.getDimSize(1),
                      element};
  int64_t granule = copyElements(mm.elementBytes());
  mm.aElementCopies = mm.k % granule != 0;
  mm.bElementCopies = mm.n % granule != 0;
  mm.epilogue = matchTensorCoreEpilogue(op, c, {{0}, {1}}, rowSoftmax);
  return mm;
}

/// A convolution the kernel runs as an implicit GEMM; `b` and `c` are still
/// the filter and output buffers until buildImplicitGemmViews replaces them.
static FailureOr<TensorCoreMatmul>
matchTensorCoreConv(linalg::LinalgOp op, bool allowTF32, bool rowSoftmax) {
  FailureOr<ImplicitGemmConv> conv = matchImplicitGemmConv(op, allowTF32);
  if (failed(conv))
    return failure();
  TensorCoreMatmul mm{conv->input,   conv->filter,  conv->output,
                      conv->gemmM(), conv->gemmN(), conv->gemmK(),
                      conv->elementType};
  mm.bTransposed = conv->filterFirst;
  // C not whole 16-byte copies (an image's 3 channels): A's chunks would
  // cross filter taps, so its elements are copied one by one, each from
  // its own tap. B is a plain matrix, copied element by element only when
  // its rows are not whole 16-byte chunks (they would run into the next
  // row), as a matmul's B is: an FHWC filter is F x K (K = KH*KW*C, whole
  // for a 2x2 filter of 4 channels even though C is not), an HWCF filter
  // K x F (a 5-filter convolution is not).
  int64_t granule = copyElements(mm.elementBytes());
  mm.aElementCopies = !conv->wholeCopies;
  mm.bElementCopies = (mm.bTransposed ? mm.k : mm.n) % granule != 0;
  mm.conv = *conv;
  // The consumers iterate over (n, oh, ow, f): rows (n, oh, ow), columns f.
  mm.epilogue =
      matchTensorCoreEpilogue(op, conv->output, {{0, 1, 2}, {3}}, rowSoftmax);
  return mm;
}

/// A linalg.generic contraction that is a GEMM on collapsed views of its
/// buffers (see TensorCoreContraction.h).
static FailureOr<TensorCoreMatmul>
matchTensorCoreContraction(linalg::GenericOp op, bool allowTF32,
                           bool rowSoftmax) {
  FailureOr<CollapsibleGemm> gemm = matchCollapsibleGemm(op, allowTF32);
  if (failed(gemm))
    return failure();
  TensorCoreMatmul mm{gemm->a, gemm->b, gemm->c, gemm->m,
                      gemm->n, gemm->k, gemm->elementType};
  mm.bTransposed = gemm->bTransposed;
  mm.aElementCopies = !gemm->aView.wholeCopies;
  mm.bElementCopies = !gemm->bView.wholeCopies;
  mm.collapsed = *gemm;
  mm.batch = gemm->batch;
  // The consumers iterate over C's dimensions: rows the M group, columns
  // the N group.
  if (mm.batch == 1) {
    mm.epilogue =
        matchTensorCoreEpilogue(op, gemm->c, gemm->cView.groups, rowSoftmax);
    return mm;
  }
  // C's N dimensions come last; all others are rows here: with the batch
  // dimensions leading C in one contiguous group, batch i's rows are rows
  // i * M ... of that (batch * M) x N space, and the elementwise consumers
  // (attention's scaling of the scores) fuse as for one GEMM.
  // Otherwise only C's fill folds.
  int64_t rank = cast<MemRefType>(gemm->c.getType()).getRank();
  int64_t numN = gemm->cView.groups.back().size();
  ReassociationIndices rows, cols;
  for (int64_t i = 0; i < rank; ++i)
    (i < rank - numN ? rows : cols).push_back(i);
  TensorCoreEpilogue epilogue =
      matchTensorCoreEpilogue(op, gemm->c, {rows, cols}, rowSoftmax);
  bool batchesAreRows = gemm->cView.isIdentityPermutation() &&
                        gemm->cView.groups.size() == 3;
  if (batchesAreRows || !epilogue.hasStages())
    mm.epilogue = epilogue;
  return mm;
}

/// The views of the whole-rows epilogue's shared memory in `buffer` (i8,
/// the stages' bytes): the row tile at byte 0, the row parts' partial
/// maxima and sums after it.
static std::pair<Value, Value> rowTileViews(KernelBuilder &kb, OpBuilder &b,
                                            Location loc, Value buffer) {
  auto space = cast<MemRefType>(buffer.getType()).getMemorySpace();
  MemRefType tileType = kb.rowTileType(space);
  auto view = [&](int64_t offset, MemRefType type) -> Value {
    return memref::ViewOp::create(b, loc, type, buffer, kb.cst(offset),
                                  ValueRange{});
  };
  return {view(0, tileType),
          view(tileType.getNumElements() * 4, kb.rowPartialsType(space))};
}

/// The kernel as a gpu.launch (shared tiles as workgroup attributions).
/// With a softmax in the epilogue it ends with the accumulators in the row
/// tile, in the shared-memory bytes `rowBuffer`, for emitWholeRowsEpilogue.
/// The row tile overwrites the stages: after the K loop no copy is in
/// flight (the last S-1 iterations commit empty groups; synchronous
/// stores are done), so one barrier after the last compute suffices.
///
/// The K loop is a software pipeline of S = cfg.stages shared-memory stages,
/// step k (K offset k0 = k * BK) living in stage k mod S:
///
///   prologue: for s in 0 .. S-2: copy step s into stage s; commit group
///   for k:    wait until at most S-2 groups are pending; barrier
///             if k+S-1 < K/BK: copy step k+S-1 into stage (k+S-1) mod S
///             commit group (empty past the end)
///             warps compute on stage k mod S
///
/// Hazards, per stage: read after write: the copies of step k are group k
/// (S-1 prologue groups, then one per iteration, every thread committing
/// the same sequence, empty groups included, so the count is uniform);
/// wait(S-2) at iteration k leaves only groups k+1 .. k+S-2 in flight, so
/// this thread's copies of step k have landed, and the barrier after it
/// makes every thread's copies visible before any warp reads the stage.
/// Write after read: iteration k writes stage (k+S-1) mod S = (k-1) mod S,
/// last read by the compute of iteration k-1, which every thread finished
/// before reaching iteration k's barrier; the copies are issued after that
/// barrier, so one barrier per step is enough. S = 1 has no stage to
/// overlap with: copy, commit, wait(0), barrier, compute, barrier (the
/// second barrier guards the next step's overwrite).
///
/// With `asyncCopies` the copies are emitted as nvgpu.device_async_copy
/// with their own create_group/wait rather than left to
/// nvgpu::createAsyncGroups: that utility puts a wait(0) right after every
/// group (no overlap) and starts a new group at every scf.if (the guarded
/// copies), so threads would commit different numbers of groups and no
/// numGroups could be right for all of them.
///
/// Without cp.async (sm_75, `isa.asyncCopies` false) the copies are
/// synchronous, loads into registers and stores to shared memory, and
/// iteration k issues the loads of step k+S-1 before the warps compute on
/// stage k mod S but its stores after that compute (KernelBuilder::
/// deferStores), so the loads are in flight while the tensor cores work;
/// the hazards are as above, the barrier at the top of iteration k+1
/// publishing the stores. The last S-1 iterations have no step k+S-1:
/// they load and store the last step again, unconditionally (under a
/// branch LLVM would sink the loads to their stores, after the compute).
/// That store goes to stage (k+S-1) mod S = (k-1) mod S, which no later
/// iteration reads: they read the stages of steps k+1 .. last, at most
/// S-2 steps past k.
static gpu::LaunchOp buildGPUKernel(OpBuilder &b, Location loc,
                                    const TensorCoreMatmul &mm,
                                    const MatmulTileConfig &cfg,
                                    const TensorCoreISA &isa, bool toNVGPU,
                                    Value *rowBuffer) {
  bool asyncCopies = toNVGPU && isa.asyncCopies;
  bool warpgroup = cfg.warpgroup;
  assert((!warpgroup || asyncCopies) &&
         "the wgmma kernel's copies are cp.async");
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.asyncCopies = asyncCopies;
  kb.nvgpuForm = toNVGPU;
  kb.alignCopies = true;
  kb.deferStores = !isa.asyncCopies;
  auto shared = gpu::AddressSpaceAttr::get(b.getContext(),
                                           gpu::AddressSpace::Workgroup);
  MemRefType typeA = kb.sharedTypeA(shared, mm.elementType);
  MemRefType typeB = kb.sharedTypeB(shared, mm.elementType);
  // bf16 and FP8 fragments are read as f16 (see KernelBuilder::
  // fragmentType) once they go to nvgpu: the tiles are byte buffers with a
  // view of A's and B's type for the copies (cp.async copies between equal
  // types) and an f16 view for the fragments.
  bool fragmentsAsF16 =
      toNVGPU && !warpgroup &&
      (mm.elementType.isBF16() || isTensorCoreFP8Type(mm.elementType));
  // Past 48 KiB the tiles are views of dynamic shared memory (A at byte 0,
  // B after it; both sizes are multiples of 16 bytes), the launch says how
  // much, and the runtime opts the kernel in to it. A whole-rows epilogue's
  // row tile reuses the same bytes after the K loop (one byte buffer).
  int64_t bytesA = typeA.getNumElements() * kb.elementBytes();
  int64_t bytesB = typeB.getNumElements() * kb.elementBytes();
  int64_t kernelBytes = cfg.kernelSharedBytes(kb.elementBytes());
  // The warpgroup kernel's tiles are aligned in dynamic shared memory.
  bool dynamicShared =
      warpgroup || cfg.needsDynamicSharedMemory(kb.elementBytes());
  bool wholeRows = bool(mm.epilogue.softmax);
  assert(wholeRows == cfg.wholeRows && "tiles chosen for another epilogue");
  auto bytes = [&](int64_t size) {
    return MemRefType::get({size}, b.getI8Type(),
                           MemRefLayoutAttrInterface(), shared);
  };
  SmallVector<Type> attributions = {typeA, typeB};
  if (dynamicShared)
    attributions.clear();
  else if (wholeRows)
    attributions = {bytes(kernelBytes)};
  else if (fragmentsAsF16)
    attributions = {bytes(bytesA), bytes(bytesB)};
  Value one = kb.cst(1);
  Value dynamicSharedBytes;
  if (dynamicShared)
    dynamicSharedBytes =
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), kernelBytes);
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.cst(kb.blockCols()), kb.cst(kb.blockRows()),
      kb.cst(mm.batch), kb.cst(kb.numThreads()), one, one, dynamicSharedBytes,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, attributions);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  if (mm.batch > 1)
    kb.bindBatch(launch.getBlockIds().z);
  Value sA, sB, fragA, fragB, rowTile, rowPartials;
  // Byte buffers and the offsets of A and B in them.
  Value bufferA, bufferB, offsetA = kb.cst(0), offsetB = kb.cst(0);
  auto view = [&](Value buffer, Value offset, MemRefType type) -> Value {
    return memref::ViewOp::create(b, loc, type, buffer, offset, ValueRange{});
  };
  if (!dynamicShared && !fragmentsAsF16 && !wholeRows) {
    sA = fragA = launch.getWorkgroupAttributions()[0];
    sB = fragB = launch.getWorkgroupAttributions()[1];
  } else {
    if (dynamicShared) {
      bufferA = bufferB = gpu::DynamicSharedMemoryOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), shared));
      if (warpgroup) {
        // The swizzled tiles' 1024-byte atoms start at multiples of 1024
        // (kernelSharedBytes has the slack).
        Value base =
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bufferA);
        offsetA = kb.apply((-getAffineSymbolExpr(0, b.getContext())) %
                               kWarpgroupTileAlignment,
                           {base});
      }
      offsetB = kb.add(offsetA, bytesA);
    } else if (wholeRows) {
      bufferA = bufferB = launch.getWorkgroupAttributions()[0];
      offsetB = kb.cst(bytesA);
    } else {
      bufferA = launch.getWorkgroupAttributions()[0];
      bufferB = launch.getWorkgroupAttributions()[1];
    }
    sA = fragA = view(bufferA, offsetA, typeA);
    sB = fragB = view(bufferB, offsetB, typeB);
    if (warpgroup)
      rowTile = view(
          bufferA, offsetA,
          MemRefType::get({cfg.blockM, cfg.blockN + kWarpgroupRowTilePad},
                          b.getF32Type(), MemRefLayoutAttrInterface(), shared));
    if (wholeRows) {
      std::tie(rowTile, rowPartials) = rowTileViews(kb, b, loc, bufferA);
      *rowBuffer = bufferA;
    }
    if (fragmentsAsF16) {
      Type f16 = b.getF16Type();
      fragA = view(bufferA, offsetA, kb.sharedTypeA(shared, f16));
      fragB = view(bufferB, offsetB, kb.sharedTypeB(shared, f16));
      kb.fragmentType = f16;
    }
  }
  Value bn0 = kb.mul(launch.getBlockIds().x, cfg.blockN);
  Value bm0 = kb.mul(launch.getBlockIds().y, cfg.blockM);
  Value tid = launch.getThreadIds().x;
  std::pair<Value, Value> origin = kb.warpOrigin(kb.div(tid, kThreadsPerWarp));
  Value wm0 = origin.first, wn0 = origin.second;
  Value row0 = kb.add(bm0, wm0), col0 = kb.add(bn0, wn0);
  MLIRContext *ctx = b.getContext();
  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({cfg.blockM, cfg.blockN}, b.getF32Type()));
  // The warpgroup's accumulators start at zero: the epilogue adds C's fill
  // (or C) as it reads them back.
  SmallVector<Value> accs =
      warpgroup
          ? SmallVector<Value>{nvgpu::WarpgroupMmaInitAccumulatorOp::create(
                b, loc, accumulatorType)}
          : kb.loadAccumulators(row0, col0);
  // One K step on stage `stage`: the warps' fragments, or one wgmma of the
  // warpgroup on descriptors of the stage's tiles, waited for (the copies
  // of a later iteration overwrite the stage). A descriptor takes its
  // swizzle from a TMA descriptor's type; the value itself goes unused
  // (upstream reads the type only), so a null one stands in: the tiles
  // come by cp.async, not TMA.
  auto computeStep = [&](Value stage,
                         ValueRange iterAccs) -> SmallVector<Value> {
    if (!warpgroup)
      return kb.warpStep(wm0, wn0, stage, fragA, fragB,
                         llvm::to_vector(iterAccs));
    auto tile = [&](Value buffer, Value offset, int64_t rows, int64_t cols,
                    int64_t mapRows) -> Value {
      AffineExpr s0, s1;
      bindSymbols(ctx, s0, s1);
      int64_t stageBytes = rows * cols * kb.elementBytes();
      auto type = MemRefType::get({rows, cols}, mm.elementType,
                                  MemRefLayoutAttrInterface(), shared);
      Value start =
          view(buffer, kb.apply(s0 + s1 * stageBytes, {offset, stage}), type);
      auto mapType = nvgpu::TensorMapDescriptorType::get(
          ctx,
          MemRefType::get({mapRows, kb.swizzledRowElements()}, mm.elementType,
                          MemRefLayoutAttrInterface(), shared),
          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
          nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
          nvgpu::TensorMapOOBKind::OOB_ZERO,
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      Value null =
          LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(ctx));
      Value map = UnrealizedConversionCastOp::create(b, loc, mapType, null)
                      .getResult(0);
      return nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, nvgpu::WarpgroupMatrixDescriptorType::get(ctx, type), start,
          map);
    };
    // A: BM rows of BK; B: K x N, read as panels of BK rows of 64 (the
    // TMA box a panel would be), transposed.
    Value descA = tile(bufferA, offsetA, cfg.blockM, cfg.blockK, cfg.blockM);
    Value descB = tile(bufferB, offsetB, cfg.blockK, cfg.blockN, cfg.blockK);
    return {nvgpu::WarpgroupMmaOp::create(
        b, loc, accumulatorType, descA, descB, /*waitGroup=*/uint64_t(0),
        /*transposeA=*/nullptr, /*transposeB=*/b.getUnitAttr(),
        iterAccs.front())};
  };
  // After the copies of a step landed: the warpgroup kernel's fence makes
  // them (generic-proxy writes) visible to wgmma's async-proxy reads; then
  // the block's barrier.
  auto publishCopies = [&] {
    if (warpgroup)
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b, loc);
  };
  int64_t stages = cfg.stages, steps = blockSteps(mm.k, cfg.blockK);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // Commits the async copies issued since the last commit as one group.
  auto commit = [&]() -> Value {
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType,
                                                   kb.takeCopyTokens());
  };
  auto wait = [&](Value token, int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                     b.getI32IntegerAttr(pending));
  };
  scf::ForOp loop;
  if (stages == 1) {
    loop = scf::ForOp::create(
        b, loc, kb.cst(0), kb.cst(mm.k), kb.cst(cfg.blockK), accs,
        [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
          Value stage = kb.cst(0);
          kb.emitCopies(tid, bm0, bn0, k0, stage, sA, sB);
          kb.storePendingCopies();
          if (asyncCopies)
            wait(commit(), 0);
          publishCopies();
          SmallVector<Value> next = computeStep(stage, iterAccs);
          // The next step's copies overwrite the tiles.
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, next);
        });
  } else {
    // Prologue: steps 0 .. S-2, one group each (empty past K).
    Value token;
    for (int64_t s = 0; s + 1 < stages; ++s) {
      if (s < steps) {
        kb.emitCopies(tid, bm0, bn0, kb.cst(s * cfg.blockK), kb.cst(s), sA,
                      sB);
        kb.storePendingCopies();
      }
      if (asyncCopies)
        token = commit();
    }
    SmallVector<Value> inits(accs);
    if (asyncCopies)
      inits.push_back(token);
    AffineExpr k0Expr = getAffineSymbolExpr(0, b.getContext());
    loop = scf::ForOp::create(
        b, loc, kb.cst(0), kb.cst(mm.k), kb.cst(cfg.blockK), inits,
        [&](OpBuilder &, Location, Value k0, ValueRange iterArgs) {
          ValueRange iterAccs = iterArgs.take_front(accs.size());
          if (asyncCopies)
            wait(iterArgs.back(), stages - 2);
          publishCopies();
          auto computeStage = [&]() {
            return kb.apply(k0Expr.floorDiv(cfg.blockK) % stages, {k0});
          };
          auto nextStageOf = [&]() {
            return kb.apply(
                (k0Expr.floorDiv(cfg.blockK) + (stages - 1)) % stages, {k0});
          };
          if (kb.deferStores) {
            // Loads of step min(k+S-1, last), compute, then the stores.
            kb.emitCopies(tid, bm0, bn0, kb.clampedNextStepK0(k0),
                          nextStageOf(), sA, sB);
            SmallVector<Value> next = computeStep(computeStage(), iterAccs);
            kb.storePendingCopies();
            scf::YieldOp::create(b, loc, next);
            return;
          }
          // Step k + S - 1 into stage (k + S - 1) mod S, if it exists.
          Value nextK0 = kb.add(k0, (stages - 1) * cfg.blockK);
          Value nextStage = nextStageOf();
          Value inRange = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, nextK0, kb.cst(mm.k));
          TypeRange ifTypes;
          if (asyncCopies)
            ifTypes = tokenType;
          auto ifOp = scf::IfOp::create(b, loc, ifTypes, inRange,
                                        /*withElseRegion=*/asyncCopies);
          {
            OpBuilder::InsertionGuard ifGuard(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            kb.emitCopies(tid, bm0, bn0, nextK0, nextStage, sA, sB);
            if (asyncCopies) {
              scf::YieldOp::create(b, loc, commit());
              // Past the end: an empty group keeps the count uniform.
              b.setInsertionPointToStart(ifOp.elseBlock());
              scf::YieldOp::create(b, loc, commit());
            }
          }
          SmallVector<Value> next = computeStep(computeStage(), iterAccs);
          if (asyncCopies)
            next.push_back(ifOp.getResult(0));
          scf::YieldOp::create(b, loc, next);
        });
  }
  SmallVector<Value> results =
      llvm::to_vector_of<Value>(loop.getResults().take_front(accs.size()));
  if (warpgroup) {
    // As below: the row tile overwrites the stages once every thread is
    // done with them (the last wgmma was waited for).
    gpu::BarrierOp::create(b, loc);
    Value product = memref::SubViewOp::create(
        b, loc, rowTile, ArrayRef<int64_t>{0, 0},
        ArrayRef<int64_t>{cfg.blockM, cfg.blockN}, ArrayRef<int64_t>{1, 1});
    nvgpu::WarpgroupMmaStoreOp::create(b, loc, results.front(), product);
    gpu::BarrierOp::create(b, loc);
    kb.emitRowTileEpilogue(tid, bm0, bn0, rowTile);
  } else if (wholeRows) {
    // The row tile overwrites the tiles the last K step's fragments were
    // read from (its copies are complete: no later step has any).
    gpu::BarrierOp::create(b, loc);
    kb.storeToRowTile(results, wm0, wn0, rowTile);
    gpu::BarrierOp::create(b, loc);
  } else {
    kb.storeAccumulators(results, row0, col0);
  }
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

/// The rest of the GPU kernel's whole-rows epilogue, after the nvgpu
/// conversion (which would take its scalar arith ops for fragment ops):
/// each thread's rows, a barrier, each thread's columns.
static void emitWholeRowsEpilogue(gpu::LaunchOp launch,
                                  const TensorCoreMatmul &mm,
                                  const MatmulTileConfig &cfg,
                                  const TensorCoreISA &isa, Value rowBuffer) {
  // The lanes' stores of accumulator pairs into the row tile: 8 bytes
  // aligned (even columns, rows of BN + 2 f32), which the conversion does
  // not say.
  launch.walk([&](vector::StoreOp store) {
    auto view = store.getBase().getDefiningOp<memref::ViewOp>();
    int64_t bytes = store.getVectorType().getNumElements() * 4;
    if (view && view.getSource() == rowBuffer && !store.getAlignment() &&
        store.getVectorType().getRank() == 1 && bytes <= 8)
      store.setAlignment(bytes);
  });
  // Built anew: the conversion's greedy driver erased what had no user yet.
  OpBuilder b(launch.getBody().back().getTerminator());
  Location loc = launch.getLoc();
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.nvgpuForm = true;
  kb.alignCopies = true;
  if (mm.batch > 1)
    kb.bindBatchRows(launch.getBlockIds().z);
  auto [rowTile, partials] = rowTileViews(kb, b, loc, rowBuffer);
  Value tid = launch.getThreadIds().x;
  Value bm0 = kb.mul(launch.getBlockIds().y, cfg.blockM);
  kb.emitRowPartMaxima(tid, bm0, rowTile, partials);
  gpu::BarrierOp::create(b, loc);
  kb.emitRowPartSums(tid, bm0, rowTile, partials);
  gpu::BarrierOp::create(b, loc);
  kb.emitNormalizedRows(tid, bm0, rowTile, partials);
}

/// The same kernel as sequential loops: blocks, then per K step every
/// thread's copies and every warp's fragments, on plain buffers. The stages
/// are indexed as on the GPU: a prologue copies steps 0 .. S-2 into stages
/// 0 .. S-2, iteration k copies step k+S-1 into stage (k+S-1) mod S (when
/// it exists) and computes on stage k mod S; a wrong stage index reads
/// another step's tiles and shows in the results. Without cp.async (see
/// buildGPUKernel) the copies are the GPU's synchronous ones (a clamped
/// chunk and step, the last round's stores guarded), and those of
/// iteration k land after its compute, as their stores do on the GPU.
static void buildCPUEmulation(OpBuilder &b, Location loc,
                              const TensorCoreMatmul &mm,
                              const MatmulTileConfig &cfg,
                              const TensorCoreISA &isa) {
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.deferStores = !isa.asyncCopies;
  kb.applyEpilogue = true;
  kb.roundToTF32 = mm.elementType.isF32();
  Value sA = memref::AllocOp::create(
      b, loc, kb.sharedTypeA(Attribute(), mm.elementType));
  Value sB = memref::AllocOp::create(
      b, loc, kb.sharedTypeB(Attribute(), mm.elementType));
  bool warpgroup = cfg.warpgroup;
  if (kb.storesElements() && !warpgroup)
    kb.fragmentScratch = memref::AllocOp::create(
        b, loc, MemRefType::get({kMmaM, kMmaN}, mm.accumulatorType()));
  Value rowTile, rowPartials;
  if (mm.epilogue.softmax) {
    rowTile = memref::AllocOp::create(b, loc, kb.rowTileType(Attribute()));
    rowPartials =
        memref::AllocOp::create(b, loc, kb.rowPartialsType(Attribute()));
  }
  // The warpgroup's accumulators: the row tile its epilogue reads.
  if (warpgroup)
    rowTile = memref::AllocOp::create(
        b, loc,
        MemRefType::get({cfg.blockM, cfg.blockN + kWarpgroupRowTilePad},
                        b.getF32Type()));
  Value c0 = kb.cst(0), c1 = kb.cst(1);
  // The warpgroup has no warp fragments: the warps' loops below are empty.
  int64_t warps = warpgroup ? 0 : cfg.numWarps(), frags = kb.fragsPerWarp();
  auto blockLoops = [&](OpBuilder &, Location, Value by, ValueRange) {
    scf::ForOp::create(
        b, loc, c0, kb.cst(kb.blockCols()), c1, ValueRange{},
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
          if (warpgroup)
            kb.zeroRowTile(rowTile);
          // Every thread's copies of the K step at k0 into `stage`.
          // `body` for every thread of the block, in turn.
          auto eachThread = [&](llvm::function_ref<void(Value)> body) {
            scf::ForOp::create(
                b, loc, c0, kb.cst(kb.numThreads()), c1, ValueRange{},
                [&](OpBuilder &, Location, Value tid, ValueRange) {
                  body(tid);
                  scf::YieldOp::create(b, loc);
                });
          };
          auto copyStep = [&](Value k0, Value stage) {
            eachThread([&](Value tid) {
              kb.emitCopies(tid, bm0, bn0, k0, stage, sA, sB);
              kb.storePendingCopies();
            });
          };
          int64_t stages = cfg.stages;
          for (int64_t s = 0; s + 1 < stages && s * cfg.blockK < mm.k; ++s)
            copyStep(kb.cst(s * cfg.blockK), kb.cst(s));
          AffineExpr k0Expr = getAffineSymbolExpr(0, b.getContext());
          auto loop = scf::ForOp::create(
              b, loc, c0, kb.cst(mm.k), kb.cst(cfg.blockK), accs,
              [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
                Value nextK0 = kb.add(k0, (stages - 1) * cfg.blockK);
                Value nextStage = kb.apply(
                    (k0Expr.floorDiv(cfg.blockK) + (stages - 1)) % stages,
                    {k0});
                auto copyNextStep = [&]() {
                  if (stages == 1) {
                    copyStep(nextK0, nextStage);
                    return;
                  }
                  if (kb.deferStores) {
                    // As on the GPU: step min(k+S-1, last), always.
                    copyStep(kb.clampedNextStepK0(k0), nextStage);
                    return;
                  }
                  Value inRange = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::ult, nextK0,
                      kb.cst(mm.k));
                  scf::IfOp::create(b, loc, inRange,
                                    [&](OpBuilder &, Location) {
                                      copyStep(nextK0, nextStage);
                                      scf::YieldOp::create(b, loc);
                                    });
                };
                bool copiesAfterCompute = kb.deferStores && stages > 1;
                if (!copiesAfterCompute)
                  copyNextStep();
                Value stage =
                    kb.apply(k0Expr.floorDiv(cfg.blockK) % stages, {k0});
                SmallVector<Value> next;
                if (warpgroup)
                  kb.warpgroupStepOnCPU(stage, sA, sB, rowTile);
                for (int64_t w = 0; w < warps; ++w)
                  llvm::append_range(
                      next, kb.warpStep(origins[w].first, origins[w].second,
                                        stage, sA, sB,
                                        llvm::to_vector(iterAccs.slice(
                                            w * frags, frags))));
                if (copiesAfterCompute)
                  copyNextStep();
                scf::YieldOp::create(b, loc, next);
              });
          for (int64_t w = 0; w < warps; ++w) {
            auto results = llvm::to_vector_of<Value>(
                loop.getResults().slice(w * frags, frags));
            if (rowTile)
              kb.storeToRowTile(results, origins[w].first, origins[w].second,
                                rowTile);
            else
              kb.storeAccumulators(results, kb.add(bm0, origins[w].first),
                                   kb.add(bn0, origins[w].second));
          }
          if (warpgroup)
            eachThread([&](Value tid) {
              kb.emitRowTileEpilogue(tid, bm0, bn0, rowTile);
            });
          // The GPU's barriers: every thread's row parts (maxima, then
          // sums), then every thread's columns.
          if (rowTile && !warpgroup) {
            eachThread([&](Value tid) {
              kb.emitRowPartMaxima(tid, bm0, rowTile, rowPartials);
            });
            eachThread([&](Value tid) {
              kb.emitRowPartSums(tid, bm0, rowTile, rowPartials);
            });
            eachThread([&](Value tid) {
              kb.emitNormalizedRows(tid, bm0, rowTile, rowPartials);
            });
          }
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  };
  if (mm.batch == 1) {
    scf::ForOp::create(b, loc, c0, kb.cst(kb.blockRows()), c1, ValueRange{},
                       blockLoops);
  } else {
    scf::ForOp::create(
        b, loc, c0, kb.cst(mm.batch), c1, ValueRange{},
        [&](OpBuilder &, Location, Value batch, ValueRange) {
          // Each batch's slices, for the blocks of its GEMM.
          std::array<Value, 3> batched = kb.getOperands();
          kb.bindBatch(batch);
          scf::ForOp::create(b, loc, c0, kb.cst(kb.blockRows()), c1,
                             ValueRange{}, blockLoops);
          kb.setOperands(batched);
          scf::YieldOp::create(b, loc);
        });
  }
  memref::DeallocOp::create(b, loc, sA);
  memref::DeallocOp::create(b, loc, sB);
  if (kb.fragmentScratch)
    memref::DeallocOp::create(b, loc, kb.fragmentScratch);
  if (rowTile)
    memref::DeallocOp::create(b, loc, rowTile);
  if (rowPartials)
    memref::DeallocOp::create(b, loc, rowPartials);
}

/// Whether `base` is C or a batched GEMM's slice of it (a subview).
static bool isCOrBatchSlice(Value base, Value c) {
  auto slice = base.getDefiningOp<memref::SubViewOp>();
  return base == c || (slice && slice.getSource() == c);
}

/// Puts each lane's store of a product row (vector.store to C after the
/// nvgpu conversion) under `row < m` (the last block row of a ragged M;
/// no guard for m = 0) and `col < n` (the last block column of a ragged N;
/// likewise). The epilogue, applied after this, then lands inside the same
/// guard. A lane stores two adjacent columns, the first even: for an odd N
/// its pair is split into two one-element stores, each under its own
/// guard.
static void guardRaggedStores(gpu::LaunchOp launch, Value c, int64_t m,
                              int64_t n) {
  SmallVector<vector::StoreOp> stores;
  launch.walk([&](vector::StoreOp store) {
    // Into C or a batch's slice of it (whose rows past M are the next
    // batch's).
    if (isCOrBatchSlice(store.getBase(), c))
      stores.push_back(store);
  });
  if (n % 2) {
    SmallVector<vector::StoreOp> split;
    for (vector::StoreOp store : stores) {
      int64_t width = store.getVectorType().getNumElements();
      if (store.getVectorType().getRank() != 1 || width == 1) {
        split.push_back(store);
        continue;
      }
      OpBuilder b(store);
      Location loc = store.getLoc();
      for (int64_t e = 0; e < width; ++e) {
        Value element = oneElement(b, loc, store.getValueToStore(), e);
        SmallVector<Value> indices(store.getIndices());
        indices.back() = arith::AddIOp::create(
            b, loc, indices.back(), arith::ConstantIndexOp::create(b, loc, e));
        split.push_back(vector::StoreOp::create(b, loc, element,
                                                store.getBase(), indices));
      }
      store.erase();
    }
    stores = std::move(split);
  }
  for (vector::StoreOp store : stores) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value inside;
    std::array<int64_t, 2> bounds = {m, n};
    for (auto [index, bound] : llvm::zip(store.getIndices(), bounds)) {
      if (!bound)
        continue;
      Value below = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, index,
          arith::ConstantIndexOp::create(b, loc, bound));
      inside = inside ? arith::AndIOp::create(b, loc, inside, below) : below;
    }
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    store->moveBefore(ifOp.thenBlock()->getTerminator());
  }
}

/// Declares the alignment of upstream's per-lane accesses to C (the
/// accumulators' loads when C is read, the product's stores when no
/// epilogue rewrites them): a lane's vector<2xf32>/<2xi32> at an even column
/// (the m16n8 fragment layout). The conversion leaves them at the element's
/// alignment, and NVPTX then splits each into two 4-byte accesses. A
/// batched GEMM's accesses go to subviews of C.
static void alignAccumulatorAccesses(gpu::LaunchOp launch, Value c) {
  auto align = [&](auto access) {
    VectorType type = access.getVectorType();
    if (access.getAlignment() || type.getRank() != 1 ||
        !isCOrBatchSlice(access.getBase(), c))
      return;
    if (int64_t bytes =
            vectorAccessAlignment(access.getBase(), type.getNumElements()))
      access.setAlignment(bytes);
  };
  launch.walk([&](Operation *op) {
    if (auto store = dyn_cast<vector::StoreOp>(op))
      align(store);
    else if (auto load = dyn_cast<vector::LoadOp>(op))
      align(load);
  });
}

/// Upstream's nvgpu mapping of the kernel's fragments to ldmatrix +
/// mma.sync. (The copies are already cp.async groups: buildGPUKernel emits
/// them with the pipeline's waits instead of nvgpu::createAsyncGroups.)
static LogicalResult lowerKernelToNVGPU(gpu::LaunchOp launch) {
  IRRewriter rewriter(launch.getContext());
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
    FailureOr<TensorCoreISA> mmaISA =
        lookupTensorCoreISA(getOperation().getLoc(), targetName);
    if (failed(mmaISA))
      return signalPassFailure();
    if (failed(verifyOptions()))
      return signalPassFailure();
    // Generic contractions only when they collapse to a GEMM (matching
    // changes nothing): an epilogue erases elementwise generics, never
    // these.
    SmallVector<linalg::LinalgOp> gemms;
    getOperation().walk([&](linalg::LinalgOp op) {
      bool tf32 = allowTF32 || op->hasAttr(kTF32Attr);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (isa<linalg::MatmulOp, linalg::Conv2DNhwcHwcfOp,
              linalg::Conv2DNhwcFhwcOp>(op) ||
          (generic && succeeded(matchCollapsibleGemm(generic, tf32))))
        gemms.push_back(op);
    });
    for (linalg::LinalgOp op : gemms) {
      auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      bool tf32 = allowTF32 || op->hasAttr(kTF32Attr);
      auto match = [&](bool rowSoftmax) {
        return matmul    ? matchTensorCoreMatmul(matmul, tf32, rowSoftmax)
               : generic ? matchTensorCoreContraction(generic, tf32, rowSoftmax)
                         : matchTensorCoreConv(op, tf32, rowSoftmax);
      };
      FailureOr<TensorCoreMatmul> mm = match(fuseEpilogue && fuseSoftmax);
      if (failed(mm))
        continue;
      // A softmax over the rows needs f32 accumulators in the row tile.
      if (mm->epilogue.softmax && mm->isInt8())
        mm = match(false);
      if (!mmaISA->takesOperandType(mm->elementType)) {
        LLVM_DEBUG(llvm::dbgs() << "no " << mm->elementType << " mma.sync on "
                                << target->chip << ": generic path\n");
        continue;
      }
      // A ragged M or N needs no read of C (the rows and columns past it
      // are not there): only with C's constant fill folded into the
      // accumulators. (A K x N B whose N is not whole chunks is copied
      // element by element.)
      bool raggedMAllowed = fuseEpilogue && mm->epilogue.init;
      bool raggedNAllowed = raggedMAllowed;
      assert((mm->bTransposed || mm->bElementCopies ||
              mm->n % copyElements(mm->elementBytes()) == 0) &&
             "B's chunks along N straddle N");
      std::optional<MatmulTileConfig> cfg;
      if (runsOnWarpgroup(*mm))
        cfg = warpgroupTileConfig(*mm);
      if (!cfg && failed(tileConfig(op, *mm, *mmaISA, raggedMAllowed,
                                    raggedNAllowed, cfg)))
        return signalPassFailure();
      if (!cfg && mm->epilogue.softmax) {
        // No block covers whole rows (N > 256): the softmax stays apart.
        LLVM_DEBUG(llvm::dbgs() << "no tiles cover rows of " << mm->n
                                << ": softmax not fused\n");
        mm = match(false);
        raggedMAllowed = raggedNAllowed = fuseEpilogue && mm->epilogue.init;
        if (failed(tileConfig(op, *mm, *mmaISA, raggedMAllowed, raggedNAllowed,
                              cfg)))
          return signalPassFailure();
      }
      if (!cfg) {
        LLVM_DEBUG(llvm::dbgs() << "no tiles divide " << mm->m << "x" << mm->n
                                << "x" << mm->k << ": generic path\n");
        continue;
      }
      if (mm->batch > kMaxGridDimYZ) {
        LLVM_DEBUG(llvm::dbgs() << mm->batch
                                << " batches exceed gridDim.z: generic path\n");
        continue;
      }
      if (llvm::divideCeil(mm->m, cfg->blockM) > kMaxGridDimYZ) {
        LLVM_DEBUG(llvm::dbgs() << llvm::divideCeil(mm->m, cfg->blockM)
                                << " row blocks exceed gridDim.y: generic "
                                   "path\n");
        continue;
      }
      LLVM_DEBUG(llvm::dbgs()
                 << "tensor-core " << (mm->conv ? "conv " : "matmul ") << mm->m
                 << "x" << mm->n << "x" << mm->k << ": " << cfg->str() << "\n");
      if (!fuseEpilogue)
        mm->epilogue = {};
      Operation *kernelPoint = mm->epilogue.anchor(op);
      // A zero-padded input is read unpadded (taps outside it are zeros).
      FailureOr<ZeroPaddedInput> padding = failure();
      if (mm->conv && foldPadding &&
          succeeded(padding = matchZeroPaddedInput(*mm->conv, op,
                                                   kernelPoint))) {
        readUnpadded(*mm->conv, *padding);
        mm->a = mm->conv->input;
      }
      OpBuilder b(kernelPoint);
      if (mm->conv)
        std::tie(mm->b, mm->c) =
            buildImplicitGemmViews(b, op.getLoc(), *mm->conv);
      if (mm->collapsed)
        std::tie(mm->a, mm->b, mm->c) =
            std::tuple_cat(mm->collapsed->buildViews(b, op.getLoc()));
      mm->epilogue.buildViews(b, op.getLoc());
      if (emulateOnCPU) {
        buildCPUEmulation(b, op.getLoc(), *mm, *cfg, *mmaISA);
      } else {
        Value rowBuffer;
        gpu::LaunchOp launch = buildGPUKernel(b, op.getLoc(), *mm, *cfg,
                                              *mmaISA, toNVGPU, &rowBuffer);
        // The warpgroup kernel is complete: no fragments to convert, its
        // epilogue applied where it reads the row tile.
        if (!cfg->warpgroup &&
            failed(finishMmaSyncKernel(launch, *mm, *cfg, *mmaISA, rowBuffer)))
          return signalPassFailure();
      }
      if (succeeded(padding))
        moveSourceDeallocations(b, *padding);
      mm->epilogue.eraseAbsorbed(op);
      if (succeeded(padding))
        eraseUnusedBuffer(padding->padded);
    }
    // Once every kernel is past the nvgpu conversion (which would take i32
    // arith ops for fragment arithmetic).
    narrowMarkedIndexArithmetic(getOperation());
  }

  /// The mma.sync kernel's steps after buildGPUKernel: the fragments to
  /// nvgpu, the epilogue onto the lanes' stores, their guards and
  /// alignment, and the mma.sync operand types.
  LogicalResult finishMmaSyncKernel(gpu::LaunchOp launch,
                                    const TensorCoreMatmul &mm,
                                    const MatmulTileConfig &cfg,
                                    const TensorCoreISA &mmaISA,
                                    Value rowBuffer) {
    if (toNVGPU && failed(lowerKernelToNVGPU(launch)))
      return failure();
    if (mm.epilogue.softmax)
      emitWholeRowsEpilogue(launch, mm, cfg, mmaISA, rowBuffer);
    int64_t raggedM = mm.m % cfg.blockM ? mm.m : 0;
    int64_t raggedN = mm.n % cfg.blockN ? mm.n : 0;
    if (toNVGPU && (raggedM || raggedN))
      guardRaggedStores(launch, mm.c, raggedM, raggedN);
    if (failed(mm.epilogue.rewriteProductStores(launch, mm.c,
                                                mm.batch > 1 ? mm.m : 0)))
      return failure();
    if (toNVGPU)
      alignAccumulatorAccesses(launch, mm.c);
    if (toNVGPU &&
        failed(finalizeMmaOperandTypes(launch, mm.elementType, mmaISA)))
      return failure();
    return success();
  }

  /// Whether `mm` takes the warpgroup kernel: `warpgroup-mma` on, the
  /// heuristic's tiles (no fixed `tiles`), cp.async copies (the GPU form
  /// with to-nvgpu, or its CPU emulation), FP16/BF16 operands with a K x N
  /// B copied in whole 16-byte chunks, and no softmax epilogue.
  bool runsOnWarpgroup(const TensorCoreMatmul &mm) const {
    return warpgroupMma && tiles.empty() && (toNVGPU || emulateOnCPU) &&
           (mm.elementType.isF16() || mm.elementType.isBF16()) &&
           !mm.stagesBAsNK() && !mm.aElementCopies && !mm.bElementCopies &&
           !mm.epilogue.softmax;
  }

  /// The warpgroup kernel's tiles for `mm` (selectWarpgroupTiles), or
  /// nullopt (the mma.sync kernel's heuristic then decides). Any M and N:
  /// its epilogue reads C, where it does, under the same row and column
  /// guards as its stores.
  std::optional<MatmulTileConfig>
  warpgroupTileConfig(const TensorCoreMatmul &mm) const {
    MatmulTileProblem problem{mm.m, mm.n, mm.k, mm.elementBytes(),
                              mm.stagesBAsNK()};
    problem.batch = mm.batch;
    problem.raggedM = problem.raggedN = true;
    return selectWarpgroupTiles(*lookupTarget(targetName), problem,
                                stages > 0 ? int64_t(stages) : 0);
  }

  /// The shape-independent checks of `tiles` and `stages`, reported at the
  /// function (the options are the pass's, not one op's).
  LogicalResult verifyOptions() {
    Location loc = getOperation().getLoc();
    std::string chip = lookupTarget(targetName)->chip;
    if (warpgroupMma && computeCapability(chip) != 90)
      return emitError(loc)
             << "warpgroup-mma needs a target whose chip is sm_90 (wgmma is "
                "Hopper's, sm_90a), got '"
             << targetName << "' (" << chip << ")";
    if (stages != -1 && stages < 1)
      return emitError(loc) << "stages must be at least 1 (or -1 for the "
                               "heuristic's), got "
                            << int64_t(stages);
    if (tiles.empty())
      return success();
    if (tiles.size() != 5)
      return emitError(loc) << "tiles takes five sizes BM,BN,BK,WM,WN";
    int64_t bm = tiles[0], bn = tiles[1], bk = tiles[2], wm = tiles[3],
            wn = tiles[4];
    auto bad = [&](StringRef what) {
      return emitError(loc) << "tiles=" << bm << "," << bn << "," << bk << ","
                            << wm << "," << wn << ": " << what;
    };
    if (bm <= 0 || bn <= 0 || bk <= 0 || wm <= 0 || wn <= 0)
      return bad("every size must be positive");
    if (wm % kMmaM || wn % kMmaN || bk % kMmaK)
      return bad("WM must be a multiple of 16, WN of 8 and BK of 16 "
                 "(mma.sync m16n8k16 fragments)");
    if (bm % wm || bn % wn)
      return bad("the warp tile WM x WN must divide the block tile BM x BN");
    if ((bm / wm) * (bn / wn) * kThreadsPerWarp > 1024)
      return bad("more than 1024 threads per block ((BM/WM) x (BN/WN) "
                 "warps of 32)");
    return success();
  }

  /// The heuristic's tiles (nullopt: no tiles divide the shape, the op
  /// keeps the generic path), or the fixed ones, with their stages. Fixed
  /// tiles or stages that do not fit this op are an error at the op.
  LogicalResult tileConfig(linalg::LinalgOp op, const TensorCoreMatmul &mm,
                           const TensorCoreISA &isa, bool raggedMAllowed,
                           bool raggedNAllowed,
                           std::optional<MatmulTileConfig> &result) {
    const TargetDescription target = *lookupTarget(targetName);
    int64_t limit = tensorCoreSharedMemoryLimit(target);
    int64_t elementBytes = mm.elementBytes();
    int64_t forcedStages = stages > 0 ? int64_t(stages) : 0;
    if (tiles.empty()) {
      MatmulTileProblem problem{mm.m, mm.n, mm.k, elementBytes,
                                mm.stagesBAsNK()};
      problem.batch = mm.batch;
      problem.wholeRows = bool(mm.epilogue.softmax);
      problem.raggedM = raggedMAllowed;
      problem.raggedN = raggedNAllowed;
      // A ragged N's stores are guarded element by element.
      problem.anyN = raggedNAllowed;
      problem.anyK = mm.anyK();
      result = selectMatmulTiles(target, problem, forcedStages);
      if (!result && forcedStages && selectMatmulTiles(target, problem))
        return op.emitError()
               << "stages=" << forcedStages << ": no block tile's "
               << forcedStages << " stages fit in " << limit
               << " B of shared memory";
      return success();
    }
    MatmulTileConfig cfg;
    cfg.sharedPad = kSharedPadBytes / elementBytes;
    cfg.stagesBAsNK = mm.stagesBAsNK();
    cfg.wholeRows = bool(mm.epilogue.softmax);
    cfg.blockM = tiles[0];
    cfg.blockN = tiles[1];
    cfg.blockK = tiles[2];
    cfg.warpM = tiles[3];
    cfg.warpN = tiles[4];
    if (cfg.blockK % isa.fragmentK(elementBytes))
      return op.emitError()
             << "tiles=" << cfg.blockM << "," << cfg.blockN << ","
             << cfg.blockK << ",...: BK must be a multiple of "
             << isa.fragmentK(elementBytes) << " for " << mm.elementType
             << " operands (one mma.sync fragment's K)";
    auto tilesError = [&]() {
      return op.emitError() << "tiles=" << cfg.blockM << "," << cfg.blockN
                            << "," << cfg.blockK << ",...: ";
    };
    std::string shape = std::to_string(mm.m) + "x" + std::to_string(mm.n) +
                        "x" + std::to_string(mm.k);
    if ((mm.m % cfg.blockM && !raggedMAllowed) ||
        (mm.n % cfg.blockN && !raggedNAllowed))
      return tilesError()
             << "BM and BN must divide the GEMM's M and N (" << shape
             << "): C is read (no constant fill folds)";
    assert(mm.anyK() && "K not in whole copies comes with element copies");
    // Fixed tiles may use all the shared memory a block can opt in to;
    // the heuristic's stages prefer the two-blocks-per-SM budget.
    int64_t blockLimit = maxSharedMemoryPerBlock(target);
    // Tiles that do not cover whole rows leave the softmax apart.
    if (cfg.wholeRows &&
        (cfg.blockN < mm.n || cfg.rowTileBytes() > blockLimit)) {
      result = std::nullopt;
      return success();
    }
    cfg.stages = forcedStages;
    if (!cfg.stages)
      cfg.stages =
          selectStages(cfg, mm.k, elementBytes, limit, isa.maxStages());
    if (!cfg.stages)
      cfg.stages =
          selectStages(cfg, mm.k, elementBytes, blockLimit, isa.maxStages());
    if (cfg.stages == 0 ||
        cfg.sharedBytesAllStages(elementBytes) > blockLimit)
      return op.emitError()
             << "tiles=" << cfg.blockM << "," << cfg.blockN << ","
             << cfg.blockK << ",...: " << std::max<int64_t>(cfg.stages, 1)
             << " stage(s) of " << cfg.sharedBytes(elementBytes)
             << " B exceed the " << blockLimit
             << " B of shared memory a block may use on " << target.name;
    result = cfg;
    return success();
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
