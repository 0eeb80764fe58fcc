//===- LowerToNVVM.cpp - linalg-on-tensors to NVVM kernels ----------------===//
//
// The first, simple GPU pipeline: every linalg op becomes a grid of thread
// blocks over its parallel loops (each thread computes one output element,
// reductions run sequentially inside the thread), then the steps of
// upstream's gpu-lower-to-nvvm-pipeline (plus libdevice) produce NVVM, PTX
// and (through ptxas) cubin.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Pipelines/Pipelines.h"

#include "PipelineStages.h"
#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/OptimizeForNVVM.h"
#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Support/Path.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// The CUDA toolkit: where MLIR looks ($CUDA_ROOT, $CUDA_HOME, $CUDA_PATH,
/// the one found when LLVM was built), else /usr/local/cuda. Empty if none.
static std::string findCUDAToolkit() {
  std::string path = NVVM::getCUDAToolkitPath().str();
  if (path.empty() && llvm::sys::fs::is_directory("/usr/local/cuda"))
    path = "/usr/local/cuda";
  return path;
}

/// libdevice.10.bc of `toolkit`, if present.
static std::optional<std::string> findLibdevice(StringRef toolkit) {
  if (toolkit.empty())
    return std::nullopt;
  llvm::SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  if (!llvm::sys::fs::exists(path))
    return std::nullopt;
  return path.str().str();
}

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTargetMC();

LogicalResult mlir::opsnn::verifyLowerToNVVMOptions(
    const LowerToNVVMOptions &options,
    function_ref<LogicalResult(const Twine &)> emitError) {
  ArrayRef<int64_t> tiles = options.tileSizes;
  int64_t threads = 1;
  for (int64_t size : tiles) {
    if (size < 1)
      return emitError("opsnn-lower-to-nvvm: tile-sizes must be positive, "
                       "got " + Twine(size));
    threads = std::min<int64_t>(threads * size, int64_t(1) << 32);
  }
  if (tiles.empty() || tiles.size() > 3)
    return emitError("opsnn-lower-to-nvvm: tile-sizes takes one to three "
                     "sizes (x, y, z), got " + Twine(tiles.size()));
  if (threads > 1024)
    return emitError("opsnn-lower-to-nvvm: tile-sizes make " + Twine(threads) +
                     " threads per block; CUDA allows at most 1024");

  // Unknown chips would only be a warning of the NVPTX back end, and PTX
  // for its default processor.
  static const bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *nvptx = llvm::TargetRegistry::lookupTarget(triple, error);
  StringRef chip = options.chip;
  if (nvptx) {
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
        nvptx->createMCSubtargetInfo(triple, "", ""));
    if (subtarget && !subtarget->isCPUStringValid(chip))
      return emitError("opsnn-lower-to-nvvm: unknown chip '" + chip +
                       "' (expected an NVPTX processor such as sm_80)");
  }
  unsigned version = 0;
  if (options.tensorCores &&
      (!chip.consume_front("sm_") || chip.consumeInteger(10, version) ||
       version < 75))
    return emitError("opsnn-lower-to-nvvm: tensor-cores needs sm_75 or "
                     "later (mma.sync m16n8k8), got chip '" +
                     options.chip.getValue() + "'");
  if (options.tensorCores && options.tensorCoreTF32 && version < 80)
    return emitError("opsnn-lower-to-nvvm: tensor-core-tf32 needs sm_80 or "
                     "later (Turing has no TF32 mma.sync), got chip '" +
                     options.chip.getValue() + "'");
  return success();
}

void mlir::opsnn::buildLowerToNVVMPipeline(OpPassManager &pm,
                                           const LowerToNVVMOptions &options) {
  // Tiles and instructions for the first built-in target of this chip
  // (sm_90: h100; sm_75: t4), a100's for a chip that has none.
  std::string tensorCoreTarget = "a100";
  // sm_90a (Hopper's arch-specific features: wgmma) is an sm_90 target
  // whose GEMMs take the warpgroup kernel.
  StringRef chip = options.chip.getValue();
  bool warpgroupMma = chip == "sm_90a";
  chip.consume_back("a");
  for (const TargetDescription &t : getBuiltinTargets())
    if (t.chip == chip) {
      tensorCoreTarget = t.name;
      break;
    }
  // NCHW convolutions onto the tensor-core kernel's NHWC.
  if (options.tensorCores)
    addTensorCoreConvLayoutStage(pm, options.tensorCoreTF32, tensorCoreTarget);
  // Narrowing casts stay out of contractions: GEMMs read f16/bf16. The
  // tensor-core kernel may absorb attention's softmax.
  addLowerToLinalgStage(pm, /*fuseNarrowingCasts=*/false,
                        /*keepContractionSoftmax=*/options.tensorCores &&
                            options.tensorCoreFuseSoftmax);
  if (options.tensorCores)
    addTensorCoreOperandStage(pm, options.tensorCoreTF32, tensorCoreTarget,
                              options.tensorCorePadChannels,
                              options.tensorCoreFuseSiblings);
  // Pools and depthwise convolutions read their padding through bounds
  // checks: no fill and copy kernels for a padded buffer.
  if (options.implicitPadding)
    addImplicitPaddingStage(pm, /*keepTensorCoreOps=*/options.tensorCores);
  addBufferizationStage(pm);
  // Every host buffer a kernel may touch: registered or managed memory.
  pm.addPass(createGPUHostBuffersPass());
  if (options.tensorCores) {
    GPUTensorCoreMatmulPassOptions tensorCores;
    tensorCores.stages = options.tensorCoreStages;
    tensorCores.allowTF32 = options.tensorCoreTF32;
    tensorCores.fuseSoftmax = options.tensorCoreFuseSoftmax;
    tensorCores.targetName = tensorCoreTarget;
    tensorCores.warpgroupMma = warpgroupMma;
    tensorCores.wgmmaGroupInFlight = options.tensorCoreWgmmaGroupInFlight;
    pm.addNestedPass<func::FuncOp>(createGPUTensorCoreMatmulPass(tensorCores));
    addTensorCoreLeftoversStage(pm, /*gpuHostBuffers=*/true);
  }

  if (options.warpReductions) {
    GPUWarpReducePassOptions warpReduce;
    warpReduce.vectorize = options.vectorizeAccesses;
    pm.addNestedPass<func::FuncOp>(createGPUWarpReducePass(warpReduce));
  }
  // The copies left in the host code (padding, concatenation) as kernels.
  pm.addNestedPass<func::FuncOp>(createGPUDeviceCopiesPass());

  // Parallel loops -> blocks of threads: all of an op's parallel loops
  // (reductions innermost first, or they would run inside few threads),
  // fused where they can share a kernel; layout conversions coalesced on
  // both sides through shared memory.
  GPUTiledTransposePassOptions tiledTranspose;
  addParallelLoopsStage(pm,
                        options.tiledTransposes ? &tiledTranspose : nullptr);
  // Innermost dimension first, so threadIdx.x walks contiguous elements.
  pm.addPass(createReverseParallelLoopsPass());
  // Elementwise kernels: up to 16 bytes per thread and access, while a row
  // still fills the block's x threads.
  if (options.vectorizeAccesses)
    addVectorizeKernelAccessesStage(pm, options.tileSizes.front(),
                                    /*aligned=*/true);
  pm.addNestedPass<func::FuncOp>(
      createParallelLoopTilingPass(llvm::to_vector(options.tileSizes),
                                   /*noMinMaxBounds=*/true));
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLowerAffinePass());
  // Constants (loop bounds, tile sizes, divisors) into the kernels: the
  // canonicalizer hoisted them out of the launches, and outlining alone
  // would pass each one as a kernel parameter, opaque to LLVM.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  if (options.tensorCores)
    pm.addNestedPass<gpu::GPUModuleOp>(createGPUAlignWorkgroupBuffersPass());

  // FP8 (no LLVM type): arithmetic in f32, casts as integer code.
  arith::ArithEmulateUnsupportedFloatsOptions emulate;
  emulate.sourceTypeStrs = {"f8E4M3FN", "f8E5M2"};
  emulate.targetTypeStr = "f32";
  pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
  pm.addPass(createExpandFP8CastsPass());

  // From here on upstream's gpu-lower-to-nvvm-pipeline, step for step, but
  // linking libdevice (math functions become __nv_* calls) from the CUDA
  // toolkit's nvvm/libdevice/ folder, where CUDA 12+ keeps it.
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  // PTX ISA 8.0 (CUDA 12.0); 8.4 (CUDA 12.4) from sm_89 on, where FP8
  // mma.sync (.e4m3, .e5m2) needs it.
  target.features =
      computeCapability(options.chip.getValue()) >= 89 ? "+ptx84" : "+ptx80";
  target.optLevel = 3;
  std::string toolkit = findCUDAToolkit();
  if (std::optional<std::string> libdevice = findLibdevice(toolkit))
    target.linkLibs.push_back(*libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  // Launched block sizes are exact: .reqntid, not .maxntid.
  pm.addNestedPass<gpu::GPUModuleOp>(createGPURequireBlockSizePass());
  pm.addNestedPass<gpu::GPUModuleOp>(LLVM::createNVVMOptimizeForTargetPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  // Kernels are checked while they still have the source locations (an op
  // left here would otherwise fail LLVM translation with none), then
  // stripped of them for serialization.
  pm.addNestedPass<gpu::GPUModuleOp>(
      createCheckLoweredToLLVMPass("opsnn-lower-to-nvvm"));
  pm.addNestedPass<gpu::GPUModuleOp>(createStripDebugInfoPass());

  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.toolkitPath = toolkit; // ptxas for format=cubin
  binary.compilationTarget =
      options.format == GPUBinaryFormat::PTX ? "isa" : "bin";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCheckLoweredToLLVMPass("opsnn-lower-to-nvvm"));
}
