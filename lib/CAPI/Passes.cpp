//===- Passes.cpp - C API for the ops-nn passes ---------------------------===//
//
// Implements opsnn-c/Passes.h: the pass creation and registration functions
// generated from Passes.td, and pipeline parsing and running for embedders,
// on top of the C++ pass infrastructure.
//
//===----------------------------------------------------------------------===//

#include "opsnn-c/Passes.h"

#include "opsnn/InitAll.h"
#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::opsnn;

#include "opsnn-c/Passes.capi.cpp.inc"

/// Sends `message` to `callback` when there is one.
static void report(MlirStringCallback callback, void *userData,
                   llvm::StringRef message) {
  if (callback)
    callback(wrap(message), userData);
}

void opsnnRegisterAllPasses(void) { registerAllPasses(); }

MlirLogicalResult opsnnLoadTargetFile(MlirStringRef path,
                                      MlirStringCallback errorCallback,
                                      void *userData) {
  if (llvm::Error error = loadTargetFile(unwrap(path))) {
    report(errorCallback, userData, llvm::toString(std::move(error)));
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult opsnnRunPassPipeline(MlirOperation op, MlirStringRef pipeline,
                                       MlirStringCallback errorCallback,
                                       void *userData) {
  Operation *root = unwrap(op);
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  FailureOr<OpPassManager> parsed =
      parsePassPipeline(unwrap(pipeline), errorStream);
  if (failed(parsed)) {
    report(errorCallback, userData, errors);
    return mlirLogicalResultFailure();
  }
  StringRef anchor = parsed->getOpAnchorName();
  if (anchor != OpPassManager::getAnyOpAnchorName() &&
      anchor != root->getName().getStringRef()) {
    report(errorCallback, userData,
           ("pipeline anchored on '" + anchor + "' cannot run on '" +
            root->getName().getStringRef() + "'")
               .str());
    return mlirLogicalResultFailure();
  }
  PassManager pm(root->getContext(), anchor);
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  pm.enableVerifier(true);
  return wrap(pm.run(root));
}
