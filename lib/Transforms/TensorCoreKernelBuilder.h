//===- TensorCoreKernelBuilder.h - Builds the tensor-core kernel -*- C++
//-*-===//
//
// The body of the tensor-core GEMM kernel (--opsnn-gpu-tensor-core-matmul):
// the GEMM it runs (TensorCoreMatmul) and the builder that emits its
// pieces (KernelBuilder). The GPU form calls each piece once with the
// hardware ids; the CPU emulation calls it in loops over the same ids, so
// the index arithmetic is shared and checked on the CPU against NumPy.
// The builder's definitions are split by what they build:
//   TensorCoreKernelBuilder.cpp  batches, shared tiles, fragments, stores;
//   TensorCoreTileCopies.cpp     global-to-shared copies (cp.async, edges,
//                                implicit im2col, deferred stores);
//   TensorCoreRowTile.cpp        the f32 row tile: the whole-rows softmax
//                                epilogue and the warpgroup (wgmma) kernel's
//                                swizzled tiles and epilogue.
// The pass (GPUTensorCoreMatmul.cpp) matches the GEMMs, picks the tiles and
// puts the pieces together. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCOREKERNELBUILDER_H
#define OPSNN_LIB_TRANSFORMS_TENSORCOREKERNELBUILDER_H

#include "TensorCoreContraction.h"
#include "TensorCoreConv.h"
#include "TensorCoreEpilogue.h"
#include "TensorCoreMmaTypes.h"
#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <optional>

namespace mlir::opsnn {

inline constexpr int64_t kThreadsPerWarp = 32;
/// The bytes of one tile copy (cp.async, or a vector load and store).
inline constexpr int64_t kCopyBytes = 16;
/// The side of the byte blocks an 8-bit K x N B is transposed in while it
/// is copied into its N x K tile: 4 x 4, one 4-byte load per source row
/// and one 4-byte store per tile row.
inline constexpr int64_t kTransposeBlock = 4;

/// Element `e` of the 1-D `vector` as a vector<1x...> (extract and
/// from_elements: the GPU pipeline lowers no extract_strided_slice).
Value oneElement(OpBuilder &b, Location loc, Value vector, int64_t e);

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
  void bindBatch(Value index);
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
  int64_t copyElements() const { return opsnn::copyElements(elementBytes()); }
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
  MemRefType sharedTypeA(Attribute space, Type element) const;
  MemRefType sharedTypeB(Attribute space, Type element) const;
  /// The warpgroup kernel's tiles (MatmulTileConfig::warpgroup): a
  /// `rows` x `cols` tile as cols / swizzledRowElements() panels of `rows`
  /// rows of one 128-byte swizzled row each (see swizzledIndices), stacked
  /// along the rows, per stage. A is BM x BK (one panel), a K x N B BK x BN,
  /// an N x K B BN x BK (one panel, read K-major as A is).
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
                                     int64_t rows);

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
  Value clampedNextStepK0(Value k0);

  /// Emits the deferred stores (see deferStores), in the order of their
  /// loads.
  void storePendingCopies();

  /// A shared-memory store of a copy: memref.store of a scalar, or a
  /// vector.store aligned to its size (a 16-byte chunk, a 4-byte word).
  void emitTileStore(Value value, Value dst, ValueRange indices);

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
                  Value sA, Value sB);

  /// Origin of warp `warp`'s tile inside the block tile.
  std::pair<Value, Value> warpOrigin(Value warp) {
    return {mul(div(warp, cfg.warpsN()), cfg.warpM),
            mul(rem(warp, cfg.warpsN()), cfg.warpN)};
  }

  /// The accumulator fragments (16x8 f32) of the warp tile at global
  /// (row0, col0), read from C or, when C's fill is folded, the constant.
  SmallVector<Value> loadAccumulators(Value row0, Value col0);

  /// The fragments' stores to C. With `applyEpilogue` (the CPU form) the
  /// epilogue's stores replace them here; the GPU form keeps them for
  /// TensorCoreEpilogue::rewriteProductStores after the nvgpu conversion,
  /// which cannot map the payload ops onto register fragments.
  void storeAccumulators(ArrayRef<Value> accs, Value row0, Value col0);

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
                      Value rowTile);

  /// Second step, thread `tid`'s row parts (slot s: row s / parts, part
  /// s mod parts; rows below M): the epilogue's stages before the softmax
  /// applied in place, and the part's maximum into partials[0][s] (from
  /// maxnumf's identity, NaN, where the softmax's decomposition starts).
  void emitRowPartMaxima(Value tid, Value bm0, Value rowTile, Value partials);

  /// Third step (after a barrier): the row's maximum from its parts', then
  /// exp(x - max) in place over the part's columns and their sum into
  /// partials[1][s].
  void emitRowPartSums(Value tid, Value bm0, Value rowTile, Value partials);

  /// Last step (after a barrier), thread `tid`'s pairs of columns (single
  /// columns for an odd N) in row-major order over the block's rows below
  /// M: exp / sum (the parts' sums added in part order), put through the
  /// epilogue's stages after the softmax and stored. Adjacent threads take
  /// adjacent columns: coalesced stores.
  void emitNormalizedRows(Value tid, Value bm0, Value rowTile, Value partials);

  /// `row` of the bound batch's slice as a row of the epilogue's space.
  Value epilogueRow(Value row) { return batchRow0 ? add(row, batchRow0) : row; }

  /// Apply the epilogue where the accumulators are stored (CPU form).
  bool applyEpilogue = false;

  /// One K step of a warp: for every k16 slice of the staged tiles, the
  /// 16x16 A fragments and the 8x16 B fragments (read transposed from a
  /// K x N tile, straight from an N x K one) at the warp
  /// origin (wm0, wn0) inside the block tile, one contraction per
  /// accumulator fragment. The tiles are read from stage `stage` (as
  /// fragmentType, when set).
  SmallVector<Value> warpStep(Value wm0, Value wn0, Value stage, Value sA,
                              Value sB, ArrayRef<Value> accs);

  /// The warpgroup kernel's epilogue (MatmulTileConfig::warpgroup), once
  /// the block's product is in the f32 row tile (and, on the GPU, after a
  /// barrier): thread `tid`'s pairs of columns (single columns for an odd
  /// N) in row-major order over the block's rows below M and columns below
  /// N, each the row tile's plus C's folded fill (or C), stored to C and/or
  /// put through the epilogue's stages. Adjacent threads take adjacent
  /// columns: conflict-free shared reads, coalesced stores.
  void emitRowTileEpilogue(Value tid, Value bm0, Value bn0, Value rowTile);

  /// The CPU form of the warpgroup's work on one K step: every product
  /// A(r, k) * B(k, n) of the stage's swizzled tiles (read through
  /// swizzledIndices, as the copies wrote them; B at (n, k) when staged
  /// N x K; f32 operands truncated to TF32) added to `acc`, the f32
  /// BM x BN(+pad) row tile, in f32, k in order.
  void warpgroupStepOnCPU(Value stage, Value sA, Value sB, Value acc);

  /// The f32 `x` as the CPU form takes wgmma's reading of a TF32 operand
  /// from shared memory: its 13 low mantissa bits dropped (truncated; the
  /// mma.sync kernel rounds its operands by cvt.rna first); NaNs pass
  /// unchanged.
  Value truncateToTF32(Value x);

  /// Zeros into the first BM x BN elements of the row tile `acc` (the CPU
  /// form's warpgroup accumulators, per block).
  void zeroRowTile(Value acc);

private:
  /// Calls `body` with 0 .. count-1, in an scf.for.
  void forEachIndex(int64_t count, llvm::function_ref<void(Value)> body);

  /// The CPU form's store of a fragment that may reach past M (rows) or,
  /// when N is not a multiple of 8, past N (columns): the fragment goes to
  /// `fragmentScratch`, then each row r < M is stored (and put through the
  /// epilogue) on its own, or each of its elements below N. Loops, not
  /// unrolled: guarded stores of every element would swell the emulation.
  void storeRowsInBounds(Value acc, Value row, Value col);

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
                   llvm::function_ref<void(Value)> body);

  /// The columns a thread takes at once in a row-tile walk
  /// (forEachColumnPair): 2, or 1 for an odd N.
  int64_t columnPairWidth() const { return mm.n % 2 ? 1 : 2; }

  /// Calls `body(r, c)` for thread `tid`'s pairs of columns (single columns
  /// for an odd N; see columnPairWidth) among the first `columns` of the
  /// block's rows of the row tile, in row-major order: slot s is row
  /// s / (columns / width), column width * (s mod that). Adjacent threads
  /// take adjacent columns: conflict-free shared reads, coalesced stores.
  void forEachColumnPair(Value tid, int64_t columns,
                         llvm::function_ref<void(Value, Value)> body);

  /// Calls `body(slot, r, part, row)` for thread `tid`'s row parts whose
  /// row (bm0 + r) is below M.
  void
  forEachRowPart(Value tid, Value bm0,
                 llvm::function_ref<void(Value, Value, Value, Value)> body);

  /// The parts' partials[which][r * parts + 0 ..] of row r combined in
  /// part order.
  Value combineParts(Value partials, int64_t which, Value r,
                     llvm::function_ref<Value(Value, Value)> combine);

  /// An scf.for over the columns `first`, `first` + parts, ... below N
  /// carrying one f32 value from `init`: `body(col, value)` returns the next
  /// value.
  Value forColumns(Value first, Value init,
                   llvm::function_ref<Value(Value, Value)> body);

  /// Emits `body` for `row`, under `scf.if row < M` when M is ragged.
  void ifRowBelowM(Value row, llvm::function_ref<void()> body) {
    if (raggedM())
      ifBelow(row, mm.m, body);
    else
      body();
  }

  /// Emits `body` under `scf.if index < bound`.
  void ifBelow(Value index, int64_t bound, llvm::function_ref<void()> body);

  /// Rounds every f32 element to TF32 (10 mantissa bits) as
  /// cvt.rna.tf32.f32 does: half an ulp of TF32 (bit 12) added to the
  /// magnitude bits, then the 13 low bits cleared; a carry moves into the
  /// exponent as it should, and NaNs pass unchanged.
  Value roundFragmentToTF32(Value frag);

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
                const MatrixEdges &edges = {}, ArrayRef<AffineMap> srcMaps = {},
                bool transposeIntoTile = false,
                ArrayRef<int64_t> srcBounds = {}, bool elementCopies = false);

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
                        ArrayRef<int64_t> bounds);

  /// The source indices srcMaps(row, col * colScale + colOffset) of an
  /// element of the implicit A matrix, in 32-bit arithmetic. An element
  /// copy passes its chunk's column in chunks (colScale = the chunk's
  /// elements) and its offset in the chunk: the maps then simplify the
  /// offset's channel and tap to constants where they can (C = 4: channel
  /// e mod 4).
  SmallVector<Value> implicitIndices(ArrayRef<AffineMap> srcMaps, Value row,
                                     Value col, int64_t colScale = 1,
                                     int64_t colOffset = 0);

  /// Whether `indices` lie in `bounds` (see copyTile), null when there are
  /// no bounds; the bounded indices become 0 where they do not. Indices
  /// known not to be negative (`nonNegative`) are only compared with the
  /// bound.
  Value clampToBounds(SmallVectorImpl<Value> &indices, ArrayRef<int64_t> bounds,
                      bool nonNegative = false);

  /// Whether `indices` lie in `bounds` (see clampToBounds), null when there
  /// are no bounds.
  Value boundsPredicate(ArrayRef<Value> indices, ArrayRef<int64_t> bounds,
                        bool nonNegative = false);

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
  void storeToTile(Value value, Value dst, ValueRange indices, Value guard);
};

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCOREKERNELBUILDER_H
