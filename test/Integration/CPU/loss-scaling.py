#!/usr/bin/env python3
"""Executed test of --opsnn-loss-scaling: a scripted training loop.

Applies the pass to the backward function of loss-scaling.mlir with
ops-nn-opt, compiles the result once into an artifact with ops-nn-run
--emit-artifact, then runs the artifact step after step, feeding each step's
new loss scale and growth tracker to the next one, as a training loop does
with GradScaler. Some steps are made non-finite: the scaled f16 gradients
overflow while the scale is too large, and some inputs hold inf or NaN.

Checked at every step:
  - (new scale, new tracker, found_non_finite) equal, bit for bit, those of
    the reference below;
  - on finite steps, the unscaled gradients equal the gradients computed
    without scaling (float64) within f16 / f32 rounding;
  - on non-finite steps, some gradient is inf or NaN (the caller must skip
    the optimizer step, as GradScaler.step() does).

The reference is a transcription of PyTorch's GradScaler, because Debian's
CPU build of torch 1.13 has no CPU kernels for torch._amp_update_scale_ and
torch._amp_foreach_non_finite_check_and_unscale_ (CUDA only before torch
2.x's CPU GradScaler). Semantics transcribed from torch/cuda/amp/
grad_scaler.py (1.13; torch/amp/grad_scaler.py in later releases) and the
kernels it calls (aten/src/ATen/native/cuda/AmpKernels.cu):
  unscale_: inv_scale = scale.double().reciprocal().float(); every gradient
            element: found_inf |= !isfinite(g); g = (g in f32) * inv_scale,
            rounded to g's dtype;
  update:   found_inf: scale = float(scale * backoff_factor (double));
                       tracker = 0
            else:      successful = tracker + 1
                       if successful == growth_interval:
                           new = float(scale * growth_factor (double))
                           if isfinite(new): scale = new
                           tracker = 0
                       else: tracker = successful
"""

import argparse
import os
import subprocess
import sys

import numpy as np


def gradscaler_update(scale, tracker, found_inf, growth_factor, backoff_factor,
                      growth_interval):
    """torch._amp_update_scale_ (AmpKernels.cu), one step, on f32/i32."""
    scale = np.float32(scale)
    if found_inf:
        return np.float32(np.float64(scale) * backoff_factor), np.int32(0)
    successful = int(tracker) + 1
    if successful == growth_interval:
        grown = np.float32(np.float64(scale) * growth_factor)
        return (grown if np.isfinite(grown) else scale), np.int32(0)
    return scale, np.int32(successful)


def scaled_gradients(x, w, scale):
    """What the graph computes from the scaled seed (the scaling happens in f32
    and dL/dy is stored in f16 before the matmuls), in float64 on values that
    are exact in f32, so the f16 overflow pattern is the graph's exactly."""
    n = x.shape[0]
    dy = np.full((n, 4), np.float32(1.0) * np.float32(scale), np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        dyh = dy.astype(np.float16).astype(np.float64)
        dw = (x.astype(np.float64).T @ dyh).astype(np.float32).astype(np.float16)
        db = dy.astype(np.float64).sum(axis=0).astype(np.float32)
        dx = (dyh @ w.astype(np.float64).T).astype(np.float32).astype(np.float16)
    return [dw, db, dx]


def true_gradients(x, w):
    """The gradients of loss = sum(x @ w + b) without scaling, in float64."""
    n = x.shape[0]
    dy = np.ones((n, 4))
    return [x.astype(np.float64).T @ dy, dy.sum(axis=0),
            dy @ w.astype(np.float64).T]


def script(rng):
    """The inputs of each step: (name, x, w)."""
    w = (rng.uniform(0.25, 1.25, (8, 4)) * rng.choice([-1, 1], (8, 4)))
    w = w.astype(np.float16)
    steps = []

    def x_of(n, magnitude):
        x = rng.uniform(0.25, 1.25, (n, 8)) * rng.choice([-1, 1], (n, 8))
        return (x * magnitude).astype(np.float16)

    # Ordinary steps: with the scale too large the f16 gradients overflow and
    # the scale backs off; then it grows every growth-interval finite steps.
    for i in range(12):
        steps.append(("normal", x_of(3 + i % 3, 1.0), w))
    for i in range(3):
        x = x_of(4, 1.0)
        x[1, 2] = np.inf
        steps.append(("inf input", x, w))
        steps.append(("normal", x_of(2, 1.0), w))
    x = x_of(3, 1.0)
    x[0, 5] = np.nan
    steps.append(("nan input", x, w))
    # Small activations: the gradients fit at larger scales, so the scale
    # grows several times in a row, until dL/dy itself overflows f16.
    for i in range(20):
        steps.append(("small", x_of(5, 1.0 / 64), w))
    x = x_of(2, 1.0 / 64)
    x[1, 0] = -np.inf
    steps.append(("inf input", x, w))
    for i in range(4):
        steps.append(("normal", x_of(3, 1.0), w))
    return steps


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("loss-scaling.py: %s failed (%d):\n%s%s" % (
            command[0], result.returncode, result.stdout, result.stderr))
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mlir")
    parser.add_argument("--ops-nn-run", required=True)
    parser.add_argument("--ops-nn-opt",
                        help="default: next to --ops-nn-run")
    parser.add_argument("--work-dir", required=True)
    parser.add_argument("--init-scale", type=float, default=65536.0)
    parser.add_argument("--growth-factor", type=float, default=2.0)
    parser.add_argument("--backoff-factor", type=float, default=0.5)
    parser.add_argument("--growth-interval", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    opt = args.ops_nn_opt or os.path.join(os.path.dirname(args.ops_nn_run),
                                          "ops-nn-opt")
    os.makedirs(args.work_dir, exist_ok=True)

    # The pass changes the signature, so it runs before ops-nn-run (which
    # reads the entry's signature before its --pipeline).
    scaled = os.path.join(args.work_dir, "scaled.mlir")
    run([opt, args.mlir, "-o", scaled,
         "--opsnn-loss-scaling=init-scale=%r growth-factor=%r "
         "backoff-factor=%r growth-interval=%d" % (
             args.init_scale, args.growth_factor, args.backoff_factor,
             args.growth_interval)])
    artifact = os.path.join(args.work_dir, "artifact")
    run([args.ops_nn_run, scaled, "--entry=linear_backward",
         "--emit-artifact=" + artifact])

    rng = np.random.default_rng(args.seed)
    scale, tracker = np.float32(args.init_scale), np.int32(0)
    ref_scale, ref_tracker = scale, tracker
    counts = {"non-finite": 0, "grown": 0, "backed off": 0}
    failures = []
    print("step  input      scale        tracker  found  ->  new scale    tracker")
    for step, (name, x, w) in enumerate(script(rng)):
        d = os.path.join(args.work_dir, "step%02d" % step)
        os.makedirs(d, exist_ok=True)
        inputs = {"x": x, "w": w, "seed": np.array(1.0, np.float32),
                  "scale": np.array(scale, np.float32),
                  "tracker": np.array(tracker, np.int32)}
        command = [args.ops_nn_run, artifact, "--output-dir", d]
        for key, value in inputs.items():
            path = os.path.join(d, key + ".npy")
            np.save(path, value)
            command.append("--input=" + path)
        run(command)
        outs = [np.load(os.path.join(d, "out%d.npy" % i)) for i in range(6)]
        grads, new_scale, new_tracker, found = outs[:3], outs[3], outs[4], outs[5]
        if found.dtype != np.bool_ or found.shape != ():
            sys.exit("found_non_finite is %s %s, expected a 0-d bool" % (
                found.dtype, found.shape))

        # The reference step, from the reference state.
        scaled_grads = scaled_gradients(x, w, ref_scale)
        ref_found = not all(np.isfinite(g).all() for g in scaled_grads)
        ref_scale_next, ref_tracker_next = gradscaler_update(
            ref_scale, ref_tracker, ref_found, args.growth_factor,
            args.backoff_factor, args.growth_interval)

        print("%4d  %-9s  %-11.9g  %7d  %5s  ->  %-11.9g  %7d" % (
            step, name, scale, tracker, bool(found), new_scale, new_tracker))
        if (bool(found) != ref_found or
                new_scale.tobytes() != np.float32(ref_scale_next).tobytes() or
                int(new_tracker) != int(ref_tracker_next)):
            failures.append("step %d: got (%r, %d, %s), GradScaler gives "
                            "(%r, %d, %s)" % (
                                step, float(new_scale), int(new_tracker),
                                bool(found), float(ref_scale_next),
                                int(ref_tracker_next), ref_found))
        if found:
            counts["non-finite"] += 1
            if not any((~np.isfinite(g.astype(np.float64))).any() for g in grads):
                failures.append("step %d: flagged non-finite but every "
                                "gradient is finite" % step)
        else:
            # Unscaled gradients: the unscaled truth within the rounding of
            # their type (f16: 2^-11 relative, plus the rounding of the
            # scaled value; f32: exact sums here).
            for i, (got, want, tol) in enumerate(zip(
                    grads, true_gradients(x, w), [2e-3, 1e-6, 2e-3])):
                got = got.astype(np.float64)
                err = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
                if not err <= tol:
                    failures.append("step %d: gradient %d off by %.3g "
                                    "(relative to its max, tolerance %g)" % (
                                        step, i, err, tol))
        if new_scale > scale:
            counts["grown"] += 1
        if new_scale < scale:
            counts["backed off"] += 1

        # Feed the state back, as a training loop does.
        scale, tracker = np.float32(new_scale), np.int32(new_tracker)
        ref_scale, ref_tracker = ref_scale_next, ref_tracker_next

    print("steps: %d, non-finite: %d, grown: %d, backed off: %d" % (
        step + 1, counts["non-finite"], counts["grown"], counts["backed off"]))
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        return 1
    print("OK: scale, tracker and found_non_finite match GradScaler at every "
          "step; finite steps' unscaled gradients match the unscaled "
          "reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
