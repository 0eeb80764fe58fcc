#!/usr/bin/env python3
"""Seed corpus for the libFuzzer target: every test/**/*.mlir split at
`// -----`, RUN/CHECK comment lines dropped, one file per piece.

    fuzz_corpus.py OUT_DIR
"""

import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    count = 0
    for folder, _, files in os.walk(os.path.join(ROOT, "test")):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(folder, name), errors="replace") as f:
                text = f.read()
            for piece in re.split(r"^// -----\s*$", text, flags=re.M):
                lines = [l for l in piece.splitlines() if not l.lstrip().startswith("//")]
                body = "\n".join(lines).strip()
                if not body or len(body) > 64 * 1024:
                    continue
                digest = hashlib.sha1(body.encode()).hexdigest()[:16]
                with open(os.path.join(out, digest + ".mlir"), "w") as f:
                    f.write(body + "\n")
                count += 1
    print("fuzz_corpus: %d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
