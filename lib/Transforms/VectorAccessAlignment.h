//===- VectorAccessAlignment.h - Rows read as vectors? ---------*- C++ -*-===//
//
// What the kernels that read or write consecutive elements as one vector
// (--opsnn-vectorize-parallel-loops, --opsnn-gpu-warp-reduce) ask of a
// buffer: which alignment a vector access may declare, so that the NVPTX
// back end emits one ld/st.global.v2/.v4 instead of one access per
// element. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_VECTORACCESSALIGNMENT_H
#define OPSNN_LIB_TRANSFORMS_VECTORACCESSALIGNMENT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

namespace mlir::opsnn {

/// The alignment taken for the data of a function's buffer argument and of
/// an allocation without an `alignment`: malloc's (ops-nn-run copies its
/// inputs to 64-byte boundaries, cuMemAlloc gives 256). Also the most a
/// vector access declares.
constexpr int64_t kBufferAlignment = 16;

/// The bytes of one element of `type`, or 0 for elements a vector access
/// does not take (i1, sub-byte, index).
int64_t wholeElementBytes(MemRefType type);

/// The alignment in bytes that the data of `buffer` (its aligned pointer)
/// is known to start on, through views to the buffer they view; 0 where
/// unknown (an alloca or global without an alignment, a view at a shift
/// that is not constant).
int64_t knownBaseAlignment(Value buffer);

/// The alignment in bytes (at most kBufferAlignment) that a vector of
/// `lanes` elements of `buffer` may declare when it starts at a multiple
/// of `lanes` along the innermost (unit-stride) dimension: its offset and
/// other strides must keep every row on that alignment, and its data must
/// start on it. 0 when they do not (or are not static; a subview's dynamic
/// offsets may step over source strides that keep it), or the innermost
/// stride is not 1.
int64_t vectorAccessAlignment(Value buffer, int64_t lanes);

/// The bytes of the narrowest element of `buffers`; 0 if one has elements
/// a vector access does not take, or there are none.
int64_t narrowestElementBytes(ArrayRef<Value> buffers);

/// How many consecutive elements one access of `buffers` may move: the
/// most, a power of two from 2 up to `maxBytes` of the narrowest element,
/// that divides `extent` into at least `minVectors` vectors that every
/// buffer takes aligned (vectorAccessAlignment); 1 if none.
int64_t widestVectorLanes(ArrayRef<Value> buffers, int64_t extent,
                          int64_t minVectors,
                          int64_t maxBytes = kBufferAlignment);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_VECTORACCESSALIGNMENT_H
