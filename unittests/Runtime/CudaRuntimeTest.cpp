//===- CudaRuntimeTest.cpp - The GPU runtime without a driver -------------===//
//
// Runs anywhere: the driver path points at a file that does not exist, so
// every entry point must fail softly with a message, never crash.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/CudaDriver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

extern "C" {
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t, intptr_t, intptr_t, intptr_t,
                      intptr_t, intptr_t, int32_t, void *, void **, void **,
                      size_t);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementBytes);
}

namespace {
TEST(CudaRuntime, MissingDriverIsReportedNotFatal) {
  // Before any other use of the driver in this process.
  setenv("OPSNN_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
  const char *why = nullptr;
  EXPECT_EQ(opsnnCudaIsAvailable(&why), 0);
  ASSERT_NE(why, nullptr);
  EXPECT_NE(std::string(why).find("no CUDA driver: /nonexistent/libcuda.so.1"),
            std::string::npos)
      << why;

  // What compiled code would call: nothing happens, the first error stays.
  EXPECT_EQ(mgpuModuleLoadJIT(nullptr, 3), nullptr);
  EXPECT_EQ(mgpuModuleGetFunction(nullptr, "kernel"), nullptr);
  mgpuLaunchKernel(nullptr, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr,
                   0);
  EXPECT_EQ(mgpuMemAlloc(64, nullptr, true), nullptr);
  struct {
    void *allocated, *aligned;
    int64_t offset, size, stride;
  } descriptor{nullptr, nullptr, 0, 4, 1};
  mgpuMemHostRegisterMemRef(1, &descriptor, 4);
  std::string error = opsnnCudaTakeError();
  EXPECT_NE(error.find("loading PTX: no CUDA driver"), std::string::npos)
      << error;
  EXPECT_EQ(std::string(opsnnCudaTakeError()), "");
  opsnnCudaFree(nullptr); // no-op

  // Timing support fails the same way.
  float data[4] = {1, 2, 3, 4};
  EXPECT_EQ(opsnnCudaUpload(data, sizeof(data)), nullptr);
  error = opsnnCudaTakeError();
  EXPECT_NE(error.find("uploading an input: no CUDA driver"),
            std::string::npos)
      << error;
  opsnnCudaTimeKernels(1);
  EXPECT_NE(std::string(opsnnCudaTakeError()).find("timing kernels"),
            std::string::npos);
  EXPECT_EQ(opsnnCudaTakeKernelMilliseconds(), -1);
  EXPECT_NE(std::string(opsnnCudaTakeError()).find("timing kernels"),
            std::string::npos);
}
} // namespace
