//===- TimedCalls.h - Time compiled functions on prepared inputs -*- C++ -*-===//
//
// Benchmark support shared by the JIT (HostExecutable) and artifacts
// (HostArtifact): a compiled function called repeatedly on inputs
// marshalled once. For GPU code the inputs are uploaded to device-resident
// managed memory, so the kernels read device memory (as a framework's would)
// rather than host memory over the bus, and each call's kernels are also
// timed with CUDA events. Plain C++.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_TIMEDCALLS_H
#define OPSNN_RUNTIME_TIMEDCALLS_H

#include "opsnn/Runtime/PackedCall.h"

#include <string>
#include <vector>

namespace mlir::opsnn::runtime {

/// The C entry points of the CUDA runtime (libopsnn_cuda_runtime.so, see
/// CudaDriver.h) that callers of compiled GPU code use: linked in by the
/// JIT, found with dlsym in an artifact's model.so.
struct CudaEntryPoints {
  int (*isAvailable)(const char **why) = nullptr;
  const char *(*takeError)() = nullptr;
  void (*free)(void *pointer) = nullptr;
  void *(*upload)(const void *data, size_t bytes) = nullptr;
  void (*timeKernels)(int enable) = nullptr;
  double (*takeKernelMilliseconds)() = nullptr;

  /// Looks the entry points up in `handle` (dlopen's); false if one needed
  /// to run is missing (the timing ones may be: older runtimes lack them).
  bool resolve(void *handle);
  /// The first error the runtime recorded since the last take, or "".
  std::string takeErrorString() const;
};

/// Milliseconds per call: the whole call as the host sees it (launches and
/// synchronisation included) and, for GPU code, the sum of its kernels'
/// times as CUDA events measure them.
struct CallTimes {
  std::vector<double> callMs;
  std::vector<double> kernelMs;
};

/// Calls `function` `warmup` times untimed, then `repeat` times timed, on
/// `arrays` marshalled once (uploaded to the device with `cuda`, which is
/// null for CPU code). Results are discarded; use callPacked for values
/// (the callee may write into its arguments, which these calls share).
/// False with `error` when the GPU runtime reported one.
bool timePackedCalls(PackedFunction function,
                     const std::vector<NpyArray> &arrays,
                     const std::vector<TensorSpec> &results, unsigned warmup,
                     unsigned repeat, const CudaEntryPoints *cuda,
                     CallTimes &times, std::string &error);

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_TIMEDCALLS_H
