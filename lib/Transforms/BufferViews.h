//===- BufferViews.h - Views of a buffer, for use-based reasoning -*- C++ -*-===//
//
// Passes that reason about a buffer allocated in the function by following
// its uses (a fresh buffer can only be reached through them) treat the ops
// that derive another memref from it (expand/collapse_shape, subview,
// transpose, cast...) as views: they access nothing themselves, and what
// uses their results uses the buffer.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_BUFFERVIEWS_H
#define OPSNN_LIB_TRANSFORMS_BUFFERVIEWS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::opsnn {

/// Whether `op` is a view of its operand buffers: it accesses no memory and
/// returns only memrefs.
inline bool isBufferView(Operation *op) {
  return isMemoryEffectFree(op) && op->getNumResults() > 0 &&
         llvm::all_of(op->getResultTypes(),
                      [](Type t) { return isa<BaseMemRefType>(t); });
}

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_BUFFERVIEWS_H
