//===- LayoutAttrs.cpp - The layout attribute -----------------------------===//
//
// Parses layout strings ("NCHW", "NHWC8c", ...) into a permutation plus inner
// tiles and implements the shape and index arithmetic built on them.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Dialect/Layout/IR/LayoutDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::opsnn::layout;

#define GET_ATTRDEF_CLASSES
#include "opsnn/Dialect/Layout/IR/LayoutAttrs.cpp.inc"

void LayoutDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "opsnn/Dialect/Layout/IR/LayoutAttrs.cpp.inc"
      >();
}

/// Logical dimensions are always numbered in this order, whatever order a
/// layout stores them in.
static constexpr llvm::StringLiteral kCanonicalDimOrder = "NGFCDHWMK";

LayoutAttr LayoutAttr::get(MLIRContext *context, StringRef name) {
  LayoutAttr layout = getChecked(
      mlir::detail::getDefaultDiagnosticEmitFn(context), context, name);
  assert(layout && "invalid layout name");
  return layout;
}

LayoutAttr
LayoutAttr::getChecked(llvm::function_ref<InFlightDiagnostic()> emitError,
                       MLIRContext *context, StringRef name) {
  auto fail = [&]() {
    InFlightDiagnostic diag = emitError();
    diag << "invalid layout \"" << name << "\": ";
    return diag;
  };

  // Outer dimensions: a run of upper-case letters.
  size_t pos = 0;
  std::string outer;
  while (pos < name.size() && llvm::isUpper(name[pos]))
    outer.push_back(name[pos++]);
  if (outer.empty()) {
    fail() << "expected upper-case dimension letters first";
    return {};
  }
  for (auto [i, letter] : llvm::enumerate(outer)) {
    if (kCanonicalDimOrder.find(letter) == StringRef::npos) {
      fail() << "unknown dimension letter '" << letter
             << "' (expected one of " << kCanonicalDimOrder << ")";
      return {};
    }
    if (StringRef(outer).take_front(i).contains(letter)) {
      fail() << "dimension '" << letter << "' appears twice";
      return {};
    }
  }

  // Inner tiles: <size><lower-case letter> repeated.
  SmallVector<std::pair<char, int64_t>> tiles;
  while (pos < name.size()) {
    size_t start = pos;
    while (pos < name.size() && llvm::isDigit(name[pos]))
      ++pos;
    int64_t size = 0;
    if (start == pos || name.slice(start, pos).getAsInteger(10, size) ||
        size <= 0) {
      fail() << "expected a positive tile size at offset " << start;
      return {};
    }
    if (pos == name.size() || !llvm::isLower(name[pos])) {
      fail() << "expected a lower-case dimension letter after tile size "
             << size;
      return {};
    }
    char letter = llvm::toUpper(name[pos++]);
    if (!StringRef(outer).contains(letter)) {
      fail() << "tile '" << llvm::toLower(letter)
             << "' does not name an outer dimension";
      return {};
    }
    if (llvm::any_of(tiles, [&](auto tile) { return tile.first == letter; })) {
      fail() << "dimension '" << letter << "' is tiled twice";
      return {};
    }
    tiles.push_back({letter, size});
  }

  std::string logical = outer;
  llvm::sort(logical, [](char a, char b) {
    return kCanonicalDimOrder.find(a) < kCanonicalDimOrder.find(b);
  });
  auto logicalIndex = [&](char letter) -> int64_t {
    return StringRef(logical).find(letter);
  };
  SmallVector<int64_t> permutation, innerDimsPos, innerTileSizes;
  for (char letter : outer)
    permutation.push_back(logicalIndex(letter));
  for (auto [letter, size] : tiles) {
    innerDimsPos.push_back(logicalIndex(letter));
    innerTileSizes.push_back(size);
  }
  return Base::getChecked(emitError, context, name, StringRef(logical),
                          permutation,
                          innerDimsPos, innerTileSizes);
}

LogicalResult
LayoutAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                   StringRef name, StringRef logicalDims,
                   ArrayRef<int64_t> permutation,
                   ArrayRef<int64_t> innerDimsPos,
                   ArrayRef<int64_t> innerTileSizes) {
  int64_t rank = logicalDims.size();
  SmallVector<bool> seen(rank, false);
  if (static_cast<int64_t>(permutation.size()) != rank)
    return emitError() << "layout \"" << name
                       << "\": permutation size differs from logical rank";
  for (int64_t dim : permutation) {
    if (dim < 0 || dim >= rank || seen[dim])
      return emitError() << "layout \"" << name << "\": not a permutation";
    seen[dim] = true;
  }
  if (innerDimsPos.size() != innerTileSizes.size())
    return emitError() << "layout \"" << name
                       << "\": tile positions and sizes differ in number";
  for (auto [dim, size] : llvm::zip(innerDimsPos, innerTileSizes))
    if (dim < 0 || dim >= rank || size <= 0)
      return emitError() << "layout \"" << name << "\": invalid inner tile";
  return success();
}

// The dialect hooks see the body of `#layout<"NHWC">`: the quoted name only.
Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  std::string name;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseString(&name))
    return {};
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), StringRef(name));
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer.printString(getName());
}

bool LayoutAttr::isIdentity() const {
  if (isBlocked())
    return false;
  for (auto [i, dim] : llvm::enumerate(getPermutation()))
    if (static_cast<int64_t>(i) != dim)
      return false;
  return true;
}

SmallVector<LayoutAttr::InnerTile> LayoutAttr::getInnerTiles() const {
  SmallVector<InnerTile> tiles;
  for (auto [dim, size] : llvm::zip(getInnerDimsPos(), getInnerTileSizes()))
    tiles.push_back({dim, size});
  return tiles;
}

int64_t LayoutAttr::getTileSizeOf(int64_t dim) const {
  for (auto [tiled, size] : llvm::zip(getInnerDimsPos(), getInnerTileSizes()))
    if (tiled == dim)
      return size;
  return 1;
}

SmallVector<int64_t>
LayoutAttr::physicalShape(ArrayRef<int64_t> logicalShape) const {
  assert(static_cast<int64_t>(logicalShape.size()) == getLogicalRank() &&
         "logical shape has the wrong rank");
  SmallVector<int64_t> shape;
  for (int64_t dim : getPermutation()) {
    int64_t size = logicalShape[dim];
    int64_t tile = getTileSizeOf(dim);
    shape.push_back(ShapedType::isDynamic(size) ? size
                                                : llvm::divideCeil(size, tile));
  }
  llvm::append_range(shape, getInnerTileSizes());
  return shape;
}

SmallVector<int64_t>
LayoutAttr::logicalShape(ArrayRef<int64_t> physicalShape) const {
  assert(static_cast<int64_t>(physicalShape.size()) == getPhysicalRank() &&
         "physical shape has the wrong rank");
  SmallVector<int64_t> shape(getLogicalRank(), ShapedType::kDynamic);
  for (auto [i, dim] : llvm::enumerate(getPermutation())) {
    int64_t size = physicalShape[i];
    shape[dim] =
        ShapedType::isDynamic(size) ? size : size * getTileSizeOf(dim);
  }
  return shape;
}

void LayoutAttr::physicalToLogicalIndex(
    ArrayRef<int64_t> physical, MutableArrayRef<int64_t> logical) const {
  ArrayRef<int64_t> permutation = getPermutation();
  for (auto [i, dim] : llvm::enumerate(permutation))
    logical[dim] = physical[i] * getTileSizeOf(dim);
  for (auto [j, dim] : llvm::enumerate(getInnerDimsPos()))
    logical[dim] += physical[permutation.size() + j];
}

void LayoutAttr::logicalToPhysicalIndex(
    ArrayRef<int64_t> logical, MutableArrayRef<int64_t> physical) const {
  ArrayRef<int64_t> permutation = getPermutation();
  for (auto [i, dim] : llvm::enumerate(permutation))
    physical[i] = logical[dim] / getTileSizeOf(dim);
  for (auto [j, tile] : llvm::enumerate(getInnerTiles()))
    physical[permutation.size() + j] = logical[tile.dim] % tile.size;
}
