//===- TestTargetInfo.cpp - Print resolved target descriptions ------------===//
//
// --test-opsnn-target-info: for every `opsnn.target` attribute on an op,
// emits a remark with the resolved parameters, so lit tests can check the
// built-in table and JSON overrides.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TargetDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::opsnn;

namespace {
struct TestTargetInfoPass
    : PassWrapper<TestTargetInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTargetInfoPass)

  StringRef getArgument() const final { return "test-opsnn-target-info"; }
  StringRef getDescription() const final {
    return "Print the parameters of every opsnn.target attribute";
  }

  void runOnOperation() override {
    WalkResult result = getOperation()->walk([](Operation *op) {
      auto attr = op->getAttrOfType<TargetAttr>("opsnn.target");
      if (!attr)
        return WalkResult::advance();
      FailureOr<TargetDescription> target = attr.getDescription();
      if (failed(target)) {
        op->emitError() << "unregistered target \"" << attr.getName() << "\"";
        return WalkResult::interrupt();
      }
      const TargetDescription &t = *target;
      op->emitRemark() << "target " << t.name << " kind="
                       << (t.kind == TargetDescription::Kind::GPU ? "gpu"
                                                                  : "cpu")
                       << " chip=" << t.chip
                       << " bw_gbps=" << t.dramBandwidthGBps
                       << " fp32=" << t.peakFp32Tflops
                       << " tf32=" << t.peakTf32Tflops
                       << " fp16=" << t.peakFp16Tflops
                       << " bf16=" << t.peakBf16Tflops
                       << " fp8=" << t.peakFp8Tflops
                       << " int8=" << t.peakInt8Tops
                       << " l2=" << t.l2CacheBytes
                       << " sector=" << t.sectorBytes
                       << " line=" << t.cacheLineBytes
                       << " sms=" << t.smCount << " warp=" << t.warpSize
                       << " smem_per_sm=" << t.sharedMemoryPerSMBytes;
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

namespace mlir::opsnn::test {
void registerTestTargetInfoPass() { PassRegistration<TestTargetInfoPass>(); }
} // namespace mlir::opsnn::test
