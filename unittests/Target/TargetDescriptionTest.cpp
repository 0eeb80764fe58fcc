//===- TargetDescriptionTest.cpp - Unit tests of the target table ---------===//
//
// Checks the built-in target entries and the JSON target-file parser,
// including its error messages.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TargetDescription.h"

#include <gtest/gtest.h>

using namespace mlir::opsnn;

namespace {
TEST(TargetDescriptionTest, BuiltinsAreComplete) {
  for (const char *name :
       {"t4", "v100", "a100", "l4", "h100", "h200", "host"}) {
    std::optional<TargetDescription> target = lookupTarget(name);
    ASSERT_TRUE(target) << name;
    EXPECT_GT(target->dramBandwidthGBps, 0) << name;
    EXPECT_GT(target->peakFp32Tflops, 0) << name;
    EXPECT_GT(target->l2CacheBytes, 0) << name;
    EXPECT_GT(target->smCount, 0) << name;
    EXPECT_GT(target->sharedMemoryPerSMBytes, 0) << name;
  }
  std::optional<TargetDescription> a100 = lookupTarget("a100");
  EXPECT_EQ(a100->chip, "sm_80");
  EXPECT_EQ(a100->sectorBytes, 32);
  EXPECT_DOUBLE_EQ(a100->peakFp16Tflops, 312);
  EXPECT_EQ(lookupTarget("host")->kind, TargetDescription::Kind::CPU);
  EXPECT_FALSE(lookupTarget("a1000"));
}

TEST(TargetDescriptionTest, FileEntryStartsFromBase) {
  auto targets = parseTargetFile(R"({"targets": [
      {"name": "a100-80g", "base": "a100", "dram_bandwidth_gbps": 2039},
      {"name": "my-cpu", "kind": "cpu", "dram_bandwidth_gbps": 50,
       "peak_fp32_tflops": 1.5, "cache_line_bytes": 64}]})");
  ASSERT_TRUE(static_cast<bool>(targets)) << llvm::toString(targets.takeError());
  ASSERT_EQ(targets->size(), 2u);
  const TargetDescription &big = (*targets)[0];
  EXPECT_EQ(big.name, "a100-80g");
  EXPECT_DOUBLE_EQ(big.dramBandwidthGBps, 2039);
  EXPECT_DOUBLE_EQ(big.peakFp16Tflops, 312); // inherited from a100
  EXPECT_EQ((*targets)[1].kind, TargetDescription::Kind::CPU);
  EXPECT_EQ((*targets)[1].cacheLineBytes, 64);
}

TEST(TargetDescriptionTest, ErrorsNameTheField) {
  struct Case {
    const char *json;
    const char *message;
  } cases[] = {
      {"{\"targets\": [", "1:13: Unexpected EOF"},
      {"[]", "(root): expected an object"},
      {R"({"targets": [], "extra": 1})", "(root).extra: unknown field"},
      {R"({"targets": [{"base": "a100"}]})",
       "targets[0]: missing string field \"name\""},
      {R"({"targets": [{"name": "x", "base": "a1000"}]})",
       "targets[0].base: unknown target \"a1000\""},
      {R"({"targets": [{"name": "x", "base": "a100", "sm_count": -1}]})",
       "targets[0].sm_count: expected a positive integer"},
      {R"({"targets": [{"name": "x", "base": "a100", "bogus": 1}]})",
       "targets[0].bogus: unknown field"},
      {R"({"targets": [{"name": "x", "kind": "gpu"}]})",
       "needs \"dram_bandwidth_gbps\""},
  };
  for (const Case &c : cases) {
    auto targets = parseTargetFile(c.json);
    ASSERT_FALSE(static_cast<bool>(targets)) << c.json;
    std::string message = llvm::toString(targets.takeError());
    EXPECT_NE(message.find(c.message), std::string::npos)
        << c.json << ": got \"" << message << "\"";
  }
}
} // namespace
