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

/// Calls `function` on checked `arrays`. Result buffers (allocated by the
/// compiled code) are copied into `outputs` when given and freed either way,
/// with `deallocate` (std::free when null; the CUDA runtime's free for GPU
/// code, whose results live in managed memory).
void callPacked(PackedFunction function, const std::vector<NpyArray> &arrays,
                const std::vector<TensorSpec> &results,
                std::vector<NpyArray> *outputs,
                Deallocator deallocate = nullptr);

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_PACKEDCALL_H
