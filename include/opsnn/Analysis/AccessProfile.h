//===- AccessProfile.h - Embedding access frequencies -----------*- C++ -*-===//
//
// The access-frequency profile ALTE reads for embedding tables (DLRM-style
// models): per sparse feature, how many rows one call looks up. Written by
// a profiler or by hand:
//
//   {"features": {"user_id": {"lookups_per_call": 4096},
//                 "country": {"lookups_per_call": 2}}}
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_ANALYSIS_ACCESSPROFILE_H
#define OPSNN_ANALYSIS_ACCESSPROFILE_H

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace mlir::opsnn {

struct FeatureAccess {
  /// Rows looked up in the feature's table per call (over the batch).
  double lookupsPerCall = 0;
};

struct AccessProfile {
  llvm::StringMap<FeatureAccess> features;
};

/// Parses a profile; errors name the line and column (syntax) or the JSON
/// path (fields).
llvm::Expected<AccessProfile> parseAccessProfile(llvm::StringRef contents);

/// Reads and parses `path`; errors start with "PATH:".
llvm::Expected<AccessProfile> loadAccessProfile(llvm::StringRef path);

} // namespace mlir::opsnn

#endif // OPSNN_ANALYSIS_ACCESSPROFILE_H
