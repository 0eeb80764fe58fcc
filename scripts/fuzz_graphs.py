#!/usr/bin/env python3
"""Structured fuzzing: random valid linalg graphs, optimized vs not, executed.

Each graph is a random chain over an NCHW tensor (padded convolutions with
random channels, kernels and strides, weights as arguments or constants,
per-channel affine "batch norm", ReLU, tanh, sigmoid, residual adds, 2x2 max
pooling) ending either there or in flatten -> matmul (-> softmax), the
matmul sometimes 2 or 3 heads with constant weights and biases, summed
(siblings that share their input), with a
static or dynamic batch. It runs on the CPU as written and through
`--opsnn-optimize` with a random target, layouts on or off and a random
precision (fp32, mixed-fp16, mixed-bf16, fp16, and int8 calibrated on the
same input), half the graphs with their GEMMs and convolutions on the
target's tensor-core kernel emulated on the CPU (emulate-tensor-core-matmul;
a softmax after the classifier's GEMM then runs in its kernel, on whole
rows),
half (independently) with the rest as the GPU's generic path's loops
(emulate-gpu-loops: fused, elementwise ones with vector accesses),
half (independently) with their row reductions (the softmax over 3..16
classes: rows shorter than a warp) on the GPU's warp kernel
(emulate-warp-reductions), half (independently) of the tensor-core ones
with their convolutions' channels left unpadded (the kernel's im2col element
copies: emulate-tensor-core-pad-channels=false), and the outputs must agree
within the precision's tolerance.
A crash, a verifier error or a mismatch is a failure: the module, its inputs
and the command are kept under --failures.

    fuzz_graphs.py [--count N] [--time-budget SECONDS] [--seed S]
                   [--ops-nn-run BIN] [--failures DIR] [--keep]
"""

import argparse
import json
import os
import shutil
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Relative L2 tolerance against the unoptimized FP32 run.
TOLERANCE = {"fp32": 1e-4, "mixed-fp16": 2e-2, "fp16": 3e-2,
             "mixed-bf16": 1e-1, "int8": 1.5e-1}
TARGETS = ["a100", "h100", "t4", "host"]


class Graph:
    """MLIR text of one random function, built op by op."""

    def __init__(self, rng, dynamic_batch):
        self.rng = rng
        self.dynamic = dynamic_batch
        self.batch = int(rng.integers(1, 3))
        self.args = []        # (name, type text, concrete shape)
        self.body = []
        self.counter = 0
        self.saved = []       # earlier values for residual adds
        self.has_constant_weights = False

    def fresh(self, prefix="v"):
        self.counter += 1
        return "%%%s%d" % (prefix, self.counter)

    def ttype(self, shape):
        dims = ["?" if d is None else str(d) for d in shape]
        return "tensor<%sxf32>" % "x".join(dims)

    def logical(self, shape):
        return [self.batch if d is None else d for d in shape]

    def arg(self, shape, prefix="a"):
        name = "%%%s%d" % (prefix, len(self.args))
        self.args.append((name, self.ttype(shape), self.logical(shape)))
        return name

    def constant(self, shape, scale):
        values = self.rng.uniform(-scale, scale, size=shape).astype(np.float32)
        name = self.fresh("cw")
        text = np.array2string(values, separator=", ", threshold=1 << 30,
                               formatter={"float_kind": lambda x: "%.5e" % x})
        self.body.append("%s = arith.constant dense<%s> : %s" % (
            name, text.replace("\n", ""), self.ttype(shape)))
        self.has_constant_weights = True
        return name

    def empty(self, shape):
        name = self.fresh("e")
        if shape[0] is None:
            self.body.append("%s = tensor.empty(%%n) : %s" % (name, self.ttype(shape)))
        else:
            self.body.append("%s = tensor.empty() : %s" % (name, self.ttype(shape)))
        return name

    def filled(self, shape, value):
        empty = self.empty(shape)
        name = self.fresh("f")
        self.body.append("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (
            name, value, empty, self.ttype(shape), self.ttype(shape)))
        return name

    # --- ops on [N, C, H, W] ---------------------------------------------
    def conv(self, x, shape):
        n, c, h, w = shape
        k = int(self.rng.choice([1, 3]))
        stride = int(self.rng.choice([1, 2])) if min(h, w) >= 4 else 1
        pad = k // 2
        f = int(self.rng.integers(2, 13))
        oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
        if pad:
            padded = self.fresh("p")
            pshape = [n, c, h + 2 * pad, w + 2 * pad]
            self.body.append(
                "%s = tensor.pad %s low[0, 0, %d, %d] high[0, 0, %d, %d] {\n"
                "  ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
                "    tensor.yield %%zero : f32\n  } : %s to %s" % (
                    padded, x, pad, pad, pad, pad, self.ttype(shape), self.ttype(pshape)))
            x, shape = padded, pshape
        scale = 1.0 / np.sqrt(c * k * k)
        if self.rng.random() < 0.5:
            weight = self.constant([f, c, k, k], scale)
        else:
            weight = self.arg([f, c, k, k], "w")
        out = [n, f, oh, ow]
        acc = self.filled(out, "%zero")
        name = self.fresh("conv")
        self.body.append(
            "%s = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, "
            "strides = dense<%d> : tensor<2xi64>} ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                name, stride, x, weight, self.ttype(shape), self.ttype([f, c, k, k]),
                acc, self.ttype(out), self.ttype(out)))
        return name, out

    def elementwise(self, x, shape, payload, extra=()):
        """A 4-D generic: `payload` maps %in (and extra per-channel args)."""
        maps = ["#id"] + ["#ch"] * len(extra) + ["#id"]
        ins = [x] + [name for name, _ in extra]
        types = [self.ttype(shape)] + [self.ttype([shape[1]])] * len(extra)
        block = ["%in: f32"] + ["%%pc%d: f32" % i for i in range(len(extra))] + ["%out: f32"]
        name = self.fresh("g")
        self.body.append(
            "%s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%s : %s) "
            "outs(%s : %s) {\n  ^bb0(%s):\n%s\n  } -> %s" % (
                name, ", ".join(maps), ", ".join(ins), ", ".join(types),
                self.empty(shape), self.ttype(shape), ", ".join(block),
                "\n".join("    " + line for line in payload), self.ttype(shape)))
        return name

    def relu(self, x, shape):
        return self.elementwise(x, shape, ["%r = arith.maximumf %in, %zero : f32",
                                           "linalg.yield %r : f32"])

    def tanh(self, x, shape):
        return self.elementwise(x, shape, ["%r = math.tanh %in : f32",
                                           "linalg.yield %r : f32"])

    def sigmoid(self, x, shape):
        return self.elementwise(x, shape, [
            "%m = arith.negf %in : f32", "%e = math.exp %m : f32",
            "%one = arith.constant 1.0 : f32", "%d = arith.addf %one, %e : f32",
            "%r = arith.divf %one, %d : f32", "linalg.yield %r : f32"])

    def affine(self, x, shape):
        scale, shift = self.arg([shape[1]], "s"), self.arg([shape[1]], "b")
        return self.elementwise(
            x, shape, ["%m = arith.mulf %in, %pc0 : f32", "%r = arith.addf %m, %pc1 : f32",
                       "linalg.yield %r : f32"],
            extra=[(scale, None), (shift, None)])

    def residual(self, x, shape):
        same = [name for name, s in self.saved if s == shape and name != x]
        if not same:
            return None
        other = same[int(self.rng.integers(len(same)))]
        name = self.fresh("add")
        self.body.append(
            "%s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = "
            "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%s, %s : %s, %s) "
            "outs(%s : %s) {\n  ^bb0(%%l: f32, %%r: f32, %%o: f32):\n"
            "    %%s = arith.addf %%l, %%r : f32\n    linalg.yield %%s : f32\n  } -> %s" % (
                name, x, other, self.ttype(shape), self.ttype(shape),
                self.empty(shape), self.ttype(shape), self.ttype(shape)))
        return name

    def maxpool(self, x, shape):
        n, c, h, w = shape
        if h < 2 or w < 2:
            return None, shape
        out = [n, c, h // 2, w // 2]
        window = self.fresh("win")
        self.body.append("%s = tensor.empty() : tensor<2x2xf32>" % window)
        init = self.filled(out, "%ninf")
        name = self.fresh("pool")
        self.body.append(
            "%s = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, "
            "strides = dense<2> : tensor<2xi64>} ins(%s, %s : %s, tensor<2x2xf32>) "
            "outs(%s : %s) -> %s" % (name, x, window, self.ttype(shape), init,
                                     self.ttype(out), self.ttype(out)))
        return name, out

    # --- the tail: flatten -> matmul (-> softmax) --------------------------
    def classifier(self, x, shape):
        n, c, h, w = shape
        flat = [n, c * h * w]
        collapsed = self.fresh("flat")
        self.body.append("%s = tensor.collapse_shape %s [[0], [1, 2, 3]] : %s into %s" % (
            collapsed, x, self.ttype(shape), self.ttype(flat)))
        k = int(self.rng.integers(3, 17))
        scale = 1.0 / np.sqrt(c * h * w)
        constant = self.rng.random() < 0.5
        # With constant weights, sometimes 2 or 3 heads on the same input,
        # each with its bias, summed: siblings the tensor-core pipeline
        # fuses into one GEMM (--opsnn-fuse-sibling-contractions).
        heads = int(self.rng.choice([1, 1, 2, 3])) if constant else 1
        out = [n, k]
        results = []
        for _ in range(heads):
            weight = (self.constant([c * h * w, k], scale) if constant
                      else self.arg([c * h * w, k], "w"))
            acc = self.filled(out, "%zero")
            name = self.fresh("mm")
            self.body.append("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s" % (
                name, collapsed, weight, self.ttype(flat), self.ttype([c * h * w, k]), acc,
                self.ttype(out), self.ttype(out)))
            if heads > 1:
                name = self.generic2d("#id2, #col", [name, self.constant([k], 0.5)], out,
                                      "%s = arith.addf %%a0, %%a1 : f32")
            results.append(name)
        name = results[0]
        for other in results[1:]:
            name = self.generic2d("#id2, #id2", [name, other], out,
                                  "%s = arith.addf %%a0, %%a1 : f32")
        if self.rng.random() < 0.5:
            soft = self.fresh("sm")
            self.body.append("%s = linalg.softmax dimension(1) ins(%s : %s) outs(%s : %s) -> %s" % (
                soft, name, self.ttype(out), self.empty(out), self.ttype(out), self.ttype(out)))
            name = soft
        return name, out

    def generic2d(self, maps, ins, shape, line):
        """A 2-D generic over `ins` (block arguments %a0, %a1) yielding
        `line % "%r"`."""
        name = self.fresh("h")
        types = [self.ttype(shape) if m == "#id2" else self.ttype([shape[1]])
                 for m in maps.split(", ")]
        self.body.append(
            "%s = linalg.generic {indexing_maps = [%s, #id2], iterator_types = "
            "[\"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {\n"
            "  ^bb0(%%a0: f32, %%a1: f32, %%o: f32):\n    %s\n    linalg.yield %%r : f32\n"
            "  } -> %s" % (name, maps, ", ".join(ins), ", ".join(types), self.empty(shape),
                           self.ttype(shape), line % "%r", self.ttype(shape)))
        return name

    def build(self, depth):
        shape = [None if self.dynamic else self.batch, int(self.rng.integers(1, 9)),
                 int(self.rng.integers(4, 13)), int(self.rng.integers(4, 13))]
        x = self.arg(shape, "x")
        self.saved.append((x, shape))
        for _ in range(depth):
            choice = self.rng.choice(["conv", "conv", "relu", "affine", "tanh", "sigmoid",
                                      "residual", "pool"])
            if choice == "conv":
                x, shape = self.conv(x, shape)
            elif choice == "relu":
                x = self.relu(x, shape)
            elif choice == "affine":
                x = self.affine(x, shape)
            elif choice == "tanh":
                x = self.tanh(x, shape)
            elif choice == "sigmoid":
                x = self.sigmoid(x, shape)
            elif choice == "residual":
                x = self.residual(x, shape) or x
            else:
                pooled, shape2 = self.maxpool(x, shape)
                if pooled:
                    x, shape = pooled, shape2
            self.saved.append((x, shape))
        if self.rng.random() < 0.5:
            x, shape = self.classifier(x, shape)
        header = ", ".join("%s: %s" % (name, t) for name, t, _ in self.args)
        lines = ["#id = affine_map<(n, c, h, w) -> (n, c, h, w)>",
                 "#ch = affine_map<(n, c, h, w) -> (c)>",
                 "#id2 = affine_map<(n, k) -> (n, k)>",
                 "#col = affine_map<(n, k) -> (k)>",
                 "func.func @graph(%s) -> %s {" % (header, self.ttype(shape)),
                 "  %zero = arith.constant 0.0 : f32",
                 "  %ninf = arith.constant 0xFF800000 : f32"]
        if self.dynamic:
            lines += ["  %c0 = arith.constant 0 : index",
                      "  %%n = tensor.dim %s, %%c0 : %s" % (self.args[0][0], self.args[0][1])]
        lines += ["  " + line.replace("\n", "\n  ") for line in self.body]
        lines += ["  return %s : %s" % (x, self.ttype(shape)), "}"]
        return "\n".join(lines) + "\n"


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return "%s failed (exit %d):\n%s" % (what, result.returncode,
                                             (result.stderr or result.stdout)[-3000:])
    return None


def check_one(args, index, rng, work):
    graph = Graph(rng, dynamic_batch=bool(rng.random() < 0.3))
    text = graph.build(depth=int(rng.integers(2, 7)))
    model = os.path.join(work, "graph.mlir")
    with open(model, "w") as f:
        f.write(text)
    inputs = []
    for i, (_, _, shape) in enumerate(graph.args):
        array = rng.uniform(-1, 1, size=shape).astype(np.float32)
        if graph.args[i][0].startswith("%w"):
            array *= 1.0 / np.sqrt(np.prod(shape[1:]))
        inputs.append(os.path.join(work, "in%d.npy" % i))
        np.save(inputs[-1], array)
    feed = ["--input=" + path for path in inputs]

    precisions = ["fp32", "mixed-fp16", "mixed-bf16", "fp16"]
    if graph.has_constant_weights:
        precisions.append("int8")
    precision = str(rng.choice(precisions))
    config = {"target": str(rng.choice(TARGETS)), "layouts": bool(rng.random() < 0.8),
              "precision": precision,
              # Half the graphs run their GEMMs and convolutions on the
              # tensor-core kernel of the target, emulated on the CPU (FP32
              # ones stay FP32: no TF32).
              "tensor_cores": bool(rng.random() < 0.5)}
    # Half the graphs (drawn last: the draws before keep their values) run
    # what is left as the GPU's generic path does: fused parallel loops,
    # elementwise ones widened to vector accesses.
    config["gpu_loops"] = bool(rng.random() < 0.5)
    # Half (drawn after those) run their row reductions as the GPU's
    # warp kernel: lanes, butterfly and row groups.
    config["warp_reductions"] = bool(rng.random() < 0.5)
    # Half (drawn after those) leave the convolutions' channels unpadded:
    # the tensor-core kernel copies their im2col rows element by element.
    config["pad_channels"] = bool(rng.random() < 0.5)
    options = "target=%s layouts=%s precision=%s" % (
        config["target"], str(config["layouts"]).lower(), precision)
    lowering_options = []
    if config["tensor_cores"]:
        lowering_options.append("emulate-tensor-core-matmul=%s" % config["target"])
        if not config["pad_channels"]:
            lowering_options.append("emulate-tensor-core-pad-channels=false")
    if config["gpu_loops"]:
        lowering_options.append("emulate-gpu-loops")
    if config["warp_reductions"]:
        lowering_options.append("emulate-warp-reductions")
    lowering = "opsnn-lower-to-cpu"
    if lowering_options:
        lowering += "{%s}" % " ".join(lowering_options)
    commands = [[args.ops_nn_run, model, "--output-dir", os.path.join(work, "ref")] + feed]
    if precision == "int8":
        ranges = os.path.join(work, "ranges.json")
        commands.append([args.ops_nn_run, model, "--collect-ranges=" + ranges,
                         "--output-dir", os.path.join(work, "cal")] + feed)
        options += " calibration=" + ranges
    optimized = [args.ops_nn_run, model, "--output-dir", os.path.join(work, "opt"),
                 "--pipeline=opsnn-optimize{%s},%s" % (options, lowering)] + feed
    commands.append(optimized)
    for command in commands:
        error = run(command, " ".join(command[:2]))
        if error:
            return config, error, commands
    ref = np.load(os.path.join(work, "ref", "out0.npy")).astype(np.float64)
    got = np.load(os.path.join(work, "opt", "out0.npy")).astype(np.float64)
    if ref.shape != got.shape:
        return config, "shape %s vs %s" % (got.shape, ref.shape), commands
    norm = np.linalg.norm(ref)
    error = np.linalg.norm(got - ref) / (norm if norm else 1.0)
    config["relative_l2"] = float(error)
    if not np.isfinite(got).all() or error > TOLERANCE[precision]:
        return config, "relative L2 %.3g > %.3g" % (error, TOLERANCE[precision]), commands
    return config, None, commands


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--time-budget", type=float, default=0,
                        help="stop starting new graphs after this many seconds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ops-nn-run",
                        default=os.path.join(ROOT, "build", "bin", "ops-nn-run"))
    parser.add_argument("--failures", default=os.path.join(ROOT, "build", "fuzz-failures"))
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    start = time.time()
    failures, done = 0, 0
    by_precision = {}
    for index in range(args.count):
        if args.time_budget and time.time() - start > args.time_budget:
            break
        rng = np.random.default_rng([args.seed, index])
        with tempfile.TemporaryDirectory() as work:
            config, error, commands = check_one(args, index, rng, work)
            done += 1
            by_precision[config["precision"]] = by_precision.get(config["precision"], 0) + 1
            if args.verbose or error:
                print("graph %d (seed %d): %s%s" % (index, args.seed, json.dumps(config),
                                                    "" if not error else "\n  " + error))
            if error:
                failures += 1
                keep = os.path.join(args.failures, "seed%d-graph%d" % (args.seed, index))
                shutil.rmtree(keep, ignore_errors=True)
                shutil.copytree(work, keep)
                with open(os.path.join(keep, "commands.sh"), "w") as f:
                    f.write("\n".join(shlex.join(c) for c in commands).replace(work, keep) + "\n")
                print("  kept in %s" % keep)
    elapsed = time.time() - start
    print("fuzz_graphs: %d graphs (%s), %d failed, %.1f s (%.2f graphs/s)" % (
        done, ", ".join("%s %d" % kv for kv in sorted(by_precision.items())), failures,
        elapsed, done / elapsed if elapsed else 0))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
