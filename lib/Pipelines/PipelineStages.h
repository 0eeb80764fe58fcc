//===- PipelineStages.h - Stages shared by the ops-nn pipelines -*- C++ -*-===//
//
// The front of every lowering pipeline, identical for CPU and GPU: our
// dialects to upstream linalg, tensor-level fusion, and bufferization.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_PIPELINES_PIPELINESTAGES_H
#define OPSNN_LIB_PIPELINES_PIPELINESTAGES_H

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace mlir {
class OpPassManager;
class Pass;
namespace opsnn {
struct GPUTiledTransposePassOptions;

/// layout.convert -> linalg transpose/pack, precision ops -> arith on
/// tensors, packs -> pad/reshape/transpose; elementwise arith on tensors ->
/// linalg.generic, producer/consumer elementwise chains fused (narrowing
/// casts into contractions only with `fuseNarrowingCasts`). Aggregated ops
/// (linalg.softmax) are decomposed, except, with `keepContractionSoftmax`
/// (the tensor-core pipelines), a softmax over a contraction's last
/// dimension: the tensor-core kernel may absorb it after bufferization, and
/// addTensorCoreLeftoversStage decomposes the others.
void addLowerToLinalgStage(OpPassManager &pm, bool fuseNarrowingCasts = true,
                           bool keepContractionSoftmax = false);

/// Right after the tensor-core kernels (--opsnn-gpu-tensor-core-matmul) of
/// the tensor-core pipelines: the softmaxes addLowerToLinalgStage kept and
/// no kernel absorbed, decomposed on buffers; with `gpuHostBuffers` (the
/// GPU pipeline, after --opsnn-gpu-host-buffers) their row buffers in
/// managed memory.
void addTensorCoreLeftoversStage(OpPassManager &pm, bool gpuHostBuffers);

/// Before addLowerToLinalgStage in the tensor-core pipelines (GPU and its
/// CPU emulation): NCHW convolutions the tensor-core kernel takes in NHWC
/// are rewritten into NHWC between layout conversions
/// (--opsnn-convert-convs-to-nhwc for the tensor cores of `targetName`,
/// f32 ones with `allowTF32`), and the conversions are propagated,
/// cancelled and folded (--opsnn-propagate-layouts).
void addTensorCoreConvLayoutStage(OpPassManager &pm, bool allowTF32,
                                  llvm::StringRef targetName);

/// After addLowerToLinalgStage in the tensor-core pipelines, before
/// bufferization: the operands the kernel of `targetName` reads prepared on
/// tensors. With `padChannels`, C = 3 convolutions get zero channels
/// (--opsnn-pad-conv-channels, f32 ones with `allowTF32`; otherwise the
/// kernel copies their im2col rows element by element) and, where the chip
/// has 8-bit tensor cores, constant INT8 and FP8 weights are stored N x K
/// (--opsnn-transpose-byte-weights). With `fuseSiblings`, contractions that
/// share an input and read constant weights become one, with their alike
/// elementwise consumers (--opsnn-fuse-sibling-contractions).
void addTensorCoreOperandStage(OpPassManager &pm, bool allowTF32,
                               llvm::StringRef targetName, bool padChannels,
                               bool fuseSiblings);

/// The generic GPU path's padded operands read through bounds checks
/// (--opsnn-implicit-padding) instead of a filled and copied padded buffer;
/// with `keepTensorCoreOps`, the ops the tensor-core kernel takes keep their
/// pads (it folds them into its copies).
void addImplicitPaddingStage(OpPassManager &pm, bool keepTensorCoreOps);

/// One-shot bufferization: function arguments and results become
/// identity-layout memrefs, results are returned (allocated by the callee,
/// which owns them); ownership-based deallocation frees the intermediates.
void addBufferizationStage(OpPassManager &pm);

/// The remaining linalg ops on buffers -> scf.parallel loops, the kernels of
/// the GPU's generic path: every parallel loop of an op outside its
/// reductions (--opsnn-interchange-parallel-first), then adjacent parallel
/// loops with equal bounds fused when each reads what the other writes only
/// at its own indices (--opsnn-fuse-parallel-loops: a constant fill,
/// the contraction accumulating into it and an elementwise consumer become
/// one kernel), and reduction accumulators carried in registers through
/// their loops (--opsnn-promote-accumulators).
/// With `tiledTransposes`, the layout conversions become shared-memory
/// tile kernels (--opsnn-gpu-tiled-transpose) once the loop orders are
/// final, so that it sees which conversions fuse with their producer.
void addParallelLoopsStage(
    OpPassManager &pm,
    const GPUTiledTransposePassOptions *tiledTransposes = nullptr);

/// Elementwise parallel loops widened to 16-byte vector accesses
/// (--opsnn-vectorize-parallel-loops) where at least `minRowVectors`
/// vectors remain along the contiguous dimension; `aligned` for the GPU.
void addVectorizeKernelAccessesStage(OpPassManager &pm, int64_t minRowVectors,
                                     bool aligned);

/// The last step of a lowering: fails, with an error at each op's location
/// that names the op and `pipeline`, when an op outside the LLVM and NVVM
/// dialects is left (an op no pass of the pipeline lowers). Without it the
/// op would surface later as an LLVM translation failure, in a kernel
/// without any location, or pass silently through ops-nn-opt.
std::unique_ptr<Pass> createCheckLoweredToLLVMPass(llvm::StringRef pipeline);

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_LIB_PIPELINES_PIPELINESTAGES_H
