#!/usr/bin/env python3
"""Assertions on .npy files for lit tests.

    npy_check.py has-inf FILE             fails unless FILE holds an inf/NaN
    npy_check.py close FILE EXPR --tol=T  fails unless ||FILE - EXPR|| /
                                          ||EXPR|| <= T (EXPR: NumPy, `np`)
"""

import argparse
import sys

import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["has-inf", "close"])
    parser.add_argument("file")
    parser.add_argument("expr", nargs="?")
    parser.add_argument("--tol", type=float, default=0.0)
    args = parser.parse_args()
    out = np.load(args.file).astype(np.float64)
    if args.what == "has-inf":
        if np.isfinite(out).all():
            sys.exit(f"{args.file}: every value is finite")
        print(f"{args.file}: {np.size(out) - np.isfinite(out).sum()} "
              "non-finite values")
        return
    ref = np.asarray(eval(args.expr, {"np": np}), dtype=np.float64)
    if out.shape != ref.shape:
        sys.exit(f"{args.file}: shape {out.shape}, expected {ref.shape}")
    if not np.isfinite(out).all():
        sys.exit(f"{args.file}: non-finite values")
    error = np.linalg.norm(out - ref) / max(np.linalg.norm(ref), 1e-30)
    print(f"{args.file}: relative L2 error {error:.3g} (tolerance {args.tol})")
    if error > args.tol:
        sys.exit(1)


if __name__ == "__main__":
    main()
