#!/usr/bin/env python3
"""Runs one integration test: a .mlir file with directives in comments.

    // ARGS: 1x3x7x13xf32, 4x3x3x3xf32   concrete argument shapes (optional:
                                         by default the function signature,
                                         which must then be static)
    // VALUES: int [-8, 8]               value range of integer inputs
    // POSITIVE: 4, 9                     arguments drawn positive (variances)
    // INPUT2: np.arange(256, dtype=np.uint8).view(np.int8)
                                         argument 2 given by an expression
    // REF: out0 = ref.conv_nc(in0, in1, strides=[2, 2])
    // TOL: 1e-5                          relative L2 tolerance (0: exact)

Inputs are random and never zero (magnitudes in [0.25, 1.25] with random
signs; integers in the VALUES range without 0). The script runs ops-nn-run,
evaluates the REF lines with in0, in1, ... bound to the inputs (as float64
for floats) and compares every output: ||out - ref|| / ||ref|| <= TOL.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as ref  # noqa: E402

NPY_OF = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8,
    "i1": np.bool_,
}


def parse_tensor_type(text):
    """'1x?x4xf32' -> ([1, None, 4], 'f32')."""
    *dims, element = text.strip().split("x")
    return [None if d == "?" else int(d) for d in dims], element


def read_directives(path):
    directives = {"ARGS": [], "REF": [], "TOL": [], "VALUES": [], "ENTRY": [],
                  "POSITIVE": [], "INPUT": {}}
    with open(path) as f:
        for line in f:
            m = re.match(r"\s*//\s*INPUT(\d+):\s*(.*)$", line)
            if m:
                directives["INPUT"][int(m.group(1))] = m.group(2).strip()
                continue
            m = re.match(r"\s*//\s*(ARGS|REF|TOL|VALUES|ENTRY|POSITIVE):\s*(.*)$", line)
            if m:
                directives[m.group(1)].append(m.group(2).strip())
    return directives


def signature_args(path, entry):
    text = open(path).read()
    pattern = r"func\.func\s+@%s\s*\((.*?)\)\s*(->|attributes|\{)" % (
        re.escape(entry) if entry else r"[\w$.]+")
    m = re.search(pattern, text, re.S)
    if not m:
        sys.exit("check.py: cannot find the entry function's signature")
    return re.findall(r"tensor<([^>]*)>", m.group(1))


def random_input(dims, element, rng, int_range):
    if element in ("f32", "f64", "f16"):
        magnitude = rng.uniform(0.25, 1.25, size=dims)
        sign = rng.choice([-1.0, 1.0], size=dims)
        return (magnitude * sign).astype(NPY_OF[element])
    if element.startswith("i"):
        low, high = int_range
        values = rng.integers(low, high + 1, size=dims)
        values[values == 0] = 1
        return values.astype(NPY_OF[element])
    sys.exit("check.py: unsupported argument element type %s" % element)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mlir")
    parser.add_argument("--ops-nn-run", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tol", type=float,
                        help="override the file's TOL (e.g. 1e-2 when a "
                             "pipeline lowers precision)")
    parser.add_argument("--device", default="cpu",
                        help="forwarded to ops-nn-run: cpu or cuda")
    parser.add_argument("--pipeline",
                        help="forwarded to ops-nn-run: the passes that lower "
                             "the module (e.g. ALTE before opsnn-lower-to-cpu)")
    parser.add_argument("--save-inputs", metavar="DIR",
                        help="also keep the generated inputs as DIR/in0.npy, ...")
    args = parser.parse_args()

    d = read_directives(args.mlir)
    if not d["REF"] or not d["TOL"]:
        sys.exit("check.py: the test needs REF and TOL directives")
    entry = d["ENTRY"][0] if d["ENTRY"] else None
    types = [t.strip() for t in d["ARGS"][0].split(",")] if d["ARGS"] else \
        signature_args(args.mlir, entry)
    int_range = (-8, 8)
    if d["VALUES"]:
        m = re.match(r"int\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]", d["VALUES"][0])
        int_range = (int(m.group(1)), int(m.group(2)))

    positive = {int(i) for line in d["POSITIVE"] for i in line.split(",")}

    rng = np.random.default_rng(args.seed)
    inputs = []
    for index, text in enumerate(types):
        dims, element = parse_tensor_type(text)
        if any(x is None for x in dims):
            sys.exit("check.py: dynamic argument %s needs an ARGS directive" % text)
        if index in d["INPUT"]:
            array = np.asarray(eval(d["INPUT"][index], {"np": np, "ref": ref}))
            if list(array.shape) != dims or array.dtype != NPY_OF[element]:
                sys.exit("check.py: INPUT%d gives %s %s, the signature wants %s" % (
                    index, array.dtype, list(array.shape), text))
        else:
            array = random_input(dims, element, rng, int_range)
        inputs.append(abs(array) if index in positive else array)

    if args.save_inputs:
        os.makedirs(args.save_inputs, exist_ok=True)
        for i, array in enumerate(inputs):
            np.save(os.path.join(args.save_inputs, "in%d.npy" % i), array)

    with tempfile.TemporaryDirectory() as tmp:
        command = [args.ops_nn_run, args.mlir, "--output-dir", tmp]
        if entry:
            command.append("--entry=" + entry)
        if args.pipeline:
            command.append("--pipeline=" + args.pipeline)
        if args.device != "cpu":
            command.append("--device=" + args.device)
        for i, array in enumerate(inputs):
            path = os.path.join(tmp, "in%d.npy" % i)
            np.save(path, array)
            command.append("--input=" + path)
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout + run.stderr)
            sys.exit("check.py: ops-nn-run failed with exit code %d" % run.returncode)
        outputs = []
        i = 0
        while os.path.exists(os.path.join(tmp, "out%d.npy" % i)):
            outputs.append(np.load(os.path.join(tmp, "out%d.npy" % i)))
            i += 1

    scope = {"np": np, "ref": ref}
    for i, array in enumerate(inputs):
        scope["in%d" % i] = array.astype(np.float64) if array.dtype.kind == "f" else array
    for line in d["REF"]:
        exec(line, scope)

    tolerance = args.tol if args.tol is not None else float(d["TOL"][0])
    failed = False
    for i, out in enumerate(outputs):
        name = "out%d" % i
        if name not in scope:
            sys.exit("check.py: no REF for %s" % name)
        expected = np.asarray(scope[name])
        if out.shape != expected.shape:
            print("FAIL %s: shape %s, expected %s" % (name, out.shape, expected.shape))
            failed = True
            continue
        got = out.astype(np.float64)
        want = expected.astype(np.float64)
        # NaN and infinities must match exactly; the rest within tolerance.
        finite = np.isfinite(want) & np.isfinite(got)
        same_specials = (np.array_equal(np.isnan(got), np.isnan(want)) and
                         np.array_equal(np.where(np.isinf(got), got, 0),
                                        np.where(np.isinf(want), want, 0)))
        norm = np.linalg.norm(want[finite])
        error = np.linalg.norm(got[finite] - want[finite]) / (norm if norm > 0 else 1.0)
        close = error <= tolerance if tolerance > 0 else np.array_equal(
            got, want, equal_nan=True)
        ok = same_specials and close
        print("%s %s: shape %s, relative L2 error %.3g (tolerance %g)" % (
            "PASS" if ok else "FAIL", name, list(out.shape), error, tolerance))
        failed |= not ok
    if len(outputs) == 0:
        sys.exit("check.py: the function produced no outputs")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
