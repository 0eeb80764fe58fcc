"""Model zoo, offline: small models built with onnx.helper, random weights.

    python -m opsnn.zoo [--out DIR] [--check] [NAME ...]

Builds each model (no download: the graphs are written here, weights are
seeded random numbers), saves it as DIR/NAME.onnx (default `.cache/zoo`
under the repository, git-ignored) and with `--check` compiles it, runs it
on the CPU and compares with onnxruntime on the same random input
(relative L2 <= 1e-4 in FP32). `examples/small_cnn.onnx` is `small_cnn`.
"""

from __future__ import annotations

import argparse
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


def random_inputs(model, seed=0):
    """Random inputs for a model's graph inputs (indices within range: ints
    in [0, 20), which every zoo table holds)."""
    rng = np.random.default_rng(seed)
    inits = {t.name for t in model.graph.initializer}
    arrays = []
    for vi in model.graph.input:
        if vi.name in inits:
            continue
        tt = vi.type.tensor_type
        shape = [d.dim_value for d in tt.shape.dim]
        if tt.elem_type == 7:
            arrays.append(rng.integers(0, 20, shape).astype(np.int64))
        else:
            arrays.append(rng.standard_normal(shape).astype(np.float32))
    return arrays


def build(name, out_dir=None) -> Path:
    """Builds model `name` into the cache (once) and returns its path."""
    import onnx
    from .tools import atomic_file
    out_dir = Path(out_dir) if out_dir else default_cache()
    path = out_dir / f"{name}.onnx"
    if not path.exists():
        model = MODELS[name]()
        with atomic_file(path, "wb") as f:
            f.write(model.SerializeToString())
        onnx.checker.check_model(str(path))
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
    return [rel_l2(a, b) for a, b in zip(ours, ref)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m opsnn.zoo", description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", help=f"models (default: all): {', '.join(MODELS)}")
    p.add_argument("--out", help="output folder (default: .cache/zoo in the repository)")
    p.add_argument("--check", action="store_true", help="compare with onnxruntime")
    p.add_argument("--tolerance", type=float, default=1e-4)
    args = p.parse_args(argv)
    names = args.names or list(MODELS)
    bad = [n for n in names if n not in MODELS]
    if bad:
        print(f"opsnn.zoo: unknown model(s) {', '.join(bad)}; known: {', '.join(MODELS)}",
              file=sys.stderr)
        return 1
    status = 0
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
