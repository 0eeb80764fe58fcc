"""Command line: `python -m opsnn import|compile|run|report`.

    python -m opsnn import model.onnx -o model.mlir
    python -m opsnn compile model.onnx --target=a100 --precision=mixed-fp16 -o model.art
    python -m opsnn run model.art --input x.npy --output-dir out   [--check-onnxruntime model.onnx]
    python -m opsnn run model.onnx --random-inputs --check-onnxruntime model.onnx
    python -m opsnn report model.onnx --target=a100 [--precision=...] [-o report.json]
    python -m opsnn report RUN.json -o report.html   (dashboard of python -m opsnn.bench --json)

Errors (a corrupt ONNX file, an unsupported operator, inputs that do not
match the model) print one clear message and exit with status 1; outputs are
written atomically, so a failed command leaves nothing behind.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from . import api
from .onnx_import import ImportError_
from .tools import ToolError, atomic_dir, atomic_file, progress


def _shapes(values):
    shapes = {}
    for item in values or []:
        name, _, dims = item.partition("=")
        if not dims:
            raise ValueError(f"--input-shape {item!r}: expected NAME=D0,D1,...")
        shapes[name] = [int(d) for d in dims.split(",") if d]
    return shapes


def _random_inputs(meta, seed=0):
    rng = np.random.default_rng(seed)
    arrays = []
    for spec in meta["inputs"]:
        dt = np.dtype(spec["dtype"])
        shape = [max(d, 1) for d in spec["shape"]]
        if dt.kind == "f":
            arrays.append(rng.standard_normal(shape).astype(dt))
        elif dt.kind == "b":
            arrays.append(rng.integers(0, 2, shape).astype(dt))
        else:
            arrays.append(rng.integers(0, 4, shape).astype(dt))
    return arrays


def _meta_of(model, input_shapes):
    if isinstance(model, str) and Path(model).is_dir():
        return api.Artifact(model).meta
    if model.endswith(".onnx"):
        imported = api.import_model(model, input_shapes)
        return {"inputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in zip(
            imported.input_names, imported.input_dtypes, imported.input_shapes)]}
    raise ValueError("--random-inputs needs an ONNX model or an artifact")


def rel_l2(a, b) -> float:
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    den = np.linalg.norm(b)
    num = np.linalg.norm(a - b)
    return float(num / den) if den > 0 else float(num)


def onnxruntime_outputs(onnx_path, inputs):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}
    return sess.run(None, feeds)


def cmd_import(args):
    shapes = _shapes(args.input_shape)
    from .torch_export import export_torch, is_torch_source
    if is_torch_source(args.model):
        # PyTorch in: torch.onnx.export (in a Python with torch), then ONNX as usual
        import tempfile
        if len(shapes) != 1:
            raise ValueError(f"{args.model}: a PyTorch model needs its input shape: "
                             f"--input-shape NAME=D0,D1,...")
        (name, shape), = shapes.items()
        with tempfile.TemporaryDirectory(prefix="opsnn-torch-") as tmp:
            onnx_path = export_torch(args.model, Path(tmp) / "model.onnx", shape,
                                     input_name=name)
            api.write_mlir(str(onnx_path), args.output)
        progress(f"wrote {args.output}")
        return 0
    api.write_mlir(args.model, args.output, shapes)
    progress(f"wrote {args.output}")
    return 0


def cmd_compile(args):
    art = api.compile(args.model, target=args.target, precision=args.precision,
                      output=args.output, device=args.device,
                      input_shapes=_shapes(args.input_shape))
    progress(f"wrote {art.path}")
    return 0


def cmd_run(args):
    shapes = _shapes(args.input_shape)
    if args.random_inputs:
        if args.input:
            raise ValueError("give either --input or --random-inputs")
        inputs = _random_inputs(_meta_of(args.model, shapes), args.seed)
    else:
        inputs = []
        for p in args.input or []:
            try:
                inputs.append(np.load(p))
            except (OSError, ValueError) as error:
                raise ValueError(f"{p}: not a readable .npy file ({error})") from error
    outputs = api.run(args.model, inputs, target=args.target, precision=args.precision,
                      input_shapes=shapes)
    for i, o in enumerate(outputs):
        print(f"out{i}: {o.dtype} {list(o.shape)}")
    if args.output_dir:
        with atomic_dir(args.output_dir) as tmp:
            for i, a in enumerate(inputs if args.random_inputs else []):
                np.save(tmp / f"in{i}.npy", a)
            for i, o in enumerate(outputs):
                np.save(tmp / f"out{i}.npy", o)
        progress(f"wrote {args.output_dir}")
    if args.check_onnxruntime:
        ref = onnxruntime_outputs(args.check_onnxruntime, inputs)
        worst = 0.0
        for i, (o, r) in enumerate(zip(outputs, ref)):
            if o.shape != r.shape:
                print(f"out{i}: shape {list(o.shape)} vs onnxruntime {list(r.shape)}")
                return 1
            err = rel_l2(o, r)
            worst = max(worst, err)
            print(f"out{i}: relative L2 vs onnxruntime {err:.3e}")
        if worst > args.tolerance:
            print(f"FAILED: relative L2 {worst:.3e} > {args.tolerance:g}")
            return 1
        print(f"matches onnxruntime (relative L2 <= {args.tolerance:g})")
    return 0


def summarize_report(rep) -> str:
    lines = [f"target {rep.get('target')}"]
    for f in rep.get("functions", []):
        t = f.get("totals", {})
        mem = f.get("memory", {})
        classes = {}
        for op in f.get("ops", []):
            classes[op["op"]] = classes.get(op["op"], 0) + 1
        lines.append(f"@{f['name']}: {len(f.get('ops', []))} ops, {t.get('flops')} FLOPs, "
                     f"{t.get('bytes')} bytes, estimated {t.get('estimated_seconds')} s, "
                     f"layout conversions {t.get('layout_conversions')}, "
                     f"unknown ops {t.get('unknown_ops')}")
        if mem:
            lines.append(f"  weights {mem.get('weight_bytes')} B (fp32 {mem.get('weight_bytes_fp32')} B), "
                         f"peak activations {mem.get('peak_activation_bytes')} B "
                         f"(fp32 {mem.get('peak_activation_bytes_fp32')} B), "
                         f"saved {mem.get('saved_fraction')}")
        lines.append("  ops: " + ", ".join(f"{k} x{v}" for k, v in sorted(classes.items())))
    return "\n".join(lines)


def cmd_report(args):
    if str(args.model).endswith(".json"):  # a bench run: the HTML dashboard
        from .dashboard import write_dashboard
        return write_dashboard(args.model, args.output)
    rep = api.report(args.model, target=args.target, precision=args.precision,
                     input_shapes=_shapes(args.input_shape))
    if args.output:
        with atomic_file(args.output) as f:
            json.dump(rep, f, indent=2, sort_keys=True)
            f.write("\n")
        progress(f"wrote {args.output}")
    print(summarize_report(rep) if args.summary or args.output else
          json.dumps(rep, indent=2, sort_keys=True))
    return 0


def build_parser():
    p = argparse.ArgumentParser(prog="python -m opsnn", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp, target_default):
        sp.add_argument("--target", default=target_default, choices=api.TARGETS)
        sp.add_argument("--precision", default="fp32", choices=api.PRECISIONS)
        sp.add_argument("--input-shape", action="append", metavar="NAME=D0,D1,..",
                        help="static shape of a graph input with dynamic dimensions")

    sp = sub.add_parser("import", help="ONNX (or PyTorch: a TorchScript .pt file or a "
                        "torchvision model name, exported by torch.onnx.export) -> MLIR "
                        "(linalg on tensors)")
    sp.add_argument("model")
    sp.add_argument("-o", "--output", required=True)
    sp.add_argument("--input-shape", action="append", metavar="NAME=D0,D1,..")
    sp.set_defaults(func=cmd_import)

    sp = sub.add_parser("compile", help="ONNX or MLIR -> artifact folder")
    sp.add_argument("model")
    sp.add_argument("-o", "--output", required=True)
    sp.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    common(sp, "host")
    sp.set_defaults(func=cmd_compile)

    sp = sub.add_parser("run", help="run an artifact, ONNX or MLIR model on the CPU")
    sp.add_argument("model")
    sp.add_argument("--input", action="append", help=".npy file (repeat in order)")
    sp.add_argument("--random-inputs", action="store_true")
    sp.add_argument("--seed", type=int, default=0)
    sp.add_argument("--output-dir")
    sp.add_argument("--check-onnxruntime", metavar="MODEL.onnx",
                    help="compare with onnxruntime on the same inputs")
    sp.add_argument("--tolerance", type=float, default=1e-4, help="relative L2 bound")
    common(sp, "host")
    sp.set_defaults(func=cmd_run)

    sp = sub.add_parser("report", help="the --opsnn-report JSON after optimization, or "
                        "the HTML dashboard of a bench run (RUN.json -o report.html)")
    sp.add_argument("model")
    sp.add_argument("-o", "--output")
    sp.add_argument("--summary", action="store_true")
    common(sp, "a100")
    sp.set_defaults(func=cmd_report)
    return p


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (ImportError_, ToolError, ValueError, FileNotFoundError, OSError) as error:
        print(f"opsnn: error: {error}", file=sys.stderr)
        return 1
