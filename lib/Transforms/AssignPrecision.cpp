//===- AssignPrecision.cpp - Per-op precision policy ----------------------===//
//
// --opsnn-assign-precision: decides, op by op in program order, whether a
// linalg op computes in FP32 or in the low type (autocast-style lists,
// constant ranges, first/last rule, attribute overrides), and rewrites the
// low ones: inputs cast with precision.cast, payload computing in f32 on
// low-type storage, contractions accumulating in FP32. Casts back to FP32
// are inserted for every old use and fold against the next cast down.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Analysis/ValueRanges.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"
#include "opsnn/Transforms/Quantize.h"

#include "TensorCoreMmaTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_ASSIGNPRECISIONPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using precision::CastOp;

namespace {
enum class Category { Low, FP32, Follow };

bool hasFP32OnlyMath(Operation *op) {
  bool found = false;
  op->walk([&](Operation *inner) {
    if (isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
            math::Log2Op, math::Log10Op, math::Log1pOp, math::PowFOp>(inner))
      found = true;
  });
  return found;
}

bool isF32Tensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.getElementType().isF32();
}

/// `value` as a tensor of `element`: folds a cast of a cast back, re-creates
/// empty tensors, casts otherwise.
Value castTensor(OpBuilder &b, Location loc, Value value, Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == element)
    return value;
  if (auto cast = value.getDefiningOp<CastOp>())
    if (cast.getInput().getType() == type.clone(element))
      return cast.getInput();
  if (auto empty = value.getDefiningOp<tensor::EmptyOp>())
    return tensor::EmptyOp::create(b, loc, empty.getMixedSizes(), element);
  return CastOp::create(b, loc, type.clone(element), value);
}

struct AssignPrecisionPass
    : opsnn::impl::AssignPrecisionPassBase<AssignPrecisionPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult parseOptions(func::FuncOp func);
  void markTF32(func::FuncOp func);
  void markQuantizationLeftoversTF32(func::FuncOp func);
  Category categoryOf(Operation *op, OpClass opClass) const;
  std::optional<std::string> rangeReason(Operation *op) const;
  LogicalResult rewrite(linalg::LinalgOp op, bool accumulateF32,
                        StringRef reason, RewriterBase &rewriter);
  void relaxSignature(func::FuncOp func);

  Type low;
  bool mixed = false;
  double overflow = 0, underflow = 0;
  DenseMap<OpClass, Category> lists;
};
} // namespace

LogicalResult AssignPrecisionPass::parseOptions(func::FuncOp func) {
  auto fail = [&](const Twine &message) {
    return func.emitError() << "opsnn-assign-precision: " << message;
  };
  MLIRContext *context = func.getContext();
  low = nullptr;
  if (mode == "fp16" || mode == "mixed-fp16")
    low = Float16Type::get(context);
  else if (mode == "bf16" || mode == "mixed-bf16")
    low = BFloat16Type::get(context);
  else if (mode != "fp32" && mode != "tf32" && mode != "int8" &&
           mode != "fp8")
    return fail("unknown mode '" + mode +
                "' (expected fp32, tf32, fp16, bf16, mixed-fp16, "
                "mixed-bf16, int8, fp8)");
  if (!(underflowFraction >= 0 && underflowFraction < 1))
    return fail("underflow-fraction must be in [0, 1), got " +
                std::to_string(underflowFraction));
  // NaN fails both checks: a NaN threshold would silently keep (or never
  // keep) every op in FP32.
  auto text = [](double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%g", x);
    return std::string(buffer);
  };
  if (!(overflowThreshold > 0))
    return fail("overflow-threshold must be positive, got " +
                text(overflowThreshold));
  if (!(underflowThreshold >= 0 && underflowThreshold < overflowThreshold))
    return fail("underflow-threshold must be in [0, overflow-threshold), "
                "got " + text(underflowThreshold));
  mixed = StringRef(mode).starts_with("mixed-");
  overflow = overflowThreshold;
  underflow = underflowThreshold;
  if (low && low.isBF16()) {
    // BF16 has FP32's exponent range: its own limits, not FP16's.
    overflow = 3.3895313892515355e38;
    underflow = 1.1754943508222875e-38;
  }

  lists = {{OpClass::Convolution, Category::Low},
           {OpClass::Contraction, Category::Low},
           {OpClass::Softmax, Category::FP32},
           {OpClass::Normalization, Category::FP32},
           {OpClass::Reduction, Category::FP32}};
  if (listsFile.empty())
    return success();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(listsFile);
  if (!buffer)
    return fail("cannot read lists file '" + listsFile +
                "': " + buffer.getError().message());
  llvm::Expected<llvm::json::Value> root =
      llvm::json::parse((*buffer)->getBuffer());
  if (!root)
    return fail(listsFile + ": " + llvm::toString(root.takeError()));
  const llvm::json::Object *object = root->getAsObject();
  if (!object)
    return fail(listsFile + ": expected an object with \"low\" and \"fp32\"");
  lists.clear();
  for (const auto &[key, value] : *object) {
    Category category;
    if (key == "low")
      category = Category::Low;
    else if (key == "fp32")
      category = Category::FP32;
    else if (key == "follow")
      category = Category::Follow;
    else
      return fail(listsFile + ": unknown list \"" + key.str() +
                  "\" (expected low, fp32, follow)");
    const llvm::json::Array *names = value.getAsArray();
    if (!names)
      return fail(listsFile + ": " + key.str() + ": expected an array");
    for (auto [index, name] : llvm::enumerate(*names)) {
      std::optional<StringRef> text = name.getAsString();
      std::optional<OpClass> opClass =
          text ? parseOpClassOptionName(*text) : std::nullopt;
      if (!opClass)
        return fail(listsFile + ": " + key.str() + "[" + Twine(index) +
                    "]: unknown op class" +
                    (text ? " '" + text->str() + "'" : std::string()) +
                    " (expected " + kOpClassOptionNames + ")");
      lists[*opClass] = category;
    }
  }
  return success();
}

Category AssignPrecisionPass::categoryOf(Operation *op,
                                         OpClass opClass) const {
  auto it = lists.find(opClass);
  if (it != lists.end())
    return it->second;
  if (hasFP32OnlyMath(op))
    return Category::FP32;
  return Category::Follow;
}

/// Fraction of the non-zero elements of constant `value` whose magnitude is
/// below `threshold`.
static double fractionBelow(Value value, double threshold) {
  DenseElementsAttr values;
  if (!matchPattern(value, m_Constant(&values)))
    return 1.0;
  int64_t nonZero = 0, below = 0;
  for (APFloat x : values.getValues<APFloat>()) {
    double magnitude = std::fabs(x.convertToDouble());
    if (magnitude == 0)
      continue;
    ++nonZero;
    below += magnitude < threshold;
  }
  return nonZero ? static_cast<double>(below) / nonZero : 0.0;
}

std::optional<std::string>
AssignPrecisionPass::rangeReason(Operation *op) const {
  auto text = [](double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%g", x);
    return std::string(buffer);
  };
  // Every tensor the op reads or writes must fit the low type.
  SmallVector<Value> values(op->getOperands());
  llvm::append_range(values, op->getResults());
  for (Value value : values) {
    if (!isa<FloatType>(getElementTypeOrSelf(value.getType())))
      continue;
    std::optional<KnownRange> range = getKnownRange(value);
    if (!range)
      continue;
    std::string source =
        " (" + stringifyRangeSource(range->source).str() + ")";
    if (range->maxAbs() > overflow)
      return "range: |x| up to " + text(range->maxAbs()) + " > " +
             text(overflow) + source;
    if (range->knowsSmallValues() && range->minAbsNonzero != 0 &&
        range->minAbsNonzero < underflow) {
      std::string fraction;
      if (range->source == RangeSource::Constant && underflowFraction > 0) {
        // A few tiny weights flushing to zero do not matter; many do.
        double tiny = fractionBelow(value, underflow);
        if (tiny <= underflowFraction)
          continue;
        fraction = " for " + text(100 * tiny) + "% of the non-zero values";
      }
      return "range: non-zero |x| down to " + text(range->minAbsNonzero) +
             " < " + text(underflow) + fraction + source;
    }
  }
  return std::nullopt;
}

/// `op` (a 2-D convolution: the tensor-core kernel matches NHWC ones by
/// name, and the tensor-core pipeline rewrites NCHW ones into NHWC by name;
/// a matmul is matched as a generic contraction too, and generic it folds
/// with the reshapes around it) rebuilt on `inputs` and its own f32 inits;
/// its region extends the low inputs to f32 itself. Null for other ops.
static Operation *rebuildNamedOp(linalg::LinalgOp op, ValueRange inputs,
                                 RewriterBase &rewriter) {
  Location loc = op.getLoc();
  SmallVector<Value> inits = op.getDpsInits();
  TypeRange resultTypes = op->getResultTypes();
  Operation *rebuilt = nullptr;
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
    rebuilt = linalg::Conv2DNhwcHwcfOp::create(
        rewriter, loc, resultTypes, inputs, inits, conv.getStrides(),
        conv.getDilations());
  } else if (auto conv = dyn_cast<linalg::Conv2DNhwcFhwcOp>(op.getOperation())) {
    rebuilt = linalg::Conv2DNhwcFhwcOp::create(
        rewriter, loc, resultTypes, inputs, inits, conv.getStrides(),
        conv.getDilations());
  } else if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation())) {
    rebuilt = linalg::Conv2DNchwFchwOp::create(
        rewriter, loc, resultTypes, inputs, inits, conv.getStrides(),
        conv.getDilations());
  }
  if (rebuilt)
    for (NamedAttribute attr : op->getDiscardableAttrs())
      rebuilt->setAttr(attr.getName(), attr.getValue());
  return rebuilt;
}

LogicalResult AssignPrecisionPass::rewrite(linalg::LinalgOp linalgOp,
                                           bool accumulateF32,
                                           StringRef reason,
                                           RewriterBase &rewriter) {
  Operation *original = linalgOp.getOperation();
  Location loc = original->getLoc();
  MLIRContext *context = original->getContext();
  Type f32 = Float32Type::get(context);
  rewriter.setInsertionPoint(original);
  Builder b(context);
  // Old users keep f32: a cast back (which folds against the next cast
  // down); an FP32 accumulator is stored in the low type first.
  auto replaceWithLowResults = [&](Operation *old, Operation *replacement,
                                   bool storeLow) {
    rewriter.setInsertionPointAfter(replacement);
    SmallVector<Value> replacements;
    for (auto [oldResult, newResult] :
         llvm::zip(old->getResults(), replacement->getResults())) {
      Value value = newResult;
      if (storeLow && isF32Tensor(value.getType()))
        value = castTensor(rewriter, loc, value, low);
      if (value.getType() != oldResult.getType())
        value = CastOp::create(rewriter, loc, oldResult.getType(), value);
      replacements.push_back(value);
    }
    rewriter.replaceOp(old, replacements);
  };
  auto decide = [&](Operation *op) {
    op->setAttr("precision.decision",
                b.getDictionaryAttr(
                    {b.getNamedAttr("precision", TypeAttr::get(low)),
                     b.getNamedAttr("reason", b.getStringAttr(reason))}));
  };

  // An FP32-accumulating 2-D convolution stays a named op on low inputs,
  // as the tensor-core pipeline matches it; its f32 result is
  // stored in the low type (a cast down, which folds against the cast up
  // its f32 users get).
  if (accumulateF32) {
    SmallVector<Value> lowInputs;
    for (Value input : linalgOp.getDpsInputs())
      lowInputs.push_back(isF32Tensor(input.getType())
                              ? castTensor(rewriter, loc, input, low)
                              : input);
    if (Operation *named = rebuildNamedOp(linalgOp, lowInputs, rewriter)) {
      replaceWithLowResults(original, named, /*accumulateF32=*/true);
      decide(named);
      return success();
    }
    // The casts of the inputs were not used: the generic below makes its
    // own.
    for (Value input : lowInputs)
      if (auto cast = input.getDefiningOp<CastOp>(); cast && input.use_empty())
        rewriter.eraseOp(cast);
  }

  auto generic = dyn_cast<linalg::GenericOp>(original);
  if (!generic) {
    FailureOr<linalg::GenericOp> generalized =
        linalg::generalizeNamedOp(rewriter, linalgOp);
    if (failed(generalized))
      return failure();
    generic = *generalized;
  }
  rewriter.setInsertionPoint(generic);

  SmallVector<Value> inputs, inits;
  for (Value input : generic.getDpsInputs())
    inputs.push_back(isF32Tensor(input.getType())
                         ? castTensor(rewriter, loc, input, low)
                         : input);
  for (Value init : generic.getDpsInits())
    inits.push_back(!accumulateF32 && isF32Tensor(init.getType())
                        ? castTensor(rewriter, loc, init, low)
                        : init);
  SmallVector<Type> resultTypes;
  for (Value init : inits)
    resultTypes.push_back(init.getType());
  auto newOp = linalg::GenericOp::create(
      rewriter, loc, resultTypes, inputs, inits,
      generic.getIndexingMapsArray(), generic.getIteratorTypesArray());
  for (NamedAttribute attr : generic->getDiscardableAttrs())
    newOp->setAttr(attr.getName(), attr.getValue());
  rewriter.inlineRegionBefore(generic.getRegion(), newOp.getRegion(),
                              newOp.getRegion().end());

  // The payload reads the low type and computes in f32.
  Block &body = newOp.getRegion().front();
  rewriter.setInsertionPointToStart(&body);
  SmallVector<Value> operands(newOp->getOperands());
  for (auto [argument, operand] : llvm::zip(body.getArguments(), operands)) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (argument.getType() != f32 || element == f32)
      continue;
    argument.setType(element);
    Value extended = arith::ExtFOp::create(rewriter, loc, f32, argument);
    rewriter.replaceAllUsesExcept(argument, extended,
                                  extended.getDefiningOp());
  }
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  rewriter.setInsertionPoint(yield);
  for (auto [index, value] : llvm::enumerate(yield.getValues())) {
    Type element = getElementTypeOrSelf(resultTypes[index]);
    if (value.getType() == f32 && element != f32)
      yield->setOperand(index,
                        arith::TruncFOp::create(rewriter, loc, element, value));
  }

  replaceWithLowResults(generic, newOp, accumulateF32);
  decide(newOp);
  return success();
}

/// Whether `op` may run as TF32: a convolution or contraction on tensors
/// whose inputs are all f32.
static bool takesTF32(linalg::LinalgOp op, OpClass opClass) {
  return (opClass == OpClass::Convolution ||
          opClass == OpClass::Contraction) &&
         op.hasPureTensorSemantics() &&
         llvm::all_of(op.getDpsInputOperands(), [](OpOperand *operand) {
           return isF32Tensor(operand->get().getType());
         });
}

/// Records `op`'s decision; TF32 also sets `opsnn.tf32`, which
/// --opsnn-gpu-tensor-core-matmul honours.
static void recordDecision(Operation *op, Type precision, StringRef reason) {
  Builder b(op->getContext());
  if (isa<FloatTF32Type>(precision))
    op->setAttr(kTF32Attr, b.getUnitAttr());
  op->setAttr("precision.decision",
              b.getDictionaryAttr(
                  {b.getNamedAttr("precision", TypeAttr::get(precision)),
                   b.getNamedAttr("reason", b.getStringAttr(reason))}));
}

/// mode=tf32: storage stays FP32; every f32 convolution and contraction
/// (but the first and last with keep-first-last-fp32) may run its
/// operands as TF32 on tensor cores. TF32 keeps FP32's exponent range, so
/// the value-range rules do not apply.
void AssignPrecisionPass::markTF32(func::FuncOp func) {
  SmallVector<linalg::LinalgOp> contractions;
  func.walk([&](linalg::LinalgOp op) {
    if (takesTF32(op, computeOpFingerprint(op).opClass))
      contractions.push_back(op);
  });
  Builder b(func.getContext());
  for (linalg::LinalgOp op : contractions) {
    bool keep = keepFirstLastFP32 &&
                (op == contractions.front() || op == contractions.back());
    if (keep)
      recordDecision(op, b.getF32Type(), "keep-first-last-fp32");
    else
      recordDecision(op, b.getTF32Type(), "mode");
  }
}

/// mode=int8|fp8 with range-tf32: the f32 convolutions and contractions
/// quantization left in FP32 (activation by activation, as attention's;
/// no known range) run as TF32, as those the range rules keep in FP32 do
/// in the mixed modes. Not the first and last convolution or contraction
/// with keep-first-last-fp32, nor an op whose `opsnn.precision` is "fp32".
void AssignPrecisionPass::markQuantizationLeftoversTF32(func::FuncOp func) {
  SmallVector<std::pair<linalg::LinalgOp, OpClass>> gemmLike;
  func.walk([&](linalg::LinalgOp op) {
    OpClass opClass = computeOpFingerprint(op).opClass;
    if (opClass == OpClass::Convolution || opClass == OpClass::Contraction)
      gemmLike.emplace_back(op, opClass);
  });
  for (auto [op, opClass] : gemmLike) {
    bool firstOrLast = keepFirstLastFP32 && (op == gemmLike.front().first ||
                                             op == gemmLike.back().first);
    auto forced = op->getAttrOfType<StringAttr>("opsnn.precision");
    if (firstOrLast || (forced && forced.getValue() == "fp32") ||
        !takesTF32(op, opClass))
      continue;
    std::string reason = "left in FP32 by " + mode + " quantization";
    if (auto decision = op->getAttrOfType<DictionaryAttr>("precision.decision"))
      if (auto why = decision.getAs<StringAttr>("reason"))
        reason += " (" + why.getValue().str() + ")";
    recordDecision(op, FloatTF32Type::get(op->getContext()),
                   reason + "; TF32 keeps FP32's range");
  }
}

void AssignPrecisionPass::relaxSignature(func::FuncOp func) {
  Block &entry = func.getBody().front();
  for (BlockArgument argument : entry.getArguments()) {
    if (argument.use_empty() ||
        !llvm::all_of(argument.getUsers(), [&](Operation *user) {
          auto cast = dyn_cast<CastOp>(user);
          return cast && getElementTypeOrSelf(cast.getType()) == low;
        }))
      continue;
    Type lowType = cast<RankedTensorType>(argument.getType()).clone(low);
    for (Operation *user : llvm::make_early_inc_range(argument.getUsers()))
      user->getResult(0).replaceAllUsesWith(argument), user->erase();
    argument.setType(lowType);
  }
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands())
      if (auto cast = operand.get().getDefiningOp<CastOp>())
        if (getElementTypeOrSelf(cast.getInput().getType()) == low)
          operand.set(cast.getInput());
    func.setFunctionType(FunctionType::get(func.getContext(),
                                           entry.getArgumentTypes(),
                                           ret->getOperandTypes()));
  });
}

void AssignPrecisionPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (failed(parseOptions(func)))
    return signalPassFailure();
  if (mode == "int8" || mode == "fp8") {
    // Post-training quantization: contractions with constant weights whose
    // activation range is known (see --opsnn-quantize).
    QuantizeOptions quantize;
    quantize.type = mode == "int8" ? QuantizeType::Int8 : QuantizeType::FP8;
    quantize.skipFirstLast = keepFirstLastFP32;
    if (failed(quantizeFunction(func, quantize)))
      return signalPassFailure();
    if (rangeTF32)
      markQuantizationLeftoversTF32(func);
    return;
  }
  if (mode == "tf32")
    return markTF32(func);
  if (!low)
    return; // fp32: nothing changes

  SmallVector<linalg::LinalgOp> ops;
  func.walk([&](linalg::LinalgOp op) {
    if (op.hasPureTensorSemantics() &&
        llvm::any_of(op->getOperandTypes(), isF32Tensor))
      ops.push_back(op);
  });
  // Each op's class, and the first and last contraction for
  // keep-first-last-fp32.
  SmallVector<OpClass> classes;
  SmallVector<Operation *> contractions;
  for (linalg::LinalgOp op : ops) {
    classes.push_back(computeOpFingerprint(op).opClass);
    if (classes.back() == OpClass::Convolution ||
        classes.back() == OpClass::Contraction)
      contractions.push_back(op);
  }

  IRRewriter rewriter(&getContext());
  for (auto [linalgOp, opClass] : llvm::zip(ops, classes)) {
    linalg::LinalgOp op = linalgOp; // captured below (C++17)
    bool gemmLike =
        opClass == OpClass::Convolution || opClass == OpClass::Contraction;
    std::string reason;
    bool lower = false;
    // Ops that stay FP32 say why too (the report shows every decision).
    auto keepFP32 = [&](StringRef why) {
      recordDecision(op, rewriter.getF32Type(), why);
    };
    bool firstOrLast =
        keepFirstLastFP32 && gemmLike &&
        (op == contractions.front() || op == contractions.back());
    if (auto forced = op->getAttrOfType<StringAttr>("opsnn.precision")) {
      lower = forced.getValue() != "fp32";
      reason = "attribute";
    } else if (std::optional<std::string> range = rangeReason(op)) {
      // TF32 keeps the range the rules protect.
      if (rangeTF32 && !firstOrLast && takesTF32(op, opClass))
        recordDecision(op, rewriter.getTF32Type(),
                       *range + "; TF32 keeps FP32's range");
      else
        keepFP32(*range);
      continue;
    } else if (firstOrLast) {
      keepFP32("keep-first-last-fp32");
      continue;
    } else if (!mixed) {
      lower = true;
      reason = "mode";
    } else {
      switch (categoryOf(op, opClass)) {
      case Category::Low:
        lower = true;
        reason = "low list";
        break;
      case Category::FP32:
        reason = "fp32 list";
        break;
      case Category::Follow:
        lower = llvm::any_of(op->getOperands(), [&](Value operand) {
          // Layout conversions move values without changing them.
          while (auto convert = operand.getDefiningOp<layout::ConvertOp>())
            operand = convert.getInput();
          auto cast = operand.getDefiningOp<CastOp>();
          return cast &&
                 getElementTypeOrSelf(cast.getInput().getType()) == low;
        });
        reason = lower ? "follows its inputs" : "follows its FP32 inputs";
        break;
      }
    }
    if (!lower) {
      keepFP32(reason);
      continue;
    }
    if (failed(rewrite(op, /*accumulateF32=*/gemmLike, reason, rewriter))) {
      op->emitWarning("opsnn-assign-precision: could not rewrite the op");
    }
  }

  // Casts that meet their inverse fold; dead ones go.
  (void)applyPatternsGreedily(func, RewritePatternSet(&getContext()));
  if (!keepIOTypes) {
    relaxSignature(func);
    (void)applyPatternsGreedily(func, RewritePatternSet(&getContext()));
  }
}
