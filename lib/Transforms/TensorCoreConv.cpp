//===- TensorCoreConv.cpp - NHWC convolution as an implicit GEMM ----------===//
//
// Matches the NHWC convolutions the tensor-core GEMM kernel runs as an
// implicit GEMM and gives it the GEMM views and the im2col index maps; the
// kernel itself is GPUTensorCoreMatmul.cpp's. See TensorCoreConv.h.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreConv.h"

#include "TensorCoreMmaTypes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

using namespace mlir;
using namespace mlir::opsnn;

/// Bytes per copy (one cp.async): the kernel's copy granule.
static constexpr int64_t kChunkBytes = 16;

SmallVector<AffineMap, 4>
ImplicitGemmConv::inputIndexMaps(MLIRContext *ctx) const {
  AffineExpr m = getAffineSymbolExpr(0, ctx), k = getAffineSymbolExpr(1, ctx);
  AffineExpr oh = m.floorDiv(outW) % outH, ow = m % outW;
  AffineExpr kh = k.floorDiv(kernelW * channels),
             kw = k.floorDiv(channels) % kernelW;
  auto map = [&](AffineExpr e) { return AffineMap::get(0, 2, e); };
  return {map(m.floorDiv(outH * outW)), map(oh * strideH + kh * dilationH),
          map(ow * strideW + kw * dilationW), map(k % channels)};
}

/// The static identity-layout 4-D memref type of `v` with `element`, or null.
static MemRefType staticBuffer(Value v, Type element) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type || type.getRank() != 4 || !type.hasStaticShape() ||
      !type.getLayout().isIdentity() || type.getElementType() != element)
    return nullptr;
  return type;
}

FailureOr<ImplicitGemmConv>
mlir::opsnn::matchImplicitGemmConv(linalg::LinalgOp op, bool allowTF32) {
  auto reject = [](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "conv: " << why << ": generic path\n");
    return failure();
  };
  ImplicitGemmConv conv;
  DenseIntElementsAttr strides, dilations;
  if (auto hwcf = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    strides = hwcf.getStrides();
    dilations = hwcf.getDilations();
  } else if (auto fhwc =
                 dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation())) {
    strides = fhwc.getStrides();
    dilations = fhwc.getDilations();
    conv.filterFirst = true;
  } else {
    return failure();
  }
  if (!op.hasPureBufferSemantics())
    return reject("not on buffers");
  conv.input = op.getDpsInputOperand(0)->get();
  conv.filter = op.getDpsInputOperand(1)->get();
  conv.output = op.getDpsInitOperand(0)->get();
  Builder b(op.getContext());
  conv.elementType = getElementTypeOrSelf(conv.input.getType());
  if (!isTensorCoreOperandType(conv.elementType, allowTF32))
    return reject(conv.elementType.isF32()
                      ? "f32 inputs and TF32 not allowed"
                      : "input type not f16/bf16/i8 (or f32 as TF32)");
  Type accumulator = tensorCoreAccumulatorType(conv.elementType);
  MemRefType inType = staticBuffer(conv.input, conv.elementType);
  MemRefType filterType = staticBuffer(conv.filter, conv.elementType);
  MemRefType outType = staticBuffer(conv.output, accumulator);
  if (!inType || !filterType || !outType)
    return reject("not an f32- (i32 for i8) accumulating convolution on "
                  "static identity-layout buffers of one input type");

  ArrayRef<int64_t> in = inType.getShape(), filter = filterType.getShape(),
                    out = outType.getShape();
  conv.batch = out[0];
  conv.outH = out[1];
  conv.outW = out[2];
  conv.filters = out[3];
  conv.channels = in[3];
  if (conv.filterFirst) {
    conv.kernelH = filter[1];
    conv.kernelW = filter[2];
  } else {
    conv.kernelH = filter[0];
    conv.kernelW = filter[1];
  }
  auto values = [](DenseIntElementsAttr attr) {
    return llvm::to_vector(attr.getValues<int64_t>());
  };
  SmallVector<int64_t> s = values(strides), d = values(dilations);
  conv.strideH = s[0];
  conv.strideW = s[1];
  conv.dilationH = d[0];
  conv.dilationW = d[1];

  // The verifier relates these through the indexing maps; checked again
  // because the copies read the input with in-bounds transfers.
  int64_t filterC = conv.filterFirst ? filter[3] : filter[2];
  int64_t filterF = conv.filterFirst ? filter[0] : filter[3];
  if (in[0] != conv.batch || filterC != conv.channels ||
      filterF != conv.filters ||
      (conv.outH - 1) * conv.strideH + (conv.kernelH - 1) * conv.dilationH >=
          in[1] ||
      (conv.outW - 1) * conv.strideW + (conv.kernelW - 1) * conv.dilationW >=
          in[2])
    return reject("inconsistent shapes");
  int64_t chunkElements =
      kChunkBytes * 8 / conv.elementType.getIntOrFloatBitWidth();
  if (conv.channels % chunkElements)
    return reject("C is not a multiple of 16 bytes (a 16-byte im2col chunk "
                  "would cross a filter tap)");
  return conv;
}

std::pair<Value, Value>
mlir::opsnn::buildImplicitGemmViews(OpBuilder &b, Location loc,
                                    const ImplicitGemmConv &conv) {
  SmallVector<ReassociationIndices> filterGroups =
      conv.filterFirst ? SmallVector<ReassociationIndices>{{0}, {1, 2, 3}}
                       : SmallVector<ReassociationIndices>{{0, 1, 2}, {3}};
  Value filter =
      memref::CollapseShapeOp::create(b, loc, conv.filter, filterGroups);
  Value output = memref::CollapseShapeOp::create(
      b, loc, conv.output, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  return {filter, output};
}
