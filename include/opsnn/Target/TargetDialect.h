//===- TargetDialect.h - The opsnn dialect and target attribute -*- C++ -*-===//
//
// Declares the `opsnn` dialect and `#opsnn.target<...>`.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TARGET_TARGETDIALECT_H
#define OPSNN_TARGET_TARGETDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "opsnn/Target/TargetDescription.h"

#include "opsnn/Target/TargetDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "opsnn/Target/TargetAttrs.h.inc"

#endif // OPSNN_TARGET_TARGETDIALECT_H
