"""`python -m opsnn` and the API end to end: the bundled example, artifacts,
reports and bad input (clear error, exit 1, nothing written)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import helper as h

import opsnn
from opsnn.cli import onnxruntime_outputs, rel_l2

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "small_cnn.onnx"


def cli(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    return subprocess.run([sys.executable, "-m", "opsnn", *map(str, args)],
                          capture_output=True, text=True, env=env)


def image(seed=0):
    return np.random.default_rng(seed).standard_normal((1, 3, 16, 16)).astype(np.float32)


def test_example_compile_run_matches_onnxruntime(tmp_path):
    art = opsnn.compile(str(EXAMPLE), target="a100", precision="fp32", output=tmp_path / "art")
    assert (tmp_path / "art" / "model.so").is_file()
    assert art.input_names == ["image"] and art.output_names == ["probabilities"]
    x = image()
    (y,) = opsnn.run(art, [x])
    (ref,) = onnxruntime_outputs(EXAMPLE, [x])
    assert y.shape == (1, 10)
    assert rel_l2(y, ref) <= 1e-4
    # The artifact folder runs again from its path, and with ops-nn-run itself.
    (y2,) = opsnn.run(str(tmp_path / "art"), [x])
    np.testing.assert_array_equal(y, y2)


def test_cli_import_compile_run_report(tmp_path):
    mlir = tmp_path / "m.mlir"
    assert cli("import", EXAMPLE, "-o", mlir).returncode == 0
    assert "linalg.conv_2d_nchw_fchw" in mlir.read_text()
    p = cli("compile", mlir, "--target=a100", "--precision=mixed-fp16", "-o", tmp_path / "art")
    assert p.returncode == 0, p.stderr
    np.save(tmp_path / "x.npy", image())
    p = cli("run", EXAMPLE, "--input", tmp_path / "x.npy", "--output-dir", tmp_path / "out",
            "--check-onnxruntime", EXAMPLE)
    assert p.returncode == 0, p.stderr
    assert "matches onnxruntime" in p.stdout
    assert np.load(tmp_path / "out" / "out0.npy").shape == (1, 10)
    p = cli("report", EXAMPLE, "--target=a100", "-o", tmp_path / "r.json")
    assert p.returncode == 0, p.stderr
    rep = json.loads((tmp_path / "r.json").read_text())
    assert rep["schema"] == "opsnn-report" and rep["target"] == "a100"
    ops = {o["op"] for o in rep["functions"][0]["ops"]}
    assert {"linalg.matmul", "linalg.softmax"} <= ops


def test_corrupt_onnx_file(tmp_path):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\x08\x07this is not a protobuf model\xff\xff")
    out = tmp_path / "bad.mlir"
    p = cli("import", bad, "-o", out)
    assert p.returncode == 1
    assert "not a valid ONNX file" in p.stderr or "invalid ONNX model" in p.stderr
    assert "Traceback" not in p.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == [bad]


def test_unsupported_op_cli(tmp_path):
    m = h.make_model(h.make_graph(
        [h.make_node("Hardmax", ["x"], ["y"], name="hm")], "g",
        [h.make_tensor_value_info("x", 1, [2, 3])], [h.make_tensor_value_info("y", 1, [2, 3])]),
        opset_imports=[h.make_opsetid("", 17)])
    path = tmp_path / "u.onnx"
    onnx.save(m, str(path))
    p = cli("compile", path, "-o", tmp_path / "art")
    assert p.returncode == 1
    assert "unsupported operator Hardmax (node 'hm')" in p.stderr
    assert not (tmp_path / "art").exists()
    assert sorted(x.name for x in tmp_path.iterdir()) == ["u.onnx"]


def test_wrong_input_shape(tmp_path):
    np.save(tmp_path / "x.npy", np.zeros((1, 3, 8, 8), np.float32))
    p = cli("run", EXAMPLE, "--input", tmp_path / "x.npy", "--output-dir", tmp_path / "out")
    assert p.returncode == 1
    assert "input #0 'image': shape [1, 3, 8, 8], expected [1, 3, 16, 16]" in p.stderr
    assert not (tmp_path / "out").exists()
    with pytest.raises(opsnn.InputError, match="dtype float64"):
        opsnn.run(str(EXAMPLE), [np.zeros((1, 3, 16, 16))])
    with pytest.raises(opsnn.InputError, match="takes 1 input"):
        opsnn.run(str(EXAMPLE), [image(), image()])
