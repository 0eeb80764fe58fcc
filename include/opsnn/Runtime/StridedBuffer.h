//===- StridedBuffer.h - Host buffers and memref descriptors ----*- C++ -*-===//
//
// The calling convention between the runtime and compiled code: a tensor
// crosses the boundary as MLIR's lowered memref descriptor, 8-byte words
// {allocated, aligned, offset, sizes[rank], strides[rank]}. This file builds
// descriptors around buffers and copies strided results back into
// C-order arrays. Plain C++, no LLVM/MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_STRIDEDBUFFER_H
#define OPSNN_RUNTIME_STRIDEDBUFFER_H

#include "opsnn/Runtime/Npy.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlir::opsnn::runtime {

/// Number of 8-byte words in a descriptor of `rank`.
inline size_t getDescriptorWords(int64_t rank) { return 3 + 2 * rank; }

/// Writes the descriptor of a contiguous row-major buffer `data` of `shape`
/// into `words` (getDescriptorWords(shape.size()) of them).
void writeContiguousDescriptor(int64_t *words, void *data,
                               const std::vector<int64_t> &shape);

/// Reads the tensor a descriptor of `rank` describes into a C-order array
/// with element type `descr`, following its offset and strides.
NpyArray readDescriptor(const int64_t *words, int64_t rank,
                        const std::string &descr);

/// The `allocated` pointer of a descriptor (what `free` must be given).
inline void *getAllocatedPointer(const int64_t *words) {
  return reinterpret_cast<void *>(words[0]);
}

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_STRIDEDBUFFER_H
