//===- TargetDialect.cpp - The opsnn dialect and target attribute ---------===//
//
// `#opsnn.target<"name">`: parsing checks the name against the known
// targets so that a typo is a located error, not a silent default.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Target/TargetDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::opsnn;

#include "opsnn/Target/TargetDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "opsnn/Target/TargetAttrs.cpp.inc"

void OpsNNDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "opsnn/Target/TargetAttrs.cpp.inc"
      >();
}

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  std::string name;
  if (parser.parseLess())
    return {};
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&name) || parser.parseGreater())
    return {};
  if (!lookupTarget(name)) {
    parser.emitError(loc) << "unknown target \"" << name
                          << "\"; known targets: " << getKnownTargetNames();
    return {};
  }
  return TargetAttr::get(parser.getContext(), name);
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printer.printString(getName());
  printer << ">";
}

FailureOr<TargetDescription> TargetAttr::getDescription() const {
  if (std::optional<TargetDescription> target = lookupTarget(getName()))
    return *target;
  return failure();
}
