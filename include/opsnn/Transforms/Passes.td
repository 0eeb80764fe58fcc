//===- Passes.td - ops-nn passes ---------------------------*- tablegen -*-===//
//
// Every ops-nn pass, with its flag, summary, description and options.
//
//===----------------------------------------------------------------------===//

#ifndef OPSNN_TRANSFORMS_PASSES_TD
#define OPSNN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerLayoutsPass : Pass<"opsnn-lower-layouts"> {
  let summary = "Lower layout.convert to linalg.transpose / linalg.pack / linalg.unpack";
  let description = [{
    Replaces every `layout.convert` by upstream linalg ops on tensors: a
    single `linalg.transpose` between two unblocked layouts (the two
    permutations composed), `linalg.unpack` out of a blocked layout and
    `linalg.pack` into one. Dynamic sizes are computed with `tensor.dim`.

    Before:

    ```mlir
    %y = layout.convert %x from "NCHW" to "NHWC"
        : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<1x8x8x3xf32>
    %y = linalg.transpose ins(%x : tensor<1x3x8x8xf32>)
        outs(%e : tensor<1x8x8x3xf32>) permutation = [0, 2, 3, 1]
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerPrecisionPass : Pass<"opsnn-lower-precision"> {
  let summary = "Lower precision dialect ops to arith, math, tensor and linalg";
  let description = [{
    `precision.cast` becomes `arith.extf` / `arith.truncf` (round to nearest
    even); `precision.scale` and `precision.unscale_and_check` compute in f32
    and round back; the non-finite check is a `linalg.reduce` of
    `math.isfinite`; `precision.update_loss_scale` becomes scalar `arith`
    with `arith.select`, following PyTorch GradScaler.

    Before:

    ```mlir
    %h = precision.cast %x : tensor<4xf32> to tensor<4xf16>
    ```

    After:

    ```mlir
    %h = arith.truncf %x : tensor<4xf32> to tensor<4xf16>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DecomposeAggregatedOpsPass : Pass<"opsnn-decompose-aggregated-ops"> {
  let summary = "Decompose aggregated linalg ops (linalg.softmax) into generics";
  let description = [{
    Replaces every op with `linalg::AggregatedOpInterface` (upstream:
    `linalg.softmax`) by the named and generic ops its
    `decomposeOperation` builds (max-reduce, subtract-exp, sum-reduce,
    divide), which the CPU and GPU pipelines tile, vectorize and bufferize
    like any other linalg op. Both pipelines run it after layout and
    precision lowering.

    With `keep-contraction-softmax`, a softmax on tensors whose input is a
    contraction's result (through elementwise generics, such as attention's
    scale and mask) over the contraction's last dimension (attention's
    scores Q K^T, each row softmaxed over the keys) is left alone: the
    tensor-core pipelines bufferize it, and the tensor-core kernel of the
    contraction may apply it to whole rows of its block
    (`--opsnn-gpu-tensor-core-matmul`). A second run after that kernel
    decomposes the softmaxes it did not absorb.

    Softmaxes on buffers (upstream's decomposition builds tensors) are
    decomposed into the same steps on buffers: a row buffer of the maxima,
    then of the sums (memref.alloc, its dynamic sizes the input's; dealloc
    after the last step), the exponentials written into the output and
    divided there in place. One whose output is its input is an error.
    Only static softmaxes are kept: the tensor-core kernel needs static
    shapes.
  }];
  let options = [
    Option<"keepContractionSoftmax", "keep-contraction-softmax", "bool",
           /*default=*/"false",
           "Leave a softmax on tensors that normalizes a contraction's last "
           "dimension (for the tensor-core kernel to absorb)">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def GPUHostBuffersPass : Pass<"opsnn-gpu-host-buffers", "::mlir::ModuleOp"> {
  let summary = "Make host buffers visible to GPU kernels";
  let description = [{
    After bufferization, host functions pass `malloc`ed buffers and their
    arguments' memory to the kernels they launch. This pass makes every
    such buffer addressable from the GPU, for the GPU pipeline's first,
    correct-not-fast execution model:

    - every memref argument of a host function is registered with the
      driver at entry (`gpu.host_register`: page-locked and, with unified
      addressing, readable by kernels at its host address) and unregistered
      before each return;
    - every `memref.alloc` / `memref.alloca` outside kernels becomes
      `gpu.alloc host_shared` (managed memory, readable by host and device),
      every `memref.dealloc` an asynchronous `gpu.dealloc` waited for at
      once (an alloca's memory is freed before its block's terminator);
    - every constant (`memref.get_global`, host read-only data) is copied
      into managed memory where it is used, freed at the end of the block
      unless returned.

    Results are returned in managed memory: callers free them with the
    runtime's `opsnnCudaFree` (ops-nn-run does).

    With `allocations-only` only the host allocations and deallocations
    move (the arguments are registered once): a second run for what later
    passes allocate on the host side (the decomposition of a softmax that
    the tensor-core kernel left, whose row buffer its kernels read).
  }];
  let options = [
    Option<"allocationsOnly", "allocations-only", "bool", /*default=*/"false",
           "Only move host allocations to managed memory (a second run)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GPUDeviceCopiesPass
    : Pass<"opsnn-gpu-device-copies", "::mlir::func::FuncOp"> {
  let summary = "Run the host code's buffer copies as GPU kernels";
  let description = [{
    Bufferization leaves `memref.copy` in the host code where a tensor is
    inserted into a larger one: `tensor.pad` (a fill of the padded buffer,
    then a copy of the data into its interior) and `tensor.concat`. On the
    GPU pipeline such a copy would run on the host, between two kernels,
    on managed memory that the kernels before and after it use: every page
    it touches migrates to the host and back. This pass turns each
    `memref.copy` outside a kernel into a `linalg.copy` on the same
    buffers, which the pipeline then runs as a kernel like any other linalg
    op (and `--opsnn-fuse-parallel-loops` may fuse with the loop producing
    its source).

    Kept on the host: copies from a `memref.get_global` (a constant in the
    host's read-only data, which kernels cannot read: these are
    `--opsnn-gpu-host-buffers`' staging copies into managed memory) and
    copies between buffers that are not both static-shaped memrefs.

    Run after `--opsnn-gpu-host-buffers` and after the tensor-core kernels
    (`--opsnn-gpu-tensor-core-matmul` folds the padding copies of its
    convolutions), before the conversion to parallel loops.

    Before:

    ```mlir
    memref.copy %src, %view : memref<1x8x8x16xf16> to memref<1x8x8x16xf16, strided<...>>
    ```

    After:

    ```mlir
    linalg.copy ins(%src : memref<1x8x8x16xf16>) outs(%view : memref<1x8x8x16xf16, strided<...>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FuseElementwisePass : Pass<"opsnn-fuse-elementwise"> {
  let summary = "Elementwise fusion (as -linalg-fuse-elementwise-ops) that "
                "keeps computing producers out of contractions";
  let description = [{
    Runs upstream's elementwise fusion patterns with the same greedy driver
    and the same companions as `-linalg-fuse-elementwise-ops` (reshape
    folding by expansion, expand_shape bubbling, linalg canonicalization,
    constant folding of linalg ops), fusing a producer used once into its
    consumer, except that a producer whose payload computes anything
    beyond casts is not fused into a contraction (a consumer
    `linalg::isaContractionOpInterface` accepts). Fused there, the
    producer's arithmetic would run once per output column instead of once
    per element, and the contraction's payload would no longer be
    `acc + a * b`: attention's P V with softmax's division by the row sum
    inside it could not take the tensor-core kernel, and the division could
    not join the softmax's row group. Widening casts still fuse (f16
    operands extended in the payload are what the tensor-core kernel
    matches); narrowing ones only with `fuse-narrowing-casts` (the default;
    the GPU pipeline turns it off: the contraction would read f32
    activations, twice the bytes, and f32 x f16 is no tensor-core type; on
    the CPU the cast inside the contraction keeps bf16 vectors out of the
    x86 back end's reach, which cannot legalize all of them).

    A contraction rebuilt by these patterns (a matmul between reshapes
    becomes a generic contraction) keeps its `opsnn.tf32` precision
    decision, which upstream's patterns would drop.

    Transposes cost no copy: `linalg.transpose` is generalized, and the
    copy fuses into its consumer's input map (attention's Q, K and V read
    where the projections wrote them, [b, s, h, d]); a computing producer
    does not fuse into a transpose (the projection's bias stays in its own
    layout, for the GEMM's epilogue). A transpose left over, or one of a
    contraction's result (P V's context, which would otherwise make the
    output projection's K dimensions non-adjacent), folds into its
    producer's output map in a second round, the producer's zero fill
    recreated in the transposed shape:

    ```mlir
    %c = linalg.generic {indexing_maps = [..., (b, h, i, j, k) -> (b, h, i, j)]}
        ins(%p, %v) outs(%fill : tensor<2x4x16x8xf32>) ...
    %t = linalg.transpose ins(%c) outs(%e : tensor<2x16x4x8xf32>)
        permutation = [0, 2, 1, 3]
    // becomes
    %c = linalg.generic {indexing_maps = [..., (b, h, i, j, k) -> (b, i, h, j)]}
        ins(%p, %v) outs(%fill2 : tensor<2x16x4x8xf32>) ...
    ```

    A producer that reads an init other than a fill keeps the copy.

    The lower-to-linalg stage of both pipelines runs it in place of
    `-linalg-fuse-elementwise-ops`.
  }];
  let options = [
    Option<"fuseNarrowingCasts", "fuse-narrowing-casts", "bool",
           /*default=*/"true",
           "Fuse producers that narrow (f32 to f16/bf16) into contractions">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerPacksPass : Pass<"opsnn-lower-packs"> {
  let summary = "Lower linalg.pack / linalg.unpack to pad, reshape and transpose";
  let description = [{
    Rewrites every `linalg.pack` into `tensor.pad` + `tensor.expand_shape` +
    `linalg.transpose`, and every `linalg.unpack` into `linalg.transpose` +
    `tensor.collapse_shape` + `tensor.extract_slice` (upstream
    `linalg::lowerPack` / `linalg::lowerUnPack`), so that the CPU pipeline
    can bufferize and loop them like any other linalg op.

    Before:

    ```mlir
    %p = linalg.pack %x inner_dims_pos = [1] inner_tiles = [8] into %e
        : tensor<1x16x4x4xf32> -> tensor<1x2x4x4x8xf32>
    ```

    After:

    ```mlir
    %pad = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 0, 0] { ... }
        : tensor<1x16x4x4xf32> to tensor<1x16x4x4xf32>
    %r = tensor.expand_shape %pad [[0], [1, 2], [3], [4]] output_shape [1, 2, 8, 4, 4]
        : tensor<1x16x4x4xf32> into tensor<1x2x8x4x4xf32>
    %p = linalg.transpose ins(%r : tensor<1x2x8x4x4xf32>)
        outs(%e : tensor<1x2x4x4x8xf32>) permutation = [0, 1, 3, 4, 2]
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TileAndVectorizeCPUPass
    : Pass<"opsnn-tile-and-vectorize-cpu", "::mlir::func::FuncOp"> {
  let summary = "Tile linalg ops into static tiles and vectorize them for the CPU";
  let description = [{
    For every linalg op whose loop bounds are all static, picks tile sizes
    that *divide* the loop bounds (so every tile is static and no masking
    is needed), tiles with `scf.for` on tensors and vectorizes the tiles
    with upstream `linalg::vectorize`:

    - convolutions and pooling (`linalg::inferConvolutionDims`): batch and
      every output-image and filter-window dimension but the innermost get
      tile 1, so that upstream patterns decompose the 2-D tile into a 1-D
      convolution the vectorizer handles; the innermost output-image
      dimension, the channels and the filters get the largest divisor not
      above `vector-width`, the innermost window dimension stays whole;
    - other ops: the innermost parallel dimension gets the largest divisor
      not above `vector-width`, the next one out the largest not above
      `vector-width / 2`, the innermost reduction dimension the largest not
      above `vector-width`; all others 1.

    Ops with dynamic bounds, and tiles the vectorizer rejects, are left to
    scalar loops (`convert-linalg-to-loops` after bufferization): slower,
    never wrong. So are channels-first 1-D convolutions and pooling on
    bf16: upstream vectorizes them by transposing bf16 vectors, which x86
    instruction selection cannot legalize; and any op with a bf16 operand
    one of whose dimensions is not a power of two (a matmul with 9
    columns): x86 cannot widen `<9 x bfloat>` vectors either.

    Before:

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
                       outs(%c : tensor<64x48xf32>) -> tensor<64x48xf32>
    ```

    After (sketch): three `scf.for` loops over 8x16x16 tiles whose body
    reads vectors with `vector.transfer_read`, multiplies them with
    `vector.contract` and writes the tile back.
  }];
  let options = [
    Option<"vectorWidth", "vector-width", "int64_t", /*default=*/"16",
           "Largest tile along the innermost dimensions (elements)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def ExpandFP8CastsPass : Pass<"opsnn-expand-fp8-casts", "::mlir::ModuleOp"> {
  let summary = "Lower FP8 arith.extf / arith.truncf to integer and f32 arithmetic";
  let description = [{
    LLVM has no FP8 types. Conversions between `f32` / `f16` / `bf16` and
    `f8E4M3FN` / `f8E5M2` become bit manipulation on `i32`/`i8` plus a
    multiply and a `math.roundeven` for subnormals, so they vectorize on the
    CPU and run inside GPU kernels. Rounding is to nearest, ties to even;
    special values follow `llvm::APFloat` and ml_dtypes: E4M3FN has no
    infinity, so overflow, infinities and NaN become NaN (`S.1111.111`);
    E5M2 overflows to infinity. Checked bit for bit against ml_dtypes on all
    256 codes and on every tie (`test/Integration/CPU/fp8-conversions.mlir`).

    Other narrow formats (FNUZ variants, FP6, FP4) and `f64` sources call
    `_mlir_apfloat_convert` from MLIR's `libmlir_apfloat_wrappers` (host
    code only), one call per element. Run `arith-emulate-unsupported-floats`
    first so that FP8 *arithmetic* happens in f32. (Upstream's
    `convert-arith-to-apfloat` rewrites every float op, f32 included, into
    software calls, which is why the pipelines use this pass instead.)

    Before:

    ```mlir
    %w = arith.extf %q : f8E5M2 to f32
    ```

    After (sketch):

    ```mlir
    %b = arith.bitcast %q : f8E5M2 to i8
    %i = arith.extui %b : i8 to i32
    // exponent/mantissa fields rebiased into an f32 bit pattern; subnormals
    // as mantissa * 2^-16; exponent 31 -> inf or NaN; sign restored
    %w = arith.bitcast %bits : i32 to f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

def FingerprintPass : Pass<"opsnn-fingerprint"> {
  let summary = "Attach each op's fingerprint (class, FLOPs, bytes, intensity, dimension roles)";
  let description = [{
    Computes the operator fingerprint (`opsnn/Analysis/OpFingerprint.h`) of
    every op that works on tensors and attaches it as a readable
    `opsnn.fingerprint` dictionary, for tests and inspection; passes that
    decide call the analysis directly. Classes: `conv`, `contraction`,
    `pooling`, `elementwise`, `broadcast`, `reduction`, `normalization`,
    `softmax`, `gather`, `data_movement`, `unknown`. FLOPs count a
    multiply-add as 2 and casts as 0; bytes are the minimum traffic (each
    operand read once, each result written once; accumulators read too).
    A dynamic size with a constant upper bound counts as its bound (listed
    in `upper_bound_dims`); otherwise the counts are polynomials in the
    dynamic loop dimensions (`"3072*d0"`), marked `symbolic`, and no
    intensity is given.
    An op the analysis does not understand is `unknown` with a remark.

    Example:

    ```mlir
    %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x48xf32>)
                       outs(%acc : tensor<64x48xf32>) -> tensor<64x48xf32>
    ```

    gets

    ```mlir
    {opsnn.fingerprint = {bytes_read = 26624 : i64, bytes_written = 12288 : i64,
      class = "contraction", flops = 196608 : i64, intensity = 5.05...,
      roles = ["m", "n", "k"], sizes = array<i64: 64, 48, 32>}}
    ```
  }];
  let dependentDialects = [];
}

def ScoreLayoutsPass : Pass<"opsnn-score-layouts"> {
  let summary = "Attach layout locality scores of every operand under candidate layouts";
  let description = [{
    For every statically shaped linalg op, for each candidate layout of its
    output (which decides the loop that adjacent threads or vector lanes
    walk: the one indexing the output's innermost physical dimension), for
    each operand and each of the operand's candidate layouts: the fraction
    of the fetched sectors (GPU: `sector_bytes`, a warp of `warp_size`
    lanes) or cache lines (CPU: `cache_line_bytes`, `warp_size` vector
    lanes) of `target` that the op uses, and the element stride between
    adjacent lanes. Candidates come from the operand's logical dimensions:
    NCHW/NHWC for activations, FCHW/HWCF/FHWC for filters, both orders of a
    matrix. Attached as `opsnn.layout_scores`; the model is in
    docs/LayoutScore.md.

    Example (conv_2d_nchw_fchw, f32, A100): with the output in NCHW the
    lanes walk the output width, so an NCHW input scores 1.0 (stride 1) and
    an NHWC input 0.125 (stride C); with the output in NHWC the lanes walk
    the filters, so an HWCF filter scores 1.0 and an FCHW one 0.125.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose sector/line size and lane count the scores use">
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect"];
}

def FuseParallelLoopsPass : Pass<"opsnn-fuse-parallel-loops"> {
  let summary = "Fuse adjacent scf.parallel loops that can share a kernel, moving allocations out of their way";
  let description = [{
    Upstream's parallel-loop fusion (`scf::naivelyFuseParallelOps`, as
    `-scf-parallel-loop-fusion`): adjacent `scf.parallel` loops with the
    same bounds and steps become one loop when every buffer one of them
    writes is accessed by the other only at the same indices (through
    `memref.load`/`memref.store`; views that may alias are not fused, by
    the alias analysis). On the GPU's generic path each loop is a kernel,
    so a constant fill, the contraction that accumulates into it and the
    elementwise consumer over the same space become one kernel: one launch
    instead of three, each thread reading back only the elements of C it
    wrote itself (the accumulation itself still loads and stores C).

    Bufferization leaves a fill where its tensor was created, often before
    other kernels, and allocates every op's output right before the op (an
    allocation is a side effect that ends upstream's chains of adjacent
    loops). So first, a fill loop (pure index arithmetic and stores of
    values defined outside it into one buffer, or views of one, allocated
    in the block) moves down to the first op that uses its buffer or a view
    of it (nothing in between can touch a fresh buffer it does not use; a
    fill reads no memory); then static allocations (`memref.alloc`, synchronous
    `gpu.alloc` without operands), `memref.get_global` and copies of a
    constant global into a buffer allocated in the same block (the
    host-visible copy of a weight) move above the parallel loops right
    before them. Nothing those loops do can touch them; the buffers are
    allocated for the length of those loops longer.

    ```mlir
    scf.parallel (%i, %j) = ... { memref.store %zero, %c[%i, %j] }
    %d = memref.alloc() : memref<16x16xf32>
    scf.parallel (%i, %j) = ... {
      %x = memref.load %c[%i, %j]
      memref.store %y, %d[%i, %j]
    }
    ```

    becomes the allocation of `%d`, then one loop storing the zero and
    then reading it back at the same `(%i, %j)`.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def PromoteAccumulatorsPass : Pass<"opsnn-promote-accumulators"> {
  let summary = "Carry a reduction's accumulator element through its scf.for instead of loading and storing it every iteration";
  let description = [{
    linalg's loops for a reduction load and store the output element every
    iteration (`C[i, j] = C[i, j] + a * b` for every k). When an `scf.for`
    body loads one element at indices defined outside the loop, later
    stores that element at the same indices, and nothing else in the loop
    may touch the buffer (every other memory effect is on a value the alias
    analysis proves distinct; an op with unknown effects blocks it), the
    element becomes an iteration argument: loaded once before the loop,
    stored once after it. Innermost loops first, so a sum over several
    reduction loops (H and W of a pooling) carries its accumulator through
    all of them. On the GPU's generic path this takes a global load and
    store out of every reduction step (the pipelines run it after
    `--opsnn-fuse-parallel-loops`).

    ```mlir
    scf.for %k = %c0 to %c8 step %c1 {
      %acc = memref.load %c[%i, %j] : memref<4x4xf32>
      %s = arith.addf %acc, %x : f32
      memref.store %s, %c[%i, %j] : memref<4x4xf32>
    }
    ```

    becomes a load of `%c[%i, %j]` before an `scf.for` that carries the
    sum in `iter_args`, and one store of its result after it. Then a load
    of an element that an earlier store in the same block wrote, with
    nothing in between that may write the buffer, reads the stored value
    (a fused fill's zero becomes the initial value; a fused consumer reads
    the sum the loop carried), and a store that a later store of the same
    element in the same block overwrites, with nothing in between that may
    read the buffer, is erased (the fill's store, once the loop carries its
    value: the output is written once, not twice). Last, stores into a
    buffer allocated in the
    function that nothing reads (its only uses, through views, are stores
    and its deallocation: C once the consumer reads the forwarded sum) are
    erased. Code inside `gpu.launch` or `gpu.func` (the
    tensor-core and warp-reduction kernels, whose threads share memory) is
    left alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ReverseParallelLoopsPass : Pass<"opsnn-reverse-parallel-loops"> {
  let summary = "Reverse the dimensions of every scf.parallel, innermost first";
  let description = [{
    `gpu-map-parallel-loops` maps the first dimension of a parallel loop to
    `threadIdx.x` (and `blockIdx.x`). Loops from `convert-linalg-to-parallel-
    loops` list their dimensions outermost first, so adjacent threads would
    walk the outermost dimension of the output, one row apart. Reversing the
    dimensions puts the innermost, contiguous one first: adjacent threads
    touch adjacent elements (coalesced accesses). Iteration order does not
    matter to a parallel loop, so this never changes results.

    Before:

    ```mlir
    scf.parallel (%i, %j) = (%c0, %c0) to (%c7, %c33) step (%c1, %c1) {
      memref.store %v, %m[%i, %j] : memref<7x33xf32>
    }
    ```

    After:

    ```mlir
    scf.parallel (%j, %i) = (%c0, %c0) to (%c33, %c7) step (%c1, %c1) {
      memref.store %v, %m[%i, %j] : memref<7x33xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def VectorizeParallelLoopsPass
    : Pass<"opsnn-vectorize-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Widen elementwise scf.parallel loops to V consecutive "
                "elements per iteration: one vector load per operand, one "
                "vector store per result";
  let description = [{
    On the GPU's generic path each iteration of an `scf.parallel` is a
    thread, and a thread of an elementwise kernel loads and stores one
    element: 2 or 4 bytes per instruction, a quarter or an eighth of what
    `ld.global.v4` moves. Memory-bound kernels (bias, residual add,
    activations, casts, the copies of padding and concatenation) then issue
    4 to 8 times the memory instructions they need. This pass makes each
    iteration handle V consecutive elements of the loop's contiguous
    dimension: one `vector.load` per operand that moves with it, the scalar
    body once per element (`vector.extract` in, `vector.from_elements`
    out), one `vector.store` per result. The other operands (a per-channel
    bias) are still loaded once per iteration.

    A loop is widened when:

    - it is outermost, not already mapped to the GPU and reduces nothing;
    - its body has no regions but `scf.for` loops (a reduction inside the
      iteration: pooling windows, global pooling, a GEMM's K, a depthwise
      convolution's taps) whose bounds do not depend on `d`, and only loads
      may touch memory besides the stores;
    - some induction variable `d` is the last index of every store, runs
      from 0 to a constant with step 1, and every load or store that
      depends on `d` has `d` itself as its last index and no other index
      that depends on it (contiguous elements), of whole-byte elements;
    - the ops that depend on `d` are side-effect free and work on scalars.

    An inner `scf.for` that depends on `d` carries one iteration value per
    element (V accumulators) and its body is widened the same way: one
    vector load per step for an operand along `d`, the others (a GEMM's A
    element, the pixel indices) once. Each thread then does V times the
    work with 1/V of the threads; the bytes in flight stay the same.

    V is the widest power of two for which:

    - V times the narrowest element of those accesses is at most
      `vector-bytes`;
    - V divides the trip count of `d`, and at least `min-row-vectors`
      vectors remain along it (the GPU pipeline passes its block's
      x-extent, so that a row still fills the threads it maps to `d`);
    - every buffer accessed along `d` starts its rows (its offset and
      every stride but the last, a unit one) on a multiple of
      min(V x element size, 16) bytes, and its data on a boundary at
      least as large. The data of a function's buffer argument and of
      `memref.alloc` or `gpu.alloc` without an alignment is taken to start
      on 16 bytes (malloc's; ops-nn-run's and the runtime's buffers are
      64- and 256-byte aligned); an `alloca`, a global or a `memref.view`
      must show it.

    Rows that are too short for the widest vectors and `min-row-vectors`
    of them (NHWC with C = 64 or 128 in f16) first merge with the
    dimension before them, as often as needed while a third dimension
    remains (the GPU blocks' y threads), when every access that uses
    either dimension reads or writes whole rows (`[..., e, d]` last, rows
    of exactly the trip count of `d`, contiguous with the dimension before:
    an elementwise op over identical buffers, a residual add): each buffer
    is viewed through a `memref.collapse_shape` made before the loop, the
    two induction variables become one over both (no division), and the
    row is then E x T long. A per-channel operand (`[c]`), a per-row one
    (`[n, h, w]`), a view with padded rows or the index used as a value
    keep the dimensions apart.

    With `aligned`, each vector access declares that alignment, so the
    NVPTX back end emits one `ld.global.v4`/`st.global.v4` (or `.v2`) per
    access instead of splitting it into elements. The CPU emulation
    (`--opsnn-lower-to-cpu="emulate-gpu-loops"`) runs the same widening
    without it.

    Loops that do not qualify are left as they are (`-debug-only=opsnn-
    vectorize-parallel-loops` says why). `vector-bytes` other than 2, 4, 8
    or 16 and `min-row-vectors` below 1 are errors.

    Before (f16 NHWC, C = 256):

    ```mlir
    scf.parallel (%c, %w, %h, %n) = (%c0, %c0, %c0, %c0)
        to (%c256, %c56, %c56, %c8) step (%c1, %c1, %c1, %c1) {
      %x = memref.load %in[%n, %h, %w, %c] : memref<8x56x56x256xf16>
      %b = memref.load %bias[%c] : memref<256xf16>
      %y = arith.addf %x, %b : f16
      memref.store %y, %out[%n, %h, %w, %c] : memref<8x56x56x256xf16>
    }
    ```

    After (V = 8):

    ```mlir
    scf.parallel (%c, %w, %h, %n) = (%c0, %c0, %c0, %c0)
        to (%c256, %c56, %c56, %c8) step (%c8, %c1, %c1, %c1) {
      %x = vector.load %in[%n, %h, %w, %c] {alignment = 16 : i64}
          : memref<8x56x56x256xf16>, vector<8xf16>
      %b = vector.load %bias[%c] ... vector<8xf16>
      %x0 = vector.extract %x[0] : f16 from vector<8xf16>
      ... eight additions ...
      %y = vector.from_elements %y0, ..., %y7 : vector<8xf16>
      vector.store %y, %out[%n, %h, %w, %c] {alignment = 16 : i64} ...
    }
    ```
  }];
  let options = [
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Widest access of the narrowest element, in bytes (2, 4, 8 or "
           "16)">,
    Option<"minRowVectors", "min-row-vectors", "int64_t", /*default=*/"32",
           "Fewest vectors that must remain along the widened dimension">,
    Option<"aligned", "aligned", "bool", /*default=*/"false",
           "Declare each vector access aligned (up to 16 bytes), as the GPU "
           "pipeline does">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def InterchangeParallelFirstPass
    : Pass<"opsnn-interchange-parallel-first", "::mlir::func::FuncOp"> {
  let summary = "Put every linalg op's parallel loops before its reductions";
  let description = [{
    `convert-linalg-to-parallel-loops` turns only the parallel loops that
    come before the first reduction into an `scf.parallel`; the rest become
    sequential `scf.for`s inside it. A reduction over NHWC's H and W (global
    average pooling: loops n, h, w, c) thus ran on N threads, each looping
    over all of H, W and C. This pass interchanges the loops of every
    linalg op (a named one generalized first) whose reductions are not all
    innermost or whose parallel loops are not in the order its output
    indexes them: the parallel loops go first, in the output's order where
    one output indexes them all and no input is a different permutation of
    them (a transpose, which iterates as its producer, keeps its own
    order), then the reduction loops in theirs. The GPU grid covers every
    output element, and with `--opsnn-reverse-parallel-loops` adjacent
    threads write adjacent output elements (coalesced) and read adjacent
    channels. An op whose loops differ from its output's order (a depthwise
    NCHW convolution: loops n, oh, ow, c for an output n, c, oh, ow; a
    batch norm whose operands ALTE moved to NHWC while its loops stayed n,
    c, h, w) gets the output's order, so its loops line up with the ops
    before and after it, and `--opsnn-fuse-parallel-loops` makes them one
    kernel. Results are unchanged (the reductions keep their order). Ops on
    tensors or buffers; ops in that order already are left alone.

    Before (loops n, h, w, c):

    ```mlir
    linalg.generic {indexing_maps = [(n, h, w, c) -> (n, h, w, c),
                                     (n, h, w, c) -> (n, c)],
                    iterator_types = ["parallel", "reduction", "reduction",
                                      "parallel"]} ...
    ```

    After (loops n, c, h, w):

    ```mlir
    linalg.generic {indexing_maps = [(n, c, h, w) -> (n, h, w, c),
                                     (n, c, h, w) -> (n, c)],
                    iterator_types = ["parallel", "parallel", "reduction",
                                      "reduction"]} ...
    ```

    The GPU pipeline runs it right before the conversion to parallel loops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def AssignLayoutsPass : Pass<"opsnn-assign-layouts", "::mlir::func::FuncOp"> {
  let summary = "ALTE: choose every op's layout and insert the conversions";
  let description = [{
    Chooses, for every op that implements `LayoutTransformOpInterface`
    (convolutions, pooling, generics, softmax and pads of rank 3-5 upstream;
    any op another compiler teaches), the layout it computes in, rewrites
    the op into it and inserts `layout.convert` ops where producers and
    consumers disagree; back-to-back inverse conversions cancel at once.

    The seed rule is the floor: an op whose layout locality score in its
    current layout (operand bytes over bytes fetched, docs/LayoutScore.md) is
    below `score-threshold` and whose arithmetic intensity is above
    `intensity-threshold` moves to its cheapest layout. With
    `strategy=global` (default) every other op is then placed by the cost
    model over the whole function: the sum of every op's roofline estimate
    in its layout (channels-first convolutions on tensor cores pay cuDNN's
    transposes) plus every conversion the choice needs (activations between
    ops, filters that are not constants, function arguments and results
    unless `abi=free`) is minimised as a Potts labeling by alpha-expansion
    with minimum cuts (exact for two layouts; docs/ALTE.md). So a cheap op
    between two convolutions follows them instead of costing two
    conversions, and pooling stays channels-first when converting around
    it costs more than it saves. `strategy=greedy` applies the seed rule
    alone, op by op.

    `prefer` pins op classes: `conv:nhwc`, `pool:keep`, ... (classes conv,
    gemm, pool, elementwise, broadcast, reduction, norm, softmax,
    data-movement; layouts keep, auto, nchw (channels first), nhwc
    (channels last)). Dynamic sizes are costed at `dynamic-size-hint`, so a
    dynamic batch gets the decisions of the static one.

    With `abi=free` the function's activation arguments and results take
    whatever layout suits the body: their types change and each carries a
    `layout.layout` attribute naming the layout the caller must use (only
    for functions without callers in the module).

    With `annotate`, every flexible op carries `layout.decision`: the
    layout it had (`from`), the layout chosen, the reason (`seed-rule`, `prefer`, `cost-model`) and its
    own estimated seconds in each candidate layout (conversions at fixed
    boundaries included).

    Example: `--opsnn-assign-layouts="target=a100 prefer=pool:keep"`.
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose cost model decides">,
    Option<"scoreThreshold", "score-threshold", "double", /*default=*/"0.5",
           "Seed rule: move ops whose current layout score is below this (0..1)">,
    Option<"intensityThreshold", "intensity-threshold", "double",
           /*default=*/"1.0",
           "Seed rule: ... and whose FLOPs per byte are above this (>= 0)">,
    Option<"strategy", "strategy", "std::string", /*default=*/"\"global\"",
           "global (cost model over the function) or greedy (seed rule only)">,
    ListOption<"preferences", "prefer", "std::string",
               "Pinned layouts per op class, e.g. conv:nhwc,pool:keep">,
    Option<"abi", "abi", "std::string", /*default=*/"\"keep\"",
           "keep: arguments and results stay in the caller's layout; free: they may change">,
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"true",
           "Cost f32 convolutions and GEMMs at the TF32 tensor-core rate (cuDNN's default)">,
    Option<"dynamicSizeHint", "dynamic-size-hint", "int64_t", /*default=*/"1",
           "Size assumed for dynamic dimensions when costing">,
    Option<"annotate", "annotate", "bool", /*default=*/"false",
           "Attach layout.decision to every flexible op: its layout, why, and its costs">,
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
  let statistics = [
    Statistic<"numRewritten", "ops-rewritten", "Ops rewritten into another layout">,
    Statistic<"numConversions", "conversions", "layout.convert ops left after cancelling">,
  ];
}

def AssignEmbeddingLayoutsPass
    : Pass<"opsnn-assign-embedding-layouts", "::mlir::func::FuncOp"> {
  let summary = "ALTE for embedding tables: hot features row-contiguous, from an access profile";
  let description = [{
    For DLRM-style models. An embedding lookup is a `linalg.generic` whose
    payload does `tensor.extract %table[...]` on a captured 2-D table with
    one index from the looked-up id and one from `linalg.index` (the
    embedding column). A table stored column-major (`KM`: embedding
    dimension outermost, rows innermost) makes every lookup touch one
    sector per element; row-contiguous (`MK`) reads a row in
    `ceil(D * bytes / sector)` sectors.

    `access-profile` (JSON, docs/ALTE.md) gives each feature's lookups per
    call. A feature is *hot* when the bytes its lookups save in the
    row-contiguous layout, at the target's bandwidth, exceed the cost of
    converting its table (nothing for a constant table: converted at
    compile time; a function-argument table is converted once per call,
    shared by all its lookups). Hot tables are converted (`layout.convert
    from "KM" to "MK"`, placed once after the table's definition) and their
    lookups read the new layout; cold ones (and features absent from the
    profile) are kept as they are. Every lookup records its decision in
    `layout.embedding`.

    The feature of a lookup is its `opsnn.feature` string attribute, else
    the `opsnn.feature` argument attribute of its table, else `arg<N>` for
    a table passed as argument N.
  }];
  let options = [
    Option<"accessProfile", "access-profile", "std::string", /*default=*/"\"\"",
           "JSON file with each feature's lookups per call (required)">,
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose bandwidth and sector size the decision uses">,
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect"];
}

def AnalyzeRangesPass : Pass<"opsnn-analyze-ranges", "::mlir::func::FuncOp"> {
  let summary = "Value ranges of every float tensor: constants, intervals, calibration";
  let description = [{
    Records a `#precision.range` for every float op result (and function
    argument) it can bound, for the precision policy to read
    (`--opsnn-assign-precision` keeps an op in FP32 when one of its tensors
    exceeds the low type's range):

    - constants are read exactly (no attribute needed);
    - a range the user put on an argument (`{precision.range = ...}`) is
      kept and propagated;
    - with `calibration=FILE.json` (written by `ops-nn-run
      --collect-ranges`), every value whose key (`FUNC/LINE:COL#RESULT` of
      its op's location, or a NameLoc's name) is in the file gets the
      measured range, source "calibration";
    - other values get interval bounds: linalg payloads are evaluated on
      intervals (reductions iterate the accumulator once per reduced
      element, with exact extrapolation of long sums), data movement keeps
      ranges, softmax is [0, 1]. Interval bounds only bound magnitudes: the
      smallest non-zero magnitude is then unknown (recorded as 0).

    ```mlir
    %r = linalg.generic ... ins(%x : tensor<8xf32>) ... {
      ^bb0(%in: f32, %out: f32):
        %e = math.exp %in : f32
        linalg.yield %e : f32
    } -> tensor<8xf32>
    ```

    with `%x : tensor<8xf32> {precision.range = #precision.range<min = -1.0,
    max = 12.0, min_abs_nonzero = 0.5>}` gets

    ```mlir
    {precision.range_source = "interval",
     precision.ranges = [#precision.range<min = 0.36787944117144233,
                                          max = 162754.79141900392,
                                          min_abs_nonzero = 0.0>]}
    ```
  }];
  let options = [
    Option<"calibrationFile", "calibration", "std::string", /*default=*/"\"\"",
           "JSON file of measured ranges (ops-nn-run --collect-ranges)">,
  ];
  let dependentDialects = ["::mlir::opsnn::precision::PrecisionDialect"];
}

def AssignPrecisionPass : Pass<"opsnn-assign-precision", "::mlir::func::FuncOp"> {
  let summary = "Per-op precision policy: lower contractions to FP16/BF16, casts at the boundaries";
  let description = [{
    Chooses the precision every linalg op computes in and rewrites it, in
    the spirit of PyTorch autocast and TVM's ToMixedPrecision:

    - `mode=mixed-fp16|mixed-bf16`: ops on the *low* list (convolutions,
      matmuls, batch matmuls) run in the low type, accumulating in FP32
      (their result is FP32, stored in the low type right after); ops on
      the *fp32* list (softmax, normalizations, reductions, and payloads
      with exp/log/pow) stay FP32; everything else *follows* its inputs
      (low when an input already is);
    - `mode=fp16|bf16`: every op in the low type (contractions still
      accumulate in FP32);
    - `mode=fp32`: nothing changes;
    - `mode=tf32`: storage stays FP32 (TF32 is how tensor cores read FP32
      operands, not a storage type); every FP32 convolution and
      contraction gets the `opsnn.tf32` unit attribute, which lets
      `--opsnn-gpu-tensor-core-matmul` run it on TF32 tensor cores, and a
      `precision.decision` of tf32 (the first and last stay FP32 with
      `keep-first-last-fp32`).
    - `mode=int8|fp8`: post-training quantization of contractions with
      constant weights whose activation range is known (calibration or
      `--opsnn-analyze-ranges`), exactly as `--opsnn-quantize` with its
      defaults (per-channel INT8, E4M3FN); `keep-first-last-fp32` keeps the
      first and last contraction in FP32.

    Inputs of a rewritten op are cast with `precision.cast` (constants fold:
    weights are stored in the low type); the op's payload reads the low
    type, computes in FP32 (`arith.extf`) and stores the low type
    (`arith.truncf`); its results are cast back for users that were not
    rewritten, and casts that meet their inverse fold away. An NHWC
    convolution accumulating in FP32 stays the named op on low inputs with
    its FP32 output (its region extends the inputs; the tensor-core kernel
    matches it by name), its result cast down to the low type. An op keeps
    FP32 when a constant operand holds a magnitude above
    `overflow-threshold` (65504, FP16's largest; BF16 uses its own range)
    or a non-zero magnitude below `underflow-threshold` (1e-8); for
    constants, `underflow-fraction=F` relaxes the latter to "more than a
    fraction F of the non-zero values" (a few tiny weights flushing to zero
    are harmless). Ranges of other tensors come from
    `--opsnn-analyze-ranges` (intervals, calibration, user ranges).
    `keep-first-last-fp32` keeps the first and the last contraction in
    FP32. With `range-tf32`, a convolution or contraction on FP32 inputs
    that the range rules keep in FP32 runs as TF32 instead (`opsnn.tf32`
    and a tf32 decision, the range in its reason): TF32 has FP32's
    exponent range, which is what those rules protect, and FP16's 10-bit
    mantissa (the first and last contraction still stay FP32 with
    `keep-first-last-fp32`; an op's `opsnn.precision = "fp32"` too). In
    `int8` and `fp8` modes, `range-tf32` likewise runs as TF32 the f32
    convolutions and contractions quantization leaves in FP32 (attention's
    activation-by-activation matmuls, ops without a known range).
    `keep-io-types=false` lets arguments and results take the low
    type. An op's `opsnn.precision = "fp32"|"fp16"|"bf16"` attribute
    overrides everything; `lists=FILE.json` replaces the class lists:
    `{"low": ["conv", "gemm"], "fp32": ["softmax", ...]}`. Every rewritten
    op records `precision.decision = {precision, reason}`.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"mixed-fp16\"",
           "fp32, tf32, fp16, bf16, mixed-fp16, mixed-bf16, int8 or fp8">,
    Option<"keepFirstLastFP32", "keep-first-last-fp32", "bool", /*default=*/"false",
           "Keep the first and last convolution/contraction in FP32">,
    Option<"keepIOTypes", "keep-io-types", "bool", /*default=*/"true",
           "Function arguments and results keep their types">,
    Option<"listsFile", "lists", "std::string", /*default=*/"\"\"",
           "JSON file overriding the low / fp32 op-class lists">,
    Option<"overflowThreshold", "overflow-threshold", "double", /*default=*/"65504.0",
           "Constants above this magnitude keep their op in FP32 (FP16)">,
    Option<"underflowThreshold", "underflow-threshold", "double", /*default=*/"1e-8",
           "Constants with a non-zero magnitude below this keep their op in FP32">,
    Option<"underflowFraction", "underflow-fraction", "double", /*default=*/"0.0",
           "Constants: keep FP32 only when more than this fraction of their non-zero values fall below underflow-threshold (0: any one value)">,
    Option<"rangeTF32", "range-tf32", "bool", /*default=*/"false",
           "Convolutions and contractions the range rules (int8, fp8: quantization) keep in FP32 run as TF32 (FP32's range, FP16's mantissa)">,
  ];
  let dependentDialects = ["::mlir::opsnn::precision::PrecisionDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::tensor::TensorDialect"];
}

def EliminateCastsPass : Pass<"opsnn-eliminate-casts", "::mlir::func::FuncOp"> {
  let summary = "Move narrowing casts before data movement so casts meet and fold";
  let description = [{
    A narrowing `precision.cast` (to fewer bits) of the result of a data
    movement op (`tensor.pad` with a constant value, `linalg.transpose`,
    `layout.convert`, `tensor.collapse_shape`, `tensor.expand_shape`) is
    moved before it: the data moves in the narrow type (fewer bytes), and a
    cast that now meets its inverse folds (`cast(cast(x : f16 to f32) : f32
    to f16)` is `x`). Exact chains and constants fold through the cast's
    folder, which this pass also runs.

    ```mlir
    %w = precision.cast %x : tensor<1x4x8x8xf16> to tensor<1x4x8x8xf32>
    %p = tensor.pad %w low[0, 0, 1, 1] high[0, 0, 1, 1] { ... }
    %n = precision.cast %p : tensor<1x4x10x10xf32> to tensor<1x4x10x10xf16>
    ```

    becomes a pad of `%x` in f16, with no cast left.

    Casts of one value to one type in one block (the precision policy
    inserts one per low-precision consumer) merge into the first, so the
    value is converted, and stored, once.
  }];
  let dependentDialects = ["::mlir::opsnn::precision::PrecisionDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def LossScalingPass : Pass<"opsnn-loss-scaling", "::mlir::func::FuncOp"> {
  let summary = "Dynamic loss scaling of a training step (PyTorch GradScaler semantics)";
  let description = [{
    Applies dynamic loss scaling to a function that computes gradients. The
    function marks the tensor the backward pass starts from (dL/dL, usually
    ones) with the argument attribute `opsnn.loss_seed` and its gradient
    results with the result attribute `opsnn.gradient`; a function with
    neither is left alone. The pass

    - appends two arguments, the current loss scale (`tensor<f32>`,
      `opsnn.loss_scale`) and the growth tracker (`tensor<i32>`,
      `opsnn.growth_tracker`): 0-d tensors, so that `ops-nn-run` and
      artifacts feed them from `.npy` files;
    - multiplies the seed by the scale (`precision.scale`), so every
      gradient is computed scaled;
    - unscales every gradient result with one
      `precision.unscale_and_check`, which also tells whether any scaled
      gradient was infinite or NaN;
    - computes the next scale and tracker with `precision.update_loss_scale`
      and appends three results: the new scale (`opsnn.loss_scale`), the
      new tracker (`opsnn.growth_tracker`) and the found-non-finite flag
      (`tensor<i1>`, `opsnn.found_non_finite`; `.npy` dtype `bool`).

    Like GradScaler's `step()`, the caller must skip the optimizer update
    when the flag is set (the gradients are then inf/NaN) and feed the new
    scale and tracker to the next step, starting from `init-scale` and 0.
    The function records its configuration in
    `opsnn.loss_scaling = {init_scale, growth_factor, backoff_factor,
    growth_interval}`; running the pass again with the same options changes
    nothing, with other options is an error.

    Before:

    ```mlir
    func.func @step(%x: tensor<?x8xf16>, %seed: tensor<f32> {opsnn.loss_seed})
        -> (tensor<8xf16> {opsnn.gradient}) { ... uses %seed ... }
    ```

    After:

    ```mlir
    func.func @step(%x: tensor<?x8xf16>, %seed: tensor<f32> {opsnn.loss_seed},
                    %scale: tensor<f32> {opsnn.loss_scale},
                    %tracker: tensor<i32> {opsnn.growth_tracker})
        -> (tensor<8xf16> {opsnn.gradient}, tensor<f32> {opsnn.loss_scale},
            tensor<i32> {opsnn.growth_tracker},
            tensor<i1> {opsnn.found_non_finite})
        attributes {opsnn.loss_scaling = {...}} {
      %s = tensor.extract %scale[] : tensor<f32>
      %t = tensor.extract %tracker[] : tensor<i32>
      %scaled = precision.scale %seed by %s : tensor<f32>
      ... uses %scaled ...
      %g:2 = precision.unscale_and_check %grad by %s : tensor<8xf16>
      %ns, %nt = precision.update_loss_scale %s, %t, %g#1 {...}
      ... tensor.from_elements %ns, %nt, %g#1 ...
      return %g#0, %new_scale, %new_tracker, %found : ...
    }
    ```
  }];
  let options = [
    Option<"initScale", "init-scale", "double", /*default=*/"65536.0",
           "Scale the first step starts from (recorded for the caller)">,
    Option<"growthFactor", "growth-factor", "double", /*default=*/"2.0",
           "Scale multiplier after growth-interval finite steps (> 1; "
           "1.5-2 when gradients underflow)">,
    Option<"backoffFactor", "backoff-factor", "double", /*default=*/"0.5",
           "Scale multiplier after a non-finite step, in (0, 1)">,
    Option<"growthInterval", "growth-interval", "int64_t", /*default=*/"2000",
           "Consecutive finite steps before the scale grows (>= 1)">,
  ];
  let dependentDialects = ["::mlir::opsnn::precision::PrecisionDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QuantizePass : Pass<"opsnn-quantize", "::mlir::func::FuncOp"> {
  let summary = "Post-training quantization of GEMMs, convolutions and embedding tables to INT8 or FP8";
  let description = [{
    Rewrites every `linalg.matmul`, `linalg.batch_matmul`,
    `linalg.conv_2d_nchw_fchw`, `linalg.conv_2d_nhwc_hwcf` and
    `linalg.conv_2d_nhwc_fhwc` on f32 tensors whose weight (operand 1) is a
    constant, and every lookup (`tensor.extract` in a linalg payload) of a
    constant f32 table:

    - `type=int8`: weights symmetric per output channel (`per-channel`,
      scale `max|w_c| / 127`, zero point 0) into an `i8` constant; the
      activation per tensor (scale `max|x| / 127`) through `quant.qcast` to
      `!quant.uniform<i8<-127:127>:f32, S>` and `quant.scast` to `i8`; the
      same named op on `i8 x i8` accumulating in `i32`; the result back to
      f32 through `quant.scast` to a per-axis
      `!quant.uniform<i32:f32:AXIS, {s_x*s_w0, ...}>` and `quant.dcast`.
    - `type=fp8`: weights and activation in `f8E4M3FN` (`fp8-format=e5m2`:
      `f8E5M2`, the gradient format) with one scale per tensor
      (`max|x| / 448`), saturated; the named op reads FP8 and computes in
      f32 (`arith.extf`); one multiply by `s_x * s_w` after.
    - tables (both types, per tensor): stored 8-bit, and only the gathered
      elements are converted back (`arith.extf`/`arith.sitofp`, a multiply).

    The activation's range comes from `getKnownRange`: a constant, the
    `precision.ranges` --opsnn-analyze-ranges (or calibration) recorded on
    its defining op, or `precision.range` on a function argument. Without
    one the op stays FP32. `skip-first-last` keeps the first and last
    contraction FP32. Every op considered records
    `precision.decision = {precision = i8|f8E4M3FN|f8E5M2|f32, reason}`.
    The `quant` casts lower in both pipelines (--opsnn-lower-quant).

    Before:

    ```mlir
    %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x3xf32>)
                       outs(%zero : tensor<4x3xf32>) -> tensor<4x3xf32>
    ```

    After (`type=int8`, `%x` in [-2, 2]):

    ```mlir
    %q = quant.qcast %x : tensor<4x8xf32> to tensor<4x8x!quant.uniform<i8<-127:127>:f32, 0.015748>>
    %xi = quant.scast %q : tensor<4x8x!quant.uniform<...>> to tensor<4x8xi8>
    %wi = arith.constant dense<...> : tensor<8x3xi8>
    %acc = linalg.matmul ins(%xi, %wi : tensor<4x8xi8>, tensor<8x3xi8>)
                         outs(%zero32 : tensor<4x3xi32>) -> tensor<4x3xi32>
    %r = quant.scast %acc : tensor<4x3xi32> to tensor<4x3x!quant.uniform<i32:f32:1, {...}>>
    %y = quant.dcast %r : tensor<4x3x!quant.uniform<i32:f32:1, {...}>> to tensor<4x3xf32>
    ```
  }];
  let options = [
    Option<"type", "type", "std::string", /*default=*/"\"int8\"",
           "int8 or fp8">,
    Option<"perChannel", "per-channel", "bool", /*default=*/"true",
           "INT8 weights: one scale per output channel (else per tensor)">,
    Option<"skipFirstLast", "skip-first-last", "bool", /*default=*/"false",
           "Keep the first and last contraction in FP32">,
    Option<"fp8Format", "fp8-format", "std::string", /*default=*/"\"e4m3fn\"",
           "FP8 storage: e4m3fn (weights, activations) or e5m2 (gradients)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerQuantPass : Pass<"opsnn-lower-quant"> {
  let summary = "Lower quant.qcast / quant.dcast: round to nearest even, saturate";
  let description = [{
    `quant.qcast` to a per-tensor `!quant.uniform` with integer storage
    becomes a linalg.generic that divides by the scale, rounds to nearest
    even (`math.roundeven`), adds the zero point, clamps to the storage
    range in float (NaN to the lowest code) and converts: upstream
    --lower-quant-ops truncates instead, and converts before clamping (out
    of range: poison). `quant.dcast`, per-axis and other types use
    upstream's patterns; `quant.scast` pairs that meet their inverse fold.
    Both pipelines run it (`addLowerToLinalgStage`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::shape::ShapeDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PropagateLayoutsPass : Pass<"opsnn-propagate-layouts", "::mlir::func::FuncOp"> {
  let summary = "Push, cancel, hoist and fold layout conversions";
  let description = [{
    Cleans up after `--opsnn-assign-layouts` (or hand-written conversions):

    - pushes a `layout.convert` through a layout-agnostic op (elementwise
      and broadcast generics, reductions, pads, softmax) when rewriting that
      op in the other layout removes more conversions than it adds, so
      conversions meet and cancel. A conversion of a value that is free to
      convert (a constant, an empty or filled tensor) costs nothing, added
      or removed, and so, with `fold-into-generics`, does one of a value
      only read there that a generic computes (it folds into that
      generic's output map, below). Where the counts tie, the push is made
      when the conversions it removes move more bytes than those it adds: a
      conversion after a pad (or a broadcast) moves before it;
    - moves conversions through `linalg.fill` and `tensor.empty` (static and
      dynamic sizes), which then cost nothing;
    - cancels inverse pairs, composes chains and folds conversions of
      constants (weights are converted at compile time) through the
      op's folders and canonicalizations;
    - moves conversions of function arguments to the top of the function
      (out of any loop or region: once per call) and merges identical
      conversions of one value, so every reader shares one converted
      buffer; hoists other loop-invariant conversions out of loops;
    - with `fold-into-generics` (default), folds a transposing conversion
      into the indexing maps of the `linalg.generic` that consumes or
      produces it: the generic reads or writes the other layout directly
      and no copy remains (zero copy); likewise a 2-D transpose
      (`linalg.transpose` or `layout.convert`) of a `linalg.matmul`
      operand becomes a transposed indexing map of that operand, while a
      constant operand read through a transposed map (the weight of
      `x @ W^T`) is transposed at compile time and read plainly.

    Example:

    ```mlir
    %0 = layout.convert %x from "NHWC" to "NCHW" : ...
    %1 = linalg.generic ... ins(%0 ...)   // relu, in NCHW
    %2 = layout.convert %1 from "NCHW" to "NHWC" : ...
    ```

    becomes the relu applied to `%x` in NHWC, with no conversion.
  }];
  let options = [
    Option<"foldIntoGenerics", "fold-into-generics", "bool", /*default=*/"true",
           "Fold remaining transposes into consumer/producer generics' indexing maps">,
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect",
                           "::mlir::linalg::LinalgDialect"];
  let statistics = [
    Statistic<"numConversions", "conversions", "layout.convert ops left">,
  ];
}

def ReportPass : Pass<"opsnn-report", "::mlir::ModuleOp"> {
  let summary = "Write a JSON report: per-op fingerprint and roofline estimate, per-function totals";
  let description = [{
    Writes `file` (`-` for standard output) with, for every function and
    every op that works on tensors: its class, FLOPs, bytes read and
    written, arithmetic intensity, the precision it computes in (from its
    element types), whether tensor cores apply, the layout scores of its
    operands in their current layouts and the memory efficiency they add up
    to, and the cost model's roofline estimate on `target` at that
    efficiency; then per-function totals. Ops with
    symbolic counts (dynamic sizes) have their polynomials and no estimate;
    unknown ops are listed with the reason. The chosen layout and precision
    join the report when those passes exist. The schema
    (`"schema": "opsnn-report", "version": 1`) is documented in
    docs/Report.md. The IR is not changed. The file is written only when
    the pass succeeds: never a partial report.

    Example: `ops-nn-opt model.mlir --opsnn-report="file=report.json target=h100"`.
  }];
  let options = [
    Option<"file", "file", "std::string", /*default=*/"\"-\"",
           "Where to write the report (- for standard output)">,
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose roofline the estimates use (see #opsnn.target)">
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect"];
}

def GPURequireBlockSizePass
    : Pass<"opsnn-gpu-require-block-size", "::mlir::gpu::GPUModuleOp"> {
  let summary = "State an outlined kernel's block size as exact "
                "(nvvm.reqntid) instead of an upper bound (nvvm.maxntid)";
  let description = [{
    `gpu-kernel-outlining` records the constant block size of the launch a
    kernel comes from (`known_block_size`), and `convert-gpu-to-nvvm` makes
    it `nvvm.maxntid`: PTX `.maxntid`, the most threads a block may have.
    That launch is the kernel's only one and uses exactly that size, so
    this pass, run on the NVVM kernels (`llvm.func` with `nvvm.kernel`),
    replaces `nvvm.maxntid` by `nvvm.reqntid` (`.reqntid`: exactly that
    many threads). ptxas then knows the block's shape; under `.maxntid` its
    occupancy heuristic spilled registers to fit more blocks than a
    block's 256 threads need (a depthwise convolution reading its padding
    through bounds checks: 48 registers and 4 bytes spilled under
    `.maxntid 32, 8, 1`, 40 registers and none under `.reqntid`). Kernels
    without a known size, or with `nvvm.reqntid` already, are left alone.
    `--opsnn-lower-to-nvvm` runs it after the conversion to NVVM.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def GPUAlignWorkgroupBuffersPass
    : Pass<"opsnn-gpu-align-workgroup-buffers", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align every workgroup (shared-memory) buffer of outlined kernels to 16 bytes";
  let description = [{
    `cp.async` with 16-byte copies and `ldmatrix` need 16-byte aligned
    shared-memory rows; kernel outlining drops attribute dictionaries, and
    without an `llvm.align` the NVVM lowering declares the buffers with their
    element alignment (`.shared .align 2`). This pass sets `llvm.align = 16`
    (or keeps a larger one) on every workgroup attribution of every
    `gpu.func`, so the tensor-core kernels' tiles are declared
    `.shared .align 16`. `--opsnn-lower-to-nvvm="tensor-cores=true"` runs it
    after outlining.

    Before: `gpu.func @k() workgroup(%a : memref<128x40xf16, 3>) kernel`
    After: `gpu.func @k() workgroup(%a : memref<128x40xf16, 3> {llvm.align = 16 : i64}) kernel`
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertConvsToNHWCPass
    : Pass<"opsnn-convert-convs-to-nhwc", "::mlir::func::FuncOp"> {
  let summary = "Run NCHW convolutions that fit the tensor-core kernel in "
                "NHWC, between layout conversions";
  let description = [{
    The tensor-core kernel (`--opsnn-gpu-tensor-core-matmul`) runs
    convolutions as implicit GEMMs over NHWC inputs: a 16-byte copy of an
    im2col row is 8 (f16/bf16), 4 (TF32) or 16 (i8) channels of one pixel.
    A `linalg.conv_2d_nchw_fchw` (the layout frameworks export, and what
    ALTE keeps where it costs a channels-first convolution as the
    transposes cuDNN would run around an NHWC kernel) would otherwise run
    on the generic path, without tensor cores. This pass, on tensors before
    the layouts are lowered, does what that cost assumes: it rewrites such
    a convolution into `linalg.conv_2d_nhwc_hwcf` through ALTE's
    `LayoutTransformOpInterface` (`layout.convert` of the input, the
    filter and the accumulator in, of the result out), so that
    `--opsnn-propagate-layouts` then cancels the conversions between
    consecutive convolutions, pushes them through the elementwise ops in
    between, folds the filter's (a constant: at compile time) and the
    accumulator's (a fill: re-created in NHWC), and
    `--opsnn-lower-layouts` makes the rest transposes.

    Example (the filter a constant, F = 64, C = 32):

    ```mlir
    %y = linalg.conv_2d_nchw_fchw {...}
        ins(%x, %w : tensor<1x32x10x10xf16>, tensor<64x32x3x3xf16>)
        outs(%acc : tensor<1x64x8x8xf32>) -> tensor<1x64x8x8xf32>
    ```

    becomes

    ```mlir
    %xc = layout.convert %x from "NCHW" to "NHWC"
        : tensor<1x32x10x10xf16> -> tensor<1x10x10x32xf16>
    %wc = layout.convert %w from "FCHW" to "HWCF"
        : tensor<64x32x3x3xf16> -> tensor<3x3x32x64xf16>
    %ac = layout.convert %acc from "NCHW" to "NHWC"
        : tensor<1x64x8x8xf32> -> tensor<1x8x8x64xf32>
    %c = linalg.conv_2d_nhwc_hwcf {...} ins(%xc, %wc : ...) outs(%ac : ...)
    %y = layout.convert %c from "NHWC" to "NCHW"
        : tensor<1x8x8x64xf32> -> tensor<1x64x8x8xf32>
    ```

    Only convolutions the kernel then takes are rewritten: static shapes,
    input and filter of one type (f16, bf16, i8, or f32 with `allow-tf32`
    or the `opsnn.tf32` attribute) and its accumulator (f32, i32) as the
    output, and C a multiple of the 16-byte copy or F a multiple of 8 (so
    that `--opsnn-pad-conv-channels` pads C); for a `target` on sm_75
    (Turing), f16 and i8 alone. An unknown `target` is an error. An INT8 filter becomes FHWC
    rather than HWCF (the kernel copies an F x K filter by cp.async, a
    K x F one byte by byte). Once any is rewritten the function goes
    channels-last: a depthwise convolution in the importer's grouped form
    (`conv_2d_ngchw_gfchw` with one input and one output channel per group,
    between reshapes) and a static `depthwise_conv_2d_nchw_chw` (what the
    importer emits for one filter per channel) become
    `depthwise_conv_2d_nhwc_hwc` between conversions (the fill re-created
    in NHWC). Then the conversions are
    cancelled and pushed through layout-agnostic ops as
    `--opsnn-propagate-layouts` does, and the other convolutions and
    pooling ops (depthwise, grouped, other types: the generic path) move
    to the layout of the conversions around them where that removes some,
    by the same count: a max pool between two rewritten convolutions does
    not sit between two transposes. Others keep their layout.
    `--opsnn-lower-to-nvvm="tensor-cores=true"` and the CPU emulation
    (`--opsnn-lower-to-cpu="emulate-tensor-core-matmul=..."`) run it, then
    `--opsnn-propagate-layouts`, first.
  }];
  let options = [
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "Rewrite f32 convolutions too: the tensor-core kernel runs them "
           "as TF32">,
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose tensor cores the kernel will use: on sm_75 (t4) "
           "only f16 and i8 convolutions are rewritten">,
  ];
  let dependentDialects = ["::mlir::opsnn::layout::LayoutDialect"];
  let statistics = [
    Statistic<"numConverted", "convs-converted",
              "NCHW convolutions rewritten into NHWC">,
    Statistic<"numDepthwise", "depthwise-converted",
              "Grouped depthwise convolutions rewritten into NHWC">,
    Statistic<"numFollowed", "ops-followed",
              "Other convolutions and pooling ops moved to their neighbours' "
              "layout">,
  ];
}

def ImplicitPaddingPass
    : Pass<"opsnn-implicit-padding", "::mlir::func::FuncOp"> {
  let summary = "Read constant-padded operands through bounds checks instead "
                "of building the padded tensor";
  let description = [{
    A `tensor.pad` with a constant padding value costs the generic GPU path
    two kernels once bufferized: a fill of the whole padded buffer and a
    copy of the source into its interior, so the data crosses memory three
    times before the consumer (a pooling, a depthwise convolution) reads it.
    This pass rewrites every linalg op on tensors that reads such a pad (a
    named op generalized first) to read the pad's source directly: in the
    payload, the position the operand's indexing map gives, less the low
    padding, is checked against the source's bounds in every padded
    dimension; inside, the element is read with `tensor.extract`, outside
    the padding value is taken (the read is clamped into the source in
    each padded dimension, so no load leaves the buffer):

    ```mlir
    %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {... yield %zero}
    %y = linalg.depthwise_conv_2d_nhwc_hwc ins(%p, %w) outs(%acc)
    ```

    becomes a `linalg.generic` over the convolution's loops with inputs
    `%w` only, whose payload starts with

    ```mlir
    %h = (oh + kh) - 1, %v = (ow + kw) - 1
    %in = 0 <= %h < dim(%x, 1) and 0 <= %v < dim(%x, 2)
    %e = tensor.extract %x[%n, clamp(%h, 0, dim(%x, 1) - 1),
                              clamp(%v, 0, dim(%x, 2) - 1), %c]
    %a = arith.select %in, %e, %zero
    ```

    Any indexing map (strides, dilations), dynamic sizes of the dimensions
    not padded, dynamic low padding, and any constant padding value (-inf
    before a max pooling) are taken; a padded dimension must have a static
    size above 0 (a source empty along it has no element to read). The
    pad stays while other ops read it. An op that reads the pad
    through another permutation of its loops than its output's (a layout
    conversion) keeps it: `--opsnn-gpu-tiled-transpose` stages such an
    operand through shared memory, a load in the payload it cannot. With `keep-tensor-core-ops`,
    the ops the tensor-core kernel takes (`linalg.conv_2d_nhwc_hwcf`,
    `conv_2d_nhwc_fhwc`, contractions) keep their pad: that kernel folds
    a zero padding into its own copies. The GPU pipeline
    (`--opsnn-lower-to-nvvm`, option `implicit-padding`, default on) and
    its CPU emulation (`--opsnn-lower-to-cpu="emulate-gpu-loops"`) run it
    on tensors before bufferization; the CPU pipeline does not (its
    vectorizer wants the named ops).
  }];
  let options = [
    Option<"keepTensorCoreOps", "keep-tensor-core-ops", "bool",
           /*default=*/"false",
           "Leave the pads of ops the tensor-core kernel takes">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PadConvChannelsPass
    : Pass<"opsnn-pad-conv-channels", "::mlir::func::FuncOp"> {
  let summary = "Pad NHWC convolutions' channels to the tensor-core copy "
                "granule (C = 3 images)";
  let description = [{
    The tensor-core kernel (`--opsnn-gpu-tensor-core-matmul`) reads the
    im2col rows of an NHWC convolution in 16-byte copies, each within one
    filter tap, when C is a multiple of 8 FP16/BF16, 4 TF32 or 16 INT8
    elements; a network's first convolution (3 image channels: ResNet's
    7x7 stem, ViT's patch embedding) is not, and the kernel copies its
    rows element by element instead (2-byte loads, each with its own
    index arithmetic). This pass, on
    tensors before bufferization, appends zero channels to such a
    `linalg.conv_2d_nhwc_hwcf` or `linalg.conv_2d_nhwc_fhwc`: its input
    and filter get C rounded up to that granule (K = KH * KW * Cpad). The
    products of the extra channels are zero, so the result is unchanged;
    the price is the padded MACs (8/3 of them for C = 3 in FP16) and the
    padded input's fill, against the element copies' loads. Which wins is
    a GPU measurement (`bench/gpu/cases.py`: r50_stem_7x7_s2 against
    r50_stem_7x7_s2_unpadded); the pipelines pad by default
    (`tensor-core-pad-channels`).

    - A constant filter (a dense `arith.constant`) is padded here; any
      other filter, and the input, by a zero `tensor.pad` (after
      bufferization a fill and a copy, each one small kernel).
    - An input that is already a zero `tensor.pad` of H and W (the
      convolution's own padding) is padded once, both ways: one buffer.
      The tensor-core kernel then reads it as it is (the padding is no
      longer implicit).
    - Only convolutions the tensor-core kernel then takes: static shapes,
      input and filter of one type (f16, bf16, i8, or f32 with
      `allow-tf32` or the `opsnn.tf32` attribute; f16 alone for a
      `target` on sm_75, f16 and i8), an f32 (i32) output and F a multiple
      of 8.
      Others, and those whose C is already a multiple, are left alone. An
      unknown `target` is an error.

    `--opsnn-lower-to-nvvm="tensor-cores=true"` and the CPU emulation
    (`--opsnn-lower-to-cpu="emulate-tensor-core-matmul=..."`) run it before
    bufferization, with their TF32 setting, unless
    `tensor-core-pad-channels=false` (`emulate-tensor-core-pad-channels=
    false`).
  }];
  let options = [
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "Pad f32 convolutions too (to 4 channels): the tensor-core "
           "kernel runs them as TF32">,
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose tensor cores the kernel will use: on sm_75 (t4) "
           "only f16 and i8 convolutions are padded">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseSiblingContractionsPass
    : Pass<"opsnn-fuse-sibling-contractions", "::mlir::func::FuncOp"> {
  let summary = "One contraction for the contractions that read the same "
                "input with constant weights (Q, K and V projections)";
  let description = [{
    A Transformer layer projects its normalized input three times, into Q,
    K and V: three GEMMs that read the same A with weights of one shape,
    three kernel launches that each read A. This pass makes them one
    contraction whose weights are the three stacked along a new parallel
    loop `g` placed before the first N dimension (of C and of the
    weights), so that N is three times as wide, and A is read once:

    ```mlir
    %q = linalg.matmul ins(%a, %wq : tensor<16x32xf16>, tensor<32x32xf16>)
                       outs(%zero0 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %k = linalg.matmul ins(%a, %wk : ...) outs(%zero1 : ...)
    %v = linalg.matmul ins(%a, %wv : ...) outs(%zero2 : ...)
    ```

    becomes (`%w` the constant 32x3x32 stack of `%wq`, `%wk`, `%wv`)

    ```mlir
    %qkv = linalg.generic {indexing_maps = [(m, n, k, g) -> (m, k),
                                            (m, n, k, g) -> (k, g, n),
                                            (m, n, k, g) -> (m, g, n)], ...}
        ins(%a, %w : tensor<16x32xf16>, tensor<32x3x32xf16>)
        outs(%zero : tensor<16x3x32xf32>) { <the matmul's payload> }
    %q = tensor.extract_slice %qkv[0, 0, 0] [16, 1, 32] [1, 1, 1]
        : tensor<16x3x32xf32> to tensor<16x32xf32>
    %k = tensor.extract_slice %qkv[0, 1, 0] ...
    %v = tensor.extract_slice %qkv[0, 2, 0] ...
    ```

    Weights that differ in that dimension's extent only (grouped-query
    attention: K and V with fewer heads than Q) are concatenated along it
    instead, with no new loop; each old result is then a range
    `[.., o : o + n, ..]` of the new one.

    Siblings are linalg contractions (named or generic, with a reduction
    loop, and indexing maps that are projected permutations: GEMMs and
    batched GEMMs, not convolutions, whose fused form the convolution
    kernel would not take) on static tensors in one block, with the same
    indexing maps, iterator types, payload, types and discardable
    attributes (`opsnn.tf32`; the `precision.*` annotations of the
    precision analysis may differ), one input the same
    non-constant value, the other a dense constant (byte-sized elements)
    that indexes a dimension of the result the shared input does not, and
    inits that are fills of one value (`linalg.fill`, or a `linalg.generic`
    without inputs yielding a value defined outside it). Anything else is left
    alone; so are contractions without a sibling.

    With `merge-consumers` (the default), elementwise `linalg.generic`s
    that do the same thing to every unit slice of one fused result (the
    projections' bias adds and casts to f16; slices of other tensors, such
    as an ONNX Split's parts, are left alone) merge the same way: one
    generic with a loop more over the whole tensor, their constant inputs
    that differ (the biases) stacked along it, the inputs they share kept.
    Generics on ranges that cover a dimension one after the other merge
    into one whose loop over that dimension is as long as all of them, the
    constants that differ concatenated along it (an input they share must
    not be read along it).
    The tensor-core kernel (`--opsnn-gpu-tensor-core-matmul`) then takes
    the fused contraction with its merged consumers as its epilogue, and
    the consumers of Q, K and V read strided views of the merged output.

    `--opsnn-lower-to-nvvm="tensor-cores=true"` and the CPU emulation of
    the tensor-core kernel run it before bufferization unless
    `tensor-core-fuse-siblings=false` (`emulate-tensor-core-fuse-siblings`).
  }];
  let options = [
    Option<"mergeConsumers", "merge-consumers", "bool", /*default=*/"true",
           "Also merge the elementwise generics that consume every unit "
           "slice of a fused result alike">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def TransposeByteWeightsPass
    : Pass<"opsnn-transpose-byte-weights", "::mlir::func::FuncOp"> {
  let summary = "Store constant 8-bit (INT8, FP8) GEMM weights N x K for the "
                "tensor-core kernel";
  let description = [{
    The tensor-core kernel (`--opsnn-gpu-tensor-core-matmul`) reads an
    8-bit B (INT8, FP8) as N x K fragments: mma.sync's 8-bit operands have no
    `ldmatrix.trans`. A K x N B is therefore transposed while it is copied
    into shared memory, in 4 x 4 byte blocks (four 4-byte loads, byte
    permutes, four 4-byte shared stores), where an N x K one is a cp.async
    (no registers, no permutes). Quantized weights are
    constants (what `--opsnn-quantize` makes of a GEMM's weights), so this
    pass transposes them once, at compile time: a `linalg.matmul` on
    tensors of i8 x i8 -> i32 (or f8E4M3FN / f8E5M2 x the same -> f32)
    whose B is a dense `arith.constant` K x N becomes the `linalg.generic`
    contraction

    ```mlir
    %r = linalg.generic {indexing_maps = [(m, n, k) -> (m, k),
                                          (m, n, k) -> (n, k),
                                          (m, n, k) -> (m, n)], ...}
        ins(%a, %bt : tensor<MxKxi8>, tensor<NxKxi8>) outs(%c : ...) {
      acc + extsi(a) * extsi(b)       // FP8: acc + extf(a) * extf(b)
    }
    ```

    with `%bt` the transposed constant; the kernel's contraction matcher
    takes it as a GEMM whose weight is stored [out, in]. The matmul's
    discardable attributes (precision decisions) carry over. Matmuls with
    other types, user-defined maps, a B that is not a dense constant
    (resources), or on buffers are left alone.

    A `linalg.generic` of two 8-bit inputs with reduction dimensions (a
    contraction, e.g. the importer's `x[b, s, k] * w[k, h, e]`) whose
    input 1 is a dense constant read through a map of dimensions with a
    reduction dimension before a parallel one gets the constant permuted
    to its parallel dimensions first, then its reduction ones (each group
    in its order: `w[h, e, k]`), and the map likewise; the op is otherwise
    unchanged. A `linalg.conv_2d_nhwc_hwcf` of 8-bit operands whose filter
    is a dense constant becomes the `linalg.conv_2d_nhwc_fhwc` of the
    filter permuted to FHWC (same strides, dilations and discardable
    attributes). FP8 and INT8 weights stored N x K are also what Hopper's
    `wgmma` reads (`warpgroup-mma`: 8-bit operands are K-major only).
    `--opsnn-lower-to-nvvm="tensor-cores=true"` and the CPU emulation run it
    before bufferization. (Before FP8 it was `--opsnn-transpose-int8-weights`.)
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def GPUTensorCoreMatmulPass
    : Pass<"opsnn-gpu-tensor-core-matmul", "::mlir::func::FuncOp"> {
  let summary = "Map f16/bf16/tf32 -> f32 and i8 -> i32 linalg.matmul and "
                "NHWC convolution on buffers to a tensor-core kernel";
  let description = [{
    The tensor-core path of the GPU pipeline (`--opsnn-lower-to-nvvm=
    "tensor-cores=true"` runs it after bufferization). Every `linalg.matmul`
    on static, identity-layout buffers with f16 or bf16 inputs (both of one
    type) and an f32 accumulator (M a multiple of 16, N of 8, K of 16
    bytes; ragged M, N and K: see below) becomes one kernel; other ops are left to
    the generic path. So does a `linalg.generic` contraction without batch
    dimensions whose payload is `acc + ext(a) * ext(b)` (extf/extsi or no
    cast) and whose buffers are matrices once collapsed: the M loops
    leading A and C, the N loops trailing B and C (or leading B: a weight
    stored [out, in], staged N x K), the K loops trailing A, each group
    adjacent and in one order everywhere (the importer's projection
    x[b, s, k] * w[k, h, e] -> [b, s, h, e] is M = b*s, N = h*e); the
    kernel reads `memref.collapse_shape` views (no copies) and its
    epilogue takes the consumers of C over those groups. A contraction's A
    and B may be strided views with static strides and offset (Q, K and V
    as slices of the output that `--opsnn-fuse-sibling-contractions` made
    one GEMM of; cp.async when offset and rows are 16 bytes apart); its C
    has the identity layout. Batch loops
    leading every operand in one order make a batch of GEMMs (attention's
    Q K^T and P V): gridDim.z runs over the batches, each block on
    rank-reduced subviews of its batch; only C's fill folds into them. f32 inputs are mapped too, as TF32 (mma.sync m16n8k8
    .tf32 on fragments rounded to 10 bits of mantissa by cvt.rna.tf32.f32,
    as cuBLAS rounds; the CPU emulation rounds alike), with `allow-tf32` or on
    ops with the `opsnn.tf32` unit attribute (set by
    `--opsnn-assign-precision="mode=tf32"`). FP16 fragments go through
    upstream's ldmatrix/mma.sync conversion; BF16 tiles are read as f16
    fragments (same bits and register layout: upstream converts no bf16
    fragments) and their mma.sync become `nvvm.mma.sync` .bf16; TF32
    A fragments come by ldmatrix (each f32 as two 16-bit halves), B
    fragments by plain 32-bit shared loads, both rounded to TF32 and
    feeding mma.sync marked `tf32Enabled`. i8 x i8 -> i32
    matmuls and convolutions run on upstream's m16n8k32 .s8 mma.sync
    (saturating); their B tile is staged N x K (8-bit fragments have no
    `ldmatrix.trans`): an FHWC filter by cp.async as it is, a K x N matrix
    transposed while it is copied (4 x 4 byte blocks: 4-byte loads along
    N, byte permutes, 4-byte stores along K); BK is a
    multiple of 32; the i32 fill and the consumers (dequantization,
    requantization) fold as they do for f32 accumulators. A copy is 16 bytes in every case (8 f16/bf16, 4 f32 or
    16 i8 elements), rows are padded by 16 bytes.

    M need not be a multiple of 16 or of BM when C's constant fill folds
    into the accumulators (C is then never read): the grid has
    ceil(M / BM) block rows, the A copies of rows past M read row M-1
    (`affine.min`; those accumulator rows only feed rows past M) and every
    store of a product row is guarded by `row < M` (on the GPU each lane's
    row store after the nvgpu conversion, with the fused epilogue inside
    the guard). Likewise N need not be a multiple of BN (still one of 8,
    and of 16 bytes when B is K x N): ceil(N / BN) block columns, B's
    copies past N re-read its last chunk (row N-1 of an N x K B), and the
    stores are also guarded by `col < N` (ResNet-50's classifier, N = 1000,
    takes 32x16 blocks instead of 16x8). The heuristic weighs such tiles
    with the exact ones when they pad M or N by at most an eighth. K need
    not be a multiple of BK, whether C is read or not: the K loop runs
    ceil(K / BK) steps and the last step's copies past K write zeros to A's
    and B's tiles alike (cp.async with 0 source bytes, the hardware's zero
    fill; a select for the INT8 transposed copies), so the padding adds
    nothing (C = 8 convolutions, K = 72; attention with a head dimension
    of 8). An operand whose rows do not start 16 bytes apart or are not
    whole 16-byte copies (attention's 17 x 17 probabilities, K or N not a
    multiple of 8 f16 / 4 f32 / 16 i8) is copied element by element: plain
    2-, 4- or 1-byte loads, each under its bounds check (zeros past the
    matrix's columns), and shared stores, while the other operand keeps
    its cp.async; K may then be any size. Where C's fill folds N may be any
    size too: B's columns past N are zeros (or its rows past N re-read),
    and the stores are guarded element by element (on the GPU an odd N
    splits each lane's pair of columns into two stores; the CPU form
    stores through a fragment buffer). ViT attention over 17 (or 197)
    tokens and a 10-class head run on tensor cores this way. Forced
    `tiles` need not divide such an M or N, nor K. Tile
    sizes and pipeline stages come from `selectMatmulTiles`
    (include/opsnn/Target/TensorCoreTiles.h documents the rules) for
    `target` and the problem shape, or from `tiles` and `stages`; a GEMM
    with more than 65535 blocks of rows (the launch's y dimension) keeps the
    generic path. Forced `tiles` must be positive, WM/WN/BK multiples of
    16/8/16, divide BM x BN into at most 32 warps and divide every matched
    GEMM's M and N where C is read (K: whole 16-byte copies); all stages must fit in the shared memory a block of
    `target` can opt in to (A100 163 KiB, H100/H200 227 KiB; the
    heuristic's own budget keeps two blocks per SM: A100 81 KiB, H100/H200
    113 KiB, T4/V100 48 KiB); `stages` must be at least 1. A violation is
    an error naming the constraint (at the op when it depends on its
    shape). Tiles of up to 48 KiB are static shared memory (workgroup
    attributions); past 48 KiB they are `memref.view`s of
    `gpu.dynamic_shared_memory` (A, then B) and the `gpu.launch` carries
    `dynamic_shared_memory_size`; the runtime's `mgpuLaunchKernel` raises
    the kernel's CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES before such
    a launch.

    `linalg.conv_2d_nhwc_hwcf` and `linalg.conv_2d_nhwc_fhwc` (f16 input and
    filter, f32 output, static identity-layout buffers, any strides and
    dilations, no padding: padding is a separate op before the convolution)
    run on the same kernel as an implicit GEMM with M = N*OH*OW, N = F and
    K = KH*KW*C (ragged M, N and K as above; an HWCF filter whose F is not
    whole 16-byte copies, such as F = 5, is copied element by element,
    like a matmul's B).
    The output is viewed as the row-major M x F matrix and the filter as
    K x F (HWCF) or F x K (FHWC, staged as a BN x BK tile and read without
    the transpose) through `memref.collapse_shape`; no im2col buffer is
    built: each 16-byte copy of the A tile reads 8 channels
    `input[n, oh*sh + kh*dh, ow*sw + kw*dw, c : c+8]`, with (n, oh, ow) and
    (kh, kw, c) split from the row m and the column k by floordiv/mod
    (after the nvgpu conversion, in 32-bit unsigned arithmetic where m's
    and k's bounds prove it exact), and still becomes a cp.async
    (C % 8 == 0 keeps a chunk inside one filter tap and 16-byte aligned). A C that is not a multiple
    of 8 (4 f32, 16 i8; an image's 3 channels, when
    `--opsnn-pad-conv-channels` did not pad it) makes A's elements copies
    of their own: element (m, k) is a plain load of `input[n, oh*sh +
    kh*dh, ow*sw + kw*dw, c]` under its bounds checks (k < K, and H and W
    with an implicit padding), zeros elsewhere; K = KH*KW*C stays
    unpadded. The filter is a plain matrix: an FHWC filter's rows (K long)
    are copied element by element only when K is not a multiple of 8 either
    (a 2x2 filter of 4 channels keeps its cp.async), an HWCF filter's (F
    long) when F is not.

    With `fold-padding` (default) a convolution whose input is a
    zero-padded copy of another buffer (what `tensor.pad` bufferizes to:
    a zero `linalg.fill`/`linalg.map` of a fresh buffer, a `memref.subview`
    of its H x W interior and a `memref.copy` of the data into it) reads
    that buffer unpadded: `h = oh*sh + kh*dh - top`, `w = ... - left`, and a
    chunk whose (h, w) falls outside the data is a cp.async of 0 source
    bytes (the hardware zero-fills its 16 bytes; the indices are clamped to
    0, so no address outside the buffer is formed). The padded buffer, its
    fill and the copy go (on the GPU pipeline the copy ran on the host,
    between kernels, on managed memory). Only when nothing else uses the
    padded buffer and nothing writes the data from the copy to the kernel;
    the data's deallocation moves after the kernel.

    The kernel: one thread block per BM x BN output tile, `numWarps x 32`
    threads. Each step of the K loop copies a BM x BK tile of A and a
    BK x BN tile of B into shared memory (16-byte vector copies spread over
    the threads; rows padded by 8 elements), synchronizes, and each warp
    accumulates its WM x WN tile as (WM/16) x (WN/8) `vector.contract`s of
    16x16 and 16x8 (B read transposed) fragments per k16 step; the
    accumulators stay in registers (`scf.for` iteration arguments) and are
    written to C at the end. With `to-nvgpu` (default) the copies are
    `nvgpu.device_async_copy` (cp.async, 16 bytes, L1 bypassed) and
    upstream turns the fragments into `nvgpu.ldmatrix` and `nvgpu.mma.sync`
    (m16n8k16, through `convert-vector-to-gpu`'s `use-nvgpu` conversion).

    The instructions follow `target`'s chip (`TensorCoreISA`): sm_80 and
    later as above; sm_75 (`t4`) takes FP16, as m16n8k8 fragments
    (16x8 and 8x8 `vector.contract`s), and copies without cp.async: 16-byte
    aligned `vector.load`s into registers and `vector.store`s to shared
    memory, the stores of iteration k's copies after its compute (below);
    INT8 keeps the m16n8k32 fragments, each product becoming four
    `nvvm.mma.sync` m8n8k16 on the same registers. BF16 and TF32 ops keep
    the generic path there; a target before sm_75 (`v100`) is an error.

    The K loop is a software pipeline of S = `stages` shared-memory stages
    (the tiles have a leading stage dimension; K step k uses stage k mod S):
    a prologue issues the copies of steps 0 .. S-2, one cp.async group each;
    iteration k waits until at most S-2 groups are pending
    (`nvgpu.device_async_wait {numGroups = S-2}`), synchronizes once,
    issues the copies of step k+S-1 into stage (k+S-1) mod S (an empty
    group past the end, so every thread commits the same number of groups)
    and computes on stage k mod S while those copies are in flight. The one
    barrier also protects the overwrite: stage (k+S-1) mod S was last read
    in iteration k-1. `stages=1` is the unpipelined kernel: copy, wait for
    all, barrier, compute, barrier. The heuristic takes 3 stages when they
    fit its budget (BK drops to 16 first), then 2, then 1. Without cp.async
    (sm_75) iteration k loads step min(k+S-1, last) into registers after
    its barrier and stores it into stage (k+S-1) mod S after its compute
    (the re-stored last step lands in a stage no later iteration reads);
    a partial last round of chunks loads the last chunk and guards only
    the store; the heuristic stops at 2 stages.

    With `fuse-epilogue` (default) the kernel also absorbs what surrounds
    the matmul: a `linalg.fill` of a constant into C becomes the
    accumulators' initial value (C is not read; the fill goes when nothing
    reads C before the matmul), and the chain of elementwise
    `linalg.generic`s that read the product (all-parallel over its
    dimensions in any order, an arith/math payload, other operands through
    projected permutations: bias, per-row, residual) is applied to the
    fragments before they are stored. A generic that reads the product (or
    the previous one's output) through a permutation has its loops taken in
    the product's order: a batch norm kept in NCHW after an NHWC
    convolution, a transposed ReLU. Each generic's output is written
    through its own map, if it does not read that buffer's old value (in
    place: the map it reads it with): each row is stored at its own indices
    (row dimensions split from the row index by floordiv/mod), as a vector
    when the column stays the innermost dimension, else element by element
    (attention's context stored back as [b, s, h, d], an NCHW output). The
    kernel stores the last generic's output, and an earlier one's when it is
    read after the chain (an f32 value for a residual beside its f16 cast
    for the next layer); it sits where the last generic was; C (and each
    intermediate buffer) is no longer written or allocated when nothing
    else uses it. On the GPU the payload is applied to the per-lane stores
    that the mma.sync conversion produces (it cannot map other ops onto
    register fragments).

    With `fuse-softmax` (default) the chain may go on through a
    `linalg.softmax` over the product's last dimension when that dimension
    alone is the GEMM's columns (attention's scores Q K^T: scaled, maybe
    masked, normalized over the keys, then cast to f16 for P V), on the
    chain's f32 value, which nobody else reads. One block then covers whole
    rows (BN >= N; rule 9 of the tile heuristic, none for N > 256) and,
    after the K loop, stores its accumulators into an f32 row tile of
    BM x (BN + 2) in the shared memory the stages used; threads / BM
    threads (at least one) share each row, each with every so many
    columns: the generics before the softmax applied in place and the
    part's maximum; after a barrier the row's maximum, exp(x - max) in
    place and the part's sum; after another the threads walk the tile in
    row-major order, two columns each, and apply the generics after the
    softmax to x / sum, stored as the elementwise epilogue stores. The scores never reach global memory in
    f32. Without tiles that cover the rows (or for an INT8 GEMM), the
    softmax is left alone.

    The same holds for a convolution on the implicit-GEMM path: the fill of
    its NHWF output folds, and its consumers, which iterate over
    (n, oh, ow, f), are applied in the GEMM's M x N space (M = N*OH*OW rows,
    F columns) through `memref.collapse_shape` views: a per-channel bias
    `(f)` reads column n, a residual through the identity map the M x N view
    of its buffer, one read `(n, ow, oh, f)` its row indices split from the
    row. A consumer with an operand that reads a column dimension apart
    from the others (a projection's `(e)` of columns `(h, e)`) keeps the
    generic path.

    With `warpgroup-mma` (what `--opsnn-lower-to-nvvm="chip=sm_90a"`
    sets) the FP16/BF16 GEMMs and convolutions, and the FP8, INT8 and
    TF32 ones whose B is stored N x K (an FHWC filter, attention's K, a
    weight that `--opsnn-transpose-byte-weights` stored N x K), run on
    Hopper's warpgroup MMA instead (operands whose rows are not whole
    16-byte chunks are copied element by element, each element stored
    where its chunk lands in the swizzled tile)
    (`selectWarpgroupTiles`): one warpgroup of 128 threads per BM x BN
    block (128 or 64 each), BK = one 128-byte row (64 FP16/BF16, 128 FP8
    and INT8, 32 TF32).
    The copies
    are the same cp.async pipeline (up to 4 stages), into tiles without
    padding in wgmma's 128-byte swizzled layout (a 16-byte chunk c of row r
    lands at chunk c ^ (r mod 8); A as BM rows of BK, a K x N B as BN / 64
    panels of 64 K-rows by 64 columns, an N x K B as BN rows of BK), which
    is what a TMA load with
    `swizzle_128b` writes; the tiles are views of dynamic shared memory
    rounded up to 1024 bytes. Each K step fences the copies for the async
    proxy (`fence.proxy.async.shared::cta`), synchronizes, and issues one
    `nvgpu.warpgroup.mma` on descriptors of the stage's tiles
    (`nvgpu.warpgroup.generate.descriptor`, a K x N B transposed; upstream
    makes them `wgmma.mma_async` m64nBNk16, BM / 64 x 4 per step, their
    group waited for before copies overwrite the stage it read). An N x K B is
    read K-major, as A is (8-bit operands have no other layout) by NVVM's
    own wgmma ops (upstream's op steps only a K x N B's descriptor and
    takes no i8): each wgmma (64 rows x BN x 32 bytes of K: m64nBNk16, FP8
    and INT8 m64nBNk32, TF32 m64nBNk8 on descriptors of `tf32` tensors
    over the f32 tiles) is an `nvvm.wgmma.mma_async` on descriptors that
    start where it reads (A at row 64 i, both at byte 32 k of their rows:
    one descriptor per operand and step, the others stepping its start
    address as upstream steps A's), with one accumulator (a struct of wgmma's D registers) per 64-row
    slice; the step's wgmmas are one group: one `wgmma.fence` before
    them, one `commit_group` after. With two stages or more
    (`wgmma-group-in-flight`, the default) a step leaves its group in
    flight (`wait_group 1`: the previous step's group is done), then after
    a barrier issues the next copies, into the stage that group read; the
    last group is waited for after the loop. Otherwise (and with one
    stage) each step waits for its group (`wait_group 0`) and its copies
    come first, as on mma.sync. INT8 sums saturate
    (`.satfinite`, as the mma.sync kernel's) into i32. The accumulators
    start at zero and, after the loop, go by `nvgpu.warpgroup.mma.store`
    into a row tile of BM x (BN + 4) in the stages' shared memory (f32;
    INT8's i32 bits stored through an f32 view and read through an i32
    one);
    with a softmax over the columns (a fill of zero, N <= 256: blocks whose
    BN covers the rows, 64x256 ones past 128) the row tile is the whole-rows epilogue's and the
    rows are normalized there as in the mma.sync kernel; otherwise
    after a barrier the threads walk it in row-major order, 2 (for an odd
    N, 1) columns each, add C's folded fill (or C itself), apply the
    elementwise epilogue and store: coalesced stores, ragged rows and
    columns guarded (C's loads too, so M and N need not divide the tiles
    even where C is read). The CPU emulation (`emulate-on-cpu`) runs the same copies into
    the same swizzled tiles and reads them back through the same layout,
    product by product in f32 (INT8 in i32).

    With `emulate-on-cpu` the same tiles, copies (with the same stage
    indices: prologue, then step k+S-1 into stage (k+S-1) mod S before the
    warps compute on stage k mod S) and fragment contractions are emitted
    as sequential loops over blocks, threads and warps with plain buffers
    instead of `gpu.launch`, so the CPU pipeline can run the tiled
    algorithm against NumPy (`--opsnn-lower-to-cpu=
    "emulate-tensor-core-matmul=a100 emulate-tensor-core-stages=3"`).

    Before:

    ```mlir
    linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x256xf16>)
                  outs(%c : memref<256x256xf32>)
    ```

    After (tiles 128x128x32, warps 64x32, `stages=1`, before the nvgpu
    conversion; with S stages the tiles are memref<Sx128x40xf16> and
    memref<Sx32x136xf16>):

    ```mlir
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c2, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1)
               workgroup(%sa : memref<1x128x40xf16, #gpu.address_space<workgroup>>,
                         %sb : memref<1x32x136xf16, #gpu.address_space<workgroup>>) {
      %acc0 = vector.transfer_read %c[...] : memref<256x256xf32>, vector<16x8xf32>
      ...
      %r:16 = scf.for %k = %c0 to %c128 step %c32 iter_args(...) {
        %v = vector.transfer_read %a[...] : memref<256x128xf16>, vector<8xf16>
        vector.transfer_write %v, %sa[%c0, ...] : vector<8xf16>, memref<1x128x40xf16, 3>
        ...
        gpu.barrier
        %fa = vector.transfer_read %sa[%c0, ...] : ..., vector<16x16xf16>
        %fb = vector.transfer_read %sb[%c0, ...] {permutation_map = (d0, d1, d2) -> (d2, d1)}
            : ..., vector<8x16xf16>
        %d = vector.contract ... %fa, %fb, %acc : vector<16x16xf16>, vector<8x16xf16>
            into vector<16x8xf32>
        ...
        gpu.barrier
        scf.yield ...
      }
      vector.transfer_write %r#0, %c[...] : vector<16x8xf32>, memref<256x256xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"a100\"",
           "Target whose SM count and shared memory the tile heuristic reads">,
    ListOption<"tiles", "tiles", "int64_t",
               "Fixed tiles BM,BN,BK,WM,WN instead of the heuristic (an "
               "error when they break a constraint or do not divide the M "
               "or N of a GEMM whose C is read)">,
    Option<"stages", "stages", "int64_t", /*default=*/"-1",
           "Shared-memory stages of the K loop's cp.async pipeline (1: no "
           "overlap of copies and math); -1: the heuristic's (3, else 2, "
           "else 1, within 48 KiB)">,
    Option<"emulateOnCPU", "emulate-on-cpu", "bool", /*default=*/"false",
           "Emit sequential loops over blocks/threads/warps and plain buffers "
           "(runs on the CPU) instead of gpu.launch">,
    Option<"toNVGPU", "to-nvgpu", "bool", /*default=*/"true",
           "Convert copies to cp.async and fragments to ldmatrix/mma.sync "
           "(GPU form only)">,
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"true",
           "Fold C's constant fill into the accumulators and apply the "
           "elementwise consumers of the product before the fragments are "
           "stored">,
    Option<"fuseSoftmax", "fuse-softmax", "bool", /*default=*/"true",
           "With fuse-epilogue: also absorb a softmax over the product's "
           "columns (whole rows per block, normalized in shared memory)">,
    Option<"foldPadding", "fold-padding", "bool", /*default=*/"true",
           "Read a convolution's zero-padded input unpadded (out-of-bounds "
           "taps are zero-filled copies) and drop the padded buffer">,
    Option<"allowTF32", "allow-tf32", "bool", /*default=*/"false",
           "Also map f32 x f32 -> f32 matmuls and convolutions, running A and "
           "B as TF32 (m16n8k8, 10-bit mantissa); ops carrying the "
           "`opsnn.tf32` attribute are mapped regardless">,
    Option<"warpgroupMma", "warpgroup-mma", "bool", /*default=*/"false",
           "Run FP16/BF16 GEMMs, and FP8, INT8 and TF32 ones whose B is "
           "stored N x K, on "
           "the warpgroup kernel (wgmma, sm_90a; needs a target whose chip "
           "is sm_90) instead of mma.sync; fixed `tiles` keep the mma.sync "
           "kernel">,
    Option<"wgmmaGroupInFlight", "wgmma-group-in-flight", "bool",
           /*default=*/"true",
           "With two stages or more, the warpgroup kernel leaves each K "
           "step's wgmma group in flight (wait_group 1) while it issues the "
           "next step's copies, into the stage the previous group read, "
           "after a barrier; false: every step waits for its group "
           "(wait_group 0) before the copies">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUWarpReducePass
    : Pass<"opsnn-gpu-warp-reduce", "::mlir::func::FuncOp"> {
  let summary = "Run row reductions as one warp per output element "
                "(coalesced reads, shuffle butterfly)";
  let description = [{
    The generic GPU path gives a reduction one thread per output element
    that loops over the reduced dimension alone, so the 32 threads of a
    warp read 32 rows a row length apart (uncoalesced). This pass turns a
    `linalg.generic` on buffers whose last loop is its only reduction into
    a `gpu.launch` with one warp per output element, when:

    - every input is a static identity-layout buffer read through a
      projected permutation in which the reduced loop, if present, indexes
      the innermost (contiguous) dimension (a per-row operand that does not
      depend on it, such as a row maximum, is fine);
    - the output is a static identity-layout buffer of the parallel loops,
      of f32 or i32 (what one shuffle moves);
    - the payload yields `combiner(x, acc)` where `acc` (the output's
      value) is used only there, `x` is computed from the inputs, and the
      combiner is associative and commutative (`arith.addf/mulf/maximumf/
      minimumf/maxnumf/minnumf`, integer add/mul/min/max/and/or/xor;
      floating-point addition is reassociated, as in any parallel
      reduction);
    - the reduction has at least `min-reduction-size` (default 2) elements.

    Lane l of the warp reads elements l, l+32, ... of its row (consecutive
    lanes, consecutive addresses) and combines them in order; with
    `vectorize` (the default) it reads V consecutive elements at a time
    instead, elements lV .. lV+V-1, then 32V further on, ..., one vector
    load per operand along the row (and elementwise members store V at a
    time), V the most, up to 16 bytes of the narrowest element read or
    written along the rows, that divides the row length, leaves every lane
    a whole vector (row >= 32 V) and keeps every such buffer's rows and
    data on the vector's alignment (as `--opsnn-vectorize-parallel-loops`
    asks: 4 f32 or 8 f16 for BERT's 768 and softmax rows of 1024; ViT's
    197 stays one element); then, the lanes'
    partials meet in a butterfly of five `gpu.shuffle xor` (offsets 16, 8,
    4, 2, 1; every lane combines its partner's value with its own); lane 0
    stores `combiner(total, out)`; when the output is a fresh buffer whose
    only earlier use is a `linalg.fill` of a constant (the usual zero or
    -inf init), lane 0 combines with that constant instead and the fill is
    erased (no separate fill kernel, the output written once). Blocks hold
    `warps-per-block` warps (one
    row each; the rows past the last are skipped a whole warp at a time, so
    the shuffles always see full warps).

    Rows shorter than 32 vectors share a warp: V is then the most that
    divides the row (keeping the alignment), L, the lanes of a row, the most
    power of two that leaves every lane a vector, and the warp runs 32 / L
    rows side by side (thread t of block b on row b * warps * 32 / L + t / L
    as lane t mod L); lane l reads vectors l, l + L, ...; the butterfly is
    xor L/2, ..., 1 (within the row's aligned lanes); the row's lane 0
    stores. A softmax over 16 f32 (bert_tiny's attention) is 4 lanes of 4
    f32 per row, 8 rows per warp, two shuffles per reduction. When the rows
    leave the last warp partly empty, its lanes past the last row run on a
    copy of the last row (clamped index) and store nothing, so the shuffles
    still see the whole warp; a group whose payloads access memory
    themselves (a gather) is not run that way and keeps the generic path. Softmax, layer norm and mean rows,
    global pooling over the last dimension, and row sums of any layout in
    which the reduced dimension is the last one take this path; the other
    reductions keep the generic one.

    With `fuse-row-ops` (the default) the kernel also runs the ops that
    follow the reduction in its block on the same rows and read what it
    computed: further row reductions of the same iteration space (static
    sizes), all-parallel `linalg.generic`s over it (single output written,
    not read, with the row dimension innermost; inputs with the row
    dimension innermost or absent), and all-parallel generics over the rows
    alone (the parallel loops: a mean from a sum). Every access of the
    group to a buffer the group writes must go through one indexing map (a
    reduction's vector per row, an elementwise member's element where it
    was written), so each member reads only what its own warp or lane wrote
    before it; outputs are allocations of the function (a buffer the group
    already uses may be written again, as bufferization reuses them); only
    index math, constants, allocations and the constant fills of joining
    reductions (folded into them) may stand between the members. Per row
    the warp runs the members in order: a reduction's total (with its
    initial value) and a per-row member's value stay in every lane's
    registers for the later members, lane 0 still stores them; an
    elementwise member has lane l write elements l, l+32, ... A softmax
    (row max, exp(x - max), sum, division: as `linalg.softmax` decomposes)
    or a layer norm (sum, mean, variance, normalise and scale) is then one
    kernel reading its input once per member (the later reads mostly from
    cache) and writing only its output. `linalg.reduce` over the last
    dimension of one input is taken as its `linalg.generic`.

    With `emulate-on-cpu` the same body is emitted as loops: per row every
    lane's partial into a buffer, then per butterfly step every lane's
    `combiner(partial[lane ^ offset], partial[lane])` (read from the values
    before the step), so the indexing and the combination order run on the
    CPU against NumPy (`--opsnn-lower-to-cpu="emulate-warp-reductions"`).

    `warps-per-block` outside 1..32 or `min-reduction-size` below 1 are
    errors.
  }];
  let options = [
    Option<"warpsPerBlock", "warps-per-block", "int64_t", /*default=*/"8",
           "Warps (rows) per thread block, 1..32">,
    Option<"minReductionSize", "min-reduction-size", "int64_t",
           /*default=*/"2",
           "Shortest reduction that takes the warp kernel (shorter rows "
           "than a warp's vectors share a warp)">,
    Option<"emulateOnCPU", "emulate-on-cpu", "bool", /*default=*/"false",
           "Emit the kernel as sequential loops over rows and lanes (runs "
           "on the CPU) instead of gpu.launch">,
    Option<"fuseRowOps", "fuse-row-ops", "bool", /*default=*/"true",
           "Run the row reductions and elementwise ops that follow a row "
           "reduction on the same rows and read its result in its kernel">,
    Option<"vectorize", "vectorize", "bool", /*default=*/"true",
           "Each lane reads and writes up to 16 bytes of consecutive row "
           "elements per access where the rows allow (false: one element)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def GPUTiledTransposePass
    : Pass<"opsnn-gpu-tiled-transpose", "::mlir::func::FuncOp"> {
  let summary = "Run transposing elementwise ops through shared-memory "
                "tiles (coalesced reads and writes)";
  let description = [{
    On the generic GPU path an elementwise op gets one thread per output
    element, `threadIdx.x` walking the output's contiguous dimension. When
    an input is contiguous along other loops (a layout conversion NCHW <->
    NHWC, alone or fused with a cast or a batch norm), the 32 loads of a
    warp are then a whole input row apart: one 32-byte sector each, for 2
    or 4 useful bytes. This pass turns such a `linalg.generic` on buffers
    into a `gpu.launch` that moves the data through shared memory:

    - the input group is the staged input's trailing loops up to the first
      that is the output's innermost (H, W of an NCHW input written as
      NHWC); the output group is the output's trailing loops up to the
      first of the input group (C). Each group is tiled as one linear
      index; the other loops are the grid's z;
    - a block of `tile` x `block-rows` threads (tx, ty) reads a
      `tile` x `tile` tile of each staged input, thread (tx, ty) the
      elements (in0 + tx, out0 + ty + r), r = 0, block-rows, ...:
      consecutive threads, consecutive input addresses; into
      `tile[ty + r][tx]` of a workgroup buffer of `tile` x (`tile` + 1)
      elements;
    - after a barrier, thread (tx, ty) computes the outputs (in0 + ty + r,
      out0 + tx), reading its staged operands at `tile[tx][ty + r]` (the
      padding element makes the 32 lanes' reads hit 32 banks), the other
      operands from their buffers (a per-channel scale is one address per
      warp), and stores along the output's contiguous loops.

    Edges are guarded where the tiles do not divide a group. Taken when:
    every loop is parallel and static, the op has one output indexed by a
    permutation of the loops, its payload has no side effects, some input
    (of whole-byte int or float elements, not aliasing the output) ends in
    other loops than the output's innermost and depends on the output's
    group, both groups have at least `min-extent` elements (an RGB image's
    3 channels stay on the generic path, where a warp writes them
    together), and the tiles fit in 48 KiB of shared memory. Inputs that end
    in the same loops go through tiles too; the others are read directly. A
    static `linalg.transpose` that moves the innermost dimension is taken
    as its `linalg.generic` (which stays when it is not tiled).

    With `absorb-copies` (the default), when the op's output is a buffer of
    the function that nothing reads but one later copy into another buffer
    (bufferization's copy of a result into a padded buffer's interior: a
    padding `--opsnn-implicit-padding` leaves, such as a returned one), the
    kernel takes the copy's place and writes its target directly, and the
    copy and the buffer go, provided nothing in between writes the op's
    inputs. On the generic path the copy shared the transposing op's kernel
    (`--opsnn-fuse-parallel-loops`); without this it would be a kernel of
    its own.

    With `emulate-on-cpu` the same index arithmetic is emitted as loops
    (per block every thread's reads into the tile, then every thread's
    writes), so the tiling and its edges run on the CPU against NumPy
    (`--opsnn-lower-to-cpu="emulate-gpu-loops"`). Both pipelines run it
    right after `--opsnn-interchange-parallel-first`, whose loop orders
    decide which conversions fuse with their producer
    (`--opsnn-lower-to-nvvm="tiled-transposes=false"` turns it off).

    Options that make no block (`tile` not a positive multiple of
    `block-rows`, more than 1024 threads) or a `min-extent` below 1 are
    errors.

    Before:

    ```mlir
    linalg.generic {indexing_maps = [
        affine_map<(n, h, w, c) -> (n, c, h, w)>,
        affine_map<(n, h, w, c) -> (n, h, w, c)>], ...}
        ins(%nchw : memref<8x64x56x56xf32>)
        outs(%nhwc : memref<8x56x56x64xf16>) {...arith.truncf...}
    ```

    After: `gpu.launch` over (2 C tiles, 98 HW tiles, 8 images) of 32 x 8
    threads with a `memref<32x33xf32, #gpu.address_space<workgroup>>`
    tile, `gpu.barrier` between the two phases.
  }];
  let options = [
    Option<"tile", "tile", "int64_t", /*default=*/"32",
           "Elements of each group per tile (32: a warp per tile row)">,
    Option<"blockRows", "block-rows", "int64_t", /*default=*/"8",
           "Threads along y; each handles tile / block-rows rows">,
    Option<"minExtent", "min-extent", "int64_t", /*default=*/"16",
           "Smallest input or output group (elements) that is tiled">,
    Option<"absorbCopies", "absorb-copies", "bool", /*default=*/"true",
           "Write the target of the copy that is the only reader of the "
           "op's fresh output buffer directly, in the copy's place">,
    Option<"emulateOnCPU", "emulate-on-cpu", "bool", /*default=*/"false",
           "Emit the kernel as sequential loops over blocks and threads "
           "(runs on the CPU) instead of gpu.launch">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // OPSNN_TRANSFORMS_PASSES_TD
