"""ONNX -> linalg-on-tensors importer (our own; see python/README.md for why).

`import_onnx(model)` returns the text of an MLIR module with one function,
`@main`, whose arguments are the graph's non-initializer inputs in order and
whose results are the graph's outputs. Operators become upstream linalg named
ops where one fits (`linalg.conv_2d_nchw_fchw`, `linalg.matmul`,
`linalg.pooling_nchw_max`, `linalg.softmax` ...) and `linalg.generic`
elsewhere, in the layout the model uses (NCHW as frameworks export it): the
layout and precision passes of `ops-nn-opt` take it from there.

Shapes must be static. Everything computable at import is computed: `Shape`
and every node whose inputs are all constants are folded with onnx's
reference evaluator, so the shape arithmetic PyTorch exports
(Shape -> Gather -> Unsqueeze -> Concat -> Reshape) disappears. Weights
become `arith.constant` tensors (hex, bit exact).

An operator (or an operator variant) that is not supported stops the import
with `UnsupportedOperator`, naming the operator and the node: nothing is ever
dropped silently. `SUPPORTED_OPS` lists what is claimed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from . import _mlir as M


class ImportError_(Exception):
    """Base class of the importer's errors (the message says what and where)."""


class UnsupportedOperator(ImportError_):
    def __init__(self, op_type: str, node_name: str, detail: str = ""):
        self.op_type, self.node_name, self.detail = op_type, node_name, detail
        where = f"node '{node_name}'" if node_name else "an unnamed node"
        super().__init__(f"unsupported operator {op_type} ({where})"
                         + (f": {detail}" if detail else ""))


class InvalidModel(ImportError_):
    pass


# Operators the importer claims (the conformance runner runs the ONNX node
# tests of exactly these; variants it rejects are listed in conformance.py).
SUPPORTED_OPS = sorted("""
Abs Add AveragePool BatchNormalization Cast Clip Concat Constant ConstantOfShape
Conv ConvTranspose DequantizeLinear Div Dropout Equal Erf Exp Expand Flatten Gather
Gelu Gemm GlobalAveragePool GlobalMaxPool Greater Identity LayerNormalization
LeakyRelu Less Log MatMul Max MaxPool Min Mul Neg Not Pow QuantizeLinear Range
Reciprocal ReduceMax ReduceMean ReduceSum Relu Reshape Resize Shape Sigmoid Slice
Softmax Sqrt Squeeze Sub Tanh Transpose Unsqueeze Where
""".split())

# Inputs that must be known at import (static shapes): (op, input index).
# The conformance runner binds graph inputs in these positions as constants.
STATIC_INPUTS = {
    "Reshape": {1}, "Slice": {1, 2, 3, 4}, "Squeeze": {1}, "Unsqueeze": {1},
    "Resize": {1, 2, 3}, "ReduceMean": {1}, "ReduceSum": {1}, "ReduceMax": {1},
    "Expand": {1}, "ConstantOfShape": {0}, "Range": {0, 1, 2}, "Clip": {1, 2},
    "QuantizeLinear": {1, 2}, "DequantizeLinear": {1, 2}, "Dropout": {1, 2},
}

_FLOAT_TYPES = (np.float32, np.float16, np.float64)


@dataclass
class Value:
    """A tensor of the graph: an SSA name (None while it is only a constant),
    its static shape and NumPy dtype, its value when known at import, and
    what its storage is (`arg`, `const` or `alloc`) so results that would
    alias an argument or a global are copied."""
    name: str | None
    shape: tuple
    dtype: np.dtype
    const: np.ndarray | None = None
    base: str = "alloc"

    @property
    def rank(self):
        return len(self.shape)


@dataclass
class _Body:
    """Builder of a linalg region body (scalar arith/math ops)."""
    em: "Importer"
    lines: list = field(default_factory=list)

    def op(self, text: str, ty: str) -> str:
        name = self.em.fresh()
        self.lines.append(f"    {name} = {text} : {ty}")
        return name

    def raw(self, text: str) -> str:
        name = self.em.fresh()
        self.lines.append(f"    {name} = {text}")
        return name

    def const(self, value, dtype) -> str:
        return self.op(f"arith.constant {M.scalar_literal(value, dtype)}",
                       M.element_type(dtype))

    def index(self, dim: int) -> str:
        return self.raw(f"linalg.index {dim} : index")


def _attrs(node) -> dict:
    import onnx
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _s(value):
    return value.decode() if isinstance(value, bytes) else value


class Importer:
    def __init__(self, model, constant_inputs: dict | None = None,
                 input_shapes: dict | None = None):
        import onnx
        self.onnx = onnx
        self.model = model
        self.graph = model.graph
        self.opset = next((o.version for o in model.opset_import
                           if o.domain in ("", "ai.onnx")), 1)
        self.constant_inputs = dict(constant_inputs or {})
        self.input_shapes = dict(input_shapes or {})
        self.values: dict[str, Value] = {}
        self.lines: list[str] = []
        self.counter = 0
        self.loc = ""
        self.args: list[tuple[str, Value, str]] = []  # (onnx name, value, onnx dtype)

    # ----------------------------------------------------------------- basics
    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def emit(self, text: str) -> None:
        self.lines.append("  " + text)

    def loc_suffix(self) -> str:
        return f" loc({self.loc})" if self.loc else ""

    def materialize(self, v: Value) -> str:
        if v.name is None:
            v.name = self.fresh()
            self.emit(f"{v.name} = arith.constant {M.dense_literal(v.const)} : "
                      f"{M.tensor_type(v.shape, v.dtype)}")
        return v.name

    def const_value(self, array) -> Value:
        array = np.asarray(array)
        return Value(None, tuple(array.shape), array.dtype, array, base="const")

    def empty(self, shape, dtype) -> str:
        name = self.fresh()
        self.emit(f"{name} = tensor.empty() : {M.tensor_type(shape, dtype)}")
        return name

    def filled(self, shape, dtype, value) -> str:
        e = self.empty(shape, dtype)
        c = self.fresh()
        et = M.element_type(dtype)
        self.emit(f"{c} = arith.constant {M.scalar_literal(value, dtype)} : {et}")
        name = self.fresh()
        ty = M.tensor_type(shape, dtype)
        self.emit(f"{name} = linalg.fill ins({c} : {et}) outs({e} : {ty}) -> {ty}")
        return name

    # ----------------------------------------------------------- generic op
    def generic(self, inputs, maps, out_shape, out_dtype, body_fn, iterators=None,
                n_dims=None, init=None) -> Value:
        """linalg.generic with `inputs` (Values or (ssa, type) pairs) under
        `maps`; `body_fn(body, args, out_arg)` returns the yielded SSA name."""
        n_dims = len(out_shape) if n_dims is None else n_dims
        iterators = iterators or ["parallel"] * n_dims
        out_map = maps[-1]
        ins, tys, elts = [], [], []
        for v in inputs:
            if isinstance(v, Value):
                ins.append(self.materialize(v))
                tys.append(M.tensor_type(v.shape, v.dtype))
                elts.append(M.element_type(v.dtype))
            else:
                ins.append(v[0]), tys.append(v[1]), elts.append(v[2])
        out_ty = M.tensor_type(out_shape, out_dtype)
        out_name = init if init is not None else self.empty(out_shape, out_dtype)
        body = _Body(self)
        arg_names = [self.fresh() for _ in inputs]
        out_arg = self.fresh()
        result = body_fn(body, arg_names, out_arg)
        name = self.fresh()
        head = (f"{name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                f"iterator_types = [{', '.join(repr(i).replace(chr(39), chr(34)) for i in iterators)}]}}")
        if ins:
            head += f" ins({', '.join(ins)} : {', '.join(tys)})"
        head += f" outs({out_name} : {out_ty}) {{"
        self.emit(head)
        block_args = [f"{a}: {t}" for a, t in zip(arg_names, elts)]
        block_args.append(f"{out_arg}: {M.element_type(out_dtype)}")
        self.lines.append(f"  ^bb0({', '.join(block_args)}):")
        self.lines.extend(body.lines)
        self.lines.append(f"    linalg.yield {result} : {M.element_type(out_dtype)}")
        self.lines.append(f"  }} -> {out_ty}{self.loc_suffix()}")
        del out_map
        return Value(name, tuple(out_shape), np.dtype(out_dtype))

    def elementwise(self, inputs: list[Value], out_dtype, fn, out_shape=None) -> Value:
        """Broadcasting elementwise op; scalar constants are inlined into the
        body. `fn(body, scalars)` returns the result SSA name."""
        shape = out_shape if out_shape is not None else M.broadcast_shapes(
            *[v.shape for v in inputs])
        tensor_inputs, maps, slots = [], [], []
        for v in inputs:
            if v.const is not None and v.const.size == 1 and v.name is None:
                slots.append(("const", v))
            else:
                slots.append(("arg", len(tensor_inputs)))
                tensor_inputs.append(v)
                maps.append(M.broadcast_map(v.shape, shape))
        maps.append(M.affine_map(len(shape), M.dims(len(shape))))

        def body_fn(body, args, _out):
            scalars = []
            for kind, item in slots:
                if kind == "const":
                    scalars.append(body.const(item.const.reshape(-1)[0], item.dtype))
                else:
                    scalars.append(args[item])
            return fn(body, scalars)
        return self.generic(tensor_inputs, maps, shape, out_dtype, body_fn)

    # ------------------------------------------------------------- views
    def reshape(self, v: Value, shape) -> Value:
        shape = tuple(int(d) for d in shape)
        if int(np.prod(shape)) != int(np.prod(v.shape)):
            raise InvalidModel(f"cannot reshape {v.shape} to {shape}")
        if v.const is not None and v.name is None:
            return self.const_value(v.const.reshape(shape))
        if shape == tuple(v.shape):
            return v
        src = self.materialize(v)
        src_ty = M.tensor_type(v.shape, v.dtype)
        dst_ty = M.tensor_type(shape, v.dtype)
        groups = None
        if len(shape) < v.rank:
            groups = _reassociation(v.shape, shape)
            if groups is not None:
                name = self.fresh()
                self.emit(f"{name} = tensor.collapse_shape {src} {_groups(groups)} : "
                          f"{src_ty} into {dst_ty}{self.loc_suffix()}")
                return Value(name, shape, v.dtype, base=v.base)
        elif len(shape) > v.rank:
            groups = _reassociation(shape, v.shape)
            if groups is not None:
                name = self.fresh()
                self.emit(f"{name} = tensor.expand_shape {src} {_groups(groups)} "
                          f"output_shape {M.i64_list(shape)} : {src_ty} into "
                          f"{dst_ty}{self.loc_suffix()}")
                return Value(name, shape, v.dtype, base=v.base)
        flat = self.reshape(v, (int(np.prod(v.shape)),))
        return self.reshape(flat, shape)

    def transpose(self, v: Value, perm) -> Value:
        perm = [int(p) for p in perm]
        if v.const is not None and v.name is None:
            return self.const_value(np.transpose(v.const, perm))
        if perm == list(range(v.rank)):
            return v
        shape = tuple(v.shape[p] for p in perm)
        src = self.materialize(v)
        e = self.empty(shape, v.dtype)
        name = self.fresh()
        self.emit(f"{name} = linalg.transpose ins({src} : {M.tensor_type(v.shape, v.dtype)}) "
                  f"outs({e} : {M.tensor_type(shape, v.dtype)}) permutation = "
                  f"{M.i64_list(perm)}{self.loc_suffix()}")
        return Value(name, shape, v.dtype)

    def pad(self, v: Value, low, high, value) -> Value:
        if not any(low) and not any(high):
            return v
        if v.const is not None and v.name is None:
            return self.const_value(np.pad(v.const, list(zip(low, high)),
                                           constant_values=value))
        shape = tuple(d + lo + hi for d, lo, hi in zip(v.shape, low, high))
        src = self.materialize(v)
        et = M.element_type(v.dtype)
        c = self.fresh()
        self.emit(f"{c} = arith.constant {M.scalar_literal(value, v.dtype)} : {et}")
        name = self.fresh()
        idx = ", ".join(f"{self.fresh()}: index" for _ in shape)
        self.emit(f"{name} = tensor.pad {src} low{M.i64_list(low)} high{M.i64_list(high)} {{")
        self.lines.append(f"  ^bb0({idx}):")
        self.lines.append(f"    tensor.yield {c} : {et}")
        self.lines.append(f"  }} : {M.tensor_type(v.shape, v.dtype)} to "
                          f"{M.tensor_type(shape, v.dtype)}{self.loc_suffix()}")
        return Value(name, shape, v.dtype)

    def reverse(self, v: Value, axes) -> Value:
        """Reverses `axes` with a gather (tensor.extract at size-1-i): maps
        with negative coefficients (size-1-d) trip a pass of the CPU
        pipeline (see python/README.md, known tool issues)."""
        src = self.materialize(v)
        r = v.rank
        ty = M.tensor_type(v.shape, v.dtype)

        def body(b, args, _o):
            coords = []
            for i in range(r):
                idx = b.index(i)
                if i in axes:
                    last = b.raw(f"arith.constant {v.shape[i] - 1} : index")
                    idx = b.raw(f"arith.subi {last}, {idx} : index")
                coords.append(idx)
            return b.raw(f"tensor.extract {src}[{', '.join(coords)}] : {ty}")
        return self.generic([], [M.affine_map(r, M.dims(r))], v.shape, v.dtype, body)

    def copy(self, v: Value) -> Value:
        return self.elementwise([Value(self.materialize(v), v.shape, v.dtype)],
                                v.dtype, lambda b, s: s[0])

    # --------------------------------------------------------------- driver
    def run(self) -> str:
        onnx = self.onnx
        g = self.graph
        initializers = {t.name: onnx.numpy_helper.to_array(t) for t in g.initializer}
        for name, array in initializers.items():
            self.values[name] = self.const_value(array)
        for vi in g.input:
            if vi.name in initializers:
                continue
            if vi.name in self.constant_inputs:
                self.values[vi.name] = self.const_value(np.asarray(self.constant_inputs[vi.name]))
                continue
            dtype = _onnx_dtype(vi.type.tensor_type.elem_type, f"input '{vi.name}'")
            if vi.name in self.input_shapes:
                shape = tuple(int(d) for d in self.input_shapes[vi.name])
            else:
                shape = []
                for d in vi.type.tensor_type.shape.dim:
                    if not d.HasField("dim_value"):
                        raise InvalidModel(
                            f"input '{vi.name}' has a dynamic dimension "
                            f"'{d.dim_param or '?'}': give static shapes "
                            f"(input_shapes / --input-shape)")
                    shape.append(d.dim_value)
                shape = tuple(shape)
            name = f"%arg{len(self.args)}"
            v = Value(name, shape, dtype, base="arg")
            self.values[vi.name] = v
            self.args.append((vi.name, v, vi.type.tensor_type.elem_type))
        for node in g.node:
            self._node(node)
        results = []
        seen = set()
        for out in g.output:
            if out.name not in self.values:
                raise InvalidModel(f"graph output '{out.name}' is never produced")
            v = self.values[out.name]
            self.loc = f'"output:{out.name}"'
            if v.base != "alloc" or v.name is None or v.name in seen:
                v = self.copy(v)
            seen.add(v.name)
            results.append(v)
        self.results = results
        self.output_names = [o.name for o in g.output]
        sig = ", ".join(f"{v.name}: {M.tensor_type(v.shape, v.dtype)}" for _, v, _ in self.args)
        rets = ", ".join(M.tensor_type(v.shape, v.dtype) for v in results)
        text = [f"func.func @main({sig}) -> ({rets}) {{"]
        text += self.lines
        text.append(f"  return {', '.join(v.name for v in results)} : {rets}")
        text.append("}")
        return "\n".join(text) + "\n"

    def _node(self, node):
        op = node.op_type
        name = node.name or (node.output[0] if node.output else "")
        self.node_name = name
        if node.domain not in ("", "ai.onnx"):
            raise UnsupportedOperator(f"{node.domain}.{op}", name, "custom domain")
        inputs = []
        for i in node.input:
            if i == "":
                inputs.append(None)
            elif i not in self.values:
                raise InvalidModel(f"node '{name}' ({op}) reads '{i}', which is "
                                   f"not defined before it")
            else:
                inputs.append(self.values[i])
        attrs = _attrs(node)
        # Fold nodes whose inputs are all known (shape arithmetic, weights
        # preprocessing) with onnx's reference evaluator.
        if op not in ("Constant",) and inputs and all(
                v is None or (v.const is not None) for v in inputs) and op in _FOLDABLE:
            outs = self._fold(node, inputs)
            for o, array in zip(node.output, outs):
                if o:
                    self.values[o] = self.const_value(np.asarray(array))
            return
        handler = getattr(self, f"op_{op}", None)
        if handler is None:
            raise UnsupportedOperator(op, name)
        self.loc = '"' + f"{op}:{name}".replace("\\", "\\\\").replace('"', '\\"') + '"'
        try:
            outs = handler(node, inputs, attrs)
        except ImportError_:
            raise
        except (ValueError, TypeError, KeyError, IndexError) as error:
            raise InvalidModel(f"node '{name}' ({op}): {error}") from error
        if isinstance(outs, Value):
            outs = [outs]
        used = [o for o in node.output if o]
        if len(outs) < len(used) and any(
                o for o in node.output[len(outs):] if o and self._is_used(o)):
            raise UnsupportedOperator(op, name, f"only the first {len(outs)} "
                                      f"output(s) are supported")
        for o, v in zip(node.output, outs):
            if o:
                self.values[o] = v

    def _is_used(self, name):
        return any(name in n.input for n in self.graph.node) or any(
            o.name == name for o in self.graph.output)

    def _fold(self, node, inputs):
        from onnx.reference import ReferenceEvaluator
        onnx = self.onnx
        h = onnx.helper
        in_names = [f"i{k}" if v is not None else "" for k, v in enumerate(inputs)]
        out_names = [f"o{k}" for k in range(len(node.output))]
        n = h.make_node(node.op_type, in_names, out_names, domain=node.domain)
        n.attribute.extend(node.attribute)
        vis = [h.make_tensor_value_info(nm, h.np_dtype_to_tensor_dtype(v.dtype), v.shape)
               for nm, v in zip(in_names, inputs) if v is not None]
        outs = [h.make_empty_tensor_value_info(o) for o in out_names]
        graph = h.make_graph([n], "fold", vis, outs)
        m = h.make_model(graph, opset_imports=[h.make_opsetid("", self.opset)])
        m.ir_version = self.model.ir_version
        feeds = {nm: v.const for nm, v in zip(in_names, inputs) if v is not None}
        try:
            return ReferenceEvaluator(m).run(None, feeds)
        except Exception as error:  # the reference evaluator raises anything
            raise InvalidModel(f"node '{self.node_name}' ({node.op_type}) "
                               f"could not be folded: {error}") from error

    def static(self, v: Value | None, what: str, node_op: str):
        if v is None:
            return None
        if v.const is None:
            raise UnsupportedOperator(node_op, self.node_name,
                                      f"{what} must be a constant (static shapes)")
        return v.const

    def unsupported(self, node, detail):
        return UnsupportedOperator(node.op_type, self.node_name, detail)

    # ------------------------------------------------------ elementwise ops
    def _binary(self, node, inputs, fop, iop, uop=None, out_dtype=None):
        a, b = inputs
        if a.dtype != b.dtype:
            raise self.unsupported(node, f"mixed element types {a.dtype} and {b.dtype}")
        dt = a.dtype
        if M.is_float(dt):
            opname = fop
        else:
            opname = uop if (uop and M.is_unsigned(dt)) else iop
        if opname is None:
            raise self.unsupported(node, f"element type {dt}")
        et = M.element_type(dt)
        return self.elementwise([a, b], out_dtype or dt,
                                lambda bd, s: bd.op(f"{opname} {s[0]}, {s[1]}", et))

    def op_Add(self, node, inputs, attrs):
        return self._binary(node, inputs, "arith.addf", "arith.addi")

    def op_Sub(self, node, inputs, attrs):
        return self._binary(node, inputs, "arith.subf", "arith.subi")

    def op_Mul(self, node, inputs, attrs):
        return self._binary(node, inputs, "arith.mulf", "arith.muli")

    def op_Div(self, node, inputs, attrs):
        return self._binary(node, inputs, "arith.divf", "arith.divsi", "arith.divui")

    def op_Max(self, node, inputs, attrs):
        return self._variadic(node, inputs, "arith.maximumf", "arith.maxsi", "arith.maxui")

    def op_Min(self, node, inputs, attrs):
        return self._variadic(node, inputs, "arith.minimumf", "arith.minsi", "arith.minui")

    def _variadic(self, node, inputs, fop, iop, uop):
        acc = inputs[0]
        if len(inputs) == 1:
            return self.copy(acc)
        for v in inputs[1:]:
            acc = self._binary(node, [acc, v], fop, iop, uop)
        return acc

    def _compare(self, node, inputs, fpred, spred, upred):
        a, b = inputs
        if a.dtype != b.dtype:
            raise self.unsupported(node, "mixed element types")
        et = M.element_type(a.dtype)
        if M.is_float(a.dtype):
            text = f"arith.cmpf {fpred}"
        else:
            text = f"arith.cmpi {upred if M.is_unsigned(a.dtype) else spred}"
        return self.elementwise([a, b], np.bool_, lambda bd, s: bd.raw(
            f"arith.extui {bd.op(f'{text}, {s[0]}, {s[1]}', et)} : i1 to i8"))

    def op_Equal(self, node, inputs, attrs):
        return self._compare(node, inputs, "oeq", "eq", "eq")

    def op_Less(self, node, inputs, attrs):
        return self._compare(node, inputs, "olt", "slt", "ult")

    def op_Greater(self, node, inputs, attrs):
        return self._compare(node, inputs, "ogt", "sgt", "ugt")

    def op_Not(self, node, inputs, attrs):
        def fn(b, s):
            t = b.const(True, np.bool_)
            return b.op(f"arith.xori {s[0]}, {t}", "i8")
        return self.elementwise(inputs, np.bool_, fn)

    def op_Where(self, node, inputs, attrs):
        c, x, y = inputs
        et = M.element_type(x.dtype)
        return self.elementwise([c, x, y], x.dtype,
                                lambda b, s: b.op(f"arith.select {b.raw(f'arith.trunci {s[0]} : i8 to i1')}, {s[1]}, {s[2]}", et))

    def _unary_float(self, node, inputs, fn):
        x = inputs[0]
        if not M.is_float(x.dtype):
            raise self.unsupported(node, f"element type {x.dtype} (floats only)")
        et = M.element_type(x.dtype)
        return self.elementwise([x], x.dtype, lambda b, s: fn(b, s[0], et, x.dtype))

    def op_Relu(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(
            f"arith.maximumf {x}, {b.const(0.0, dt)}", et))

    def op_LeakyRelu(self, node, inputs, attrs):
        alpha = attrs.get("alpha", 0.01)

        def fn(b, x, et, dt):
            z = b.const(0.0, dt)
            ax = b.op(f"arith.mulf {x}, {b.const(alpha, dt)}", et)
            pos = b.op(f"arith.cmpf ogt, {x}, {z}", et)  # i1
            return b.op(f"arith.select {pos}, {x}, {ax}", et)
        return self._unary_float(node, inputs, fn)

    def op_Sigmoid(self, node, inputs, attrs):
        def fn(b, x, et, dt):
            n = b.op(f"arith.negf {x}", et)
            e = b.op(f"math.exp {n}", et)
            one = b.const(1.0, dt)
            d = b.op(f"arith.addf {one}, {e}", et)
            return b.op(f"arith.divf {one}, {d}", et)
        return self._unary_float(node, inputs, fn)

    def op_Tanh(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(f"math.tanh {x}", et))

    def op_Erf(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(f"math.erf {x}", et))

    def op_Sqrt(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(f"math.sqrt {x}", et))

    def op_Exp(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(f"math.exp {x}", et))

    def op_Log(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(f"math.log {x}", et))

    def op_Neg(self, node, inputs, attrs):
        x = inputs[0]
        et = M.element_type(x.dtype)
        if M.is_float(x.dtype):
            return self.elementwise([x], x.dtype, lambda b, s: b.op(f"arith.negf {s[0]}", et))
        return self.elementwise([x], x.dtype, lambda b, s: b.op(
            f"arith.subi {b.const(0, x.dtype)}, {s[0]}", et))

    def op_Abs(self, node, inputs, attrs):
        x = inputs[0]
        et = M.element_type(x.dtype)
        if M.is_float(x.dtype):
            return self.elementwise([x], x.dtype, lambda b, s: b.op(f"math.absf {s[0]}", et))
        if M.is_unsigned(x.dtype):
            return self.copy(x)
        return self.elementwise([x], x.dtype, lambda b, s: b.op(f"math.absi {s[0]}", et))

    def op_Reciprocal(self, node, inputs, attrs):
        return self._unary_float(node, inputs, lambda b, x, et, dt: b.op(
            f"arith.divf {b.const(1.0, dt)}, {x}", et))

    def op_Gelu(self, node, inputs, attrs):
        approx = _s(attrs.get("approximate", "none"))

        def fn(b, x, et, dt):
            half = b.const(0.5, dt)
            one = b.const(1.0, dt)
            if approx == "tanh":
                x3 = b.op(f"arith.mulf {x}, {x}", et)
                x3 = b.op(f"arith.mulf {x3}, {x}", et)
                t = b.op(f"arith.mulf {x3}, {b.const(0.044715, dt)}", et)
                t = b.op(f"arith.addf {x}, {t}", et)
                t = b.op(f"arith.mulf {t}, {b.const(math.sqrt(2.0 / math.pi), dt)}", et)
                t = b.op(f"math.tanh {t}", et)
            else:
                t = b.op(f"arith.mulf {x}, {b.const(1.0 / math.sqrt(2.0), dt)}", et)
                t = b.op(f"math.erf {t}", et)
            t = b.op(f"arith.addf {t}, {one}", et)
            hx = b.op(f"arith.mulf {x}, {half}", et)
            return b.op(f"arith.mulf {hx}, {t}", et)
        if approx not in ("none", "tanh"):
            raise self.unsupported(node, f"approximate={approx}")
        return self._unary_float(node, inputs, fn)

    def op_Pow(self, node, inputs, attrs):
        x, y = inputs
        if not M.is_float(x.dtype) or y.dtype != x.dtype:
            raise self.unsupported(node, f"element types {x.dtype} ** {y.dtype} "
                                   f"(float ** same float only)")
        et = M.element_type(x.dtype)
        if y.const is not None and y.const.size == 1:
            e = float(y.const.reshape(-1)[0])
            if e == 2.0:
                return self.elementwise([x], x.dtype, lambda b, s: b.op(
                    f"arith.mulf {s[0]}, {s[0]}", et), out_shape=M.broadcast_shapes(x.shape, y.shape))
            if e == 1.0:
                return self.elementwise([x], x.dtype, lambda b, s: s[0],
                                        out_shape=M.broadcast_shapes(x.shape, y.shape))
            if e == 0.5:
                return self.elementwise([x], x.dtype, lambda b, s: b.op(
                    f"math.sqrt {s[0]}", et), out_shape=M.broadcast_shapes(x.shape, y.shape))
        return self.elementwise([x, y], x.dtype,
                                lambda b, s: b.op(f"math.powf {s[0]}, {s[1]}", et))

    def op_Clip(self, node, inputs, attrs):
        x = inputs[0]
        if self.opset < 11:
            lo, hi = attrs.get("min"), attrs.get("max")
        else:
            lo = self.static(inputs[1] if len(inputs) > 1 else None, "min", "Clip")
            hi = self.static(inputs[2] if len(inputs) > 2 else None, "max", "Clip")
            lo = None if lo is None else lo.reshape(-1)[0]
            hi = None if hi is None else hi.reshape(-1)[0]
        et = M.element_type(x.dtype)
        fl = M.is_float(x.dtype)
        uns = M.is_unsigned(x.dtype)

        def fn(b, s):
            r = s[0]
            if lo is not None:
                c = b.const(lo, x.dtype)
                r = b.op(f"{'arith.maximumf' if fl else 'arith.maxui' if uns else 'arith.maxsi'} {r}, {c}", et)
            if hi is not None:
                c = b.const(hi, x.dtype)
                r = b.op(f"{'arith.minimumf' if fl else 'arith.minui' if uns else 'arith.minsi'} {r}, {c}", et)
            return r
        return self.elementwise([x], x.dtype, fn)

    def op_Identity(self, node, inputs, attrs):
        return inputs[0]

    def op_Dropout(self, node, inputs, attrs):
        training = inputs[2].const if len(inputs) > 2 and inputs[2] is not None else None
        if training is not None and bool(training.reshape(-1)[0]):
            raise self.unsupported(node, "training_mode=true")
        if len(node.output) > 1 and node.output[1]:
            # Inference: nothing is dropped, the mask is all true.
            return [inputs[0], self.const_value(np.ones(inputs[0].shape, np.bool_))]
        return inputs[0]

    def op_Cast(self, node, inputs, attrs):
        x = inputs[0]
        to = _onnx_dtype(attrs["to"], f"Cast target of node '{self.node_name}'",
                         node=node, importer=self)
        return self.cast(x, to)

    def cast(self, x: Value, to) -> Value:
        to = np.dtype(to)
        if x.dtype == to:
            return x
        if x.const is not None and x.name is None:
            return self.const_value(x.const.astype(to))
        src, dst = M.element_type(x.dtype), M.element_type(to)
        fs, fd = M.is_float(x.dtype), M.is_float(to)

        def fn(b, s):
            v = s[0]
            if fs and fd:
                wider = np.dtype(to).itemsize > x.dtype.itemsize
                return b.raw(f"arith.{'extf' if wider else 'truncf'} {v} : {src} to {dst}")
            if fs and to == np.bool_:
                z = b.const(0.0, x.dtype)
                return b.raw(f"arith.extui {b.op(f'arith.cmpf une, {v}, {z}', src)} : i1 to i8")
            if fs:
                return b.raw(f"arith.{'fptoui' if M.is_unsigned(to) else 'fptosi'} {v} : {src} to {dst}")
            if fd:
                return b.raw(f"arith.{'uitofp' if M.is_unsigned(x.dtype) else 'sitofp'} {v} : {src} to {dst}")
            if to == np.bool_:
                z = b.const(0, x.dtype)
                return b.raw(f"arith.extui {b.op(f'arith.cmpi ne, {v}, {z}', src)} : i1 to i8")
            ws, wd = int(src[1:]), int(dst[1:])
            if ws == wd:
                return v
            if wd > ws:
                return b.raw(f"arith.{'extui' if M.is_unsigned(x.dtype) else 'extsi'} {v} : {src} to {dst}")
            return b.raw(f"arith.trunci {v} : {src} to {dst}")
        return self.elementwise([x], to, fn)

    # ----------------------------------------------------------- constants
    def op_Constant(self, node, inputs, attrs):
        if "value" in attrs:
            return self.const_value(self.onnx.numpy_helper.to_array(attrs["value"]))
        for key, dt in (("value_float", np.float32), ("value_floats", np.float32),
                        ("value_int", np.int64), ("value_ints", np.int64)):
            if key in attrs:
                return self.const_value(np.array(attrs[key], dtype=dt))
        raise self.unsupported(node, f"attributes {sorted(attrs)}")

    def op_Shape(self, node, inputs, attrs):
        shape = np.array(inputs[0].shape, dtype=np.int64)
        r = len(shape)
        start = attrs.get("start", 0)
        end = attrs.get("end", r)
        return self.const_value(shape[slice(start, end)])

    def op_ConstantOfShape(self, node, inputs, attrs):
        shape = self.static(inputs[0], "shape", "ConstantOfShape")
        value = (self.onnx.numpy_helper.to_array(attrs["value"]) if "value" in attrs
                 else np.zeros(1, np.float32))
        return self.const_value(np.full(tuple(shape.astype(np.int64)), value.reshape(-1)[0],
                                        dtype=value.dtype))

    # --------------------------------------------------------------- shapes
    def op_Reshape(self, node, inputs, attrs):
        x = inputs[0]
        shape = [int(d) for d in self.static(inputs[1], "shape", "Reshape")]
        allowzero = attrs.get("allowzero", 0)
        out = []
        for i, d in enumerate(shape):
            out.append(x.shape[i] if d == 0 and not allowzero else d)
        if -1 in out:
            known = int(np.prod([d for d in out if d != -1]))
            out[out.index(-1)] = int(np.prod(x.shape)) // known if known else 0
        return self.reshape(x, out)

    def op_Flatten(self, node, inputs, attrs):
        x = inputs[0]
        axis = attrs.get("axis", 1)
        if axis < 0:
            axis += x.rank
        return self.reshape(x, (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:]))))

    def _axes(self, node, inputs, attrs, pos=1):
        if self.opset >= 13 and node.op_type in ("Squeeze", "Unsqueeze") or (
                node.op_type in ("ReduceSum",) and self.opset >= 13) or (
                node.op_type in ("ReduceMean", "ReduceMax") and self.opset >= 18):
            v = inputs[pos] if len(inputs) > pos else None
            axes = self.static(v, "axes", node.op_type)
        else:
            axes = attrs.get("axes")
        return None if axes is None else [int(a) for a in np.asarray(axes).reshape(-1)]

    def op_Squeeze(self, node, inputs, attrs):
        x = inputs[0]
        axes = self._axes(node, inputs, attrs)
        if axes is None:
            axes = [i for i, d in enumerate(x.shape) if d == 1]
        axes = [a + x.rank if a < 0 else a for a in axes]
        for a in axes:
            if x.shape[a] != 1:
                raise InvalidModel(f"node '{self.node_name}': cannot squeeze axis {a} of {x.shape}")
        return self.reshape(x, [d for i, d in enumerate(x.shape) if i not in axes])

    def op_Unsqueeze(self, node, inputs, attrs):
        x = inputs[0]
        axes = self._axes(node, inputs, attrs)
        r = x.rank + len(axes)
        axes = sorted(a + r if a < 0 else a for a in axes)
        shape = list(x.shape)
        for a in axes:
            shape.insert(a, 1)
        return self.reshape(x, shape)

    def op_Transpose(self, node, inputs, attrs):
        x = inputs[0]
        perm = attrs.get("perm", list(reversed(range(x.rank))))
        return self.transpose(x, perm)

    def op_Expand(self, node, inputs, attrs):
        x = inputs[0]
        shape = [int(d) for d in self.static(inputs[1], "shape", "Expand")]
        out = M.broadcast_shapes(x.shape, shape)
        return self.elementwise([x], x.dtype, lambda b, s: s[0], out_shape=out) \
            if not (x.const is not None and x.const.size == 1 and x.name is None) else \
            self.const_value(np.broadcast_to(x.const, out).copy())

    def op_Concat(self, node, inputs, attrs):
        axis = attrs["axis"]
        vs = [v for v in inputs if v is not None]
        r = vs[0].rank
        if axis < 0:
            axis += r
        shape = list(vs[0].shape)
        shape[axis] = sum(v.shape[axis] for v in vs)
        dt = vs[0].dtype
        dst = self.empty(shape, dt)
        offset = 0
        for v in vs:
            if v.shape[axis] == 0:
                continue
            src = self.materialize(v)
            offs = [0] * r
            offs[axis] = offset
            name = self.fresh()
            self.emit(f"{name} = tensor.insert_slice {src} into {dst}{M.i64_list(offs)} "
                      f"{M.i64_list(v.shape)} {M.i64_list([1] * r)} : "
                      f"{M.tensor_type(v.shape, dt)} into {M.tensor_type(shape, dt)}{self.loc_suffix()}")
            dst = name
            offset += v.shape[axis]
        return Value(dst, tuple(shape), dt)

    def op_Slice(self, node, inputs, attrs):
        x = inputs[0]
        if self.opset < 10:
            starts, ends = attrs["starts"], attrs["ends"]
            axes, steps = attrs.get("axes"), None
        else:
            starts = self.static(inputs[1], "starts", "Slice")
            ends = self.static(inputs[2], "ends", "Slice")
            axes = self.static(inputs[3] if len(inputs) > 3 else None, "axes", "Slice")
            steps = self.static(inputs[4] if len(inputs) > 4 else None, "steps", "Slice")
        r = x.rank
        axes = list(range(len(starts))) if axes is None else [int(a) for a in axes]
        steps = [1] * len(starts) if steps is None else [int(s) for s in steps]
        offs, sizes, strides, rev = [0] * r, list(x.shape), [1] * r, []
        for s, e, a, st in zip(starts, ends, axes, steps):
            a = a + r if a < 0 else a
            dim = x.shape[a]
            s, e = int(max(min(int(s), 2**62), -2**62)), int(max(min(int(e), 2**62), -2**62))
            lo, hi, step = slice(s, e, st).indices(dim)
            idx = range(lo, hi, step)
            n = len(idx)
            sizes[a] = n
            strides[a] = abs(st)
            offs[a] = (min(idx[0], idx[-1]) if n else 0)
            if st < 0 and n > 1:
                rev.append(a)
        if x.const is not None and x.name is None:
            sl = tuple(slice(o, o + (n - 1) * st + 1 if n else o, st)
                       for o, n, st in zip(offs, sizes, strides))
            arr = x.const[sl]
            for a in rev:
                arr = np.flip(arr, a)
            return self.const_value(arr.copy())
        if any(n == 0 for n in sizes):
            raise self.unsupported(node, "an empty result")
        v = x
        if offs != [0] * r or sizes != list(x.shape) or strides != [1] * r:
            name = self.fresh()
            self.emit(f"{name} = tensor.extract_slice {self.materialize(x)}{M.i64_list(offs)} "
                      f"{M.i64_list(sizes)} {M.i64_list(strides)} : {M.tensor_type(x.shape, x.dtype)} "
                      f"to {M.tensor_type(sizes, x.dtype)}{self.loc_suffix()}")
            v = Value(name, tuple(sizes), x.dtype, base=x.base)
        if rev:
            v = self.reverse(v, rev)
        return v

    def op_Gather(self, node, inputs, attrs):
        data, idx = inputs
        axis = attrs.get("axis", 0)
        if axis < 0:
            axis += data.rank
        dim = data.shape[axis]
        out_shape = tuple(data.shape[:axis]) + tuple(idx.shape) + tuple(data.shape[axis + 1:])
        if idx.const is not None and idx.const.size == 1 and idx.name is None:
            # A single index: a slice, then drop (or keep) the axis.
            i = int(idx.const.reshape(-1)[0])
            i = i + dim if i < 0 else i
            offs = [0] * data.rank
            offs[axis] = i
            sizes = list(data.shape)
            sizes[axis] = 1
            name = self.fresh()
            self.emit(f"{name} = tensor.extract_slice {self.materialize(data)}{M.i64_list(offs)} "
                      f"{M.i64_list(sizes)} {M.i64_list([1] * data.rank)} : "
                      f"{M.tensor_type(data.shape, data.dtype)} to "
                      f"{M.tensor_type(sizes, data.dtype)}{self.loc_suffix()}")
            return self.reshape(Value(name, tuple(sizes), data.dtype, base=data.base), out_shape)
        if M.is_float(idx.dtype):
            raise self.unsupported(node, "float indices")
        data_name = self.materialize(data)
        ir = idx.rank
        n = len(out_shape)
        idx_map = M.affine_map(n, [f"d{axis + k}" for k in range(ir)])
        iet = M.element_type(idx.dtype)
        data_ty = M.tensor_type(data.shape, data.dtype)

        def body(b, args, _o):
            i = b.raw(f"arith.index_cast {args[0]} : {iet} to index")
            if not M.is_unsigned(idx.dtype):
                zero = b.raw("arith.constant 0 : index")
                d = b.raw(f"arith.constant {dim} : index")
                neg = b.raw(f"arith.cmpi slt, {i}, {zero} : index")
                wrapped = b.raw(f"arith.addi {i}, {d} : index")
                i = b.raw(f"arith.select {neg}, {wrapped}, {i} : index")
            coords = [b.index(k) for k in range(axis)] + [i] + \
                [b.index(axis + ir + k) for k in range(data.rank - axis - 1)]
            return b.raw(f"tensor.extract {data_name}[{', '.join(coords)}] : {data_ty}")
        return self.generic([idx], [idx_map, M.affine_map(n, M.dims(n))], out_shape,
                            data.dtype, body)

    def op_Range(self, node, inputs, attrs):
        start, limit, delta = (self.static(v, "bounds", "Range") for v in inputs)
        return self.const_value(np.arange(start, limit, delta).astype(start.dtype))

    # ----------------------------------------------------------- reductions
    def reduce(self, x: Value, axes, kind: str, keepdims: bool) -> Value:
        axes = sorted(set(a + x.rank if a < 0 else a for a in axes))
        kept = [d for i, d in enumerate(x.shape) if i not in axes]
        dt = x.dtype
        et = M.element_type(dt)
        fl = M.is_float(dt)
        if kind == "max":
            init = -np.inf if fl else np.iinfo(dt).min
            op = "arith.maximumf" if fl else ("arith.maxui" if M.is_unsigned(dt) else "arith.maxsi")
        else:
            init = 0
            op = "arith.addf" if fl else "arith.addi"
        acc = self.filled(kept, dt, init)
        a, o = self.fresh(), self.fresh()
        name = self.fresh()
        r = self.fresh()
        self.emit(f"{name} = linalg.reduce ins({self.materialize(x)} : {M.tensor_type(x.shape, dt)}) "
                  f"outs({acc} : {M.tensor_type(kept, dt)}) dimensions = {M.i64_list(axes)}")
        self.lines.append(f"    ({a}: {et}, {o}: {et}) {{")
        self.lines.append(f"      {r} = {op} {a}, {o} : {et}")
        self.lines.append(f"      linalg.yield {r} : {et}")
        self.lines.append(f"    }}{self.loc_suffix()}")
        v = Value(name, tuple(kept), dt)
        if kind == "mean":
            count = int(np.prod([x.shape[i] for i in axes]))
            if not fl:
                raise TypeError("integer mean")
            v = self.elementwise([v], dt, lambda b, s: b.op(
                f"arith.divf {s[0]}, {b.const(count, dt)}", et))
        if keepdims:
            v = self.reshape(v, [1 if i in axes else d for i, d in enumerate(x.shape)])
        return v

    def _reduce_op(self, node, inputs, attrs, kind):
        x = inputs[0]
        axes = self._axes(node, inputs, attrs)
        keepdims = bool(attrs.get("keepdims", 1))
        if axes is None or len(axes) == 0:
            if attrs.get("noop_with_empty_axes", 0):
                return x
            axes = list(range(x.rank))
        if any(x.shape[(a + x.rank) % x.rank] == 0 for a in axes) or 0 in x.shape:
            raise self.unsupported(node, "an empty input")
        return self.reduce(x, axes, kind, keepdims)

    def op_ReduceSum(self, node, inputs, attrs):
        return self._reduce_op(node, inputs, attrs, "sum")

    def op_ReduceMean(self, node, inputs, attrs):
        return self._reduce_op(node, inputs, attrs, "mean")

    def op_ReduceMax(self, node, inputs, attrs):
        return self._reduce_op(node, inputs, attrs, "max")

    def op_Softmax(self, node, inputs, attrs):
        x = inputs[0]
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "integer input")
        if self.opset >= 13:
            axis = attrs.get("axis", -1)
            axis = axis + x.rank if axis < 0 else axis
            v = x
        else:
            axis = attrs.get("axis", 1)
            axis = axis + x.rank if axis < 0 else axis
            v = self.reshape(x, (int(np.prod(x.shape[:axis])), int(np.prod(x.shape[axis:]))))
            axis = 1
        ty = M.tensor_type(v.shape, v.dtype)
        e = self.empty(v.shape, v.dtype)
        name = self.fresh()
        self.emit(f"{name} = linalg.softmax dimension({axis}) ins({self.materialize(v)} : {ty}) "
                  f"outs({e} : {ty}) -> {ty}{self.loc_suffix()}")
        return self.reshape(Value(name, v.shape, v.dtype), x.shape)

    def op_LayerNormalization(self, node, inputs, attrs):
        x, scale = inputs[0], inputs[1]
        bias = inputs[2] if len(inputs) > 2 else None
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "integer input")
        axis = attrs.get("axis", -1)
        axis = axis + x.rank if axis < 0 else axis
        eps = attrs.get("epsilon", 1e-5)
        dt, et = x.dtype, M.element_type(x.dtype)
        r = x.rank
        axes = list(range(axis, r))
        count = int(np.prod(x.shape[axis:]))
        mean = self.reduce(x, axes, "mean", False)
        prefix = list(range(axis))
        pmap = M.affine_map(r, [f"d{i}" for i in prefix])
        full = M.affine_map(r, M.dims(r))
        var0 = self.filled(mean.shape, dt, 0.0)

        def var_body(b, a, o):
            d = b.op(f"arith.subf {a[0]}, {a[1]}", et)
            sq = b.op(f"arith.mulf {d}, {d}", et)
            return b.op(f"arith.addf {sq}, {o}", et)
        var = self.generic([x, mean], [full, pmap, pmap], mean.shape, dt, var_body,
                           iterators=["parallel"] * axis + ["reduction"] * (r - axis),
                           n_dims=r, init=var0)
        ins = [x, mean, var, scale] + ([bias] if bias is not None else [])
        maps = [full, pmap, pmap, M.broadcast_map(scale.shape, x.shape)]
        if bias is not None:
            maps.append(M.broadcast_map(bias.shape, x.shape))
        maps.append(full)

        def norm_body(b, a, o):
            v = b.op(f"arith.divf {a[2]}, {b.const(count, dt)}", et)
            v = b.op(f"arith.addf {v}, {b.const(eps, dt)}", et)
            inv = b.op(f"math.rsqrt {v}", et)
            d = b.op(f"arith.subf {a[0]}, {a[1]}", et)
            y = b.op(f"arith.mulf {d}, {inv}", et)
            y = b.op(f"arith.mulf {y}, {a[3]}", et)
            if bias is not None:
                y = b.op(f"arith.addf {y}, {a[4]}", et)
            return y
        y = self.generic(ins, maps, x.shape, dt, norm_body)
        if len(node.output) == 1:
            return y
        stat_shape = list(x.shape[:axis]) + [1] * (r - axis)

        def inv_fn(b, a):
            v = b.op(f"arith.divf {a[0]}, {b.const(count, dt)}", et)
            v = b.op(f"arith.addf {v}, {b.const(eps, dt)}", et)
            return b.op(f"math.rsqrt {v}", et)
        inv = self.elementwise([var], dt, inv_fn)
        return [y, self.reshape(mean, stat_shape), self.reshape(inv, stat_shape)]

    def op_BatchNormalization(self, node, inputs, attrs):
        x, scale, b_, mean, var = inputs[:5]
        if attrs.get("training_mode", 0) or (self.opset < 7 and not attrs.get("is_test", 0)):
            raise self.unsupported(node, "training mode")
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "integer input")
        eps = attrs.get("epsilon", 1e-5)
        dt, et = x.dtype, M.element_type(x.dtype)
        r = x.rank
        cmap = M.affine_map(r, ["d1"])
        full = M.affine_map(r, M.dims(r))
        params = [self.cast(p, dt) for p in (scale, b_, mean, var)]

        def body(b, a, o):
            v = b.op(f"arith.addf {a[4]}, {b.const(eps, dt)}", et)
            inv = b.op(f"math.rsqrt {v}", et)
            s = b.op(f"arith.mulf {a[1]}, {inv}", et)
            d = b.op(f"arith.subf {a[0]}, {a[3]}", et)
            y = b.op(f"arith.mulf {d}, {s}", et)
            return b.op(f"arith.addf {y}, {a[2]}", et)
        return self.generic([x] + params, [full] + [cmap] * 4 + [full], x.shape, dt, body)

    # ----------------------------------------------------------- contractions
    def matmul2d(self, a: Value, b: Value) -> Value:
        shape = (a.shape[0], b.shape[1])
        acc = self.filled(shape, a.dtype, 0)
        name = self.fresh()
        ty = M.tensor_type(shape, a.dtype)
        self.emit(f"{name} = linalg.matmul ins({self.materialize(a)}, {self.materialize(b)} : "
                  f"{M.tensor_type(a.shape, a.dtype)}, {M.tensor_type(b.shape, b.dtype)}) "
                  f"outs({acc} : {ty}) -> {ty}{self.loc_suffix()}")
        return Value(name, shape, a.dtype)

    def op_MatMul(self, node, inputs, attrs):
        a, b = inputs
        if a.dtype != b.dtype or not M.is_float(a.dtype):
            raise self.unsupported(node, f"element types {a.dtype}, {b.dtype} (floats only)")
        a_vec, b_vec = a.rank == 1, b.rank == 1
        if a_vec:
            a = self.reshape(a, (1, a.shape[0]))
        if b_vec:
            b = self.reshape(b, (b.shape[0], 1))
        K = a.shape[-1]
        if b.shape[-2] != K:
            raise InvalidModel(f"node '{self.node_name}': MatMul {a.shape} x {b.shape}")
        batch = M.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        Mdim, N = a.shape[-2], b.shape[-1]
        out_shape = tuple(batch) + (Mdim, N)
        if b.rank == 2:
            # (..., M, K) x (K, N): one 2-D matmul over the collapsed rows.
            a2 = self.reshape(a, (int(np.prod(a.shape[:-1])), K))
            y = self.reshape(self.matmul2d(a2, b), out_shape)
        elif tuple(a.shape[:-2]) == tuple(b.shape[:-2]) == tuple(batch):
            nb = int(np.prod(batch))
            a3 = self.reshape(a, (nb, Mdim, K))
            b3 = self.reshape(b, (nb, K, N))
            shape = (nb, Mdim, N)
            acc = self.filled(shape, a.dtype, 0)
            name = self.fresh()
            ty = M.tensor_type(shape, a.dtype)
            self.emit(f"{name} = linalg.batch_matmul ins({self.materialize(a3)}, {self.materialize(b3)} : "
                      f"{M.tensor_type(a3.shape, a.dtype)}, {M.tensor_type(b3.shape, b.dtype)}) "
                      f"outs({acc} : {ty}) -> {ty}{self.loc_suffix()}")
            y = self.reshape(Value(name, shape, a.dtype), out_shape)
        else:
            nbat = len(batch)
            n = nbat + 3  # batch..., m, n, k
            dm, dn, dk = f"d{nbat}", f"d{nbat + 1}", f"d{nbat + 2}"

            def operand_map(v, last2):
                off = nbat - (v.rank - 2)
                res = []
                for i in range(v.rank - 2):
                    j = off + i
                    res.append("0" if v.shape[i] == 1 and batch[j] != 1 else f"d{j}")
                return M.affine_map(n, res + last2)
            maps = [operand_map(a, [dm, dk]), operand_map(b, [dk, dn]),
                    M.affine_map(n, [f"d{i}" for i in range(nbat)] + [dm, dn])]
            et = M.element_type(a.dtype)
            acc = self.filled(out_shape, a.dtype, 0)

            def body(bd, s, o):
                p = bd.op(f"arith.mulf {s[0]}, {s[1]}", et)
                return bd.op(f"arith.addf {o}, {p}", et)
            y = self.generic([a, b], maps, out_shape, a.dtype, body,
                             iterators=["parallel"] * (nbat + 2) + ["reduction"], n_dims=n,
                             init=acc)
        final = list(out_shape)
        if b_vec:
            final.pop(-1)
        if a_vec:
            final.pop(-2 if not b_vec else -1)
        return self.reshape(y, final)

    def op_Gemm(self, node, inputs, attrs):
        a, b = inputs[0], inputs[1]
        c = inputs[2] if len(inputs) > 2 else None
        if not M.is_float(a.dtype):
            raise self.unsupported(node, "integer inputs")
        alpha, beta = attrs.get("alpha", 1.0), attrs.get("beta", 1.0)
        if attrs.get("transA", 0):
            a = self.transpose(a, [1, 0])
        if attrs.get("transB", 0):
            b = self.transpose(b, [1, 0])
        y = self.matmul2d(a, b)
        dt, et = a.dtype, M.element_type(a.dtype)
        if c is None or beta == 0.0:
            if alpha == 1.0:
                return y
            return self.elementwise([y], dt, lambda bd, s: bd.op(
                f"arith.mulf {s[0]}, {bd.const(alpha, dt)}", et))

        def fn(bd, s):
            v = s[0]
            if alpha != 1.0:
                v = bd.op(f"arith.mulf {v}, {bd.const(alpha, dt)}", et)
            w = s[1]
            if beta != 1.0:
                w = bd.op(f"arith.mulf {w}, {bd.const(beta, dt)}", et)
            return bd.op(f"arith.addf {v}, {w}", et)
        return self.elementwise([y, c], dt, fn, out_shape=y.shape)

    # ------------------------------------------------------- convolutions
    def _conv_pads(self, attrs, in_spatial, kernel, strides, dilations, node):
        nd = len(in_spatial)
        auto_pad = _s(attrs.get("auto_pad", "NOTSET"))
        if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            lo, hi = [], []
            for i in range(nd):
                out = -(-in_spatial[i] // strides[i])
                total = max(0, (out - 1) * strides[i] + (kernel[i] - 1) * dilations[i] + 1
                            - in_spatial[i])
                small = total // 2
                if auto_pad == "SAME_UPPER":
                    lo.append(small), hi.append(total - small)
                else:
                    lo.append(total - small), hi.append(small)
            return lo, hi
        if auto_pad == "VALID":
            return [0] * nd, [0] * nd
        if auto_pad not in ("NOTSET", ""):
            raise self.unsupported(node, f"auto_pad={auto_pad}")
        pads = list(attrs.get("pads", [0] * (2 * nd)))
        return pads[:nd], pads[nd:]

    def op_Conv(self, node, inputs, attrs):
        x, w = inputs[0], inputs[1]
        bias = inputs[2] if len(inputs) > 2 else None
        if not M.is_float(x.dtype) or w.dtype != x.dtype:
            raise self.unsupported(node, "non-float inputs")
        nd = x.rank - 2
        kernel = list(w.shape[2:])
        strides = list(attrs.get("strides", [1] * nd))
        dil = list(attrs.get("dilations", [1] * nd))
        group = attrs.get("group", 1)
        lo, hi = self._conv_pads(attrs, x.shape[2:], kernel, strides, dil, node)
        xp = self.pad(x, [0, 0] + lo, [0, 0] + hi, 0.0)
        return self.conv(xp, w, bias, strides, dil, group)

    def conv(self, xp: Value, w: Value, bias, strides, dil, group) -> Value:
        nd = xp.rank - 2
        N, C = xp.shape[:2]
        Mo = w.shape[0]
        kernel = list(w.shape[2:])
        out_sp = [(xp.shape[2 + i] - dil[i] * (kernel[i] - 1) - 1) // strides[i] + 1
                  for i in range(nd)]
        if any(o <= 0 for o in out_sp):
            raise InvalidModel(f"node '{self.node_name}': empty convolution output")
        if C != w.shape[1] * group:
            raise InvalidModel(f"node '{self.node_name}': {C} input channels, weight "
                               f"{w.shape} with group={group}")
        dt = xp.dtype
        out_shape = (N, Mo, *out_sp)
        attr = (f"{{strides = {M.dense_i64(strides)}, dilations = {M.dense_i64(dil)}}}")
        named = {1: "linalg.conv_1d_ncw_fcw", 2: "linalg.conv_2d_nchw_fchw",
                 3: "linalg.conv_3d_ncdhw_fcdhw"}
        if group == 1 and nd in named:
            acc = self.filled(out_shape, dt, 0)
            name = self.fresh()
            ty = M.tensor_type(out_shape, dt)
            self.emit(f"{name} = {named[nd]} {attr} ins({self.materialize(xp)}, {self.materialize(w)} : "
                      f"{M.tensor_type(xp.shape, dt)}, {M.tensor_type(w.shape, dt)}) "
                      f"outs({acc} : {ty}) -> {ty}{self.loc_suffix()}")
            y = Value(name, out_shape, dt)
        elif group == C and Mo == C and nd in (1, 2):
            # Depthwise (one filter per channel): the named op, which ALTE
            # can move to channels-last (depthwise_conv_2d_nhwc_hwc) with
            # the convolutions around it.
            depthwise = {1: "linalg.depthwise_conv_1d_ncw_cw",
                         2: "linalg.depthwise_conv_2d_nchw_chw"}[nd]
            wd = self.reshape(w, (C, *kernel))
            acc = self.filled(out_shape, dt, 0)
            name = self.fresh()
            ty = M.tensor_type(out_shape, dt)
            self.emit(f"{name} = {depthwise} {attr} ins({self.materialize(xp)}, "
                      f"{self.materialize(wd)} : {M.tensor_type(xp.shape, dt)}, "
                      f"{M.tensor_type(wd.shape, dt)}) outs({acc} : {ty}) -> {ty}"
                      f"{self.loc_suffix()}")
            y = Value(name, out_shape, dt)
        else:
            G, Cg, Mg = group, C // group, Mo // group
            xg = self.reshape(xp, (N, G, Cg, *xp.shape[2:]))
            wg = self.reshape(w, (G, Mg, Cg, *kernel))
            gshape = (N, G, Mg, *out_sp)
            acc = self.filled(gshape, dt, 0)
            gty = M.tensor_type(gshape, dt)
            if nd == 2:
                name = self.fresh()
                self.emit(f"{name} = linalg.conv_2d_ngchw_gfchw {attr} ins({self.materialize(xg)}, "
                          f"{self.materialize(wg)} : {M.tensor_type(xg.shape, dt)}, "
                          f"{M.tensor_type(wg.shape, dt)}) outs({acc} : {gty}) -> {gty}"
                          f"{self.loc_suffix()}")
                yg = Value(name, gshape, dt)
            else:
                # dims: n, g, m, o_1..o_nd, c, k_1..k_nd
                n = 4 + 2 * nd
                o = [f"d{3 + i}" for i in range(nd)]
                k = [f"d{4 + nd + i}" for i in range(nd)]
                c = f"d{3 + nd}"
                sp = [f"{o[i]} * {strides[i]} + {k[i]} * {dil[i]}" for i in range(nd)]
                maps = [M.affine_map(n, ["d0", "d1", c] + sp),
                        M.affine_map(n, ["d1", "d2", c] + k),
                        M.affine_map(n, ["d0", "d1", "d2"] + o)]
                et = M.element_type(dt)

                def body(b, s, acc_):
                    p = b.op(f"arith.mulf {s[0]}, {s[1]}", et)
                    return b.op(f"arith.addf {acc_}, {p}", et)
                yg = self.generic([xg, wg], maps, gshape, dt, body, n_dims=n,
                                  iterators=["parallel"] * (3 + nd) + ["reduction"] * (1 + nd),
                                  init=acc)
            y = self.reshape(yg, out_shape)
        if bias is not None:
            et = M.element_type(dt)
            r = len(out_shape)
            y = self.generic([y, bias], [M.affine_map(r, M.dims(r)), M.affine_map(r, ["d1"]),
                                         M.affine_map(r, M.dims(r))], out_shape, dt,
                             lambda b, s, o: b.op(f"arith.addf {s[0]}, {s[1]}", et))
        return y

    def op_ConvTranspose(self, node, inputs, attrs):
        x, w = inputs[0], inputs[1]
        bias = inputs[2] if len(inputs) > 2 else None
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "non-float inputs")
        nd = x.rank - 2
        group = attrs.get("group", 1)
        C = x.shape[1]
        Mg = w.shape[1]
        kernel = list(attrs.get("kernel_shape", w.shape[2:]))
        strides = list(attrs.get("strides", [1] * nd))
        dil = list(attrs.get("dilations", [1] * nd))
        out_pad = list(attrs.get("output_padding", [0] * nd))
        in_sp = list(x.shape[2:])
        auto_pad = _s(attrs.get("auto_pad", "NOTSET"))
        if "output_shape" in attrs:
            out_sp = list(attrs["output_shape"])[-nd:]
            total = [strides[i] * (in_sp[i] - 1) + out_pad[i] + ((kernel[i] - 1) * dil[i] + 1)
                     - out_sp[i] for i in range(nd)]
            if auto_pad == "SAME_UPPER":
                lo = [t // 2 for t in total]
            else:
                lo = [t - t // 2 for t in total]
            hi = [t - l for t, l in zip(total, lo)]
        elif auto_pad in ("SAME_UPPER", "SAME_LOWER"):
            out_sp = [in_sp[i] * strides[i] for i in range(nd)]
            total = [strides[i] * (in_sp[i] - 1) + out_pad[i] + ((kernel[i] - 1) * dil[i] + 1)
                     - out_sp[i] for i in range(nd)]
            if auto_pad == "SAME_UPPER":
                lo = [t // 2 for t in total]
            else:
                lo = [t - t // 2 for t in total]
            hi = [t - l for t, l in zip(total, lo)]
        else:
            pads = list(attrs.get("pads", [0] * (2 * nd)))
            lo, hi = pads[:nd], pads[nd:]
        # Transposed convolution = zero-insertion (stride), padding by
        # dilation*(k-1) - pad, and a convolution with the flipped filter,
        # its in/out channels swapped per group.
        dt = x.dtype
        up_sp = [(in_sp[i] - 1) * strides[i] + 1 for i in range(nd)]
        if any(s != 1 for s in strides):
            up_shape = (x.shape[0], C, *up_sp)
            z = self.filled(up_shape, dt, 0.0)
            name = self.fresh()
            self.emit(f"{name} = tensor.insert_slice {self.materialize(x)} into {z}"
                      f"{M.i64_list([0] * x.rank)} {M.i64_list(x.shape)} "
                      f"{M.i64_list([1, 1] + strides)} : {M.tensor_type(x.shape, dt)} into "
                      f"{M.tensor_type(up_shape, dt)}{self.loc_suffix()}")
            xu = Value(name, up_shape, dt)
        else:
            xu = x
        plo = [dil[i] * (kernel[i] - 1) - lo[i] for i in range(nd)]
        phi = [dil[i] * (kernel[i] - 1) - hi[i] + out_pad[i] for i in range(nd)]
        if any(p < 0 for p in plo + phi):
            raise self.unsupported(node, "padding larger than the dilated kernel")
        xp = self.pad(xu, [0, 0] + plo, [0, 0] + phi, 0.0)
        Cg = C // group
        if w.const is not None and w.name is None:
            wc = w.const.reshape(group, Cg, Mg, *kernel)
            wc = np.swapaxes(wc, 1, 2)  # (g, M/g, C/g, k...)
            wc = np.flip(wc, axis=tuple(range(3, 3 + nd)))
            wt = self.const_value(np.ascontiguousarray(wc.reshape(group * Mg, Cg, *kernel)))
        else:
            # The same on tensors: (g, C/g, M/g, k) -> (g, M/g, C/g, flipped k).
            w4 = self.reshape(w, (group, Cg, Mg, *kernel))
            wg = self.transpose(w4, [0, 2, 1] + list(range(3, 3 + nd)))
            wg = self.reverse(wg, list(range(3, 3 + nd)))
            wt = self.reshape(wg, (group * Mg, Cg, *kernel))
        return self.conv(xp, wt, bias, [1] * nd, dil, group)

    # ------------------------------------------------------------ pooling
    def _pool(self, node, inputs, attrs, kind):
        x = inputs[0]
        if len([o for o in node.output if o]) > 1:
            raise self.unsupported(node, "the Indices output")
        nd = x.rank - 2
        kernel = list(attrs["kernel_shape"])
        strides = list(attrs.get("strides", [1] * nd))
        dil = list(attrs.get("dilations", [1] * nd))
        if attrs.get("storage_order", 0):
            raise self.unsupported(node, "storage_order=1")
        in_sp = list(x.shape[2:])
        lo, hi = self._conv_pads(attrs, in_sp, kernel, strides, dil, node)
        ceil_mode = attrs.get("ceil_mode", 0)
        out_sp = []
        for i in range(nd):
            eff = (kernel[i] - 1) * dil[i] + 1
            span = in_sp[i] + lo[i] + hi[i] - eff
            o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
            if ceil_mode and (o - 1) * strides[i] >= in_sp[i] + lo[i]:
                o -= 1
            out_sp.append(o)
        # Extra padding at the end so every window of the (ceil) output fits.
        extra = [max(0, (out_sp[i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1
                     - (in_sp[i] + lo[i] + hi[i])) for i in range(nd)]
        dt = x.dtype
        fl = M.is_float(dt)
        if kind == "max":
            padv = -np.inf if fl else np.iinfo(dt).min
        else:
            if not fl:
                raise self.unsupported(node, "integer average")
            padv = 0.0
        xp = self.pad(x, [0, 0] + lo, [0, 0] + [h + e for h, e in zip(hi, extra)], padv)
        out_shape = (x.shape[0], x.shape[1], *out_sp)
        acc = self.filled(out_shape, dt, padv)
        et = M.element_type(dt)
        ty = M.tensor_type(out_shape, dt)
        named = {1: "ncw", 2: "nchw"}
        kty = M.tensor_type(kernel, dt)
        kernel_t = self.empty(kernel, dt)
        if kind == "max":
            op = "arith.maximumf" if fl else ("arith.maxui" if M.is_unsigned(dt) else "arith.maxsi")
        else:
            op = "arith.addf"
        if nd in named and (fl or not M.is_unsigned(dt)):
            name = self.fresh()
            self.emit(f"{name} = linalg.pooling_{named[nd]}_{'max' if kind == 'max' else 'sum'} "
                      f"{{strides = {M.dense_i64(strides)}, dilations = {M.dense_i64(dil)}}} "
                      f"ins({self.materialize(xp)}, {kernel_t} : {M.tensor_type(xp.shape, dt)}, {kty}) "
                      f"outs({acc} : {ty}) -> {ty}{self.loc_suffix()}")
            y = Value(name, out_shape, dt)
        else:
            n = 2 + 2 * nd
            o = [f"d{2 + i}" for i in range(nd)]
            k = [f"d{2 + nd + i}" for i in range(nd)]
            sp = [f"{o[i]} * {strides[i]} + {k[i]} * {dil[i]}" for i in range(nd)]
            maps = [M.affine_map(n, ["d0", "d1"] + sp), M.affine_map(n, k),
                    M.affine_map(n, ["d0", "d1"] + o)]
            y = self.generic([xp, (kernel_t, kty, et)], maps, out_shape, dt,
                             lambda b, s, a: b.op(f"{op} {s[0]}, {a}", et), n_dims=n,
                             iterators=["parallel"] * (2 + nd) + ["reduction"] * nd, init=acc)
        if kind == "max":
            return y
        include = attrs.get("count_include_pad", 0)
        counts = np.ones((), dtype=np.float64)
        for i in range(nd):
            # With count_include_pad the ceil_mode overflow counts too (as
            # onnx's reference and onnxruntime do).
            lo_b, hi_b = (-lo[i], in_sp[i] + hi[i] + extra[i]) if include else (0, in_sp[i])
            taps = (np.arange(out_sp[i])[:, None] * strides[i] - lo[i]
                    + np.arange(kernel[i])[None, :] * dil[i])
            cnt = ((taps >= lo_b) & (taps < hi_b)).sum(axis=1).astype(np.float64)
            counts = np.multiply.outer(counts, cnt)
        recip = (1.0 / counts).astype(dt)
        if np.all(recip == recip.reshape(-1)[0]):
            r0 = recip.reshape(-1)[0]
            return self.elementwise([y], dt, lambda b, s: b.op(
                f"arith.mulf {s[0]}, {b.const(r0, dt)}", et))
        rv = self.const_value(recip.reshape((1, 1, *out_sp)))
        return self.elementwise([y, rv], dt, lambda b, s: b.op(f"arith.mulf {s[0]}, {s[1]}", et))

    def op_MaxPool(self, node, inputs, attrs):
        return self._pool(node, inputs, attrs, "max")

    def op_AveragePool(self, node, inputs, attrs):
        return self._pool(node, inputs, attrs, "avg")

    def op_GlobalAveragePool(self, node, inputs, attrs):
        x = inputs[0]
        return self.reduce(x, list(range(2, x.rank)), "mean", True)

    def op_GlobalMaxPool(self, node, inputs, attrs):
        x = inputs[0]
        return self.reduce(x, list(range(2, x.rank)), "max", True)

    # -------------------------------------------------------------- Resize
    def op_Resize(self, node, inputs, attrs):
        x = inputs[0]
        if self.opset < 11:
            raise self.unsupported(node, f"Resize-{self.opset} (opset 11 or later only)")
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "integer input")
        mode = _s(attrs.get("mode", "nearest"))
        ctm = _s(attrs.get("coordinate_transformation_mode", "half_pixel"))
        if ctm == "tf_crop_and_resize":
            raise self.unsupported(node, "coordinate_transformation_mode=tf_crop_and_resize")
        policy = _s(attrs.get("keep_aspect_ratio_policy", "stretch"))
        if policy != "stretch":
            raise self.unsupported(node, f"keep_aspect_ratio_policy={policy}")
        scales = self.static(inputs[2] if len(inputs) > 2 else None, "scales", "Resize")
        sizes = self.static(inputs[3] if len(inputs) > 3 else None, "sizes", "Resize")
        if scales is not None and scales.size == 0:
            scales = None
        if sizes is not None and sizes.size == 0:
            sizes = None
        axes = attrs.get("axes")
        r = x.rank
        axes = list(range(r)) if axes is None else [a + r if a < 0 else a for a in axes]
        v = x
        for j, a in enumerate(axes):
            n_in = x.shape[a]
            if sizes is not None:
                n_out = int(sizes[j])
                kw = dict(sizes=np.array([n_in, n_out], np.int64))
            else:
                s = float(scales[j])
                n_out = int(math.floor(n_in * s))
                kw = dict(scales=np.array([1.0, s], np.float32))
            mat = self._resize_matrix(node, n_in, kw)
            if mat.shape != (n_out, n_in):
                raise InvalidModel(f"node '{self.node_name}': resize matrix {mat.shape}")
            if n_out == n_in and np.array_equal(mat, np.eye(n_in)):
                continue
            v = self._apply_along(v, a, mat.astype(x.dtype))
        return v if v is not x else self.copy(x)

    def _resize_matrix(self, node, n_in, kw):
        """The interpolation matrix (n_out x n_in) of one axis: onnx's
        reference Resize applied to the identity (rows = unit vectors)."""
        from onnx.reference import ReferenceEvaluator
        h = self.onnx.helper
        attrs = [a for a in node.attribute if a.name not in ("axes",)]
        names = ["X", "", "scales", ""] if "scales" in kw else ["X", "", "", "sizes"]
        n = h.make_node("Resize", names, ["Y"])
        n.attribute.extend(attrs)
        vis = [h.make_tensor_value_info("X", 1, [n_in, n_in])]
        inits = [self.onnx.numpy_helper.from_array(list(kw.values())[0], list(kw.keys())[0])]
        g = h.make_graph([n], "r", vis, [h.make_empty_tensor_value_info("Y")], inits)
        m = h.make_model(g, opset_imports=[h.make_opsetid("", max(self.opset, 13))])
        eye = np.eye(n_in, dtype=np.float32)
        (out,) = ReferenceEvaluator(m).run(None, {"X": eye})
        return np.asarray(out, dtype=np.float64).T

    def _apply_along(self, v: Value, axis: int, mat: np.ndarray) -> Value:
        """out[.., j, ..] = sum_i v[.., i, ..] * mat[j, i] (a contraction)."""
        r = v.rank
        n_out = mat.shape[0]
        out_shape = list(v.shape)
        out_shape[axis] = n_out
        n = r + 1
        red = f"d{r}"
        in_res = [red if i == axis else f"d{i}" for i in range(r)]
        maps = [M.affine_map(n, in_res), M.affine_map(n, [f"d{axis}", red]),
                M.affine_map(n, M.dims(r))]
        et = M.element_type(v.dtype)
        acc = self.filled(out_shape, v.dtype, 0.0)

        def body(b, s, o):
            p = b.op(f"arith.mulf {s[0]}, {s[1]}", et)
            return b.op(f"arith.addf {o}, {p}", et)
        return self.generic([v, self.const_value(mat)], maps, out_shape, v.dtype, body,
                            iterators=["parallel"] * r + ["reduction"], n_dims=n, init=acc)

    # --------------------------------------------------------- quantization
    def _qparams(self, node, inputs, x_rank, attrs):
        scale = self.static(inputs[1], "scale", node.op_type)
        zp = self.static(inputs[2] if len(inputs) > 2 else None, "zero point", node.op_type)
        if attrs.get("block_size", 0):
            raise self.unsupported(node, "blocked quantization")
        axis = attrs.get("axis", 1)
        axis = axis + x_rank if axis < 0 else axis
        return scale, zp, axis

    def op_QuantizeLinear(self, node, inputs, attrs):
        x = inputs[0]
        scale, zp, axis = self._qparams(node, inputs, x.rank, attrs)
        if "output_dtype" in attrs and attrs["output_dtype"]:
            qdt = _onnx_dtype(attrs["output_dtype"], "output_dtype", node=node, importer=self)
        else:
            qdt = zp.dtype if zp is not None else np.dtype(np.uint8)
        if qdt not in (np.dtype(np.int8), np.dtype(np.uint8)):
            raise self.unsupported(node, f"quantized type {qdt} (int8/uint8 only)")
        if not M.is_float(x.dtype):
            raise self.unsupported(node, "integer input")
        zp = np.zeros_like(scale, dtype=qdt) if zp is None else zp
        info = np.iinfo(qdt)
        dt, et = x.dtype, M.element_type(x.dtype)
        sv = self._qvec(scale.astype(dt), x, axis)
        zv = self._qvec(zp.astype(dt), x, axis)

        def fn(b, s):
            q = b.op(f"arith.divf {s[0]}, {s[1]}", et)
            q = b.op(f"math.roundeven {q}", et)
            q = b.op(f"arith.addf {q}, {s[2]}", et)
            q = b.op(f"arith.maximumf {q}, {b.const(info.min, dt)}", et)
            q = b.op(f"arith.minimumf {q}, {b.const(info.max, dt)}", et)
            conv = "fptoui" if M.is_unsigned(qdt) else "fptosi"
            return b.raw(f"arith.{conv} {q} : {et} to i8")
        return self.elementwise([x, sv, zv], qdt, fn, out_shape=x.shape)

    def _qvec(self, p: np.ndarray, x: Value, axis: int) -> Value:
        if p.size == 1:
            return self.const_value(p.reshape(()))
        shape = [1] * x.rank
        shape[axis] = p.size
        return self.const_value(p.reshape(shape))

    def op_DequantizeLinear(self, node, inputs, attrs):
        x = inputs[0]
        scale, zp, axis = self._qparams(node, inputs, x.rank, attrs)
        if x.dtype not in (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int32)):
            raise self.unsupported(node, f"input type {x.dtype} (int8/uint8/int32 only)")
        dt = scale.dtype
        if not M.is_float(dt):
            raise self.unsupported(node, "non-float scale")
        et = M.element_type(dt)
        sv = self._qvec(scale, x, axis)
        ins = [x, sv]
        if zp is not None and np.any(zp != 0):
            ins.append(self._qvec(zp.astype(np.int32), x, axis))
        xet = M.element_type(x.dtype)

        def fn(b, s):
            v = s[0]
            if xet != "i32":
                v = b.raw(f"arith.{'extui' if M.is_unsigned(x.dtype) else 'extsi'} {v} : {xet} to i32")
            if len(s) > 2:
                v = b.op(f"arith.subi {v}, {s[2]}", "i32")
            f = b.raw(f"arith.sitofp {v} : i32 to {et}")
            return b.op(f"arith.mulf {f}, {s[1]}", et)
        return self.elementwise(ins, dt, fn, out_shape=x.shape)


# Operators folded when all their inputs are constants.
_FOLDABLE = set(SUPPORTED_OPS) - {"Constant"}


def _groups(groups) -> str:
    return "[" + ", ".join(M.i64_list(g) for g in groups) + "]"


def _reassociation(long, short):
    """Grouping of the dims of `long` into those of `short` (collapse), or
    None when the reshape is not a pure collapse."""
    long, short = list(long), list(short)
    if not short:
        return [] if all(d == 1 for d in long) else None
    groups, i = [], 0
    for t in short:
        g, p = [], 1
        while i < len(long):
            g.append(i)
            p *= long[i]
            i += 1
            if p == t:
                break
        if p != t or not g:
            return None
        groups.append(g)
    while i < len(long):
        if long[i] != 1:
            return None
        groups[-1].append(i)
        i += 1
    return groups


_ONNX_TO_NUMPY = {1: np.float32, 2: np.uint8, 3: np.int8, 4: np.uint16, 5: np.int16,
                  6: np.int32, 7: np.int64, 9: np.bool_, 10: np.float16, 11: np.float64,
                  12: np.uint32, 13: np.uint64}


def _onnx_dtype(code: int, what: str, node=None, importer=None) -> np.dtype:
    if code not in _ONNX_TO_NUMPY:
        import onnx
        name = onnx.TensorProto.DataType.Name(code)
        if node is not None:
            raise UnsupportedOperator(node.op_type, importer.node_name if importer else node.name,
                                      f"element type {name}")
        raise InvalidModel(f"{what} has element type {name}, which is not supported")
    return np.dtype(_ONNX_TO_NUMPY[code])


@dataclass
class ImportedModel:
    mlir: str
    input_names: list
    input_shapes: list
    input_dtypes: list   # NumPy dtypes as the ONNX graph declares them
    output_names: list
    output_shapes: list
    output_dtypes: list


def load_model(path_or_model):
    """An onnx.ModelProto from a path, bytes or a ModelProto, with clear errors."""
    import onnx
    if isinstance(path_or_model, onnx.ModelProto):
        return path_or_model
    path = str(path_or_model)
    try:
        model = onnx.load(path)
    except FileNotFoundError:
        raise
    except Exception as error:
        raise InvalidModel(f"{path}: not a valid ONNX file ({type(error).__name__}: "
                           f"{str(error).splitlines()[0] if str(error) else 'parse error'})") from error
    if not model.graph.node and not model.graph.output:
        raise InvalidModel(f"{path}: not a valid ONNX file (empty graph)")
    try:
        onnx.checker.check_model(model)
    except Exception as error:
        raise InvalidModel(f"{path}: invalid ONNX model: {str(error).splitlines()[0]}") from error
    return model


def import_onnx(model, constant_inputs=None, input_shapes=None) -> ImportedModel:
    """Import an ONNX model (path or ModelProto) into MLIR text."""
    model = load_model(model)
    try:
        import onnx
        model = onnx.shape_inference.infer_shapes(model)
    except Exception:
        pass
    imp = Importer(model, constant_inputs=constant_inputs, input_shapes=input_shapes)
    text = imp.run()
    return ImportedModel(
        mlir=text,
        input_names=[n for n, _, _ in imp.args],
        input_shapes=[list(v.shape) for _, v, _ in imp.args],
        input_dtypes=[np.dtype(v.dtype).str for _, v, _ in imp.args],
        output_names=imp.output_names,
        output_shapes=[list(v.shape) for v in imp.results],
        output_dtypes=[np.dtype(v.dtype).str for v in imp.results],
    )
