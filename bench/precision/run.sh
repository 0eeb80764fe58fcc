#!/usr/bin/env bash
# Mixed-precision benchmark: for a BERT-style encoder layer and a
# ResNet-style net with their weights as dense constants, FP32 vs mixed-fp16
# vs mixed-bf16 side by side: weight bytes and peak activation bytes (from
# ops-nn-opt --opsnn-report), their total and ratio to FP32, and the accuracy
# figures of scripts/accuracy_check.py (relative L2, max abs, cosine,
# top-1/top-5 agreement), as a markdown table. About 2 minutes on 2 cores.
# Sets up and builds like scripts/demo.sh (installs what is missing) unless
# --no-build is given (then build/bin must hold ops-nn-opt and ops-nn-run).
#
# Usage: bench/precision/run.sh [--no-build] [--batches N]
#            [--names bert_layer,resnet_small] [--json OUT]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"

build=1
if [ "${1:-}" = "--no-build" ]; then
  build=0
  shift
fi
if [ "$build" = 1 ]; then
  opsnn_setup
fi
for tool in ops-nn-opt ops-nn-run; do
  if [ ! -x "$OPSNN_BUILD_DIR/bin/$tool" ]; then
    echo "bench/precision/run.sh: $OPSNN_BUILD_DIR/bin/$tool is missing (run without --no-build)" >&2
    exit 1
  fi
done

models="$OPSNN_BUILD_DIR/bench/precision"
log "writing the benchmark models to $models"
python3 "$OPSNN_ROOT/bench/precision/models.py" "$models"
log "FP32 vs mixed-fp16 vs mixed-bf16 (memory from --opsnn-report, accuracy on the CPU)"
python3 "$OPSNN_ROOT/bench/precision/compare.py" \
  --ops-nn-opt "$OPSNN_BUILD_DIR/bin/ops-nn-opt" \
  --ops-nn-run "$OPSNN_BUILD_DIR/bin/ops-nn-run" \
  --models "$models" "$@"
