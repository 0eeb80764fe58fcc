//===- Fingerprint.cpp - Attach operator fingerprints ---------------------===//
//
// A thin pass over computeOpFingerprint: the fingerprint of every op that
// works on tensors becomes an `opsnn.fingerprint` dictionary; unknown ops
// also get a remark.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Analysis/OpFingerprint.h"
#include "opsnn/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::opsnn {
#define GEN_PASS_DEF_FINGERPRINTPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// An integer when static, the polynomial as a string otherwise.
static Attribute getCountAttr(Builder &b, const SymbolicCount &count) {
  if (std::optional<double> value = count.getStaticValue())
    return b.getI64IntegerAttr(static_cast<int64_t>(*value));
  return b.getStringAttr(count.str());
}

/// The readable form of `fp`.
static DictionaryAttr getFingerprintAttr(Builder &b, const OpFingerprint &fp) {
  NamedAttrList attrs;
  attrs.append("class", b.getStringAttr(stringifyOpClass(fp.opClass)));
  if (fp.opClass == OpClass::Unknown) {
    attrs.append("reason", b.getStringAttr(fp.unknownReason));
    return attrs.getDictionary(b.getContext());
  }
  attrs.append("flops", getCountAttr(b, fp.flops));
  attrs.append("bytes_read", getCountAttr(b, fp.bytesRead));
  attrs.append("bytes_written", getCountAttr(b, fp.bytesWritten));
  if (std::optional<double> intensity = fp.getArithmeticIntensity())
    attrs.append("intensity", b.getF64FloatAttr(*intensity));
  if (fp.isSymbolic())
    attrs.append("symbolic", b.getUnitAttr());
  if (!fp.boundedDims.empty())
    attrs.append("upper_bound_dims",
                 b.getDenseI64ArrayAttr(llvm::to_vector_of<int64_t>(fp.boundedDims)));
  if (!fp.roles.empty()) {
    SmallVector<Attribute> roles;
    SmallVector<int64_t> sizes;
    for (auto [role, size] : llvm::zip(fp.roles, fp.sizes)) {
      roles.push_back(b.getStringAttr(stringifyDimRole(role)));
      sizes.push_back(size ? *size : -1);
    }
    attrs.append("roles", b.getArrayAttr(roles));
    attrs.append("sizes", b.getDenseI64ArrayAttr(sizes));
  }
  return attrs.getDictionary(b.getContext());
}

namespace {
struct FingerprintPass : opsnn::impl::FingerprintPassBase<FingerprintPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == getOperation() || isFingerprintIrrelevant(op))
        return WalkResult::advance();
      OpFingerprint fp = computeOpFingerprint(op);
      op->setAttr("opsnn.fingerprint", getFingerprintAttr(b, fp));
      if (fp.opClass == OpClass::Unknown)
        op->emitRemark() << "opsnn-fingerprint: unknown op: "
                         << fp.unknownReason;
      // A fingerprinted op's regions are its payload, part of its count.
      return WalkResult::skip();
    });
  }
};
} // namespace
