//===- CudaKernelTimer.cpp - Kernel launches timed with events ------------===//

#include "CudaKernelTimer.h"

#include <mutex>
#include <utility>
#include <vector>

using namespace mlir::opsnn::runtime;
using CUevent = CudaDriver::CUevent;

namespace {
/// Whether launches are timed, and the event pairs of the launches timed
/// since the last take.
struct KernelTimes {
  std::mutex mutex;
  bool enabled = false;
  std::vector<std::pair<CUevent, CUevent>> pending;
};

KernelTimes &getKernelTimes() {
  static KernelTimes times;
  return times;
}

bool canTime(CudaDriver &driver) {
  return driver.cuEventCreate && driver.cuEventRecord &&
         driver.cuEventSynchronize && driver.cuEventElapsedTime &&
         driver.cuEventDestroy;
}

/// A new event recorded on `stream`, or null (error recorded).
CUevent recordEvent(CudaDriver &driver, CudaDriver::CUstream stream) {
  CUevent event = nullptr;
  if (!driver.check(driver.cuEventCreate(&event, /*CU_EVENT_DEFAULT=*/0),
                    "cuEventCreate"))
    return nullptr;
  if (!driver.check(driver.cuEventRecord(event, stream), "cuEventRecord")) {
    driver.cuEventDestroy(event);
    return nullptr;
  }
  return event;
}

/// Destroys the pending events; returns their summed time, or -1 when one
/// could not be read (error recorded).
double drain(CudaDriver &driver,
             std::vector<std::pair<CUevent, CUevent>> &pending) {
  double total = 0;
  bool ok = true;
  for (auto [start, end] : pending) {
    float ms = 0;
    ok = ok && driver.check(driver.cuEventSynchronize(end), "cuEventSynchronize") &&
         driver.check(driver.cuEventElapsedTime(&ms, start, end),
                      "cuEventElapsedTime");
    total += ms;
    driver.cuEventDestroy(start);
    driver.cuEventDestroy(end);
  }
  pending.clear();
  return ok ? total : -1;
}
} // namespace

TimedLaunch::TimedLaunch(CudaDriver &driver, CudaDriver::CUstream stream)
    : driver(driver), stream(stream) {
  KernelTimes &times = getKernelTimes();
  std::lock_guard<std::mutex> lock(times.mutex);
  if (times.enabled)
    start = recordEvent(driver, stream);
}

TimedLaunch::~TimedLaunch() {
  if (!start)
    return;
  CUevent end = recordEvent(driver, stream);
  if (!end) {
    driver.cuEventDestroy(start);
    return;
  }
  KernelTimes &times = getKernelTimes();
  std::lock_guard<std::mutex> lock(times.mutex);
  times.pending.emplace_back(start, end);
}

extern "C" void opsnnCudaTimeKernels(int enable) {
  CudaDriver &driver = CudaDriver::get();
  std::string why;
  if (!driver.isAvailable(&why)) {
    driver.recordError("timing kernels: " + why);
    return;
  }
  if (enable && !canTime(driver)) {
    driver.recordError("timing kernels: the CUDA driver lacks the event "
                       "functions (cuEventCreate ... cuEventElapsedTime)");
    return;
  }
  KernelTimes &times = getKernelTimes();
  std::lock_guard<std::mutex> lock(times.mutex);
  if (!enable)
    drain(driver, times.pending);
  times.enabled = enable != 0;
}

extern "C" double opsnnCudaTakeKernelMilliseconds() {
  CudaDriver &driver = CudaDriver::get();
  if (!driver.isAvailable() || !canTime(driver)) {
    driver.recordError("timing kernels: no CUDA driver with event functions");
    return -1;
  }
  KernelTimes &times = getKernelTimes();
  std::lock_guard<std::mutex> lock(times.mutex);
  return drain(driver, times.pending);
}
