//===- MemoryFootprint.cpp - Weight bytes and peak activation bytes -------===//
//
// See MemoryFootprint.h: weights are summed once; activations go through two
// liveness sweeps over the same numbering of the function's ops (element
// types, and every float at 4 bytes with precision.cast as a no-op).
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/MemoryFootprint.h"

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::opsnn;

double MemoryFootprint::getSavedFraction() const {
  int64_t fp32 = getTotalBytesFP32();
  if (fp32 == 0)
    return 0.0;
  return 1.0 - static_cast<double>(getTotalBytes()) / fp32;
}

namespace {
/// Program order: each op's pre-order index and the last index nested in it.
struct Numbering {
  DenseMap<Operation *, int64_t> first, last;
  SmallVector<Operation *> order;

  void number(Operation *op) {
    first[op] = order.size();
    order.push_back(op);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          number(&nested);
    last[op] = order.size() - 1;
  }

  /// Where `value` is defined (0 for the function's arguments).
  int64_t definition(Value value) const {
    if (Operation *op = value.getDefiningOp())
      return first.lookup(op);
    return 0;
  }

  /// The last position that reads `value`: a use nested in a region counts
  /// at the end of the op in `value`'s block that holds it.
  int64_t lastUse(Value value) const {
    int64_t position = definition(value);
    Block *block = value.getParentBlock();
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block ? block->findAncestorOpInBlock(*user) : user;
      if (!ancestor)
        ancestor = user;
      auto it = last.find(ancestor);
      if (it != last.end())
        position = std::max(position, it->second);
    }
    return position;
  }
};

struct Buffer {
  int64_t bytes, start, end;
};
} // namespace

/// Bytes of `type`, dynamic dimensions counted as 1 (and `dynamic` set).
static int64_t getTensorBytes(RankedTensorType type, bool asFP32,
                              bool &dynamic) {
  int64_t elements = 1;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size)) {
      dynamic = true;
      continue;
    }
    elements *= size;
  }
  Type element = type.getElementType();
  int64_t width =
      asFP32 && isa<FloatType>(element) ? 4 : getElementByteWidth(element);
  return elements * width;
}

static bool isWeightArgument(BlockArgument argument, Operation *function) {
  auto iface = dyn_cast<FunctionOpInterface>(function);
  return iface && argument.getOwner()->isEntryBlock() &&
         argument.getParentRegion() == &function->getRegion(0) &&
         iface.getArgAttr(argument.getArgNumber(), kWeightArgAttrName);
}

/// Ops whose result is a view of their first operand's buffer.
static bool isView(Operation *op) {
  return isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
             tensor::ExtractSliceOp, tensor::CastOp, tensor::ReshapeOp,
             tensor::BitcastOp>(op);
}

/// Peak live activation bytes of `function` in one sweep, and the op where
/// the sum first reaches it.
static std::pair<int64_t, Operation *>
sweepActivations(Operation *function, const Numbering &numbering, bool asFP32,
                 bool &dynamic) {
  DenseSet<Value> weights;
  DenseMap<Value, unsigned> bufferOf;
  SmallVector<Buffer> buffers;

  auto startBuffer = [&](Value value, RankedTensorType type) {
    bufferOf[value] = buffers.size();
    buffers.push_back({getTensorBytes(type, asFP32, dynamic),
                       numbering.definition(value), numbering.lastUse(value)});
  };
  auto join = [&](Value value, unsigned buffer) {
    bufferOf[value] = buffer;
    buffers[buffer].end =
        std::max(buffers[buffer].end, numbering.lastUse(value));
  };
  /// `result` shares `source`'s storage: a weight, a buffer, or (source not
  /// a counted tensor) a buffer of its own.
  auto alias = [&](Value result, RankedTensorType type, Value source) {
    if (weights.contains(source))
      weights.insert(result);
    else if (auto it = bufferOf.find(source); it != bufferOf.end())
      join(result, it->second);
    else
      startBuffer(result, type);
  };

  if (function->getNumRegions() && !function->getRegion(0).empty())
    for (BlockArgument argument : function->getRegion(0).getArguments()) {
      auto type = dyn_cast<RankedTensorType>(argument.getType());
      if (!type)
        continue;
      if (isWeightArgument(argument, function))
        weights.insert(argument);
      else
        startBuffer(argument, type);
    }

  for (Operation *op : numbering.order) {
    if (op == function)
      continue;
    bool constant = op->hasTrait<OpTrait::ConstantLike>();
    auto dps = dyn_cast<DestinationStyleOpInterface>(op);
    for (OpResult result : op->getResults()) {
      if (isa<UnrankedTensorType>(result.getType()))
        dynamic = true;
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      if (constant) {
        weights.insert(result);
      } else if (isView(op) && result.getResultNumber() == 0) {
        alias(result, type, op->getOperand(0));
      } else if (asFP32 && isa<precision::CastOp>(op)) {
        alias(result, type, op->getOperand(0)); // no cast in an FP32 program
      } else if (dps && dps.hasPureTensorSemantics() &&
                 dps.getTiedOpOperand(result)) {
        // In place when nothing after this op (and its payload) reads the
        // init's buffer.
        Value init = dps.getTiedOpOperand(result)->get();
        auto it = bufferOf.find(init);
        if (it != bufferOf.end() &&
            buffers[it->second].end <= numbering.last.lookup(op))
          join(result, it->second);
        else
          startBuffer(result, type);
      } else {
        startBuffer(result, type);
      }
    }
  }

  // Sum of live bytes at each position: +bytes at the start, -bytes after
  // the end.
  SmallVector<int64_t> delta(numbering.order.size() + 1, 0);
  for (const Buffer &buffer : buffers) {
    delta[buffer.start] += buffer.bytes;
    delta[buffer.end + 1] -= buffer.bytes;
  }
  int64_t live = 0, peak = 0;
  Operation *peakOp = nullptr;
  for (auto [position, op] : llvm::enumerate(numbering.order)) {
    live += delta[position]; // the last slot only holds ends
    if (live > peak) {
      peak = live;
      peakOp = op;
    }
  }
  return {peak, peakOp};
}

MemoryFootprint mlir::opsnn::computeMemoryFootprint(Operation *function) {
  MemoryFootprint footprint;
  Numbering numbering;
  numbering.number(function);

  // Weights: dense tensor constants and opsnn.weight arguments.
  auto addWeight = [&](RankedTensorType type) {
    footprint.weightBytes += getTensorBytes(type, false, footprint.dynamic);
    footprint.weightBytesFP32 += getTensorBytes(type, true, footprint.dynamic);
  };
  if (function->getNumRegions() && !function->getRegion(0).empty())
    for (BlockArgument argument : function->getRegion(0).getArguments())
      if (auto type = dyn_cast<RankedTensorType>(argument.getType()))
        if (isWeightArgument(argument, function))
          addWeight(type);
  for (Operation *op : numbering.order)
    if (op != function && op->hasTrait<OpTrait::ConstantLike>())
      for (Type type : op->getResultTypes())
        if (auto tensor = dyn_cast<RankedTensorType>(type))
          addWeight(tensor);

  std::tie(footprint.peakActivationBytes, footprint.peakOp) = sweepActivations(
      function, numbering, /*asFP32=*/false, footprint.dynamic);
  footprint.peakActivationBytesFP32 =
      sweepActivations(function, numbering, /*asFP32=*/true, footprint.dynamic)
          .first;
  return footprint;
}
