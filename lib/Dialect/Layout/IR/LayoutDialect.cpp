//===- LayoutDialect.cpp - The layout dialect -----------------------------===//
//
// Registers the layout dialect's attribute and ops and implements the
// dialect-level attribute syntax `#layout<"NHWC">`.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

#include "opsnn/Dialect/Layout/IR/LayoutOpsDialect.cpp.inc"

void LayoutDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "opsnn/Dialect/Layout/IR/LayoutOps.cpp.inc"
      >();
}

// The dialect has a single attribute, written without a mnemonic.
Attribute LayoutDialect::parseAttribute(DialectAsmParser &parser,
                                        Type type) const {
  return LayoutAttr::parse(parser, type);
}

void LayoutDialect::printAttribute(Attribute attr,
                                   DialectAsmPrinter &printer) const {
  cast<LayoutAttr>(attr).print(printer);
}

Operation *LayoutDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
