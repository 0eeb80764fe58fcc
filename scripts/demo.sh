#!/usr/bin/env bash
# Sets up (installs what is missing, builds into build/) and runs the main job
# on the bundled examples:
#  1. ops-nn-opt folds and canonicalizes the layout conversions and casts of
#     examples/conv_block.mlir, then lowers what is left to upstream
#     linalg/arith, printing the IR after each step;
#  2. ops-nn-run compiles the ResNet block of examples/resnet_block.mlir for
#     the CPU, checks its output against NumPy and times it;
#  3. ALTE chooses the block's layouts for an A100 (NHWC convolutions, one
#     conversion in, filters converted, the last conversion folded into the
#     final generic); the result runs on the CPU against NumPy;
#  4. the same block is lowered for the GPU (PTX for sm_80) and its kernels
#     are assembled with ptxas for sm_80 and sm_90.
#
# Usage: ./scripts/demo.sh [FILE.mlir]   (FILE replaces conv_block.mlir in 1.)
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

block="$OPSNN_ROOT/examples/resnet_block.mlir"
run="$OPSNN_BUILD_DIR/bin/ops-nn-run"
inputs="$OPSNN_BUILD_DIR/demo/resnet_block"
log "ResNet block (conv-bn-relu-conv-bn-add-relu, 1x64x56x56, NCHW) on the CPU vs NumPy"
python3 "$OPSNN_ROOT/test/Integration/check.py" "$block" --ops-nn-run "$run" \
  --save-inputs "$inputs"
log "ops-nn-run timing (10 runs after 2 warm-up)"
args=()
for i in $(seq 0 10); do args+=(--input="$inputs/in$i.npy"); done
"$run" "$block" "${args[@]}" --output-dir "$inputs/out" --repeat=10 --warmup=2

log "ALTE for an A100 on the ResNet block: layouts chosen, conversions left (docs/ALTE.md)"
"$opt" "$block" --opsnn-assign-layouts="target=a100 annotate" \
  --opsnn-propagate-layouts --opsnn-report -o /dev/null | python3 -c '
import json, sys
ops = json.load(sys.stdin)["functions"][0]
for op in ops["ops"]:
    if "layout" in op or op["op"] == "layout.convert":
        print("  %-26s %-5s %s" % (op["op"], op.get("layout", ""), op.get("layout_reason", "")))
print("  layout.convert left: %d" % ops["totals"]["layout_conversions"])'
log "the ResNet block after ALTE, run on the CPU vs NumPy"
python3 "$OPSNN_ROOT/test/Integration/check.py" "$block" --ops-nn-run "$run" \
  --pipeline="func.func(opsnn-assign-layouts{target=a100},opsnn-propagate-layouts),opsnn-lower-to-cpu"

log "--opsnn-optimize for an A100 in mixed FP16: precision decisions and memory (docs/Precision.md)"
"$opt" "$block" --opsnn-optimize="target=a100 precision=mixed-fp16" \
  --opsnn-report -o /dev/null | python3 -c '
import json, sys
f = json.load(sys.stdin)["functions"][0]
for op in f["ops"]:
    if "precision" in op:
        print("  %-26s %-4s %s" % (op["op"], op["precision"], op.get("precision_reason", "")))
m = f["memory"]
print("  weights + peak activations: %.0f KiB (FP32: %.0f KiB), %.1f%% saved" % (
    (m["weight_bytes"] + m["peak_activation_bytes"]) / 1024,
    (m["weight_bytes_fp32"] + m["peak_activation_bytes_fp32"]) / 1024,
    100 * m["saved_fraction"]))'
log "the optimized ResNet block vs its FP32 self on the same inputs"
python3 "$OPSNN_ROOT/scripts/accuracy_check.py" "$block" --ops-nn-run "$run" \
  --pipeline="opsnn-optimize{target=a100 precision=mixed-fp16},opsnn-lower-to-cpu"

log "ONNX (python/opsnn): examples/small_cnn.onnx imported, optimized for an A100, run on the CPU vs onnxruntime"
onnx_demo="$OPSNN_BUILD_DIR/demo/small_cnn"
opsnn_py() { OPSNN_BUILD_DIR="$OPSNN_BUILD_DIR" PYTHONPATH="$OPSNN_ROOT/python" python3 -m opsnn "$@"; }
opsnn_py import "$OPSNN_ROOT/examples/small_cnn.onnx" -o "$onnx_demo.mlir"
opsnn_py compile "$OPSNN_ROOT/examples/small_cnn.onnx" --target=a100 --precision=fp32 -o "$onnx_demo.art"
opsnn_py run "$onnx_demo.art" --random-inputs --check-onnxruntime "$OPSNN_ROOT/examples/small_cnn.onnx"
opsnn_py report "$OPSNN_ROOT/examples/small_cnn.onnx" --target=a100 --summary

if [ -x /usr/local/cuda/bin/ptxas ]; then
  log "ResNet block lowered for the GPU; kernels assembled with ptxas"
  "$opt" "$block" --opsnn-lower-to-nvvm="chip=sm_80 format=ptx" |
    python3 "$OPSNN_ROOT/scripts/ptxas_check.py" --arch sm_80 --arch sm_90
fi
