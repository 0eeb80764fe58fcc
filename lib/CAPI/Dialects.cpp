//===- Dialects.cpp - C API for the ops-nn dialects -----------------------===//
//
// Implements opsnn-c/Dialects.h on top of the C++ registration entry points
// (opsnn/InitAll.h), with the wrap/unwrap helpers of upstream mlir/CAPI.
//
//===----------------------------------------------------------------------===//

#include "opsnn-c/Dialects.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/InitAll.h"
#include "opsnn/Target/TargetDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Layout, layout,
                                      mlir::opsnn::layout::LayoutDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Precision, precision,
                                      mlir::opsnn::precision::PrecisionDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(OpsNN, opsnn, mlir::opsnn::OpsNNDialect)

void opsnnRegisterAllDialects(MlirDialectRegistry registry) {
  mlir::opsnn::registerAllDialects(*unwrap(registry));
}
