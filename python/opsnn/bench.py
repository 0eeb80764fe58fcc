"""Benchmarks side by side: the zoo models on this CPU, in one process run.

    python -m opsnn.bench [--quick] [--json FILE] [--models a,b] [--rounds N] [--repeat M]

For each zoo model (`--quick`: the `*_tiny` variants; otherwise also the
real-size ones of `opsnn.zoo_full`, built by the zoo at each batch) at batch 1 and 8
(where the model has a batch dimension the graph does not pin; otherwise at
its own batch), our CPU build in four configurations

    none       no ops-nn optimization (the imported linalg, lowered as is)
    alte       --opsnn-optimize="target=T layouts=true precision=fp32"
    precision  --opsnn-optimize="target=T layouts=false precision=mixed-fp16"
    both       --opsnn-optimize="target=T layouts=true precision=mixed-fp16"

and the peers: onnxruntime (CPU, default session options), PyTorch CPU
eager in default and channels_last memory format (`torch`, `torch_cl`: a
long-lived worker process, opsnn/torch_worker.py, run by the Python that
has torch; it rebuilds the torchvision module the ONNX file was exported
from, so models without a PyTorch source read "n/a (no PyTorch source)"),
and IREE llvm-cpu (`iree`: iree-import-onnx + iree-compile for the host
CPU, the local-task runtime; optional, "n/a" when its wheels do not import
or it does not compile the model). `--quick` adds `resnet18_tiny`
(torchvision's ResNet-18 at 1x3x64x64, batch 1) so that PyTorch has a
column. Every configuration is compiled once into an artifact first; its
output, and every peer's, is checked against onnxruntime's FP32 output
(relative L2; an answer that is wrong is never timed). Then rounds run the
configurations and peers alternately (the order rotates every round, each
round is `--repeat` timed runs after a warm-up; the figure of a round is
its median; the PyTorch worker is asked for one such batch per round), so
that drift and other load hit all alike; the result is the median over
rounds, with ratios to `none`, to onnxruntime and to the best (fastest
timed) peer.

Compile-time figures: wall time and peak resident memory of each child
(`os.wait4`): `ops-nn-opt --opsnn-optimize` and the full lowering
(`ops-nn-run --emit-artifact`: linalg -> LLVM -> shared object) per model
and configuration, and a synthetic scaling series (chains of conv /
elementwise / matmul / add ops, 100, 1 000, 10 000 ops) with the fitted
exponent of time and memory against the op count (1 = linear). A series
that grows faster than linear names the pass responsible (`--mlir-timing`
of the two largest sizes, per-pass exponents; always in a full run, in
`--quick` only for a superlinear series).

GPU: `--gpu-json FILE` merges the JSON of bench/gpu/cases.py (what
bench/gpu/run.sh writes to $OUT/gpu.json on a GPU machine, or a --dry-run
of it) into the run's `gpu` section; `--gpu` runs bench/gpu/cases.py here
when nvidia-smi sees a CUDA device (else says "no CUDA device: GPU part
skipped" and goes on). Its table (per case: our time, PyTorch's
cuBLAS/cuDNN time, the roofline floor on its target, the achieved
fraction of the floor, rel. L2) is printed after the CPU table.

Prints tables; `--json FILE` writes everything (per model and
configuration: times, ratios, errors, compile figures, conversions and the
`--opsnn-report` JSON of the optimized module, plus the target's ceilings
and the machine load), the input of `python -m opsnn report RUN.json -o
report.html` (opsnn/dashboard.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from . import api, zoo
from .cli import rel_l2
from .tools import atomic_file, find_tool

CONFIGS = (
    ("none", "no ops-nn optimization", None),
    ("alte", "ALTE only", "layouts=true precision=fp32"),
    ("precision", "precision only", "layouts=false precision=mixed-fp16"),
    ("both", "ALTE + precision", "layouts=true precision=mixed-fp16"),
)
PEER = "onnxruntime"
# The peers, on the same inputs: onnxruntime (also the reference every
# answer is checked against), PyTorch CPU eager in a worker process
# (opsnn/torch_worker.py; default and channels_last memory format; models
# with a PyTorch source only) and IREE llvm-cpu (when its wheels import and
# it compiles the model).
PEERS = ("onnxruntime", "torch", "torch_cl", "iree")
PEER_LABELS = {
    "onnxruntime": "onnxruntime CPU (default session options)",
    "torch": "PyTorch CPU eager (default memory format, inference_mode)",
    "torch_cl": "PyTorch CPU eager (channels_last, inference_mode)",
    "iree": "IREE llvm-cpu (iree-import-onnx, iree-compile --iree-llvmcpu-target-cpu=host, "
            "local-task)",
}
TORCH_FORMATS = {"torch": "default", "torch_cl": "channels_last"}
# Bench-only models from torchvision constructors (source, input shape
# without the batch, input name, batches), exported by opsnn.torch_export:
# the quick run's model with a PyTorch column. Batch 1 only: its lowering
# is ~35 CPU s per configuration, batch 8 would double that.
TORCH_MODELS = {"resnet18_tiny": ("resnet18", [3, 64, 64], "image", (1,))}
# Relative L2 against onnxruntime's FP32 output above which an answer is wrong.
TOLERANCE = {"fp32": 1e-4, "mixed-fp16": 3e-2}


def _log(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def _config_precision(opts):
    return "mixed-fp16" if opts and "mixed-fp16" in opts else "fp32"


# --- children with their own wall time and peak memory --------------------------

def run_measured(cmd, timeout=None, stdout_path=None):
    """Runs `cmd`; returns rc, stdout, stderr, wall_s, user_s, sys_s and
    peak_rss_mb of that child alone (os.wait4's rusage)."""
    with tempfile.TemporaryDirectory(prefix="opsnn-bench-") as tmp:
        out = open(stdout_path or os.path.join(tmp, "out"), "w+")
        err = open(os.path.join(tmp, "err"), "w+")
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=err)
        deadline = None if timeout is None else t0 + timeout
        timed_out = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if deadline is not None and time.perf_counter() > deadline:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.005)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        result = {"rc": proc.returncode, "stdout": "" if stdout_path else out.read(),
                  "stderr": err.read(), "wall_s": wall, "user_s": usage.ru_utime,
                  "sys_s": usage.ru_stime,
                  # ru_maxrss is in KiB on Linux.
                  "peak_rss_mb": usage.ru_maxrss / 1024.0, "timed_out": timed_out}
        out.close()
        err.close()
        return result


def _figures(m):
    return {k: m[k] for k in ("wall_s", "user_s", "sys_s", "peak_rss_mb")}


def _check(m, what):
    if m["rc"] != 0:
        detail = (m["stderr"] or m["stdout"]).strip().splitlines()
        raise RuntimeError(f"{what} failed (exit {m['rc']}"
                           f"{', timed out' if m['timed_out'] else ''}): "
                           + " | ".join(detail[:6]))
    return m


def target_ceilings(target):
    """The target's peaks, from `ops-nn-opt --test-opsnn-target-info`."""
    with tempfile.TemporaryDirectory(prefix="opsnn-bench-") as tmp:
        src = Path(tmp) / "t.mlir"
        src.write_text('module attributes {opsnn.target = #opsnn.target<"%s">} {}\n' % target)
        proc = subprocess.run([find_tool("ops-nn-opt"), str(src), "--test-opsnn-target-info",
                               "-o", os.devnull], capture_output=True, text=True)
    m = re.search(r"remark: target (\S+) (.*)", proc.stderr)
    if not m:
        raise RuntimeError(f"no target info for {target}: {proc.stderr.strip()}")
    fields = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
    num = lambda k: float(fields.get(k, 0) or 0)
    return {"name": m.group(1), "kind": fields.get("kind"),
            "dram_bandwidth_gbps": num("bw_gbps"),
            "peak_tflops": {"fp32": num("fp32"), "tf32": num("tf32"), "fp16": num("fp16"),
                            "bf16": num("bf16"), "fp8": num("fp8"), "int8": num("int8")}}


def machine_state():
    load = os.getloadavg()
    return {"load_avg_1_5_15": [round(x, 2) for x in load], "cpus": os.cpu_count(),
            "platform": platform.platform(), "python": platform.python_version(),
            "time": time.strftime("%Y-%m-%d %H:%M:%S")}


# --- models and batches ----------------------------------------------------------

def rebatch(model, batch):
    """A copy of `model` whose graph inputs have `batch` as leading dimension,
    or (None, why) when the model pins its batch. Reshape targets that start
    with the batch of 1 read it from their input (0) instead."""
    import onnx
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    inputs = [vi for vi in g.input if vi.name not in inits]
    dims0 = [vi.type.tensor_type.shape.dim[0].dim_value if vi.type.tensor_type.shape.dim else None
             for vi in inputs]
    if any(d != 1 for d in dims0):
        return None, f"inputs' leading dimensions are {dims0}, not a batch of 1"
    for vi in inputs:
        vi.type.tensor_type.shape.dim[0].dim_value = batch
    users = {}
    for node in g.node:
        for i, name in enumerate(node.input):
            users.setdefault(name, []).append((node.op_type, i))
    for node in g.node:
        if node.op_type != "Reshape" or len(node.input) < 2 or node.input[1] not in inits:
            continue
        if any(u != ("Reshape", 1) for u in users[node.input[1]]):
            continue
        t = inits[node.input[1]]
        shape = onnx.numpy_helper.to_array(t).copy()
        if shape.size and shape[0] == 1:
            shape[0] = 0
            t.CopyFrom(onnx.numpy_helper.from_array(shape, t.name))
    del g.value_info[:]
    for vi in g.output:
        vi.type.tensor_type.ClearField("shape")
    try:
        m = onnx.shape_inference.infer_shapes(m, strict_mode=True)
        onnx.checker.check_model(m)
    except Exception as error:  # onnx raises several kinds here
        return None, f"batch {batch}: shape inference failed: {str(error).splitlines()[0]}"
    return m, None


def full_models():
    """The zoo's real-size models (opsnn.zoo_full), if this zoo has them."""
    try:
        from . import zoo_full
    except ImportError:
        return []
    return list(getattr(zoo_full, "FULL_MODELS", []))


def torch_source(name):
    """(torchvision constructor, seed) the ONNX file of model `name` was
    exported from, or None when it has no PyTorch source (onnx.helper)."""
    if name in TORCH_MODELS:
        return TORCH_MODELS[name][0], 0
    try:
        from . import zoo_full
    except ImportError:
        return None
    if name in getattr(zoo_full, "TORCHVISION", {}):
        return name, 0   # zoo_full.build_full: export_torch(name, ...) at seed 0
    return None


def model_variants(name, batches, out_dir):
    """[(batch, onnx path or None, why)] for zoo model `name`."""
    import onnx
    if name in TORCH_MODELS:
        from .torch_export import export_torch
        source, shape, in_name, own = TORCH_MODELS[name]
        variants = []
        for batch in batches:
            if batch not in own:
                variants.append((batch, None, f"bench model {name} runs at batch "
                                 f"{', '.join(map(str, own))} only (compile time)"))
                continue
            path = Path(out_dir) / f"{name}_b{batch}.onnx"
            try:
                if not path.exists():
                    export_torch(source, path, [batch] + shape, input_name=in_name)
                variants.append((batch, path, None))
            except Exception as error:  # export failures name themselves
                variants.append((batch, None, f"export failed: {str(error)[:300]}"))
        return variants
    if name in full_models():   # the zoo builds these at any batch itself
        variants = []
        for batch in batches:
            try:
                variants.append((batch, zoo.build(name, out_dir, batch=batch), None))
            except Exception as error:  # export / build failures name themselves
                variants.append((batch, None, f"zoo.build failed: {str(error)[:300]}"))
        return variants
    base_path = zoo.build(name, out_dir)
    model = onnx.load(str(base_path))
    first = next(vi for vi in model.graph.input
                 if vi.name not in {t.name for t in model.graph.initializer})
    native = first.type.tensor_type.shape.dim[0].dim_value
    variants = []
    for batch in batches:
        if batch == native:
            variants.append((batch, base_path, None))
            continue
        m, why = rebatch(model, batch)
        if m is None:
            if native not in batches and not any(v[0] == native for v in variants):
                variants.append((native, base_path, None))
            variants.append((batch, None, why))
            continue
        path = Path(out_dir) / f"{name}_b{batch}.onnx"
        path.write_bytes(m.SerializeToString())
        variants.append((batch, path, None))
    return variants


# --- one model at one batch --------------------------------------------------------

def _count(text, what):
    return len(re.findall(re.escape(what) + r"\b", text))


def _ort_session(path, optimized=True):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    if not optimized:
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def _ort_timer(sess, inputs, repeat, warmup):
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}

    def timed():
        for _ in range(warmup):
            sess.run(None, feeds)
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            sess.run(None, feeds)
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)
    return timed


def _artifact_timer(art, input_paths, out_dir, repeat, warmup):
    cmd = [find_tool("ops-nn-run"), art, f"--output-dir={out_dir}", "--json",
           f"--repeat={repeat}", f"--warmup={warmup}"] + [f"--input={p}" for p in input_paths]

    def timed():
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"ops-nn-run {art} failed: {proc.stderr.strip()[:400]}")
        return json.loads(proc.stdout)["time_ms"]["median"]
    return timed


# --- peers: PyTorch eager (worker process) and IREE ----------------------------------

class TorchPeer:
    """The PyTorch worker (opsnn/torch_worker.py) run by the Python that has
    torch; started once per bench run and kept alive, so every round asks
    it for one timed batch, interleaved with the other configurations."""

    def __init__(self, timeout):
        self.timeout = timeout
        self.proc = None
        self.error = None
        self.info = None
        self._next = 0

    def _start(self):
        if self.proc is not None or self.error is not None:
            return
        try:
            from .torch_export import torch_python
            py = torch_python()
        except Exception as error:  # ToolError: no Python with PyTorch
            self.error = f"no Python with PyTorch ({str(error)[:200]})"
            return
        self.stderr = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen([py, str(Path(__file__).with_name("torch_worker.py"))],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, text=True, bufsize=1)
        try:
            self.info = self.request({"cmd": "info"})
            self.info.pop("ok", None)
            self.info["python_path"] = py
        except RuntimeError as error:
            self.error = str(error)

    def request(self, req, timeout=None):
        import select
        if self.proc is None or self.proc.poll() is not None:
            raise RuntimeError(f"PyTorch worker not running{self._stderr_tail()}")
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout or self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.close(kill=True)
            self.error = f"PyTorch worker died or timed out on {req.get('cmd')}"
            raise RuntimeError(self.error + self._stderr_tail())
        reply = json.loads(line)
        if not reply.get("ok"):
            raise RuntimeError(reply.get("error", "PyTorch worker error"))
        return reply

    def _stderr_tail(self):
        try:
            self.stderr.seek(0)
            tail = self.stderr.read().strip().splitlines()[-3:]
            return (": " + " | ".join(tail)) if tail else ""
        except (AttributeError, OSError, ValueError):
            return ""

    def load(self, source, seed, input_paths, out_dir):
        """Loads the module in both memory formats; returns (id, {format: [outputs]})."""
        self._start()
        if self.error:
            raise RuntimeError(self.error)
        self._next += 1
        reply = self.request({"cmd": "load", "id": self._next, "source": source, "seed": seed,
                              "inputs": [str(p) for p in input_paths],
                              "formats": list(TORCH_FORMATS.values()), "out_dir": str(out_dir)})
        return self._next, {f: [np.load(p) for p in paths]
                            for f, paths in reply["outputs"].items()}

    def timer(self, key, fmt, repeat, warmup):
        def timed():
            return self.request({"cmd": "time", "id": key, "format": fmt, "repeat": repeat,
                                 "warmup": warmup})["median_ms"]
        return timed

    def drop(self, key):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.request({"cmd": "drop", "id": key})
            except RuntimeError:
                pass

    def close(self, kill=False):
        if self.proc is None:
            return
        if not kill and self.proc.poll() is None:
            try:
                self.proc.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def iree_versions():
    """{package: version} of the IREE wheels, or None when they do not import."""
    try:
        import iree.compiler  # noqa: F401
        import iree.runtime  # noqa: F401
        from importlib.metadata import version
        return {p: version(p) for p in ("iree-base-compiler", "iree-base-runtime")}
    except Exception:  # ImportError, PackageNotFoundError
        return None


def iree_prepare(onnx_path, work, inputs, reference, args, c):
    """Imports (iree-import-onnx) and compiles (iree-compile, llvm-cpu, host
    CPU) the model, runs it once and checks it against onnxruntime; fills
    `c` and returns a timer, or None (c['status'] says why)."""
    import onnx
    import iree.runtime as rt
    from iree.compiler.tools.binaries import find_tool as iree_tool
    mlir, vmfb = work / "iree.mlir", work / "iree.vmfb"
    m = run_measured([sys.executable, "-m", "iree.compiler.tools.import_onnx", onnx_path,
                      "-o", mlir], timeout=args.timeout)
    if m["rc"] != 0:
        raise RuntimeError("iree-import-onnx failed: " + _last_line(m))
    c["import"] = _figures(m)
    m = run_measured([iree_tool("iree-compile"), mlir, "--iree-hal-target-backends=llvm-cpu",
                      "--iree-llvmcpu-target-cpu=host", "-o", vmfb], timeout=args.timeout)
    if m["rc"] != 0:
        raise RuntimeError("iree-compile failed: " + _last_line(m))
    c["lower"] = _figures(m)
    mlir.unlink()   # the weights, twice over: keep the work folder small
    fn_name = onnx.load(str(onnx_path), load_external_data=False).graph.name
    module = rt.load_vm_flatbuffer_file(str(vmfb), driver="local-task")
    fn = module[fn_name]
    res = fn(*inputs)
    res = list(res) if isinstance(res, (tuple, list)) else [res]
    outs = [np.asarray(r.to_host()) for r in res]
    _check_outputs(c, outs, reference, "fp32")
    if not c["correct"]:
        return None

    def timed():
        for _ in range(args.warmup):
            fn(*inputs)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            r = fn(*inputs)
            # the call returns once the invocation is done; to_host keeps
            # a lazy result from escaping the timing
            (r[0] if isinstance(r, (tuple, list)) else r).to_host()
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)
    return timed


def _last_line(m):
    lines = [l for l in (m["stderr"] or m["stdout"]).strip().splitlines() if l.strip()]
    err = [re.sub(r"^\S+:\d+:\d+: ", "", l) for l in lines if "error" in l.lower()]
    return ((err or lines or [f"exit {m['rc']}"])[0] +
            (" (timed out)" if m["timed_out"] else ""))[:300]


def _check_outputs(c, outs, reference, precision):
    """Fills c's rel_l2_vs_onnxruntime / tolerance / correct / status."""
    errs = [rel_l2(o, r) for o, r in zip(outs, reference)]
    shapes_ok = len(outs) == len(reference) and all(
        tuple(o.shape) == tuple(r.shape) for o, r in zip(outs, reference))
    c["rel_l2_vs_onnxruntime"] = max(errs) if errs else None
    c["tolerance"] = TOLERANCE[precision]
    c["correct"] = bool(shapes_ok and errs and max(errs) <= c["tolerance"])
    if not c["correct"]:
        c["status"] = ("failed: wrong output shape: not timed" if not shapes_ok else
                       f"failed: wrong answer (rel. L2 {max(errs):.2e} > {c['tolerance']:g}):"
                       " not timed")
    else:
        c["status"] = "ok"


def _ort_version():
    try:
        import onnxruntime as ort
        return ort.__version__
    except ImportError:
        return None


def bench_model(name, batch, onnx_path, work, args):
    """Compiles, checks and times one model at one batch; returns its entry."""
    import onnx
    entry = {"model": name, "batch": batch, "onnx": str(onnx_path), "configs": {}}
    model = onnx.load(str(onnx_path))
    inputs = zoo.random_inputs(model, seed=0)
    entry["inputs"] = [{"shape": list(a.shape), "dtype": str(a.dtype)} for a in inputs]
    entry["onnx_nodes"] = len(model.graph.node)
    work.mkdir(parents=True, exist_ok=True)
    input_paths = []
    for i, a in enumerate(inputs):
        p = work / f"in{i}.npy"
        np.save(p, api._to_tool_dtype(a))
        input_paths.append(p)

    ref_sess = _ort_session(onnx_path, optimized=False)
    reference = [np.asarray(r) for r in ref_sess.run(
        None, {i.name: a for i, a in zip(ref_sess.get_inputs(), inputs)})]

    t0 = time.perf_counter()
    imported = api.import_model(str(onnx_path))
    entry["import_s"] = time.perf_counter() - t0
    base = work / "none.mlir"
    base.write_text(imported.mlir)
    opt, runner = find_tool("ops-nn-opt"), find_tool("ops-nn-run")
    def prepare(key, label, opts):
        """Optimizes, reports, compiles and checks one configuration."""
        timer = None
        c = {"label": label, "options": opts, "precision": _config_precision(opts)}
        try:
            src = base
            if opts:
                src = work / f"{key}.mlir"
                m = _check(run_measured([opt, base, f"--opsnn-optimize=target={args.target} "
                                         f"{opts} annotate", "-o", src], timeout=args.timeout),
                           f"ops-nn-opt --opsnn-optimize ({key})")
                c["optimize"] = _figures(m)
            text = src.read_text()
            conv = {"remaining": _count(text, "layout.convert"),
                    "precision_casts": _count(text, "precision.cast")}
            if opts and "layouts=true" in opts:
                assigned = subprocess.run(
                    [opt, base, f"--opsnn-assign-layouts=target={args.target}"],
                    capture_output=True, text=True, check=True).stdout
                conv["inserted"] = _count(assigned, "layout.convert")
                conv["folded"] = max(conv["inserted"] - conv["remaining"], 0)
            c["conversions"] = conv
            rep = work / f"{key}.report.json"
            _check(run_measured([opt, src, f"--opsnn-report=file={rep} target={args.target}",
                                 "-o", os.devnull], timeout=args.timeout),
                   f"ops-nn-opt --opsnn-report ({key})")
            c["report"] = json.loads(rep.read_text())
            art = work / f"{key}.art"
            m = _check(run_measured([runner, src, f"--emit-artifact={art}"],
                                    timeout=args.timeout),
                       f"ops-nn-run --emit-artifact ({key})")
            c["lower"] = _figures(m)
            out_dir = work / f"{key}.out"
            m = _check(run_measured([runner, art, f"--output-dir={out_dir}", "--json"]
                                    + [f"--input={p}" for p in input_paths],
                                    timeout=args.timeout), f"ops-nn-run ({key})")
            outs = [np.load(o["path"]) for o in json.loads(m["stdout"])["outputs"]]
            errs = [rel_l2(o, r) for o, r in zip(outs, reference)]
            shapes_ok = len(outs) == len(reference) and all(
                o.shape == r.shape for o, r in zip(outs, reference))
            c["rel_l2_vs_onnxruntime"] = max(errs) if errs else None
            c["tolerance"] = TOLERANCE[c["precision"]]
            c["correct"] = bool(shapes_ok and errs and max(errs) <= c["tolerance"])
            if not c["correct"]:
                c["status"] = ("wrong output shape" if not shapes_ok else
                               f"wrong answer (rel. L2 {max(errs):.2e} > {c['tolerance']:g}):"
                               " not timed")
            else:
                c["status"] = "ok"
                timer = _artifact_timer(art, input_paths, work / f"{key}.tout",
                                        args.repeat, args.warmup)
        except (RuntimeError, subprocess.CalledProcessError, OSError, ValueError) as error:
            c["status"] = f"failed: {str(error)[:600]}"
            c["correct"] = False
        _log(f"{name} b{batch} {key}: {c['status']}")
        return key, c, timer

    # Compile the configurations (args.jobs at a time), then time them.
    from concurrent.futures import ThreadPoolExecutor
    timers = {}
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        for key, c, timer in pool.map(lambda cfg: prepare(*cfg), CONFIGS):
            entry["configs"][key] = c
            if timer is not None:
                timers[key] = timer

    peer = {"label": "onnxruntime CPU (default session options)", "version": None}
    try:
        import onnxruntime as ort
        peer["version"] = ort.__version__
        sess = _ort_session(onnx_path)
        outs = sess.run(None, {i.name: a for i, a in zip(sess.get_inputs(), inputs)})
        peer["rel_l2_vs_onnxruntime"] = max(rel_l2(o, r) for o, r in zip(outs, reference))
        peer["status"] = "ok"
        timers[PEER] = _ort_timer(sess, inputs, args.repeat, args.warmup)
    except Exception as error:  # onnxruntime raises its own exception types
        peer["status"] = f"failed: {str(error)[:600]}"
    entry["configs"][PEER] = peer

    # PyTorch eager, default and channels_last: the torchvision module the
    # ONNX file was exported from, on the same inputs, checked first.
    source = torch_source(name)
    tp = getattr(args, "torch_peer", None)
    torch_id = None
    for key, fmt in TORCH_FORMATS.items():
        entry["configs"][key] = {"label": PEER_LABELS[key], "memory_format": fmt}
    if source is None:
        for key in TORCH_FORMATS:
            entry["configs"][key]["status"] = "n/a (no PyTorch source)"
    elif tp is None:
        for key in TORCH_FORMATS:
            entry["configs"][key]["status"] = "n/a (--no-torch)"
    else:
        try:
            torch_id, outs = tp.load(source[0], source[1], input_paths, work)
            for key, fmt in TORCH_FORMATS.items():
                c = entry["configs"][key]
                c["source"] = f"torchvision.models.{source[0]}(weights=None), seed {source[1]}"
                c["version"] = tp.info
                _check_outputs(c, outs[fmt], reference, "fp32")
                if c["correct"]:
                    timers[key] = tp.timer(torch_id, fmt, args.repeat, args.warmup)
        except (RuntimeError, OSError, ValueError) as error:
            for key in TORCH_FORMATS:
                entry["configs"][key].setdefault("status", f"failed: {str(error)[:400]}")
                entry["configs"][key]["correct"] = False
    for key in TORCH_FORMATS:
        _log(f"{name} b{batch} {key}: {entry['configs'][key]['status']}")

    # IREE llvm-cpu, where its wheels import and it compiles the model.
    c = entry["configs"]["iree"] = {"label": PEER_LABELS["iree"]}
    versions = iree_versions() if not getattr(args, "no_iree", False) else None
    if getattr(args, "no_iree", False):
        c["status"] = "n/a (--no-iree)"
    elif versions is None:
        c["status"] = ("n/a (IREE not importable: pip install iree-base-compiler "
                       "iree-base-runtime)")
    else:
        c["version"] = versions
        try:
            timer = iree_prepare(onnx_path, work, inputs, reference, args, c)
            if timer is not None:
                timers["iree"] = timer
        except Exception as error:  # compiler/runtime raise their own types
            c["status"] = f"n/a ({str(error)[:400]})"
            c["correct"] = False
    _log(f"{name} b{batch} iree: {c['status']}")

    # Interleaved rounds: every configuration once per round, rotating order.
    order = list(timers)
    samples = {k: [] for k in order}
    for r in range(args.rounds):
        rot = order[r % len(order):] + order[:r % len(order)]
        for key in rot:
            if key not in timers:
                continue
            try:
                samples[key].append(timers[key]())
            except (RuntimeError, OSError, ValueError) as error:  # a peer died mid-run
                entry["configs"][key]["status"] = f"failed while timed: {str(error)[:400]}"
                del timers[key]
    order = [k for k in order if k in timers and samples[k]]
    for key in order:
        c = entry["configs"][key]
        c["round_medians_ms"] = samples[key]
        c["median_ms"] = statistics.median(samples[key])
        c["min_ms"], c["max_ms"] = min(samples[key]), max(samples[key])
    if torch_id is not None:
        tp.drop(torch_id)
    none_ms = entry["configs"]["none"].get("median_ms")
    ort_ms = entry["configs"][PEER].get("median_ms")
    timed_peers = [k for k in PEERS if entry["configs"][k].get("median_ms")]
    best = min(timed_peers, key=lambda k: entry["configs"][k]["median_ms"], default=None)
    best_ms = entry["configs"][best]["median_ms"] if best else None
    entry["best_peer"] = best
    entry["best_peer_ms"] = best_ms
    ours = [k for k, _, _ in CONFIGS if entry["configs"][k].get("median_ms")]
    entry["best_ours"] = min(ours, key=lambda k: entry["configs"][k]["median_ms"], default=None)
    for key in order:
        c = entry["configs"][key]
        c["ratio_to_none"] = c["median_ms"] / none_ms if none_ms else None
        c["ratio_to_onnxruntime"] = c["median_ms"] / ort_ms if ort_ms else None
        c["ratio_to_best_peer"] = c["median_ms"] / best_ms if best_ms else None
    return entry


# --- synthetic scaling series --------------------------------------------------------

def chain_mlir(n, shared_init=False):
    """A chain of `n` linalg ops on a 1x8x8x8 tensor: conv 1x1, ReLU
    (generic), matmul (through collapse/expand), residual add, repeating;
    each op writes its own `tensor.empty` (zero-filled for contractions),
    as the ONNX importer emits them. (`shared_init=True`: every op writes
    the same init tensor, which makes one-shot bufferization quadratic.)"""
    ty = "tensor<1x8x8x8xf32>"
    lines = [f"func.func @main(%x0: {ty}) -> {ty} {{",
             "  %zf = arith.constant 0.0 : f32",
             "  %wc = arith.constant dense<0.125> : tensor<8x8x1x1xf32>",
             "  %wm = arith.constant dense<0.015625> : tensor<64x64xf32>"]
    if shared_init:
        lines += [f"  %e4 = tensor.empty() : {ty}",
                  f"  %z4 = linalg.fill ins(%zf : f32) outs(%e4 : {ty}) -> {ty}",
                  "  %e2 = tensor.empty() : tensor<8x64xf32>",
                  "  %z2 = linalg.fill ins(%zf : f32) outs(%e2 : tensor<8x64xf32>) "
                  "-> tensor<8x64xf32>"]
    cur = "%x0"
    ident = "affine_map<(a, b, c, d) -> (a, b, c, d)>"
    for i in range(n):
        o = f"%x{i + 1}"
        k = i % 4
        z4, e4, z2 = ("%z4", "%e4", "%z2") if shared_init else (f"%z{i}", f"%e{i}", f"%z{i}")
        if k == 0:
            lines += [] if shared_init else [
                f"  %e{i} = tensor.empty() : {ty}",
                f"  %z{i} = linalg.fill ins(%zf : f32) outs(%e{i} : {ty}) -> {ty}"]
            lines.append(f"  {o} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : tensor<2xi64>, "
                         f"strides = dense<1> : tensor<2xi64>}} ins({cur}, %wc : {ty}, "
                         f"tensor<8x8x1x1xf32>) outs({z4} : {ty}) -> {ty}")
        elif k == 1:
            lines += [] if shared_init else [f"  %e{i} = tensor.empty() : {ty}"]
            lines.append(f"  {o} = linalg.generic {{indexing_maps = [{ident}, {ident}], "
                         f"iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} "
                         f"ins({cur} : {ty}) outs({e4} : {ty}) {{\n"
                         f"  ^bb0(%a: f32, %b: f32):\n    %r = arith.maximumf %a, %zf : f32\n"
                         f"    linalg.yield %r : f32\n  }} -> {ty}")
        elif k == 2:
            lines.append(f"  %c{i} = tensor.collapse_shape {cur} [[0, 1], [2, 3]] : {ty} "
                         f"into tensor<8x64xf32>")
            lines += [] if shared_init else [
                f"  %e{i} = tensor.empty() : tensor<8x64xf32>",
                f"  %z{i} = linalg.fill ins(%zf : f32) outs(%e{i} : tensor<8x64xf32>) "
                "-> tensor<8x64xf32>"]
            lines.append(f"  %m{i} = linalg.matmul ins(%c{i}, %wm : tensor<8x64xf32>, "
                         f"tensor<64x64xf32>) outs({z2} : tensor<8x64xf32>) -> tensor<8x64xf32>")
            lines.append(f"  {o} = tensor.expand_shape %m{i} [[0, 1], [2, 3]] output_shape "
                         f"[1, 8, 8, 8] : tensor<8x64xf32> into {ty}")
        else:
            lines += [] if shared_init else [f"  %e{i} = tensor.empty() : {ty}"]
            lines.append(f"  {o} = linalg.add ins({cur}, %x{i - 2} : {ty}, {ty}) "
                         f"outs({e4} : {ty}) -> {ty}")
        cur = o
    lines.append(f"  return {cur} : {ty}\n}}")
    return "\n".join(lines) + "\n"


def fit_exponent(sizes, values):
    """Least-squares slope of log(value) against log(size)."""
    pts = [(math.log(s), math.log(v)) for s, v in zip(sizes, values) if s > 0 and v > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


def parse_mlir_timing(text):
    """{pass name: wall seconds} from --mlir-timing's report (summed when a
    pass runs several times; nested pipeline rows and analyses skipped)."""
    passes = {}
    for line in text.splitlines():
        m = re.match(r"\s+(\d+\.\d+)\s+\(\s*[\d.]+%\)\s+(\S.*)$", line)
        if not m:
            continue
        name = m.group(2).strip()
        if name in ("Total", "Rest") or name.startswith("'") or name.startswith("(A)"):
            continue
        passes[name] = passes.get(name, 0.0) + float(m.group(1))
    return passes


def scaling_series(stage, sizes, work, args):
    """Wall time, CPU time and peak memory of one compile stage against the
    op count; the exponent of CPU time (user + system of the child: less
    sensitive to other load than wall time) and of memory above those of an
    empty function, fitted in log-log."""
    opt, runner = find_tool("ops-nn-opt"), find_tool("ops-nn-run")
    work.mkdir(parents=True, exist_ok=True)

    def command(src, n, timing=False):
        if stage == "optimize":
            cmd = [opt, src, f"--opsnn-optimize=target={args.target} layouts=true "
                   "precision=mixed-fp16", "-o", os.devnull]
        elif stage == "lower-mlir":
            cmd = [opt, src, "--opsnn-lower-to-cpu", "-o", os.devnull]
        else:  # full lowering to a shared object
            cmd = [runner, src, f"--emit-artifact={work / f'{stage}{n}.art'}"]
        return cmd + (["--mlir-timing"] if timing else [])

    def measure(n):
        src = work / f"chain{n}.mlir"
        if not src.exists():
            src.write_text(chain_mlir(n))
        m = _check(run_measured(command(src, n), timeout=args.timeout), f"{stage} of {n} ops")
        _log(f"scaling {stage} {n} ops: {m['wall_s']:.2f} s ({m['user_s'] + m['sys_s']:.2f} s CPU), "
             f"{m['peak_rss_mb']:.0f} MB")
        return {"ops": n, **_figures(m), "cpu_s": m["user_s"] + m["sys_s"], "samples": 1}

    def fit(points):
        empty, rest = points[0], points[1:]
        xs = [p["ops"] for p in rest]
        return {"time_exponent": fit_exponent(xs, [p["cpu_s"] - empty["cpu_s"] for p in rest]),
                "wall_exponent": fit_exponent(xs, [p["wall_s"] - empty["wall_s"] for p in rest]),
                "memory_exponent": fit_exponent(
                    xs, [p["peak_rss_mb"] - empty["peak_rss_mb"] for p in rest])}

    points = [measure(n) for n in [0] + list(sizes)]
    series = {"stage": stage, "points": points, **fit(points)}
    e = series["time_exponent"]
    if e is not None and e > 1.15:
        # One sample each on a loaded machine can mislead: measure every
        # point once more and keep the smaller figures before calling it.
        _log(f"scaling {stage}: exponent {e:.2f}, measuring again")
        for p in points:
            again = measure(p["ops"])
            for k in ("wall_s", "user_s", "sys_s", "cpu_s"):
                p[k] = min(p[k], again[k])
            p["samples"] += 1
        series.update(fit(points))
    e = series["time_exponent"]
    series["superlinear"] = bool(e is not None and e > 1.15)
    rest = points[1:]
    if len(rest) >= 2 and stage != "lower-full" and (series["superlinear"] or not args.quick):
        # Per-pass exponents between the two largest sizes: which pass grows fastest.
        per = []
        for p in rest[-2:]:
            src = work / f"chain{p['ops']}.mlir"
            m = run_measured(command(src, p["ops"], timing=True), timeout=args.timeout)
            per.append(parse_mlir_timing(m["stderr"]))
        (n1, n2), (t1, t2) = (rest[-2]["ops"], rest[-1]["ops"]), per
        passes = []
        total2 = sum(t2.values()) or 1.0
        for name in t2:
            if t1.get(name, 0) > 0 and t2[name] > 0:
                passes.append({"pass": name, "seconds_small": t1[name], "seconds_large": t2[name],
                               "share_large": t2[name] / total2,
                               "exponent": math.log(t2[name] / t1[name]) / math.log(n2 / n1)})
        passes.sort(key=lambda p: -p["seconds_large"])
        series["passes"] = passes[:12]
        heavy = [p for p in passes if p["share_large"] >= 0.05]
        if heavy:
            worst = max(heavy, key=lambda p: p["exponent"])
            series["fastest_growing_pass"] = worst
    return series


# --- GPU cases (bench/gpu/cases.py) ---------------------------------------------------

GPU_CASES = Path(__file__).resolve().parents[2] / "bench" / "gpu" / "cases.py"
NO_CUDA = "no CUDA device: GPU part skipped"


def load_gpu_json(path):
    """The JSON of bench/gpu/cases.py --json, checked for its schema."""
    try:
        gpu = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"cannot read GPU results {path}: {error}") from error
    if not isinstance(gpu, dict) or gpu.get("schema") != "opsnn-gpu-bench":
        raise ValueError(f"{path} is not the JSON of bench/gpu/cases.py (schema "
                         f"{gpu.get('schema') if isinstance(gpu, dict) else None!r})")
    gpu["source"] = str(path)
    return gpu


def merge_gpu(run, gpu):
    """Puts the GPU results into the bench run (its `gpu` section)."""
    run["gpu"] = gpu
    run.pop("gpu_skipped", None)
    return run


def cuda_device_present():
    import shutil
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        proc = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and any(l.startswith("GPU") for l in proc.stdout.splitlines())


def run_gpu_cases(work, timeout, extra=()):
    """Runs bench/gpu/cases.py on the CUDA device; its JSON, or None when
    there is no device (or no script in this checkout), with the reason."""
    if not cuda_device_present():
        return None, NO_CUDA
    if not GPU_CASES.is_file():
        return None, f"{GPU_CASES} not found: GPU part skipped"
    out = Path(work) / "gpu.json"
    m = run_measured([sys.executable, GPU_CASES, "--json", out, *extra], timeout=timeout)
    if not out.is_file():
        return None, "bench/gpu/cases.py failed: " + _last_line(m)
    gpu = load_gpu_json(out)
    gpu["source"] = "bench/gpu/cases.py, run by python -m opsnn.bench --gpu"
    return gpu, None


def format_gpu_table(gpu):
    fmt = lambda v, f: (f % v) if isinstance(v, (int, float)) and not isinstance(v, bool) else "-"
    rows = [f"{'case':22s} {'shape':56s} {'our ms':>9s} {'cuBLAS/cuDNN ms':>16s} "
            f"{'floor ms':>9s} {'achieved':>9s} {'rel L2':>9s}  status"]
    for r in gpu.get("cases", []):
        vendor = (fmt(r["vendor_ms"], "%.3f") if r.get("vendor_ms") is not None
                  else r.get("vendor_status") or "-")
        rows.append(f"{r.get('name', '?'):22s} {str(r.get('shape', ''))[:56]:56s} "
                    f"{fmt(r.get('ours_ms'), '%.3f'):>9s} {vendor[:16]:>16s} "
                    f"{fmt(r.get('floor_ms'), '%.4g'):>9s} "
                    f"{fmt(r.get('achieved_fraction'), '%.3g'):>9s} "
                    f"{fmt(r.get('rel_l2'), '%.1e'):>9s}  {r.get('status', '-')}")
    ceil = gpu.get("ceilings") or {}
    rows.append(f"device {gpu.get('device')}; mode {gpu.get('mode')}; target {gpu.get('target')} "
                f"({ceil.get('dram_bandwidth_gbps')} GB/s); cuBLAS/cuDNN: {gpu.get('torch')}; "
                "floor: max(FLOPs / peak, bytes / bandwidth); achieved: floor / our ms")
    for c in gpu.get("comparisons", []):
        rows.append(f"{c['what']}: " + (f"{c['ratio']:.2f}x (goal >= {c['goal']:g}x)"
                                        if c.get("ratio") else "n/a (not timed)"))
    return "\n".join(rows)


# --- driver ---------------------------------------------------------------------

def format_table(run):
    rows = [f"{'model':16s} {'batch':>5s} {'config':12s} {'median ms':>10s} "
            f"{'min..max ms':>17s} {'x none':>7s} {'x ort':>7s} {'x best':>7s} "
            f"{'rel L2':>9s}  status"]
    for e in run["models"]:
        if e.get("skipped"):
            rows.append(f"{e['model']:16s} {e['batch']:5d} {'-':12s} skipped: {e['skipped']}")
            continue
        for key in [k for k, _, _ in CONFIGS] + list(PEERS):
            c = e["configs"].get(key, {})
            if not c:
                continue
            fmt = lambda v, f: (f % v) if isinstance(v, (int, float)) else "-"
            rng = (f"{c['min_ms']:.3f}..{c['max_ms']:.3f}" if "min_ms" in c else "-")
            status = c.get("status", "-")
            if key == e.get("best_peer"):
                status += " (best peer)"
            rows.append(f"{e['model']:16s} {e['batch']:5d} {key:12s} "
                        f"{fmt(c.get('median_ms'), '%.3f'):>10s} {rng:>17s} "
                        f"{fmt(c.get('ratio_to_none'), '%.2f'):>7s} "
                        f"{fmt(c.get('ratio_to_onnxruntime'), '%.2f'):>7s} "
                        f"{fmt(c.get('ratio_to_best_peer'), '%.2f'):>7s} "
                        f"{fmt(c.get('rel_l2_vs_onnxruntime'), '%.1e'):>9s}  "
                        f"{status if len(status) < 70 else status[:67] + '...'}")
    return "\n".join(rows)


def format_summary(run):
    """One line per model and batch: our best configuration against the best peer."""
    rows = [f"{'model':16s} {'batch':>5s} {'best ours':>18s} {'best peer':>22s} "
            f"{'ours / peer':>11s}"]
    for e in run["models"]:
        if e.get("skipped"):
            continue
        ours, peer = e.get("best_ours"), e.get("best_peer")
        o = e["configs"][ours]["median_ms"] if ours else None
        p = e.get("best_peer_ms")
        rows.append(f"{e['model']:16s} {e['batch']:5d} "
                    f"{(f'{ours} {o:.3f} ms' if ours else '-'):>18s} "
                    f"{(f'{peer} {p:.3f} ms' if peer else '-'):>22s} "
                    f"{(f'{o / p:.2f}' if o and p else '-'):>11s}")
    return "\n".join(rows)


def format_compile_table(run):
    rows = [f"{'model':16s} {'batch':>5s} {'config':10s} {'optimize s':>10s} {'opt MB':>7s} "
            f"{'lower s':>8s} {'cpu s':>6s} {'lower MB':>8s}"]
    for e in run["models"]:
        for key, _, _ in CONFIGS:
            c = e.get("configs", {}).get(key)
            if not c:
                continue
            o, lo = c.get("optimize"), c.get("lower")
            rows.append(f"{e['model']:16s} {e['batch']:5d} {key:10s} "
                        f"{o['wall_s'] if o else 0:10.2f} {o['peak_rss_mb'] if o else 0:7.0f} "
                        f"{lo['wall_s'] if lo else float('nan'):8.2f} "
                        f"{lo['user_s'] + lo['sys_s'] if lo else float('nan'):6.2f} "
                        f"{lo['peak_rss_mb'] if lo else float('nan'):8.0f}")
    return "\n".join(rows)


def format_scaling(run):
    rows = []
    for s in run.get("scaling", []):
        pts = ", ".join(f"{p['ops']}: {p['wall_s']:.2f} s ({p.get('cpu_s', 0):.2f} CPU) / "
                        f"{p['peak_rss_mb']:.0f} MB" for p in s["points"])
        fe = lambda v: "n/a" if v is None else f"{v:.2f}"
        rows.append(f"{s['stage']:11s} {pts}")
        rows.append(f"{'':11s} exponent (above the empty function): CPU time "
                    f"{fe(s['time_exponent'])} (wall {fe(s.get('wall_exponent'))}), "
                    f"peak memory {fe(s['memory_exponent'])}"
                    + ("  ** SUPERLINEAR **" if s["superlinear"] else "  (linear)"))
        if s.get("fastest_growing_pass"):
            p = s["fastest_growing_pass"]
            rows.append(f"{'':11s} fastest-growing pass holding >= 5% of the time: {p['pass']} "
                        f"(exponent {p['exponent']:.2f}, {p['seconds_large']:.2f} s = "
                        f"{100 * p['share_large']:.0f}% at the largest size)")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m opsnn.bench",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="the *_tiny zoo variants (and resnet18_tiny) only")
    p.add_argument("--json", help="write every figure to this file")
    p.add_argument("--models", help="comma-separated zoo models (default: all, or the tiny ones)")
    p.add_argument("--batches", default="1,8")
    p.add_argument("--target", default="host", choices=api.TARGETS,
                   help="target of --opsnn-optimize and of the report (default: host)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 5; quick 3)")
    p.add_argument("--repeat", type=int, help="timed runs per round (default 20; quick 10)")
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--jobs", type=int, default=2,
                   help="configurations compiled at once (default 2; compile wall times "
                        "then include the contention; CPU seconds are per child)")
    p.add_argument("--scaling", default=None,
                   help="op counts of the --opsnn-optimize series (default 100,1000,10000)")
    p.add_argument("--scaling-lower", default=None,
                   help="op counts of the lowering series, MLIR (--opsnn-lower-to-cpu) and "
                        "full (LLVM, .so) (default 100,1000,3000; quick 50,100,200)")
    p.add_argument("--no-scaling", action="store_true")
    p.add_argument("--no-torch", action="store_true", help="leave out the PyTorch eager peer")
    p.add_argument("--no-iree", action="store_true", help="leave out the IREE peer")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per tool call")
    p.add_argument("--work", help="keep the artifacts here (default: a temporary folder)")
    gpu_opts = p.add_mutually_exclusive_group()
    gpu_opts.add_argument("--gpu-json", metavar="FILE",
                          help="merge the JSON of bench/gpu/cases.py (bench/gpu/run.sh: "
                               "$OUT/gpu.json) into the run's gpu section")
    gpu_opts.add_argument("--gpu", action="store_true",
                          help="also run bench/gpu/cases.py when a CUDA device is present")
    args = p.parse_args(argv)
    gpu = None
    if args.gpu_json:   # read it now: a bad file fails before the CPU part
        try:
            gpu = load_gpu_json(args.gpu_json)
        except ValueError as error:
            print(f"opsnn.bench: {error}", file=sys.stderr)
            return 1
    args.rounds = args.rounds or (3 if args.quick else 5)
    args.repeat = args.repeat or (10 if args.quick else 20)
    scaling = [int(x) for x in (args.scaling or "100,1000,10000").split(",")]
    scaling_lower = [int(x) for x in (args.scaling_lower or
                                      ("50,100,200" if args.quick else "100,1000,3000")).split(",")]

    known = (list(zoo.MODELS) + [n for n in full_models() if n not in zoo.MODELS]
             + [n for n in TORCH_MODELS if n not in zoo.MODELS])
    names = (args.models.split(",") if args.models else
             [n for n in known if n.endswith("_tiny") or not args.quick])
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"opsnn.bench: unknown model(s) {', '.join(unknown)}; known: "
              f"{', '.join(known)}", file=sys.stderr)
        return 1
    batches = [int(b) for b in args.batches.split(",")]
    os.environ.setdefault("OPSNN_QUIET", "1")

    owner = None
    if args.work:
        work = Path(args.work)
        work.mkdir(parents=True, exist_ok=True)
    else:
        owner = tempfile.TemporaryDirectory(prefix="opsnn-bench-")
        work = Path(owner.name)
    t_start = time.perf_counter()
    run = {"schema": "opsnn-bench", "version": 1, "quick": args.quick,
           "command": "python -m opsnn.bench " + " ".join(argv if argv is not None else sys.argv[1:]),
           "target": args.target, "ceilings": target_ceilings(args.target),
           "machine_start": machine_state(),
           "timing": {"rounds": args.rounds, "repeat": args.repeat, "warmup": args.warmup},
           "configs": {k: {"label": label, "options": o} for k, label, o in CONFIGS},
           "models": []}
    for key in PEERS:
        run["configs"][key] = {"label": PEER_LABELS[key], "options": None, "peer": True}
    args.torch_peer = None if args.no_torch else TorchPeer(args.timeout)
    run["peers"] = {"onnxruntime": _ort_version(), "iree": None if args.no_iree else
                    iree_versions(), "torch": None}
    _log(f"machine: {run['machine_start']['cpus']} CPUs, load "
         f"{run['machine_start']['load_avg_1_5_15']}")
    try:
        for name in names:
            for batch, path, why in model_variants(name, batches, work / "onnx"):
                if path is None:
                    run["models"].append({"model": name, "batch": batch, "skipped": why,
                                          "configs": {}})
                    _log(f"{name} b{batch}: skipped ({why})")
                    continue
                t0 = time.perf_counter()
                try:
                    entry = bench_model(name, batch, path, work / f"{name}_b{batch}", args)
                except Exception as error:  # keep the other models going
                    entry = {"model": name, "batch": batch, "configs": {},
                             "skipped": f"failed: {str(error)[:600]}"}
                entry["bench_s"] = time.perf_counter() - t0
                run["models"].append(entry)
                _log(f"{name} b{batch}: done in {entry['bench_s']:.0f} s")
        if args.gpu:
            gpu, why = run_gpu_cases(work, args.timeout)
            if gpu is None:
                run["gpu_skipped"] = why
                _log(why)
        if gpu is not None:
            merge_gpu(run, gpu)
        if not args.no_scaling:
            run["scaling"] = [scaling_series("optimize", scaling, work / "scaling", args),
                              scaling_series("lower-mlir", scaling_lower, work / "scaling", args),
                              scaling_series("lower-full", scaling_lower, work / "scaling", args)]
    finally:
        if args.torch_peer is not None:
            run["peers"]["torch"] = (args.torch_peer.info or args.torch_peer.error or
                                     "not started (no model with a PyTorch source)")
            args.torch_peer.close()
        run["machine_end"] = machine_state()
        run["total_s"] = time.perf_counter() - t_start
        if args.json:
            with atomic_file(args.json) as f:
                json.dump(run, f, indent=1, sort_keys=True, default=str)
                f.write("\n")
        if owner is not None:
            owner.cleanup()

    print(f"# {run['command']}")
    print(f"# target {args.target}; {run['machine_start']['cpus']} CPUs; load average "
          f"(1/5/15 min) at start {run['machine_start']['load_avg_1_5_15']}, at end "
          f"{run['machine_end']['load_avg_1_5_15']}; {args.rounds} interleaved rounds x "
          f"{args.repeat} runs; {run['total_s']:.0f} s in all")
    print(format_table(run))
    print("x none: median / median of 'none' (below 1: faster than no optimization); "
          "x ort: median / onnxruntime's; x best: median / the fastest peer's "
          "(onnxruntime, torch, torch_cl, iree); rel L2: against onnxruntime's FP32 output")
    pe = run.get("peers", {})
    print(f"peers: onnxruntime {pe.get('onnxruntime')}; PyTorch eager "
          f"{pe.get('torch') if pe.get('torch') is not None else 'n/a (--no-torch)'}"
          f"; IREE {pe.get('iree') or ('n/a (--no-iree)' if args.no_iree else 'n/a (wheels not importable)')}")
    if run.get("gpu"):
        print()
        print(f"# GPU cases ({run['gpu'].get('source', 'bench/gpu/cases.py')})")
        print(format_gpu_table(run["gpu"]))
    elif run.get("gpu_skipped"):
        print()
        print(f"# GPU: {run['gpu_skipped']}")
    print()
    print("# our best configuration against the best peer")
    print(format_summary(run))
    print()
    print("# compile time and peak memory (per child process; optimize: ops-nn-opt "
          "--opsnn-optimize, lower: ops-nn-run --emit-artifact, linalg -> .so; wall and CPU s)")
    print(format_compile_table(run))
    if run.get("scaling"):
        print()
        print("# scaling with the op count (synthetic chains: conv, generic, matmul, add)")
        print(format_scaling(run))
    if args.json:
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
