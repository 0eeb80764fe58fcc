//===- Registration.cpp - Register the ops-nn pipelines -------------------===//
//
// Makes every pipeline builder available as an ops-nn-opt flag.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Pipelines/Pipelines.h"

#include "mlir/Pass/PassRegistry.h"

void mlir::opsnn::registerPipelines() {
  PassPipelineRegistration<OptimizeOptions>(
      "opsnn-optimize",
      "Graph-level optimization: layouts (ALTE), value ranges and precision "
      "for a target, on linalg-on-tensors",
      buildOptimizePipeline);
  PassPipelineRegistration<LowerToCPUOptions>(
      "opsnn-lower-to-cpu",
      "Lower linalg-on-tensors (with layout and precision ops) to the LLVM "
      "dialect for the host CPU",
      buildLowerToCPUPipeline);
  // PassPipelineRegistration, plus the option checks the builder cannot
  // fail on: reported as option errors, before any IR is touched.
  registerPassPipeline(
      "opsnn-lower-to-nvvm",
      "Lower linalg-on-tensors (with layout and precision ops) to GPU "
      "kernels in PTX or cubin and LLVM host code",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        LowerToNVVMOptions options;
        if (failed(options.parseFromString(text)) ||
            failed(verifyLowerToNVVMOptions(options, errorHandler)))
          return failure();
        buildLowerToNVVMPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(LowerToNVVMOptions());
      });
}
