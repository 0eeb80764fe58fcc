//===- PackedCall.h - Call compiled functions on NumPy arrays ---*- C++ -*-===//
//
// Compiled entry points are MLIR "packed" wrappers, `void _mlir_<name>(void
// **args)`: args[i] points at each word of each argument's memref
// descriptor, and the last pointer receives the returned struct of result
// descriptors. This file checks NumPy arrays against a signature, calls a
// packed function on them and copies the results out. Plain C++: shared by
// the JIT path (ops-nn-run) and ahead-of-time artifacts.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_PACKEDCALL_H
#define OPSNN_RUNTIME_PACKEDCALL_H

#include "opsnn/Runtime/Npy.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mlir::opsnn::runtime {

/// One tensor of a signature: its .npy dtype, its shape (-1 = dynamic) and,
/// for messages, its MLIR spelling (`tensor<?x3xf32>`, element `f32`).
struct TensorSpec {
  std::string descr;
  std::vector<int64_t> shape;
  std::string type;
  std::string elementType;
};

using PackedFunction = void (*)(void **);

/// Checks count, dtype, rank and static sizes of `arrays` against `inputs`;
/// on mismatch returns false with an `error` that names the argument.
bool checkInputs(const std::vector<TensorSpec> &inputs,
                 const std::vector<NpyArray> &arrays, const std::string &entry,
                 std::string &error);

/// Frees a result buffer the compiled code allocated.
using Deallocator = void (*)(void *);
/// Returns a buffer holding a copy of `bytes` of `data`, null on failure.
using Uploader = void *(*)(const void *data, size_t bytes);

/// The arguments of a packed call, marshalled once: each array copied into a
/// buffer of its own and described. By default the buffers are 64-byte
/// aligned host memory (the compiled code may assume more alignment than a
/// std::vector gives); an `upload` function places them elsewhere (the CUDA
/// runtime's device-resident managed memory) and `release` frees them.
class PackedInputs {
public:
  explicit PackedInputs(const std::vector<NpyArray> &arrays,
                        Uploader upload = nullptr,
                        Deallocator release = nullptr);
  ~PackedInputs();
  PackedInputs(const PackedInputs &) = delete;
  PackedInputs &operator=(const PackedInputs &) = delete;

  /// False when an upload failed (the uploader recorded why).
  bool isValid() const { return valid; }
  /// args[i] points at each descriptor word of each argument, in order.
  std::vector<void *> getPackedArguments();
  /// Whether `pointer` is one of the argument buffers (not the callee's).
  bool isInputBuffer(void *pointer) const;

private:
  std::vector<void *> buffers;
  std::vector<std::vector<int64_t>> descriptors;
  Deallocator release;
  bool valid = true;
};

/// Calls `function` on checked `arrays`. Result buffers (allocated by the
/// compiled code) are copied into `outputs` when given and freed either way,
/// with `deallocate` (std::free when null; the CUDA runtime's free for GPU
/// code, whose results live in managed memory).
void callPacked(PackedFunction function, const std::vector<NpyArray> &arrays,
                const std::vector<TensorSpec> &results,
                std::vector<NpyArray> *outputs,
                Deallocator deallocate = nullptr);

/// The same on inputs marshalled beforehand (calls may share them; the
/// callee may write into its arguments' buffers, so values are only certain
/// for the first call).
void callPacked(PackedFunction function, PackedInputs &inputs,
                const std::vector<TensorSpec> &results,
                std::vector<NpyArray> *outputs,
                Deallocator deallocate = nullptr);

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_PACKEDCALL_H
