//===- CudaDeviceBuffers.h - Managed buffers the runtime owns ---*- C++ -*-===//
//
// Internal to libopsnn_cuda_runtime.so: which buffers opsnnCudaUpload made
// (compiled code host-registers its arguments, which must skip these), and
// prefetching managed memory to the device.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_RUNTIME_CUDADEVICEBUFFERS_H
#define OPSNN_LIB_RUNTIME_CUDADEVICEBUFFERS_H

#include "opsnn/Runtime/CudaDriver.h"

namespace mlir::opsnn::runtime {

/// Whether `pointer` lies inside a buffer opsnnCudaUpload made and
/// opsnnCudaFree has not freed.
bool isUploadedBuffer(const void *pointer);

/// Asks the driver to move managed memory to the device ahead of its use on
/// `stream`. A hint: nothing happens where the driver cannot prefetch, and a
/// refusal is not an error (the pages then move on first touch).
void prefetchToDevice(CudaDriver &driver, void *pointer, size_t bytes,
                      CudaDriver::CUstream stream);

} // namespace mlir::opsnn::runtime

#endif // OPSNN_LIB_RUNTIME_CUDADEVICEBUFFERS_H
