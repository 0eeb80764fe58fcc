//===- IntermediateValues.cpp - Run a function and see inside it ----------===//
//
// See IntermediateValues.h.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Execution/IntermediateValues.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APFloat.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::opsnn;

static llvm::Error error(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Ops whose result tells nothing a neighbour does not: constants, tensors
/// without values yet, and moves of the same values.
static bool isWorthExposing(Operation *op) {
  return !matchPattern(op, m_Constant()) &&
         !isa<tensor::EmptyOp, linalg::FillOp, layout::ConvertOp,
              precision::CastOp>(op);
}

llvm::Expected<std::vector<std::string>>
mlir::opsnn::exposeIntermediateValues(ModuleOp module, StringRef entry) {
  auto func = module.lookupSymbol<func::FuncOp>(entry);
  if (!func || func.isExternal())
    return error("no function @" + entry + " with a body");
  if (!func.getBody().hasOneBlock())
    return error("@" + entry + " has more than one block");
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());

  std::vector<std::string> keys;
  SmallVector<Value> exposed;
  for (Operation &op : func.getBody().front().without_terminator()) {
    if (!isWorthExposing(&op))
      continue;
    for (Value result : op.getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type || !isa<FloatType>(type.getElementType()))
        continue;
      std::string key = getValueKey(result);
      if (key.empty())
        continue;
      keys.push_back(std::move(key));
      exposed.push_back(result);
    }
  }
  ret->insertOperands(ret->getNumOperands(), exposed);
  func.setFunctionType(FunctionType::get(
      func.getContext(), func.getArgumentTypes(), ret->getOperandTypes()));
  return keys;
}

/// Element `index` of raw .npy data as a double, one reader per float type.
using ElementReader = double (*)(const char *data, int64_t index);

static double readF64(const char *data, int64_t index) {
  double x;
  std::memcpy(&x, data + index * 8, 8);
  return x;
}

static double readF32(const char *data, int64_t index) {
  float x;
  std::memcpy(&x, data + index * 4, 4);
  return x;
}

static double readF16(const char *data, int64_t index) {
  uint16_t bits;
  std::memcpy(&bits, data + index * 2, 2);
  return llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits))
      .convertToDouble();
}

/// The reader for a .npy descriptor (byte order first), null for non-floats.
static ElementReader getElementReader(StringRef descr) {
  StringRef kind = descr.drop_front();
  if (kind == "f8")
    return readF64;
  if (kind == "f4")
    return readF32;
  if (kind == "f2")
    return readF16;
  return nullptr;
}

std::optional<KnownRange>
mlir::opsnn::measureRange(const runtime::NpyArray &array, int64_t *nonFinite) {
  if (nonFinite)
    *nonFinite = 0;
  ElementReader read = getElementReader(array.descr);
  if (!read)
    return std::nullopt;
  RangeBuilder range;
  for (int64_t i = 0, count = array.getNumElements(); i < count; ++i) {
    double x = read(array.data.data(), i);
    if (!std::isfinite(x)) {
      if (nonFinite)
        ++*nonFinite;
      continue;
    }
    range.add(x);
  }
  return range.finish(RangeSource::Calibration);
}
