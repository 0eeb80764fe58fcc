//===- HostExecutable.h - Compile and run a function on the CPU -*- C++ -*-===//
//
// Compiles one function of a linalg-on-tensors module for the host CPU (the
// --opsnn-lower-to-cpu pipeline, or a caller-given one) with MLIR's
// ExecutionEngine, checks NumPy inputs against its signature and runs it,
// or writes it out as an artifact (opsnn/Runtime/Artifact.h).
// ops-nn-run and the tests are built on it.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_EXECUTION_HOSTEXECUTABLE_H
#define OPSNN_EXECUTION_HOSTEXECUTABLE_H

#include "opsnn/Runtime/PackedCall.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
class OpPassManager;
namespace opsnn {

/// The .npy type string that holds elements of `type`, or failure. Floats
/// NumPy lacks travel as their bits: bf16 as `<u2`, FP8 as `|u1`.
FailureOr<std::string> getNpyDescr(Type type);

class HostExecutable {
public:
  ~HostExecutable();

  /// Compiles function `entry` of `module` (which is modified: lowered to the
  /// LLVM dialect). `buildPipeline` fills the pass manager; by default the
  /// --opsnn-lower-to-cpu pipeline. Every argument and result must be a
  /// ranked tensor of a supported element type.
  static llvm::Expected<std::unique_ptr<HostExecutable>>
  compile(ModuleOp module, StringRef entry,
          std::function<void(OpPassManager &)> buildPipeline = nullptr);

  const std::vector<runtime::TensorSpec> &getInputs() const { return inputs; }
  const std::vector<runtime::TensorSpec> &getResults() const {
    return results;
  }

  /// Checks count, element type and shape of `arrays` against the inputs;
  /// the error names the argument.
  llvm::Error checkInputs(const std::vector<runtime::NpyArray> &arrays) const;

  /// Runs the function once on checked inputs. Results are copied into
  /// `outputs` when it is given, and freed either way.
  void run(const std::vector<runtime::NpyArray> &arrays,
           std::vector<runtime::NpyArray> *outputs) const;

  /// Writes an artifact to `dir` (created if needed): model.so, linked with
  /// clang and lld, and manifest.json.
  llvm::Error writeArtifact(StringRef dir) const;

private:
  HostExecutable() = default;

  std::string entry;
  std::vector<runtime::TensorSpec> inputs, results;
  std::unique_ptr<ExecutionEngine> engine;
  runtime::PackedFunction function = nullptr;
};

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_EXECUTION_HOSTEXECUTABLE_H
