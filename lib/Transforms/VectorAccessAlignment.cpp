//===- VectorAccessAlignment.cpp - Rows read as vectors? ------------------===//
//
// See VectorAccessAlignment.h.
//
//===----------------------------------------------------------------------===//

#include "VectorAccessAlignment.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

int64_t mlir::opsnn::wholeElementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!isa<IntegerType, FloatType>(element))
    return 0;
  unsigned bits = element.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : 0;
}

int64_t mlir::opsnn::knownBaseAlignment(Value buffer) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(buffer))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
                     arg.getOwner()->isEntryBlock()
                 ? kBufferAlignment
                 : 0;
    Operation *def = buffer.getDefiningOp();
    auto attrAlignment = [&](std::optional<uint64_t> align, int64_t dflt) {
      return align ? std::max<int64_t>(*align, dflt) : dflt;
    };
    if (auto alloc = dyn_cast<memref::AllocOp>(def))
      return attrAlignment(alloc.getAlignment(), kBufferAlignment);
    if (isa<gpu::AllocOp>(def))
      return kBufferAlignment;
    if (auto alloca = dyn_cast<memref::AllocaOp>(def))
      return attrAlignment(alloca.getAlignment(), 0);
    if (auto global = dyn_cast<memref::GetGlobalOp>(def)) {
      auto symbol = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          global, global.getNameAttr());
      return symbol ? attrAlignment(symbol.getAlignment(), 0) : 0;
    }
    // memref.view starts its result `byte_shift` bytes into the source's
    // data, which the result type does not record.
    if (auto view = dyn_cast<memref::ViewOp>(def)) {
      std::optional<int64_t> shift = getConstantIntValue(view.getByteShift());
      if (!shift)
        return 0;
      int64_t source = knownBaseAlignment(view.getSource());
      return *shift == 0 ? source : std::min<int64_t>(source, *shift & -*shift);
    }
    // Other views share the source's aligned pointer (a subview's or
    // reinterpret_cast's offset is in its type, which the caller checks).
    if (auto transpose = dyn_cast<memref::TransposeOp>(def)) {
      buffer = transpose.getIn();
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      buffer = view.getViewSource();
      continue;
    }
    return 0;
  }
}

/// Whether the offset of `buffer` (in elements, from its aligned pointer)
/// is a multiple of `unit`: a static one in its type, or a subview's whose
/// dynamic offsets each step over a source stride that is (a batched GEMM's
/// slice i of C, at i * M * N).
static bool offsetIsMultipleOf(Value buffer, int64_t unit) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(cast<MemRefType>(buffer.getType())
                 .getStridesAndOffset(strides, offset)))
    return false;
  if (!ShapedType::isDynamic(offset))
    return offset % unit == 0;
  auto subview = buffer.getDefiningOp<memref::SubViewOp>();
  SmallVector<int64_t> sourceStrides;
  int64_t sourceOffset;
  if (!subview ||
      failed(subview.getSourceType().getStridesAndOffset(sourceStrides,
                                                         sourceOffset)) ||
      !offsetIsMultipleOf(subview.getSource(), unit))
    return false;
  for (auto [position, stride] :
       llvm::zip_equal(subview.getMixedOffsets(), sourceStrides)) {
    std::optional<int64_t> constant = getConstantIntValue(position);
    if (ShapedType::isDynamic(stride) ||
        (constant ? *constant * stride : stride) % unit != 0)
      return false;
  }
  return true;
}

int64_t mlir::opsnn::vectorAccessAlignment(Value buffer, int64_t lanes) {
  auto type = cast<MemRefType>(buffer.getType());
  int64_t bytes = wholeElementBytes(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  if (bytes == 0 || failed(type.getStridesAndOffset(strides, offset)) ||
      strides.empty() || strides.back() != 1)
    return 0;
  // Every vector starts at a multiple of `lanes` elements past the start
  // of its row; the rows (and the offset) must keep that alignment.
  int64_t align = std::min(lanes * bytes, kBufferAlignment);
  int64_t unit = std::max<int64_t>(align / bytes, 1);
  auto multiple = [&](int64_t v) {
    return !ShapedType::isDynamic(v) && v % unit == 0;
  };
  if (!offsetIsMultipleOf(buffer, unit) ||
      !llvm::all_of(ArrayRef(strides).drop_back(), multiple))
    return 0;
  return knownBaseAlignment(buffer) >= align ? align : 0;
}

int64_t mlir::opsnn::narrowestElementBytes(ArrayRef<Value> buffers) {
  int64_t narrowest = 0;
  for (Value buffer : buffers) {
    int64_t bytes = wholeElementBytes(cast<MemRefType>(buffer.getType()));
    if (bytes == 0)
      return 0;
    narrowest = narrowest ? std::min(narrowest, bytes) : bytes;
  }
  return narrowest;
}

int64_t mlir::opsnn::widestVectorLanes(ArrayRef<Value> buffers, int64_t extent,
                                       int64_t minVectors, int64_t maxBytes) {
  int64_t narrowest = narrowestElementBytes(buffers);
  if (narrowest == 0)
    return 1;
  for (int64_t lanes = maxBytes / narrowest; lanes >= 2; lanes /= 2)
    if (extent % lanes == 0 && extent / lanes >= minVectors &&
        llvm::all_of(buffers, [&](Value buffer) {
          return vectorAccessAlignment(buffer, lanes) != 0;
        }))
      return lanes;
  return 1;
}
