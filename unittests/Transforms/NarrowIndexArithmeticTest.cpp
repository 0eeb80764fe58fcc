//===- NarrowIndexArithmeticTest.cpp - Affine index math in 32 bits -------===//
//
// Which marked affine.apply ops narrowMarkedIndexArithmetic rewrites as i32
// arith ops (non-negative dividends, every subexpression an i32) and which
// it leaves, unmarked: a floordiv of a value that may be negative, a
// product past i32.
//
//===----------------------------------------------------------------------===//

#include "../../lib/Transforms/NarrowIndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::opsnn;

namespace {
class NarrowIndexArithmeticTest : public ::testing::Test {
protected:
  NarrowIndexArithmeticTest() {
    context.loadDialect<affine::AffineDialect, arith::ArithDialect,
                        func::FuncDialect>();
  }

  /// Parses `func.func @f(%a: index, %b: index) -> index` returning
  /// affine.apply `map` of (%a, %b), marks the apply with `bounds`, narrows,
  /// and returns the function's printed body (how many rewrote in
  /// `narrowed`).
  std::string narrow(StringRef map, ArrayRef<int64_t> bounds,
                     int64_t &narrowed) {
    std::string source = ("func.func @f(%a: index, %b: index) -> index {\n"
                          "  %0 = affine.apply affine_map<" +
                          map +
                          ">()[%a, %b]\n"
                          "  return %0 : index\n"
                          "}\n")
                             .str();
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    module->walk(
        [&](affine::AffineApplyOp apply) { markNarrowable(apply, bounds); });
    narrowed = narrowMarkedIndexArithmetic(*module);
    std::string text;
    llvm::raw_string_ostream os(text);
    module->print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(NarrowIndexArithmeticTest, Im2colTapIsUnsigned32Bit) {
  int64_t narrowed = 0;
  // The W index of a 7x7 stride-2 convolution of 3 channels: ow * 2 +
  // (k floordiv 3) mod 7 - 3, rows below 12544 (112 x 112), K below 160.
  std::string ir =
      narrow("()[s0, s1] -> ((s0 mod 112) * 2 + (s1 floordiv 3) mod 7 - 3)",
             {12544, 160}, narrowed);
  EXPECT_EQ(narrowed, 1);
  EXPECT_EQ(ir.find("affine.apply"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.remui"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.divui"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.divsi"), std::string::npos) << ir;
  // -3 .. 226: a signed extension back to index.
  EXPECT_NE(ir.find("arith.index_cast %"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("opsnn.operand_bounds"), std::string::npos) << ir;
}

TEST_F(NarrowIndexArithmeticTest, NonNegativeResultExtendsUnsigned) {
  int64_t narrowed = 0;
  std::string ir =
      narrow("()[s0, s1] -> (s0 floordiv 256 + s1)", {1024, 64}, narrowed);
  EXPECT_EQ(narrowed, 1);
  // index_castui back (nothing negative); index_castui in as always.
  EXPECT_NE(ir.find("arith.divui"), std::string::npos) << ir;
  EXPECT_NE(ir.find("arith.addi"), std::string::npos) << ir;
  EXPECT_NE(ir.find(": i32 to index"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("arith.index_cast %"), std::string::npos) << ir;
}

TEST_F(NarrowIndexArithmeticTest, MaybeNegativeDividendStaysAffine) {
  int64_t narrowed = 0;
  // s0 - 3 may be negative: floordiv is not divui there.
  std::string ir =
      narrow("()[s0, s1] -> ((s0 - 3) floordiv 2 + s1)", {224, 8}, narrowed);
  EXPECT_EQ(narrowed, 0);
  EXPECT_NE(ir.find("affine.apply"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("opsnn.operand_bounds"), std::string::npos) << ir;
}

TEST_F(NarrowIndexArithmeticTest, ProductPastI32StaysAffine) {
  int64_t narrowed = 0;
  // Up to (2^20 - 1) * 4096 > 2^31 - 1.
  std::string ir =
      narrow("()[s0, s1] -> (s0 * 4096 + s1)", {1 << 20, 8}, narrowed);
  EXPECT_EQ(narrowed, 0);
  EXPECT_NE(ir.find("affine.apply"), std::string::npos) << ir;
}

TEST_F(NarrowIndexArithmeticTest, UnknownBoundStaysAffine) {
  int64_t narrowed = 0;
  // A bound of 0: nothing known of the operand.
  std::string ir = narrow("()[s0, s1] -> (s0 mod 7 + s1)", {0, 8}, narrowed);
  EXPECT_EQ(narrowed, 0);
  EXPECT_NE(ir.find("affine.apply"), std::string::npos) << ir;
}
} // namespace
