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
      *this, "chip", llvm::cl::desc("NVIDIA compute capability, e.g. sm_80"),
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
};

/// linalg-on-tensors -> GPU kernels: our dialects lowered, bufferized,
/// linalg to parallel loops (innermost dimension first, so threadIdx.x walks
/// contiguous elements), the loops tiled (tile = thread block) and mapped to
/// blocks and threads, kernels outlined, lowered to NVVM and
/// serialized to PTX or cubin; host code to LLVM with gpu.launch_func.
/// Correct, not fast: the fast path is the tensor-core codegen.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Registers every pipeline with the global pass registry.
void registerPipelines();

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_PIPELINES_PIPELINES_H
