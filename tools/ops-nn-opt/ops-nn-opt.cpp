//===- ops-nn-opt.cpp - The ops-nn optimizer driver -----------------------===//
//
// mlir-opt with every upstream dialect, pass and extension, plus ours. One
// tool-level option: --opsnn-target-file loads target descriptions before
// the input is parsed, so `#opsnn.target<"my-gpu">` can name them.
//
//===----------------------------------------------------------------------===//

#include "opsnn/InitAll.h"
#include "opsnn/Target/TargetDescription.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::opsnn::test {
void registerTestPasses();
} // namespace mlir::opsnn::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::opsnn::registerAllPasses();
  mlir::opsnn::test::registerTestPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates kernels to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::opsnn::registerAllDialects(registry);

  static llvm::cl::opt<std::string> targetFile(
      "opsnn-target-file",
      llvm::cl::desc("JSON file adding or overriding #opsnn.target entries"),
      llvm::cl::value_desc("filename"), llvm::cl::init(""));

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "ops-nn optimizer driver\n", registry);
  if (!targetFile.empty()) {
    if (llvm::Error error = mlir::opsnn::loadTargetFile(targetFile)) {
      llvm::errs() << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
  }
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, inputFilename, outputFilename, registry));
}
