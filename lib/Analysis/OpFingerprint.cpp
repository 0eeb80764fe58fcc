//===- OpFingerprint.cpp - What an operation is and costs -----------------===//
//
// Classifies ops through the linalg structured-op interface (upstream's
// convolution and contraction inference, iterator types, indexing maps,
// payload) and counts FLOPs and minimum bytes, symbolically in the dynamic
// loop dimensions.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/OpFingerprint.h"

#include "llvm/ADT/StringSwitch.h"

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::opsnn;

StringRef mlir::opsnn::stringifyOpClass(OpClass opClass) {
  switch (opClass) {
  case OpClass::Convolution:
    return "conv";
  case OpClass::Contraction:
    return "contraction";
  case OpClass::Pooling:
    return "pooling";
  case OpClass::Elementwise:
    return "elementwise";
  case OpClass::Broadcast:
    return "broadcast";
  case OpClass::Reduction:
    return "reduction";
  case OpClass::Normalization:
    return "normalization";
  case OpClass::Softmax:
    return "softmax";
  case OpClass::Gather:
    return "gather";
  case OpClass::DataMovement:
    return "data_movement";
  case OpClass::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown OpClass");
}

std::optional<OpClass> mlir::opsnn::parseOpClassOptionName(StringRef name) {
  return llvm::StringSwitch<std::optional<OpClass>>(name)
      .Cases({"conv", "convolution"}, OpClass::Convolution)
      .Cases({"gemm", "contraction", "matmul"}, OpClass::Contraction)
      .Cases({"pool", "pooling"}, OpClass::Pooling)
      .Case("elementwise", OpClass::Elementwise)
      .Case("broadcast", OpClass::Broadcast)
      .Case("reduction", OpClass::Reduction)
      .Cases({"norm", "normalization"}, OpClass::Normalization)
      .Case("softmax", OpClass::Softmax)
      .Cases({"data-movement", "data_movement"}, OpClass::DataMovement)
      .Default(std::nullopt);
}

StringRef mlir::opsnn::stringifyDimRole(DimRole role) {
  switch (role) {
  case DimRole::Batch:
    return "batch";
  case DimRole::OutputChannel:
    return "output_channel";
  case DimRole::InputChannel:
    return "input_channel";
  case DimRole::Depth:
    return "depth";
  case DimRole::Spatial:
    return "spatial";
  case DimRole::Window:
    return "window";
  case DimRole::M:
    return "m";
  case DimRole::N:
    return "n";
  case DimRole::K:
    return "k";
  case DimRole::Parallel:
    return "parallel";
  case DimRole::Reduction:
    return "reduction";
  }
  llvm_unreachable("unknown DimRole");
}

//===----------------------------------------------------------------------===//
// SymbolicCount
//===----------------------------------------------------------------------===//

SymbolicCount SymbolicCount::term(double coefficient,
                                  ArrayRef<unsigned> symbols) {
  SymbolicCount count;
  if (coefficient == 0)
    return count;
  SmallVector<unsigned> sorted(symbols);
  llvm::sort(sorted);
  count.terms.push_back({coefficient, sorted});
  return count;
}

SymbolicCount &SymbolicCount::operator+=(const SymbolicCount &other) {
  for (const Term &term : other.terms) {
    auto it = llvm::find_if(
        terms, [&](const Term &mine) { return mine.symbols == term.symbols; });
    if (it != terms.end())
      it->coefficient += term.coefficient;
    else
      terms.push_back(term);
  }
  return *this;
}

SymbolicCount SymbolicCount::scaled(double factor) const {
  SymbolicCount count;
  if (factor == 0)
    return count;
  count.terms = terms;
  for (Term &term : count.terms)
    term.coefficient *= factor;
  return count;
}

bool SymbolicCount::isStatic() const {
  return llvm::all_of(terms, [](const Term &t) { return t.symbols.empty(); });
}

std::optional<double> SymbolicCount::getStaticValue() const {
  if (!isStatic())
    return std::nullopt;
  double value = 0;
  for (const Term &term : terms)
    value += term.coefficient;
  return value;
}

double
SymbolicCount::evaluate(llvm::function_ref<double(unsigned)> sizeOf) const {
  double value = 0;
  for (const Term &term : terms) {
    double product = term.coefficient;
    for (unsigned symbol : term.symbols)
      product *= sizeOf(symbol);
    value += product;
  }
  return value;
}

std::string SymbolicCount::str() const {
  if (terms.empty())
    return "0";
  std::string text;
  for (auto [index, term] : llvm::enumerate(terms)) {
    if (index)
      text += " + ";
    text += llvm::formatv("{0}", static_cast<int64_t>(term.coefficient)).str();
    for (unsigned symbol : term.symbols)
      text += "*d" + std::to_string(symbol);
  }
  return text;
}

std::optional<double> OpFingerprint::getArithmeticIntensity() const {
  std::optional<double> f = flops.getStaticValue();
  std::optional<double> r = bytesRead.getStaticValue();
  std::optional<double> w = bytesWritten.getStaticValue();
  if (!f || !r || !w || *r + *w == 0)
    return std::nullopt;
  return *f / (*r + *w);
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int64_t mlir::opsnn::getElementByteWidth(Type type) {
  Type element = getElementTypeOrSelf(type);
  if (!element.isIntOrIndexOrFloat())
    return 0;
  unsigned bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
  return std::max<int64_t>(1, llvm::divideCeil(bits, 8));
}

/// How a dynamic size is counted: as a constant upper bound, as a symbol
/// (a loop dimension d<i>), or left out of the product.
struct DynamicSize {
  std::optional<int64_t> bound;
  std::optional<unsigned> symbol;
};

/// Dynamic sizes of values that are not indexed by loops: all named d0.
static DynamicSize getUnnamedDynamicSize(unsigned) { return {std::nullopt, 0u}; }

/// Bytes of a whole shaped value; `dynamicSize(dim)` says how its dynamic
/// dimension `dim` counts.
static SymbolicCount
getValueBytes(Value value, function_ref<DynamicSize(unsigned dim)> dynamicSize) {
  auto shaped = dyn_cast<ShapedType>(value.getType());
  if (!shaped || !shaped.hasRank())
    return {}; // a scalar operand (linalg.fill's value)
  double coefficient = getElementByteWidth(shaped);
  SmallVector<unsigned> symbols;
  for (auto [dim, size] : llvm::enumerate(shaped.getShape())) {
    if (!ShapedType::isDynamic(size)) {
      coefficient *= size;
      continue;
    }
    DynamicSize resolved = dynamicSize(dim);
    if (resolved.bound)
      coefficient *= *resolved.bound;
    else if (resolved.symbol)
      symbols.push_back(*resolved.symbol);
  }
  return SymbolicCount::term(coefficient, symbols);
}

/// Arithmetic operations in one iteration of a payload: arith/math ops
/// count 1 (an FMA 2), casts and constants 0.
static int64_t countPayloadOps(Block &body) {
  int64_t count = 0;
  for (Operation &op : body.without_terminator()) {
    if (isa<arith::ConstantOp, linalg::IndexOp>(op) ||
        isa<CastOpInterface>(op))
      continue;
    if (isa<math::FmaOp>(op))
      count += 2;
    else if (isa<arith::ArithDialect, math::MathDialect>(op.getDialect()))
      count += 1;
  }
  return count;
}

template <typename... OpTys>
static bool payloadContains(Block &body) {
  return llvm::any_of(body, [](Operation &op) { return isa<OpTys...>(op); });
}

//===----------------------------------------------------------------------===//
// Structured ops
//===----------------------------------------------------------------------===//

/// A constant upper bound of dynamic loop dimension `loop`, from the size of
/// an operand dimension that is exactly that loop.
static std::optional<int64_t> getLoopUpperBound(linalg::LinalgOp op,
                                                unsigned loop) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = op.getMatchingIndexingMap(&operand);
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      auto dimExpr = dyn_cast<AffineDimExpr>(expr);
      if (!dimExpr || dimExpr.getPosition() != loop)
        continue;
      FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
          presburger::BoundType::UB, {operand.get(), static_cast<int64_t>(dim)},
          /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (succeeded(bound))
        return *bound;
    }
  }
  return std::nullopt;
}

static OpFingerprint fingerprintLinalgOp(linalg::LinalgOp op) {
  OpFingerprint fp;
  SmallVector<int64_t> bounds = op.getStaticLoopRanges();
  // Dynamic sizes with a known constant upper bound count as that bound.
  for (auto [dim, bound] : llvm::enumerate(bounds)) {
    if (!ShapedType::isDynamic(bound))
      continue;
    if (std::optional<int64_t> upper = getLoopUpperBound(op, dim)) {
      bound = *upper;
      fp.boundedDims.push_back(dim);
    }
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<unsigned> dynamicDims;
  double staticIterations = 1;
  for (auto [dim, bound] : llvm::enumerate(bounds)) {
    fp.sizes.push_back(ShapedType::isDynamic(bound)
                           ? std::nullopt
                           : std::optional<int64_t>(bound));
    fp.roles.push_back(iterators[dim] == utils::IteratorType::parallel
                           ? DimRole::Parallel
                           : DimRole::Reduction);
    if (ShapedType::isDynamic(bound))
      dynamicDims.push_back(dim);
    else
      staticIterations *= bound;
  }
  Block &body = *op.getBlock();
  fp.flops = SymbolicCount::term(staticIterations * countPayloadOps(body),
                                 dynamicDims);

  // A dynamic tensor size is named after the first loop dimension of its
  // indexing expression; a bounded loop that indexes it alone counts with
  // its bound.
  auto bytesOf = [&](OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    return getValueBytes(operand.get(), [&](unsigned dim) -> DynamicSize {
      AffineExpr expr = map.getResult(dim);
      for (unsigned loop = 0; loop < map.getNumDims(); ++loop) {
        if (!expr.isFunctionOfDim(loop))
          continue;
        if (llvm::is_contained(fp.boundedDims, loop) &&
            isa<AffineDimExpr>(expr))
          return {bounds[loop], std::nullopt};
        return {std::nullopt, loop};
      }
      return {};
    });
  };
  for (OpOperand *input : op.getDpsInputOperands())
    if (op.payloadUsesValueFromOperand(input))
      fp.bytesRead += bytesOf(*input);
  for (OpOperand &init : op.getDpsInitsMutable()) {
    fp.bytesWritten += bytesOf(init);
    if (op.payloadUsesValueFromOperand(&init))
      fp.bytesRead += bytesOf(init);
  }

  // Classification, most specific first.
  if (linalg::isaConvolutionOpInterface(op)) {
    linalg::ConvolutionDimensions dims = *linalg::inferConvolutionDims(op);
    auto setRoles = [&](ArrayRef<unsigned> group, DimRole role) {
      for (unsigned dim : group)
        fp.roles[dim] = role;
    };
    setRoles(dims.batch, DimRole::Batch);
    setRoles(dims.outputImage, DimRole::Spatial);
    setRoles(dims.outputChannel, DimRole::OutputChannel);
    setRoles(dims.filterLoop, DimRole::Window);
    setRoles(dims.inputChannel, DimRole::InputChannel);
    setRoles(dims.depth, DimRole::Depth);
    // Pooling: the window operand only shapes the loops.
    bool usesFilter = op.getNumDpsInputs() >= 2 &&
                      op.payloadUsesValueFromOperand(op.getDpsInputOperand(1));
    fp.opClass = usesFilter ? OpClass::Convolution : OpClass::Pooling;
    // Without a filter, upstream's inference cannot tell the pooled
    // channels from the batch: both are in the input and the output. The
    // outermost is the batch, the others are channels kept through the op.
    if (fp.opClass == OpClass::Pooling)
      for (unsigned dim : llvm::drop_begin(dims.batch))
        fp.roles[dim] = DimRole::Depth;
    return fp;
  }
  if (linalg::isaContractionOpInterface(op)) {
    linalg::ContractionDimensions dims = *linalg::inferContractionDims(op);
    for (unsigned dim : dims.batch)
      fp.roles[dim] = DimRole::Batch;
    for (unsigned dim : dims.m)
      fp.roles[dim] = DimRole::M;
    for (unsigned dim : dims.n)
      fp.roles[dim] = DimRole::N;
    for (unsigned dim : dims.k)
      fp.roles[dim] = DimRole::K;
    fp.opClass = OpClass::Contraction;
    return fp;
  }
  if (payloadContains<tensor::ExtractOp>(body)) {
    // The gathered values come from a captured tensor, not an operand:
    // at least as many bytes as are written are read from it.
    fp.bytesRead += fp.bytesWritten;
    fp.opClass = OpClass::Gather;
    return fp;
  }
  if (isa<linalg::TransposeOp, linalg::CopyOp, linalg::FillOp>(op)) {
    fp.opClass = OpClass::DataMovement;
    return fp;
  }
  if (isa<linalg::BroadcastOp>(op)) {
    fp.opClass = OpClass::Broadcast;
    return fp;
  }
  if (op.getNumReductionLoops() > 0) {
    fp.opClass = OpClass::Reduction;
    return fp;
  }
  // All-parallel generics.
  bool broadcasts = llvm::any_of(op.getDpsInputOperands(), [&](OpOperand *in) {
    AffineMap map = op.getMatchingIndexingMap(in);
    return op.payloadUsesValueFromOperand(in) &&
           map.getNumResults() < map.getNumDims();
  });
  if (payloadContains<math::RsqrtOp>(body) && broadcasts)
    fp.opClass = OpClass::Normalization;
  else if (broadcasts)
    fp.opClass = OpClass::Broadcast;
  else if (countPayloadOps(body) == 0)
    fp.opClass = OpClass::DataMovement;
  else
    fp.opClass = OpClass::Elementwise;
  return fp;
}

//===----------------------------------------------------------------------===//
// Other ops
//===----------------------------------------------------------------------===//

/// Bytes of every shaped operand read and every shaped result written;
/// dynamic sizes are unnamed symbols (d0 for all: they are not loop dims).
static void countAllOperandBytes(Operation *op, OpFingerprint &fp,
                                 bool readOperands = true) {
  if (readOperands)
    for (Value operand : op->getOperands())
      fp.bytesRead += getValueBytes(operand, getUnnamedDynamicSize);
  for (Value result : op->getResults())
    fp.bytesWritten += getValueBytes(result, getUnnamedDynamicSize);
}

OpFingerprint mlir::opsnn::computeOpFingerprint(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return fingerprintLinalgOp(linalgOp);

  OpFingerprint fp;
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    fp.opClass = OpClass::Softmax;
    countAllOperandBytes(op, fp, /*readOperands=*/false);
    fp.bytesRead += getValueBytes(softmax.getInput(), getUnnamedDynamicSize);
    // max, subtract, exp, sum, divide per element.
    fp.flops = fp.bytesWritten.scaled(
        5.0 / getElementByteWidth(softmax.getType(0)));
    return fp;
  }
  if (isa<tensor::GatherOp>(op)) {
    fp.opClass = OpClass::Gather;
    countAllOperandBytes(op, fp, /*readOperands=*/false);
    fp.bytesRead += fp.bytesWritten; // the gathered slices
    fp.bytesRead += getValueBytes(op->getOperand(1), getUnnamedDynamicSize);
    return fp;
  }
  if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(op)) {
    fp.opClass = OpClass::DataMovement; // metadata only: no bytes move
    return fp;
  }
  if (isa<layout::ConvertOp, tensor::PadOp, tensor::ConcatOp, linalg::PackOp,
          linalg::UnPackOp, tensor::ExtractSliceOp, tensor::InsertSliceOp>(
          op)) {
    fp.opClass = OpClass::DataMovement;
    // Slices read only what they copy.
    bool readsSlice = isa<tensor::ExtractSliceOp>(op);
    countAllOperandBytes(op, fp, /*readOperands=*/!readsSlice);
    if (readsSlice)
      fp.bytesRead += fp.bytesWritten;
    return fp;
  }
  fp.opClass = OpClass::Unknown;
  fp.unknownReason = "'" + op->getName().getStringRef().str() +
                     "' is not a linalg structured op or a known data "
                     "movement op";
  return fp;
}

bool mlir::opsnn::isFingerprintIrrelevant(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() ||
      op->hasTrait<OpTrait::ConstantLike>() ||
      isa<tensor::EmptyOp, tensor::DimOp>(op))
    return true;
  // Ops with regions (functions, loops) hold the ops that are fingerprinted;
  // linalg ops and pads keep their payload in a region.
  if (op->getNumRegions() > 0 &&
      !isa<linalg::LinalgOp, tensor::PadOp, linalg::SoftmaxOp>(op))
    return true;
  auto isShaped = [](Type type) { return isa<ShapedType>(type); };
  return llvm::none_of(op->getOperandTypes(), isShaped) &&
         llvm::none_of(op->getResultTypes(), isShaped);
}
