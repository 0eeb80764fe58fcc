//===- OpsNNPlugin.cpp - ops-nn as an mlir-opt pass and dialect plugin ----===//
//
// Lets a stock `mlir-opt` (one built against the same libMLIR.so) use ops-nn
// without relinking: `--load-dialect-plugin=OpsNNPlugin.so` adds the layout,
// precision and opsnn dialects (and the layout-transform models of the
// upstream linalg and tensor ops), `--load-pass-plugin=OpsNNPlugin.so`
// registers every ops-nn pass and pipeline, `--opsnn-optimize` included.
// One shared object exports both entry points; the plugin links libMLIR.so,
// never static MLIR libraries, so the tool and the plugin share one MLIR.
//
//===----------------------------------------------------------------------===//

#include "opsnn/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OpsNN", "0.1",
          [](mlir::DialectRegistry *registry) {
            mlir::opsnn::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OpsNN", "0.1",
          []() { mlir::opsnn::registerAllPasses(); }};
}
