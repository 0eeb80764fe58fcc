"""The Python API: import, compile, run, report.

    import opsnn
    art = opsnn.compile("model.onnx", target="a100", precision="mixed-fp16")
    outputs = opsnn.run(art, [x])            # list of NumPy arrays
    outputs = opsnn.run("model.onnx", [x])   # compiles for the host first
    opsnn.report("model.onnx", target="a100")["memory"]

A compiled artifact is a folder: `ops-nn-run`'s own artifact (`model.so` and
`manifest.json`, runnable with `ops-nn-run DIR --input ...`) plus
`opsnn.json` (where it came from, the target and precision, the graph's
input and output names and their ONNX element types) and `model.mlir` (the
optimized linalg-on-tensors the code was generated from).
"""

from __future__ import annotations

import json
import os
import tempfile
import weakref
import shutil
from pathlib import Path

import numpy as np

from .tools import ToolError, atomic_dir, atomic_file, progress, run_tool

TARGETS = ("host", "t4", "v100", "a100", "l4", "h100", "h200")
PRECISIONS = ("fp32", "mixed-fp16", "mixed-bf16", "fp16", "bf16", "int8", "fp8")


class InputError(ValueError):
    """Inputs that do not match the model's signature."""


def _is_onnx_model(model) -> bool:
    try:
        import onnx
        if isinstance(model, onnx.ModelProto):
            return True
    except ImportError:
        pass
    return isinstance(model, (str, os.PathLike)) and str(model).endswith(".onnx")


def import_model(model, input_shapes=None):
    """ONNX (path or ModelProto) -> `ImportedModel` (MLIR text and signature)."""
    from .onnx_import import import_onnx
    return import_onnx(model, input_shapes=input_shapes)


def _signature_from_mlir_manifest(manifest):
    return ([f"arg{i}" for i in range(len(manifest["inputs"]))],
            [s["dtype"] for s in manifest["inputs"]],
            [s["shape"] for s in manifest["inputs"]],
            [f"out{i}" for i in range(len(manifest["outputs"]))],
            [s["dtype"] for s in manifest["outputs"]])


def optimize_mlir(mlir_text: str, target: str, precision: str) -> str:
    """`ops-nn-opt --opsnn-optimize` (graph-level layouts and precision)."""
    if target not in TARGETS:
        raise ValueError(f"unknown target '{target}' (one of {', '.join(TARGETS)})")
    if precision not in PRECISIONS:
        raise ValueError(f"unknown precision '{precision}' (one of {', '.join(PRECISIONS)})")
    if target == "host" and precision == "fp32":
        return mlir_text
    with tempfile.TemporaryDirectory(prefix="opsnn-") as tmp:
        src = Path(tmp) / "in.mlir"
        src.write_text(mlir_text)
        progress(f"optimizing for {target} ({precision})")
        return run_tool("ops-nn-opt", [src, f"--opsnn-optimize=target={target} precision={precision}"],
                        "ops-nn-opt --opsnn-optimize")


class Artifact:
    """A compiled model on disk (see the module docstring)."""

    def __init__(self, path):
        self.path = Path(path)
        manifest = self.path / "manifest.json"
        if not manifest.is_file():
            raise FileNotFoundError(f"{self.path}: not an artifact (no manifest.json)")
        self.manifest = json.loads(manifest.read_text())
        meta = self.path / "opsnn.json"
        if meta.is_file():
            self.meta = json.loads(meta.read_text())
        else:
            names, dtypes, shapes, onames, odtypes = _signature_from_mlir_manifest(self.manifest)
            self.meta = {"inputs": [{"name": n, "dtype": d, "shape": s}
                                    for n, d, s in zip(names, dtypes, shapes)],
                         "outputs": [{"name": n, "dtype": d} for n, d in zip(onames, odtypes)]}
        self._tmp_owner = None

    def __repr__(self):
        return (f"Artifact({str(self.path)!r}, target={self.meta.get('target')!r}, "
                f"precision={self.meta.get('precision')!r})")

    @property
    def input_names(self):
        return [i["name"] for i in self.meta["inputs"]]

    @property
    def output_names(self):
        return [o["name"] for o in self.meta["outputs"]]

    def run(self, inputs):
        return _run_with_tool(str(self.path), inputs, self.meta)

    def report(self, target=None):
        mlir = (self.path / "model.mlir").read_text()
        return report_mlir(mlir, target or self.meta.get("target", "a100"))

    def save(self, path):
        """Copies the artifact folder to `path` (atomically) and returns it."""
        with atomic_dir(path) as tmp:
            shutil.copytree(self.path, tmp, dirs_exist_ok=True)
        return Artifact(path)


def _load_source(model, input_shapes=None):
    """(mlir text, meta dict) for an ONNX model, an ImportedModel or MLIR."""
    from .onnx_import import ImportedModel
    if isinstance(model, ImportedModel):
        imported = model
    elif _is_onnx_model(model):
        progress(f"importing {model if not hasattr(model, 'graph') else 'ONNX model'}")
        imported = import_model(model, input_shapes=input_shapes)
    else:
        path = Path(model)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no such file")
        return path.read_text(), None
    meta = {
        "inputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in
                   zip(imported.input_names, imported.input_dtypes, imported.input_shapes)],
        "outputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in
                    zip(imported.output_names, imported.output_dtypes, imported.output_shapes)],
    }
    return imported.mlir, meta


def compile(model, target: str = "host", precision: str = "fp32", output=None,
            device: str = "cpu", input_shapes=None) -> Artifact:
    """Imports (ONNX) or reads (MLIR) `model`, optimizes it for `target` in
    `precision` with `--opsnn-optimize`, and compiles it with `ops-nn-run
    --emit-artifact` for `device` (`cpu`, or `cuda` for an NVIDIA GPU).
    Writes the artifact folder to `output` (atomically) or, without one, to
    a temporary folder that lives as long as the returned object."""
    mlir, meta = _load_source(model, input_shapes)
    optimized = optimize_mlir(mlir, target, precision)
    if output is None:
        owner = tempfile.TemporaryDirectory(prefix="opsnn-artifact-")
        out = Path(owner.name) / "artifact"
    else:
        owner, out = None, Path(output)
    with atomic_dir(out) as tmp:
        src = tmp / "model.mlir"
        src.write_text(optimized)
        progress(f"compiling for the {device.upper() if device == 'cpu' else 'CUDA'} "
                 f"(ops-nn-run --emit-artifact)")
        args = [src, f"--emit-artifact={tmp}"]
        if device != "cpu":
            args.append(f"--device={device}")
        run_tool("ops-nn-run", args, "compilation")
        manifest = json.loads((tmp / "manifest.json").read_text())
        if meta is None:
            names, dtypes, shapes, onames, odtypes = _signature_from_mlir_manifest(manifest)
            meta = {"inputs": [{"name": n, "dtype": d, "shape": s}
                               for n, d, s in zip(names, dtypes, shapes)],
                    "outputs": [{"name": n, "dtype": d} for n, d in zip(onames, odtypes)]}
        meta.update({"format": "opsnn-python-artifact", "version": 1,
                     "source": str(model) if isinstance(model, (str, os.PathLike)) else "<memory>",
                     "target": target, "precision": precision, "device": device})
        (tmp / "opsnn.json").write_text(json.dumps(meta, indent=2) + "\n")
    art = Artifact(out)
    if owner is not None:
        art._tmp_owner = owner
        weakref.finalize(art, owner.cleanup)
    return art


def _check_inputs(inputs, meta):
    specs = meta["inputs"]
    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    if len(inputs) != len(specs):
        raise InputError(f"the model takes {len(specs)} input(s) "
                         f"({', '.join(s['name'] for s in specs)}) but {len(inputs)} were given")
    out = []
    for i, (array, spec) in enumerate(zip(inputs, specs)):
        array = np.asarray(array)
        want = np.dtype(spec["dtype"])
        if array.dtype != want:
            raise InputError(f"input #{i} '{spec['name']}': dtype {array.dtype}, "
                             f"expected {want}")
        shape = spec.get("shape")
        if shape is not None and (len(shape) != array.ndim or any(
                d != -1 and d != s for d, s in zip(shape, array.shape))):
            raise InputError(f"input #{i} '{spec['name']}': shape {list(array.shape)}, "
                             f"expected {list(shape)}")
        out.append(array)
    return out


def _to_tool_dtype(array):
    # ops-nn-run reads signless integers as signed (i8 <-> int8 ...).
    kind = array.dtype.kind
    array = np.array(array, order="C", copy=False)  # keeps 0-d arrays 0-d
    if kind in "ub":
        return array.view(f"<i{array.dtype.itemsize}")
    return array


def _run_with_tool(model_path: str, inputs, meta, pipeline=None, timeout=None):
    arrays = _check_inputs(inputs, meta) if meta else [np.asarray(a) for a in inputs]
    with tempfile.TemporaryDirectory(prefix="opsnn-run-") as tmp:
        args = [model_path]
        for i, a in enumerate(arrays):
            p = Path(tmp) / f"in{i}.npy"
            np.save(p, _to_tool_dtype(a))
            args.append(f"--input={p}")
        outdir = Path(tmp) / "out"
        args += [f"--output-dir={outdir}", "--json"]
        if pipeline:
            args.append(f"--pipeline={pipeline}")
        summary = json.loads(run_tool("ops-nn-run", args, "run", timeout=timeout))
        results = []
        for k, o in enumerate(summary["outputs"]):
            arr = np.load(o["path"])
            if meta and k < len(meta["outputs"]):
                want = np.dtype(meta["outputs"][k]["dtype"])
                if want != arr.dtype and want.itemsize == arr.dtype.itemsize:
                    arr = arr.view(want)
            results.append(arr)
        return results


def run(model, inputs, target: str = "host", precision: str = "fp32", input_shapes=None,
        timeout=None):
    """Runs `model` (an Artifact, an artifact folder, an ONNX or MLIR path,
    an ONNX ModelProto) on the CPU with `inputs` (NumPy arrays: the graph's
    non-initializer inputs in order); returns the list of outputs. Models
    that are not compiled yet are optimized for `target`/`precision` and
    JIT-compiled by `ops-nn-run`."""
    if isinstance(model, Artifact):
        return model.run(inputs)
    if isinstance(model, (str, os.PathLike)) and Path(model).is_dir():
        return Artifact(model).run(inputs)
    mlir, meta = _load_source(model, input_shapes)
    mlir = optimize_mlir(mlir, target, precision)
    with tempfile.TemporaryDirectory(prefix="opsnn-") as tmp:
        src = Path(tmp) / "model.mlir"
        src.write_text(mlir)
        progress("compiling and running on the CPU (ops-nn-run)")
        return _run_with_tool(str(src), inputs, meta, timeout=timeout)


def report_mlir(mlir_text: str, target: str = "a100") -> dict:
    with tempfile.TemporaryDirectory(prefix="opsnn-") as tmp:
        src = Path(tmp) / "model.mlir"
        src.write_text(mlir_text)
        rep = Path(tmp) / "report.json"
        run_tool("ops-nn-opt", [src, f"--opsnn-report=file={rep} target={target}",
                                "-o", os.devnull], "ops-nn-opt --opsnn-report")
        return json.loads(rep.read_text())


def report(model, target: str = "a100", precision: str = "fp32", input_shapes=None) -> dict:
    """The `--opsnn-report` JSON (docs/Report.md) of `model` after
    `--opsnn-optimize` for `target` in `precision`."""
    if isinstance(model, Artifact):
        return model.report(target)
    if isinstance(model, (str, os.PathLike)) and Path(model).is_dir():
        return Artifact(model).report(target)
    mlir, _ = _load_source(model, input_shapes)
    mlir = optimize_mlir(mlir, target, precision) if target != "host" or precision != "fp32" else mlir
    progress(f"report for {target}")
    return report_mlir(mlir, target)


def write_mlir(model, output, input_shapes=None) -> None:
    """ONNX -> MLIR text file (written atomically)."""
    mlir, _ = _load_source(model, input_shapes)
    with atomic_file(output) as f:
        f.write(mlir)


__all__ = ["Artifact", "InputError", "ToolError", "compile", "run", "report",
           "import_model", "write_mlir", "optimize_mlir"]
