//===- LayoutAttrTest.cpp - Unit tests of the layout attribute's C++ API --===//
//
// Checks the parsed form of layout strings (permutation, inner tiles) and the
// shape and index arithmetic that lowering and cost models build on.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::opsnn::layout;

namespace {
class LayoutAttrTest : public ::testing::Test {
protected:
  LayoutAttrTest() { context.loadDialect<LayoutDialect>(); }

  /// Parses `name`, returning the attribute or null with the diagnostic text
  /// in `lastError`.
  LayoutAttr parse(StringRef name) {
    lastError.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      lastError = diag.str();
      return success();
    });
    return LayoutAttr::getChecked(
        [&] { return emitError(UnknownLoc::get(&context)); }, &context, name);
  }

  MLIRContext context;
  std::string lastError;
};

constexpr int64_t kDyn = ShapedType::kDynamic;

TEST_F(LayoutAttrTest, IdentityLayouts) {
  for (StringRef name : {"NCHW", "NCDHW", "NC", "MK", "FCHW"}) {
    LayoutAttr layout = parse(name);
    ASSERT_TRUE(layout) << name.str() << ": " << lastError;
    EXPECT_TRUE(layout.isIdentity()) << name.str();
    EXPECT_FALSE(layout.isBlocked()) << name.str();
  }
}

TEST_F(LayoutAttrTest, ChannelsLastPermutation) {
  LayoutAttr nhwc = parse("NHWC");
  ASSERT_TRUE(nhwc);
  EXPECT_EQ(nhwc.getLogicalDims(), "NCHW");
  EXPECT_EQ(nhwc.getPermutation(), ArrayRef<int64_t>({0, 2, 3, 1}));
  EXPECT_FALSE(nhwc.isIdentity());
  EXPECT_EQ(nhwc.physicalShape({8, 3, 224, 112}),
            SmallVector<int64_t>({8, 224, 112, 3}));
  EXPECT_EQ(nhwc.logicalShape({8, 224, 112, 3}),
            SmallVector<int64_t>({8, 3, 224, 112}));

  LayoutAttr ndhwc = parse("NDHWC");
  ASSERT_TRUE(ndhwc);
  EXPECT_EQ(ndhwc.getPermutation(), ArrayRef<int64_t>({0, 2, 3, 4, 1}));

  LayoutAttr km = parse("KM");
  ASSERT_TRUE(km);
  EXPECT_EQ(km.getLogicalDims(), "MK");
  EXPECT_EQ(km.getPermutation(), ArrayRef<int64_t>({1, 0}));
}

TEST_F(LayoutAttrTest, BlockedLayouts) {
  LayoutAttr blocked = parse("NCHW32c");
  ASSERT_TRUE(blocked);
  EXPECT_TRUE(blocked.isBlocked());
  EXPECT_FALSE(blocked.isIdentity());
  EXPECT_EQ(blocked.getPhysicalRank(), 5);
  SmallVector<LayoutAttr::InnerTile> tiles = blocked.getInnerTiles();
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_EQ(tiles[0].dim, 1);
  EXPECT_EQ(tiles[0].size, 32);
  EXPECT_EQ(blocked.physicalShape({2, 64, 7, 7}),
            SmallVector<int64_t>({2, 2, 7, 7, 32}));
  // Static sizes round up as linalg.pack pads; dynamic stay dynamic.
  EXPECT_EQ(blocked.physicalShape({kDyn, 70, kDyn, 7}),
            SmallVector<int64_t>({kDyn, 3, kDyn, 7, 32}));
  EXPECT_EQ(blocked.logicalShape({2, 2, 7, 7, 32}),
            SmallVector<int64_t>({2, 64, 7, 7}));

  LayoutAttr nhwc8c = parse("NHWC8c");
  ASSERT_TRUE(nhwc8c);
  EXPECT_EQ(nhwc8c.getPermutation(), ArrayRef<int64_t>({0, 2, 3, 1}));
  EXPECT_EQ(nhwc8c.physicalShape({1, 16, 4, 5}),
            SmallVector<int64_t>({1, 4, 5, 2, 8}));
  EXPECT_EQ(nhwc8c.getTileSizeOf(1), 8);
  EXPECT_EQ(nhwc8c.getTileSizeOf(2), 1);
}

TEST_F(LayoutAttrTest, IndexMapsRoundTrip) {
  LayoutAttr layout = parse("NHWC8c");
  ASSERT_TRUE(layout);
  // Logical (n=1, c=13, h=2, w=3) sits in block 1, lane 5 of the channels.
  SmallVector<int64_t> logical = {1, 13, 2, 3};
  SmallVector<int64_t> physical(layout.getPhysicalRank());
  layout.logicalToPhysicalIndex(logical, physical);
  EXPECT_EQ(physical, SmallVector<int64_t>({1, 2, 3, 1, 5}));
  SmallVector<int64_t> back(layout.getLogicalRank());
  layout.physicalToLogicalIndex(physical, back);
  EXPECT_EQ(back, logical);
}

TEST_F(LayoutAttrTest, MalformedNamesAreDiagnosed) {
  struct Case {
    const char *name;
    const char *message;
  } cases[] = {
      {"", "expected upper-case dimension letters first"},
      {"nchw", "expected upper-case dimension letters first"},
      {"NCXW", "unknown dimension letter 'X'"},
      {"NCHC", "dimension 'C' appears twice"},
      {"NCHW0c", "expected a positive tile size"},
      {"NCHW8", "expected a lower-case dimension letter after tile size 8"},
      {"NCHW8k", "tile 'k' does not name an outer dimension"},
      {"NCHW8c4c", "dimension 'C' is tiled twice"},
  };
  for (const Case &c : cases) {
    EXPECT_FALSE(parse(c.name)) << c.name;
    EXPECT_NE(lastError.find(c.message), std::string::npos)
        << c.name << ": got \"" << lastError << "\"";
  }
}
} // namespace
