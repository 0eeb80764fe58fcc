/*===-- opsnn-c/Dialects.h - C API for the ops-nn dialects --------*- C -*-===*\
|*                                                                            *|
|* Dialect handles of the layout, precision and opsnn dialects, in the        *|
|* conventions of upstream mlir-c (mlirGetDialectHandle__<ns>__, see          *|
|* mlir-c/IR.h), and one call that registers all three plus the layout-       *|
|* transform models ALTE attaches to upstream linalg and tensor ops.          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef OPSNN_C_DIALECTS_H
#define OPSNN_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Layout, layout);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Precision, precision);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(OpsNN, opsnn);

/// Adds the layout, precision and opsnn dialects and the layout-transform
/// models of the upstream linalg and tensor ops to `registry`. Upstream
/// dialects (func, linalg, tensor, arith...) are registered separately, e.g.
/// with mlirRegisterAllDialects (mlir-c/RegisterEverything.h).
MLIR_CAPI_EXPORTED void opsnnRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // OPSNN_C_DIALECTS_H
