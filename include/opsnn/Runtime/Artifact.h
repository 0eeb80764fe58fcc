//===- Artifact.h - Compiled models on disk ---------------------*- C++ -*-===//
//
// An artifact is a folder: a shared library with the compiled entry point
// and `manifest.json` describing it (device, entry, library, the .npy dtype
// and shape of every input and output). `ops-nn-run --emit-artifact=DIR`
// writes one; `HostArtifact` loads and runs it with no LLVM or MLIR.
//
// manifest.json, version 1:
//   {"format": "opsnn-artifact", "version": 1, "device": "cpu",
//    "entry": "resnet_block", "library": "model.so",
//    "inputs":  [{"type": "tensor<1x64x56x56xf32>", "element_type": "f32",
//                 "dtype": "<f4", "shape": [1, 64, 56, 56]}, ...],
//    "outputs": [...]}                       (shape: -1 for a dynamic size)
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_RUNTIME_ARTIFACT_H
#define OPSNN_RUNTIME_ARTIFACT_H

#include "opsnn/Runtime/PackedCall.h"
#include "opsnn/Runtime/TimedCalls.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::opsnn::runtime {

struct Manifest {
  int version = 1;
  std::string device = "cpu";
  std::string entry;
  std::string library;
  std::vector<TensorSpec> inputs, outputs;
};

/// Writes `manifest` as DIR/manifest.json.
bool writeManifest(const std::string &dir, const Manifest &manifest,
                   std::string &error);
/// Reads DIR/manifest.json; errors name the file and the field.
bool readManifest(const std::string &dir, Manifest &manifest,
                  std::string &error);

/// A loaded artifact: CPU code, or GPU host code whose kernels the CUDA
/// runtime (libopsnn_cuda_runtime.so, shipped next to model.so) loads.
class HostArtifact {
public:
  ~HostArtifact();
  /// Loads the artifact in `dir`; null with `error` set on failure.
  static std::unique_ptr<HostArtifact> load(const std::string &dir,
                                            std::string &error);

  const Manifest &getManifest() const { return manifest; }
  bool checkInputs(const std::vector<NpyArray> &arrays,
                   std::string &error) const {
    return runtime::checkInputs(manifest.inputs, arrays, manifest.entry,
                                error);
  }
  /// Whether the artifact can run here: always for the CPU; for "cuda",
  /// when the CUDA driver and a device are usable (`why` says otherwise).
  bool canRun(std::string &why) const;

  /// Runs once; false with `error` when the GPU runtime reported one.
  bool run(const std::vector<NpyArray> &arrays, std::vector<NpyArray> *outputs,
           std::string &error) const;

  /// Times `repeat` calls after `warmup` on inputs marshalled once (see
  /// timePackedCalls); false with `error` when the GPU runtime reported one.
  bool time(const std::vector<NpyArray> &arrays, unsigned warmup,
            unsigned repeat, CallTimes &times, std::string &error) const;

private:
  HostArtifact() = default;
  Manifest manifest;
  void *handle = nullptr;
  PackedFunction function = nullptr;
  // The CUDA runtime's C entry points (cuda artifacts only).
  CudaEntryPoints cuda;
};

} // namespace mlir::opsnn::runtime

#endif // OPSNN_RUNTIME_ARTIFACT_H
