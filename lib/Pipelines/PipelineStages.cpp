//===- PipelineStages.cpp - Stages shared by the ops-nn pipelines ---------===//
//
// See PipelineStages.h.
//
//===----------------------------------------------------------------------===//

#include "PipelineStages.h"

#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::opsnn::addLowerToLinalgStage(OpPassManager &pm,
                                        bool fuseNarrowingCasts,
                                        bool keepContractionSoftmax) {
  pm.addPass(createLowerLayoutsPass());
  pm.addPass(createLowerPrecisionPass());
  pm.addPass(createLowerQuantPass());
  DecomposeAggregatedOpsPassOptions decompose;
  decompose.keepContractionSoftmax = keepContractionSoftmax;
  pm.addPass(createDecomposeAggregatedOpsPass(decompose));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerPacksPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  FuseElementwisePassOptions fusion;
  fusion.fuseNarrowingCasts = fuseNarrowingCasts;
  pm.addPass(createFuseElementwisePass(fusion));
  pm.addPass(createCanonicalizerPass());
}

void mlir::opsnn::addTensorCoreLeftoversStage(OpPassManager &pm,
                                              bool gpuHostBuffers) {
  pm.addPass(createDecomposeAggregatedOpsPass());
  // Its row buffers where the kernels can read them.
  if (gpuHostBuffers) {
    GPUHostBuffersPassOptions allocations;
    allocations.allocationsOnly = true;
    pm.addPass(createGPUHostBuffersPass(allocations));
  }
}

void mlir::opsnn::addTensorCoreConvLayoutStage(OpPassManager &pm,
                                                bool allowTF32,
                                                llvm::StringRef targetName) {
  ConvertConvsToNHWCPassOptions nhwc;
  nhwc.allowTF32 = allowTF32;
  nhwc.targetName = targetName.str();
  pm.addNestedPass<func::FuncOp>(createConvertConvsToNHWCPass(nhwc));
  pm.addNestedPass<func::FuncOp>(createPropagateLayoutsPass());
}

void mlir::opsnn::addTensorCoreOperandStage(OpPassManager &pm, bool allowTF32,
                                            llvm::StringRef targetName,
                                            bool padChannels,
                                            bool fuseSiblings) {
  if (padChannels) {
    PadConvChannelsPassOptions options;
    options.allowTF32 = allowTF32;
    options.targetName = targetName.str();
    pm.addNestedPass<func::FuncOp>(createPadConvChannelsPass(options));
  }
  std::optional<TargetDescription> target = lookupTarget(targetName);
  std::optional<TensorCoreISA> isa =
      target ? getTensorCoreISA(*target) : std::nullopt;
  if (isa && (isa->int8 || isa->fp8))
    pm.addNestedPass<func::FuncOp>(createTransposeByteWeightsPass());
  // After the 8-bit weights are N x K: siblings' weights stack as they are
  // read.
  if (fuseSiblings)
    pm.addNestedPass<func::FuncOp>(createFuseSiblingContractionsPass());
}

void mlir::opsnn::addImplicitPaddingStage(OpPassManager &pm,
                                          bool keepTensorCoreOps) {
  ImplicitPaddingPassOptions options;
  options.keepTensorCoreOps = keepTensorCoreOps;
  pm.addNestedPass<func::FuncOp>(createImplicitPaddingPass(options));
}

void mlir::opsnn::addParallelLoopsStage(
    OpPassManager &pm, const GPUTiledTransposePassOptions *tiledTransposes) {
  pm.addNestedPass<func::FuncOp>(createInterchangeParallelFirstPass());
  if (tiledTransposes)
    pm.addNestedPass<func::FuncOp>(
        createGPUTiledTransposePass(*tiledTransposes));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createFuseParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createPromoteAccumulatorsPass());
}

void mlir::opsnn::addVectorizeKernelAccessesStage(OpPassManager &pm,
                                                  int64_t minRowVectors,
                                                  bool aligned) {
  VectorizeParallelLoopsPassOptions widen;
  widen.minRowVectors = minRowVectors;
  widen.aligned = aligned;
  pm.addNestedPass<func::FuncOp>(createVectorizeParallelLoopsPass(widen));
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

namespace {
/// See createCheckLoweredToLLVMPass. Internal to the pipelines (no flag):
/// which ops are legal depends on where in a pipeline it runs.
struct CheckLoweredToLLVMPass
    : public PassWrapper<CheckLoweredToLLVMPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckLoweredToLLVMPass)

  explicit CheckLoweredToLLVMPass(StringRef pipeline) : pipeline(pipeline) {}
  StringRef getArgument() const override {
    return "opsnn-check-lowered-to-llvm";
  }
  StringRef getDescription() const override {
    return "Fail on ops the pipeline did not lower to LLVM/NVVM";
  }

  void runOnOperation() override {
    Operation *root = getOperation();
    SmallVector<Operation *> unlowered, casts;
    root->walk([&](Operation *op) {
      // Containers (modules, kernels still to serialize, serialized ones)
      // and the launches that LLVM translation itself lowers.
      if (op == root || isa<ModuleOp, gpu::GPUModuleOp, gpu::BinaryOp,
                            gpu::LaunchFuncOp>(op))
        return;
      if (isa_and_nonnull<LLVM::LLVMDialect, NVVM::NVVMDialect>(
              op->getDialect()))
        return;
      (isa<UnrealizedConversionCastOp>(op) ? casts : unlowered)
          .push_back(op);
    });
    // A cast left between LLVM and a type the pipeline cannot lower is a
    // consequence of an unlowered op: name that op, not the cast, unless
    // the casts are all there is.
    for (Operation *op : unlowered)
      op->emitError() << pipeline << ": '" << op->getName()
                      << "' is not supported: no pass of the pipeline lowers "
                         "it to LLVM";
    if (unlowered.empty())
      for (Operation *op : casts)
        op->emitError() << pipeline << ": values of type "
                        << op->getResultTypes().front()
                        << " have no LLVM lowering (left as a cast from "
                        << op->getOperandTypes().front() << ")";
    if (!unlowered.empty() || !casts.empty())
      signalPassFailure();
  }

  std::string pipeline;
};
} // namespace

std::unique_ptr<Pass>
mlir::opsnn::createCheckLoweredToLLVMPass(StringRef pipeline) {
  return std::make_unique<CheckLoweredToLLVMPass>(pipeline);
}
