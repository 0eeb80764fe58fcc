"""ONNX backend node tests for the operators we claim.

    python -m opsnn.conformance [-j 2] [-k FILTER] [-v]

Runs every test of `onnx/backend/test/data/node` (shipped inside the `onnx`
package) whose graph uses only operators in `SUPPORTED_OPS`: imports the
model (graph inputs that must be static, such as Reshape's shape, are bound
as constants from the test's own input files), compiles and runs it on the
CPU with `ops-nn-run`, and compares every output with the shipped reference
(NumPy allclose, rtol 1e-3, atol 1e-7 as onnx's backend test runner does).

Tests are skipped for exactly two reasons, both listed at the end: the graph
uses an operator we do not claim, or the test is a variant of a claimed
operator that we do not claim (`UNCLAIMED_VARIANTS`, each with its reason).
Prints `N passed, N failed, N skipped`; exits 1 when any test fails.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

# Variants of claimed operators that we do not claim, by test name prefix.
UNCLAIMED_VARIANTS = {
    "test_cast_BFLOAT16": "bfloat16 tensors (no NumPy dtype in and out)",
    "test_cast_FLOAT_to_BFLOAT16": "bfloat16 tensors",
    "test_cast_FLOAT8": "FP8 tensors",
    "test_cast_FLOAT16_to_FLOAT8": "FP8 tensors",
    "test_cast_FLOAT_to_FLOAT8": "FP8 tensors",
    "test_cast_no_saturate": "FP8 tensors",
    "test_cast_FLOAT16_to_INT4": "4-bit integers",
    "test_cast_FLOAT16_to_UINT4": "4-bit integers",
    "test_cast_FLOAT_to_INT4": "4-bit integers",
    "test_cast_FLOAT_to_UINT4": "4-bit integers",
    "test_cast_INT4": "4-bit integers",
    "test_cast_UINT4": "4-bit integers",
    "test_cast_FLOAT_to_STRING": "strings",
    "test_cast_STRING": "strings",
    "test_dequantizelinear_blocked": "blocked quantization",
    "test_dequantizelinear_e4m3fn": "FP8 quantization",
    "test_dequantizelinear_e5m2": "FP8 quantization",
    "test_dequantizelinear_int16": "16-bit quantization",
    "test_dequantizelinear_uint16": "16-bit quantization",
    "test_dequantizelinear_int4": "4-bit quantization",
    "test_dequantizelinear_uint4": "4-bit quantization",
    "test_quantizelinear_blocked": "blocked quantization",
    "test_quantizelinear_e4m3fn": "FP8 quantization",
    "test_quantizelinear_e5m2": "FP8 quantization",
    "test_quantizelinear_int16": "16-bit quantization",
    "test_quantizelinear_uint16": "16-bit quantization",
    "test_quantizelinear_int4": "4-bit quantization",
    "test_quantizelinear_uint4": "4-bit quantization",
    "test_batchnorm_epsilon_training_mode": "training mode (running statistics)",
    "test_batchnorm_example_training_mode": "training mode (running statistics)",
    "test_maxpool_with_argmax": "the Indices output",
    "test_resize_tf_crop_and_resize": "coordinate_transformation_mode=tf_crop_and_resize",
    "test_resize_downsample_sizes_nearest_not_": "keep_aspect_ratio_policy not_larger/not_smaller",
    "test_resize_upsample_sizes_nearest_not_": "keep_aspect_ratio_policy not_larger/not_smaller",
    "test_pow_types_int": "integer base (float ** float only)",
    "test_pow_types_float32_int": "integer exponent (float ** float only)",
    "test_pow_types_float32_uint": "integer exponent (float ** float only)",
    "test_reduce_sum_empty_set": "empty tensors",
    "test_reduce_sum_square_empty_set": "empty tensors",
    "test_slice_start_out_of_bounds": "empty tensors",
    "test_constantofshape_int_shape_zero": "empty tensors",
    "test_reshape_allowzero_reordered": "empty tensors",
    "test_reduce_l1_empty_set": "empty tensors",
    "test_reduce_log_sum_empty_set": "empty tensors",
    "test_reduce_max_empty_set": "empty tensors",
    "test_reduce_max_bool_inputs": "boolean ReduceMax",
    "test_training_dropout": "training mode (random masks)",
}


def node_test_dir() -> Path:
    import onnx
    return Path(onnx.__file__).parent / "backend" / "test" / "data" / "node"


def _unclaimed_variant(name: str):
    for prefix, reason in UNCLAIMED_VARIANTS.items():
        if name.startswith(prefix):
            return prefix, reason
    return None


def _load_pb(path):
    import onnx
    from onnx import numpy_helper
    t = onnx.TensorProto()
    t.ParseFromString(Path(path).read_bytes())
    return numpy_helper.to_array(t)


def classify(test: Path, supported):
    """('run', None) | ('skip-op', [ops]) | ('skip-variant', reason)."""
    import onnx
    model = onnx.load(str(test / "model.onnx"))
    ops = {n.op_type if n.domain in ("", "ai.onnx") else f"{n.domain}.{n.op_type}"
           for n in model.graph.node}
    missing = sorted(ops - set(supported))
    if missing:
        return "skip-op", missing
    from .onnx_import import _ONNX_TO_NUMPY
    for vi in list(model.graph.input) + list(model.graph.output):
        tt = vi.type.tensor_type if vi.type.HasField("tensor_type") else None
        if tt is None:
            return "skip-variant", ("non-tensor inputs/outputs", "sequences, optionals, maps")
        if tt.elem_type not in _ONNX_TO_NUMPY:
            name = onnx.TensorProto.DataType.Name(tt.elem_type)
            return "skip-variant", (f"element type {name}", "no such tensors in and out")
    variant = _unclaimed_variant(test.name)
    if variant:
        return "skip-variant", variant
    return "run", model


def run_case(test: Path, model):
    """Returns None when it passes, else a one-paragraph reason."""
    from . import api
    from .onnx_import import STATIC_INPUTS, import_onnx
    graph = model.graph
    inits = {t.name for t in graph.initializer}
    graph_inputs = [i.name for i in graph.input if i.name not in inits]
    static_names = set()
    for node in graph.node:
        for pos in STATIC_INPUTS.get(node.op_type, ()):
            if pos < len(node.input) and node.input[pos] in graph_inputs:
                static_names.add(node.input[pos])
    sets = sorted(p for p in test.iterdir() if p.name.startswith("test_data_set_"))
    if not sets:
        return "no test data"
    with tempfile.TemporaryDirectory(prefix="opsnn-conf-") as tmp:
        for ds in sets:
            inputs = [_load_pb(ds / f"input_{i}.pb") for i in range(len(graph_inputs))]
            expected = [_load_pb(ds / f"output_{i}.pb") for i in range(len(graph.output))]
            bound = {n: a for n, a in zip(graph_inputs, inputs) if n in static_names}
            try:
                imported = import_onnx(model, constant_inputs=bound)
            except Exception as error:
                return f"import: {type(error).__name__}: {error}"
            src = Path(tmp) / "model.mlir"
            src.write_text(imported.mlir)
            meta = {"inputs": [{"name": n, "dtype": d, "shape": s} for n, d, s in zip(
                        imported.input_names, imported.input_dtypes, imported.input_shapes)],
                    "outputs": [{"name": n, "dtype": d} for n, d in zip(
                        imported.output_names, imported.output_dtypes)]}
            feeds = [a for n, a in zip(graph_inputs, inputs) if n not in static_names]
            try:
                outputs = api._run_with_tool(str(src), feeds, meta, timeout=120)
            except Exception as error:
                return f"run: {str(error).strip()[:2000]}"
            for k, (got, want) in enumerate(zip(outputs, expected)):
                if got.shape != want.shape:
                    return f"output {k}: shape {got.shape}, expected {want.shape}"
                if got.dtype != want.dtype:
                    return f"output {k}: dtype {got.dtype}, expected {want.dtype}"
                if want.dtype.kind in "fc":
                    rtol, atol = (1e-3, 1e-7) if want.dtype != np.float16 else (1e-3, 1e-3)
                    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
                        err = np.abs(got.astype(np.float64) - want.astype(np.float64))
                        return (f"output {k}: max abs error {np.nanmax(err):.3g} "
                                f"(rtol {rtol}, atol {atol})")
                elif not np.array_equal(got, want):
                    return f"output {k}: values differ ({int((got != want).sum())} elements)"
    return None


def main(argv=None) -> int:
    from .onnx_import import SUPPORTED_OPS
    p = argparse.ArgumentParser(prog="python -m opsnn.conformance", description=__doc__.split("\n\n")[0])
    p.add_argument("-j", "--jobs", type=int, default=2)
    p.add_argument("-k", "--filter", default="", help="only tests whose name contains this")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(argv)
    os.environ.setdefault("OPSNN_QUIET", "1")
    start = time.time()
    tests = sorted(d for d in node_test_dir().iterdir()
                   if d.is_dir() and args.filter in d.name)
    to_run, skipped_ops, skipped_variants = [], Counter(), {}
    for t in tests:
        kind, info = classify(t, SUPPORTED_OPS)
        if kind == "run":
            to_run.append((t, info))
        elif kind == "skip-op":
            for op in info:
                skipped_ops[op] += 1
        else:
            skipped_variants.setdefault(info, []).append(t.name)
    print(f"ONNX node tests in {node_test_dir()}: {len(tests)}; claimed operators "
          f"({len(SUPPORTED_OPS)}): {' '.join(SUPPORTED_OPS)}")
    print(f"running {len(to_run)} with {args.jobs} worker(s)", flush=True)
    failures = []

    def one(item):
        t, model = item
        t0 = time.time()
        try:
            reason = run_case(t, model)
        except Exception as error:  # a broken case must not stop the run
            reason = f"{type(error).__name__}: {error}"
        return t.name, reason, time.time() - t0

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for name, reason, secs in pool.map(one, to_run):
            if reason is None:
                if args.verbose:
                    print(f"PASS {name} ({secs:.2f} s)", flush=True)
            else:
                failures.append(name)
                print(f"FAIL {name}: {reason}", flush=True)
    n_skip = len(tests) - len(to_run)
    print()
    print("skipped, variants of claimed operators we do not claim:")
    for (prefix, reason), names in sorted(skipped_variants.items()):
        print(f"  {prefix}* ({len(names)}): {reason}")
    print("skipped, operators we do not claim (tests using them):")
    print("  " + ", ".join(f"{op} ({n})" for op, n in sorted(skipped_ops.items())))
    passed = len(to_run) - len(failures)
    print(f"{passed} passed, {len(failures)} failed, {n_skip} skipped "
          f"({time.time() - start:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
