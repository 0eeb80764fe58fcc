//===- TensorCoreEpilogue.cpp - Init and consumers in the GEMM kernel -----===//
//
// The tensor-core GEMM kernel absorbs what surrounds its producer (a
// linalg.matmul, or an NHWC convolution run as an implicit GEMM) after
// bufferization: the `linalg.fill` of C (the accumulators start at the
// constant) and the chain of elementwise `linalg.generic`s that read the
// product (bias, residual, ReLU, GELU, the cast to f16), which then never
// round-trips through global memory.
//
// The kernel works on an M x N matrix: C itself for a matmul, the
// collapse_shape N*OH*OW x F view of a convolution's NHWF output. A
// consumer of the convolution iterates over (n, oh, ow, f); it is fused
// when every operand reads it in the same collapsed space: each group of
// iteration dimensions that forms one GEMM dimension ((n, oh, ow) -> m,
// (f) -> n) is read together and in order, or not at all. A per-channel
// bias (f) then reads (n); a residual through the identity map reads the
// M x N view of its buffer. A row dimension read apart from the others,
// say (ow, oh), is split from the row index ((row floordiv stride) mod
// size); a column dimension apart keeps the generic path.
//
// A consumer may iterate in another order than the product (a batch norm
// kept in NCHW reads an NHWC product through (n, h, w, c)): its loops are
// taken in the product's order by composing every map with
// read^-1 o written, where `read` is how it reads the chain's current value
// and `written` how the chain wrote it (the identity for C). Its output is
// then written through a permutation of the product's dimensions, and the
// next consumer reads it back through that same map. Every output the
// chain leaves for later readers is stored, not only the last.
//
// Where the payload is applied: upstream's convertVectorToNVVMCompatible-
// MMASync maps only transfers, contractions, splat constants and scf.for
// onto the mma.sync register fragments; any other op on a fragment value
// fails the whole conversion ("unhandled vector to mma type"). So the GPU
// kernel is built and converted with the plain product stored to C, and
// the epilogue is applied afterwards to the stores the conversion
// produced: each lane's `vector.store %v, %C[%i, %j] : vector<2xf32>`
// becomes the payload on %v, with the other operands loaded at the indices
// their indexing maps give for (%i, %j..%j+1), stored to the output at
// [%i, %j]. No shared-memory staging and no extra registers beyond the two
// elements in flight. The CPU emulation (and the unconverted GPU form)
// applies the same code to each 8-element row of a 16x8 fragment, so the
// executed tests run the code the GPU uses.
//
// A softmax over the product's columns may sit in the chain (attention's
// scores: scale, mask, softmax, cast): it needs whole rows, which one
// fragment row never has, so the kernel (GPUTensorCoreMatmul.cpp) stages
// the block's product in a shared-memory row tile and applies the stages
// before the softmax (applyBeforeSoftmax) and after it (applyAfterSoftmax)
// from there, with the same payload cloning as the per-fragment path.
//
//===----------------------------------------------------------------------===//

#include "TensorCoreEpilogue.h"

#include "KernelBufferAccess.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

using namespace mlir;
using namespace mlir::opsnn;

//===----------------------------------------------------------------------===//
// Matching
//===----------------------------------------------------------------------===//

namespace {
class EpilogueMatcher {
public:
  EpilogueMatcher(linalg::LinalgOp producer, Value product,
                  ArrayRef<ReassociationIndices> gemmDims, bool rowSoftmax)
      : matmul(producer), c(product), gemmDims(gemmDims),
        rowSoftmax(rowSoftmax) {}

  TensorCoreEpilogue run();

private:
  void matchInit();
  FailureOr<AffineMap> accept(linalg::GenericOp stage,
                              ArrayRef<linalg::GenericOp> stages, Value current,
                              AffineMap currentMap);
  bool acceptSoftmax(linalg::SoftmaxOp softmax,
                     ArrayRef<linalg::GenericOp> stages, Value current,
                     AffineMap currentMap);
  FailureOr<AffineMap> isFusable(linalg::GenericOp stage, Value current,
                                 AffineMap currentMap);
  FailureOr<EpilogueOperand> gemmView(Value v, AffineMap map,
                                      bool partialRows = false);
  bool canMoveAcross(ArrayRef<linalg::GenericOp> stages, Operation *last);
  SmallVector<Value> kernelBuffers(ArrayRef<linalg::GenericOp> stages);
  SmallVector<Operation *> chainOps(ArrayRef<linalg::GenericOp> stages);
  SmallVector<bool> storedOutputs(ArrayRef<linalg::GenericOp> stages);
  bool storesSoftmaxOutput(ArrayRef<linalg::GenericOp> stages);
  bool computeStoreProduct(ArrayRef<linalg::GenericOp> stages);
  SmallVector<Value> deadBuffers(ArrayRef<linalg::GenericOp> stages);
  BufferAccess accessOf(Operation *op, Value buffer) {
    return buffers.accessOf(op, buffer);
  }
  bool onlyUsedBy(Value buffer, ArrayRef<Operation *> ops);
  bool privateTo(Value buffer, ArrayRef<Operation *> ops);
  bool mayAlias(Value x, Value y) { return buffers.mayAlias(x, y); }

  /// The GEMM (matmul or convolution).
  linalg::LinalgOp matmul;
  /// Its output, the kernel's C (through an M x N view).
  Value c;
  /// C's dimensions grouped into the GEMM's rows and columns.
  SmallVector<ReassociationIndices> gemmDims;
  /// Whether the chain may go on through a softmax over the columns.
  bool rowSoftmax;
  /// The fill C's init folds from, if any.
  linalg::FillOp fill;
  BufferAccessAnalysis buffers;
  TensorCoreEpilogue ep;
};
} // namespace

static Value outputOf(linalg::GenericOp stage) {
  return stage.getDpsInitOperand(0)->get();
}

/// Whether every user of `buffer` is one of `ops` or a dealloc.
bool EpilogueMatcher::onlyUsedBy(Value buffer, ArrayRef<Operation *> ops) {
  return llvm::all_of(buffer.getUsers(), [&](Operation *user) {
    return isDealloc(user) || llvm::is_contained(ops, user);
  });
}

/// The local buffer `v` reshapes (a batched GEMM's C expanded to its
/// consumers' rank), when the reshape is all that uses it besides its
/// deallocation; null otherwise.
static Value reshapedLocalBuffer(Value v) {
  Operation *view = v.getDefiningOp();
  if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(view))
    return nullptr;
  Value base = view->getOperand(0);
  if (!isLocalBuffer(base) ||
      !llvm::all_of(base.getUsers(), [&](Operation *user) {
        return user == view || isDealloc(user);
      }))
    return nullptr;
  return base;
}

/// Whether nobody but `ops` uses `buffer`: a local buffer, or the reshape
/// of one (reshapedLocalBuffer), used by `ops` and deallocations only.
bool EpilogueMatcher::privateTo(Value buffer, ArrayRef<Operation *> ops) {
  return (isLocalBuffer(buffer) || reshapedLocalBuffer(buffer)) &&
         onlyUsedBy(buffer, ops);
}

/// C's init: a fill of a constant, with nothing writing C in between.
void EpilogueMatcher::matchInit() {
  bool readInBetween = false;
  for (Operation *op = matmul->getPrevNode(); op; op = op->getPrevNode()) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInitOperand(0)->get() == c) {
      // f32 accumulators, or i32 ones (INT8 GEMMs).
      TypedAttr value;
      if (!matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
          value.getType() != getElementTypeOrSelf(c.getType())) {
        LLVM_DEBUG(llvm::dbgs() << "C's fill is not a constant of C's type: "
                                   "accumulators read from C\n");
        return;
      }
      ep.init = value;
      this->fill = fill;
      if (!readInBetween)
        ep.deadFill = fill;
      return;
    }
    BufferAccess access = accessOf(op, c);
    if (access.write) {
      LLVM_DEBUG(llvm::dbgs()
                 << "C written before the matmul by " << op->getName()
                 << ": accumulators read from C\n");
      return;
    }
    readInBetween |= access.read;
  }
}

/// The payload ops the epilogue applies to fragment rows: elementwise arith
/// and math ops on scalars (each becomes the same op on vectors).
static bool isEpiloguePayloadOp(Operation &op) {
  if (isa<linalg::YieldOp>(op))
    return true;
  if (!isa_and_present<arith::ArithDialect, math::MathDialect>(
          op.getDialect()) ||
      op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
    return false;
  if (!isa<arith::ConstantOp>(op) && !op.hasTrait<OpTrait::Elementwise>())
    return false;
  auto scalar = [](Type t) { return isa<IntegerType, FloatType>(t); };
  return llvm::all_of(op.getOperandTypes(), scalar) &&
         llvm::all_of(op.getResultTypes(), scalar);
}

/// Operand `v` read through `map` (a projected permutation of C's
/// dimensions) in the M x N space: each group of gemmDims must appear as a
/// run of consecutive results in order (one dimension of the view) or not
/// at all; constant results stay. For a matmul every map qualifies as is.
/// With `partialRows`, a row dimension read apart from the rest of its
/// group is taken from the row index, (row floordiv stride) mod size (a
/// batched GEMM's rows are (batch..., M...): attention's mask reads the
/// batch and the column only).
FailureOr<EpilogueOperand> EpilogueMatcher::gemmView(Value v, AffineMap map,
                                                     bool partialRows) {
  auto type = cast<MemRefType>(v.getType());
  ArrayRef<int64_t> cShape = cast<MemRefType>(c.getType()).getShape();
  MLIRContext *ctx = map.getContext();
  SmallVector<int64_t> groupOf(map.getNumDims());
  for (auto [g, group] : llvm::enumerate(gemmDims))
    for (int64_t d : group)
      groupOf[d] = g;
  EpilogueOperand view{v, AffineMap(), {}};
  SmallVector<AffineExpr> results;
  bool collapses = false;
  for (unsigned r = 0, e = map.getNumResults(); r < e;) {
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(r));
    if (!dim) {
      view.collapse.push_back({r});
      results.push_back(map.getResult(r++));
      continue;
    }
    int64_t g = groupOf[dim.getPosition()];
    ArrayRef<int64_t> group = gemmDims[g];
    bool wholeRun = r + group.size() <= e;
    for (auto [i, d] : llvm::enumerate(group))
      wholeRun = wholeRun && map.getResult(r + i) == getAffineDimExpr(d, ctx);
    if (!wholeRun) {
      if (!partialRows || g != 0)
        return failure();
      int64_t stride = 1;
      for (int64_t d : llvm::reverse(group)) {
        if (d == int64_t(dim.getPosition()))
          break;
        stride *= cShape[d];
      }
      view.collapse.push_back({r++});
      results.push_back(getAffineDimExpr(0, ctx).floorDiv(stride) %
                        cShape[dim.getPosition()]);
      continue;
    }
    ReassociationIndices run;
    for (size_t i = 0; i < group.size(); ++i)
      run.push_back(r++);
    collapses |= run.size() > 1;
    view.collapse.push_back(run);
    results.push_back(getAffineDimExpr(g, ctx));
  }
  if (!collapses)
    view.collapse.clear();
  else if (!memref::CollapseShapeOp::isGuaranteedCollapsible(type,
                                                             view.collapse))
    return failure();
  view.map = AffineMap::get(gemmDims.size(), 0, results, ctx);
  return view;
}

/// The structure of one stage reading `current` (C or the previous stage's
/// output, written at `currentMap(p)` for element p of the product): all
/// parallel over the product's iteration space in some order, `current`
/// read through one permutation (as an input, or as the output in place),
/// one output written through a permutation (in place, or into a buffer
/// whose old value it does not read), the other operands through projected
/// permutations (bias, per-row, residual, transposed) that collapse to the
/// M x N space, an elementwise arith/math payload.
///
/// The stage's loops are taken in the product's order: element p is the
/// iteration where it reads current at currentMap(p), read^-1(currentMap(p)),
/// so every map M of the stage becomes M o read^-1 o currentMap. A batch
/// norm that ALTE kept in NCHW reads an NHWC convolution's product that
/// way, and writes NCHW from the fragments. Records the operands' M x N
/// views and returns the output's map in the product space.
FailureOr<AffineMap> EpilogueMatcher::isFusable(linalg::GenericOp stage,
                                                Value current,
                                                AffineMap currentMap) {
  auto reject = [&](const Twine &why) {
    LLVM_DEBUG(llvm::dbgs()
               << "consumer not fused (" << why << "): " << stage << "\n");
    return failure();
  };
  auto cType = cast<MemRefType>(c.getType());
  if (!stage.hasPureBufferSemantics() ||
      stage.getNumLoops() != static_cast<unsigned>(cType.getRank()) ||
      !stage.isAllParallelLoops())
    return reject("not an all-parallel op on buffers over the product's "
                  "dimensions");
  if (stage.getNumDpsInits() != 1)
    return reject("more than one output");
  OpOperand *init = stage.getDpsInitOperand(0);
  Value out = init->get();
  if (out != current && mayAlias(out, current))
    return reject("output overlaps the product");
  // How the stage reads current: one permutation, as an input or in place.
  AffineMap read;
  for (OpOperand &operand : stage->getOpOperands()) {
    Value v = operand.get();
    if (!isa<MemRefType>(v.getType()) || !mayAlias(v, current))
      continue;
    AffineMap map = stage.getMatchingIndexingMap(&operand);
    if (v != current || !map.isPermutation() || (read && map != read))
      return reject("product read other than through one permutation");
    read = map;
  }
  if (!read)
    return reject("does not read the product");
  AffineMap toStage = inversePermutation(read).compose(currentMap);
  for (auto [loop, size] : llvm::enumerate(stage.getStaticLoopRanges()))
    if (size != cType.getDimSize(toStage.getDimPosition(loop)))
      return reject("iteration space is not the product's");
  auto inProductSpace = [&](AffineMap map) { return map.compose(toStage); };

  auto outType = dyn_cast<MemRefType>(out.getType());
  AffineMap outMap = inProductSpace(stage.getMatchingIndexingMap(init));
  if (!outType || !outType.getLayout().isIdentity() ||
      !isa<FloatType, IntegerType>(outType.getElementType()) ||
      !outMap.isPermutation())
    return reject("output is not an identity-layout scalar buffer written "
                  "through a permutation");
  if (out != current && !stage.getMatchingBlockArgument(init).use_empty())
    return reject("payload reads the output's old value");
  llvm::DenseMap<OpOperand *, EpilogueOperand> views;
  // A permuted output (attention's context cast to f16 and written back in
  // [batch, seq, heads, dim], an NCHW batch norm) is stored at its rows'
  // own indices.
  FailureOr<EpilogueOperand> outView =
      gemmView(out, outMap, /*partialRows=*/!outMap.isIdentity());
  if (failed(outView))
    return reject("output does not collapse to the M x N view (its columns "
                  "are written apart or out of order)");
  views[init] = *outView;
  for (OpOperand *input : stage.getDpsInputOperands()) {
    Value v = input->get();
    if (v == current)
      continue;
    AffineMap map = inProductSpace(stage.getMatchingIndexingMap(input));
    if (auto type = dyn_cast<MemRefType>(v.getType())) {
      if (!isa<IntegerType, FloatType>(type.getElementType()))
        return reject("operand element type");
      if (mayAlias(v, out) && (v != out || map != outMap))
        return reject("operand overlaps the output");
    } else if (!isa<IntegerType, FloatType>(v.getType())) {
      return reject("non-scalar, non-buffer operand");
    } else {
      views[input] = EpilogueOperand{v, AffineMap(), {}};
      continue;
    }
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true))
      return reject("operand indexing map is not a projected permutation");
    FailureOr<EpilogueOperand> view = gemmView(v, map, /*partialRows=*/true);
    if (failed(view))
      return reject("operand map does not collapse to the M x N view (it "
                    "reads the row dimensions apart or out of order)");
    views[input] = *view;
  }
  for (Operation &op : stage.getRegion().front()) {
    if (!isEpiloguePayloadOp(op))
      return reject("payload op " + op.getName().getStringRef());
    for (Value operand : op.getOperands())
      if (operand.getParentRegion() != &stage.getRegion() &&
          !isa<IntegerType, FloatType>(operand.getType()))
        return reject("payload captures a non-scalar value");
  }
  for (auto &entry : views)
    ep.operands[entry.first] = entry.second;
  return outMap;
}

/// The ops of the chain: the matmul, C's fill and `stages`.
SmallVector<Operation *>
EpilogueMatcher::chainOps(ArrayRef<linalg::GenericOp> stages) {
  SmallVector<Operation *> ops = {matmul};
  if (fill)
    ops.push_back(fill);
  if (ep.softmax)
    ops.push_back(ep.softmax);
  llvm::append_range(ops, stages);
  return ops;
}

/// Per stage, whether the kernel stores its output: the chain's last one
/// (the softmax may come after the last stage), and an earlier one's that
/// is read after the chain (or is not a local buffer) unless the next stage
/// overwrites it in place.
SmallVector<bool>
EpilogueMatcher::storedOutputs(ArrayRef<linalg::GenericOp> stages) {
  SmallVector<Operation *> chain = chainOps(stages);
  SmallVector<bool> stored;
  for (auto [i, stage] : llvm::enumerate(stages)) {
    Value out = outputOf(stage);
    bool beforeSoftmax = ep.softmax && i + 1 == ep.softmaxAt;
    if (i + 1 == stages.size() && !beforeSoftmax) {
      stored.push_back(true);
      continue;
    }
    bool overwritten = !beforeSoftmax && outputOf(stages[i + 1]) == out;
    stored.push_back(!overwritten &&
                     (!isLocalBuffer(out) || !onlyUsedBy(out, chain)));
  }
  return stored;
}

/// Whether the kernel stores the softmax's output: when it ends the chain,
/// or is read after it (or is not a local buffer) and the first stage after
/// it does not overwrite it in place.
bool EpilogueMatcher::storesSoftmaxOutput(ArrayRef<linalg::GenericOp> stages) {
  Value out = ep.softmax.getOutput();
  if (ep.softmaxAt == stages.size())
    return true;
  if (outputOf(stages[ep.softmaxAt]) == out)
    return false;
  return !privateTo(out, chainOps(stages));
}

/// Whether the kernel still stores the plain product to C: unless C is a
/// local buffer that only the matmul, its fill and the stages use, or a
/// stage writes C in place (that stage stores C's value, if anyone).
bool EpilogueMatcher::computeStoreProduct(ArrayRef<linalg::GenericOp> stages) {
  if (stages.empty() && !ep.softmax)
    return true;
  if (llvm::any_of(stages,
                   [&](linalg::GenericOp s) { return outputOf(s) == c; }))
    return false;
  return !privateTo(c, chainOps(stages));
}

/// The buffers nobody writes any more once `stages` are fused: the outputs
/// of stages the kernel does not store, and C when neither the product nor
/// a stage's output is stored to it and its initial value is not read (the
/// fill folded into the accumulators).
SmallVector<Value>
EpilogueMatcher::deadBuffers(ArrayRef<linalg::GenericOp> stages) {
  if (stages.empty() && !ep.softmax)
    return {};
  SmallVector<bool> stored = storedOutputs(stages);
  SmallVector<Value> written, kept;
  if (!computeStoreProduct(stages) && ep.init && ep.deadFill)
    written.push_back(c);
  else
    kept.push_back(c);
  for (auto [stage, isStored] : llvm::zip_equal(stages, stored))
    (isStored ? kept : written).push_back(outputOf(stage));
  if (ep.softmax)
    (storesSoftmaxOutput(stages) ? kept : written)
        .push_back(ep.softmax.getOutput());
  SmallVector<Value> dead;
  for (Value v : written)
    if (!llvm::is_contained(kept, v) && !llvm::is_contained(dead, v))
      dead.push_back(v);
  return dead;
}

/// Whether the kernel, which computes the matmul and `stages` at `last`
/// (the chain's last op), sees the same memory there: nothing in between
/// touches C, a stage's or the softmax's output, or writes A, B or a
/// stage's other operands (deallocs of the buffers that go away are erased
/// with them).
bool EpilogueMatcher::canMoveAcross(ArrayRef<linalg::GenericOp> stages,
                                    Operation *last) {
  SmallVector<Value> touched = {c}, readOnly = {matmul.getDpsInputs()[0],
                                                matmul.getDpsInputs()[1]};
  if (ep.softmax)
    touched.push_back(ep.softmax.getOutput());
  for (linalg::GenericOp stage : stages) {
    touched.push_back(outputOf(stage));
    for (Value input : stage.getDpsInputs())
      if (isa<MemRefType>(input.getType()))
        readOnly.push_back(input);
  }
  SmallVector<Value> dead = deadBuffers(stages);
  for (Operation *op = matmul->getNextNode(); op != last;
       op = op->getNextNode()) {
    if (llvm::is_contained(stages, op) || op == ep.softmax)
      continue;
    if (isDealloc(op) && llvm::any_of(op->getOperands(), [&](Value v) {
          return llvm::is_contained(dead, v);
        }))
      continue;
    for (Value v : touched) {
      BufferAccess access = accessOf(op, v);
      if (access.read || access.write) {
        LLVM_DEBUG(llvm::dbgs() << "consumer not fused: " << op->getName()
                                << " in between accesses a fused buffer\n");
        return false;
      }
    }
    for (Value v : readOnly)
      if (accessOf(op, v).write) {
        LLVM_DEBUG(llvm::dbgs() << "consumer not fused: " << op->getName()
                                << " in between writes an operand\n");
        return false;
      }
  }
  return true;
}

/// What the kernel of the matmul and `stages` reads or writes: A, B, C,
/// the softmax's output and the stages' outputs and other operands
/// (`current`, C or the last stage's output, among them).
SmallVector<Value>
EpilogueMatcher::kernelBuffers(ArrayRef<linalg::GenericOp> stages) {
  SmallVector<Value> buffers = {matmul.getDpsInputs()[0],
                                matmul.getDpsInputs()[1], c};
  if (ep.softmax)
    buffers.push_back(ep.softmax.getOutput());
  for (linalg::GenericOp s : stages) {
    buffers.push_back(outputOf(s));
    llvm::append_range(buffers, s.getDpsInputs());
  }
  return buffers;
}

FailureOr<AffineMap> EpilogueMatcher::accept(linalg::GenericOp stage,
                                             ArrayRef<linalg::GenericOp> stages,
                                             Value current,
                                             AffineMap currentMap) {
  FailureOr<AffineMap> written = isFusable(stage, current, currentMap);
  if (failed(written))
    return failure();
  // The kernel computes C and the earlier outputs in registers: a stage can
  // read them only as the chain's current value (C may not even be stored,
  // and another element of it may be another block's).
  SmallVector<Value> computed = {c};
  if (ep.softmax)
    computed.push_back(ep.softmax.getOutput());
  for (linalg::GenericOp s : stages)
    computed.push_back(outputOf(s));
  for (Value v : stage.getDpsInputs())
    if (isa<MemRefType>(v.getType()) && !mayAlias(v, current) &&
        llvm::any_of(computed, [&](Value x) { return mayAlias(v, x); })) {
      LLVM_DEBUG(llvm::dbgs() << "consumer not fused: it reads an earlier "
                                 "result of the chain\n");
      return failure();
    }
  Value out = outputOf(stage);
  SmallVector<linalg::GenericOp> tentative(stages);
  tentative.push_back(stage);
  // Every block writes its tile of the output while others still read A, B
  // and the operands of the stages: no overlap.
  if (out != current) {
    for (Value v : kernelBuffers(stages))
      if (isa<MemRefType>(v.getType()) && mayAlias(v, out)) {
        LLVM_DEBUG(llvm::dbgs() << "consumer not fused: its output overlaps "
                                   "an operand of the kernel\n");
        return failure();
      }
  }
  if (!canMoveAcross(tentative, stage))
    return failure();
  return written;
}

/// A softmax on `current` (C or the last stage's output, written at
/// `currentMap`) over the GEMM's columns, for the kernel to apply to whole
/// rows of its block (see TensorCoreEpilogue::softmax). Records it in `ep`.
bool EpilogueMatcher::acceptSoftmax(linalg::SoftmaxOp softmax,
                                    ArrayRef<linalg::GenericOp> stages,
                                    Value current, AffineMap currentMap) {
  auto reject = [&](const Twine &why) {
    LLVM_DEBUG(llvm::dbgs()
               << "softmax not fused (" << why << "): " << softmax << "\n");
    ep.softmax = nullptr;
    return false;
  };
  auto cType = cast<MemRefType>(c.getType());
  int64_t rank = cType.getRank();
  if (!softmax.hasPureBufferSemantics() || softmax.getInput() != current)
    return reject("not on buffers, or not on the chain's current value");
  if (!currentMap.isIdentity())
    return reject("the chain wrote its input in another order");
  if (int64_t(softmax.getDimension()) != rank - 1 ||
      gemmDims.back() != ReassociationIndices{rank - 1})
    return reject("not over the GEMM's columns");
  Value out = softmax.getOutput();
  auto outType = dyn_cast<MemRefType>(out.getType());
  auto inType = cast<MemRefType>(current.getType());
  if (!outType || !outType.getLayout().isIdentity() ||
      outType.getShape() != cType.getShape() ||
      !outType.getElementType().isF32() || !inType.getElementType().isF32())
    return reject("not an f32 identity-layout buffer of the product's shape");
  // Every block writes its rows while others still read A, B and the
  // stages' operands.
  for (Value v : kernelBuffers(stages))
    if (isa<MemRefType>(v.getType()) && mayAlias(v, out))
      return reject("its output overlaps an operand of the kernel");
  FailureOr<EpilogueOperand> view =
      gemmView(out, AffineMap::getMultiDimIdentityMap(rank, c.getContext()));
  if (failed(view))
    return reject("its output does not collapse to the M x N view");
  ep.softmax = softmax;
  ep.softmaxAt = stages.size();
  // The kernel keeps the plain product and the softmax's input in shared
  // memory only.
  if (computeStoreProduct(stages) ||
      (!stages.empty() && storedOutputs(stages).back()))
    return reject("its input or the product is read elsewhere");
  if (!canMoveAcross(stages, softmax))
    return reject("the ops in between touch the chain's buffers");
  ep.softmaxOutput = *view;
  return true;
}

TensorCoreEpilogue EpilogueMatcher::run() {
  ep.product = c;
  matchInit();
  SmallVector<linalg::GenericOp> stages;
  Operation *producer = matmul;
  Value current = c;
  // Where the chain wrote `current`, per element of the product.
  AffineMap currentMap = AffineMap::getMultiDimIdentityMap(
      cast<MemRefType>(c.getType()).getRank(), c.getContext());
  // The next stage is the first op after the producer that touches its
  // output; anything else there ends the chain.
  for (Operation *op = producer->getNextNode(); op; op = op->getNextNode()) {
    BufferAccess access = accessOf(op, current);
    if (!access.read && !access.write)
      continue;
    auto softmax = dyn_cast<linalg::SoftmaxOp>(op);
    if (softmax && rowSoftmax && !ep.softmax &&
        acceptSoftmax(softmax, stages, current, currentMap)) {
      current = softmax.getOutput();
      currentMap = AffineMap::getMultiDimIdentityMap(
          cast<MemRefType>(c.getType()).getRank(), c.getContext());
      continue;
    }
    auto stage = dyn_cast<linalg::GenericOp>(op);
    if (!stage) {
      LLVM_DEBUG(llvm::dbgs() << "epilogue ends at " << op->getName() << "\n");
      break;
    }
    FailureOr<AffineMap> written = accept(stage, stages, current, currentMap);
    if (failed(written))
      break;
    stages.push_back(stage);
    current = outputOf(stage);
    currentMap = *written;
  }
  ep.storeProduct = computeStoreProduct(stages);
  ep.storesOutput = storedOutputs(stages);
  if (ep.softmax)
    ep.storesSoftmax = storesSoftmaxOutput(stages);
  // Only the accepted stages' operands (a rejected stage recorded its own),
  // and the outputs of those whose output is stored.
  llvm::DenseMap<OpOperand *, EpilogueOperand> operands;
  for (auto [stage, stored] : llvm::zip_equal(stages, ep.storesOutput))
    for (OpOperand &operand : stage->getOpOperands())
      if (auto it = ep.operands.find(&operand);
          it != ep.operands.end() &&
          (&operand != stage.getDpsInitOperand(0) || stored))
        operands[&operand] = it->second;
  ep.operands = std::move(operands);
  for (Value v : deadBuffers(stages))
    ep.deadBuffers.push_back(v.getDefiningOp());
  ep.stages = std::move(stages);
  LLVM_DEBUG(llvm::dbgs() << "epilogue: init " << (ep.init ? "folded" : "read")
                          << ", " << ep.stages.size() << " stage(s), product "
                          << (ep.storeProduct ? "stored" : "not stored") << ", "
                          << ep.deadBuffers.size() << " buffer(s) removed\n");
  return ep;
}

TensorCoreEpilogue
mlir::opsnn::matchTensorCoreEpilogue(linalg::LinalgOp producer, Value product,
                                     ArrayRef<ReassociationIndices> gemmDims,
                                     bool rowSoftmax) {
  return EpilogueMatcher(producer, product, gemmDims, rowSoftmax).run();
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

/// `operand`'s view: one in `built` of the same buffer and grouping, else a
/// new memref.collapse_shape (added to `built`).
static void
buildView(OpBuilder &b, Location loc, EpilogueOperand &operand,
          SmallVectorImpl<std::pair<EpilogueOperand, Value>> &built) {
  auto same = [&](const std::pair<EpilogueOperand, Value> &other) {
    return other.first.value == operand.value &&
           other.first.collapse == operand.collapse;
  };
  Value view;
  if (auto it = llvm::find_if(built, same); it != built.end()) {
    view = it->second;
  } else {
    view = memref::CollapseShapeOp::create(b, loc, operand.value,
                                           operand.collapse);
    built.push_back({operand, view});
  }
  operand.value = view;
  operand.collapse.clear();
}

void TensorCoreEpilogue::buildViews(OpBuilder &b, Location loc) {
  // One view per buffer and grouping (a residual read by two stages, the
  // output read back in place), created in the stages' operand order, not
  // the map's: the IR must not depend on pointer values.
  SmallVector<std::pair<EpilogueOperand, Value>> built;
  for (auto [i, stage] : llvm::enumerate(stages)) {
    if (softmax && i == softmaxAt && storesSoftmax &&
        !softmaxOutput.collapse.empty())
      buildView(b, loc, softmaxOutput, built);
    for (OpOperand &stageOperand : stage->getOpOperands()) {
      auto entry = operands.find(&stageOperand);
      if (entry != operands.end() && !entry->second.collapse.empty())
        buildView(b, loc, entry->second, built);
    }
  }
  if (softmax && softmaxAt == stages.size() && storesSoftmax &&
      !softmaxOutput.collapse.empty())
    buildView(b, loc, softmaxOutput, built);
}

Operation *TensorCoreEpilogue::anchor(Operation *matmul) const {
  if (!hasStages())
    return matmul;
  if (softmax && softmaxAt == stages.size())
    return softmax;
  linalg::GenericOp last = stages.back();
  return last;
}

static Value addIndex(OpBuilder &b, Location loc, Value x, int64_t y) {
  if (y == 0)
    return x;
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 1, getAffineSymbolExpr(0, b.getContext()) + y),
      ValueRange{x});
}

/// The alignment of an n-element access at column `col` of `memref` whose
/// other indices are `indices`: the columns the kernel stores start at
/// multiples of n (a lane's two elements at an even column, a CPU row at a
/// multiple of 8), so with an offset and strides that are multiples of n
/// too the access is n elements aligned, given a base aligned that much.
/// Only claimed up to 8 bytes (the GPU lanes' vector<2xf32>/<2xf16>): every
/// buffer is at least that aligned (memref.alloc 64, cudaMalloc 256, malloc
/// 16), and wider CPU rows are fine unaligned. Without it the vector
/// accesses are split into scalar ones.
static llvm::MaybeAlign alignmentOf(MemRefType memref, unsigned colDim,
                                    int64_t n) {
  int64_t bytes = n * memref.getElementTypeBitWidth() / 8;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (bytes > 8 || bytes <= 0 ||
      failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % n != 0)
    return std::nullopt;
  for (auto [dim, stride] : llvm::enumerate(strides))
    if (dim != colDim && (ShapedType::isDynamic(stride) || stride % n != 0))
      return std::nullopt;
  return llvm::Align(bytes);
}

/// The indices of element (row, col) of the M x N space in the operand
/// `op` (a buffer's M x N view) and which of them is the column, if any.
static std::pair<SmallVector<Value>, std::optional<unsigned>>
operandIndices(OpBuilder &b, Location loc, const EpilogueOperand &op,
               Value row, Value col) {
  assert(op.collapse.empty() && "buildViews did not run");
  SmallVector<Value> indices;
  std::optional<unsigned> colDim;
  for (auto [i, expr] : llvm::enumerate(op.map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
      indices.push_back(dim.getPosition() == 0 ? row : col);
      if (dim.getPosition() == 1)
        colDim = i;
      continue;
    }
    if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
      indices.push_back(
          arith::ConstantIndexOp::create(b, loc, constant.getValue()));
      continue;
    }
    // A row dimension of its own: (row floordiv stride) mod size.
    indices.push_back(affine::AffineApplyOp::create(
        b, loc, AffineMap::get(2, 0, expr), ValueRange{row, col}));
  }
  return {indices, colDim};
}

/// Whether the n elements along the column are one contiguous vector access.
static bool isContiguousColumn(MemRefType memref, std::optional<unsigned> colDim) {
  return colDim && *colDim + 1 == static_cast<unsigned>(memref.getRank()) &&
         memref.isLastDimUnitStride();
}

/// The elements (row, col + 0 .. n-1) of the M x N space, read from the
/// operand `v` (a buffer's M x N view, or a scalar) through `map`: a
/// contiguous load when the column is the operand's innermost dimension, a
/// broadcast when the operand does not depend on it, else one load per
/// element.
static Value loadOperand(OpBuilder &b, Location loc, const EpilogueOperand &op,
                         Value row, Value col, int64_t n) {
  Value v = op.value;
  auto memref = dyn_cast<MemRefType>(v.getType());
  Type element = memref ? memref.getElementType() : v.getType();
  auto vectorType = VectorType::get({n}, element);
  if (!memref)
    return vector::BroadcastOp::create(b, loc, vectorType, v);
  auto [indices, colDim] = operandIndices(b, loc, op, row, col);
  if (!colDim) {
    Value scalar = memref::LoadOp::create(b, loc, v, indices);
    return vector::BroadcastOp::create(b, loc, vectorType, scalar);
  }
  if (isContiguousColumn(memref, colDim))
    return vector::LoadOp::create(b, loc, vectorType, v, indices,
                                  /*nontemporal=*/false,
                                  alignmentOf(memref, *colDim, n));
  SmallVector<Value> elements;
  for (int64_t e = 0; e < n; ++e) {
    indices[*colDim] = addIndex(b, loc, col, e);
    elements.push_back(memref::LoadOp::create(b, loc, v, indices));
  }
  return vector::FromElementsOp::create(b, loc, vectorType, elements);
}

/// Stores `values`, the elements (row, col + 0 .. n-1) of the M x N space,
/// to the output `op` (its M x N view, whose map has the column): one
/// vector store when the column is its innermost dimension, else one store
/// per element.
static void storeOutput(OpBuilder &b, Location loc, const EpilogueOperand &op,
                        Value values, Value row, Value col) {
  int64_t n = cast<VectorType>(values.getType()).getDimSize(0);
  auto memref = cast<MemRefType>(op.value.getType());
  auto [indices, colDim] = operandIndices(b, loc, op, row, col);
  assert(colDim && "the output's view has no column");
  if (isContiguousColumn(memref, colDim)) {
    vector::StoreOp::create(b, loc, values, op.value, indices,
                            /*nontemporal=*/false,
                            alignmentOf(memref, *colDim, n));
    return;
  }
  for (int64_t e = 0; e < n; ++e) {
    indices[*colDim] = addIndex(b, loc, col, e);
    Value element =
        vector::ExtractOp::create(b, loc, values, ArrayRef<int64_t>{e});
    memref::StoreOp::create(b, loc, element, op.value, indices);
  }
}

/// Applies `stages[begin, end)` of `ep` to `acc`, the elements (row, col +
/// 0 .. n-1) of `currentBuffer` (the buffer the first of them reads), and
/// stores the outputs in `storesOutput`; returns the last one's elements.
static Value applyStages(const TensorCoreEpilogue &ep, OpBuilder &b,
                         Location loc, Value acc, Value currentBuffer,
                         Value row, Value col, size_t begin, size_t end) {
  int64_t n = cast<VectorType>(acc.getType()).getDimSize(0);
  auto vectorize = [&](Type t) { return VectorType::get({n}, t); };
  Value current = acc;
  for (size_t i = begin; i < end; ++i) {
    linalg::GenericOp stage = ep.stages[i];
    bool stored = ep.storesOutput[i];
    Block &body = stage.getRegion().front();
    IRMapping mapping;
    for (OpOperand *input : stage.getDpsInputOperands()) {
      BlockArgument arg = stage.getMatchingBlockArgument(input);
      if (input->get() == currentBuffer)
        mapping.map(arg, current);
      else if (!arg.use_empty())
        mapping.map(
            arg, loadOperand(b, loc, ep.operands.lookup(input), row, col, n));
    }
    // In place on the previous output: the old value is the product.
    BlockArgument outArg =
        stage.getMatchingBlockArgument(stage.getDpsInitOperand(0));
    if (!outArg.use_empty())
      mapping.map(outArg, current);
    // Scalars from outside the payload are splats.
    auto lookup = [&](Value v) {
      if (Value mapped = mapping.lookupOrNull(v))
        return mapped;
      Value splat =
          vector::BroadcastOp::create(b, loc, vectorize(v.getType()), v);
      mapping.map(v, splat);
      return splat;
    };
    for (Operation &op : body.without_terminator()) {
      if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
        auto type = vectorize(constant.getType());
        mapping.map(constant.getResult(),
                    arith::ConstantOp::create(
                        b, loc, type,
                        DenseElementsAttr::get(type, constant.getValue())));
        continue;
      }
      for (Value operand : op.getOperands())
        lookup(operand);
      Operation *vectorOp = b.clone(op, mapping);
      for (OpResult result : vectorOp->getResults())
        result.setType(vectorize(result.getType()));
    }
    current = lookup(body.getTerminator()->getOperand(0));
    currentBuffer = outputOf(stage);
    if (stored)
      storeOutput(b, loc, ep.operands.lookup(stage.getDpsInitOperand(0)),
                  current, row, col);
  }
  return current;
}

void TensorCoreEpilogue::applyAndStore(OpBuilder &b, Location loc, Value acc,
                                       Value row, Value col) const {
  assert(!softmax && "the softmax needs whole rows (applyBeforeSoftmax)");
  applyStages(*this, b, loc, acc, product, row, col, 0, stages.size());
}

Value TensorCoreEpilogue::applyBeforeSoftmax(OpBuilder &b, Location loc,
                                             Value acc, Value row,
                                             Value col) const {
  assert(softmax && "no softmax");
  return applyStages(*this, b, loc, acc, product, row, col, 0, softmaxAt);
}

void TensorCoreEpilogue::applyAfterSoftmax(OpBuilder &b, Location loc,
                                           Value normalized, Value row,
                                           Value col) const {
  assert(softmax && "no softmax");
  if (storesSoftmax)
    storeOutput(b, loc, softmaxOutput, normalized, row, col);
  applyStages(*this, b, loc, normalized, linalg::SoftmaxOp(softmax).getOutput(),
              row, col, softmaxAt, stages.size());
}

void TensorCoreEpilogue::applyToFragment(OpBuilder &b, Location loc, Value acc,
                                         Value row, Value col) const {
  for (int64_t r = 0, e = cast<VectorType>(acc.getType()).getDimSize(0); r < e;
       ++r) {
    Value elements =
        vector::ExtractOp::create(b, loc, acc, ArrayRef<int64_t>{r});
    applyAndStore(b, loc, elements, addIndex(b, loc, row, r), col);
  }
}

/// One store of the product written by the kernel builder: a 16x8 fragment
/// transfer_write (the CPU and unconverted GPU forms) or a lane's row of a
/// fragment (after the nvgpu conversion).
/// `store` of product elements replaced by the epilogue's; `rowOffset`
/// (may be null) is added to its row: the first row of a batch's slice.
static LogicalResult rewriteOneProductStore(const TensorCoreEpilogue &ep,
                                            Operation *store,
                                            Value rowOffset = nullptr) {
  OpBuilder b(store->getContext());
  b.setInsertionPointAfter(store);
  Location loc = store->getLoc();
  auto globalRow = [&](Value row) -> Value {
    return rowOffset ? arith::AddIOp::create(b, loc, row, rowOffset) : row;
  };
  if (auto rowStore = dyn_cast<vector::StoreOp>(store)) {
    if (rowStore.getVectorType().getRank() != 1 ||
        rowStore.getIndices().size() != 2)
      return store->emitError("unexpected store of the product: ") << *store;
    ep.applyAndStore(b, loc, rowStore.getValueToStore(),
                     globalRow(rowStore.getIndices()[0]),
                     rowStore.getIndices()[1]);
  } else if (auto write = dyn_cast<vector::TransferWriteOp>(store)) {
    VectorType type = write.getVectorType();
    if (type.getRank() != 2 || !write.getPermutationMap().isMinorIdentity() ||
        write.hasOutOfBoundsDim() || write.getMask() ||
        write.getIndices().size() != 2)
      return store->emitError("unexpected store of the product: ") << *store;
    ep.applyToFragment(b, loc, write.getVector(),
                       globalRow(write.getIndices()[0]), write.getIndices()[1]);
  } else {
    return store->emitError("unexpected store of the product: ") << *store;
  }
  if (!ep.storeProduct)
    store->erase();
  return success();
}

LogicalResult TensorCoreEpilogue::rewriteProductStores(
    Operation *kernel, Value c, int64_t rowsPerBatch) const {
  if (!hasStages())
    return success();
  SmallVector<std::pair<Operation *, Value>> stores;
  auto collect = [&](Value target, Value batch) {
    kernel->walk([&](Operation *op) {
      if (op != kernel && hasEffect<MemoryEffects::Write>(op, target))
        stores.push_back({op, batch});
    });
  };
  collect(c, nullptr);
  // A batched GEMM's stores go to a batch's slice of C: rows of batch i
  // are rows i * rowsPerBatch ... of the epilogue's space.
  if (rowsPerBatch) {
    SmallVector<memref::SubViewOp> slices;
    kernel->walk([&](memref::SubViewOp slice) {
      if (slice.getSource() == c)
        slices.push_back(slice);
    });
    for (memref::SubViewOp slice : slices) {
      OpBuilder b(slice->getContext());
      b.setInsertionPointAfter(slice);
      Value batch = getValueOrCreateConstantIndexOp(
          b, slice.getLoc(), slice.getMixedOffsets().front());
      Value offset = arith::MulIOp::create(
          b, slice.getLoc(), batch,
          arith::ConstantIndexOp::create(b, slice.getLoc(), rowsPerBatch));
      collect(slice.getResult(), offset);
    }
  }
  for (auto [store, rowOffset] : stores)
    if (failed(rewriteOneProductStore(*this, store, rowOffset)))
      return failure();
  return success();
}

LogicalResult TensorCoreEpilogue::rewriteProductStore(Operation *store) const {
  if (!hasStages())
    return success();
  return rewriteOneProductStore(*this, store);
}

void TensorCoreEpilogue::eraseAbsorbed(Operation *producer) const {
  for (linalg::GenericOp stage : llvm::reverse(stages))
    stage.erase();
  if (softmax)
    softmax->erase();
  producer->erase();
  if (linalg::FillOp fill = deadFill)
    fill.erase();
  for (Operation *alloc : deadBuffers) {
    Value buffer = alloc->getResult(0);
    // The kernel's M x N view of a convolution's output it no longer
    // writes.
    for (Operation *user : llvm::make_early_inc_range(buffer.getUsers()))
      if (isa<memref::CollapseShapeOp>(user) && user->use_empty())
        user->erase();
    // A dead reshape (C of a batched GEMM), then the buffer it reshaped.
    if (Value base = reshapedLocalBuffer(buffer)) {
      if (!buffer.use_empty())
        continue; // Still used: keep it (never expected).
      alloc->erase();
      alloc = base.getDefiningOp();
      buffer = base;
    }
    if (!llvm::all_of(buffer.getUsers(), isDealloc))
      continue; // Still used: keep it (never expected).
    // An async gpu.dealloc goes only if whoever waits for it can wait for
    // its one dependency instead.
    auto waitedFor = [](Operation *dealloc) {
      auto gpuDealloc = dyn_cast<gpu::DeallocOp>(dealloc);
      return gpuDealloc && gpuDealloc.getAsyncToken() &&
             !gpuDealloc.getAsyncToken().use_empty();
    };
    if (llvm::any_of(buffer.getUsers(), [&](Operation *dealloc) {
          return waitedFor(dealloc) &&
                 cast<gpu::DeallocOp>(dealloc).getAsyncDependencies().size() !=
                     1;
        }))
      continue;
    for (Operation *dealloc : llvm::make_early_inc_range(buffer.getUsers())) {
      if (waitedFor(dealloc)) {
        auto gpuDealloc = cast<gpu::DeallocOp>(dealloc);
        gpuDealloc.getAsyncToken().replaceAllUsesWith(
            gpuDealloc.getAsyncDependencies()[0]);
      }
      dealloc->erase();
    }
    alloc->erase();
  }
}
