//===- InitAll.cpp - Register every ops-nn dialect and pass ---------------===//
//
// Implements the registration entry points of opsnn/InitAll.h.
//
//===----------------------------------------------------------------------===//

#include "opsnn/InitAll.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformModels.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Pipelines/Pipelines.h"
#include "opsnn/Target/TargetDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

void mlir::opsnn::registerAllDialects(DialectRegistry &registry) {
  registry.insert<layout::LayoutDialect, precision::PrecisionDialect,
                  OpsNNDialect>();
  layout::registerLinalgLayoutTransformModels(registry);
  layout::registerTensorLayoutTransformModels(registry);
}

void mlir::opsnn::registerAllPasses() {
  registerOpsNNPasses();
  registerPipelines();
}
