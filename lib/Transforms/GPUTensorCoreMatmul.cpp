//===- GPUTensorCoreMatmul.cpp - Matmul and conv to a tensor-core kernel --===//
//
// The first tensor-core path of the GPU pipeline: an f16 x f16 -> f32
// linalg.matmul on buffers becomes a kernel with a thread-block tile staged
// in shared memory, warp tiles of m16n8k16 fragments written as
// vector.contract, and accumulators in registers across the K loop. The
// fragment-to-lane mapping (ldmatrix, mma.sync) and the cp.async copies are
// upstream's: nvgpu::createAsyncGroups and
// convertVectorToNVVMCompatibleMMASync. The same builder can emit the
// kernel as sequential loops (emulate-on-cpu), so the tiling, the copy
// distribution and the fragment offsets run on the CPU against NumPy. The
// builder's pieces live in TensorCoreKernelBuilder.h and the files it
// names; this file matches the GEMMs, picks the tiles and assembles the
// GPU kernel and its CPU emulation.
//
// NHWC convolutions run on the same kernel as implicit GEMMs
// (TensorCoreConv.cpp): the output and filter are GEMM views, and only the
// A copies differ, reading im2col chunks straight from the input.
//
// The accumulator init (a fill of a constant) and the elementwise consumers
// (bias, residual, activation, cast) of a matmul or convolution are folded
// into the kernel: see TensorCoreEpilogue.cpp. A softmax over the columns
// among them makes the block cover whole rows: the accumulators go to an
// f32 row tile in shared memory after the K loop, and the block's threads
// normalize its rows there (TensorCoreRowTile.cpp). On sm_90a the same
// row tile carries the warpgroup (wgmma) kernel's epilogue.
//
//===----------------------------------------------------------------------===//

#include "opsnn/Transforms/Passes.h"

#include "KernelBufferAccess.h"
#include "NarrowIndexArithmetic.h"
#include "TensorCoreContraction.h"
#include "TensorCoreConv.h"
#include "TensorCoreEpilogue.h"
#include "TensorCoreKernelBuilder.h"
#include "TensorCoreMmaTypes.h"
#include "TensorCoreWarpgroupMma.h"
#include "VectorAccessAlignment.h"
#include "opsnn/Target/TargetDescription.h"
#include "opsnn/Target/TensorCoreTiles.h"

#include "mlir/Conversion/VectorToGPU/VectorToGPU.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/Debug.h"

#include <limits>
#include <numeric>

#define DEBUG_TYPE "opsnn-gpu-tensor-core-matmul"

namespace mlir::opsnn {
#define GEN_PASS_DEF_GPUALIGNWORKGROUPBUFFERSPASS
#define GEN_PASS_DEF_GPUTENSORCOREMATMULPASS
#include "opsnn/Transforms/Passes.h.inc"
} // namespace mlir::opsnn

using namespace mlir;
using namespace mlir::opsnn;

/// The matmuls this path handles; the rest keep the generic path.
static FailureOr<TensorCoreMatmul>
matchTensorCoreMatmul(linalg::MatmulOp op, bool allowTF32, bool rowSoftmax) {
  if (!op.hasPureBufferSemantics())
    return failure();
  if (op.hasUserDefinedMaps()) {
    LLVM_DEBUG(llvm::dbgs() << "transposed/broadcast matmul: generic path\n");
    return failure();
  }
  auto memref = [](Value v, Type element) -> MemRefType {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getRank() != 2 || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() || type.getElementType() != element)
      return nullptr;
    return type;
  };
  Builder b(op.getContext());
  Value a = op.getDpsInputOperand(0)->get();
  Value bv = op.getDpsInputOperand(1)->get();
  Value c = op.getDpsInitOperand(0)->get();
  Type element = getElementTypeOrSelf(a.getType());
  if (!isTensorCoreOperandType(element, allowTF32)) {
    LLVM_DEBUG(llvm::dbgs() << "matmul on " << element
                            << " (f32 needs allow-tf32): generic path\n");
    return failure();
  }
  MemRefType aType = memref(a, element);
  MemRefType bType = memref(bv, element);
  MemRefType cType = memref(c, tensorCoreAccumulatorType(element));
  if (!aType || !bType || !cType)
    return failure();
  TensorCoreMatmul mm{a,
                      bv,
                      c,
                      aType.getDimSize(0),
                      bType.getDimSize(1),
                      aType.getDimSize(1),
                      element};
  int64_t granule = copyElements(mm.elementBytes());
  mm.aElementCopies = mm.k % granule != 0;
  mm.bElementCopies = mm.n % granule != 0;
  mm.epilogue = matchTensorCoreEpilogue(op, c, {{0}, {1}}, rowSoftmax);
  return mm;
}

/// A convolution the kernel runs as an implicit GEMM; `b` and `c` are still
/// the filter and output buffers until buildImplicitGemmViews replaces them.
static FailureOr<TensorCoreMatmul>
matchTensorCoreConv(linalg::LinalgOp op, bool allowTF32, bool rowSoftmax) {
  FailureOr<ImplicitGemmConv> conv = matchImplicitGemmConv(op, allowTF32);
  if (failed(conv))
    return failure();
  TensorCoreMatmul mm{conv->input,   conv->filter,  conv->output,
                      conv->gemmM(), conv->gemmN(), conv->gemmK(),
                      conv->elementType};
  mm.bTransposed = conv->filterFirst;
  // C not whole 16-byte copies (an image's 3 channels): A's chunks would
  // cross filter taps, so its elements are copied one by one, each from
  // its own tap. B is a plain matrix, copied element by element only when
  // its rows are not whole 16-byte chunks (they would run into the next
  // row), as a matmul's B is: an FHWC filter is F x K (K = KH*KW*C, whole
  // for a 2x2 filter of 4 channels even though C is not), an HWCF filter
  // K x F (a 5-filter convolution is not).
  int64_t granule = copyElements(mm.elementBytes());
  mm.aElementCopies = !conv->wholeCopies;
  mm.bElementCopies = (mm.bTransposed ? mm.k : mm.n) % granule != 0;
  mm.conv = *conv;
  // The consumers iterate over (n, oh, ow, f): rows (n, oh, ow), columns f.
  mm.epilogue =
      matchTensorCoreEpilogue(op, conv->output, {{0, 1, 2}, {3}}, rowSoftmax);
  return mm;
}

/// A linalg.generic contraction that is a GEMM on collapsed views of its
/// buffers (see TensorCoreContraction.h).
static FailureOr<TensorCoreMatmul>
matchTensorCoreContraction(linalg::GenericOp op, bool allowTF32,
                           bool rowSoftmax) {
  FailureOr<CollapsibleGemm> gemm = matchCollapsibleGemm(op, allowTF32);
  if (failed(gemm))
    return failure();
  TensorCoreMatmul mm{gemm->a, gemm->b, gemm->c, gemm->m,
                      gemm->n, gemm->k, gemm->elementType};
  mm.bTransposed = gemm->bTransposed;
  mm.aElementCopies = !gemm->aView.wholeCopies;
  mm.bElementCopies = !gemm->bView.wholeCopies;
  mm.collapsed = *gemm;
  mm.batch = gemm->batch;
  // The consumers iterate over C's dimensions: rows the M group, columns
  // the N group.
  if (mm.batch == 1) {
    mm.epilogue =
        matchTensorCoreEpilogue(op, gemm->c, gemm->cView.groups, rowSoftmax);
    return mm;
  }
  // C's N dimensions come last; all others are rows here: with the batch
  // dimensions leading C in one contiguous group, batch i's rows are rows
  // i * M ... of that (batch * M) x N space, and the elementwise consumers
  // (attention's scaling of the scores) fuse as for one GEMM.
  // Otherwise only C's fill folds.
  int64_t rank = cast<MemRefType>(gemm->c.getType()).getRank();
  int64_t numN = gemm->cView.groups.back().size();
  ReassociationIndices rows, cols;
  for (int64_t i = 0; i < rank; ++i)
    (i < rank - numN ? rows : cols).push_back(i);
  TensorCoreEpilogue epilogue =
      matchTensorCoreEpilogue(op, gemm->c, {rows, cols}, rowSoftmax);
  bool batchesAreRows = gemm->cView.isIdentityPermutation() &&
                        gemm->cView.groups.size() == 3;
  if (batchesAreRows || !epilogue.hasStages())
    mm.epilogue = epilogue;
  return mm;
}

/// The views of the whole-rows epilogue's shared memory in `buffer` (i8,
/// the stages' bytes): the row tile at byte 0, the row parts' partial
/// maxima and sums after it.
static std::pair<Value, Value> rowTileViews(KernelBuilder &kb, OpBuilder &b,
                                            Location loc, Value buffer) {
  auto space = cast<MemRefType>(buffer.getType()).getMemorySpace();
  MemRefType tileType = kb.rowTileType(space);
  auto view = [&](int64_t offset, MemRefType type) -> Value {
    return memref::ViewOp::create(b, loc, type, buffer, kb.cst(offset),
                                  ValueRange{});
  };
  return {view(0, tileType),
          view(tileType.getNumElements() * 4, kb.rowPartialsType(space))};
}

/// The kernel as a gpu.launch (shared tiles as workgroup attributions).
/// With a softmax in the epilogue it ends with the accumulators in the row
/// tile, in the shared-memory bytes `rowBuffer`, for emitWholeRowsEpilogue.
/// The row tile overwrites the stages: after the K loop no copy is in
/// flight (the last S-1 iterations commit empty groups; synchronous
/// stores are done), so one barrier after the last compute suffices.
///
/// The K loop is a software pipeline of S = cfg.stages shared-memory stages,
/// step k (K offset k0 = k * BK) living in stage k mod S:
///
///   prologue: for s in 0 .. S-2: copy step s into stage s; commit group
///   for k:    wait until at most S-2 groups are pending; barrier
///             if k+S-1 < K/BK: copy step k+S-1 into stage (k+S-1) mod S
///             commit group (empty past the end)
///             warps compute on stage k mod S
///
/// Hazards, per stage: read after write: the copies of step k are group k
/// (S-1 prologue groups, then one per iteration, every thread committing
/// the same sequence, empty groups included, so the count is uniform);
/// wait(S-2) at iteration k leaves only groups k+1 .. k+S-2 in flight, so
/// this thread's copies of step k have landed, and the barrier after it
/// makes every thread's copies visible before any warp reads the stage.
/// Write after read: iteration k writes stage (k+S-1) mod S = (k-1) mod S,
/// last read by the compute of iteration k-1, which every thread finished
/// before reaching iteration k's barrier; the copies are issued after that
/// barrier, so one barrier per step is enough. S = 1 has no stage to
/// overlap with: copy, commit, wait(0), barrier, compute, barrier (the
/// second barrier guards the next step's overwrite).
///
/// The warpgroup kernel with S >= 2 and `wgmmaGroupInFlight` (CUTLASS's
/// order) issues iteration k's wgmma group first and leaves it in flight:
///
///   for k:    wait until at most S-2 groups are pending; fence; barrier
///             wgmma group of step k on stage k mod S; commit; wait_group 1
///             barrier
///             if k+S-1 < K/BK: copy step k+S-1 into stage (k+S-1) mod S
///             commit group (empty past the end)
///   after:    wait_group 0
///
/// wait_group 1 leaves only group k pending, so this thread's part of
/// group k-1 is done; the second barrier makes that every thread's, and
/// only then are copies issued into stage (k-1) mod S, which group k-1
/// read (each warp's wgmma reads all of B). The cp.async hazards are as
/// above; the copies now overlap group k instead of preceding it. Group
/// k+1 chains on group k's accumulators without a wait (wgmma's rule for
/// the same accumulator and shape), behind its own wgmma.fence.
///
/// With `asyncCopies` the copies are emitted as nvgpu.device_async_copy
/// with their own create_group/wait rather than left to
/// nvgpu::createAsyncGroups: that utility puts a wait(0) right after every
/// group (no overlap) and starts a new group at every scf.if (the guarded
/// copies), so threads would commit different numbers of groups and no
/// numGroups could be right for all of them.
///
/// Without cp.async (sm_75, `isa.asyncCopies` false) the copies are
/// synchronous, loads into registers and stores to shared memory, and
/// iteration k issues the loads of step k+S-1 before the warps compute on
/// stage k mod S but its stores after that compute (KernelBuilder::
/// deferStores), so the loads are in flight while the tensor cores work;
/// the hazards are as above, the barrier at the top of iteration k+1
/// publishing the stores. The last S-1 iterations have no step k+S-1:
/// they load and store the last step again, unconditionally (under a
/// branch LLVM would sink the loads to their stores, after the compute).
/// That store goes to stage (k+S-1) mod S = (k-1) mod S, which no later
/// iteration reads: they read the stages of steps k+1 .. last, at most
/// S-2 steps past k.
static gpu::LaunchOp buildGPUKernel(OpBuilder &b, Location loc,
                                    const TensorCoreMatmul &mm,
                                    const MatmulTileConfig &cfg,
                                    const TensorCoreISA &isa, bool toNVGPU,
                                    bool wgmmaGroupInFlight, Value *rowBuffer) {
  bool asyncCopies = toNVGPU && isa.asyncCopies;
  bool warpgroup = cfg.warpgroup;
  // The warpgroup kernel leaves a step's wgmma group in flight while the
  // next step's copies are issued (see above): two stages or more.
  bool groupInFlight = warpgroup && wgmmaGroupInFlight && cfg.stages > 1;
  // The wgmma groups a step leaves pending when it ends.
  uint64_t pendingGroups = groupInFlight ? 1 : 0;
  assert((!warpgroup || asyncCopies) &&
         "the wgmma kernel's copies are cp.async");
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.asyncCopies = asyncCopies;
  kb.nvgpuForm = toNVGPU;
  kb.alignCopies = true;
  kb.deferStores = !isa.asyncCopies;
  auto shared = gpu::AddressSpaceAttr::get(b.getContext(),
                                           gpu::AddressSpace::Workgroup);
  MemRefType typeA = kb.sharedTypeA(shared, mm.elementType);
  MemRefType typeB = kb.sharedTypeB(shared, mm.elementType);
  // bf16 and FP8 fragments are read as f16 (see KernelBuilder::
  // fragmentType) once they go to nvgpu: the tiles are byte buffers with a
  // view of A's and B's type for the copies (cp.async copies between equal
  // types) and an f16 view for the fragments.
  bool fragmentsAsF16 =
      toNVGPU && !warpgroup &&
      (mm.elementType.isBF16() || isTensorCoreFP8Type(mm.elementType));
  // Past 48 KiB the tiles are views of dynamic shared memory (A at byte 0,
  // B after it; both sizes are multiples of 16 bytes), the launch says how
  // much, and the runtime opts the kernel in to it. A whole-rows epilogue's
  // row tile reuses the same bytes after the K loop (one byte buffer).
  int64_t bytesA = typeA.getNumElements() * kb.elementBytes();
  int64_t bytesB = typeB.getNumElements() * kb.elementBytes();
  int64_t kernelBytes = cfg.kernelSharedBytes(kb.elementBytes());
  // The warpgroup kernel's tiles are aligned in dynamic shared memory.
  bool dynamicShared =
      warpgroup || cfg.needsDynamicSharedMemory(kb.elementBytes());
  bool wholeRows = bool(mm.epilogue.softmax);
  assert(wholeRows == cfg.wholeRows && "tiles chosen for another epilogue");
  auto bytes = [&](int64_t size) {
    return MemRefType::get({size}, b.getI8Type(),
                           MemRefLayoutAttrInterface(), shared);
  };
  SmallVector<Type> attributions = {typeA, typeB};
  if (dynamicShared)
    attributions.clear();
  else if (wholeRows)
    attributions = {bytes(kernelBytes)};
  else if (fragmentsAsF16)
    attributions = {bytes(bytesA), bytes(bytesB)};
  Value one = kb.cst(1);
  Value dynamicSharedBytes;
  if (dynamicShared)
    dynamicSharedBytes =
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), kernelBytes);
  auto launch = gpu::LaunchOp::create(
      b, loc, kb.cst(kb.blockCols()), kb.cst(kb.blockRows()),
      kb.cst(mm.batch), kb.cst(kb.numThreads()), one, one, dynamicSharedBytes,
      /*asyncTokenType=*/nullptr, /*asyncDependencies=*/{}, attributions);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  if (mm.batch > 1)
    kb.bindBatch(launch.getBlockIds().z);
  Value sA, sB, fragA, fragB, rowTile, rowTileF32, rowPartials;
  // Byte buffers and the offsets of A and B in them.
  Value bufferA, bufferB, offsetA = kb.cst(0), offsetB = kb.cst(0);
  auto view = [&](Value buffer, Value offset, MemRefType type) -> Value {
    return memref::ViewOp::create(b, loc, type, buffer, offset, ValueRange{});
  };
  if (!dynamicShared && !fragmentsAsF16 && !wholeRows) {
    sA = fragA = launch.getWorkgroupAttributions()[0];
    sB = fragB = launch.getWorkgroupAttributions()[1];
  } else {
    if (dynamicShared) {
      bufferA = bufferB = gpu::DynamicSharedMemoryOp::create(
          b, loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                                  MemRefLayoutAttrInterface(), shared));
      if (warpgroup) {
        // The swizzled tiles' 1024-byte atoms start at multiples of 1024
        // (kernelSharedBytes has the slack).
        Value base =
            memref::ExtractAlignedPointerAsIndexOp::create(b, loc, bufferA);
        offsetA = kb.apply((-getAffineSymbolExpr(0, b.getContext())) %
                               kWarpgroupTileAlignment,
                           {base});
      }
      offsetB = kb.add(offsetA, bytesA);
    } else if (wholeRows) {
      bufferA = bufferB = launch.getWorkgroupAttributions()[0];
      offsetB = kb.cst(bytesA);
    } else {
      bufferA = launch.getWorkgroupAttributions()[0];
      bufferB = launch.getWorkgroupAttributions()[1];
    }
    sA = fragA = view(bufferA, offsetA, typeA);
    sB = fragB = view(bufferB, offsetB, typeB);
    if (warpgroup && !wholeRows) {
      // The accumulators' row tile; for INT8 nvgpu's store writes i32 bits
      // through an f32 view (storeWarpgroupSlice).
      auto rowTileOf = [&](Type type) {
        return view(
            bufferA, offsetA,
            MemRefType::get({cfg.blockM, cfg.blockN + kWarpgroupRowTilePad},
                            type, MemRefLayoutAttrInterface(), shared));
      };
      rowTile = rowTileOf(mm.accumulatorType());
      rowTileF32 = mm.isInt8() ? rowTileOf(b.getF32Type()) : rowTile;
    }
    if (wholeRows) {
      std::tie(rowTile, rowPartials) = rowTileViews(kb, b, loc, bufferA);
      rowTileF32 = rowTile;
      // The warpgroup kernel normalizes its rows below; the mma.sync one
      // after the nvgpu conversion (emitWholeRowsEpilogue).
      if (!warpgroup)
        *rowBuffer = bufferA;
    }
    if (fragmentsAsF16) {
      Type f16 = b.getF16Type();
      fragA = view(bufferA, offsetA, kb.sharedTypeA(shared, f16));
      fragB = view(bufferB, offsetB, kb.sharedTypeB(shared, f16));
      kb.fragmentType = f16;
    }
  }
  Value bn0 = kb.mul(launch.getBlockIds().x, cfg.blockN);
  Value bm0 = kb.mul(launch.getBlockIds().y, cfg.blockM);
  Value tid = launch.getThreadIds().x;
  std::pair<Value, Value> origin = kb.warpOrigin(kb.div(tid, kThreadsPerWarp));
  Value wm0 = origin.first, wn0 = origin.second;
  Value row0 = kb.add(bm0, wm0), col0 = kb.add(bn0, wn0);
  MLIRContext *ctx = b.getContext();
  // A B staged N x K is read K-major: one accumulator per 64-row slice of
  // the block (see computeStep); a K x N B: one for the whole block.
  // Its accumulators are the registers of wgmma's D, issued as NVVM ops
  // (TensorCoreWarpgroupMma.h).
  bool kMajorB = warpgroup && mm.stagesBAsNK();
  int64_t accumulatorRows = kMajorB ? kWarpgroupM : cfg.blockM;
  auto accumulatorType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({accumulatorRows, cfg.blockN}, b.getF32Type()));
  // The warpgroup's accumulators start at zero: the epilogue adds C's fill
  // (or C) as it reads them back.
  SmallVector<Value> accs;
  if (kMajorB)
    for (int64_t i = 0; i < cfg.blockM / kWarpgroupM; ++i)
      accs.push_back(
          zeroWarpgroupSlice(b, loc, mm.accumulatorType(), cfg.blockN));
  else if (warpgroup)
    accs.push_back(
        nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accumulatorType));
  else
    accs = kb.loadAccumulators(row0, col0);
  // One K step on stage `stage`: the warps' fragments, or the warpgroup's
  // wgmma on descriptors of the stage's tiles (several for a K-major B),
  // waited for (the copies of a later iteration overwrite the stage). A
  // descriptor takes its swizzle from a TMA descriptor's type; the value itself
  // goes unused (upstream reads the type only), so a null one stands in: the
  // tiles come by cp.async, not TMA.
  auto computeStep = [&](Value stage,
                         ValueRange iterAccs) -> SmallVector<Value> {
    if (!warpgroup)
      return kb.warpStep(wm0, wn0, stage, fragA, fragB,
                         llvm::to_vector(iterAccs));
    // The descriptor of the `rows` x `cols` operand that starts
    // `startBytes` into stage `stage` of a tile of `stageBytes` per stage
    // at `offset` in `buffer`; `mapRows` rows of the TMA box.
    auto descriptor = [&](Value buffer, Value offset, int64_t stageBytes,
                          int64_t startBytes, int64_t rows, int64_t cols,
                          int64_t mapRows) -> Value {
      AffineExpr s0, s1;
      bindSymbols(ctx, s0, s1);
      auto type = MemRefType::get({rows, cols}, mm.elementType,
                                  MemRefLayoutAttrInterface(), shared);
      Value start = view(
          buffer, kb.apply(s0 + s1 * stageBytes + startBytes, {offset, stage}),
          type);
      auto mapType = nvgpu::TensorMapDescriptorType::get(
          ctx,
          MemRefType::get({mapRows, kb.swizzledRowElements()}, mm.elementType,
                          MemRefLayoutAttrInterface(), shared),
          nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
          nvgpu::TensorMapL2PromoKind::L2PROMO_NONE,
          nvgpu::TensorMapOOBKind::OOB_ZERO,
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
      Value null =
          LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(ctx));
      Value map = UnrealizedConversionCastOp::create(b, loc, mapType, null)
                      .getResult(0);
      // An f32 tile is read as TF32: upstream's op takes TF32 only from
      // descriptors of `tf32` tensors (the view stays f32: LLVM has no
      // tf32; wgmma ignores the 13 low mantissa bits).
      MemRefType descriptorTensor = type;
      if (mm.elementType.isF32())
        descriptorTensor = MemRefType::get({rows, cols}, b.getTF32Type(),
                                           MemRefLayoutAttrInterface(), shared);
      return nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc,
          nvgpu::WarpgroupMatrixDescriptorType::get(ctx, descriptorTensor),
          start, map);
    };
    int64_t bytesPerRow = cfg.blockK * kb.elementBytes();
    int64_t stageBytesA = cfg.blockM * bytesPerRow;
    int64_t stageBytesB = cfg.blockN * bytesPerRow;
    if (!kMajorB) {
      // A: BM rows of BK; B: K x N, read as panels of BK rows of 64 (the
      // TMA box a panel would be), transposed. Upstream steps both
      // descriptors along K.
      Value descA = descriptor(bufferA, offsetA, stageBytesA, 0, cfg.blockM,
                               cfg.blockK, cfg.blockM);
      Value descB = descriptor(bufferB, offsetB, stageBytesB, 0, cfg.blockK,
                               cfg.blockN, cfg.blockK);
      return {nvgpu::WarpgroupMmaOp::create(
          b, loc, accumulatorType, descA, descB, pendingGroups,
          /*transposeA=*/nullptr, /*transposeB=*/b.getUnitAttr(),
          iterAccs.front())};
    }
    // B staged N x K (BN rows of BK, swizzled as A is) is read K-major, as
    // wgmma reads A: no transpose (8-bit operands have none). Each wgmma
    // (64 rows x BN x kWarpgroupMmaKBytes of K) reads where its operands
    // start: A's slice i at row 64 i, both at byte 32 k of their 128-byte
    // rows (the swizzle applies to the address, as it does when upstream
    // steps A). One descriptor per operand, of the stage's first wgmma;
    // emitWarpgroupMmaGroup steps its start address for the others and
    // issues the step's wgmmas as one group, fenced and committed once.
    int64_t mmaK = kWarpgroupMmaKBytes / kb.elementBytes();
    Value descA = descriptor(bufferA, offsetA, stageBytesA, 0, kWarpgroupM,
                             mmaK, kWarpgroupM);
    Value descB = descriptor(bufferB, offsetB, stageBytesB, 0, mmaK, cfg.blockN,
                             cfg.blockN);
    SmallVector<WarpgroupMmaIssue> issues;
    for (int64_t kk = 0; kk < cfg.blockK / mmaK; ++kk) {
      int64_t kBytes = kk * kWarpgroupMmaKBytes;
      for (int64_t i = 0; i < cfg.blockM / kWarpgroupM; ++i)
        issues.push_back(
            {descA, i * kWarpgroupM * bytesPerRow + kBytes, descB, kBytes, i});
    }
    return emitWarpgroupMmaGroup(b, loc, mm.elementType, cfg.blockN, issues,
                                 iterAccs, pendingGroups);
  };
  // After the copies of a step landed: the warpgroup kernel's fence makes
  // them (generic-proxy writes) visible to wgmma's async-proxy reads; then
  // the block's barrier.
  auto publishCopies = [&] {
    if (warpgroup)
      NVVM::FenceProxyOp::create(
          b, loc, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b, loc);
  };
  int64_t stages = cfg.stages, steps = blockSteps(mm.k, cfg.blockK);
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  // Commits the async copies issued since the last commit as one group.
  auto commit = [&]() -> Value {
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, tokenType,
                                                   kb.takeCopyTokens());
  };
  auto wait = [&](Value token, int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, token,
                                     b.getI32IntegerAttr(pending));
  };
  scf::ForOp loop;
  if (stages == 1) {
    loop = scf::ForOp::create(
        b, loc, kb.cst(0), kb.cst(mm.k), kb.cst(cfg.blockK), accs,
        [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
          Value stage = kb.cst(0);
          kb.emitCopies(tid, bm0, bn0, k0, stage, sA, sB);
          kb.storePendingCopies();
          if (asyncCopies)
            wait(commit(), 0);
          publishCopies();
          SmallVector<Value> next = computeStep(stage, iterAccs);
          // The next step's copies overwrite the tiles.
          gpu::BarrierOp::create(b, loc);
          scf::YieldOp::create(b, loc, next);
        });
  } else {
    // Prologue: steps 0 .. S-2, one group each (empty past K).
    Value token;
    for (int64_t s = 0; s + 1 < stages; ++s) {
      if (s < steps) {
        kb.emitCopies(tid, bm0, bn0, kb.cst(s * cfg.blockK), kb.cst(s), sA,
                      sB);
        kb.storePendingCopies();
      }
      if (asyncCopies)
        token = commit();
    }
    SmallVector<Value> inits(accs);
    if (asyncCopies)
      inits.push_back(token);
    AffineExpr k0Expr = getAffineSymbolExpr(0, b.getContext());
    loop = scf::ForOp::create(
        b, loc, kb.cst(0), kb.cst(mm.k), kb.cst(cfg.blockK), inits,
        [&](OpBuilder &, Location, Value k0, ValueRange iterArgs) {
          ValueRange iterAccs = iterArgs.take_front(accs.size());
          if (asyncCopies)
            wait(iterArgs.back(), stages - 2);
          publishCopies();
          auto computeStage = [&]() {
            return kb.apply(k0Expr.floorDiv(cfg.blockK) % stages, {k0});
          };
          auto nextStageOf = [&]() {
            return kb.apply(
                (k0Expr.floorDiv(cfg.blockK) + (stages - 1)) % stages, {k0});
          };
          if (kb.deferStores) {
            // Loads of step min(k+S-1, last), compute, then the stores.
            kb.emitCopies(tid, bm0, bn0, kb.clampedNextStepK0(k0),
                          nextStageOf(), sA, sB);
            SmallVector<Value> next = computeStep(computeStage(), iterAccs);
            kb.storePendingCopies();
            scf::YieldOp::create(b, loc, next);
            return;
          }
          // With a wgmma group in flight: step k's group first, then (once
          // every thread's group k-1, which read stage (k-1) mod S, is
          // done) the copies into that stage.
          SmallVector<Value> next;
          if (groupInFlight) {
            next = computeStep(computeStage(), iterAccs);
            gpu::BarrierOp::create(b, loc);
          }
          // Step k + S - 1 into stage (k + S - 1) mod S, if it exists.
          Value nextK0 = kb.add(k0, (stages - 1) * cfg.blockK);
          Value nextStage = nextStageOf();
          Value inRange = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, nextK0, kb.cst(mm.k));
          TypeRange ifTypes;
          if (asyncCopies)
            ifTypes = tokenType;
          auto ifOp = scf::IfOp::create(b, loc, ifTypes, inRange,
                                        /*withElseRegion=*/asyncCopies);
          {
            OpBuilder::InsertionGuard ifGuard(b);
            b.setInsertionPointToStart(ifOp.thenBlock());
            kb.emitCopies(tid, bm0, bn0, nextK0, nextStage, sA, sB);
            if (asyncCopies) {
              scf::YieldOp::create(b, loc, commit());
              // Past the end: an empty group keeps the count uniform.
              b.setInsertionPointToStart(ifOp.elseBlock());
              scf::YieldOp::create(b, loc, commit());
            }
          }
          if (!groupInFlight)
            next = computeStep(computeStage(), iterAccs);
          if (asyncCopies)
            next.push_back(ifOp.getResult(0));
          scf::YieldOp::create(b, loc, next);
        });
  }
  SmallVector<Value> results =
      llvm::to_vector_of<Value>(loop.getResults().take_front(accs.size()));
  if (warpgroup) {
    // As below: the row tile overwrites the stages once every thread is
    // done with them (the last wgmma group waited for).
    if (groupInFlight)
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, /*group=*/0);
    gpu::BarrierOp::create(b, loc);
    for (auto [i, result] : llvm::enumerate(results)) {
      Value product = memref::SubViewOp::create(
          b, loc, rowTileF32,
          ArrayRef<int64_t>{int64_t(i) * accumulatorRows, 0},
          ArrayRef<int64_t>{accumulatorRows, cfg.blockN},
          ArrayRef<int64_t>{1, 1});
      if (kMajorB)
        storeWarpgroupSlice(b, loc, result, product);
      else
        nvgpu::WarpgroupMmaStoreOp::create(b, loc, result, product);
    }
    gpu::BarrierOp::create(b, loc);
    if (wholeRows) {
      // The softmax's rows, as the mma.sync kernel's (its accumulators
      // start at C's fill, which is zero here: runsOnWarpgroup).
      kb.emitRowPartMaxima(tid, bm0, rowTile, rowPartials);
      gpu::BarrierOp::create(b, loc);
      kb.emitRowPartSums(tid, bm0, rowTile, rowPartials);
      gpu::BarrierOp::create(b, loc);
      kb.emitNormalizedRows(tid, bm0, rowTile, rowPartials);
    } else {
      kb.emitRowTileEpilogue(tid, bm0, bn0, rowTile);
    }
  } else if (wholeRows) {
    // The row tile overwrites the tiles the last K step's fragments were
    // read from (its copies are complete: no later step has any).
    gpu::BarrierOp::create(b, loc);
    kb.storeToRowTile(results, wm0, wn0, rowTile);
    gpu::BarrierOp::create(b, loc);
  } else {
    kb.storeAccumulators(results, row0, col0);
  }
  gpu::TerminatorOp::create(b, loc);
  return launch;
}

/// The rest of the GPU kernel's whole-rows epilogue, after the nvgpu
/// conversion (which would take its scalar arith ops for fragment ops):
/// each thread's rows, a barrier, each thread's columns.
static void emitWholeRowsEpilogue(gpu::LaunchOp launch,
                                  const TensorCoreMatmul &mm,
                                  const MatmulTileConfig &cfg,
                                  const TensorCoreISA &isa, Value rowBuffer) {
  // The lanes' stores of accumulator pairs into the row tile: 8 bytes
  // aligned (even columns, rows of BN + 2 f32), which the conversion does
  // not say.
  launch.walk([&](vector::StoreOp store) {
    auto view = store.getBase().getDefiningOp<memref::ViewOp>();
    int64_t bytes = store.getVectorType().getNumElements() * 4;
    if (view && view.getSource() == rowBuffer && !store.getAlignment() &&
        store.getVectorType().getRank() == 1 && bytes <= 8)
      store.setAlignment(bytes);
  });
  // Built anew: the conversion's greedy driver erased what had no user yet.
  OpBuilder b(launch.getBody().back().getTerminator());
  Location loc = launch.getLoc();
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.nvgpuForm = true;
  kb.alignCopies = true;
  if (mm.batch > 1)
    kb.bindBatchRows(launch.getBlockIds().z);
  auto [rowTile, partials] = rowTileViews(kb, b, loc, rowBuffer);
  Value tid = launch.getThreadIds().x;
  Value bm0 = kb.mul(launch.getBlockIds().y, cfg.blockM);
  kb.emitRowPartMaxima(tid, bm0, rowTile, partials);
  gpu::BarrierOp::create(b, loc);
  kb.emitRowPartSums(tid, bm0, rowTile, partials);
  gpu::BarrierOp::create(b, loc);
  kb.emitNormalizedRows(tid, bm0, rowTile, partials);
}

/// The same kernel as sequential loops: blocks, then per K step every
/// thread's copies and every warp's fragments, on plain buffers. The stages
/// are indexed as on the GPU: a prologue copies steps 0 .. S-2 into stages
/// 0 .. S-2, iteration k copies step k+S-1 into stage (k+S-1) mod S (when
/// it exists) and computes on stage k mod S; a wrong stage index reads
/// another step's tiles and shows in the results. Without cp.async (see
/// buildGPUKernel) the copies are the GPU's synchronous ones (a clamped
/// chunk and step, the last round's stores guarded), and those of
/// iteration k land after its compute, as their stores do on the GPU.
static void buildCPUEmulation(OpBuilder &b, Location loc,
                              const TensorCoreMatmul &mm,
                              const MatmulTileConfig &cfg,
                              const TensorCoreISA &isa) {
  KernelBuilder kb(b, loc, mm, cfg, isa);
  kb.deferStores = !isa.asyncCopies;
  kb.applyEpilogue = true;
  kb.roundToTF32 = mm.elementType.isF32();
  Value sA = memref::AllocOp::create(
      b, loc, kb.sharedTypeA(Attribute(), mm.elementType));
  Value sB = memref::AllocOp::create(
      b, loc, kb.sharedTypeB(Attribute(), mm.elementType));
  bool warpgroup = cfg.warpgroup;
  if (kb.storesElements() && !warpgroup)
    kb.fragmentScratch = memref::AllocOp::create(
        b, loc, MemRefType::get({kMmaM, kMmaN}, mm.accumulatorType()));
  Value rowTile, rowPartials;
  if (mm.epilogue.softmax) {
    rowTile = memref::AllocOp::create(b, loc, kb.rowTileType(Attribute()));
    rowPartials =
        memref::AllocOp::create(b, loc, kb.rowPartialsType(Attribute()));
  }
  // The warpgroup's accumulators: the row tile its epilogue reads (the
  // softmax's, when there is one).
  if (warpgroup && !rowTile)
    rowTile = memref::AllocOp::create(
        b, loc,
        MemRefType::get({cfg.blockM, cfg.blockN + kWarpgroupRowTilePad},
                        mm.accumulatorType()));
  Value c0 = kb.cst(0), c1 = kb.cst(1);
  // The warpgroup has no warp fragments: the warps' loops below are empty.
  int64_t warps = warpgroup ? 0 : cfg.numWarps(), frags = kb.fragsPerWarp();
  auto blockLoops = [&](OpBuilder &, Location, Value by, ValueRange) {
    scf::ForOp::create(
        b, loc, c0, kb.cst(kb.blockCols()), c1, ValueRange{},
        [&](OpBuilder &, Location, Value bx, ValueRange) {
          Value bn0 = kb.mul(bx, cfg.blockN), bm0 = kb.mul(by, cfg.blockM);
          SmallVector<std::pair<Value, Value>> origins;
          SmallVector<Value> accs;
          for (int64_t w = 0; w < warps; ++w) {
            origins.push_back(kb.warpOrigin(kb.cst(w)));
            llvm::append_range(
                accs, kb.loadAccumulators(kb.add(bm0, origins[w].first),
                                          kb.add(bn0, origins[w].second)));
          }
          if (warpgroup)
            kb.zeroRowTile(rowTile);
          // Every thread's copies of the K step at k0 into `stage`.
          // `body` for every thread of the block, in turn.
          auto eachThread = [&](llvm::function_ref<void(Value)> body) {
            scf::ForOp::create(
                b, loc, c0, kb.cst(kb.numThreads()), c1, ValueRange{},
                [&](OpBuilder &, Location, Value tid, ValueRange) {
                  body(tid);
                  scf::YieldOp::create(b, loc);
                });
          };
          auto copyStep = [&](Value k0, Value stage) {
            eachThread([&](Value tid) {
              kb.emitCopies(tid, bm0, bn0, k0, stage, sA, sB);
              kb.storePendingCopies();
            });
          };
          int64_t stages = cfg.stages;
          for (int64_t s = 0; s + 1 < stages && s * cfg.blockK < mm.k; ++s)
            copyStep(kb.cst(s * cfg.blockK), kb.cst(s));
          AffineExpr k0Expr = getAffineSymbolExpr(0, b.getContext());
          auto loop = scf::ForOp::create(
              b, loc, c0, kb.cst(mm.k), kb.cst(cfg.blockK), accs,
              [&](OpBuilder &, Location, Value k0, ValueRange iterAccs) {
                Value nextK0 = kb.add(k0, (stages - 1) * cfg.blockK);
                Value nextStage = kb.apply(
                    (k0Expr.floorDiv(cfg.blockK) + (stages - 1)) % stages,
                    {k0});
                auto copyNextStep = [&]() {
                  if (stages == 1) {
                    copyStep(nextK0, nextStage);
                    return;
                  }
                  if (kb.deferStores) {
                    // As on the GPU: step min(k+S-1, last), always.
                    copyStep(kb.clampedNextStepK0(k0), nextStage);
                    return;
                  }
                  Value inRange = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::ult, nextK0,
                      kb.cst(mm.k));
                  scf::IfOp::create(b, loc, inRange,
                                    [&](OpBuilder &, Location) {
                                      copyStep(nextK0, nextStage);
                                      scf::YieldOp::create(b, loc);
                                    });
                };
                bool copiesAfterCompute = kb.deferStores && stages > 1;
                if (!copiesAfterCompute)
                  copyNextStep();
                Value stage =
                    kb.apply(k0Expr.floorDiv(cfg.blockK) % stages, {k0});
                SmallVector<Value> next;
                if (warpgroup)
                  kb.warpgroupStepOnCPU(stage, sA, sB, rowTile);
                for (int64_t w = 0; w < warps; ++w)
                  llvm::append_range(
                      next, kb.warpStep(origins[w].first, origins[w].second,
                                        stage, sA, sB,
                                        llvm::to_vector(iterAccs.slice(
                                            w * frags, frags))));
                if (copiesAfterCompute)
                  copyNextStep();
                scf::YieldOp::create(b, loc, next);
              });
          for (int64_t w = 0; w < warps; ++w) {
            auto results = llvm::to_vector_of<Value>(
                loop.getResults().slice(w * frags, frags));
            if (rowTile)
              kb.storeToRowTile(results, origins[w].first, origins[w].second,
                                rowTile);
            else
              kb.storeAccumulators(results, kb.add(bm0, origins[w].first),
                                   kb.add(bn0, origins[w].second));
          }
          if (warpgroup && !rowPartials)
            eachThread([&](Value tid) {
              kb.emitRowTileEpilogue(tid, bm0, bn0, rowTile);
            });
          // The GPU's barriers: every thread's row parts (maxima, then
          // sums), then every thread's columns.
          if (rowPartials) {
            eachThread([&](Value tid) {
              kb.emitRowPartMaxima(tid, bm0, rowTile, rowPartials);
            });
            eachThread([&](Value tid) {
              kb.emitRowPartSums(tid, bm0, rowTile, rowPartials);
            });
            eachThread([&](Value tid) {
              kb.emitNormalizedRows(tid, bm0, rowTile, rowPartials);
            });
          }
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  };
  if (mm.batch == 1) {
    scf::ForOp::create(b, loc, c0, kb.cst(kb.blockRows()), c1, ValueRange{},
                       blockLoops);
  } else {
    scf::ForOp::create(
        b, loc, c0, kb.cst(mm.batch), c1, ValueRange{},
        [&](OpBuilder &, Location, Value batch, ValueRange) {
          // Each batch's slices, for the blocks of its GEMM.
          std::array<Value, 3> batched = kb.getOperands();
          kb.bindBatch(batch);
          scf::ForOp::create(b, loc, c0, kb.cst(kb.blockRows()), c1,
                             ValueRange{}, blockLoops);
          kb.setOperands(batched);
          scf::YieldOp::create(b, loc);
        });
  }
  memref::DeallocOp::create(b, loc, sA);
  memref::DeallocOp::create(b, loc, sB);
  if (kb.fragmentScratch)
    memref::DeallocOp::create(b, loc, kb.fragmentScratch);
  if (rowTile)
    memref::DeallocOp::create(b, loc, rowTile);
  if (rowPartials)
    memref::DeallocOp::create(b, loc, rowPartials);
}

/// Whether `base` is C or a batched GEMM's slice of it (a subview).
static bool isCOrBatchSlice(Value base, Value c) {
  auto slice = base.getDefiningOp<memref::SubViewOp>();
  return base == c || (slice && slice.getSource() == c);
}

/// Puts each lane's store of a product row (vector.store to C after the
/// nvgpu conversion) under `row < m` (the last block row of a ragged M;
/// no guard for m = 0) and `col < n` (the last block column of a ragged N;
/// likewise). The epilogue, applied after this, then lands inside the same
/// guard. A lane stores two adjacent columns, the first even: for an odd N
/// its pair is split into two one-element stores, each under its own
/// guard.
static void guardRaggedStores(gpu::LaunchOp launch, Value c, int64_t m,
                              int64_t n) {
  SmallVector<vector::StoreOp> stores;
  launch.walk([&](vector::StoreOp store) {
    // Into C or a batch's slice of it (whose rows past M are the next
    // batch's).
    if (isCOrBatchSlice(store.getBase(), c))
      stores.push_back(store);
  });
  if (n % 2) {
    SmallVector<vector::StoreOp> split;
    for (vector::StoreOp store : stores) {
      int64_t width = store.getVectorType().getNumElements();
      if (store.getVectorType().getRank() != 1 || width == 1) {
        split.push_back(store);
        continue;
      }
      OpBuilder b(store);
      Location loc = store.getLoc();
      for (int64_t e = 0; e < width; ++e) {
        Value element = oneElement(b, loc, store.getValueToStore(), e);
        SmallVector<Value> indices(store.getIndices());
        indices.back() = arith::AddIOp::create(
            b, loc, indices.back(), arith::ConstantIndexOp::create(b, loc, e));
        split.push_back(vector::StoreOp::create(b, loc, element,
                                                store.getBase(), indices));
      }
      store.erase();
    }
    stores = std::move(split);
  }
  for (vector::StoreOp store : stores) {
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value inside;
    std::array<int64_t, 2> bounds = {m, n};
    for (auto [index, bound] : llvm::zip(store.getIndices(), bounds)) {
      if (!bound)
        continue;
      Value below = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, index,
          arith::ConstantIndexOp::create(b, loc, bound));
      inside = inside ? arith::AndIOp::create(b, loc, inside, below) : below;
    }
    auto ifOp = scf::IfOp::create(b, loc, inside, /*withElseRegion=*/false);
    store->moveBefore(ifOp.thenBlock()->getTerminator());
  }
}

/// Declares the alignment of upstream's per-lane accesses to C (the
/// accumulators' loads when C is read, the product's stores when no
/// epilogue rewrites them): a lane's vector<2xf32>/<2xi32> at an even column
/// (the m16n8 fragment layout). The conversion leaves them at the element's
/// alignment, and NVPTX then splits each into two 4-byte accesses. A
/// batched GEMM's accesses go to subviews of C.
static void alignAccumulatorAccesses(gpu::LaunchOp launch, Value c) {
  auto align = [&](auto access) {
    VectorType type = access.getVectorType();
    if (access.getAlignment() || type.getRank() != 1 ||
        !isCOrBatchSlice(access.getBase(), c))
      return;
    if (int64_t bytes =
            vectorAccessAlignment(access.getBase(), type.getNumElements()))
      access.setAlignment(bytes);
  };
  launch.walk([&](Operation *op) {
    if (auto store = dyn_cast<vector::StoreOp>(op))
      align(store);
    else if (auto load = dyn_cast<vector::LoadOp>(op))
      align(load);
  });
}

/// Upstream's nvgpu mapping of the kernel's fragments to ldmatrix +
/// mma.sync. (The copies are already cp.async groups: buildGPUKernel emits
/// them with the pipeline's waits instead of nvgpu::createAsyncGroups.)
static LogicalResult lowerKernelToNVGPU(gpu::LaunchOp launch) {
  IRRewriter rewriter(launch.getContext());
  RewritePatternSet patterns(launch.getContext());
  populatePrepareVectorToMMAPatterns(patterns, /*useNvGpu=*/true);
  if (failed(applyPatternsGreedily(launch, std::move(patterns))))
    return launch.emitError("vector-to-mma preparation did not converge");
  if (failed(convertVectorToNVVMCompatibleMMASync(rewriter, launch)))
    return launch.emitError("fragments do not map to nvgpu.mma.sync");
  return success();
}

namespace {
struct GPUTensorCoreMatmulPass
    : public opsnn::impl::GPUTensorCoreMatmulPassBase<
          GPUTensorCoreMatmulPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<TargetDescription> target = lookupTarget(targetName);
    if (!target) {
      emitError(getOperation().getLoc())
          << "unknown target '" << targetName
          << "' (known: " << getKnownTargetNames() << ")";
      return signalPassFailure();
    }
    FailureOr<TensorCoreISA> mmaISA =
        lookupTensorCoreISA(getOperation().getLoc(), targetName);
    if (failed(mmaISA))
      return signalPassFailure();
    if (failed(verifyOptions()))
      return signalPassFailure();
    // Generic contractions only when they collapse to a GEMM (matching
    // changes nothing): an epilogue erases elementwise generics, never
    // these.
    SmallVector<linalg::LinalgOp> gemms;
    getOperation().walk([&](linalg::LinalgOp op) {
      bool tf32 = allowTF32 || op->hasAttr(kTF32Attr);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (isa<linalg::MatmulOp, linalg::Conv2DNhwcHwcfOp,
              linalg::Conv2DNhwcFhwcOp>(op) ||
          (generic && succeeded(matchCollapsibleGemm(generic, tf32))))
        gemms.push_back(op);
    });
    for (linalg::LinalgOp op : gemms) {
      auto matmul = dyn_cast<linalg::MatmulOp>(op.getOperation());
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      bool tf32 = allowTF32 || op->hasAttr(kTF32Attr);
      auto match = [&](bool rowSoftmax) {
        return matmul    ? matchTensorCoreMatmul(matmul, tf32, rowSoftmax)
               : generic ? matchTensorCoreContraction(generic, tf32, rowSoftmax)
                         : matchTensorCoreConv(op, tf32, rowSoftmax);
      };
      FailureOr<TensorCoreMatmul> mm = match(fuseEpilogue && fuseSoftmax);
      if (failed(mm))
        continue;
      // A softmax over the rows needs f32 accumulators in the row tile.
      if (mm->epilogue.softmax && mm->isInt8())
        mm = match(false);
      if (!mmaISA->takesOperandType(mm->elementType)) {
        LLVM_DEBUG(llvm::dbgs() << "no " << mm->elementType << " mma.sync on "
                                << target->chip << ": generic path\n");
        continue;
      }
      // A ragged M or N needs no read of C (the rows and columns past it
      // are not there): only with C's constant fill folded into the
      // accumulators. (A K x N B whose N is not whole chunks is copied
      // element by element.)
      bool raggedMAllowed = fuseEpilogue && mm->epilogue.init;
      bool raggedNAllowed = raggedMAllowed;
      assert((mm->bTransposed || mm->bElementCopies ||
              mm->n % copyElements(mm->elementBytes()) == 0) &&
             "B's chunks along N straddle N");
      std::optional<MatmulTileConfig> cfg;
      if (runsOnWarpgroup(*mm))
        cfg = warpgroupTileConfig(*mm);
      if (!cfg && failed(tileConfig(op, *mm, *mmaISA, raggedMAllowed,
                                    raggedNAllowed, cfg)))
        return signalPassFailure();
      if (!cfg && mm->epilogue.softmax) {
        // No block covers whole rows (N > 256): the softmax stays apart.
        LLVM_DEBUG(llvm::dbgs() << "no tiles cover rows of " << mm->n
                                << ": softmax not fused\n");
        mm = match(false);
        raggedMAllowed = raggedNAllowed = fuseEpilogue && mm->epilogue.init;
        if (failed(tileConfig(op, *mm, *mmaISA, raggedMAllowed, raggedNAllowed,
                              cfg)))
          return signalPassFailure();
      }
      if (!cfg) {
        LLVM_DEBUG(llvm::dbgs() << "no tiles divide " << mm->m << "x" << mm->n
                                << "x" << mm->k << ": generic path\n");
        continue;
      }
      if (mm->batch > kMaxGridDimYZ) {
        LLVM_DEBUG(llvm::dbgs() << mm->batch
                                << " batches exceed gridDim.z: generic path\n");
        continue;
      }
      if (llvm::divideCeil(mm->m, cfg->blockM) > kMaxGridDimYZ) {
        LLVM_DEBUG(llvm::dbgs() << llvm::divideCeil(mm->m, cfg->blockM)
                                << " row blocks exceed gridDim.y: generic "
                                   "path\n");
        continue;
      }
      LLVM_DEBUG(llvm::dbgs()
                 << "tensor-core " << (mm->conv ? "conv " : "matmul ") << mm->m
                 << "x" << mm->n << "x" << mm->k << ": " << cfg->str() << "\n");
      if (!fuseEpilogue)
        mm->epilogue = {};
      Operation *kernelPoint = mm->epilogue.anchor(op);
      // A zero-padded input is read unpadded (taps outside it are zeros).
      FailureOr<ZeroPaddedInput> padding = failure();
      if (mm->conv && foldPadding &&
          succeeded(padding = matchZeroPaddedInput(*mm->conv, op,
                                                   kernelPoint))) {
        readUnpadded(*mm->conv, *padding);
        mm->a = mm->conv->input;
      }
      OpBuilder b(kernelPoint);
      if (mm->conv)
        std::tie(mm->b, mm->c) =
            buildImplicitGemmViews(b, op.getLoc(), *mm->conv);
      if (mm->collapsed)
        std::tie(mm->a, mm->b, mm->c) =
            std::tuple_cat(mm->collapsed->buildViews(b, op.getLoc()));
      mm->epilogue.buildViews(b, op.getLoc());
      if (emulateOnCPU) {
        buildCPUEmulation(b, op.getLoc(), *mm, *cfg, *mmaISA);
      } else {
        Value rowBuffer;
        gpu::LaunchOp launch =
            buildGPUKernel(b, op.getLoc(), *mm, *cfg, *mmaISA, toNVGPU,
                           wgmmaGroupInFlight, &rowBuffer);
        // The warpgroup kernel is complete: no fragments to convert, its
        // epilogue applied where it reads the row tile.
        if (!cfg->warpgroup &&
            failed(finishMmaSyncKernel(launch, *mm, *cfg, *mmaISA, rowBuffer)))
          return signalPassFailure();
      }
      if (succeeded(padding))
        moveSourceDeallocations(b, *padding);
      mm->epilogue.eraseAbsorbed(op);
      if (succeeded(padding))
        eraseUnusedBuffer(padding->padded);
    }
    // Once every kernel is past the nvgpu conversion (which would take i32
    // arith ops for fragment arithmetic).
    narrowMarkedIndexArithmetic(getOperation());
  }

  /// The mma.sync kernel's steps after buildGPUKernel: the fragments to
  /// nvgpu, the epilogue onto the lanes' stores, their guards and
  /// alignment, and the mma.sync operand types.
  LogicalResult finishMmaSyncKernel(gpu::LaunchOp launch,
                                    const TensorCoreMatmul &mm,
                                    const MatmulTileConfig &cfg,
                                    const TensorCoreISA &mmaISA,
                                    Value rowBuffer) {
    if (toNVGPU && failed(lowerKernelToNVGPU(launch)))
      return failure();
    if (mm.epilogue.softmax)
      emitWholeRowsEpilogue(launch, mm, cfg, mmaISA, rowBuffer);
    int64_t raggedM = mm.m % cfg.blockM ? mm.m : 0;
    int64_t raggedN = mm.n % cfg.blockN ? mm.n : 0;
    if (toNVGPU && (raggedM || raggedN))
      guardRaggedStores(launch, mm.c, raggedM, raggedN);
    if (failed(mm.epilogue.rewriteProductStores(launch, mm.c,
                                                mm.batch > 1 ? mm.m : 0)))
      return failure();
    if (toNVGPU)
      alignAccumulatorAccesses(launch, mm.c);
    if (toNVGPU &&
        failed(finalizeMmaOperandTypes(launch, mm.elementType, mmaISA)))
      return failure();
    return success();
  }

  /// Whether `mm` takes the warpgroup kernel: `warpgroup-mma` on, the
  /// heuristic's tiles (no fixed `tiles`), cp.async copies (the GPU form
  /// with to-nvgpu, or its CPU emulation), FP16/BF16, FP8, INT8 or TF32
  /// (f32) operands, B stored K x N (FP16/BF16) or N x K (not transposed
  /// while it is copied; FP8, INT8 and TF32 only so), either operand
  /// possibly copied element by element into the swizzled tiles; a softmax
  /// epilogue only on a fill of
  /// zero (the warpgroup's accumulators start at zero, and the softmax's
  /// rows are normalized in place, with no fill added).
  bool runsOnWarpgroup(const TensorCoreMatmul &mm) const {
    Type type = mm.elementType;
    auto zeroFill = dyn_cast_or_null<FloatAttr>(mm.epilogue.init);
    return warpgroupMma && tiles.empty() && (toNVGPU || emulateOnCPU) &&
           (type.isF16() || type.isBF16() || type.isF32() ||
            type.isInteger(8) || isTensorCoreFP8Type(type)) &&
           (!mm.stagesBAsNK() || mm.bTransposed) &&
           (!type.isF32() || mm.bTransposed) &&
           (!mm.epilogue.softmax || (zeroFill && zeroFill.getValue().isZero()));
  }

  /// The warpgroup kernel's tiles for `mm` (selectWarpgroupTiles), or
  /// nullopt (the mma.sync kernel's heuristic then decides). Any M and N:
  /// its epilogue reads C, where it does, under the same row and column
  /// guards as its stores.
  std::optional<MatmulTileConfig>
  warpgroupTileConfig(const TensorCoreMatmul &mm) const {
    MatmulTileProblem problem{mm.m, mm.n, mm.k, mm.elementBytes(),
                              mm.stagesBAsNK()};
    problem.batch = mm.batch;
    problem.raggedM = problem.raggedN = true;
    problem.anyK = mm.anyK();
    // A K x N B whose rows are not whole chunks: element copies.
    problem.anyN = mm.bElementCopies;
    problem.wholeRows = bool(mm.epilogue.softmax);
    return selectWarpgroupTiles(*lookupTarget(targetName), problem,
                                stages > 0 ? int64_t(stages) : 0);
  }

  /// The shape-independent checks of `tiles` and `stages`, reported at the
  /// function (the options are the pass's, not one op's).
  LogicalResult verifyOptions() {
    Location loc = getOperation().getLoc();
    std::string chip = lookupTarget(targetName)->chip;
    if (warpgroupMma && computeCapability(chip) != 90)
      return emitError(loc)
             << "warpgroup-mma needs a target whose chip is sm_90 (wgmma is "
                "Hopper's, sm_90a), got '"
             << targetName << "' (" << chip << ")";
    if (stages != -1 && stages < 1)
      return emitError(loc) << "stages must be at least 1 (or -1 for the "
                               "heuristic's), got "
                            << int64_t(stages);
    if (tiles.empty())
      return success();
    if (tiles.size() != 5)
      return emitError(loc) << "tiles takes five sizes BM,BN,BK,WM,WN";
    int64_t bm = tiles[0], bn = tiles[1], bk = tiles[2], wm = tiles[3],
            wn = tiles[4];
    auto bad = [&](StringRef what) {
      return emitError(loc) << "tiles=" << bm << "," << bn << "," << bk << ","
                            << wm << "," << wn << ": " << what;
    };
    if (bm <= 0 || bn <= 0 || bk <= 0 || wm <= 0 || wn <= 0)
      return bad("every size must be positive");
    if (wm % kMmaM || wn % kMmaN || bk % kMmaK)
      return bad("WM must be a multiple of 16, WN of 8 and BK of 16 "
                 "(mma.sync m16n8k16 fragments)");
    if (bm % wm || bn % wn)
      return bad("the warp tile WM x WN must divide the block tile BM x BN");
    if ((bm / wm) * (bn / wn) * kThreadsPerWarp > 1024)
      return bad("more than 1024 threads per block ((BM/WM) x (BN/WN) "
                 "warps of 32)");
    return success();
  }

  /// The heuristic's tiles (nullopt: no tiles divide the shape, the op
  /// keeps the generic path), or the fixed ones, with their stages. Fixed
  /// tiles or stages that do not fit this op are an error at the op.
  LogicalResult tileConfig(linalg::LinalgOp op, const TensorCoreMatmul &mm,
                           const TensorCoreISA &isa, bool raggedMAllowed,
                           bool raggedNAllowed,
                           std::optional<MatmulTileConfig> &result) {
    const TargetDescription target = *lookupTarget(targetName);
    int64_t limit = tensorCoreSharedMemoryLimit(target);
    int64_t elementBytes = mm.elementBytes();
    int64_t forcedStages = stages > 0 ? int64_t(stages) : 0;
    if (tiles.empty()) {
      MatmulTileProblem problem{mm.m, mm.n, mm.k, elementBytes,
                                mm.stagesBAsNK()};
      problem.batch = mm.batch;
      problem.wholeRows = bool(mm.epilogue.softmax);
      problem.raggedM = raggedMAllowed;
      problem.raggedN = raggedNAllowed;
      // A ragged N's stores are guarded element by element.
      problem.anyN = raggedNAllowed;
      problem.anyK = mm.anyK();
      result = selectMatmulTiles(target, problem, forcedStages);
      if (!result && forcedStages && selectMatmulTiles(target, problem))
        return op.emitError()
               << "stages=" << forcedStages << ": no block tile's "
               << forcedStages << " stages fit in " << limit
               << " B of shared memory";
      return success();
    }
    MatmulTileConfig cfg;
    cfg.sharedPad = kSharedPadBytes / elementBytes;
    cfg.stagesBAsNK = mm.stagesBAsNK();
    cfg.wholeRows = bool(mm.epilogue.softmax);
    cfg.blockM = tiles[0];
    cfg.blockN = tiles[1];
    cfg.blockK = tiles[2];
    cfg.warpM = tiles[3];
    cfg.warpN = tiles[4];
    if (cfg.blockK % isa.fragmentK(elementBytes))
      return op.emitError()
             << "tiles=" << cfg.blockM << "," << cfg.blockN << ","
             << cfg.blockK << ",...: BK must be a multiple of "
             << isa.fragmentK(elementBytes) << " for " << mm.elementType
             << " operands (one mma.sync fragment's K)";
    auto tilesError = [&]() {
      return op.emitError() << "tiles=" << cfg.blockM << "," << cfg.blockN
                            << "," << cfg.blockK << ",...: ";
    };
    std::string shape = std::to_string(mm.m) + "x" + std::to_string(mm.n) +
                        "x" + std::to_string(mm.k);
    if ((mm.m % cfg.blockM && !raggedMAllowed) ||
        (mm.n % cfg.blockN && !raggedNAllowed))
      return tilesError()
             << "BM and BN must divide the GEMM's M and N (" << shape
             << "): C is read (no constant fill folds)";
    assert(mm.anyK() && "K not in whole copies comes with element copies");
    // Fixed tiles may use all the shared memory a block can opt in to;
    // the heuristic's stages prefer the two-blocks-per-SM budget.
    int64_t blockLimit = maxSharedMemoryPerBlock(target);
    // Tiles that do not cover whole rows leave the softmax apart.
    if (cfg.wholeRows &&
        (cfg.blockN < mm.n || cfg.rowTileBytes() > blockLimit)) {
      result = std::nullopt;
      return success();
    }
    cfg.stages = forcedStages;
    if (!cfg.stages)
      cfg.stages =
          selectStages(cfg, mm.k, elementBytes, limit, isa.maxStages());
    if (!cfg.stages)
      cfg.stages =
          selectStages(cfg, mm.k, elementBytes, blockLimit, isa.maxStages());
    if (cfg.stages == 0 ||
        cfg.sharedBytesAllStages(elementBytes) > blockLimit)
      return op.emitError()
             << "tiles=" << cfg.blockM << "," << cfg.blockN << ","
             << cfg.blockK << ",...: " << std::max<int64_t>(cfg.stages, 1)
             << " stage(s) of " << cfg.sharedBytes(elementBytes)
             << " B exceed the " << blockLimit
             << " B of shared memory a block may use on " << target.name;
    result = cfg;
    return success();
  }
};
} // namespace

namespace {
struct GPUAlignWorkgroupBuffersPass
    : public opsnn::impl::GPUAlignWorkgroupBuffersPassBase<
          GPUAlignWorkgroupBuffersPass> {
  void runOnOperation() override {
    constexpr int64_t kAlignment = 16;
    StringRef name = LLVM::LLVMDialect::getAlignAttrName();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      for (unsigned i = 0, e = func.getNumWorkgroupAttributions(); i < e;
           ++i) {
        auto align = dyn_cast_if_present<IntegerAttr>(
            func.getWorkgroupAttributionAttr(i, name));
        if (align && align.getInt() >= kAlignment)
          continue;
        func.setWorkgroupAttributionAttr(
            i, name, IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                      kAlignment));
      }
    });
  }
};
} // namespace
