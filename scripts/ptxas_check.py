#!/usr/bin/env python3
"""Extracts the PTX of every kernel from ops-nn-opt output and assembles it
with the CUDA toolkit's ptxas for each requested architecture.

    ops-nn-opt model.mlir --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" \\
        | scripts/ptxas_check.py --arch sm_80 --arch sm_90 [--ptx-dir DIR] [--json]

Prints one line per kernel and architecture with the registers, shared
memory (static; "+ dynamic" when the kernel also takes dynamic shared memory,
sized at launch), spill stores/loads and stack frame ptxas -v reports; exits 1 when
ptxas rejects any kernel or when no kernel was found.

A kernel whose wgmma ptxas had to order itself says so: ptxas's
advisories (C75xx) that it injected warpgroup.arrive/wait around a
wgmma or serialized wgmmas (register accesses between them that the PTX
did not fence) are counted at the end of its line.

With --sass the line also counts the machine (SASS) instructions of the
assembled kernel, NOPs left out, as nvdisasm lists them (requirements.txt's
nvidia-cuda-nvdisasm, or $NVDISASM): a static count, the same code's
size before and after a change, not a time.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

PTXAS = os.environ.get("PTXAS", "/usr/local/cuda/bin/ptxas")

BINARY = re.compile(
    r'gpu\.binary\s+@(?P<module>[\w$.]+)\s*\[#gpu\.object<#nvvm\.target<[^>]*>\s*,'
    r'(?:\s*properties\s*=\s*\{[^}]*\}\s*,)?\s*assembly\s*=\s*"(?P<ptx>(?:[^"\\]|\\.)*)"')


# MLIR's gpu.dynamic_shared_memory lowers to a zero-sized (PTX: one-byte)
# shared global, __dynamic_shmem__N, whose address starts the block's shared
# window; the dynamic bytes follow it. CUDA C spells it .extern .shared.
DYNAMIC_SHARED = re.compile(r"\.extern\s+\.shared\b|\.shared\s[^;]*__dynamic_shmem__")


def unescape(text):
    """MLIR string escapes: \\XX hex bytes, \\\\ and \\"."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 2 < len(text) + 1 and re.match(r"[0-9A-Fa-f]{2}", text[i + 1:i + 3]):
            out.append(int(text[i + 1:i + 3], 16))
            i += 3
        elif c == "\\" and i + 1 < len(text):
            out.extend(text[i + 1].encode())
            i += 2
        else:
            out.extend(c.encode())
            i += 1
    return out.decode()


def find_nvdisasm():
    """$NVDISASM, the CUDA toolkit's, or the one PyPI's nvidia-cuda-nvdisasm
    installs; None when there is none."""
    candidates = [os.environ.get("NVDISASM", ""),
                  os.path.join(os.path.dirname(PTXAS), "nvdisasm")]
    try:
        import nvidia
        for root in nvidia.__path__:
            candidates += sorted(glob.glob(os.path.join(root, "cu*", "bin", "nvdisasm")))
    except ImportError:
        pass
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


SASS_INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?!NOP\b)[A-Z@]")


def count_sass(nvdisasm, cubin):
    """Instructions (NOPs left out) of every kernel in `cubin`."""
    listing = subprocess.run([nvdisasm, cubin], capture_output=True, text=True, check=True).stdout
    return len(SASS_INSTRUCTION.findall(listing))


# ptxas's advisories about wgmma, which name their function: "(C7519)
# warpgroup.arrive is injected ...", "(C7517) warpgroup.wait is injected
# ...", "... wgmma.mma_async instructions are serialized ...".
WGMMA_ADVISORY = re.compile(r"\(C75\d\d\).*(?:(warpgroup\.\w+) is injected|(serialized))"
                            r".*in (?:the )?function '([^']+)'")


def parse_verbose(stderr):
    """Per-entry figures from ptxas -v."""
    figures = {}
    advisories = {}
    entry = None
    for line in stderr.splitlines():
        m = WGMMA_ADVISORY.search(line)
        if m:
            what = m.group(1) + " injected" if m.group(1) else "wgmma serialized"
            counts = advisories.setdefault(m.group(3), {})
            counts[what] = counts.get(what, 0) + 1
            continue
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            entry = m.group(1)
            figures[entry] = {"registers": 0, "shared_bytes": 0, "spill_stores": 0,
                              "spill_loads": 0, "stack_bytes": 0}
            continue
        if entry is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            figures[entry].update(stack_bytes=int(m.group(1)), spill_stores=int(m.group(2)),
                                  spill_loads=int(m.group(3)))
        m = re.search(r"Used (\d+) registers", line)
        if m:
            figures[entry]["registers"] = int(m.group(1))
        m = re.search(r"(\d+) bytes smem", line)
        if m:
            figures[entry]["shared_bytes"] = int(m.group(1))
    for entry, counts in advisories.items():
        if entry in figures:
            figures[entry]["wgmma_advisories"] = counts
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", nargs="?", default="-", help="ops-nn-opt output (default: stdin)")
    parser.add_argument("--arch", action="append", required=True, help="sm_80, sm_90, ...")
    parser.add_argument("--ptx-dir", help="keep the extracted .ptx files here")
    parser.add_argument("--json", action="store_true", help="print a JSON list instead of lines")
    parser.add_argument("--sass", action="store_true",
                        help="also count each kernel's SASS instructions (needs nvdisasm)")
    args = parser.parse_args()
    nvdisasm = find_nvdisasm() if args.sass else None
    if args.sass and not nvdisasm:
        sys.exit("ptxas_check: --sass needs nvdisasm: pip install -r requirements.txt "
                 "(nvidia-cuda-nvdisasm) or set NVDISASM")

    text = sys.stdin.read() if args.input == "-" else open(args.input).read()
    kernels = [(m.group("module"), unescape(m.group("ptx"))) for m in BINARY.finditer(text)]
    if not kernels:
        sys.exit("ptxas_check: no PTX kernels found (was the input lowered with format=ptx?)")

    ptx_dir = args.ptx_dir or tempfile.mkdtemp(prefix="opsnn-ptx-")
    os.makedirs(ptx_dir, exist_ok=True)
    rows, failed = [], False
    for module, ptx in kernels:
        path = os.path.join(ptx_dir, module + ".ptx")
        with open(path, "w") as f:
            f.write(ptx)
        for arch in args.arch:
            cubin = os.path.join(ptx_dir, "%s.%s.cubin" % (module, arch)) if nvdisasm else os.devnull
            run = subprocess.run([PTXAS, "-v", "-arch=" + arch, path, "-o", cubin],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                failed = True
                print("FAIL %s %s: %s" % (module, arch, run.stderr.strip()))
                continue
            # Dynamic shared memory (an .extern .shared array) is sized at
            # launch: ptxas counts only the static part.
            dynamic = bool(DYNAMIC_SHARED.search(ptx))
            # One kernel per module (gpu-kernel-outlining): the cubin's count
            # is the kernel's.
            sass = count_sass(nvdisasm, cubin) if nvdisasm else None
            for entry, fig in parse_verbose(run.stderr).items():
                row = dict(module=module, kernel=entry, arch=arch, dynamic_shared=dynamic, **fig)
                if sass is not None:
                    row["sass_instructions"] = sass
                rows.append(row)
                if not args.json:
                    row["dynamic"] = " + dynamic" if dynamic else ""
                    row["sass"] = ", %d SASS" % sass if sass is not None else ""
                    row["advisories"] = "".join(
                        ", ptxas: %d %s" % (n, what)
                        for what, n in sorted(fig.get("wgmma_advisories", {}).items()))
                    print("OK %(module)s/%(kernel)s %(arch)s: %(registers)d registers, "
                          "%(shared_bytes)d B smem%(dynamic)s, %(spill_stores)d B spill stores, "
                          "%(spill_loads)d B spill loads, %(stack_bytes)d B stack%(sass)s"
                          "%(advisories)s" % row)
    if args.json:
        print(json.dumps(rows, indent=2))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
