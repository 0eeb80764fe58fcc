#!/usr/bin/env bash
# The one prepared script for a lent GPU machine (see issue notes): sets up
# and builds like scripts/test.sh, then in one short call
#  1. runs the GPU lit tests (ptxas for sm_80/sm_90, and every executed GPU
#     test against NumPy: test/GPU/execute.test, REQUIRES: cuda-device);
#  2. times the ResNet block (1x64x56x56, f32) on the CPU and on the GPU,
#     as written (NCHW) and after ALTE for the H200, side by side, with the
#     GPU/CPU ratios;
#  3. runs the tensor-core GEMM (2048x2048x1024 f16 -> f32) with and
#     without tensor-cores=true, checked against NumPy, with times;
#  4. runs the zoo's tiny transformers as imported from ONNX
#     (bench/gpu/zoo_transformers.py: bert_tiny, vit_tiny, and one
#     BERT-base layer at batch 8), generic vs
#     tensor-core (TF32) pipeline vs mixed FP16, the latter also with the
#     Q/K/V projections unfused and with the softmax apart from the
#     scores' kernel, checked against onnxruntime, with kernel
#     and call times (without a GPU: the tensor-core variant's algorithms
#     emulated on the CPU for the check); on Hopper also mixed FP16
#     against calibrated FP8 (sm_90 PTX);
#  5. runs the benchmark cases (bench/gpu/cases.py: ResNet-50 stage convs,
#     BERT-base GEMMs, fused cases; each checked against NumPy, then timed,
#     against the h200 roofline floor and PyTorch's cuBLAS/cuDNN when a
#     PyTorch with CUDA is installed), within a time budget (--case-budget
#     seconds, default 150; the cases not reached are listed, not run);
#     without a GPU it runs them with --dry-run (lowered, ptxas, checked on
#     the CPU, not timed);
#  6. on Hopper (compute capability 9.0; or in a dry run) runs the FP16
#     conv/GEMM cases twice, chip sm_90 (mma.sync) and sm_90a (the
#     warpgroup kernel: wgmma), and prints them side by side
#     (bench/gpu/compare_runs.py; GPU tests: tensor-core-warpgroup-
#     execute.test);
#  7. prints ptxas -v figures for the kernels (bench/gpu/ptx_report.sh).
# Without a GPU (here, CI) the executed tests are unsupported and the cuda
# rows say "failed"; the rest still runs.
# Output is plain text; with $OUT set, a copy goes to $OUT/gpu-run.txt and
# the cases' JSON to $OUT/gpu.json (else build/bench/gpu/gpu.json), the
# input of `python -m opsnn.bench --gpu-json`.
#
# Usage: bench/gpu/run.sh [--repeat N] [--case-budget S]
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/setup.sh"
repeat=20
case_budget=150
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --case-budget) case_budget="$2"; shift 2 ;;
    *) echo "usage: $0 [--repeat N] [--case-budget S]" >&2; exit 2 ;;
  esac
done

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
  printf '%-28s %12s %12s\n' "variant" "call ms" "kernel ms"
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
try:
    d = json.load(sys.stdin); k = d.get("kernel_time_ms")
    print("%12.3f %12s" % (d["time_ms"]["median"], "%.3f" % k["median"] if k else "-"))
except Exception as e: print("%12s" % "failed")') || true
    printf '%-28s %s\n' "$variant" "${ms:-failed}"
  done

  log "tensor-core GEMM 2048x2048x1024 f16->f32 on the GPU: generic vs tensor-cores=true, vs NumPy"
  local gdir="$OPSNN_BUILD_DIR/bench/gpu/gemm"; mkdir -p "$gdir"
  python3 -c 'import numpy as np,sys; r=np.random.default_rng(0); a=r.uniform(-1,1,(2048,1024)).astype(np.float16); b=r.uniform(-1,1,(1024,2048)).astype(np.float16); np.save(sys.argv[1]+"/a.npy",a); np.save(sys.argv[1]+"/b.npy",b); np.save(sys.argv[1]+"/ref.npy",a.astype(np.float32)@b.astype(np.float32))' "$gdir"
  for tc in false true; do
    "$run" "$OPSNN_ROOT/test/GPU/tensor-core-matmul.mlir" --entry=gemm_large --device=cuda \
      --input="$gdir/a.npy" --input="$gdir/b.npy" --output-dir="$gdir/tc-$tc" \
      --pipeline="opsnn-lower-to-nvvm{chip=sm_80 format=ptx tensor-cores=$tc}" \
      --repeat="$repeat" --warmup=3 --json >"$gdir/tc-$tc.json" 2>&1 || true
    python3 -c 'import json,sys,numpy as np; d=sys.argv[1]
try: j=json.load(open(d+".json")); ms=j["kernel_time_ms"]["median"]; o=np.load(d+"/out0.npy"); r=np.load(sys.argv[2]); print("tensor-cores=%-5s kernels %9.3f ms %7.1f TFLOP/s (call %.3f ms)  rel L2 vs NumPy %.2e" % (sys.argv[3], ms, 2*2048*2048*1024/ms/1e9, j["time_ms"]["median"], np.linalg.norm(o-r)/np.linalg.norm(r)))
except Exception as e: print("tensor-cores=%s failed: %s" % (sys.argv[3], e))' "$gdir/tc-$tc" "$gdir/ref.npy" "$tc"
  done

  local zoo_mode=(--dry-run)
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then zoo_mode=(); fi
  log "zoo transformers from ONNX: generic vs tensor-core pipeline, Q/K/V fused vs not (${zoo_mode[*]:-on the GPU})"
  python3 "$OPSNN_ROOT/bench/gpu/zoo_transformers.py" "${zoo_mode[@]}" --repeat "$repeat" \
    --variants generic,tensor-cores,mixed-fp16,mixed-fp16-unfused,mixed-fp16-softmax-apart || true
  # On Hopper, or in a dry run: mixed FP16 against calibrated FP8, each
  # with sm_90 PTX (mma.sync; FP8's .e4m3 runs at the FP16 rate there,
  # after unpacking: the gain is in bytes, not FLOPs) and with sm_90a PTX
  # (wgmma: FP8 at Hopper's FP8 rate; needs compute capability 9.0).
  local cap
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
  if [ -z "${zoo_mode[*]}" ] && ! awk -v c="${cap:-0}" 'BEGIN { exit !(c >= 9.0) }'; then
    echo "zoo h100-mixed-fp16/h100-fp8: skipped (compute capability ${cap:-unknown} < 9.0)"
  else
    python3 "$OPSNN_ROOT/bench/gpu/zoo_transformers.py" "${zoo_mode[@]}" --repeat "$repeat" \
      --models bert_tiny,vit_tiny,bert_layer --variants h100-mixed-fp16,h100-wgmma-fp16,h100-fp8,h100-wgmma-fp8 || true
  fi

  local gpu_json="${OUT:+$OUT/gpu.json}"
  gpu_json="${gpu_json:-$OPSNN_BUILD_DIR/bench/gpu/gpu.json}"
  local mode=(--dry-run)
  if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then mode=(); fi
  log "benchmark cases (bench/gpu/cases.py ${mode[*]:-on the GPU}; budget ${case_budget} s) -> $gpu_json"
  python3 "$OPSNN_ROOT/bench/gpu/cases.py" "${mode[@]}" --json "$gpu_json" \
    --repeat 10 --warmup 2 --time-budget "$case_budget" || true

  # Hopper (or a dry run): the warpgroup kernel (wgmma, chip sm_90a)
  # against mma.sync (sm_90) on the FP16 (and two FP8, two INT8) convolutions and GEMMs, side by
  # side (ratio > 1: wgmma faster). No PyTorch here: the main run has it.
  if [ -n "${mode[*]}" ] || awk -v c="${cap:-0}" 'BEGIN { exit !(c == 9.0) }'; then
    log "warpgroup kernel (wgmma, sm_90a) vs mma.sync (sm_90), target h100 (${mode[*]:-on the GPU})"
    local wg_dir="$OPSNN_BUILD_DIR/bench/gpu/wgmma"; mkdir -p "$wg_dir"
    local wg_cases=r50_s2_3x3,r50_s3_3x3,r50_s4_3x3,r50_s5_3x3,r50_s2_1x1_expand,r50_s3_1x1_down_s2,r50_fc,bert_qkv,bert_attn_out,bert_ffn1,bert_ffn2,bert_attn_context,bert_ffn1_bias_gelu,r50_s3_3x3_bias_relu,bert_ffn1_fp8_nk,r50_s3_3x3_fp8,bert_ffn1_int8_nk,r50_s3_3x3_int8,bert_attn_scores_softmax,bert_attn_scores_softmax_s256
    for chip in sm_90 sm_90a; do
      python3 "$OPSNN_ROOT/bench/gpu/cases.py" "${mode[@]}" --target h100 --chip "$chip" \
        --cases "$wg_cases" --no-torch --cpu-check-gflop 0 --repeat 10 --warmup 2 \
        --time-budget 60 --json "$wg_dir/$chip.json" >"$wg_dir/$chip.txt" 2>&1 || true
    done
    python3 "$OPSNN_ROOT/bench/gpu/compare_runs.py" "$wg_dir/sm_90.json" "$wg_dir/sm_90a.json" || true
    # The warpgroup kernel waiting for each step's wgmma group before its
    # copies, against the default (a group in flight): ratio > 1, the
    # group in flight is faster.
    log "wgmma: each step's group waited for vs left in flight (sm_90a)"
    python3 "$OPSNN_ROOT/bench/gpu/cases.py" "${mode[@]}" --target h100 --chip sm_90a \
      --pipeline-options tensor-core-wgmma-group-in-flight=false \
      --cases r50_s3_3x3,bert_ffn1,bert_ffn2,bert_ffn1_fp8_nk,bert_ffn1_int8_nk,r50_s3_3x3_int8 \
      --no-torch --cpu-check-gflop 0 --repeat 10 --warmup 2 --time-budget 40 \
      --json "$wg_dir/sm_90a_wait.json" >"$wg_dir/sm_90a_wait.txt" 2>&1 || true
    python3 "$OPSNN_ROOT/bench/gpu/compare_runs.py" "$wg_dir/sm_90a_wait.json" "$wg_dir/sm_90a.json" || true
    if [ -n "${OUT:-}" ]; then cp "$wg_dir"/sm_90*.json "$OUT/" 2>/dev/null || true; fi
  else
    echo "wgmma vs mma.sync: skipped (compute capability ${cap:-unknown} is not 9.0)"
  fi

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
