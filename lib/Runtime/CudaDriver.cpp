//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//

#include "opsnn/Runtime/CudaDriver.h"

#include <cstdlib>
#include <dlfcn.h>
#include <initializer_list>
#include <type_traits>

using namespace mlir::opsnn::runtime;

CudaDriver &CudaDriver::get() {
  static CudaDriver driver;
  return driver;
}

template <typename T>
static bool resolve(void *library, const char *name, T &slot,
                    std::string &error) {
  slot = reinterpret_cast<T>(dlsym(library, name));
  if (!slot && error.empty())
    error = std::string("the CUDA driver lacks ") + name;
  return slot != nullptr;
}

bool CudaDriver::load() {
  const char *path = std::getenv("OPSNN_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *message = dlerror();
    loadError = std::string("no CUDA driver: ") +
                (message ? message : "cannot load libcuda.so.1");
    return false;
  }
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  std::string error;
  // _v2 names are the ones the CUDA headers map the plain names to.
  resolve(library, "cuInit", cuInit, error);
  resolve(library, "cuDeviceGetCount", cuDeviceGetCount, error);
  resolve(library, "cuDeviceGet", cuDeviceGet, error);
  resolve(library, "cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, error);
  resolve(library, "cuCtxSetCurrent", cuCtxSetCurrent, error);
  resolve(library, "cuGetErrorString", cuGetErrorString, error);
  resolve(library, "cuDeviceGetName", cuDeviceGetName, error);
  resolve(library, "cuModuleLoadData", cuModuleLoadData, error);
  resolve(library, "cuModuleLoadDataEx", cuModuleLoadDataEx, error);
  resolve(library, "cuModuleUnload", cuModuleUnload, error);
  resolve(library, "cuModuleGetFunction", cuModuleGetFunction, error);
  resolve(library, "cuLaunchKernel", cuLaunchKernel, error);
  resolve(library, "cuFuncSetAttribute", cuFuncSetAttribute, error);
  resolve(library, "cuStreamCreate", cuStreamCreate, error);
  resolve(library, "cuStreamSynchronize", cuStreamSynchronize, error);
  resolve(library, "cuStreamDestroy_v2", cuStreamDestroy, error);
  resolve(library, "cuMemAlloc_v2", cuMemAlloc, error);
  resolve(library, "cuMemAllocManaged", cuMemAllocManaged, error);
  resolve(library, "cuMemFree_v2", cuMemFree, error);
  resolve(library, "cuMemHostRegister_v2", cuMemHostRegister, error);
  resolve(library, "cuMemHostUnregister", cuMemHostUnregister, error);
  resolve(library, "cuCtxSynchronize", cuCtxSynchronize, error);
  if (!error.empty()) {
    loadError = error;
    return false;
  }
  loadOptional();
  int count = 0;
  if (CUresult r = cuInit(0)) {
    loadError = "cuInit failed with CUDA error " + std::to_string(r);
    return false;
  }
  if (cuDeviceGetCount(&count) || count == 0) {
    loadError = "the CUDA driver sees no device";
    return false;
  }
  if (CUresult r = cuDeviceGet(&device, 0)) {
    loadError = "cuDeviceGet failed with CUDA error " + std::to_string(r);
    return false;
  }
  if (CUresult r = cuDevicePrimaryCtxRetain(&context, device)) {
    loadError = "cuDevicePrimaryCtxRetain failed with CUDA error " +
                std::to_string(r);
    return false;
  }
  if (CUresult r = cuCtxSetCurrent(context)) {
    loadError = "cuCtxSetCurrent failed with CUDA error " + std::to_string(r);
    return false;
  }
  return true;
}

void CudaDriver::loadOptional() {
  auto optional = [&](auto &slot, std::initializer_list<const char *> names) {
    for (const char *name : names)
      if ((slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(
               dlsym(library, name))))
        return;
  };
  optional(cuEventCreate, {"cuEventCreate"});
  optional(cuEventRecord, {"cuEventRecord"});
  optional(cuEventSynchronize, {"cuEventSynchronize"});
  // CUDA 12.8 added the _v2 spelling, which cuda.h maps the plain name to.
  optional(cuEventElapsedTime, {"cuEventElapsedTime_v2", "cuEventElapsedTime"});
  optional(cuEventDestroy, {"cuEventDestroy_v2"});
  // The CUmemLocation form (CUDA 12.2+; the plain name in CUDA 13 headers).
  optional(cuMemPrefetchAsync, {"cuMemPrefetchAsync_v2"});
}

bool CudaDriver::isAvailable(std::string *why) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!attempted) {
    attempted = true;
    loaded = load();
  }
  if (!loaded && why)
    *why = loadError;
  return loaded;
}

void CudaDriver::recordError(const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex);
  if (firstError.empty())
    firstError = message;
}

std::string CudaDriver::takeError() {
  std::lock_guard<std::mutex> lock(mutex);
  std::string error;
  error.swap(firstError);
  return error;
}

bool CudaDriver::check(CUresult result, const char *what) {
  if (result == 0)
    return true;
  const char *text = nullptr;
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  recordError(std::string(what) + " failed: " +
              (text ? text : "CUDA error " + std::to_string(result)));
  return false;
}

std::string CudaDriver::getDeviceName() {
  if (!isAvailable())
    return "";
  char name[256] = {0};
  if (cuDeviceGetName(name, sizeof(name) - 1, device))
    return "";
  return name;
}

extern "C" int opsnnCudaIsAvailable(const char **why) {
  static thread_local std::string message;
  bool available = CudaDriver::get().isAvailable(&message);
  if (why)
    *why = message.c_str();
  return available ? 1 : 0;
}

extern "C" const char *opsnnCudaTakeError() {
  static thread_local std::string message;
  message = CudaDriver::get().takeError();
  return message.c_str();
}
