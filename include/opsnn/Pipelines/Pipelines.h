//===- Pipelines.h - ops-nn pass pipelines ----------------------*- C++ -*-===//
//
// Builder functions for the end-to-end pipelines and their registration as
// `ops-nn-opt --opsnn-lower-to-cpu` etc. Tools that compile (ops-nn-run)
// call the builders directly.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_PIPELINES_PIPELINES_H
#define OPSNN_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
namespace opsnn {

/// Options of `--opsnn-lower-to-cpu`.
struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {
  PassOptions::Option<bool> vectorize{
      *this, "vectorize",
      llvm::cl::desc("Tile linalg ops and vectorize the tiles (otherwise "
                     "lower them to scalar loops)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> emulateTensorCoreMatmul{
      *this, "emulate-tensor-core-matmul",
      llvm::cl::desc("Target name (e.g. a100): run f16/bf16 matmuls and NHWC convolutions as the "
                     "tensor-core kernel tiled for that target "
                     "(opsnn-gpu-tensor-core-matmul emulate-on-cpu; nothing "
                     "is vectorized beforehand). Empty: off"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> emulateTensorCoreStages{
      *this, "emulate-tensor-core-stages",
      llvm::cl::desc("Pipeline stages of the emulated tensor-core kernel "
                     "(opsnn-gpu-tensor-core-matmul stages); -1: the "
                     "heuristic's"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> emulateWarpReductions{
      *this, "emulate-warp-reductions",
      llvm::cl::desc("Run row reductions as the GPU's one-warp-per-row "
                     "kernel emulated on the CPU (opsnn-gpu-warp-reduce "
                     "emulate-on-cpu)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateTensorCoreTF32{
      *this, "emulate-tensor-core-tf32",
      llvm::cl::desc("Also emulate f32 matmuls/convolutions as TF32 "
                     "tensor-core kernels (opsnn-gpu-tensor-core-matmul "
                     "allow-tf32; operands truncated to TF32)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateTensorCorePadChannels{
      *this, "emulate-tensor-core-pad-channels",
      llvm::cl::desc("As the GPU pipeline's tensor-core-pad-channels: "
                     "convolutions whose C is not whole 16-byte copies get "
                     "zero channels (opsnn-pad-conv-channels); false: the "
                     "emulated kernel copies their im2col rows element by "
                     "element"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> emulateTensorCoreFuseSiblings{
      *this, "emulate-tensor-core-fuse-siblings",
      llvm::cl::desc("As the GPU pipeline's tensor-core-fuse-siblings: "
                     "contractions that share an input and read constant "
                     "weights become one (opsnn-fuse-sibling-contractions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> emulateTensorCoreFuseSoftmax{
      *this, "emulate-tensor-core-fuse-softmax",
      llvm::cl::desc("As the GPU pipeline's tensor-core-fuse-softmax: a "
                     "softmax over a GEMM's columns runs in its kernel"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> emulateTensorCoreWarpgroupMma{
      *this, "emulate-tensor-core-warpgroup-mma",
      llvm::cl::desc("Emulate the warpgroup (wgmma, sm_90a) kernel where "
                     "the GPU pipeline with chip=sm_90a runs it "
                     "(opsnn-gpu-tensor-core-matmul warpgroup-mma; the "
                     "target's chip must be sm_90: h100, h200)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateGPULoops{
      *this, "emulate-gpu-loops",
      llvm::cl::desc("Lower the remaining linalg ops as the GPU's generic "
                     "path does (padded operands read through bounds "
                     "checks as with the GPU's implicit-padding; "
                     "transposing ones through shared-memory "
                     "tiles as with the GPU's tiled-transposes, block by "
                     "block; parallel loops, adjacent ones fused into "
                     "one kernel, elementwise ones widened to vector "
                     "accesses as with the GPU's vectorize-accesses), run "
                     "sequentially; nothing is vectorized beforehand"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> emulateImplicitPadding{
      *this, "emulate-implicit-padding",
      llvm::cl::desc("With emulate-gpu-loops: padded operands read through "
                     "bounds checks, as with the GPU's implicit-padding "
                     "(opsnn-implicit-padding); false builds the padded "
                     "buffers (fill and copy), as implicit-padding=false"),
      llvm::cl::init(true)};
};

/// linalg-on-tensors (with layout/precision ops) -> LLVM dialect for the
/// host CPU: our dialects lowered, elementwise ops to linalg and fused,
/// optionally tiled and vectorized, one-shot bufferized (identity layouts at
/// function boundaries, results returned as freshly allocated buffers),
/// deallocation inserted, then everything to LLVM. Floating-point types the
/// CPU lacks (f16/bf16 arithmetic, FP8) are emulated in f32 or through the
/// APFloat runtime (`libmlir_apfloat_wrappers`).
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const LowerToCPUOptions &options);

/// What --opsnn-lower-to-nvvm serializes the kernels to.
enum class GPUBinaryFormat { PTX, Cubin };

/// Options of `--opsnn-lower-to-nvvm`.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("NVIDIA compute capability, e.g. sm_80; sm_90a: Hopper "
                     "with wgmma (the tensor-core GEMMs that can, on the "
                     "warpgroup kernel)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<GPUBinaryFormat> format{
      *this, "format", llvm::cl::desc("Kernel binary format"),
      llvm::cl::init(GPUBinaryFormat::PTX),
      llvm::cl::values(
          clEnumValN(GPUBinaryFormat::PTX, "ptx",
                     "PTX text from LLVM's NVPTX back end"),
          clEnumValN(GPUBinaryFormat::Cubin, "cubin",
                     "SASS cubin assembled by the CUDA toolkit's ptxas"))};
  PassOptions::ListOption<int64_t> tileSizes{
      *this, "tile-sizes",
      llvm::cl::desc("Threads per block along the parallel loops, innermost "
                     "loop first (x, y, z)"),
      llvm::cl::list_init<int64_t>({32, 8})};
  PassOptions::Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16/bf16/i8 matmuls and NHWC convolutions as tensor-core "
                     "kernels (shared-memory tiles, cp.async, ldmatrix, "
                     "mma.sync; sm_80 and later; sm_75: f16 and i8, "
                     "copies through registers)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> tensorCoreStages{
      *this, "tensor-core-stages",
      llvm::cl::desc("cp.async pipeline stages of the tensor-core kernels "
                     "(opsnn-gpu-tensor-core-matmul stages); -1: the "
                     "heuristic's"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> warpReductions{
      *this, "warp-reductions",
      llvm::cl::desc("Row reductions over the innermost dimension as one "
                     "warp per output element (opsnn-gpu-warp-reduce)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tensorCoreTF32{
      *this, "tensor-core-tf32",
      llvm::cl::desc("With tensor-cores: also f32 matmuls/convolutions, run "
                     "as TF32 (opsnn-gpu-tensor-core-matmul allow-tf32; "
                     "sm_80 and later)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tensorCorePadChannels{
      *this, "tensor-core-pad-channels",
      llvm::cl::desc("With tensor-cores: convolutions whose C is not whole "
                     "16-byte copies (an image's 3 channels) get zero "
                     "channels up to it before bufferization "
                     "(opsnn-pad-conv-channels: a zero-fill kernel, K = "
                     "KH*KW*8 in 16-byte cp.async); false: the kernel "
                     "copies their im2col rows element by element (K = "
                     "KH*KW*3, no fill)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tensorCoreFuseSiblings{
      *this, "tensor-core-fuse-siblings",
      llvm::cl::desc("With tensor-cores: contractions that read the same "
                     "input with constant weights of one shape (Q, K and V "
                     "projections) become one GEMM over the stacked "
                     "weights, their alike elementwise consumers one "
                     "epilogue (opsnn-fuse-sibling-contractions)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tensorCoreFuseSoftmax{
      *this, "tensor-core-fuse-softmax",
      llvm::cl::desc("With tensor-cores: a softmax over a GEMM's columns "
                     "(attention's scores, N <= 256) runs in the GEMM's "
                     "kernel, on whole rows in shared memory"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tensorCoreWgmmaGroupInFlight{
      *this, "tensor-core-wgmma-group-in-flight",
      llvm::cl::desc("With chip=sm_90a: the warpgroup kernel leaves each K "
                     "step's wgmma group in flight while it issues the next "
                     "step's copies (the pass's wgmma-group-in-flight); "
                     "false: every step waits for its group"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorizeAccesses{
      *this, "vectorize-accesses",
      llvm::cl::desc("Elementwise kernels handle up to 16 bytes of "
                     "consecutive elements per thread with vector loads and "
                     "stores (opsnn-vectorize-parallel-loops), and the "
                     "warp-per-row kernels per lane (opsnn-gpu-warp-reduce "
                     "vectorize)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tiledTransposes{
      *this, "tiled-transposes",
      llvm::cl::desc("Elementwise ops that read an input along other "
                     "contiguous dimensions than they write (layout "
                     "conversions) move the data through shared-memory "
                     "tiles (opsnn-gpu-tiled-transpose)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> implicitPadding{
      *this, "implicit-padding",
      llvm::cl::desc("Ops that read a constant-padded tensor read its "
                     "source through bounds checks instead, so no padded "
                     "buffer is filled and copied (opsnn-implicit-padding; "
                     "the tensor-core kernels fold their padding anyway)"),
      llvm::cl::init(true)};
};

/// linalg-on-tensors -> GPU kernels: our dialects lowered, bufferized,
/// linalg to parallel loops (innermost dimension first, so threadIdx.x walks
/// contiguous elements), the loops tiled (tile = thread block) and mapped to
/// blocks and threads, kernels outlined, lowered to NVVM and
/// serialized to PTX or cubin; host code to LLVM with gpu.launch_func.
/// Correct, not fast: the fast path is the tensor-core codegen.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// What the builder cannot reject itself (it has no way to fail): one to
/// three positive `tile-sizes` making at most 1024 threads per block, a
/// `chip` LLVM's NVPTX back end knows, `tensor-cores` only from sm_80
/// (mma.sync m16n8k16). Reports the first problem through `emitError`,
/// naming the option. The registered pipeline and ops-nn-run call it.
LogicalResult verifyLowerToNVVMOptions(
    const LowerToNVVMOptions &options,
    llvm::function_ref<LogicalResult(const llvm::Twine &)> emitError);

/// Options of `--opsnn-optimize`.
struct OptimizeOptions : public PassPipelineOptions<OptimizeOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Target whose cost model decides (a100, h100, h200, t4, "
                     "v100, host, or a JSON file)"),
      llvm::cl::init("a100")};
  PassOptions::Option<bool> layouts{
      *this, "layouts",
      llvm::cl::desc("Run ALTE: assign layouts, then propagate and fold the "
                     "conversions"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision mode of --opsnn-assign-precision (fp32: "
                     "types unchanged)"),
      llvm::cl::init("fp32")};
  PassOptions::Option<std::string> calibration{
      *this, "calibration",
      llvm::cl::desc("Calibration ranges (ops-nn-run --collect-ranges) for "
                     "--opsnn-analyze-ranges"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> lists{
      *this, "lists",
      llvm::cl::desc("JSON file overriding the precision policy's op lists"),
      llvm::cl::init("")};
  PassOptions::Option<bool> keepFirstLastFP32{
      *this, "keep-first-last-fp32",
      llvm::cl::desc("Keep the first and last contraction in FP32"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> keepIOTypes{
      *this, "keep-io-types",
      llvm::cl::desc("Function arguments and results keep their types"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> rangeTF32{
      *this, "range-tf32",
      llvm::cl::desc("On a target with TF32 tensor cores, convolutions and "
                     "contractions that the value-range rules keep in FP32 "
                     "run as TF32 (FP32's range)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> annotate{
      *this, "annotate",
      llvm::cl::desc("Record every layout decision (layout.decision)"),
      llvm::cl::init(false)};
};

/// The graph-level optimization of DESIGN.md, on linalg-on-tensors:
/// --opsnn-assign-layouts, --opsnn-propagate-layouts and canonicalize (when
/// `layouts`), --opsnn-analyze-ranges, --opsnn-assign-precision,
/// --opsnn-eliminate-casts and canonicalize. Its output is still
/// linalg-on-tensors (with layout/precision ops) for either lowering.
void buildOptimizePipeline(OpPassManager &pm, const OptimizeOptions &options);

/// Registers every pipeline with the global pass registry.
void registerPipelines();

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_PIPELINES_PIPELINES_H
