"""PyTorch models in: `torch.onnx.export` in a subprocess, then our ONNX importer.

    opsnn.export_torch("resnet50", "resnet50.onnx", input_shape=[1, 3, 224, 224])
    opsnn.export_torch("model.pt", "model.onnx", input_shape=[1, 3, 32, 32])
    python -m opsnn import resnet50 -o resnet50.mlir --input-shape image=1,3,224,224
    python -m opsnn import model.pt -o model.mlir --input-shape input=1,3,32,32

A model is a torchvision constructor name (`resnet50`, `mobilenet_v2`,
`vit_b_16`, ...; built with `weights=None`, random weights, nothing is
downloaded) or a TorchScript file (`torch.jit.save`, `.pt`/`.pth`). The
export runs in a separate Python that has PyTorch: `$OPSNN_TORCH_PYTHON`,
else Debian's `/usr/bin/python3` (python3-torch, python3-torchvision; see
`install_zoo_packages` in scripts/setup.sh), else `python3` on PATH. That
keeps PyTorch out of this package's requirements: the ONNX file is the
contract between the two, and everything after it is our importer.

From a PyTorch program of your own, export first and import the file:

    torch.onnx.export(model.eval(), example, "m.onnx", opset_version=17)
    opsnn.run("m.onnx", [x])
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .tools import ToolError, progress

# Run by the PyTorch Python: argv = source, output, shape (comma separated),
# opset, input name, seed.
_EXPORT_SCRIPT = r"""
import sys, torch
src, out, shape, opset, in_name, seed = sys.argv[1:7]
torch.manual_seed(int(seed))
shape = [int(d) for d in shape.split(",")]
if src.endswith((".pt", ".pth")):
    model = torch.jit.load(src, map_location="cpu")
else:
    import torchvision
    ctor = getattr(torchvision.models, src, None)
    if ctor is None:
        sys.exit(f"no torchvision model named {src!r}")
    model = ctor(weights=None)
model.eval()
if not src.endswith((".pt", ".pth")):
    # constructors zero-initialize some tensors (ViT's classification head,
    # class token): with random weights the output would be all zeros and a
    # comparison vacuous, so every constant-initialized weight tensor and
    # every all-zero vector (biases) gets N(0, 0.02)
    with torch.no_grad():
        for p in model.parameters():
            constant = p.numel() > 1 and bool((p == p.flatten()[0]).all())
            if constant and (p.dim() > 1 or not bool(p.any())):
                p.normal_(0.0, 0.02)
x = torch.randn(*shape)
# not under torch.no_grad(): there nn.MultiheadAttention takes its fused
# fast path (aten::_native_multi_head_attention), which has no ONNX export
torch.onnx.export(model, (x,), out, opset_version=int(opset), input_names=[in_name],
                  output_names=["output"], do_constant_folding=True)
"""


def torch_python() -> str:
    """A Python interpreter that can import torch."""
    candidates = [os.environ.get("OPSNN_TORCH_PYTHON"), "/usr/bin/python3",
                  shutil.which("python3")]
    for py in candidates:
        if py and Path(py).is_file() and subprocess.run(
                [py, "-c", "import torch"], capture_output=True).returncode == 0:
            return py
    raise ToolError("no Python with PyTorch found: set OPSNN_TORCH_PYTHON, or install "
                    "Debian's python3-torch python3-torchvision (scripts/setup.sh: "
                    "install_zoo_packages)")


def is_torch_source(model) -> bool:
    """A TorchScript file or a torchvision constructor name (no path, no .onnx/.mlir)."""
    s = str(model)
    if s.endswith((".pt", ".pth")):
        return True
    return s.isidentifier() and not Path(s).exists()


def export_torch(model, output, input_shape, opset: int = 17, input_name: str = "image",
                 seed: int = 0, timeout: float | None = None) -> Path:
    """Exports a torchvision name or TorchScript file to ONNX at `output`
    (written atomically) with one input of `input_shape`; returns the path."""
    src = str(model)
    if src.endswith((".pt", ".pth")):
        if not Path(src).is_file():
            raise FileNotFoundError(f"{src}: no such file")
        src = str(Path(src).resolve())
    if not input_shape:
        raise ValueError(f"{model}: a PyTorch model needs an input shape "
                         f"(--input-shape NAME=D0,D1,...)")
    output = Path(output)
    py = torch_python()
    progress(f"exporting {model} to ONNX with PyTorch ({py})")
    output.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{output.name}.", suffix=".tmp", dir=output.parent)
    os.close(fd)
    try:
        proc = subprocess.run(
            [py, "-c", _EXPORT_SCRIPT, src, tmp, ",".join(str(int(d)) for d in input_shape),
             str(opset), input_name, str(seed)],
            capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            lines = (proc.stderr or proc.stdout).strip().splitlines()
            raise ToolError(f"torch.onnx.export of {model} failed:\n" + "\n".join(lines[-15:]))
        os.replace(tmp, output)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return output
