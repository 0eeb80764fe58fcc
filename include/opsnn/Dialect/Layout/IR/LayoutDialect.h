//===- LayoutDialect.h - The layout dialect ---------------------*- C++ -*-===//
//
// Declares the layout dialect, its attribute and its operations. Include this
// one header to use any of them.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
#define OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "opsnn/Dialect/Layout/IR/LayoutOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "opsnn/Dialect/Layout/IR/LayoutAttrs.h.inc"

#define GET_OP_CLASSES
#include "opsnn/Dialect/Layout/IR/LayoutOps.h.inc"

#endif // OPSNN_DIALECT_LAYOUT_IR_LAYOUTDIALECT_H
