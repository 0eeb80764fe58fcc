#!/usr/bin/env python3
"""ALTE side by side: for each benchmark model, the layout conversions ALTE
leaves (after assignment, then after propagation and folding) and the CPU
time of the compiled model without ALTE (baseline) and with it: each is
compiled once into an artifact, then the two artifacts run alternately
(`--rounds` times `--repeat` runs each) so that drift hits both alike;
medians are reported with their ratio. Outputs are compared too (relative L2).

Usage: compare.py --ops-nn-opt BIN --ops-nn-run BIN --models DIR
                  [--targets a100,host] [--rounds 3] [--repeat 5]
(bench/alte/run.sh builds, writes the models and calls this.)
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

import numpy as np

MODELS = ["resnet50_chain", "vit_block"]


def alte_passes(target, fold=True):
    propagate = "opsnn-propagate-layouts" + ("" if fold else "{fold-into-generics=false}")
    return "opsnn-assign-layouts{target=%s},%s" % (target, propagate)


def count_conversions(opt, model, passes):
    ir = subprocess.run([opt, model, "--pass-pipeline=builtin.module(func.func(%s))" % passes],
                        check=True, capture_output=True, text=True).stdout
    converts = re.findall(r"layout\.convert %(\S+) from \"(\w+)\"", ir)
    weights = sum(1 for _, layout in converts if layout.startswith("F"))
    return len(converts), weights


def count_rewritten(opt, model, target):
    """Ops whose layout.decision (annotate) moves them to another layout."""
    ir = subprocess.run(
        [opt, model, "--opsnn-assign-layouts=target=%s annotate" % target],
        check=True, capture_output=True, text=True).stdout
    decisions = re.findall(r'layout\.decision = \{from = #layout<"(\w+)">, '
                           r'layout = #layout<"(\w+)">', ir)
    return sum(1 for old, new in decisions if old != new)


def run(ops_nn_run, model, inputs, out_dir, repeat, pipeline=None,
        artifact=None):
    """Runs `model` (an .mlir file, compiled first, or an artifact)."""
    command = [ops_nn_run, model, "--output-dir", out_dir, "--json",
               "--repeat=%d" % repeat, "--warmup=1"]
    command += ["--input=" + path for path in inputs]
    if pipeline:
        command.append("--pipeline=" + pipeline)
    if artifact:
        command.append("--emit-artifact=" + artifact)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("ops-nn-run failed:\n" + result.stderr)
    report = json.loads(result.stdout)
    return report["time_ms"]["median"], np.load(report["outputs"][0]["path"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops-nn-opt", required=True)
    parser.add_argument("--ops-nn-run", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--targets", default="a100,host")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()

    print("%-15s %-6s %12s %12s %13s %12s %10s %10s %7s %9s" % (
        "model", "target", "conv:assign", "conv:folded", "(on weights)",
        "rewritten", "base ms", "ALTE ms", "ratio", "rel L2"))
    for name in MODELS:
        model = os.path.join(args.models, name + ".mlir")
        in_dir = os.path.join(args.models, name)
        inputs = sorted((os.path.join(in_dir, f) for f in os.listdir(in_dir)),
                        key=lambda p: int(re.search(r"in(\d+)\.npy", p).group(1)))
        for target in args.targets.split(","):
            assigned, _ = count_conversions(
                args.ops_nn_opt, model, "opsnn-assign-layouts{target=%s}" % target)
            folded, on_weights = count_conversions(args.ops_nn_opt, model,
                                                   alte_passes(target))
            rewritten = count_rewritten(args.ops_nn_opt, model, target)
            pipeline = "func.func(%s),opsnn-lower-to-cpu" % alte_passes(target)
            base_times, alte_times = [], []
            with tempfile.TemporaryDirectory() as tmp:
                # Compile each variant once into an artifact, then alternate
                # runs of the two artifacts.
                base_art, alte_art = (os.path.join(tmp, "base.art"),
                                      os.path.join(tmp, "alte.art"))
                run(args.ops_nn_run, model, inputs, os.path.join(tmp, "o"), 1,
                    artifact=base_art)
                run(args.ops_nn_run, model, inputs, os.path.join(tmp, "o"), 1,
                    pipeline=pipeline, artifact=alte_art)
                for _ in range(args.rounds):
                    t, base_out = run(args.ops_nn_run, base_art, inputs,
                                      os.path.join(tmp, "base"), args.repeat)
                    base_times.append(t)
                    t, alte_out = run(args.ops_nn_run, alte_art, inputs,
                                      os.path.join(tmp, "alte"), args.repeat)
                    alte_times.append(t)
            base, alte = statistics.median(base_times), statistics.median(alte_times)
            ref = base_out.astype(np.float64)
            err = np.linalg.norm(alte_out - ref) / np.linalg.norm(ref)
            print("%-15s %-6s %12d %12d %13d %12d %10.2f %10.2f %7.3f %9.2e" % (
                name, target, assigned, folded, on_weights, rewritten, base, alte,
                alte / base, err))
    print("ratio = ALTE time / baseline time on this CPU (below 1: ALTE faster);"
          " conversions on weights are function-argument filters, folded away"
          " when weights are constants.")


if __name__ == "__main__":
    main()
