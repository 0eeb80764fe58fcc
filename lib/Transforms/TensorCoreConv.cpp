//===- TensorCoreConv.cpp - NHWC convolution as an implicit GEMM ----------===//
//
// Matches the NHWC convolutions the tensor-core GEMM kernel runs as an
// implicit GEMM and gives it the GEMM views and the im2col index maps; the
// kernel itself is GPUTensorCoreMatmul.cpp's. See TensorCoreConv.h.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreConv.h"

#include "KernelBufferAccess.h"
#include "TensorCoreMmaTypes.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

using namespace mlir;
using namespace mlir::opsnn;

SmallVector<AffineMap, 4>
ImplicitGemmConv::inputIndexMaps(MLIRContext *ctx) const {
  AffineExpr m = getAffineSymbolExpr(0, ctx), k = getAffineSymbolExpr(1, ctx);
  AffineExpr oh = m.floorDiv(outW) % outH, ow = m % outW;
  AffineExpr kh = k.floorDiv(kernelW * channels),
             kw = k.floorDiv(channels) % kernelW;
  auto map = [&](AffineExpr e) { return AffineMap::get(0, 2, e); };
  return {map(m.floorDiv(outH * outW)),
          map(oh * strideH + kh * dilationH - padTop),
          map(ow * strideW + kw * dilationW - padLeft), map(k % channels)};
}

SmallVector<int64_t, 4> ImplicitGemmConv::inputBounds() const {
  if (!isPadded())
    return {};
  return {0, inputH, inputW, 0};
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
                      : "input type not f16/bf16/i8/FP8 (or f32 as TF32)");
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
  conv.wholeCopies =
      conv.channels %
          copyElements(conv.elementType.getIntOrFloatBitWidth() / 8) ==
      0;
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

//===----------------------------------------------------------------------===//
// Implicit zero padding
//===----------------------------------------------------------------------===//

/// Whether `op` writes zeros to all of `buffer`: a linalg.fill of zero, or a
/// linalg.map with no inputs yielding zero (tensor.pad's bufferization).
static bool isZeroFill(Operation *op, Value buffer) {
  auto isZero = [](Value v) {
    return matchPattern(v, m_AnyZeroFloat()) || matchPattern(v, m_Zero());
  };
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return fill.getDpsInitOperand(0)->get() == buffer &&
           isZero(fill.getInputs()[0]);
  auto map = dyn_cast<linalg::MapOp>(op);
  if (!map || !map.getInputs().empty() || map.getInit() != buffer)
    return false;
  auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
  return yield.getNumOperands() == 1 && isZero(yield.getOperand(0));
}

/// The buffer `dealloc` frees (memref.dealloc's operand, gpu.dealloc's
/// last, after its async dependencies).
static Value deallocatedBuffer(Operation *dealloc) {
  return dealloc->getOperand(dealloc->getNumOperands() - 1);
}

FailureOr<ZeroPaddedInput>
mlir::opsnn::matchZeroPaddedInput(const ImplicitGemmConv &conv,
                                  Operation *convOp, Operation *kernelPoint) {
  auto reject = [](const char *why) {
    LLVM_DEBUG(llvm::dbgs() << "conv input padding: " << why
                            << ": read as it is\n");
    return failure();
  };
  ZeroPaddedInput padding;
  padding.padded = conv.input;
  if (!isLocalBuffer(padding.padded))
    return failure();
  Block *block = convOp->getBlock();
  Operation *fill = nullptr;
  memref::SubViewOp subview;
  for (Operation *user : padding.padded.getUsers()) {
    if (user == convOp || isDealloc(user))
      continue;
    if (!fill && isZeroFill(user, padding.padded)) {
      fill = user;
      continue;
    }
    auto view = dyn_cast<memref::SubViewOp>(user);
    if (subview || !view)
      return reject("the padded buffer has other users");
    subview = view;
  }
  if (!fill || !subview || !subview->hasOneUse())
    return reject("not a zero fill and one copy into a subview");
  auto copy = dyn_cast<memref::CopyOp>(*subview->getUsers().begin());
  if (!copy || copy.getTarget() != subview.getResult())
    return reject("the subview is not a copy's target");
  for (Operation *op : {fill, subview.getOperation(), copy.getOperation(),
                        kernelPoint})
    if (op->getBlock() != block)
      return reject("not in the convolution's block");
  if (!fill->isBeforeInBlock(copy) || !copy->isBeforeInBlock(convOp) ||
      kernelPoint->isBeforeInBlock(convOp))
    return reject("not fill, copy, convolution in this order");

  padding.source = copy.getSource();
  auto sourceType = dyn_cast<MemRefType>(padding.source.getType());
  auto paddedType = cast<MemRefType>(padding.padded.getType());
  if (!sourceType || !sourceType.hasStaticShape() ||
      !sourceType.getLayout().isIdentity() ||
      sourceType.getElementType() != conv.elementType)
    return reject("the source is not a static identity-layout buffer");
  ArrayRef<int64_t> offsets = subview.getStaticOffsets();
  if (ShapedType::isDynamicShape(offsets) ||
      !llvm::all_of(subview.getStaticStrides(),
                    [](int64_t s) { return s == 1; }) ||
      subview.getStaticSizes() != sourceType.getShape() ||
      offsets[0] != 0 || offsets[3] != 0 ||
      sourceType.getDimSize(0) != paddedType.getDimSize(0) ||
      sourceType.getDimSize(3) != paddedType.getDimSize(3))
    return reject("not a copy into the padded H x W interior");
  padding.top = offsets[1];
  padding.left = offsets[2];
  padding.padOps = {fill, subview, copy};

  // The kernel reads the source where the convolution read the padded
  // copy: nothing may write it in between, and it must stay allocated.
  BufferAccessAnalysis buffers;
  for (Operation *op = copy->getNextNode(); op != kernelPoint->getNextNode();
       op = op->getNextNode()) {
    if (op == convOp)
      continue;
    if (isDealloc(op) && deallocatedBuffer(op) == padding.source) {
      padding.sourceDeallocs.push_back(op);
      continue;
    }
    if (buffers.accessOf(op, padding.source).write)
      return reject("the source is written before the kernel");
  }
  return padding;
}

void mlir::opsnn::readUnpadded(ImplicitGemmConv &conv,
                               const ZeroPaddedInput &padding) {
  auto sourceType = cast<MemRefType>(padding.source.getType());
  conv.input = padding.source;
  conv.padTop = padding.top;
  conv.padLeft = padding.left;
  conv.inputH = sourceType.getDimSize(1);
  conv.inputW = sourceType.getDimSize(2);
  for (Operation *op : llvm::reverse(padding.padOps))
    op->erase();
}

void mlir::opsnn::moveSourceDeallocations(OpBuilder &b,
                                          const ZeroPaddedInput &padding) {
  for (Operation *dealloc : padding.sourceDeallocs)
    for (Operation *op : deallocationChain(dealloc))
      op->moveBefore(b.getInsertionBlock(), b.getInsertionPoint());
}
