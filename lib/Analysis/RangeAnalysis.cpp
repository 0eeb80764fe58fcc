//===- RangeAnalysis.cpp - Value ranges by intervals and calibration ------===//
//
// Interval propagation in program order. A linalg op's payload is evaluated
// on intervals (its block arguments bound by the operands' ranges, linalg.index
// by the loop bounds); for reductions the accumulator is iterated once per
// reduced element until it stops changing, with exact linear extrapolation
// for sums over many elements. Data movement keeps ranges; anything the
// evaluator does not know bounds nothing. See RangeAnalysis.h.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/RangeAnalysis.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Support/JSONError.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::opsnn;

//===----------------------------------------------------------------------===//
// Calibration table
//===----------------------------------------------------------------------===//

void CalibrationTable::merge(StringRef key, const KnownRange &range) {
  auto [it, inserted] = ranges.try_emplace(key, range);
  if (!inserted)
    it->second = it->second.unionWith(range);
}

void CalibrationTable::merge(const CalibrationTable &other) {
  for (const auto &entry : other.ranges)
    merge(entry.getKey(), entry.getValue());
  samples += other.samples;
}

static llvm::Error fileError(StringRef path, const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + message);
}

llvm::Expected<CalibrationTable> CalibrationTable::read(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return fileError(path, "cannot read: " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> root =
      llvm::json::parse((*buffer)->getBuffer());
  if (!root)
    return fileError(path, formatJSONParseError(root.takeError()));
  const llvm::json::Object *object = root->getAsObject();
  if (!object)
    return fileError(path, "expected a JSON object at the top level");
  if (std::optional<int64_t> version = object->getInteger("version");
      !version || *version != 1)
    return fileError(path, "expected \"version\": 1");
  const llvm::json::Object *entries = object->getObject("ranges");
  if (!entries)
    return fileError(path, "expected an object \"ranges\"");
  CalibrationTable table;
  table.samples = object->getInteger("samples").value_or(0);
  for (const auto &[key, value] : *entries) {
    const llvm::json::Object *entry = value.getAsObject();
    auto field = [&](StringRef name) -> std::optional<double> {
      return entry ? entry->getNumber(name) : std::nullopt;
    };
    std::optional<double> min = field("min"), max = field("max"),
                          minAbsNonzero = field("min_abs_nonzero");
    if (!min || !max || !minAbsNonzero)
      return fileError(path, "range \"" + key.str() +
                                 "\" needs numbers min, max and "
                                 "min_abs_nonzero");
    if (*min > *max || *minAbsNonzero < 0 ||
        *minAbsNonzero > std::max(std::fabs(*min), std::fabs(*max)))
      return fileError(path, "range \"" + key.str() +
                                 "\" is inconsistent (min <= max and 0 <= "
                                 "min_abs_nonzero <= max |x| expected)");
    table.ranges[key.str()] =
        KnownRange{*min, *max, *minAbsNonzero, RangeSource::Calibration};
  }
  return table;
}

llvm::Error CalibrationTable::write(StringRef path) const {
  // Written next to `path` and renamed into place once complete.
  std::string temporary = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temporary, ec);
    if (ec)
      return fileError(path, "cannot write: " + ec.message());
    writeJSON(os);
    if (os.has_error()) {
      (void)llvm::sys::fs::remove(temporary);
      return fileError(path, "cannot write: " + os.error().message());
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
    (void)llvm::sys::fs::remove(temporary);
    return fileError(path, "cannot write: " + ec.message());
  }
  return llvm::Error::success();
}

void CalibrationTable::writeJSON(llvm::raw_ostream &os) const {
  // Keys sorted so that files diff well.
  std::vector<std::string> keys;
  for (const auto &entry : ranges)
    keys.push_back(entry.getKey().str());
  llvm::sort(keys);
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("version", 1);
    json.attribute("samples", samples);
    json.attributeObject("ranges", [&] {
      for (const std::string &key : keys) {
        const KnownRange &range = ranges.lookup(key);
        json.attributeObject(key, [&] {
          json.attribute("min", range.min);
          json.attribute("max", range.max);
          json.attribute("min_abs_nonzero", range.minAbsNonzero);
        });
      }
    });
  });
  os << "\n";
}

//===----------------------------------------------------------------------===//
// Interval arithmetic
//===----------------------------------------------------------------------===//

namespace {
struct Interval {
  double lo, hi;

  static Interval point(double x) { return {x, x}; }
  /// Nothing known: self-bounding functions (tanh, softmax) still bound it.
  static Interval top() {
    return {-std::numeric_limits<double>::infinity(),
            std::numeric_limits<double>::infinity()};
  }
  bool valid() const { return !std::isnan(lo) && !std::isnan(hi) && lo <= hi; }
  bool finite() const { return std::isfinite(lo) && std::isfinite(hi); }
  bool operator==(const Interval &other) const {
    return lo == other.lo && hi == other.hi;
  }
  Interval unionWith(Interval other) const {
    return {std::min(lo, other.lo), std::max(hi, other.hi)};
  }
};
using MaybeInterval = std::optional<Interval>;

/// x * y with 0 * inf = 0 (a zero bound means the factor is exactly 0 there).
double mulBound(double x, double y) { return x == 0 || y == 0 ? 0 : x * y; }

MaybeInterval checked(Interval r) {
  return r.valid() ? MaybeInterval(r) : std::nullopt;
}

MaybeInterval mul(Interval a, Interval b) {
  double c[] = {mulBound(a.lo, b.lo), mulBound(a.lo, b.hi),
                mulBound(a.hi, b.lo), mulBound(a.hi, b.hi)};
  return checked({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
}

MaybeInterval div(Interval a, Interval b) {
  if (b.lo <= 0 && b.hi >= 0)
    return std::nullopt; // the divisor may be 0
  return mul(a, {1 / b.hi, 1 / b.lo});
}

template <typename F>
MaybeInterval monotone(Interval a, F f) {
  return checked({f(a.lo), f(a.hi)});
}

MaybeInterval absolute(Interval a) {
  if (a.lo >= 0)
    return a;
  if (a.hi <= 0)
    return Interval{-a.hi, -a.lo};
  return Interval{0, std::max(-a.lo, a.hi)};
}

MaybeInterval power(Interval base, Interval exponent) {
  if (exponent.lo == exponent.hi && exponent.lo == std::round(exponent.lo) &&
      exponent.lo >= 0 && exponent.lo <= 64) {
    // Integer power: even powers fold the sign.
    int n = static_cast<int>(exponent.lo);
    if (n % 2 == 1)
      return monotone(base, [&](double x) { return std::pow(x, n); });
    MaybeInterval magnitude = absolute(base);
    return monotone(*magnitude, [&](double x) { return std::pow(x, n); });
  }
  if (base.lo < 0)
    return std::nullopt;
  // pow is monotone in each argument for a non-negative base: corners.
  double c[] = {std::pow(base.lo, exponent.lo), std::pow(base.lo, exponent.hi),
                std::pow(base.hi, exponent.lo), std::pow(base.hi, exponent.hi)};
  return checked({*std::min_element(c, c + 4), *std::max_element(c, c + 4)});
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

class IntervalEvaluator {
public:
  IntervalEvaluator(const CalibrationTable *calibration)
      : calibration(calibration) {}

  RangeAnalysisStats run(func::FuncOp func);

private:
  MaybeInterval lookup(Value value);
  void visit(Operation *op);
  MaybeInterval evaluateScalar(Operation *op,
                               const DenseMap<Value, Interval> &env);
  SmallVector<MaybeInterval> evaluateLinalg(linalg::LinalgOp op);
  SmallVector<MaybeInterval> evaluateOther(Operation *op);

  const CalibrationTable *calibration;
  DenseMap<Value, Interval> known;
  RangeAnalysisStats stats;
};
} // namespace

MaybeInterval IntervalEvaluator::lookup(Value value) {
  if (auto it = known.find(value); it != known.end())
    return it->second;
  if (std::optional<KnownRange> range = getKnownRange(value))
    return Interval{range->min, range->max};
  // Integer and float scalar constants.
  Attribute attr;
  if (matchPattern(value, m_Constant(&attr))) {
    if (auto floatAttr = dyn_cast<FloatAttr>(attr))
      return Interval::point(floatAttr.getValueAsDouble());
    if (auto intAttr = dyn_cast<IntegerAttr>(attr))
      return Interval::point(static_cast<double>(intAttr.getInt()));
    if (auto splat = dyn_cast<SplatElementsAttr>(attr);
        splat && isa<IntegerType>(splat.getElementType()))
      return Interval::point(
          static_cast<double>(splat.getSplatValue<APInt>().getSExtValue()));
  }
  return std::nullopt;
}

MaybeInterval
IntervalEvaluator::evaluateScalar(Operation *op,
                                  const DenseMap<Value, Interval> &env) {
  auto get = [&](unsigned i) -> MaybeInterval {
    Value operand = op->getOperand(i);
    if (auto it = env.find(operand); it != env.end())
      return it->second;
    return lookup(operand).value_or(Interval::top());
  };
  SmallVector<Interval, 3> in;
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i) {
    MaybeInterval operand = get(i);
    if (!operand)
      return std::nullopt;
    in.push_back(*operand);
  }
  using R = MaybeInterval;
  return llvm::TypeSwitch<Operation *, R>(op)
      .Case<arith::ConstantOp>([&](auto) { return lookup(op->getResult(0)); })
      .Case<arith::AddFOp, arith::AddIOp>([&](auto) -> R {
        return checked({in[0].lo + in[1].lo, in[0].hi + in[1].hi});
      })
      .Case<arith::SubFOp, arith::SubIOp>([&](auto) -> R {
        return checked({in[0].lo - in[1].hi, in[0].hi - in[1].lo});
      })
      .Case<arith::MulFOp, arith::MulIOp>(
          [&](auto) { return mul(in[0], in[1]); })
      .Case<arith::DivFOp>([&](auto) { return div(in[0], in[1]); })
      .Case<math::FmaOp>([&](auto) -> R {
        MaybeInterval product = mul(in[0], in[1]);
        if (!product)
          return std::nullopt;
        return checked({product->lo + in[2].lo, product->hi + in[2].hi});
      })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [&](auto) -> R {
            return Interval{std::max(in[0].lo, in[1].lo),
                            std::max(in[0].hi, in[1].hi)};
          })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [&](auto) -> R {
            return Interval{std::min(in[0].lo, in[1].lo),
                            std::min(in[0].hi, in[1].hi)};
          })
      .Case<arith::NegFOp>([&](auto) -> R { return Interval{-in[0].hi, -in[0].lo}; })
      .Case<math::AbsFOp>([&](auto) { return absolute(in[0]); })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp,
            arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp,
            arith::FPToSIOp>([&](auto) -> R { return in[0]; })
      .Case<arith::SelectOp>([&](auto) -> R { return in[1].unionWith(in[2]); })
      .Case<arith::CmpFOp, arith::CmpIOp>(
          [&](auto) -> R { return Interval{0, 1}; })
      .Case<math::ExpOp>([&](auto) {
        return monotone(in[0], [](double x) { return std::exp(x); });
      })
      .Case<math::Exp2Op>([&](auto) {
        return monotone(in[0], [](double x) { return std::exp2(x); });
      })
      .Case<math::TanhOp>([&](auto) {
        return monotone(in[0], [](double x) { return std::tanh(x); });
      })
      .Case<math::ErfOp>([&](auto) {
        return monotone(in[0], [](double x) { return std::erf(x); });
      })
      .Case<math::LogOp>([&](auto) -> R {
        if (in[0].lo <= 0)
          return std::nullopt;
        return monotone(in[0], [](double x) { return std::log(x); });
      })
      .Case<math::SqrtOp>([&](auto) -> R {
        if (in[0].lo < 0)
          return std::nullopt;
        return monotone(in[0], [](double x) { return std::sqrt(x); });
      })
      .Case<math::RsqrtOp>([&](auto) -> R {
        if (in[0].lo <= 0)
          return std::nullopt;
        return checked({1 / std::sqrt(in[0].hi), 1 / std::sqrt(in[0].lo)});
      })
      .Case<math::PowFOp>([&](auto) { return power(in[0], in[1]); })
      .Default([](Operation *) { return std::nullopt; });
}

SmallVector<MaybeInterval>
IntervalEvaluator::evaluateLinalg(linalg::LinalgOp op) {
  SmallVector<MaybeInterval> unknown(op->getNumResults(), std::nullopt);
  Block *body = op.getBlock();
  if (!body)
    return unknown;
  DenseMap<Value, Interval> env;
  for (OpOperand *input : op.getDpsInputOperands()) {
    env[op.getMatchingBlockArgument(input)] =
        lookup(input->get()).value_or(Interval::top());
  }
  SmallVector<BlockArgument> accumulators;
  SmallVector<Interval> initial;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    if (!op.payloadUsesValueFromOperand(&init))
      continue;
    accumulators.push_back(op.getMatchingBlockArgument(&init));
    initial.push_back(lookup(init.get()).value_or(Interval::top()));
  }
  SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();

  auto evaluateOnce = [&]() -> std::optional<SmallVector<Interval>> {
    for (Operation &inner : body->without_terminator()) {
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        int64_t size = loopSizes[index.getDim()];
        env[index.getResult()] = {
            0, ShapedType::isDynamic(size)
                   ? std::numeric_limits<double>::infinity()
                   : static_cast<double>(size - 1)};
        continue;
      }
      if (inner.getNumResults() != 1 || inner.getNumRegions() != 0)
        return std::nullopt;
      MaybeInterval range = evaluateScalar(&inner, env);
      if (!range)
        return std::nullopt;
      env[inner.getResult(0)] = *range;
    }
    SmallVector<Interval> yielded;
    for (Value value : body->getTerminator()->getOperands()) {
      auto it = env.find(value);
      yielded.push_back(it != env.end()
                            ? it->second
                            : lookup(value).value_or(Interval::top()));
    }
    return yielded;
  };

  unsigned numInputs = op.getNumDpsInputs();
  auto setAccumulators = [&](ArrayRef<Interval> values) {
    for (BlockArgument argument : accumulators)
      env[argument] = values[argument.getArgNumber() - numInputs];
  };

  // The accumulators by result position (init i feeds result i).
  SmallVector<Interval> state(op.getNumDpsInits(), Interval::point(0));
  for (auto [argument, range] : llvm::zip(accumulators, initial))
    state[argument.getArgNumber() - numInputs] = range;

  int64_t reduced = 1;
  for (auto [size, type] :
       llvm::zip(loopSizes, op.getIteratorTypesArray())) {
    if (type != utils::IteratorType::reduction)
      continue;
    if (ShapedType::isDynamic(size))
      return unknown;
    reduced *= size;
  }
  if (accumulators.empty())
    reduced = 1; // nothing carries over between iterations

  // Iterate the accumulator: stop at a fixed point, extrapolate a linear
  // growth (sums) past a budget, give up on anything else.
  constexpr int64_t kBudget = 1 << 14;
  SmallVector<Interval> previous, beforePrevious;
  for (int64_t step = 0; step < reduced; ++step) {
    setAccumulators(state);
    std::optional<SmallVector<Interval>> next = evaluateOnce();
    if (!next)
      return unknown;
    if (*next == state)
      break;
    beforePrevious = previous;
    previous = state;
    state = *next;
    if (step + 1 == kBudget && reduced > kBudget) {
      int64_t remaining = reduced - kBudget;
      for (unsigned i = 0; i < state.size(); ++i) {
        double dlo = state[i].lo - previous[i].lo;
        double dhi = state[i].hi - previous[i].hi;
        if (beforePrevious.empty() ||
            previous[i].lo - beforePrevious[i].lo != dlo ||
            previous[i].hi - beforePrevious[i].hi != dhi)
          return unknown;
        state[i] = {state[i].lo + remaining * dlo,
                    state[i].hi + remaining * dhi};
      }
      break;
    }
  }
  SmallVector<MaybeInterval> results;
  for (Interval range : state)
    results.push_back(checked(range));
  return results;
}

SmallVector<MaybeInterval> IntervalEvaluator::evaluateOther(Operation *op) {
  SmallVector<MaybeInterval> results(op->getNumResults(), std::nullopt);
  if (op->getNumResults() != 1)
    return results;
  auto unionOfOperands = [&](ValueRange operands) -> MaybeInterval {
    MaybeInterval all;
    for (Value operand : operands) {
      MaybeInterval range = lookup(operand);
      if (!range)
        return std::nullopt;
      all = all ? all->unionWith(*range) : *range;
    }
    return all;
  };
  results[0] =
      llvm::TypeSwitch<Operation *, MaybeInterval>(op)
          // Data movement: the same values.
          .Case<layout::ConvertOp, precision::CastOp, tensor::CastOp,
                tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                tensor::ReshapeOp, tensor::ExtractSliceOp, tensor::ExtractOp>(
              [&](Operation *) { return lookup(op->getOperand(0)); })
          .Case<tensor::InsertSliceOp>([&](tensor::InsertSliceOp insert) {
            return unionOfOperands({insert.getSource(), insert.getDest()});
          })
          .Case<tensor::ConcatOp>([&](tensor::ConcatOp concat) {
            return unionOfOperands(concat.getInputs());
          })
          .Case<tensor::PadOp>([&](tensor::PadOp pad) -> MaybeInterval {
            Value padding = pad.getConstantPaddingValue();
            if (!padding)
              return std::nullopt;
            return unionOfOperands({pad.getSource(), padding});
          })
          .Case<linalg::SoftmaxOp>(
              [&](Operation *) { return Interval{0, 1}; })
          .Default([&](Operation *) { return std::nullopt; });
  return results;
}

void IntervalEvaluator::visit(Operation *op) {
  if (op->getNumResults() == 0 || matchPattern(op, m_Constant()))
    return;
  // Layout conversions and casts come from the passes before this one, with
  // the location of the op they were inserted for: a calibration entry under
  // that location measured the other op's result (a conversion feeding a
  // convolution is not the convolution's output). They keep their operand's
  // values, so they take its range and its source.
  if (isa<layout::ConvertOp, precision::CastOp>(op)) {
    Value source = op->getOperand(0), result = op->getResult(0);
    if (MaybeInterval range = lookup(source))
      known[result] = *range;
    if (std::optional<KnownRange> range = getKnownRange(source)) {
      recordRange(result, *range);
      ++stats.propagated;
    } else {
      ++stats.unknown;
    }
    return;
  }
  SmallVector<MaybeInterval> ranges;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      linalgOp && linalgOp.hasPureTensorSemantics())
    ranges = evaluateLinalg(linalgOp);
  else
    ranges = evaluateOther(op);

  for (auto [result, range] : llvm::zip(op->getResults(), ranges)) {
    if (!isa<FloatType>(getElementTypeOrSelf(result.getType()))) {
      if (range)
        known[result] = *range; // integers feed indices and selects
      continue;
    }
    std::string key = calibration ? getValueKey(result) : "";
    if (calibration && !key.empty()) {
      auto it = calibration->ranges.find(key);
      if (it != calibration->ranges.end()) {
        known[result] = {it->second.min, it->second.max};
        recordRange(result, it->second);
        ++stats.calibrated;
        continue;
      }
    }
    if (range && range->finite()) {
      known[result] = *range;
      recordRange(result, KnownRange{range->lo, range->hi, 0,
                                     RangeSource::Interval});
      ++stats.propagated;
    } else {
      if (range)
        known[result] = *range; // infinite bounds: usable, not recorded
      ++stats.unknown;
    }
  }
}

RangeAnalysisStats IntervalEvaluator::run(func::FuncOp func) {
  clearRecordedRanges(func);
  for (BlockArgument argument : func.getArguments()) {
    if (!isa<FloatType>(getElementTypeOrSelf(argument.getType())) ||
        func.getArgAttr(argument.getArgNumber(), kArgRangeAttrName))
      continue; // the user's range is kept
    std::string key = calibration ? getValueKey(argument) : "";
    if (!key.empty())
      if (auto it = calibration->ranges.find(key);
          it != calibration->ranges.end()) {
        recordRange(argument, it->second);
        ++stats.calibrated;
      }
  }
  // Program order; payload regions are evaluated by their op, not walked.
  func.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getParentOfType<linalg::LinalgOp>())
      return WalkResult::skip();
    visit(op);
    return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                     : WalkResult::advance();
  });
  return stats;
}

RangeAnalysisStats
mlir::opsnn::analyzeRanges(func::FuncOp func,
                           const CalibrationTable *calibration) {
  return IntervalEvaluator(calibration).run(func);
}
