//===- Optimize.cpp - The graph-level --opsnn-optimize pipeline -----------===//
//
// Layouts first (ALTE decides on FP32 costs and its conversions are folded
// before anything else looks at the graph), then value ranges on the final
// graph, then precision, whose casts are cleaned up last.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Pipelines/Pipelines.h"

#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::opsnn::buildOptimizePipeline(OpPassManager &pm,
                                        const OptimizeOptions &options) {
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  if (options.layouts) {
    AssignLayoutsPassOptions layouts;
    layouts.targetName = options.target;
    layouts.annotate = options.annotate;
    funcPm.addPass(createAssignLayoutsPass(layouts));
    funcPm.addPass(createPropagateLayoutsPass());
    funcPm.addPass(createCanonicalizerPass());
  }
  AnalyzeRangesPassOptions ranges;
  ranges.calibrationFile = options.calibration;
  funcPm.addPass(createAnalyzeRangesPass(ranges));
  AssignPrecisionPassOptions precision;
  precision.mode = options.precision;
  precision.listsFile = options.lists;
  precision.keepFirstLastFP32 = options.keepFirstLastFP32;
  precision.keepIOTypes = options.keepIOTypes;
  // TF32 where the target has it: the range rules protect the exponent
  // range, which TF32 keeps.
  std::optional<TargetDescription> target = lookupTarget(options.target);
  precision.rangeTF32 =
      options.rangeTF32 && target && target->peakTf32Tflops > 0;
  funcPm.addPass(createAssignPrecisionPass(precision));
  funcPm.addPass(createEliminateCastsPass());
  funcPm.addPass(createCanonicalizerPass());
}
