//===- IntermediateValues.h - Run a function and see inside it --*- C++ -*-===//
//
// What calibration (`ops-nn-run --collect-ranges`) and per-layer accuracy
// checks (`ops-nn-run --dump-values`) need: the entry function rewritten to
// also return its intermediate tensors, each named by its value key
// (ValueRanges.h), and the range of a float array read back.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_EXECUTION_INTERMEDIATEVALUES_H
#define OPSNN_EXECUTION_INTERMEDIATEVALUES_H

#include "opsnn/Analysis/ValueRanges.h"
#include "opsnn/Runtime/Npy.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::opsnn {

/// Appends to the results of `entry` (in `module`) every float tensor its
/// body computes, except constants, empty tensors and fills, and pure data
/// movement that keeps values (layout conversions, casts); their keys, in
/// order, are returned. Values with no key (no location) are left out.
llvm::Expected<std::vector<std::string>>
exposeIntermediateValues(ModuleOp module, llvm::StringRef entry);

/// min, max and smallest non-zero magnitude of a float .npy array (f64, f32
/// or f16; bf16 travels as uint16 bits and is not read).
/// nullopt for non-float arrays and for arrays without a finite value;
/// non-finite elements are left out, and counted in `nonFinite`.
std::optional<KnownRange> measureRange(const runtime::NpyArray &array,
                                       int64_t *nonFinite = nullptr);

} // namespace mlir::opsnn

#endif // OPSNN_EXECUTION_INTERMEDIATEVALUES_H
