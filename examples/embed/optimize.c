/*===- optimize.c - Embed ops-nn through its C API ------------------------===*\
|*                                                                            *|
|* Parses the module in argv[1], runs the pipeline in argv[2] (default        *|
|* "builtin.module(opsnn-optimize)") and prints the result, with nothing but  *|
|* upstream mlir-c calls and opsnn-c. Errors go to stderr, exit code 1.       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "opsnn-c/Dialects.h"
#include "opsnn-c/Passes.h"

#include <stdio.h>

static void printTo(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s FILE.mlir [PIPELINE]\n", argv[0]);
    return 2;
  }
  const char *pipeline = argc == 3 ? argv[2] : "builtin.module(opsnn-optimize)";
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  opsnnRegisterAllDialects(registry);
  mlirRegisterAllPasses();
  opsnnRegisterAllPasses();
  MlirContext context =
      mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/true);
  mlirDialectRegistryDestroy(registry);

  int status = 1;
  MlirModule module = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  if (!mlirModuleIsNull(module)) {
    MlirOperation op = mlirModuleGetOperation(module);
    if (mlirLogicalResultIsSuccess(opsnnRunPassPipeline(
            op, mlirStringRefCreateFromCString(pipeline), printTo, stderr))) {
      mlirOperationPrint(op, printTo, stdout);
      printf("\n");
      status = 0;
    } else {
      fprintf(stderr, "\n");
    }
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(context);
  return status;
}
