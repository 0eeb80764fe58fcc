//===- AssignLayouts.cpp - ALTE: choose layouts, insert conversions -------===//
//
// --opsnn-assign-layouts: builds the labeling problem of
// opsnn/Analysis/LayoutLabeling.h from the function (nodes: ops with
// LayoutTransformOpInterface; labels: layouts; unary costs: the cost model's
// estimate of each op in each layout plus the conversions at fixed
// boundaries; edges: activations between flexible ops), solves it (seed rule
// pins first), rewrites the ops through the interface and cancels the
// conversions that meet. docs/ALTE.md describes the model.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/CostModel.h"
#include "opsnn/Analysis/LayoutLabeling.h"
#include "opsnn/Analysis/LayoutScore.h"
#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Layout/Interfaces/LayoutTransformOpInterface.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_ASSIGNLAYOUTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using layout::ConvertOp;
using layout::LayoutAttr;
using layout::LayoutTransformOpInterface;

namespace {
/// What `prefer=CLASS:LAYOUT` asks for.
enum class Preference { Auto, Keep, ChannelsFirst, ChannelsLast };

std::optional<Preference> parsePreference(StringRef name) {
  return llvm::StringSwitch<std::optional<Preference>>(name)
      .Case("auto", Preference::Auto)
      .Case("keep", Preference::Keep)
      .Cases({"nchw", "ncdhw", "ncw", "channels-first"},
             Preference::ChannelsFirst)
      .Cases({"nhwc", "ndhwc", "nwc", "channels-last"},
             Preference::ChannelsLast)
      .Default(std::nullopt);
}

/// One layout-flexible op (or, with abi=free, a function argument or
/// result) of the labeling problem.
struct Node {
  Operation *op = nullptr;         // null for an argument/result node
  BlockArgument argument;          // abi=free argument node
  std::optional<unsigned> result;  // abi=free result node (result index)
  SmallVector<LayoutAttr> candidates;
  LayoutAttr current;
  OpClass opClass = OpClass::Unknown;
  /// The op's fingerprint with dynamic sizes at the hint (computed once).
  OpFingerprint fingerprint;
  /// The op's own estimate in each candidate (parallel to `candidates`).
  SmallVector<double> ownSeconds;
};

/// Cost-model questions about one function, with dynamic sizes set to a
/// hint.
class LayoutCostEstimator {
public:
  LayoutCostEstimator(const TargetDescription &target, bool allowTF32,
                      int64_t dynamicSizeHint)
      : model(target), allowTF32(allowTF32), hint(dynamicSizeHint) {}

  double valueBytes(Value value) const {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return 0;
    double elements = 1;
    for (int64_t size : type.getShape())
      elements *= ShapedType::isDynamic(size) ? hint : size;
    return elements * getElementByteWidth(type);
  }

  /// Seconds to convert `value` at run time: nothing for constants (folded
  /// at compile time) and for empty or filled tensors (recreated in place).
  double conversionSeconds(Value value) const {
    if (layout::isFreeToConvert(value))
      return 0;
    return model.estimateLayoutConvert(valueBytes(value)).seconds();
  }

  /// The fingerprint with every dynamic size at the hint.
  OpFingerprint staticFingerprint(Operation *op) const {
    OpFingerprint fp = computeOpFingerprint(op);
    auto sizeOf = [&](unsigned dim) -> double {
      return dim < fp.sizes.size() && fp.sizes[dim] ? *fp.sizes[dim] : hint;
    };
    fp.flops = SymbolicCount::term(fp.flops.evaluate(sizeOf), {});
    fp.bytesRead = SymbolicCount::term(fp.bytesRead.evaluate(sizeOf), {});
    fp.bytesWritten =
        SymbolicCount::term(fp.bytesWritten.evaluate(sizeOf), {});
    return fp;
  }

  Precision precisionOf(Operation *op, const OpFingerprint &fp) const {
    Precision precision = inferComputePrecision(op);
    bool gemmLike = fp.opClass == OpClass::Convolution ||
                    fp.opClass == OpClass::Contraction;
    if (allowTF32 && precision == Precision::FP32 && gemmLike &&
        model.getTarget().peakTf32Tflops > 0)
      return Precision::TF32;
    return precision;
  }

  /// Operand bytes over fetched bytes when `op` computes in `layout`: the
  /// layout scores of its activations in that layout and of its other
  /// operands in their best layout. 1 for layout-agnostic ops (generics,
  /// pads, softmax), whose accesses follow their operands wherever they go.
  double memoryEfficiency(const Node &node, LayoutAttr layout) {
    Operation *op = node.op;
    if (isa<linalg::GenericOp, linalg::SoftmaxOp, tensor::PadOp>(op))
      return 1.0;
    auto it = scoreCache.find(op);
    if (it == scoreCache.end()) {
      FailureOr<SmallVector<LayoutScore>> scores =
          computeLayoutScores(op, model.getTarget());
      it = scoreCache
               .try_emplace(op, succeeded(scores) ? std::move(*scores)
                                                  : SmallVector<LayoutScore>())
               .first;
    }
    auto iface = cast<LayoutTransformOpInterface>(op);
    double bytes = 0, fetched = 0;
    for (OpOperand &operand : op->getOpOperands()) {
      bool activation = iface.isActivationOperand(operand.getOperandNumber());
      std::optional<double> best;
      for (const LayoutScore &score : it->second) {
        if (score.outputLayout != layout.getName() ||
            score.operand != operand.getOperandNumber())
          continue;
        if (activation && score.layout == layout.getName()) {
          best = score.score;
          break;
        }
        if (!activation)
          best = std::max(best.value_or(0.0), score.score);
      }
      if (!best || *best <= 0)
        continue;
      double operandBytes = valueBytes(operand.get());
      bytes += operandBytes;
      fetched += operandBytes / *best;
    }
    return fetched > 0 ? bytes / fetched : 1.0;
  }

  /// The roofline time of the node's op computing in `layout`.
  double opSeconds(const Node &node, LayoutAttr layout) {
    Operation *op = node.op;
    const OpFingerprint &fp = node.fingerprint;
    if (fp.opClass == OpClass::Unknown)
      return 0;
    Precision precision = precisionOf(op, fp);
    bool channelsFirst = !layout::isChannelsLast(layout);
    if (fp.opClass == OpClass::Convolution && channelsFirst &&
        model.isTensorCoreEligible(fp, precision))
      return model
          .estimateChannelsFirstConvolution(fp, precision,
                                            valueBytes(op->getOperand(0)),
                                            valueBytes(op->getResult(0)))
          .seconds();
    return model
        .estimateOp(fp, precision, /*bytesScale=*/1.0,
                    memoryEfficiency(node, layout))
        .seconds();
  }

private:
  CostModel model;
  bool allowTF32;
  double hint;
  DenseMap<Operation *, SmallVector<LayoutScore>> scoreCache;
};

struct AssignLayoutsPass
    : opsnn::impl::AssignLayoutsPassBase<AssignLayoutsPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  LogicalResult parseOptions(func::FuncOp func);
  void collectNodes(func::FuncOp func, LayoutCostEstimator &estimator);
  void buildProblem(func::FuncOp func, LayoutCostEstimator &estimator);
  void pinNodes(LayoutCostEstimator &estimator);
  void annotateDecisions(ArrayRef<unsigned> chosen);
  void rewrite(func::FuncOp func, ArrayRef<unsigned> chosen);
  unsigned labelOf(LayoutAttr layout);

  DenseMap<OpClass, Preference> preferenceOf;
  std::vector<Node> nodes;
  DenseMap<Operation *, unsigned> nodeOf;
  DenseMap<BlockArgument, unsigned> argumentNodeOf;
  DenseMap<unsigned, unsigned> resultNodeOf;
  SmallVector<LayoutAttr> labels;
  LabelingProblem problem;
  /// problem.unary before pinning: each node's cost in every candidate.
  std::vector<std::vector<double>> unpinnedCosts;
  /// Per node: the only label it may take (seed rule or preference), and
  /// which of the two pinned it.
  SmallVector<std::optional<unsigned>> pinned;
  SmallVector<StringRef> pinReason;
};
} // namespace

LogicalResult AssignLayoutsPass::parseOptions(func::FuncOp func) {
  auto fail = [&](const Twine &message) {
    return func.emitError() << "opsnn-assign-layouts: " << message;
  };
  if (!(scoreThreshold >= 0.0 && scoreThreshold <= 1.0))
    return fail("score-threshold must be in [0, 1], got " +
                llvm::formatv("{0}", scoreThreshold.getValue()).str());
  if (!(intensityThreshold >= 0.0))
    return fail("intensity-threshold must be >= 0, got " +
                llvm::formatv("{0}", intensityThreshold.getValue()).str());
  if (strategy != "global" && strategy != "greedy")
    return fail("strategy must be global or greedy, got '" + strategy + "'");
  if (abi != "keep" && abi != "free")
    return fail("abi must be keep or free, got '" + abi + "'");
  if (dynamicSizeHint < 1)
    return fail("dynamic-size-hint must be >= 1");
  if (!lookupTarget(targetName))
    return fail("unknown target \"" + targetName +
                "\"; known targets: " + getKnownTargetNames());
  preferenceOf.clear();
  for (StringRef entry : preferences) {
    auto [className, layoutName] = entry.split(':');
    std::optional<OpClass> opClass = parseOpClassOptionName(className.trim());
    if (!opClass)
      return fail("unknown op class '" + className + "' in prefer=" + entry +
                  " (expected one of " + kOpClassOptionNames + ")");
    std::optional<Preference> preference = parsePreference(layoutName.trim());
    if (!preference)
      return fail("unknown layout '" + layoutName + "' in prefer=" + entry +
                  " (expected keep, auto, nchw or nhwc)");
    // A second entry for the same class would silently win: say so.
    if (!preferenceOf.try_emplace(*opClass, *preference).second)
      return fail("op class '" + className.trim() + "' is given twice in "
                  "prefer");
  }
  // Broadcasts follow elementwise ops unless they have their own entry.
  if (auto it = preferenceOf.find(OpClass::Elementwise);
      it != preferenceOf.end())
    preferenceOf.try_emplace(OpClass::Broadcast, it->second);
  return success();
}

unsigned AssignLayoutsPass::labelOf(LayoutAttr layout) {
  auto it = llvm::find(labels, layout);
  if (it != labels.end())
    return it - labels.begin();
  labels.push_back(layout);
  return labels.size() - 1;
}

void AssignLayoutsPass::collectNodes(func::FuncOp func,
                                     LayoutCostEstimator &estimator) {
  func.walk([&](LayoutTransformOpInterface iface) {
    Operation *op = iface.getOperation();
    if (!llvm::all_of(op->getOperandTypes(), [](Type type) {
          return !isa<MemRefType>(type);
        }))
      return;
    SmallVector<LayoutAttr> candidates = iface.getLayoutCandidates();
    if (candidates.size() < 2)
      return;
    Node node;
    node.op = op;
    node.candidates = candidates;
    node.current = candidates.front();
    node.fingerprint = estimator.staticFingerprint(op);
    node.opClass = node.fingerprint.opClass;
    if (isa<tensor::PadOp>(op))
      node.opClass = OpClass::DataMovement;
    nodeOf[op] = nodes.size();
    nodes.push_back(std::move(node));
  });

  if (abi != "free" || func.isPrivate() || func.isExternal())
    return;
  // Arguments and results whose layout the body may choose.
  MLIRContext *context = func.getContext();
  auto boundaryNode = [&](LayoutAttr current) {
    Node node;
    node.current = current;
    node.candidates = {current};
    int64_t rank = current.getLogicalRank();
    for (LayoutAttr layout : {layout::getChannelsFirstLayout(context, rank),
                              layout::getChannelsLastLayout(context, rank)})
      if (layout && !llvm::is_contained(node.candidates, layout))
        node.candidates.push_back(layout);
    return node;
  };
  for (BlockArgument argument : func.getArguments())
    for (OpOperand &use : argument.getUses()) {
      auto it = nodeOf.find(use.getOwner());
      if (it == nodeOf.end() ||
          !cast<LayoutTransformOpInterface>(use.getOwner())
               .isActivationOperand(use.getOperandNumber()))
        continue;
      Node node = boundaryNode(nodes[it->second].current);
      node.argument = argument;
      argumentNodeOf[argument] = nodes.size();
      nodes.push_back(std::move(node));
      break;
    }
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      auto result = dyn_cast<OpResult>(operand.get());
      if (!result || !nodeOf.count(result.getOwner()) ||
          !cast<LayoutTransformOpInterface>(result.getOwner())
               .isActivationResult(result.getResultNumber()))
        continue;
      Node node = boundaryNode(nodes[nodeOf[result.getOwner()]].current);
      node.result = operand.getOperandNumber();
      resultNodeOf[operand.getOperandNumber()] = nodes.size();
      nodes.push_back(std::move(node));
    }
  });
}

void AssignLayoutsPass::buildProblem(func::FuncOp func,
                                     LayoutCostEstimator &estimator) {
  for (Node &node : nodes)
    for (LayoutAttr layout : node.candidates)
      labelOf(layout);
  problem = LabelingProblem();
  problem.numLabels = labels.size();
  problem.unary.assign(nodes.size(), std::vector<double>(
                                         labels.size(),
                                         LabelingProblem::kForbidden));
  auto chargeOtherLabels = [&](unsigned n, double seconds) {
    for (LayoutAttr layout : nodes[n].candidates)
      if (layout != nodes[n].current)
        problem.unary[n][labelOf(layout)] += seconds;
  };

  for (auto [n, node] : llvm::enumerate(nodes)) {
    for (LayoutAttr layout : node.candidates) {
      node.ownSeconds.push_back(node.op ? estimator.opSeconds(node, layout)
                                        : 0.0);
      problem.unary[n][labelOf(layout)] = node.ownSeconds.back();
    }
    if (!node.op)
      continue;
    auto iface = cast<LayoutTransformOpInterface>(node.op);

    // Operands: activations join an edge or pay at a fixed producer;
    // filters of a convolution pay their conversion unless constant.
    llvm::SmallDenseSet<Value> seen;
    for (OpOperand &operand : node.op->getOpOperands()) {
      Value value = operand.get();
      if (!isa<RankedTensorType>(value.getType()) ||
          !seen.insert(value).second)
        continue;
      if (!iface.isActivationOperand(operand.getOperandNumber())) {
        if (node.opClass == OpClass::Convolution &&
            cast<RankedTensorType>(value.getType()).getRank() >= 2)
          chargeOtherLabels(n, estimator.conversionSeconds(value));
        continue;
      }
      double seconds = estimator.conversionSeconds(value);
      unsigned other = ~0u;
      if (auto result = dyn_cast<OpResult>(value)) {
        auto it = nodeOf.find(result.getOwner());
        if (it != nodeOf.end() &&
            cast<LayoutTransformOpInterface>(result.getOwner())
                .isActivationResult(result.getResultNumber()))
          other = it->second;
      } else if (auto it = argumentNodeOf.find(cast<BlockArgument>(value));
                 it != argumentNodeOf.end()) {
        other = it->second;
      }
      if (other != ~0u)
        problem.edges.push_back({other, static_cast<unsigned>(n), seconds});
      else
        chargeOtherLabels(n, seconds);
    }

    // Results read by anything that is not a flexible op's activation pay
    // one conversion back (shared by all such readers).
    for (OpResult result : node.op->getResults()) {
      if (!iface.isActivationResult(result.getResultNumber()))
        continue;
      bool fixedReader = false;
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        if (isa<func::ReturnOp>(user) &&
            resultNodeOf.count(use.getOperandNumber())) {
          problem.edges.push_back({static_cast<unsigned>(n),
                                   resultNodeOf[use.getOperandNumber()],
                                   estimator.conversionSeconds(result)});
          continue;
        }
        auto it = nodeOf.find(user);
        if (it == nodeOf.end() ||
            !cast<LayoutTransformOpInterface>(user).isActivationOperand(
                use.getOperandNumber()))
          fixedReader = true;
      }
      if (fixedReader)
        chargeOtherLabels(n, estimator.conversionSeconds(result));
    }
  }
}

void AssignLayoutsPass::pinNodes(LayoutCostEstimator &estimator) {
  pinned.assign(nodes.size(), std::nullopt);
  pinReason.assign(nodes.size(), "cost-model");
  for (unsigned n = 0; n < nodes.size(); ++n) {
    Node &node = nodes[n];
    if (!node.op)
      continue;
    Preference preference = preferenceOf.lookup(node.opClass);
    auto pinTo = [&](LayoutAttr layout) {
      if (!llvm::is_contained(node.candidates, layout))
        return;
      pinned[n] = labelOf(layout);
      pinReason[n] = preference == Preference::Auto ? "seed-rule" : "prefer";
    };
    switch (preference) {
    case Preference::Keep:
      pinTo(node.current);
      break;
    case Preference::ChannelsFirst:
    case Preference::ChannelsLast: {
      // The candidate with (or without) the channels innermost: NHWC,
      // NDHWC, NHWGC (NCHW, NCDHW, NGCHW).
      bool last = preference == Preference::ChannelsLast;
      for (LayoutAttr layout : node.candidates)
        if (layout::isChannelsLast(layout) == last) {
          pinTo(layout);
          break;
        }
      break;
    }
    case Preference::Auto: {
      // The seed rule: a poor current layout on an op with enough work.
      double score = estimator.memoryEfficiency(node, node.current);
      double intensity =
          node.fingerprint.getArithmeticIntensity().value_or(0.0);
      if (score < scoreThreshold && intensity > intensityThreshold) {
        // The cheapest layout by the op's own estimate (the current one on
        // ties: it comes first).
        unsigned best = std::min_element(node.ownSeconds.begin(),
                                         node.ownSeconds.end()) -
                        node.ownSeconds.begin();
        pinTo(node.candidates[best]);
      }
      break;
    }
    }
    if (pinned[n])
      for (unsigned label = 0; label < labels.size(); ++label)
        if (label != *pinned[n])
          problem.unary[n][label] = LabelingProblem::kForbidden;
  }
}

void AssignLayoutsPass::annotateDecisions(ArrayRef<unsigned> chosen) {
  for (auto [n, node] : llvm::enumerate(nodes)) {
    if (!node.op)
      continue;
    Builder b(node.op->getContext());
    SmallVector<NamedAttribute> costs;
    for (LayoutAttr layout : node.candidates) {
      double seconds = unpinnedCosts[n][labelOf(layout)];
      if (seconds < LabelingProblem::kForbidden)
        costs.push_back(
            b.getNamedAttr(layout.getName(), b.getF64FloatAttr(seconds)));
    }
    node.op->setAttr(
        "layout.decision",
        b.getDictionaryAttr(
            {b.getNamedAttr("from", node.current),
             b.getNamedAttr("layout", labels[chosen[n]]),
             b.getNamedAttr("reason", b.getStringAttr(pinReason[n])),
             b.getNamedAttr("seconds", b.getDictionaryAttr(costs))}));
  }
}

void AssignLayoutsPass::rewrite(func::FuncOp func, ArrayRef<unsigned> chosen) {
  IRRewriter rewriter(func.getContext());
  for (unsigned n = 0; n < nodes.size(); ++n) {
    Node &node = nodes[n];
    LayoutAttr layout = labels[chosen[n]];
    if (layout == node.current)
      continue;
    if (node.op) {
      auto iface = cast<LayoutTransformOpInterface>(node.op);
      if (failed(iface.rewriteInLayout(rewriter, layout)))
        node.op->emitWarning() << "opsnn-assign-layouts: could not rewrite "
                                  "the op into "
                               << layout.getName();
      else
        ++numRewritten;
      continue;
    }
    // abi=free: the argument or result itself changes layout.
    if (node.argument) {
      BlockArgument argument = node.argument;
      auto oldType = cast<RankedTensorType>(argument.getType());
      argument.setType(
          layout::getConvertedType(oldType, node.current, layout));
      rewriter.setInsertionPointToStart(argument.getOwner());
      Value converted = layout::createConvert(rewriter, func.getLoc(), argument,
                                              layout, node.current);
      rewriter.replaceAllUsesExcept(argument, converted,
                                    converted.getDefiningOp());
      func.setArgAttr(argument.getArgNumber(), "layout.layout", layout);
    } else {
      unsigned index = *node.result;
      LayoutAttr current = node.current;
      func.walk([&](func::ReturnOp ret) {
        rewriter.setInsertionPoint(ret);
        ret->setOperand(index, layout::createConvert(
                                   rewriter, ret.getLoc(),
                                   ret->getOperand(index), current, layout));
      });
      func.setResultAttr(index, "layout.layout", layout);
    }
  }
  // Keep the signature in step with abi=free changes.
  SmallVector<Type> resultTypes(func.getResultTypes());
  func.walk([&](func::ReturnOp ret) {
    resultTypes = llvm::to_vector(ret->getOperandTypes());
  });
  func.setFunctionType(FunctionType::get(
      func.getContext(), func.getBody().getArgumentTypes(), resultTypes));
}

void AssignLayoutsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  if (failed(parseOptions(func)))
    return signalPassFailure();
  nodes.clear();
  nodeOf.clear();
  argumentNodeOf.clear();
  resultNodeOf.clear();
  labels.clear();

  LayoutCostEstimator estimator(*lookupTarget(targetName), allowTF32,
                                dynamicSizeHint);
  collectNodes(func, estimator);
  if (!nodes.empty()) {
    buildProblem(func, estimator);
    unpinnedCosts = problem.unary;
    pinNodes(estimator);
    std::vector<unsigned> chosen;
    for (unsigned n = 0; n < nodes.size(); ++n)
      chosen.push_back(pinned[n] ? *pinned[n] : labelOf(nodes[n].current));
    if (strategy == "global")
      chosen = solveLabeling(problem, std::move(chosen));
    if (annotate)
      annotateDecisions(chosen);
    rewrite(func, chosen);
  }

  RewritePatternSet patterns(&getContext());
  populateLayoutConversionCleanupPatterns(patterns);
  // Not converging within the driver's iterations leaves valid IR.
  (void)applyPatternsGreedily(func, std::move(patterns));
  mergeDuplicateConversions(func);
  func.walk([&](ConvertOp) { ++numConversions; });
}
