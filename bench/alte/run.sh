#!/usr/bin/env bash
# ALTE benchmark: for a ResNet-50-like chain and a ViT block (NCHW, f32),
# the layout conversions left after assignment and after propagation and
# folding, and the CPU time of the baseline (no ALTE) and of ALTE's output
# for the A100 and the host targets, side by side in one run, as a ratio.
# Sets up and builds like scripts/demo.sh (installs what is missing).
#
# Usage: bench/alte/run.sh [--rounds N] [--repeat M] [--targets a100,host]
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"

opsnn_setup

models="$OPSNN_BUILD_DIR/bench/alte"
log "writing the benchmark models and inputs to $models"
python3 "$OPSNN_ROOT/bench/alte/models.py" "$models"
log "baseline vs ALTE (CPU; outputs compared)"
python3 "$OPSNN_ROOT/bench/alte/compare.py" \
  --ops-nn-opt "$OPSNN_BUILD_DIR/bin/ops-nn-opt" \
  --ops-nn-run "$OPSNN_BUILD_DIR/bin/ops-nn-run" \
  --models "$models" "$@"
