/*===-- opsnn-c/Passes.h - C API for the ops-nn passes ------------*- C -*-===*\
|*                                                                            *|
|* Pass creation and registration generated from Passes.td in the upstream    *|
|* form (mlirCreateOpsNN<Name>Pass, mlirRegisterOpsNNPasses), plus the calls  *|
|* an embedder needs around them: register the pipelines too, load a target   *|
|* description file, run a textual pipeline on an operation.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef OPSNN_C_PASSES_H
#define OPSNN_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include "opsnn-c/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every ops-nn pass and pipeline (`opsnn-optimize`,
/// `opsnn-lower-to-cpu`, `opsnn-lower-to-nvvm`) with the global registry, so
/// that textual pipelines can name them.
MLIR_CAPI_EXPORTED void opsnnRegisterAllPasses(void);

/// Reads a JSON target description file and adds (or overrides) its entries,
/// as `ops-nn-opt --opsnn-target-file` does. On failure calls `errorCallback`
/// (when not null) with a message naming the file, and returns failure.
MLIR_CAPI_EXPORTED MlirLogicalResult opsnnLoadTargetFile(
    MlirStringRef path, MlirStringCallback errorCallback, void *userData);

/// Parses `pipeline`, anchored on the operation it runs on as in
/// `mlir-opt --pass-pipeline` (e.g. "builtin.module(opsnn-optimize{target=
/// h100})"), and runs it on `op` with the verifier after each pass. A
/// pipeline that does not parse or is anchored on another operation is
/// reported through `errorCallback` (when not null); failures of the passes
/// themselves go to the context's diagnostic handlers. Returns failure in
/// every such case; `op` may then be partially transformed.
MLIR_CAPI_EXPORTED MlirLogicalResult opsnnRunPassPipeline(
    MlirOperation op, MlirStringRef pipeline, MlirStringCallback errorCallback,
    void *userData);

#ifdef __cplusplus
}
#endif

#endif // OPSNN_C_PASSES_H
