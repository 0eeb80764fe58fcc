//===- TensorCoreTilesTest.cpp - Unit tests of the tile heuristic ---------===//
//
// The shared-memory budgets per target, the bytes a configuration stages
// (B as K x N or N x K), and the heuristic's choices where they differ by
// target: a budget past 48 KiB (dynamic shared memory) on A100/H200.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir::opsnn;

namespace {
TargetDescription target(const char *name) {
  std::optional<TargetDescription> t = lookupTarget(name);
  EXPECT_TRUE(t) << name;
  return *t;
}

TEST(TensorCoreTilesTest, SharedMemoryBudgets) {
  // The opt-in maxima of the CUDA programming guide.
  EXPECT_EQ(maxSharedMemoryPerBlock(target("a100")), 163 * 1024);
  EXPECT_EQ(maxSharedMemoryPerBlock(target("h200")), 227 * 1024);
  EXPECT_EQ(maxSharedMemoryPerBlock(target("t4")), 64 * 1024);
  EXPECT_EQ(maxSharedMemoryPerBlock(target("v100")), 96 * 1024);
  // Two blocks per SM, never below the static 48 KiB.
  EXPECT_EQ(tensorCoreSharedMemoryLimit(target("a100")), 81 * 1024);
  EXPECT_EQ(tensorCoreSharedMemoryLimit(target("h100")), 113 * 1024);
  EXPECT_EQ(tensorCoreSharedMemoryLimit(target("t4")), 48 * 1024);
  EXPECT_EQ(tensorCoreSharedMemoryLimit(target("v100")), 48 * 1024);
  EXPECT_EQ(tensorCoreSharedMemoryLimit(target("host")), 48 * 1024);
}

TEST(TensorCoreTilesTest, SharedBytesFollowTheLayoutOfB) {
  MatmulTileConfig config;
  config.blockM = 128;
  config.blockN = 64;
  config.blockK = 32;
  config.sharedPad = 8;
  config.stages = 3;
  // A: 128 x (32 + 8); B as K x N: 32 x (64 + 8); f16.
  EXPECT_EQ(config.sharedBytes(2), (128 * 40 + 32 * 72) * 2);
  // B as N x K (FHWC filters, INT8): 64 x (32 + 8).
  config.stagesBAsNK = true;
  EXPECT_EQ(config.sharedBytes(2), (128 * 40 + 64 * 40) * 2);
  EXPECT_EQ(config.sharedBytesAllStages(2), 3 * (128 * 40 + 64 * 40) * 2);
  EXPECT_FALSE(config.needsDynamicSharedMemory(2));
  config.blockN = 128;
  config.stagesBAsNK = false;
  EXPECT_TRUE(config.needsDynamicSharedMemory(2)); // 3 x 18944 B
}

TEST(TensorCoreTilesTest, LargeGemmTakesDynamicSharedMemoryWhereItFits) {
  // A BERT FFN GEMM, FP16: 128x128 blocks fill every chip.
  MatmulTileProblem ffn{/*m=*/1024, /*n=*/3072, /*k=*/768, /*elementBytes=*/2};
  std::optional<MatmulTileConfig> a100 = selectMatmulTiles(target("a100"), ffn);
  ASSERT_TRUE(a100);
  EXPECT_EQ(a100->blockM, 128);
  EXPECT_EQ(a100->blockN, 128);
  EXPECT_EQ(a100->blockK, 32);
  EXPECT_EQ(a100->stages, 3);
  EXPECT_EQ(a100->sharedBytesAllStages(2), 3 * 18944);
  EXPECT_TRUE(a100->needsDynamicSharedMemory(2));
  // T4: 48 KiB, and at most two stages without cp.async: BK = 32 fits.
  std::optional<MatmulTileConfig> t4 = selectMatmulTiles(target("t4"), ffn);
  ASSERT_TRUE(t4);
  EXPECT_EQ(t4->blockM, 128);
  EXPECT_EQ(t4->blockN, 128);
  EXPECT_EQ(t4->blockK, 32);
  EXPECT_EQ(t4->stages, 2);
  EXPECT_FALSE(t4->needsDynamicSharedMemory(2));
}

TEST(TensorCoreTilesTest, TensorCoreInstructionsFollowTheChip) {
  // sm_80 and later, and the host's emulation: cp.async and every type
  // (FP8 from sm_89 on: l4, h100, h200 and the host).
  for (const char *name : {"a100", "l4", "h100", "h200", "host"}) {
    std::optional<TensorCoreISA> isa = getTensorCoreISA(target(name));
    ASSERT_TRUE(isa) << name;
    EXPECT_TRUE(isa->asyncCopies) << name;
    EXPECT_EQ(isa->fragmentK(2), 16) << name;
    EXPECT_EQ(isa->fragmentK(4), 8) << name;
    EXPECT_EQ(isa->fragmentK(1), 32) << name;
    EXPECT_EQ(isa->maxStages(), 3) << name;
    EXPECT_TRUE(isa->bf16 && isa->tf32 && isa->int8) << name;
    EXPECT_TRUE(isa->int8M16N8K32) << name;
    EXPECT_EQ(isa->fp8, std::string(name) != "a100") << name;
  }
  mlir::MLIRContext context;
  mlir::Type e4m3 = mlir::Float8E4M3FNType::get(&context);
  mlir::Type e5m2 = mlir::Float8E5M2Type::get(&context);
  mlir::Type e4m3fnuz = mlir::Float8E4M3FNUZType::get(&context);
  EXPECT_TRUE(getTensorCoreISA(target("h100"))->takesOperandType(e4m3));
  EXPECT_TRUE(getTensorCoreISA(target("l4"))->takesOperandType(e5m2));
  EXPECT_FALSE(getTensorCoreISA(target("a100"))->takesOperandType(e4m3));
  // mma.sync has no E4M3FNUZ (AMD's FP8).
  EXPECT_FALSE(getTensorCoreISA(target("h100"))->takesOperandType(e4m3fnuz));
  // Turing: FP16 as m16n8k8, INT8 as m8n8k16, synchronous copies, two
  // stages.
  std::optional<TensorCoreISA> t4 = getTensorCoreISA(target("t4"));
  ASSERT_TRUE(t4);
  EXPECT_FALSE(t4->asyncCopies);
  EXPECT_EQ(t4->fragmentK(2), 8);
  EXPECT_EQ(t4->maxStages(), 2);
  EXPECT_FALSE(t4->bf16 || t4->tf32);
  EXPECT_TRUE(t4->int8);
  EXPECT_FALSE(t4->int8M16N8K32);
  EXPECT_EQ(t4->fragmentK(1), 32);
  EXPECT_FALSE(t4->fp8);
  // Volta's m8n8k4 is not a fragment the kernel uses.
  EXPECT_FALSE(getTensorCoreISA(target("v100")));
  EXPECT_EQ(computeCapability("sm_75"), 75);
  EXPECT_EQ(computeCapability("x86-64"), 0);
}

TEST(TensorCoreTilesTest, BatchesCountInTheGrid) {
  // Attention's scores, 8 x 12 heads of 128 x 128 x 64 (f16): one GEMM
  // alone fills an A100 (108 SMs) only with 16 x 8 blocks; the 96 of them
  // together do with 128 x 64.
  MatmulTileProblem scores{/*m=*/128, /*n=*/128, /*k=*/64, /*elementBytes=*/2};
  std::optional<MatmulTileConfig> one = selectMatmulTiles(target("a100"), scores);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->blockM * one->blockN, 16 * 8);
  scores.batch = 96;
  std::optional<MatmulTileConfig> all = selectMatmulTiles(target("a100"), scores);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->blockM, 128);
  EXPECT_EQ(all->blockN, 64);
}

TEST(TensorCoreTilesTest, WholeRowsCoverTheRowsInOneBlock) {
  // The same scores with their softmax in the epilogue (rule 9): 128 wide
  // blocks, whose f32 row tile (64 x 130 x 4 B and the partials) reuses the
  // stages' bytes.
  MatmulTileProblem scores{/*m=*/128, /*n=*/128, /*k=*/64, /*elementBytes=*/2};
  scores.batch = 96;
  scores.wholeRows = true;
  for (const char *name : {"t4", "a100", "h200"}) {
    std::optional<MatmulTileConfig> rows =
        selectMatmulTiles(target(name), scores);
    ASSERT_TRUE(rows) << name;
    EXPECT_TRUE(rows->wholeRows) << name;
    EXPECT_EQ(rows->blockN, 128) << name;
    EXPECT_EQ(rows->rowTileBytes(),
              (rows->blockM * 130 + 2 * rows->blockM * rows->rowParts()) * 4)
        << name;
    EXPECT_LE(rows->kernelSharedBytes(2),
              tensorCoreSharedMemoryLimit(target(name)))
        << name;
  }
  std::optional<MatmulTileConfig> a100 =
      selectMatmulTiles(target("a100"), scores);
  EXPECT_EQ(a100->blockM, 64);
  // 4 warps: two threads per row, a partial maximum and sum each.
  EXPECT_EQ(a100->rowParts(), 2);
  EXPECT_EQ(a100->kernelSharedBytes(2), (64 * 130 + 2 * 128) * 4);
  EXPECT_FALSE(a100->needsDynamicSharedMemory(2));
  // Rows of 16 (bert_tiny): 16-wide blocks.
  MatmulTileProblem tiny{/*m=*/16, /*n=*/16, /*k=*/8, /*elementBytes=*/2};
  tiny.batch = 4;
  tiny.wholeRows = true;
  std::optional<MatmulTileConfig> small =
      selectMatmulTiles(target("a100"), tiny);
  ASSERT_TRUE(small);
  EXPECT_EQ(small->blockN, 16);
  // ViT-B/16's 197 tokens (12 heads x batch 8): 256-wide blocks.
  MatmulTileProblem vit{/*m=*/197, /*n=*/197, /*k=*/64, /*elementBytes=*/2};
  vit.batch = 96;
  vit.wholeRows = vit.raggedM = vit.raggedN = vit.anyN = true;
  std::optional<MatmulTileConfig> wide = selectMatmulTiles(target("a100"), vit);
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->blockN, 256);
  EXPECT_LE(wide->kernelSharedBytes(2),
            tensorCoreSharedMemoryLimit(target("a100")));
  // Rows of 100 (ragged: no tile within an eighth) keep 128-wide blocks.
  MatmulTileProblem hundred{/*m=*/4096, /*n=*/100, /*k=*/64,
                            /*elementBytes=*/2};
  hundred.wholeRows = hundred.raggedM = hundred.raggedN = hundred.anyN = true;
  std::optional<MatmulTileConfig> narrow =
      selectMatmulTiles(target("a100"), hundred);
  ASSERT_TRUE(narrow);
  EXPECT_EQ(narrow->blockN, 128);
  // No block is 512 wide: the softmax stays apart.
  scores.n = 512;
  EXPECT_FALSE(selectMatmulTiles(target("a100"), scores));
}

TEST(TensorCoreTilesTest, StagesAlwaysFitTheBudget) {
  for (const char *name : {"t4", "a100", "h200"}) {
    TargetDescription t = target(name);
    for (int64_t elementBytes : {1, 2, 4})
      for (bool nk : {false, true})
        for (int64_t mnk : {128, 512, 2048, 8192}) {
          MatmulTileProblem problem{mnk, mnk, mnk, elementBytes, nk};
          std::optional<MatmulTileConfig> config =
              selectMatmulTiles(t, problem);
          ASSERT_TRUE(config) << name << " " << mnk;
          EXPECT_EQ(config->stagesBAsNK, nk);
          EXPECT_LE(config->sharedBytesAllStages(elementBytes),
                    tensorCoreSharedMemoryLimit(t))
              << name << " " << mnk << " " << config->str();
          EXPECT_LE(config->stages, getTensorCoreISA(t)->maxStages());
        }
  }
}

TEST(TensorCoreTilesTest, ShapesWithoutFragmentsKeepTheGenericPath) {
  TargetDescription a100 = target("a100");
  EXPECT_FALSE(selectMatmulTiles(a100, {100, 64, 64, 2}));
  EXPECT_TRUE(selectMatmulTiles(a100, {100, 64, 64, 2, false,
                                       /*raggedM=*/true}));
  // K must be whole 16-byte copies: 8 FP16, 4 TF32, 16 INT8 elements.
  EXPECT_FALSE(selectMatmulTiles(a100, {64, 64, 36, 2}));
  EXPECT_FALSE(selectMatmulTiles(a100, {64, 64, 10, 4}));
  EXPECT_FALSE(selectMatmulTiles(a100, {64, 64, 40, 1}));
  EXPECT_FALSE(selectMatmulTiles(a100, {64, 12, 64, 2}));
  // N a multiple of 8 is not enough for a ragged N unless the problem
  // allows one: 1000 only divides into 8-wide blocks.
  std::optional<MatmulTileConfig> exact =
      selectMatmulTiles(a100, {64, 1000, 2048, 2});
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->blockN, 8);
}

TEST(TensorCoreTilesTest, RaggedKTakesTheBlockKThatPadsLess) {
  TargetDescription a100 = target("a100");
  // K = 72 (C = 8, 3x3): 5 steps of 16 (80) rather than 3 of 32 (96).
  std::optional<MatmulTileConfig> conv =
      selectMatmulTiles(a100, {8192, 128, 72, 2});
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->blockK, 16);
  EXPECT_EQ(conv->stages, 3);
  // K = 56: 32 and 16 both pad to 64; 32 wins the tie (fewer barriers).
  std::optional<MatmulTileConfig> tie =
      selectMatmulTiles(a100, {8192, 128, 56, 2});
  ASSERT_TRUE(tie);
  EXPECT_EQ(tie->blockK, 32);
  EXPECT_EQ(tie->stages, 2); // ceil(56 / 32) steps
  // K = 8 (a head dimension of 8): one step of 16, half zeros.
  std::optional<MatmulTileConfig> head =
      selectMatmulTiles(a100, {128, 128, 8, 2});
  ASSERT_TRUE(head);
  EXPECT_EQ(head->blockK, 16);
  EXPECT_EQ(head->stages, 1);
  // INT8 K = 48: BK stays one m16n8k32 fragment's 32.
  std::optional<MatmulTileConfig> int8 =
      selectMatmulTiles(a100, {512, 256, 48, 1, /*stagesBAsNK=*/true});
  ASSERT_TRUE(int8);
  EXPECT_EQ(int8->blockK, 32);
  EXPECT_EQ(selectStages(*int8, 48, 1, 1 << 20), 2);
}

TEST(TensorCoreTilesTest, NearlyExactTilesCompeteWithExactOnes) {
  TargetDescription a100 = target("a100");
  // ResNet-50's classifier at batch 64: with a ragged N, 32x16 blocks
  // (63 columns, the last half full: 0.8% padding) fill the 108 SMs.
  MatmulTileProblem fc{/*m=*/64, /*n=*/1000, /*k=*/2048, /*elementBytes=*/2};
  fc.raggedN = true;
  std::optional<MatmulTileConfig> config = selectMatmulTiles(a100, fc);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 32);
  EXPECT_EQ(config->blockN, 16);
  // 1000 in blocks of 128 pads by 24 of 1024: a candidate; M = 64 in
  // blocks of 128 pads by half: not one while any tile passes.
  fc.m = 8192;
  config = selectMatmulTiles(a100, fc);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 128);
  EXPECT_EQ(config->blockN, 128);
  // ResNet-50's downsample, M = 784 = 16 x 49: 64x32 blocks (13 rows, the
  // last a quarter full: 6% of the grid) instead of the exact 16x32.
  MatmulTileProblem down{/*m=*/784, /*n=*/512, /*k=*/256, /*elementBytes=*/2};
  down.raggedM = true;
  config = selectMatmulTiles(a100, down);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 64);
  EXPECT_EQ(config->blockN, 32);
  down.raggedM = false;
  config = selectMatmulTiles(a100, down);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 16);
  // M = 8: every block is at least half empty, so every tile competes
  // (the one with the most blocks wins).
  MatmulTileProblem tiny{/*m=*/8, /*n=*/64, /*k=*/64, /*elementBytes=*/2};
  tiny.raggedM = true;
  config = selectMatmulTiles(a100, tiny);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 16);
  EXPECT_EQ(config->blockN, 8);
}

TEST(TensorCoreTilesTest, ElementCopiesTakeAnyKAndN) {
  TargetDescription a100 = target("a100");
  // ViT attention over 17 tokens: P V has K = 17, the scores N = 17.
  MatmulTileProblem scores{/*m=*/17, /*n=*/17, /*k=*/8, /*elementBytes=*/2};
  scores.raggedM = scores.raggedN = true;
  scores.batch = 4;
  EXPECT_FALSE(selectMatmulTiles(a100, scores)) << "N = 17 needs anyN";
  scores.anyN = true;
  std::optional<MatmulTileConfig> config = selectMatmulTiles(a100, scores);
  ASSERT_TRUE(config);
  // Every tile covers 17 x 17 in few blocks: the least padding among the
  // ones with the most blocks (16x8: 2 x 3 blocks per head).
  EXPECT_EQ(config->blockM, 16);
  EXPECT_EQ(config->blockN, 8);
  MatmulTileProblem context{/*m=*/17, /*n=*/8, /*k=*/17, /*elementBytes=*/2};
  context.raggedM = true;
  EXPECT_FALSE(selectMatmulTiles(a100, context)) << "K = 17 needs anyK";
  context.anyK = true;
  config = selectMatmulTiles(a100, context);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockK, 32); // one step pads K = 17 least (32 vs 32)
  EXPECT_EQ(config->stages, 1);
  // anyN only with a ragged N (the stores past N are what is guarded).
  MatmulTileProblem head{/*m=*/1, /*n=*/10, /*k=*/32, /*elementBytes=*/2};
  head.raggedM = true;
  head.anyN = true;
  EXPECT_FALSE(selectMatmulTiles(a100, head));
  head.raggedN = true;
  config = selectMatmulTiles(a100, head);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 16);
  EXPECT_EQ(config->blockN, 8);
  // A tiny TF32 GEMM (16 x 5): the smallest tile, not the first of the
  // equally many (one) blocks.
  MatmulTileProblem tf32{/*m=*/16, /*n=*/5, /*k=*/6, /*elementBytes=*/4};
  tf32.raggedM = tf32.raggedN = tf32.anyN = tf32.anyK = true;
  config = selectMatmulTiles(a100, tf32);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 16);
  EXPECT_EQ(config->blockN, 8);
}

TEST(TensorCoreTilesTest, WarpgroupTilesAreWholeRowsOfOneWarpgroup) {
  TargetDescription h100 = target("h100");
  // A BERT FFN GEMM: 128x128 blocks fill the chip; BK = one 128-byte row;
  // 3 stages of 32 KiB (and the 1 KiB alignment slack) in the two-blocks
  // budget of 113 KiB, 4 would not fit.
  MatmulTileProblem ffn{/*m=*/1024, /*n=*/3072, /*k=*/768, /*elementBytes=*/2};
  std::optional<MatmulTileConfig> config = selectWarpgroupTiles(h100, ffn);
  ASSERT_TRUE(config);
  EXPECT_TRUE(config->warpgroup);
  EXPECT_EQ(config->blockM, 128);
  EXPECT_EQ(config->blockN, 128);
  EXPECT_EQ(config->blockK, 64);
  EXPECT_EQ(config->sharedPad, 0);
  EXPECT_EQ(config->numWarps(), 4);
  EXPECT_EQ(config->stages, 3);
  EXPECT_EQ(config->sharedBytes(2), 2 * 128 * 64 * 2);
  // The row tile (128 x 132 f32) is smaller than the stages.
  EXPECT_EQ(config->kernelSharedBytes(2), 3 * 32768 + 1024);
  // Forced: two stages, where the row tile is the larger.
  config = selectWarpgroupTiles(h100, ffn, /*stages=*/2);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->stages, 2);
  EXPECT_EQ(config->kernelSharedBytes(2), 128 * 132 * 4 + 1024);
  // Few blocks: the tile with the most (64x64), and no more stages than
  // K steps.
  MatmulTileProblem small{/*m=*/256, /*n=*/256, /*k=*/128, /*elementBytes=*/2};
  config = selectWarpgroupTiles(h100, small);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 64);
  EXPECT_EQ(config->blockN, 64);
  EXPECT_EQ(config->stages, 2);
  // B staged N x K (read K-major): the same blocks, B as BN rows of BK.
  MatmulTileProblem nk = ffn;
  nk.stagesBAsNK = true;
  config = selectWarpgroupTiles(h100, nk);
  ASSERT_TRUE(config);
  EXPECT_TRUE(config->stagesBAsNK);
  EXPECT_EQ(config->blockM, 128);
  EXPECT_EQ(config->blockN, 128);
  EXPECT_EQ(config->stages, 3);
  // FP8 (B always N x K): BK = 128, one 128-byte row; the same bytes per
  // stage as FP16's. N need not be whole chunks (B's rows run along K).
  MatmulTileProblem fp8 = nk;
  fp8.elementBytes = 1;
  fp8.n = 3000;
  fp8.raggedN = true;
  config = selectWarpgroupTiles(h100, fp8);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockK, 128);
  EXPECT_EQ(config->sharedBytes(1), 2 * 128 * 128);
  EXPECT_EQ(config->stages, 3);
  // What the warpgroup kernel does not run: an 8-bit or TF32 B staged
  // K x N (wgmma reads them K-major only), a K x N B whose rows are not
  // whole 16-byte chunks and are not copied element by element, a ragged
  // M where C is read.
  MatmulTileProblem byteKN = ffn;
  byteKN.elementBytes = 1;
  EXPECT_FALSE(selectWarpgroupTiles(h100, byteKN));
  MatmulTileProblem tf32 = ffn;
  tf32.elementBytes = 4;
  EXPECT_FALSE(selectWarpgroupTiles(h100, tf32));
  // TF32 with B staged N x K: BK = 32, the same bytes per stage.
  tf32.stagesBAsNK = true;
  config = selectWarpgroupTiles(h100, tf32);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockK, 32);
  EXPECT_EQ(config->sharedBytes(4), 2 * 128 * 32 * 4);
  MatmulTileProblem oddN = ffn;
  oddN.n = 3000 + 4;
  oddN.raggedN = true;
  EXPECT_FALSE(selectWarpgroupTiles(h100, oddN));
  // ... unless they are copied element by element (a 10-class head).
  oddN.anyN = true;
  EXPECT_TRUE(selectWarpgroupTiles(h100, oddN));
  // Any K (the operands along K copied element by element: P V over 17
  // tokens): the same tiles, the last K step partly zeros.
  MatmulTileProblem anyK = ffn;
  anyK.k = 17;
  anyK.anyK = true;
  config = selectWarpgroupTiles(h100, anyK);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockK, 64);
  EXPECT_EQ(config->stages, 1);
  anyK.anyK = false;
  EXPECT_FALSE(selectWarpgroupTiles(h100, anyK));
  // A softmax over rows wider than the widest block (256) keeps mma.sync.
  MatmulTileProblem rows = ffn;
  rows.wholeRows = true;
  EXPECT_FALSE(selectWarpgroupTiles(h100, rows));
  // BERT-base's scores (12 heads x 8 sequences of 128 keys): blocks that
  // cover the 128 keys, 64 rows (192 blocks fill the chip); the row tile
  // (64 x 130 f32) and its 2 parts' partials fit under the stages.
  MatmulTileProblem scores{/*m=*/128, /*n=*/128, /*k=*/64, /*elementBytes=*/2,
                           /*stagesBAsNK=*/true};
  scores.batch = 96;
  scores.wholeRows = true;
  config = selectWarpgroupTiles(h100, scores);
  ASSERT_TRUE(config);
  EXPECT_TRUE(config->wholeRows);
  EXPECT_EQ(config->blockM, 64);
  EXPECT_EQ(config->blockN, 128);
  EXPECT_EQ(config->rowParts(), 2);
  EXPECT_EQ(config->rowTileBytes(), (64 * 130 + 2 * 64 * 2) * 4);
  // Sequence 256 (and ViT-B's 197 keys, a ragged N): 64x256 blocks, the
  // only ones that cover the rows; one K step of 40 KiB (head dimension
  // 64), the row tile (64 x 258 f32 and the partials) over it.
  for (int64_t keys : {256, 197}) {
    MatmulTileProblem wide = scores;
    wide.m = wide.n = keys;
    wide.raggedM = wide.raggedN = keys % 64 != 0;
    config = selectWarpgroupTiles(h100, wide);
    ASSERT_TRUE(config) << keys;
    EXPECT_EQ(config->blockM, 64);
    EXPECT_EQ(config->blockN, 256);
    EXPECT_EQ(config->stages, 1);
    EXPECT_EQ(config->sharedBytes(2), (64 + 256) * 64 * 2);
    EXPECT_EQ(config->rowTileBytes(), (64 * 258 + 2 * 64 * 2) * 4);
    EXPECT_EQ(config->kernelSharedBytes(2), config->rowTileBytes() + 1024);
  }
  // Without a softmax no block is 256 wide.
  MatmulTileProblem plain = scores;
  plain.n = 256;
  plain.wholeRows = false;
  config = selectWarpgroupTiles(h100, plain);
  ASSERT_TRUE(config);
  EXPECT_LE(config->blockN, 128);
  MatmulTileProblem ragged{/*m=*/200, /*n=*/136, /*k=*/200, /*elementBytes=*/2};
  EXPECT_FALSE(selectWarpgroupTiles(h100, ragged));
  ragged.raggedM = ragged.raggedN = true;
  config = selectWarpgroupTiles(h100, ragged);
  ASSERT_TRUE(config);
  EXPECT_EQ(config->blockM, 64);
  EXPECT_EQ(config->blockN, 64);
}
} // namespace
