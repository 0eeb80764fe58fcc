//===- PackedCall.cpp - Call compiled functions on NumPy arrays -----------===//
//
// Argument marshalling around MLIR's packed calling convention.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/PackedCall.h"

#include "opsnn/Runtime/StridedBuffer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>

using namespace mlir::opsnn::runtime;

bool mlir::opsnn::runtime::checkInputs(const std::vector<TensorSpec> &inputs,
                                       const std::vector<NpyArray> &arrays,
                                       const std::string &entry,
                                       std::string &error) {
  if (arrays.size() != inputs.size()) {
    error = "@" + entry + " takes " + std::to_string(inputs.size()) +
            " argument(s) but " + std::to_string(arrays.size()) +
            " input(s) were given";
    return false;
  }
  for (size_t index = 0; index < inputs.size(); ++index) {
    const TensorSpec &spec = inputs[index];
    const NpyArray &array = arrays[index];
    std::string name =
        "argument #" + std::to_string(index) + " (" + spec.type + ")";
    if (array.descr != spec.descr) {
      error = name + ": expected .npy dtype '" + spec.descr +
              "' for element type " + spec.elementType + ", got '" +
              array.descr + "'";
      return false;
    }
    if (array.shape.size() != spec.shape.size()) {
      error = name + ": expected rank " + std::to_string(spec.shape.size()) +
              ", got an array of rank " + std::to_string(array.shape.size());
      return false;
    }
    for (size_t dim = 0; dim < spec.shape.size(); ++dim) {
      if (spec.shape[dim] >= 0 && spec.shape[dim] != array.shape[dim]) {
        error = name + ": dimension " + std::to_string(dim) + " has size " +
                std::to_string(array.shape[dim]) + ", expected " +
                std::to_string(spec.shape[dim]);
        return false;
      }
    }
  }
  return true;
}

namespace {
/// The default uploader: a 64-byte aligned host copy (freed with free).
void *copyToAlignedHostMemory(const void *data, size_t bytes) {
  // aligned_alloc wants a multiple of the alignment and a non-zero size.
  size_t rounded = ((bytes + 63) / 64) * 64;
  void *pointer = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (!pointer) {
    std::fprintf(stderr, "ops-nn runtime: out of memory (%zu bytes)\n", bytes);
    std::abort();
  }
  if (bytes)
    std::memcpy(pointer, data, bytes);
  return pointer;
}
} // namespace

PackedInputs::PackedInputs(const std::vector<NpyArray> &arrays,
                           Uploader upload, Deallocator release)
    : release(upload ? release : std::free) {
  if (!upload)
    upload = copyToAlignedHostMemory;
  buffers.reserve(arrays.size());
  descriptors.reserve(arrays.size());
  for (const NpyArray &array : arrays) {
    void *buffer = upload(array.data.data(), array.data.size());
    if (!buffer) {
      valid = false;
      return;
    }
    buffers.push_back(buffer);
    descriptors.emplace_back(getDescriptorWords(array.shape.size()));
    writeContiguousDescriptor(descriptors.back().data(), buffer, array.shape);
  }
}

PackedInputs::~PackedInputs() {
  for (void *buffer : buffers)
    if (release)
      release(buffer);
}

std::vector<void *> PackedInputs::getPackedArguments() {
  std::vector<void *> arguments;
  for (std::vector<int64_t> &descriptor : descriptors)
    for (int64_t &word : descriptor)
      arguments.push_back(&word);
  return arguments;
}

bool PackedInputs::isInputBuffer(void *pointer) const {
  return std::find(buffers.begin(), buffers.end(), pointer) != buffers.end();
}

void mlir::opsnn::runtime::callPacked(PackedFunction function,
                                      const std::vector<NpyArray> &arrays,
                                      const std::vector<TensorSpec> &results,
                                      std::vector<NpyArray> *outputs,
                                      Deallocator deallocate) {
  PackedInputs inputs(arrays);
  callPacked(function, inputs, results, outputs, deallocate);
}

void mlir::opsnn::runtime::callPacked(PackedFunction function,
                                      PackedInputs &inputs,
                                      const std::vector<TensorSpec> &results,
                                      std::vector<NpyArray> *outputs,
                                      Deallocator deallocate) {
  std::vector<void *> packedArgs = inputs.getPackedArguments();

  // Results: the packed wrapper stores the returned struct of descriptors
  // (8-byte words, no padding) through the last pointer.
  size_t resultWords = 0;
  for (const TensorSpec &result : results)
    resultWords += getDescriptorWords(result.shape.size());
  std::vector<int64_t> returned(resultWords, 0);
  if (!results.empty())
    packedArgs.push_back(returned.data());

  function(packedArgs.data());

  // Copy every result out first (results may share a buffer: a value and
  // a reshaped view of it), then free each buffer once. Buffers the
  // function did not allocate (its inputs, constants marked 0xdeadbeef) are
  // not freed.
  const int64_t *words = returned.data();
  std::vector<void *> allocations;
  for (const TensorSpec &result : results) {
    int64_t rank = result.shape.size();
    if (outputs)
      outputs->push_back(readDescriptor(words, rank, result.descr));
    allocations.push_back(getAllocatedPointer(words));
    words += getDescriptorWords(rank);
  }
  std::set<void *> freed;
  for (void *allocated : allocations)
    if (allocated && allocated != reinterpret_cast<void *>(0xdeadbeef) &&
        !inputs.isInputBuffer(allocated) && freed.insert(allocated).second)
      (deallocate ? deallocate : std::free)(allocated);
}
