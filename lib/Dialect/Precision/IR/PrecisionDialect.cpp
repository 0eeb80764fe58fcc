//===- PrecisionDialect.cpp - The precision dialect -----------------------===//
//
// Registers the precision dialect's attributes and ops.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

using namespace mlir;
using namespace mlir::opsnn::precision;

#include "opsnn/Dialect/Precision/IR/PrecisionOpsDialect.cpp.inc"

void PrecisionDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "opsnn/Dialect/Precision/IR/PrecisionOps.cpp.inc"
      >();
}

Operation *PrecisionDialect::materializeConstant(OpBuilder &builder,
                                                 Attribute value, Type type,
                                                 Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
