"""scripts/ptxas_check.py's reading of ptxas -v (no ptxas needed)."""

import importlib.util
import pathlib

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "ptxas_check.py"


def load():
    spec = importlib.util.spec_from_file_location("ptxas_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# What ptxas 13 prints for a warpgroup kernel whose first K step set its
# zero accumulators between two wgmmas (and a kernel without advisories).
STDERR = """\
ptxas info    : (C7519) warpgroup.arrive is injected in around line 246 by compiler to allow use of registers in GMMA in function 'wg_kernel'
ptxas info    : (C7519) warpgroup.arrive is injected in around line 317 by compiler to allow use of registers in GMMA in function 'wg_kernel'
ptxas info    : (C7517) warpgroup.wait is injected in around line 317 by compiler to allow use of registers defined by GMMA in function 'wg_kernel'
ptxas info    : (C7510) Potential Performance Loss: wgmma.mma_async instructions are serialized due to the presence of Extern calls in the function 'other_kernel'
ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function 'wg_kernel' for 'sm_90a'
ptxas info    : Function properties for wg_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 156 registers, used 1 barriers, 1 bytes smem
ptxas info    : Compiling entry function 'other_kernel' for 'sm_90a'
ptxas info    : Function properties for other_kernel
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem
ptxas info    : Compiling entry function 'plain_kernel' for 'sm_90a'
ptxas info    : Function properties for plain_kernel
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 0 bytes smem
"""


def test_wgmma_advisories_are_counted_per_kernel():
    figures = load().parse_verbose(STDERR)
    assert figures["wg_kernel"]["registers"] == 156
    assert figures["wg_kernel"]["wgmma_advisories"] == {
        "warpgroup.arrive injected": 2, "warpgroup.wait injected": 1}
    assert figures["other_kernel"]["wgmma_advisories"] == {"wgmma serialized": 1}
    assert figures["other_kernel"]["spill_stores"] == 4
    assert "wgmma_advisories" not in figures["plain_kernel"]
