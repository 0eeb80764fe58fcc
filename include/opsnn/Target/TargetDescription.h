//===- TargetDescription.h - Hardware parameters for cost decisions -*- C++ -*-===//
//
// The numbers every cost decision reads: memory bandwidth, peak rates per
// precision, cache and shared-memory geometry. Built-in entries for common
// NVIDIA GPUs and the host CPU; entries can be added or overridden from JSON.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TARGET_TARGETDESCRIPTION_H
#define OPSNN_TARGET_TARGETDESCRIPTION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::opsnn {

struct TargetDescription {
  enum class Kind { GPU, CPU };

  std::string name;
  Kind kind = Kind::GPU;
  /// Compute capability for code generation, e.g. "sm_80"; empty for CPUs.
  std::string chip;
  /// Sustained-peak DRAM bandwidth in GB/s (10^9 bytes per second).
  double dramBandwidthGBps = 0;
  /// Dense peak throughput in TFLOP/s (TOP/s for int8); 0 = not supported
  /// natively. Tensor-core rates where the hardware has them.
  double peakFp32Tflops = 0;
  double peakTf32Tflops = 0;
  double peakFp16Tflops = 0;
  double peakBf16Tflops = 0;
  double peakFp8Tflops = 0;
  double peakInt8Tops = 0;
  int64_t l2CacheBytes = 0;
  /// Smallest DRAM transaction (a 32-byte sector on NVIDIA GPUs).
  int64_t sectorBytes = 32;
  int64_t cacheLineBytes = 128;
  /// Streaming multiprocessors (GPU) or cores (CPU).
  int64_t smCount = 0;
  /// Threads per warp (GPU) or f32 vector lanes (CPU).
  int64_t warpSize = 32;
  int64_t sharedMemoryPerSMBytes = 0;
};

/// The built-in entries: t4, v100, a100, h100, h200, host.
llvm::ArrayRef<TargetDescription> getBuiltinTargets();

/// Looks `name` up in the registered overrides, then the built-ins.
std::optional<TargetDescription> lookupTarget(llvm::StringRef name);

/// Comma-separated names of every known target, for diagnostics.
std::string getKnownTargetNames();

/// Adds or replaces a target for the rest of the process.
void registerTarget(const TargetDescription &target);

/// Parses a target file and returns its entries without registering them.
/// Format:
///   {"targets": [{"name": "a100-80g", "base": "a100",
///                 "dram_bandwidth_gbps": 2039}, ...]}
/// An entry whose name is already known starts from that entry; otherwise it
/// starts from `base` if given, or from zero and must set `kind`,
/// `dram_bandwidth_gbps` and `peak_fp32_tflops`. Unknown keys are errors.
llvm::Expected<std::vector<TargetDescription>>
parseTargetFile(llvm::StringRef contents);

/// Reads, parses and registers a target file. Errors name the file.
llvm::Error loadTargetFile(llvm::StringRef path);

} // namespace mlir::opsnn

#endif // OPSNN_TARGET_TARGETDESCRIPTION_H
