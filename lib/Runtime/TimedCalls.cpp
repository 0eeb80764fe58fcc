//===- TimedCalls.cpp - Time compiled functions on prepared inputs --------===//

#include "opsnn/Runtime/TimedCalls.h"

#include <chrono>
#include <dlfcn.h>
#include <type_traits>

using namespace mlir::opsnn::runtime;

bool CudaEntryPoints::resolve(void *handle) {
  auto lookup = [&](auto &slot, const char *name) {
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
        dlsym(handle, name));
    return slot != nullptr;
  };
  bool found = lookup(isAvailable, "opsnnCudaIsAvailable");
  found &= lookup(takeError, "opsnnCudaTakeError");
  found &= lookup(free, "opsnnCudaFree");
  // Timing support: runtimes shipped with older artifacts lack it.
  lookup(upload, "opsnnCudaUpload");
  lookup(timeKernels, "opsnnCudaTimeKernels");
  lookup(takeKernelMilliseconds, "opsnnCudaTakeKernelMilliseconds");
  return found;
}

std::string CudaEntryPoints::takeErrorString() const {
  const char *error = takeError ? takeError() : nullptr;
  return error ? error : "";
}

bool mlir::opsnn::runtime::timePackedCalls(
    PackedFunction function, const std::vector<NpyArray> &arrays,
    const std::vector<TensorSpec> &results, unsigned warmup, unsigned repeat,
    const CudaEntryPoints *cuda, CallTimes &times, std::string &error) {
  auto gpuError = [&] {
    if (cuda)
      error = cuda->takeErrorString();
    return !error.empty();
  };
  if (cuda && !(cuda->upload && cuda->timeKernels &&
                 cuda->takeKernelMilliseconds)) {
    error = "this CUDA runtime cannot time kernels (it predates "
            "opsnnCudaUpload and opsnnCudaTimeKernels)";
    return false;
  }
  PackedInputs inputs(arrays, cuda ? cuda->upload : nullptr,
                      cuda ? cuda->free : nullptr);
  if (!inputs.isValid() || gpuError()) {
    if (error.empty())
      error = "uploading the inputs failed";
    return false;
  }
  if (cuda) {
    cuda->timeKernels(1);
    if (gpuError())
      return false;
  }
  using Clock = std::chrono::steady_clock;
  Deallocator deallocate = cuda ? cuda->free : nullptr;
  bool ok = true;
  for (unsigned i = 0; i < warmup + repeat && ok; ++i) {
    Clock::time_point start = Clock::now();
    callPacked(function, inputs, results, /*outputs=*/nullptr, deallocate);
    double callMs =
        std::chrono::duration<double, std::milli>(Clock::now() - start)
            .count();
    double kernelMs = cuda ? cuda->takeKernelMilliseconds() : 0;
    if (gpuError()) {
      ok = false;
      break;
    }
    if (i < warmup)
      continue;
    times.callMs.push_back(callMs);
    if (cuda)
      times.kernelMs.push_back(kernelMs);
  }
  if (cuda) {
    cuda->timeKernels(0);
    std::string late = cuda->takeErrorString();
    if (ok && !late.empty()) {
      error = late;
      ok = false;
    }
  }
  return ok;
}
