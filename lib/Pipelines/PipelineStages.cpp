//===- PipelineStages.cpp - Stages shared by the ops-nn pipelines ---------===//
//
// See PipelineStages.h.
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "opsnn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::opsnn::addLowerToLinalgStage(OpPassManager &pm) {
  pm.addPass(createLowerLayoutsPass());
  pm.addPass(createLowerPrecisionPass());
  pm.addPass(createLowerQuantPass());
  pm.addPass(createDecomposeAggregatedOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerPacksPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::opsnn::addBufferizationStage(OpPassManager &pm) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createCanonicalizerPass());
}
