#!/usr/bin/env python3
"""The GPU benchmark cases: ResNet-50 stage convolutions, the BERT-base
layer GEMMs and fused cases, each checked against NumPy before it is timed.

    bench/gpu/cases.py [--dry-run] [--cases a,b] [--json FILE] [--target h200]
                       [--repeat N] [--warmup M] [--time-budget S] [--list]

Cases (batch 8; f16 operands accumulate in f32 and give f32 results):
  ResNet-50 stage convolutions, NHWC f16 (input given padded, HWCF filter):
  3x3 at 56x56x64, 28x28x128, 14x14x256, 7x7x512, the stage-2 1x1
  expansion 64->256 and the stage-3 strided 1x1 downsample 256->512; the
  56x56x64 3x3 also NCHW f32 (the "NHWC FP16 >= 2x NCHW FP32" comparison;
  no TF32, so the generic path) and NCHW f16 (the tensor-core kernel in
  NHWC between two transposes: what running an NCHW model costs).
  BERT-base layer GEMMs at sequence 128 x batch 8 (M = 1024): QKV
  768->2304, attention output 768->768, FFN 768->3072 and 3072->768; the
  attention's batched GEMMs over 8 x 12 heads (linalg.generic over batch,
  head, i, j, k): scores Q K^T (128x64 @ 64x128, K as stored: B
  transposed) and context P V (128x128 @ 128x64), on [b, h, s, d] heads
  and, as the importer's attention becomes once its transposes fold into
  the GEMMs, on Q, K, V and the context in [b, s, h, d] (strided rows,
  no copies; "_bshd").
  Fused: FFN-1 GEMM + bias + GELU (tanh form), the 28x28x128 conv + bias
  + ReLU, a memory-bound elementwise chain (three linalg.generic ops) for
  the bandwidth fraction, and a memory-bound row reduction: the softmax
  denominator sum_j exp(x_ij - m_i) of 4096 rows x 1024 f32 with the row
  maximum m as a second input (the warp-per-row kernel of
  --opsnn-gpu-warp-reduce: five shfl.sync.bfly per row); a whole softmax
  over the same rows (max, sum of exp(x - max), exp(x - max) / sum: three
  linalg ops, one kernel with fuse-row-ops) and BERT's layer norm over
  1024 rows of 768 with per-column scale and shift (mean, variance,
  normalise: one kernel); a softmax over 65536 rows of 16 (attention over
  16 tokens: 8 rows a warp, 4 lanes of 4 f32 a row, two shuffles per
  reduction) beside the same on the generic path (warp-reductions=false).
  Other tensor-core types: the FFN-1 GEMM in BF16 (bf16 x bf16 -> f32), in
  TF32 (f32 operands, the op marked `opsnn.tf32`, so the pipeline needs no
  tensor-core-tf32) and in INT8 (i8 x i8 -> i32); the 28x28x128 3x3 conv
  in BF16 (HWCF) and INT8 (FHWC filter: 8-bit B fragments are N x K).
  BF16 operands are given as their bit patterns (.npy uint16, what
  ops-nn-run takes for bf16 arguments), rounded from f32 to nearest even
  here; the references use exactly the values the kernel sees (the bf16
  values, f32 rounded to TF32, the int8 values).

For each case: FLOPs, the minimum traffic (every input read once, the
output written once) and the roofline floor on the target,
max(FLOPs / peak(dtype), bytes / DRAM bandwidth), with the peaks of
`ops-nn-opt --test-opsnn-target-info` (lib/Target/TargetDescription.cpp;
the tensor-core peak of the operand type, FP16, BF16, TF32 or INT8; plain
f32: the FP32 peak). Each module is lowered with
--opsnn-lower-to-nvvm="chip=C format=ptx tensor-cores=true" and assembled
with ptxas for the chip (scripts/ptxas_check.py: registers, spills,
whether mma.sync or wgmma is used; with nvdisasm installed, the static SASS
instruction count, which a dry run's comparisons print as code sizes).

GPU mode (default): ops-nn-run --device=cuda compiles the module into an
artifact and runs it once; the output is compared with the NumPy reference
(relative L2, tolerance per precision) and only a correct answer is timed
(the artifact, --repeat runs after --warmup). ops-nn-run uploads the
inputs to device memory once and times each call two ways: its kernels
with CUDA events ("our ms", what the roofline and the vendor's
CUDA-event times compare with) and the whole call on the host ("call ms":
plus launches, result allocation and synchronisation). When a Python with PyTorch and CUDA is
found (this one, else /usr/bin/python3; nothing is installed) the same
inputs go through PyTorch (cuBLAS/cuDNN; default and channels_last memory
format, CUDA-event timing of device-resident tensors; checked the same
way); otherwise the column says why not.

--dry-run (no GPU): lowers and assembles every case, runs the same module
on --device=cpu against the reference for the cases up to
--cpu-check-gflop, and times nothing. (The CPU pipeline ignores
`opsnn.tf32` and multiplies in full f32, so a TF32 case checked on the
CPU is compared with the unrounded product; the kernel's TF32 rounding
itself is checked by test/Integration/CPU/tensor-core-dtypes-emulated.mlir.)

Output: a table (case | shape | our ms | cuBLAS/cuDNN ms | floor ms |
achieved fraction of the floor | rel. L2 | status) and with --json FILE the
same rows with every figure, the device name and the target's ceilings
(schema "opsnn-gpu-bench"; python -m opsnn.bench --gpu-json merges it).
Needs NumPy only.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
# Relative L2 against the float64 NumPy reference above which an answer is
# wrong. f16 operands are exact in f32, so only the f32 accumulation order
# differs from the reference (~1e-6); 1e-3 still catches any real error.
# PyTorch returns f16 (rounding: ~3e-4 relative).
# bf16 operands are exact in f32 as well: the accumulation order alone
# (~1e-6), 1e-4 for margin. TF32: the reference rounds the operands to
# 10 mantissa bits as the kernel does (cvt.rna.tf32.f32; the products are
# then exact in f32), so the accumulation order alone, as for bf16.
# i8 x i8 -> i32 is exact. FP8 (E4M3FN) operands are exact in f32 and
# their products too: the accumulation order alone, as for bf16.
# PyTorch returns bf16 for bf16 operands (rounding: ~1.5e-3); its FP8 GEMM
# (torch._scaled_mm, cuBLASLt) accumulates in f32 but may use Hopper's
# reduced-precision FP8 accumulation.
TOLERANCE = {"f16": 1e-3, "f32": 1e-4, "bf16": 1e-4, "tf32": 1e-4, "i8": 0.0, "f8": 1e-4,
             "torch-f16": 5e-3, "torch-f32": 1e-2, "torch-bf16": 1e-2, "torch-tf32": 1e-2,
             "torch-f8": 1e-2}
# torch-f32: cuDNN may use TF32 for f32 convolutions (PyTorch's default).
# The roofline peak of each operand type (`--test-opsnn-target-info` keys).
PEAK_KEY = {"f16": "fp16", "bf16": "bf16", "tf32": "tf32", "i8": "int8", "f32": "fp32",
            "f8": "fp8"}
# How operands of each type are stored in the .npy files: bf16 as its bit
# patterns (ops-nn-run's '<u2' for bf16 arguments), FP8 (f8: E4M3FN) as its
# codes ('|u1'), TF32 as f32.
NP_DTYPE = {"f16": np.float16, "bf16": np.uint16, "tf32": np.float32, "i8": np.int8,
            "f32": np.float32, "f8": np.uint8}
# Result types: i8 accumulates in i32, everything else in f32.
OUT_DTYPE = {"i8": np.int32}
# PyTorch has no general CUDA int8 GEMM/convolution to compare with (its
# int8 matmul, torch._int_mm, is a private, shape-restricted entry point).
NO_TORCH = {"i8": "n/a (no int8)"}
# Nor an FP8 convolution.
NO_TORCH_KIND = {("f8", "conv"): "n/a (no FP8 convolution)"}


def log(message):
    print(f"cases: {message}", file=sys.stderr, flush=True)


# --- the cases --------------------------------------------------------------------

class Case:
    """One benchmark case: its MLIR module, NumPy inputs and reference,
    FLOPs and minimum traffic."""

    def __init__(self, name, group, kind, shape, dtype, params, flops, inputs, output,
                 tolerance=None, pipeline_options=""):
        # Added to the GPU pipeline's options (a variant of another case),
        # and named in the shape column.
        self.pipeline_options = pipeline_options
        if pipeline_options:
            shape += f" ({pipeline_options})"
        self.name, self.group, self.kind, self.shape = name, group, kind, shape
        self.dtype, self.params, self.flops = dtype, params, flops
        self.input_specs, self.output_spec = inputs, output   # [(shape, np dtype)]
        # Relative L2 above which the answer is wrong: the precision's
        # (TOLERANCE) unless the case is tighter.
        self.tolerance = TOLERANCE[dtype] if tolerance is None else tolerance

    @property
    def bytes(self):
        nb = lambda s, d: int(np.prod(s)) * np.dtype(d).itemsize
        return sum(nb(s, d) for s, d in self.input_specs) + nb(*self.output_spec)

    def inputs(self):
        rng = np.random.default_rng(_seed(self.name))
        out = []
        for s, d in self.input_specs:
            if d == np.int8:   # the whole i8 range (products up to 2^14)
                out.append(rng.integers(-128, 128, s, dtype=np.int8))
            elif d == np.uint16:   # bf16 bit patterns
                out.append(to_bf16_bits(rng.uniform(-1, 1, s).astype(np.float32)))
            elif d == np.uint8:   # E4M3FN codes of uniform(-1, 1), rounded
                out.append(to_fp8_codes(rng.uniform(-1, 1, s).astype(np.float32)))
            else:
                out.append(rng.uniform(-1, 1, s).astype(d))
        if self.kind == "rowreduce":   # the second input is the rows' maximum
            out[1] = out[0].max(axis=1)
        return out


def to_bf16_bits(x):
    """f32 -> bf16 bit patterns (uint16), rounded to nearest even as
    arith.truncf does (finite inputs only: these are uniform(-1, 1))."""
    u = np.asarray(x, np.float32).view(np.uint32)
    u = u + np.uint32(0x7FFF) + ((u >> np.uint32(16)) & np.uint32(1))
    return (u >> np.uint32(16)).astype(np.uint16)


def from_bf16_bits(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)


def to_fp8_codes(x):
    """f32 -> E4M3FN codes (uint8), rounded to nearest even as arith.truncf
    does (ml_dtypes, which fp8-conversions.mlir checks bit for bit)."""
    import ml_dtypes
    return np.asarray(x, np.float32).astype(ml_dtypes.float8_e4m3fn).view(np.uint8)


def from_fp8_codes(codes):
    import ml_dtypes
    return np.asarray(codes, np.uint8).view(ml_dtypes.float8_e4m3fn).astype(np.float32)


def round_tf32(x):
    """The f32 values as the tensor-core kernel multiplies them: rounded to
    TF32 (10 mantissa bits) to nearest, ties away from zero
    (cvt.rna.tf32.f32); NaNs pass unchanged."""
    x = np.asarray(x, np.float32)
    bits = (x.view(np.uint32) + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
    return np.where(np.isnan(x), x, bits.view(np.float32))


def _seed(name):
    # Stable across processes (hash() is salted).
    return sum((i + 1) * ord(c) for i, c in enumerate(name)) % 2**31


def _t(shape, elem):
    return "tensor<" + "x".join(map(str, shape)) + "x" + elem + ">"


def _elem(dtype):
    """The MLIR element type of a .npy dtype of these cases (uint16: bf16
    bit patterns)."""
    return {np.float16: "f16", np.uint16: "bf16", np.float32: "f32", np.int8: "i8",
            np.int32: "i32", np.uint8: "f8E4M3FN"}[np.dtype(dtype).type]


def conv_case(name, group, n, h, w, c, f, k, stride, layout="nhwc", elem="f16",
              epilogue=None, filter_layout="hwcf", pipeline_options=""):
    """A k x k convolution, same padding for k > 1 (the input is given
    padded: the importer's pad is a separate op), NHWC with an HWCF or FHWC
    filter, or NCHW/FCHW."""
    pad = (k - 1) // 2
    hp, wp = h + 2 * pad, w + 2 * pad
    ho, wo = (hp - k) // stride + 1, (wp - k) // stride + 1
    dt = NP_DTYPE[elem]
    if layout == "nhwc":
        xs, ys = (n, hp, wp, c), (n, ho, wo, f)
        ws = (k, k, c, f) if filter_layout == "hwcf" else (f, k, k, c)
    else:
        xs, ws, ys = (n, c, hp, wp), (f, c, k, k), (n, f, ho, wo)
        filter_layout = "fchw"
    inputs = [(xs, dt), (ws, dt)]
    flops = 2 * n * ho * wo * f * c * k * k
    if epilogue in ("bias_relu", "bias_relu_nchw"):
        inputs.append(((f,), np.float32))
        flops += 2 * n * ho * wo * f
    if epilogue == "bias_relu_nchw":
        # The epilogue iterates over (n, f, h, w) and writes NCHW: a layer
        # ALTE left in NCHW after an NHWC convolution.
        ys = (n, f, ho, wo)
    out = OUT_DTYPE.get(elem, np.float32)
    fl = "" if filter_layout in ("hwcf", "fchw") else "/" + filter_layout.upper()
    shape = (f"N{n} {h}x{w}x{c}->{ho}x{wo}x{f} k{k} s{stride} "
             f"{layout.upper()}{fl} {elem}->{_elem(out)}" + (" +bias+ReLU" if epilogue else "")
             + (" ->NCHW" if epilogue == "bias_relu_nchw" else ""))
    return Case(name, group, "conv", shape, elem,
                {"layout": layout, "filter": filter_layout, "stride": stride, "k": k,
                 "epilogue": epilogue}, flops, inputs, (ys, out),
                pipeline_options=pipeline_options)


def depthwise_case(name, group, n, h, w, c, k, stride, layout="nhwc", elem="f16",
                   pad_in_graph=False, pipeline_options=""):
    """A k x k depthwise convolution (one filter per channel: MobileNet's):
    linalg.depthwise_conv_2d_nhwc_hwc or _nchw_chw (what the importer
    writes for group = C), the generic GPU path (no tensor cores: one
    multiply-add per tap and channel). The input is given padded, or with
    `pad_in_graph` unpadded and zero-padded by a tensor.pad in the graph
    (as the importer writes a Conv's pads), which --opsnn-implicit-padding
    folds into the convolution's reads."""
    pad = (k - 1) // 2
    hp, wp = h + 2 * pad, w + 2 * pad
    ho, wo = (hp - k) // stride + 1, (wp - k) // stride + 1
    hx, wx = (h, w) if pad_in_graph else (hp, wp)
    dt = NP_DTYPE[elem]
    if layout == "nhwc":
        xs, ws, ys = (n, hx, wx, c), (k, k, c), (n, ho, wo, c)
    else:
        xs, ws, ys = (n, c, hx, wx), (c, k, k), (n, c, ho, wo)
    out = OUT_DTYPE.get(elem, np.float32)
    shape = (f"N{n} {h}x{w}x{c} depthwise k{k} s{stride} {layout.upper()} "
             f"{elem}->{_elem(out)}" + (" pad in graph" if pad_in_graph else ""))
    return Case(name, group, "conv", shape, elem,
                {"layout": layout, "filter": "hwc" if layout == "nhwc" else "chw",
                 "stride": stride, "k": k, "depthwise": True, "epilogue": None,
                 "pad": pad if pad_in_graph else 0},
                2 * n * ho * wo * c * k * k, [(xs, dt), (ws, dt)], (ys, out),
                pipeline_options=pipeline_options)


def gemm_case(name, group, m, k, n, epilogue=None, elem="f16", b_layout="kn"):
    """A GEMM; B stored [k, n] ("kn") or [n, k] ("nk": a weight stored
    [out, in], what --opsnn-transpose-byte-weights makes of a constant one;
    a linalg.generic contraction)."""
    dt, out = NP_DTYPE[elem], OUT_DTYPE.get(elem, np.float32)
    inputs = [((m, k), dt), ((k, n) if b_layout == "kn" else (n, k), dt)]
    flops = 2 * m * n * k
    if epilogue == "bias_gelu":
        inputs.append(((n,), np.float32))
        flops += 9 * m * n   # bias add, x^3 (2), fma (2), tanh (1), add, 2 mul
    b_shape = f"{k}x{n}" if b_layout == "kn" else f"({n}x{k})^T"
    shape = f"{m}x{k} @ {b_shape} {elem}->{_elem(out)}" + (" +bias+GELU" if epilogue else "")
    return Case(name, group, "gemm", shape, elem,
                {"epilogue": epilogue, "b_layout": b_layout}, flops, inputs, ((m, n), out))


def eltwise_case(name, group, shape, elem="f32", pipeline_options=""):
    # y = (max(x * 1.5 + 0.25, 0) + r) * 0.5: 5 FLOPs per element, computed
    # in `elem` (f16: every op rounds to f16, ~1e-3 from the float64
    # reference).
    dt = NP_DTYPE[elem]
    label = "x".join(map(str, shape)) + f" {elem}, 3 generics"
    return Case(name, group, "eltwise", label, elem, {}, 5 * int(np.prod(shape)),
                [(shape, dt), (shape, dt)], (shape, dt),
                tolerance=3e-3 if elem == "f16" else None,
                pipeline_options=pipeline_options)


def layout_case(name, group, shape, to_nhwc=True, elem="f32", out_elem="f16",
                pipeline_options=""):
    # A layout conversion at a graph's edge: NCHW `shape` read as `elem`
    # and written NHWC as `out_elem` (the cast of a mixed-precision graph's
    # input), or NHWC `shape` written NCHW. No FLOPs: bytes only.
    n, c, h, w = shape
    src = shape if to_nhwc else (n, h, w, c)
    dst = (n, h, w, c) if to_nhwc else shape
    label = ("NCHW %s -> NHWC %s" if to_nhwc else "NHWC %s -> NCHW %s") % (elem, out_elem)
    label = "x".join(map(str, shape)) + " " + label
    return Case(name, group, "layout", label, out_elem, {"to_nhwc": to_nhwc}, 0,
                [(src, NP_DTYPE[elem])], (dst, NP_DTYPE[out_elem]),
                tolerance=1e-3 if out_elem == "f16" else None,
                pipeline_options=pipeline_options)


def rowreduce_case(name, group, rows, cols):
    # Softmax denominator: y_i = sum_j exp(x_ij - m_i), m the row maximum
    # (given: a softmax computes it in the reduction before). 3 FLOPs per
    # element (subtract, exp, add); x, m and y each move once.
    # The reference sums in float64 and the kernel in f32 (32 lanes, each
    # 32 terms, then a butterfly): ~1e-7 apart, so 1e-5 catches a wrong
    # row or lane.
    return Case(name, group, "rowreduce",
                f"{rows}x{cols} f32, sum(exp(x - rowmax)) per row", "f32", {},
                3 * rows * cols, [((rows, cols), np.float32), ((rows,), np.float32)],
                ((rows,), np.float32), tolerance=1e-5)


def bgemm_case(name, group, batch, heads, m, k, n, b_layout="kn", elem="f16",
               heads_layout="bhsd", epilogue=None):
    """Attention's batched GEMM as a linalg.generic over (batch, head, i, j,
    k): B stored [.., k, n] ("kn": P V) or [.., n, k] ("nk": Q K^T with K
    as stored). heads_layout "bhsd": every operand [b, h, s, d]; "bshd":
    Q, K, V and the context where the projections put them, [b, s, h, d]
    (what the importer's attention becomes once its transposes are folded
    into the GEMMs' indexing maps; P and the scores stay [b, h, s, s]).
    epilogue "softmax" (Q K^T): the scores scaled by 1/sqrt(k), normalized
    over the keys and cast to f16, P as P V reads it (7 FLOPs per score
    more; the minimum traffic writes P in f16 only)."""
    dt = NP_DTYPE[elem]
    if heads_layout == "bshd":
        if b_layout == "nk":   # Q K^T: Q [b, i, h, k], K [b, j, h, k]
            inputs = [((batch, m, heads, k), dt), ((batch, n, heads, k), dt)]
            out = (batch, heads, m, n)
        else:                  # P V: V [b, k, h, j] -> context [b, i, h, j]
            inputs = [((batch, heads, m, k), dt), ((batch, k, heads, n), dt)]
            out = (batch, m, heads, n)
    else:
        bs = (batch, heads, k, n) if b_layout == "kn" else (batch, heads, n, k)
        inputs = [((batch, heads, m, k), dt), (bs, dt)]
        out = (batch, heads, m, n)
    what = "Q K^T" if b_layout == "nk" else "P V"
    where = ", heads in [b,s,h,d]" if heads_layout == "bshd" else ""
    params = {"b_layout": b_layout, "heads": heads_layout}
    flops, result = 2 * batch * heads * m * n * k, "f32"
    out_type = np.float32
    if epilogue == "softmax":
        params["epilogue"] = "softmax"
        flops += 7 * batch * heads * m * n
        what, result, out_type = what + ", scaled, softmax over the keys", "f16", np.float16
    return Case(name, group, "bgemm",
                f"{batch}x{heads} x ({m}x{k} @ {k}x{n}) {elem}->{result}, {what}{where}",
                elem, params, flops, inputs, (out, out_type))


def rownorm_case(name, group, op, rows, cols, pipeline_options=""):
    # A whole softmax or layer norm per row: x read and y written once at
    # the minimum (the fused kernel reads x again for each member, from the
    # caches); FLOPs per element: softmax 7 (max; subtract, exp, add;
    # subtract, exp, divide), layer norm 8 (add; subtract, square, add;
    # subtract, multiply by the row's 1/std, scale, shift).
    inputs = [((rows, cols), np.float32)]
    if op == "layernorm":
        inputs += [((cols,), np.float32), ((cols,), np.float32)]
    what = ("softmax per row" if op == "softmax"
            else "layer norm per row, scale + shift per column")
    return Case(name, group, "rownorm", f"{rows}x{cols} f32, {what}", "f32", {"op": op},
                (7 if op == "softmax" else 8) * rows * cols, inputs,
                ((rows, cols), np.float32), tolerance=1e-5,
                pipeline_options=pipeline_options)


def all_cases():
    N = 8
    M = 128 * N  # BERT-base: sequence 128 x batch 8
    return [
        # The stem: 3 image channels, padded to 8 for the tensor-core
        # kernel (--opsnn-pad-conv-channels: two small pad kernels each for
        # the input and the filter, an argument here, are in the time;
        # K = 7*7*8).
        conv_case("r50_stem_7x7_s2", "resnet50", N, 224, 224, 3, 64, 7, 2),
        # Its twin with nothing padded: one kernel, the im2col rows copied
        # element by element (2-byte loads, K = 7*7*3 = 147).
        conv_case("r50_stem_7x7_s2_unpadded", "resnet50", N, 224, 224, 3, 64, 7, 2,
                  pipeline_options="tensor-core-pad-channels=false"),
        conv_case("r50_s2_3x3", "resnet50", N, 56, 56, 64, 64, 3, 1),
        conv_case("r50_s3_3x3", "resnet50", N, 28, 28, 128, 128, 3, 1),
        conv_case("r50_s4_3x3", "resnet50", N, 14, 14, 256, 256, 3, 1),
        conv_case("r50_s5_3x3", "resnet50", N, 7, 7, 512, 512, 3, 1),
        conv_case("r50_s2_1x1_expand", "resnet50", N, 56, 56, 64, 256, 1, 1),
        conv_case("r50_s3_1x1_down_s2", "resnet50", N, 56, 56, 256, 512, 1, 2),
        conv_case("r50_s2_3x3_nchw_f32", "resnet50", N, 56, 56, 64, 64, 3, 1,
                  layout="nchw", elem="f32"),
        # The same in NCHW FP16: run in NHWC between two transposes
        # (--opsnn-convert-convs-to-nhwc), their time included.
        conv_case("r50_s2_3x3_nchw", "resnet50", N, 56, 56, 64, 64, 3, 1, layout="nchw"),
        # MobileNetV2's first stride-2 depthwise convolution (112 x 112 x
        # 96), NHWC FP16 (where ALTE puts it beside its pointwise
        # neighbours) and NCHW FP32 (the framework's layout and type).
        depthwise_case("mbv2_dw_3x3_s2", "mobilenet", N, 112, 112, 96, 3, 2),
        depthwise_case("mbv2_dw_3x3_s2_nchw_f32", "mobilenet", N, 112, 112, 96, 3, 2,
                       layout="nchw", elem="f32"),
        # MobileNetV2's 56 x 56 x 144 stride-1 depthwise convolution with its
        # zero padding in the graph: read through bounds checks
        # (--opsnn-implicit-padding), and its twin that fills and copies a
        # padded buffer first (two kernels more).
        depthwise_case("mbv2_dw_3x3_pad", "mobilenet", N, 56, 56, 144, 3, 1,
                       pad_in_graph=True),
        depthwise_case("mbv2_dw_3x3_pad_explicit", "mobilenet", N, 56, 56, 144, 3, 1,
                       pad_in_graph=True, pipeline_options="implicit-padding=false"),
        # The classifier at batch 64: N = 1000 classes, a ragged N (32x16
        # blocks, the last column block half full).
        gemm_case("r50_fc", "resnet50", 64, 2048, 1000),
        gemm_case("bert_qkv", "bert", M, 768, 2304),
        gemm_case("bert_attn_out", "bert", M, 768, 768),
        gemm_case("bert_ffn1", "bert", M, 768, 3072),
        gemm_case("bert_ffn2", "bert", M, 3072, 768),
        bgemm_case("bert_attn_scores", "bert", N, 12, 128, 64, 128, b_layout="nk"),
        # The same scores scaled and softmaxed into P (f16): one kernel
        # (the softmax on the block's rows in shared memory).
        bgemm_case("bert_attn_scores_softmax", "bert", N, 12, 128, 64, 128, b_layout="nk",
                   epilogue="softmax"),
        # At sequence 256: rows of 256 keys (mma.sync: 64x256 blocks; the
        # warpgroup kernel: 64x256 blocks of wgmma m64n256k16).
        bgemm_case("bert_attn_scores_softmax_s256", "bert", N, 12, 256, 64, 256, b_layout="nk",
                   epilogue="softmax"),
        bgemm_case("bert_attn_context", "bert", N, 12, 128, 128, 64, b_layout="kn"),
        bgemm_case("bert_attn_scores_bshd", "bert", N, 12, 128, 64, 128, b_layout="nk",
                   heads_layout="bshd"),
        bgemm_case("bert_attn_context_bshd", "bert", N, 12, 128, 128, 64, b_layout="kn",
                   heads_layout="bshd"),
        # ViT-B/16 at 224 x 224: 197 tokens (196 patches and the class
        # token), 12 heads of 64. N = 197 (odd) for the scores, K = 197
        # for P V: P's rows of 197 f16 are copied element by element.
        bgemm_case("vitb_attn_scores_bshd", "vit", N, 12, 197, 64, 197, b_layout="nk",
                   heads_layout="bshd"),
        bgemm_case("vitb_attn_context_bshd", "vit", N, 12, 197, 197, 64, b_layout="kn",
                   heads_layout="bshd"),
        gemm_case("bert_ffn1_bias_gelu", "fused", M, 768, 3072, epilogue="bias_gelu"),
        conv_case("r50_s3_3x3_bias_relu", "fused", N, 28, 28, 128, 128, 3, 1,
                  epilogue="bias_relu"),
        # The same with its result stored NCHW f32 by the epilogue (the
        # consumer iterates over (n, f, h, w) and reads the NHWC product
        # transposed): still one kernel, 8 rows of a channel per 32 bytes.
        conv_case("r50_s3_3x3_bias_relu_nchw", "fused", N, 28, 28, 128, 128, 3, 1,
                  epilogue="bias_relu_nchw"),
        eltwise_case("eltwise_chain", "fused", (N, 112, 112, 128)),
        eltwise_case("eltwise_chain_f16", "fused", (N, 112, 112, 128), elem="f16"),
        # The same with one element per thread (no vector accesses): the
        # speed-up of --opsnn-vectorize-parallel-loops, side by side.
        eltwise_case("eltwise_chain_scalar", "fused", (N, 112, 112, 128),
                     pipeline_options="vectorize-accesses=false"),
        eltwise_case("eltwise_chain_f16_scalar", "fused", (N, 112, 112, 128), elem="f16",
                     pipeline_options="vectorize-accesses=false"),
        # Layout conversions at a graph's edges (ResNet-50's stage-2
        # activations into mixed-precision NHWC, its last features back to
        # NCHW), and the same one thread per element (no shared-memory
        # tiles): the speed-up of --opsnn-gpu-tiled-transpose.
        layout_case("r50_input_to_nhwc_f16", "fused", (N, 256, 56, 56)),
        layout_case("r50_features_to_nchw", "fused", (N, 2048, 7, 7), to_nhwc=False,
                    elem="f16", out_elem="f32"),
        layout_case("r50_input_to_nhwc_f16_untiled", "fused", (N, 256, 56, 56),
                    pipeline_options="tiled-transposes=false"),
        layout_case("r50_features_to_nchw_untiled", "fused", (N, 2048, 7, 7),
                    to_nhwc=False, elem="f16", out_elem="f32",
                    pipeline_options="tiled-transposes=false"),
        rowreduce_case("softmax_den", "fused", 4096, 1024),
        rownorm_case("softmax", "fused", "softmax", 4096, 1024),
        rownorm_case("bert_layernorm", "fused", "layernorm", M, 768),
        # Attention rows shorter than a warp (the 16 tokens of the zoo's
        # bert_tiny): 8 rows a warp, 4 lanes of 4 f32 a row; its twin on
        # the generic path (max, exp-sum and division kernels).
        rownorm_case("softmax_short", "fused", "softmax", 65536, 16),
        rownorm_case("softmax_short_generic", "fused", "softmax", 65536, 16,
                     pipeline_options="warp-reductions=false"),
        # One element per lane and access: the warp kernels' vector
        # accesses, side by side.
        rownorm_case("softmax_scalar", "fused", "softmax", 4096, 1024,
                     pipeline_options="vectorize-accesses=false"),
        rownorm_case("bert_layernorm_scalar", "fused", "layernorm", M, 768,
                     pipeline_options="vectorize-accesses=false"),
        gemm_case("bert_ffn1_bf16", "dtypes", M, 768, 3072, elem="bf16"),
        gemm_case("bert_ffn1_tf32", "dtypes", M, 768, 3072, elem="tf32"),
        gemm_case("bert_ffn1_int8", "dtypes", M, 768, 3072, elem="i8"),
        # Its weight stored [out, in] (a constant one is, after
        # --opsnn-transpose-byte-weights): cp.async instead of transposing
        # copies; side by side with the K x N one.
        gemm_case("bert_ffn1_int8_nk", "dtypes", M, 768, 3072, elem="i8", b_layout="nk"),
        # FP8 (E4M3FN, what --opsnn-quantize type=fp8 makes of the layer; its
        # weight stored [out, in]): mma.sync m16n8k32 .e4m3 on sm_89 and
        # later (on sm_90 ptxas runs it as FP16 HMMA after unpacking), the
        # generic path before.
        gemm_case("bert_ffn1_fp8_nk", "dtypes", M, 768, 3072, elem="f8", b_layout="nk"),
        conv_case("r50_s3_3x3_bf16", "dtypes", N, 28, 28, 128, 128, 3, 1, elem="bf16"),
        conv_case("r50_s3_3x3_int8", "dtypes", N, 28, 28, 128, 128, 3, 1, elem="i8",
                  filter_layout="fhwc"),
        conv_case("r50_s3_3x3_fp8", "dtypes", N, 28, 28, 128, 128, 3, 1, elem="f8",
                  filter_layout="fhwc"),
    ]


# (fast case, slow case, goal ratio of their times, what it compares)
COMPARISONS = [
    # Not known which wins: 8/3 fewer MACs and no pad kernels against
    # 2-byte loads with per-element index arithmetic in the K loop. The
    # pipeline's tensor-core-pad-channels default should follow this ratio.
    ("r50_stem_7x7_s2_unpadded", "r50_stem_7x7_s2", 1.0,
     "ResNet stem (C = 3): im2col element copies (K = 147) vs zero channels (K = 392)"),
    ("r50_s2_3x3", "r50_s2_3x3_nchw_f32", 2.0, "NHWC FP16 vs NCHW FP32 speed-up"),
    ("mbv2_dw_3x3_s2", "mbv2_dw_3x3_s2_nchw_f32", 2.0,
     "depthwise: NHWC FP16 vs NCHW FP32 speed-up"),
    # Reading the padding through bounds checks must beat building the
    # padded buffer (a fill and a copy kernel, 2.3x the input's bytes more).
    ("mbv2_dw_3x3_pad", "mbv2_dw_3x3_pad_explicit", 1.0,
     "depthwise behind a zero pad: bounds checks vs padded buffer"),
    # Vector accesses must not be slower than one element per thread.
    ("eltwise_chain", "eltwise_chain_scalar", 1.0,
     "f32 elementwise chain: vector accesses vs one element per thread"),
    ("eltwise_chain_f16", "eltwise_chain_f16_scalar", 1.0,
     "f16 elementwise chain: vector accesses vs one element per thread"),
    ("softmax", "softmax_scalar", 1.0,
     "softmax rows: vector accesses vs one element per lane"),
    ("bert_layernorm", "bert_layernorm_scalar", 1.0,
     "layer norm rows: vector accesses vs one element per lane"),
    ("softmax_short", "softmax_short_generic", 1.0,
     "softmax over 16-element rows: shared warps vs the generic path"),
    # Coalesced on both sides must beat coalesced on one.
    ("r50_input_to_nhwc_f16", "r50_input_to_nhwc_f16_untiled", 1.0,
     "NCHW f32 -> NHWC f16: shared-memory tiles vs one thread per element"),
    ("r50_features_to_nchw", "r50_features_to_nchw_untiled", 1.0,
     "NHWC f16 -> NCHW f32: shared-memory tiles vs one thread per element"),
]


# --- MLIR ---------------------------------------------------------------------------

def _generic(res, operands, types, maps, rank, body, out_ty, elem="f32"):
    """`%res = linalg.generic` over `operands`, all-parallel, into a fresh
    tensor; `body` (block arguments %a0, %a1, ... of type `elem`) yields the
    element."""
    iters = ", ".join(['"parallel"'] * rank)
    bargs = ", ".join(f"%a{i}: {elem}" for i in range(len(operands)))
    return (f"  %{res}_init = tensor.empty() : {out_ty}\n"
            f"  %{res} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
            f"iterator_types = [{iters}]}}\n"
            f"      ins({', '.join(operands)} : {', '.join(types)}) "
            f"outs(%{res}_init : {out_ty}) {{\n"
            f"  ^bb0({bargs}, %out: {elem}):\n{body}  }} -> {out_ty}\n")


# GELU, tanh form (BERT's "gelu_new"; NumPy has no erf):
# 0.5 s (1 + tanh(sqrt(2/pi) (s + 0.044715 s^3))).
GELU = ("    %k0 = arith.constant 0.044715 : f32\n"
        "    %k1 = arith.constant 0.7978845608028654 : f32\n"
        "    %half = arith.constant 0.5 : f32\n"
        "    %one = arith.constant 1.0 : f32\n"
        "    %s2 = arith.mulf %s, %s : f32\n"
        "    %s3 = arith.mulf %s2, %s : f32\n"
        "    %s3k = arith.mulf %s3, %k0 : f32\n"
        "    %in = arith.addf %s, %s3k : f32\n"
        "    %u = arith.mulf %in, %k1 : f32\n"
        "    %th = math.tanh %u : f32\n"
        "    %p = arith.addf %th, %one : f32\n"
        "    %hs = arith.mulf %s, %half : f32\n"
        "    %o = arith.mulf %hs, %p : f32\n")
RELU = ("    %z = arith.constant 0.0 : f32\n"
        "    %o = arith.maximumf %s, %z : f32\n")


LAYERNORM_EPS = 1e-5


def _rownorm_body(case, in_ty, out_ty):
    """A softmax or layer norm as the ONNX importer gives it: row
    reductions into filled vectors, then the elementwise op over the rows
    (what --opsnn-gpu-warp-reduce fuse-row-ops turns into one kernel)."""
    rows, cols = case.output_spec[0]
    vec = f"tensor<{rows}xf32>"
    ident, row = "affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0)>"
    col = "affine_map<(d0, d1) -> (d1)>"

    def reduction(res, init, ins, in_tys, maps, body):
        return (f"  %{res}_e = tensor.empty() : {vec}\n"
                f"  %{res}_f = linalg.fill ins(%{init} : f32) outs(%{res}_e : {vec}) -> {vec}\n"
                f"  %{res} = linalg.generic {{indexing_maps = [{', '.join(maps + [row])}], "
                f"iterator_types = [\"parallel\", \"reduction\"]}}\n"
                f"      ins({', '.join(ins)} : {', '.join(in_tys)}) outs(%{res}_f : {vec}) {{\n"
                f"  ^bb0({', '.join(f'%a{i}: f32' for i in range(len(ins)))}, %acc: f32):\n"
                f"{body}  }} -> {vec}\n")

    text = ("  %zero = arith.constant 0.0 : f32\n"
            "  %ninf = arith.constant 0xFF800000 : f32\n")
    if case.params["op"] == "softmax":
        text += reduction("max", "ninf", ["%x"], [in_ty], [ident],
                          "    %r = arith.maximumf %a0, %acc : f32\n    linalg.yield %r : f32\n")
        text += reduction("sum", "zero", ["%x", "%max"], [in_ty, vec], [ident, row],
                          "    %d = arith.subf %a0, %a1 : f32\n    %e = math.exp %d : f32\n"
                          "    %r = arith.addf %e, %acc : f32\n    linalg.yield %r : f32\n")
        text += _generic("y", ["%x", "%max", "%sum"], [in_ty, vec, vec],
                         [ident, row, row, ident], 2,
                         "    %d = arith.subf %a0, %a1 : f32\n    %e = math.exp %d : f32\n"
                         "    %r = arith.divf %e, %a2 : f32\n    linalg.yield %r : f32\n",
                         out_ty)
        return text + f"  return %y : {out_ty}\n}}\n"
    n = f"    %n = arith.constant {float(cols)!r} : f32\n"
    col_ty = f"tensor<{cols}xf32>"
    text += reduction("sum", "zero", ["%x"], [in_ty], [ident],
                      "    %r = arith.addf %a0, %acc : f32\n    linalg.yield %r : f32\n")
    text += reduction("var", "zero", ["%x", "%sum"], [in_ty, vec], [ident, row],
                      n + "    %mu = arith.divf %a1, %n : f32\n    %d = arith.subf %a0, %mu : f32\n"
                      "    %q = arith.mulf %d, %d : f32\n"
                      "    %r = arith.addf %q, %acc : f32\n    linalg.yield %r : f32\n")
    text += _generic("y", ["%x", "%sum", "%var", "%gamma", "%beta"],
                     [in_ty, vec, vec, col_ty, col_ty], [ident, row, row, col, col, ident], 2,
                     n + f"    %eps = arith.constant {LAYERNORM_EPS:.6e} : f32\n"
                     "    %mu = arith.divf %a1, %n : f32\n    %d = arith.subf %a0, %mu : f32\n"
                     "    %v = arith.divf %a2, %n : f32\n    %ve = arith.addf %v, %eps : f32\n"
                     "    %rs = math.rsqrt %ve : f32\n    %y0 = arith.mulf %d, %rs : f32\n"
                     "    %y1 = arith.mulf %y0, %a3 : f32\n"
                     "    %r = arith.addf %y1, %a4 : f32\n    linalg.yield %r : f32\n",
                     out_ty)
    return text + f"  return %y : {out_ty}\n}}\n"


def mlir_of(case):
    """The case as one function @main in linalg on tensors, as the ONNX
    importer would give it: the named conv/matmul op (f16/bf16/f32/i8
    operands, an f32 or i32 accumulator filled with zeros; TF32 is an f32
    op carrying `opsnn.tf32`, as `opsnn-assign-precision mode=tf32` marks
    it), then any epilogue as its own linalg.generic, for the compiler to
    fuse."""
    tys = [_t(s, _elem(d)) for s, d in case.input_specs]
    acc = _elem(case.output_spec[1])
    out_ty = _t(case.output_spec[0], acc)
    # The named op's result: the output, or for an NCHW epilogue its NHWC
    # product.
    nchw_epilogue = case.params.get("epilogue") == "bias_relu_nchw"
    y_ty = out_ty
    if nchw_epilogue:
        n_, f_, h_, w_ = case.output_spec[0]
        y_ty = _t((n_, h_, w_, f_), acc)
    names = {"conv": ["%x", "%w", "%bias"], "gemm": ["%a", "%b", "%bias"],
             "bgemm": ["%a", "%b"],
             "eltwise": ["%x", "%r"], "rowreduce": ["%x", "%m"], "layout": ["%x"],
             "rownorm": ["%x", "%gamma", "%beta"]}[case.kind]
    rank = len(case.output_spec[0])
    dims = ", ".join(f"d{i}" for i in range(rank))
    ident = f"affine_map<({dims}) -> ({dims})>"
    channel = f"affine_map<({dims}) -> (d{rank - 1})>"
    text = ("func.func @main(" + ", ".join(f"{n}: {t}" for n, t in zip(names, tys))
            + f") -> {out_ty} {{\n")
    if case.kind == "eltwise":
        # Three generics (scale-shift, ReLU + residual, scale): one pass over
        # memory once fused.
        e = case.dtype
        same = lambda n: [out_ty] * n
        text += _generic("t0", ["%x"], same(1), [ident] * 2, rank,
                         f"    %c0 = arith.constant 1.5 : {e}\n"
                         f"    %c1 = arith.constant 0.25 : {e}\n"
                         f"    %m = arith.mulf %a0, %c0 : {e}\n"
                         f"    %s = arith.addf %m, %c1 : {e}\n    linalg.yield %s : {e}\n",
                         out_ty, e)
        text += _generic("t1", ["%t0", "%r"], same(2), [ident] * 3, rank,
                         f"    %z = arith.constant 0.0 : {e}\n"
                         f"    %m = arith.maximumf %a0, %z : {e}\n"
                         f"    %s = arith.addf %m, %a1 : {e}\n    linalg.yield %s : {e}\n",
                         out_ty, e)
        text += _generic("y", ["%t1"], same(1), [ident] * 2, rank,
                         f"    %c = arith.constant 0.5 : {e}\n"
                         f"    %m = arith.mulf %a0, %c : {e}\n    linalg.yield %m : {e}\n",
                         out_ty, e)
        return text + f"  return %y : {out_ty}\n}}\n"
    if case.kind == "layout":
        # One generic over the output's loops reading the input permuted;
        # the cast (if any) in its payload.
        src, dst = _elem(case.input_specs[0][1]), acc
        perm = "d0, d3, d1, d2" if case.params["to_nhwc"] else "d0, d2, d3, d1"
        cast = ("" if src == dst else
                f"    %c = arith.{'truncf' if src == 'f32' else 'extf'} %a0 : {src} to {dst}\n")
        yielded = "%c" if cast else "%a0"
        text += _generic("y", ["%x"], tys, [f"affine_map<({dims}) -> ({perm})>", ident],
                         rank, cast + f"    linalg.yield {yielded} : {dst}\n", out_ty, src)
        text = text.replace(f"%out: {src}", f"%out: {dst}")
        return text + f"  return %y : {out_ty}\n}}\n"
    if case.kind == "rownorm":
        return text + _rownorm_body(case, tys[0], out_ty)
    if case.kind == "rowreduce":
        # One generic: the innermost loop is its only reduction and the row
        # maximum does not depend on it (what --opsnn-gpu-warp-reduce takes).
        row = "affine_map<(d0, d1) -> (d0)>"
        in_ty = tys[0]
        return text + (
            f"  %zero = arith.constant 0.0 : f32\n"
            f"  %empty = tensor.empty() : {out_ty}\n"
            f"  %acc = linalg.fill ins(%zero : f32) outs(%empty : {out_ty}) -> {out_ty}\n"
            f"  %y = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
            f"{row}, {row}], iterator_types = [\"parallel\", \"reduction\"]}}\n"
            f"      ins(%x, %m : {in_ty}, {out_ty}) outs(%acc : {out_ty}) {{\n"
            f"  ^bb0(%a0: f32, %a1: f32, %out: f32):\n"
            f"    %d = arith.subf %a0, %a1 : f32\n"
            f"    %e = math.exp %d : f32\n"
            f"    %s = arith.addf %e, %out : f32\n"
            f"    linalg.yield %s : f32\n"
            f"  }} -> {out_ty}\n"
            f"  return %y : {out_ty}\n}}\n")
    softmax = case.params.get("epilogue") == "softmax"
    if softmax:   # f32 scores, then P in f16
        acc, y_ty = "f32", _t(case.output_spec[0], "f32")
    zero = "0" if acc == "i32" else "0.0"
    text += (f"  %zero = arith.constant {zero} : {acc}\n"
             f"  %empty = tensor.empty() : {y_ty}\n"
             f"  %acc = linalg.fill ins(%zero : {acc}) outs(%empty : {y_ty}) -> {y_ty}\n")
    tf32 = "opsnn.tf32, " if case.dtype == "tf32" else ""
    if case.kind == "bgemm":
        kn = case.params["b_layout"] == "kn"
        if case.params.get("heads") == "bshd":
            amap = "(b, h, i, k)" if kn else "(b, i, h, k)"
            bmap = "(b, k, h, j)" if kn else "(b, j, h, k)"
            cmap = "(b, i, h, j)" if kn else "(b, h, i, j)"
        else:
            amap, cmap = "(b, h, i, k)", "(b, h, i, j)"
            bmap = "(b, h, k, j)" if kn else "(b, h, j, k)"
        et = _elem(case.input_specs[0][1])
        text += (f"  %y = linalg.generic {{indexing_maps = ["
                 f"affine_map<(b, h, i, j, k) -> {amap}>, "
                 f"affine_map<(b, h, i, j, k) -> {bmap}>, "
                 f"affine_map<(b, h, i, j, k) -> {cmap}>], iterator_types = "
                 f"[\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]}}\n"
                 f"      ins(%a, %b : {tys[0]}, {tys[1]}) outs(%acc : {y_ty}) {{\n"
                 f"  ^bb0(%x: {et}, %w: {et}, %o: f32):\n"
                 f"    %x32 = arith.extf %x : {et} to f32\n"
                 f"    %w32 = arith.extf %w : {et} to f32\n"
                 f"    %p = arith.mulf %x32, %w32 : f32\n"
                 f"    %s = arith.addf %o, %p : f32\n"
                 f"    linalg.yield %s : f32\n"
                 f"  }} -> {y_ty}\n")
        if softmax:
            k = case.input_specs[0][0][-1]
            text += _generic("z", ["%y"], [y_ty], [ident] * 2, rank,
                             f"    %c = arith.constant {1 / np.sqrt(k)!r} : f32\n"
                             f"    %m = arith.mulf %a0, %c : f32\n    linalg.yield %m : f32\n",
                             y_ty)
            text += (f"  %sm_init = tensor.empty() : {y_ty}\n"
                     f"  %sm = linalg.softmax dimension({rank - 1}) ins(%z : {y_ty}) "
                     f"outs(%sm_init : {y_ty}) -> {y_ty}\n")
            text += _generic("p", ["%sm"], [y_ty], [ident] * 2, rank,
                             "    %h = arith.truncf %a0 : f32 to f16\n"
                             "    linalg.yield %h : f16\n", out_ty)
            text = text.replace("%a0: f32, %out: f32):\n    %h", "%a0: f32, %out: f16):\n    %h")
            return text + f"  return %p : {out_ty}\n}}\n"
        return text + f"  return %y : {out_ty}\n}}\n"
    if case.kind == "conv":
        op = ("depthwise_" if case.params.get("depthwise") else "") + \
            f"conv_2d_{case.params['layout']}_{case.params['filter']}"
        s = case.params["stride"]
        x, x_ty, pad = "%x", tys[0], case.params.get("pad", 0)
        if pad:
            # The importer's zero padding of H and W, as a tensor.pad.
            shape = list(case.input_specs[0][0])
            spatial = [1, 2] if case.params["layout"] == "nhwc" else [2, 3]
            lows = ", ".join(str(pad if d in spatial else 0) for d in range(4))
            for d in spatial:
                shape[d] += 2 * pad
            x, x_ty = "%xp", _t(shape, _elem(case.input_specs[0][1]))
            zero = "0.0" if x_ty.endswith("f16>") or x_ty.endswith("f32>") else "0"
            et = _elem(case.input_specs[0][1])
            text += (f"  %pz = arith.constant {zero} : {et}\n"
                     f"  %xp = tensor.pad %x low[{lows}] high[{lows}] {{\n"
                     f"  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):\n"
                     f"    tensor.yield %pz : {et}\n"
                     f"  }} : {tys[0]} to {x_ty}\n")
        text += (f"  %y = linalg.{op} {{{tf32}strides = dense<{s}> : tensor<2xi64>, "
                 f"dilations = dense<1> : tensor<2xi64>}}\n"
                 f"      ins({x}, %w : {x_ty}, {tys[1]}) outs(%acc : {y_ty}) -> {y_ty}\n")
    elif case.params.get("b_layout") == "nk":
        et = _elem(case.input_specs[0][1])
        integer = acc == "i32"
        ext, mul, add = ("extsi", "muli", "addi") if integer else ("extf", "mulf", "addf")
        attrs = "attrs = {opsnn.tf32} " if tf32 else ""
        widen, xv, wv = "", "%x", "%w"
        if et != acc:
            widen = (f"    %x32 = arith.{ext} %x : {et} to {acc}\n"
                     f"    %w32 = arith.{ext} %w : {et} to {acc}\n")
            xv, wv = "%x32", "%w32"
        text += (f"  %y = linalg.generic {{indexing_maps = ["
                 f"affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
                 f"affine_map<(m, n, k) -> (m, n)>], iterator_types = "
                 f"[\"parallel\", \"parallel\", \"reduction\"]}}\n"
                 f"      ins(%a, %b : {tys[0]}, {tys[1]}) outs(%acc : {out_ty}) {attrs}{{\n"
                 f"  ^bb0(%x: {et}, %w: {et}, %o: {acc}):\n" + widen +
                 f"    %p = arith.{mul} {xv}, {wv} : {acc}\n"
                 f"    %s = arith.{add} %o, %p : {acc}\n"
                 f"    linalg.yield %s : {acc}\n"
                 f"  }} -> {out_ty}\n")
    else:
        attrs = "{opsnn.tf32} " if tf32 else ""
        text += (f"  %y = linalg.matmul {attrs}ins(%a, %b : {tys[0]}, {tys[1]}) "
                 f"outs(%acc : {out_ty}) -> {out_ty}\n")
    epilogue = case.params.get("epilogue")
    if not epilogue:
        return text + f"  return %y : {out_ty}\n}}\n"
    body = ("    %s = arith.addf %a0, %a1 : f32\n"
            + (GELU if epilogue == "bias_gelu" else RELU) + "    linalg.yield %o : f32\n")
    y_map, bias_map = ident, channel
    if nchw_epilogue:
        y_map = f"affine_map<({dims}) -> (d0, d2, d3, d1)>"
        bias_map = f"affine_map<({dims}) -> (d1)>"
    text += _generic("r", ["%y", "%bias"], [y_ty, tys[2]], [y_map, bias_map, ident], rank,
                     body, out_ty)
    return text + f"  return %r : {out_ty}\n}}\n"


# --- NumPy references (float64 from the values the kernel sees) ----------------------

def _conv_nhwc(x, w, stride):
    k = w.shape[0]
    n, hp, wp, c = x.shape
    ho, wo = (hp - k) // stride + 1, (wp - k) // stride + 1
    y = np.zeros((n, ho, wo, w.shape[3]))
    for i in range(k):
        for j in range(k):
            patch = x[:, i:i + stride * (ho - 1) + 1:stride, j:j + stride * (wo - 1) + 1:stride, :]
            y += np.tensordot(patch, w[i, j], 1)
    return y


def kernel_values(case, inputs, tf32_rounding=True):
    """The operands as the kernel reads them: bf16 bit patterns as their
    values, f32 rounded to TF32 for a TF32 case (not an epilogue's bias)
    unless `tf32_rounding` is off (the CPU pipeline multiplies in f32)."""
    if case.dtype == "bf16":
        return [from_bf16_bits(t) for t in inputs[:2]] + list(inputs[2:])
    if case.dtype == "f8":
        return [from_fp8_codes(t) for t in inputs[:2]] + list(inputs[2:])
    if case.dtype == "tf32" and tf32_rounding:
        return [round_tf32(t) for t in inputs[:2]] + list(inputs[2:])
    return list(inputs)


def reference(case, inputs, tf32_rounding=True):
    a = [np.asarray(t, np.float64) for t in kernel_values(case, inputs, tf32_rounding)]
    epi = case.params.get("epilogue")
    if case.kind == "conv" and case.params.get("depthwise"):
        s, nhwc = case.params["stride"], case.params["layout"] == "nhwc"
        x = a[0] if nhwc else a[0].transpose(0, 2, 3, 1)
        if case.params.get("pad"):
            p = case.params["pad"]
            x = np.pad(x, ((0, 0), (p, p), (p, p), (0, 0)))
        w = a[1] if nhwc else a[1].transpose(1, 2, 0)
        k, (n, hp, wp, c) = w.shape[0], x.shape
        ho, wo = (hp - k) // s + 1, (wp - k) // s + 1
        y = np.zeros((n, ho, wo, c))
        for i in range(k):
            for j in range(k):
                y += x[:, i:i + s * (ho - 1) + 1:s, j:j + s * (wo - 1) + 1:s, :] * w[i, j]
        return y if nhwc else y.transpose(0, 3, 1, 2)
    if case.kind == "conv":
        s = case.params["stride"]
        if case.params["layout"] == "nhwc" and case.params.get("filter") == "fhwc":
            y = _conv_nhwc(a[0], a[1].transpose(1, 2, 3, 0), s)
        elif case.params["layout"] == "nhwc":
            y = _conv_nhwc(a[0], a[1], s)
        else:   # NCHW/FCHW through the NHWC/HWCF helper
            y = _conv_nhwc(a[0].transpose(0, 2, 3, 1), a[1].transpose(2, 3, 1, 0), s)
            y = y.transpose(0, 3, 1, 2)
    elif case.kind == "gemm":
        y = a[0] @ (a[1].T if case.params.get("b_layout") == "nk" else a[1])
    elif case.kind == "bgemm":
        kn = case.params["b_layout"] == "kn"
        if case.params.get("heads") == "bshd" and kn:
            return (a[0] @ a[1].transpose(0, 2, 1, 3)).transpose(0, 2, 1, 3)
        if case.params.get("heads") == "bshd":
            return a[0].transpose(0, 2, 1, 3) @ a[1].transpose(0, 2, 3, 1)
        b = a[1] if kn else a[1].swapaxes(2, 3)
        y = a[0] @ b
        if case.params.get("epilogue") == "softmax":
            y = y / np.sqrt(a[0].shape[-1])
            e = np.exp(y - y.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)
        return y
    elif case.kind == "layout":
        return a[0].transpose((0, 2, 3, 1) if case.params["to_nhwc"] else (0, 3, 1, 2))
    elif case.kind == "rowreduce":
        return np.exp(a[0] - a[1][:, None]).sum(axis=1)
    elif case.kind == "rownorm" and case.params["op"] == "softmax":
        e = np.exp(a[0] - a[0].max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    elif case.kind == "rownorm":
        mu = a[0].mean(axis=1, keepdims=True)
        var = ((a[0] - mu) ** 2).mean(axis=1, keepdims=True)
        return (a[0] - mu) / np.sqrt(var + LAYERNORM_EPS) * a[1] + a[2]
    else:
        return (np.maximum(a[0] * 1.5 + 0.25, 0) + a[1]) * 0.5
    if epi == "bias_relu":
        y = np.maximum(y + a[2], 0)
    elif epi == "bias_relu_nchw":
        y = np.maximum(y + a[2], 0).transpose(0, 3, 1, 2)
    elif epi == "bias_gelu":
        v = y + a[2]
        y = 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v ** 3)))
    return y


def rel_l2(out, ref):
    out = np.asarray(out, np.float64)
    den = np.linalg.norm(ref)
    num = np.linalg.norm(out - ref)
    return float(num / den) if den > 0 else float(num)


# --- tools, target, device ------------------------------------------------------------

def find_tool(name, given=None):
    if given:
        return given
    candidates = []
    if os.environ.get("OPSNN_BUILD_DIR"):
        candidates.append(Path(os.environ["OPSNN_BUILD_DIR"]) / "bin" / name)
    candidates.append(ROOT / "build" / "bin" / name)
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    found = shutil.which(name)
    if found:
        return found
    sys.exit(f"cases.py: {name} not found (build the repository or set OPSNN_BUILD_DIR)")


def target_ceilings(opt, target):
    """The target's peaks, from `ops-nn-opt --test-opsnn-target-info` (as
    opsnn.bench.target_ceilings; repeated here so that this script needs
    NumPy only)."""
    with tempfile.TemporaryDirectory(prefix="opsnn-cases-") as tmp:
        src = Path(tmp) / "t.mlir"
        src.write_text('module attributes {opsnn.target = #opsnn.target<"%s">} {}\n' % target)
        proc = subprocess.run([opt, str(src), "--test-opsnn-target-info", "-o", os.devnull],
                              capture_output=True, text=True)
    m = re.search(r"remark: target (\S+) (.*)", proc.stderr)
    if not m:
        sys.exit(f"cases.py: no target info for {target}: {proc.stderr.strip()}")
    fields = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
    num = lambda k: float(fields.get(k, 0) or 0)
    return {"name": m.group(1), "kind": fields.get("kind"), "chip": fields.get("chip"),
            "dram_bandwidth_gbps": num("bw_gbps"),
            "peak_tflops": {"fp32": num("fp32"), "tf32": num("tf32"), "fp16": num("fp16"),
                            "bf16": num("bf16"), "fp8": num("fp8"), "int8": num("int8")}}


def cuda_device():
    """The first GPU's name as nvidia-smi reports it, or None."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return None
    try:
        proc = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    names = [l.strip() for l in proc.stdout.splitlines() if l.strip()]
    return names[0] if proc.returncode == 0 and names else None


def floor_of(case, ceil):
    peak_key = PEAK_KEY[case.dtype]
    if not ceil["peak_tflops"].get(peak_key):
        # No such units on the target (T4: BF16, TF32): the FP32 peak.
        peak_key = "fp32"
    peak = ceil["peak_tflops"][peak_key] * 1e12
    bw = ceil["dram_bandwidth_gbps"] * 1e9
    compute_s = case.flops / peak
    memory_s = case.bytes / bw
    return {"peak_key": peak_key, "peak_tflops": peak / 1e12,
            "compute_floor_ms": compute_s * 1e3, "memory_floor_ms": memory_s * 1e3,
            "floor_ms": max(compute_s, memory_s) * 1e3,
            "bound": "compute" if compute_s >= memory_s else "memory",
            "intensity": case.flops / case.bytes}


def _tail(text, n=3):
    lines = [l for l in (text or "").strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:])[:400]


def gpu_pipeline_options(case, chip, extra=""):
    """The options of --opsnn-lower-to-nvvm for `case` (and `extra`, the
    run's --pipeline-options)."""
    return " ".join(filter(None, [f"chip={chip} format=ptx tensor-cores=true",
                                  case.pipeline_options, extra]))


def ptxas_figures(opt, case_dir, src, chip, timeout, options):
    """Lowers `src` with the GPU pipeline (`options`) and assembles each
    kernel for `chip` (scripts/ptxas_check.py); returns a dict of figures."""
    pipeline = options
    lowered = case_dir / "gpu.mlir"
    proc = subprocess.run([opt, str(src), f"--opsnn-lower-to-nvvm={pipeline}", "-o",
                           str(lowered)], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        return {"ok": False, "status": "GPU lowering failed: " + _tail(proc.stderr)}
    text = lowered.read_text()
    # shfl.sync.bfly: the butterflies of the warp-per-row reduction kernels
    # (--opsnn-gpu-warp-reduce; the generic path has no shuffles).
    # ld/st.global.v2/.v4: vector accesses to global memory (the widened
    # elementwise kernels of --opsnn-vectorize-parallel-loops; Turing's
    # tensor-core copies).
    # The tensor-core instruction: mma.sync, or wgmma (the warpgroup
    # kernel, chip sm_90a).
    mma = ("wgmma" if "wgmma.mma_async" in text
           else "mma.sync" if "mma.sync" in text else None)
    info = {"tensor_cores": mma is not None, "mma": mma,
            "warp_shuffles": text.count("shfl.sync.bfly"),
            "global_vector_accesses": len(re.findall(r"(?:ld|st)\.global\.v[24]\.", text))}
    ptxas = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")
    if not (os.path.exists(ptxas) or shutil.which("ptxas")):
        info.update(ok=True, status="lowered (ptxas not found: not assembled)")
        return info
    # Static SASS counts too where nvdisasm is installed (requirements.txt):
    # the comparisons' code sizes in a dry run.
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    from ptxas_check import find_nvdisasm
    sass = ["--sass"] if find_nvdisasm() else []
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "ptxas_check.py"),
                           str(lowered), "--arch", chip, "--json", *sass],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        info.update(ok=False, status="ptxas failed: " + _tail(proc.stdout + proc.stderr))
        return info
    rows = json.loads(proc.stdout)
    spills = sum(r["spill_stores"] + r["spill_loads"] for r in rows)
    shared = max((r["shared_bytes"] for r in rows), default=0)
    if sass:
        info["sass_instructions"] = sum(r["sass_instructions"] for r in rows)
    info.update(ok=True, kernels=len(rows),
                max_registers=max((r["registers"] for r in rows), default=0),
                spill_bytes=spills,
                shared_bytes=shared,
                dynamic_shared=any(r.get("dynamic_shared") for r in rows),
                status=f"ptxas {chip} ok ({len(rows)} kernels"
                       + (f", {info['mma']}" if info["tensor_cores"] else "")
                       + (", dynamic smem" if any(r.get("dynamic_shared") for r in rows)
                          else "")
                       + (f", {info['warp_shuffles']} shfl.sync.bfly"
                          if info["warp_shuffles"] else "")
                       + (f", {info['global_vector_accesses']} ld/st.global.v"
                          if info["global_vector_accesses"] else "")
                       + (f", {shared} B smem" if shared else "")
                       + (f", {spills} B spilled)" if spills else ")"))
    return info


def run_json(cmd, timeout):
    """Runs an ops-nn-run command with --json; (summary or None, error)."""
    try:
        proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout:.0f} s"
    if proc.returncode != 0:
        return None, _tail(proc.stderr or proc.stdout)
    try:
        return json.loads(proc.stdout), None
    except json.JSONDecodeError:
        return None, "no JSON from ops-nn-run: " + _tail(proc.stdout)


# --- PyTorch (cuBLAS / cuDNN) -----------------------------------------------------------

def torch_python():
    """(python, description) of a Python whose torch sees a CUDA device, or
    (None, why not)."""
    seen, why = set(), "n/a (no torch)"
    for py in (sys.executable, "/usr/bin/python3"):
        if not py or py in seen or not os.path.exists(py):
            continue
        seen.add(py)
        try:
            proc = subprocess.run([py, "-c", "import torch; print(torch.__version__, "
                                   "int(torch.cuda.is_available()))"],
                                  capture_output=True, text=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if proc.returncode != 0:
            continue
        version, cuda = proc.stdout.split()[-2:]
        if cuda == "1":
            return py, f"PyTorch {version} ({py})"
        why = f"n/a (PyTorch {version} without CUDA)"
    return None, why


def torch_worker(spec_path):
    """Runs in the Python that has torch: times every case of the spec in
    both memory formats; prints one JSON object. BF16 cases run on bf16
    tensors, TF32 cases on f32 tensors with TF32 allowed for cuBLAS and
    cuDNN (PyTorch's defaults stay for the others)."""
    import torch
    import torch.nn.functional as F
    torch.backends.cudnn.benchmark = True
    default_tf32 = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
    spec = json.loads(Path(spec_path).read_text())
    # OPSNN_TORCH_DEVICE=cpu: a test of this worker where there is no GPU
    # (f32 arithmetic: PyTorch's CPU convolutions have no f16 kernels).
    on_cpu = os.environ.get("OPSNN_TORCH_DEVICE") == "cpu"
    dev = torch.device("cpu" if on_cpu else "cuda")
    results = {}
    for c in spec["cases"]:
        res = {}
        dtype = c.get("dtype", "f16")
        tf32 = dtype == "tf32"
        torch.backends.cuda.matmul.allow_tf32 = tf32 or default_tf32[0]
        torch.backends.cudnn.allow_tf32 = tf32 or default_tf32[1]
        try:
            arrays = [np.load(p) for p in c["inputs"]]
            if dtype == "bf16":   # bit patterns -> bf16 tensors (exact)
                arrays[:2] = [from_bf16_bits(t) for t in arrays[:2]]
            ins = [torch.from_numpy(t).to(dev) for t in arrays]
            if dtype == "bf16":
                ins[:2] = [t.to(torch.bfloat16) for t in ins[:2]]
            if dtype == "f8":   # E4M3FN codes -> float8_e4m3fn tensors (exact)
                ins[:2] = [t.view(torch.float8_e4m3fn) for t in ins[:2]]
            if on_cpu:
                ins = [t.float() for t in ins]
            ref = np.load(c["reference"])
            kind, p = c["kind"], c["params"]
            formats = ["default", "channels_last"] if kind == "conv" else ["default"]
            for fmt in formats:
                mf = torch.channels_last if fmt == "channels_last" else torch.contiguous_format
                if kind == "conv" and p.get("depthwise"):
                    nhwc = p["layout"] == "nhwc"
                    x = (ins[0].permute(0, 3, 1, 2) if nhwc else ins[0]).contiguous(
                        memory_format=mf)
                    w = (ins[1].permute(2, 0, 1) if nhwc else ins[1]).unsqueeze(1).contiguous(
                        memory_format=mf)

                    def fn(x=x, w=w):
                        return F.conv2d(x, w, stride=p["stride"], padding=p.get("pad", 0),
                                        groups=w.shape[0])

                    def to_ref(y):
                        y = y.float()
                        return y.permute(0, 2, 3, 1) if p["layout"] == "nhwc" else y
                elif kind == "conv":
                    if p["layout"] == "nhwc":
                        x = ins[0].permute(0, 3, 1, 2).contiguous(memory_format=mf)
                        w = ins[1].permute(*((0, 3, 1, 2) if p.get("filter") == "fhwc"
                                             else (3, 2, 0, 1))).contiguous(memory_format=mf)
                    else:
                        x = ins[0].contiguous(memory_format=mf)
                        w = ins[1].contiguous(memory_format=mf)
                    b = ins[2].to(x.dtype) if len(ins) > 2 else None

                    nchw_out = p.get("epilogue") == "bias_relu_nchw"

                    def fn(x=x, w=w, b=b, nchw_out=nchw_out):
                        y = F.conv2d(x, w, b, stride=p["stride"])
                        y = F.relu(y) if p.get("epilogue") else y
                        # Stored NCHW f32, as the compiled case stores it.
                        return y.float().contiguous() if nchw_out else y

                    def to_ref(y, nchw_out=nchw_out):
                        y = y.float()
                        if nchw_out:
                            return y
                        return (y.permute(0, 2, 3, 1) if p["layout"] == "nhwc" else y)
                elif kind == "bgemm" and p.get("heads") == "bshd":
                    # The framework's attention on [b, s, h, d] heads:
                    # permuted views, whatever copies matmul makes of them.
                    kn = p["b_layout"] == "kn"

                    def fn(a=ins[0], bm=ins[1], kn=kn):
                        if kn:
                            return (a @ bm.permute(0, 2, 1, 3)).permute(0, 2, 1, 3)
                        return a.permute(0, 2, 1, 3) @ bm.permute(0, 2, 3, 1)
                    to_ref = lambda y: y.float()
                elif kind == "bgemm" and p.get("epilogue") == "softmax":
                    # The framework's scores and softmax (two or three
                    # kernels: the GEMM, the scale, the softmax).
                    def fn(a=ins[0], bm=ins[1]):
                        s = a @ bm.transpose(2, 3) * (a.shape[-1] ** -0.5)
                        return torch.softmax(s, dim=-1)
                    to_ref = lambda y: y.float()
                elif kind == "bgemm":
                    bt = p["b_layout"] == "nk"

                    def fn(a=ins[0], bm=ins[1], bt=bt):
                        return a @ (bm.transpose(2, 3) if bt else bm)
                    to_ref = lambda y: y.float()
                elif kind == "gemm":
                    a, bm = ins[0], ins[1]
                    bias = ins[2].to(a.dtype) if len(ins) > 2 else None

                    if p.get("b_layout") == "nk":
                        bm = bm.t()

                    def fn(a=a, bm=bm, bias=bias):
                        if a.dtype == torch.float8_e4m3fn:   # cuBLASLt's FP8 GEMM
                            one = torch.ones((), device=a.device)
                            return torch._scaled_mm(a, bm, scale_a=one, scale_b=one,
                                                    out_dtype=torch.float32)
                        y = a @ bm
                        return F.gelu(y + bias, approximate="tanh") if bias is not None else y
                    to_ref = lambda y: y.float()
                elif kind == "layout":
                    # The framework's conversion: a channels_last copy (and
                    # the cast), or back to contiguous NCHW.
                    if p["to_nhwc"]:
                        def fn(x=ins[0]):
                            return x.half().contiguous(memory_format=torch.channels_last)
                        to_ref = lambda y: y.float().permute(0, 2, 3, 1)
                    else:
                        def fn(x=ins[0]):
                            return x.permute(0, 3, 1, 2).float().contiguous()
                        to_ref = lambda y: y.float()
                elif kind == "rowreduce":
                    x, m = ins

                    def fn(x=x, m=m):
                        return torch.exp(x - m[:, None]).sum(1)
                    to_ref = lambda y: y
                elif kind == "rownorm" and p["op"] == "softmax":
                    fn = lambda x=ins[0]: torch.softmax(x, dim=1)
                    to_ref = lambda y: y
                elif kind == "rownorm":
                    def fn(x=ins[0], g=ins[1], b=ins[2]):
                        return F.layer_norm(x, (x.shape[1],), g, b, eps=LAYERNORM_EPS)
                    to_ref = lambda y: y
                else:
                    x, r = ins

                    def fn(x=x, r=r):
                        return (torch.relu(x * 1.5 + 0.25) + r) * 0.5
                    to_ref = lambda y: y
                with torch.inference_mode():
                    out = to_ref(fn()).cpu().numpy().astype(np.float64)
                    err = float(np.linalg.norm(out - ref) / np.linalg.norm(ref))
                    tol = c["tolerance"]
                    if not err <= tol:
                        res[fmt] = {"rel_l2": err, "status":
                                    f"wrong answer (rel. L2 {err:.2e} > {tol:g}): not timed"}
                        continue
                    for _ in range(spec["warmup"] + 2):   # + cuDNN's autotuning
                        fn()
                    times = []
                    for _ in range(spec["repeat"]):
                        if on_cpu:
                            t0 = time.perf_counter()
                            fn()
                            times.append((time.perf_counter() - t0) * 1e3)
                            continue
                        start = torch.cuda.Event(enable_timing=True)
                        end = torch.cuda.Event(enable_timing=True)
                        start.record()
                        fn()
                        end.record()
                        end.synchronize()
                        times.append(start.elapsed_time(end))
                    res[fmt] = {"rel_l2": err, "median_ms": float(np.median(times)),
                                "min_ms": float(min(times)), "status": "ok"}
        except Exception as error:  # report, keep the other cases going
            res["error"] = f"{type(error).__name__}: {str(error)[:300]}"
        results[c["name"]] = res
    torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = default_tf32
    print(json.dumps({"torch": torch.__version__,
                      "cudnn": None if on_cpu else torch.backends.cudnn.version(),
                      "results": results}))
    return 0


def run_torch(py, rows, cases_by_name, work, args):
    spec = {"repeat": args.repeat, "warmup": args.warmup, "cases": []}
    for row in rows:
        if not row.get("correct") or "case_dir" not in row:
            continue
        case = cases_by_name[row["name"]]
        if case.dtype in NO_TORCH or (case.dtype, case.kind) in NO_TORCH_KIND:
            continue
        d = Path(row["case_dir"])
        n_in = len(case.input_specs)
        spec["cases"].append({"name": case.name, "kind": case.kind, "dtype": case.dtype,
                              "params": case.params,
                              "inputs": [str(d / f"in{i}.npy") for i in range(n_in)],
                              "reference": str(d / "ref.npy"),
                              "tolerance": TOLERANCE["torch-" + case.dtype]})
    if not spec["cases"]:
        return None, "no case to compare"
    spec_path = work / "torch_spec.json"
    spec_path.write_text(json.dumps(spec))
    try:
        proc = subprocess.run([py, str(Path(__file__).resolve()), "--torch-worker",
                               str(spec_path)], capture_output=True, text=True,
                              timeout=args.torch_timeout)
    except subprocess.TimeoutExpired:
        return None, f"PyTorch timed out after {args.torch_timeout:.0f} s"
    if proc.returncode != 0:
        return None, "PyTorch worker failed: " + _tail(proc.stderr)
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1]), None
    except (IndexError, json.JSONDecodeError):
        return None, "no JSON from the PyTorch worker: " + _tail(proc.stdout + proc.stderr)


# --- the driver -------------------------------------------------------------------------

def run_case(case, ceil, tools, work, args, deadline):
    row = {"name": case.name, "group": case.group, "kind": case.kind, "shape": case.shape,
           "dtype": case.dtype, "flops": case.flops, "bytes": case.bytes,
           **floor_of(case, ceil), "ours_ms": None, "rel_l2": None,
           "tolerance": case.tolerance, "correct": None,
           "pipeline_options": case.pipeline_options}
    d = work / case.name
    d.mkdir(parents=True, exist_ok=True)
    row["case_dir"] = str(d)
    src = d / "case.mlir"
    src.write_text(mlir_of(case))
    ptx = ptxas_figures(tools["opt"], d, src, args.chip, args.timeout,
                        gpu_pipeline_options(case, args.chip, args.pipeline_options))
    row["ptxas"] = ptx
    # A module that does not lower cannot run; one ptxas rejects still may
    # (the driver JIT-compiles the PTX itself), so only a dry run stops here.
    if not ptx["ok"] and (args.dry_run or ptx["status"].startswith("GPU lowering")):
        row.update(status=ptx["status"], failed=True)
        return row
    if time.monotonic() > deadline:
        row["status"] = ptx["status"] + "; not run: time budget spent"
        return row

    inputs = case.inputs()
    in_paths = []
    for i, a in enumerate(inputs):
        p = d / f"in{i}.npy"
        np.save(p, a)
        in_paths.append(p)
    # The CPU pipeline ignores `opsnn.tf32` and multiplies in full f32, so a
    # check on the CPU compares with the unrounded product (TF32 rounding of
    # 768-long dot products alone is ~3e-4, above the TF32 tolerance).
    on_cpu = args.dry_run or args.device == "cpu"
    ref = reference(case, inputs, tf32_rounding=not on_cpu)
    del inputs

    if args.dry_run:
        if case.flops > args.cpu_check_gflop * 1e9:
            row["status"] = ptx["status"] + (f"; CPU check skipped (> {args.cpu_check_gflop:g} "
                                             "GFLOP); not timed (dry run)")
            return row
        cmd = [tools["run"], src, "--device=cpu", f"--output-dir={d / 'out'}", "--json"]
        device_label = "CPU"
    elif args.device == "cpu":   # the GPU mode's steps on the CPU (a test of this script)
        cmd = [tools["run"], src, "--device=cpu", f"--emit-artifact={d / 'art'}",
               f"--output-dir={d / 'out'}", "--json"]
        device_label = "CPU"
    else:
        pipeline = ("opsnn-lower-to-nvvm{"
                    f"{gpu_pipeline_options(case, args.chip, args.pipeline_options)}}}")
        cmd = [tools["run"], src, "--device=cuda", f"--chip={args.chip}",
               f"--pipeline={pipeline}", f"--emit-artifact={d / 'art'}",
               f"--output-dir={d / 'out'}", "--json"]
        device_label = "GPU"
    _, error = run_json(cmd + [f"--input={p}" for p in in_paths], args.timeout)
    if error:
        row.update(status=f"{device_label} run failed: {error}", failed=True)
        return row
    out = np.load(d / "out" / "out0.npy")
    if out.shape != ref.shape:
        row.update(correct=False, failed=True,
                   status=f"wrong output shape {list(out.shape)}: not timed")
        return row
    row["rel_l2"] = rel_l2(out, ref)
    row["correct"] = bool(row["rel_l2"] <= row["tolerance"])
    if not row["correct"]:
        row["failed"] = True
        row["status"] = (f"wrong answer on the {device_label} (rel. L2 {row['rel_l2']:.2e} > "
                         f"{row['tolerance']:g}): not timed")
        return row
    np.save(d / "ref.npy", ref)
    if args.dry_run:
        row["status"] = ptx["status"] + "; CPU check ok; not timed (dry run)"
        return row
    if time.monotonic() > deadline:
        row["status"] = "checked; not timed: time budget spent"
        return row
    # Time the artifact: the compiled code the check ran.
    base = [tools["run"], d / "art", "--json"] + [f"--input={p}" for p in in_paths]
    summary, error = run_json(base + ["--repeat=3", "--warmup=1"], args.timeout)
    if summary and args.repeat > 3 and summary["time_ms"]["median"] * args.repeat < 5000:
        more, error = run_json(base + [f"--repeat={args.repeat}", f"--warmup={args.warmup}"],
                               args.timeout)
        summary = more or summary
    if not summary:
        row.update(status=f"checked; timing failed: {error}", failed=True)
        return row
    call = summary["time_ms"]
    # Kernel time (CUDA events) where ops-nn-run measured it (GPU), else the
    # whole call (--device=cpu).
    t = summary.get("kernel_time_ms") or call
    row.update(ours_ms=t["median"], ours_min_ms=t["min"], ours_max_ms=t["max"],
               ours_call_ms=call["median"], repeat=call["repeat"],
               ours_timing="kernels (CUDA events)" if "kernel_time_ms" in summary
               else "whole call")
    seconds = t["median"] * 1e-3
    row["achieved_fraction"] = row["floor_ms"] / t["median"]
    row["compute_fraction"] = case.flops / seconds / (row["peak_tflops"] * 1e12)
    row["bandwidth_fraction"] = case.bytes / seconds / (ceil["dram_bandwidth_gbps"] * 1e9)
    row["status"] = "ok" + (f" ({ptx['mma']})" if ptx.get("tensor_cores") else "")
    return row


def format_table(run):
    head = (f"{'case':22s} {'shape':56s} {'our ms':>9s} {'call ms':>9s} {'cuBLAS/cuDNN ms':>16s} "
            f"{'floor ms':>9s} {'achieved':>9s} {'rel L2':>9s}  status")
    rows = [head]
    fmt = lambda v, f: (f % v) if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"
    for r in run["cases"]:
        vendor = r.get("vendor_ms")
        vcol = fmt(vendor, "%.3f") if vendor is not None else (r.get("vendor_status") or "-")
        rows.append(f"{r['name']:22s} {r['shape'][:56]:56s} {fmt(r.get('ours_ms'), '%.3f'):>9s} "
                    f"{fmt(r.get('ours_call_ms'), '%.3f'):>9s} "
                    f"{vcol[:16]:>16s} {fmt(r['floor_ms'], '%.4g'):>9s} "
                    f"{fmt(r.get('achieved_fraction'), '%.3g'):>9s} "
                    f"{fmt(r.get('rel_l2'), '%.1e'):>9s}  {r.get('status', '-')}")
    return "\n".join(rows)


def format_notes(run):
    ceil = run["ceilings"]
    lines = [f"device: {run['device']}; target {ceil['name']} "
             f"({ceil['dram_bandwidth_gbps']:g} GB/s, "
             f"FP16/BF16 tensor {ceil['peak_tflops']['fp16']:g}/{ceil['peak_tflops']['bf16']:g}, "
             f"TF32 {ceil['peak_tflops']['tf32']:g}, FP32 {ceil['peak_tflops']['fp32']:g}, "
             f"FP8 {ceil['peak_tflops']['fp8']:g} TFLOP/s, INT8 {ceil['peak_tflops']['int8']:g} "
             f"TOPS); chip {run['chip']}; "
             f"mode {run['mode']}",
             "floor: max(FLOPs / peak of the operand type, minimum bytes / bandwidth); "
             "achieved: floor / our ms (1 = at the roofline); our ms: the call's kernels "
             "(CUDA events, inputs uploaded to the device once), median; call ms: the whole "
             "call as the host sees it (+ launches, result allocation, synchronisation)",
             f"cuBLAS/cuDNN: {run['torch']}"]
    for c in run.get("comparisons", []):
        code = c.get("code") or []
        sizes = ("; static SASS instructions " + " vs ".join(
                     f"{n} ({k} kernel{'s' if k != 1 else ''})" for n, k in code)
                 if len(code) == 2 and all(n is not None for n, _ in code) else "")
        lines.append(f"{c['what']}: " + (f"{c['ratio']:.2f}x (goal >= {c['goal']:g}x: "
                                           f"{'met' if c['met'] else 'NOT met'})"
                                           if c.get("ratio") else "n/a (not timed)") + sizes)
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dry-run", action="store_true",
                   help="no GPU: lower + ptxas every case, check the small ones on the CPU")
    p.add_argument("--cases", help="comma-separated case names (default: all; --list)")
    p.add_argument("--list", action="store_true", help="print the cases and exit")
    p.add_argument("--json", help="write the rows here")
    p.add_argument("--target", default="h200", help="target of the floors (default: h200)")
    p.add_argument("--chip", default=None, help="PTX chip (default: the target's)")
    p.add_argument("--pipeline-options", default="",
                   help="added to every case's GPU pipeline options, e.g. "
                        "tensor-core-wgmma-group-in-flight=false")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--cpu-check-gflop", type=float, default=2.0,
                   help="--dry-run: check on the CPU the cases up to this many GFLOP")
    p.add_argument("--time-budget", type=float, default=None,
                   help="seconds for all cases; later cases are reported, not run")
    p.add_argument("--timeout", type=float, default=300, help="seconds per tool call")
    p.add_argument("--torch-timeout", type=float, default=240)
    p.add_argument("--no-torch", action="store_true")
    p.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                   help="cpu: the GPU mode's steps (artifact, check, timing) on the CPU, "
                        "a test of this script without a GPU; its times are CPU times")
    p.add_argument("--work", help="keep inputs, modules and outputs here")
    p.add_argument("--ops-nn-run")
    p.add_argument("--ops-nn-opt")
    p.add_argument("--torch-worker", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.torch_worker:
        return torch_worker(args.torch_worker)

    cases = all_cases()
    if args.list:
        for c in cases:
            print(f"{c.name:22s} {c.group:9s} {c.shape}  {c.flops / 1e9:.2f} GFLOP, "
                  f"{c.bytes / 2**20:.1f} MiB")
        return 0
    if args.cases:
        wanted = args.cases.split(",")
        unknown = [n for n in wanted if n not in {c.name for c in cases}]
        if unknown:
            print(f"cases.py: unknown case(s) {', '.join(unknown)}; --list names them",
                  file=sys.stderr)
            return 1
        cases = [c for c in cases if c.name in wanted]
    tools = {"opt": find_tool("ops-nn-opt", args.ops_nn_opt),
             "run": find_tool("ops-nn-run", args.ops_nn_run)}
    ceil = target_ceilings(tools["opt"], args.target)
    args.chip = args.chip or ceil.get("chip") or "sm_80"
    device = (None if args.dry_run else
              "cpu (test of the GPU mode: CPU times)" if args.device == "cpu" else cuda_device())
    if not args.dry_run and device is None:
        print("cases.py: no CUDA device (nvidia-smi sees none): use --dry-run", file=sys.stderr)
        return 1

    owner = None
    if args.work:
        work = Path(args.work)
        work.mkdir(parents=True, exist_ok=True)
    else:
        owner = tempfile.TemporaryDirectory(prefix="opsnn-gpu-cases-")
        work = Path(owner.name)
    t0 = time.monotonic()
    deadline = t0 + args.time_budget if args.time_budget else float("inf")
    run = {"schema": "opsnn-gpu-bench", "version": 1,
           "mode": ("dry-run" if args.dry_run else
                    "cpu-test" if args.device == "cpu" else "gpu"),
           "device": device or "none (dry run: lowered and assembled, checked on the CPU)",
           "target": args.target, "chip": args.chip, "ceilings": ceil,
           "pipeline": f"opsnn-lower-to-nvvm{{chip={args.chip} format=ptx tensor-cores=true}}",
           "timing": {"repeat": args.repeat, "warmup": args.warmup,
                      "what": "ops-nn-run --repeat on the compiled artifact, inputs uploaded "
                              "to the device once: median of the kernels' CUDA-event time "
                              "per call (ours_ms) and of the whole call (ours_call_ms)"},
           "command": "bench/gpu/cases.py " + " ".join(argv if argv is not None else sys.argv[1:]),
           "cases": []}
    try:
        for case in cases:
            t = time.monotonic()
            try:
                row = run_case(case, ceil, tools, work, args, deadline)
            except Exception as error:  # report the case, keep the others going
                row = {"name": case.name, "group": case.group, "kind": case.kind,
                       "shape": case.shape, "dtype": case.dtype, "flops": case.flops,
                       "bytes": case.bytes, **floor_of(case, ceil), "ours_ms": None,
                       "failed": True, "ptxas": {},
                       "status": f"failed: {type(error).__name__}: {str(error)[:300]}"}
            row["case_s"] = time.monotonic() - t
            log(f"{case.name}: {row['status']} ({row['case_s']:.1f} s)")
            run["cases"].append(row)

        if args.dry_run:
            run["torch"] = "n/a (dry run)"
        elif args.device == "cpu":
            run["torch"] = "n/a (CPU test of the GPU mode)"
        elif args.no_torch:
            run["torch"] = "n/a (--no-torch)"
        else:
            py, what = torch_python()
            run["torch"] = what
            if py:
                if time.monotonic() > deadline:
                    run["torch"] = what + ": not run (time budget spent)"
                else:
                    if deadline != float("inf"):   # what is left of the budget, and a minute
                        args.torch_timeout = min(args.torch_timeout,
                                                 deadline - time.monotonic() + 60)
                    reply, error = run_torch(py, run["cases"], {c.name: c for c in cases},
                                             work, args)
                    if error:
                        run["torch"] = f"{what}: {error}"
                    elif reply:
                        run["torch"] = f"{what}, cuDNN {reply.get('cudnn')}"
                        for row in run["cases"]:
                            res = reply["results"].get(row["name"])
                            if res is not None:
                                row["torch"] = res
        for row in run["cases"]:
            t = row.get("torch") or {}
            timed = {k: v["median_ms"] for k, v in t.items()
                     if isinstance(v, dict) and v.get("median_ms")}
            if timed:
                best = min(timed, key=timed.get)
                row["vendor_ms"], row["vendor_format"] = timed[best], best
                if row.get("ours_ms"):
                    row["ratio_to_vendor"] = row["ours_ms"] / row["vendor_ms"]
            else:
                row["vendor_status"] = ("failed" if t else
                                        NO_TORCH.get(row.get("dtype")) or
                                        NO_TORCH_KIND.get((row.get("dtype"),
                                                           row.get("kind"))) or
                                        ("n/a (no torch)" if "no torch" in run["torch"]
                                         else "n/a"))
            row.pop("case_dir", None)
        by_name = {r["name"]: r for r in run["cases"]}
        run["comparisons"] = []
        for fast, slow, goal, what in COMPARISONS:
            if fast in by_name and slow in by_name:
                a, b = by_name[fast].get("ours_ms"), by_name[slow].get("ours_ms")
                ratio = b / a if a and b else None
                code = [by_name[n].get("ptxas", {}) for n in (fast, slow)]
                run["comparisons"].append({
                    "what": f"{what} ({fast} vs {slow})",
                    "fast": fast, "slow": slow, "goal": goal, "ratio": ratio,
                    "met": bool(ratio and ratio >= goal),
                    # Static SASS instructions (all kernels) and kernels.
                    "code": [(c.get("sass_instructions"), c.get("kernels")) for c in code]})
    finally:
        run["total_s"] = time.monotonic() - t0
        if owner is not None:
            owner.cleanup()
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(run, indent=1, sort_keys=True) + "\n")
    print(format_table(run))
    print(format_notes(run), flush=True)
    failed = [r["name"] for r in run["cases"] if r.get("failed")]
    if args.json:
        print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
