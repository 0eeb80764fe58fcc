//===- HostExecutable.h - Compile and run a function on the CPU -*- C++ -*-===//
//
// Compiles one function of a linalg-on-tensors module for the host CPU (the
// --opsnn-lower-to-cpu pipeline, or a caller-given one) with MLIR's
// ExecutionEngine, checks NumPy inputs against its signature and runs it.
// ops-nn-run and the tests are built on it.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_EXECUTION_HOSTEXECUTABLE_H
#define OPSNN_EXECUTION_HOSTEXECUTABLE_H

#include "opsnn/Runtime/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
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

/// One tensor of the entry function's signature.
struct TensorSignature {
  RankedTensorType type;
  std::string descr;
};

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

  ArrayRef<TensorSignature> getInputs() const { return inputs; }
  ArrayRef<TensorSignature> getResults() const { return results; }

  /// Checks count, element type and shape of `arrays` against the inputs;
  /// the error names the argument.
  llvm::Error checkInputs(ArrayRef<runtime::NpyArray> arrays) const;

  /// Runs the function once on checked inputs. Results are copied into
  /// `outputs` when it is given, and freed either way.
  llvm::Error run(ArrayRef<runtime::NpyArray> arrays,
                  std::vector<runtime::NpyArray> *outputs);

private:
  HostExecutable() = default;

  std::string entry;
  std::vector<TensorSignature> inputs, results;
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_EXECUTION_HOSTEXECUTABLE_H
