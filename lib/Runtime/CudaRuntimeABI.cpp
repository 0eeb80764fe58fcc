//===- CudaRuntimeABI.cpp - The mgpu* functions compiled GPU code calls ---===//
//
// MLIR's gpu-to-llvm lowering turns module loads, kernel launches, streams,
// `gpu.alloc host_shared` and `gpu.host_register` into calls to these C
// functions (the signatures follow the calls it emits in LLVM 22). They are
// implemented on CudaDriver, so a compiled model depends on this library
// and the driver only. Without a driver every function records an error
// and does nothing: callers check opsnnCudaIsAvailable() before running
// compiled code and opsnnCudaTakeError() after.
//
//===----------------------------------------------------------------------===//

#include "CudaDeviceBuffers.h"
#include "CudaKernelTimer.h"
#include "opsnn/Runtime/CudaDriver.h"

#include <cstring>
#include <string>

using mlir::opsnn::runtime::CudaDriver;
using mlir::opsnn::runtime::isUploadedBuffer;
using mlir::opsnn::runtime::prefetchToDevice;
using mlir::opsnn::runtime::TimedLaunch;

namespace {
CudaDriver *availableDriver(const char *what) {
  CudaDriver &driver = CudaDriver::get();
  std::string why;
  if (driver.isAvailable(&why))
    return &driver;
  driver.recordError(std::string(what) + ": " + why);
  return nullptr;
}

/// A ranked memref descriptor: allocated and aligned pointers, offset, then
/// `rank` sizes and `rank` strides.
struct MemRefDescriptor {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
};

/// The bytes a descriptor spans from its first element, or 0 when empty.
size_t spannedBytes(int64_t rank, const MemRefDescriptor *descriptor,
                    int64_t elementBytes, char **start) {
  int64_t last = 0;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size = descriptor->sizesAndStrides[i];
    int64_t stride = descriptor->sizesAndStrides[rank + i];
    if (size == 0)
      return 0;
    last += (size - 1) * stride;
  }
  *start = descriptor->aligned + descriptor->offset * elementBytes;
  return static_cast<size_t>((last + 1) * elementBytes);
}
} // namespace

extern "C" {

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  CudaDriver *driver = availableDriver("loading a cubin");
  if (!driver)
    return nullptr;
  void *module = nullptr;
  driver->check(driver->cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  CudaDriver *driver = availableDriver("loading PTX");
  if (!driver)
    return nullptr;
  // CU_JIT_ERROR_LOG_BUFFER (5), ..._SIZE_BYTES (6), OPTIMIZATION_LEVEL (7).
  char log[4096] = {0};
  int options[] = {5, 6, 7};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log) - 1),
                    reinterpret_cast<void *>(static_cast<intptr_t>(optLevel))};
  void *module = nullptr;
  CudaDriver::CUresult result =
      driver->cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result)
    driver->recordError(std::string("JIT-compiling the PTX failed: ") + log);
  return module;
}

void mgpuModuleUnload(void *module) {
  CudaDriver &driver = CudaDriver::get();
  if (module && driver.isAvailable())
    driver.check(driver.cuModuleUnload(module), "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  CudaDriver *driver = availableDriver("finding a kernel");
  if (!driver || !module) {
    CudaDriver::get().recordError(std::string("kernel ") + name +
                                  ": its module did not load");
    return nullptr;
  }
  void *function = nullptr;
  driver->check(driver->cuModuleGetFunction(&function, module, name),
                "cuModuleGetFunction");
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  CudaDriver *driver = availableDriver("launching a kernel");
  if (!driver || !function)
    return;
  // Kernels with more than 48 KiB of dynamic shared memory (the tensor-core
  // kernels' larger tiles) must opt in first; the driver rejects the launch
  // (with a message) if the device has less.
  if (sharedMemoryBytes > CudaDriver::kDefaultSharedMemoryBytes &&
      !driver->check(driver->cuFuncSetAttribute(
                         function, CudaDriver::kMaxDynamicSharedSizeAttribute,
                         sharedMemoryBytes),
                     "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
    return;
  TimedLaunch timed(*driver, stream);
  driver->check(driver->cuLaunchKernel(function, gridX, gridY, gridZ, blockX,
                                       blockY, blockZ, sharedMemoryBytes,
                                       stream, params, extra),
                "cuLaunchKernel");
}

void *mgpuStreamCreate() {
  CudaDriver *driver = availableDriver("creating a stream");
  if (!driver)
    return nullptr;
  void *stream = nullptr;
  driver->check(driver->cuStreamCreate(&stream, /*CU_STREAM_NON_BLOCKING=*/1),
                "cuStreamCreate");
  return stream;
}

void mgpuStreamSynchronize(void *stream) {
  CudaDriver *driver = availableDriver("synchronizing");
  if (driver)
    driver->check(driver->cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void mgpuStreamDestroy(void *stream) {
  CudaDriver &driver = CudaDriver::get();
  if (stream && driver.isAvailable())
    driver.check(driver.cuStreamDestroy(stream), "cuStreamDestroy");
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
  CudaDriver *driver = availableDriver("allocating");
  if (!driver)
    return nullptr;
  CudaDriver::CUdeviceptr pointer = 0;
  size_t bytes = sizeBytes ? sizeBytes : 1;
  if (isHostShared) {
    // Managed: results the host reads after the call. Kernels write them
    // first, so their pages start on the device rather than fault there.
    if (driver->check(driver->cuMemAllocManaged(&pointer, bytes,
                                                /*CU_MEM_ATTACH_GLOBAL=*/1),
                      "cuMemAllocManaged"))
      prefetchToDevice(*driver, reinterpret_cast<void *>(pointer), bytes,
                       stream);
  } else
    driver->check(driver->cuMemAlloc(&pointer, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, void * /*stream*/) { opsnnCudaFree(pointer); }

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementBytes) {
  CudaDriver *driver = availableDriver("registering host memory");
  char *start = nullptr;
  size_t bytes = spannedBytes(
      rank, static_cast<MemRefDescriptor *>(descriptor), elementBytes, &start);
  // Inputs opsnnCudaUpload placed in device memory need no registration.
  if (!driver || bytes == 0 || isUploadedBuffer(start))
    return;
  // Unified addressing: the device reads registered memory at its host
  // address. A buffer passed twice is registered once.
  CudaDriver::CUresult result = driver->cuMemHostRegister(start, bytes, 0);
  if (result != CudaDriver::kAlreadyRegistered)
    driver->check(result, "cuMemHostRegister");
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementBytes) {
  CudaDriver &driver = CudaDriver::get();
  char *start = nullptr;
  size_t bytes = spannedBytes(
      rank, static_cast<MemRefDescriptor *>(descriptor), elementBytes, &start);
  if (bytes == 0 || !driver.isAvailable() || isUploadedBuffer(start))
    return;
  CudaDriver::CUresult result = driver.cuMemHostUnregister(start);
  if (result != CudaDriver::kNotRegistered)
    driver.check(result, "cuMemHostUnregister");
}

} // extern "C"
