#!/usr/bin/env python3
"""Mixed precision side by side: for each benchmark model (bench/precision/
models.py), FP32 against mixed-fp16 and mixed-bf16: the weight bytes and the
peak activation bytes from `ops-nn-opt --opsnn-report` (its `memory` object,
docs/Report.md), their total and its ratio to FP32's, and the accuracy
figures of scripts/accuracy_check.py on the same random inputs (relative L2,
max abs error, cosine, top-1/top-5 agreement of the classifier output, worst
over --batches input seeds). Prints a markdown table, then per mode where the
activation peak sits and which contractions stayed FP32 and why.

Mixed precision is, for the report and for the accuracy run alike:
    func.func(opsnn-assign-precision{mode=M},opsnn-eliminate-casts),canonicalize
(canonicalize folds the casts of the constant weights into FP16/BF16
constants); FP32 is `canonicalize` alone. Argument and result types are kept
(keep-io-types), so the FP32 and mixed modules take the same inputs.

Usage: compare.py --ops-nn-opt BIN --ops-nn-run BIN --models DIR
                  [--names bert_layer,resnet_small] [--batches 2] [--json OUT]
(bench/precision/run.sh builds, writes the models and calls this.)
Exits non-zero on any failing tool.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# A mode is the assign-precision options after `mode=`: the strict underflow
# rule (any tiny weight keeps its op FP32) and the fraction-based one.
MODES = ["fp32", "mixed-fp16", "mixed-fp16 underflow-fraction=1e-3", "mixed-bf16"]
# The seed's claim, checked on every mixed mode.
CLAIM_SAVED, CLAIM_TOP1 = 0.40, 0.992


def precision_passes(mode):
    if mode == "fp32":
        return "canonicalize"
    return ("func.func(opsnn-assign-precision{mode=%s},opsnn-eliminate-casts),"
            "canonicalize" % mode)


def fail(message):
    sys.exit("compare.py: " + message)


def run_tool(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        fail("command failed (%d): %s\n%s" % (result.returncode, " ".join(command),
                                             result.stderr[-4000:]))
    return result.stdout


def report(opt, model, mode, out_dir):
    path = os.path.join(out_dir, "%s.%s.report.json" %
                        (os.path.splitext(os.path.basename(model))[0],
                         mode.replace(" ", "_").replace("=", "")))
    run_tool([opt, model, "-o", os.devnull, "--pass-pipeline=builtin.module(%s,"
              "opsnn-report{file=%s})" % (precision_passes(mode), path)])
    with open(path) as f:
        data = json.load(f)
    if data.get("schema") != "opsnn-report" or "memory" not in data:
        fail("%s: not an opsnn-report with memory figures" % path)
    if len(data["functions"]) != 1:
        fail("%s: expected one function" % path)
    return data["functions"][0]


def accuracy(run, model, mode, batches):
    pipeline = precision_passes(mode) + ",opsnn-lower-to-cpu"
    text = run_tool([sys.executable, os.path.join(ROOT, "scripts", "accuracy_check.py"),
                     model, "--ops-nn-run=" + run, "--pipeline=" + pipeline,
                     "--batches=%d" % batches, "--json"])
    figures = json.loads(text)
    if list(figures) != ["out0"]:
        fail("%s: expected one output, got %s" % (model, list(figures)))
    out = figures["out0"]
    for key in ("relative_l2", "max_abs", "cosine", "top1_agreement", "top5_agreement"):
        if key not in out:
            fail("%s: accuracy_check gave no %s (is the output 2-D with >= 5 "
                 "classes?)" % (model, key))
    return out


def kib(n):
    return "%.1f" % (n / 1024.0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ops-nn-opt", required=True)
    parser.add_argument("--ops-nn-run", required=True)
    parser.add_argument("--models", required=True)
    parser.add_argument("--names", default="bert_layer,resnet_small")
    parser.add_argument("--batches", type=int, default=2)
    parser.add_argument("--json", help="also write every figure here")
    args = parser.parse_args()

    rows, notes, results = [], [], {}
    for name in args.names.split(","):
        model = os.path.join(args.models, name + ".mlir")
        if not os.path.exists(model):
            fail("no model %s (run bench/precision/models.py first)" % model)
        fp32_total = None
        for mode in MODES:
            function = report(args.ops_nn_opt, model, mode, args.models)
            memory = function["memory"]
            weights, peak = memory["weight_bytes"], memory["peak_activation_bytes"]
            total = weights + peak
            if mode == "fp32":
                fp32_total = total
                acc = None
            else:
                print("  %s %s: accuracy (%d input seeds)..." % (name, mode, args.batches),
                      file=sys.stderr, flush=True)
                acc = accuracy(args.ops_nn_run, model, mode, args.batches)
            ratio = total / fp32_total
            kept = [(op["op"], op.get("loc", "?"), op["precision_reason"])
                    for op in function["ops"]
                    if op.get("precision") == "fp32" and "precision_reason" in op]
            low = sum(1 for op in function["ops"]
                      if op.get("precision") in ("fp16", "bf16") and "precision_reason" in op)
            results.setdefault(name, {})[mode] = {
                "memory": memory, "total_bytes": total, "ratio_to_fp32": ratio,
                "accuracy": acc, "low_precision_ops": low, "kept_fp32": kept}
            cells = [name, mode, kib(weights), kib(peak), kib(total), "%.3f" % ratio,
                     "%.1f%%" % (100 * (1 - ratio))]
            if acc is None:
                cells += ["(reference)", "", "", "", ""]
            else:
                cells += ["%.2e" % acc["relative_l2"], "%.2e" % acc["max_abs"],
                          "%.6f" % acc["cosine"], "%.1f%%" % (100 * acc["top1_agreement"]),
                          "%.1f%%" % (100 * acc["top5_agreement"])]
            rows.append(cells)
            peak_at = memory.get("peak_at", {})
            note = "- %s %s: peak activations at `%s` (%s); %d ops in low precision" % (
                name, mode, peak_at.get("op", "-"),
                os.path.basename(peak_at.get("loc", "-")), low)
            if kept:
                note += "; kept FP32: " + "; ".join(
                    "`%s` (%s): %s" % (op, os.path.basename(loc), reason)
                    for op, loc, reason in kept)
            notes.append(note)

    header = ["model", "precision", "weights KiB", "peak act. KiB", "total KiB",
              "ratio to FP32", "saved", "rel. L2", "max abs", "cosine", "top-1",
              "top-5"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for cells in rows:
        print("| " + " | ".join(cells) + " |")
    print()
    print("Accuracy: worst over %d input seeds, mixed vs FP32 on the CPU; top-k "
          "agreement per output row (128 tokens x 32 classes for bert_layer, 8 "
          "images x 100 classes for resnet_small)." % args.batches)
    print()
    for note in notes:
        print(note)
    print()
    for name, modes in results.items():
        for mode in MODES[1:]:
            r = modes[mode]
            saved, top1 = 1 - r["ratio_to_fp32"], r["accuracy"]["top1_agreement"]
            verdict = "met" if saved >= CLAIM_SAVED and top1 >= CLAIM_TOP1 else "NOT met"
            print("- claim (>= %d%% less memory at >= %.1f%% top-1 agreement), %s %s: "
                  "%s (%.1f%% less, %.1f%% top-1)" % (
                      CLAIM_SAVED * 100, CLAIM_TOP1 * 100, name, mode, verdict,
                      100 * saved, 100 * top1))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
