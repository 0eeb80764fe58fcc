"""The dashboard generator (opsnn/dashboard.py) on a tiny bench run, the
headless-Chromium screenshot of it, and the bench's untimed helpers
(re-batching, exponent fit, --mlir-timing parsing, synthetic chains).

The bench run here is built from real `--opsnn-report` output of the
bundled small_cnn (optimized with ALTE and mixed precision for the host);
its times are arbitrary inputs of the page, never checked as results.
"""

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from opsnn import api, bench, dashboard, zoo
from opsnn.tools import find_tool

ROOT = Path(__file__).resolve().parents[2]
SMALL_CNN = ROOT / "examples" / "small_cnn.onnx"


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bench")
    mlir = api.import_model(str(SMALL_CNN)).mlir
    configs = {}
    for key, label, opts in bench.CONFIGS:
        text = mlir
        if opts:
            src = tmp / "in.mlir"
            src.write_text(mlir)
            text = subprocess.run([find_tool("ops-nn-opt"), str(src),
                                   f"--opsnn-optimize=target=host {opts} annotate"],
                                  check=True, capture_output=True, text=True).stdout
        configs[key] = {"label": label, "options": opts, "status": "ok",
                        "report": api.report_mlir(text, "host"),
                        "conversions": {"remaining": bench._count(text, "layout.convert"),
                                        "precision_casts": bench._count(text, "precision.cast")},
                        "median_ms": 0.5 + len(key) / 10, "min_ms": 0.4, "max_ms": 0.9,
                        "rel_l2_vs_onnxruntime": 1e-6,
                        "optimize": {"wall_s": 0.1, "peak_rss_mb": 100.0} if opts else None,
                        "lower": {"wall_s": 2.0, "peak_rss_mb": 150.0}}
    configs["onnxruntime"] = {"label": "onnxruntime", "status": "ok", "median_ms": 0.3,
                              "min_ms": 0.3, "max_ms": 0.4}
    return {"schema": "opsnn-bench", "version": 1, "command": "test", "target": "host",
            "ceilings": bench.target_ceilings("host"),
            "machine_start": bench.machine_state(), "machine_end": bench.machine_state(),
            "timing": {"rounds": 1, "repeat": 1, "warmup": 0},
            "configs": {k: {"label": c["label"], "options": c.get("options")}
                        for k, c in configs.items()},
            "models": [{"model": "small_cnn", "batch": 1, "configs": configs,
                        "inputs": [{"shape": [1, 3, 16, 16], "dtype": "float32"}]},
                       {"model": "pinned_batch", "batch": 8, "configs": {},
                        "skipped": "inputs' leading dimensions are [4], not a batch of 1"}],
            "scaling": [{"stage": "optimize", "time_exponent": 1.0, "memory_exponent": 1.0,
                         "superlinear": False,
                         "points": [{"ops": n, "wall_s": 0.1 + n * 1e-3,
                                     "peak_rss_mb": 100 + n * 1e-2} for n in (0, 10, 100)]}]}


@pytest.fixture(scope="module")
def page(tiny_run):
    return dashboard.render(tiny_run)


def test_target_ceilings_match_the_tool():
    ceil = bench.target_ceilings("a100")
    assert ceil["dram_bandwidth_gbps"] == 1555
    assert ceil["peak_tflops"]["fp16"] == 312


def test_dashboard_shows_every_op_and_decision(tiny_run, page):
    both = tiny_run["models"][0]["configs"]["both"]["report"]
    ops = both["functions"][0]["ops"]
    # Per-op table of the optimized module: one row per op of the report.
    table = page[page.index("per-op table of configuration 'both'"):]
    table = table[:table.index("</details>")]
    assert len(re.findall(r"<tr><td>\d+</td>", table)) == len(ops)
    for op in ops:
        assert f">{op['op']}<" in table
        if "precision_reason" in op:
            assert f">{dashboard._esc(op['precision_reason'])}<" in table
        if "layout_reason" in op:
            assert f">{op['layout_reason']}<" in table
    # Memory saved by precision, from the report.
    saved = both["memory"]["saved_fraction"]
    assert f"{100 * saved:.1f}%" in page
    # The skipped variant says why; plots are inline SVG; nothing external.
    assert "not a batch of 1" in page
    assert page.count("<svg") >= 3   # times, roofline, scaling
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)


def test_roofline_attribution_sums_to_the_measured_time(tiny_run):
    c = tiny_run["models"][0]["configs"]["both"]
    rows = dashboard.op_rows(c["report"], c["median_ms"])
    attributed = sum(r["attributed_seconds"] or 0 for r in rows)
    assert attributed == pytest.approx(c["median_ms"] * 1e-3, rel=1e-9)


def test_cli_report_writes_the_dashboard(tiny_run, tmp_path):
    from opsnn.cli import main
    run_json = tmp_path / "run.json"
    # Only the skipped variant and no scaling: a fast page with the same frame.
    run_json.write_text(json.dumps(dict(tiny_run, models=tiny_run["models"][1:], scaling=[])))
    out = tmp_path / "report.html"
    assert main(["report", str(run_json), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "pinned_batch" in text
    assert main(["report", str(run_json)]) == 1          # no -o: a clear error
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"schema": "opsnn-report"}))
    assert main(["report", str(bad), "-o", str(tmp_path / "x.html")]) == 1
    assert not (tmp_path / "x.html").exists()


def test_screenshot_in_headless_chromium(page, tmp_path):
    if dashboard.find_chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; scripts/setup.sh "
                    "does): the dashboard screenshot check cannot run")
    html_file = tmp_path / "report.html"
    html_file.write_text(page)
    png = dashboard.screenshot(html_file, tmp_path / "shot.png", 1024, 1400)
    ok, message = dashboard.check_screenshot(png, 1024, 1400)
    assert ok, message
    blank = tmp_path / "blank.html"
    blank.write_text("<!DOCTYPE html><html><body></body></html>")
    ok, message = dashboard.check_screenshot(
        dashboard.screenshot(blank, tmp_path / "blank.png", 640, 480), 640, 480)
    assert not ok and "blank" in message


def test_rebatch_keeps_batchable_models_and_names_pinned_ones():
    import onnxruntime as ort
    m, why = bench.rebatch(zoo.resnet_tiny(), 8)
    assert why is None
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.random.default_rng(0).standard_normal((8, 3, 32, 32)).astype(np.float32)
    (y,) = sess.run(None, {"image": x})
    assert y.shape == (8, 10)
    # Each sample of the batch gives what the batch-1 model gives for it.
    ref = ort.InferenceSession(zoo.resnet_tiny().SerializeToString(),
                               providers=["CPUExecutionProvider"])
    (y0,) = ref.run(None, {"image": x[3:4]})
    np.testing.assert_allclose(y[3:4], y0, rtol=1e-4, atol=1e-5)
    m, why = bench.rebatch(zoo.dlrm_tiny(), 8)
    assert m is None and "leading dimensions" in why


def test_exponent_fit_and_timing_parser():
    sizes = [100, 1000, 10000]
    assert bench.fit_exponent(sizes, [3e-3 * n for n in sizes]) == pytest.approx(1.0)
    assert bench.fit_exponent(sizes, [1e-6 * n * n for n in sizes]) == pytest.approx(2.0)
    text = ("  ----Wall Time----  ----Name----\n"
            "    0.0180 (  0.4%)  Parser\n"
            "    0.0918 (  2.0%)  'func.func' Pipeline\n"
            "    0.0918 (  2.0%)    TileAndVectorizeCPUPass\n"
            "    0.0076 (  0.2%)  Canonicalizer\n"
            "    0.0096 (  0.2%)  Canonicalizer\n"
            "    0.0155 (  0.3%)    (A) DataLayoutAnalysis\n"
            "    4.5873 (100.0%)  Total\n")
    passes = bench.parse_mlir_timing(text)
    assert passes == pytest.approx({"Parser": 0.018, "TileAndVectorizeCPUPass": 0.0918,
                                    "Canonicalizer": 0.0172})


@pytest.mark.parametrize("shared", [False, True])
def test_synthetic_chain_has_n_linalg_ops_and_parses(tmp_path, shared):
    text = bench.chain_mlir(12, shared_init=shared)
    ops = re.findall(r"= linalg\.(conv_2d_nchw_fchw|generic|matmul|add) ", text)
    assert len(ops) == 12
    src = tmp_path / "chain.mlir"
    src.write_text(text)
    subprocess.run([find_tool("ops-nn-opt"), str(src), "-o", "/dev/null"], check=True)
