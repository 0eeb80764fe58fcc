"""MLIR text helpers shared by the importer: types, constants, affine maps.

The importer writes MLIR as text (Debian ships no MLIR Python bindings) and
lets `ops-nn-opt` parse and verify it. Everything here is about spelling
values exactly: constants are written as the hexadecimal image of their
little-endian bytes, so no float is ever rounded through a decimal string.
"""

from __future__ import annotations

import numpy as np

# NumPy dtype -> MLIR element type. Signedness is not part of MLIR integer
# types (signless); the importer remembers it through the NumPy dtype.
_ELEMENT_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.float64): "f64",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int16): "i16",
    np.dtype(np.int8): "i8",
    np.dtype(np.uint64): "i64",
    np.dtype(np.uint32): "i32",
    np.dtype(np.uint16): "i16",
    np.dtype(np.uint8): "i8",
    # Booleans are stored as i8 (0/1): ops-nn-run's vectorized CPU code
    # stores vector<..xi1> as packed bits, so i1 tensors written by vector
    # code and read by scalar code (or the caller) disagree. Bodies compute
    # in i1 and widen with arith.extui.
    np.dtype(np.bool_): "i8",
}


def element_type(dtype) -> str:
    dtype = np.dtype(dtype)
    if dtype not in _ELEMENT_TYPES:
        raise TypeError(f"element type {dtype} has no MLIR equivalent here")
    return _ELEMENT_TYPES[dtype]


def is_float(dtype) -> bool:
    return np.dtype(dtype).kind == "f"


def is_unsigned(dtype) -> bool:
    return np.dtype(dtype).kind in "ub"


def tensor_type(shape, dtype) -> str:
    dims = "".join(f"{int(d)}x" for d in shape)
    return f"tensor<{dims}{element_type(dtype)}>"


def scalar_literal(value, dtype) -> str:
    """An `arith.constant` literal for one element, exact for floats."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        bits = np.array([value], dtype=dtype).view(f"<u{dtype.itemsize}")[0]
        return f"0x{int(bits):0{2 * dtype.itemsize}X}"
    if dtype.kind == "b":
        return "1" if bool(value) else "0"
    return str(int(value))


def dense_literal(array: np.ndarray) -> str:
    """`dense<...>` for a constant tensor (hex bytes; splats as one element)."""
    array = np.ascontiguousarray(array)
    if array.dtype == np.bool_:
        array = array.astype(np.int8)
    if array.size == 0:
        return _empty(array)
    first = array.reshape(-1)[:1]
    if array.size > 1 and (array == first[0]).all() and not (
            array.dtype.kind == "f" and np.isnan(first[0])):
        array = first
    data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return f'dense<"0x{data.hex().upper()}">'


def _nested_bool(array: np.ndarray) -> str:
    if array.ndim == 0:
        return "true" if array else "false"
    return "[" + ", ".join(_nested_bool(a) for a in array) + "]"


def _empty(array: np.ndarray) -> str:
    # Nested brackets down to the first zero-sized dimension.
    def build(shape):
        if not shape or shape[0] == 0:
            return "[]"
        return "[" + ", ".join(build(shape[1:]) for _ in range(shape[0])) + "]"
    return f"dense<{build(list(array.shape))}>"


def dims(n: int, prefix: str = "d") -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def affine_map(n_dims: int, results) -> str:
    return f"affine_map<({', '.join(dims(n_dims))}) -> ({', '.join(results)})>"


def broadcast_map(in_shape, out_shape) -> str:
    """Map of an operand broadcast (NumPy rules) to the iteration space of
    `out_shape`: missing leading dimensions dropped, size-1 ones pinned to 0."""
    rank, offset = len(out_shape), len(out_shape) - len(in_shape)
    results = []
    for i, size in enumerate(in_shape):
        j = offset + i
        results.append("0" if size == 1 and out_shape[j] != 1 else f"d{j}")
    return affine_map(rank, results)


def broadcast_shapes(*shapes):
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*[tuple(s) for s in shapes]))
    except ValueError as error:
        raise ValueError(f"shapes {', '.join(str(tuple(s)) for s in shapes)} "
                         f"do not broadcast") from error


def i64_list(values) -> str:
    return "[" + ", ".join(str(int(v)) for v in values) + "]"


def dense_i64(values) -> str:
    values = list(values)
    return f"dense<{i64_list(values)}> : tensor<{len(values)}xi64>"
