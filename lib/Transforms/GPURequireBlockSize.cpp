//===- GPURequireBlockSize.cpp - Exact block sizes for ptxas --------------===//
//
// --opsnn-gpu-require-block-size: a kernel outlined from a launch of a
// constant block size carries that size as `nvvm.maxntid` (PTX `.maxntid`,
// an upper bound). The launches are the only calls and use exactly that
// size, so the size is stated as `nvvm.reqntid` (`.reqntid`) instead:
// ptxas then knows the block's shape, and its occupancy heuristic no
// longer spills to fit a smaller block than the one launched.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUREQUIREBLOCKSIZEPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

namespace {
struct GPURequireBlockSizePass
    : opsnn::impl::GPURequireBlockSizePassBase<GPURequireBlockSizePass> {
  void runOnOperation() override {
    StringRef maxntid = NVVM::NVVMDialect::getMaxntidAttrName();
    StringRef reqntid = NVVM::NVVMDialect::getReqntidAttrName();
    StringRef kernel = NVVM::NVVMDialect::getKernelFuncAttrName();
    getOperation().walk([&](LLVM::LLVMFuncOp func) {
      Attribute size = func->getAttr(maxntid);
      if (!size || !func->hasAttr(kernel) || func->hasAttr(reqntid))
        return;
      func->setAttr(reqntid, size);
      func->removeAttr(maxntid);
    });
  }
};
} // namespace
