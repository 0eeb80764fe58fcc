//===- AssignEmbeddingLayouts.cpp - Hot embedding tables row-contiguous ---===//
//
// --opsnn-assign-embedding-layouts: finds embedding lookups (generics that
// extract rows of a captured 2-D table), decides per table from the access
// profile whether the row-contiguous layout pays for converting it, and
// rewrites the hot ones.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/AccessProfile.h"
#include "opsnn/Analysis/CostModel.h"
#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_ASSIGNEMBEDDINGLAYOUTSPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;
using layout::ConvertOp;
using layout::LayoutAttr;

namespace {
/// One lookup: a generic reading rows of `table` through `extract`.
struct EmbeddingLookup {
  linalg::GenericOp op;
  tensor::ExtractOp extract;
  /// Position of the looked-up id among the extract's indices (0: the table
  /// is row-contiguous already; 1: column-major).
  unsigned rowDim;
  std::string feature;
};

/// Whether `value` is (a cast of) a linalg.index: the embedding column.
bool isLoopIndex(Value value) {
  Operation *def = value.getDefiningOp();
  while (isa_and_present<arith::IndexCastOp>(def))
    def = def->getOperand(0).getDefiningOp();
  return isa_and_present<linalg::IndexOp>(def);
}

std::optional<EmbeddingLookup> matchLookup(linalg::GenericOp op) {
  tensor::ExtractOp extract;
  for (auto candidate : op.getBody()->getOps<tensor::ExtractOp>()) {
    if (extract)
      return std::nullopt; // several extracts: not a plain lookup
    extract = candidate;
  }
  if (!extract || extract.getTensor().getParentRegion() == &op.getRegion() ||
      extract.getTensor().getParentRegion()->isAncestor(&op.getRegion()) ==
          false ||
      extract.getTensor().getType().getRank() != 2)
    return std::nullopt;
  bool first = isLoopIndex(extract.getIndices()[0]);
  bool second = isLoopIndex(extract.getIndices()[1]);
  if (first == second)
    return std::nullopt;
  return EmbeddingLookup{op, extract, first ? 1u : 0u, ""};
}

std::string featureOf(EmbeddingLookup &lookup) {
  if (auto name = lookup.op->getAttrOfType<StringAttr>("opsnn.feature"))
    return name.str();
  if (auto arg = dyn_cast<BlockArgument>(lookup.extract.getTensor())) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp())) {
      if (auto name = func.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                        "opsnn.feature"))
        return name.str();
      return "arg" + std::to_string(arg.getArgNumber());
    }
  }
  return "unnamed";
}

struct AssignEmbeddingLayoutsPass
    : opsnn::impl::AssignEmbeddingLayoutsPassBase<AssignEmbeddingLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (accessProfile.empty()) {
      func.emitError() << "opsnn-assign-embedding-layouts: needs "
                          "access-profile=FILE.json";
      return signalPassFailure();
    }
    llvm::Expected<AccessProfile> profile = loadAccessProfile(accessProfile);
    if (!profile) {
      func.emitError() << "opsnn-assign-embedding-layouts: "
                       << llvm::toString(profile.takeError());
      return signalPassFailure();
    }
    std::optional<TargetDescription> target = lookupTarget(targetName);
    if (!target) {
      func.emitError() << "opsnn-assign-embedding-layouts: unknown target \""
                       << targetName
                       << "\"; known targets: " << getKnownTargetNames();
      return signalPassFailure();
    }
    CostModel model(*target);
    double bandwidth = target->dramBandwidthGBps * 1e9;
    double sector = target->sectorBytes;

    // Lookups grouped by table: a conversion serves every lookup of it.
    llvm::MapVector<Value, SmallVector<EmbeddingLookup>> byTable;
    func.walk([&](linalg::GenericOp op) {
      if (std::optional<EmbeddingLookup> lookup = matchLookup(op)) {
        lookup->feature = featureOf(*lookup);
        byTable[lookup->extract.getTensor()].push_back(std::move(*lookup));
      }
    });

    MLIRContext *context = &getContext();
    Builder b(context);
    OpBuilder builder(context);
    LayoutAttr columnMajor = LayoutAttr::get(context, "KM");
    LayoutAttr rowMajor = LayoutAttr::get(context, "MK");
    for (auto &entry : byTable) {
      Value table = entry.first;
      SmallVector<EmbeddingLookup> &lookups = entry.second;
      auto type = cast<RankedTensorType>(table.getType());
      int64_t width = getElementByteWidth(type);
      bool isConstant = matchPattern(table, m_Constant());
      double tableBytes = 1;
      for (int64_t size : type.getShape())
        tableBytes *= ShapedType::isDynamic(size) ? 1 : size;
      tableBytes *= width;
      double conversionSeconds =
          isConstant ? 0 : model.estimateLayoutConvert(tableBytes).seconds();

      // Bytes fetched per lookup of one row of D elements in each layout.
      bool columnMajorNow = lookups.front().rowDim == 1;
      int64_t d = type.getShape()[columnMajorNow ? 0 : 1];
      double columnBytes = ShapedType::isDynamic(d) ? sector : d * sector;
      double rowBytes =
          ShapedType::isDynamic(d) ? sector
                                   : std::ceil(d * width / sector) * sector;
      double savedSeconds = 0;
      bool inProfile = false;
      for (const EmbeddingLookup &lookup : lookups) {
        auto it = profile->features.find(lookup.feature);
        if (it == profile->features.end())
          continue;
        inProfile = true;
        savedSeconds +=
            it->second.lookupsPerCall * (columnBytes - rowBytes) / bandwidth;
      }
      bool sameRowDim = llvm::all_of(lookups, [&](const EmbeddingLookup &l) {
        return l.rowDim == lookups.front().rowDim;
      });
      StringRef decision = !columnMajorNow ? "row-contiguous"
                           : !inProfile    ? "cold (not in the profile)"
                           : !sameRowDim   ? "cold (mixed lookups)"
                           : savedSeconds > conversionSeconds ? "hot"
                                                              : "cold";
      for (const EmbeddingLookup &lookup : lookups)
        lookup.op->setAttr(
            "layout.embedding",
            b.getDictionaryAttr(
                {b.getNamedAttr("feature", b.getStringAttr(lookup.feature)),
                 b.getNamedAttr("decision", b.getStringAttr(decision)),
                 b.getNamedAttr("saved_seconds",
                                b.getF64FloatAttr(savedSeconds)),
                 b.getNamedAttr("conversion_seconds",
                                b.getF64FloatAttr(conversionSeconds))}));
      if (decision != "hot")
        continue;

      builder.setInsertionPointAfterValue(table);
      Value converted = ConvertOp::create(
          builder, table.getLoc(),
          RankedTensorType::get({type.getShape()[1], type.getShape()[0]},
                                type.getElementType()),
          table, columnMajor, rowMajor);
      for (EmbeddingLookup &lookup : lookups) {
        Value row = lookup.extract.getIndices()[1];
        Value column = lookup.extract.getIndices()[0];
        lookup.extract->setOperands({converted, row, column});
      }
    }
  }
};
} // namespace
