#!/usr/bin/env python3
"""The zoo's tiny transformers (bert_tiny, vit_tiny: imported from ONNX as
a user would) and one BERT-base layer (bert_layer: the zoo's bert_base
generator with one encoder layer, batch 8, sequence 128, hidden 768, 12
heads, its embeddings and pooler included; batch 1 in a dry run, where
the CPU emulation is slow) on the GPU, side by side: the generic GPU
pipeline, the tensor-core one (TF32: the models are FP32) and what a user
deploys, --opsnn-optimize="target=a100 precision=mixed-fp16" then the
tensor-core pipeline (mixed-fp16), each checked against onnxruntime on the
same random inputs and timed with ops-nn-run --repeat (kernel time by CUDA
events, and the whole call). Without a GPU (--dry-run, or no driver) it
lowers every variant, assembles nothing, and runs each variant's
algorithms on the CPU instead (emulate-gpu-loops: the generic kernels'
fused parallel loops; emulate-tensor-core-matmul, emulate-warp-reductions)
for the check.

Usage: bench/gpu/zoo_transformers.py [--repeat N] [--dry-run] [--models a,b]
                                    [--variants generic,tensor-cores,mixed-fp16,t4-mixed-fp16,
                                                mixed-fp16-unpadded,mixed-fp16-unfused,
                                                mixed-fp16-softmax-apart,h100-mixed-fp16,h100-fp8,
                                                h100-wgmma-fp16,h100-wgmma-fp8,h100-int8,
                                                h100-wgmma-int8]
Prints one line per model and variant: kernels (how many of them are
tensor-core kernels: PTX with mma.sync or wgmma; and how many of the others use
vector global accesses: ld/st.global.v2/.v4), rel. L2 vs onnxruntime, kernel
ms, call ms. OPSNN_BUILD_DIR picks the build whose tools run (default:
build/), e.g. to compare two builds side by side.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

MIXED = "opsnn-optimize{target=a100 precision=mixed-fp16},"
VARIANTS = {
    "generic": "opsnn-lower-to-nvvm{chip=sm_80 format=ptx}",
    "tensor-cores": "opsnn-lower-to-nvvm{chip=sm_80 format=ptx tensor-cores=true "
                    "tensor-core-tf32=true}",
    # What a user deploys: ALTE and mixed FP16 (--opsnn-optimize), then the
    # tensor-core pipeline (FP32 GEMMs the policy keeps stay FP32, not TF32).
    "mixed-fp16": MIXED + "opsnn-lower-to-nvvm{chip=sm_80 format=ptx tensor-cores=true}",
    # The same deployment on a T4 (sm_75: FP16 m16n8k8 tensor cores, no
    # cp.async); not among the default --variants.
    "t4-mixed-fp16": "opsnn-optimize{target=t4 precision=mixed-fp16},"
                     "opsnn-lower-to-nvvm{chip=sm_75 format=ptx tensor-cores=true}",
    # mixed-fp16 with the image convolution's 3 channels left unpadded (the
    # kernel's im2col element copies); not among the default --variants.
    "mixed-fp16-unpadded": MIXED + "opsnn-lower-to-nvvm{chip=sm_80 format=ptx "
                                   "tensor-cores=true tensor-core-pad-channels=false}",
    # mixed-fp16 with the Q, K and V projections as three GEMMs, each with
    # its bias epilogue (no --opsnn-fuse-sibling-contractions); not among
    # the default --variants.
    "mixed-fp16-unfused": MIXED + "opsnn-lower-to-nvvm{chip=sm_80 format=ptx "
                                  "tensor-cores=true tensor-core-fuse-siblings=false}",
    # mixed-fp16 with the softmax as kernels of its own after the scores'
    # (no softmax in the Q K^T epilogue); not among the default --variants.
    "mixed-fp16-softmax-apart": MIXED + "opsnn-lower-to-nvvm{chip=sm_80 format=ptx "
                                        "tensor-cores=true tensor-core-fuse-softmax=false}",
    # On an H100 (sm_90 PTX): mixed FP16, and post-training FP8 (E4M3FN
    # GEMMs and convolutions with constant weights, --opsnn-quantize through
    # --opsnn-optimize precision=fp8) on FP8 mma.sync; not among the default
    # --variants.
    "h100-mixed-fp16": "opsnn-optimize{target=h100 precision=mixed-fp16},"
                       "opsnn-lower-to-nvvm{chip=sm_90 format=ptx tensor-cores=true}",
    "h100-fp8": "opsnn-optimize{target=h100 precision=fp8 calibration=@RANGES@},"
                "opsnn-lower-to-nvvm{chip=sm_90 format=ptx tensor-cores=true}",
    # h100-mixed-fp16 with sm_90a PTX: the FP16 GEMMs and convolutions with
    # a K x N B on the warpgroup kernel (wgmma); not among the default
    # --variants.
    "h100-wgmma-fp16": "opsnn-optimize{target=h100 precision=mixed-fp16},"
                       "opsnn-lower-to-nvvm{chip=sm_90a format=ptx tensor-cores=true}",
    # h100-fp8 with sm_90a PTX: the FP8 GEMMs and convolutions (weights
    # stored N x K) on the warpgroup kernel (wgmma .e4m3, K-major B).
    "h100-wgmma-fp8": "opsnn-optimize{target=h100 precision=fp8 calibration=@RANGES@},"
                      "opsnn-lower-to-nvvm{chip=sm_90a format=ptx tensor-cores=true}",
    # Post-training INT8 (--opsnn-quantize type=int8: i8 x i8 -> i32
    # GEMMs and convolutions, weights stored N x K) on mma.sync (sm_90) and
    # on the warpgroup kernel (sm_90a: wgmma .s8); not among the default
    # --variants.
    "h100-int8": "opsnn-optimize{target=h100 precision=int8 calibration=@RANGES@},"
                 "opsnn-lower-to-nvvm{chip=sm_90 format=ptx tensor-cores=true}",
    "h100-wgmma-int8": "opsnn-optimize{target=h100 precision=int8 calibration=@RANGES@},"
                       "opsnn-lower-to-nvvm{chip=sm_90a format=ptx tensor-cores=true}",
}
# A variant's @RANGES@ is the model's calibration file: the activation
# ranges `ops-nn-run --collect-ranges` measured on the CPU on two random
# samples other than the checked one (seeds 1 and 2; the check uses 0).
RANGES = "@RANGES@"
# Without a GPU, the tensor-core variants' algorithms on the CPU.
EMULATED = {
    "generic": "opsnn-lower-to-cpu{emulate-gpu-loops}",
    "tensor-cores": "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                    "emulate-tensor-core-matmul=a100 emulate-tensor-core-tf32}",
    "mixed-fp16": MIXED + "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                          "emulate-tensor-core-matmul=a100}",
    "t4-mixed-fp16": "opsnn-optimize{target=t4 precision=mixed-fp16},"
                     "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                     "emulate-tensor-core-matmul=t4}",
    "mixed-fp16-unpadded": MIXED + "opsnn-lower-to-cpu{emulate-gpu-loops "
                                   "emulate-warp-reductions emulate-tensor-core-matmul=a100 "
                                   "emulate-tensor-core-pad-channels=false}",
    "mixed-fp16-unfused": MIXED + "opsnn-lower-to-cpu{emulate-gpu-loops "
                                  "emulate-warp-reductions emulate-tensor-core-matmul=a100 "
                                  "emulate-tensor-core-fuse-siblings=false}",
    "mixed-fp16-softmax-apart": MIXED + "opsnn-lower-to-cpu{emulate-gpu-loops "
                                        "emulate-warp-reductions "
                                        "emulate-tensor-core-matmul=a100 "
                                        "emulate-tensor-core-fuse-softmax=false}",
    "h100-mixed-fp16": "opsnn-optimize{target=h100 precision=mixed-fp16},"
                       "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                       "emulate-tensor-core-matmul=h100}",
    "h100-fp8": "opsnn-optimize{target=h100 precision=fp8 calibration=@RANGES@},"
                "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                "emulate-tensor-core-matmul=h100}",
    "h100-wgmma-fp16": "opsnn-optimize{target=h100 precision=mixed-fp16},"
                       "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                       "emulate-tensor-core-matmul=h100 "
                       "emulate-tensor-core-warpgroup-mma}",
    "h100-wgmma-fp8": "opsnn-optimize{target=h100 precision=fp8 calibration=@RANGES@},"
                      "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                      "emulate-tensor-core-matmul=h100 "
                      "emulate-tensor-core-warpgroup-mma}",
    "h100-int8": "opsnn-optimize{target=h100 precision=int8 calibration=@RANGES@},"
                 "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                 "emulate-tensor-core-matmul=h100}",
    "h100-wgmma-int8": "opsnn-optimize{target=h100 precision=int8 calibration=@RANGES@},"
                       "opsnn-lower-to-cpu{emulate-gpu-loops emulate-warp-reductions "
                       "emulate-tensor-core-matmul=h100 "
                       "emulate-tensor-core-warpgroup-mma}",
}


def calibrate(run, src, model, ranges, prefix):
    """Writes `ranges`: the activation ranges of `src` (on the CPU) over
    two random samples of `model`'s inputs, seeds 1 and 2."""
    from opsnn import zoo
    for seed in (1, 2):
        sample = []
        for i, a in enumerate(zoo.random_inputs(model, seed=seed)):
            np.save(f"{prefix}_cal{seed}_in{i}.npy", a)
            sample.append(f"--input={prefix}_cal{seed}_in{i}.npy")
        subprocess.run([run, src, *sample, f"--collect-ranges={ranges}",
                        *(["--append-ranges"] if seed == 2 else [])],
                       check=True, capture_output=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--models", default="bert_tiny,vit_tiny,bert_layer")
    p.add_argument("--variants", default="generic,tensor-cores,mixed-fp16",
                   help="comma-separated, of: " + ", ".join(VARIANTS))
    args = p.parse_args(argv)
    variants = args.variants.split(",")
    width = max(map(len, VARIANTS))  # the variant column
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        p.error(f"unknown variant(s) {', '.join(unknown)} (known: {', '.join(VARIANTS)})")
    import onnx
    from opsnn import api, zoo
    from opsnn.cli import onnxruntime_outputs, rel_l2
    build = Path(os.environ.get("OPSNN_BUILD_DIR", ROOT / "build"))
    run, opt = build / "bin" / "ops-nn-run", build / "bin" / "ops-nn-opt"
    with tempfile.TemporaryDirectory(prefix="opsnn-zoo-gpu-") as tmp:
        tmp = Path(tmp)
        for name in args.models.split(","):
            if name == "bert_layer":
                from opsnn import zoo_full
                path = tmp / "bert_layer.onnx"
                onnx.save(zoo_full.bert_base(batch=1 if args.dry_run else 8, layers=1,
                                             vocab=1000), str(path))
            else:
                path = zoo.build(name, tmp)
            inputs = zoo.random_inputs(onnx.load(str(path)))
            ref = onnxruntime_outputs(path, inputs)
            mlir, meta = api._load_source(str(path))
            src = tmp / f"{name}.mlir"
            src.write_text(mlir)
            in_args = []
            for i, a in enumerate(inputs):
                np.save(tmp / f"{name}_in{i}.npy", a)
                in_args.append(f"--input={tmp / f'{name}_in{i}.npy'}")
            ranges = tmp / f"{name}_ranges.json"
            if any(RANGES in VARIANTS[v] for v in variants):
                calibrate(run, src, onnx.load(str(path)), ranges, tmp / name)
            for variant in variants:
                pipeline = VARIANTS[variant].replace(RANGES, str(ranges))
                lowered = subprocess.run(
                    [opt, src, f"--pass-pipeline=builtin.module({pipeline})"],
                    capture_output=True, text=True)
                binaries = lowered.stdout.split("gpu.binary @")[1:]
                # Tensor-core kernels: mma.sync, or wgmma (sm_90a).
                mma = sum("mma.sync" in binary or "wgmma.mma_async" in binary
                          for binary in binaries)
                # Generic kernels (no mma.sync) with vector global accesses.
                wide = sum("mma.sync" not in binary and "wgmma" not in binary and
                           bool(re.search(r"(?:ld|st)\.global\.v[24]\.", binary))
                           for binary in binaries)
                wgmma = sum("wgmma.mma_async" in binary for binary in binaries)
                kernels = (f"{len(binaries):3d} kernels ({mma:2d} mma"
                           + (f" of which {wgmma} wgmma" if wgmma else "")
                           + f", {wide:2d} vec)")
                if lowered.returncode:
                    print(f"{name:10s} {variant:{width}s} lowering failed: {lowered.stderr[-300:]}")
                    continue
                out = tmp / f"{name}_{variant}"
                if args.dry_run:
                    if variant not in EMULATED:
                        print(f"{name:10s} {variant:{width}s} {kernels}")
                        continue
                    cmd = [run, src,
                           f"--pipeline={EMULATED[variant].replace(RANGES, str(ranges))}",
                           f"--output-dir={out}", "--json"]
                else:
                    cmd = [run, src, "--device=cuda", f"--pipeline={pipeline}",
                           f"--output-dir={out}", f"--repeat={args.repeat}", "--warmup=3",
                           "--json"]
                r = subprocess.run(cmd + in_args, capture_output=True, text=True)
                if r.returncode:
                    print(f"{name:10s} {variant:{width}s} {kernels}; run failed: "
                          f"{r.stderr.strip()[-300:]}")
                    continue
                summary = json.loads(r.stdout)
                err = max(rel_l2(np.load(o["path"]), b)
                          for o, b in zip(summary["outputs"], ref))
                k, t = summary.get("kernel_time_ms"), summary.get("time_ms")
                what = "(emulated on the CPU)" if args.dry_run else (
                    f"kernels {k['median']:.3f} ms, call {t['median']:.3f} ms" if k else "")
                print(f"{name:10s} {variant:{width}s} {kernels}; rel L2 vs "
                      f"onnxruntime {err:.1e}; {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
