//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reads and writes NumPy's .npy format (versions 1.0-3.0, C order) for the
// runtime and ops-nn-run. Plain C++: the runtime library links neither LLVM
// nor MLIR so that a compiled model can be shipped alone.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_NPY_H
#define OPSNN_RUNTIME_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::opsnn::runtime {

/// An n-dimensional array as stored in a .npy file: the NumPy type string
/// (`<f4`, `|i1`, ...), the shape and the C-order bytes.
struct NpyArray {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<char> data;

  int64_t getNumElements() const;
  /// Bytes of one element, from `descr` (`<f4` -> 4).
  int64_t getElementBytes() const;
};

/// Reads `path`; on failure returns false and sets `error`.
bool readNpy(const std::string &path, NpyArray &array, std::string &error);

/// Writes `array` to `path` (format 1.0); on failure returns false and sets
/// `error`.
bool writeNpy(const std::string &path, const NpyArray &array,
              std::string &error);

/// Parses `descr` ("<f4") into its element size; 0 when malformed.
int64_t getNpyElementBytes(const std::string &descr);

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_NPY_H
