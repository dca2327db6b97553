# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/elementwise_quant.json: DirectML's
ELEMENT_WISE_QUANTIZE_LINEAR and ELEMENT_WISE_DEQUANTIZE_LINEAR on every type pair of their
feature-level tables (up to 6.4: FLOAT16 from 6.0, ZeroPointTensor optional from 6.2), with
per-tensor and per-axis scales and zero points (0 strides, as ONNX Runtime's DirectML provider
builds them), absent zero points, halves, saturation, NaN and infinities, scales of 0 and
negative ones, 32-bit differences past 2^24, FLOAT16 ties and overflow, strided outputs, eight
dimensions, and one case per validation rule.

Expected values: numpy in float32 arithmetic, with the rules docs/operators.md states where
DirectML's pages are silent: QUANTIZE is rint(x / scale) + zero point saturated to the
output's range, the quotient a float32 one (FLOAT16 read exactly, INT32 rounded to float32 to
nearest even), NaN giving 0 and +-inf the range's ends; DEQUANTIZE is (x - zero point) exact,
rounded to float32, times the scale in float32, a FLOAT16 output that float32 value rounded.
Every finite element is checked against onnx.reference's QuantizeLinear-21 and
DequantizeLinear-21 where they are defined alike, and the generator stops on a disagreement a
case does not explain in its note: onnx.reference divides FLOAT16 in FLOAT16 and INT32 in
float64, casts rint's NaN and infinities to int32 (undefined in numpy), and subtracts an
INT32 zero point in float64 after rounding the input to float32.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/elementwise_quant.py
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
Q, DQ = "QUANTIZE_LINEAR", "DEQUANTIZE_LINEAR"
ONNX_TYPES = {"FLOAT32": onnx.TensorProto.FLOAT, "FLOAT16": onnx.TensorProto.FLOAT16,
              "INT32": onnx.TensorProto.INT32, "INT16": onnx.TensorProto.INT16,
              "INT8": onnx.TensorProto.INT8, "UINT32": onnx.TensorProto.UINT32,
              "UINT16": onnx.TensorProto.UINT16, "UINT8": onnx.TensorProto.UINT8}


def is_float(t):
    return t.startswith("FLOAT")


def case(name, op, inputs, outputs=None, error=None, note=None):
    c = {"name": f"directml.element_wise_{op.lower()}.{name}",
         "source": f"directml:DML_ELEMENT_WISE_{op}_OPERATOR_DESC#"
                   + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_ELEMENT_WISE_{op}", "inputs": inputs}
    if outputs:
        for out in outputs.values():
            if "nan" in out["data"]:
                # NaN payloads survive only raw moves (reference/precision.md): any NaN.
                out["tolerance"] = {"ulp": 0}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def spread(t, shape, values, strides=None):
    """A case tensor of the logical shape from values that broadcast to it (numpy rules), with
    DirectML strides (0 where it broadcasts) when given."""
    a = np.broadcast_to(np.asarray(values, dtype=NUMPY_TYPES[t]), shape)
    d = tensor(t, a)
    if strides is not None:
        d["strides"] = list(strides)
    return d


def broadcast_strides(shape, small_shape):
    """Element strides reading a packed tensor of small_shape (right-aligned, numpy's rule)
    over shape: 0 where it broadcasts."""
    small = [1] * (len(shape) - len(small_shape)) + list(small_shape)
    strides, step = [0] * len(shape), 1
    for i in reversed(range(len(shape))):
        strides[i] = step if small[i] != 1 else 0
        step *= small[i]
    return strides


# ---- The rules, in numpy -----------------------------------------------------------------

def quantize(x, s, zp, in_t, scale_t, out_t):
    xf = np.asarray(x, NUMPY_TYPES[in_t]).astype(np.float32)  # INT32: nearest even
    sf = np.asarray(s, NUMPY_TYPES[scale_t]).astype(np.float32)
    with np.errstate(all="ignore"):
        q = np.rint(xf / sf).astype(np.float64) + np.asarray(zp, np.float64)
    info = np.iinfo(NUMPY_TYPES[out_t])
    q = np.where(np.isnan(q), 0.0, np.clip(q, int(info.min), int(info.max)))
    return q.astype(NUMPY_TYPES[out_t])


def dequantize(x, s, zp, in_t, out_t):
    d = np.asarray(x, np.int64) - np.asarray(zp, np.int64)  # exact
    with np.errstate(all="ignore"):
        p = d.astype(np.float32) * np.asarray(s, NUMPY_TYPES[out_t]).astype(np.float32)
        return p.astype(NUMPY_TYPES[out_t])


# ---- onnx.reference, element by element ----------------------------------------------------

_sessions = {}


def onnx_run(op, x, s, zp, in_t, scale_t, out_t):
    """op (QuantizeLinear or DequantizeLinear, opset 21) on scalars; zp None: absent."""
    key = (op, in_t, scale_t, out_t, zp is None)
    if key not in _sessions:
        names = ["x", "s"] + ([] if zp is None else ["z"])
        zt = out_t if op == "QuantizeLinear" else in_t
        types = [in_t, scale_t, zt]
        inputs = [helper.make_tensor_value_info(n, ONNX_TYPES[types[i]], [1])
                  for i, n in enumerate(names)]
        attrs = {"output_dtype": ONNX_TYPES[out_t]} if op == "QuantizeLinear" else {}
        node = helper.make_node(op, names, ["y"], **attrs)
        graph = helper.make_graph([node], "g", inputs,
                                  [helper.make_tensor_value_info("y", ONNX_TYPES[out_t], [1])])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
        _sessions[key] = ReferenceEvaluator(model)
    feed = {"x": np.array([x], NUMPY_TYPES[in_t]), "s": np.array([s], NUMPY_TYPES[scale_t])}
    if zp is not None:
        zt = out_t if op == "QuantizeLinear" else in_t
        feed["z"] = np.array([zp], NUMPY_TYPES[zt])
    with np.errstate(all="ignore"):
        return _sessions[key].run(None, feed)[0][0]


def check_quantize(name, x, s, zp, in_t, scale_t, out_t, got, explained=()):
    """Every element onnx.reference defines alike (a finite quotient inside int32, an INT32
    input it does not round differently) must agree, and those the case's note explains
    (their indices) must not."""
    for i, (xv, sv, zv, g) in enumerate(zip(x.reshape(-1), s.reshape(-1),
                                            np.asarray(zp).reshape(-1) if zp is not None
                                            else [None] * x.size, got.reshape(-1))):
        with np.errstate(all="ignore"):
            q = np.float64(xv) / np.float64(sv)
        if not np.isfinite(q) or abs(q) > 2.0**30 or (in_t == "INT32" and abs(int(xv)) > 2**24):
            continue
        want = onnx_run("QuantizeLinear", xv, sv, zv, in_t, scale_t, out_t)
        if (int(want) != int(g)) != (i in explained):
            raise SystemExit(f"{name}: element {i}: {xv} / {sv} + {zv}: onnx.reference "
                             f"{int(want)}, these rules {int(g)}"
                             + (" (explained as a difference)" if i in explained else ""))


def check_dequantize(name, x, s, zp, in_t, out_t, got):
    """Every element (32-bit ones within 2^24: onnx.reference rounds the input to float32
    before subtracting) must agree with onnx.reference, NaN with NaN."""
    for i, (xv, sv, zv, g) in enumerate(zip(x.reshape(-1), s.reshape(-1),
                                            np.asarray(zp).reshape(-1) if zp is not None
                                            else [None] * x.size, got.reshape(-1))):
        if abs(int(xv)) > 2**24 or (zv is not None and abs(int(zv)) > 2**24):
            continue
        want = onnx_run("DequantizeLinear", xv, sv, zv, in_t, out_t, out_t)
        same = (np.isnan(want) and np.isnan(g)) or (want == g and np.signbit(want) ==
                                                    np.signbit(g))
        if not same:
            raise SystemExit(f"{name}: element {i}: ({xv} - {zv}) * {sv}: onnx.reference "
                             f"{want}, these rules {g}")


# ---- Cases ----------------------------------------------------------------------------------

def q_case(name, shape, x, in_t, s, scale_t, zp, out_t, s_shape=None, zp_shape=None,
           out_strides=None, note=None, explained=()):
    """QUANTIZE over shape: x packed, s and zp of s_shape / zp_shape (broadcast by 0 strides;
    None: per tensor), zp None: absent."""
    s_shape = s_shape if s_shape is not None else [1] * len(shape)
    zp_shape = zp_shape if zp_shape is not None else s_shape
    xa = np.asarray(x, NUMPY_TYPES[in_t]).reshape(shape)
    sa = np.broadcast_to(np.asarray(s, NUMPY_TYPES[scale_t]).reshape(s_shape), shape)
    za = None if zp is None else np.broadcast_to(
        np.asarray(zp, NUMPY_TYPES[out_t]).reshape(zp_shape), shape)
    y = quantize(xa, sa, 0 if za is None else za, in_t, scale_t, out_t)
    check_quantize(name, xa, sa, za, in_t, scale_t, out_t, y, explained)
    inputs = {"InputTensor": tensor(in_t, xa),
              "ScaleTensor": spread(scale_t, shape, sa, broadcast_strides(shape, s_shape))}
    if za is not None:
        inputs["ZeroPointTensor"] = spread(out_t, shape, za, broadcast_strides(shape, zp_shape))
    out = tensor(out_t, y)
    if out_strides is not None:
        inputs["OutputTensor"] = {"type": out_t, "shape": list(shape), "strides": out_strides}
    return case(name, Q, inputs, {"OutputTensor": out}, note=note)


def dq_case(name, shape, x, in_t, s, zp, out_t, s_shape=None, zp_shape=None, out_strides=None,
            note=None, check=True):
    s_shape = s_shape if s_shape is not None else [1] * len(shape)
    zp_shape = zp_shape if zp_shape is not None else s_shape
    xa = np.asarray(x, NUMPY_TYPES[in_t]).reshape(shape)
    sa = np.broadcast_to(np.asarray(s, NUMPY_TYPES[out_t]).reshape(s_shape), shape)
    za = None if zp is None else np.broadcast_to(
        np.asarray(zp, NUMPY_TYPES[in_t]).reshape(zp_shape), shape)
    y = dequantize(xa, sa, 0 if za is None else za, in_t, out_t)
    if check:
        check_dequantize(name, xa, sa, za, in_t, out_t, y)
    inputs = {"InputTensor": tensor(in_t, xa),
              "ScaleTensor": spread(out_t, shape, sa, broadcast_strides(shape, s_shape))}
    if za is not None:
        inputs["ZeroPointTensor"] = spread(in_t, shape, za, broadcast_strides(shape, zp_shape))
    if out_strides is not None:
        inputs["OutputTensor"] = {"type": out_t, "shape": list(shape), "strides": out_strides}
    return case(name, DQ, inputs, {"OutputTensor": tensor(out_t, y)}, note=note)


# Values to quantize: halves (ties), near-halves, past the range, fractions.
GRID = [0.0, 0.25, 0.5, 0.75, 1.25, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.25, 63.75, -64.25,
        100.0, -100.0, 127.5, -128.5, 200.0, 1e6]


def quantize_cases():
    got = []
    for in_t in ["FLOAT32", "FLOAT16", "INT32"]:
        scale_t = "FLOAT32" if in_t == "INT32" else in_t
        for out_t, zp in (("UINT8", 128), ("INT8", -3)):
            if in_t == "INT32":
                x = [0, 1, -1, 2, -2, 3, -3, 5, 7, -7, 100, -100, 255, -256, 300, -301, 1000,
                     2**31 - 1, -2**31, 12345]
                s = 2.0
            else:
                x = [v for v in GRID if in_t == "FLOAT32" or abs(v) < 65504]
                x = (x + [0.1, -0.1])[:20]
                s = 0.5
            got.append(q_case(f"{in_t.lower()}-{out_t.lower()}", [4, 5], x, in_t, s, scale_t, zp,
                              out_t, note="round(x / scale) halves to even, plus the zero "
                                          "point, saturated to the output's range"))
    # Per channel, as ONNX Runtime's DirectML provider describes ONNX's axis = 1: scale and
    # zero point {1, C, 1, 1} read with strides {0, 1, 0, 0}.
    rng = np.random.default_rng(7)
    x = (rng.integers(-400, 400, size=(2, 3, 2, 2)) / 4.0).astype(np.float32)
    got.append(q_case("per-channel", [2, 3, 2, 2], x, "FLOAT32", [0.5, 0.25, 2.0], "FLOAT32",
                      [10, 0, 250], "UINT8", s_shape=[1, 3, 1, 1],
                      note="per-axis quantization: {1, C, 1, 1} with strides {0, 1, 0, 0}"))
    x = (rng.integers(-200, 200, size=(3, 4)) / 8.0).astype(np.float32)
    got.append(q_case("per-axis-last", [3, 4], x, "FLOAT32", [0.125, 0.25, 0.5, 1.0], "FLOAT32",
                      [-5, 0, 5, 10], "INT8", s_shape=[1, 4]))
    got.append(q_case("per-row-zero-point", [3, 4], x, "FLOAT32", 0.25, "FLOAT32", [0, 100, -100],
                      "INT8", s_shape=[1, 1], zp_shape=[3, 1],
                      note="the scale per tensor, the zero point per row"))
    # No zero point (feature level 6.2): 0.
    got.append(q_case("no-zero-point-int8", [2, 5], GRID[:10], "FLOAT32", 0.25, "FLOAT32", None,
                      "INT8", note="ZeroPointTensor absent (feature level 6.2): zero"))
    got.append(q_case("no-zero-point-float16", [2, 5], GRID[:10], "FLOAT16", 0.5, "FLOAT16", None,
                      "UINT8", note="ZeroPointTensor absent: zero; negatives saturate to 0"))
    # Halves, and the zero point added after the rounding.
    got.append(q_case("halves", [2, 6],
                      [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5, 4.5, 126.5, -127.5, 2.4999998],
                      "FLOAT32", 1.0, "FLOAT32", 0, "INT8",
                      note="halves to even (ONNX QuantizeLinear's rounding, numpy's rint)"))
    got.append(q_case("zero-point-after-rounding", [1, 4], [1.25, 0.75, 2.25, -0.25], "FLOAT32",
                      0.5, "FLOAT32", 3, "UINT8",
                      note="(x / scale rounded) + zero point: 2.5 -> 2 + 3 = 5, not round(5.5)"))
    # Saturation, NaN and infinities (integers: exact).
    got.append(q_case("specials", [2, 4], [NAN, -NAN, INF, -INF, 0.0, -0.0, 1e30, -1e30],
                      "FLOAT32", 1.0, "FLOAT32", 10, "INT8",
                      note="NaN gives 0 (CAST's rule, Direct3D's ftoi; onnx.reference casts NaN "
                           "to int32, undefined), +-inf and values past the range saturate"))
    got.append(q_case("specials-uint8", [1, 4], [NAN, INF, -INF, 300.0], "FLOAT16", 1.0,
                      "FLOAT16", 5, "UINT8", note="NaN 0, +inf 255, -inf 0"))
    # Scale 0 (undefined on the page) and negative scales.
    got.append(q_case("scale-zero", [1, 4], [3.0, -3.0, 0.0, -0.0], "FLOAT32", 0.0, "FLOAT32", 7,
                      "INT8", note="a scale of 0 (undefined on the page) divides as IEEE does: "
                                   "+-inf saturates, 0 / 0 is NaN, which gives 0"))
    got.append(q_case("scale-negative", [2, 4], [10.0, -7.0, 1.0, 3.0, 0.5, -0.5, 300.0, -300.0],
                      "FLOAT32", -2.0, "FLOAT32", 100, "UINT8",
                      note="a negative scale divides as it is"))
    # INT32 inputs: converted to float32 first (nearest even).
    got.append(q_case("int32-rounded-to-float32", [1, 4], [16777217, -16777217, 16777219, 33],
                      "INT32", 33554432.0, "FLOAT32", 0, "INT8",
                      note="INT32 is converted to FLOAT32 (nearest even) before the division: "
                           "16777217 becomes 16777216, / 2^25 exactly 0.5, which rounds to 0 "
                           "(onnx.reference divides in float64: 1)"))
    # FLOAT16 computes in float32.
    got.append(q_case("float16-in-float32", [1, 4], [272.5, 169.625, 2.5, 186.125], "FLOAT16",
                      [3.1875, 1.0126953125, 1.0, 1.3740234375], "FLOAT16", 0, "UINT8",
                      s_shape=[1, 4], zp_shape=[1, 1], explained=(0, 1, 3),
                      note="FLOAT16 computes in float32 (docs/operators.md): 272.5 / 3.1875 = "
                           "85.49 -> 85 (onnx.reference divides in float16: 85.5 -> 86)"))
    # Strided output, eight dimensions.
    x = (np.arange(24) - 12) * 0.75
    got.append(q_case("strided-output", [2, 3, 4], x, "FLOAT32", 0.5, "FLOAT32", 128, "UINT8",
                      out_strides=[1, 2, 6], note="the output written through strides"))
    x = (np.arange(48) - 20) * 1.5
    got.append(q_case("rank-8", [1, 2, 1, 2, 1, 3, 2, 2], x, "FLOAT32", [1.0, 2.0], "FLOAT32",
                      [1, -1], "INT8", s_shape=[1, 1, 1, 1, 1, 1, 1, 2]))
    return got


DQ_VALUES = {
    "UINT8": [0, 1, 127, 128, 129, 255, 3, 200],
    "INT8": [-128, -127, -1, 0, 1, 126, 127, 5],
    "UINT16": [0, 1, 32767, 32768, 65535, 1000, 7, 40000],
    "INT16": [-32768, -32767, -1, 0, 1, 32767, -300, 12345],
    "UINT32": [0, 1, 16777216, 16777217, 4294967295, 2**31, 12345, 3],
    "INT32": [-2**31, 2**31 - 1, -1, 0, 1, 16777217, -16777217, 5],
}
DQ_ZP = {"UINT8": 128, "INT8": -3, "UINT16": 32768, "INT16": 100, "UINT32": 1, "INT32": -1}


def dequantize_cases():
    got = []
    for in_t, xs in DQ_VALUES.items():
        for out_t, s in (("FLOAT32", 0.0625), ("FLOAT16", 0.0999755859375)):
            got.append(dq_case(f"{in_t.lower()}-{out_t.lower()}", [2, 4], xs, in_t, s,
                               DQ_ZP[in_t], out_t,
                               note="(x - zero point) * scale: the difference exact, rounded "
                                    "to float32, the product in float32"
                                    + ("; FLOAT16 that product rounded" if out_t == "FLOAT16"
                                       else "")))
    rng = np.random.default_rng(11)
    x = rng.integers(0, 256, size=(2, 3, 2, 2))
    got.append(dq_case("per-channel", [2, 3, 2, 2], x, "UINT8", [0.5, 0.03125, 2.0], [128, 0, 255],
                       "FLOAT32", s_shape=[1, 3, 1, 1],
                       note="per-axis: {1, C, 1, 1} with strides {0, 1, 0, 0}"))
    x = rng.integers(-128, 128, size=(3, 4))
    got.append(dq_case("no-zero-point", [3, 4], x, "INT8", [0.1, 0.2, 0.3, 0.4], None, "FLOAT32",
                       s_shape=[1, 4], note="ZeroPointTensor absent (feature level 6.2): zero"))
    got.append(dq_case("no-zero-point-int32", [1, 4], [16777217, -16777217, 2**31 - 1, 3],
                       "INT32", 1.0, None, "FLOAT32",
                       note="INT32 rounded once to float32 (16777217 -> 16777216)"))
    # 32-bit differences: exact, then rounded once (onnx.reference rounds the input first).
    got.append(dq_case("int32-exact-difference", [1, 4], [2**31 - 1, 16777217, -5, -2**31],
                       "INT32", 1.0, [-2**31, 1, 5, 2**31 - 1], "FLOAT32", s_shape=[1, 1],
                       zp_shape=[1, 4], check=False,
                       note="x - zero point exact in 64 bits, then rounded once: 2^31 - 1 - "
                            "(-2^31) = 2^32 - 1 -> 4294967296; 16777217 - 1 = 2^24 exactly "
                            "(onnx.reference rounds 16777217 to float32 before subtracting: "
                            "16777215)"))
    got.append(dq_case("uint32-exact-difference", [1, 3], [4294967295, 0, 16777217], "UINT32",
                       0.5, [1, 4294967295, 16777216], "FLOAT32", s_shape=[1, 1],
                       zp_shape=[1, 3], check=False,
                       note="unsigned differences may be negative: 0 - (2^32 - 1)"))
    # Signed zeros, infinities and NaN from the scale.
    got.append(dq_case("scale-zero", [1, 4], [100, 130, 128, 0], "UINT8",
                       [0.0, -0.0, 0.0, -0.0], 128, "FLOAT32", s_shape=[1, 4], zp_shape=[1, 1],
                       note="a scale of 0 (undefined on the page): a zero signed as the product"))
    got.append(dq_case("scale-special", [1, 4], [128, 129, 127, 0], "UINT8",
                       [INF, -INF, NAN, INF], 128, "FLOAT32", s_shape=[1, 4], zp_shape=[1, 1],
                       note="IEEE products: 0 * inf is NaN"))
    # FLOAT16: the float32 product rounded to nearest even; a tie and an overflow.
    got.append(dq_case("float16-ties-and-overflow", [1, 4], [3, 255, 255, 1], "UINT8",
                       [0.0999755859375, 256.0, 257.0, 6e-8], 0, "FLOAT16", s_shape=[1, 4],
                       zp_shape=[1, 1],
                       note="3 * 0.0999755859375 = 0.2999267578125, a tie between two halves: "
                            "to even; 255 * 257 = 65535 overflows to inf; a subnormal scale"))
    got.append(dq_case("int32-float16-overflow", [1, 4], [3, -700000, 65537, -1001], "INT32",
                       0.0999755859375, 0, "FLOAT16", check=False,
                       note="32-bit inputs into FLOAT16: the float32 product rounded to half"))
    # Strided output, eight dimensions.
    got.append(dq_case("strided-output", [2, 3, 4], np.arange(24) * 10, "UINT8", 0.5, 7,
                       "FLOAT32", out_strides=[1, 2, 6]))
    got.append(dq_case("rank-8", [1, 2, 1, 2, 1, 3, 2, 2], np.arange(48) - 24, "INT16",
                       [0.25, 4.0], [0, -8], "FLOAT16", s_shape=[1, 1, 1, 1, 1, 1, 1, 2]))
    return got


def refused(op, name, inputs, note):
    return case(f"invalid-{name}", op, inputs, error="invalid_argument", note=note)


def desc(ty, shape=(2, 3), out=False):
    """A tensor of ones (an output: its description alone)."""
    d = {"type": ty, "shape": list(shape)}
    if not out:
        d["data"] = [1] * int(np.prod(shape))
    return d


def qin(it, st, zt, ot, shapes=None):
    """The four tensors of a validation case (zt None: no zero point); shapes: some fields'
    shapes other than (2, 3)."""
    shapes = shapes or {}
    d = {"InputTensor": desc(it, shapes.get("i", (2, 3))),
         "ScaleTensor": desc(st, shapes.get("s", (2, 3)))}
    if zt:
        d["ZeroPointTensor"] = desc(zt, shapes.get("z", (2, 3)))
    d["OutputTensor"] = desc(ot, shapes.get("o", (2, 3)), out=True)
    return d


def validation_cases():
    got = []
    for ty in ["INT8", "UINT8", "INT16", "FLOAT64"]:
        got.append(refused(Q, f"input-{ty.lower()}", qin(ty, "FLOAT32", "UINT8", "UINT8"),
                           f"InputTensor {ty}: the tables list FLOAT32, FLOAT16, INT32"))
    for ty in ["INT16", "INT32", "FLOAT32"]:
        got.append(refused(Q, f"output-{ty.lower()}", qin("FLOAT32", "FLOAT32", None, ty),
                           f"OutputTensor {ty}: the tables list INT8, UINT8"))
    got.append(refused(Q, "scale-not-input-type", qin("FLOAT32", "FLOAT16", "UINT8", "UINT8"),
                       "ScaleTensor must have InputTensor's DataType (FLOAT32 for INT32)"))
    got.append(refused(Q, "scale-float16-int32", qin("INT32", "FLOAT16", "UINT8", "UINT8"),
                       "an INT32 InputTensor takes a FLOAT32 ScaleTensor"))
    got.append(refused(Q, "zero-point-type", qin("FLOAT32", "FLOAT32", "INT8", "UINT8"),
                       "ZeroPointTensor must have OutputTensor's DataType"))
    got.append(refused(Q, "scale-rank",
                       qin("FLOAT32", "FLOAT32", "UINT8", "UINT8", {"s": (3,)}),
                       "every tensor has InputTensor's DimensionCount"))
    got.append(refused(Q, "zero-point-sizes",
                       qin("FLOAT32", "FLOAT32", "UINT8", "UINT8", {"z": (1, 3)}),
                       "every tensor has InputTensor's Sizes (a broadcast is a 0 stride)"))
    got.append(refused(Q, "output-sizes",
                       qin("FLOAT32", "FLOAT32", "UINT8", "UINT8", {"o": (2, 4)}),
                       "OutputTensor has InputTensor's Sizes"))
    for ty in ["FLOAT32", "INT64"]:
        got.append(refused(DQ, f"input-{ty.lower()}", qin(ty, "FLOAT32", None, "FLOAT32"),
                           f"InputTensor {ty}: the tables list INT32, INT16, INT8, UINT32, "
                           "UINT16, UINT8"))
    for ty in ["INT32", "FLOAT64"]:
        got.append(refused(DQ, f"output-{ty.lower()}", qin("UINT8", ty, None, ty),
                           f"OutputTensor {ty}: the tables list FLOAT32, FLOAT16"))
    got.append(refused(DQ, "scale-not-output-type", qin("UINT8", "FLOAT16", "UINT8", "FLOAT32"),
                       "ScaleTensor must have OutputTensor's DataType"))
    got.append(refused(DQ, "zero-point-type", qin("UINT8", "FLOAT32", "INT8", "FLOAT32"),
                       "ZeroPointTensor must have InputTensor's DataType"))
    got.append(refused(DQ, "zero-point-rank",
                       qin("INT8", "FLOAT32", "INT8", "FLOAT32", {"z": (1, 2, 3)}),
                       "every tensor has InputTensor's DimensionCount"))
    got.append(refused(DQ, "scale-sizes",
                       qin("INT8", "FLOAT32", "INT8", "FLOAT32", {"s": (2, 1)}),
                       "every tensor has InputTensor's Sizes (a broadcast is a 0 stride)"))
    return got


def main():
    cases = quantize_cases() + dequantize_cases() + validation_cases()
    write(os.path.join(CASES, "directml", "elementwise_quant.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
