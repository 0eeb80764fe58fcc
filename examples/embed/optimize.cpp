//===- optimize.cpp - Embed ops-nn through its C++ API --------------------===//
//
// Parses the module in argv[1], runs `opsnn-optimize` for the target in
// argv[2] (default a100) and prints the result: the few calls a framework
// makes to use ops-nn as a library. Errors are located diagnostics on
// stderr and exit code 1.
//
//===----------------------------------------------------------------------===//

#include "opsnn/InitAll.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: " << argv[0] << " FILE.mlir [TARGET]\n";
    return 2;
  }
  std::string target = argc == 3 ? argv[2] : "a100";

  mlir::DialectRegistry registry;
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::tensor::TensorDialect>();
  mlir::opsnn::registerAllDialects(registry);
  mlir::opsnn::registerAllPasses();
  mlir::MLIRContext context(registry);
  // Diagnostics as file:line:col with the source line, like ops-nn-opt.
  llvm::SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sourceMgr,
                                            mlir::ParserConfig(&context));
  if (!module)
    return 1;

  // The pass manager is anchored on the module: the pipeline text is what
  // goes inside `builtin.module(...)`.
  mlir::PassManager pm(&context);
  std::string pipeline = "opsnn-optimize{target=" + target + "}";
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs())))
    return 1;
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
