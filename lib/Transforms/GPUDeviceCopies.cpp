//===- GPUDeviceCopies.cpp - Host code's buffer copies as GPU kernels ------===//
//
// --opsnn-gpu-device-copies: a memref.copy between buffers in the host code
// of the GPU pipeline becomes a linalg.copy, which the pipeline runs as a
// kernel, instead of a host loop over managed memory between kernels.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUDEVICECOPIESPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// Whether a kernel may run `copy`: both sides static memrefs, the source
/// not a constant in the host's read-only data.
static bool canRunOnDevice(memref::CopyOp copy) {
  auto staticMemRef = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return type && type.hasStaticShape();
  };
  return staticMemRef(copy.getSource()) && staticMemRef(copy.getTarget()) &&
         !copy.getSource().getDefiningOp<memref::GetGlobalOp>() &&
         !copy->getParentOfType<gpu::LaunchOp>();
}

namespace {
struct GPUDeviceCopiesPass
    : opsnn::impl::GPUDeviceCopiesPassBase<GPUDeviceCopiesPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    getOperation().walk([&](memref::CopyOp copy) {
      if (!canRunOnDevice(copy))
        return;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                  copy.getTarget());
    });
  }
};
} // namespace
