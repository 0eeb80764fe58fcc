"""The real-size zoo's builders, at reduced sizes (the real sizes are the
bench command bench/zoo/run.sh), and the PyTorch path (skipped without a
Python that has torch)."""

import subprocess

import numpy as np
import onnx
import pytest

from opsnn import api, cli, zoo, zoo_full
from opsnn.torch_export import export_torch, torch_python


def _check(model, tmp_path):
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    inputs = zoo.random_inputs(model)
    ours = api.run(str(path), inputs)
    ref = cli.onnxruntime_outputs(path, inputs)
    assert len(ours) == len(ref)
    for a, b in zip(ours, ref):
        assert a.shape == b.shape
        assert cli.rel_l2(a, b) <= 1e-4


def test_bert_builder_small(tmp_path):
    _check(zoo_full.bert_base(batch=2, layers=2, hidden=32, heads=4, ffn=64, vocab=40,
                              seq=8, max_positions=16), tmp_path)


def test_unet3d_builder_small(tmp_path):
    _check(zoo_full.unet3d(size=8, channels=(2, 4, 4, 8, 8), in_ch=2), tmp_path)


def test_dlrm_builder_small(tmp_path):
    model = zoo_full.dlrm(batch=3, dim=4, bot=(8,), top=(8,), max_rows=30)
    inputs = zoo.random_inputs(model)
    # indices drawn per table within its row count (opsnn.input_ranges)
    rows = [min(r, 30) for r in zoo_full.CRITEO_KAGGLE_ROWS]
    assert inputs[1].shape == (26, 3)
    assert all(inputs[1][t].max() < rows[t] for t in range(26))
    _check(model, tmp_path)


def _has_torch():
    try:
        torch_python()
        return True
    except Exception:
        return False


@pytest.mark.skipif(not _has_torch(), reason="no Python with PyTorch")
def test_torchscript_file_imports_and_matches(tmp_path):
    pt = tmp_path / "net.pt"
    script = f"""
import torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                          torch.nn.GELU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                          torch.nn.Linear(8, 5)).eval()
torch.jit.save(torch.jit.trace(net, torch.randn(1, 3, 16, 16)), {str(pt)!r})
"""
    subprocess.run([torch_python(), "-c", script], check=True)
    path = export_torch(pt, tmp_path / "net.onnx", [1, 3, 16, 16], input_name="x")
    x = np.random.default_rng(0).standard_normal((1, 3, 16, 16)).astype(np.float32)
    (ours,) = api.run(str(path), [x])
    (ref,) = cli.onnxruntime_outputs(path, [x])
    assert ours.shape == (1, 5)
    assert cli.rel_l2(ours, ref) <= 1e-4
    # the CLI takes the .pt file directly
    assert cli.main(["import", str(pt), "-o", str(tmp_path / "net.mlir"),
                     "--input-shape", "x=1,3,16,16"]) == 0
    assert "linalg" in (tmp_path / "net.mlir").read_text()
