/*===- FakeCudaDriver.cpp - A libcuda.so stand-in for tests -----------------===
 *
 * Implements the driver entry points libopsnn_cuda_runtime.so resolves, so
 * that the path from compiled host code through the runtime to the driver
 * can be tested on machines without a GPU: memory comes from malloc (the
 * host and the "device" share it), kernels are not executed, and every call
 * is logged to stderr ("fake-cuda: ...") for FileCheck. FAKE_CUDA_FAIL=launch
 * makes launches fail; events measure FAKE_CUDA_KERNEL_MS per kernel.
 *
 *===----------------------------------------------------------------------===*/

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
typedef int CUresult;
static int fake_module, fake_function, fake_stream, fake_context;

#define LOG(...) fprintf(stderr, "fake-cuda: " __VA_ARGS__)

CUresult cuInit(unsigned flags) { LOG("cuInit\n"); return 0; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return 0; }
CUresult cuDevicePrimaryCtxRetain(void **context, int device) {
  *context = &fake_context;
  return 0;
}
CUresult cuCtxSetCurrent(void *context) { return 0; }
CUresult cuCtxSynchronize() { return 0; }
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = "fake error";
  return 0;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  strncpy(name, "Fake GPU", length);
  return 0;
}
CUresult cuModuleLoadData(void **module, const void *image) {
  LOG("cuModuleLoadData\n");
  *module = &fake_module;
  return 0;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned count,
                            int *options, void **values) {
  /* PTX is text: show its first .entry so tests see which kernel came. */
  const char *entry = strstr((const char *)image, ".entry ");
  char name[128] = {0};
  if (entry)
    sscanf(entry + 7, "%127[A-Za-z0-9_]", name);
  LOG("cuModuleLoadDataEx PTX with .entry %s, %u options\n", name, count);
  *module = &fake_module;
  return 0;
}
CUresult cuModuleUnload(void *module) { LOG("cuModuleUnload\n"); return 0; }
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
  LOG("cuModuleGetFunction %s\n", name);
  *function = &fake_function;
  return 0;
}
CUresult cuLaunchKernel(void *function, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        void *stream, void **params, void **extra) {
  LOG("cuLaunchKernel grid %ux%ux%u block %ux%ux%u shared %u\n", gx, gy, gz,
      bx, by, bz, shared);
  const char *fail = getenv("FAKE_CUDA_FAIL");
  return fail && strcmp(fail, "launch") == 0 ? 719 : 0;
}
CUresult cuFuncSetAttribute(void *function, int attribute, int value) {
  LOG("cuFuncSetAttribute %d = %d\n", attribute, value);
  return 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  *stream = &fake_stream;
  return 0;
}
CUresult cuStreamSynchronize(void *stream) { return 0; }
CUresult cuStreamDestroy_v2(void *stream) { return 0; }
CUresult cuMemAlloc_v2(uint64_t *pointer, size_t bytes) {
  *pointer = (uint64_t)(uintptr_t)calloc(1, bytes);
  LOG("cuMemAlloc %zu bytes\n", bytes);
  return 0;
}
CUresult cuMemAllocManaged(uint64_t *pointer, size_t bytes, unsigned flags) {
  *pointer = (uint64_t)(uintptr_t)calloc(1, bytes);
  LOG("cuMemAllocManaged %zu bytes\n", bytes);
  return 0;
}
CUresult cuMemFree_v2(uint64_t pointer) {
  LOG("cuMemFree\n");
  free((void *)(uintptr_t)pointer);
  return 0;
}
CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
  LOG("cuMemHostRegister %zu bytes\n", bytes);
  return 0;
}
CUresult cuMemHostUnregister(void *pointer) {
  LOG("cuMemHostUnregister\n");
  return 0;
}
/* Events: every kernel "takes" FAKE_CUDA_KERNEL_MS (default 0.25) ms. */
static int fake_event;
CUresult cuEventCreate(void **event, unsigned flags) {
  *event = &fake_event;
  return 0;
}
CUresult cuEventRecord(void *event, void *stream) { return 0; }
CUresult cuEventSynchronize(void *event) { return 0; }
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  const char *text = getenv("FAKE_CUDA_KERNEL_MS");
  *ms = text ? (float)atof(text) : 0.25f;
  return 0;
}
CUresult cuEventDestroy_v2(void *event) { return 0; }
typedef struct {
  int type;
  int id;
} CUmemLocation;
CUresult cuMemPrefetchAsync_v2(uint64_t pointer, size_t bytes,
                               CUmemLocation location, unsigned flags,
                               void *stream) {
  LOG("cuMemPrefetchAsync %zu bytes to %s %d\n", bytes,
      location.type == 1 ? "device" : "location", location.id);
  return 0;
}
} // extern "C"
