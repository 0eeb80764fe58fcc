#!/usr/bin/env bash
# The real-size model zoo, end to end on the CPU: ResNet-50, MobileNetV2 and
# ViT-B/16 (torchvision constructors, random weights, exported by PyTorch),
# BERT-base, a 3-D U-Net and DLRM (onnx.helper), each imported by our
# importer, compiled by ops-nn-run, run, and compared with onnxruntime on the
# same random input (relative L2 <= 1e-4, FP32). Prints per model: import,
# compile and run times, onnxruntime's time and the error; exits non-zero
# when a model fails or misses the bound. Models are built once into
# .cache/zoo (git-ignored); nothing is downloaded.
#
# Usage: bench/zoo/run.sh [--batch=8] [--repeat=N] [--json=FILE] [MODEL ...]
#   models: resnet50 mobilenet_v2 vit_b_16 bert_base unet3d dlrm (default: all)
# Sets up and builds like scripts/demo.sh, plus Debian's python3-torch and
# python3-torchvision (install_zoo_packages). Expect minutes per model on a
# small machine (ViT-B/16 and BERT-base are the slowest to compile).
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"

opsnn_setup
install_zoo_packages

log "real-size zoo vs onnxruntime (CPU, FP32)"
cd "$OPSNN_ROOT"
PYTHONPATH="$OPSNN_ROOT/python${PYTHONPATH:+:$PYTHONPATH}" \
  python3 -m opsnn.zoo --size=full --check "$@"
