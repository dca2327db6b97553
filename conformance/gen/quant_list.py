# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/quant_list.json: DirectML's QUANTIZE and DEQUANTIZE
(feature level 6.3: the scale and zero point listed in QuantizationTensors) per tensor, per axis
and blockwise (a dimension split in blocks and elements, the quantization tensors read with
stride 0 over the elements: the form ONNX Runtime's DirectML provider builds for block_size),
and ELEMENT_WISE_QUANTIZED_LINEAR_ADD (ONNX Runtime's com.microsoft QLinearAdd as that provider
maps it: single-element scales and zero points of DimensionCount ones, a broadcast B by 0
strides); one case per validation rule.

Expected values: numpy in float32 arithmetic under the rules docs/operators.md states (those of
ELEMENT_WISE_QUANTIZE_LINEAR and _DEQUANTIZE_LINEAR; QUANTIZED_LINEAR_ADD dequantizes A and B,
adds and quantizes, each operation rounded to float32). QUANTIZE and DEQUANTIZE cases are
checked element by element against onnx.reference's QuantizeLinear-21 and DequantizeLinear-21
(block_size for the blockwise ones) on the whole tensor; QUANTIZED_LINEAR_ADD against ONNX
Runtime's CPU QLinearAdd, which computes with MLAS's own rounding: every element must agree
within 1, and the generator prints how many differ.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/quant_list.py
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
NAN, INF = float("nan"), float("inf")
ONNX_TYPES = {"FLOAT32": onnx.TensorProto.FLOAT, "FLOAT16": onnx.TensorProto.FLOAT16,
              "INT8": onnx.TensorProto.INT8, "UINT8": onnx.TensorProto.UINT8}


def case(name, op, inputs, outputs=None, error=None, attrs=None, note=None):
    short = op.lower()
    c = {"name": f"directml.{short}.{name}",
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs}
    if attrs:
        c["attrs"] = attrs
    if outputs:
        for out in outputs.values():
            if "nan" in out["data"]:
                out["tolerance"] = {"ulp": 0}  # any NaN (reference/precision.md)
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


# ---- The rules, in numpy -----------------------------------------------------------------

def quantize(x, s, zp, out_t):
    xf = np.asarray(x).astype(np.float32)
    sf = np.asarray(s).astype(np.float32)
    with np.errstate(all="ignore"):
        q = np.rint(xf / sf).astype(np.float64) + np.asarray(zp, np.float64)
    info = np.iinfo(NUMPY_TYPES[out_t])
    q = np.where(np.isnan(q), 0.0, np.clip(q, int(info.min), int(info.max)))
    return q.astype(NUMPY_TYPES[out_t])


def dequantize(x, s, zp, out_t):
    d = np.asarray(x, np.int64) - np.asarray(zp, np.int64)
    with np.errstate(all="ignore"):
        p = d.astype(np.float32) * np.asarray(s).astype(np.float32)
    return p.astype(NUMPY_TYPES[out_t])


def onnx_reference(op, x, s, zp, out_t, axis=1, block_size=0):
    names = ["x", "s"] + ([] if zp is None else ["z"])
    feed = {"x": x, "s": s}
    if zp is not None:
        feed["z"] = zp
    vi = [helper.make_tensor_value_info(n, ONNX_TYPES[t], list(feed[n].shape))
          for n, t in zip(names, [dtype_name(feed[n]) for n in names])]
    attrs = {"axis": axis}
    if block_size:
        attrs["block_size"] = block_size
    if op == "QuantizeLinear":
        attrs["output_dtype"] = ONNX_TYPES[out_t]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph([node], "g", vi, [helper.make_tensor_value_info(
        "y", ONNX_TYPES[out_t], list(x.shape))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    with np.errstate(all="ignore"):
        return ReferenceEvaluator(model).run(None, feed)[0]


def dtype_name(a):
    return {np.float32: "FLOAT32", np.float16: "FLOAT16", np.int8: "INT8",
            np.uint8: "UINT8"}[a.dtype.type]


def agree(name, got, want, skip=None):
    """Element by element; skip (a mask): elements onnx.reference leaves undefined (a NaN,
    infinite or past-int32 quotient cast to an integer: numpy's cast is undefined there)."""
    g, w = np.asarray(got).reshape(-1), np.asarray(want).reshape(-1)
    sk = np.zeros(g.shape, bool) if skip is None else np.asarray(skip).reshape(-1)
    for i, (a, b) in enumerate(zip(g, w)):
        if sk[i]:
            continue
        same = (np.isnan(a) and np.isnan(b)) if np.issubdtype(g.dtype, np.floating) and \
            np.isnan(a) else a == b
        if not same:
            raise SystemExit(f"{name}: element {i}: these rules {a}, onnx.reference {b}")


# ---- QUANTIZE and DEQUANTIZE ---------------------------------------------------------------

def expand(q, shape, axis, block):
    """The quantization tensor q (ONNX's shape: a scalar, 1-D along axis, or blocked) over the
    DirectML shape: the input's, its axis split into (blocks, block) when block > 0, as a
    packed tensor of q read with 0 strides. Returns (sizes, strides)."""
    rank = len(shape)
    if q.ndim == 0:
        return [0] * rank
    if q.ndim == 1:
        return [1 if i == axis else 0 for i in range(rank)]
    # blocked: shape = x.shape with axis split into (blocks, block); q.shape = x.shape with
    # axis blocks: the element dimension (axis + 1) strides 0, the others packed over q.
    qs = list(q.shape)
    strides, step = [0] * rank, 1
    qdims = qs[:axis + 1] + [1] + qs[axis + 1:]
    for i in reversed(range(rank)):
        strides[i] = step if i != axis + 1 else 0
        step *= qdims[i]
    return strides


def list_case(name, quantize_op, x, s, zp, out_t, axis=1, block=0, note=None):
    """x in ONNX's shape; s and zp in ONNX's (scalar, 1-D along axis, or blocked along axis by
    block); the DirectML form reshapes a blocked axis into (blocks, block)."""
    op = "QUANTIZE" if quantize_op else "DEQUANTIZE"
    onnx_op = "QuantizeLinear" if quantize_op else "DequantizeLinear"
    if s.ndim == 0 or s.ndim == 1:
        shape_s = s.reshape([-1 if (s.ndim == 1 and i == axis) else 1 for i in range(x.ndim)])
        full = np.broadcast_to(shape_s, x.shape)
        zfull = None if zp is None else np.broadcast_to(zp.reshape(shape_s.shape), x.shape)
    else:
        full = np.repeat(s, block, axis=axis)
        zfull = None if zp is None else np.repeat(zp, block, axis=axis)
    zero = 0 if zfull is None else zfull
    y = quantize(x, full, zero, out_t) if quantize_op else dequantize(x, full, zero, out_t)
    want = onnx_reference(onnx_op, x, s, zp, out_t, axis, block)
    with np.errstate(all="ignore"):
        qv = x.astype(np.float64) / full.astype(np.float64)
        skip = ~(np.abs(qv) <= 2.0**30) if quantize_op else None
    agree(f"{op} {name}", y, want, skip)
    shape = list(x.shape)
    if block:
        shape = shape[:axis] + [shape[axis] // block, block] + shape[axis + 1:]
    strides = expand(s, shape, axis, block)
    # The case format's data is the logical tensor (every element, row-major over Sizes); the
    # runner lays it out by the strides, so the broadcast copies agree.
    qt = [{"type": dtype_name(s), "shape": shape, "strides": strides,
           "data": tensor(dtype_name(s), np.asarray(full).reshape(-1))["data"]}]
    if zp is not None:
        qt.append({"type": dtype_name(zp), "shape": shape, "strides": strides,
                   "data": tensor(dtype_name(zp), np.asarray(zfull).reshape(-1))["data"]})
    inputs = {"InputTensor": tensor(dtype_name(x), x, shape), "QuantizationTensors": qt}
    attrs = {"QuantizationType": "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT" if zp is not None
             else "DML_QUANTIZATION_TYPE_SCALE"}
    return case(name, op, inputs, {"OutputTensor": tensor(out_t, y, shape)}, attrs=attrs,
                note=note)


def list_cases():
    rng = np.random.default_rng(63)
    f32, f16 = np.float32, np.float16
    cases = []
    x = (rng.integers(-1200, 1200, size=(2, 3, 4)) / 4).astype(f32)
    cases.append(list_case("per-tensor-float32-uint8", True, x, np.array(0.5, f32),
                           np.array(128, np.uint8), "UINT8",
                           note="quarters over a power-of-two scale: exact halves, to even"))
    cases.append(list_case("per-axis-float32-int8-scale-only", True, x,
                           np.array([0.25, 2.0, 3.0], f32), None, "INT8", axis=1))
    xb = (rng.integers(-4000, 4000, size=(2, 12)) / 8).astype(f32)
    sb = np.array([[0.5, 1.0, 0.25, 4.0], [2.0, 0.125, 1.5, 8.0]], f32)
    zb = np.array([[0, 10, 250, 128], [3, 100, 0, 255]], np.uint8)
    cases.append(list_case("blockwise-float32-uint8", True, xb, sb, zb, "UINT8", axis=1,
                           block=3, note="block_size 3 along axis 1 (onnx.reference's "
                           "QuantizeLinear-21 block_size): {2, 12} as {2, 4, 3}, the scale "
                           "and zero point {2, 4} read with strides {4, 1, 0}"))
    xh = (rng.integers(-600, 600, size=(3, 8)) / 2).astype(f16)
    cases.append(list_case("blockwise-float16-int8-axis0", True, xh,
                           np.array([[0.5, 2.0, 1.0, 4.0, 0.25, 1.0, 2.0, 0.5]], f16),
                           np.array([[0, -5, 7, 100, -100, 1, 2, 3]], np.int8), "INT8", axis=0,
                           block=3, note="block_size 3 along axis 0: {3, 8} as {1, 3, 8}"))
    specials = np.array([NAN, -NAN, INF, -INF, 1e30, -1e30, 0.0, -0.0, 127.5, 128.5, -128.5,
                         254.5], f32)
    cases.append(list_case("specials-saturate-nan-zero", True, specials, np.array(1.0, f32),
                           np.array(0, np.int8), "INT8",
                           note="NaN gives 0, infinities and values past the range its ends; "
                           "halves to even"))
    xq = rng.integers(0, 256, size=(2, 3, 4)).astype(np.uint8)
    cases.append(list_case("dequantize-per-tensor-uint8-float32", False, xq,
                           np.array(0.037, f32), np.array(131, np.uint8), "FLOAT32"))
    xi = rng.integers(-128, 128, size=(2, 3, 4)).astype(np.int8)
    cases.append(list_case("dequantize-per-axis-int8-float16-scale-only", False, xi,
                           np.array([0.5, 0.0107, 3.25], f16), None, "FLOAT16", axis=1))
    xbi = rng.integers(-128, 128, size=(4, 8)).astype(np.int8)
    cases.append(list_case("dequantize-blockwise-int8-float32", False, xbi,
                           np.array([[0.5, 0.75], [1.0, 0.1], [2.0, 3.0], [0.01, 7.0]], f32),
                           np.array([[0, 1], [-1, 2], [5, -5], [127, -128]], np.int8),
                           "FLOAT32", axis=1, block=4))
    return cases


def list_errors():
    base = list_case("x", True, np.array([1.0, 2.0], np.float32), np.array(1.0, np.float32),
                     np.array(0, np.uint8), "UINT8")
    errors = []

    def err(name, op, mutate, note):
        c = {k: v for k, v in base.items() if k in ("inputs", "attrs")}
        c = __import__("copy").deepcopy(c)
        mutate(c)
        out = {"type": "UINT8" if op == "QUANTIZE" else "FLOAT32", "shape": [2]}
        c["inputs"].setdefault("OutputTensor", out)
        errors.append(case(name, op, c["inputs"], error="invalid_argument", attrs=c["attrs"],
                           note=note))

    err("quantization-type-none", "QUANTIZE",
        lambda c: c["attrs"].update(QuantizationType="DML_QUANTIZATION_TYPE_NONE"),
        "QuantizationType must be SCALE or SCALE_ZERO_POINT")
    err("count-mismatch", "QUANTIZE",
        lambda c: c["attrs"].update(QuantizationType="DML_QUANTIZATION_TYPE_SCALE"),
        "QuantizationTensorCount (2) must be 1 for SCALE")
    err("int32-input", "QUANTIZE",
        lambda c: c["inputs"].update(InputTensor={"type": "INT32", "shape": [2],
                                                  "data": [1, 2]}),
        "InputTensor FLOAT32 or FLOAT16 only")
    err("scale-type", "QUANTIZE",
        lambda c: c["inputs"]["QuantizationTensors"][0].update(type="FLOAT16"),
        "the scale has InputTensor's DataType")
    err("zero-point-type", "QUANTIZE",
        lambda c: c["inputs"]["QuantizationTensors"][1].update(type="INT8"),
        "the zero point has OutputTensor's DataType")
    err("scale-sizes", "QUANTIZE",
        lambda c: c["inputs"]["QuantizationTensors"][0].update(shape=[1], strides=[1],
                                                               data=[1.0]),
        "a quantization tensor has InputTensor's Sizes (broadcast by 0 strides)")
    err("dequantize-output-type", "DEQUANTIZE",
        lambda c: (c["inputs"].update(InputTensor={"type": "UINT8", "shape": [2],
                                                   "data": [1, 2]}),
                   c["inputs"].update(OutputTensor={"type": "INT32", "shape": [2]})),
        "DEQUANTIZE's OutputTensor FLOAT32 or FLOAT16")
    return errors


# ---- QUANTIZED_LINEAR_ADD ---------------------------------------------------------------

def qadd(a, asc, az, b, bsc, bz, osc, oz, t):
    av = dequantize(a, asc, az, "FLOAT32")
    bv = dequantize(b, bsc, bz, "FLOAT32")
    return quantize((av + bv).astype(np.float32), osc, oz, t)


def ort_qlinear_add(a, asc, az, b, bsc, bz, osc, oz, t):
    import onnxruntime as ort
    tt = ONNX_TYPES[t]
    names = ["A", "As", "Az", "B", "Bs", "Bz", "Cs", "Cz"]
    vals = [a, np.array(asc, np.float32), np.array(az, NUMPY_TYPES[t]), b,
            np.array(bsc, np.float32), np.array(bz, NUMPY_TYPES[t]), np.array(osc, np.float32),
            np.array(oz, NUMPY_TYPES[t])]
    vi = [helper.make_tensor_value_info(n, tt if v.dtype != np.float32 else
                                        onnx.TensorProto.FLOAT, list(v.shape))
          for n, v in zip(names, vals)]
    node = helper.make_node("QLinearAdd", names, ["C"], domain="com.microsoft")
    out_shape = list(np.broadcast_shapes(a.shape, b.shape))
    graph = helper.make_graph([node], "g", vi, [helper.make_tensor_value_info("C", tt,
                                                                               out_shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so,
                                providers=["CPUExecutionProvider"])
    return sess.run(None, dict(zip(names, vals)))[0]


def single(t, v, rank):
    return {"type": t, "shape": [1] * rank, "data": tensor(t, np.array([v]))["data"]}


def np_type(a):
    return "INT8" if a.dtype == np.int8 else "UINT8"


def add_case(name, a, asc, az, b, bsc, bz, osc, oz, t, note=None):
    """A and B of their numpy types, the output of t; the zero points of their tensors' types.
    ONNX Runtime's QLinearAdd takes one type for all three: it checks the cases that have one."""
    ta, tb = np_type(a), np_type(b)
    bb = np.broadcast_to(b, a.shape)
    y = qadd(a, asc, 0 if az is None else az, bb, bsc, 0 if bz is None else bz, osc,
             0 if oz is None else oz, t)
    if ta == tb == t:
        ort_y = ort_qlinear_add(a, asc, 0 if az is None else az, b, bsc,
                                0 if bz is None else bz, osc, 0 if oz is None else oz, t)
        diff = np.abs(ort_y.astype(np.int64) - y.astype(np.int64))
        if diff.max() > 1:
            raise SystemExit(f"QLinearAdd {name}: ONNX Runtime differs by {diff.max()}")
        print(f"  {name}: {int((diff != 0).sum())} of {diff.size} elements 1 apart from ONNX "
              "Runtime's CPU QLinearAdd", file=sys.stderr)
    rank = a.ndim
    bt = tensor(tb, bb)
    bt["strides"] = [0 if (b.shape[i] == 1 and a.shape[i] != 1) else
                     int(np.prod(b.shape[i + 1:])) for i in range(rank)]
    inputs = {"ATensor": tensor(ta, a), "AScaleTensor": single("FLOAT32", asc, rank),
              "BTensor": bt, "BScaleTensor": single("FLOAT32", bsc, rank),
              "OutputScaleTensor": single("FLOAT32", osc, rank)}
    for key, v, vt in (("AZeroPointTensor", az, ta), ("BZeroPointTensor", bz, tb),
                       ("OutputZeroPointTensor", oz, t)):
        if v is not None:
            inputs[key] = single(vt, v, rank)
    return case(name, "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", inputs,
                {"OutputTensor": tensor(t, y)}, note=note)


def add_cases():
    rng = np.random.default_rng(40)
    u8 = rng.integers(0, 256, size=(2, 3, 4), dtype=np.uint8)
    v8 = rng.integers(0, 256, size=(2, 3, 4), dtype=np.uint8)
    i8 = rng.integers(-128, 128, size=(2, 3, 4), dtype=np.int8)
    j8 = rng.integers(-128, 128, size=(1, 3, 1), dtype=np.int8)
    cases = [
        add_case("uint8", u8, 0.05, 128, v8, 0.02, 110, 0.07, 120, "UINT8"),
        add_case("int8-broadcast-b", i8, 0.011, -3, j8, 0.3, 5, 0.1, 0, "INT8",
                 note="B {1, 3, 1} read over {2, 3, 4} with strides {0, 1, 0}, as ONNX "
                 "Runtime's DirectML provider broadcasts QLinearAdd's inputs"),
        add_case("uint8-no-zero-points", u8, 0.25, None, v8, 0.5, None, 1.0, None, "UINT8",
                 note="absent zero points are 0; power-of-two scales make exact halves, "
                 "rounded to even"),
        add_case("int8-saturates", i8, 2.0, 0, i8, 2.0, 0, 0.5, 0, "INT8",
                 note="sums past the range saturate to -128 and 127"),
        add_case("mixed-types", u8, 0.05, 128, i8, 0.02, -7, 0.07, 3, "INT8",
                 note="UINT8 A, INT8 B, INT8 output: the page's type rules pair each zero "
                 "point with its own tensor only"),
    ]
    errors = []
    base = cases[0]
    import copy
    for name, mutate, note in (
            ("int16-a", lambda c: c["ATensor"].update(type="INT16"),
             "ATensor INT8 or UINT8"),
            ("b-zero-point-type", lambda c: c["BZeroPointTensor"].update(type="INT8", data=[0]),
             "BZeroPointTensor has BTensor's DataType"),
            ("scale-float16", lambda c: c["BScaleTensor"].update(type="FLOAT16"),
             "the scales are FLOAT32"),
            ("scale-two-elements", lambda c: c["OutputScaleTensor"].update(
                shape=[1, 1, 2], data=[0.5, 0.5]), "a scale holds one element"),
            ("scale-rank", lambda c: c["AScaleTensor"].update(shape=[1, 1]),
             "every tensor has ATensor's DimensionCount")):
        inputs = copy.deepcopy(base["inputs"])
        mutate(inputs)
        inputs["OutputTensor"] = {"type": "UINT8", "shape": [2, 3, 4]}
        errors.append(case(name, "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", inputs,
                           error="invalid_argument", note=note))
    return cases + errors


# ---- DYNAMIC_QUANTIZE_LINEAR ---------------------------------------------------------------

def dynamic(x, out_t):
    """The rules in numpy float32: min and max (NaN passed over) widened to 0, the scale (1 for
    an empty range), the zero point clamped and rounded to even, then QUANTIZE."""
    info = np.iinfo(NUMPY_TYPES[out_t])
    xf = np.asarray(x, np.float32)
    lo = np.float32(min(np.nanmin(xf), 0)) if not np.all(np.isnan(xf)) else np.float32(0)
    hi = np.float32(max(np.nanmax(xf), 0)) if not np.all(np.isnan(xf)) else np.float32(0)
    with np.errstate(all="ignore"):
        s = np.float32(1) if hi == lo else np.float32((hi - lo) / np.float32(info.max - info.min))
        izp = np.float32(np.float32(info.min) - np.float32(lo / s))
    zp = np.float32(info.max) if np.isnan(izp) else np.clip(izp, info.min, info.max)
    zp = int(np.rint(zp))
    return quantize(xf, s, zp, out_t), s, zp


def dynamic_case(name, x, out_t, strides=None, note=None):
    y, s, zp = dynamic(x, out_t)
    if out_t == "UINT8" and np.float32(x.max()) != np.float32(x.min()) and \
            not np.isnan(x.astype(np.float32)).any():
        # ONNX's DynamicQuantizeLinear-11 (uint8 only): the same three outputs (onnx.reference
        # lets a NaN poison min and max, and divides by 0 for an all-zero input: not checked).
        node = helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "s", "z"])
        graph = helper.make_graph(
            [node], "g", [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT,
                                                        list(x.shape))],
            [helper.make_tensor_value_info("y", onnx.TensorProto.UINT8, list(x.shape)),
             helper.make_tensor_value_info("s", onnx.TensorProto.FLOAT, []),
             helper.make_tensor_value_info("z", onnx.TensorProto.UINT8, [])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
        wy, ws, wz = ReferenceEvaluator(model).run(None, {"x": x.astype(np.float32)})
        agree(f"DYNAMIC_QUANTIZE_LINEAR {name}", y, wy)
        if np.float32(ws) != s or int(wz) != zp:
            raise SystemExit(f"DYNAMIC_QUANTIZE_LINEAR {name}: onnx.reference scale {ws} zero "
                             f"point {wz}, these rules {s} {zp}")
    rank = x.ndim
    xt = tensor(dtype_name(x), x)
    if strides is not None:
        xt["strides"] = strides
    one = [1] * rank
    outputs = {"OutputTensor": tensor(out_t, y),
               "OutputScaleTensor": tensor("FLOAT32", np.array([s], np.float32), one),
               "OutputZeroPointTensor": tensor(out_t, np.array([zp]), one)}
    return case(name, "DYNAMIC_QUANTIZE_LINEAR", {"InputTensor": xt}, outputs, note=note)


def dynamic_cases():
    rng = np.random.default_rng(11)
    f32, f16 = np.float32, np.float16
    cases = [
        dynamic_case("float32-uint8", (rng.standard_normal((2, 3, 4)) * 3).astype(f32), "UINT8"),
        dynamic_case("float32-int8", (rng.standard_normal((3, 5)) * 7).astype(f32), "INT8",
                     note="INT8: Min -128, Max 127 in the page's formulas"),
        dynamic_case("float16-uint8", (rng.standard_normal((4, 4)) * 2).astype(f16), "UINT8",
                     note="FLOAT16 read exactly, computed in float32"),
        dynamic_case("positive-only", (rng.random((2, 8)) * 10 + 1).astype(f32), "UINT8",
                     note="the range widened to 0: zero point 0"),
        dynamic_case("negative-only", -(rng.random((2, 8)) * 10 + 1).astype(f32), "INT8",
                     note="the range widened to 0: zero point 127"),
        dynamic_case("all-zero", np.zeros((2, 3), f32), "UINT8",
                     note="max = min: scale 1 (ONNX Runtime's rule; the page's formula would "
                     "divide by 0), zero point 0"),
        dynamic_case("transposed-input", (rng.standard_normal((3, 4)) * 5).astype(f32),
                     "UINT8", strides=[1, 3],
                     note="InputTensor {3, 4} read with strides {1, 3}"),
        dynamic_case("nan-passed-over", np.array([[1.5, float("nan"), -2.0, 4.0]], f32),
                     "UINT8", note="a NaN is passed over by min and max and quantizes to 0"),
        dynamic_case("onnx-example", np.array([0, 2, -3, -2.5, 1.34, 0.5], f32), "UINT8",
                     note="ONNX's DynamicQuantizeLinear example (test_dynamicquantizelinear)"),
    ]
    base = cases[0]
    import copy
    for name, mutate, note in (
            ("int32-input", lambda c: c["inputs"]["InputTensor"].update(type="INT32",
                                                                         data=[0] * 24),
             "InputTensor FLOAT32 or FLOAT16"),
            ("scale-float16", lambda c: c["inputs"].update(OutputScaleTensor={
                "type": "FLOAT16", "shape": [1, 1, 1]}), "OutputScaleTensor FLOAT32"),
            ("zero-point-type", lambda c: c["inputs"].update(OutputZeroPointTensor={
                "type": "INT8", "shape": [1, 1, 1]}), "the zero point has the output's type"),
            ("scale-two-elements", lambda c: c["inputs"].update(OutputScaleTensor={
                "type": "FLOAT32", "shape": [1, 1, 2]}), "the scale holds one element"),
            ("output-sizes", lambda c: c["inputs"].update(OutputTensor={
                "type": "UINT8", "shape": [2, 3, 5]}), "OutputTensor has InputTensor's Sizes")):
        c = {"inputs": copy.deepcopy(base["inputs"])}
        mutate(c)
        c["inputs"].setdefault("OutputTensor", {"type": "UINT8", "shape": [2, 3, 4]})
        c["inputs"].setdefault("OutputScaleTensor", {"type": "FLOAT32", "shape": [1, 1, 1]})
        c["inputs"].setdefault("OutputZeroPointTensor", {"type": "UINT8", "shape": [1, 1, 1]})
        cases.append(case(name, "DYNAMIC_QUANTIZE_LINEAR", c["inputs"],
                          error="invalid_argument", note=note))
    return cases


# ---- QUANTIZED_LINEAR_AVERAGE_POOLING -----------------------------------------------------

def qavgpool(x, xs, xz, ys, yz, out_t, window, strides, pads, include):
    """The rules in numpy: per output, the window's (q - zero point) summed exactly over the
    input positions it covers, times the input scale, over the divisor (the padded positions
    too with include), each in float32; then QUANTIZE by the output scale and zero point. xs,
    xz, ys, yz: one value or one per channel."""
    n, c = x.shape[:2]
    sp = x.shape[2:]
    dims = len(sp)
    outs = [(sp[a] + pads[a] + pads[dims + a] - window[a]) // strides[a] + 1
            for a in range(dims)]
    y = np.zeros((n, c) + tuple(outs), NUMPY_TYPES[out_t])
    per = lambda v, ch: np.asarray(v).reshape(-1)[ch if np.asarray(v).size > 1 else 0]
    for idx in np.ndindex(*y.shape):
        b, ch, o = idx[0], idx[1], idx[2:]
        total, valid, padded = 0, 0, 0
        for k in np.ndindex(*window):
            pos = [o[a] * strides[a] - pads[a] + k[a] for a in range(dims)]
            if all(-pads[a] <= pos[a] < sp[a] + pads[dims + a] for a in range(dims)):
                padded += 1
            if all(0 <= pos[a] < sp[a] for a in range(dims)):
                valid += 1
                total += int(x[(b, ch) + tuple(pos)]) - int(per(xz, ch))
        div = padded if include else valid
        xv = np.float32(np.float32(total) * np.float32(per(xs, ch)))
        avg = np.float32(xv / np.float32(div)) if div else np.float32(0)
        y[idx] = quantize(avg, per(ys, ch), int(per(yz, ch)), out_t)
    return y


def ort_qavgpool(x, xs, xz, ys, yz, window, strides, pads, include):
    import onnxruntime as ort
    tt = ONNX_TYPES[np_type(x)]
    names = ["x", "xs", "xz", "ys", "yz"]
    vals = [x, np.array(xs, np.float32), np.array(xz, x.dtype), np.array(ys, np.float32),
            np.array(yz, x.dtype)]
    vi = [helper.make_tensor_value_info(nm, tt if v.dtype != np.float32 else
                                        onnx.TensorProto.FLOAT, list(v.shape))
          for nm, v in zip(names, vals)]
    node = helper.make_node("QLinearAveragePool", names, ["y"], domain="com.microsoft",
                            kernel_shape=list(window), strides=list(strides), pads=list(pads),
                            count_include_pad=int(include))
    graph = helper.make_graph([node], "g", vi, [helper.make_tensor_value_info("y", tt, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run(None, dict(zip(names, vals)))[0]


def qpool_case(name, x, xs, xz, ys, yz, out_t, window, strides=None, pads=None, include=False,
               note=None):
    dims = x.ndim - 2
    strides = strides or [1] * dims
    pads = pads or [0] * (2 * dims)
    zx = 0 if xz is None else xz
    zy = 0 if yz is None else yz
    y = qavgpool(x, xs, zx, ys, zy, out_t, window, strides, pads, include)
    if np.asarray(xs).size == 1 and np.asarray(ys).size == 1 and np_type(x) == out_t:
        got = ort_qavgpool(x, xs, zx, ys, zy, window, strides, pads, include)
        diff = np.abs(got.astype(np.int64) - y.astype(np.int64))
        if diff.max() > 1:
            raise SystemExit(f"QLinearAveragePool {name}: ONNX Runtime differs by {diff.max()}")
        print(f"  {name}: {int((diff != 0).sum())} of {diff.size} elements 1 apart from ONNX "
              "Runtime's CPU QLinearAveragePool", file=sys.stderr)
    rank = x.ndim

    def q(t, v):
        v = np.asarray(v)
        shape = [1] * rank
        if v.size > 1:
            shape[1] = v.size
        return tensor(t, v.reshape(shape))
    inputs = {"InputTensor": tensor(np_type(x), x), "InputScaleTensor": q("FLOAT32", xs),
              "OutputScaleTensor": q("FLOAT32", ys)}
    if xz is not None:
        inputs["InputZeroPointTensor"] = q(np_type(x), xz)
    if yz is not None:
        inputs["OutputZeroPointTensor"] = q(out_t, yz)
    attrs = {"WindowSize": list(window), "Strides": list(strides),
             "StartPadding": list(pads[:dims]), "EndPadding": list(pads[dims:]),
             "IncludePadding": bool(include)}
    return case(name, "QUANTIZED_LINEAR_AVERAGE_POOLING", inputs, {"OutputTensor": tensor(out_t, y)},
                attrs=attrs, note=note)


def qpool_cases():
    rng = np.random.default_rng(62)
    u8 = rng.integers(0, 256, size=(1, 2, 5, 5), dtype=np.uint8)
    i8 = rng.integers(-128, 128, size=(2, 3, 4, 6), dtype=np.int8)
    v5 = rng.integers(0, 256, size=(1, 2, 3, 4, 4), dtype=np.uint8)
    cases = [
        qpool_case("uint8-3x3", u8, 0.05, 128, 0.04, 120, "UINT8", [3, 3]),
        qpool_case("uint8-padded-include", u8, 0.1, 100, 0.1, 100, "UINT8", [3, 3], [2, 2],
                   [1, 1, 1, 1], include=True,
                   note="IncludePadding: a padding position is the zero point (adds nothing) and "
                   "counts in the divisor"),
        qpool_case("uint8-padded-exclude", u8, 0.1, 100, 0.1, 100, "UINT8", [3, 3], [2, 2],
                   [1, 1, 1, 1]),
        qpool_case("int8-no-zero-points", i8, 0.25, None, 0.125, None, "INT8", [2, 3], [2, 1],
                   note="absent zero points are 0; power-of-two scales make exact halves"),
        qpool_case("int8-per-channel", i8, [0.1, 0.2, 0.3], [-3, 0, 5], [0.05, 0.1, 0.2],
                   [1, 2, 3], "INT8", [2, 2],
                   note="scales and zero points {1, C, 1, 1} (per channel)"),
        qpool_case("int8-to-uint8", i8, 0.1, -10, 0.05, 128, "UINT8", [3, 3], [1, 2],
                   note="an INT8 input into a UINT8 output: the page's types pair each zero "
                   "point with its own tensor"),
        qpool_case("uint8-3d", v5, 0.02, 7, 0.03, 9, "UINT8", [2, 2, 3], [1, 2, 1],
                   [0, 1, 1, 1, 0, 1], include=True),
    ]
    import copy
    base = cases[0]
    for name, mutate, note in (
            ("float-input", lambda c: c["InputTensor"].update(
                type="FLOAT32", data=[float(v) for v in c["InputTensor"]["data"]]),
             "InputTensor INT8 or UINT8"),
            ("zero-point-type", lambda c: c["InputZeroPointTensor"].update(type="INT8", data=[0]),
             "InputZeroPointTensor has InputTensor's DataType"),
            ("scale-float16", lambda c: c["OutputScaleTensor"].update(type="FLOAT16"),
             "the scales are FLOAT32"),
            ("scale-two-elements", lambda c: c["InputScaleTensor"].update(
                shape=[1, 1, 1, 2], data=[0.5, 0.5]),
             "a scale holds 1 element or C along dimension 1")):
        inputs = copy.deepcopy(base["inputs"])
        mutate(inputs)
        inputs["OutputTensor"] = {"type": "UINT8", "shape": [1, 2, 3, 3]}
        cases.append(case(name, "QUANTIZED_LINEAR_AVERAGE_POOLING", inputs,
                          error="invalid_argument", attrs=base["attrs"], note=note))
    return cases


def main():
    cases = list_cases() + list_errors() + add_cases() + dynamic_cases() + qpool_cases()
    write(os.path.join(CASES, "directml", "quant_list.json"), cases)
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
