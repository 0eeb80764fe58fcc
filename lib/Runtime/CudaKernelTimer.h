//===- CudaKernelTimer.h - Kernel launches timed with events ----*- C++ -*-===//
//
// Internal to libopsnn_cuda_runtime.so: while opsnnCudaTimeKernels(1) is in
// effect, every launch is bracketed by two CUDA events on its stream, and
// opsnnCudaTakeKernelMilliseconds sums the times between them: the GPU's
// own measure of the kernels, without the host's launch and
// synchronisation overhead.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_RUNTIME_CUDAKERNELTIMER_H
#define OPSNN_LIB_RUNTIME_CUDAKERNELTIMER_H

#include "opsnn/Runtime/CudaDriver.h"

namespace mlir::opsnn::runtime {

/// Brackets one launch: records the start event when constructed and the
/// end event when destroyed (nothing when timing is off).
class TimedLaunch {
public:
  TimedLaunch(CudaDriver &driver, CudaDriver::CUstream stream);
  ~TimedLaunch();
  TimedLaunch(const TimedLaunch &) = delete;
  TimedLaunch &operator=(const TimedLaunch &) = delete;

private:
  CudaDriver &driver;
  CudaDriver::CUstream stream;
  CudaDriver::CUevent start = nullptr;
};

} // namespace mlir::opsnn::runtime

#endif // OPSNN_LIB_RUNTIME_CUDAKERNELTIMER_H
