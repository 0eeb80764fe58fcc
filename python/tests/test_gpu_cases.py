"""The GPU benchmark cases (bench/gpu/cases.py) without a GPU, and their
place in the bench JSON and the dashboard.

A --dry-run of the smallest cases (one of each kind: a ResNet-50 conv, a
BERT GEMM, the fused conv + bias + ReLU, the elementwise chain, the BF16
and INT8 convs, the softmax-denominator row reduction) lowers
each with the GPU pipeline, assembles it with ptxas for sm_90 and checks
the same module on the CPU against NumPy; its JSON is what the dashboard
test merges into a bench run. The GPU mode's steps (artifact, check, then
timing) run on the CPU with --device cpu, where a wrong answer must be
reported and never timed. No figure here is a result: the tests check
structure, the floors against the target table and the agreement checks.
"""

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from opsnn import bench, dashboard

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "bench" / "gpu" / "cases.py"
SMALLEST = ["r50_s5_3x3", "bert_attn_out", "r50_s3_3x3_bias_relu",
            "r50_s3_3x3_bias_relu_nchw", "eltwise_chain",
            "softmax_den", "r50_s3_3x3_bf16", "r50_s3_3x3_int8"]
# The roofline peak of each operand type: its tensor-core peak (TOPS for INT8).
PEAK = {"f16": "fp16", "bf16": "bf16", "tf32": "tf32", "i8": "int8", "f32": "fp32"}


def load_cases_module():
    spec = importlib.util.spec_from_file_location("gpu_cases", CASES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def dry_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu") / "gpu.json"
    proc = subprocess.run([sys.executable, str(CASES), "--dry-run", "--cases", ",".join(SMALLEST),
                           "--json", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out, json.loads(out.read_text()), proc.stdout


def test_dry_run_checks_every_case_and_times_none(dry_run):
    _, gpu, table = dry_run
    assert gpu["schema"] == "opsnn-gpu-bench" and gpu["mode"] == "dry-run"
    assert gpu["device"].startswith("none") and gpu["chip"] == "sm_90"
    ceil = bench.target_ceilings("h200")
    assert gpu["ceilings"]["dram_bandwidth_gbps"] == ceil["dram_bandwidth_gbps"]
    assert gpu["ceilings"]["peak_tflops"] == ceil["peak_tflops"]
    assert [r["name"] for r in gpu["cases"]] == SMALLEST
    ptxas = os.path.exists(os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas"))
    for r in gpu["cases"]:
        # The floor is the roofline of the target's table.
        peak = ceil["peak_tflops"][PEAK[r["dtype"]]] * 1e12
        assert r["peak_key"] == PEAK[r["dtype"]]
        bw = ceil["dram_bandwidth_gbps"] * 1e9
        assert r["floor_ms"] == pytest.approx(1e3 * max(r["flops"] / peak, r["bytes"] / bw))
        assert r["bound"] == ("compute" if r["flops"] / peak >= r["bytes"] / bw else "memory")
        # Checked on the CPU, within its precision's tolerance; not timed.
        assert r["correct"] is True and 0 <= r["rel_l2"] <= r["tolerance"], r
        assert r["ours_ms"] is None and "achieved_fraction" not in r
        assert r["ptxas"]["ok"], r
        if ptxas:   # spills are the kernels' business (test/GPU), not this script's
            assert r["ptxas"]["kernels"] >= 1 and r["ptxas"]["spill_bytes"] >= 0
        assert r["name"] in table
    by_name = {r["name"]: r for r in gpu["cases"]}
    conv = by_name["r50_s5_3x3"]
    # 8 x 7 x 7 outputs x 512 filters x 512 x 3 x 3 MACs; padded f16 input,
    # f16 filter, f32 output, each moved once.
    assert conv["flops"] == 2 * 8 * 7 * 7 * 512 * 512 * 9
    assert conv["bytes"] == 8 * 9 * 9 * 512 * 2 + 3 * 3 * 512 * 512 * 2 + 8 * 7 * 7 * 512 * 4
    # BF16: 2-byte operands, f32 result, exact products (only the f32
    # accumulation order differs from the reference).
    bf16 = by_name["r50_s3_3x3_bf16"]
    assert bf16["dtype"] == "bf16" and bf16["tolerance"] == 1e-4 and bf16["rel_l2"] < 1e-5
    assert bf16["bytes"] == 8 * 30 * 30 * 128 * 2 + 9 * 128 * 128 * 2 + 8 * 28 * 28 * 128 * 4
    # INT8: 1-byte operands, i32 result, exact.
    int8 = by_name["r50_s3_3x3_int8"]
    assert int8["dtype"] == "i8" and int8["tolerance"] == 0 and int8["rel_l2"] == 0
    assert int8["bytes"] == 8 * 30 * 30 * 128 + 128 * 9 * 128 + 8 * 28 * 28 * 128 * 4
    assert "NHWC/FHWC i8->i32" in int8["shape"] and int8["vendor_status"] == "n/a (no int8)"
    # The row reduction: 3 FLOPs per element, x + row max + row sums moved
    # once (memory bound), its own tolerance, and the warp-per-row kernel
    # (one butterfly of five xor shuffles; the zero fill folds into it).
    den = by_name["softmax_den"]
    assert den["flops"] == 3 * 4096 * 1024 and den["bound"] == "memory"
    assert den["bytes"] == 4096 * 1024 * 4 + 4096 * 4 + 4096 * 4
    assert den["tolerance"] == 1e-5 and den["rel_l2"] < 1e-5
    assert den["ptxas"]["warp_shuffles"] == 5
    assert all(r["ptxas"]["warp_shuffles"] == 0 for r in gpu["cases"] if r is not den)
    # Bias + ReLU stored NCHW by the epilogue: one kernel as the NHWC case,
    # the same bytes (f32 out either way), its rows written element by
    # element instead of as vectors.
    nhwc, nchw = by_name["r50_s3_3x3_bias_relu"], by_name["r50_s3_3x3_bias_relu_nchw"]
    assert nchw["shape"].endswith("->NCHW") and nchw["bytes"] == nhwc["bytes"]
    if ptxas:
        assert nchw["ptxas"]["kernels"] == nhwc["ptxas"]["kernels"] == 1
        assert nchw["ptxas"]["tensor_cores"] and nhwc["ptxas"]["tensor_cores"]
        assert nchw["ptxas"]["spill_bytes"] == 0
    assert gpu["torch"] == "n/a (dry run)"
    assert "floor ms" in table and "cuBLAS/cuDNN ms" in table


def test_wrong_answer_is_reported_and_never_timed(tmp_path, capsys):
    cases = load_cases_module()
    out = tmp_path / "gpu.json"
    # The GPU mode's steps on the CPU: a correct case is checked, then timed.
    assert cases.main(["--device", "cpu", "--cases", "r50_s5_3x3", "--repeat", "1",
                       "--warmup", "0", "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())["cases"]
    assert row["correct"] and row["ours_ms"] > 0
    assert row["achieved_fraction"] == pytest.approx(row["floor_ms"] / row["ours_ms"])
    seconds = row["ours_ms"] * 1e-3
    assert row["bandwidth_fraction"] == pytest.approx(row["bytes"] / seconds / 4800e9)
    # Timed rows go on the dashboard's GPU roofline, marked as not GPU times.
    run = bench.merge_gpu(_bench_run(), bench.load_gpu_json(out))
    section = dashboard.render(run).split("<h2>GPU cases</h2>")[1]
    assert "the times are not GPU times" in section and "<svg" in section
    # A reference that disagrees: reported, never timed, exit 1.
    real = cases.reference
    cases.reference = lambda case, inputs, **kw: real(case, inputs, **kw) * 1.01
    try:
        assert cases.main(["--device", "cpu", "--cases", "r50_s5_3x3", "--json", str(out)]) == 1
    finally:
        cases.reference = real
    (row,) = json.loads(out.read_text())["cases"]
    assert row["correct"] is False and row["failed"] and row["ours_ms"] is None
    assert "wrong answer" in row["status"] and "not timed" in row["status"]
    assert math.isclose(row["rel_l2"], 0.01 / 1.01, rel_tol=1e-3)
    capsys.readouterr()


def _bench_run():
    return {"schema": "opsnn-bench", "version": 1, "command": "test", "target": "host",
            "ceilings": bench.target_ceilings("host"), "machine_start": bench.machine_state(),
            "machine_end": bench.machine_state(), "timing": {"rounds": 1, "repeat": 1},
            "configs": {}, "models": []}


def test_gpu_json_merges_into_the_bench_run_and_the_dashboard(dry_run, tmp_path):
    from opsnn.cli import main
    path, gpu, _ = dry_run
    run = bench.merge_gpu(_bench_run(), bench.load_gpu_json(path))
    assert run["gpu"]["cases"] == gpu["cases"] and run["gpu"]["source"] == str(path)
    table = bench.format_gpu_table(run["gpu"])
    assert all(name in table for name in SMALLEST)
    run_json = tmp_path / "run.json"
    run_json.write_text(json.dumps(run))
    page_file = tmp_path / "report.html"
    assert main(["report", str(run_json), "-o", str(page_file)]) == 0
    page = page_file.read_text()
    section = page[page.index("<h2>GPU cases</h2>"):]
    assert "No GPU results" not in page and "Dry run" in section
    for r in gpu["cases"]:
        assert f"<td class=l>{r['name']}</td>" in section
        assert f"{r['floor_ms']:.4g} ({r['bound']})" in section
    # Without a gpu section the page says so.
    page = dashboard.render(_bench_run())
    assert "No GPU results are in this run" in page


def test_gpu_options_fail_clearly_without_results(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_bench_run()))
    with pytest.raises(ValueError, match="not the JSON of bench/gpu/cases.py"):
        bench.load_gpu_json(bad)
    # A bad --gpu-json fails before the CPU part starts.
    assert bench.main(["--gpu-json", str(bad), "--models", "resnet_tiny"]) == 1
    assert "not the JSON of bench/gpu/cases.py" in capsys.readouterr().err
    if not bench.cuda_device_present():
        assert bench.run_gpu_cases(tmp_path, 60) == (None, bench.NO_CUDA)


def _python_with_torch():
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if os.path.exists(py) and subprocess.run([py, "-c", "import torch"],
                                                 capture_output=True).returncode == 0:
            return py
    return None


def test_torch_worker_agrees_with_the_references(tmp_path, monkeypatch, capsys):
    """The PyTorch peer's layouts, strides and epilogues, run on the CPU
    (OPSNN_TORCH_DEVICE=cpu) against the same references as ours."""
    py = _python_with_torch()
    if py is None:
        pytest.skip("no Python with PyTorch (Debian: python3-torch)")
    cases = load_cases_module()
    names = ["r50_s3_1x1_down_s2", "r50_s3_3x3_bias_relu", "r50_s3_3x3_bias_relu_nchw",
             "bert_ffn1_bias_gelu",
             "r50_s3_3x3_bf16", "bert_ffn1_tf32", "softmax_den", "r50_s3_3x3_int8"]
    # A dry run leaves each checked case's inputs and reference in --work.
    assert cases.main(["--dry-run", "--cpu-check-gflop", "5", "--cases", ",".join(names),
                       "--work", str(tmp_path), "--json", str(tmp_path / "gpu.json")]) == 0
    rows = json.loads((tmp_path / "gpu.json").read_text())["cases"]
    for r in rows:
        r["case_dir"] = str(tmp_path / r["name"])
    monkeypatch.setenv("OPSNN_TORCH_DEVICE", "cpu")

    class Args:
        repeat, warmup, torch_timeout = 1, 0, 600
    reply, error = cases.run_torch(py, rows, {c.name: c for c in cases.all_cases()},
                                   tmp_path, Args)
    assert error is None
    # PyTorch has no int8 peer: the case is not sent to the worker.
    assert "r50_s3_3x3_int8" not in reply["results"]
    for name in names[:-1]:
        formats = reply["results"][name]
        assert set(formats) == ({"default", "channels_last"} if name.startswith("r50")
                                else {"default"}), formats
        # The CPU computes the TF32 case in full f32, the reference on the
        # truncated operands: within the TF32 tolerance, not exact.
        tol = cases.TOLERANCE["tf32"] if name.endswith("tf32") else 1e-5
        for f in formats.values():
            assert f["status"] == "ok" and f["rel_l2"] <= tol, f
    capsys.readouterr()


def test_row_reduction_runs_the_warp_kernel_against_its_reference(tmp_path):
    """softmax_den's module through the GPU's warp-per-row kernel emulated
    on the CPU (the same lane indexing and butterfly order) against the
    case's float64 reference; its second input is the rows' maximum."""
    cases = load_cases_module()
    (case,) = [c for c in cases.all_cases() if c.name == "softmax_den"]
    x, m = case.inputs()
    assert np.array_equal(m, x.max(axis=1))
    src = tmp_path / "case.mlir"
    src.write_text(cases.mlir_of(case))
    opt, run = cases.find_tool("ops-nn-opt"), cases.find_tool("ops-nn-run")
    pipeline = "opsnn-lower-to-cpu{emulate-warp-reductions}"
    ir = subprocess.run([opt, str(src), f"--pass-pipeline=builtin.module({pipeline})",
                         "--mlir-print-ir-after=opsnn-gpu-warp-reduce", "-o", os.devnull],
                        capture_output=True, text=True, check=True).stderr
    # The generic became the emulated kernel: no generic left, one butterfly.
    assert "linalg.generic" not in ir and ir.count("arith.xori") == 5
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "m.npy", m)
    subprocess.run([run, str(src), "--device=cpu", f"--pipeline={pipeline}",
                    f"--input={tmp_path / 'x.npy'}", f"--input={tmp_path / 'm.npy'}",
                    f"--output-dir={tmp_path / 'out'}", "--json"],
                   capture_output=True, text=True, check=True)
    out = np.load(tmp_path / "out" / "out0.npy")
    assert out.shape == (4096,)
    assert cases.rel_l2(out, cases.reference(case, [x, m])) <= case.tolerance


def test_scalar_twins_differ_only_in_vector_accesses(tmp_path):
    """eltwise_chain_f16 and its _scalar twin are the same module; the GPU
    pipeline gives the first 16-byte global accesses and the twin
    (vectorize-accesses=false) none, and the run pairs them for a ratio."""
    cases = load_cases_module()
    by_name = {c.name: c for c in cases.all_cases()}
    wide, scalar = by_name["eltwise_chain_f16"], by_name["eltwise_chain_f16_scalar"]
    assert cases.mlir_of(wide) == cases.mlir_of(scalar)
    assert "vectorize-accesses=false" in cases.gpu_pipeline_options(scalar, "sm_80")
    assert "vectorize-accesses" not in cases.gpu_pipeline_options(wide, "sm_80")
    # A run's --pipeline-options go to every case.
    assert cases.gpu_pipeline_options(wide, "sm_90a", "x=1").endswith("tensor-cores=true x=1")
    out = tmp_path / "gpu.json"
    proc = subprocess.run([sys.executable, str(CASES), "--dry-run", "--target", "a100",
                           "--cases", "eltwise_chain_f16,eltwise_chain_f16_scalar",
                           "--cpu-check-gflop", "0", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    gpu = json.loads(out.read_text())
    rows = {r["name"]: r for r in gpu["cases"]}
    # Two 16-byte loads (x, r) and one store per thread; none in the twin.
    assert rows["eltwise_chain_f16"]["ptxas"]["global_vector_accesses"] == 3
    assert rows["eltwise_chain_f16_scalar"]["ptxas"]["global_vector_accesses"] == 0
    assert rows["eltwise_chain_f16_scalar"]["pipeline_options"] == "vectorize-accesses=false"
    (pair,) = [c for c in gpu["comparisons"] if c["fast"] == "eltwise_chain_f16"]
    assert pair["slow"] == "eltwise_chain_f16_scalar" and pair["ratio"] is None


def check_twins(tmp_path, fast, slow, option, twin=None):
    """`fast` and its twin `slow` are the same module, which the GPU pipeline
    lowers with `option` added for the twin (`twin`: `slow` unless given);
    a dry run checks both against NumPy on the CPU and lists them as a
    comparison (not timed). Returns their rows' ptxas figures."""
    cases = load_cases_module()
    by_name = {c.name: c for c in cases.all_cases()}
    assert cases.mlir_of(by_name[fast]) == cases.mlir_of(by_name[slow])
    twin = twin or slow
    (other,) = {fast, slow} - {twin}
    assert option in cases.gpu_pipeline_options(by_name[twin], "sm_80")
    assert option not in cases.gpu_pipeline_options(by_name[other], "sm_80")
    out = tmp_path / "gpu.json"
    proc = subprocess.run([sys.executable, str(CASES), "--dry-run", "--target", "a100",
                           "--cases", f"{fast},{slow}", "--json", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    gpu = json.loads(out.read_text())
    rows = {r["name"]: r for r in gpu["cases"]}
    for name in (fast, slow):
        assert rows[name]["rel_l2"] <= by_name[name].tolerance
    (pair,) = [c for c in gpu["comparisons"] if c["fast"] == fast]
    assert pair["slow"] == slow and pair["ratio"] is None
    return rows[fast]["ptxas"], rows[slow]["ptxas"]


def test_padded_depthwise_twins_differ_only_in_implicit_padding(tmp_path):
    """mbv2_dw_3x3_pad (a zero tensor.pad, then the depthwise convolution)
    is one kernel, the padding read through bounds checks; its _explicit
    twin (implicit-padding=false) three: fill, copy, convolution."""
    cases = load_cases_module()
    (padded,) = [c for c in cases.all_cases() if c.name == "mbv2_dw_3x3_pad"]
    assert "tensor.pad" in cases.mlir_of(padded)
    implicit, explicit = check_twins(tmp_path, "mbv2_dw_3x3_pad", "mbv2_dw_3x3_pad_explicit",
                                     "implicit-padding=false")
    if implicit.get("kernels") is not None:
        assert (implicit["kernels"], explicit["kernels"]) == (1, 3)
        assert implicit["spill_bytes"] == 0


def test_untiled_twins_differ_only_in_tiled_transposes(tmp_path):
    """r50_features_to_nchw gets a shared-memory tile (32 x 33 f16); its
    _untiled twin (tiled-transposes=false) none."""
    tiled, untiled = check_twins(tmp_path, "r50_features_to_nchw",
                                 "r50_features_to_nchw_untiled", "tiled-transposes=false")
    if tiled.get("shared_bytes") is not None:
        assert (tiled["shared_bytes"], untiled["shared_bytes"]) == (32 * 33 * 2, 0)


def test_short_softmax_rows_share_warps(tmp_path):
    """softmax_short (rows of 16 f32) is one warp kernel: 8 rows a warp, 4
    lanes a row, so each of its two reductions is two xor shuffles; its
    _generic twin (warp-reductions=false) has no shuffle and more kernels."""
    shared, generic = check_twins(tmp_path, "softmax_short", "softmax_short_generic",
                                  "warp-reductions=false")
    if shared.get("kernels") is not None:
        assert shared["kernels"] == 1 and generic["kernels"] > 1
        assert (shared["warp_shuffles"], generic["warp_shuffles"]) == (4, 0)
        assert shared["spill_bytes"] == 0


def test_unpadded_stem_is_one_kernel(tmp_path):
    """r50_stem_7x7_s2_unpadded (tensor-core-pad-channels=false) is the
    tensor-core kernel alone, its im2col rows copied element by element;
    its padded twin adds the fill and copy kernels of the input and the
    filter (an argument here)."""
    unpadded, padded = check_twins(tmp_path, "r50_stem_7x7_s2_unpadded", "r50_stem_7x7_s2",
                                   "tensor-core-pad-channels=false",
                                   twin="r50_stem_7x7_s2_unpadded")
    if unpadded.get("kernels") is not None:
        assert (unpadded["kernels"], padded["kernels"]) == (1, 5)
        assert unpadded["tensor_cores"] and padded["tensor_cores"]
        assert unpadded["spill_bytes"] == 0 and padded["spill_bytes"] == 0


def test_operand_types_as_the_kernel_sees_them():
    """BF16 bit patterns rounded to nearest even, TF32 truncated, and the
    modules in the types (and with the attribute) the kernels key on."""
    cases = load_cases_module()
    one = 1.0 + 2.0 ** -8    # halfway between 1 and 1 + 2^-7: ties to even (1)
    three = 1.0 + 3 * 2.0 ** -8   # halfway, the even neighbour is 1 + 2^-6
    x = np.array([1.0, one, three, -0.5, 1.0 + 2.0 ** -7 + 2.0 ** -12], np.float32)
    bits = cases.to_bf16_bits(x)
    assert bits.dtype == np.uint16
    assert list(bits) == [0x3F80, 0x3F80, 0x3F82, 0xBF00, 0x3F81]
    assert list(cases.from_bf16_bits(bits)) == [1.0, 1.0, 1.0 + 2.0 ** -6, -0.5,
                                                 1.0 + 2.0 ** -7]
    # TF32: to nearest on 10 mantissa bits, ties away from zero, a carry
    # into the exponent, NaN and infinities kept.
    t = cases.round_tf32(np.array([1.0 + 2.0 ** -10 + 2.0 ** -12,   # below half: down
                                   1.0 + 2.0 ** -11,                # tie: away from 0
                                   -(1.0 + 2.0 ** -11),
                                   2.0 - 2.0 ** -12,                # carries to 2
                                   np.nan, np.inf], np.float32))
    assert list(t[:4]) == [1.0 + 2.0 ** -10, 1.0 + 2.0 ** -10, -(1.0 + 2.0 ** -10), 2.0]
    assert np.isnan(t[4]) and t[5] == np.inf
    by_name = {c.name: c for c in cases.all_cases()}
    tf32 = cases.mlir_of(by_name["bert_ffn1_tf32"])
    assert "linalg.matmul {opsnn.tf32} ins(%a, %b : tensor<1024x768xf32>" in tf32
    bf16 = by_name["bert_ffn1_bf16"]
    assert "tensor<1024x768xbf16>" in cases.mlir_of(bf16)
    assert all(a.dtype == np.uint16 for a in bf16.inputs())
    int8 = cases.mlir_of(by_name["r50_s3_3x3_int8"])
    assert "linalg.conv_2d_nhwc_fhwc" in int8 and "tensor<128x3x3x128xi8>" in int8
    assert "%zero = arith.constant 0 : i32" in int8
    # A weight stored [out, in]: the contraction reads B as [n, k], and the
    # reference multiplies by its transpose.
    nk = by_name["bert_ffn1_int8_nk"]
    text = cases.mlir_of(nk)
    assert "affine_map<(m, n, k) -> (n, k)>" in text and "tensor<3072x768xi8>" in text
    assert "arith.extsi %x : i8 to i32" in text and "arith.addi %o, %p : i32" in text
    ai = np.arange(6, dtype=np.int8).reshape(2, 3)
    bi = np.arange(12, dtype=np.int8).reshape(4, 3)
    small_nk = cases.Case("t", "t", "gemm", "", "i8", nk.params, 0,
                          [(ai.shape, np.int8), (bi.shape, np.int8)], ((2, 4), np.int32))
    assert np.array_equal(cases.reference(small_nk, [ai, bi]),
                          ai.astype(np.int64) @ bi.T.astype(np.int64))
    # The references take the kernel's values: a TF32 reference differs
    # from the f32 one by the rounding alone.
    case = by_name["bert_ffn1_tf32"]
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (4, 768)).astype(np.float32)
    b = rng.uniform(-1, 1, (768, 8)).astype(np.float32)
    small = cases.Case("t", "t", "gemm", "", "tf32", case.params, 0,
                       [(a.shape, np.float32), (b.shape, np.float32)], ((4, 8), np.float32))
    ref = cases.reference(small, [a, b])
    assert np.array_equal(ref, cases.round_tf32(a).astype(np.float64)
                          @ cases.round_tf32(b).astype(np.float64))


def test_gpu_roofline_draws_the_peak_of_each_timed_operand_type():
    ceil = bench.target_ceilings("h200")
    row = {"name": "r50_s3_3x3_int8", "group": "dtypes", "intensity": 400.0,
           "flops": 1.85e9, "ours_ms": 0.01, "peak_key": "int8"}
    svg = dashboard.gpu_roofline_svg({"ceilings": ceil, "cases": [row], "device": "d",
                                      "target": "h200"})
    assert "ceiling int8" in svg and "ceiling fp16" in svg and "ceiling tf32" not in svg
