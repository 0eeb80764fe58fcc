//===- PipelineStages.h - Stages shared by the ops-nn pipelines -*- C++ -*-===//
//
// The front of every lowering pipeline, identical for CPU and GPU: our
// dialects to upstream linalg, tensor-level fusion, and bufferization.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_PIPELINES_PIPELINESTAGES_H
#define OPSNN_LIB_PIPELINES_PIPELINESTAGES_H

namespace mlir {
class OpPassManager;
namespace opsnn {

/// layout.convert -> linalg transpose/pack, precision ops -> arith on
/// tensors, packs -> pad/reshape/transpose; elementwise arith on tensors ->
/// linalg.generic, producer/consumer elementwise chains fused.
void addLowerToLinalgStage(OpPassManager &pm);

/// One-shot bufferization: function arguments and results become
/// identity-layout memrefs, results are returned (allocated by the callee,
/// which owns them); ownership-based deallocation frees the intermediates.
void addBufferizationStage(OpPassManager &pm);

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_LIB_PIPELINES_PIPELINESTAGES_H
