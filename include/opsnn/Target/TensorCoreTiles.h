//===- TensorCoreTiles.h - Tile sizes of tensor-core GEMM kernels -*- C++ -*-===//
//
// The tile sizes of the tensor-core GEMM kernels (--opsnn-gpu-tensor-core-
// matmul): a thread-block tile staged in shared memory, split into warp
// tiles of mma.sync.m16n8k16 fragments. Chosen from the target description
// and the problem shape by one small, documented heuristic
// (selectMatmulTiles) so one codegen serves T4/A100/H100/H200-class parts.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TARGET_TENSORCORETILES_H
#define OPSNN_TARGET_TENSORCORETILES_H

#include "mlir/IR/Types.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace mlir::opsnn {

struct TargetDescription;

/// mma.sync.m16n8k16: the fragment every warp tile is made of (FP16/BF16;
/// TF32 fragments are m16n8k8, see mmaFragmentK). BK is always a multiple of
/// kMmaK.
constexpr int64_t kMmaM = 16, kMmaN = 8, kMmaK = 16;

/// The K of one mma.sync fragment for `elementBytes`-byte operands: 8 for
/// TF32 (4-byte), 16 for FP16/BF16; one fragment row is 32 bytes of K.
constexpr int64_t mmaFragmentK(int64_t elementBytes) {
  return 32 / elementBytes;
}

/// Whether `element` is an FP8 type mma.sync multiplies (sm_89 and later):
/// f8E4M3FN (PTX .e4m3) or f8E5M2 (.e5m2).
bool isTensorCoreFP8Type(Type element);

/// What a target's chip offers the tensor-core kernel. sm_80 and later
/// (and the host, whose emulation follows sm_80): cp.async copies and
/// mma.sync.m16n8k16 for FP16/BF16, m16n8k8 for TF32, m16n8k32 for INT8;
/// sm_89 and later (and the host) also m16n8k32 for FP8.
/// sm_75 (Turing, T4): FP16 as mma.sync.m16n8k8 and INT8 as m8n8k16 (four
/// per m16n8k32 fragment product, on the same registers), no BF16 or TF32,
/// and no cp.async: the copies go through registers (see the K loop in
/// GPUTensorCoreMatmul.cpp).
struct TensorCoreISA {
  /// cp.async: global-to-shared copies that do not pass through registers
  /// and complete in groups, so several K steps can be in flight.
  bool asyncCopies = true;
  /// The K of an FP16 fragment: 16 (m16n8k16) or 8 (m16n8k8, sm_75).
  int64_t f16FragmentK = 16;
  /// BF16, TF32 and INT8 mma.sync (BF16, TF32: sm_80; INT8: sm_75).
  bool bf16 = true, tf32 = true, int8 = true;
  /// INT8 as m16n8k32 (sm_80); else m8n8k16 (sm_75).
  bool int8M16N8K32 = true;
  /// FP8 (E4M3, E5M2) as m16n8k32 with f32 accumulators (sm_89: Ada and
  /// Hopper; PTX ISA 8.4).
  bool fp8 = true;

  /// The K of one mma.sync fragment for `elementBytes`-byte operands.
  int64_t fragmentK(int64_t elementBytes) const {
    return elementBytes == 2 ? f16FragmentK : mmaFragmentK(elementBytes);
  }
  /// The most shared-memory stages worth having: with synchronous copies
  /// a K step's loads are in flight only while the warps compute on the
  /// step before, so a third stage would hold nothing.
  int64_t maxStages() const { return asyncCopies ? 3 : 2; }
  /// Whether the chip multiplies A and B of `element` (f32: as TF32).
  bool takesOperandType(Type element) const;
};

/// The compute capability of an "sm_NN" chip (NN), 0 for any other chip.
int64_t computeCapability(const std::string &chip);

/// The tensor-core instructions of `target`'s chip, or std::nullopt when
/// it has none that the kernel uses (before sm_75: Volta's m8n8k4).
std::optional<TensorCoreISA> getTensorCoreISA(const TargetDescription &target);

/// Bytes of padding at the end of every shared-memory row.
constexpr int64_t kSharedPadBytes = 16;

/// f32 elements of padding at the end of every row of a whole-rows
/// epilogue's row tile (MatmulTileConfig::wholeRows): a thread that walks
/// a row reads the same column as its neighbours, two banks apart (two-way
/// conflicts, and the lanes' 8-byte accumulator stores stay aligned).
constexpr int64_t kRowTilePad = 2;

/// The warpgroup (wgmma) kernel's shared tiles (MatmulTileConfig::
/// warpgroup): rows of 128 bytes (BK = 64 FP16/BF16, 128 FP8) in wgmma's
/// 128-byte swizzled layout, each group of 8 rows one 1024-byte atom whose
/// 16-byte chunks are permuted by chunk ^ (row mod 8); the tiles start
/// 1024-byte aligned. The f32 row tile its epilogue reads pads its rows by 4
/// (16-byte aligned rows for 4-wide reads).
constexpr int64_t kWarpgroupRowBytes = 128;
constexpr int64_t kWarpgroupTileAlignment = 1024;
constexpr int64_t kWarpgroupRowTilePad = 4;
/// The bytes of K one wgmma takes (m64nNk16 FP16/BF16, m64nNk32 FP8,
/// m64nNk8 TF32).
constexpr int64_t kWarpgroupMmaKBytes = 32;
/// The threads of one warpgroup (four warps), the wgmma's M (64 rows).
constexpr int64_t kWarpgroupThreads = 128, kWarpgroupM = 64;

/// The shared memory a block gets without opting in: statically allocated
/// shared memory is limited to 48 KiB; beyond that a kernel must use
/// dynamic shared memory and be launched with
/// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES set (the runtime's
/// mgpuLaunchKernel does).
constexpr int64_t kStaticSharedMemoryBytes = 48 * 1024;

/// gridDim.y's and gridDim.z's hardware limit (x allows 2^31 - 1).
constexpr int64_t kMaxGridDimYZ = 65535;

/// A GEMM as the tile heuristic sees it.
struct MatmulTileProblem {
  int64_t m = 0, n = 0, k = 0;
  /// 2: FP16/BF16, 4: FP32 run as TF32, 1: INT8 or FP8.
  int64_t elementBytes = 2;
  /// B's tile is staged N x K (BN rows of BK + pad) rather than K x N: an
  /// FHWC filter, or any 8-bit (INT8, FP8) B (see
  /// MatmulTileConfig::stagesBAsNK).
  bool stagesBAsNK = false;
  /// M need not be a multiple of 16 nor of BM (rule 6).
  bool raggedM = false;
  /// N need not be a multiple of BN (it still is one of 8 unless
  /// `anyN`; rule 6).
  bool raggedN = false;
  /// With `raggedN`: N need not be a multiple of 8 either (rule 8: the
  /// stores are guarded element by element, B's columns past N are zeros).
  bool anyN = false;
  /// K need not be a multiple of 16 bytes (rule 8: the operands whose
  /// rows run along K are copied element by element).
  bool anyK = false;
  /// Independent GEMMs of this shape in one grid (a batched GEMM: its
  /// batches on gridDim.z): every one of them has the blocks of rule 2.
  int64_t batch = 1;
  /// One block covers whole rows (rule 9): the epilogue normalizes them.
  bool wholeRows = false;
};

struct MatmulTileConfig {
  /// Thread-block tile: a BM x BK tile of A and a BK x BN tile of B are
  /// staged in shared memory per step of the K loop.
  int64_t blockM = 0, blockN = 0, blockK = 0;
  /// Warp tile: each warp owns a WM x WN part of the block's output, held
  /// in (WM/16) x (WN/8) accumulator fragments.
  int64_t warpM = 0, warpN = 0;
  /// Extra elements at the end of every shared-memory row (keeps rows
  /// 16-byte aligned for cp.async/ldmatrix while spreading them over banks):
  /// kSharedPadBytes / element bytes (8 for FP16/BF16, 4 for TF32).
  int64_t sharedPad = 8;
  /// Shared-memory stages of the K loop's software pipeline: the copies of
  /// the next S-1 K steps are in flight (cp.async groups) while the warps
  /// compute on the current one. 1: copy, wait, compute, no overlap.
  int64_t stages = 1;
  /// B's tile is BN rows of BK (+ pad) elements instead of BK rows of BN.
  bool stagesBAsNK = false;
  /// The epilogue normalizes whole rows (a softmax over N <= BN): after
  /// the K loop the block's product goes to an f32 row tile of BM rows of
  /// BN + kRowTilePad elements, in the shared memory the stages used, and
  /// rowParts() threads share each row (a partial maximum and sum each).
  bool wholeRows = false;
  /// The block's product comes from wgmma (sm_90a, `nvgpu.warpgroup.mma`)
  /// rather than warps' mma.sync: one warpgroup (4 warps: warpM = BM / 4,
  /// warpN = BN) owns the whole BM x BN tile; BK is one 128-byte row
  /// (kWarpgroupRowBytes) and the tiles are unpadded (sharedPad = 0) in
  /// the swizzled layout, A as BM rows of BK, B as BN / 64 panels of BK
  /// rows of 64 columns (K x N) or as BN rows of BK (`stagesBAsNK`, read
  /// K-major). After the K loop the accumulators go
  /// through an f32 row tile (BM x (BN + kWarpgroupRowTilePad)) in the
  /// stages' shared memory to the epilogue, which walks it row by row.
  bool warpgroup = false;

  int64_t warpsM() const { return blockM / warpM; }
  int64_t warpsN() const { return blockN / warpN; }
  int64_t numWarps() const { return warpsM() * warpsN(); }
  /// Bytes of shared memory of one stage (A and B tiles, padded rows).
  int64_t sharedBytes(int64_t elementBytes) const {
    return (sharedElementsA() + sharedElementsB()) * elementBytes;
  }
  /// Elements of one stage's A tile (BM rows of BK + pad).
  int64_t sharedElementsA() const { return blockM * (blockK + sharedPad); }
  /// Elements of one stage's B tile (BK x (BN + pad), or BN x (BK + pad)
  /// when staged N x K).
  int64_t sharedElementsB() const {
    return stagesBAsNK ? blockN * (blockK + sharedPad)
                       : blockK * (blockN + sharedPad);
  }
  /// Bytes of shared memory of all the stages.
  int64_t sharedBytesAllStages(int64_t elementBytes) const {
    return stages * sharedBytes(elementBytes);
  }
  /// With `wholeRows`, the threads that share each row of the row tile
  /// (the threads over the rows, at least 1).
  int64_t rowParts() const {
    return std::max<int64_t>(1, numWarps() * 32 / blockM);
  }
  /// Bytes of the row tile and of its rows' parts' partial maxima and sums
  /// (0 without `wholeRows`).
  int64_t rowTileBytes() const {
    if (warpgroup && !wholeRows)
      return blockM * (blockN + kWarpgroupRowTilePad) * 4;
    return wholeRows
               ? (blockM * (blockN + kRowTilePad) + 2 * blockM * rowParts()) * 4
               : 0;
  }
  /// Bytes of shared memory of the kernel: the stages, or the row tile
  /// that reuses them after the K loop if it is larger; a warpgroup
  /// kernel's also the slack that aligns its tiles.
  int64_t kernelSharedBytes(int64_t elementBytes) const {
    return std::max(sharedBytesAllStages(elementBytes), rowTileBytes()) +
           (warpgroup ? kWarpgroupTileAlignment : 0);
  }
  /// Whether the kernel's shared memory exceeds kStaticSharedMemoryBytes,
  /// so that it takes its tiles from dynamic shared memory.
  bool needsDynamicSharedMemory(int64_t elementBytes) const {
    return kernelSharedBytes(elementBytes) > kStaticSharedMemoryBytes;
  }
  std::string str() const;
};

/// The most shared memory one block may opt in to on `target`: the SM's
/// shared memory less the 1 KiB the CUDA driver reserves per block on sm_80
/// and later (A100: 163 KiB, H100/H200: 227 KiB; T4: 64 KiB, V100: 96 KiB).
int64_t maxSharedMemoryPerBlock(const TargetDescription &target);

/// The shared memory one block of a tensor-core kernel may use on `target`:
/// what keeps two blocks resident per SM, min(maxSharedMemoryPerBlock,
/// SM / 2 - 1 KiB), but never less than the static 48 KiB (or the whole
/// SM, if smaller): A100 81 KiB, H100/H200 113 KiB, T4/V100 48 KiB. Tiles
/// past 48 KiB come from dynamic shared memory
/// (MatmulTileConfig::needsDynamicSharedMemory).
int64_t tensorCoreSharedMemoryLimit(const TargetDescription &target);

/// Tiles of the warpgroup (wgmma) kernel for `problem` on `target`
/// (MatmulTileConfig::warpgroup), or std::nullopt when the problem is not
/// one it runs: FP16/BF16 operands (elementBytes 2) with B staged K x N or
/// N x K (`stagesBAsNK`), or 8-bit (elementBytes 1: FP8, INT8) or TF32 (4)
/// operands with B staged N x K (wgmma reads them K-major only); K a
/// multiple of 16 bytes unless `anyK` (the operands along K copied element
/// by element), N of 16 bytes for a K x N B unless `anyN` (its rows copied
/// element by element); with `wholeRows` (a softmax over
/// the columns) only blocks whose BN covers N (N <= 256). Blocks of 128x128,
/// 128x64, 64x128 or 64x64 (BM a multiple of the wgmma's 64 rows, BN of a
/// 64-column panel), and for `wholeRows` 64x256 after them (rows of 129 to 256
/// columns), chosen as rules 2 and 6 of selectMatmulTiles choose; BK = one
/// 128-byte row (64 FP16/BF16, 128 FP8/INT8, 32 TF32); the deepest pipeline of
/// at most 4 stages (and ceil(K/BK)) whose shared memory (kernelSharedBytes)
/// fits tensorCoreSharedMemoryLimit (two blocks per SM): 128x128 blocks take 3
/// stages of 32 KiB on H100/H200. With `stages` > 0 only that S is tried.
std::optional<MatmulTileConfig>
selectWarpgroupTiles(const TargetDescription &target,
                     const MatmulTileProblem &problem, int64_t stages = 0);

/// The elements of one 16-byte copy (8 FP16/BF16, 4 TF32, 16 INT8/FP8): K must
/// be a multiple of it (rule 7), a ragged N of it or of 8 (rule 6).
constexpr int64_t copyElements(int64_t elementBytes) {
  return 16 / elementBytes;
}

/// The K loop's steps: ceil(K / BK) (a ragged K's last step is partly
/// zeros).
constexpr int64_t blockSteps(int64_t k, int64_t blockK) {
  return (k + blockK - 1) / blockK;
}

/// The deepest pipeline (`maxStages`, usually 3, then fewer down to 1)
/// whose stages of `config` fit in `limit` bytes, at most ceil(K/BK) stages (more would only hold
/// empty groups); 0 when not even one stage fits. Rule 5 below.
int64_t selectStages(const MatmulTileConfig &config, int64_t k,
                     int64_t elementBytes, int64_t limit,
                     int64_t maxStages = 3);

/// Tile sizes for `problem`, an M x N x K GEMM with `elementBytes`-byte
/// inputs (2: FP16/BF16, 4: FP32 run as TF32, 1: INT8/FP8; the rows' padding
/// follows) on `target`, or std::nullopt when M is not a multiple of 16
/// (without `raggedM`), N not one of 8 (without `anyN`), or K not one of
/// 16 bytes (copyElements; without `anyK`) (those GEMMs keep the generic
/// path). The heuristic:
///  1. Block tiles, largest first: 128x128, 128x64, 64x128, 64x64, 64x32,
///     32x64, 32x32, 32x16, 16x32, 16x16, 16x8; only those dividing M and N
///     (but see rule 6).
///  2. Take the first (largest) whose grid has at least one block per SM of
///     the target (fills the chip; large tiles re-use shared memory best);
///     if none does, the problem is small and the one with the most blocks
///     wins (latency-bound: parallelism matters more than reuse). The grid
///     counts every batch of a batched GEMM (attention's 96 heads x batches
///     of 128 x 128 scores fill an A100 with 128 x 64 blocks; counting one
///     batch would shrink them to 16 x 8).
///  3. BK = 32 when it divides K, else 16 when that does (8-bit: always
///     32); a ragged K (rule 7) takes whichever of 32 and 16 pads K less,
///     32 on a tie.
///  4. Warp tiles start at 64x32 (64 f32 accumulators per thread, no spills
///     on sm_80/sm_90) clamped to the block tile, and are halved (the larger
///     side in fragments first) until the block has 4 warps or the warp
///     tile is one fragment.
///  5. Stages: all S stages of A and B (B staged N x K when the problem
///     says so) must fit in tensorCoreSharedMemoryLimit (two blocks per
///     SM; at least the static 48 KiB). S = 3 is preferred (two K steps of
///     copies in flight while the warps compute), then 2, then 1, never
///     more than ceil(K/BK); without cp.async (sm_75) S = 2 at most
///     (TensorCoreISA::maxStages). For each S in that order, BK follows rule 3
///     and drops to 16 when the stages do not fit; when no S fits even with
///     BK = 16, the next block tile is tried. (128x128 FP16 blocks: BK = 32
///     needs 18.5 KiB per stage; S = 3 takes BK = 32 on A100/H100/H200,
///     55.5 KiB of dynamic shared memory. On T4, where the budget is
///     48 KiB and S = 2, BK = 32: 2 x 18.5 KiB.) With `stages` > 0 only that S
///     is tried.
///  6. With `raggedM` (`raggedN`) M need not be a multiple of 16 nor of BM
///     (N of BN): the grid rounds the block rows (columns) up and the kernel
///     guards the last one. A tile that does not divide such a dimension is
///     a candidate when the rounding pads it by at most an eighth of the
///     padded size (N = 1000 in 128-wide blocks: 24 of 1024), so that
///     exact and nearly exact tiles compete by rule 2 alone; when no tile
///     passes (M = 8: every block is half empty), every tile is.
///  7. K need not be a multiple of BK: the last K step's copies past K
///     are zeros (cp.async of 0 source bytes), so they add nothing.
///  8. With `anyK` and `anyN` (an operand whose rows are not whole 16-byte
///     copies, such as attention's 17 x 17 scores, is copied element by
///     element) K and N may be any size; the tiles follow rules 1-7 as
///     for the rounded-up sizes.
///  9. With `wholeRows` (a softmax over the rows in the epilogue), only
///     tiles with BN >= N are candidates (one block column), those of
///     rule 1, then 32x128, 16x128, 64x256, 32x256 and 16x256 (rows of
///     up to 128 keep 128-wide blocks), and the larger of
///     the stages and the f32 row tile (BM x (BN + 2), and two partials
///     per thread sharing a row) must fit in the budget of rule 5: for
///     attention's 128 x 128 scores of 64-wide heads in FP16, 64 x 128
///     blocks of 2 stages (33.5 KiB of row tile); ViT-B's 197 tokens take
///     256-wide blocks. No tile for N > 256: the softmax stays apart.
std::optional<MatmulTileConfig>
selectMatmulTiles(const TargetDescription &target,
                  const MatmulTileProblem &problem, int64_t stages = 0);

} // namespace mlir::opsnn

#endif // OPSNN_TARGET_TENSORCORETILES_H
