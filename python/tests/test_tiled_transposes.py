"""Random layout conversions through --opsnn-gpu-tiled-transpose, executed.

Each case is one linalg.generic: an input read through a random permutation
that moves the innermost dimension (rank 2 to 5, sizes from 1 to 64, some
ragged in 32-element tiles), plus an operand broadcast along a random loop,
in f32, f16 or i32. It runs through `opsnn-lower-to-cpu{emulate-gpu-loops}`
(the GPU's tiled kernel, block by block) and is checked against NumPy by
test/Integration/check.py. The fixed seeds make the same cases everywhere;
test/Integration/CPU/gpu-tiled-transpose-emulated.mlir has the hand-picked
ones."""

import random
import subprocess
import sys
from pathlib import Path

from opsnn.tools import find_tool

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "test" / "Integration" / "check.py"
PIPELINE = "opsnn-lower-to-cpu{emulate-gpu-loops}"


def _case(rng):
    rank = rng.choice([2, 3, 4, 5])
    shape = [rng.choice([1, 2, 3, 5, 16, 17, 33, 40, 64]) for _ in range(rank)]
    perm = list(range(rank))
    while perm[-1] == rank - 1:
        rng.shuffle(perm)
    out_shape = [shape[p] for p in perm]
    dims = ", ".join(f"d{i}" for i in range(rank))
    in_map = ", ".join(f"d{perm.index(j)}" for j in range(rank))
    bcast = rng.randrange(rank)
    et = rng.choice(["f32", "f16", "i32"])
    add = "addi" if et == "i32" else "addf"

    def t(s):
        return "tensor<" + "x".join(map(str, s)) + f"x{et}>"
    others = tuple(i for i in range(rank) if i != bcast)
    return f"""// REF: out0 = (in0.transpose({tuple(perm)}) + np.expand_dims(in1, {others})).astype(in0.dtype).astype(np.float64)
// TOL: 2e-3
func.func @f(%x: {t(shape)}, %v: {t([out_shape[bcast]])}) -> {t(out_shape)} {{
  %e = tensor.empty() : {t(out_shape)}
  %y = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({in_map})>,
      affine_map<({dims}) -> (d{bcast})>, affine_map<({dims}) -> ({dims})>],
      iterator_types = [{", ".join(['"parallel"'] * rank)}]}}
      ins(%x, %v : {t(shape)}, {t([out_shape[bcast]])}) outs(%e : {t(out_shape)}) {{
  ^bb0(%a: {et}, %b: {et}, %o: {et}):
    %s = arith.{add} %a, %b : {et}
    linalg.yield %s : {et}
  }} -> {t(out_shape)}
  return %y : {t(out_shape)}
}}
"""


def test_random_conversions_match_numpy(tmp_path):
    rng = random.Random(1)
    opt, run = find_tool("ops-nn-opt"), find_tool("ops-nn-run")
    tiled = 0
    for i in range(24):
        src = tmp_path / f"case{i}.mlir"
        src.write_text(_case(rng))
        proc = subprocess.run([sys.executable, str(CHECK), f"--ops-nn-run={run}",
                               f"--pipeline={PIPELINE}", str(src)],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, src.read_text() + proc.stdout + proc.stderr
        ir = subprocess.run([opt, str(src), f"--pass-pipeline=builtin.module({PIPELINE})",
                             "--mlir-print-ir-after=opsnn-gpu-tiled-transpose", "-o",
                             "/dev/null"], capture_output=True, text=True, timeout=300)
        tiled += "memref<32x33x" in ir.stderr
    # Most cases take the tiled kernel (13 of these 24; each of the others
    # has a group under min-extent, 16 elements).
    assert tiled >= 12, f"only {tiled} of 24 cases tiled"
