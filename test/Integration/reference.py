"""NumPy references for the executed integration tests.

Every function takes and returns NumPy arrays in the layouts the linalg named
ops use; the convolution helpers follow linalg's own definitions (strides and
dilations per spatial dimension, no padding: callers pad explicitly).
"""

import numpy as np
import ml_dtypes

bf16 = ml_dtypes.bfloat16
f8e4m3fn = ml_dtypes.float8_e4m3fn
f8e5m2 = ml_dtypes.float8_e5m2


def quantize(x, dtype):
    """Rounds x to dtype (nearest, ties to even) and back to float32."""
    return np.asarray(x, np.float32).astype(dtype).astype(np.float32)


def round_tf32(x):
    """x (float32) rounded to TF32 (10 mantissa bits), to nearest with ties
    away from zero: cvt.rna.tf32.f32, which the tensor-core kernel applies
    to its operands before mma.sync .tf32 (NaNs pass unchanged)."""
    x = np.asarray(x, np.float32)
    bits = (x.view(np.uint32) + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
    return np.where(np.isnan(x), x, bits.view(np.float32))


def fp8_sweep(dtype):
    """float32 values that exercise rounding to the FP8 `dtype`: every
    representable value, every midpoint between neighbours (ties), values
    just off the midpoints, the subnormal range, overflow, signed zeros,
    infinities and NaN."""
    codes = np.arange(256, dtype=np.uint8).view(dtype).astype(np.float64)
    finite = np.unique(codes[np.isfinite(codes)])
    mids = (finite[:-1] + finite[1:]) / 2
    above = np.nextafter(mids.astype(np.float32), np.float32(np.inf))
    below = np.nextafter(mids.astype(np.float32), np.float32(-np.inf))
    big = float(ml_dtypes.finfo(dtype).max)
    extra = [0.0, -0.0, np.inf, -np.inf, np.nan, big * 1.0625, big * 1.2, 1e30,
             -1e30, 3e-38, -3e-38, 1e-45]
    values = np.concatenate([finite, mids, above, below, extra]).astype(np.float32)
    return np.resize(values, 1024)


def _windows(x_spatial_first, kernel, strides, dilations):
    """Yields (kernel index, strided view of the input) for each window tap.

    x_spatial_first: array [..spatial.., rest]; kernel: kernel sizes.
    """
    spatial = len(kernel)
    out = [
        (x_spatial_first.shape[d] - dilations[d] * (kernel[d] - 1) - 1) // strides[d] + 1
        for d in range(spatial)
    ]
    for tap in np.ndindex(*kernel):
        index = tuple(
            slice(tap[d] * dilations[d],
                  tap[d] * dilations[d] + strides[d] * (out[d] - 1) + 1,
                  strides[d])
            for d in range(spatial))
        yield tap, x_spatial_first[index]


def conv_nc(x, w, strides=None, dilations=None, acc=np.float64):
    """N C spatial... input, F C kernel... filter -> N F out... (NCHW/NCDHW)."""
    spatial = x.ndim - 2
    strides = strides or [1] * spatial
    dilations = dilations or [1] * spatial
    xs = np.moveaxis(x.astype(acc), [0, 1], [-2, -1])  # spatial..., N, C
    result = None
    for tap, view in _windows(xs, w.shape[2:], strides, dilations):
        part = np.einsum("...nc,fc->...nf", view, w[(slice(None), slice(None)) + tap].astype(acc))
        result = part if result is None else result + part
    return np.moveaxis(result, [-2, -1], [0, 1])


def conv_nhwc_hwcf(x, w, strides=None, dilations=None, acc=np.float64):
    """N spatial... C input, kernel... C F filter -> N out... F."""
    xc = np.moveaxis(x, -1, 1)
    wc = np.moveaxis(np.moveaxis(w, -1, 0), -1, 1)  # F C kernel...
    return np.moveaxis(conv_nc(xc, wc, strides, dilations, acc), 1, -1)


def conv_nhwc_fhwc(x, w, strides=None, dilations=None, acc=np.float64):
    """N H W C input, F H W C filter -> N out... F."""
    return conv_nhwc_hwcf(x, np.moveaxis(w, 0, -1), strides, dilations, acc)


def depthwise_nhwc_hwc(x, w, strides=None, dilations=None, acc=np.float64):
    """N H W C input, H W C filter -> N out out C (one filter per channel)."""
    spatial = x.ndim - 2
    strides = strides or [1] * spatial
    dilations = dilations or [1] * spatial
    xs = np.moveaxis(x.astype(acc), 0, -2)  # spatial..., N, C
    result = None
    for tap, view in _windows(xs, w.shape[:-1], strides, dilations):
        part = view * w[tap].astype(acc)
        result = part if result is None else result + part
    return np.moveaxis(result, -2, 0)


def grouped_ngchw_gfchw(x, w, strides=None, dilations=None, acc=np.float64):
    """N G C H W input, G F C H W filter -> N G F out..."""
    groups = [conv_nc(x[:, g], w[g], strides, dilations, acc) for g in range(x.shape[1])]
    return np.stack(groups, axis=1)


def pool_nc(x, kernel, strides=None, dilations=None, kind="max"):
    """Pooling over the trailing spatial dims of an N C spatial... input."""
    spatial = len(kernel)
    strides = strides or [1] * spatial
    dilations = dilations or [1] * spatial
    xs = np.moveaxis(x, [0, 1], [-2, -1])
    result = None
    for _, view in _windows(xs, kernel, strides, dilations):
        if result is None:
            result = view.astype(np.float64) if kind == "sum" else view.copy()
        elif kind == "max":
            result = np.maximum(result, view)
        else:
            result = result + view
    return np.moveaxis(result, [-2, -1], [0, 1])


def pool_nhwc(x, kernel, strides=None, dilations=None, kind="max"):
    return np.moveaxis(pool_nc(np.moveaxis(x, -1, 1), kernel, strides, dilations, kind), 1, -1)


def batchnorm_nchw(x, scale, bias, mean, var, eps=1e-5):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    inv = scale / np.sqrt(var + eps)
    return (x - mean.reshape(shape)) * inv.reshape(shape) + bias.reshape(shape)


def relu(x):
    return np.maximum(x, 0)


def gelu_erf(x):
    from math import erf, sqrt
    verf = np.vectorize(erf)
    return 0.5 * x * (1.0 + verf(x / sqrt(2.0)))
