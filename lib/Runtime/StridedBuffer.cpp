//===- StridedBuffer.cpp - Host buffers and memref descriptors ------------===//
//
// Descriptor construction for inputs and strided copies for outputs.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/StridedBuffer.h"

#include <cstdlib>
#include <cstring>
#include <cstdio>

using namespace mlir::opsnn::runtime;

void mlir::opsnn::runtime::writeContiguousDescriptor(
    int64_t *words, void *data, const std::vector<int64_t> &shape) {
  int64_t rank = shape.size();
  words[0] = reinterpret_cast<int64_t>(data);
  words[1] = reinterpret_cast<int64_t>(data);
  words[2] = 0;
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    words[3 + i] = shape[i];
    words[3 + rank + i] = stride;
    stride *= shape[i];
  }
}

NpyArray mlir::opsnn::runtime::readDescriptor(const int64_t *words, int64_t rank,
                                        const std::string &descr) {
  NpyArray array;
  array.descr = descr;
  array.shape.assign(words + 3, words + 3 + rank);
  const int64_t *strides = words + 3 + rank;
  int64_t elementBytes = getNpyElementBytes(descr);
  int64_t count = array.getNumElements();
  array.data.resize(count * elementBytes);
  if (count == 0)
    return array;

  const char *base = reinterpret_cast<const char *>(words[1]) +
                     words[2] * elementBytes;
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(&array.data[linear * elementBytes], base + offset * elementBytes,
                elementBytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < array.shape[d])
        break;
      index[d] = 0;
    }
  }
  return array;
}
