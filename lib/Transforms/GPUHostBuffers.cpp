//===- GPUHostBuffers.cpp - Host buffers the GPU can address --------------===//
//
// --opsnn-gpu-host-buffers: registers memref arguments and moves host
// allocations to managed memory, so kernels launched by host code can read
// and write every buffer the host code hands them.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUHOSTBUFFERSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;

/// %t = gpu.wait async; %d = gpu.dealloc async [%t] %m; gpu.wait [%d]
/// (gpu-to-llvm lowers only the asynchronous form of gpu.dealloc).
static void createDeallocAndWait(OpBuilder &b, Location loc, Value memref) {
  Type token = gpu::AsyncTokenType::get(b.getContext());
  Value start = gpu::WaitOp::create(b, loc, token, ValueRange{}).getAsyncToken();
  Value done =
      gpu::DeallocOp::create(b, loc, token, ValueRange{start}, memref)
          .getAsyncToken();
  gpu::WaitOp::create(b, loc, Type(), ValueRange{done});
}

namespace {
struct GPUHostBuffersPass
    : opsnn::impl::GPUHostBuffersPassBase<GPUHostBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (!allocationsOnly)
        registerArguments(func);
      moveAllocationsToManagedMemory(func);
      if (!allocationsOnly)
        copyGlobalsToManagedMemory(func);
    }
  }

  void registerArguments(func::FuncOp func) {
    OpBuilder b(func.getContext());
    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    SmallVector<Value> registered;
    for (BlockArgument argument : entry.getArguments()) {
      auto type = dyn_cast<MemRefType>(argument.getType());
      if (!type)
        continue;
      auto unranked = UnrankedMemRefType::get(type.getElementType(),
                                              type.getMemorySpace());
      Value cast =
          memref::CastOp::create(b, func.getLoc(), unranked, argument);
      gpu::HostRegisterOp::create(b, func.getLoc(), cast);
      registered.push_back(cast);
    }
    func.walk([&](func::ReturnOp ret) {
      b.setInsertionPoint(ret);
      for (Value cast : registered)
        gpu::HostUnregisterOp::create(b, ret.getLoc(), cast);
    });
  }

  /// Constants (memref.get_global) live in the host's read-only data, which
  /// kernels cannot read: each use site gets a managed copy, freed at the
  /// end of its block unless it is returned (then the caller frees it).
  void copyGlobalsToManagedMemory(func::FuncOp func) {
    OpBuilder b(func.getContext());
    SmallVector<memref::GetGlobalOp> globals;
    func.walk([&](memref::GetGlobalOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        globals.push_back(op);
    });
    for (memref::GetGlobalOp op : globals) {
      b.setInsertionPointAfter(op);
      MemRefType type = op.getType();
      auto managed = gpu::AllocOp::create(b, op.getLoc(), type, Type(),
                                          ValueRange{}, ValueRange{},
                                          ValueRange{}, /*hostShared=*/true);
      memref::CopyOp::create(b, op.getLoc(), op.getResult(),
                             managed.getMemref());
      op.getResult().replaceAllUsesExcept(
          managed.getMemref(),
          SmallPtrSet<Operation *, 2>{managed.getOperation()});
      // The copy reads the global itself.
      for (Operation *user : managed.getMemref().getUsers())
        if (auto copy = dyn_cast<memref::CopyOp>(user))
          if (copy.getTarget() == managed.getMemref())
            copy.getSourceMutable().assign(op.getResult());
      bool returned = llvm::any_of(managed.getMemref().getUsers(),
                                   [](Operation *user) {
                                     return isa<func::ReturnOp>(user);
                                   });
      if (!returned) {
        b.setInsertionPoint(op->getBlock()->getTerminator());
        createDeallocAndWait(b, op.getLoc(), managed.getMemref());
      }
    }
  }

  void moveAllocationsToManagedMemory(func::FuncOp func) {
    OpBuilder b(func.getContext());
    SmallVector<Operation *> allocations, deallocations;
    func.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      if (isa<memref::AllocOp, memref::AllocaOp>(op))
        allocations.push_back(op);
      else if (isa<memref::DeallocOp>(op))
        deallocations.push_back(op);
    });
    for (Operation *op : allocations) {
      b.setInsertionPoint(op);
      auto type = cast<MemRefType>(op->getResult(0).getType());
      ValueRange dynamicSizes, symbols;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        dynamicSizes = alloc.getDynamicSizes();
        symbols = alloc.getSymbolOperands();
      } else {
        auto alloca = cast<memref::AllocaOp>(op);
        dynamicSizes = alloca.getDynamicSizes();
        symbols = alloca.getSymbolOperands();
      }
      auto managed = gpu::AllocOp::create(b, op->getLoc(), type, Type(),
                                          ValueRange{}, dynamicSizes, symbols,
                                          /*hostShared=*/true);
      op->getResult(0).replaceAllUsesWith(managed.getMemref());
      if (isa<memref::AllocaOp>(op)) {
        b.setInsertionPoint(op->getBlock()->getTerminator());
        createDeallocAndWait(b, op->getLoc(), managed.getMemref());
      }
      op->erase();
    }
    for (Operation *op : deallocations) {
      b.setInsertionPoint(op);
      createDeallocAndWait(b, op->getLoc(), op->getOperand(0));
      op->erase();
    }
  }
};
} // namespace
