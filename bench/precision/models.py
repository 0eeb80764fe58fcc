#!/usr/bin/env python3
"""Writes the mixed-precision benchmark models (MLIR, f32) with their weights
as dense constants, so that --opsnn-assign-precision's casts of weights fold
at compile time into FP16/BF16 constants (the memory the report counts).

    bert_layer.mlir    one post-LN BERT encoder layer on 128 tokens, hidden
                       256, 4 heads: QKV projection, scaled dot-product
                       attention (batch matmuls, softmax), output
                       projection, residual + LayerNorm, GELU FFN 256-1024-
                       256, residual + LayerNorm; then a token classifier
                       head 256 -> 32 (the output the top-k figures use).
    resnet_small.mlir  a ResNet-style net on 8 images 3x32x32 (NCHW): 3x3
                       stem conv to 32 channels, BN, ReLU, two bottleneck
                       blocks (16 -> 64 channels, the first with a projection
                       shortcut), global average pooling, FC to 100 classes.

The op builders are bench/alte/models.py's (conv, bn, bottleneck, matmul,
bias_add, layer_norm); only the first argument (the input) stays a function
argument, every parameter becomes an `arith.constant dense<"0x...">` drawn
like bench/alte's inputs (1/sqrt(fan-in) scale; per-channel scales, shifts
and biases near 1) from a fixed seed.

Usage: models.py OUT_DIR  (writes OUT_DIR/<model>.mlir)
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "alte"))
import models as alte  # noqa: E402  (bench/alte/models.py: the op builders)
from models import ident, proj, ty  # noqa: E402


class ConstBuilder(alte.Builder):
    """alte.Builder whose parameters are dense constants: the first
    `inputs` calls of arg() make function arguments, later ones constants."""

    def __init__(self, seed, inputs=1):
        super().__init__()
        self.rng = np.random.default_rng(seed)
        self.inputs = inputs

    def arg(self, shape):
        if len(self.args) < self.inputs:
            return super().arg(shape)
        if len(shape) == 1:
            data = 1.0 + 0.1 * self.rng.uniform(-1.0, 1.0, size=shape)
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
            data = self.rng.standard_normal(size=shape) / np.sqrt(fan_in)
        hex_data = data.astype("<f4").tobytes().hex().upper()
        return self.value('arith.constant dense<"0x%s"> : %s' % (hex_data, ty(shape)))


def scalar_constants(b, values):
    for name, value in values:
        b.lines.append("  %%%s = arith.constant %.9e : f32" % (name, float(value)))


def bert_layer(tokens=128, dim=256, heads=4, hidden=1024, classes=32):
    b = ConstBuilder(seed=1)
    hd = dim // heads
    scalar_constants(b, [("c_invd", 1.0 / dim), ("c_eps", 1e-6), ("c_one", 1.0),
                         ("c_half", 0.5), ("c_rsqrt2", 0.7071067811865476),
                         ("c_scale", 1.0 / np.sqrt(hd))])
    x = b.arg([tokens, dim])
    # Self-attention.
    qkv = alte.matmul(b, x, tokens, dim, 3 * dim)
    qkv = alte.bias_add(b, qkv, [tokens, 3 * dim])
    split_type = "tensor<%dx3x%dx%dxf32>" % (tokens, heads, hd)
    split = b.value("tensor.expand_shape %s [[0], [1, 2, 3]] output_shape [%d, 3, %d, %d] : %s into %s"
                    % (qkv, tokens, heads, hd, ty([tokens, 3 * dim]), split_type))
    parts = []
    for i in range(3):
        part = b.value("tensor.extract_slice %s[0, %d, 0, 0] [%d, 1, %d, %d] [1, 1, 1, 1] : %s to %s"
                       % (split, i, tokens, heads, hd, split_type, ty([tokens, heads, hd])))
        e = b.empty([heads, tokens, hd])
        parts.append(b.value("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0, 2]"
                             % (part, ty([tokens, heads, hd]), e, ty([heads, tokens, hd]))))
    q, k, v = parts
    ctx = alte.attention_core(b, q, k, v, heads, tokens, hd, dim)
    attn = alte.matmul(b, ctx, tokens, dim, dim)
    t = alte.bias_add(b, attn, [tokens, dim], residual=x)
    t = alte.layer_norm(b, t, [tokens, dim])
    # Feed-forward.
    h = alte.matmul(b, t, tokens, dim, hidden)
    h = alte.bias_add(b, h, [tokens, hidden], act="gelu")
    h = alte.matmul(b, h, tokens, hidden, dim)
    h = alte.bias_add(b, h, [tokens, dim], residual=t)
    h = alte.layer_norm(b, h, [tokens, dim])
    # Token classifier head.
    logits = alte.matmul(b, h, tokens, dim, classes)
    logits = alte.bias_add(b, logits, [tokens, classes])
    return b, logits, [tokens, classes]


def resnet_small(batch=8, size=32, classes=100):
    b = ConstBuilder(seed=2)
    x_shape = [batch, 3, size, size]
    x = b.arg(x_shape)
    y, s = alte.conv(b, x, x_shape, 32, 3, 1, 1)
    y = alte.bn(b, y, s, relu=True)
    y, s = alte.bottleneck(b, y, s, 16, 64, project=True)
    y, s = alte.bottleneck(b, y, s, 16, 64, project=False)
    # Global average pooling: sum over H and W, times 1/(H*W).
    n, c, h, w = s
    acc = b.filled([n, c], b.zero)
    total = alte.generic(b, [(y, s)], [n, c],
                         ["%t = arith.addf %i0, %o : f32", "linalg.yield %t : f32"],
                         [ident(4), proj(4, [0, 1])],
                         ["parallel", "parallel", "reduction", "reduction"], init=acc)
    scalar_constants(b, [("c_inv_hw", 1.0 / (h * w))])
    pooled = alte.generic(b, [(total, [n, c])], [n, c],
                          ["%y = arith.mulf %i0, %c_inv_hw : f32", "linalg.yield %y : f32"],
                          [ident(2), ident(2)])
    logits = alte.matmul(b, pooled, n, c, classes)
    logits = alte.bias_add(b, logits, [n, classes])
    return b, logits, [n, classes]


MODELS = [("bert_layer", bert_layer), ("resnet_small", resnet_small)]


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for name, make in MODELS:
        b, result, shape = make()
        with open(os.path.join(out_dir, name + ".mlir"), "w") as f:
            f.write(alte.emit(name, b, result, shape).replace(
                "bench/alte/models.py", "bench/precision/models.py"))


if __name__ == "__main__":
    main()
