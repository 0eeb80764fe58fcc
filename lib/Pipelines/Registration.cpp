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
  PassPipelineRegistration<LowerToNVVMOptions>(
      "opsnn-lower-to-nvvm",
      "Lower linalg-on-tensors (with layout and precision ops) to GPU "
      "kernels in PTX or cubin and LLVM host code",
      buildLowerToNVVMPipeline);
}
