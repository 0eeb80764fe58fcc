//===- LayoutScore.cpp - How well a layout suits an op's accesses ---------===//
//
// Simulates the addresses one warp (GPU) or one vector (CPU) touches and
// counts the sectors or cache lines they fall in. Operands are described by
// layout letters inferred from the op's loop roles, so candidate layouts
// are real layouts (NHWC, HWCF, ...) and conversions use LayoutAttr's index
// maps.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/LayoutScore.h"

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"

#include <set>

using namespace mlir;
using namespace mlir::opsnn;
using layout::LayoutAttr;

/// Letters of the spatial (or window) dimension `index` of `count`.
static char getSpatialLetter(unsigned index, unsigned count) {
  static const char *letters[] = {"W", "HW", "DHW"};
  if (count == 0 || count > 3)
    return 0;
  return letters[count - 1][index];
}

SmallVector<std::optional<std::string>>
mlir::opsnn::inferOperandLayouts(Operation *op) {
  SmallVector<std::optional<std::string>> result(op->getNumOperands());
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return result;
  OpFingerprint fp = computeOpFingerprint(op);
  SmallVector<unsigned> spatial, window;
  bool hasRoles = false;
  for (auto [dim, role] : llvm::enumerate(fp.roles)) {
    if (role == DimRole::Spatial)
      spatial.push_back(dim);
    if (role == DimRole::Window)
      window.push_back(dim);
    if (role != DimRole::Parallel && role != DimRole::Reduction)
      hasRoles = true;
  }
  bool batchedContraction =
      fp.opClass == OpClass::Contraction &&
      llvm::is_contained(fp.roles, DimRole::Batch);
  if (batchedContraction)
    return result;
  // Without roles (generics), loops are named like a tensor of their rank.
  StringRef byRank;
  switch (fp.roles.size()) {
  case 2:
    byRank = "MK";
    break;
  case 4:
    byRank = "NCHW";
    break;
  case 5:
    byRank = "NCDHW";
    break;
  default:
    break;
  }

  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<RankedTensorType>(operand.get().getType()))
      continue;
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    bool isInit = linalgOp.isDpsInit(&operand);
    std::string letters;
    for (AffineExpr expr : map.getResults()) {
      // The loop a result follows: the first dimension it uses, preferring
      // an output image dimension over a window one (oh * 2 + kh -> oh).
      std::optional<unsigned> loop;
      for (unsigned dim = 0; dim < map.getNumDims(); ++dim) {
        if (!expr.isFunctionOfDim(dim))
          continue;
        if (!loop || fp.roles[*loop] == DimRole::Window)
          loop = dim;
      }
      if (!loop)
        break;
      char letter = 0;
      if (!hasRoles) {
        letter = *loop < byRank.size() ? byRank[*loop] : 0;
      } else {
        switch (fp.roles[*loop]) {
        case DimRole::Batch:
          letter = 'N';
          break;
        case DimRole::InputChannel:
        case DimRole::Depth:
          letter = 'C';
          break;
        case DimRole::OutputChannel:
          letter = isInit ? 'C' : 'F';
          break;
        case DimRole::Spatial:
          letter = getSpatialLetter(llvm::find(spatial, *loop) - spatial.begin(),
                                    spatial.size());
          break;
        case DimRole::Window:
          letter = getSpatialLetter(llvm::find(window, *loop) - window.begin(),
                                    window.size());
          break;
        case DimRole::M:
          letter = 'M';
          break;
        case DimRole::N:
          letter = 'N';
          break;
        case DimRole::K:
          letter = 'K';
          break;
        case DimRole::Parallel:
        case DimRole::Reduction:
          letter = 0;
          break;
        }
      }
      if (!letter || letters.find(letter) != std::string::npos)
        break;
      letters.push_back(letter);
    }
    if (letters.size() == map.getNumResults() && !letters.empty())
      result[operand.getOperandNumber()] = letters;
  }
  return result;
}

SmallVector<std::string> mlir::opsnn::getCandidateLayouts(StringRef letters) {
  std::string sorted = letters.str();
  llvm::sort(sorted);
  static const std::pair<const char *, SmallVector<std::string>> families[] = {
      {"CHNW", {"NCHW", "NHWC"}},
      {"CDHNW", {"NCDHW", "NDHWC"}},
      {"CFHW", {"FCHW", "HWCF", "FHWC"}},
      {"CDFHW", {"FCDHW", "DHWCF"}},
      {"CHW", {"CHW", "HWC"}},
      {"KM", {"MK", "KM"}},
      {"KN", {"KN", "NK"}},
      {"MN", {"MN", "NM"}},
  };
  for (const auto &[set, candidates] : families)
    if (sorted == set)
      return candidates;
  return {letters.str()};
}

/// Row-major strides of `shape`.
static SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

FailureOr<SmallVector<LayoutScore>>
mlir::opsnn::computeLayoutScores(Operation *op,
                                 const TargetDescription &target) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.hasDynamicShape() || linalgOp.getNumDpsInits() != 1)
    return failure();
  MLIRContext *context = op->getContext();
  SmallVector<std::optional<std::string>> layouts = inferOperandLayouts(op);
  OpOperand *output = linalgOp.getDpsInitOperand(0);
  std::optional<std::string> outputLetters =
      layouts[output->getOperandNumber()];
  if (!outputLetters)
    return failure();
  SmallVector<int64_t> bounds = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators =
      linalgOp.getIteratorTypesArray();
  // GPU: one warp's lanes and 32-byte sectors. CPU: consecutive
  // iterations of the vectorized loop until a whole cache line's worth of
  // output elements (at least one vector), and cache lines.
  bool gpu = target.kind == TargetDescription::Kind::GPU;
  int64_t fetchBytes = gpu ? target.sectorBytes : target.cacheLineBytes;
  int64_t outputElementBytes =
      std::max<int64_t>(1, getElementByteWidth(output->get().getType()));
  int64_t lanes = gpu ? target.warpSize
                      : std::max<int64_t>(target.warpSize,
                                          fetchBytes / outputElementBytes);

  SmallVector<LayoutScore> scores;
  LayoutAttr outputCurrent = LayoutAttr::get(context, *outputLetters);
  AffineMap outputMap = linalgOp.getMatchingIndexingMap(output);
  for (const std::string &outputCandidate :
       getCandidateLayouts(*outputLetters)) {
    LayoutAttr outputLayout = LayoutAttr::get(context, outputCandidate);
    // Loops walked by consecutive lanes: those of the output's physical
    // dimensions under the candidate, innermost first.
    SmallVector<unsigned> laneLoops;
    ArrayRef<int64_t> permutation = outputLayout.getPermutation();
    for (int64_t j = permutation.size() - 1; j >= 0; --j) {
      int64_t logical = permutation[j];
      unsigned current =
          llvm::find(outputCurrent.getPermutation(), logical) -
          outputCurrent.getPermutation().begin();
      auto dimExpr = dyn_cast<AffineDimExpr>(outputMap.getResult(current));
      if (!dimExpr || iterators[dimExpr.getPosition()] !=
                          utils::IteratorType::parallel)
        break;
      laneLoops.push_back(dimExpr.getPosition());
    }
    if (laneLoops.empty())
      return failure();

    // The loop point of each lane.
    SmallVector<SmallVector<int64_t>> points;
    for (int64_t lane = 0; lane < lanes; ++lane) {
      SmallVector<int64_t> point(bounds.size(), 0);
      int64_t rest = lane;
      for (unsigned loop : laneLoops) {
        point[loop] = rest % bounds[loop];
        rest /= bounds[loop];
      }
      if (rest != 0)
        break; // fewer elements than lanes
      points.push_back(point);
    }

    for (OpOperand &operand : op->getOpOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.get().getType());
      if (!type)
        continue;
      if (linalgOp.isDpsInput(&operand) &&
          !linalgOp.payloadUsesValueFromOperand(&operand))
        continue; // a pooling window: never read
      AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
      int64_t elementBytes = std::max<int64_t>(1, getElementByteWidth(type));
      std::optional<std::string> letters = layouts[operand.getOperandNumber()];
      SmallVector<std::string> candidates =
          letters ? getCandidateLayouts(*letters)
                  : SmallVector<std::string>{""};
      for (const std::string &candidate : candidates) {
        // Current physical coordinates -> logical -> candidate physical.
        std::optional<LayoutAttr> current, stored;
        SmallVector<int64_t> shape(type.getShape());
        if (letters) {
          current = LayoutAttr::get(context, *letters);
          stored = LayoutAttr::get(context, candidate);
          shape = stored->physicalShape(current->logicalShape(type.getShape()));
        }
        SmallVector<int64_t> strides = getStrides(shape);
        auto offsetOf = [&](ArrayRef<int64_t> point) {
          SmallVector<int64_t> coords = map.compose(point);
          SmallVector<int64_t> physical = coords;
          if (letters) {
            SmallVector<int64_t> logical(current->getLogicalRank());
            current->physicalToLogicalIndex(coords, logical);
            physical.assign(stored->getPhysicalRank(), 0);
            stored->logicalToPhysicalIndex(logical, physical);
          }
          int64_t offset = 0;
          for (auto [index, stride] : llvm::zip(physical, strides))
            offset += index * stride;
          return offset;
        };
        std::set<int64_t> elements, fetched;
        for (ArrayRef<int64_t> point : points) {
          int64_t offset = offsetOf(point);
          elements.insert(offset);
          int64_t first = offset * elementBytes / fetchBytes;
          int64_t last = (offset * elementBytes + elementBytes - 1) / fetchBytes;
          for (int64_t unit = first; unit <= last; ++unit)
            fetched.insert(unit);
        }
        LayoutScore score;
        score.outputLayout = outputCandidate;
        score.threadDim = laneLoops.front();
        score.operand = operand.getOperandNumber();
        score.layout = candidate;
        score.isCurrent = outputCandidate == *outputLetters &&
                          candidate == letters.value_or("");
        if (points.size() >= 2)
          score.stride = offsetOf(points[1]) - offsetOf(points[0]);
        if (elements.size() > 1)
          score.score = std::min(
              1.0, double(elements.size() * elementBytes) /
                       double(fetched.size() * fetchBytes));
        scores.push_back(score);
      }
    }
  }
  return scores;
}
