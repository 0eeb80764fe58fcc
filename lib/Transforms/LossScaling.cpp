//===- LossScaling.cpp - Dynamic loss scaling of a training step ----------===//
//
// --opsnn-loss-scaling: turns a function that computes gradients (its loss
// seed argument marked `opsnn.loss_seed`, its gradient results marked
// `opsnn.gradient`) into one step of dynamic loss scaling with PyTorch
// GradScaler semantics: the seed is multiplied by the current scale, the
// gradients are unscaled and checked for inf/NaN together, and the next
// scale and growth tracker are computed and returned with the
// found-non-finite flag. The scale and tracker travel as 0-d tensors so
// that ops-nn-run and artifacts feed them from .npy files.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Precision/IR/PrecisionDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <cmath>
#include <limits>

namespace mlir::opsnn {
#define GEN_PASS_DEF_LOSSSCALINGPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// Argument, result and function attribute names of the contract.
static constexpr StringLiteral kLossSeed = "opsnn.loss_seed";
static constexpr StringLiteral kGradient = "opsnn.gradient";
static constexpr StringLiteral kLossScale = "opsnn.loss_scale";
static constexpr StringLiteral kGrowthTracker = "opsnn.growth_tracker";
static constexpr StringLiteral kFoundNonFinite = "opsnn.found_non_finite";
static constexpr StringLiteral kLossScaling = "opsnn.loss_scaling";

namespace {
/// The GradScaler parameters the pass applies.
struct LossScalingConfig {
  double initScale;
  double growthFactor;
  double backoffFactor;
  int64_t growthInterval;

  /// What the function records in `opsnn.loss_scaling`.
  DictionaryAttr toAttr(Builder &b) const {
    return b.getDictionaryAttr(
        {b.getNamedAttr("init_scale", b.getF64FloatAttr(initScale)),
         b.getNamedAttr("growth_factor", b.getF64FloatAttr(growthFactor)),
         b.getNamedAttr("backoff_factor", b.getF64FloatAttr(backoffFactor)),
         b.getNamedAttr("growth_interval",
                        b.getI64IntegerAttr(growthInterval))});
  }
};
} // namespace

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// The option errors, reported on `func` (the first function they matter to).
static LogicalResult verifyConfig(func::FuncOp func,
                                  const LossScalingConfig &config) {
  auto error = [&]() {
    return func.emitError() << "opsnn-loss-scaling: ";
  };
  if (!(config.initScale > 0.0) || !std::isfinite(config.initScale) ||
      config.initScale > std::numeric_limits<float>::max())
    return error() << "init-scale must be positive and finite in f32, got "
                   << config.initScale;
  if (!(config.growthFactor > 1.0) || !std::isfinite(config.growthFactor))
    return error() << "growth-factor must be greater than 1, got "
                   << config.growthFactor;
  if (!(config.backoffFactor > 0.0 && config.backoffFactor < 1.0))
    return error() << "backoff-factor must be in (0, 1), got "
                   << config.backoffFactor;
  if (config.growthInterval < 1 ||
      config.growthInterval > std::numeric_limits<int32_t>::max())
    return error() << "growth-interval must be in [1, 2^31 - 1] (the tracker "
                      "is i32), got "
                   << config.growthInterval;
  return success();
}

/// Applies loss scaling to `func`. Functions with neither a loss seed nor a
/// gradient result are not training steps and are left alone; so is one
/// already scaled with the same configuration.
static LogicalResult applyLossScaling(func::FuncOp func,
                                      const LossScalingConfig &config) {
  OpBuilder b(func.getContext());
  DictionaryAttr configAttr = config.toAttr(b);
  if (Attribute previous = func->getAttr(kLossScaling)) {
    if (previous == configAttr)
      return success();
    return func.emitError()
           << "opsnn-loss-scaling: function is already loss-scaled with "
           << previous << "; scaling it again with " << configAttr
           << " would scale its gradients twice";
  }

  SmallVector<unsigned> seeds, gradients;
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, kLossSeed))
      seeds.push_back(i);
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, kGradient))
      gradients.push_back(i);
  if (seeds.empty() && gradients.empty())
    return success();

  auto error = [&]() {
    return func.emitError() << "opsnn-loss-scaling: ";
  };
  if (func.isExternal())
    return error() << "cannot loss-scale a declaration (no body)";
  if (seeds.empty())
    return error() << "has " << gradients.size()
                   << " 'opsnn.gradient' result(s) but no argument marked "
                      "'opsnn.loss_seed' (the dL/dL tensor the backward "
                      "pass starts from)";
  if (seeds.size() > 1)
    return error() << "several arguments are marked 'opsnn.loss_seed' (#"
                   << seeds[0] << " and #" << seeds[1]
                   << "); mark the one dL/dL tensor";
  if (gradients.empty())
    return error() << "has a loss seed (argument #" << seeds[0]
                   << ") but no result marked 'opsnn.gradient'";
  if (failed(verifyConfig(func, config)))
    return failure();

  FunctionType type = func.getFunctionType();
  unsigned seedIndex = seeds.front();
  if (!isFloatTensor(type.getInput(seedIndex)))
    return error() << "loss seed argument #" << seedIndex << " has type "
                   << type.getInput(seedIndex)
                   << "; expected a ranked tensor of floats";
  for (unsigned index : gradients)
    if (!isFloatTensor(type.getResult(index)))
      return error() << "gradient result #" << index << " has type "
                     << type.getResult(index)
                     << "; expected a ranked tensor of floats";

  // The scale and tracker: 0-d tensors at the end of the argument list.
  Location loc = func.getLoc();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto scaleType = RankedTensorType::get({}, f32);
  auto trackerType = RankedTensorType::get({}, i32);
  auto flagType = RankedTensorType::get({}, b.getI1Type());
  auto marker = [&](StringRef name) {
    return b.getDictionaryAttr(b.getNamedAttr(name, b.getUnitAttr()));
  };
  unsigned numArgs = func.getNumArguments();
  if (failed(func.insertArguments({numArgs, numArgs}, {scaleType, trackerType},
                                  {marker(kLossScale), marker(kGrowthTracker)},
                                  {loc, loc})))
    return error() << "could not append the loss-scale arguments";
  Block &entry = func.front();
  Value scaleArg = entry.getArgument(numArgs);
  Value trackerArg = entry.getArgument(numArgs + 1);

  // Scale the seed once, at the top: every gradient is then scaled.
  BlockArgument seed = entry.getArgument(seedIndex);
  b.setInsertionPointToStart(&entry);
  Value scale = tensor::ExtractOp::create(b, loc, scaleArg, ValueRange{});
  Value tracker = tensor::ExtractOp::create(b, loc, trackerArg, ValueRange{});
  auto scaled = precision::ScaleOp::create(b, seed.getLoc(), seed, scale);
  seed.replaceAllUsesExcept(scaled, scaled);

  // At every return: unscale and check the gradients together, update the
  // scale, return the new state and the flag.
  for (Block &block : func.getBody()) {
    auto ret = dyn_cast<func::ReturnOp>(block.getTerminator());
    if (!ret)
      continue;
    b.setInsertionPoint(ret);
    Location retLoc = ret.getLoc();
    SmallVector<Value> operands(ret.getOperands());
    SmallVector<Value> grads = llvm::map_to_vector(
        gradients, [&](unsigned index) { return operands[index]; });
    auto unscale =
        precision::UnscaleAndCheckOp::create(b, retLoc, grads, scale);
    for (auto [index, unscaled] :
         llvm::zip_equal(gradients, unscale.getResults()))
      operands[index] = unscaled;
    Value found = unscale.getFoundNonFinite();
    auto update = precision::UpdateLossScaleOp::create(
        b, retLoc, f32, i32, scale, tracker, found,
        b.getF64FloatAttr(config.initScale),
        b.getF64FloatAttr(config.growthFactor),
        b.getF64FloatAttr(config.backoffFactor),
        b.getI64IntegerAttr(config.growthInterval));
    operands.push_back(tensor::FromElementsOp::create(
        b, retLoc, scaleType, ValueRange{update.getNewScale()}));
    operands.push_back(tensor::FromElementsOp::create(
        b, retLoc, trackerType, ValueRange{update.getNewGrowthTracker()}));
    operands.push_back(
        tensor::FromElementsOp::create(b, retLoc, flagType, ValueRange{found}));
    ret->setOperands(operands);
  }

  unsigned numResults = func.getNumResults();
  if (failed(func.insertResults(
          {numResults, numResults, numResults},
          {scaleType, trackerType, flagType},
          {marker(kLossScale), marker(kGrowthTracker),
           marker(kFoundNonFinite)})))
    return error() << "could not append the loss-scale results";
  func->setAttr(kLossScaling, configAttr);
  return success();
}

namespace {
struct LossScalingPass : opsnn::impl::LossScalingPassBase<LossScalingPass> {
  using LossScalingPassBase::LossScalingPassBase;

  void runOnOperation() override {
    LossScalingConfig config{initScale, growthFactor, backoffFactor,
                             growthInterval};
    if (failed(applyLossScaling(getOperation(), config)))
      return signalPassFailure();
  }
};
} // namespace
