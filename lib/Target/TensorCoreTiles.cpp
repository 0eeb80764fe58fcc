//===- TensorCoreTiles.cpp - Tile sizes of tensor-core GEMM kernels -------===//
//
// The tile-size heuristic of the tensor-core GEMM kernels; see
// TensorCoreTiles.h for the rules.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TensorCoreTiles.h"

#include "opsnn/Target/TargetDescription.h"

#include <algorithm>

using namespace mlir::opsnn;

std::string MatmulTileConfig::str() const {
  return "block " + std::to_string(blockM) + "x" + std::to_string(blockN) +
         "x" + std::to_string(blockK) + ", warp " + std::to_string(warpM) +
         "x" + std::to_string(warpN) + ", " + std::to_string(numWarps()) +
         " warps";
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

std::optional<MatmulTileConfig>
mlir::opsnn::selectMatmulTiles(const TargetDescription &target, int64_t m,
                               int64_t n, int64_t k, int64_t elementBytes) {
  if (m <= 0 || n <= 0 || k <= 0 || m % kMmaM || n % kMmaN || k % kMmaK)
    return std::nullopt;
  static constexpr int64_t kBlockTiles[][2] = {
      {128, 128}, {128, 64}, {64, 128}, {64, 64}, {64, 32}, {32, 64},
      {32, 32},   {32, 16},  {16, 32},  {16, 16}, {16, 8}};
  int64_t smemLimit = 48 * 1024;
  if (target.sharedMemoryPerSMBytes > 0)
    smemLimit = std::min(smemLimit, target.sharedMemoryPerSMBytes);
  int64_t sms = std::max<int64_t>(1, target.smCount);

  std::optional<MatmulTileConfig> best;
  int64_t bestBlocks = 0;
  for (const auto &tile : kBlockTiles) {
    if (m % tile[0] || n % tile[1])
      continue;
    MatmulTileConfig config;
    config.blockM = tile[0];
    config.blockN = tile[1];
    config.blockK = k % 32 == 0 ? 32 : 16;
    if (config.sharedBytes(elementBytes) > smemLimit)
      config.blockK = 16;
    if (config.sharedBytes(elementBytes) > smemLimit)
      continue;
    chooseWarpTile(config);
    int64_t blocks = (m / tile[0]) * (n / tile[1]);
    if (blocks >= sms)
      return config; // Rule 2: the largest tile that fills the chip.
    if (!best || blocks > bestBlocks) {
      best = config;
      bestBlocks = blocks;
    }
  }
  return best;
}
