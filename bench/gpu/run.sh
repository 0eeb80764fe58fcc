#!/usr/bin/env bash
# The one prepared script for a lent GPU machine (see issue notes): sets up
# and builds like scripts/test.sh, then in one short call
#  1. runs the GPU lit tests (ptxas for sm_80/sm_90, and every executed GPU
#     test against NumPy: test/GPU/execute.test, REQUIRES: cuda-device);
#  2. times the ResNet block (1x64x56x56, f32) on the CPU and on the GPU,
#     as written (NCHW) and after ALTE for the H200, side by side, with the
#     GPU/CPU ratios;
#  3. prints ptxas -v figures for the kernels (bench/gpu/ptx_report.sh).
# Without a GPU (here, CI) the executed tests are unsupported and the cuda
# rows say "failed"; the rest still runs.
# Output is plain text; with $OUT set, a copy goes to $OUT/gpu-run.txt.
#
# Usage: bench/gpu/run.sh [--repeat N]
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
repeat=20
[ "${1:-}" = "--repeat" ] && repeat="$2"

main() {
  opsnn_setup
  local run="$OPSNN_BUILD_DIR/bin/ops-nn-run"
  log "device"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 || true

  log "GPU tests (ptxas + executed vs NumPy)"
  "$LLVM_PREFIX/bin/lit" -v "$OPSNN_BUILD_DIR/test/GPU" || true

  log "ResNet block: CPU vs GPU, NCHW as written and after ALTE (target=h200)"
  local block="$OPSNN_ROOT/examples/resnet_block.mlir"
  local inputs="$OPSNN_BUILD_DIR/bench/gpu/resnet_block"
  python3 "$OPSNN_ROOT/test/Integration/check.py" "$block" --ops-nn-run "$run" \
    --save-inputs "$inputs" >/dev/null
  local args=()
  for i in $(seq 0 10); do args+=(--input="$inputs/in$i.npy"); done
  local alte="func.func(opsnn-assign-layouts{target=h200},opsnn-propagate-layouts)"
  printf '%-28s %12s\n' "variant" "median ms"
  for variant in cpu cuda cpu-alte cuda-alte; do
    local device="${variant%%-*}" pipeline=()
    case "$variant" in
      cpu-alte) pipeline=(--pipeline="$alte,opsnn-lower-to-cpu") ;;
      cuda-alte) pipeline=(--pipeline="$alte,opsnn-lower-to-nvvm{chip=sm_80 format=ptx}") ;;
    esac
    local ms
    ms=$("$run" "$block" "${args[@]}" --device="$device" "${pipeline[@]}" \
          --repeat="$repeat" --warmup=3 --json 2>&1 |
         python3 -c 'import json,sys
try: print("%.3f" % json.load(sys.stdin)["time_ms"]["median"])
except Exception as e: print("failed")') || true
    printf '%-28s %12s\n' "$variant" "${ms:-failed}"
  done

  log "ptxas -v per kernel (PTX for sm_80, assembled for sm_80 and sm_90)"
  local report="$OPSNN_BUILD_DIR/bench/gpu/ptx_report.txt"
  "$OPSNN_ROOT/bench/gpu/ptx_report.sh" >"$report" 2>&1 || true
  head -40 "$report"
}

if [ -n "${OUT:-}" ]; then
  main 2>&1 | tee "$OUT/gpu-run.txt"
else
  main
fi
