//===- NarrowIndexArithmetic.cpp - Affine index math in 32 bits -----------===//
//
// See NarrowIndexArithmetic.h. Each subexpression gets an interval from the
// operands' bounds (add and multiply by interval arithmetic, floordiv and
// mod only of a non-negative value by a positive constant); the expression
// is emitted in i32 when every interval lies in i32, the divisions as
// divui/remui (equal to floordiv/mod for a non-negative dividend).
//
//===----------------------------------------------------------------------===//

#include "NarrowIndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::opsnn;

/// The mark: a dense i64 array, the exclusive upper bound of each operand.
static constexpr llvm::StringLiteral kOperandBounds = "opsnn.operand_bounds";

void mlir::opsnn::markNarrowable(affine::AffineApplyOp apply,
                                 ArrayRef<int64_t> operandBounds) {
  assert(operandBounds.size() == apply.getMapOperands().size() &&
         "one bound per operand");
  apply->setAttr(kOperandBounds,
                 DenseI64ArrayAttr::get(apply.getContext(), operandBounds));
}

namespace {
/// Inclusive bounds of a subexpression's values.
struct Interval {
  int64_t lo, hi;
};

/// Whether `value` is an i32.
bool fitsI32(int64_t value) {
  return value >= std::numeric_limits<int32_t>::min() &&
         value <= std::numeric_limits<int32_t>::max();
}

/// The interval of every subexpression of an affine expression whose
/// operands lie in [0, bound), or nothing where one is not an i32 or a
/// floordiv/mod is not of a non-negative value by a positive constant.
class ExprIntervals {
public:
  explicit ExprIntervals(ArrayRef<int64_t> operandBounds, unsigned numDims)
      : operandBounds(operandBounds), numDims(numDims) {}

  std::optional<Interval> of(AffineExpr expr) {
    std::optional<Interval> result = compute(expr);
    if (result && (!fitsI32(result->lo) || !fitsI32(result->hi)))
      return std::nullopt;
    return result;
  }

private:
  std::optional<Interval> operand(unsigned position) {
    int64_t bound = operandBounds[position];
    if (bound <= 0)
      return std::nullopt;
    return Interval{0, bound - 1};
  }

  std::optional<Interval> compute(AffineExpr expr) {
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return Interval{constant.getValue(), constant.getValue()};
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return operand(dim.getPosition());
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return operand(numDims + symbol.getPosition());
    auto binary = cast<AffineBinaryOpExpr>(expr);
    std::optional<Interval> lhs = of(binary.getLHS());
    std::optional<Interval> rhs = of(binary.getRHS());
    if (!lhs || !rhs)
      return std::nullopt;
    // Both sides are i32: sums and products fit in int64.
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return Interval{lhs->lo + rhs->lo, lhs->hi + rhs->hi};
    case AffineExprKind::Mul: {
      int64_t products[] = {lhs->lo * rhs->lo, lhs->lo * rhs->hi,
                            lhs->hi * rhs->lo, lhs->hi * rhs->hi};
      return Interval{*llvm::min_element(products),
                      *llvm::max_element(products)};
    }
    case AffineExprKind::FloorDiv:
    case AffineExprKind::Mod: {
      auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (!divisor || divisor.getValue() <= 0 || lhs->lo < 0)
        return std::nullopt;
      int64_t d = divisor.getValue();
      if (expr.getKind() == AffineExprKind::FloorDiv)
        return Interval{lhs->lo / d, lhs->hi / d};
      if (lhs->hi < d)
        return lhs;
      return Interval{0, d - 1};
    }
    case AffineExprKind::CeilDiv:
      return std::nullopt;
    default:
      llvm_unreachable("not a binary affine expression");
    }
  }

  ArrayRef<int64_t> operandBounds;
  unsigned numDims;
};

/// Emits an expression ExprIntervals accepted as i32 arith ops.
class I32ExprEmitter {
public:
  I32ExprEmitter(OpBuilder &b, Location loc, ValueRange operands,
                 unsigned numDims)
      : b(b), loc(loc), operands(operands), numDims(numDims) {}

  Value emit(AffineExpr expr) {
    Type i32 = b.getI32Type();
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return arith::ConstantIntOp::create(b, loc, i32, constant.getValue());
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      return operand(dim.getPosition());
    if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
      return operand(numDims + symbol.getPosition());
    auto binary = cast<AffineBinaryOpExpr>(expr);
    Value lhs = emit(binary.getLHS()), rhs = emit(binary.getRHS());
    // Every subexpression is an i32 (ExprIntervals): no signed wrap.
    auto nsw = arith::IntegerOverflowFlags::nsw;
    switch (expr.getKind()) {
    case AffineExprKind::Add:
      return arith::AddIOp::create(b, loc, lhs, rhs, nsw);
    case AffineExprKind::Mul:
      return arith::MulIOp::create(b, loc, lhs, rhs, nsw);
    case AffineExprKind::FloorDiv:
      return arith::DivUIOp::create(b, loc, lhs, rhs);
    case AffineExprKind::Mod:
      return arith::RemUIOp::create(b, loc, lhs, rhs);
    default:
      llvm_unreachable("rejected by ExprIntervals");
    }
  }

private:
  /// Operands are at least 0 and below an i32 bound: a zero extension's
  /// inverse.
  Value operand(unsigned position) {
    Value &narrowed = narrowedOperands[position];
    if (!narrowed)
      narrowed = arith::IndexCastUIOp::create(b, loc, b.getI32Type(),
                                              operands[position]);
    return narrowed;
  }

  OpBuilder &b;
  Location loc;
  ValueRange operands;
  unsigned numDims;
  llvm::SmallDenseMap<unsigned, Value> narrowedOperands;
};
} // namespace

int64_t mlir::opsnn::narrowMarkedIndexArithmetic(Operation *root) {
  SmallVector<affine::AffineApplyOp> marked;
  root->walk([&](affine::AffineApplyOp apply) {
    if (apply->hasAttr(kOperandBounds))
      marked.push_back(apply);
  });
  int64_t narrowed = 0;
  for (affine::AffineApplyOp apply : marked) {
    auto bounds = apply->getAttrOfType<DenseI64ArrayAttr>(kOperandBounds);
    apply->removeAttr(kOperandBounds);
    AffineMap map = apply.getAffineMap();
    AffineExpr expr = map.getResult(0);
    std::optional<Interval> range =
        ExprIntervals(bounds.asArrayRef(), map.getNumDims()).of(expr);
    if (!range)
      continue;
    OpBuilder b(apply);
    Value value = I32ExprEmitter(b, apply.getLoc(), apply.getMapOperands(),
                                 map.getNumDims())
                      .emit(expr);
    // A negative result (an input row above the padding) sign-extends.
    Value index = range->lo >= 0
                      ? arith::IndexCastUIOp::create(b, apply.getLoc(),
                                                     b.getIndexType(), value)
                            .getResult()
                      : arith::IndexCastOp::create(b, apply.getLoc(),
                                                   b.getIndexType(), value)
                            .getResult();
    apply.replaceAllUsesWith(index);
    apply.erase();
    ++narrowed;
  }
  return narrowed;
}
