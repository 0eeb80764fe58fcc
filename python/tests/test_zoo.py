"""End-to-end: every small zoo model, our CPU output vs onnxruntime on the
same random input, relative L2 <= 1e-4 in FP32."""

import pytest

from opsnn import zoo


@pytest.mark.parametrize("name", sorted(zoo.MODELS))
def test_zoo_model_matches_onnxruntime(name, tmp_path):
    path = zoo.build(name, tmp_path)
    errors = zoo.check(path)
    assert errors and max(errors) <= 1e-4, errors


# The GPU pipeline's kernels as algorithms, on the CPU: TF32 tensor-core
# GEMMs (A100 tiles, operands rounded to TF32), warp-per-row reductions and
# row groups (softmax, layer norm: one kernel each on a GPU). The
# transformers exercise all three end to end; TF32 keeps 10 mantissa bits,
# so ~3e-4 from onnxruntime's FP32 (1e-3 allowed), where the plain CPU
# pipeline is ~2e-7 off.
EMULATED_GPU = ("opsnn-lower-to-cpu{emulate-warp-reductions "
                "emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32}")


@pytest.mark.parametrize("name", ["bert_tiny", "vit_tiny"])
def test_transformer_through_emulated_gpu_kernels(name, tmp_path):
    import onnx
    from opsnn import api
    from opsnn.cli import onnxruntime_outputs, rel_l2
    path = zoo.build(name, tmp_path)
    inputs = zoo.random_inputs(onnx.load(str(path)))
    mlir, meta = api._load_source(str(path))
    src = tmp_path / "model.mlir"
    src.write_text(mlir)
    ours = api._run_with_tool(str(src), inputs, meta, pipeline=EMULATED_GPU)
    ref = onnxruntime_outputs(path, inputs)
    errors = [rel_l2(a, b) for a, b in zip(ours, ref)]
    assert errors and max(errors) <= 1e-3, errors
    assert max(errors) > 1e-6, "TF32 rounding did not show: not the emulated kernels?"


def _bert_tiny_kernels(precision, option, tmp_path):
    """bert_tiny imported from ONNX and lowered by the tensor-core pipeline
    (TF32, or mixed-fp16 after --opsnn-optimize) with the pipeline option
    `option` true and false: each way, the PTX of every kernel."""
    from opsnn import api
    from opsnn.tools import run_tool
    path = zoo.build("bert_tiny", tmp_path)
    mlir, _ = api._load_source(str(path))
    src = tmp_path / "model.mlir"
    src.write_text(mlir)
    first = ("opsnn-optimize{target=a100 precision=mixed-fp16},"
             if precision == "mixed-fp16" else "")
    tf32 = " tensor-core-tf32=true" if precision == "tf32" else ""
    binaries = {}
    for value in ("true", "false"):
        pipeline = (f"builtin.module({first}opsnn-lower-to-nvvm{{chip=sm_80 format=ptx "
                    f"tensor-cores=true{tf32} {option}={value}}})")
        lowered = run_tool("ops-nn-opt", [src, f"--pass-pipeline={pipeline}"], "lowering")
        binaries[value] = lowered.split("gpu.binary @")[1:]
    return binaries


# The tensor-core pipeline fuses each layer's Q, K and V projections (three
# GEMMs on one input, constant weights) into one GEMM whose epilogue adds
# the three biases (--opsnn-fuse-sibling-contractions): bert_tiny's two
# layers lose two GEMM kernels each, and every kernel left with mma.sync
# stays one (Q K^T and P V read Q, K and V as strided views of the fused
# output instead of falling back to the generic path).
@pytest.mark.parametrize("precision", ["tf32", "mixed-fp16"])
def test_bert_qkv_projections_fuse_into_one_gemm(precision, tmp_path):
    binaries = _bert_tiny_kernels(precision, "tensor-core-fuse-siblings", tmp_path)
    counts = {fuse: (len(b), sum("mma.sync" in k for k in b)) for fuse, b in binaries.items()}
    kernels, mma = counts["false"]
    assert counts["true"] == (kernels - 4, mma - 4), counts


# The tensor-core pipeline runs each layer's softmax inside the scores'
# kernel (Q K^T, scaled, then normalized over the keys in the block's row
# tile): bert_tiny's two layers lose their softmax kernel each (a warp per
# row, with the scale before it and the divide and cast after it), and the
# two scores kernels now both multiply with mma.sync and take exponentials.
@pytest.mark.parametrize("precision", ["tf32", "mixed-fp16"])
def test_bert_softmax_runs_in_the_scores_kernel(precision, tmp_path):
    binaries = _bert_tiny_kernels(precision, "tensor-core-fuse-softmax", tmp_path)

    def exp_after_mma(fuse):   # the FFN's GELU (erf) takes exponentials too
        return sum("mma.sync" in b and "ex2.approx" in b for b in binaries[fuse])
    assert exp_after_mma("true") == exp_after_mma("false") + 2
    assert len(binaries["true"]) == len(binaries["false"]) - 2, \
        (len(binaries["true"]), len(binaries["false"]))


def calibrate(src, model, tmp_path):
    """The activation ranges of `src` (ops-nn-run --collect-ranges on the
    CPU) over two random samples of `model`'s inputs, seeds 1 and 2 (the
    checks use seed 0), as a user calibrates; returns the ranges file."""
    import numpy as np
    from opsnn.tools import run_tool
    ranges = tmp_path / "ranges.json"
    for seed in (1, 2):
        sample = []
        for i, a in enumerate(zoo.random_inputs(model, seed=seed)):
            np.save(tmp_path / f"cal{seed}_{i}.npy", a)
            sample.append(f"--input={tmp_path / f'cal{seed}_{i}.npy'}")
        run_tool("ops-nn-run", [src, *sample, f"--collect-ranges={ranges}",
                                *(["--append-ranges"] if seed == 2 else [])], "calibration")
    return ranges


def hopper_kernels(src, optimize):
    """`src` through the `optimize` stage and the tensor-core pipeline with
    sm_90a PTX: its kernels' binaries, checked to be as many as with sm_90
    PTX (the warpgroup kernel keeps every fill and epilogue it absorbs)."""
    from opsnn.tools import run_tool
    binaries = {}
    for chip in ("sm_90", "sm_90a"):
        lowered = run_tool("ops-nn-opt", [src, f"--pass-pipeline=builtin.module({optimize},"
                                          f"opsnn-lower-to-nvvm{{chip={chip} format=ptx "
                                          "tensor-cores=true})"], "lowering")
        binaries[chip] = lowered.split("gpu.binary @")[1:]
    assert len(binaries["sm_90a"]) == len(binaries["sm_90"]), \
        (len(binaries["sm_90a"]), len(binaries["sm_90"]))
    return binaries["sm_90a"]


def calibrated_zoo_model(name, tmp_path):
    """The zoo's model `name` as MLIR, calibrated (see calibrate): (the ONNX
    path, the model, the MLIR source, its metadata, the ranges file)."""
    import onnx
    from opsnn import api
    path = zoo.build(name, tmp_path)
    model = onnx.load(str(path))
    mlir, meta = api._load_source(str(path))
    src = tmp_path / "model.mlir"
    src.write_text(mlir)
    return path, model, src, meta, calibrate(src, model, tmp_path)


def bert_tiny_8bit(tmp_path, precision="fp8"):
    """bert_tiny (calibrated_zoo_model) and the --opsnn-optimize stage that
    deploys it in FP8 (or `precision`: int8) on an H100: (the ONNX path,
    the model, the MLIR source, its metadata, the stage)."""
    path, model, src, meta, ranges = calibrated_zoo_model("bert_tiny", tmp_path)
    return path, model, src, meta, (f"opsnn-optimize{{target=h100 precision={precision} "
                                    f"calibration={ranges}}}")


# Post-training FP8 as a user deploys it on an H100: activation ranges
# calibrated on two random samples (ops-nn-run --collect-ranges), then
# --opsnn-optimize="precision=fp8 calibration=..." and the tensor-core
# pipeline for sm_90. bert_tiny's two layers have four weight GEMMs each
# (Q/K/V stacked into one, the attention output, the two FFN ones): all
# eight on FP8 mma.sync. Attention's Q K^T and P V, which quantization
# leaves in FP32, run as TF32 (range-tf32, on by default in
# --opsnn-optimize). Every activation is quantized inside the kernel that
# writes it (a LayerNorm's, or a GEMM's epilogue: P V stores FP8 for the
# output projection), none in a kernel of its own. The emulated kernels
# against onnxruntime: E4M3's 3 mantissa bits, about 5e-2 (0.1 allowed;
# the plain FP32 pipeline is ~2e-7 off).
def test_bert_fp8_on_fp8_tensor_cores(tmp_path):
    import re

    from opsnn import api
    from opsnn.cli import onnxruntime_outputs, rel_l2
    from opsnn.tools import run_tool
    path, model, src, meta, optimize = bert_tiny_8bit(tmp_path)
    lowered = run_tool("ops-nn-opt", [src, f"--pass-pipeline=builtin.module({optimize},"
                                      "opsnn-lower-to-nvvm{chip=sm_90 format=ptx "
                                      "tensor-cores=true})"], "lowering")
    binaries = lowered.split("gpu.binary @")[1:]
    fp8 = [b for b in binaries if "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32" in b]
    assert len(fp8) == 8, len(fp8)
    tf32 = [b for b in binaries if "mma.sync.aligned.m16n8k8.row.col.f32.tf32" in b]
    assert len(tf32) == 4, len(tf32)
    # Quantizing kernels (FP8 stores) without a product or a row reduction.
    alone = [b for b in binaries if re.search(r"st\.global(\.v[24])?\.b8", b)
             and "mma.sync" not in b and "shfl.sync" not in b]
    assert not alone, len(alone)
    inputs = zoo.random_inputs(model)
    ours = api._run_with_tool(str(src), inputs, meta, pipeline=(
        f"{optimize},opsnn-lower-to-cpu{{emulate-warp-reductions "
        "emulate-tensor-core-matmul=h100}"))
    errors = [rel_l2(a, b) for a, b in zip(ours, onnxruntime_outputs(path, inputs))]
    assert errors and 1e-3 < max(errors) <= 0.1, errors


# Mixed FP16 as a user deploys it on an H100 with sm_90a PTX: every
# tensor-core kernel of bert_tiny on the warpgroup kernel (wgmma): the
# weight GEMMs (a K x N B, read transposed) and attention's scores (B is
# K, N x K, read K-major, with the softmax over the row tile), the same
# number of kernels as with sm_90 PTX (a wgmma kernel between a GEMM and
# its fill keeps neither the fill nor the softmax apart). vit_tiny's too:
# P V over 17 tokens reads P's rows, and the 10-class head its weight's
# rows of 10 f16, element by element into the swizzled tiles. The
# emulated kernels (emulate-tensor-core-warpgroup-mma) against
# onnxruntime at the FP16 tolerance.
@pytest.mark.parametrize("name,on_wgmma,on_mma", [("bert_tiny", 12, 0), ("vit_tiny", 14, 0)])
def test_mixed_fp16_on_wgmma(tmp_path, name, on_wgmma, on_mma):
    from opsnn import api
    from opsnn.cli import onnxruntime_outputs, rel_l2
    path = zoo.build(name, tmp_path)
    mlir, meta = api._load_source(str(path))
    src = tmp_path / "model.mlir"
    src.write_text(mlir)
    optimize = "opsnn-optimize{target=h100 precision=mixed-fp16}"
    binaries = hopper_kernels(src, optimize)
    wgmma = [b for b in binaries if "wgmma.mma_async" in b]
    mma = [b for b in binaries if "mma.sync" in b]
    assert (len(wgmma), len(mma)) == (on_wgmma, on_mma), (len(wgmma), len(mma))
    import onnx
    inputs = zoo.random_inputs(onnx.load(str(path)))
    ours = api._run_with_tool(str(src), inputs, meta, pipeline=(
        f"{optimize},opsnn-lower-to-cpu{{emulate-warp-reductions "
        "emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}"))
    errors = [rel_l2(a, b) for a, b in zip(ours, onnxruntime_outputs(path, inputs))]
    assert errors and max(errors) <= 2e-3, errors


# Post-training FP8 and INT8 as a user deploys them on an H100 with sm_90a
# PTX: the weight GEMMs (constant weights, which
# --opsnn-transpose-byte-weights stores N x K, also those of the
# importer's [b,s,k] x [k,h,e] contractions) on wgmma .e4m3 or .s8 (8-bit
# wgmma operands are K-major only), attention's scores (TF32, K stored
# N x K, the softmax over the row tile) on wgmma .tf32, P V (TF32, V
# stored K x N) on mma.sync; the same kernels as with sm_90 PTX. Both
# have 8 weight GEMMs: Q, K and V read one quantized input and are
# stacked into one GEMM per layer. The emulated kernels against
# onnxruntime at the 8-bit tolerance.
@pytest.mark.parametrize("precision,wgmma_type",
                         [("fp8", ".f32.e4m3.e4m3"), ("int8", ".s32.s8.s8")])
def test_bert_8bit_on_wgmma(tmp_path, precision, wgmma_type):
    from opsnn import api
    from opsnn.cli import onnxruntime_outputs, rel_l2
    path, model, src, meta, optimize = bert_tiny_8bit(tmp_path, precision)
    binaries = hopper_kernels(src, optimize)
    wgmma = [b for b in binaries if "wgmma.mma_async" in b]
    weights = [b for b in wgmma if wgmma_type in b]
    tf32 = [b for b in wgmma if ".tf32.tf32" in b]
    mma = [b for b in binaries if "mma.sync" in b]
    assert (len(weights), len(tf32), len(wgmma), len(mma)) == (8, 2, 10, 2), \
        (len(weights), len(tf32), len(wgmma), len(mma))
    inputs = zoo.random_inputs(model)
    ours = api._run_with_tool(str(src), inputs, meta, pipeline=(
        f"{optimize},opsnn-lower-to-cpu{{emulate-warp-reductions "
        "emulate-tensor-core-matmul=h100 emulate-tensor-core-warpgroup-mma}"))
    errors = [rel_l2(a, b) for a, b in zip(ours, onnxruntime_outputs(path, inputs))]
    assert errors and 1e-3 < max(errors) <= 0.1, errors


# resnet_tiny under post-training FP8 (and INT8) on an H100: the convolutions' zero
# padding goes on the FP8 codes, not on the f32 activations, so the
# tensor-core kernels read the padded codes unpadded and FP8 and INT8 have
# no more kernels than mixed FP16 (11; FP8 had 20: an f32 fill, a copy and
# a quantizing kernel per padded convolution; INT8 21, then 12 while a
# block output read padded and unpadded was quantized twice).
def test_resnet_fp8_pads_the_codes(tmp_path):
    from opsnn.tools import run_tool
    _, _, src, _, ranges = calibrated_zoo_model("resnet_tiny", tmp_path)
    kernels = {}
    for precision in ("mixed-fp16", f"fp8 calibration={ranges}",
                      f"int8 calibration={ranges}"):
        lowered = run_tool("ops-nn-opt", [src, "--pass-pipeline=builtin.module("
                                          f"opsnn-optimize{{target=h100 precision={precision}}},"
                                          "opsnn-lower-to-nvvm{chip=sm_90 format=ptx "
                                          "tensor-cores=true})"], "lowering")
        kernels[precision.split()[0]] = lowered.count("gpu.binary @")
    assert kernels["fp8"] == kernels["int8"] == kernels["mixed-fp16"] == 11, kernels
