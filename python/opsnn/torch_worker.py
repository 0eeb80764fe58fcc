"""PyTorch CPU eager as a peer of the bench: a worker process that stays alive.

Run by the Python that has PyTorch (`opsnn.torch_export.torch_python()`,
Debian's `/usr/bin/python3` here) as a plain script, so it imports nothing
from this package (whose own Python need not have torch, and torch's need
not have our requirements):

    /usr/bin/python3 python/opsnn/torch_worker.py

`opsnn.bench` writes one JSON request per line to its stdin and reads one
JSON reply per line from its stdout (anything torch prints goes to
stderr). Arrays travel as .npy files. Requests:

    {"cmd": "load", "id": K, "source": "resnet50", "seed": 0,
     "inputs": [npy, ...], "formats": ["default", "channels_last"], "out_dir": D}
        builds torchvision's `source(weights=None)` exactly as
        opsnn.torch_export does before torch.onnx.export (same seed, same
        re-initialization of constant tensors), so the module is the one
        the ONNX file was exported from; runs it once per memory format and
        replies {"outputs": {format: [npy, ...]}} for the bench to check
        against onnxruntime before anything is timed.
    {"cmd": "time", "id": K, "format": F, "repeat": N, "warmup": W}
        one timed batch (W untimed runs, then N timed ones, under
        torch.inference_mode()); replies {"median_ms": m, "times_ms": [...]}.
    {"cmd": "drop", "id": K}     frees the model.
    {"cmd": "info"}              {"torch": version, "torchvision": version, "threads": n}

Intra-op threads: one per CPU ($OPSNN_TORCH_THREADS overrides).
    {"cmd": "quit"}

Every reply carries "ok": true, or "ok": false and "error".
"""

import json
import os
import statistics
import sys
import time
import traceback


def build_torchvision(source, seed):
    """The module opsnn.torch_export's export script builds for `source`
    (keep the two in step: the bench's output check catches any drift)."""
    import torch
    import torchvision
    torch.manual_seed(int(seed))
    ctor = getattr(torchvision.models, source, None)
    if ctor is None:
        raise ValueError(f"no torchvision model named {source!r}")
    model = ctor(weights=None)
    model.eval()
    with torch.no_grad():
        for p in model.parameters():
            constant = p.numel() > 1 and bool((p == p.flatten()[0]).all())
            if constant and (p.dim() > 1 or not bool(p.any())):
                p.normal_(0.0, 0.02)
    return model


def _to_format(t, fmt):
    import torch
    if fmt == "channels_last" and t.dim() == 4:
        return t.contiguous(memory_format=torch.channels_last)
    if fmt == "channels_last" and t.dim() == 5:
        return t.contiguous(memory_format=torch.channels_last_3d)
    return t


def _flatten(out):
    import torch
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, dict):
        out = list(out.values())
    flat = []
    for o in out:
        flat += _flatten(o)
    return flat


class Worker:
    def __init__(self):
        self.models = {}   # id -> {format: (module, inputs)}

    def load(self, req):
        import numpy as np
        import torch
        key = str(req["id"])
        base = build_torchvision(req["source"], req.get("seed", 0))
        arrays = [np.load(p) for p in req["inputs"]]
        variants, outputs = {}, {}
        for fmt in req.get("formats", ["default"]):
            if fmt == "default":
                model = base
            elif fmt == "channels_last":
                # a copy, so the default variant keeps its own layout
                import copy
                model = copy.deepcopy(base).to(memory_format=torch.channels_last)
            else:
                raise ValueError(f"unknown memory format {fmt!r}")
            inputs = [_to_format(torch.from_numpy(a), fmt) for a in arrays]
            with torch.inference_mode():
                outs = _flatten(model(*inputs))
            paths = []
            for i, o in enumerate(outs):
                path = os.path.join(req["out_dir"], f"torch_{key}_{fmt}_{i}.npy")
                np.save(path, o.detach().contiguous().numpy())
                paths.append(path)
            variants[fmt] = (model, inputs)
            outputs[fmt] = paths
        self.models[key] = variants
        return {"outputs": outputs}

    def time(self, req):
        import torch
        model, inputs = self.models[str(req["id"])][req["format"]]
        times = []
        with torch.inference_mode():
            for _ in range(int(req.get("warmup", 2))):
                model(*inputs)
            for _ in range(int(req.get("repeat", 10))):
                t0 = time.perf_counter()
                model(*inputs)
                times.append((time.perf_counter() - t0) * 1e3)
        return {"median_ms": statistics.median(times), "times_ms": times}

    def drop(self, req):
        self.models.pop(str(req["id"]), None)
        return {}

    def info(self, req):
        import torch
        import torchvision
        return {"torch": torch.__version__, "torchvision": torchvision.__version__,
                "threads": torch.get_num_threads(), "python": sys.version.split()[0]}


def set_threads():
    """Intra-op threads: $OPSNN_TORCH_THREADS, else one per CPU, as
    onnxruntime's default session uses (Debian's torch 1.13 starts with
    OpenMP's 1 on this machine, which would time a one-core PyTorch)."""
    import torch
    n = int(os.environ.get("OPSNN_TORCH_THREADS") or os.cpu_count() or 1)
    torch.set_num_threads(n)


def main():
    set_threads()
    # Replies go to the original stdout only; whatever else prints goes to stderr.
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    worker = Worker()
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if req.get("cmd") == "quit":
                replies.write(json.dumps({"ok": True}) + "\n")
                break
            handler = getattr(worker, str(req.get("cmd")), None)
            if handler is None or req.get("cmd").startswith("_"):
                raise ValueError(f"unknown command {req.get('cmd')!r}")
            reply = {"ok": True, **handler(req)}
        except Exception as error:  # reported to the bench, the worker lives on
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}",
                     "traceback": traceback.format_exc()[-2000:]}
        replies.write(json.dumps(reply) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
