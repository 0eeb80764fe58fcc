//===- LowerToCPU.cpp - linalg-on-tensors to LLVM for the host CPU --------===//
//
// The CPU pipeline: every executed test and the CPU reference path run
// through it, so it favours upstream passes that are well trodden.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Pipelines/Pipelines.h"

#include "PipelineStages.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::opsnn::buildLowerToCPUPipeline(OpPassManager &pm,
                                          const LowerToCPUOptions &options) {
  // The tensor-core pipeline's NCHW convolutions in NHWC, as on the GPU.
  if (!options.emulateTensorCoreMatmul.empty())
    addTensorCoreConvLayoutStage(pm, options.emulateTensorCoreTF32,
                                 options.emulateTensorCoreMatmul);
  addLowerToLinalgStage(pm, /*fuseNarrowingCasts=*/true,
                        /*keepContractionSoftmax=*/
                        !options.emulateTensorCoreMatmul.empty() &&
                            options.emulateTensorCoreFuseSoftmax);
  // The emulated GPU kernels match linalg ops on buffers: nothing is
  // vectorized beforehand.
  if (options.vectorize && options.emulateTensorCoreMatmul.empty() &&
      !options.emulateWarpReductions && !options.emulateGPULoops)
    pm.addNestedPass<func::FuncOp>(createTileAndVectorizeCPUPass());
  if (!options.emulateTensorCoreMatmul.empty())
    addTensorCoreOperandStage(pm, options.emulateTensorCoreTF32,
                              options.emulateTensorCoreMatmul,
                              options.emulateTensorCorePadChannels,
                              options.emulateTensorCoreFuseSiblings);
  // The GPU pipeline's padding, read through bounds checks.
  if (options.emulateGPULoops && options.emulateImplicitPadding)
    addImplicitPaddingStage(
        pm, /*keepTensorCoreOps=*/!options.emulateTensorCoreMatmul.empty());
  addBufferizationStage(pm);
  // In the GPU pipeline's order: the tensor-core kernels take their
  // contractions first (a GEMM whose K is innermost in both operands is a
  // row reduction too).
  if (!options.emulateTensorCoreMatmul.empty()) {
    GPUTensorCoreMatmulPassOptions tensorCores;
    tensorCores.targetName = options.emulateTensorCoreMatmul;
    tensorCores.emulateOnCPU = true;
    tensorCores.stages = options.emulateTensorCoreStages;
    tensorCores.allowTF32 = options.emulateTensorCoreTF32;
    tensorCores.fuseSoftmax = options.emulateTensorCoreFuseSoftmax;
    tensorCores.warpgroupMma = options.emulateTensorCoreWarpgroupMma;
    pm.addNestedPass<func::FuncOp>(createGPUTensorCoreMatmulPass(tensorCores));
    addTensorCoreLeftoversStage(pm, /*gpuHostBuffers=*/false);
  }
  if (options.emulateWarpReductions) {
    GPUWarpReducePassOptions warpReduce;
    warpReduce.emulateOnCPU = true;
    pm.addNestedPass<func::FuncOp>(createGPUWarpReducePass(warpReduce));
  }

  // Loops (the GPU's kernels as parallel loops, which scf-to-cf runs in
  // sequence).
  if (options.emulateGPULoops) {
    // The GPU pipeline's copies as loops too (see GPUDeviceCopiesPass).
    pm.addNestedPass<func::FuncOp>(createGPUDeviceCopiesPass());
    // Its shared-memory transposes block by block.
    GPUTiledTransposePassOptions tiledTranspose;
    tiledTranspose.emulateOnCPU = true;
    addParallelLoopsStage(pm, &tiledTranspose);
    // Widened as on the GPU (its default 32 threads along x), unaligned:
    // a NumPy view need not be.
    addVectorizeKernelAccessesStage(pm, /*minRowVectors=*/32,
                                    /*aligned=*/false);
  } else
    pm.addPass(createConvertLinalgToLoopsPass());
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMultiReductionPass());
  // Fully unrolled: no temporary buffers (whose allocas would sit inside
  // the tile loops and grow the stack every iteration).
  pm.addPass(createConvertVectorToSCFPass(
      VectorTransferToSCFOptions().enableFullUnroll(true)));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());

  // Floats the CPU lacks: arithmetic on f16/bf16/FP8 in f32; bf16 casts as
  // integer code; FP8 casts through the APFloat runtime (casts only: f32
  // arithmetic stays native).
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f16", "bf16", "f8E4M3FN", "f8E5M2"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  pm.addPass(createExpandFP8CastsPass());

  // Everything to LLVM. Math with an LLVM intrinsic (exp, sqrt, rsqrt...)
  // first, keeping vectors whole; the rest (erf, tanh...) becomes libm calls
  // while vectors can still be unrolled into scalars.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  // Contractions as sums of outer products: vector FMAs, not horizontal
  // reductions.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.vectorContractLowering =
      vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCheckLoweredToLLVMPass("opsnn-lower-to-cpu"));
}


