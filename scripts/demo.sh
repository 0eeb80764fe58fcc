#!/usr/bin/env bash
# Sets up (installs what is missing, builds into build/) and runs the main job
# on the bundled example: ops-nn-opt folds and canonicalizes the layout
# conversions and casts of examples/conv_block.mlir, then lowers what is left
# to upstream linalg/arith, printing the IR after each step.
#
# Usage: ./scripts/demo.sh [FILE.mlir]
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

opsnn_setup

input="${1:-$OPSNN_ROOT/examples/conv_block.mlir}"
opt="$OPSNN_BUILD_DIR/bin/ops-nn-opt"

log "input: $input"
cat "$input"
log "ops-nn-opt --canonicalize (fold layout.convert / precision.cast)"
"$opt" "$input" --canonicalize
log "ops-nn-opt --canonicalize --opsnn-lower-layouts --opsnn-lower-precision --canonicalize"
"$opt" "$input" --canonicalize --opsnn-lower-layouts --opsnn-lower-precision --canonicalize
