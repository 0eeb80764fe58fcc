//===- LayoutTransformOpInterface.h - Ops ALTE can re-lay out ---*- C++ -*-===//
//
// The op interface through which ALTE rewrites an op into another layout,
// and the helpers its implementations share.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_H
#define OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_H

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"

#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h.inc"

namespace mlir::opsnn::layout {

/// Discardable attribute that records the compute layout of ops whose name
/// does not say it (linalg.generic, tensor.pad, linalg.softmax).
constexpr StringLiteral kComputeLayoutAttrName = "layout.compute_layout";

/// NCW, NCHW or NCDHW for rank 3, 4 or 5; null otherwise.
LayoutAttr getChannelsFirstLayout(MLIRContext *context, int64_t rank);
/// NWC, NHWC or NDHWC for rank 3, 4 or 5; null otherwise.
LayoutAttr getChannelsLastLayout(MLIRContext *context, int64_t rank);

/// Whether `layout` stores the channels innermost (NHWC, NDHWC, NHWGC):
/// its last physical dimension is C and it is not blocked.
bool isChannelsLast(LayoutAttr layout);

/// The type `type` (stored in `from`) has once converted to `to`.
RankedTensorType getConvertedType(RankedTensorType type, LayoutAttr from,
                                  LayoutAttr to);

/// `value` converted from `from` to `to` by a new layout.convert; `value`
/// itself when the layouts are equal, and the input of `value`'s producer
/// when that is the inverse conversion.
Value createConvert(OpBuilder &builder, Location loc, Value value,
                    LayoutAttr from, LayoutAttr to);

/// Whether `from` and `to` are unblocked layouts of the same logical
/// dimensions (both non-null): what getRelativePermutation needs.
bool isPermutationBetween(LayoutAttr from, LayoutAttr to);

/// For two unblocked layouts of the same logical dimensions: result
/// dimension i of a conversion from `from` to `to` is source dimension
/// perm[i].
SmallVector<int64_t> getRelativePermutation(LayoutAttr from, LayoutAttr to);

/// The layout a layout-agnostic op (a generic, a pad, softmax, reduce)
/// computes in: its kComputeLayoutAttrName when it has one of `rank`, else
/// the compute layout of the op that produces its first activation operand
/// `firstActivation` when that op has one, else the identity
/// (channels-first) layout of `rank`.
LayoutAttr getAgnosticComputeLayout(Operation *op, int64_t rank,
                                    Value firstActivation);

/// The candidates of a layout-agnostic op computing in `current`: `current`
/// first, then the channels-first and channels-last layouts of its rank
/// when they name the same logical dimensions. Empty for a null `current`.
SmallVector<LayoutAttr> getAgnosticCandidates(LayoutAttr current);

/// Whether converting `value` costs nothing at run time: a constant (folded
/// at compile time), an empty tensor or a filled empty tensor (re-created in
/// the new layout).
bool isFreeToConvert(Value value);

} // namespace mlir::opsnn::layout

#endif // OPSNN_DIALECT_LAYOUT_INTERFACES_LAYOUTTRANSFORMOPINTERFACE_H
