#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/intmm.json: DirectML's MATRIX_MULTIPLY_INTEGER,
CONVOLUTION_INTEGER, QUANTIZED_LINEAR_MATRIX_MULTIPLY, QUANTIZED_LINEAR_CONVOLUTION and
MATRIX_MULTIPLY_INTEGER_TO_FLOAT against ONNX's MatMulInteger, ConvInteger, QLinearMatMul and
QLinearConv (onnx.reference) and com.microsoft's MatMulIntegerToFloat (numpy in float64; ONNX
Runtime's CPU kernel, where installed, checked against it), in DirectML's layouts and in the
forms ONNX Runtime's DirectML provider builds (zero points and scales {1, 1, M, 1} and {N},
per-channel filter scales, the bias as the output's sizes with 0 strides). The ONNX pages'
own examples come first. Integer outputs are exact: a requantized case whose float64 value
lies near a half-integer (where float32 may round either way) is redrawn; requantized values
follow the pages' text (round, then add the zero point: see requantize). Expected values are
never dmlcl's. Run with a python that has numpy and onnx (scripts/venv); it rewrites the
file."""
import json
import os

import numpy as np
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "cases", "directml", "intmm.json")
NP = {"INT8": np.int8, "UINT8": np.uint8, "INT32": np.int32, "FLOAT32": np.float32,
      "FLOAT16": np.float16}
TP = {np.int8: TensorProto.INT8, np.uint8: TensorProto.UINT8, np.int32: TensorProto.INT32,
      np.float32: TensorProto.FLOAT}
OP = "DML_OPERATOR_"


def tensor(a, dtype, shape=None, strides=None):
    a = np.asarray(a)
    t = {"type": dtype, "shape": list(shape if shape is not None else a.shape)}
    if dtype.startswith("FLOAT"):
        t["data"] = [float(v) for v in a.astype(NP[dtype]).reshape(-1)]
    else:
        t["data"] = [int(v) for v in a.reshape(-1)]
    if strides is not None:
        t["strides"] = strides
    return t


def run(op, inputs, attrs=None, domain=""):
    names = [k if v is not None else "" for k, v in inputs]
    while names and names[-1] == "":
        names.pop()
    feeds = {k: v for k, v in inputs if v is not None}
    node = helper.make_node(op, names, ["y"], domain=domain, **(attrs or {}))
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(k, TP[v.dtype.type], list(v.shape))
         for k, v in feeds.items()],
        [helper.make_tensor_value_info("y", TensorProto.UNDEFINED, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


def ints(rng, dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)


def name_of(dtype):
    return {np.int8: "INT8", np.uint8: "UINT8"}[dtype]


def near_tie(v):
    frac = v - np.floor(v)
    return bool(np.any(np.abs(frac - 0.5) <= np.abs(v) * 2.0 ** -18 + 2.0 ** -30))


def requantize(acc, mult, zp, dtype, reference):
    """The pages' and ONNX's text: round(sum x multiplier) half to even, then + zero point,
    saturated. onnx.reference adds the zero point before rounding (a different result at an
    exact tie with an odd zero point); everywhere else it must agree."""
    info = np.iinfo(dtype)
    v = acc * mult
    y = np.clip(np.rint(v) + zp, info.min, info.max)
    frac = v - np.floor(v)
    tie = frac == 0.5
    diff = np.abs(y - reference.astype(np.int64))
    assert np.all(diff[~tie] == 0) and np.all(diff <= 1), "onnx.reference disagrees off ties"
    return y.astype(dtype)


def case(name, op, inputs, out, note, attrs=None, source=None):
    c = {"name": "directml." + name,
         "source": source or "directml:DML_{}_OPERATOR_DESC#onnx-reference".format(op),
         "op": OP + op, "inputs": inputs, "expected": {"outputs": {"OutputTensor": out}},
         "note": note}
    if attrs:
        c["attrs"] = attrs
    return c


def mmi_cases(rng):
    got = []
    # ONNX's MatMulInteger example.
    a = np.array([[11, 7, 3], [10, 6, 2], [9, 5, 1], [8, 4, 0]], np.uint8)
    b = np.array([[1, 4], [2, 5], [3, 6]], np.uint8)
    za, zb = np.array(12, np.uint8), np.array(0, np.uint8)
    y = run("MatMulInteger", [("A", a), ("B", b), ("a_zero_point", za), ("b_zero_point", zb)])
    got.append(case("matrix_multiply_integer-onnx-example", "MATRIX_MULTIPLY_INTEGER",
                    {"ATensor": tensor(a, "UINT8"), "AZeroPointTensor": tensor(za, "UINT8", [1]),
                     "BTensor": tensor(b, "UINT8"), "BZeroPointTensor": tensor(zb, "UINT8", [1])},
                    tensor(y, "INT32"), "ONNX MatMulInteger's example (rank 2, feature level 4.0)",
                    source="onnx:MatMulInteger#example"))
    got.append(case("matrix_multiply_integer-onnx-example-4d", "MATRIX_MULTIPLY_INTEGER",
                    {"ATensor": tensor(a, "UINT8", [1, 1, 4, 3]),
                     "AZeroPointTensor": tensor(za, "UINT8", [1, 1, 1, 1]),
                     "BTensor": tensor(b, "UINT8", [1, 1, 3, 2])},
                    tensor(y, "INT32", [1, 1, 4, 2]), "the same at feature level 2.1's 4-D",
                    source="onnx:MatMulInteger#example"))
    # Batched, per-row and per-column zero points.
    for ta, tb in ((np.int8, np.uint8), (np.uint8, np.int8), (np.int8, np.int8)):
        a = ints(rng, ta, [2, 3, 5, 7])
        b = ints(rng, tb, [2, 3, 7, 4])
        za = ints(rng, ta, [1, 1, 5, 1])
        zb = ints(rng, tb, [1, 1, 1, 4])
        y = run("MatMulInteger", [("A", a), ("B", b), ("a_zero_point", za),
                                  ("b_zero_point", zb.reshape(4))])
        got.append(case("matrix_multiply_integer-{}x{}-per-row-column".format(
            name_of(ta).lower(), name_of(tb).lower()), "MATRIX_MULTIPLY_INTEGER",
            {"ATensor": tensor(a, name_of(ta)), "AZeroPointTensor": tensor(za, name_of(ta)),
             "BTensor": tensor(b, name_of(tb)),
             "BZeroPointTensor": tensor(zb, name_of(tb), [4])},
            tensor(y, "INT32"),
            "per-row A zero point {1, 1, M, 1}, per-column B zero point {N} (ONNX Runtime's "
            "1-D form)"))
    # Transposed B through strides.
    a = ints(rng, np.uint8, [1, 1, 3, 6])
    b = ints(rng, np.uint8, [1, 1, 6, 5])
    y = run("MatMulInteger", [("A", a), ("B", b)])
    got.append(case("matrix_multiply_integer-b-strided", "MATRIX_MULTIPLY_INTEGER",
                    {"ATensor": tensor(a, "UINT8"),
                     "BTensor": tensor(b, "UINT8", strides=[30, 30, 1, 6])},
                    tensor(y, "INT32"), "B stored column-major, read through its strides"))
    return got


def ci_cases(rng):
    got = []
    # ONNX's ConvInteger example (with padding).
    x = np.arange(2, 11, dtype=np.uint8).reshape(1, 1, 3, 3)
    w = np.ones((1, 1, 2, 2), np.uint8)
    zx = np.array(1, np.uint8)
    y = run("ConvInteger", [("x", x), ("w", w), ("x_zero_point", zx)], {"pads": [1, 1, 1, 1]})
    got.append(case("convolution_integer-onnx-example-padded", "CONVOLUTION_INTEGER",
                    {"InputTensor": tensor(x, "UINT8"),
                     "InputZeroPointTensor": tensor(zx, "UINT8", [1, 1, 1, 1]),
                     "FilterTensor": tensor(w, "UINT8")},
                    tensor(y, "INT32"), "ONNX ConvInteger's example with pads 1",
                    {"StartPadding": [1, 1], "EndPadding": [1, 1]},
                    source="onnx:ConvInteger#example"))
    for tx, tw, groups in ((np.int8, np.uint8, 2), (np.uint8, np.int8, 1), (np.uint8, np.uint8, 3)):
        cin, cout = 2 * groups, 3 * groups
        x = ints(rng, tx, [2, cin, 7, 6])
        w = ints(rng, tw, [cout, cin // groups, 3, 2])
        zx = ints(rng, tx, [])
        zw = ints(rng, tw, [cout])
        attrs = {"pads": [1, 0, 2, 1], "strides": [2, 1], "dilations": [1, 2], "group": groups}
        y = run("ConvInteger", [("x", x), ("w", w), ("x_zero_point", zx)], attrs)
        # ONNX's ConvInteger takes a scalar w_zero_point: the per-channel one by subtraction.
        y = y - run("ConvInteger", [("x", x), ("w", np.broadcast_to(
            zw.reshape(cout, 1, 1, 1), w.shape).astype(tw)), ("x_zero_point", zx)], attrs)
        got.append(case("convolution_integer-{}x{}-g{}-per-channel".format(
            name_of(tx).lower(), name_of(tw).lower(), groups), "CONVOLUTION_INTEGER",
            {"InputTensor": tensor(x, name_of(tx)),
             "InputZeroPointTensor": tensor(zx, name_of(tx), [1, 1, 1, 1]),
             "FilterTensor": tensor(w, name_of(tw)),
             "FilterZeroPointTensor": tensor(zw, name_of(tw), [1, cout, 1, 1])},
            tensor(y, "INT32"),
            "groups, strides, dilations, asymmetric padding; a per-channel filter zero point "
            "(ONNX ConvInteger with it subtracted: x*(w - zw) = x*w - x*zw)",
            {"Strides": [2, 1], "Dilations": [1, 2], "StartPadding": [1, 0],
             "EndPadding": [2, 1], "GroupCount": groups}))
    x = ints(rng, np.int8, [1, 3, 9])
    w = ints(rng, np.int8, [4, 3, 3])
    y = run("ConvInteger", [("x", x), ("w", w)], {"pads": [1, 1], "strides": [2]})
    got.append(case("convolution_integer-1d", "CONVOLUTION_INTEGER",
                    {"InputTensor": tensor(x, "INT8"), "FilterTensor": tensor(w, "INT8")},
                    tensor(y, "INT32"), "one spatial dimension (feature level 4.0's 3-D)",
                    {"Strides": [2], "StartPadding": [1], "EndPadding": [1]}))
    return got


def qlmm_case(rng, name, ta, tb, to, shape_a, shape_b, a_axis, b_axis, pow2, note):
    for _ in range(100):
        a = ints(rng, ta, shape_a)
        b = ints(rng, tb, shape_b)
        m, n, k = shape_a[-2], shape_b[-1], shape_a[-1]
        sa_shape = [m, 1] if a_axis else []
        sb_shape = [n] if b_axis else []
        if pow2:
            sa = (2.0 ** -rng.integers(3, 7, size=sa_shape)).astype(np.float32)
            sb = (2.0 ** -rng.integers(3, 7, size=sb_shape)).astype(np.float32)
            sy = np.float32(2.0 ** np.round(np.log2(0.002 * 86 * np.sqrt(k))))
        else:
            sa = rng.uniform(0.01, 0.05, size=sa_shape).astype(np.float32)
            sb = rng.uniform(0.01, 0.05, size=sb_shape).astype(np.float32)
            sy = np.float32(0.0009 * 86 * np.sqrt(k))
        za = ints(rng, ta, sa_shape)
        zb = ints(rng, tb, sb_shape)
        zy = ints(rng, to, [])
        acc = (a.astype(np.int64) - za) @ (b.astype(np.int64) - zb)
        mult = ((sa * sb) / sy).astype(np.float32).astype(np.float64)
        if not pow2 and near_tie(acc * mult):
            continue
        y = run("QLinearMatMul", [("a", a), ("a_scale", sa), ("a_zero_point", za), ("b", b),
                                  ("b_scale", sb), ("b_zero_point", zb), ("y_scale", np.array(sy)),
                                  ("y_zero_point", np.array(zy))])
        y = requantize(acc, mult, int(zy), to, y)
        r = len(shape_a)
        lead = [1] * (r - 2)
        inputs = {"ATensor": tensor(a, name_of(ta)),
                  "AScaleTensor": tensor(sa, "FLOAT32", lead + ([m, 1] if a_axis else [1, 1])),
                  "AZeroPointTensor": tensor(za, name_of(ta), lead + ([m, 1] if a_axis else [1, 1])),
                  "BTensor": tensor(b, name_of(tb)),
                  "BScaleTensor": tensor(sb, "FLOAT32", [n] if b_axis else [1]),
                  "BZeroPointTensor": tensor(zb, name_of(tb), [n] if b_axis else [1]),
                  "OutputScaleTensor": tensor(np.array(sy), "FLOAT32", [1]),
                  "OutputZeroPointTensor": tensor(np.array(zy), name_of(to), [1])}
        return case("quantized_linear_matrix_multiply-" + name, "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
                    inputs, tensor(y, name_of(to)), note)
    raise RuntimeError("no tie-free draw")


def qlmm_cases(rng):
    got = []
    # ONNX's QLinearMatMul example.
    a = np.array([[208, 236, 0, 238], [3, 214, 255, 29]], np.uint8)
    b = np.array([[152, 51, 244], [60, 26, 255], [0, 127, 246], [127, 254, 247]], np.uint8)
    p = [("a", a), ("a_scale", np.array(0.0066, np.float32)), ("a_zero_point", np.array(113, np.uint8)),
         ("b", b), ("b_scale", np.array(0.00705, np.float32)), ("b_zero_point", np.array(114, np.uint8)),
         ("y_scale", np.array(0.0107, np.float32)), ("y_zero_point", np.array(118, np.uint8))]
    y = run("QLinearMatMul", p)
    one = [1, 1, 1, 1]
    got.append(case("quantized_linear_matrix_multiply-onnx-example",
                    "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
                    {"ATensor": tensor(a, "UINT8", [1, 1, 2, 4]),
                     "AScaleTensor": tensor(p[1][1], "FLOAT32", one),
                     "AZeroPointTensor": tensor(p[2][1], "UINT8", one),
                     "BTensor": tensor(b, "UINT8", [1, 1, 4, 3]),
                     "BScaleTensor": tensor(p[4][1], "FLOAT32", one),
                     "BZeroPointTensor": tensor(p[5][1], "UINT8", one),
                     "OutputScaleTensor": tensor(p[6][1], "FLOAT32", one),
                     "OutputZeroPointTensor": tensor(p[7][1], "UINT8", one)},
                    tensor(y, "UINT8", [1, 1, 2, 3]), "ONNX QLinearMatMul's example (4-D)",
                    source="onnx:QLinearMatMul#example"))
    got.append(qlmm_case(rng, "int8-pow2-per-row-column", np.int8, np.uint8, np.int8,
                         [2, 3, 5, 8], [2, 3, 8, 6], True, True, True,
                         "power-of-two scales (exact float32), per-row A, per-column B"))
    got.append(qlmm_case(rng, "uint8-per-tensor-rank2", np.uint8, np.int8, np.uint8,
                         [7, 16], [16, 9], False, False, False,
                         "per-tensor scales, rank 2 (feature level 4.0); tie-free draw"))
    got.append(qlmm_case(rng, "int8-per-column-rank3", np.int8, np.int8, np.int8,
                         [2, 6, 12], [2, 12, 5], False, True, False,
                         "per-column B scale and zero point {N}; tie-free draw"))
    return got


def qlc_case(rng, name, tx, tw, to, x_shape, cout, k, groups, attrs, per_channel, bias, pow2, note):
    cin = x_shape[1]
    for _ in range(100):
        x = ints(rng, tx, x_shape)
        w = ints(rng, tw, [cout, cin // groups] + k)
        kk = cin // groups * int(np.prod(k))
        sx = np.array(2.0 ** -rng.integers(3, 6) if pow2 else rng.uniform(0.01, 0.05), np.float32)
        ws_shape = [cout] if per_channel else []
        sw = ((2.0 ** -rng.integers(3, 6, size=ws_shape)) if pow2
              else rng.uniform(0.01, 0.05, size=ws_shape)).astype(np.float32)
        sy = np.array(2.0 ** np.round(np.log2(0.002 * 86 * np.sqrt(kk))) if pow2
                      else 0.0009 * 86 * np.sqrt(kk), np.float32)
        zx = ints(rng, tx, [])
        zw = np.zeros(ws_shape, tw) if per_channel else ints(rng, tw, [])
        zy = ints(rng, to, [])
        b = rng.integers(-4096, 4096, size=[cout]).astype(np.int32) if bias else None
        feeds = [("x", x), ("x_scale", sx), ("x_zero_point", np.array(zx)), ("w", w),
                 ("w_scale", sw), ("w_zero_point", zw), ("y_scale", sy),
                 ("y_zero_point", np.array(zy)), ("B", b)]
        y = run("QLinearConv", feeds, attrs)
        zw_conv = np.array(0 if per_channel else zw, tw)
        acc = run("ConvInteger", [("x", x), ("w", w), ("x_zero_point", np.array(zx)),
                                  ("w_zero_point", zw_conv)], attrs).astype(np.int64)
        if bias:
            acc = acc + b.reshape(1, cout, 1, 1)
        mult = ((sx * sw) / sy).astype(np.float32).astype(np.float64)
        mult = mult.reshape(1, -1, 1, 1) if per_channel else mult
        if not pow2 and near_tie(acc * mult):
            continue
        y = requantize(acc, mult, int(zy), to, y)
        inputs = {"InputTensor": tensor(x, name_of(tx)),
                  "InputScaleTensor": tensor(sx, "FLOAT32", [1, 1, 1, 1]),
                  "InputZeroPointTensor": tensor(zx, name_of(tx), [1, 1, 1, 1]),
                  "FilterTensor": tensor(w, name_of(tw)),
                  "FilterScaleTensor": tensor(sw, "FLOAT32",
                                              [1, cout, 1, 1] if per_channel else [1, 1, 1, 1]),
                  "OutputScaleTensor": tensor(sy, "FLOAT32", [1, 1, 1, 1]),
                  "OutputZeroPointTensor": tensor(zy, name_of(to), [1, 1, 1, 1])}
        if per_channel:
            inputs["FilterZeroPointTensor"] = tensor(zw, name_of(tw), [cout])
        else:
            inputs["FilterZeroPointTensor"] = tensor(zw, name_of(tw), [1, 1, 1, 1])
        if bias:
            inputs["BiasTensor"] = tensor(b, "INT32", [1, cout, 1, 1])
        dml = {"GroupCount": groups}
        if "pads" in attrs:
            dml["StartPadding"] = attrs["pads"][:2]
            dml["EndPadding"] = attrs["pads"][2:]
        if "strides" in attrs:
            dml["Strides"] = attrs["strides"]
        if "dilations" in attrs:
            dml["Dilations"] = attrs["dilations"]
        return case("quantized_linear_convolution-" + name, "QUANTIZED_LINEAR_CONVOLUTION",
                    inputs, tensor(y, name_of(to)), note, dml)
    raise RuntimeError("no tie-free draw")


def qlc_cases(rng):
    return [
        qlc_case(rng, "uint8-pow2-per-channel-bias", np.uint8, np.int8, np.uint8, [1, 4, 6, 5], 6,
                 [3, 3], 2, {"pads": [1, 1, 1, 1], "group": 2}, True, True, True,
                 "per-channel filter scale {1, Cout, 1, 1} and zero point {Cout}, INT32 bias, "
                 "groups; power-of-two scales (exact float32)"),
        qlc_case(rng, "int8-per-tensor-strided", np.int8, np.int8, np.int8, [2, 3, 7, 7], 4,
                 [2, 3], 1, {"strides": [2, 2], "dilations": [1, 2], "pads": [0, 1, 1, 0]},
                 False, False, False, "per-tensor scales, strides, dilations; tie-free draw"),
    ]


def mmitf_cases(rng):
    got = []
    for to, m, k, n in (("FLOAT32", 5, 12, 7), ("FLOAT16", 4, 9, 6)):
        ft = NP[to]
        a = ints(rng, np.uint8, [1, 2, m, k])
        b = ints(rng, np.int8, [1, 2, k, n])
        sa = rng.uniform(0.01, 0.05, size=[m, 1]).astype(ft)
        sb = rng.uniform(0.01, 0.05, size=[n]).astype(ft)
        za = ints(rng, np.uint8, [m, 1])
        zb = ints(rng, np.int8, [n])
        bias = rng.uniform(-4, 4, size=[n]).astype(ft)
        acc = (a.astype(np.int64) - za) @ (b.astype(np.int64) - zb)
        prod = acc * sa.astype(np.float64) * sb.astype(np.float64)
        y = prod + bias.astype(np.float64)
        try:  # ONNX Runtime's CPU kernel as a second opinion, where installed
            import onnxruntime as ort
            if to == "FLOAT32":
                node = helper.make_node("MatMulIntegerToFloat", ["A", "B", "as", "bs", "za", "zb", "bias"],
                                        ["y"], domain="com.microsoft")
                feeds = {"A": a[0, 0], "B": b[0, 0], "as": sa.reshape(m, 1).astype(np.float32),
                         "bs": sb.astype(np.float32), "za": za, "zb": zb, "bias": bias}
                # ORT's CPU kernel: per-tensor A, per-column B, one matrix: the first one's check.
                feeds["as"] = np.array(sa[0, 0], np.float32)
                feeds["za"] = np.array(za[0, 0], np.uint8)
                g = helper.make_graph([node], "g", [helper.make_tensor_value_info(
                    kk, TP[v.dtype.type], list(v.shape)) for kk, v in feeds.items()],
                    [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)])
                mdl = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                                          helper.make_opsetid("com.microsoft", 1)])
                got_ort = ort.InferenceSession(mdl.SerializeToString(),
                                               providers=["CPUExecutionProvider"]).run(None, feeds)[0]
                acc0 = (a[0, 0].astype(np.int64) - za[0, 0]) @ (b[0, 0].astype(np.int64) - zb)
                want0 = acc0 * np.float64(sa[0, 0]) * sb.astype(np.float64) + bias
                assert np.allclose(got_ort, want0, rtol=1e-5, atol=1e-4), "ORT disagrees"
        except ImportError:
            pass
        mag = np.abs(prod) + np.abs(bias.astype(np.float64))
        tol = {"abs": float(mag.max() * 2.0 ** -21)}
        if to == "FLOAT16":
            tol = {"ulp": 1, "abs": float(mag.max() * 2.0 ** -21)}
        out = dict(tensor(y, to), tolerance=tol)
        got.append(case("matrix_multiply_integer_to_float-" + to.lower() + "-onnxruntime-form",
                        "MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
                        {"ATensor": tensor(a, "UINT8"),
                         "AScaleTensor": tensor(sa, to, [1, 1, m, 1]),
                         "AZeroPointTensor": tensor(za, "UINT8", [1, 1, m, 1]),
                         "BTensor": tensor(b, "INT8"),
                         "BScaleTensor": tensor(sb, to, [n]),
                         "BZeroPointTensor": tensor(zb, "INT8", [n]),
                         "BiasTensor": tensor(np.broadcast_to(bias, [1, 2, m, n]), to,
                                              strides=[0, 0, 0, 1])},
                        out,
                        "ONNX Runtime's DirectML form: A's scale and zero point {1, 1, M, 1}, B's "
                        "{N}, the bias as the output's sizes with 0 strides; numpy float64 "
                        "(float32 steps: 2^-21 of the terms' magnitude)",
                        source="directml:DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC#numpy"))
    a = ints(rng, np.int8, [3, 4])
    b = ints(rng, np.int8, [4, 5])
    sa, sb = np.float32(0.03125), np.float32(0.0625)
    y = (a.astype(np.float64) @ b.astype(np.float64)) * 0.03125 * 0.0625
    got.append(case("matrix_multiply_integer_to_float-rank2-no-zero-points",
                    "MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
                    {"ATensor": tensor(a, "INT8"), "AScaleTensor": tensor(sa, "FLOAT32", [1]),
                     "BTensor": tensor(b, "INT8"), "BScaleTensor": tensor(sb, "FLOAT32", [1])},
                    tensor(y, "FLOAT32"), "power-of-two scales, no zero points or bias: exact",
                    source="directml:DML_MATRIX_MULTIPLY_INTEGER_TO_FLOAT_OPERATOR_DESC#numpy"))
    return got


def error_cases():
    def t(dtype, shape, data=None):
        v = {"type": dtype, "shape": shape}
        n = int(np.prod(shape))
        v["data"] = data if data is not None else [0] * n
        return v
    mmi = {"ATensor": t("INT8", [1, 1, 2, 3]), "BTensor": t("INT8", [1, 1, 3, 2]),
           "OutputTensor": {"type": "INT32", "shape": [1, 1, 2, 2]}}
    got = []

    def err(name, op, inputs, note, attrs=None):
        c = {"name": "directml." + name, "source": "directml:DML_{}_OPERATOR_DESC#constraints".format(op),
             "op": OP + op, "inputs": inputs, "expected": {"error": "invalid_argument"}, "note": note}
        if attrs:
            c["attrs"] = attrs
        got.append(c)
    err("matrix_multiply_integer-invalid-a-type", "MATRIX_MULTIPLY_INTEGER",
        dict(mmi, ATensor=t("INT16", [1, 1, 2, 3])), "ATensor INT8 or UINT8")
    err("matrix_multiply_integer-invalid-output-type", "MATRIX_MULTIPLY_INTEGER",
        dict(mmi, OutputTensor={"type": "FLOAT32", "shape": [1, 1, 2, 2]}), "OutputTensor INT32")
    err("matrix_multiply_integer-invalid-k", "MATRIX_MULTIPLY_INTEGER",
        dict(mmi, BTensor=t("INT8", [1, 1, 4, 2])), "B's K is A's")
    err("matrix_multiply_integer-invalid-zero-point-type", "MATRIX_MULTIPLY_INTEGER",
        dict(mmi, AZeroPointTensor=t("UINT8", [1, 1, 1, 1])), "A's zero point has A's type")
    err("matrix_multiply_integer-invalid-zero-point-per-k", "MATRIX_MULTIPLY_INTEGER",
        dict(mmi, AZeroPointTensor=t("INT8", [1, 1, 1, 3])), "A's zero point per tensor or row")
    q = {"ATensor": t("INT8", [1, 1, 2, 3]), "AScaleTensor": t("FLOAT32", [1]),
         "BTensor": t("INT8", [1, 1, 3, 2]), "BScaleTensor": t("FLOAT32", [1]),
         "OutputScaleTensor": t("FLOAT32", [1]),
         "OutputTensor": {"type": "INT8", "shape": [1, 1, 2, 2]}}
    err("quantized_linear_matrix_multiply-invalid-scale-type", "QUANTIZED_LINEAR_MATRIX_MULTIPLY",
        dict(q, AScaleTensor=t("FLOAT16", [1])), "scales FLOAT32")
    err("quantized_linear_matrix_multiply-invalid-output-zero-point-type",
        "QUANTIZED_LINEAR_MATRIX_MULTIPLY", dict(q, OutputZeroPointTensor=t("UINT8", [1])),
        "the output's zero point has its type")
    f = {"ATensor": t("INT8", [1, 1, 2, 3]), "AScaleTensor": t("FLOAT32", [1]),
         "BTensor": t("INT8", [1, 1, 3, 2]), "BScaleTensor": t("FLOAT32", [1]),
         "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 2, 2]}}
    err("matrix_multiply_integer_to_float-invalid-bias-type", "MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
        dict(f, BiasTensor=t("FLOAT16", [2])), "the bias has the output's type")
    c = {"InputTensor": t("UINT8", [1, 4, 3, 3]), "FilterTensor": t("UINT8", [2, 2, 2, 2]),
         "OutputTensor": {"type": "INT32", "shape": [1, 2, 2, 2]}}
    err("convolution_integer-invalid-groups", "CONVOLUTION_INTEGER", c,
        "GroupCount divides the channels", {"GroupCount": 3})
    err("convolution_integer-invalid-filter-zero-point", "CONVOLUTION_INTEGER",
        dict(c, FilterZeroPointTensor=t("UINT8", [1, 3, 1, 1])),
        "the filter's zero point per tensor or per output channel", {"GroupCount": 2})
    qc = {"InputTensor": t("UINT8", [1, 2, 3, 3]), "InputScaleTensor": t("FLOAT32", [1, 1, 1, 1]),
          "FilterTensor": t("UINT8", [2, 2, 2, 2]), "FilterScaleTensor": t("FLOAT32", [1, 1, 1, 1]),
          "OutputScaleTensor": t("FLOAT32", [1, 1, 1, 1]),
          "OutputTensor": {"type": "UINT8", "shape": [1, 2, 2, 2]}}
    err("quantized_linear_convolution-invalid-bias-type", "QUANTIZED_LINEAR_CONVOLUTION",
        dict(qc, BiasTensor=t("FLOAT32", [1, 2, 1, 1])), "the bias INT32")
    err("quantized_linear_convolution-invalid-rank", "QUANTIZED_LINEAR_CONVOLUTION",
        dict(qc, InputTensor=t("UINT8", [1, 2, 3]), FilterTensor=t("UINT8", [2, 2, 2]),
             OutputTensor={"type": "UINT8", "shape": [1, 2, 2]}),
        "4 dimensions (the page's table)", {"DimensionCount": 1})
    return got


def cases():
    rng = np.random.default_rng(20261203)
    return mmi_cases(rng) + ci_cases(rng) + qlmm_cases(rng) + qlc_cases(rng) + mmitf_cases(rng) + error_cases()


def main():
    with open(OUT, "w") as fh:
        fh.write('{"format": "dmlcl-case/1", "cases": [\n')
        fh.write(",\n".join(json.dumps(c) for c in cases()))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
