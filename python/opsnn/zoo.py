"""Model zoo, offline: random weights, nothing downloaded.

    python -m opsnn.zoo [--out DIR] [--check] [NAME ...]                   # tiny models
    python -m opsnn.zoo --size=full [--batch=8] [--check] [NAME ...]       # real sizes

Tiny models (`--size=tiny`, the default) are built here with onnx.helper
and checked in pytest. The real-size ones (`--size=full`: ResNet-50,
MobileNetV2, ViT-B/16 from torchvision's constructors exported by PyTorch,
BERT-base, a 3-D U-Net and DLRM written with onnx.helper; see
`opsnn.zoo_full`) are checked by the bench command `bench/zoo/run.sh`.

Each model is saved as DIR/NAME.onnx (DIR/NAME_bB.onnx for batch B > 1;
default DIR `.cache/zoo` under the repository, git-ignored) and built only
once. With `--check` it is imported, compiled and run on the CPU and
compared with onnxruntime on the same random input (relative L2 <= 1e-4 in
FP32); for full-size models it prints a table of import, compile and run
times, onnxruntime's time and the error. `examples/small_cnn.onnx` is
`small_cnn`.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np


class _G:
    """A tiny graph builder over onnx.helper."""

    def __init__(self, name, seed=0):
        import onnx
        self.onnx, self.h = onnx, onnx.helper
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes, self.inits, self.inputs, self.outputs = [], [], [], []
        self.n = 0

    def _name(self, base):
        self.n += 1
        return f"{base}_{self.n}"

    def input(self, name, shape, elem=1):
        self.inputs.append(self.h.make_tensor_value_info(name, elem, shape))
        return name

    def output(self, name, shape=None, elem=1):
        self.outputs.append(self.h.make_tensor_value_info(name, elem, shape))

    def weight(self, shape, scale=None, positive=False, dtype=np.float32):
        fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
        scale = scale if scale is not None else 1.0 / np.sqrt(max(fan_in, 1))
        a = self.rng.standard_normal(shape) * scale
        if positive:
            a = np.abs(a) + 0.5
        name = self._name("w")
        self.inits.append(self.onnx.numpy_helper.from_array(np.asarray(a, dtype=dtype), name))
        return name

    def const(self, array):
        name = self._name("c")
        self.inits.append(self.onnx.numpy_helper.from_array(np.asarray(array), name))
        return name

    def op(self, op_type, inputs, n_out=1, **attrs):
        outs = [self._name(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(self.h.make_node(op_type, inputs, outs, name=outs[0], **attrs))
        return outs[0] if n_out == 1 else outs

    # layers
    def conv(self, x, cin, cout, k, stride=1, pad=None, group=1, bias=True, nd=2):
        pad = k // 2 if pad is None else pad
        w = self.weight((cout, cin // group) + (k,) * nd)
        ins = [x, w] + ([self.weight((cout,), 0.1)] if bias else [])
        return self.op("Conv", ins, kernel_shape=[k] * nd, strides=[stride] * nd,
                       pads=[pad] * (2 * nd), group=group)

    def bn(self, x, c):
        return self.op("BatchNormalization", [x, self.weight((c,), positive=True),
                                              self.weight((c,), 0.1), self.weight((c,), 0.1),
                                              self.weight((c,), positive=True)], epsilon=1e-5)

    def linear(self, x, cin, cout):
        y = self.op("MatMul", [x, self.weight((cin, cout))])
        return self.op("Add", [y, self.weight((cout,), 0.1)])

    def layernorm(self, x, d):
        return self.op("LayerNormalization", [x, self.weight((d,), positive=True),
                                              self.weight((d,), 0.1)], axis=-1, epsilon=1e-5)

    def model(self, opset=17):
        g = self.h.make_graph(self.nodes, self.name, self.inputs, self.outputs, self.inits)
        m = self.h.make_model(g, opset_imports=[self.h.make_opsetid("", opset)],
                              producer_name="opsnn.zoo")
        m.ir_version = 8
        m = self.onnx.shape_inference.infer_shapes(m)
        self.onnx.checker.check_model(m)
        return m


def small_cnn():
    """conv-bn-relu-maxpool, conv-relu-avgpool, flatten-gemm-softmax (1x3x16x16)."""
    g = _G("small_cnn")
    x = g.input("image", [1, 3, 16, 16])
    y = g.op("Relu", [g.bn(g.conv(x, 3, 8, 3), 8)])
    y = g.op("MaxPool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = g.op("Relu", [g.conv(y, 8, 16, 3)])
    y = g.op("AveragePool", [y], kernel_shape=[2, 2], strides=[2, 2])
    y = g.op("Flatten", [y], axis=1)
    y = g.op("Gemm", [y, g.weight((10, 16 * 4 * 4)), g.weight((10,), 0.1)], transB=1)
    y = g.op("Softmax", [y], axis=-1)
    g.nodes[-1].output[0] = "probabilities"
    g.output("probabilities", [1, 10])
    return g.model()


def resnet_tiny():
    """ResNet-style: stem conv/bn/relu/maxpool, two basic blocks (one with a
    strided 1x1 projection), global average pool, fc (1x3x32x32)."""
    g = _G("resnet_tiny", seed=1)
    x = g.input("image", [1, 3, 32, 32])
    y = g.op("Relu", [g.bn(g.conv(x, 3, 16, 7, stride=2, pad=3, bias=False), 16)])
    y = g.op("MaxPool", [y], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])

    def block(y, cin, cout, stride):
        h = g.op("Relu", [g.bn(g.conv(y, cin, cout, 3, stride, bias=False), cout)])
        h = g.bn(g.conv(h, cout, cout, 3, bias=False), cout)
        skip = y if stride == 1 and cin == cout else g.bn(
            g.conv(y, cin, cout, 1, stride, pad=0, bias=False), cout)
        return g.op("Relu", [g.op("Add", [h, skip])])
    y = block(y, 16, 16, 1)
    y = block(y, 16, 32, 2)
    y = g.op("GlobalAveragePool", [y])
    y = g.op("Flatten", [y])
    y = g.op("Gemm", [y, g.weight((32, 10)), g.weight((10,), 0.1)])
    g.nodes[-1].output[0] = "logits"
    g.output("logits", [1, 10])
    return g.model()


def mobilenet_tiny():
    """MobileNetV2-style inverted residuals: 1x1 expand, 3x3 depthwise,
    ReLU6 (Clip), 1x1 project, residual add (1x3x32x32)."""
    g = _G("mobilenet_tiny", seed=2)
    x = g.input("image", [1, 3, 32, 32])
    relu6 = lambda t: g.op("Clip", [t, g.const(np.float32(0)), g.const(np.float32(6))])
    y = relu6(g.bn(g.conv(x, 3, 16, 3, stride=2, bias=False), 16))

    def inverted(y, cin, cout, stride, t=4):
        c = cin * t
        h = relu6(g.bn(g.conv(y, cin, c, 1, pad=0, bias=False), c))
        h = relu6(g.bn(g.conv(h, c, c, 3, stride, group=c, bias=False), c))
        h = g.bn(g.conv(h, c, cout, 1, pad=0, bias=False), cout)
        return g.op("Add", [h, y]) if stride == 1 and cin == cout else h
    y = inverted(y, 16, 16, 1)
    y = inverted(y, 16, 24, 2)
    y = inverted(y, 24, 24, 1)
    y = g.op("GlobalAveragePool", [y])
    y = g.op("Reshape", [y, g.const(np.array([1, -1], np.int64))])
    y = g.op("Gemm", [y, g.weight((10, 24)), g.weight((10,), 0.1)], transB=1)
    g.nodes[-1].output[0] = "logits"
    g.output("logits", [1, 10])
    return g.model()


def _attention(g, x, s, d, heads):
    dh = d // heads
    q, k, v = (g.linear(x, d, d) for _ in range(3))

    def split(t):
        t = g.op("Reshape", [t, g.const(np.array([1, s, heads, dh], np.int64))])
        return g.op("Transpose", [t], perm=[0, 2, 1, 3])
    q, k, v = split(q), split(k), split(v)
    kt = g.op("Transpose", [k], perm=[0, 1, 3, 2])
    att = g.op("MatMul", [q, kt])
    att = g.op("Div", [att, g.const(np.float32(np.sqrt(dh)))])
    att = g.op("Softmax", [att], axis=-1)
    o = g.op("MatMul", [att, v])
    o = g.op("Transpose", [o], perm=[0, 2, 1, 3])
    o = g.op("Reshape", [o, g.const(np.array([1, s, d], np.int64))])
    return g.linear(o, d, d)


def _encoder_layer(g, x, s, d, heads, ff):
    h = g.layernorm(g.op("Add", [x, _attention(g, x, s, d, heads)]), d)
    f = g.linear(h, d, ff)
    # GELU as BERT exports it: x * 0.5 * (1 + erf(x / sqrt(2)))
    e = g.op("Erf", [g.op("Div", [f, g.const(np.float32(np.sqrt(2.0)))])])
    f = g.op("Mul", [g.op("Mul", [f, g.op("Add", [e, g.const(np.float32(1))])]),
                     g.const(np.float32(0.5))])
    f = g.linear(f, ff, d)
    return g.layernorm(g.op("Add", [h, f]), d)


def bert_tiny():
    """BERT-style encoder: token + position embeddings (Gather), LayerNorm,
    two layers of multi-head attention and an Erf-GELU MLP (seq 16, d 32)."""
    g = _G("bert_tiny", seed=3)
    s, d, vocab = 16, 32, 50
    ids = g.input("input_ids", [1, s], elem=7)
    tok = g.op("Gather", [g.weight((vocab, d), 0.5), ids], axis=0)
    pos = g.weight((1, s, d), 0.5)
    x = g.layernorm(g.op("Add", [tok, pos]), d)
    for _ in range(2):
        x = _encoder_layer(g, x, s, d, 4, 64)
    g.nodes[-1].output[0] = "hidden"
    g.output("hidden", [1, s, d])
    return g.model()


def vit_tiny():
    """ViT-style: 4x4 patch embedding (strided Conv), flatten/transpose to
    tokens, class token (Concat), position embedding, two encoder layers
    (pre-LN), class-token head via Gather (1x3x16x16, d 32)."""
    g = _G("vit_tiny", seed=4)
    d, p = 32, 4
    x = g.input("image", [1, 3, 16, 16])
    y = g.conv(x, 3, d, p, stride=p, pad=0)
    y = g.op("Reshape", [y, g.const(np.array([1, d, 16], np.int64))])
    y = g.op("Transpose", [y], perm=[0, 2, 1])
    y = g.op("Concat", [g.weight((1, 1, d), 0.5), y], axis=1)
    y = g.op("Add", [y, g.weight((1, 17, d), 0.5)])
    for _ in range(2):
        y = _encoder_layer(g, y, 17, d, 4, 64)
    cls = g.op("Gather", [y, g.const(np.array(0, np.int64))], axis=1)
    y = g.op("Gemm", [cls, g.weight((d, 10)), g.weight((10,), 0.1)])
    g.nodes[-1].output[0] = "logits"
    g.output("logits", [1, 10])
    return g.model()


def unet3d_tiny():
    """3-D U-Net-style: conv3d/relu encoder, MaxPool 3-D, bottleneck,
    ConvTranspose 3-D up-sampling, skip Concat, Resize (trilinear) branch,
    1x1x1 conv head (1x2x8x8x8)."""
    g = _G("unet3d_tiny", seed=5)
    x = g.input("volume", [1, 2, 8, 8, 8])
    e1 = g.op("Relu", [g.conv(x, 2, 8, 3, nd=3)])
    p1 = g.op("MaxPool", [e1], kernel_shape=[2, 2, 2], strides=[2, 2, 2])
    b = g.op("Relu", [g.conv(p1, 8, 16, 3, nd=3)])
    up = g.op("ConvTranspose", [b, g.weight((16, 8, 2, 2, 2)), g.weight((8,), 0.1)],
              kernel_shape=[2, 2, 2], strides=[2, 2, 2])
    rs = g.op("Resize", [b, "", g.const(np.array([1, 1, 2, 2, 2], np.float32))],
              mode="linear")
    rs = g.conv(rs, 16, 8, 1, pad=0, nd=3)
    cat = g.op("Concat", [up, e1, rs], axis=1)
    d1 = g.op("Relu", [g.conv(cat, 24, 8, 3, nd=3)])
    y = g.conv(d1, 8, 3, 1, pad=0, nd=3)
    g.nodes[-1].output[0] = "segmentation"
    g.output("segmentation", [1, 3, 8, 8, 8])
    return g.model()


def dlrm_tiny():
    """DLRM-style: bottom MLP on dense features, three embedding tables
    (Gather), feature interaction by concatenation, top MLP, Sigmoid
    (batch 4)."""
    g = _G("dlrm_tiny", seed=6)
    B, dense_in, emb = 4, 13, 16
    dense = g.input("dense", [B, dense_in])
    sparse = g.input("sparse", [3, B], elem=7)
    bot = g.op("Relu", [g.linear(g.op("Relu", [g.linear(dense, dense_in, 32)]), 32, emb)])
    feats = [bot]
    for t, rows in enumerate((100, 50, 20)):
        idx = g.op("Gather", [sparse, g.const(np.array(t, np.int64))], axis=0)
        feats.append(g.op("Gather", [g.weight((rows, emb), 0.5), idx], axis=0))
    z = g.op("Concat", feats, axis=1)
    z = g.op("Relu", [g.linear(z, 4 * emb, 32)])
    z = g.op("Sigmoid", [g.linear(z, 32, 1)])
    g.nodes[-1].output[0] = "click_probability"
    g.output("click_probability", [B, 1])
    return g.model()


MODELS = {
    "small_cnn": small_cnn, "resnet_tiny": resnet_tiny, "mobilenet_tiny": mobilenet_tiny,
    "bert_tiny": bert_tiny, "vit_tiny": vit_tiny, "unet3d_tiny": unet3d_tiny,
    "dlrm_tiny": dlrm_tiny,
}


def default_cache() -> Path:
    return Path(__file__).resolve().parents[2] / ".cache" / "zoo"


def _input_ranges(model):
    for entry in model.metadata_props:
        if entry.key == "opsnn.input_ranges":
            return json.loads(entry.value)
    return {}


def random_inputs(model, seed=0):
    """Random inputs for a model's graph inputs: floats standard normal,
    indices in [0, 20) (which every tiny zoo table holds) or within the
    ranges the model records (`opsnn.input_ranges` metadata: a bound, or
    one bound per index along axis 0)."""
    rng = np.random.default_rng(seed)
    inits = {t.name for t in model.graph.initializer}
    ranges = _input_ranges(model)
    arrays = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        shape = [d.dim_value for d in tt.shape.dim]
        if tt.elem_type == 7:
            high = ranges.get(vi.name, 20)
            if isinstance(high, list):
                arrays.append(np.stack([rng.integers(0, h, shape[1:]) for h in high])
                              .astype(np.int64))
            else:
                arrays.append(rng.integers(0, high, shape).astype(np.int64))
        else:
            arrays.append(rng.standard_normal(shape).astype(np.float32))
    return arrays


def model_path(name, out_dir=None, batch=1) -> Path:
    out_dir = Path(out_dir) if out_dir else default_cache()
    return out_dir / (f"{name}.onnx" if batch == 1 else f"{name}_b{batch}.onnx")


def build(name, out_dir=None, batch=1) -> Path:
    """Builds model `name` (tiny or full size) into the cache (once) and
    returns its path."""
    import onnx
    from .tools import atomic_file
    from . import zoo_full
    path = model_path(name, out_dir, batch)
    if not path.exists():
        if name in zoo_full.FULL_MODELS:
            zoo_full.build_full(name, path, batch)
        else:
            if batch != 1:
                raise ValueError(f"{name}: the tiny models have batch 1")
            model = MODELS[name]()
            with atomic_file(path, "wb") as f:
                f.write(model.SerializeToString())
        try:
            onnx.checker.check_model(str(path))
        except Exception:
            path.unlink()
            raise
    return path


def check(path, seed=0):
    """Relative L2 error of each output of our CPU run vs onnxruntime."""
    import onnx
    from . import api
    from .cli import onnxruntime_outputs, rel_l2
    model = onnx.load(str(path))
    inputs = random_inputs(model, seed)
    ours = api.run(str(path), inputs)
    ref = onnxruntime_outputs(path, inputs)
    if any(not np.any(b) for b in ref):
        raise RuntimeError(f"{path}: an onnxruntime output is all zeros, the comparison "
                           f"would prove nothing")
    return [rel_l2(a, b) for a, b in zip(ours, ref)]


def check_timed(path, seed=0, repeat=3):
    """The full check, step by step: a dict of times (seconds) and errors.
    `run_s` is ops-nn-run's median over `repeat` runs of the compiled
    artifact (after a warm-up); `ort_s` is onnxruntime's median with its
    default graph optimizations. The reference output is onnxruntime's
    with graph optimizations off (no fusions)."""
    import tempfile
    import onnx
    import onnxruntime as ort
    from . import api
    from .cli import onnxruntime_outputs, rel_l2
    from .onnx_import import import_onnx
    model = onnx.load(str(path))
    params = sum(int(np.prod(t.dims)) for t in model.graph.initializer)
    inputs = random_inputs(model, seed)
    del model
    row = {"params": params}
    t0 = time.perf_counter()
    imported = import_onnx(str(path))
    row["import_s"] = time.perf_counter() - t0
    row["mlir_mib"] = len(imported.mlir) / 2**20
    with tempfile.TemporaryDirectory(prefix="opsnn-zoo-") as tmp:
        t0 = time.perf_counter()
        art = api.compile(imported, target="host", precision="fp32",
                          output=Path(tmp) / "artifact")
        row["compile_s"] = time.perf_counter() - t0
        del imported
        t0 = time.perf_counter()
        ours = art.run(inputs)
        row["first_run_s"] = time.perf_counter() - t0
        row["run_s"] = _tool_median(art, inputs, repeat)
    ref = onnxruntime_outputs(path, inputs)
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    feeds = {i.name: a for i, a in zip(sess.get_inputs(), inputs)}
    sess.run(None, feeds)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        sess.run(None, feeds)
        times.append(time.perf_counter() - t0)
    row["ort_s"] = float(np.median(times))
    if len(ours) != len(ref) or any(a.shape != b.shape for a, b in zip(ours, ref)):
        raise RuntimeError(f"{path}: output shapes {[a.shape for a in ours]} vs "
                           f"onnxruntime {[b.shape for b in ref]}")
    for k, b in enumerate(ref):
        if not np.any(b):
            raise RuntimeError(f"{path}: onnxruntime's output #{k} is all zeros, the "
                               f"comparison would prove nothing (zero-initialized weights?)")
    row["errors"] = [rel_l2(a, b) for a, b in zip(ours, ref)]
    return row


def _tool_median(art, inputs, repeat):
    """ops-nn-run's own median time (seconds) of the artifact."""
    import tempfile
    from .api import _check_inputs, _to_tool_dtype
    from .tools import run_tool
    arrays = _check_inputs(inputs, art.meta)
    with tempfile.TemporaryDirectory(prefix="opsnn-time-") as tmp:
        args = [art.path]
        for i, a in enumerate(arrays):
            p = Path(tmp) / f"in{i}.npy"
            np.save(p, _to_tool_dtype(a))
            args.append(f"--input={p}")
        args += [f"--output-dir={Path(tmp) / 'out'}", "--json", f"--repeat={repeat}",
                 "--warmup=1"]
        summary = json.loads(run_tool("ops-nn-run", args, "timed run"))
    return summary["time_ms"]["median"] / 1e3


_HEADER = (f"{'model':14s} {'batch':>5s} {'params':>8s} {'MLIR':>8s} {'import':>8s} "
           f"{'compile':>8s} {'ours':>9s} {'onnxrt':>9s} {'rel. L2':>9s}  result")


def _row_line(name, batch, row, tolerance):
    worst = max(row["errors"])
    return (f"{name:14s} {batch:5d} {row['params'] / 1e6:7.1f}M {row['mlir_mib']:6.0f}Mi "
            f"{row['import_s']:7.1f}s {row['compile_s']:7.1f}s {row['run_s'] * 1e3:7.1f}ms "
            f"{row['ort_s'] * 1e3:7.1f}ms {worst:9.2e}  "
            f"{'ok' if worst <= tolerance else 'FAILED'}")


def _mem_available_mb():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return None


def main(argv=None) -> int:
    from . import zoo_full
    p = argparse.ArgumentParser(prog="python -m opsnn.zoo", description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*",
                   help=f"models (default: all of the size): tiny {', '.join(MODELS)}; "
                        f"full {', '.join(zoo_full.FULL_MODELS)}")
    p.add_argument("--size", choices=("tiny", "full"), default="tiny")
    p.add_argument("--batch", type=int, default=1, help="batch of the full-size models")
    p.add_argument("--out", help="output folder (default: .cache/zoo in the repository)")
    p.add_argument("--check", action="store_true", help="compare with onnxruntime")
    p.add_argument("--repeat", type=int, default=3, help="timed runs (full size)")
    p.add_argument("--tolerance", type=float, default=1e-4)
    p.add_argument("--json", metavar="FILE", help="also write the check's rows as JSON")
    args = p.parse_args(argv)
    known = MODELS if args.size == "tiny" else zoo_full.FULL_MODELS
    names = args.names or list(known)
    bad = [n for n in names if n not in known]
    if bad:
        print(f"opsnn.zoo: unknown {args.size} model(s) {', '.join(bad)}; known: "
              f"{', '.join(known)}", file=sys.stderr)
        return 1
    if args.batch < 1 or (args.size == "tiny" and args.batch != 1):
        print("opsnn.zoo: --batch must be >= 1 (and 1 for the tiny models)", file=sys.stderr)
        return 1
    status = 0
    if args.size == "full":
        if args.check and "OPSNN_TOOL_MEMORY_LIMIT_MB" not in os.environ:
            # a real-size compile takes many GiB; on a shared machine it fails
            # cleanly at 80% of the memory available now instead of swapping
            # or waking the OOM killer
            avail = _mem_available_mb()
            if avail:
                os.environ["OPSNN_TOOL_MEMORY_LIMIT_MB"] = str(int(avail * 0.8))
                print(f"(ops-nn tools limited to {int(avail * 0.8)} MiB of address space; "
                      f"set OPSNN_TOOL_MEMORY_LIMIT_MB to change)", flush=True)
        rows = {}
        for name in names:
            t0 = time.perf_counter()
            try:
                path = build(name, args.out, args.batch)
            except Exception as error:  # reported per model, the others still run
                print(f"{name}: build failed: {error}", flush=True)
                status = 1
                continue
            print(f"{name:14s} {path} ({path.stat().st_size / 2**20:.0f} MiB, "
                  f"{time.perf_counter() - t0:.1f} s)", flush=True)
            if not args.check:
                continue
            try:
                row = check_timed(path, repeat=args.repeat)
            except Exception as error:
                print(f"{name}: check failed: {type(error).__name__}: {error}", flush=True)
                rows[name] = {"error": f"{type(error).__name__}: {error}"}
                status = 1
                continue
            rows[name] = row
            status |= 0 if max(row["errors"]) <= args.tolerance else 1
            print(_HEADER + "\n" + _row_line(name, args.batch, row, args.tolerance), flush=True)
        if args.check:
            print("\nsummary (CPU, FP32; ours = ops-nn-run median, onnxrt = onnxruntime "
                  "median, rel. L2 = worst output vs onnxruntime)")
            print(_HEADER)
            for name in names:
                row = rows.get(name)
                if row is None or "error" in row:
                    print(f"{name:14s} {args.batch:5d} FAILED: "
                          f"{row['error'] if row else 'not built'}")
                else:
                    print(_row_line(name, args.batch, row, args.tolerance))
            if args.json:
                from .tools import atomic_file
                with atomic_file(args.json) as f:
                    json.dump({"batch": args.batch, "tolerance": args.tolerance,
                               "models": rows}, f, indent=2)
        return status
    for name in names:
        path = build(name, args.out)
        line = f"{name:16s} {path} ({path.stat().st_size // 1024} KiB)"
        if args.check:
            t0 = time.time()
            errs = check(path)
            worst = max(errs)
            ok = worst <= args.tolerance
            status |= 0 if ok else 1
            line += f"  rel. L2 vs onnxruntime {worst:.2e} {'ok' if ok else 'FAILED'} " \
                    f"({time.time() - t0:.1f} s)"
        print(line, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
