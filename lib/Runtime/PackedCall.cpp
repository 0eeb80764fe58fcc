//===- PackedCall.cpp - Call compiled functions on NumPy arrays -----------===//
//
// Argument marshalling around MLIR's packed calling convention.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Runtime/PackedCall.h"

#include "opsnn/Runtime/StridedBuffer.h"

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

void mlir::opsnn::runtime::callPacked(PackedFunction function,
                                      const std::vector<NpyArray> &arrays,
                                      const std::vector<TensorSpec> &results,
                                      std::vector<NpyArray> *outputs,
                                      Deallocator deallocate) {
  // Inputs: copied into aligned buffers (the compiled code may assume more
  // alignment than a std::vector gives) and described.
  std::vector<AlignedBuffer> buffers;
  std::vector<std::vector<int64_t>> descriptors;
  buffers.reserve(arrays.size());
  descriptors.reserve(arrays.size());
  std::vector<void *> packedArgs;
  std::set<void *> inputPointers;
  for (const NpyArray &array : arrays) {
    buffers.emplace_back(array.data.size());
    std::memcpy(buffers.back().data(), array.data.data(), array.data.size());
    inputPointers.insert(buffers.back().data());
    descriptors.emplace_back(getDescriptorWords(array.shape.size()));
    writeContiguousDescriptor(descriptors.back().data(), buffers.back().data(),
                              array.shape);
    for (int64_t &word : descriptors.back())
      packedArgs.push_back(&word);
  }

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
        !inputPointers.count(allocated) && freed.insert(allocated).second)
      (deallocate ? deallocate : std::free)(allocated);
}
