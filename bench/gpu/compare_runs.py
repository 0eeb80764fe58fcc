#!/usr/bin/env python3
"""Side by side: two runs of bench/gpu/cases.py (their --json files) over
the same cases, e.g. the same target with --chip sm_90 (mma.sync) and
--chip sm_90a (the warpgroup kernel, wgmma). Per case: each run's kernel
time ("our ms"), the ratio first / second (> 1: the second is faster), the
tensor-core instruction each used and its rel. L2 error; a case either run
did not time shows its status instead. Dry runs (no GPU) have no times:
the table then compares registers and static SASS counts.

    bench/gpu/compare_runs.py A.json B.json
"""
import argparse
import json
import sys


def load(path):
    with open(path) as f:
        doc = json.load(f)
    return doc, {c["name"]: c for c in doc.get("cases", [])}


def describe(case):
    ptx = case.get("ptxas") or {}
    return "%s, %s regs, %s SASS" % (ptx.get("mma") or "no mma",
                                     ptx.get("max_registers", "?"),
                                     ptx.get("sass_instructions", "?"))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("first")
    p.add_argument("second")
    args = p.parse_args()
    try:
        (doc_a, a), (doc_b, b) = load(args.first), load(args.second)
    except (OSError, ValueError) as e:
        print(f"compare_runs: {e}")
        return 1
    label_a, label_b = doc_a.get("chip", "first"), doc_b.get("chip", "second")
    print("%-22s %10s %10s %8s  %-34s %-34s %s" % (
        "case", label_a + " ms", label_b + " ms", "ratio", label_a, label_b,
        "rel L2 (second)"))
    for name, ca in a.items():
        cb = b.get(name)
        if cb is None:
            continue
        ma, mb = ca.get("ours_ms"), cb.get("ours_ms")
        ratio = "%8.2f" % (ma / mb) if ma and mb else "%8s" % "-"
        rel = cb.get("rel_l2")
        print("%-22s %10s %10s %s  %-34s %-34s %s" % (
            name, "%.4f" % ma if ma else "-", "%.4f" % mb if mb else "-", ratio,
            describe(ca), describe(cb), "%.1e" % rel if rel is not None else "-"))
        for label, c, ms in ((label_a, ca, ma), (label_b, cb, mb)):
            if not ms and doc_a.get("mode") != "dry-run":
                print("    %s: %s" % (label, c.get("status")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
