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

/// Registers every pipeline with the global pass registry.
void registerPipelines();

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_PIPELINES_PIPELINES_H
