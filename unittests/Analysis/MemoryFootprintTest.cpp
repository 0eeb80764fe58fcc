//===- MemoryFootprintTest.cpp - Hand-computed weight and peak bytes ------===//
//
// Each expected figure is worked out by hand from the buffer rules of
// opsnn/Analysis/MemoryFootprint.h: the buffers, the ops they live across,
// and the largest sum of live bytes.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/MemoryFootprint.h"

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::opsnn;

namespace {
class MemoryFootprintTest : public ::testing::Test {
protected:
  MemoryFootprintTest() {
    DialectRegistry registry;
    registry
        .insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                tensor::TensorDialect, precision::PrecisionDialect>();
    context.appendDialectRegistry(registry);
  }

  /// The footprint of the only function in `source`.
  MemoryFootprint footprintOf(StringRef source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    if (!module)
      return {};
    auto funcs = module->getOps<func::FuncOp>();
    EXPECT_FALSE(funcs.empty());
    return computeMemoryFootprint(*funcs.begin());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(MemoryFootprintTest, TwoLayerPerceptronInFP32) {
  MemoryFootprint memory = footprintOf(R"mlir(
    func.func @mlp(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
      %w1 = arith.constant dense<0.5> : tensor<8x16xf32>
      %w2 = arith.constant dense<0.25> : tensor<16x2xf32>
      %z = arith.constant 0.0 : f32
      %e1 = tensor.empty() : tensor<4x16xf32>
      %f1 = linalg.fill ins(%z : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
      %h = linalg.matmul ins(%x, %w1 : tensor<4x8xf32>, tensor<8x16xf32>)
                         outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
      %e2 = tensor.empty() : tensor<4x2xf32>
      %f2 = linalg.fill ins(%z : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
      %y = linalg.matmul ins(%h, %w2 : tensor<4x16xf32>, tensor<16x2xf32>)
                         outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
      return %y : tensor<4x2xf32>
    })mlir");
  // Weights: 8*16*4 + 16*2*4 = 512 + 128 = 640 B (the scalar 0.0 is no
  // tensor).
  EXPECT_EQ(memory.weightBytes, 640);
  EXPECT_EQ(memory.weightBytesFP32, 640);
  // Buffers: %x 128 B until the first matmul; %e1 256 B, filled and
  // multiplied into in place, until the second matmul; %e2 32 B until the
  // return. At the first matmul %x and %e1 are live: 384 B; later
  // 256 + 32 = 288 B.
  EXPECT_EQ(memory.peakActivationBytes, 384);
  EXPECT_EQ(memory.peakActivationBytesFP32, 384);
  EXPECT_FALSE(memory.dynamic);
  EXPECT_DOUBLE_EQ(memory.getSavedFraction(), 0.0);
}

TEST_F(MemoryFootprintTest, MixedPrecisionCountsCastsAndNarrowWeights) {
  MemoryFootprint memory = footprintOf(R"mlir(
    func.func @mixed(%x: tensor<4x8xf32>) -> tensor<4x16xf16> {
      %w = arith.constant dense<0.5> : tensor<8x16xf16>
      %z = arith.constant 0.0 : f32
      %x16 = precision.cast %x : tensor<4x8xf32> to tensor<4x8xf16>
      %e = tensor.empty() : tensor<4x16xf32>
      %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
      %y = linalg.matmul ins(%x16, %w : tensor<4x8xf16>, tensor<8x16xf16>)
                         outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
      %y16 = precision.cast %y : tensor<4x16xf32> to tensor<4x16xf16>
      return %y16 : tensor<4x16xf16>
    })mlir");
  // Weights: 8*16*2 = 256 B; as FP32 512 B.
  EXPECT_EQ(memory.weightBytes, 256);
  EXPECT_EQ(memory.weightBytesFP32, 512);
  // As stored: %x 128 B until the first cast, %x16 64 B until the matmul,
  // %e 256 B until the second cast, %y16 128 B until the return. Live sums:
  // 192 at the first cast, 64 + 256 = 320 at the matmul, 256 + 128 = 384
  // at the second cast.
  EXPECT_EQ(memory.peakActivationBytes, 384);
  // As FP32 the casts are no-ops: %x (with %x16) 128 B until the matmul,
  // %e (with %y16) 256 B until the return: 384 B at the matmul.
  EXPECT_EQ(memory.peakActivationBytesFP32, 384);
  // 1 - (256 + 384) / (512 + 384) = 1 - 640 / 896.
  EXPECT_DOUBLE_EQ(memory.getSavedFraction(), 1.0 - 640.0 / 896.0);
}

TEST_F(MemoryFootprintTest, InitReadLaterIsNotOverwritten) {
  MemoryFootprint memory = footprintOf(R"mlir(
    func.func @reuse(%x: tensor<16xf32>, %o: tensor<16xf32>)
        -> (tensor<16xf32>, tensor<16xf32>) {
      %a = linalg.exp ins(%x : tensor<16xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
      %b = linalg.exp ins(%a : tensor<16xf32>) outs(%o : tensor<16xf32>) -> tensor<16xf32>
      return %a, %b : tensor<16xf32>, tensor<16xf32>
    })mlir");
  // %o is read again by the second exp, so the first one writes a new
  // 64 B buffer; the second writes into %o in place. At the first exp %x,
  // %o and %a are live: 3 * 64 = 192 B.
  EXPECT_EQ(memory.weightBytes, 0);
  EXPECT_EQ(memory.peakActivationBytes, 192);
  EXPECT_EQ(memory.peakActivationBytesFP32, 192);
}

TEST_F(MemoryFootprintTest, WeightArgumentsViewsAndDynamicSizes) {
  MemoryFootprint memory = footprintOf(R"mlir(
    func.func @views(%x: tensor<16xf32>, %w: tensor<2x8xbf16> {opsnn.weight},
                     %d: tensor<?x4xf32>) -> (tensor<2x8xf32>, tensor<16xbf16>,
                                             tensor<?x4xf32>) {
      %v = tensor.expand_shape %x [[0, 1]] output_shape [2, 8]
          : tensor<16xf32> into tensor<2x8xf32>
      %wv = tensor.collapse_shape %w [[0, 1]] : tensor<2x8xbf16> into tensor<16xbf16>
      return %v, %wv, %d : tensor<2x8xf32>, tensor<16xbf16>, tensor<?x4xf32>
    })mlir");
  // The marked argument is a weight: 2*8*2 = 32 B, 64 B as FP32; its view
  // adds nothing.
  EXPECT_EQ(memory.weightBytes, 32);
  EXPECT_EQ(memory.weightBytesFP32, 64);
  // %x (with its view %v) 64 B and %d counted as 1x4: 16 B, both live
  // throughout.
  EXPECT_EQ(memory.peakActivationBytes, 80);
  EXPECT_EQ(memory.peakActivationBytesFP32, 80);
  EXPECT_TRUE(memory.dynamic);
}
} // namespace
