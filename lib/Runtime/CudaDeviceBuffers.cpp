//===- CudaDeviceBuffers.cpp - Inputs uploaded once, kept on the device ---===//
//
// opsnnCudaUpload copies an input into managed memory and prefetches it to
// the device, so that repeated calls (timing) read device memory. The
// runtime remembers these buffers: compiled code host-registers every
// argument (mgpuMemHostRegisterMemRef), which must leave them alone, as
// registering device-resident managed memory is neither needed nor allowed.
//
//===----------------------------------------------------------------------===//

#include "CudaDeviceBuffers.h"

#include <cstring>
#include <map>
#include <mutex>

using namespace mlir::opsnn::runtime;

namespace {
/// Start address -> size of every live uploaded buffer.
struct UploadedBuffers {
  std::mutex mutex;
  std::map<uintptr_t, size_t> sizes;
};

UploadedBuffers &getUploadedBuffers() {
  static UploadedBuffers buffers;
  return buffers;
}
} // namespace

bool mlir::opsnn::runtime::isUploadedBuffer(const void *pointer) {
  UploadedBuffers &buffers = getUploadedBuffers();
  std::lock_guard<std::mutex> lock(buffers.mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  auto next = buffers.sizes.upper_bound(address);
  if (next == buffers.sizes.begin())
    return false;
  auto containing = std::prev(next);
  return address < containing->first + containing->second;
}

void mlir::opsnn::runtime::prefetchToDevice(CudaDriver &driver, void *pointer,
                                            size_t bytes,
                                            CudaDriver::CUstream stream) {
  if (!driver.cuMemPrefetchAsync || !pointer || bytes == 0)
    return;
  CudaDriver::CUmemLocation device{/*CU_MEM_LOCATION_TYPE_DEVICE=*/1,
                                   driver.getDevice()};
  (void)driver.cuMemPrefetchAsync(reinterpret_cast<uintptr_t>(pointer), bytes,
                                  device, 0, stream);
}

extern "C" void *opsnnCudaUpload(const void *data, size_t bytes) {
  CudaDriver &driver = CudaDriver::get();
  std::string why;
  if (!driver.isAvailable(&why)) {
    driver.recordError("uploading an input: " + why);
    return nullptr;
  }
  CudaDriver::CUdeviceptr address = 0;
  size_t allocated = bytes ? bytes : 1;
  if (!driver.check(driver.cuMemAllocManaged(&address, allocated,
                                             /*CU_MEM_ATTACH_GLOBAL=*/1),
                    "cuMemAllocManaged"))
    return nullptr;
  void *pointer = reinterpret_cast<void *>(address);
  if (bytes)
    std::memcpy(pointer, data, bytes);
  prefetchToDevice(driver, pointer, allocated, /*stream=*/nullptr);
  if (!driver.check(driver.cuCtxSynchronize(), "cuCtxSynchronize")) {
    driver.cuMemFree(address);
    return nullptr;
  }
  UploadedBuffers &buffers = getUploadedBuffers();
  std::lock_guard<std::mutex> lock(buffers.mutex);
  buffers.sizes[address] = allocated;
  return pointer;
}

extern "C" void opsnnCudaFree(void *pointer) {
  CudaDriver &driver = CudaDriver::get();
  if (!pointer || !driver.isAvailable())
    return;
  {
    UploadedBuffers &buffers = getUploadedBuffers();
    std::lock_guard<std::mutex> lock(buffers.mutex);
    buffers.sizes.erase(reinterpret_cast<uintptr_t>(pointer));
  }
  driver.check(driver.cuMemFree(reinterpret_cast<uint64_t>(pointer)),
               "cuMemFree");
}
