//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// The GPU side of the runtime: libcuda.so.1 is opened with dlopen the first
// time a GPU function is needed, so everything builds and runs on machines
// without a GPU or a driver (the functions then fail with a message). No
// CUDA headers are needed either: the few types and entry points used are
// declared here. Plain C++, no LLVM or MLIR.
//
// Compiled GPU models call the `mgpu*` functions MLIR's gpu-to-llvm
// lowering emits (module load/unload, kernel launch, streams, managed
// allocation, host registration); libopsnn_cuda_runtime.so implements them
// on this class (CudaRuntimeABI.cpp), so a model needs neither MLIR's
// runtime wrappers nor the CUDA runtime library.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_CUDADRIVER_H
#define OPSNN_RUNTIME_CUDADRIVER_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace mlir::opsnn::runtime {

/// The driver API subset the runtime uses. Handles are opaque pointers.
class CudaDriver {
public:
  using CUresult = int;
  using CUdevice = int;
  using CUcontext = void *;
  using CUmodule = void *;
  using CUfunction = void *;
  using CUstream = void *;
  using CUdeviceptr = uint64_t;
  using CUevent = void *;
  /// CUmemLocation: {CU_MEM_LOCATION_TYPE_DEVICE = 1, device ordinal}.
  struct CUmemLocation {
    int type;
    int id;
  };

  /// The process-wide driver, loaded from `libcuda.so.1` (or the path in
  /// $OPSNN_CUDA_DRIVER) and initialised with the first device's primary
  /// context on first use.
  static CudaDriver &get();

  /// Whether the driver loaded and a device context is current; `why`
  /// says what failed otherwise.
  bool isAvailable(std::string *why = nullptr);

  /// The first error any call recorded since the last clearError(), empty
  /// if none. Compiled code cannot report errors itself: callers check this
  /// after a call.
  std::string takeError();

  /// Records `message` as the current error (the first one wins).
  void recordError(const std::string &message);
  /// Records a failed driver call (`result` non-zero) and returns false.
  bool check(CUresult result, const char *what);

  /// The device's name, for reports ("NVIDIA H200").
  std::string getDeviceName();
  /// The device the context is on (valid once isAvailable() returned true).
  CUdevice getDevice() const { return device; }

  // Entry points (valid once isAvailable() returned true).
  CUresult (*cuModuleLoadData)(CUmodule *, const void *) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *,
                                 void **) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule,
                                  const char *) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, unsigned, CUstream,
                             void **, void **) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int) = nullptr;
  CUresult (*cuStreamCreate)(CUstream *, unsigned) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuStreamDestroy)(CUstream) = nullptr;
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t) = nullptr;
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned) = nullptr;
  CUresult (*cuMemFree)(CUdeviceptr) = nullptr;
  CUresult (*cuMemHostRegister)(void *, size_t, unsigned) = nullptr;
  CUresult (*cuMemHostUnregister)(void *) = nullptr;
  CUresult (*cuCtxSynchronize)() = nullptr;

  // Optional entry points (null when the driver lacks them): kernel timing
  // (events) and prefetching managed memory, which only benchmarks and
  // performance need.
  CUresult (*cuEventCreate)(CUevent *, unsigned) = nullptr;
  CUresult (*cuEventRecord)(CUevent, CUstream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent) = nullptr;
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent) = nullptr;
  CUresult (*cuEventDestroy)(CUevent) = nullptr;
  CUresult (*cuMemPrefetchAsync)(CUdeviceptr, size_t, CUmemLocation, unsigned,
                                 CUstream) = nullptr;

  /// CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED / _NOT_REGISTERED: expected
  /// when one buffer is passed as two arguments.
  static constexpr CUresult kAlreadyRegistered = 712;
  static constexpr CUresult kNotRegistered = 713;
  /// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: a kernel may be
  /// launched with more than 48 KiB of dynamic shared memory only after
  /// this attribute was raised to that size.
  static constexpr int kMaxDynamicSharedSizeAttribute = 8;
  static constexpr int32_t kDefaultSharedMemoryBytes = 48 * 1024;

private:
  CudaDriver() = default;
  bool load();
  void loadOptional();

  std::mutex mutex;
  bool attempted = false, loaded = false;
  std::string loadError;
  std::string firstError;
  void *library = nullptr;
  CUcontext context = nullptr;
  CUdevice device = 0;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
};

} // namespace mlir::opsnn::runtime

/// C entry points for code that dlopens the runtime (ops-nn-run checks an
/// artifact's GPU state through them).
extern "C" {
/// 1 when the driver and a device are usable; otherwise 0 and `why` (may be
/// null) receives a message (valid until the next call).
int opsnnCudaIsAvailable(const char **why);
/// The first error recorded since the last call (empty string if none).
const char *opsnnCudaTakeError();
/// Frees a buffer compiled code allocated (managed memory), or one
/// opsnnCudaUpload made.
void opsnnCudaFree(void *pointer);
/// A copy of `bytes` of host `data` in managed memory, prefetched to the
/// device (where the driver supports it), for calls that pass the same
/// inputs many times (timing): compiled code does not host-register these
/// buffers, so its kernels read device memory, not host memory over the
/// bus. Null with an error recorded on failure; free with opsnnCudaFree.
void *opsnnCudaUpload(const void *data, size_t bytes);
/// Non-zero: time every kernel launch from now on with a pair of CUDA
/// events; zero: stop (pending times are dropped).
void opsnnCudaTimeKernels(int enable);
/// Waits for the launches timed since the last call and returns the sum of
/// their times in milliseconds (0 when none); -1 with an error recorded when
/// the driver cannot time them.
double opsnnCudaTakeKernelMilliseconds();
}

#endif // OPSNN_RUNTIME_CUDADRIVER_H
