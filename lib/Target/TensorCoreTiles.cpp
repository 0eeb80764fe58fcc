//===- TensorCoreTiles.cpp - Tile sizes of tensor-core GEMM kernels -------===//
//
// The tile-size heuristic of the tensor-core GEMM kernels; see
// TensorCoreTiles.h for the rules.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TensorCoreTiles.h"
#include "opsnn/Target/TargetDescription.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <array>
#include <cstdlib>

using namespace mlir::opsnn;

std::string MatmulTileConfig::str() const {
  return "block " + std::to_string(blockM) + "x" + std::to_string(blockN) +
         "x" + std::to_string(blockK) + ", warp " + std::to_string(warpM) +
         "x" + std::to_string(warpN) + ", " + std::to_string(numWarps()) +
         " warps, " + std::to_string(stages) + " stages" +
         (wholeRows ? ", whole rows" : "") + (warpgroup ? ", warpgroup" : "");
}

/// Shared memory the CUDA driver reserves per block on sm_80 and later.
constexpr int64_t kReservedSharedMemoryPerBlock = 1024;

int64_t mlir::opsnn::computeCapability(const std::string &chip) {
  if (chip.rfind("sm_", 0) != 0)
    return 0;
  return std::atoll(chip.c_str() + 3);
}

bool mlir::opsnn::isTensorCoreFP8Type(Type element) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(element);
}

bool TensorCoreISA::takesOperandType(Type element) const {
  return element.isF16() || (element.isBF16() && bf16) ||
         (element.isF32() && tf32) || (element.isInteger(8) && int8) ||
         (isTensorCoreFP8Type(element) && fp8);
}

std::optional<TensorCoreISA>
mlir::opsnn::getTensorCoreISA(const TargetDescription &target) {
  int64_t cc = computeCapability(target.chip);
  // Not a GPU chip (the host): the sm_80 kernel, emulated, with FP8.
  if (cc == 0 || cc >= 89)
    return TensorCoreISA();
  if (cc >= 80) {
    TensorCoreISA ampere;
    ampere.fp8 = false;
    return ampere;
  }
  if (cc < 75)
    return std::nullopt;
  TensorCoreISA turing;
  turing.fp8 = false;
  turing.asyncCopies = false;
  turing.f16FragmentK = 8;
  turing.bf16 = turing.tf32 = false;
  turing.int8M16N8K32 = false;
  return turing;
}

int64_t
mlir::opsnn::maxSharedMemoryPerBlock(const TargetDescription &target) {
  if (target.sharedMemoryPerSMBytes <= 0)
    return kStaticSharedMemoryBytes;
  int64_t reserved = computeCapability(target.chip) >= 80
                         ? kReservedSharedMemoryPerBlock
                         : 0;
  return target.sharedMemoryPerSMBytes - reserved;
}

int64_t mlir::opsnn::tensorCoreSharedMemoryLimit(
    const TargetDescription &target) {
  int64_t smem = target.sharedMemoryPerSMBytes > 0
                     ? target.sharedMemoryPerSMBytes
                     : kStaticSharedMemoryBytes;
  int64_t staticLimit = std::min(kStaticSharedMemoryBytes, smem);
  int64_t twoPerSM = std::min(maxSharedMemoryPerBlock(target),
                              smem / 2 - kReservedSharedMemoryPerBlock);
  return std::max(staticLimit, twoPerSM);
}

int64_t mlir::opsnn::selectStages(const MatmulTileConfig &config, int64_t k,
                                  int64_t elementBytes, int64_t limit,
                                  int64_t maxStages) {
  int64_t steps = std::max<int64_t>(1, blockSteps(k, config.blockK));
  for (int64_t stages = std::min<int64_t>(maxStages, steps); stages >= 1;
       --stages)
    if (stages * config.sharedBytes(elementBytes) <= limit)
      return stages;
  return 0;
}

/// Rule 4: warp tile for a block tile.
static void chooseWarpTile(MatmulTileConfig &config) {
  config.warpM = std::min<int64_t>(64, config.blockM);
  config.warpN = std::min<int64_t>(32, config.blockN);
  while (config.numWarps() < 4 &&
         (config.warpM > kMmaM || config.warpN > kMmaN)) {
    bool halveM = config.warpM > kMmaM &&
                  (config.warpM / kMmaM >= config.warpN / kMmaN ||
                   config.warpN == kMmaN);
    if (halveM)
      config.warpM /= 2;
    else
      config.warpN /= 2;
  }
}

/// Rule 3: BK for K, given the smallest BK.
static int64_t preferredBlockK(int64_t k, int64_t minBK) {
  if (k % 32 == 0)
    return 32;
  if (k % minBK == 0)
    return minBK;
  return blockSteps(k, 32) * 32 <= blockSteps(k, minBK) * minBK ? 32 : minBK;
}

/// Rule 6: whether `tile` splits `size` into whole tiles, or (when the
/// dimension may be ragged and `nearlyExact`) pads it by at most an eighth
/// of the padded size.
static bool tileFits(int64_t size, int64_t tile, bool ragged,
                     bool nearlyExact) {
  if (size % tile == 0)
    return true;
  if (!ragged)
    return false;
  int64_t padded = blockSteps(size, tile) * tile;
  return !nearlyExact || (padded - size) * 8 <= padded;
}

/// Rules 2 and 6 over the candidate `tiles` in order: nearly exact tiles
/// first, any tile when none of them fits. `configure(tile)` gives a fitting
/// tile's configuration, or nullopt (its stages do not fit, ...). The first
/// whose grid has a block per SM wins at once, else the one with the most
/// blocks (the least padding on a tie).
static std::optional<MatmulTileConfig> pickTile(
    llvm::ArrayRef<std::array<int64_t, 2>> tiles,
    const MatmulTileProblem &problem, int64_t sms,
    llvm::function_ref<std::optional<MatmulTileConfig>(std::array<int64_t, 2>)>
        configure) {
  int64_t m = problem.m, n = problem.n;
  int64_t batch = std::max<int64_t>(1, problem.batch);
  for (bool nearlyExact : {true, false}) {
    std::optional<MatmulTileConfig> best;
    int64_t bestBlocks = 0, bestPadded = 0;
    for (std::array<int64_t, 2> tile : tiles) {
      if (!tileFits(m, tile[0], problem.raggedM, nearlyExact) ||
          !tileFits(n, tile[1], problem.raggedN, nearlyExact))
        continue;
      std::optional<MatmulTileConfig> config = configure(tile);
      if (!config)
        continue;
      int64_t blocks = blockSteps(m, tile[0]) * blockSteps(n, tile[1]) * batch;
      if (blocks >= sms)
        return config; // Rule 2: the largest tile that fills the chip.
      // Ties (a small problem that every tile covers with as many
      // blocks): the least padding.
      int64_t padded =
          blockSteps(m, tile[0]) * tile[0] * blockSteps(n, tile[1]) * tile[1];
      if (!best || blocks > bestBlocks ||
          (blocks == bestBlocks && padded < bestPadded)) {
        best = config;
        bestBlocks = blocks;
        bestPadded = padded;
      }
    }
    if (best)
      return best;
  }
  return std::nullopt;
}

std::optional<MatmulTileConfig>
mlir::opsnn::selectMatmulTiles(const TargetDescription &target,
                               const MatmulTileProblem &problem,
                               int64_t stages) {
  int64_t m = problem.m, n = problem.n, k = problem.k;
  int64_t elementBytes = problem.elementBytes;
  bool raggedM = problem.raggedM, raggedN = problem.raggedN;
  // BK's granule: 16, or one 8-bit fragment's K (32).
  int64_t minBK = std::max(kMmaK, mmaFragmentK(elementBytes));
  if (m <= 0 || n <= 0 || k <= 0 || (!raggedM && m % kMmaM) ||
      ((!raggedN || !problem.anyN) && n % kMmaN) ||
      (!problem.anyK && k % copyElements(elementBytes)))
    return std::nullopt;
  static constexpr int64_t kBlockTiles[][2] = {
      {128, 128}, {128, 64}, {64, 128}, {64, 64}, {64, 32}, {32, 64},
      {32, 32},   {32, 16},  {16, 32},  {16, 16}, {16, 8}};
  // Rule 9: whole rows in blocks of few rows, after the others: 128
  // columns, then up to 256 (ViT-B's 197 tokens, BERT at sequence 256).
  static constexpr int64_t kWideRowTiles[][2] = {
      {32, 128}, {16, 128}, {64, 256}, {32, 256}, {16, 256}};
  SmallVector<std::array<int64_t, 2>> tiles;
  for (const auto &tile : kBlockTiles)
    tiles.push_back({tile[0], tile[1]});
  if (problem.wholeRows)
    for (const auto &tile : kWideRowTiles)
      tiles.push_back({tile[0], tile[1]});
  int64_t smemLimit = tensorCoreSharedMemoryLimit(target);
  std::optional<TensorCoreISA> isa = getTensorCoreISA(target);
  int64_t maxStages = isa ? isa->maxStages() : 3;
  int64_t sms = std::max<int64_t>(1, target.smCount);

  return pickTile(
      tiles, problem, sms,
      [&](std::array<int64_t, 2> tile) -> std::optional<MatmulTileConfig> {
        if (problem.wholeRows && tile[1] < n)
          return std::nullopt;
        MatmulTileConfig config;
        config.sharedPad = kSharedPadBytes / elementBytes;
        config.stagesBAsNK = problem.stagesBAsNK;
        config.wholeRows = problem.wholeRows;
        config.blockM = tile[0];
        config.blockN = tile[1];
        // The warps first: a whole-rows tile's bytes count its threads.
        chooseWarpTile(config);
        // Rule 5: the deepest pipeline that fits, BK by rule 3 then 16 for
        // each depth.
        for (int64_t s = stages > 0 ? stages : maxStages; s >= 1; --s) {
          for (int64_t bk : {preferredBlockK(k, minBK), minBK}) {
            config.blockK = bk;
            config.stages = stages > 0 ? s : std::min(s, blockSteps(k, bk));
            if (config.kernelSharedBytes(elementBytes) <= smemLimit)
              return config;
          }
          if (stages > 0)
            break;
        }
        return std::nullopt;
      });
}

std::optional<MatmulTileConfig>
mlir::opsnn::selectWarpgroupTiles(const TargetDescription &target,
                                  const MatmulTileProblem &problem,
                                  int64_t stages) {
  int64_t m = problem.m, n = problem.n, k = problem.k;
  int64_t elementBytes = problem.elementBytes;
  // 8-bit and TF32 operands are K-major only: B staged N x K.
  if ((elementBytes != 1 && elementBytes != 2 && elementBytes != 4) ||
      (elementBytes != 2 && !problem.stagesBAsNK) || m <= 0 || n <= 0 ||
      k <= 0 || (!problem.anyK && k % copyElements(elementBytes)) ||
      (!problem.stagesBAsNK && !problem.anyN && n % copyElements(elementBytes)))
    return std::nullopt;
  int64_t limit = tensorCoreSharedMemoryLimit(target);
  int64_t sms = std::max<int64_t>(1, target.smCount);
  int64_t blockK = kWarpgroupRowBytes / problem.elementBytes;
  SmallVector<std::array<int64_t, 2>> tiles = {
      {128, 128}, {128, 64}, {64, 128}, {64, 64}};
  // Whole rows of up to 256 columns (BERT at sequence 256, ViT-B's 197
  // tokens), after the others: one 64-row slice, 128 accumulators a
  // thread.
  if (problem.wholeRows)
    tiles.push_back({64, 256});
  return pickTile(
      tiles, problem, sms,
      [&](std::array<int64_t, 2> tile) -> std::optional<MatmulTileConfig> {
        if (problem.wholeRows && tile[1] < n)
          return std::nullopt;
        MatmulTileConfig config;
        config.warpgroup = true;
        config.stagesBAsNK = problem.stagesBAsNK;
        config.wholeRows = problem.wholeRows;
        config.sharedPad = 0;
        config.blockM = tile[0];
        config.blockN = tile[1];
        config.blockK = blockK;
        config.warpM = tile[0] / (kWarpgroupThreads / 32);
        config.warpN = tile[1];
        // The deepest pipeline that fits, of at most 4 stages and K steps.
        for (int64_t s = stages > 0
                             ? stages
                             : std::min<int64_t>(4, blockSteps(k, blockK));
             s >= 1; --s) {
          config.stages = s;
          if (config.kernelSharedBytes(problem.elementBytes) <= limit)
            return config;
          if (stages > 0)
            break;
        }
        return std::nullopt;
      });
}
