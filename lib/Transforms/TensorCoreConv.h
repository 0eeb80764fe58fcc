//===- TensorCoreConv.h - NHWC convolution as an implicit GEMM --*- C++ -*-===//
//
// The convolutions the tensor-core GEMM kernel (--opsnn-gpu-tensor-core-
// matmul) runs as an implicit GEMM: M = N*OH*OW output pixels, N = F
// filters, K = KH*KW*C. The output and the filter are row-major matrices
// already (collapse_shape views); the A operand is the im2col matrix, never
// materialized: the kernel's 16-byte copies (element copies when C is not
// whole 16-byte chunks) read it straight from the NHWC input through the
// index maps below. A zero-padded input (what a tensor.pad bufferizes to:
// a zero fill, then a copy of the data into the interior) is read
// unpadded, with the taps outside it as zeros: the padded buffer, its fill
// and its copy go. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_LIB_TRANSFORMS_TENSORCORECONV_H
#define OPSNN_LIB_TRANSFORMS_TENSORCORECONV_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::opsnn {

/// A 2-D NHWC convolution, input and filter of one element type (f16,
/// bf16, i8, or f32 run as TF32), f32 (i32) output, on static
/// identity-layout buffers.
struct ImplicitGemmConv {
  Value input;  // N x IH x IW x C
  Value filter; // KH x KW x C x F (HWCF) or F x KH x KW x C (FHWC)
  Value output; // N x OH x OW x F, f32
  Type elementType; // of input and filter
  int64_t batch = 0, outH = 0, outW = 0, kernelH = 0, kernelW = 0, channels = 0,
          filters = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  /// FHWC: the filter is the transposed B operand (F x K).
  bool filterFirst = false;
  /// C is a multiple of the elements in 16 bytes (8 f16, 4 f32, 16 i8):
  /// a 16-byte chunk of an im2col row never crosses a (kh, kw) boundary,
  /// so the kernel copies A in 16-byte chunks. Otherwise (an image's 3
  /// channels) it copies A element by element. (The filter is a plain
  /// matrix: its rows are whole chunks or not on their own.)
  bool wholeCopies = true;
  /// Implicit zero padding (see readUnpadded): `input` is IH x IW and
  /// holds rows padTop ... and columns padLeft ... of the padded input the
  /// convolution is defined on; taps outside it read zeros.
  int64_t padTop = 0, padLeft = 0, inputH = 0, inputW = 0;

  int64_t gemmM() const { return batch * outH * outW; }
  int64_t gemmN() const { return filters; }
  int64_t gemmK() const { return kernelH * kernelW * channels; }

  bool isPadded() const { return padTop || padLeft || inputH || inputW; }

  /// The input index [n, h, w, c] of im2col element (m, k), as four maps of
  /// the symbols (s0 = m, s1 = k): m = (n, oh, ow), k = (kh, kw, c),
  /// h = oh * sh + kh * dh - padTop, w = ow * sw + kw * dw - padLeft.
  SmallVector<AffineMap, 4> inputIndexMaps(MLIRContext *ctx) const;
  /// Per input dimension, the bound a read index must stay below (and at
  /// or above 0) to read the input, 0 where every index is in bounds: H and
  /// W of a padded input. Empty when nothing is padded.
  SmallVector<int64_t, 4> inputBounds() const;
};

/// A convolution's input that is a zero-padded copy of another buffer,
/// all in one block:
///
///   %p = alloc                          (memref.alloc or gpu.alloc)
///   linalg.fill / linalg.map of 0 into %p
///   %v = memref.subview %p[0, top, left, 0] [sizes of %s] [1, 1, 1, 1]
///   memref.copy %s, %v
///   <the convolution reads %p>; <deallocations of %p>
///
/// with nothing else using %p and nothing writing %s from the copy until
/// the kernel (built before `kernelPoint`).
struct ZeroPaddedInput {
  Value padded, source;
  int64_t top = 0, left = 0;
  /// The fill, the subview and the copy, in that order.
  SmallVector<Operation *, 3> padOps;
  /// Deallocations of %s before `kernelPoint`: the kernel reads %s.
  SmallVector<Operation *> sourceDeallocs;
};

/// The zero padding of `conv`'s input, if it has that form.
FailureOr<ZeroPaddedInput> matchZeroPaddedInput(const ImplicitGemmConv &conv,
                                                Operation *convOp,
                                                Operation *kernelPoint);

/// Makes `conv` read `padding.source` unpadded and erases the fill, subview
/// and copy; the source's deallocations move to `b`'s insertion point
/// (after the kernel). The padded buffer's allocation and deallocations go
/// with eraseUnusedBuffer (KernelBufferAccess.h) once the convolution is
/// erased.
void readUnpadded(ImplicitGemmConv &conv, const ZeroPaddedInput &padding);
void moveSourceDeallocations(OpBuilder &b, const ZeroPaddedInput &padding);

/// The convolution as an implicit GEMM, or failure (with the reason under
/// -debug-only=opsnn-gpu-tensor-core-matmul) for the ones the kernel does
/// not handle: other layouts and types (f32 inputs only with `allowTF32`),
/// dynamic or strided buffers.
FailureOr<ImplicitGemmConv> matchImplicitGemmConv(linalg::LinalgOp op,
                                                  bool allowTF32);

/// The GEMM views of the filter (K x F for HWCF, F x K for FHWC) and of the
/// output (M x F): memref.collapse_shape, no copies.
std::pair<Value, Value> buildImplicitGemmViews(OpBuilder &b, Location loc,
                                               const ImplicitGemmConv &conv);

} // namespace mlir::opsnn

#endif // OPSNN_LIB_TRANSFORMS_TENSORCORECONV_H
