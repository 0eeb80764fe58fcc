//===- CostModelTest.cpp - Hand-computed roofline cases -------------------===//
//
// Every expected number below is worked out by hand from the A100 entry of
// the target table (1555 GB/s; 19.5 FP32, 156 TF32, 312 FP16/BF16 and 624
// INT8 tensor-core TFLOP/s) and the op's FLOPs and bytes.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/CostModel.h"


#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::opsnn;

namespace {
CostModel a100() { return CostModel(*lookupTarget("a100")); }

/// A GEMM fingerprint M x N x K with `elementBytes`-byte operands.
OpFingerprint gemm(int64_t m, int64_t n, int64_t k, double elementBytes) {
  OpFingerprint fp;
  fp.opClass = OpClass::Contraction;
  fp.roles = {DimRole::M, DimRole::N, DimRole::K};
  fp.sizes = {m, n, k};
  fp.flops = SymbolicCount::term(2.0 * m * n * k, {});
  fp.bytesRead =
      SymbolicCount::term(elementBytes * (m * k + k * n + m * n), {});
  fp.bytesWritten = SymbolicCount::term(elementBytes * m * n, {});
  return fp;
}

TEST(CostModelTest, SquareGemmIsComputeBoundOnTensorCores) {
  CostModel model = a100();
  OpFingerprint fp = gemm(4096, 4096, 4096, 2);
  ASSERT_TRUE(model.isTensorCoreEligible(fp, Precision::FP16));
  CostEstimate fp16 = model.estimateOp(fp, Precision::FP16);
  // 2 * 4096^3 = 137438953472 FLOPs / 312e12 = 440.51 us;
  // 4 * 4096^2 * 2 B = 134217728 B / 1555e9 = 86.31 us.
  EXPECT_NEAR(fp16.computeSeconds, 440.51e-6, 0.01e-6);
  EXPECT_NEAR(fp16.memorySeconds, 86.31e-6, 0.01e-6);
  EXPECT_TRUE(fp16.tensorCores);
  EXPECT_FALSE(fp16.isMemoryBound());
  EXPECT_DOUBLE_EQ(fp16.seconds(), fp16.computeSeconds);

  // FP32 runs on CUDA cores: 137438953472 / 19.5e12 = 7.0482 ms; TF32 on
  // tensor cores: / 156e12 = 881.02 us. Bytes double for 4-byte storage.
  CostEstimate fp32 = model.estimateOp(fp, Precision::FP32, /*bytesScale=*/2);
  EXPECT_NEAR(fp32.computeSeconds, 7.0482e-3, 0.0001e-3);
  EXPECT_FALSE(fp32.tensorCores);
  CostEstimate tf32 = model.estimateOp(fp, Precision::TF32, 2);
  EXPECT_NEAR(tf32.computeSeconds, 881.02e-6, 0.01e-6);
  EXPECT_TRUE(tf32.tensorCores);
  EXPECT_NEAR(tf32.memorySeconds, 172.63e-6, 0.01e-6);
}

TEST(CostModelTest, UnalignedContractionMissesTensorCores) {
  CostModel model = a100();
  // N = 4095 is not a multiple of 8: no FP16 MMA, the FP32 rate applies.
  OpFingerprint fp = gemm(4096, 4095, 4096, 2);
  EXPECT_FALSE(model.isTensorCoreEligible(fp, Precision::FP16));
  CostEstimate estimate = model.estimateOp(fp, Precision::FP16);
  EXPECT_FALSE(estimate.tensorCores);
  EXPECT_NEAR(estimate.computeSeconds, 2.0 * 4096 * 4095 * 4096 / 19.5e12,
              1e-12);
  // K = 4100 is a multiple of 4 (TF32) but not of 8 (FP16) or 16 (INT8).
  OpFingerprint k4100 = gemm(64, 64, 4100, 2);
  EXPECT_TRUE(model.isTensorCoreEligible(k4100, Precision::TF32));
  EXPECT_FALSE(model.isTensorCoreEligible(k4100, Precision::FP16));
  EXPECT_FALSE(model.isTensorCoreEligible(k4100, Precision::INT8));
  // Dynamic sizes are not assumed aligned.
  OpFingerprint dynamic = gemm(64, 64, 64, 2);
  dynamic.sizes[1] = std::nullopt;
  EXPECT_FALSE(model.isTensorCoreEligible(dynamic, Precision::FP16));
  // A100 has no FP8 tensor cores in the table; H100 does.
  EXPECT_FALSE(model.isTensorCoreEligible(gemm(64, 64, 64, 1), Precision::FP8));
  EXPECT_TRUE(CostModel(*lookupTarget("h100"))
                  .isTensorCoreEligible(gemm(64, 64, 64, 1), Precision::FP8));
}

TEST(CostModelTest, ElementwiseIsMemoryBoundAndPaysForWastedSectors) {
  CostModel model = a100();
  OpFingerprint relu;
  relu.opClass = OpClass::Elementwise;
  relu.flops = SymbolicCount::term(1e6, {});
  relu.bytesRead = SymbolicCount::term(4e6, {});
  relu.bytesWritten = SymbolicCount::term(4e6, {});
  CostEstimate full = model.estimateOp(relu, Precision::FP32);
  // 8e6 B / 1555e9 = 5.1447 us; 1e6 / 19.5e12 = 51.3 ns.
  EXPECT_NEAR(full.memorySeconds, 5.1447e-6, 0.0001e-6);
  EXPECT_TRUE(full.isMemoryBound());
  EXPECT_FALSE(model.isTensorCoreEligible(relu, Precision::FP16));
  // A layout that uses a quarter of each fetched sector costs 4x.
  CostEstimate quarter = model.estimateOp(relu, Precision::FP32, 1.0, 0.25);
  EXPECT_NEAR(quarter.memorySeconds, 4 * full.memorySeconds, 1e-12);
}

TEST(CostModelTest, ConversionsAndCasts) {
  CostModel model = a100();
  // 4 MB converted with coalesced reads and 1/8-efficient (transposing)
  // writes: 4e6/1555e9 + 4e6/(1555e9/8) = 2.5723 + 20.5788 = 23.1511 us.
  CostEstimate convert = model.estimateLayoutConvert(4e6, 1.0, 0.125);
  EXPECT_NEAR(convert.seconds(), 23.1511e-6, 0.0001e-6);
  // 1M elements f32 -> f16: 6 MB moved = 3.8585 us.
  CostEstimate cast = model.estimateCast(1e6, 4, 2);
  EXPECT_NEAR(cast.seconds(), 3.8585e-6, 0.0001e-6);
}

TEST(CostModelTest, ChannelsLastWinsForTensorCoreConvolutions) {
  // NVIDIA's guidance (Deep Learning Performance Guide, "Convolutional
  // Layers User's Guide": tensor-core convolutions want NHWC; NCHW data is
  // transposed first) must come out of the model: same FLOPs, but the
  // channels-first convolution pays two transposes.
  CostModel model = a100();
  OpFingerprint conv;
  conv.opClass = OpClass::Convolution;
  conv.roles = {DimRole::Batch,        DimRole::Spatial, DimRole::Spatial,
                DimRole::OutputChannel, DimRole::Window,  DimRole::Window,
                DimRole::InputChannel};
  conv.sizes = {32, 56, 56, 64, 3, 3, 64};
  // 32 images of 56x56x64, f16: 2 * 32*56*56*64 * 3*3*64 FLOPs.
  double activation = 32.0 * 56 * 56 * 64 * 2;
  conv.flops = SymbolicCount::term(2.0 * 32 * 56 * 56 * 64 * 9 * 64, {});
  conv.bytesRead = SymbolicCount::term(activation + 3 * 3 * 64 * 64 * 2, {});
  conv.bytesWritten = SymbolicCount::term(activation, {});
  CostEstimate nhwc = model.estimateOp(conv, Precision::FP16);
  CostEstimate nchw = model.estimateChannelsFirstConvolution(
      conv, Precision::FP16, activation, activation);
  ASSERT_TRUE(nhwc.tensorCores);
  // NHWC: 7.398e9 FLOPs / 312e12 = 23.71 us, compute bound (25.76 MB move
  // in 16.57 us). NCHW adds two transposes, each reading and writing a
  // 12.85 MB activation: 51.38 MB / 1555e9 = 33.04 us.
  EXPECT_NEAR(nhwc.seconds(), 23.71e-6, 0.01e-6);
  EXPECT_NEAR(nhwc.memorySeconds, 16.57e-6, 0.01e-6);
  EXPECT_NEAR(nchw.seconds() - nhwc.seconds(), 33.04e-6, 0.01e-6);
  EXPECT_GT(nchw.seconds() / nhwc.seconds(), 1.5);
  // FP32 on CUDA cores: no transposes, the layouts tie.
  CostEstimate nhwc32 = model.estimateOp(conv, Precision::FP32, 2);
  CostEstimate nchw32 = model.estimateChannelsFirstConvolution(
      conv, Precision::FP32, activation, activation, 2);
  EXPECT_DOUBLE_EQ(nchw32.seconds(), nhwc32.seconds());
}

TEST(CostModelTest, FingerprintedConvolutionOnTensorCores) {
  // The fingerprint of a real op feeds the model: a ResNet 3x3 conv,
  // 64 -> 64 channels on 56x56, NHWC/HWCF.
  DialectRegistry registry;
  registry.insert<func::FuncDialect, linalg::LinalgDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    func.func @conv(%x: tensor<1x58x58x64xf16>, %w: tensor<3x3x64x64xf16>,
                    %o: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32> {
      %0 = linalg.conv_2d_nhwc_hwcf
          {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
          ins(%x, %w : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>)
          outs(%o : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
      return %0 : tensor<1x56x56x64xf32>
    })mlir",
                                                               &context);
  ASSERT_TRUE(module);
  Operation *conv = nullptr;
  module->walk([&](linalg::Conv2DNhwcHwcfOp op) { conv = op; });
  ASSERT_TRUE(conv);
  OpFingerprint fp = computeOpFingerprint(conv);
  EXPECT_EQ(fp.opClass, OpClass::Convolution);
  // 56*56*64 outputs x 3*3*64 taps x 2 = 231211008 FLOPs.
  EXPECT_EQ(*fp.flops.getStaticValue(), 231211008.0);
  CostModel model = a100();
  ASSERT_TRUE(model.isTensorCoreEligible(fp, Precision::FP16));
  CostEstimate estimate = model.estimateOp(fp, Precision::FP16);
  // 231211008 / 312e12 = 741.06 ns of compute.
  EXPECT_NEAR(estimate.computeSeconds, 741.06e-9, 0.01e-9);
  // Bytes: x 1*58*58*64*2 = 430592, w 3*3*64*64*2 = 73728, accumulator read
  // and written 56*56*64*4 = 802816 each: 2109952 B / 1555e9 = 1.3569 us.
  EXPECT_NEAR(estimate.memorySeconds, 1.3569e-6, 0.0001e-6);
  EXPECT_TRUE(estimate.isMemoryBound());
}
} // namespace
