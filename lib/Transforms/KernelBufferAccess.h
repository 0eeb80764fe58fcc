//===- KernelBufferAccess.h - Which ops touch a buffer ----------*- C++ -*-===//
//
// What the tensor-core kernel builder asks before it moves work across
// other ops: may this op (with the ops it contains, GPU kernels built
// earlier included) read or write that buffer? And, once a kernel made a
// buffer dead, its allocation and frees go. Shared by the epilogue matcher
// (TensorCoreEpilogue.cpp), the padding fold of convolutions
// (TensorCoreConv.cpp) and the copies the tiled transposes absorb
// (GPUTiledTranspose.cpp). Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_KERNELBUFFERACCESS_H
#define OPSNN_LIB_TRANSFORMS_KERNELBUFFERACCESS_H

#include "mlir/Analysis/AliasAnalysis/LocalAliasAnalysis.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace mlir::opsnn {

/// The buffer `v` views, through view-like ops and memref.transpose: the
/// alias analysis stops at a transpose (no ViewLikeOpInterface), and the
/// tensor-core kernel reads transposed views of attention's heads.
Value viewedBuffer(Value v);

/// A buffer this function allocates: memref.alloc, or gpu.alloc (the GPU
/// pipeline makes its allocations host-shared).
bool isLocalBuffer(Value v);

/// memref.dealloc or gpu.dealloc.
bool isDealloc(Operation *op);

/// `dealloc` with what an asynchronous gpu.dealloc needs around it (see
/// GPUHostBuffers.cpp): the gpu.wait that starts it, if it serves it
/// alone, and the gpu.wait on its token.
SmallVector<Operation *> deallocationChain(Operation *dealloc);

/// Erases `buffer`'s allocation and deallocations (with the gpu.wait ops
/// around an asynchronous gpu.dealloc) when nothing else uses it.
void eraseUnusedBuffer(Value buffer);

/// How an op (with what it contains) may access a buffer.
struct BufferAccess {
  bool read = false, write = false;
};

/// Alias queries and memory accesses of ops on buffers, with what the local
/// alias analysis does not know: a fresh allocation is never a global's.
class BufferAccessAnalysis {
public:
  bool mayAlias(Value x, Value y);

  /// What `op` and the ops it contains may do to `buffer`. Ops that declare
  /// no effects are taken to touch everything, except those of an earlier
  /// GPU kernel (a GEMM converted before this one may sit in between): its
  /// asynchronous copies read their source and write their (workgroup)
  /// destination, and barriers, async groups and proxy fences order
  /// accesses without making any; ldmatrix reads its (workgroup) source;
  /// mma.sync and wgmma work on registers and workgroup tiles. A free
  /// counts as a write.
  BufferAccess accessOf(Operation *op, Value buffer);

private:
  LocalAliasAnalysis aa;
};

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_KERNELBUFFERACCESS_H
