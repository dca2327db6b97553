# SPDX-License-Identifier: MIT
"""ONNX models as one DirectML graph, lowered node by node as ONNX Runtime's
DirectML provider lowers them (docs/onnx.md), written as a dmlcl-dispatch
model (docs/dispatch.md: a "graph" dispatchable) and run by dmlcl-dispatch.

    >>> from dmlcl import onnx as dml_onnx
    >>> lowered = dml_onnx.lower(model, {"input": (1, 3, 224, 224)})
    >>> lowered.write("out/", {"input": x})          # out/model.json and its .npy files
    >>> outputs = dml_onnx.run(lowered, {"input": x})  # dmlcl-dispatch; numpy arrays

The model's input shapes are fixed first; what depends only on shapes and
constants (Shape, Gather of a shape, Concat of shapes, ConstantOfShape, ...)
is folded on the host with onnx.reference, as ONNX Runtime folds it before its
DirectML provider sees the graph. Every node left becomes DirectML operators,
or the lowering refuses the model with UnsupportedModelError naming the node,
its op type and why. Needs the onnx package (not a dependency of dmlcl).
"""
import json
import os
import subprocess
import tempfile

import numpy as np


class UnsupportedModelError(ValueError):
    """The model has a node this lowering does not map to DirectML operators."""


def _onnx():
    import onnx  # noqa: PLC0415 (optional dependency)
    return onnx


# ---- Fixing shapes and folding constants ---------------------------------------------------

def _set_input_shapes(model, shapes):
    onnx = _onnx()
    inits = {i.name for i in model.graph.initializer}
    for inp in model.graph.input:
        if inp.name in inits:
            continue
        if inp.name not in shapes:
            raise UnsupportedModelError(f"input {inp.name!r} needs a shape (input_shapes)")
        dims = inp.type.tensor_type.shape.dim
        shape = tuple(int(d) for d in shapes[inp.name])
        if len(dims) != len(shape):
            raise UnsupportedModelError(
                f"input {inp.name!r} has rank {len(dims)}, the shape given {shape}")
        for d, v in zip(dims, shape):
            if d.HasField("dim_value") and d.dim_value != v:
                raise UnsupportedModelError(
                    f"input {inp.name!r}: dimension {d.dim_value} fixed by the model, {v} given")
            d.Clear()
            d.dim_value = v
    for out in model.graph.output:  # inferred again below
        out.type.tensor_type.ClearField("shape")
    return onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)


def _shapes_of(model):
    """name -> (shape tuple, numpy dtype) for every value shape inference knows fully."""
    onnx = _onnx()
    known = {}
    for vi in list(model.graph.value_info) + list(model.graph.input) + list(model.graph.output):
        t = vi.type.tensor_type
        if not t.HasField("shape") or t.elem_type == 0:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        if None in dims:
            continue
        known[vi.name] = (tuple(dims), onnx.helper.tensor_dtype_to_np_dtype(t.elem_type))
    return known


_RANDOM = ("RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike")


def _eval_node(node, consts, model):
    """node's outputs into consts, evaluated with onnx.reference from constant inputs."""
    onnx = _onnx()
    from onnx import numpy_helper  # noqa: PLC0415
    from onnx.reference import ReferenceEvaluator  # noqa: PLC0415
    ins = [n for n in node.input if n]
    opset = [o for o in model.opset_import]
    graph = onnx.helper.make_graph(
        [node], "fold", [],
        [onnx.helper.make_tensor_value_info(o, 0, None) for o in node.output if o],
        [numpy_helper.from_array(np.asarray(consts[n]), n) for n in set(ins)])
    m = onnx.helper.make_model(graph, opset_imports=opset, ir_version=model.ir_version)
    try:
        outs = ReferenceEvaluator(m).run(None, {})
    except (NotImplementedError, RuntimeError) as e:
        # onnx.reference implements some operators only from a later version
        # (DequantizeLinear from 19: ONNX Runtime's quantize_dynamic writes opset 17);
        # the later versions add types and attributes and keep the older semantics.
        if node.domain not in ("", "ai.onnx") or "No implementation" not in str(e):
            raise
        later = [o for o in opset if o.domain not in ("", "ai.onnx")]
        version = max([o.version for o in opset if o.domain in ("", "ai.onnx")], default=0)
        later.append(onnx.helper.make_opsetid("", max(21, version)))
        m = onnx.helper.make_model(graph, opset_imports=later,
                                   ir_version=max(model.ir_version, 10))
        outs = ReferenceEvaluator(m).run(None, {})
    for name, v in zip([o for o in node.output if o], outs):
        consts[name] = np.asarray(v)


def _fold(model):
    """Evaluates every node whose inputs are all constants (Shape: whose input's shape is
    known) with onnx.reference; returns (the nodes left, name -> constant)."""
    onnx = _onnx()
    from onnx import numpy_helper  # noqa: PLC0415
    consts = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    shapes = _shapes_of(model)
    left = []
    for node in model.graph.node:
        ins = [n for n in node.input if n]
        if node.op_type == "Constant":
            consts[node.output[0]] = _constant_value(node)
            continue
        if node.op_type == "Shape" and node.input[0] in shapes:
            shape = np.array(shapes[node.input[0]][0], np.int64)
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            start, end = attrs.get("start", 0), attrs.get("end", len(shape))
            consts[node.output[0]] = shape[start:end]
            continue
        if node.op_type == "Size" and node.input[0] in shapes:
            consts[node.output[0]] = np.array(np.prod(shapes[node.input[0]][0]), np.int64)
            continue
        if all(n in consts for n in ins) and node.op_type not in _RANDOM:
            _eval_node(node, consts, model)
            continue
        left.append(node)
    return left, consts


def _refold_model(model, nodes, consts):
    """model with nodes left and the constants they read as initializers, shapes inferred."""
    onnx = _onnx()
    from onnx import numpy_helper  # noqa: PLC0415
    read = {i for n in nodes for i in n.input} | {o.name for o in model.graph.output}
    graph = onnx.helper.make_graph(
        nodes, model.graph.name,
        [i for i in model.graph.input if i.name not in consts],
        [onnx.helper.make_tensor_value_info(o.name, o.type.tensor_type.elem_type, None)
         for o in model.graph.output],
        [numpy_helper.from_array(np.asarray(consts[k]), k) for k in read if k in consts])
    m = onnx.helper.make_model(graph, opset_imports=model.opset_import,
                               ir_version=model.ir_version)
    return onnx.shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)


def _constant_value(node):
    onnx = _onnx()
    from onnx import numpy_helper  # noqa: PLC0415
    a = node.attribute[0]
    v = onnx.helper.get_attribute_value(a)
    if a.name == "value":
        return numpy_helper.to_array(v)
    kinds = {"value_float": np.float32, "value_int": np.int64, "value_floats": np.float32,
             "value_ints": np.int64}
    if a.name in kinds:
        return np.array(v, kinds[a.name])
    raise UnsupportedModelError(f"Constant node {node.name!r}: attribute {a.name} (unsupported)")


# ---- DirectML tensors --------------------------------------------------------------------

_DML_TYPES = {np.dtype(np.float32): "FLOAT32", np.dtype(np.float16): "FLOAT16",
              np.dtype(np.float64): "FLOAT64", np.dtype(np.int64): "INT64",
              np.dtype(np.int32): "INT32", np.dtype(np.int16): "INT16", np.dtype(np.int8): "INT8",
              np.dtype(np.uint64): "UINT64", np.dtype(np.uint32): "UINT32",
              np.dtype(np.uint16): "UINT16", np.dtype(np.uint8): "UINT8",
              np.dtype(np.bool_): "UINT8"}


def _packed(shape):
    strides, step = [], 1
    for s in reversed(shape):
        strides.append(step)
        step *= s
    return tuple(reversed(strides))


class _Val:
    """What a reader sees: elements of the buffer src (a graph input or a node output) at
    element strides (None: packed), as an ONNX value of dtype and shape."""

    def __init__(self, src, dtype, shape, strides=None):
        self.src, self.dtype, self.shape = src, np.dtype(dtype), tuple(int(s) for s in shape)
        self.strides = None if strides is None or tuple(strides) == _packed(self.shape) \
            else tuple(int(s) for s in strides)

    def eff_strides(self):
        return self.strides if self.strides is not None else _packed(self.shape)

    def view(self, shape, strides):
        return _Val(self.src, self.dtype, shape, strides)


class _Lowering:
    def __init__(self, model, input_shapes, gelu=True):
        self.model = _set_input_shapes(model, input_shapes)
        self.nodes_onnx, self.consts = _fold(self.model)
        # Folding makes more shapes known (a Reshape's shape input), and known shapes fold more
        # (Shape of them): shape inference and folding again until nothing folds.
        while True:
            self.model = _refold_model(self.model, self.nodes_onnx, self.consts)
            left, consts = _fold(self.model)
            if len(left) == len(self.nodes_onnx):
                break
            self.nodes_onnx, self.consts = left, consts
        self.shapes = _shapes_of(self.model)
        self.vals = {}            # ONNX value name -> _Val
        self.inputs = {}          # graph input name -> ("input", onnx name) / ("const", array)
        #                           / ("data", array): a constant bound at execution
        self.nodes = {}           # DirectML node name -> {type, desc, inputs, outputs}
        self.buffers = {}         # node output name -> (dtype, shape)
        self.mapping = []         # (onnx node, op type, DirectML operators)
        self._fused = set()       # ONNX nodes consumed by a fusion
        for inp in self.model.graph.input:
            if inp.name in self.consts:
                continue
            shape, dtype = self.shapes[inp.name]
            self.inputs[inp.name] = ("input", inp.name)
            self.vals[inp.name] = _Val(inp.name, dtype, shape)
        if gelu:
            self.nodes_onnx = _fuse_gelu(self.nodes_onnx, self.consts,
                                         {o.name for o in self.model.graph.output})
        self.readers = {}
        for n in self.nodes_onnx:
            for i in n.input:
                self.readers.setdefault(i, []).append(n)
        self.outputs = [o.name for o in self.model.graph.output]

    # -- values --
    def val(self, name, node):
        if name in self.vals:
            return self.vals[name]
        if name in self.consts:
            arr = np.asarray(self.consts[name])
            if arr.dtype == np.bool_:
                arr = arr.astype(np.uint8)
            gname = f"const:{name}"
            self.inputs[gname] = ("const", arr)
            v = _Val(gname, arr.dtype, arr.shape)
            self.vals[name] = v
            return v
        raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): input {name!r} is "
                                    "not computed by any node before it")

    def const(self, name, node, why):
        if name not in self.consts:
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): input {name!r} ({why}) must be a "
                "constant (an initializer, or folded from shapes and constants)")
        return np.asarray(self.consts[name])

    def out_info(self, name, node):
        if name not in self.shapes:
            self._reinfer()
        if name in self.shapes:
            shape, dtype = self.shapes[name]
            return shape, np.dtype(dtype)
        raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): the shape of its "
                                    f"output {name!r} is not known after shape inference")

    def _reinfer(self):
        """ONNX's shape inference again, told the shapes of every value lowered so far: a node
        after an operator it does not know (com.microsoft's QLinearAdd) gets its shape."""
        onnx = _onnx()
        from onnx import numpy_helper  # noqa: PLC0415
        m = onnx.ModelProto()
        m.CopyFrom(self.model)
        # The lowered values' shapes replace what inference had (symbolic sizes included).
        kept = [vi for vi in m.graph.value_info if vi.name not in self.vals]
        del m.graph.value_info[:]
        m.graph.value_info.extend(kept)
        for o in m.graph.output:  # a graph output read by later nodes: its lowered shape
            if o.name in self.vals:
                v = self.vals[o.name]
                o.CopyFrom(onnx.helper.make_tensor_value_info(
                    o.name, onnx.helper.np_dtype_to_tensor_dtype(np.dtype(v.dtype)),
                    list(v.shape)))
        known = {o.name for o in m.graph.output}
        inits = {i.name for i in m.graph.initializer}
        for cname, c in self.consts.items():  # shape arithmetic folded while lowering
            c = np.asarray(c)
            if cname not in inits and c.size <= 64 and c.dtype.kind in "iub":
                m.graph.initializer.append(numpy_helper.from_array(c, cname))
        for oname, v in self.vals.items():
            if oname in known or oname in self.consts:
                continue
            m.graph.value_info.append(onnx.helper.make_tensor_value_info(
                oname, onnx.helper.np_dtype_to_tensor_dtype(np.dtype(v.dtype)), list(v.shape)))
        m = onnx.shape_inference.infer_shapes(m)
        self.shapes.update(_shapes_of(m))

    def tensor(self, v, rank=None, sizes=None, strides=None, owned=None):
        """A DML tensor desc reading v (its shape padded in front to rank)."""
        shape = list(v.shape if sizes is None else sizes)
        st = list(v.eff_strides() if strides is None else strides)
        rank = max(rank or 0, len(shape), 1)
        while len(shape) < rank:
            shape.insert(0, 1)
            st.insert(0, 0)
        desc = {"DataType": _DML_TYPES[v.dtype], "Sizes": shape}
        if tuple(st) != _packed(shape):
            desc["Strides"] = st
        if owned is None:
            owned = v.src in self.inputs and self.inputs[v.src][0] == "const"
        if owned:
            desc["Flags"] = "OWNED_BY_DML"
        return desc

    def emit(self, onnx_node, name, op, desc, inputs, outputs):
        """Adds DirectML node name: inputs maps bind points to _Vals (or lists of them),
        outputs maps bind points to (value name, dtype, shape)."""
        ins = {}
        for k, v in inputs.items():
            ins[k] = [x.src for x in v] if isinstance(v, list) else v.src
        outs = {}
        for k, (oname, dtype, shape) in outputs.items():
            outs[k] = oname
            self.buffers[oname] = (np.dtype(dtype), tuple(shape))
        self.nodes[name] = {"type": op, "desc": desc, "inputs": ins, "outputs": outs}
        if onnx_node is not None:
            self.mapping.append((onnx_node.name, onnx_node.op_type, op))

    def out_tensor(self, dtype, shape, rank=None):
        shape = list(shape)
        rank = max(rank or 0, len(shape), 1)
        while len(shape) < rank:
            shape.insert(0, 1)
        return {"DataType": _DML_TYPES[np.dtype(dtype)], "Sizes": shape}

    def packed_val(self, v, node):
        """v as a packed buffer: itself, or an IDENTITY copy of it."""
        if v.strides is None and (v.src not in self.buffers or
                                  int(np.prod(v.shape)) <= int(np.prod(self.buffers[v.src][1]))):
            return v
        name = f"{node.name or node.output[0]}/packed"
        self.emit(None, name, "ELEMENT_WISE_IDENTITY",
                  {"InputTensor": self.tensor(v), "OutputTensor": self.out_tensor(v.dtype, v.shape)},
                  {"InputTensor": v}, {"OutputTensor": (name, v.dtype, v.shape)})
        return _Val(name, v.dtype, v.shape)

    def broadcast(self, v, shape):
        """v read at the broadcast shape: zero strides where v has 1 (or nothing)."""
        st = list(v.eff_strides())
        vs = list(v.shape)
        while len(vs) < len(shape):
            vs.insert(0, 1)
            st.insert(0, 0)
        st = [0 if a == 1 and b != 1 else s for a, b, s in zip(vs, shape, st)]
        return v.view(shape, st)

    def sole_reader(self, name, op_types):
        """The one node reading name, if it is of op_types and name is no graph output."""
        rs = self.readers.get(name, [])
        if len(rs) == 1 and rs[0].op_type in op_types and name not in self.outputs:
            return rs[0]
        return None

    # -- fused activations (DmlGraphFusionHelper / FusionHelpers: an activation that is the
    # only reader of a Conv, Gemm, MatMul, Add, BatchNormalization or MVN output) --
    # GELU stays its own node: dmlcl's GEMM computes a fused activation in a scalar epilogue,
    # where GELU costs 4x the GEMM (bench/results/2026-11-28-models.md).
    _FUSABLE = ("Relu", "LeakyRelu", "Sigmoid", "Tanh", "Elu")

    def activation(self, node):
        a = _attrs(node)
        if node.op_type == "Relu":
            return {"Type": "ACTIVATION_RELU"}
        if node.op_type == "LeakyRelu":
            return {"Type": "ACTIVATION_LEAKY_RELU", "Alpha": a.get("alpha", 0.01)}
        if node.op_type == "Elu":
            return {"Type": "ACTIVATION_ELU", "Alpha": a.get("alpha", 1.0)}
        if node.op_type == "Gelu":
            return {"Type": "ACTIVATION_GELU"}
        if node.op_type == "Softplus":  # ONNX's log(1 + exp(x)): DirectML's at Steepness 1
            return {"Type": "ACTIVATION_SOFTPLUS", "Steepness": 1.0}
        return {"Type": "ACTIVATION_" + node.op_type.upper()}

    def fuse_activation(self, node):
        """(the activation desc, the ONNX output name after it) or (None, node's output)."""
        act = self.sole_reader(node.output[0], self._FUSABLE)
        if act is None:
            return None, node.output[0]
        self._fused.add(id(act))
        self.mapping.append((act.name, act.op_type, "FusedActivation"))
        return self.activation(act), act.output[0]

    # -- lowering --
    def run(self):
        for node in self.nodes_onnx:
            if id(node) in self._fused:
                continue
            # Shape arithmetic after an operator ONNX's inference does not know (com.microsoft's
            # fused ones): the lowered value's shape is known here, and what reads only
            # constants is evaluated on the host, as _fold does before lowering.
            if node.op_type in ("Shape", "Size") and node.input[0] in self.vals:
                shape = np.array(self.vals[node.input[0]].shape, np.int64)
                if node.op_type == "Size":
                    self.consts[node.output[0]] = np.array(np.prod(shape), np.int64)
                else:
                    a = _attrs(node)
                    self.consts[node.output[0]] = shape[a.get("start", 0):a.get("end",
                                                                               len(shape))]
                continue
            if node.op_type not in _RANDOM and node.op_type != "Constant" and \
                    all(i in self.consts for i in node.input if i) and \
                    not any(o in self.outputs for o in node.output):
                _eval_node(node, self.consts, self.model)
                continue
            handler = getattr(self, "op_" + node.op_type, None)
            if handler is None:
                raise UnsupportedModelError(
                    f"node {node.name!r} ({node.op_type}): no DirectML lowering for "
                    f"{node.op_type} (docs/onnx.md lists the operators dmlcl.onnx lowers)")
            handler(node)
        self.finish()
        return self

    def set_out(self, node, oname, name, dtype, shape):
        self.vals[oname] = _Val(name, dtype, shape)

    def unary(self, node, op, desc_extra=None, in_key="InputTensor"):
        x = self.val(node.input[0], node)
        shape, dtype = self.out_info(node.output[0], node)
        name = node.output[0]
        desc = {in_key: self.tensor(x), "OutputTensor": self.out_tensor(dtype, shape)}
        desc.update(desc_extra or {})
        self.emit(node, name, op, desc, {in_key: x}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def elementwise(self, node, op, keys=("ATensor", "BTensor"), fuse=False):
        ins = [self.val(i, node) for i in node.input]
        shape, dtype = self.out_info(node.output[0], node)
        act, oname = self.fuse_activation(node) if fuse else (None, node.output[0])
        if act is not None and op == "ELEMENT_WISE_ADD":
            op = "ELEMENT_WISE_ADD1"
        rank = max(1, len(shape))
        desc = {k: self.tensor(self.broadcast(v, shape), rank) for k, v in zip(keys, ins)}
        desc["OutputTensor"] = self.out_tensor(dtype, shape)
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, op, desc, dict(zip(keys, ins)),
                  {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    def op_Add(self, node):
        self.elementwise(node, "ELEMENT_WISE_ADD", fuse=True)

    def op_Sub(self, node):
        self.elementwise(node, "ELEMENT_WISE_SUBTRACT")

    def op_Mul(self, node):
        self.elementwise(node, "ELEMENT_WISE_MULTIPLY")

    def op_Div(self, node):
        self.elementwise(node, "ELEMENT_WISE_DIVIDE")

    def op_Max(self, node):
        if len(node.input) != 2:
            raise UnsupportedModelError(f"node {node.name!r} (Max): {len(node.input)} inputs "
                                        "(two are lowered)")
        self.elementwise(node, "ELEMENT_WISE_MAX")

    def op_Min(self, node):
        if len(node.input) != 2:
            raise UnsupportedModelError(f"node {node.name!r} (Min): {len(node.input)} inputs "
                                        "(two are lowered)")
        self.elementwise(node, "ELEMENT_WISE_MIN")

    def op_Equal(self, node):
        self.elementwise(node, "ELEMENT_WISE_LOGICAL_EQUALS")

    def op_Less(self, node):
        self.elementwise(node, "ELEMENT_WISE_LOGICAL_LESS_THAN")

    def op_Greater(self, node):
        self.elementwise(node, "ELEMENT_WISE_LOGICAL_GREATER_THAN")

    def op_Where(self, node):
        self.elementwise(node, "ELEMENT_WISE_IF", keys=("ConditionTensor", "ATensor", "BTensor"))

    # -- QuantizeLinear, DequantizeLinear (DmlOperatorElementwiseQLinear): a 1-D scale or zero
    # point along `axis` is read as {1, .., C, .., 1}, any other shape broadcast; the zero
    # point may be absent (DirectML feature level 6.2) --

    _QUANT_TYPES = {"QuantizeLinear": ({np.dtype(np.float32), np.dtype(np.float16),
                                        np.dtype(np.int32)},
                                       {np.dtype(np.int8), np.dtype(np.uint8)}),
                    "DequantizeLinear": ({np.dtype(t) for t in (np.int32, np.int16, np.int8,
                                                                np.uint32, np.uint16, np.uint8)},
                                         {np.dtype(np.float32), np.dtype(np.float16)})}

    def quant_operand(self, name, node, shape, axis):
        v = self.val(name, node)
        if len(v.shape) == 1 and v.shape[0] != 1 and list(v.shape) != list(shape):
            if v.shape[0] != shape[axis]:
                raise UnsupportedModelError(
                    f"node {node.name!r} ({node.op_type}): input {name!r} has {v.shape[0]} "
                    f"values, axis {axis} has {shape[axis]}")
            sizes = [1] * len(shape)
            sizes[axis] = v.shape[0]
            v = v.view(sizes, [1 if i == axis else 0 for i in range(len(shape))])
        return self.broadcast(v, shape)

    # Blocked quantization (block_size): DML_OPERATOR_QUANTIZE and DEQUANTIZE (6.3) over the
    # blocked axis split into {blocks, block_size}, the scale and zero point (one per block)
    # read with stride 0 over each block's elements, as ONNX Runtime's DirectML provider builds
    # them.
    _BLOCKED_TYPES = {"QuantizeLinear": ({np.dtype(np.float32), np.dtype(np.float16)},
                                         {np.dtype(np.int8), np.dtype(np.uint8)}),
                      "DequantizeLinear": ({np.dtype(np.int8), np.dtype(np.uint8)},
                                           {np.dtype(np.float32), np.dtype(np.float16)})}

    def qlinear_blocked(self, node, block):
        op = "QUANTIZE" if node.op_type == "QuantizeLinear" else "DEQUANTIZE"
        x = self.val(node.input[0], node)
        shape, dtype = self.out_info(node.output[0], node)
        ins_ok, outs_ok = self._BLOCKED_TYPES[node.op_type]
        if x.dtype not in ins_ok or np.dtype(dtype) not in outs_ok:
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): {x.dtype} to {np.dtype(dtype)} is not in "
                f"DirectML's {op} tables (blocked quantization)")
        rank = len(shape)
        axis = _attrs(node).get("axis", 1) % max(1, rank)
        if rank == 0 or shape[axis] % block:
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): axis {axis} of {list(shape)} is not whole "
                f"blocks of block_size {block}")
        split = list(shape[:axis]) + [shape[axis] // block, block] + list(shape[axis + 1:])

        def split_view(v, block_stride):
            st = list(v.eff_strides())
            inner = st[axis] if block_stride else 0
            outer = st[axis] * block if block_stride else st[axis]
            return v.view(split, st[:axis] + [outer, inner] + st[axis + 1:])

        ins = {"InputTensor": split_view(x, True)}
        qs = []
        for name in node.input[1:]:
            if not name:
                continue
            q = self.val(name, node)
            want = list(shape[:axis]) + [shape[axis] // block] + list(shape[axis + 1:])
            if list(q.shape) != want:
                raise UnsupportedModelError(
                    f"node {node.name!r} ({node.op_type}): input {name!r} has shape "
                    f"{list(q.shape)}, blocked quantization takes {want}")
            qs.append(split_view(q, False))
        ins["QuantizationTensors"] = qs
        name = node.output[0]
        desc = {"InputTensor": self.tensor(ins["InputTensor"]),
                "QuantizationType": "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT" if len(qs) == 2
                else "DML_QUANTIZATION_TYPE_SCALE",
                "QuantizationTensors": [self.tensor(q) for q in qs],
                "OutputTensor": self.out_tensor(dtype, split)}
        self.emit(node, name, op, desc, ins, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def qlinear(self, node, op):
        a = _attrs(node)
        if a.get("block_size", 0):
            return self.qlinear_blocked(node, a["block_size"])
        x = self.val(node.input[0], node)
        shape, dtype = self.out_info(node.output[0], node)
        ins_ok, outs_ok = self._QUANT_TYPES[node.op_type]
        if x.dtype not in ins_ok or np.dtype(dtype) not in outs_ok:
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): {x.dtype} to {np.dtype(dtype)} is not in "
                f"DirectML's {op} tables")
        rank = max(1, len(shape))
        axis = a.get("axis", 1) % max(1, len(shape))
        ins, desc = {"InputTensor": x}, {"InputTensor": self.tensor(x, rank)}
        for key, name in zip(("ScaleTensor", "ZeroPointTensor"), node.input[1:]):
            if name:
                ins[key] = self.quant_operand(name, node, shape, axis)
                desc[key] = self.tensor(ins[key], rank)
        name = node.output[0]
        desc["OutputTensor"] = self.out_tensor(dtype, shape)
        self.emit(node, name, op, desc, ins, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_QuantizeLinear(self, node):
        self.qlinear(node, "ELEMENT_WISE_QUANTIZE_LINEAR")

    def op_DequantizeLinear(self, node):
        self.qlinear(node, "ELEMENT_WISE_DEQUANTIZE_LINEAR")

    def op_DynamicQuantizeLinear(self, node):
        """DYNAMIC_QUANTIZE_LINEAR: the scale and zero point as one-element tensors of the
        input's rank (ONNX's are 0-D)."""
        x = self.val(node.input[0], node)
        shape, dtype = self.out_info(node.output[0], node)
        if x.dtype not in (np.dtype(np.float32), np.dtype(np.float16)):
            raise UnsupportedModelError(f"node {node.name!r} (DynamicQuantizeLinear): {x.dtype} "
                                        "is not in DirectML's DYNAMIC_QUANTIZE_LINEAR table")
        rank = max(1, len(shape))
        outs = {"OutputTensor": (node.output[0], dtype, shape)}
        desc = {"InputTensor": self.tensor(x, rank), "OutputTensor": self.out_tensor(dtype, shape)}
        for key, oname, odt in (("OutputScaleTensor", node.output[1], np.float32),
                                ("OutputZeroPointTensor", node.output[2], dtype)):
            outs[key] = (oname, odt, ())
            desc[key] = self.out_tensor(odt, [1] * rank)
        self.emit(node, node.output[0], "DYNAMIC_QUANTIZE_LINEAR", desc, {"InputTensor": x}, outs)
        for oname, odt, oshape in outs.values():
            self.set_out(node, oname, oname, odt, oshape)

    def op_Pow(self, node):
        if node.input[1] in self.consts and np.asarray(self.consts[node.input[1]]).size == 1:
            e = float(np.asarray(self.consts[node.input[1]]).reshape(()))
            x = self.val(node.input[0], node)
            shape, dtype = self.out_info(node.output[0], node)
            if tuple(x.shape) == tuple(shape):  # DmlOperatorElementwisePow: CONSTANT_POW
                return self.unary(node, "ELEMENT_WISE_CONSTANT_POW", {"Exponent": e})
        self.elementwise(node, "ELEMENT_WISE_POW", keys=("InputTensor", "ExponentTensor"))

    _UNARY = {"Sqrt": "ELEMENT_WISE_SQRT", "Erf": "ELEMENT_WISE_ERF", "Exp": "ELEMENT_WISE_EXP",
              "Log": "ELEMENT_WISE_LOG", "Abs": "ELEMENT_WISE_ABS", "Neg": "ELEMENT_WISE_NEGATE",
              "Reciprocal": "ELEMENT_WISE_RECIP", "Floor": "ELEMENT_WISE_FLOOR",
              "Ceil": "ELEMENT_WISE_CEIL", "Sin": "ELEMENT_WISE_SIN", "Cos": "ELEMENT_WISE_COS",
              "Not": "ELEMENT_WISE_LOGICAL_NOT", "Sign": "ELEMENT_WISE_SIGN"}

    def __getattr__(self, name):
        if name.startswith("op_") and name[3:] in _Lowering._UNARY:
            return lambda node: self.unary(node, _Lowering._UNARY[name[3:]])
        if name.startswith("op_") and name[3:] in _Lowering._FUSABLE + ("Softplus", "Softsign"):
            return lambda node: self.op_activation(node)
        raise AttributeError(name)

    def op_activation(self, node):
        act = self.activation(node)
        kind = act.pop("Type")
        self.unary(node, kind, act)

    def op_Gelu(self, node):  # com.microsoft.Gelu, or ONNX Gelu-20 without approximation
        if _attrs(node).get("approximate", b"none") not in (b"none", "none"):
            raise UnsupportedModelError(f"node {node.name!r} (Gelu): approximate tanh "
                                        "(unsupported)")
        self.op_activation(node)

    def op_Clip(self, node):
        x = self.val(node.input[0], node)
        lo = float(self.const(node.input[1], node, "min")) if len(node.input) > 1 and \
            node.input[1] else float(np.finfo(np.float32).min)
        hi = float(self.const(node.input[2], node, "max")) if len(node.input) > 2 and \
            node.input[2] else float(np.finfo(np.float32).max)
        if x.dtype != np.float32:
            raise UnsupportedModelError(f"node {node.name!r} (Clip): {x.dtype} input (FLOAT32 "
                                        "is lowered)")
        self.unary(node, "ELEMENT_WISE_CLIP", {"Min": lo, "Max": hi})

    def op_Cast(self, node):
        self.unary(node, "CAST")

    def op_Softmax(self, node):
        x = self.val(node.input[0], node)
        axis = _attrs(node).get("axis", -1) % len(x.shape)
        self.unary(node, "ACTIVATION_SOFTMAX1", {"AxisCount": 1, "Axes": [axis]})

    def op_LayerNormalization(self, node):
        # DmlOperatorLayerNormalization: MEAN_VARIANCE_NORMALIZATION1 over the axes from `axis`
        # on, Scale and Bias broadcast to the input's rank.
        a = _attrs(node)
        x = self.val(node.input[0], node)
        r = len(x.shape)
        axis = a.get("axis", -1) % r
        if len(node.output) > 1 and any(node.output[1:]):
            raise UnsupportedModelError(f"node {node.name!r} (LayerNormalization): Mean and "
                                        "InvStdDev outputs (unsupported)")
        shape, dtype = self.out_info(node.output[0], node)
        act, oname = self.fuse_activation(node)
        desc = {"InputTensor": self.tensor(x)}
        ins = {"InputTensor": x}
        for key, i in (("ScaleTensor", 1), ("BiasTensor", 2)):
            if len(node.input) > i and node.input[i]:
                v = self.val(node.input[i], node)
                desc[key] = self.tensor(self.broadcast(v, shape), r)
                ins[key] = v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape),
                     "AxisCount": r - axis, "Axes": list(range(axis, r)),
                     "NormalizeVariance": True, "Epsilon": a.get("epsilon", 1e-5)})
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "MEAN_VARIANCE_NORMALIZATION1", desc, ins,
                  {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    def _rms_norm(self, node, x, scale, bias, axis, epsilon, name):
        """RMS normalization over the axes from axis on: MEAN_VARIANCE_NORMALIZATION2 with
        UseMean FALSE (the variance about 0: mean(x^2)) and UseVariance TRUE."""
        shape, dtype = tuple(x.shape), x.dtype
        r = len(shape)
        desc = {"InputTensor": self.tensor(x)}
        ins = {"InputTensor": x}
        for key, v in (("ScaleTensor", scale), ("BiasTensor", bias)):
            if v is not None:
                desc[key], ins[key] = self.tensor(self.broadcast(v, shape), r), v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "AxisCount": r - axis,
                     "Axes": list(range(axis, r)), "UseMean": False, "UseVariance": True,
                     "Epsilon": float(epsilon)})
        self.emit(node, name, "MEAN_VARIANCE_NORMALIZATION2", desc, ins,
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_RMSNormalization(self, node):  # ONNX 23
        a = _attrs(node)
        x = self.val(node.input[0], node)
        scale = self.val(node.input[1], node)
        self._rms_norm(node, x, scale, None, a.get("axis", -1) % len(x.shape),
                       a.get("epsilon", 1e-5), node.output[0])

    def op_SimplifiedLayerNormalization(self, node):  # ONNX Runtime's contrib, onnx domain
        if len(node.output) > 1 and any(node.output[1:]):
            raise UnsupportedModelError(f"node {node.name!r} (SimplifiedLayerNormalization): "
                                        "the inv_std_var output (unsupported)")
        a = _attrs(node)
        x = self.val(node.input[0], node)
        scale = self.val(node.input[1], node) if len(node.input) > 1 and node.input[1] else None
        self._rms_norm(node, x, scale, None, a.get("axis", -1) % len(x.shape),
                       a.get("epsilon", 1e-5), node.output[0])

    def op_SkipSimplifiedLayerNormalization(self, node):  # com.microsoft
        """input + skip (+ bias), then RMS normalization over the last axis with gamma; the
        sum is output 3 where read."""
        total = self._skip_sum(node, 3)
        self._rms_norm(node, total, self.val(node.input[2], node), None, len(total.shape) - 1,
                       _attrs(node).get("epsilon", 1e-12), node.output[0])

    def reduce(self, node, function):
        a = _attrs(node)
        x = self.val(node.input[0], node)
        r = len(x.shape)
        if len(node.input) > 1 and node.input[1]:
            axes = [int(i) % r for i in self.const(node.input[1], node, "axes").reshape(-1)]
        else:
            axes = [int(i) % r for i in a.get("axes", range(r))]
        if not axes and a.get("noop_with_empty_axes", 0):
            raise UnsupportedModelError(f"node {node.name!r}: noop_with_empty_axes (unsupported)")
        axes = sorted(set(axes)) or list(range(r))
        kept = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        shape, dtype = self.out_info(node.output[0], node)
        name = node.output[0]
        self.emit(node, name, "REDUCE",
                  {"Function": function, "InputTensor": self.tensor(x),
                   "OutputTensor": self.out_tensor(dtype, kept), "AxisCount": len(axes),
                   "Axes": axes},
                  {"InputTensor": x}, {"OutputTensor": (name, dtype, kept)})
        self.vals[name] = _Val(name, dtype, shape)  # keepdims 0: the same bytes

    def op_ReduceSum(self, node):
        self.reduce(node, "SUM")

    def op_ReduceMean(self, node):
        self.reduce(node, "AVERAGE")

    def op_ReduceMax(self, node):
        self.reduce(node, "MAX")

    def op_ReduceMin(self, node):
        self.reduce(node, "MIN")

    # -- data movement: aliases (no operator), views, copies --
    def alias(self, node):
        x = self.val(node.input[0], node)
        shape, _ = self.out_info(node.output[0], node)
        x = self.packed_val(x, node)
        self.vals[node.output[0]] = x.view(shape, None)
        self.mapping.append((node.name, node.op_type, "alias"))

    op_Reshape = op_Flatten = op_Squeeze = op_Unsqueeze = op_Identity = op_Dropout = alias

    def op_Expand(self, node):
        x = self.val(node.input[0], node)
        shape, _ = self.out_info(node.output[0], node)
        self.vals[node.output[0]] = self.broadcast(x, shape)
        self.mapping.append((node.name, node.op_type, "view (zero strides)"))

    def op_Transpose(self, node):
        x = self.val(node.input[0], node)
        perm = _attrs(node).get("perm", list(range(len(x.shape)))[::-1])
        st = x.eff_strides()
        shape, dtype = self.out_info(node.output[0], node)
        v = x.view(shape, [st[p] for p in perm])
        name = node.output[0]
        self.emit(node, name, "ELEMENT_WISE_IDENTITY",
                  {"InputTensor": self.tensor(v), "OutputTensor": self.out_tensor(dtype, shape)},
                  {"InputTensor": v}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_Concat(self, node):
        ins = [self.val(i, node) for i in node.input]
        if len(ins) == 1:
            return self.alias(node)
        shape, dtype = self.out_info(node.output[0], node)
        axis = _attrs(node)["axis"] % len(shape)
        name = node.output[0]
        self.emit(node, name, "JOIN",
                  {"InputTensors": [self.tensor(v) for v in ins],
                   "OutputTensor": self.out_tensor(dtype, shape), "Axis": axis},
                  {"InputTensors": ins}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_Gather(self, node):
        data, idx = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        axis = _attrs(node).get("axis", 0) % len(data.shape)
        r = max(len(shape), len(data.shape), len(idx.shape), 1)
        name = node.output[0]
        self.emit(node, name, "GATHER",
                  {"InputTensor": self.tensor(data, r), "IndicesTensor": self.tensor(idx, r),
                   "OutputTensor": self.out_tensor(dtype, shape, r),
                   "Axis": axis + r - len(data.shape), "IndexDimensions": len(idx.shape)},
                  {"InputTensor": data, "IndicesTensor": idx},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def _scatter_inputs(self, node):
        if _attrs(node).get("reduction", "none") != "none":
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): reduction "
                f"{_attrs(node)['reduction']!r} (DirectML's scatters write the updates: "
                "reduction 'none' only)")
        data, idx, upd = (self.val(i, node) for i in node.input)
        shape, dtype = self.out_info(node.output[0], node)
        return data, idx, upd, shape, dtype

    def op_ScatterElements(self, node):
        """SCATTER_ELEMENTS (DmlOperatorScatter): the tensors padded in front to one rank."""
        data, idx, upd, shape, dtype = self._scatter_inputs(node)
        r = max(len(data.shape), 1)
        axis = _attrs(node).get("axis", 0) % r
        if any(idx.shape[d] != data.shape[d] for d in range(r) if d != axis):
            raise UnsupportedModelError(
                f"node {node.name!r} ({node.op_type}): indices {list(idx.shape)} differ from "
                f"the data {list(data.shape)} off the axis (DirectML's IndicesTensor takes the "
                "input's sizes there)")
        name = node.output[0]
        self.emit(node, name, "SCATTER_ELEMENTS",
                  {"InputTensor": self.tensor(data, r), "IndicesTensor": self.tensor(idx, r),
                   "UpdatesTensor": self.tensor(upd, r),
                   "OutputTensor": self.out_tensor(dtype, shape, r), "Axis": axis},
                  {"InputTensor": data, "IndicesTensor": idx, "UpdatesTensor": upd},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_Scatter(self, node):  # opsets 9 and 10: ScatterElements' older name
        self.op_ScatterElements(node)

    def op_ScatterND(self, node):
        """SCATTER_ND (DmlOperatorScatterNd): every tensor padded in front to the largest rank,
        InputDimensionCount and IndicesDimensionCount the ONNX ranks."""
        data, idx, upd, shape, dtype = self._scatter_inputs(node)
        r = max(len(data.shape), len(idx.shape), len(upd.shape), 1)
        name = node.output[0]
        self.emit(node, name, "SCATTER_ND",
                  {"InputTensor": self.tensor(data, r), "IndicesTensor": self.tensor(idx, r),
                   "UpdatesTensor": self.tensor(upd, r),
                   "OutputTensor": self.out_tensor(dtype, shape, r),
                   "InputDimensionCount": len(data.shape),
                   "IndicesDimensionCount": len(idx.shape)},
                  {"InputTensor": data, "IndicesTensor": idx, "UpdatesTensor": upd},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    # -- generated tensors: one-hot, eye-like --
    def op_OneHot(self, node):
        """ONE_HOT: the indices read at the output's rank (size 1 on the axis), Values {off, on}
        at that rank ({1, ..., 2}); indices of a float type CAST to INT64 first (toward zero,
        as ONNX's OneHot converts them)."""
        idx, _, values = (self.val(i, node) for i in node.input)
        shape, dtype = self.out_info(node.output[0], node)
        r = len(shape)
        axis = _attrs(node).get("axis", -1) % r
        if idx.dtype.kind not in "iu" or idx.dtype.itemsize < 4:
            cast = f"{node.name or node.output[0]}/indices"
            self.emit(None, cast, "CAST", {"InputTensor": self.tensor(idx),
                                           "OutputTensor": self.out_tensor(np.int64, idx.shape)},
                      {"InputTensor": idx}, {"OutputTensor": (cast, np.int64, idx.shape)})
            idx = _Val(cast, np.int64, idx.shape)
        ishape = list(idx.shape)
        ist = list(idx.eff_strides())
        ishape.insert(axis, 1)
        ist.insert(axis, 0)
        if int(np.prod(values.shape)) != 2:
            raise UnsupportedModelError(f"node {node.name!r} (OneHot): values of "
                                        f"{list(values.shape)} (two elements: off, on)")
        v = values.view([1] * (r - 1) + [2], [0] * (r - 1) + [values.eff_strides()[-1]])
        name = node.output[0]
        self.emit(node, name, "ONE_HOT",
                  {"IndicesTensor": self.tensor(idx.view(ishape, ist), r),
                   "ValuesTensor": self.tensor(v, r),
                   "OutputTensor": self.out_tensor(dtype, shape, r), "Axis": axis},
                  {"IndicesTensor": idx, "ValuesTensor": values},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_EyeLike(self, node):
        """DIAGONAL_MATRIX1 without an input: 1 of the output's type on the diagonal k."""
        shape, dtype = self.out_info(node.output[0], node)
        k = int(_attrs(node).get("k", 0))
        name = node.output[0]
        self.emit(node, name, "DIAGONAL_MATRIX1",
                  {"OutputTensor": self.out_tensor(dtype, shape),
                   "ValueDataType": _DML_TYPES[dtype], "Value": 1,
                   "DiagonalFillBegin": k, "DiagonalFillEnd": k + 1},
                  {}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def unowned(self, v):
        """v read as a graph input bound at execution, never DML_TENSOR_FLAG_OWNED_BY_DML (a
        constant that an operator may not own gets a graph input of its own)."""
        if v.src not in self.inputs or self.inputs[v.src][0] != "const":
            return v
        name = f"{v.src}/unowned"
        self.inputs.setdefault(name, ("data", self.inputs[v.src][1]))
        return _Val(name, v.dtype, v.shape, v.strides)

    # -- recurrent layers --
    _RNN_ACTIVATIONS = {"Relu": (0, "ACTIVATION_RELU"), "Tanh": (0, "ACTIVATION_TANH"),
                        "Sigmoid": (0, "ACTIVATION_SIGMOID"),
                        "Softsign": (0, "ACTIVATION_SOFTSIGN"),
                        "Softplus": (0, "ACTIVATION_SOFTPLUS"),
                        "LeakyRelu": (1, "ACTIVATION_LEAKY_RELU"),
                        "ThresholdedRelu": (1, "ACTIVATION_THRESHOLDED_RELU"),
                        "Elu": (1, "ACTIVATION_ELU"), "Affine": (2, "ACTIVATION_LINEAR"),
                        "ScaledTanh": (2, "ACTIVATION_SCALED_TANH"),
                        "HardSigmoid": (2, "ACTIVATION_HARD_SIGMOID")}
    _RNN_DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                     "LSTM": ["Sigmoid", "Tanh", "Tanh"]}

    def _rnn_activations(self, node, dirs):
        a = _attrs(node)
        names = [n.decode() if isinstance(n, bytes) else n
                 for n in a.get("activations", [])] or self._RNN_DEFAULTS[node.op_type] * dirs
        alphas, betas = list(a.get("activation_alpha", [])), list(a.get("activation_beta", []))
        acts = []
        for n in names:
            if n not in self._RNN_ACTIVATIONS:
                raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): activation "
                                            f"{n!r} (DirectML's recurrent layers take "
                                            f"{', '.join(self._RNN_ACTIVATIONS)})")
            params, kind = self._RNN_ACTIVATIONS[n]
            act = {"Type": kind}
            if kind == "ACTIVATION_SOFTPLUS":
                act["Steepness"] = 1.0
            if params:
                if not alphas or (params == 2 and not betas):
                    raise UnsupportedModelError(
                        f"node {node.name!r} ({node.op_type}): activation {n!r} without its "
                        "activation_alpha/activation_beta values")
                act["Alpha"] = float(alphas.pop(0))
                if params == 2:
                    act["Beta"] = float(betas.pop(0))
            acts.append(act)
        return acts

    def _rnn(self, node):
        """RNN, GRU and LSTM as DirectML's, every tensor read in place: X {1, seq, batch, in}
        (layout 1's [batch, seq, in] by strides), W and R {1, dirs, G*H, ...}, B {1, 1, dirs,
        2*G*H}, the states {1, dirs, batch, H}, P {1, 1, dirs, 3*H}; the outputs written in
        ONNX's layouts (layout 1 by strides); sequence_lens as UINT32 (a constant converted, a
        computed one CAST)."""
        op = node.op_type
        a = _attrs(node)
        layout = int(a.get("layout", 0))
        direction = a.get("direction", b"forward")
        direction = direction.decode() if isinstance(direction, bytes) else direction
        dirs = 2 if direction == "bidirectional" else 1
        hidden = int(a["hidden_size"])
        g = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
        if "clip" in a and op != "LSTM":
            raise UnsupportedModelError(f"node {node.name!r} ({op}): clip (DirectML's {op} has "
                                        "no clip threshold)")
        ins = list(node.input) + [""] * (8 - len(node.input))
        x = self.unowned(self.val(ins[0], node))
        if layout:
            batch, seq, inp = x.shape
            xs = x.eff_strides()
            xv = x.view([1, seq, batch, inp], [0, xs[1], xs[0], xs[2]])
        else:
            seq, batch, inp = x.shape
            xv = x.view([1, seq, batch, inp], [0] + list(x.eff_strides()))
        desc, binds = {"InputTensor": self.tensor(xv)}, {"InputTensor": x}

        def add(member, v, sizes, strides):  # the pages refuse DML_TENSOR_FLAG_OWNED_BY_DML
            v = self.unowned(v)
            desc[member] = self.tensor(v.view(sizes, strides))
            binds[member] = v

        w, r = self.val(ins[1], node), self.val(ins[2], node)
        add("WeightTensor", w, [1, dirs, g * hidden, inp], [0] + list(w.eff_strides()))
        add("RecurrenceTensor", r, [1, dirs, g * hidden, hidden], [0] + list(r.eff_strides()))
        if ins[3]:
            b = self.val(ins[3], node)
            add("BiasTensor", b, [1, 1, dirs, 2 * g * hidden], [0, 0] + list(b.eff_strides()))

        def state(name):
            v = self.val(name, node)
            st = v.eff_strides()
            st = [st[1], st[0], st[2]] if layout else list(st)
            return v, [1, dirs, batch, hidden], [0] + st

        if ins[5]:
            add("HiddenInitTensor", *state(ins[5]))
        if op == "LSTM" and ins[6]:
            add("CellMemInitTensor", *state(ins[6]))
        if ins[4]:
            lens_name = ins[4]
            if lens_name in self.consts:
                arr = np.asarray(self.consts[lens_name]).astype(np.int64)
                if np.any(arr < 0):
                    raise UnsupportedModelError(f"node {node.name!r} ({op}): a negative "
                                                "sequence length")
                gname = f"const:{lens_name}/uint32"
                self.inputs[gname] = ("data", arr.astype(np.uint32))
                lens = _Val(gname, np.uint32, arr.shape)
            else:
                src = self.val(lens_name, node)
                cast = f"{node.name or node.output[0]}/sequence_lens"
                self.emit(None, cast, "CAST",
                          {"InputTensor": self.tensor(src),
                           "OutputTensor": self.out_tensor(np.uint32, src.shape)},
                          {"InputTensor": src}, {"OutputTensor": (cast, np.uint32, src.shape)})
                lens = _Val(cast, np.uint32, src.shape)
            add("SequenceLengthsTensor", lens, [1, 1, 1, batch], [0, 0, 0] +
                list(lens.eff_strides()))
        if op == "LSTM" and ins[7]:
            p = self.val(ins[7], node)
            add("PeepholeTensor", p, [1, 1, dirs, 3 * hidden], [0, 0] + list(p.eff_strides()))
        outs = {}
        members = ("OutputSequenceTensor", "OutputSingleTensor", "OutputCellSingleTensor")
        for k, oname in enumerate(node.output):
            if not oname or (oname not in self.readers and oname not in self.outputs):
                continue  # absent, or read by no one: left out (DirectML's outputs are optional)
            shape, dtype = self.out_info(oname, node)
            st = _packed(shape)
            if k == 0:  # [seq, dirs, batch, H], layout 1 [batch, seq, dirs, H]
                sizes = [seq, dirs, batch, hidden]
                strides = [st[1], st[2], st[0], st[3]] if layout else list(st)
            else:  # [dirs, batch, H], layout 1 [batch, dirs, H]
                sizes = [1, dirs, batch, hidden]
                strides = [0, st[1], st[0], st[2]] if layout else [0] + list(st)
            t = {"DataType": _DML_TYPES[np.dtype(dtype)], "Sizes": sizes}
            if tuple(strides) != _packed(sizes):
                t["Strides"] = strides
            desc[members[k]] = t
            outs[members[k]] = (oname, dtype, shape)
        if not outs:
            return
        desc["ActivationDescs"] = self._rnn_activations(node, dirs)
        desc["Direction"] = {"forward": "FORWARD", "reverse": "BACKWARD",
                             "bidirectional": "BIDIRECTIONAL"}[direction]
        if op == "GRU":
            desc["LinearBeforeReset"] = int(a.get("linear_before_reset", 0))
        if op == "LSTM":
            desc["ClipThreshold"] = float(a.get("clip", 0.0))
            desc["UseClipThreshold"] = int("clip" in a)
            desc["CoupleInputForget"] = int(a.get("input_forget", 0))
        name = f"{node.name or node.output[0]}/{op}"
        self.emit(node, name, op, desc, binds, outs)
        for oname, dtype, shape in outs.values():
            self.set_out(node, oname, oname, dtype, shape)

    def op_RNN(self, node):
        self._rnn(node)

    def op_GRU(self, node):
        self._rnn(node)

    def op_LSTM(self, node):
        self._rnn(node)

    def op_ReverseSequence(self, node):
        """REVERSE_SUBSEQUENCES (DmlOperatorReverseSequence): the 1-D sequence_lens read along
        the batch axis (zero strides elsewhere, size 1 along the time axis), ONNX's INT64 as
        they are; Axis the time axis."""
        x, lens = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        r = len(x.shape)
        a = _attrs(node)
        batch, time = a.get("batch_axis", 1) % r, a.get("time_axis", 0) % r
        sizes = list(x.shape)
        sizes[time] = 1
        strides = [0] * r
        strides[batch] = lens.eff_strides()[0]
        name = node.output[0]
        self.emit(node, name, "REVERSE_SUBSEQUENCES",
                  {"InputTensor": self.tensor(x),
                   "SequenceLengthsTensor": self.tensor(lens, sizes=sizes, strides=strides),
                   "OutputTensor": self.out_tensor(dtype, shape), "Axis": time},
                  {"InputTensor": x, "SequenceLengthsTensor": lens},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_MaxUnpool(self, node):
        """MAX_UNPOOLING (DmlOperatorMaxUnpool): 4-D tensors, ONNX's INT64 indices read as
        UINT64 (ForceUnsignedDataType). An output_shape other than the default is refused:
        ONNX reads the indices as positions in the default shape, DirectML as flat positions
        in the output it is given (onnx 1.23's shape inference leaves such an output's shape
        unknown, which is refused before this rule is reached)."""
        x, idx = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        if len(x.shape) != 4:
            raise UnsupportedModelError(f"node {node.name!r} (MaxUnpool): {len(x.shape)}-D "
                                        "input (MAX_UNPOOLING takes 4 dimensions)")
        a = _attrs(node)
        kernel = list(a["kernel_shape"])
        strides = list(a.get("strides", [1] * len(kernel)))
        pads = list(a.get("pads", [0] * 2 * len(kernel)))
        default = [(x.shape[2 + d] - 1) * strides[d] + kernel[d] - pads[d] - pads[len(kernel) + d]
                   for d in range(len(kernel))]
        if list(shape[2:]) != default:
            raise UnsupportedModelError(
                f"node {node.name!r} (MaxUnpool): output_shape {list(shape)} is not the default "
                f"{list(shape[:2]) + default} (ONNX reads the indices in the default shape, "
                "DirectML's MAX_UNPOOLING as flat positions in its output)")
        indices = self.tensor(idx)
        indices["DataType"] = "UINT64"
        name = node.output[0]
        self.emit(node, name, "MAX_UNPOOLING",
                  {"InputTensor": self.tensor(x), "IndicesTensor": indices,
                   "OutputTensor": self.out_tensor(dtype, shape)},
                  {"InputTensor": x, "IndicesTensor": idx},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)


    # -- regions of interest, col2im --
    def op_RoiAlign(self, node):
        """ROI_ALIGN1 (DmlOperatorRoiAlign): spatial_scale for X and Y, OutOfBoundsInputValue 0,
        sampling_ratio 0 as [1, 2^32 - 1] samples, LINEAR, InputPixelOffset 0.5 for half_pixel
        (opset 16's default) and 0 for output_half_pixel (opset 10's behaviour),
        OutputPixelOffset -0.5; INT64 batch indices read as UINT64 (never negative). mode 'max'
        is refused: ONNX's takes the maximum of each sample's weighted bilinear terms, DirectML's
        the maximum of the samples (docs/operators.md)."""
        a = _attrs(node)
        mode = a.get("mode", b"avg")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if mode != "avg":
            raise UnsupportedModelError(
                f"node {node.name!r} (RoiAlign): mode {mode!r} (ONNX's max reduces the weighted "
                "bilinear terms, DirectML's the interpolated samples: only 'avg' maps)")
        opset = max([o.version for o in self.model.opset_import if o.domain in ("", "ai.onnx")],
                    default=16)
        ctm = a.get("coordinate_transformation_mode",
                    b"half_pixel" if opset >= 16 else b"output_half_pixel")
        ctm = ctm.decode() if isinstance(ctm, bytes) else ctm
        x, rois, idx = (self.val(i, node) for i in node.input)
        shape, dtype = self.out_info(node.output[0], node)
        ratio = int(a.get("sampling_ratio", 0))
        scale = float(a.get("spatial_scale", 1.0))
        idx_desc = self.tensor(idx)
        if idx_desc["DataType"] == "INT64":
            idx_desc["DataType"] = "UINT64"
        name = node.output[0]
        self.emit(node, name, "ROI_ALIGN1",
                  {"InputTensor": self.tensor(x),
                   "ROITensor": self.tensor(rois), "BatchIndicesTensor": idx_desc,
                   "OutputTensor": self.out_tensor(dtype, shape),
                   "ReductionFunction": "AVERAGE", "InterpolationMode": "LINEAR",
                   "SpatialScaleX": scale, "SpatialScaleY": scale,
                   "InputPixelOffset": 0.5 if ctm == "half_pixel" else 0.0,
                   "OutputPixelOffset": -0.5, "OutOfBoundsInputValue": 0.0,
                   "MinimumSamplesPerOutput": ratio if ratio > 0 else 1,
                   "MaximumSamplesPerOutput": ratio if ratio > 0 else 4294967295,
                   "AlignRegionsToCorners": 0},
                  {"InputTensor": x, "ROITensor": rois, "BatchIndicesTensor": idx},
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_MaxRoiPool(self, node):
        """ROI_POOLING (DmlOperatorRoiPooling): rois {num_rois, 5} read as {1, 1, num_rois, 5},
        pooled_shape as PooledSize, spatial_scale."""
        x, rois = (self.val(i, node) for i in node.input)
        a = _attrs(node)
        ph, pw = (int(v) for v in a["pooled_shape"])
        shape, dtype = self.out_info(node.output[0], node)
        name = node.output[0]
        self.emit(node, name, "ROI_POOLING",
                  {"InputTensor": self.tensor(x), "ROITensor": self.tensor(rois, 4),
                   "OutputTensor": self.out_tensor(dtype, shape),
                   "SpatialScale": float(a.get("spatial_scale", 1.0)),
                   "PooledSize": {"Width": pw, "Height": ph}},
                  {"InputTensor": x, "ROITensor": rois}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_Col2Im(self, node):
        """FOLD (DmlOperatorCol2Im): block_shape as WindowSizes, pads' begins and ends as
        StartPadding and EndPadding; image_shape and block_shape constants."""
        x = self.val(node.input[0], node)
        self.const(node.input[1], node, "image_shape")
        block = [int(v) for v in self.const(node.input[2], node, "block_shape").reshape(-1)]
        a = _attrs(node)
        n = len(block)
        pads = [int(v) for v in a.get("pads", [0] * (2 * n))]
        shape, dtype = self.out_info(node.output[0], node)
        name = node.output[0]
        self.emit(node, name, "FOLD",
                  {"InputTensor": self.tensor(x),
                   "OutputTensor": self.out_tensor(dtype, shape), "DimensionCount": n,
                   "WindowSizes": block,
                   "Strides": [int(v) for v in a.get("strides", [1] * n)],
                   "Dilations": [int(v) for v in a.get("dilations", [1] * n)],
                   "StartPadding": pads[:n], "EndPadding": pads[n:]},
                  {"InputTensor": x}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    # -- matrix multiplication, convolution, pooling, normalization --
    def op_MatMul(self, node):
        a, b = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        if len(a.shape) < 2 or len(b.shape) < 2:
            raise UnsupportedModelError(f"node {node.name!r} (MatMul): a 1-D operand (lowered: "
                                        "2-D and up)")
        # MatMul, then an Add of a constant bias over the last axis: GEMM with C broadcast
        # (DmlOperatorGemm's C), then an activation: its FusedActivation.
        c = None
        last = node
        add = self.sole_reader(node.output[0], ("Add",))
        if add is not None:
            other = add.input[1] if add.input[0] == node.output[0] else add.input[0]
            if other in self.consts:
                cv = np.asarray(self.consts[other])
                if cv.size == shape[-1] and cv.shape[-1:] == (shape[-1],):
                    c = self.val(other, add)
                    self._fused.add(id(add))
                    last = add
                    self.mapping.append((add.name, "Add", "GEMM's C (fused)"))
        act, oname = self.fuse_activation(last)
        if len(b.shape) == 2 and len(a.shape) > 2:
            # A's batch folded into its rows (an alias of the packed A): one GEMM of
            # prod(batch)·M rows against the 2-D B.
            a = self.packed_val(a, node)
            rows = int(np.prod(a.shape[:-1]))
            a2 = a.view((rows, a.shape[-1]), None)
            gshape = (rows, shape[-1])
            rank = 2
            bv = b
        else:
            gshape = shape
            rank = len(shape)
            a2 = self.broadcast(a, tuple(shape[:-2]) + tuple(a.shape[-2:]))
            bv = self.broadcast(b, tuple(shape[:-2]) + tuple(b.shape[-2:]))
        desc = {"ATensor": self.tensor(a2, rank), "BTensor": self.tensor(bv, rank)}
        ins = {"ATensor": a, "BTensor": b}
        if c is not None:
            desc["CTensor"] = self.tensor(self.broadcast(c.view((shape[-1],), None), gshape), rank)
            ins["CTensor"] = c
        desc.update({"OutputTensor": self.out_tensor(dtype, gshape, rank), "TransA": "NONE",
                     "TransB": "NONE", "Alpha": 1.0, "Beta": 1.0 if c is not None else 0.0})
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "GEMM", desc, ins, {"OutputTensor": (oname, dtype, gshape)})
        self.vals[oname] = _Val(oname, dtype, shape)

    # com.microsoft's transformer operators (ONNX Runtime's transformer optimizer writes them;
    # its DirectML provider lowers each: DmlOperatorFusedMatMul, DmlOperatorBiasGelu,
    # DmlOperatorSkipLayerNormalization, DmlOperatorMultiHeadAttention).
    def op_FusedMatMul(self, node):
        at = _attrs(node)
        if at.get("transBatchA", 0) or at.get("transBatchB", 0):
            raise UnsupportedModelError(f"node {node.name!r} (FusedMatMul): transBatchA / "
                                        "transBatchB (unsupported)")
        a, b = self.val(node.input[0], node), self.val(node.input[1], node)
        if len(a.shape) < 2 or len(b.shape) < 2:
            raise UnsupportedModelError(f"node {node.name!r} (FusedMatMul): a 1-D operand")

        def transposed(v):  # the last two dimensions swapped, by strides
            st = list(v.eff_strides())
            sh = list(v.shape)
            st[-1], st[-2], sh[-1], sh[-2] = st[-2], st[-1], sh[-2], sh[-1]
            return v.view(tuple(sh), st)
        a2 = transposed(a) if at.get("transA", 0) else a
        b2 = transposed(b) if at.get("transB", 0) else b
        batch = tuple(np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2]))
        shape = batch + (a2.shape[-2], b2.shape[-1])
        dtype = a.dtype
        rank = len(shape)
        act, oname = self.fuse_activation(node)
        desc = {"ATensor": self.tensor(self.broadcast(a2, batch + a2.shape[-2:]), rank),
                "BTensor": self.tensor(self.broadcast(b2, batch + b2.shape[-2:]), rank),
                "OutputTensor": self.out_tensor(dtype, shape, rank), "TransA": "NONE",
                "TransB": "NONE", "Alpha": float(at.get("alpha", 1.0)), "Beta": 0.0}
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "GEMM", desc, {"ATensor": a, "BTensor": b},
                  {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    def _add(self, node, name, a, b, shape, dtype):
        """An ELEMENT_WISE_ADD of a and b (broadcast to shape) into a new value name."""
        rank = max(1, len(shape))
        self.emit(node, name, "ELEMENT_WISE_ADD",
                  {"ATensor": self.tensor(self.broadcast(a, shape), rank),
                   "BTensor": self.tensor(self.broadcast(b, shape), rank),
                   "OutputTensor": self.out_tensor(dtype, shape)},
                  {"ATensor": a, "BTensor": b}, {"OutputTensor": (name, dtype, shape)})
        return _Val(name, dtype, shape)

    def op_BiasGelu(self, node):  # GELU(A + bias): ADD, then ACTIVATION_GELU
        a, bias = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = tuple(a.shape), a.dtype
        s = self._add(node, f"{node.output[0]}/sum", a, bias, shape, dtype)
        name = node.output[0]
        self.emit(node, name, "ACTIVATION_GELU",
                  {"InputTensor": self.tensor(s), "OutputTensor": self.out_tensor(dtype, shape)},
                  {"InputTensor": s}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def _skip_sum(self, node, bias_index):
        """com.microsoft's skip normalizations' input + skip (+ the bias at input bias_index),
        ELEMENT_WISE_ADDs in that order; output 3 (input_skip_bias_sum) where read. Their mean
        and inv_std_var outputs are refused."""
        if len(node.output) > 1 and any(node.output[1:3]):
            raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): the mean and "
                                        "inv_std_var outputs (unsupported)")
        x, skip = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = tuple(x.shape), x.dtype
        total = self._add(node, f"{node.output[0]}/sum", x, skip, shape, dtype)
        if len(node.input) > bias_index and node.input[bias_index]:
            total = self._add(node, f"{node.output[0]}/sum_bias", total,
                              self.val(node.input[bias_index], node), shape, dtype)
        if len(node.output) > 3 and node.output[3]:
            self.vals[node.output[3]] = total
        return total

    def op_SkipLayerNormalization(self, node):
        """input + skip (+ bias), then layer normalization over the last axis with gamma (and
        beta): ELEMENT_WISE_ADDs and MEAN_VARIANCE_NORMALIZATION1; the sum is also output 3
        (input_skip_bias_sum) where the model reads it."""
        s = self._skip_sum(node, 4)
        shape, dtype = s.shape, s.dtype
        r = len(shape)
        desc = {"InputTensor": self.tensor(s)}
        ins = {"InputTensor": s}
        for key, i in (("ScaleTensor", 2), ("BiasTensor", 3)):
            if len(node.input) > i and node.input[i]:
                v = self.val(node.input[i], node)
                desc[key], ins[key] = self.tensor(self.broadcast(v, shape), r), v
        name = node.output[0]
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "AxisCount": 1,
                     "Axes": [r - 1], "NormalizeVariance": True,
                     "Epsilon": float(_attrs(node).get("epsilon", 1e-12))})
        self.emit(node, name, "MEAN_VARIANCE_NORMALIZATION1", desc, ins,
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_MultiHeadAttention(self, node):
        """Separate query, key and value {batch, seq, hidden}; bias {3 hidden}; a key padding
        mask {batch} (key lengths: KEY_SEQUENCE_LENGTH) or {batch, kv_seq} (0 hides: BOOLEAN,
        broadcast over heads and queries by 0 strides); attention_bias broadcast to {batch,
        heads, seq, kv_seq}. Packed forms, past keys and values, present outputs and
        unidirectional are refused."""
        at = _attrs(node)
        ins_ = list(node.input) + [""] * 8
        if len(node.input) < 3 or not node.input[1] or not node.input[2]:
            raise UnsupportedModelError(f"node {node.name!r} (MultiHeadAttention): packed "
                                        "query/key/value forms (unsupported; separate ones are)")
        if ins_[6] or ins_[7] or any(node.output[1:]) or at.get("unidirectional", 0):
            raise UnsupportedModelError(f"node {node.name!r} (MultiHeadAttention): past/present "
                                        "keys and values, or unidirectional (unsupported)")
        q, k, v = (self.val(i, node) for i in node.input[:3])
        if len(q.shape) != 3 or len(k.shape) != 3 or len(v.shape) != 3:
            raise UnsupportedModelError(f"node {node.name!r} (MultiHeadAttention): query, key "
                                        "and value of 3 dimensions (others unsupported)")
        bias = self.val(ins_[3], node) if ins_[3] else None
        mask = self.val(ins_[4], node) if ins_[4] else None
        rel = self.val(ins_[5], node) if ins_[5] else None
        self._attention(node, q, k, v, bias, mask, rel, at)

    def _attention(self, node, q, k, v, bias, mask, rel, at):
        """MULTIHEAD_ATTENTION of separate q, k, v {batch, seq, hidden} (op_MultiHeadAttention's
        rules for the bias, the mask and the attention bias)."""
        heads = int(at["num_heads"])
        batch, seq, hidden = q.shape
        kv_seq = k.shape[1]
        head = hidden // heads
        shape, dtype = (batch, seq, v.shape[2]), q.dtype
        desc = {"QueryTensor": self.tensor(q), "KeyTensor": self.tensor(k),
                "ValueTensor": self.tensor(v)}
        ins = {"QueryTensor": q, "KeyTensor": k, "ValueTensor": v}
        mask_type = "NONE"
        if bias is not None:
            desc["BiasTensor"], ins["BiasTensor"] = self.tensor(bias), bias
        if mask is not None:
            m = mask
            if m.dtype != np.dtype(np.int32):
                raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): "
                                            f"the mask {m.dtype} (INT32 only)")
            if m.shape == (batch,):
                mask_type, mv = "KEY_SEQUENCE_LENGTH", m.view((1, batch), None)
            elif m.shape == (batch, kv_seq):
                st = m.eff_strides()
                mask_type = "BOOLEAN"
                mv = m.view((batch, heads, seq, kv_seq), [st[0], 0, 0, st[1]])
            else:
                raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): the mask "
                                            f"{m.shape} (lowered: {{batch}} and "
                                            "{batch, kv_seq})")
            desc["MaskTensor"], ins["MaskTensor"] = self.tensor(mv), m
        if rel is not None:
            rb = rel
            desc["RelativePositionBiasTensor"] = self.tensor(
                self.broadcast(rb, (batch, heads, seq, kv_seq)))
            ins["RelativePositionBiasTensor"] = rb
        scale = float(at.get("scale", 0.0)) or 1.0 / float(np.sqrt(head))
        name = node.output[0]
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "Scale": scale,
                     "MaskFilterValue": float(at.get("mask_filter_value", -10000.0)),
                     "HeadCount": heads, "MaskType": mask_type})
        self.emit(node, name, "MULTIHEAD_ATTENTION", desc, ins,
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_Attention(self, node):  # com.microsoft
        """The fused attention of ONNX Runtime's BERT optimizer: the input {batch, seq, hidden}
        times the packed weights {hidden, 3 hidden} (constants: split on the host into the
        query's, key's and value's, three GEMMs), then MULTIHEAD_ATTENTION with the bias
        {3 hidden} and mask_index {batch} or {batch, seq} (op_MultiHeadAttention's rules).
        qkv_hidden_sizes of unequal parts, past state, unidirectional: refused."""
        at = _attrs(node)
        ins_ = list(node.input) + [""] * 8
        if ins_[4] or any(node.output[1:]) or at.get("unidirectional", 0) or \
                at.get("do_rotary", 0) or ins_[6] or ins_[7]:
            raise UnsupportedModelError(f"node {node.name!r} (Attention): past state, "
                                        "unidirectional, rotary or past_sequence_length "
                                        "(unsupported)")
        x = self.val(node.input[0], node)
        w = self.const(node.input[1], node, "the packed weights")
        sizes = list(at.get("qkv_hidden_sizes", []))
        if len(x.shape) != 3 or w.ndim != 2 or w.shape[1] % 3 or \
                (sizes and len(set(sizes)) != 1):
            raise UnsupportedModelError(f"node {node.name!r} (Attention): input {x.shape}, "
                                        f"weights {w.shape}, qkv_hidden_sizes {sizes} (lowered: "
                                        "3-D input, equal query/key/value sizes)")
        h = w.shape[1] // 3
        batch, seq, _ = x.shape
        parts = []
        for j, part in enumerate("qkv"):
            wname = f"{node.input[1]}/{part}"
            self.consts[wname] = np.ascontiguousarray(w[:, j * h:(j + 1) * h])
            wv = self.val(wname, node)
            name = f"{node.output[0]}/{part}"
            self.emit(node, name, "GEMM",
                      {"ATensor": self.tensor(x),
                       "BTensor": self.tensor(self.broadcast(wv, (batch,) + tuple(wv.shape))),
                       "OutputTensor": self.out_tensor(x.dtype, (batch, seq, h)),
                       "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0, "Beta": 0.0},
                      {"ATensor": x, "BTensor": wv},
                      {"OutputTensor": (name, x.dtype, (batch, seq, h))})
            parts.append(_Val(name, x.dtype, (batch, seq, h)))
        bias = self.val(ins_[2], node) if ins_[2] else None
        mask = self.val(ins_[3], node) if ins_[3] else None
        rel = self.val(ins_[5], node) if ins_[5] else None
        self._attention(node, *parts, bias, mask, rel, at)

    def _gather_rows(self, node, name, table, idx):
        """GATHER of table's rows (axis 0) at idx: {idx..., row}."""
        shape = tuple(idx.shape) + tuple(table.shape[1:])
        r = max(len(shape), len(table.shape))
        self.emit(node, name, "GATHER",
                  {"InputTensor": self.tensor(table, r), "IndicesTensor": self.tensor(idx, r),
                   "OutputTensor": self.out_tensor(table.dtype, shape, r),
                   "Axis": r - len(table.shape), "IndexDimensions": len(idx.shape)},
                  {"InputTensor": table, "IndicesTensor": idx},
                  {"OutputTensor": (name, table.dtype, shape)})
        return _Val(name, table.dtype, shape)

    def op_EmbedLayerNormalization(self, node):  # com.microsoft
        """ONNX Runtime's BERT embedding: the word embedding's rows at input_ids, plus the
        position embedding's (at position_ids, else its first seq rows, broadcast over the
        batch by a 0 stride), plus the segment embedding's at segment_ids, in that order
        (ELEMENT_WISE_ADDs), normalized over the hidden axis with gamma and beta
        (MEAN_VARIANCE_NORMALIZATION1); mask_index the mask's sum over the sequence (REDUCE
        SUM of INT32); embedding_sum the sum where read."""
        ins_ = list(node.input) + [""] * 9
        at = _attrs(node)
        if at.get("mask_index_type", 1) != 1:
            raise UnsupportedModelError(f"node {node.name!r} (EmbedLayerNormalization): "
                                        "mask_index_type 0 (unsupported)")
        ids = self.val(ins_[0], node)
        word = self.val(ins_[2], node)
        pos = self.val(ins_[3], node)
        batch, seq = ids.shape
        hidden = word.shape[1]
        shape, dtype = (batch, seq, hidden), word.dtype
        base = node.output[0]
        total = self._gather_rows(node, f"{base}/word", word, ids)
        if ins_[8]:
            p = self._gather_rows(node, f"{base}/position", pos, self.val(ins_[8], node))
        else:
            p = pos.view((batch, seq, hidden), [0, pos.eff_strides()[0], pos.eff_strides()[1]])
        total = self._add(node, f"{base}/sum_position", total, p, shape, dtype)
        if ins_[1] and ins_[4]:
            seg = self._gather_rows(node, f"{base}/segment", self.val(ins_[4], node),
                                    self.val(ins_[1], node))
            total = self._add(node, f"{base}/sum_segment", total, seg, shape, dtype)
        if len(node.output) > 2 and node.output[2]:
            self.vals[node.output[2]] = total
        desc = {"InputTensor": self.tensor(total)}
        ins = {"InputTensor": total}
        for key, i in (("ScaleTensor", 5), ("BiasTensor", 6)):
            if ins_[i]:
                v = self.val(ins_[i], node)
                desc[key], ins[key] = self.tensor(self.broadcast(v, shape), 3), v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "AxisCount": 1,
                     "Axes": [2], "NormalizeVariance": True,
                     "Epsilon": float(at.get("epsilon", 1e-12))})
        self.emit(node, base, "MEAN_VARIANCE_NORMALIZATION1", desc, ins,
                  {"OutputTensor": (base, dtype, shape)})
        self.set_out(node, base, base, dtype, shape)
        if len(node.output) > 1 and node.output[1]:
            if not ins_[7]:
                raise UnsupportedModelError(f"node {node.name!r} (EmbedLayerNormalization): "
                                            "mask_index without a mask (unsupported)")
            m = self.val(ins_[7], node)
            name = node.output[1]
            self.emit(node, name, "REDUCE",
                      {"Function": "SUM", "InputTensor": self.tensor(m),
                       "OutputTensor": self.out_tensor(np.int32, (batch, 1)), "AxisCount": 1,
                       "Axes": [1]},
                      {"InputTensor": m}, {"OutputTensor": (name, np.int32, (batch, 1))})
            self.vals[name] = _Val(name, np.dtype(np.int32), (batch,))

    def op_Gemm(self, node):
        at = _attrs(node)
        a, b = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        act, oname = self.fuse_activation(node)
        desc = {"ATensor": self.tensor(a), "BTensor": self.tensor(b)}
        ins = {"ATensor": a, "BTensor": b}
        if len(node.input) > 2 and node.input[2]:
            c = self.val(node.input[2], node)
            desc["CTensor"] = self.tensor(self.broadcast(c, shape), 2)
            ins["CTensor"] = c
        desc.update({"OutputTensor": self.out_tensor(dtype, shape),
                     "TransA": "TRANSPOSE" if at.get("transA", 0) else "NONE",
                     "TransB": "TRANSPOSE" if at.get("transB", 0) else "NONE",
                     "Alpha": at.get("alpha", 1.0),
                     "Beta": at.get("beta", 1.0) if "CTensor" in desc else 0.0})
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "GEMM", desc, ins, {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    def _window(self, node, x, shape, kernel):
        a = _attrs(node)
        sp = len(x.shape) - 2
        strides = list(a.get("strides", [1] * sp))
        dil = list(a.get("dilations", [1] * sp))
        pads = list(a.get("pads", [0] * (2 * sp)))
        auto = a.get("auto_pad", b"NOTSET")
        auto = auto.decode() if isinstance(auto, bytes) else auto
        if auto in ("SAME_UPPER", "SAME_LOWER"):
            pads = [0] * (2 * sp)
            for i in range(sp):
                total = max(0, (shape[2 + i] - 1) * strides[i] + (kernel[i] - 1) * dil[i] + 1 -
                            x.shape[2 + i])
                small, big = total // 2, total - total // 2
                pads[i], pads[sp + i] = (small, big) if auto == "SAME_UPPER" else (big, small)
        elif auto == "VALID":
            pads = [0] * (2 * sp)
        return sp, strides, dil, pads[:sp], pads[sp:]

    def op_Conv(self, node):
        x, w = self.val(node.input[0], node), self.val(node.input[1], node)
        shape, dtype = self.out_info(node.output[0], node)
        sp, strides, dil, start, end = self._window(node, x, shape, w.shape[2:])
        act, oname = self.fuse_activation(node)
        desc = {"InputTensor": self.tensor(x), "FilterTensor": self.tensor(w)}
        ins = {"InputTensor": x, "FilterTensor": w}
        if len(node.input) > 2 and node.input[2]:
            bias = self.val(node.input[2], node)
            desc["BiasTensor"] = self.tensor(bias.view((1, shape[1]) + (1,) * sp, None))
            ins["BiasTensor"] = bias
        desc.update({"OutputTensor": self.out_tensor(dtype, shape),
                     "Mode": "CROSS_CORRELATION", "Direction": "FORWARD",
                     "DimensionCount": sp, "Strides": strides, "Dilations": dil,
                     "StartPadding": start, "EndPadding": end, "OutputPadding": [0] * sp,
                     "GroupCount": _attrs(node).get("group", 1)})
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "CONVOLUTION", desc, ins, {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    # -- MatMulInteger, QLinearMatMul, com.microsoft.MatMulIntegerToFloat, ConvInteger,
    # QLinearConv (DmlOperatorMatMulInteger, DmlOperatorQLinearMatMul,
    # DmlOperatorMatMulIntegerToFloat, DmlOperatorConvInteger, DmlOperatorQLinearConv): A and B
    # broadcast to the output's batch (2 to 4 dimensions); a 1-D per-row A scale or zero point
    # [M] read as {M, 1}, a per-column B one [N] as is (right-aligned); a convolution's
    # per-channel [Cout] as {1, Cout, 1, 1}; scalars as {1}; MatMulIntegerToFloat's bias [N]
    # broadcast to the output by 0 strides --

    def _intmm_aux(self, name, node, a_side=False, channels=None):
        v = self.val(name, node)
        if channels is not None and len(v.shape) == 1 and v.shape[0] > 1:
            return v.view((1, v.shape[0]) + (1,) * (channels - 2), None)
        if a_side and len(v.shape) == 1 and v.shape[0] > 1:
            return v.view((v.shape[0], 1), None)
        return v

    def _intmm_product(self, node, op, members, b_index, extra=()):
        """members: (DirectML key, ONNX input index, A-side) of the zero points and scales."""
        a, b = self.val(node.input[0], node), self.val(node.input[b_index], node)
        if node.output[0] not in self.shapes and op == "MATRIX_MULTIPLY_INTEGER_TO_FLOAT":
            # com.microsoft's: ONNX's shape inference does not know it; numpy's matmul shape,
            # the scales' type
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            shape = tuple(batch) + (a.shape[-2], b.shape[-1])
            dtype = self.val(node.input[2], node).dtype
        else:
            shape, dtype = self.out_info(node.output[0], node)
        if len(a.shape) < 2 or len(b.shape) < 2 or len(shape) > 4:
            raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): A {a.shape}, B "
                                        f"{b.shape}, output {tuple(shape)} (2 to 4 dimensions)")
        rank = len(shape)
        a2 = self.broadcast(a, tuple(shape[:-2]) + tuple(a.shape[-2:]))
        b2 = self.broadcast(b, tuple(shape[:-2]) + tuple(b.shape[-2:]))
        desc = {"ATensor": self.tensor(a2, rank), "BTensor": self.tensor(b2, rank)}
        ins = {"ATensor": a, "BTensor": b}
        for key, i, a_side in members:
            if len(node.input) > i and node.input[i]:
                v = self._intmm_aux(node.input[i], node, a_side=a_side)
                if "Scale" in key and v.dtype != np.dtype(np.float32) and op != \
                        "MATRIX_MULTIPLY_INTEGER_TO_FLOAT":
                    raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): {key} "
                                                f"{v.dtype} (DirectML's table: FLOAT32)")
                if key == "BiasTensor":
                    v = self.broadcast(v, shape)
                desc[key], ins[key] = self.tensor(v), v
        desc["OutputTensor"] = self.out_tensor(dtype, shape, rank)
        name = node.output[0]
        self.emit(node, name, op, desc, ins, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_MatMulInteger(self, node):
        self._intmm_product(node, "MATRIX_MULTIPLY_INTEGER",
                            [("AZeroPointTensor", 2, True), ("BZeroPointTensor", 3, False)], 1)

    def op_QLinearMatMul(self, node):
        self._intmm_product(node, "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
                            [("AScaleTensor", 1, True), ("AZeroPointTensor", 2, True),
                             ("BScaleTensor", 4, False), ("BZeroPointTensor", 5, False),
                             ("OutputScaleTensor", 6, False),
                             ("OutputZeroPointTensor", 7, False)], 3)

    def op_MatMulIntegerToFloat(self, node):  # com.microsoft
        self._intmm_product(node, "MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
                            [("AScaleTensor", 2, True), ("BScaleTensor", 3, False),
                             ("AZeroPointTensor", 4, True), ("BZeroPointTensor", 5, False),
                             ("BiasTensor", 6, False)], 1)

    def _intmm_conv(self, node, op, members, w_index):
        x, w = self.val(node.input[0], node), self.val(node.input[w_index], node)
        shape, dtype = self.out_info(node.output[0], node)
        sp, strides, dil, start, end = self._window(node, x, shape, w.shape[2:])
        if sp > 2 or (sp == 1 and op != "CONVOLUTION_INTEGER"):
            raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): {sp} spatial "
                                        f"dimensions (DirectML's {op}: "
                                        f"{'1 or 2' if op == 'CONVOLUTION_INTEGER' else '2'})")
        desc = {"InputTensor": self.tensor(x), "FilterTensor": self.tensor(w)}
        ins = {"InputTensor": x, "FilterTensor": w}
        for key, i in members:
            if len(node.input) > i and node.input[i]:
                v = self._intmm_aux(node.input[i], node, channels=sp + 2)
                desc[key], ins[key] = self.tensor(v, sp + 2), v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "DimensionCount": sp,
                     "Strides": strides, "Dilations": dil, "StartPadding": start,
                     "EndPadding": end, "GroupCount": _attrs(node).get("group", 1)})
        name = node.output[0]
        self.emit(node, name, op, desc, ins, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_ConvInteger(self, node):
        self._intmm_conv(node, "CONVOLUTION_INTEGER",
                         [("InputZeroPointTensor", 2), ("FilterZeroPointTensor", 3)], 1)

    def op_QLinearConv(self, node):
        self._intmm_conv(node, "QUANTIZED_LINEAR_CONVOLUTION",
                         [("InputScaleTensor", 1), ("InputZeroPointTensor", 2),
                          ("FilterScaleTensor", 4), ("FilterZeroPointTensor", 5),
                          ("OutputScaleTensor", 6), ("OutputZeroPointTensor", 7),
                          ("BiasTensor", 8)], 3)

    def pool(self, node, op, window=None, extra=None):
        x = self.val(node.input[0], node)
        if len(node.output) > 1 and any(node.output[1:]):
            raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): the Indices "
                                        "output (unsupported)")
        shape, dtype = self.out_info(node.output[0], node)
        kernel = window or list(_attrs(node)["kernel_shape"])
        sp, strides, dil, start, end = self._window(node, x, shape, kernel)
        desc = {"InputTensor": self.tensor(x), "OutputTensor": self.out_tensor(dtype, shape),
                "DimensionCount": sp, "Strides": strides, "WindowSize": kernel,
                "StartPadding": start, "EndPadding": end}
        if op == "MAX_POOLING2":
            desc["Dilations"] = dil
        desc.update(extra or {})
        name = node.output[0]
        self.emit(node, name, op, desc, {"InputTensor": x}, {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    # com.microsoft's quantized operators as ONNX Runtime's DirectML provider lowers them
    # (DmlOperatorQLinearAdd, DmlOperatorQLinearAveragePooling): quantize_static's QOperator
    # format writes them around QLinearConv.
    def op_QLinearAdd(self, node):
        a, b = self.val(node.input[0], node), self.val(node.input[3], node)
        shape = tuple(np.broadcast_shapes(a.shape, b.shape))
        dtype = a.dtype
        desc = {"ATensor": self.tensor(self.broadcast(a, shape)),
                "BTensor": self.tensor(self.broadcast(b, shape))}
        ins = {"ATensor": a, "BTensor": b}
        for key, i in (("AScaleTensor", 1), ("AZeroPointTensor", 2), ("BScaleTensor", 4),
                       ("BZeroPointTensor", 5), ("OutputScaleTensor", 6),
                       ("OutputZeroPointTensor", 7)):
            if len(node.input) > i and node.input[i]:
                v = self.val(node.input[i], node)  # one element (DirectML's rule)
                desc[key], ins[key] = self.tensor(v, len(shape)), v
        desc["OutputTensor"] = self.out_tensor(dtype, shape)
        name = node.output[0]
        self.emit(node, name, "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", desc, ins,
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def _qlinear_pool(self, node, kernel, attrs):
        if attrs.get("channels_last", 0):
            raise UnsupportedModelError(f"node {node.name!r} ({node.op_type}): channels_last 1 "
                                        "(NHWC; DirectML's pooling reads {N, C, ...})")
        x = self.val(node.input[0], node)
        sp = len(x.shape) - 2
        kernel = kernel or list(x.shape[2:])
        if node.output[0] in self.shapes:
            shape, dtype = self.out_info(node.output[0], node)
        else:  # unknown to ONNX's inference: the pooling's rule (floor, or ceil with ceil_mode)
            pads = list(attrs.get("pads", [0] * (2 * sp)))
            strides = list(attrs.get("strides", [1] * sp))
            rnd = np.ceil if attrs.get("ceil_mode", 0) else np.floor
            shape = tuple(x.shape[:2]) + tuple(
                int(rnd((x.shape[2 + i] + pads[i] + pads[sp + i] - kernel[i]) / strides[i])) + 1
                for i in range(sp))
            dtype = x.dtype
        sp, strides, dil, start, end = self._window(node, x, shape, kernel)
        desc = {"InputTensor": self.tensor(x)}
        ins = {"InputTensor": x}
        for key, i in (("InputScaleTensor", 1), ("InputZeroPointTensor", 2),
                       ("OutputScaleTensor", 3), ("OutputZeroPointTensor", 4)):
            if len(node.input) > i and node.input[i]:
                v = self.val(node.input[i], node)
                desc[key], ins[key] = self.tensor(v), v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "DimensionCount": sp,
                     "Strides": strides, "WindowSize": kernel, "StartPadding": start,
                     "EndPadding": end, "Dilations": dil,
                     "IncludePadding": bool(attrs.get("count_include_pad", 0))})
        name = node.output[0]
        self.emit(node, name, "QUANTIZED_LINEAR_AVERAGE_POOLING", desc, ins,
                  {"OutputTensor": (name, dtype, shape)})
        self.set_out(node, name, name, dtype, shape)

    def op_QLinearGlobalAveragePool(self, node):
        self._qlinear_pool(node, None, _attrs(node))

    def op_QLinearAveragePool(self, node):
        a = _attrs(node)
        self._qlinear_pool(node, list(a["kernel_shape"]), a)

    def op_MaxPool(self, node):
        if _attrs(node).get("storage_order", 0):
            raise UnsupportedModelError(f"node {node.name!r} (MaxPool): storage_order 1")
        self.pool(node, "MAX_POOLING2")

    def op_AveragePool(self, node):
        self.pool(node, "AVERAGE_POOLING",
                  extra={"IncludePadding": bool(_attrs(node).get("count_include_pad", 0))})

    def op_GlobalAveragePool(self, node):
        x = self.val(node.input[0], node)
        self.pool(node, "AVERAGE_POOLING", window=list(x.shape[2:]),
                  extra={"IncludePadding": False})

    def op_GlobalMaxPool(self, node):
        x = self.val(node.input[0], node)
        self.pool(node, "MAX_POOLING2", window=list(x.shape[2:]))

    def op_BatchNormalization(self, node):
        if len(node.output) > 1 and any(node.output[1:]):
            raise UnsupportedModelError(f"node {node.name!r} (BatchNormalization): training "
                                        "outputs (unsupported)")
        if _attrs(node).get("training_mode", 0):
            # The batch's statistics (BATCH_NORMALIZATION_TRAINING), whose mean and variance
            # outputs a graph must connect: not lowered, rather than normalized by input_mean
            # and input_var as the inference form would.
            raise UnsupportedModelError(f"node {node.name!r} (BatchNormalization): "
                                        "training_mode 1 (unsupported)")
        x = self.val(node.input[0], node)
        shape, dtype = self.out_info(node.output[0], node)
        act, oname = self.fuse_activation(node)
        per = (1, shape[1]) + (1,) * (len(shape) - 2)  # one value per channel
        ins = {"InputTensor": x}
        desc = {"InputTensor": self.tensor(x)}
        for k, i in (("MeanTensor", 3), ("VarianceTensor", 4), ("ScaleTensor", 1),
                     ("BiasTensor", 2)):
            v = self.val(node.input[i], node)
            desc[k] = self.tensor(v.view(per, None))
            ins[k] = v
        desc.update({"OutputTensor": self.out_tensor(dtype, shape), "Spatial": True,
                     "Epsilon": _attrs(node).get("epsilon", 1e-5)})
        if act is not None:
            desc["FusedActivation"] = act
        self.emit(node, oname, "BATCH_NORMALIZATION", desc, ins,
                  {"OutputTensor": (oname, dtype, shape)})
        self.set_out(node, oname, oname, dtype, shape)

    # -- the graph's outputs, and nothing unused --
    def finish(self):
        self.graph_outputs = []   # (onnx name, DirectML value, onnx shape, onnx dtype)
        taken = set()
        for name in self.outputs:
            v = self.vals.get(name) or self.val(name, _OutputRef(name))
            buf = self.buffers.get(v.src)
            if (buf is None or v.strides is not None or v.src in taken or
                    int(np.prod(v.shape)) != int(np.prod(buf[1]))):
                oname = f"output:{name}"
                self.emit(None, oname, "ELEMENT_WISE_IDENTITY",
                          {"InputTensor": self.tensor(v),
                           "OutputTensor": self.out_tensor(v.dtype, v.shape)},
                          {"InputTensor": v}, {"OutputTensor": (oname, v.dtype, v.shape)})
                v = _Val(oname, v.dtype, v.shape)
            taken.add(v.src)
            self.graph_outputs.append((name, v.src, v.shape, self._onnx_dtype(name, v)))
        # Every node output and graph input connected (DirectML's graph rules): the nodes the
        # outputs need, and the inputs they read.
        producer = {}
        for n, d in self.nodes.items():
            for o in d["outputs"].values():
                producer[o] = n
        need, stack = set(), [src for _, src, _, _ in self.graph_outputs]
        while stack:
            n = producer.get(stack.pop())
            if n is None or n in need:
                continue
            need.add(n)
            for v in self.nodes[n]["inputs"].values():
                stack.extend(v if isinstance(v, list) else [v])
        self.nodes = {n: d for n, d in self.nodes.items() if n in need}
        used = set()
        for d in self.nodes.values():
            for v in d["inputs"].values():
                used.update(v if isinstance(v, list) else [v])
        for d in self.nodes.values():  # an output nobody reads would be unconnected
            for k, o in list(d["outputs"].items()):
                if o not in used and o not in {s for _, s, _, _ in self.graph_outputs}:
                    raise UnsupportedModelError(f"internal: DirectML node output {o!r} unread")
        self.inputs = {k: v for k, v in self.inputs.items() if k in used}

    def _onnx_dtype(self, name, v):
        if name in self.shapes:
            return np.dtype(self.shapes[name][1])
        return v.dtype


def _fuse_gelu(nodes, consts, outputs):
    """x * 0.5 * (1 + erf(x / sqrt(2))) as exported from PyTorch (Div, Erf, Add, Mul, Mul, in
    either order of the two Muls) becomes one Gelu node, as ONNX Runtime's GeluFusion (level 2,
    for the CPU, CUDA and DirectML providers) rewrites it before its DirectML provider lowers
    com.microsoft.Gelu to ACTIVATION_GELU. Each intermediate must have one reader and be no
    graph output; the constants must be sqrt(2), 1 and 0.5 (float32)."""
    readers = {}
    for n in nodes:
        for i in n.input:
            readers.setdefault(i, []).append(n)

    def only(name, op):
        rs = readers.get(name, [])
        return rs[0] if len(rs) == 1 and rs[0].op_type == op and name not in outputs else None

    def const_is(name, value):
        return name in consts and np.asarray(consts[name]).size == 1 and \
            abs(float(np.asarray(consts[name]).reshape(())) - value) <= 1e-6 * max(1, value)

    def other(node, name):
        return node.input[1] if node.input[0] == name else node.input[0]

    drop, replace = set(), {}
    for div in nodes:
        if div.op_type != "Div" or not const_is(div.input[1], 2 ** 0.5):
            continue
        x = div.input[0]
        erf = only(div.output[0], "Erf")
        add = erf and only(erf.output[0], "Add")
        if add is None or not const_is(other(add, erf.output[0]), 1.0):
            continue
        mul1 = only(add.output[0], "Mul")
        if mul1 is None:
            continue
        if other(mul1, add.output[0]) == x:  # (x * (1 + erf)) * 0.5
            mul2 = only(mul1.output[0], "Mul")
            ok = mul2 is not None and const_is(other(mul2, mul1.output[0]), 0.5)
        else:  # (x * 0.5) * (1 + erf)
            half = [n for n in readers.get(x, []) if n.op_type == "Mul" and
                    n.output[0] == other(mul1, add.output[0])]
            mul2, ok = mul1, bool(half) and const_is(other(half[0], x), 0.5) and \
                only(half[0].output[0], "Mul") is mul1
            if ok:
                drop.add(id(half[0]))
        if not ok:
            continue
        onnx = _onnx()
        gelu = onnx.helper.make_node("Gelu", [x], [mul2.output[0]], domain="com.microsoft",
                                     name=f"{mul2.name or mul2.output[0]}/Gelu")
        for n in (div, erf, add, mul1, mul2):
            drop.add(id(n))
        replace[id(mul2)] = gelu
    return [replace.get(id(n), n) for n in nodes if id(n) in replace or id(n) not in drop]


class _OutputRef:
    """A graph output where messages name a node."""

    def __init__(self, name):
        self.name, self.op_type = f"graph output {name}", "output"


def _attrs(node):
    onnx = _onnx()
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


# ---- The dmlcl-dispatch model --------------------------------------------------------------

# Per-operator tolerances in float32 ULP (precision.md); data movement, comparisons, IF, CLIP,
# MIN/MAX, RELU, max pooling: exact.
_ULPS = {"ELEMENT_WISE_ADD": 1, "ELEMENT_WISE_ADD1": 1, "ELEMENT_WISE_SUBTRACT": 1,
         "ELEMENT_WISE_MULTIPLY": 1, "ELEMENT_WISE_SQRT": 1, "CAST": 1,
         "ELEMENT_WISE_DIVIDE": 2, "ELEMENT_WISE_RECIP": 2, "ELEMENT_WISE_EXP": 32,
         "ELEMENT_WISE_POW": 32, "ELEMENT_WISE_CONSTANT_POW": 32, "ACTIVATION_SIGMOID": 34,
         "ACTIVATION_ELU": 18, "ACTIVATION_SOFTPLUS": 18, "ACTIVATION_GELU": 18,
         "BATCH_NORMALIZATION": 6}


class Lowered:
    """An ONNX model lowered to one DirectML graph: `graph` is the dmlcl-dispatch graph
    dispatchable (docs/dispatch.md), `mapping` lists (ONNX node, op type, DirectML operator)."""

    def __init__(self, low):
        self.inputs = {k: v for k, v in low.inputs.items()}
        self.nodes = low.nodes
        self.graph_outputs = low.graph_outputs
        self.buffers = low.buffers
        self.mapping = low.mapping

    def tolerance(self):
        """The model's error bound relative to an output's magnitude: the sum, over the graph's
        operators, of each operator's tolerance (docs/onnx.md: WebNN's PrecisionMetrics, the
        figures DirectML's team proposed, /work/shared/reference/precision.md), a float32 ULP
        counted as 2^-23 of the magnitude and an absolute bound (erf, tanh, log, layer
        normalization: 1/1024) as that fraction of a unit-scale value. A bound on accumulated
        rounding, not on amplification through the layers: measured errors sit orders below."""
        ulps, absolute = 0, 0.0
        for d in self.nodes.values():
            op, desc = d["type"], d["desc"]
            if op == "GEMM":
                a = desc["ATensor"]["Sizes"]
                k = a[-2] if desc["TransA"] == "TRANSPOSE" else a[-1]
                ulps += 2 * k + 1 + ("CTensor" in desc)
            elif op == "CONVOLUTION":
                ulps += 2 * int(np.prod(desc["FilterTensor"]["Sizes"][1:]))
            elif op == "FOLD":
                ulps += int(np.prod(desc["WindowSizes"])) + 2
            elif op == "ROI_ALIGN1":
                # float32 sample positions (coordinates up to 64: 2^-17 of a pixel) and weights,
                # an average of the samples: 256 ULP of a unit-scale value.
                ulps += 256
            elif op == "MULTIHEAD_ATTENTION":  # docs/operators.md's composed bound
                head = desc["QueryTensor"]["Sizes"][-1] // desc["HeadCount"]
                n = desc["KeyTensor"]["Sizes"][-2]
                ulps += (2 * head + 3) + (3 * n + 3) + 2 * n
            elif op == "MATRIX_MULTIPLY_INTEGER_TO_FLOAT":  # float32 steps after an exact sum
                ulps += 4
            elif op == "AVERAGE_POOLING":
                ulps += int(np.prod(desc["WindowSize"])) + 2
            elif op == "REDUCE":
                sizes = desc["InputTensor"]["Sizes"]
                ulps += int(np.prod([sizes[a] for a in desc["Axes"]])) + 2
            elif op == "ACTIVATION_SOFTMAX1":
                sizes = desc["InputTensor"]["Sizes"]
                ulps += 3 * int(np.prod([sizes[a] for a in desc["Axes"]])) + 3
            elif op in ("RNN", "GRU", "LSTM"):  # conformance/gen/rnn.py's bound per step
                seq, inp = desc["InputTensor"]["Sizes"][1], desc["InputTensor"]["Sizes"][3]
                k = inp + desc["RecurrenceTensor"]["Sizes"][3] + 2
                ulps += seq * k * k
                absolute += seq / 1024
            elif op in ("ELEMENT_WISE_ERF", "ELEMENT_WISE_TANH", "ELEMENT_WISE_LOG",
                        "ACTIVATION_TANH", "MEAN_VARIANCE_NORMALIZATION1",
                        "MEAN_VARIANCE_NORMALIZATION2"):
                absolute += 1 / 1024
            else:
                ulps += _ULPS.get(op, 0)
            act = desc.get("FusedActivation")
            if act is not None:
                if act["Type"] in ("ACTIVATION_TANH",):
                    absolute += 1 / 1024
                else:
                    ulps += _ULPS.get(act["Type"], 0)
        return ulps * 2.0 ** -23 + absolute

    def operator_counts(self):
        counts = {}
        for d in self.nodes.values():
            counts[d["type"]] = counts.get(d["type"], 0) + 1
        return counts

    def write(self, folder, feeds, iterations=1, flags=None):
        """Writes folder/model.json, its .npy inputs and weights; returns the model's path.
        Outputs go to folder/out<k>.npy when the model runs."""
        os.makedirs(folder, exist_ok=True)
        resources, init, bindings = {}, {}, {}
        for k, (name, (kind, x)) in enumerate(self.inputs.items()):
            if kind == "input" and x not in feeds:
                raise KeyError(f"no value for input {x!r}")
            arr = np.ascontiguousarray(feeds[x] if kind == "input" else x)
            if arr.dtype == np.bool_:
                arr = arr.astype(np.uint8)
            path = f"{'in' if kind == 'input' else 'w'}{k}.npy"
            np.save(os.path.join(folder, path), arr.reshape(-1) if arr.ndim == 0 else arr)
            resources[name] = {"initialValuesDataType": _DML_TYPES[arr.dtype],
                               "initialValues": {"sourcePath": path}}
            (init if kind == "const" else bindings)[name] = name  # "data": at execution
        commands = []
        for k, (name, src, shape, dtype) in enumerate(self.graph_outputs):
            bdtype, bshape = self.buffers[src]
            resources[src] = {"initialValuesDataType": _DML_TYPES[bdtype],
                              "initialValues": {"valueCount": max(1, int(np.prod(bshape))),
                                                "value": 0}}
            bindings[src] = src
            commands.append({"type": "writeFile", "resource": src,
                             "targetPath": f"out{k}.npy", "dimensions": list(bshape) or [1]})
        graph = {"type": "graph", "inputs": list(self.inputs), "outputs":
                 [src for _, src, _, _ in self.graph_outputs], "nodes": self.nodes,
                 "dmlCompileType": "DmlCompileGraph"}
        if flags:
            graph["executionFlags"] = flags
        if init:
            graph["bindings"] = init
        model = {"resources": resources, "dispatchables": {"net": graph},
                 "commands": [{"type": "dispatch", "dispatchable": "net", "bindings": bindings}]
                 + commands}
        path = os.path.join(folder, "model.json")
        with open(path, "w") as f:
            json.dump(model, f, indent=1)
        return path

    def read_outputs(self, folder):
        outs = {}
        for k, (name, src, shape, dtype) in enumerate(self.graph_outputs):
            arr = np.load(os.path.join(folder, f"out{k}.npy")).reshape(shape)
            outs[name] = arr.astype(np.bool_) if dtype == np.bool_ else arr
        return outs


def lower(model, input_shapes, gelu=True):
    """Lowers an ONNX model (a ModelProto or a path) with its inputs at input_shapes
    (name -> shape) to one DirectML graph; raises UnsupportedModelError naming a node it
    cannot lower. gelu=False keeps GELU's Div, Erf, Add, Mul, Mul apart (ONNX Runtime's basic
    optimization level) instead of one ACTIVATION_GELU (its default level's GeluFusion)."""
    onnx = _onnx()
    if not isinstance(model, onnx.ModelProto):
        model = onnx.load(model)
    else:
        m = onnx.ModelProto()
        m.CopyFrom(model)
        model = m
    return Lowered(_Lowering(model, input_shapes, gelu).run())


def dispatch_program():
    """The dmlcl-dispatch to run: $DMLCL_DISPATCH; else the one of the build tree whose
    library $DMLCL_LIBRARY names (build/tools/dmlcl-dispatch beside build/libdmlcl.so); else
    dmlcl-dispatch on PATH."""
    if os.environ.get("DMLCL_DISPATCH"):
        return os.environ["DMLCL_DISPATCH"]
    lib = os.environ.get("DMLCL_LIBRARY")
    if lib:
        beside = os.path.join(os.path.dirname(os.path.abspath(lib)), "tools", "dmlcl-dispatch")
        if os.path.exists(beside):
            return beside
    return "dmlcl-dispatch"


def run(lowered, feeds, iterations=1, folder=None, device=None, flags=None):
    """Runs lowered on feeds (input name -> array) with dmlcl-dispatch; returns
    (outputs by ONNX name, the dispatch timing line's figures in ms: median and min CPU)."""
    own = folder is None
    tmp = tempfile.TemporaryDirectory() if own else None
    folder = tmp.name if own else folder
    try:
        path = lowered.write(folder, feeds, flags=flags)
        cmd = [dispatch_program(), path, "-i", str(iterations), "--output_path", folder]
        if device:
            cmd += ["-a", device]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"dmlcl-dispatch failed ({p.returncode}): {p.stderr.strip()}")
        timing = _timing(p.stdout)
        return lowered.read_outputs(folder), timing
    finally:
        if tmp is not None:
            tmp.cleanup()


def _timing(stdout):
    import re  # noqa: PLC0415
    m = re.search(r"Dispatch 'net': (\d+) iterations, ([\d.]+) ms median \(CPU\), ([\d.]+) ms min",
                  stdout)
    return {"iterations": int(m.group(1)), "median_ms": float(m.group(2)),
            "min_ms": float(m.group(3))} if m else None
