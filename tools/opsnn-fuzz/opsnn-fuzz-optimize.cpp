//===- opsnn-fuzz-optimize.cpp - libFuzzer target for --opsnn-optimize ----===//
//
// Each input is MLIR text: it is parsed (errors are fine) and, when it parses
// and verifies, run through --opsnn-optimize for an A100 in mixed FP16 with
// the verifier after every pass. Diagnostics are expected and swallowed; a
// crash, an assertion, a sanitizer report or IR that stops verifying (which
// the pass manager turns into an error, not a crash) is a finding.
// Seeds: every test/**/*.mlir split at `// -----` (scripts/fuzz_corpus.py).
//
//===----------------------------------------------------------------------===//

#include "opsnn/InitAll.h"
#include "opsnn/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

using namespace mlir;

static DialectRegistry &getRegistry() {
  static DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    opsnn::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

/// Known crashes in upstream MLIR 22's parsers, outside ops-nn's code, that
/// would otherwise end every long run: when the integer list after
/// `linalg.reduce/broadcast ... dimensions =` or `linalg.transpose ...
/// permutation =` fails to parse (no `[`, a stray byte inside, no `]`), the
/// op's parser stores a null attribute and dereferences it (stock
/// mlir-opt-22 segfaults on these inputs too). Inputs whose list is not a
/// plain `[int, int, ...]` are skipped.
static bool hitsKnownUpstreamParserCrash(llvm::StringRef text) {
  auto isPlainIntegerList = [](llvm::StringRef rest) {
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      return false;
    size_t close = rest.find(']');
    if (close == llvm::StringRef::npos)
      return false;
    return llvm::all_of(rest.take_front(close), [](char c) {
      return llvm::isDigit(c) || c == ',' || c == ' ' || c == '-';
    });
  };
  for (llvm::StringRef keyword : {"dimensions", "permutation"}) {
    for (size_t at = text.find(keyword); at != llvm::StringRef::npos;
         at = text.find(keyword, at + 1)) {
      llvm::StringRef rest = text.drop_front(at + keyword.size()).ltrim();
      if (rest.consume_front("=") && !isPlainIntegerList(rest))
        return true;
    }
  }
  return false;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Threads off: one input, one thread, reproducible.
  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);
  ScopedDiagnosticHandler ignore(&context, [](Diagnostic &) {
    return success();
  });
  std::string text(reinterpret_cast<const char *>(data), size);
  if (hitsKnownUpstreamParserCrash(text))
    return -1; // not added to the corpus
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  if (!module)
    return 0;
  PassManager pm(&context);
  pm.enableVerifier(true);
  opsnn::OptimizeOptions options;
  options.target = "a100";
  options.precision = "mixed-fp16";
  opsnn::buildOptimizePipeline(pm, options);
  (void)pm.run(*module); // failures with a diagnostic are fine
  return 0;
}
