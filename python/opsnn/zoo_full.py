"""The real-size zoo models (random weights, nothing downloaded).

- `resnet50`, `mobilenet_v2`, `vit_b_16`: torchvision's own constructors
  (`weights=None`) exported by PyTorch (`opsnn.torch_export`), 3x224x224.
- `bert_base`: BERT-base as Hugging Face exports it (12 layers, hidden 768,
  12 heads, FFN 3072, vocabulary 30522, sequence 128; word + position +
  token-type embeddings, additive attention mask, Erf GELU, LayerNorm eps
  1e-12, tanh pooler), written with onnx.helper (transformers is not
  packaged for Debian here).
- `unet3d`: the 3-D U-Net of Cicek et al. (2016) as MONAI/PyTorch export it:
  per level two 3x3x3 conv + BatchNorm + ReLU, 2x2x2 max pooling, channels
  32-64 / 64-128 / 128-256 / 256-512, 2x2x2 ConvTranspose up-sampling, skip
  Concat, 1x1x1 head to 3 classes; one input channel. The network is the
  paper's (19 M parameters); the volume is a 32^3 patch (`unet3d(size=...)`
  takes any multiple of 8): at the paper's 132^3 it is ~2 TFLOP, hours for
  the CPU check on two cores, while 32^3 is ~60 GFLOP.
- `dlrm`: DLRM as its reference implementation configures it for Criteo
  Kaggle (`--arch-sparse-feature-size=16 --arch-mlp-bot=13-512-256-64-16
  --arch-mlp-top=512-256-1`, dot interaction), its 26 embedding tables at
  the Kaggle row counts capped at 100000 rows (`--max-ind-range=100000`).

Batch 1 by default; `batch` sets the leading dimension of every input.
"""

from __future__ import annotations

import json

import numpy as np

# torchvision models: (input shape without the batch, input name)
TORCHVISION = {
    "resnet50": ([3, 224, 224], "image"),
    "mobilenet_v2": ([3, 224, 224], "image"),
    "vit_b_16": ([3, 224, 224], "image"),
}

# Criteo Kaggle categorical cardinalities (dlrm's data loader), capped as
# --max-ind-range=100000 does.
CRITEO_KAGGLE_ROWS = [1460, 583, 10131227, 2202608, 305, 24, 12517, 633, 3, 93145, 5683,
                      8351593, 3194, 27, 14992, 5461306, 10, 5652, 2173, 4, 7046547, 18, 15,
                      286181, 105, 142572]
DLRM_MAX_ROWS = 100000


def _set_input_ranges(model, ranges):
    """Records the valid index range of integer inputs in the model's
    metadata (`opsnn.input_ranges`: name -> high, or a list of highs, one per
    index along axis 0), so random inputs stay within the tables."""
    entry = model.metadata_props.add()
    entry.key, entry.value = "opsnn.input_ranges", json.dumps(ranges)
    return model


def bert_base(batch=1, layers=12, hidden=768, heads=12, ffn=3072, vocab=30522, seq=128,
              max_positions=512):
    from .zoo import _G
    g = _G("bert_base", seed=11)
    B, S, D, H, F, V, P = batch, seq, hidden, heads, ffn, vocab, max_positions
    dh = D // H
    ids = g.input("input_ids", [B, S], elem=7)
    types = g.input("token_type_ids", [B, S], elem=7)
    mask = g.input("attention_mask", [B, S], elem=7)

    def ln(x):
        return g.op("LayerNormalization", [x, g.weight((D,), positive=True),
                                           g.weight((D,), 0.02)], axis=-1, epsilon=1e-12)

    def linear(x, cin, cout):
        y = g.op("MatMul", [x, g.weight((cin, cout), 0.02)])
        return g.op("Add", [g.weight((cout,), 0.02), y])

    word = g.op("Gather", [g.weight((V, D), 0.02), ids], axis=0)
    pos_ids = g.const(np.arange(S, dtype=np.int64)[None, :])
    pos = g.op("Gather", [g.weight((P, D), 0.02), pos_ids], axis=0)
    typ = g.op("Gather", [g.weight((2, D), 0.02), types], axis=0)
    x = ln(g.op("Add", [g.op("Add", [word, typ]), pos]))

    # extended mask: (1 - mask[:, None, None, :]) * -10000
    m = g.op("Unsqueeze", [mask, g.const(np.array([1, 2], np.int64))])
    m = g.op("Cast", [m], to=1)
    m = g.op("Mul", [g.op("Sub", [g.const(np.float32(1)), m]), g.const(np.float32(-10000.0))])

    def heads(t):
        t = g.op("Reshape", [t, g.const(np.array([B, S, H, dh], np.int64))])
        return g.op("Transpose", [t], perm=[0, 2, 1, 3])

    for _ in range(layers):
        q, k, v = (heads(linear(x, D, D)) for _ in range(3))
        kt = g.op("Transpose", [k], perm=[0, 1, 3, 2])
        s = g.op("Div", [g.op("MatMul", [q, kt]), g.const(np.float32(np.sqrt(dh)))])
        s = g.op("Softmax", [g.op("Add", [s, m])], axis=-1)
        o = g.op("Transpose", [g.op("MatMul", [s, v])], perm=[0, 2, 1, 3])
        o = g.op("Reshape", [o, g.const(np.array([B, S, D], np.int64))])
        x = ln(g.op("Add", [linear(o, D, D), x]))
        f = linear(x, D, F)
        e = g.op("Erf", [g.op("Div", [f, g.const(np.float32(np.sqrt(2.0)))])])
        f = g.op("Mul", [g.op("Mul", [f, g.op("Add", [e, g.const(np.float32(1))])]),
                         g.const(np.float32(0.5))])
        x = ln(g.op("Add", [linear(f, F, D), x]))
    g.op("Identity", [x])
    g.nodes[-1].output[0] = "last_hidden_state"
    first = g.op("Gather", ["last_hidden_state", g.const(np.array(0, np.int64))], axis=1)
    pooled = g.op("Gemm", [first, g.weight((D, D), 0.02), g.weight((D,), 0.02)], transB=1)
    g.op("Tanh", [pooled])
    g.nodes[-1].output[0] = "pooler_output"
    g.output("last_hidden_state", [B, S, D])
    g.output("pooler_output", [B, D])
    return _set_input_ranges(g.model(), {"input_ids": V, "token_type_ids": 2,
                                          "attention_mask": 2})


def unet3d(batch=1, size=32, channels=(32, 64, 128, 256, 512), in_ch=1, classes=3):
    from .zoo import _G
    g = _G("unet3d", seed=12)
    x = g.input("volume", [batch, in_ch, size, size, size])

    def conv_bn_relu(t, cin, cout):
        return g.op("Relu", [g.bn(g.conv(t, cin, cout, 3, nd=3, bias=False), cout)])

    # encoder: level l has (c_l, 2 c_l) after its two convs (Cicek et al.)
    skips, cin, y = [], in_ch, x
    levels = [(channels[0], channels[1]), (channels[1], channels[2]),
              (channels[2], channels[3])]
    for mid, out in levels:
        y = conv_bn_relu(conv_bn_relu(y, cin, mid), mid, out)
        skips.append((y, out))
        y = g.op("MaxPool", [y], kernel_shape=[2, 2, 2], strides=[2, 2, 2])
        cin = out
    y = conv_bn_relu(conv_bn_relu(y, cin, channels[3]), channels[3], channels[4])
    cin = channels[4]
    for skip, sc in reversed(skips):
        up = g.op("ConvTranspose", [y, g.weight((cin, cin, 2, 2, 2)), g.weight((cin,), 0.1)],
                  kernel_shape=[2, 2, 2], strides=[2, 2, 2])
        y = g.op("Concat", [skip, up], axis=1)
        y = conv_bn_relu(conv_bn_relu(y, sc + cin, sc), sc, sc)
        cin = sc
    g.conv(y, cin, classes, 1, pad=0, nd=3)
    g.nodes[-1].output[0] = "segmentation"
    g.output("segmentation", [batch, classes, size, size, size])
    return g.model()


def dlrm(batch=1, dim=16, bot=(512, 256, 64), top=(512, 256), dense_in=13,
         max_rows=DLRM_MAX_ROWS):
    from .zoo import _G
    g = _G("dlrm", seed=13)
    B = batch
    rows = [min(r, max_rows) for r in CRITEO_KAGGLE_ROWS]
    T = len(rows)
    dense = g.input("dense_features", [B, dense_in])
    sparse = g.input("sparse_indices", [T, B], elem=7)

    def mlp(t, sizes, last_sigmoid=False):
        for i in range(len(sizes) - 1):
            t = g.op("Gemm", [t, g.weight((sizes[i + 1], sizes[i])),
                              g.weight((sizes[i + 1],), 0.1)], transB=1)
            t = g.op("Sigmoid" if last_sigmoid and i == len(sizes) - 2 else "Relu", [t])
        return t
    b = mlp(dense, [dense_in, *bot, dim])
    feats = [b]
    for t, r in enumerate(rows):
        idx = g.op("Gather", [sparse, g.const(np.array(t, np.int64))], axis=0)
        feats.append(g.op("Gather", [g.weight((r, dim), 0.5), idx], axis=0))
    # dot interaction: T = [B, 27, d]; Z = T T^T; strictly lower triangle
    n = T + 1
    cat = g.op("Concat", feats, axis=1)
    t3 = g.op("Reshape", [cat, g.const(np.array([B, n, dim], np.int64))])
    z = g.op("MatMul", [t3, g.op("Transpose", [t3], perm=[0, 2, 1])])
    zf = g.op("Reshape", [z, g.const(np.array([B, n * n], np.int64))])
    li = np.array([i * n + j for i in range(n) for j in range(i)], np.int64)
    tri = g.op("Gather", [zf, g.const(li)], axis=1)
    r = g.op("Concat", [b, tri], axis=1)
    mlp(r, [dim + len(li), *top, 1], last_sigmoid=True)
    g.nodes[-1].output[0] = "click_probability"
    g.output("click_probability", [B, 1])
    return _set_input_ranges(g.model(), {"sparse_indices": rows})


BUILDERS = {"bert_base": bert_base, "unet3d": unet3d, "dlrm": dlrm}
FULL_MODELS = list(TORCHVISION) + list(BUILDERS)


def build_full(name, path, batch=1):
    """Writes full-size model `name` at `batch` to `path` (atomically)."""
    from .tools import atomic_file
    if name in TORCHVISION:
        from .torch_export import export_torch
        shape, in_name = TORCHVISION[name]
        export_torch(name, path, [batch] + shape, input_name=in_name)
        return path
    model = BUILDERS[name](batch=batch)
    with atomic_file(path, "wb") as f:
        f.write(model.SerializeToString())
    return path
