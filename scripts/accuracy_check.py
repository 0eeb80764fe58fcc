#!/usr/bin/env python3
"""Accuracy check: runs a module as written (FP32, the default CPU pipeline)
and through an optimizing pipeline (mixed precision, ALTE, ...) on the same
random inputs and prints, per output, the relative L2 error, the largest
absolute error and the cosine similarity of the optimized result against
the FP32 one; for 2-D outputs (batch x classes) also top-1 and top-5
agreement.

Usage: accuracy_check.py MODEL.mlir --pipeline=PASSES [--entry=NAME]
           [--ops-nn-run=BIN] [--seed=N] [--batches=K] [--per-layer] [--json]

Inputs come from the function signature like the integration tests' (see
test/Integration/check.py: magnitudes in [0.25, 1.25], random signs);
--batches repeats with K seeds and reports the worst figures.

--per-layer finds the op that hurts: both runs also return every
intermediate tensor (`ops-nn-run --dump-values`, keyed by the ops'
locations) and each one is compared like an output, in program order, with
the worst marked. The intermediates are returned before the pipeline runs,
so they keep the model's layouts and types; being results, they can change
what ALTE decides, which is why the outputs' figures come from the plain
runs.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test", "Integration"))
import check  # noqa: E402  (signature parsing and input generation)


def run(ops_nn_run, model, entry, inputs, pipeline, out_dir, dump=None):
    command = [ops_nn_run, model, "--output-dir", out_dir]
    if dump:
        command.append("--dump-values=" + dump)
    command += ["--input=" + path for path in inputs]
    if entry:
        command.append("--entry=" + entry)
    if pipeline:
        command.append("--pipeline=" + pipeline)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("accuracy_check.py: ops-nn-run failed:\n" + result.stderr)
    outputs, i = [], 0
    while os.path.exists(os.path.join(out_dir, "out%d.npy" % i)):
        outputs.append(np.load(os.path.join(out_dir, "out%d.npy" % i)))
        i += 1
    return outputs


def load_values(folder):
    """[(key, array)] in program order, from ops-nn-run --dump-values."""
    with open(os.path.join(folder, "values.json")) as f:
        manifest = json.load(f)["values"]
    return [(v["key"], np.load(os.path.join(folder, v["file"]))) for v in manifest]


def per_layer(ops_nn_run, model, entry, paths, pipeline, tmp):
    """{key: figures} for every intermediate both runs computed."""
    reference_dir, optimized_dir = (os.path.join(tmp, "values-fp32"),
                                    os.path.join(tmp, "values-opt"))
    run(ops_nn_run, model, entry, paths, None, os.path.join(tmp, "l-fp32"),
        dump=reference_dir)
    run(ops_nn_run, model, entry, paths, pipeline, os.path.join(tmp, "l-opt"),
        dump=optimized_dir)
    optimized = dict(load_values(optimized_dir))
    layers = {}
    for key, ref in load_values(reference_dir):
        got = optimized.get(key)
        if got is None or got.shape != ref.shape:
            continue
        figures = compare(ref, got)
        figures.pop("top1_agreement", None)
        figures.pop("top5_agreement", None)
        layers[key] = figures
    return layers


def compare(reference, optimized):
    ref = reference.astype(np.float64).ravel()
    got = optimized.astype(np.float64).ravel()
    norm = np.linalg.norm(ref)
    figures = {
        "relative_l2": float(np.linalg.norm(got - ref) / (norm if norm else 1.0)),
        "max_abs": float(np.max(np.abs(got - ref))) if ref.size else 0.0,
        "cosine": float(np.dot(ref, got) / (norm * np.linalg.norm(got)))
        if norm and np.linalg.norm(got) else 1.0,
    }
    if reference.ndim == 2 and reference.shape[1] >= 5:
        top_ref = np.argsort(-reference, axis=1)
        top_got = np.argsort(-optimized, axis=1)
        figures["top1_agreement"] = float(np.mean(top_ref[:, 0] == top_got[:, 0]))
        figures["top5_agreement"] = float(np.mean(
            [len(set(a[:5]) & set(b[:5])) / 5 for a, b in zip(top_ref, top_got)]))
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--entry")
    parser.add_argument("--ops-nn-run",
                        default=os.path.join(ROOT, "build", "bin", "ops-nn-run"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batches", type=int, default=1)
    parser.add_argument("--per-layer", action="store_true",
                        help="also compare every intermediate tensor")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    directives = check.read_directives(args.model)
    types = ([t.strip() for t in directives["ARGS"][0].split(",")]
             if directives["ARGS"] else check.signature_args(args.model, args.entry))
    positive = {int(i) for line in directives["POSITIVE"] for i in line.split(",")}
    worst, layers = {}, {}
    for batch in range(args.batches):
        rng = np.random.default_rng(args.seed + batch)
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for index, text in enumerate(types):
                dims, element = check.parse_tensor_type(text)
                if any(d is None for d in dims):
                    sys.exit("accuracy_check.py: dynamic argument %s needs an ARGS directive" % text)
                array = check.random_input(dims, element, rng, (-8, 8))
                if index in positive:
                    array = abs(array)
                paths.append(os.path.join(tmp, "in%d.npy" % index))
                np.save(paths[-1], array)
            reference = run(args.ops_nn_run, args.model, args.entry, paths, None,
                            os.path.join(tmp, "fp32"))
            optimized = run(args.ops_nn_run, args.model, args.entry, paths,
                            args.pipeline, os.path.join(tmp, "opt"))
            if args.per_layer:
                for key, figures in per_layer(args.ops_nn_run, args.model,
                                              args.entry, paths, args.pipeline,
                                              tmp).items():
                    entry = layers.setdefault(key, figures)
                    for name, value in figures.items():
                        entry[name] = (min(entry[name], value) if name == "cosine"
                                       else max(entry[name], value))
        for index, (ref, got) in enumerate(zip(reference, optimized)):
            figures = compare(ref, got)
            entry = worst.setdefault("out%d" % index, figures)
            for key, value in figures.items():
                better_high = key in ("cosine", "top1_agreement", "top5_agreement")
                entry[key] = min(entry[key], value) if better_high else max(entry[key], value)
    if args.json:
        result = dict(worst)
        if args.per_layer:
            result["layers"] = [dict(key=key, **figures) for key, figures in layers.items()]
        print(json.dumps(result, indent=2, sort_keys=True))
        return
    for name, figures in worst.items():
        text = ", ".join("%s %.3g" % (key, value) for key, value in sorted(figures.items()))
        print("%s: %s" % (name, text))
    if args.per_layer:
        if not layers:
            print("per layer: no intermediate values with locations to compare")
            return
        hurts = max(layers, key=lambda key: layers[key]["relative_l2"])
        print("per layer (program order; key = FUNC/LOCATION#RESULT):")
        width = max(len(key) for key in layers)
        for key, figures in layers.items():
            print("  %-*s  relative_l2 %.3g  max_abs %.3g  cosine %.6f%s" % (
                width, key, figures["relative_l2"], figures["max_abs"],
                figures["cosine"], "  <- worst" if key == hurts else ""))


if __name__ == "__main__":
    main()
