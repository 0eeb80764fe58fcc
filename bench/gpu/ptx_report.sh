#!/usr/bin/env bash
# Lowers the bundled models and every executed-test op family with
# --opsnn-lower-to-nvvm (and the tensor-core kernels of test/GPU/tensor-core-
# {matmul,epilogue,conv,conv-epilogue,turing}.mlir with tensor-cores=true,
# the FP8 ones of test/Integration/CPU/tensor-core-fp8-emulated.mlir for
# sm_90, and the warpgroup (wgmma) ones of tensor-core-warpgroup.mlir and
# tensor-core-warpgroup-emulated.mlir for sm_90a) and prints, per
# kernel and architecture, what
# `ptxas -v` reports: registers, shared memory, spill stores/loads, stack
# (--sass: and the static SASS instruction count, through nvdisasm).
# No GPU needed (only the CUDA toolkit's ptxas).
#
# Usage: bench/gpu/ptx_report.sh [--chip sm_80|sm_75|sm_90] [--json] [--sass]   (after a build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
opt="${OPSNN_BUILD_DIR:-$root/build}/bin/ops-nn-opt"
chip=sm_80
report_flags=()
while [ $# -gt 0 ]; do
  case "$1" in
    --chip) chip="$2"; shift 2 ;;
    --json) report_flags+=(--json); shift ;;
    --sass) report_flags+=(--sass); shift ;;
    *) echo "usage: $0 [--chip sm_80] [--json] [--sass]" >&2; exit 2 ;;
  esac
done
[ -x "$opt" ] || { echo "build first: ./scripts/test.sh or ninja -C build" >&2; exit 1; }
# PTX for the chip assembles for it and for every later architecture here
# (sm_75 code: sm_75, sm_80 and sm_90).
arches=()
for arch in sm_75 sm_80 sm_90; do
  [ "${arch#sm_}" -ge "${chip#sm_}" ] && arches+=(--arch "$arch")
done
[ ${#arches[@]} -gt 0 ] || arches=(--arch "$chip")

status=0
for input in "$root"/examples/resnet_block.mlir "$root"/test/Integration/CPU/*.mlir; do
  # The RUN-only file has no IR of its own.
  case "$(basename "$input")" in resnet-block.mlir) continue ;; esac
  echo "== $(basename "$input") (lowered for $chip)"
  "$opt" "$input" --opsnn-lower-to-nvvm="chip=$chip format=ptx" |
    python3 "$root/scripts/ptxas_check.py" "${arches[@]}" "${report_flags[@]}" || status=1
done
# The tensor-core GEMM kernels (cp.async, ldmatrix, mma.sync), heuristic
# tiles: matmuls, NHWC convolutions (of 3-channel images too, padded to 8),
# and both with fused epilogues (and the
# Turing test's GEMMs and convolution, FP16 m16n8k8 with --chip sm_75).
for name in tensor-core-matmul tensor-core-epilogue tensor-core-conv tensor-core-conv-channels tensor-core-conv-epilogue tensor-core-turing; do
  echo "== $name.mlir (tensor-cores=true, lowered for $chip)"
  "$opt" "$root/test/GPU/$name.mlir" --opsnn-lower-to-nvvm="chip=$chip format=ptx tensor-cores=true" |
    python3 "$root/scripts/ptxas_check.py" "${arches[@]}" "${report_flags[@]}" || status=1
done
# The FP8 tensor-core kernels (mma.sync m16n8k32 .e4m3/.e5m2: sm_89 and
# later), always lowered and assembled for sm_90.
echo "== tensor-core-fp8-emulated.mlir (tensor-cores=true, lowered for sm_90)"
"$opt" "$root/test/Integration/CPU/tensor-core-fp8-emulated.mlir" \
  --opsnn-lower-to-nvvm="chip=sm_90 format=ptx tensor-cores=true" |
  python3 "$root/scripts/ptxas_check.py" --arch sm_90 "${report_flags[@]}" || status=1
# The warpgroup kernels (wgmma: sm_90a only), lowered and assembled for it.
for input in "$root/test/GPU/tensor-core-warpgroup.mlir" \
             "$root/test/Integration/CPU/tensor-core-warpgroup-emulated.mlir"; do
  echo "== $(basename "$input") (tensor-cores=true, lowered for sm_90a)"
  "$opt" "$input" --opsnn-lower-to-nvvm="chip=sm_90a format=ptx tensor-cores=true" |
    python3 "$root/scripts/ptxas_check.py" --arch sm_90a "${report_flags[@]}" || status=1
done
exit $status
