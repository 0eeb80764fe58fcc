"""Per-operator imports checked against onnxruntime (FP32, CPU)."""

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

import opsnn
from opsnn.cli import onnxruntime_outputs, rel_l2


def _model(nodes, inputs, outputs, inits=(), opset=17):
    g = h.make_graph(nodes, "t", [h.make_tensor_value_info(n, e, s) for n, e, s in inputs],
                     [h.make_tensor_value_info(n, e, s) for n, e, s in outputs],
                     [nh.from_array(a, n) for n, a in inits])
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    m = onnx.shape_inference.infer_shapes(m, strict_mode=True)  # fills output shapes
    onnx.checker.check_model(m)
    return m


def _check(tmp_path, model, inputs, tol=1e-5):
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    ours = opsnn.run(str(path), inputs)
    ref = onnxruntime_outputs(path, inputs)
    assert len(ours) == len(ref)
    for a, b in zip(ours, ref):
        assert a.shape == b.shape and a.dtype == b.dtype
        assert rel_l2(a, b) <= tol, rel_l2(a, b)


rng = np.random.default_rng(0)
F = T.FLOAT


def r(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def test_conv_grouped_strided_bias(tmp_path):
    m = _model([h.make_node("Conv", ["x", "w", "b"], ["y"], group=2, strides=[2, 1],
                            pads=[1, 0, 1, 2], dilations=[1, 2])],
               [("x", F, [2, 4, 9, 8])], [("y", F, None)], [("w", r(6, 2, 3, 3)), ("b", r(6))])
    _check(tmp_path, m, [r(2, 4, 9, 8)])


def test_conv3d_depthwise_and_autopad(tmp_path):
    m = _model([h.make_node("Conv", ["x", "w"], ["y"], group=3, auto_pad="SAME_UPPER",
                            strides=[2, 2, 2])],
               [("x", F, [1, 3, 5, 6, 7])], [("y", F, None)], [("w", r(3, 1, 3, 3, 3))])
    _check(tmp_path, m, [r(1, 3, 5, 6, 7)])


@pytest.mark.parametrize("nd", [1, 2])
def test_conv_depthwise_named_op(tmp_path, nd):
    """group = C_in = C_out: the named depthwise op (which ALTE can move to
    channels-last), strided and dilated, with a bias."""
    sp = [11, 9][:nd]
    m = _model([h.make_node("Conv", ["x", "w", "b"], ["y"], group=6, strides=[2] * nd,
                            dilations=[1, 2][:nd], pads=[1] * (2 * nd))],
               [("x", F, [2, 6, *sp])], [("y", F, None)],
               [("w", r(6, 1, *[3] * nd)), ("b", r(6))])
    from opsnn import api
    path = tmp_path / "m.onnx"
    onnx.save(m, str(path))
    mlir, _ = api._load_source(str(path))
    assert f"linalg.depthwise_conv_{nd}d_{'ncw_cw' if nd == 1 else 'nchw_chw'}" in mlir
    _check(tmp_path, m, [r(2, 6, *sp)])


def test_convtranspose_output_padding(tmp_path):
    m = _model([h.make_node("ConvTranspose", ["x", "w", "b"], ["y"], strides=[2, 2],
                            pads=[1, 1, 1, 1], output_padding=[1, 1], group=2)],
               [("x", F, [1, 4, 5, 5])], [("y", F, None)], [("w", r(4, 3, 3, 3)), ("b", r(6))])
    _check(tmp_path, m, [r(1, 4, 5, 5)])


def test_pools_ceil_and_count_include_pad(tmp_path):
    m = _model([h.make_node("MaxPool", ["x"], ["a"], kernel_shape=[3, 3], strides=[2, 2],
                            ceil_mode=1),
                h.make_node("AveragePool", ["x"], ["b"], kernel_shape=[3, 3], strides=[2, 2],
                            pads=[1, 1, 1, 1], count_include_pad=0),
                h.make_node("GlobalAveragePool", ["x"], ["c"])],
               [("x", F, [1, 2, 8, 9])], [("a", F, None), ("b", F, None), ("c", F, None)])
    _check(tmp_path, m, [r(1, 2, 8, 9)])


def test_matmul_broadcast_gemm_transposed(tmp_path):
    m = _model([h.make_node("MatMul", ["a", "b"], ["y"]),
                h.make_node("Gemm", ["c", "d", "e"], ["z"], transA=1, transB=1, alpha=0.5,
                            beta=2.0)],
               [("a", F, [2, 1, 3, 4]), ("b", F, [3, 4, 5]), ("c", F, [6, 3]), ("d", F, [4, 6])],
               [("y", F, None), ("z", F, None)], [("e", r(4))])
    _check(tmp_path, m, [r(2, 1, 3, 4), r(3, 4, 5), r(6, 3), r(4, 6)])


def test_layernorm_softmax_gelu(tmp_path):
    m = _model([h.make_node("LayerNormalization", ["x", "s", "b"], ["n"], axis=-1),
                h.make_node("Softmax", ["n"], ["p"], axis=1),
                h.make_node("Gelu", ["p"], ["y"], approximate="tanh")],
               [("x", F, [2, 3, 8])], [("y", F, None)], [("s", r(8)), ("b", r(8))], opset=20)
    _check(tmp_path, m, [r(2, 3, 8)])


def test_shape_folding_reshape_slice_gather_concat(tmp_path):
    m = _model([h.make_node("Shape", ["x"], ["s"]),
                h.make_node("Gather", ["s", "zero"], ["n"], axis=0),
                h.make_node("Unsqueeze", ["n", "zero1"], ["n1"]),
                h.make_node("Concat", ["n1", "minus1"], ["shape"], axis=0),
                h.make_node("Reshape", ["x", "shape"], ["f"]),
                h.make_node("Slice", ["f", "st", "en", "ax", "stp"], ["sl"]),
                h.make_node("Gather", ["sl", "idx"], ["g"], axis=1),
                h.make_node("Transpose", ["g"], ["y"], perm=[2, 0, 1])],
               [("x", F, [2, 3, 4])], [("y", F, None)],
               [("zero", np.array(0, np.int64)), ("zero1", np.array([0], np.int64)),
                ("minus1", np.array([-1], np.int64)), ("st", np.array([10], np.int64)),
                ("en", np.array([0], np.int64)), ("ax", np.array([1], np.int64)),
                ("stp", np.array([-3], np.int64)), ("idx", np.array([[0, 2], [1, -1]], np.int64))])
    _check(tmp_path, m, [r(2, 3, 4)])


def test_resize_linear_and_nearest(tmp_path):
    m = _model([h.make_node("Resize", ["x", "", "sc"], ["a"], mode="linear"),
                h.make_node("Resize", ["x", "", "", "sz"], ["b"], mode="nearest",
                            coordinate_transformation_mode="asymmetric", nearest_mode="floor")],
               [("x", F, [1, 2, 4, 5])], [("a", F, None), ("b", F, None)],
               [("sc", np.array([1, 1, 2, 1.5], np.float32)), ("sz", np.array([1, 2, 7, 3], np.int64))])
    _check(tmp_path, m, [r(1, 2, 4, 5)])


def test_quantize_dequantize_per_axis(tmp_path):
    m = _model([h.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1),
                h.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1)],
               [("x", F, [2, 3, 4])], [("q", T.UINT8, None), ("y", F, None)],
               [("s", np.array([0.02, 0.05, 0.1], np.float32)),
                ("z", np.array([128, 100, 0], np.uint8))])
    _check(tmp_path, m, [r(2, 3, 4)], tol=0)


def test_elementwise_broadcast_where_cast(tmp_path):
    m = _model([h.make_node("Sub", ["a", "b"], ["d"]),
                h.make_node("Pow", ["d", "two"], ["p"]),
                h.make_node("Sqrt", ["p"], ["s"]),
                h.make_node("Greater", ["a", "b"], ["gt"]),
                h.make_node("Where", ["gt", "s", "a"], ["w"]),
                h.make_node("Sigmoid", ["w"], ["sg"]),
                h.make_node("Tanh", ["sg"], ["t"]),
                h.make_node("Cast", ["gt"], ["c"], to=T.INT32),
                h.make_node("ReduceMean", ["t"], ["y"], axes=[1], keepdims=0)],
               [("a", F, [2, 3, 4]), ("b", F, [3, 1])], [("y", F, None), ("c", T.INT32, None),
                                                         ("gt", T.BOOL, None)],
               [("two", np.array(2.0, np.float32))], opset=17)
    _check(tmp_path, m, [r(2, 3, 4), r(3, 1)])


def test_unsupported_operator_names_node(tmp_path):
    m = _model([h.make_node("Relu", ["x"], ["r"], name="first"),
                h.make_node("Hardmax", ["r"], ["y"], name="the_hardmax")],
               [("x", F, [2, 3])], [("y", F, None)])
    with pytest.raises(opsnn.UnsupportedOperator, match=r"Hardmax.*the_hardmax"):
        opsnn.import_onnx(m)


def test_dynamic_dimension_needs_a_shape():
    m = _model([h.make_node("Relu", ["x"], ["y"])], [("x", F, ["batch", 3])], [("y", F, None)])
    with pytest.raises(opsnn.InvalidModel, match="dynamic dimension 'batch'"):
        opsnn.import_onnx(m)
    imported = opsnn.import_onnx(m, input_shapes={"x": [5, 3]})
    assert imported.input_shapes == [[5, 3]]
