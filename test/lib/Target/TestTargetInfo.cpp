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
#include "llvm/Support/Format.h"

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
      // %g prints the table's figures as written (8.1, not 8.100000e+00).
      std::string text;
      llvm::raw_string_ostream os(text);
      auto num = [](double v) { return llvm::format("%g", v); };
      os << "target " << t.name << " kind="
         << (t.kind == TargetDescription::Kind::GPU ? "gpu" : "cpu")
         << " chip=" << t.chip << " bw_gbps=" << num(t.dramBandwidthGBps)
         << " fp32=" << num(t.peakFp32Tflops)
         << " tf32=" << num(t.peakTf32Tflops)
         << " fp16=" << num(t.peakFp16Tflops)
         << " bf16=" << num(t.peakBf16Tflops)
         << " fp8=" << num(t.peakFp8Tflops)
         << " int8=" << num(t.peakInt8Tops) << " l2=" << t.l2CacheBytes
         << " sector=" << t.sectorBytes << " line=" << t.cacheLineBytes
         << " sms=" << t.smCount << " warp=" << t.warpSize
         << " smem_per_sm=" << t.sharedMemoryPerSMBytes;
      op->emitRemark() << text;
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
