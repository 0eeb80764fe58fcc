#!/usr/bin/env python3
"""Writes the ALTE benchmark models (MLIR, framework layout NCHW, f32) and
random inputs for them.

    resnet50_chain.mlir  ResNet-50 stem (7x7/2 conv, BN, ReLU, 3x3/2 max
                         pool) and stage 1 (three bottleneck blocks, the
                         first with a projection shortcut), 1x3x224x224.
    vit_block.mlir       ViT-Ti patch embedding (16x16/16 conv to 192
                         channels, flattened to 196 tokens) and one encoder
                         block (LayerNorm, 3-head attention, LayerNorm,
                         GELU MLP 192-768-192, residuals).

Batch norm is in its inference form folded to a per-channel scale and
shift. Weights are function arguments (as an importer that keeps
parameters out of the IR would emit them), drawn with 1/sqrt(fan-in)
scale so activations stay O(1).

Usage: models.py OUT_DIR  (writes OUT_DIR/<model>.mlir and
OUT_DIR/<model>/in<i>.npy)
"""

import os
import sys

import numpy as np


class Builder:
    """Accumulates the body of one func.func in SSA text form."""

    def __init__(self):
        self.args = []      # (name, shape)
        self.lines = []
        self.count = 0
        self.zero = self.value("arith.constant 0.0 : f32")
        self.ninf = self.value("arith.constant 0xFF800000 : f32")

    def arg(self, shape):
        name = "%%a%d" % len(self.args)
        self.args.append((name, shape))
        return name

    def value(self, text):
        name = "%%v%d" % self.count
        self.count += 1
        self.lines.append("  %s = %s" % (name, text))
        return name

    def empty(self, shape):
        return self.value("tensor.empty() : %s" % ty(shape))

    def filled(self, shape, value):
        e = self.empty(shape)
        return self.value("linalg.fill ins(%s : f32) outs(%s : %s) -> %s"
                          % (value, e, ty(shape), ty(shape)))


def ty(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def ident(rank):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, dims)


def proj(rank, keep):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join("d%d" % k for k in keep))


def generic(b, ins, out_shape, body, maps, iterators=None, init=None):
    """ins: list of (value, shape); body: lines using %i0.. and %o."""
    rank = len(out_shape)
    iterators = iterators or ["parallel"] * rank
    init = init or b.empty(out_shape)
    params = ", ".join("%%i%d: f32" % i for i in range(len(ins))) + ", %o: f32"
    text = ("linalg.generic {indexing_maps = [%s], iterator_types = [%s]}\n"
            "      ins(%s : %s) outs(%s : %s) {\n"
            "  ^bb0(%s):\n%s\n  } -> %s") % (
        ", ".join(maps), ", ".join('"%s"' % it for it in iterators),
        ", ".join(v for v, _ in ins), ", ".join(ty(s) for _, s in ins),
        init, ty(out_shape), params,
        "\n".join("    " + line for line in body), ty(out_shape))
    return b.value(text)


def conv(b, x, x_shape, cout, k, stride, pad):
    n, cin, h, w = x_shape
    if pad:
        x = b.value(("tensor.pad %s low[0, 0, %d, %d] high[0, 0, %d, %d] {\n"
                     "  ^bb0(%%p0: index, %%p1: index, %%p2: index, %%p3: index):\n"
                     "    tensor.yield %s : f32\n  } : %s to %s") % (
            x, pad, pad, pad, pad, b.zero, ty(x_shape),
            ty([n, cin, h + 2 * pad, w + 2 * pad])))
        h, w = h + 2 * pad, w + 2 * pad
    wt = b.arg([cout, cin, k, k])
    oh, ow = (h - k) // stride + 1, (w - k) // stride + 1
    out = [n, cout, oh, ow]
    acc = b.filled(out, b.zero)
    y = b.value(("linalg.conv_2d_nchw_fchw {strides = dense<%d> : tensor<2xi64>, "
                 "dilations = dense<1> : tensor<2xi64>}\n"
                 "      ins(%s, %s : %s, %s) outs(%s : %s) -> %s") % (
        stride, x, wt, ty([n, cin, h, w]), ty([cout, cin, k, k]), acc, ty(out),
        ty(out)))
    return y, out


def bn(b, x, shape, relu, residual=None):
    """y = x * scale[c] + shift[c] (+ residual) (then ReLU)."""
    scale, shift = b.arg([shape[1]]), b.arg([shape[1]])
    ins = [(x, shape), (scale, [shape[1]]), (shift, [shape[1]])]
    maps = [ident(4), proj(4, [1]), proj(4, [1])]
    body = ["%m = arith.mulf %i0, %i1 : f32", "%y = arith.addf %m, %i2 : f32"]
    last = "%y"
    if residual is not None:
        ins.append((residual, shape))
        maps.append(ident(4))
        body.append("%r = arith.addf %y, %i3 : f32")
        last = "%r"
    if relu:
        body.append("%%z = arith.maximumf %s, %s : f32" % (last, b.zero))
        last = "%z"
    body.append("linalg.yield %s : f32" % last)
    return generic(b, ins, shape, body, maps + [ident(4)])


def bottleneck(b, x, shape, mid, out_ch, project):
    y, s = conv(b, x, shape, mid, 1, 1, 0)
    y = bn(b, y, s, relu=True)
    y, s = conv(b, y, s, mid, 3, 1, 1)
    y = bn(b, y, s, relu=True)
    y, s = conv(b, y, s, out_ch, 1, 1, 0)
    if project:
        r, rs = conv(b, x, shape, out_ch, 1, 1, 0)
        r = bn(b, r, rs, relu=False)
    else:
        r = x
    return bn(b, y, s, relu=True, residual=r), s


def resnet50_chain():
    b = Builder()
    x_shape = [1, 3, 224, 224]
    x = b.arg(x_shape)
    y, s = conv(b, x, x_shape, 64, 7, 2, 3)
    y = bn(b, y, s, relu=True)
    # 3x3/2 max pooling with padding 1 (pad with -inf).
    n, c, h, w = s
    p = b.value(("tensor.pad %s low[0, 0, 1, 1] high[0, 0, 1, 1] {\n"
                 "  ^bb0(%%p0: index, %%p1: index, %%p2: index, %%p3: index):\n"
                 "    tensor.yield %s : f32\n  } : %s to %s") % (
        y, b.ninf, ty(s), ty([n, c, h + 2, w + 2])))
    window = b.empty([3, 3])
    out = [n, c, h // 2, w // 2]
    init = b.filled(out, b.ninf)
    y = b.value(("linalg.pooling_nchw_max {strides = dense<2> : tensor<2xi64>, "
                 "dilations = dense<1> : tensor<2xi64>}\n"
                 "      ins(%s, %s : %s, tensor<3x3xf32>) outs(%s : %s) -> %s") % (
        p, window, ty([n, c, h + 2, w + 2]), init, ty(out), ty(out)))
    s = out
    y, s = bottleneck(b, y, s, 64, 256, project=True)
    y, s = bottleneck(b, y, s, 64, 256, project=False)
    y, s = bottleneck(b, y, s, 64, 256, project=False)
    return b, y, s


def matmul(b, x, m, k, n_out):
    w = b.arg([k, n_out])
    acc = b.filled([m, n_out], b.zero)
    return b.value("linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
        x, w, ty([m, k]), ty([k, n_out]), acc, ty([m, n_out]), ty([m, n_out])))


def bias_add(b, x, shape, act=None, residual=None):
    bias = b.arg([shape[1]])
    ins = [(x, shape), (bias, [shape[1]])]
    maps = [ident(2), proj(2, [1])]
    body = ["%y = arith.addf %i0, %i1 : f32"]
    last = "%y"
    if act == "gelu":
        body += ["%h = arith.mulf %y, %c_rsqrt2 : f32", "%e = math.erf %h : f32",
                 "%e1 = arith.addf %e, %c_one : f32", "%g = arith.mulf %y, %e1 : f32",
                 "%g2 = arith.mulf %g, %c_half : f32"]
        last = "%g2"
    if residual is not None:
        ins.append((residual, shape))
        maps.append(ident(2))
        body.append("%%r = arith.addf %s, %%i2 : f32" % last)
        last = "%r"
    body.append("linalg.yield %s : f32" % last)
    return generic(b, ins, shape, body, maps + [ident(2)])


def layer_norm(b, x, shape):
    m, d = shape
    gamma, beta = b.arg([d]), b.arg([d])
    inv_d = "%c_invd"
    acc = b.filled([m], b.zero)
    total = generic(b, [(x, shape)], [m], ["%t = arith.addf %i0, %o : f32",
                                           "linalg.yield %t : f32"],
                    [ident(2), proj(2, [0])], ["parallel", "reduction"], init=acc)
    centered = generic(b, [(x, shape), (total, [m])], shape,
                       ["%%mu = arith.mulf %%i1, %s : f32" % inv_d,
                        "%c = arith.subf %i0, %mu : f32", "linalg.yield %c : f32"],
                       [ident(2), proj(2, [0]), ident(2)])
    acc2 = b.filled([m], b.zero)
    var = generic(b, [(centered, shape)], [m],
                  ["%q = arith.mulf %i0, %i0 : f32", "%s = arith.addf %q, %o : f32",
                   "linalg.yield %s : f32"],
                  [ident(2), proj(2, [0])], ["parallel", "reduction"], init=acc2)
    return generic(b, [(centered, shape), (var, [m]), (gamma, [d]), (beta, [d])],
                   shape,
                   ["%%v = arith.mulf %%i1, %s : f32" % inv_d,
                    "%ve = arith.addf %v, %c_eps : f32", "%r = math.rsqrt %ve : f32",
                    "%n = arith.mulf %i0, %r : f32", "%g = arith.mulf %n, %i2 : f32",
                    "%y = arith.addf %g, %i3 : f32", "linalg.yield %y : f32"],
                   [ident(2), proj(2, [0]), proj(2, [1]), proj(2, [1]), ident(2)])


def attention_core(b, q, k, v, heads, tokens, hd, dim):
    """softmax(q k^T * scale) v for [heads, tokens, hd] operands (the scale is
    the builder's %c_scale), heads merged back: [tokens, dim]."""
    ekt = b.empty([heads, hd, tokens])
    kt = b.value("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [0, 2, 1]"
                 % (k, ty([heads, tokens, hd]), ekt, ty([heads, hd, tokens])))
    sacc = b.filled([heads, tokens, tokens], b.zero)
    scores = b.value("linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
        q, kt, ty([heads, tokens, hd]), ty([heads, hd, tokens]), sacc,
        ty([heads, tokens, tokens]), ty([heads, tokens, tokens])))
    scaled = generic(b, [(scores, [heads, tokens, tokens])], [heads, tokens, tokens],
                     ["%y = arith.mulf %i0, %c_scale : f32", "linalg.yield %y : f32"],
                     [ident(3), ident(3)])
    es = b.empty([heads, tokens, tokens])
    probs = b.value("linalg.softmax dimension(2) ins(%s : %s) outs(%s : %s) -> %s" % (
        scaled, ty([heads, tokens, tokens]), es, ty([heads, tokens, tokens]),
        ty([heads, tokens, tokens])))
    cacc = b.filled([heads, tokens, hd], b.zero)
    ctx = b.value("linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
        probs, v, ty([heads, tokens, tokens]), ty([heads, tokens, hd]), cacc,
        ty([heads, tokens, hd]), ty([heads, tokens, hd])))
    ect = b.empty([tokens, heads, hd])
    ctx = b.value("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0, 2]"
                  % (ctx, ty([heads, tokens, hd]), ect, ty([tokens, heads, hd])))
    ctx = b.value("tensor.collapse_shape %s [[0], [1, 2]] : %s into %s" % (
        ctx, ty([tokens, heads, hd]), ty([tokens, dim])))
    return ctx


def vit_block():
    b = Builder()
    tokens, dim, heads, hidden = 196, 192, 3, 768
    hd = dim // heads
    for name, value in [("c_invd", 1.0 / dim), ("c_eps", 1e-6), ("c_one", 1.0),
                        ("c_half", 0.5), ("c_rsqrt2", 0.7071067811865476),
                        ("c_scale", 1.0 / np.sqrt(hd))]:
        b.lines.append("  %%%s = arith.constant %.9e : f32" % (name, float(value)))
    x_shape = [1, 3, 224, 224]
    x = b.arg(x_shape)
    y, s = conv(b, x, x_shape, dim, 16, 16, 0)  # 1x192x14x14
    flat = b.value("tensor.collapse_shape %s [[0, 1], [2, 3]] : %s into %s" % (
        y, ty(s), ty([dim, tokens])))
    init = b.empty([tokens, dim])
    t = b.value("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0]"
                % (flat, ty([dim, tokens]), init, ty([tokens, dim])))
    pos = b.arg([tokens, dim])
    t = generic(b, [(t, [tokens, dim]), (pos, [tokens, dim])], [tokens, dim],
                ["%y = arith.addf %i0, %i1 : f32", "linalg.yield %y : f32"],
                [ident(2), ident(2), ident(2)])
    # Attention.
    h = layer_norm(b, t, [tokens, dim])
    qkv = matmul(b, h, tokens, dim, 3 * dim)
    qkv = bias_add(b, qkv, [tokens, 3 * dim])
    split = b.value("tensor.expand_shape %s [[0], [1, 2, 3]] output_shape [%d, 3, %d, %d] : %s into tensor<%dx3x%dx%dxf32>"
                    % (qkv, tokens, heads, hd, ty([tokens, 3 * dim]), tokens, heads, hd))
    parts = []
    for i in range(3):
        sl = b.value("tensor.extract_slice %s[0, %d, 0, 0] [%d, 1, %d, %d] [1, 1, 1, 1] : tensor<%dx3x%dx%dxf32> to %s"
                     % (split, i, tokens, heads, hd, tokens, heads, hd, ty([tokens, heads, hd])))
        e = b.empty([heads, tokens, hd])
        parts.append(b.value("linalg.transpose ins(%s : %s) outs(%s : %s) permutation = [1, 0, 2]"
                             % (sl, ty([tokens, heads, hd]), e, ty([heads, tokens, hd]))))
    q, k, v = parts
    ctx = attention_core(b, q, k, v, heads, tokens, hd, dim)
    attn = matmul(b, ctx, tokens, dim, dim)
    t = bias_add(b, attn, [tokens, dim], residual=t)
    # MLP.
    h = layer_norm(b, t, [tokens, dim])
    h = matmul(b, h, tokens, dim, hidden)
    h = bias_add(b, h, [tokens, hidden], act="gelu")
    h = matmul(b, h, tokens, hidden, dim)
    out = bias_add(b, h, [tokens, dim], residual=t)
    return b, out, [tokens, dim]


def emit(name, b, result, shape):
    args = ", ".join("%s: %s" % (n, ty(s)) for n, s in b.args)
    body = "\n".join(b.lines)
    return ("// Generated by bench/alte/models.py: %s.\n"
            "func.func @%s(%s) -> %s {\n%s\n  return %s : %s\n}\n") % (
        name, name, args, ty(shape), body, result, ty(shape))


def inputs(b, seed):
    rng = np.random.default_rng(seed)
    arrays = []
    for i, (_, shape) in enumerate(b.args):
        if i == 0 or len(shape) == 1:
            a = rng.uniform(-1.0, 1.0, size=shape)
            if len(shape) == 1:
                a = 1.0 + 0.1 * a  # scales and shifts near 1
        else:
            fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
            a = rng.standard_normal(size=shape) / np.sqrt(fan_in)
        arrays.append(a.astype(np.float32))
    return arrays


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for seed, (name, make) in enumerate([("resnet50_chain", resnet50_chain),
                                         ("vit_block", vit_block)]):
        b, result, shape = make()
        with open(os.path.join(out_dir, name + ".mlir"), "w") as f:
            f.write(emit(name, b, result, shape))
        d = os.path.join(out_dir, name)
        os.makedirs(d, exist_ok=True)
        for i, a in enumerate(inputs(b, seed)):
            np.save(os.path.join(d, "in%d.npy" % i), a)


if __name__ == "__main__":
    main()
