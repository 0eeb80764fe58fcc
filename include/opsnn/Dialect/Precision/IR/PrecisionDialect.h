//===- PrecisionDialect.h - The precision dialect ---------------*- C++ -*-===//
//
// Declares the precision dialect, its attributes and operations.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_H
#define OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "opsnn/Dialect/Precision/IR/PrecisionOpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "opsnn/Dialect/Precision/IR/PrecisionAttrs.h.inc"

#define GET_OP_CLASSES
#include "opsnn/Dialect/Precision/IR/PrecisionOps.h.inc"

namespace mlir::opsnn::precision {
/// True when every value of float type `from` is exactly representable in
/// float type `to` (f16 -> f32, bf16 -> f32, f8E4M3FN -> f16, ...).
bool isExactConversion(Type from, Type to);
} // namespace mlir::opsnn::precision

#endif // OPSNN_DIALECT_PRECISION_IR_PRECISIONDIALECT_H
