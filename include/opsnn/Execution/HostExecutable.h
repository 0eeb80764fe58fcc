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
#include "opsnn/Runtime/TimedCalls.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace mlir {
class ExecutionEngine;
class OpPassManager;
namespace opsnn {

/// The .npy type string that holds elements of `type`, or failure. Floats
/// NumPy lacks travel as their bits: bf16 as `<u2`, FP8 as `|u1`.
FailureOr<std::string> getNpyDescr(Type type);

/// Where compiled code runs: all on the host CPU, or host code on the CPU
/// launching kernels on a CUDA GPU (through libopsnn_cuda_runtime.so).
enum class Device { CPU, CUDA };

class HostExecutable {
public:
  ~HostExecutable();

  /// Compiles function `entry` of `module` (which is modified: lowered to the
  /// LLVM dialect). `buildPipeline` fills the pass manager; by default the
  /// --opsnn-lower-to-cpu pipeline, or for CUDA --opsnn-lower-to-nvvm with
  /// `chip` and PTX (JIT-compiled by the driver for the device at hand).
  /// Every argument and result must be a ranked tensor of a supported
  /// element type.
  static llvm::Expected<std::unique_ptr<HostExecutable>>
  compile(ModuleOp module, StringRef entry,
          std::function<void(OpPassManager &)> buildPipeline = nullptr,
          Device device = Device::CPU, StringRef chip = "sm_80");

  Device getDevice() const { return device; }

  /// For CUDA: whether the driver and a device are usable (`why` says what
  /// is missing otherwise). Always true for the CPU.
  bool canRun(std::string &why) const;

  const std::vector<runtime::TensorSpec> &getInputs() const { return inputs; }
  const std::vector<runtime::TensorSpec> &getResults() const {
    return results;
  }

  /// Checks count, element type and shape of `arrays` against the inputs;
  /// the error names the argument.
  llvm::Error checkInputs(const std::vector<runtime::NpyArray> &arrays) const;

  /// Runs the function once on checked inputs. Results are copied into
  /// `outputs` when it is given, and freed either way. Fails with the first
  /// error the GPU runtime recorded.
  llvm::Error run(const std::vector<runtime::NpyArray> &arrays,
                  std::vector<runtime::NpyArray> *outputs) const;

  /// Times `repeat` calls after `warmup` untimed ones on inputs marshalled
  /// once: for CUDA uploaded to device memory, with each call's kernels
  /// timed by CUDA events too (see runtime::timePackedCalls).
  llvm::Expected<runtime::CallTimes>
  time(const std::vector<runtime::NpyArray> &arrays, unsigned warmup,
       unsigned repeat) const;

  /// Writes an artifact to `dir` (created if needed): model.so, linked with
  /// clang and lld, and manifest.json; for CUDA also a copy of
  /// libopsnn_cuda_runtime.so, which model.so finds next to itself.
  llvm::Error writeArtifact(StringRef dir) const;

private:
  HostExecutable() = default;
  /// writeArtifact's files, written into `dir` (a staging folder).
  llvm::Error writeArtifactFiles(StringRef dir) const;

  std::string entry;
  Device device = Device::CPU;
  std::vector<runtime::TensorSpec> inputs, results;
  std::unique_ptr<ExecutionEngine> engine;
  /// For CUDA artifacts: the host code as LLVM IR, compiled to an object
  /// with its global constructors (the kernel loads) intact, which the
  /// JIT's object dump does not keep.
  std::unique_ptr<llvm::LLVMContext> llvmContext;
  std::unique_ptr<llvm::Module> llvmModule;
  runtime::PackedFunction function = nullptr;
};

} // namespace opsnn
} // namespace mlir

#endif // OPSNN_EXECUTION_HOSTEXECUTABLE_H
