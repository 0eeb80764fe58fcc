//===- KernelBufferAccess.cpp - Which ops touch a buffer -------------------===//
//
// See KernelBufferAccess.h.
//
//===----------------------------------------------------------------------===//

#include "KernelBufferAccess.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::opsnn;

Value mlir::opsnn::viewedBuffer(Value v) {
  while (true) {
    if (auto transpose = v.getDefiningOp<memref::TransposeOp>())
      v = transpose.getIn();
    else if (auto view = v.getDefiningOp<ViewLikeOpInterface>())
      v = view.getViewSource();
    else
      return v;
  }
}

bool mlir::opsnn::isLocalBuffer(Value v) {
  if (auto alloc = v.getDefiningOp<gpu::AllocOp>())
    return !alloc.getAsyncToken();
  return v.getDefiningOp<memref::AllocOp>() != nullptr;
}

bool mlir::opsnn::isDealloc(Operation *op) {
  return isa<memref::DeallocOp, gpu::DeallocOp>(op);
}

SmallVector<Operation *> mlir::opsnn::deallocationChain(Operation *dealloc) {
  SmallVector<Operation *> chain;
  auto gpuDealloc = dyn_cast<gpu::DeallocOp>(dealloc);
  if (gpuDealloc)
    for (Value dependency : gpuDealloc.getAsyncDependencies())
      if (auto start = dependency.getDefiningOp<gpu::WaitOp>())
        if (start->hasOneUse() && start.getAsyncDependencies().empty())
          chain.push_back(start);
  chain.push_back(dealloc);
  if (gpuDealloc && gpuDealloc.getAsyncToken())
    for (Operation *user : gpuDealloc.getAsyncToken().getUsers())
      if (isa<gpu::WaitOp>(user))
        chain.push_back(user);
  return chain;
}

void mlir::opsnn::eraseUnusedBuffer(Value buffer) {
  SmallVector<SmallVector<Operation *>> chains;
  for (Operation *user : buffer.getUsers()) {
    if (!isDealloc(user))
      return;
    chains.push_back(deallocationChain(user));
    // Nothing but the chain may wait for the deallocation.
    for (Value token : user->getResults())
      for (Operation *tokenUser : token.getUsers())
        if (!llvm::is_contained(chains.back(), tokenUser))
          return;
  }
  for (ArrayRef<Operation *> chain : chains)
    // Token users first: each op's results are unused when it goes.
    for (Operation *op : llvm::reverse(chain))
      op->erase();
  buffer.getDefiningOp()->erase();
}

/// Whether `x` is a buffer allocated in the function and `y` a global's
/// (a weight's): new memory is never a global's, which the local alias
/// analysis does not know (it answers "may alias").
static bool isFreshAllocationAndGlobal(Value x, Value y) {
  Operation *def = x.getDefiningOp();
  return def && hasSingleEffect<MemoryEffects::Allocate>(def, x) &&
         y.getDefiningOp<memref::GetGlobalOp>();
}

/// A GPU workgroup or private buffer: a kernel's own memory, never one of
/// the function's buffers.
static bool isKernelLocalMemory(Value v) {
  auto type = dyn_cast<BaseMemRefType>(v.getType());
  auto space =
      type ? dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())
           : nullptr;
  return space && space.getValue() != gpu::AddressSpace::Global;
}

bool BufferAccessAnalysis::mayAlias(Value x, Value y) {
  x = viewedBuffer(x);
  y = viewedBuffer(y);
  if (isFreshAllocationAndGlobal(x, y) || isFreshAllocationAndGlobal(y, x))
    return false;
  return !aa.alias(x, y).isNo();
}

/// Whether `op` is inline assembly whose operands and results are all
/// scalars, vectors or literal structs of them (no pointer, no memref): it
/// can name no buffer.
static bool isRegisterOnlyAsm(Operation *op) {
  if (!isa<LLVM::InlineAsmOp>(op))
    return false;
  auto isRegister = [](Type type) {
    return isa<IntegerType, FloatType, VectorType, LLVM::LLVMStructType>(type);
  };
  return llvm::all_of(op->getOperandTypes(), isRegister) &&
         llvm::all_of(op->getResultTypes(), isRegister);
}

BufferAccess BufferAccessAnalysis::accessOf(Operation *op, Value buffer) {
  BufferAccess access;
  auto record = [&](MemoryEffects::Effect *effect, Value target) {
    // An effect on no particular value may touch anything.
    if (target && (isKernelLocalMemory(target) || !mayAlias(target, buffer)))
      return;
    if (isa<MemoryEffects::Read>(effect))
      access.read = true;
    else if (isa<MemoryEffects::Write, MemoryEffects::Free>(effect))
      access.write = true;
  };
  WalkResult walk = op->walk([&](Operation *nested) {
    // ldmatrix declares its read on no particular value: it is its source.
    if (auto load = dyn_cast<nvgpu::LdMatrixOp>(nested)) {
      record(MemoryEffects::Read::get(), load.getSrcMemref());
      return WalkResult::advance();
    }
    // Inline PTX with side effects (an FP8 mma.sync: GPUTensorCoreMatmul)
    // declares a write of anything, but one that takes no address works on
    // registers only.
    if (isRegisterOnlyAsm(nested))
      return WalkResult::advance();
    if (auto effects = dyn_cast<MemoryEffectOpInterface>(nested)) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &instance : instances)
        record(instance.getEffect(), instance.getValue());
      return WalkResult::advance();
    }
    // nvvm.mma.sync (a BF16 fragment product: rewriteBF16MmaSync) works on
    // registers only, but declares no effects; so do the warpgroup
    // kernel's accumulators, and its wgmma reads only the (workgroup) tiles
    // its descriptors name. Its fences (the proxy fence, wgmma's), like a
    // barrier, order accesses without making any; so do wgmma's commit and
    // wait.
    if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isa<gpu::BarrierOp, nvgpu::DeviceAsyncCreateGroupOp,
            nvgpu::DeviceAsyncWaitOp, NVVM::MmaOp, NVVM::FenceProxyOp,
            nvgpu::WarpgroupMmaOp, nvgpu::WarpgroupMmaInitAccumulatorOp,
            NVVM::WgmmaMmaAsyncOp, NVVM::WgmmaFenceAlignedOp,
            NVVM::WgmmaGroupSyncAlignedOp, NVVM::WgmmaWaitGroupSyncOp>(nested))
      return WalkResult::advance();
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(nested)) {
      record(MemoryEffects::Read::get(), copy.getSrc());
      record(MemoryEffects::Write::get(), copy.getDst());
      return WalkResult::advance();
    }
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return {true, true};
  return access;
}
