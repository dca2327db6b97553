# SPDX-License-Identifier: MIT
"""Writes dmlcl-dispatch's test models (DxDispatch's format) and their expected
outputs, computed here with numpy from the operators' definitions (never from
dmlcl's output). Run it from anywhere; it rewrites models/ beside itself:

    .venv/bin/python tools/dispatch/tests/gen.py

Each model writes every output with writeFile into the test's output folder;
<model>.expected.json lists, per file, its element type, values and
tolerance (ulp: units in the last place; abs: absolute), and the lines its
print commands must show (check.c compares them).
"""
import json
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "models")

DT = {np.float32: "FLOAT32", np.float16: "FLOAT16", np.float64: "FLOAT64", np.int8: "INT8",
      np.int16: "INT16", np.int32: "INT32", np.int64: "INT64", np.uint8: "UINT8",
      np.uint16: "UINT16", np.uint32: "UINT32", np.uint64: "UINT64"}


def dt(a):
    return DT[a.dtype.type]


def value(x):
    if isinstance(x, (np.floating, float)):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return float(x)
    return int(x)


class Model:
    def __init__(self, name):
        self.name = name
        self.resources, self.dispatchables, self.commands = {}, {}, []
        self.expected = {"files": {}, "stdout": []}

    def resource(self, name, a=None, count=None, dtype=None, **extra):
        """A resource with values a (a numpy array), or count zeros of dtype."""
        if a is not None:
            r = {"initialValuesDataType": dt(a), "initialValues": [value(x) for x in a.ravel()]}
        else:
            r = {"initialValuesDataType": DT[dtype], "initialValues": {"valueCount": count, "value": 0}}
        r.update(extra)
        self.resources[name] = r
        return name

    def op(self, name, type_, desc, bindings, outputs, **extra):
        """A dispatchable, its dispatch, and a writeFile per output (name -> expected array,
        tolerance)."""
        self.dispatchables[name] = dict({"type": type_, "desc": desc}, **extra)
        self.commands.append({"type": "dispatch", "dispatchable": name, "bindings": bindings})
        for res, (want, tol) in outputs.items():
            self.write(res, want, tol)

    def write(self, res, want, tol=None, target=None, dims=None):
        target = target or f"{self.name}.{res}.dat"
        cmd = {"type": "writeFile", "resource": res, "targetPath": target}
        if dims is not None:
            cmd["dimensions"] = dims
        self.commands.append(cmd)
        e = {"type": dt(want), "values": [value(x) for x in want.ravel()]}
        if target.endswith(".npy"):
            e["shape"] = list(want.shape)
        e.update(tol or {})
        self.expected["files"][target] = e

    def save(self, comment=None):
        model = {"$schema": "./_schema.json", "resources": self.resources,
                 "dispatchables": self.dispatchables, "commands": self.commands}
        text = json.dumps(model, indent=1)
        if comment:  # DxDispatch reads comments and trailing commas: so must we
            head, tail = text.rsplit("}\n ]\n}", 1)
            text = "// " + comment + "\n" + head + "}, /* the last command */\n ]\n}" + tail
        with open(os.path.join(OUT, self.name + ".json"), "w") as f:
            f.write(text + "\n")
        with open(os.path.join(OUT, self.name + ".expected.json"), "w") as f:
            json.dump(self.expected, f, indent=1)
            f.write("\n")


def tensor(a, dtype=None, **extra):
    t = {"DataType": dtype or dt(a), "Sizes": list(a.shape)}
    t.update(extra)
    return t


def f32(x):
    return np.array(x, dtype=np.float32)


# ---- Element-wise ------------------------------------------------------------------------

def elementwise():
    m = Model("elementwise")
    a = f32([[-2.5, -1.0, -0.25, 0.0], [0.5, 1.75, 3.0, 10.0]])
    b = f32([[4.0, -3.0, 0.5, 2.0], [-0.125, 8.0, 3.0, -5.0]])
    p = f32([[0.25, 0.5, 1.0, 2.0], [3.0, 4.0, 100.0, 1e-3]])
    m.resource("A", a)
    m.resource("B", b)
    m.resource("P", p)
    d = lambda x: x.astype(np.float64)
    exact, one = {"ulp": 0}, {"ulp": 1}
    binary = {
        "ADD": (d(a) + d(b), one), "SUBTRACT": (d(a) - d(b), one),
        "MULTIPLY": (d(a) * d(b), one), "DIVIDE": (d(a) / d(b), {"ulp": 2}),
        "MAX": (np.maximum(a, b), exact), "MIN": (np.minimum(a, b), exact),
        "MEAN": ((d(a) + d(b)) / 2, one), "DIFFERENCE_SQUARE": ((d(a) - d(b)) ** 2, {"ulp": 2}),
    }
    for name, (want, tol) in binary.items():
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        m.op(name.lower(), "DML_OPERATOR_ELEMENT_WISE_" + name,
             {"ATensor": tensor(a), "BTensor": tensor(b), "OutputTensor": tensor(a)},
             {"ATensor": "A", "BTensor": "B", "OutputTensor": out},
             {out: (want.astype(np.float32), tol)})
    # Unary: f(x * Scale + Bias) when ScaleBias is given.
    unary = {
        "NEGATE": (a, None, lambda x: -x, exact), "ABS": (a, (2.0, 1.0), np.abs, exact),
        "CEIL": (a, None, np.ceil, exact), "FLOOR": (a, (1.0, 0.5), np.floor, exact),
        "SQRT": (p, None, np.sqrt, {"ulp": 1}), "RECIP": (p, (2.0, 0.0), lambda x: 1 / x, {"ulp": 2}),
        "EXP": (a, None, np.exp, {"ulp": 32}), "LOG": (p, (1.0, 1.0), np.log, {"abs": 1 / 1024}),
        "IDENTITY": (a, (2.0, 10.0), lambda x: x, {"ulp": 1}),
    }
    for name, (x, sb, f, tol) in unary.items():
        src = "A" if x is a else "P"
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        desc = {"InputTensor": tensor(x), "OutputTensor": tensor(x)}
        arg = d(x)
        if sb is not None:
            desc["ScaleBias"] = {"Scale": sb[0], "Bias": sb[1]}
            arg = d((x * np.float32(sb[0])) + np.float32(sb[1]))
        m.op(name.lower(), "ELEMENT_WISE_" + name, desc,  # the short type name, as DxDispatch allows
             {"InputTensor": src, "OutputTensor": out}, {out: (f(arg).astype(np.float32), tol)})
    # Integer and half types, and a broadcast B (stride 0 along the rows).
    ia = np.array([[7, -8, 100, -2147483647], [0, 5, -6, 2147483647]], dtype=np.int32)
    ib = np.array([3, -2, 1, 0], dtype=np.int32)
    m.resource("IA", ia)
    m.resource("IB", ib)
    out = m.resource("out_int_sub", count=8, dtype=np.int32)
    m.op("int_sub", "DML_OPERATOR_ELEMENT_WISE_SUBTRACT",
         {"ATensor": tensor(ia), "BTensor": {"DataType": "INT32", "Sizes": [2, 4], "Strides": [0, 1]},
          "OutputTensor": tensor(ia)},
         {"ATensor": "IA", "BTensor": "IB", "OutputTensor": out},
         {out: ((ia.astype(np.int64) - ib).astype(np.int32), {"ulp": 0})})
    ha = np.array([1.5, -2.0, 65504.0, 0.099975586], dtype=np.float16)
    hb = np.array([0.25, 2.0, -1.0, 3.0], dtype=np.float16)
    m.resource("HA", ha)
    m.resource("HB", hb)
    out = m.resource("out_half_mul", count=4, dtype=np.float16)
    m.op("half_mul", "DML_OPERATOR_ELEMENT_WISE_MULTIPLY",
         {"ATensor": tensor(ha), "BTensor": tensor(hb), "OutputTensor": tensor(ha)},
         {"ATensor": "HA", "BTensor": "HB", "OutputTensor": out},
         {out: ((ha.astype(np.float64) * hb).astype(np.float16), {"ulp": 1})})
    ua = np.array([0, 200, 255, 17], dtype=np.uint8)
    ub = np.array([1, 201, 3, 17], dtype=np.uint8)
    m.resource("UA", ua)
    m.resource("UB", ub)
    out = m.resource("out_u8_max", count=4, dtype=np.uint8)
    m.op("u8_max", "DML_OPERATOR_ELEMENT_WISE_MAX",
         {"ATensor": tensor(ua), "BTensor": tensor(ub), "OutputTensor": tensor(ua)},
         {"ATensor": "UA", "BTensor": "UB", "OutputTensor": out},
         {out: (np.maximum(ua, ub), {"ulp": 0})})
    m.save()


# ---- Element-wise math ---------------------------------------------------------------------

def math_ops():
    """The math rows: the tolerances of docs/operators.md, C99's functions in float64."""
    m = Model("math")
    a = f32([[-0.75, -0.5, -0.25, 0.0], [0.125, 0.5, 0.875, 1.0]])
    b = f32([[2.0, -3.0, 0.5, -1.0], [4.0, -0.25, 1.5, 3.0]])
    big = f32([[1.0, 1.5, 2.0, 3.0], [10.0, 1.25, 7.5, 100.0]])
    m.resource("A", a)
    m.resource("B", b)
    m.resource("G", big)
    d = lambda x: x.astype(np.float64)
    absolute, exact = {"abs": 1 / 1024}, {"ulp": 0}
    unary = {
        "SIN": (a, np.sin, absolute), "COS": (a, np.cos, absolute), "TAN": (a, np.tan, absolute),
        "TANH": (a, np.tanh, absolute), "ERF": (a, np.vectorize(math.erf), absolute),
        "ACOS": (a, np.arccos, {"ulp": 4}), "ASIN": (a, np.arcsin, {"ulp": 4}),
        "ATAN": (a, np.arctan, {"ulp": 5}), "ATANH": (a, np.arctanh, {"ulp": 5}),
        "ASINH": (a, np.arcsinh, {"ulp": 4}), "SINH": (a, np.sinh, {"ulp": 4}),
        "COSH": (a, np.cosh, {"ulp": 4}), "ACOSH": (big, np.arccosh, {"ulp": 4}),
    }
    for name, (x, f, tol) in unary.items():
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        m.op(name.lower(), "DML_OPERATOR_ELEMENT_WISE_" + name,
             {"InputTensor": tensor(x), "OutputTensor": tensor(x)},
             {"InputTensor": "A" if x is a else "G", "OutputTensor": out},
             {out: (f(d(x)).astype(np.float32), tol)})
    binary = {
        "ATAN_YX": (np.arctan2(d(a), d(b)), {"ulp": 6}),
        "MODULUS_FLOOR": (np.mod(d(a), d(b)), {"ulp": 1}),
        "MODULUS_TRUNCATE": (np.fmod(d(a), d(b)), exact),
    }
    for name, (want, tol) in binary.items():
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        m.op(name.lower(), "DML_OPERATOR_ELEMENT_WISE_" + name,
             {"ATensor": tensor(a), "BTensor": tensor(b), "OutputTensor": tensor(a)},
             {"ATensor": "A", "BTensor": "B", "OutputTensor": out},
             {out: (want.astype(np.float32), tol)})
    # With parameters: bounds, an exponent, a rounding mode; ScaleBias on CLIP.
    g = d(a * np.float32(2.0) + np.float32(0.5))
    params = {
        "CLIP": ({"Min": -0.5, "Max": 1.0, "ScaleBias": {"Scale": 2.0, "Bias": 0.5}},
                 np.clip(g, -0.5, 1.0), exact),
        "THRESHOLD": ({"Min": 0.1}, np.maximum(d(a), np.float64(np.float32(0.1))), exact),
        "CONSTANT_POW": ({"Exponent": 3.0}, d(a) ** 3, {"ulp": 32}),
        "ROUND": ({"RoundingMode": "DML_ROUNDING_MODE_TOWARD_INFINITY"},
                  np.sign(d(b)) * np.floor(np.abs(d(b)) + 0.5), exact),
        "SIGN": ({}, np.sign(d(b)), exact),
    }
    for name, (extra, want, tol) in params.items():
        x = b if name in ("ROUND", "SIGN") else a
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        m.op(name.lower(), "DML_OPERATOR_ELEMENT_WISE_" + name,
             dict({"InputTensor": tensor(x), "OutputTensor": tensor(x)}, **extra),
             {"InputTensor": "A" if x is a else "B", "OutputTensor": out},
             {out: (want.astype(np.float32), tol)})
    out = m.resource("out_pow", count=8, dtype=np.float32)
    m.op("pow", "DML_OPERATOR_ELEMENT_WISE_POW",
         {"InputTensor": tensor(big), "ExponentTensor": tensor(b), "OutputTensor": tensor(big)},
         {"InputTensor": "G", "ExponentTensor": "B", "OutputTensor": out},
         {out: (np.power(d(big), d(b)).astype(np.float32), {"ulp": 32})})
    # Integers: CLIP1's typed bounds, MODULUS_FLOOR by zero and by a negative divisor.
    ia = np.array([-128, -7, 7, 0, 5, 127, -1, 100], dtype=np.int8)
    ib = np.array([3, 3, -3, 5, 0, 10, -1, -7], dtype=np.int8)
    m.resource("IA", ia)
    m.resource("IB", ib)
    out = m.resource("out_clip1", count=8, dtype=np.int8)
    m.op("clip1", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
         {"InputTensor": tensor(ia), "OutputTensor": tensor(ia), "MinMaxDataType": "INT8",
          "Min": -5, "Max": {"Int8": 50}},
         {"InputTensor": "IA", "OutputTensor": out}, {out: (np.clip(ia, -5, 50), exact)})
    want = np.array([x if y == 0 else x - y * (x // y) for x, y in zip(ia.tolist(), ib.tolist())],
                    dtype=np.int8)
    out = m.resource("out_int_mod", count=8, dtype=np.int8)
    m.op("int_mod", "DML_OPERATOR_ELEMENT_WISE_MODULUS_FLOOR",
         {"ATensor": tensor(ia), "BTensor": tensor(ib), "OutputTensor": tensor(ia)},
         {"ATensor": "IA", "BTensor": "IB", "OutputTensor": out}, {out: (want, exact)})
    # QUANTIZE_LINEAR and DEQUANTIZE_LINEAR: per-tensor scale and zero point (0 strides, a
    # 4-byte resource: DMLCalcBufferTensorSize's), DEQUANTIZE without its optional zero point.
    every = [0, 0]
    m.resource("QS", f32([0.125]))
    m.resource("QZ", np.array([128, 0, 0, 0], dtype=np.uint8))
    m.resource("DS", f32([0.5]))
    u8 = np.zeros((2, 4), np.uint8)
    want = (np.rint(a / np.float32(0.125)) + 128).astype(np.uint8)
    out = m.resource("out_quantize", count=8, dtype=np.uint8)
    m.op("quantize", "DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR",
         {"InputTensor": tensor(a), "ScaleTensor": tensor(a, Strides=every),
          "ZeroPointTensor": tensor(u8, Strides=every), "OutputTensor": tensor(u8)},
         {"InputTensor": "A", "ScaleTensor": "QS", "ZeroPointTensor": "QZ",
          "OutputTensor": out}, {out: (want, exact)})
    ia2 = ia.reshape(2, 4)
    out = m.resource("out_dequantize", count=8, dtype=np.float32)
    m.op("dequantize", "DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR",
         {"InputTensor": tensor(ia2), "ScaleTensor": tensor(a, Strides=every),
          "OutputTensor": tensor(a)},
         {"InputTensor": "IA", "ScaleTensor": "DS", "OutputTensor": out},
         {out: (ia2.astype(np.float32) * np.float32(0.5), exact)})
    # QUANTIZE and DEQUANTIZE (6.3): the scale and zero point listed, QuantizationType by name,
    # QuantizationTensorCount left out (the list's length); blockwise: {2, 4} as {2, 2, 2},
    # one scale per two elements (strides {2, 1, 0}).
    block = [2, 1, 0]
    m.resource("QBS", f32([0.25, 0.5, 0.125, 1.0]))
    m.resource("QBZ", np.array([0, 10, 100, 255], dtype=np.uint8))
    a3 = a.reshape(2, 2, 2)
    scales = np.repeat(f32([0.25, 0.5, 0.125, 1.0]), 2).reshape(2, 2, 2)
    zps = np.repeat(np.array([0, 10, 100, 255], np.float64), 2).reshape(2, 2, 2)
    want = np.clip(np.rint(a3 / scales) + zps, 0, 255).astype(np.uint8)
    out = m.resource("out_quantize_list", count=8, dtype=np.uint8)
    u83 = np.zeros((2, 2, 2), np.uint8)
    m.op("quantize_list", "DML_OPERATOR_QUANTIZE",
         {"InputTensor": tensor(a3), "QuantizationType": "DML_QUANTIZATION_TYPE_SCALE_ZERO_POINT",
          "QuantizationTensors": [tensor(a3, Strides=block), tensor(u83, Strides=block)],
          "OutputTensor": tensor(u83)},
         {"InputTensor": "A", "QuantizationTensors": ["QBS", "QBZ"], "OutputTensor": out},
         {out: (want.reshape(2, 4), exact)})
    m.resource("QU", np.array([0, 1, 127, 128, 129, 200, 254, 255], dtype=np.uint8))
    q = np.array([0, 1, 127, 128, 129, 200, 254, 255], np.float32).reshape(2, 2, 2)
    out = m.resource("out_dequantize_list", count=8, dtype=np.float32)
    m.op("dequantize_list", "DML_OPERATOR_DEQUANTIZE",
         {"InputTensor": tensor(u83), "QuantizationType": "DML_QUANTIZATION_TYPE_SCALE",
          "QuantizationTensors": [tensor(a3, Strides=block)], "OutputTensor": tensor(a3)},
         {"InputTensor": "QU", "QuantizationTensors": ["QBS"], "OutputTensor": out},
         {out: ((q * scales).reshape(2, 4), exact)})
    # QUANTIZED_LINEAR_ADD: single-element scales and zero points ({1, 1}), B's zero point
    # absent; (A - 128) * 0.5 + B * 0.25, quantized by 0.5 around 100.
    one = {"DataType": "FLOAT32", "Sizes": [1, 1]}
    oneu8 = {"DataType": "UINT8", "Sizes": [1, 1]}
    m.resource("QAS", f32([0.5]))
    m.resource("QBS1", f32([0.25]))
    m.resource("QZ128", np.array([128, 0, 0, 0], dtype=np.uint8))
    m.resource("QZ100", np.array([100, 0, 0, 0], dtype=np.uint8))
    u = np.array([0, 1, 127, 128, 129, 200, 254, 255], np.float32).reshape(2, 4)
    sums = ((u - 128) * np.float32(0.5) + u[::-1, ::-1] * np.float32(0.25)).astype(np.float32)
    want = np.clip(np.rint(sums / np.float32(0.5)) + 100, 0, 255).astype(np.uint8)
    m.resource("QUR", np.array([255, 254, 200, 129, 128, 127, 1, 0], dtype=np.uint8))
    out = m.resource("out_quantized_add", count=8, dtype=np.uint8)
    u82 = np.zeros((2, 4), np.uint8)
    m.op("quantized_add", "DML_OPERATOR_ELEMENT_WISE_QUANTIZED_LINEAR_ADD",
         {"ATensor": tensor(u82), "AScaleTensor": one, "AZeroPointTensor": oneu8,
          "BTensor": tensor(u82), "BScaleTensor": one, "OutputScaleTensor": one,
          "OutputZeroPointTensor": oneu8, "OutputTensor": tensor(u82)},
         {"ATensor": "QU", "AScaleTensor": "QAS", "AZeroPointTensor": "QZ128", "BTensor": "QUR",
          "BScaleTensor": "QBS1", "OutputScaleTensor": "QAS", "OutputZeroPointTensor": "QZ100",
          "OutputTensor": out}, {out: (want, exact)})
    # DYNAMIC_QUANTIZE_LINEAR: A's range [-0.75, 1] (0 inside it): scale 1.75 / 255 and zero
    # point rint(0.75 / scale), the rules of docs/operators.md in numpy float32.
    lo, hi = np.float32(min(a.min(), 0)), np.float32(max(a.max(), 0))
    scale = np.float32((hi - lo) / np.float32(255))
    zp = np.float32(np.rint(np.clip(np.float32(0) - np.float32(lo / scale), 0, 255)))
    want = np.clip(np.rint(a / scale) + zp, 0, 255).astype(np.uint8)
    out = m.resource("out_dynamic", count=8, dtype=np.uint8)
    out_s = m.resource("out_dynamic_scale", count=1, dtype=np.float32)
    out_z = m.resource("out_dynamic_zero_point", count=4, dtype=np.uint8)
    m.op("dynamic_quantize", "DML_OPERATOR_DYNAMIC_QUANTIZE_LINEAR",
         {"InputTensor": tensor(a), "OutputTensor": tensor(u82),
          "OutputScaleTensor": one, "OutputZeroPointTensor": oneu8},
         {"InputTensor": "A", "OutputTensor": out, "OutputScaleTensor": out_s,
          "OutputZeroPointTensor": out_z},
         {out: (want, exact), out_s: (np.array([scale], np.float32), exact),
          out_z: (np.array([zp, 0, 0, 0], np.uint8), exact)})
    m.save()


# ---- Training operators ------------------------------------------------------------------

def training():
    """The training operators: the pages' formulas in numpy (float64 where they compare)."""
    m = Model("training")
    x = f32([[-1.0, 0.0, 0.5, 2.0], [3.0, -0.0, 6.0, 7.5]])
    dy = f32([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]])
    m.resource("X", x)
    m.resource("DY", dy)
    exact = {"ulp": 0}
    grads = {"InputTensor": tensor(x), "InputGradientTensor": tensor(dy),
             "OutputGradientTensor": tensor(x)}
    binds = {"InputTensor": "X", "InputGradientTensor": "DY"}
    out = m.resource("out_relu_grad", count=8, dtype=np.float32)
    m.op("relu_grad", "DML_OPERATOR_ACTIVATION_RELU_GRAD", dict(grads),
         dict(binds, OutputGradientTensor=out), {out: (np.where(x > 0, dy, 0).astype(np.float32),
                                                       exact)})
    stop = (x <= 0.0) | (x >= 6.0)
    out = m.resource("out_clip_grad", count=8, dtype=np.float32)
    m.op("clip_grad", "DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD", dict(grads, Min=0.0, Max=6.0),
         dict(binds, OutputGradientTensor=out), {out: (np.where(stop, 0, dy).astype(np.float32),
                                                       exact)})
    ix = np.array([-128, -5, -4, 0, 49, 50, 51, 127], dtype=np.int8)
    idy = np.array([1, 2, 3, 4, 5, 6, 7, 8], dtype=np.int8)
    m.resource("IX", ix)
    m.resource("IDY", idy)
    out = m.resource("out_clip_grad1", count=8, dtype=np.int8)
    m.op("clip_grad1", "DML_OPERATOR_ELEMENT_WISE_CLIP_GRAD1",
         {"InputTensor": tensor(ix), "InputGradientTensor": tensor(idy),
          "OutputGradientTensor": tensor(ix), "MinMaxDataType": "INT8", "Min": -5,
          "Max": {"Int8": 50}},
         {"InputTensor": "IX", "InputGradientTensor": "IDY", "OutputGradientTensor": out},
         {out: (np.where((ix <= -5) | (ix >= 50), 0, idy).astype(np.int8), exact)})
    # SLICE_GRAD: the page's example (a {2, 2} gradient into a 4 x 4 output, strides 2).
    g = f32([[1.0, 3.0], [9.0, 11.0]])
    m.resource("SG", g)
    want = np.zeros((4, 4), np.float32)
    want[0:4:2, 0:4:2] = g
    out = m.resource("out_slice_grad", count=16, dtype=np.float32)
    m.op("slice_grad", "DML_OPERATOR_SLICE_GRAD",
         {"InputGradientTensor": tensor(g), "OutputGradientTensor": tensor(want),
          "DimensionCount": 2, "InputWindowOffsets": [0, 0], "InputWindowSizes": [4, 4],
          "InputWindowStrides": [2, 2]},
         {"InputGradientTensor": "SG", "OutputGradientTensor": out}, {out: (want, exact)})
    # The pooling gradients: the pages' examples (2 x 2 windows, stride 1, a 3 x 3 input).
    pdy = f32([[[[1.0, 2.0], [3.0, 4.0]]]])
    px = f32([[[[1.0, 2.0, 3.0], [2.0, 4.0, 2.0], [5.0, 6.0, 7.0]]]])
    mdy = f32([[[[1.0, 2.0], [4.0, 5.0]]]])
    m.resource("PDY", pdy)
    m.resource("PX", px)
    m.resource("MDY", mdy)
    windows = {"DimensionCount": 2, "Strides": [1, 1], "WindowSize": [2, 2],
               "StartPadding": [0, 0], "EndPadding": [0, 0]}
    avg = np.zeros((1, 1, 3, 3))
    for i in range(2):
        for j in range(2):
            avg[0, 0, i:i + 2, j:j + 2] += pdy[0, 0, i, j] / 4.0
    out = m.resource("out_average_pooling_grad", count=9, dtype=np.float32)
    m.op("average_pooling_grad", "DML_OPERATOR_AVERAGE_POOLING_GRAD",
         dict({"InputGradientTensor": tensor(pdy), "OutputGradientTensor": tensor(px),
               "IncludePadding": False}, **windows),
         {"InputGradientTensor": "PDY", "OutputGradientTensor": out},
         {out: (avg.astype(np.float32), {"ulp": 3})})
    mx = np.zeros((1, 1, 3, 3), np.float32)
    for i in range(2):
        for j in range(2):
            w = px[0, 0, i:i + 2, j:j + 2]
            a, b = np.unravel_index(int(np.argmax(w)), w.shape)  # numpy: the first maximum
            mx[0, 0, i + a, j + b] += mdy[0, 0, i, j]
    out = m.resource("out_max_pooling_grad", count=9, dtype=np.float32)
    m.op("max_pooling_grad", "DML_OPERATOR_MAX_POOLING_GRAD",
         dict({"InputTensor": tensor(px), "InputGradientTensor": tensor(mdy),
               "OutputGradientTensor": tensor(px), "Dilations": [1, 1]}, **windows),
         {"InputTensor": "PX", "InputGradientTensor": "MDY", "OutputGradientTensor": out},
         {out: (mx, {"ulp": 3})})
    # The resampling gradients: the pages' example (nearest, 0.5 along H and 1.5 along W with
    # x = o / Scale: RESAMPLE_GRAD's half-up rounding takes InputPixelOffsets 0.5) and RESAMPLE1's
    # bilinear x2 (half_pixel) of 3 elements transposed: dX = W^T dY, W its 6 x 3 weights.
    rdy = f32([[[[4.0, 5.0, 6.0]]]])
    m.resource("RDY", rdy)
    page = f32([[[[9.0, 6.0], [0.0, 0.0]]]])
    for name, op, extra in (("resample_grad", "DML_OPERATOR_RESAMPLE_GRAD",
                             {"InputPixelOffsets": [0.5] * 4}),
                            ("resample_grad1", "DML_OPERATOR_RESAMPLE_GRAD1",
                             {"InputPixelOffsets": [0.0] * 4, "RoundingDirection": "DECREASING"})):
        out = m.resource("out_" + name, count=4, dtype=np.float32)
        m.op(name, op,
             dict({"InputGradientTensor": tensor(rdy), "OutputGradientTensor": tensor(page),
                   "InterpolationMode": "NEAREST_NEIGHBOR", "Scales": [1, 1, 0.5, 1.5],
                   "OutputPixelOffsets": [0.0] * 4}, **extra),
             {"InputGradientTensor": "RDY", "OutputGradientTensor": out}, {out: (page, exact)})
    ldy = f32([[[[1.0, 2.0, 4.0, 8.0, 16.0, 32.0]]]])
    m.resource("LDY", ldy)
    c = np.clip((np.arange(6) + 0.5) / 2 - 0.5, 0, 2)
    w = np.zeros((6, 3))
    for o, at in enumerate(c):
        i0 = int(np.floor(at))
        w[o, i0] += 1 - (at - i0)
        if at > i0:
            w[o, i0 + 1] += at - i0
    lin = (ldy[0, 0, 0].astype(np.float64) @ w).astype(np.float32).reshape(1, 1, 1, 3)
    out = m.resource("out_resample_grad_linear", count=3, dtype=np.float32)
    m.op("resample_grad_linear", "DML_OPERATOR_RESAMPLE_GRAD",
         {"InputGradientTensor": tensor(ldy), "OutputGradientTensor": tensor(lin),
          "InterpolationMode": "LINEAR", "Scales": [1, 1, 1, 2], "InputPixelOffsets": [0.5] * 4,
          "OutputPixelOffsets": [-0.5] * 4},
         {"InputGradientTensor": "LDY", "OutputGradientTensor": out}, {out: (lin, {"ulp": 5})})
    # ROI_ALIGN_GRAD: the page's example (nearest crops of a 4 x 4 input: 1.5x along W, 0.5x
    # along H), InputTensor and the ROI gradient left out.
    gdy = np.arange(1, 13, dtype=np.float32).reshape(4, 1, 1, 3)
    grois = f32([[0, 0, 2, 2], [2, 0, 4, 2], [0, 2, 2, 4], [2, 2, 4, 4]])
    gidx = np.zeros(4, dtype=np.uint32)
    m.resource("GDY", gdy)
    m.resource("GROIS", grois)
    m.resource("GIDX", gidx)
    gwant = f32([[[[3, 3, 9, 6], [0, 0, 0, 0], [15, 9, 21, 12], [0, 0, 0, 0]]]])
    out = m.resource("out_roi_align_grad", count=16, dtype=np.float32)
    m.op("roi_align_grad", "DML_OPERATOR_ROI_ALIGN_GRAD",
         {"InputGradientTensor": tensor(gdy), "ROITensor": tensor(grois),
          "BatchIndicesTensor": tensor(gidx), "OutputGradientTensor": tensor(gwant),
          "ReductionFunction": "AVERAGE", "InterpolationMode": "NEAREST_NEIGHBOR",
          "SpatialScaleX": 1.0, "SpatialScaleY": 1.0, "InputPixelOffset": 0.5,
          "OutputPixelOffset": -0.5, "MinimumSamplesPerOutput": 1,
          "MaximumSamplesPerOutput": 1, "AlignRegionsToCorners": False},
         {"InputGradientTensor": "GDY", "ROITensor": "GROIS", "BatchIndicesTensor": "GIDX",
          "OutputGradientTensor": out}, {out: (gwant, exact)})
    # The batch-normalization training operators: channels of X reshaped to {2, 2, 1, 2} (the
    # statistics {1, 2, 1, 1}, four elements a channel), the pages' formulas in float64 and the
    # biased variance; the sums' N + 2 ULP (N 4), plus BATCH_NORMALIZATION's 6 where an element
    # rests on them.
    bx, bdy = x.reshape(2, 2, 1, 2).astype(np.float64), dy.reshape(2, 2, 1, 2).astype(np.float64)
    bs, bb = f32([2.0, -0.5]).reshape(1, 2, 1, 1), f32([0.25, 1.0]).reshape(1, 2, 1, 1)
    m.resource("BS", bs)
    m.resource("BB", bb)
    eps = float(np.float32(1e-3))
    mean = bx.mean(axis=(0, 2, 3), keepdims=True)
    var = ((bx - mean) ** 2).mean(axis=(0, 2, 3), keepdims=True)
    bs64 = bs.astype(np.float64)
    y = bs64 * (bx - mean) / np.sqrt(var + eps) + bb.astype(np.float64)
    stat, full = tensor(np.zeros((1, 2, 1, 1), np.float32)), tensor(bx.astype(np.float32))
    outs = [m.resource(f"out_bn_training_{k}", count=c, dtype=np.float32)
            for k, c in (("y", 8), ("mean", 2), ("var", 2))]
    m.op("bn_training", "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING",
         {"InputTensor": full, "ScaleTensor": stat, "BiasTensor": stat,
          "OutputTensor": full, "OutputMeanTensor": stat,
          "OutputVarianceTensor": stat, "Epsilon": eps},
         {"InputTensor": "X", "ScaleTensor": "BS", "BiasTensor": "BB", "OutputTensor": outs[0],
          "OutputMeanTensor": outs[1], "OutputVarianceTensor": outs[2]},
         {outs[0]: (y.astype(np.float32), {"ulp": 12}),
          outs[1]: (mean.astype(np.float32), {"ulp": 6}),
          outs[2]: (var.astype(np.float32), {"ulp": 6})})
    # The gradients with the batch's own statistics (the forward's outputs, as float32).
    m32, v32 = mean.astype(np.float32), var.astype(np.float32)
    m.resource("BM", m32)
    m.resource("BV", v32)
    mm, vv = m32.astype(np.float64), v32.astype(np.float64)
    coef0 = 1 / np.sqrt(vv + eps)
    xc = bx - mm
    dscale = (bdy * xc * coef0).sum(axis=(0, 2, 3), keepdims=True)
    dbias = bdy.sum(axis=(0, 2, 3), keepdims=True)
    dx = {"grad": bdy * bs64 * coef0,
          "training_grad": bs64 * coef0 * ((bdy - bdy.mean(axis=(0, 2, 3), keepdims=True)) -
                                           xc * (bdy * xc).mean(axis=(0, 2, 3), keepdims=True) /
                                           (vv + eps))}
    for kind, op in (("grad", "DML_OPERATOR_BATCH_NORMALIZATION_GRAD"),
                     ("training_grad", "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD")):
        outs = [m.resource(f"out_bn_{kind}_{k}", count=c, dtype=np.float32)
                for k, c in (("dx", 8), ("dscale", 2), ("dbias", 2))]
        # The training gradient's dX cancels (its sum is 0 by construction): an absolute bound
        # of (N + 2) 2^-23 times its terms' magnitudes, |dY| + |mean term| + |centred term|.
        mag = np.abs(bs64 * coef0) * (np.abs(bdy) + np.abs(bdy).mean(axis=(0, 2, 3), keepdims=True)
                                      + np.abs(xc) * np.abs(bdy * xc).mean(axis=(0, 2, 3),
                                                                           keepdims=True)
                                      / (vv + eps))
        dx_tol = {"ulp": 6} if kind == "grad" else {"ulp": 12,
                                                    "abs": float(6 * 2.0 ** -23 * mag.max())}
        m.op(f"bn_{kind}", op,
             {"InputTensor": full, "InputGradientTensor": full, "MeanTensor": stat,
              "VarianceTensor": stat, "ScaleTensor": stat,
              "OutputGradientTensor": full, "OutputScaleGradientTensor": stat,
              "OutputBiasGradientTensor": stat, "Epsilon": eps},
             {"InputTensor": "X", "InputGradientTensor": "DY", "MeanTensor": "BM",
              "VarianceTensor": "BV", "ScaleTensor": "BS", "OutputGradientTensor": outs[0],
              "OutputScaleGradientTensor": outs[1], "OutputBiasGradientTensor": outs[2]},
             {outs[0]: (dx[kind].astype(np.float32), dx_tol),
              outs[1]: (dscale.astype(np.float32), {"ulp": 6}),
              outs[2]: (dbias.astype(np.float32), {"ulp": 6})})
    m.save()


def lrn_adam():
    """LOCAL_RESPONSE_NORMALIZATION_GRAD (the forward's derivative, numpy float64, checked by
    central differences of the forward) and ADAM_OPTIMIZER (the page's update, in place: the
    parameters bound as input and output)."""
    m = Model("lrn_adam")
    x = f32([[[[0.5, -1.0], [2.0, 1.5]], [[-0.25, 3.0], [1.0, -2.0]],
              [[1.25, 0.75], [-1.5, 0.5]]]])
    dy = f32([[[[1.0, -2.0], [0.5, 3.0]], [[2.0, 1.0], [-1.0, 0.25]],
               [[-0.5, 1.5], [2.5, -3.0]]]])
    m.resource("X", x)
    m.resource("DY", dy)

    def windows(p, n, size):  # the forward's window of position p: [p - (n-1)//2, p + n//2]
        return range(max(p - (n - 1) // 2, 0), min(p + n // 2, size - 1) + 1)

    def forward(xv, cross, n, alpha, beta, bias):
        _, c_, h_, w_ = xv.shape
        d = np.zeros(xv.shape)
        for c in range(c_):
            for i in range(h_):
                for j in range(w_):
                    if cross:
                        s = sum(xv[0, k, i, j] ** 2 for k in windows(c, n, c_))
                    else:
                        s = sum(xv[0, c, a, b] ** 2 for a in windows(i, n, h_)
                                for b in windows(j, n, w_))
                    d[0, c, i, j] = bias + alpha / n * s
        return xv * d ** -beta, d

    for cross, n in ((True, 2), (False, 2)):
        alpha, beta, bias = 1.0, 0.75, 1.0
        xd, g = x.astype(np.float64), dy.astype(np.float64)
        _, d = forward(xd, cross, n, alpha, beta, bias)
        want = g * d ** -beta
        f = g * xd * d ** (-beta - 1)
        for idx in np.ndindex(x.shape):  # the i whose window holds idx
            _, c, i, j = idx
            acc = 0.0
            for other in np.ndindex(x.shape):
                _, c2, i2, j2 = other
                if cross:
                    holds = i2 == i and j2 == j and c in windows(c2, n, x.shape[1])
                else:
                    holds = (c2 == c and i in windows(i2, n, x.shape[2])
                             and j in windows(j2, n, x.shape[3]))
                acc += f[other] if holds else 0.0
            want[idx] -= 2 * alpha * beta / n * xd[idx] * acc
        for idx in np.ndindex(x.shape):  # the formula against central differences
            h, xp = 1e-6, xd.copy()
            xp[idx] += h
            up = (forward(xp, cross, n, alpha, beta, bias)[0] * g).sum()
            xp[idx] -= 2 * h
            down = (forward(xp, cross, n, alpha, beta, bias)[0] * g).sum()
            assert abs((up - down) / (2 * h) - want[idx]) < 1e-6, (cross, idx)
        name = "lrn_grad_" + ("cross" if cross else "within")
        out = m.resource("out_" + name, count=x.size, dtype=np.float32)
        m.op(name, "DML_OPERATOR_LOCAL_RESPONSE_NORMALIZATION_GRAD",
             {"InputTensor": tensor(x), "InputGradientTensor": tensor(dy),
              "OutputGradientTensor": tensor(x), "CrossChannel": int(cross), "LocalSize": n,
              "Alpha": alpha, "Beta": beta, "Bias": bias},
             {"InputTensor": "X", "InputGradientTensor": "DY", "OutputGradientTensor": out},
             {out: (want.astype(np.float32), {"abs": 1e-5})})
    # ADAM_OPTIMIZER at T = 3, the parameters updated in place.
    p = f32([[[[1.0, -2.0, 0.5, 3.0]]]])
    m1 = f32([[[[0.1, -0.2, 0.0, 0.3]]]])
    v1 = f32([[[[0.01, 0.04, 0.0, 0.09]]]])
    g = f32([[[[0.5, -1.0, 2.0, 0.0]]]])
    t = f32([[[[3.0]]]])
    for name, a in (("P", p), ("M", m1), ("V", v1), ("G", g), ("T", t)):
        m.resource(name, a)
    lr, b1, b2, eps = (float(np.float32(v)) for v in (0.01, 0.9, 0.999, 1e-8))  # FLOATs
    f = lambda a: a.astype(np.float64)
    mw = b1 * f(m1) + (1 - b1) * f(g)
    vw = b2 * f(v1) + (1 - b2) * f(g) ** 2
    alpha = math.sqrt(1 - b2 ** 3) / (1 - b1 ** 3)
    pw = f(p) - lr * alpha * mw / (np.sqrt(vw) + eps)
    om = m.resource("out_adam_m", count=4, dtype=np.float32)
    ov = m.resource("out_adam_v", count=4, dtype=np.float32)
    m.op("adam", "DML_OPERATOR_ADAM_OPTIMIZER",
         {"InputParametersTensor": tensor(p), "InputFirstMomentTensor": tensor(p),
          "InputSecondMomentTensor": tensor(p), "GradientTensor": tensor(p),
          "TrainingStepTensor": tensor(t), "OutputParametersTensor": tensor(p),
          "OutputFirstMomentTensor": tensor(p), "OutputSecondMomentTensor": tensor(p),
          "LearningRate": lr, "Beta1": b1, "Beta2": b2, "Epsilon": eps},
         {"InputParametersTensor": "P", "InputFirstMomentTensor": "M",
          "InputSecondMomentTensor": "V", "GradientTensor": "G", "TrainingStepTensor": "T",
          "OutputParametersTensor": "P", "OutputFirstMomentTensor": om,
          "OutputSecondMomentTensor": ov},
         {"P": (pw.astype(np.float32), {"abs": 1e-6}), om: (mw.astype(np.float32), {"ulp": 4}),
          ov: (vw.astype(np.float32), {"ulp": 4})})
    m.save()


def activations_logic():
    """The activations (ADD1 with a fused activation as DxDispatch writes it), comparisons,
    bits, IF, CAST and the fills: numpy in float64, tolerances of docs/operators.md."""
    m = Model("activations")
    a = f32([[-2.0, -0.5, 0.0, 0.25], [0.5, 1.0, 3.0, -4.0]])
    b = f32([[1.0, 0.5, -1.0, 0.25], [2.0, -1.0, 0.5, 4.0]])
    m.resource("A", a)
    m.resource("B", b)
    d = lambda x: x.astype(np.float64)
    x = d(a)
    sigmoid = 1 / (1 + np.exp(-x))
    acts = {
        "RELU": ({}, np.maximum(x, 0), {"ulp": 0}),
        "SIGMOID": ({}, sigmoid, {"ulp": 34}),
        "TANH": ({}, np.tanh(x), {"abs": 1 / 1024}),
        "SOFTSIGN": ({}, x / (1 + np.abs(x)), {"ulp": 2}),
        "GELU": ({}, 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2))), {"ulp": 18}),
        "ELU": ({"Alpha": 0.5}, np.where(x >= 0, x, 0.5 * np.expm1(x)), {"ulp": 18}),
        "LEAKY_RELU": ({"Alpha": 0.25}, np.where(x >= 0, x, 0.25 * x), {"ulp": 1}),
        "LINEAR": ({"Alpha": 2.0, "Beta": -1.0}, 2 * x - 1, {"ulp": 2}),
        "HARD_SIGMOID": ({"Alpha": 0.2, "Beta": 0.5},
                         np.clip(d(np.float32(0.2)) * x + 0.5, 0, 1), {"ulp": 1}),
        "SHRINK": ({"Bias": 0.25, "Threshold": 0.5},
                   np.where(x > 0.5, x - 0.25, np.where(x < -0.5, x + 0.25, 0)), {"ulp": 1}),
        "SOFTPLUS": ({"Steepness": 2.0}, np.log1p(np.exp(2 * x)) / 2, {"ulp": 18}),
        "THRESHOLDED_RELU": ({"Alpha": 0.5}, np.where(x > 0.5, x, 0), {"ulp": 0}),
    }
    for name, (extra, want, tol) in acts.items():
        out = m.resource("out_" + name.lower(), count=8, dtype=np.float32)
        m.op(name.lower(), "DML_OPERATOR_ACTIVATION_" + name,
             dict({"InputTensor": tensor(a), "OutputTensor": tensor(a)}, **extra),
             {"InputTensor": "A", "OutputTensor": out}, {out: (want.astype(np.float32), tol)})
    # ADD1 with a fused ELU, as DxDispatch's own dml_element_wise_add1 model writes it.
    s = d(a + b)
    out = m.resource("out_add1", count=8, dtype=np.float32)
    m.op("add1", "DML_OPERATOR_ELEMENT_WISE_ADD1",
         {"ATensor": tensor(a), "BTensor": tensor(b), "OutputTensor": tensor(a),
          "FusedActivation": {"Type": "ACTIVATION_ELU", "Alpha": 0.5}},
         {"ATensor": "A", "BTensor": "B", "OutputTensor": out},
         {out: (np.where(s >= 0, s, 0.5 * np.expm1(s)).astype(np.float32), {"ulp": 19})})
    # Comparisons and tests: UINT8 outputs.
    u8 = lambda v: np.asarray(v, dtype=np.uint8)
    for name, want in (("LOGICAL_GREATER_THAN", a > b), ("LOGICAL_EQUALS", a == b)):
        out = m.resource("out_" + name.lower(), count=8, dtype=np.uint8)
        m.op(name.lower(), "DML_OPERATOR_ELEMENT_WISE_" + name,
             {"ATensor": tensor(a), "BTensor": tensor(b), "OutputTensor": tensor(u8(want))},
             {"ATensor": "A", "BTensor": "B", "OutputTensor": out}, {out: (u8(want), {"ulp": 0})})
    special = f32([np.inf, -np.inf, np.nan, 1.0])
    m.resource("S", special)
    out = m.resource("out_is_inf", count=4, dtype=np.uint8)
    m.op("is_infinity", "DML_OPERATOR_ELEMENT_WISE_IS_INFINITY",
         {"InputTensor": tensor(special), "OutputTensor": tensor(u8([0, 0, 0, 0])),
          "InfinityMode": "DML_IS_INFINITY_MODE_POSITIVE"},
         {"InputTensor": "S", "OutputTensor": out}, {out: (u8([1, 0, 0, 0]), {"ulp": 0})})
    # IF selects A where the condition is not 0.
    cond = u8([1, 0, 0, 1, 0, 1, 1, 0]).reshape(2, 4)
    m.resource("C", cond)
    out = m.resource("out_if", count=8, dtype=np.float32)
    m.op("select", "DML_OPERATOR_ELEMENT_WISE_IF",
         {"ConditionTensor": tensor(cond), "ATensor": tensor(a), "BTensor": tensor(b),
          "OutputTensor": tensor(a)},
         {"ConditionTensor": "C", "ATensor": "A", "BTensor": "B", "OutputTensor": out},
         {out: (np.where(cond != 0, a, b), {"ulp": 0})})
    # Bits on UINT32, a CAST to INT8 (truncates toward zero), the fills.
    ua = np.array([0xF0F0F0F0, 1, 0xFFFFFFFF, 12345], dtype=np.uint32)
    ub = np.array([0x0FF00FF0, 3, 1, 54321], dtype=np.uint32)
    m.resource("UA", ua)
    m.resource("UB", ub)
    out = m.resource("out_bit_xor", count=4, dtype=np.uint32)
    m.op("bit_xor", "DML_OPERATOR_ELEMENT_WISE_BIT_XOR",
         {"ATensor": tensor(ua), "BTensor": tensor(ub), "OutputTensor": tensor(ua)},
         {"ATensor": "UA", "BTensor": "UB", "OutputTensor": out}, {out: (ua ^ ub, {"ulp": 0})})
    out = m.resource("out_cast", count=8, dtype=np.int8)
    m.op("cast", "DML_OPERATOR_CAST",
         {"InputTensor": tensor(a), "OutputTensor": tensor(np.trunc(a).astype(np.int8))},
         {"InputTensor": "A", "OutputTensor": out},
         {out: (np.trunc(a).astype(np.int8), {"ulp": 0})})
    seq = np.array([3.25 + 1.5 * k for k in range(6)], dtype=np.float32)
    out = m.resource("out_sequence", count=6, dtype=np.float32)
    m.op("sequence", "DML_OPERATOR_FILL_VALUE_SEQUENCE",
         {"OutputTensor": tensor(seq), "ValueDataType": "FLOAT32", "ValueStart": 3.25,
          "ValueDelta": 1.5},
         {"OutputTensor": out}, {out: (seq, {"ulp": 0})})
    fill = np.full(5, -7, dtype=np.int16)
    out = m.resource("out_constant", count=5, dtype=np.int16)
    m.op("constant", "DML_OPERATOR_FILL_VALUE_CONSTANT",
         {"OutputTensor": tensor(fill), "ValueDataType": "INT16", "Value": -7},
         {"OutputTensor": out}, {out: (fill, {"ulp": 0})})
    m.save()


# ---- Gathers -------------------------------------------------------------------------------

def gathers():
    m = Model("gather")
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 1.5
    m.resource("X", x)
    # GATHER axis 1 with signed indices (-1 is the last), IndexDimensions 1.
    idx = np.array([[[2, -3]]], dtype=np.int32)
    want = np.take(x, [2, 0], axis=1)
    m.resource("I", idx)
    out = m.resource("g", count=want.size, dtype=np.float32)
    m.op("gather", "DML_OPERATOR_GATHER",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(idx), "OutputTensor": tensor(want),
          "Axis": 1, "IndexDimensions": 1},
         {"InputTensor": "X", "IndicesTensor": "I", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # GATHER_ELEMENTS axis 2 with INT64 indices.
    ie = np.array([[[3, 0], [1, 1], [2, 0]], [[0, 0], [3, 2], [1, 3]]], dtype=np.int64)
    want = np.take_along_axis(x, ie, axis=2)
    m.resource("IE", ie)
    out = m.resource("ge", count=want.size, dtype=np.float32)
    m.op("gather_elements", "DML_OPERATOR_GATHER_ELEMENTS",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(ie), "OutputTensor": tensor(want),
          "Axis": 2},
         {"InputTensor": "X", "IndicesTensor": "IE", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # GATHER_ND: 2-tuples into the 3 meaningful dims of X (rank 3), indices [1,3,2].
    ind = np.array([[[1, 2], [0, 0], [1, 0]]], dtype=np.uint32)
    want = np.stack([x[i, j] for i, j in ind[0]])[None]  # [1, 3, 4]
    m.resource("IND", ind)
    out = m.resource("gnd", count=want.size, dtype=np.float32)
    m.op("gather_nd", "DML_OPERATOR_GATHER_ND",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(ind), "OutputTensor": tensor(want),
          "InputDimensionCount": 3, "IndicesDimensionCount": 3},
         {"InputTensor": "X", "IndicesTensor": "IND", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # GATHER_ND1 with one batch dimension: per batch b, 1-tuples into X[b].
    inb = np.array([[[2], [0]], [[1], [1]]], dtype=np.uint32)  # [2, 2, 1]
    want = np.stack([x[b][inb[b, :, 0]] for b in range(2)])  # [2, 2, 4]
    m.resource("INB", inb)
    out = m.resource("gnd1", count=want.size, dtype=np.float32)
    m.op("gather_nd1", "DML_OPERATOR_GATHER_ND1",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(inb), "OutputTensor": tensor(want),
          "InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1},
         {"InputTensor": "X", "IndicesTensor": "INB", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    m.save()


# ---- Scatters ---------------------------------------------------------------------------------

def scatters():
    m = Model("scatter")
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) * 1.5
    m.resource("X", x)
    # SCATTER_ELEMENTS along axis 2 with INT64 indices (-1 the last; 1 twice in row [1][0]: the
    # later update stays, dmlcl's rule).
    ie = np.array([[[3, 0], [1, -1], [2, 0]], [[1, 1], [3, 2], [0, 3]]], dtype=np.int64)
    ue = np.arange(100, 112, dtype=np.float32).reshape(2, 3, 2)
    want = x.copy()
    for c in np.ndindex(*ie.shape):
        want[c[0], c[1], ie[c] % 4] = ue[c]
    m.resource("IE", ie)
    m.resource("UE", ue)
    out = m.resource("se", count=want.size, dtype=np.float32)
    m.op("scatter_elements", "DML_OPERATOR_SCATTER_ELEMENTS",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(ie), "UpdatesTensor": tensor(ue),
          "OutputTensor": tensor(want), "Axis": 2},
         {"InputTensor": "X", "IndicesTensor": "IE", "UpdatesTensor": "UE", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # The same under SCATTER_ELEMENTS' older name.
    out = m.resource("s", count=want.size, dtype=np.float32)
    m.op("scatter", "DML_OPERATOR_SCATTER",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(ie), "UpdatesTensor": tensor(ue),
          "OutputTensor": tensor(want), "Axis": 2},
         {"InputTensor": "X", "IndicesTensor": "IE", "UpdatesTensor": "UE", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # SCATTER_ND: 2-tuples into the 3 meaningful dims of X, rows of 4; indices [1,3,2].
    ind = np.array([[[1, 2], [0, 0], [1, 0]]], dtype=np.uint32)
    und = np.arange(-12, 0, dtype=np.float32).reshape(1, 3, 4)
    want = x.copy()
    for t in range(3):
        want[ind[0, t, 0], ind[0, t, 1]] = und[0, t]
    m.resource("IND", ind)
    m.resource("UND", und)
    out = m.resource("snd", count=want.size, dtype=np.float32)
    m.op("scatter_nd", "DML_OPERATOR_SCATTER_ND",
         {"InputTensor": tensor(x), "IndicesTensor": tensor(ind), "UpdatesTensor": tensor(und),
          "OutputTensor": tensor(want), "InputDimensionCount": 3, "IndicesDimensionCount": 3},
         {"InputTensor": "X", "IndicesTensor": "IND", "UpdatesTensor": "UND", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    m.save()


# ---- Generated tensors: one-hot, diagonal matrices --------------------------------------------

def generators():
    m = Model("generate")
    # ONE_HOT along axis 1 of {3, 5}: INT64 indices, -1 the last, 7 outside (a row of OffValue);
    # Values {off, on} = {-2, 9} as INT32.
    idx = np.array([[0], [-1], [7]], dtype=np.int64)
    vals = np.array([[-2, 9]], dtype=np.int32)
    want = np.full((3, 5), -2, dtype=np.int32)
    for r, i in enumerate(idx[:, 0]):
        if -5 <= i < 5:
            want[r, i % 5] = 9
    m.resource("I", idx)
    m.resource("V", vals)
    out = m.resource("oh", count=want.size, dtype=np.int32)
    m.op("one_hot", "DML_OPERATOR_ONE_HOT",
         {"IndicesTensor": tensor(idx), "ValuesTensor": tensor(vals), "OutputTensor": tensor(want),
          "Axis": 1},
         {"IndicesTensor": "I", "ValuesTensor": "V", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # DIAGONAL_MATRIX: {1, 1, 3, 4}, 2.5 on the diagonal one below the main one (Offset -1).
    want = (np.eye(3, 4, k=-1) * 2.5).astype(np.float32).reshape(1, 1, 3, 4)
    out = m.resource("dm", count=want.size, dtype=np.float32)
    m.op("diagonal_matrix", "DML_OPERATOR_DIAGONAL_MATRIX",
         {"OutputTensor": tensor(want), "Offset": -1, "Value": 2.5},
         {"OutputTensor": out}, {out: (want, {"ulp": 0})})
    # DIAGONAL_MATRIX1 over an input: UINT16 7 on the band -1 <= column - row < 1, the input
    # elsewhere.
    x = np.arange(20, dtype=np.uint16).reshape(4, 5) + 100
    t = np.arange(5)[None, :] - np.arange(4)[:, None]
    want = np.where((t >= -1) & (t < 1), np.uint16(7), x).astype(np.uint16)
    m.resource("X", x)
    out = m.resource("dm1", count=want.size, dtype=np.uint16)
    m.op("diagonal_matrix1", "DML_OPERATOR_DIAGONAL_MATRIX1",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "ValueDataType": "UINT16",
          "Value": 7, "DiagonalFillBegin": -1, "DiagonalFillEnd": 1},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})
# ---- NONZERO_COORDINATES, REVERSE_SUBSEQUENCES, MAX_UNPOOLING, RANDOM_GENERATOR --------------

def _philox(ctr, key):
    """Philox-4x32-10 (Salmon et al.): 4 counter words (the first least significant), 2 key."""
    m = 0xFFFFFFFF
    x, k = list(ctr), list(key)
    for _ in range(10):
        p0, p1 = 0xD2511F53 * x[0], 0xCD9E8D57 * x[2]
        x = [((p1 >> 32) ^ x[1] ^ k[0]) & m, p1 & m, ((p0 >> 32) ^ x[3] ^ k[1]) & m, p0 & m]
        k = [(k[0] + 0x9E3779B9) & m, (k[1] + 0xBB67AE85) & m]
    return x


def selection():
    m = Model("selection")
    # Random123's known answer (kat_vectors, philox4x32 10, the pi digits) checks _philox first.
    assert _philox([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]) \
        == [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
    # NONZERO_COORDINATES in ONNX Runtime's form: count {1}, coordinates {M, N} (packed here);
    # rows past the count are undefined, so the coordinates resource starts all 7s and only
    # its first rows are compared (a second resource sized to them is not possible: the
    # operator takes M rows), through the count's value and a print of the defined rows.
    x = np.array([[0, 3, 0], [-1, 0, 2]], dtype=np.int32)
    rows = np.argwhere(x != 0).astype(np.uint32)
    m.resource("X", x)
    count = m.resource("count", count=1, dtype=np.uint32)
    coords = m.resource("coords", np.full((6, 2), 7, dtype=np.uint32))
    want = np.full((6, 2), 7, dtype=np.uint32)
    want[:len(rows)] = rows
    m.op("nonzero", "DML_OPERATOR_NONZERO_COORDINATES",
         {"InputTensor": tensor(x), "OutputCountTensor": tensor(np.zeros(1, np.uint32)),
          "OutputCoordinatesTensor": tensor(want)},
         {"InputTensor": "X", "OutputCountTensor": count, "OutputCoordinatesTensor": coords},
         {count: (np.array([len(rows)], np.uint32), {"ulp": 0}), coords: (want, {"ulp": 0})})
    # REVERSE_SUBSEQUENCES with ONNX's INT64 lengths along axis 1 of a {3, 4} input.
    r = np.arange(12, dtype=np.float32).reshape(3, 4)
    lens = np.array([[2], [4], [9]], dtype=np.int64)
    want = r.copy()
    for i in range(3):
        n = min(int(lens[i, 0]), 4)
        want[i, :n] = r[i, :n][::-1]
    m.resource("R", r)
    m.resource("L", lens)
    out = m.resource("rev", count=want.size, dtype=np.float32)
    m.op("reverse", "DML_OPERATOR_REVERSE_SUBSEQUENCES",
         {"InputTensor": tensor(r), "SequenceLengthsTensor": tensor(lens),
          "OutputTensor": tensor(want), "Axis": 1},
         {"InputTensor": "R", "SequenceLengthsTensor": "L", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # MAX_UNPOOLING of ONNX's example: {1,1,2,2} at flat indices 5, 7, 13, 15 of {1,1,4,4}.
    u = np.array([5, 6, 7, 8], dtype=np.float32).reshape(1, 1, 2, 2)
    ui = np.array([5, 7, 13, 15], dtype=np.uint64).reshape(1, 1, 2, 2)
    want = np.zeros(16, np.float32)
    want[ui.ravel()] = u.ravel()
    want = want.reshape(1, 1, 4, 4)
    m.resource("U", u)
    m.resource("UI", ui)
    out = m.resource("unpool", count=want.size, dtype=np.float32)
    m.op("unpool", "DML_OPERATOR_MAX_UNPOOLING",
         {"InputTensor": tensor(u), "IndicesTensor": tensor(ui), "OutputTensor": tensor(want)},
         {"InputTensor": "U", "IndicesTensor": "UI", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # RANDOM_GENERATOR: 10 values (3 blocks) from a counter that carries out of word 0, and
    # the next state (the counter plus 3).
    state = np.array([0xFFFFFFFE, 0, 1, 0, 0x1234, 0xABCD], dtype=np.uint32)
    ctr = int(state[0]) | int(state[1]) << 32 | int(state[2]) << 64 | int(state[3]) << 96
    vals = []
    for b in range(3):
        c = ctr + b
        key = [int(k) for k in state[4:]]
        vals += _philox([(c >> (32 * i)) & 0xFFFFFFFF for i in range(4)], key)
    vals = np.array(vals[:10], np.uint32).reshape(1, 1, 2, 5)
    c = ctr + 3
    nxt = np.array([(c >> (32 * i)) & 0xFFFFFFFF for i in range(4)] + list(state[4:]),
                   np.uint32).reshape(1, 1, 1, 6)
    m.resource("S", state.reshape(1, 1, 1, 6))
    out = m.resource("bits", count=vals.size, dtype=np.uint32)
    nstate = m.resource("next", count=6, dtype=np.uint32)
    m.op("random", "DML_OPERATOR_RANDOM_GENERATOR",
         {"InputStateTensor": tensor(nxt), "OutputTensor": tensor(vals),
          "OutputStateTensor": tensor(nxt), "Type": "DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10"},
         {"InputStateTensor": "S", "OutputTensor": out, "OutputStateTensor": nstate},
         {out: (vals, {"ulp": 0}), nstate: (nxt, {"ulp": 0})})
    m.save()


def regions():
    m = Model("regions")
    x = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    blocks = x.reshape(1, 2, 2, 2, 2, 2).transpose(0, 1, 2, 4, 3, 5)  # {N, C, by, bx, 2, 2}
    m.resource("X", x)
    # ROI_POOLING: the whole 4x4 (corners 0 and 3) in 2x2 bins: each bin's 2x2 block's maximum.
    rois = f32([[0, 0, 0, 3, 3]]).reshape(1, 1, 1, 5)
    want = blocks.max(axis=(4, 5)).astype(np.float32)
    m.resource("R5", rois)
    out = m.resource("rp", count=want.size, dtype=np.float32)
    m.op("roi_pooling", "DML_OPERATOR_ROI_POOLING",
         {"InputTensor": tensor(x), "ROITensor": tensor(rois), "OutputTensor": tensor(want),
          "SpatialScale": 1.0, "PooledSize": {"Width": 2, "Height": 2}},
         {"InputTensor": "X", "ROITensor": "R5", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # ROI_ALIGN1 in ONNX's half_pixel form, one sample a bin: the region [0, 4) in 2x2 bins
    # samples at pixel 0.5 and 2.5, each the mean of a 2x2 block.
    rois = f32([[0, 0, 4, 4]])
    idx = np.array([0], dtype=np.uint32)
    want = blocks.mean(axis=(4, 5)).astype(np.float32)
    m.resource("R4", rois)
    m.resource("B", idx)
    out = m.resource("ra", count=want.size, dtype=np.float32)
    m.op("roi_align1", "DML_OPERATOR_ROI_ALIGN1",
         {"InputTensor": tensor(x), "ROITensor": tensor(rois), "BatchIndicesTensor": tensor(idx),
          "OutputTensor": tensor(want), "ReductionFunction": "DML_REDUCE_FUNCTION_AVERAGE",
          "InterpolationMode": "DML_INTERPOLATION_MODE_LINEAR", "SpatialScaleX": 1.0,
          "SpatialScaleY": 1.0, "InputPixelOffset": 0.5, "OutputPixelOffset": -0.5,
          "OutOfBoundsInputValue": 0.0, "MinimumSamplesPerOutput": 1,
          "MaximumSamplesPerOutput": 1, "AlignRegionsToCorners": 0},
         {"InputTensor": "X", "ROITensor": "R4", "BatchIndicesTensor": "B", "OutputTensor": out},
         {out: (want, {"ulp": 2})})
    # UNFOLD 2x2 windows, stride 2: each block's four elements, window position k a row.
    cols = blocks.reshape(1, 2, 4, 4).transpose(0, 1, 3, 2).reshape(1, 8, 4).astype(np.float32)
    out = m.resource("uf", count=cols.size, dtype=np.float32)
    win = {"DimensionCount": 2, "WindowSizes": [2, 2], "Strides": [2, 2], "Dilations": [1, 1],
           "StartPadding": [0, 0], "EndPadding": [0, 0]}
    m.op("unfold", "DML_OPERATOR_UNFOLD",
         dict({"InputTensor": tensor(x), "OutputTensor": tensor(cols)}, **win),
         {"InputTensor": "X", "OutputTensor": out}, {out: (cols, {"ulp": 0})})
    # FOLD: the FOLD page's example 1 (3x3 windows over 4x4, the columns 0 .. 35).
    col = np.arange(36, dtype=np.float32).reshape(1, 9, 4)
    want = f32([[0, 5, 13, 9], [14, 38, 54, 32], [38, 86, 102, 56], [26, 57, 65, 35]]).reshape(
        1, 1, 4, 4)
    m.resource("C", col)
    out = m.resource("fo", count=want.size, dtype=np.float32)
    m.op("fold", "DML_OPERATOR_FOLD",
         dict({"InputTensor": tensor(col), "OutputTensor": tensor(want)},
              **dict(win, WindowSizes=[3, 3], Strides=[1, 1])),
         {"InputTensor": "C", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    m.save()


# ---- Slices, tile, depth/space ---------------------------------------------------------------

def views():
    m = Model("views")
    x = np.arange(1, 1 + 2 * 4 * 6, dtype=np.int16).reshape(1, 2, 4, 6)
    m.resource("X", x)
    want = x[:, :, 1:4:2, 0:6:3]
    out = m.resource("slice", count=want.size, dtype=np.int16)
    m.op("slice", "DML_OPERATOR_SLICE",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "DimensionCount": 4,
          "Offsets": [0, 0, 1, 0], "Sizes": [1, 2, 2, 2], "Strides": [1, 1, 2, 3]},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # SLICE1: a window [1, 4) of the rows read backwards; DimensionCount left out (inferred).
    want = x[:, :, 3:0:-1, 1:5]
    out = m.resource("slice1", count=want.size, dtype=np.int16)
    m.op("slice1", "DML_OPERATOR_SLICE1",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want),
          "InputWindowOffsets": [0, 0, 1, 1], "InputWindowSizes": [1, 2, 3, 4],
          "InputWindowStrides": [1, 1, -1, 1]},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    t = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.uint16)
    m.resource("T", t)
    want = np.tile(t, (2, 3))
    out = m.resource("tile", count=want.size, dtype=np.uint16)
    m.op("tile", "DML_OPERATOR_TILE",
         {"InputTensor": tensor(t), "OutputTensor": tensor(want), "RepeatsCount": 2, "Repeats": [2, 3]},
         {"InputTensor": "T", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # Depth/space, block 2: DEPTH_COLUMN_ROW is ONNX's DCR, COLUMN_ROW_DEPTH its CRD.
    n, c, h, w, bs = 1, 8, 2, 3, 2
    d = np.arange(n * c * h * w, dtype=np.float32).reshape(n, c, h, w) - 20
    m.resource("D", d)
    dcr = d.reshape(n, bs, bs, c // 4, h, w).transpose(0, 3, 4, 1, 5, 2).reshape(n, c // 4, h * bs, w * bs)
    crd = d.reshape(n, c // 4, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3).reshape(n, c // 4, h * bs, w * bs)
    for name, type_, want, extra in [
            ("d2s", "DML_OPERATOR_DEPTH_TO_SPACE", dcr, {}),
            ("d2s1", "DML_OPERATOR_DEPTH_TO_SPACE1", crd, {"Order": "COLUMN_ROW_DEPTH"})]:
        out = m.resource(name, count=want.size, dtype=np.float32)
        m.op(name, type_, dict({"InputTensor": tensor(d), "OutputTensor": tensor(want), "BlockSize": 2},
                               **extra),
             {"InputTensor": "D", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    s = np.arange(1 * 2 * 4 * 6, dtype=np.float32).reshape(1, 2, 4, 6)
    m.resource("S", s)
    s6 = s.reshape(1, 2, 2, 2, 3, 2)
    s2d_dcr = s6.transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3)
    s2d_crd = s6.transpose(0, 1, 3, 5, 2, 4).reshape(1, 8, 2, 3)
    for name, type_, want, extra in [
            ("s2d", "DML_OPERATOR_SPACE_TO_DEPTH", s2d_dcr, {}),
            ("s2d1", "DML_OPERATOR_SPACE_TO_DEPTH1", s2d_crd, {"Order": "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"})]:
        out = m.resource(name, count=want.size, dtype=np.float32)
        m.op(name, type_, dict({"InputTensor": tensor(s), "OutputTensor": tensor(want), "BlockSize": 2},
                               **extra),
             {"InputTensor": "S", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    m.save()


# ---- Join, split, padding ---------------------------------------------------------------------

def joins():
    m = Model("joins")
    parts = [np.arange(k * 2 * 3, dtype=np.int64).reshape(2, k, 3) * 10 + k for k in (1, 3, 2)]
    for i, p in enumerate(parts):
        m.resource(f"J{i}", p)
    want = np.concatenate(parts, axis=1)
    out = m.resource("join", count=want.size, dtype=np.int64)
    m.op("join", "DML_OPERATOR_JOIN",
         {"InputCount": 3, "InputTensors": [tensor(p) for p in parts], "OutputTensor": tensor(want),
          "Axis": 1},
         {"InputTensors": ["J0", "J1", "J2"], "OutputTensor": out}, {out: (want, {"ulp": 0})})
    x = np.array([[1.5, -2, 3, "nan"], [5, 6, "-inf", 8], [9, 10, 11, 12]], dtype=np.float16)
    m.resource("X", x)
    pieces = [x[:1], x[1:]]
    outs = [m.resource(f"split{i}", count=p.size, dtype=np.float16) for i, p in enumerate(pieces)]
    m.op("split", "DML_OPERATOR_SPLIT",  # OutputCount left out: the list's length
         {"InputTensor": tensor(x), "OutputTensors": [tensor(p) for p in pieces], "Axis": 0},
         {"InputTensor": "X", "OutputTensors": outs},
         {o: (p, {"ulp": 0}) for o, p in zip(outs, pieces)})
    p = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)
    m.resource("P", p)
    pads = ([0, 0, 1, 2], [0, 0, 2, 1])
    npp = [(s, e) for s, e in zip(*pads)]
    for name, mode, want in [
            ("pad_constant", "DML_PADDING_MODE_CONSTANT", np.pad(p, npp, constant_values=7.5)),
            ("pad_edge", "EDGE", np.pad(p, npp, mode="edge")),
            ("pad_reflection", "REFLECTION", np.pad(p, npp, mode="reflect"))]:
        out = m.resource(name, count=want.size, dtype=np.float32)
        m.op(name, "DML_OPERATOR_PADDING",
             {"InputTensor": tensor(p), "OutputTensor": tensor(want), "PaddingMode": mode,
              "PaddingValue": 7.5, "DimensionCount": 4, "StartPadding": pads[0], "EndPadding": pads[1]},
             {"InputTensor": "P", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    q = np.arange(-6, 6, dtype=np.int32).reshape(1, 1, 3, 4)
    m.resource("Q", q)
    for name, mode, want, value in [
            ("pad1_constant", "CONSTANT", np.pad(q, npp, constant_values=-99), -99),
            ("pad1_symmetric", "SYMMETRIC", np.pad(q, npp, mode="symmetric"), 0),
            ("pad1_wrap", "WRAP", np.pad(q, npp, mode="wrap"), {"Int32": 0})]:
        out = m.resource(name, count=want.size, dtype=np.int32)
        m.op(name, "DML_OPERATOR_PADDING1",
             {"InputTensor": tensor(q), "OutputTensor": tensor(want), "PaddingMode": mode,
              "PaddingValueDataType": "INT32", "PaddingValue": value,
              "StartPadding": pads[0], "EndPadding": pads[1]},  # DimensionCount inferred
             {"InputTensor": "Q", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    m.save()


# ---- The format's features ----------------------------------------------------------------------

def features():
    m = Model("features")
    a = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], dtype=np.float32)
    np.save(os.path.join(OUT, "features_a.npy"), a.reshape(2, 3))
    b = np.array([0.5, -1.0, 2.0, -4.0, 8.0, -16.0], dtype=np.float32)
    b.tofile(os.path.join(OUT, "features_b.dat"))
    m.resources["A"] = {"initialValues": {"sourcePath": "features_a.npy"}}
    m.resources["B"] = {"initialValuesDataType": "DML_TENSOR_DATA_TYPE_FLOAT32",
                        "initialValues": {"sourcePath": "features_b.dat"}}
    # A sequence accumulated in FLOAT16, a constant INT8, values placed at an offset.
    m.resources["Seq"] = {"initialValuesDataType": "FLOAT16",
                          "initialValues": {"valueCount": 6, "valueStart": 0.5, "valueDelta": 0.25}}
    m.resources["Padded"] = {"initialValuesDataType": "FLOAT32", "initialValues": [10, 20, 30],
                             "initialValuesOffsetInBytes": 16, "sizeInBytes": 64}
    m.resources["Out"] = {"initialValuesDataType": "FLOAT32",
                          "initialValues": {"valueCount": 6, "value": "nan"}}
    m.resource("Out3", count=3, dtype=np.float32)
    m.resource("Half", count=6, dtype=np.float16)
    m.resources["Consts"] = {"initialValuesDataType": "INT8",
                             "initialValues": {"valueCount": 5, "value": -7}}
    t6 = {"Type": "DML_TENSOR_TYPE_BUFFER",
          "Desc": {"DataType": "DML_TENSOR_DATA_TYPE_FLOAT32", "Flags": "DML_TENSOR_FLAG_NONE",
                   "DimensionCount": 2, "Sizes": [2, 3], "Strides": [3, 1],
                   "TotalTensorSizeInBytes": 24, "GuaranteedBaseOffsetAlignment": 0}}
    # ADD compiled as a graph, A owned by DirectML and bound once at initialization.
    m.dispatchables["add_graph"] = {
        "type": "DML_OPERATOR_ELEMENT_WISE_ADD",
        "desc": {"ATensor": {"DataType": "FLOAT32", "Sizes": [2, 3], "Flags": "OWNED_BY_DML"},
                 "BTensor": t6, "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 3]}},
        "dmlCompileType": "DmlCompileGraph",
        "executionFlags": ["DML_EXECUTION_FLAG_NONE", "DESCRIPTORS_VOLATILE"],
        "bindings": {"ATensor": "A"}}
    m.commands.append({"type": "dispatch", "dispatchable": "add_graph",
                       "bindings": {"BTensor": "B", "OutputTensor": "Out"}})
    m.write("Out", (a + b).reshape(2, 3), {"ulp": 0}, target="features.sum.npy", dims=[2, 3])
    m.commands.append({"type": "print", "resource": "Out"})
    m.expected["stdout"].append("Resource 'Out': 1.5, 1, 5, 0, 13, -10")
    # A binding at an element offset with a count: Padded's elements 4..6 (bytes 16..28).
    m.dispatchables["negate"] = {"type": "ELEMENT_WISE_NEGATE", "Desc": {
        "InputTensor": {"DataType": "FLOAT32", "Sizes": [3]},
        "OutputTensor": {"DataType": "FLOAT32", "Sizes": [3]}}, "executionFlags": "NONE"}
    m.commands.append({"type": "dispatch", "dispatchable": "negate", "bindings": {
        "InputTensor": {"name": "Padded", "elementOffset": 4, "elementCount": 3,
                        "format": "R32_FLOAT"},
        "OutputTensor": ["Out3"]}, "threadGroupCount": [1, 1, 1]})
    m.write("Out3", np.array([-10, -20, -30], dtype=np.float32), {"ulp": 0})
    # The FLOAT16 sequence through IDENTITY (0.5 + k * 0.25 is exact in FLOAT16).
    m.dispatchables["copy_half"] = {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
        "InputTensor": {"DataType": "FLOAT16", "Sizes": [6]},
        "OutputTensor": {"DataType": "FLOAT16", "Sizes": [6]}}}
    m.commands.append({"type": "dispatch", "dispatchable": "copy_half",
                       "bindings": {"InputTensor": "Seq", "OutputTensor": "Half"}})
    m.write("Half", np.arange(6, dtype=np.float16) * np.float16(0.25) + np.float16(0.5), {"ulp": 0})
    m.commands.append({"type": "print", "resource": "Half", "verbose": True})
    m.expected["stdout"] += ["[0] 0.5 (0x3800)", "[5] 1.75 (0x3F00)"]
    m.commands.append({"type": "print", "resource": "Consts"})
    m.expected["stdout"].append("Resource 'Consts': -7, -7, -7, -7, -7")
    m.commands.append({"type": "print", "resource": "Padded"})
    m.expected["stdout"].append("Resource 'Padded': 0, 0, 0, 0, 10, 20, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0")
    m.save(comment="features: comments and trailing commas are read, as DxDispatch reads them")


# ---- Reductions, normalizations, scans, top-k -------------------------------------------------

def reductions():
    """The reduce family's operators, as DxDispatch writes them (enums shortened)."""
    m = Model("reductions")
    rng = np.random.default_rng(32)
    x = (rng.integers(-64, 65, size=(3, 4, 5)) / 8).astype(np.float32)
    m.resource("X", x)
    want = x.sum(axis=(0, 2), keepdims=True)
    out = m.resource("sum", count=want.size, dtype=np.float32)
    m.op("sum", "DML_OPERATOR_REDUCE",
         {"Function": "SUM", "InputTensor": tensor(x), "OutputTensor": tensor(want),
          "AxisCount": 2, "Axes": [0, 2]},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # ARGMAX over the last axis, the last index on ties (DECREASING), UINT32 indices.
    t = np.array([[1, 5, 5, 2], [7, 0, 7, 7], [3, 3, 3, 3]], dtype=np.float32)
    m.resource("T", t)
    want = np.array([[2], [3], [3]], dtype=np.uint32)
    out = m.resource("argmax", count=want.size, dtype=np.uint32)
    m.op("argmax", "DML_OPERATOR_ARGMAX",
         {"InputTensor": tensor(t), "OutputTensor": tensor(want, "UINT32"), "AxisCount": 1,
          "Axes": [1], "AxisDirection": "DECREASING"},
         {"InputTensor": "T", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # SOFTMAX1 over the middle axis (float64 reference rounded once; 3N+3 ULPs).
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    out = m.resource("softmax", count=want.size, dtype=np.float32)
    m.op("softmax", "DML_OPERATOR_ACTIVATION_SOFTMAX1",
         {"InputTensor": tensor(x), "OutputTensor": tensor(x), "AxisCount": 1, "Axes": [1]},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 15})})
    # MVN2 as a layer normalization over the last axis, scale and bias broadcast by 0 strides.
    g = np.array([0.5, 1, 1.5, 2, 0.25], dtype=np.float32)
    b = np.array([1, -1, 0, 0.5, 2], dtype=np.float32)
    m.resource("G", g)
    m.resource("B", b)
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=2, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=2, keepdims=True)
    want = ((x64 - mean) / np.sqrt(var + np.float64(np.float32(1e-5))) * g + b).astype(np.float32)
    out = m.resource("layernorm", count=want.size, dtype=np.float32)
    vec = {"DataType": "FLOAT32", "Sizes": [3, 4, 5], "Strides": [0, 0, 1]}
    m.op("layernorm", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
         {"InputTensor": tensor(x), "ScaleTensor": vec, "BiasTensor": vec,
          "OutputTensor": tensor(x), "AxisCount": 1, "Axes": [2], "UseMean": 1,
          "UseVariance": 1, "Epsilon": 1e-5},
         {"InputTensor": "X", "ScaleTensor": "G", "BiasTensor": "B", "OutputTensor": out},
         {out: (want, {"abs": 1.0 / 1024})})
    # An exclusive cumulative sum from the end of the last axis (exact: eighths).
    rev = x[:, :, ::-1]
    want = (np.cumsum(rev, axis=2) - rev)[:, :, ::-1].astype(np.float32)
    out = m.resource("cumsum", count=want.size, dtype=np.float32)
    m.op("cumsum", "DML_OPERATOR_CUMULATIVE_SUMMATION",
         {"InputTensor": tensor(x), "OutputTensor": tensor(x), "Axis": 2,
          "AxisDirection": "DECREASING", "HasExclusiveSum": 1},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    # TOP_K1: the 2 smallest of each row of T (ties by index), values and UINT32 indices.
    order = np.argsort(t, axis=1, kind="stable")[:, :2]
    vals = np.take_along_axis(t, order, axis=1)
    ov = m.resource("topk_values", count=vals.size, dtype=np.float32)
    oi = m.resource("topk_indices", count=vals.size, dtype=np.uint32)
    m.op("topk", "DML_OPERATOR_TOP_K1",
         {"InputTensor": tensor(t), "OutputValueTensor": tensor(vals),
          "OutputIndexTensor": tensor(order.astype(np.uint32), "UINT32"), "Axis": 1, "K": 2,
          "AxisDirection": "INCREASING"},
         {"InputTensor": "T", "OutputValueTensor": ov, "OutputIndexTensor": oi},
         {ov: (vals, {"ulp": 0}), oi: (order.astype(np.uint32), {"ulp": 0})})
    # BATCH_NORMALIZATION of NCHW [1, 2, 2, 3] per channel, fused RELU (6 ULPs).
    n = (np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3) - 5) / 2
    m.resource("N", n)
    stats = {"M": [0.5, -1], "V": [4, 0.25], "S": [1, 2], "Bi": [0.25, -0.5]}
    for k, v in stats.items():
        m.resource(k, np.array(v, dtype=np.float32))
    c = lambda k: np.array(stats[k], dtype=np.float64).reshape(1, 2, 1, 1)  # noqa: E731
    y = (n - c("M")) / np.sqrt(c("V") + np.float64(np.float32(1e-3))) * c("S") + c("Bi")
    want = np.maximum(y, 0).astype(np.float32)
    out = m.resource("batchnorm", count=want.size, dtype=np.float32)
    ch = {"DataType": "FLOAT32", "Sizes": [1, 2, 1, 1]}
    m.op("batchnorm", "DML_OPERATOR_BATCH_NORMALIZATION",
         {"InputTensor": tensor(n), "MeanTensor": ch, "VarianceTensor": ch, "ScaleTensor": ch,
          "BiasTensor": ch, "OutputTensor": tensor(n), "Spatial": 1, "Epsilon": 1e-3,
          "FusedActivation": {"Type": "ACTIVATION_RELU"}},
         {"InputTensor": "N", "MeanTensor": "M", "VarianceTensor": "V", "ScaleTensor": "S",
          "BiasTensor": "Bi", "OutputTensor": out}, {out: (want, {"ulp": 6})})
    m.save()



# ---- Pooling -----------------------------------------------------------------------------

def _windows(x, window, strides, start, end, dil):
    """Every window of x [N, C, H, W] as (values inside the input, positions inside the
    padded input) per output element, with the flat input index of each value."""
    n, c, h, w = x.shape
    oh = (h + start[0] + end[0] - (window[0] - 1) * dil[0] - 1) // strides[0] + 1
    ow = (w + start[1] + end[1] - (window[1] - 1) * dil[1] - 1) // strides[1] + 1
    for b, ch, i, j in np.ndindex(n, c, oh, ow):
        vals, flat, padded = [], [], 0
        for ki, kj in np.ndindex(window[0], window[1]):
            y = i * strides[0] - start[0] + ki * dil[0]
            z = j * strides[1] - start[1] + kj * dil[1]
            padded += -start[0] <= y < h + end[0] and -start[1] <= z < w + end[1]
            if 0 <= y < h and 0 <= z < w:
                vals.append(float(x[b, ch, y, z]))
                flat.append(((b * c + ch) * h + y) * w + z)
        yield (b, ch, i, j), (oh, ow), vals, flat, padded


def pooling():
    """The pool family's operators: the ResNet stem's 3x3/2 max pooling with indices, a global
    average pool, a dilated average with its padding counted, L2 pooling."""
    m = Model("pooling")
    rng = np.random.default_rng(33)
    x = (rng.integers(-64, 65, size=(1, 2, 6, 7)) / 8).astype(np.float32)
    m.resource("X", x)
    args = dict(window=[3, 3], strides=[2, 2], start=[1, 1], end=[1, 1], dil=[1, 1])
    wins = list(_windows(x, **args))
    shape = (1, 2) + wins[0][1]
    want = np.zeros(shape, dtype=np.float32)
    idx = np.zeros(shape, dtype=np.uint32)
    for at, _, vals, flat, _ in wins:
        k = int(np.argmax(vals))  # the first largest
        want[at], idx[at] = vals[k], flat[k]
    out = m.resource("maxpool", count=want.size, dtype=np.float32)
    oi = m.resource("maxpool_indices", count=want.size, dtype=np.uint32)
    m.op("maxpool", "DML_OPERATOR_MAX_POOLING2",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want),
          "OutputIndicesTensor": tensor(idx, "UINT32"), "DimensionCount": 2,
          "Strides": [2, 2], "WindowSize": [3, 3], "StartPadding": [1, 1], "EndPadding": [1, 1],
          "Dilations": [1, 1]},
         {"InputTensor": "X", "OutputTensor": out, "OutputIndicesTensor": oi},
         {out: (want, {"ulp": 0}), oi: (idx, {"ulp": 0})})
    # Global average pooling (the window the whole 6x7), window + 2 ULPs.
    want = x.astype(np.float64).mean(axis=(2, 3), keepdims=True).astype(np.float32)
    out = m.resource("gap", count=want.size, dtype=np.float32)
    m.op("gap", "DML_OPERATOR_AVERAGE_POOLING",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "DimensionCount": 2,
          "Strides": [1, 1], "WindowSize": [6, 7], "StartPadding": [0, 0], "EndPadding": [0, 0],
          "IncludePadding": 0},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 44})})
    # AVERAGE_POOLING1: 2x2 dilated by 2, padding 1, the padding counted in the divisor.
    args = dict(window=[2, 2], strides=[1, 2], start=[1, 1], end=[1, 0], dil=[2, 2])
    wins = list(_windows(x, **args))
    want = np.zeros((1, 2) + wins[0][1], dtype=np.float64)
    for at, _, vals, _, padded in wins:
        want[at] = sum(vals) / padded
    want = want.astype(np.float32)
    out = m.resource("avgpool", count=want.size, dtype=np.float32)
    m.op("avgpool", "DML_OPERATOR_AVERAGE_POOLING1",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "DimensionCount": 2,
          "Strides": [1, 2], "WindowSize": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 0],
          "Dilations": [2, 2], "IncludePadding": 1},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 6})})
    # LP_POOLING, P 2: sqrt of the window's sum of squares.
    args = dict(window=[2, 3], strides=[2, 2], start=[0, 1], end=[0, 1], dil=[1, 1])
    wins = list(_windows(x, **args))
    want = np.zeros((1, 2) + wins[0][1], dtype=np.float64)
    for at, _, vals, _, _ in wins:
        want[at] = math.sqrt(sum(v * v for v in vals))
    want = want.astype(np.float32)
    out = m.resource("lppool", count=want.size, dtype=np.float32)
    m.op("lppool", "DML_OPERATOR_LP_POOLING",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "DimensionCount": 2,
          "Strides": [2, 2], "WindowSize": [2, 3], "StartPadding": [0, 1], "EndPadding": [0, 1],
          "P": 2},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 11})})
    m.save()


def resampling():
    """The resample family as DxDispatch writes it: an upsample of a feature map (the
    upsample model's UPSAMPLE_2D, nearest x2), RESAMPLE2 bilinear x2 (ONNX Resize's
    half_pixel), a 1-D RESAMPLE1 downscale (asymmetric), RESAMPLE3 nearest with
    RoundingDirection INCREASING, and VALUE_SCALE_2D's per-channel bias (an image's
    normalisation)."""
    m = Model("resampling")
    rng = np.random.default_rng(41)
    x = (rng.integers(-64, 65, size=(1, 3, 2, 3)) / 8).astype(np.float32)
    m.resource("X", x)
    want = x.repeat(2, axis=2).repeat(2, axis=3)
    out = m.resource("upsample", count=want.size, dtype=np.float32)
    m.op("upsample", "DML_OPERATOR_UPSAMPLE_2D",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want),
          "ScaleSize": {"Width": 2, "Height": 2}, "InterpolationMode": "NEAREST_NEIGHBOR"},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 0})})

    def axis(n):  # half_pixel x2: neighbours and weights
        o = np.arange(2 * n)
        c = np.clip((o + 0.5) / 2 - 0.5, 0, n - 1)
        i0 = np.floor(c).astype(int)
        return i0, np.minimum(i0 + 1, n - 1), c - i0
    x64 = x.astype(np.float64)
    y0, y1, wy = axis(2)
    x0, x1, wx = axis(3)
    rows = x64[:, :, y0, :] * (1 - wy)[:, None] + x64[:, :, y1, :] * wy[:, None]
    want = (rows[:, :, :, x0] * (1 - wx) + rows[:, :, :, x1] * wx).astype(np.float32)
    out = m.resource("bilinear", count=want.size, dtype=np.float32)
    m.op("bilinear", "DML_OPERATOR_RESAMPLE2",
         {"InputTensor": tensor(x), "OutputTensor": tensor(want), "InterpolationMode": "LINEAR",
          "RoundingDirection": "DECREASING", "Scales": [1, 1, 2, 2],
          "InputPixelOffsets": [0.5] * 4, "OutputPixelOffsets": [-0.5] * 4},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 84})})
    v = np.arange(1, 9, dtype=np.float32)
    m.resource("V", v)
    want = v[[0, 2, 4, 6]]  # x = o / 0.5
    out = m.resource("down", count=want.size, dtype=np.float32)
    m.op("down", "DML_OPERATOR_RESAMPLE1",
         {"InputTensor": tensor(v), "OutputTensor": tensor(want),
          "InterpolationMode": "NEAREST_NEIGHBOR", "Scales": [0.5], "InputPixelOffsets": [0],
          "OutputPixelOffsets": [0]},
         {"InputTensor": "V", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    want = v[np.minimum(np.ceil(np.arange(6) * 4 / 3).astype(int), 7)]  # ceil(o / 0.75)
    out = m.resource("ceil", count=want.size, dtype=np.float32)
    m.op("ceil", "DML_OPERATOR_RESAMPLE3",
         {"InputTensor": tensor(v), "OutputTensor": tensor(want),
          "InterpolationMode": "NEAREST_NEIGHBOR", "RoundingDirection": "INCREASING",
          "Scales": [0.75], "InputPixelOffsets": [0], "OutputPixelOffsets": [0],
          "Antialiased": 0},
         {"InputTensor": "V", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    bias = np.array([-0.5, 0.25, 1.0], dtype=np.float32)
    want = (x64 * np.float64(np.float32(0.5)) + bias.reshape(1, 3, 1, 1)).astype(np.float32)
    out = m.resource("scaled", count=want.size, dtype=np.float32)
    m.op("scaled", "DML_OPERATOR_VALUE_SCALE_2D",
         {"InputTensor": tensor(x), "OutputTensor": tensor(x), "Scale": 0.5,
          "Bias": [float(b) for b in bias]},
         {"InputTensor": "X", "OutputTensor": out}, {out: (want, {"ulp": 2})})
# ---- Matrix products ---------------------------------------------------------------------------

def gemm():
    """GEMM as DxDispatch writes it (DML_MATRIX_TRANSFORM shortened or not), expected values from
    numpy in float64 rounded once; the inputs are eighths, so every product and sum is exact
    (the tolerance is precision.md's 2K + 2 ULP all the same)."""
    m = Model("gemm")
    rng = np.random.default_rng(33)
    eighths = lambda *shape: (rng.integers(-24, 25, size=shape) / 8).astype(np.float32)  # noqa: E731
    d = lambda x: x.astype(np.float64)  # noqa: E731
    # The page's 4-D form {1, 1, M, K} x {1, 1, K, N} + C: Alpha 0.5, Beta 2.
    a, b, c = eighths(1, 1, 3, 4), eighths(1, 1, 4, 5), eighths(1, 1, 3, 5)
    m.resource("A", a)
    m.resource("B", b)
    m.resource("C", c)
    want = (0.5 * (d(a) @ d(b)) + 2 * d(c)).astype(np.float32)
    out = m.resource("gemm", count=want.size, dtype=np.float32)
    m.op("gemm", "DML_OPERATOR_GEMM",
         {"ATensor": tensor(a), "BTensor": tensor(b), "CTensor": tensor(c),
          "OutputTensor": tensor(want), "TransA": "DML_MATRIX_TRANSFORM_NONE",
          "TransB": "DML_MATRIX_TRANSFORM_NONE", "Alpha": 0.5, "Beta": 2.0},
         {"ATensor": "A", "BTensor": "B", "CTensor": "C", "OutputTensor": out},
         {out: (want, {"ulp": 10})})
    # ONNX Gemm's lowering: B {N, K} transposed, a bias row broadcast by strides {0, 1}, RELU.
    bt, bias = eighths(5, 4), eighths(5)
    m.resource("Bt", bt)
    m.resource("Bias", bias)
    a2 = a.reshape(3, 4)
    want = np.maximum(d(a2) @ d(bt).T + d(bias), 0).astype(np.float32)
    out = m.resource("gemm_bias_relu", count=want.size, dtype=np.float32)
    m.op("gemm_bias_relu", "DML_OPERATOR_GEMM",
         {"ATensor": tensor(a2), "BTensor": tensor(bt),
          "CTensor": {"DataType": "FLOAT32", "Sizes": [3, 5], "Strides": [0, 1]},
          "OutputTensor": tensor(want), "TransA": "NONE", "TransB": "TRANSPOSE", "Alpha": 1.0,
          "Beta": 1.0, "FusedActivation": {"Type": "ACTIVATION_RELU"}},
         {"ATensor": "A", "BTensor": "Bt", "CTensor": "Bias", "OutputTensor": out},
         {out: (want, {"ulp": 10})})
    # ONNX MatMul's lowering: A {2, K, M} read transposed, B {K, N} broadcast over the batch by a
    # zero stride, no C (CTensor left out, nothing bound).
    at, b2 = eighths(2, 4, 3), eighths(4, 5)
    m.resource("At", at)
    m.resource("B2", b2)
    want = (np.swapaxes(d(at), 1, 2) @ d(b2)).astype(np.float32)
    out = m.resource("matmul", count=want.size, dtype=np.float32)
    m.op("matmul", "DML_OPERATOR_GEMM",
         {"ATensor": tensor(at), "BTensor": {"DataType": "FLOAT32", "Sizes": [2, 4, 5],
                                             "Strides": [0, 5, 1]},
          "OutputTensor": tensor(want), "TransA": "TRANSPOSE", "TransB": "NONE", "Alpha": 1.0,
          "Beta": 0.0},
         {"ATensor": "At", "BTensor": "B2", "OutputTensor": out}, {out: (want, {"ulp": 10})})
    # FLOAT16 (computed in float32, rounded once): a 2-D product with a scalar C ({0, 0}).
    h_a, h_b = eighths(4, 3).astype(np.float16), eighths(3, 2).astype(np.float16)
    h_c = np.array([0.375], dtype=np.float16)
    m.resource("HA", h_a)
    m.resource("HB", h_b)
    m.resource("HC", h_c)
    want = (d(h_a) @ d(h_b) - 1.5 * d(h_c)).astype(np.float16)
    out = m.resource("gemm_half", count=want.size, dtype=np.float16)
    m.op("gemm_half", "DML_OPERATOR_GEMM",
         {"ATensor": tensor(h_a), "BTensor": tensor(h_b),
          "CTensor": {"DataType": "FLOAT16", "Sizes": [4, 2], "Strides": [0, 0]},
          "OutputTensor": tensor(want), "TransA": "NONE", "TransB": "NONE", "Alpha": 1.0,
          "Beta": -1.5},
         {"ATensor": "HA", "BTensor": "HB", "CTensor": "HC", "OutputTensor": out},
         {out: (want, {"ulp": 8})})
    # MULTIHEAD_ATTENTION (a batched GEMM, softmax and GEMM in one operator): a stacked
    # {batch 2, seq 3, heads 2, 3, head 4} query/key/value, key lengths {1, 2} as the mask (keys
    # at or past a batch element's length add MaskFilterValue), numpy in float64. The inputs
    # are eighths (the scores exact): tolerance the softmax's and the second GEMM's bounds,
    # 2 * (5N + 3) * 2^-24 * max|v| (N = 3 keys, |v| <= 3: 6.6e-6), as 1e-5.
    qkv = eighths(2, 3, 2, 3, 4)
    lens = np.array([[2, 3]], dtype=np.int32)
    m.resource("QKV", qkv)
    m.resource("Lens", lens)
    q, k, v = (d(qkv[:, :, :, i]).transpose(0, 2, 1, 3) for i in range(3))
    x = q @ np.swapaxes(k, 2, 3) * 0.5 + np.where(np.arange(3)[None, :] >= lens.T, -1e4, 0.0)[
        :, None, None, :]
    p = np.exp(x - x.max(axis=3, keepdims=True))
    want = ((p / p.sum(axis=3, keepdims=True)) @ v).transpose(0, 2, 1, 3).reshape(2, 3, 8)
    want = want.astype(np.float32)
    out = m.resource("attention", count=want.size, dtype=np.float32)
    m.op("attention", "DML_OPERATOR_MULTIHEAD_ATTENTION",
         {"StackedQueryKeyValueTensor": tensor(qkv), "MaskTensor": tensor(lens),
          "OutputTensor": tensor(want), "Scale": 0.5, "MaskFilterValue": -1e4, "HeadCount": 2,
          "MaskType": "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH"},
         {"StackedQueryKeyValueTensor": "QKV", "MaskTensor": "Lens", "OutputTensor": out},
         {out: (want, {"abs": 1e-5})})
    m.save()


def convolutions():
    """CONVOLUTION as DxDispatch's convolution models write it: a 3x3 with bias and a fused
    RELU, a depthwise 3x3 (GroupCount 4), a transposed 4x4 stride 2 (BACKWARD), a 1-D
    CONVOLUTION-mode (flipped) filter. Eighths: every sum exact."""
    m = Model("convolutions")
    rng = np.random.default_rng(33)

    def eighths(shape):
        return (rng.integers(-8, 9, size=shape) / 8).astype(np.float32)

    x = eighths((1, 4, 6, 7))
    m.resource("X", x)

    def conv2d(x, w, b, stride, pad, groups):
        n, c, h, wd = x.shape
        co, cg, k, _ = w.shape
        xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
        oh, ow = (h + 2 * pad - k) // stride + 1, (wd + 2 * pad - k) // stride + 1
        y = np.zeros((n, co, oh, ow))
        og = co // groups
        for o in range(co):
            g = o // og
            for i in range(cg):
                for ky in range(k):
                    for kx in range(k):
                        y[0, o] += w[o, i, ky, kx] * xp[0, g * cg + i, ky:ky + stride * oh:stride,
                                                        kx:kx + stride * ow:stride]
            y[0, o] += b[o]
        return y

    # 3x3, pad 1, bias, RELU.
    w = eighths((3, 4, 3, 3))
    b = eighths((3,))
    m.resource("W", w)
    m.resource("Bc", b)
    want = np.maximum(conv2d(x, w, b, 1, 1, 1), 0).astype(np.float32)
    out = m.resource("conv", count=want.size, dtype=np.float32)
    m.op("conv", "DML_OPERATOR_CONVOLUTION",
         {"InputTensor": tensor(x), "FilterTensor": tensor(w),
          "BiasTensor": {"DataType": "FLOAT32", "Sizes": [1, 3, 1, 1]},
          "OutputTensor": tensor(want), "Mode": "CROSS_CORRELATION", "Direction": "FORWARD",
          "DimensionCount": 2, "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [1, 1],
          "EndPadding": [1, 1], "OutputPadding": [0, 0], "GroupCount": 1,
          "FusedActivation": {"Type": "ACTIVATION_RELU"}},
         {"InputTensor": "X", "FilterTensor": "W", "BiasTensor": "Bc", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # Depthwise 3x3, stride 2.
    wd = eighths((4, 1, 3, 3))
    bd = eighths((4,))
    m.resource("Wd", wd)
    m.resource("Bd", bd)
    want = conv2d(x, wd, bd, 2, 1, 4).astype(np.float32)
    out = m.resource("depthwise", count=want.size, dtype=np.float32)
    m.op("depthwise", "DML_OPERATOR_CONVOLUTION",
         {"InputTensor": tensor(x), "FilterTensor": tensor(wd),
          "BiasTensor": {"DataType": "FLOAT32", "Sizes": [1, 4, 1, 1]},
          "OutputTensor": tensor(want), "Mode": "CROSS_CORRELATION", "Direction": "FORWARD",
          "DimensionCount": 2, "Strides": [2, 2], "Dilations": [1, 1], "StartPadding": [1, 1],
          "EndPadding": [1, 1], "OutputPadding": [0, 0], "GroupCount": 4},
         {"InputTensor": "X", "FilterTensor": "Wd", "BiasTensor": "Bd", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # Transposed 4x4, stride 2, pad 1: every x[i] w[k] scattered to 2 i + k - 1, then + bias.
    wt = eighths((4, 2, 4, 4))
    bt = eighths((2,))
    m.resource("Wt", wt)
    m.resource("Bt", bt)
    full = np.zeros((1, 2, 2 * 5 + 4, 2 * 6 + 4))
    for ci in range(4):
        for co in range(2):
            for ky in range(4):
                for kx in range(4):
                    full[0, co, ky:ky + 12:2, kx:kx + 14:2] += x[0, ci] * wt[ci, co, ky, kx]
    want = (full[:, :, 1:13, 1:15] + bt.reshape(1, 2, 1, 1)).astype(np.float32)
    out = m.resource("transposed", count=want.size, dtype=np.float32)
    m.op("transposed", "DML_OPERATOR_CONVOLUTION",
         {"InputTensor": tensor(x), "FilterTensor": tensor(wt),
          "BiasTensor": {"DataType": "FLOAT32", "Sizes": [1, 2, 1, 1]},
          "OutputTensor": tensor(want), "Mode": "CROSS_CORRELATION", "Direction": "BACKWARD",
          "DimensionCount": 2, "Strides": [2, 2], "Dilations": [1, 1], "StartPadding": [1, 1],
          "EndPadding": [1, 1], "OutputPadding": [0, 0], "GroupCount": 1},
         {"InputTensor": "X", "FilterTensor": "Wt", "BiasTensor": "Bt", "OutputTensor": out},
         {out: (want, {"ulp": 0})})
    # 1-D, CONVOLUTION mode: the filter flipped, no padding.
    s1 = eighths((1, 2, 9))
    f1 = eighths((3, 2, 3))
    b1 = np.zeros(3, dtype=np.float32)
    m.resource("S", s1)
    m.resource("F", f1)
    m.resource("B0", b1)
    fl = f1[:, :, ::-1].astype(np.float64)
    want = np.zeros((1, 3, 7))
    for o in range(3):
        for i in range(2):
            for k in range(3):
                want[0, o] += fl[o, i, k] * s1[0, i, k:k + 7]
    want = want.astype(np.float32)
    out = m.resource("conv1d", count=want.size, dtype=np.float32)
    m.op("conv1d", "DML_OPERATOR_CONVOLUTION",
         {"InputTensor": tensor(s1), "FilterTensor": tensor(f1),
          "BiasTensor": {"DataType": "FLOAT32", "Sizes": [1, 3, 1]},
          "OutputTensor": tensor(want), "Mode": "CONVOLUTION", "Direction": "FORWARD",
          "DimensionCount": 1, "Strides": [1], "Dilations": [1], "StartPadding": [0],
          "EndPadding": [0], "OutputPadding": [0], "GroupCount": 1},
         {"InputTensor": "S", "FilterTensor": "F", "BiasTensor": "B0", "OutputTensor": out},
         {out: (want, {"ulp": 0})})


def intmm():
    """The integer and quantized products and convolutions as DxDispatch writes them, in ONNX
    Runtime's DirectML forms; expected values from numpy (exact integer sums; requantized by
    the pages' rule, round half to even then + zero point, with power-of-two scales: exact)."""
    m = Model("intmm")
    rng = np.random.default_rng(77)
    a = rng.integers(-128, 128, size=(1, 1, 3, 5)).astype(np.int8)
    b = rng.integers(0, 256, size=(1, 1, 5, 4)).astype(np.uint8)
    za = rng.integers(-128, 128, size=(1, 1, 3, 1)).astype(np.int8)
    zb = rng.integers(0, 256, size=(4,)).astype(np.uint8)
    for k, v in (("IA", a), ("IB", b), ("IZA", za), ("IZB", zb)):
        m.resource(k, v)
    acc = (a.astype(np.int64) - za) @ (b.astype(np.int64) - zb)
    want = acc.astype(np.int32)
    out = m.resource("matmul_integer", count=want.size, dtype=np.int32)
    m.op("matmul_integer", "DML_OPERATOR_MATRIX_MULTIPLY_INTEGER",
         {"ATensor": tensor(a), "AZeroPointTensor": tensor(za), "BTensor": tensor(b),
          "BZeroPointTensor": tensor(zb), "OutputTensor": tensor(want)},
         {"ATensor": "IA", "AZeroPointTensor": "IZA", "BTensor": "IB", "BZeroPointTensor": "IZB",
          "OutputTensor": out}, {out: (want, None)})
    # Requantized: scales 2^-4, 2^-5 per column, output 2^3; zero point 3 (odd: the pages'
    # rounding before the zero point shows at ties).
    sa = np.array([0.0625], np.float32)
    sb = (2.0 ** -rng.integers(4, 7, size=(4,))).astype(np.float32)
    so, zo = np.array([8.0], np.float32), np.array([3], np.int8)
    for k, v in (("SA", sa), ("SB", sb), ("SO", so), ("ZO", zo)):
        m.resource(k, v)
    v = acc * (sa.astype(np.float64) * sb / so[0])
    want = np.clip(np.rint(v) + 3, -128, 127).astype(np.int8)
    out = m.resource("qlinear_matmul", count=want.size, dtype=np.int8)
    m.op("qlinear_matmul", "DML_OPERATOR_QUANTIZED_LINEAR_MATRIX_MULTIPLY",
         {"ATensor": tensor(a), "AScaleTensor": tensor(sa), "AZeroPointTensor": tensor(za),
          "BTensor": tensor(b), "BScaleTensor": tensor(sb), "BZeroPointTensor": tensor(zb),
          "OutputScaleTensor": tensor(so), "OutputZeroPointTensor": tensor(zo),
          "OutputTensor": tensor(want)},
         {"ATensor": "IA", "AScaleTensor": "SA", "AZeroPointTensor": "IZA", "BTensor": "IB",
          "BScaleTensor": "SB", "BZeroPointTensor": "IZB", "OutputScaleTensor": "SO",
          "OutputZeroPointTensor": "ZO", "OutputTensor": out}, {out: (want, None)})
    # To float, the bias {N} read as the output's sizes with 0 strides.
    bias = (rng.integers(-16, 17, size=(4,)) / 8).astype(np.float32)
    m.resource("FB", bias)
    want = (acc * (sa.astype(np.float64) * sb) + bias).astype(np.float32)
    out = m.resource("matmul_integer_to_float", count=want.size, dtype=np.float32)
    m.op("matmul_integer_to_float", "DML_OPERATOR_MATRIX_MULTIPLY_INTEGER_TO_FLOAT",
         {"ATensor": tensor(a), "AScaleTensor": tensor(sa), "AZeroPointTensor": tensor(za),
          "BTensor": tensor(b), "BScaleTensor": tensor(sb), "BZeroPointTensor": tensor(zb),
          "BiasTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 3, 4], "Strides": [0, 0, 0, 1]},
          "OutputTensor": tensor(want)},
         {"ATensor": "IA", "AScaleTensor": "SA", "AZeroPointTensor": "IZA", "BTensor": "IB",
          "BScaleTensor": "SB", "BZeroPointTensor": "IZB", "BiasTensor": "FB",
          "OutputTensor": out}, {out: (want, {"ulp": 2})})
    # Convolutions: {1, 2, 4, 4} * {3, 2, 3, 3}, padding 1, per-channel filter zero point.
    x = rng.integers(0, 256, size=(1, 2, 4, 4)).astype(np.uint8)
    w = rng.integers(-128, 128, size=(3, 2, 3, 3)).astype(np.int8)
    zx = np.array([128], np.uint8)
    zw = rng.integers(-4, 5, size=(3,)).astype(np.int8)
    for k, v in (("CX", x), ("CW", w), ("CZX", zx), ("CZW", zw)):
        m.resource(k, v)
    xp = np.pad(x.astype(np.int64) - 128, ((0, 0), (0, 0), (1, 1), (1, 1)))
    wz = w.astype(np.int64) - zw.reshape(3, 1, 1, 1)
    acc = np.zeros((1, 3, 4, 4), np.int64)
    for i in range(4):
        for j in range(4):
            acc[0, :, i, j] = np.tensordot(wz, xp[0, :, i:i + 3, j:j + 3], axes=3)
    want = acc.astype(np.int32)
    geometry = {"DimensionCount": 2, "Strides": [1, 1], "Dilations": [1, 1],
                "StartPadding": [1, 1], "EndPadding": [1, 1], "GroupCount": 1}
    out = m.resource("conv_integer", count=want.size, dtype=np.int32)
    m.op("conv_integer", "DML_OPERATOR_CONVOLUTION_INTEGER",
         dict({"InputTensor": tensor(x), "InputZeroPointTensor": tensor(zx, Sizes=[1, 1, 1, 1]),
               "FilterTensor": tensor(w), "FilterZeroPointTensor": tensor(zw, Sizes=[1, 3, 1, 1]),
               "OutputTensor": tensor(want)}, **geometry),
         {"InputTensor": "CX", "InputZeroPointTensor": "CZX", "FilterTensor": "CW",
          "FilterZeroPointTensor": "CZW", "OutputTensor": out}, {out: (want, None)})
    cb = rng.integers(-64, 65, size=(3,)).astype(np.int32)
    cs = np.array([0.25], np.float32)
    m.resource("CB", cb)
    m.resource("CS", cs)
    v = (acc + cb.reshape(1, 3, 1, 1)) * (0.25 * sb[:3].astype(np.float64).reshape(1, 3, 1, 1)
                                           / 8.0)
    want = np.clip(np.rint(v) + 3, -128, 127).astype(np.int8)
    out = m.resource("qlinear_conv", count=want.size, dtype=np.int8)
    m.op("qlinear_conv", "DML_OPERATOR_QUANTIZED_LINEAR_CONVOLUTION",
         dict({"InputTensor": tensor(x), "InputScaleTensor": tensor(cs, Sizes=[1, 1, 1, 1]),
               "InputZeroPointTensor": tensor(zx, Sizes=[1, 1, 1, 1]), "FilterTensor": tensor(w),
               "FilterScaleTensor": {"DataType": "FLOAT32", "Sizes": [1, 3, 1, 1]},
               "FilterZeroPointTensor": tensor(zw, Sizes=[1, 3, 1, 1]),
               "BiasTensor": tensor(cb, Sizes=[1, 3, 1, 1]),
               "OutputScaleTensor": tensor(so, Sizes=[1, 1, 1, 1]),
               "OutputZeroPointTensor": tensor(zo, Sizes=[1, 1, 1, 1]),
               "OutputTensor": tensor(want)}, **geometry),
         {"InputTensor": "CX", "InputScaleTensor": "CS", "InputZeroPointTensor": "CZX",
          "FilterTensor": "CW", "FilterScaleTensor": "SB", "FilterZeroPointTensor": "CZW",
          "BiasTensor": "CB", "OutputScaleTensor": "SO", "OutputZeroPointTensor": "ZO",
          "OutputTensor": out}, {out: (want, None)})
    m.save()


def dxdispatch_forms():
    """The forms DxDispatch's own models use that no other model here does: a BOOL member
    written true / false (dml_cumulative_product.json), an optional tensor left out
    (dml_convolution_2d.json's BiasTensor, MVN1's ScaleTensor and BiasTensor), and an operator
    compiled as a graph with its optional C left out (dml_gemm_graph.json: the graph's inputs
    are the present slots only), and an array of activations (dml_rnn.json's ActivationDescs)."""
    m = Model("dxdispatch_forms")
    a = np.array([2, 4, 8, 3], dtype=np.float32)
    m.resource("A", a)
    out = m.resource("cumprod", count=4, dtype=np.float32)
    want = np.array([1, 2, 8, 64], dtype=np.float32)  # exclusive: the products before each
    m.op("cumprod", "DML_OPERATOR_CUMULATIVE_PRODUCT",
         {"InputTensor": tensor(a.reshape(1, 1, 1, 4)), "OutputTensor": tensor(want.reshape(1, 1, 1, 4)),
          "Axis": 3, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveProduct": True},
         {"InputTensor": "A", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    x = np.arange(1, 10, dtype=np.float32).reshape(1, 1, 3, 3)
    f = np.full((1, 1, 2, 2), 0.5, dtype=np.float32)
    m.resource("X", x)
    m.resource("F", f)
    want = np.array([[[[6, 8], [12, 14]]]], dtype=np.float32)
    out = m.resource("conv", count=4, dtype=np.float32)
    m.op("conv", "DML_OPERATOR_CONVOLUTION",
         {"InputTensor": tensor(x), "FilterTensor": tensor(f), "OutputTensor": tensor(want),
          "Mode": "DML_CONVOLUTION_MODE_CROSS_CORRELATION",
          "Direction": "DML_CONVOLUTION_DIRECTION_FORWARD", "DimensionCount": 2,
          "Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0],
          "OutputPadding": [0, 0], "GroupCount": 1},
         {"InputTensor": "X", "FilterTensor": "F", "OutputTensor": out}, {out: (want, {"ulp": 0})})
    ga = np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3) / 4
    gb = np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) / 8
    m.resource("GA", ga)
    m.resource("GB", gb)
    want = (ga.astype(np.float64) @ gb).astype(np.float32)
    out = m.resource("gemm", count=want.size, dtype=np.float32)
    m.dispatchables["gemm"] = {
        "type": "DML_OPERATOR_GEMM",
        "desc": {"ATensor": tensor(ga), "BTensor": tensor(gb), "OutputTensor": tensor(want),
                 "TransA": "DML_MATRIX_TRANSFORM_NONE", "TransB": "DML_MATRIX_TRANSFORM_NONE",
                 "Alpha": 1.0, "Beta": 1.0},
        "dmlCompileType": "DmlCompileGraph"}
    m.commands.append({"type": "dispatch", "dispatchable": "gemm",
                       "bindings": {"ATensor": "GA", "BTensor": "GB", "OutputTensor": out}})
    m.write(out, want, {"ulp": 8})
    # DxDispatch's dml_rnn.json: a bidirectional RNN with an ActivationDescs array (ELU of
    # another Alpha per direction), no bias or initial state, OutputSingleTensor alone.
    rx = np.arange(1, 33, dtype=np.float32).reshape(1, 1, 8, 4) / 8
    rw = (1 + 0.4 * np.arange(40, dtype=np.float32)).reshape(1, 2, 5, 4) / 16
    rr = np.full((1, 2, 5, 5), 0.3, dtype=np.float32)
    m.resource("RX", rx)
    m.resource("RW", rw)
    m.resource("RR", rr)
    pre = np.stack([rx[0, 0].astype(np.float64) @ rw[0, d].astype(np.float64).T for d in range(2)])
    alphas = (0.5, 3.5)
    want = np.stack([np.where(pre[d] > 0, pre[d], alphas[d] * np.expm1(pre[d]))
                     for d in range(2)]).reshape(1, 2, 8, 5).astype(np.float32)
    out = m.resource("rnn", count=want.size, dtype=np.float32)
    m.op("rnn", "DML_OPERATOR_RNN",
         {"InputTensor": tensor(rx), "WeightTensor": tensor(rw), "RecurrenceTensor": tensor(rr),
          "OutputSingleTensor": tensor(want), "ActivationDescCount": 2,
          "ActivationDescs": [{"Type": "ACTIVATION_ELU", "Alpha": 0.5},
                              {"Type": "ACTIVATION_ELU", "Alpha": 3.5}],
          "Direction": "DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL"},
         {"InputTensor": "RX", "WeightTensor": "RW", "RecurrenceTensor": "RR",
          "OutputSingleTensor": out}, {out: (want, {"ulp": 12})})
    # An LSTM: eleven tensor members (past the eight the RNN fills), bias, initial states and
    # peepholes, every output; numpy in float64 (ONNX's equations, gates i o f c, P as i o f).
    steps, inp, hid = 3, 2, 3
    rng = np.random.default_rng(7)

    def f32r(*shape):
        return (rng.uniform(-0.6, 0.6, size=shape)).astype(np.float32)

    lx, lw, lr = f32r(1, steps, 1, inp), f32r(1, 1, 4 * hid, inp), f32r(1, 1, 4 * hid, hid)
    lb, lh, lc, lp = f32r(1, 1, 1, 8 * hid), f32r(1, 1, 1, hid), f32r(1, 1, 1, hid), f32r(1, 1, 1, 3 * hid)
    for k, v in (("LX", lx), ("LW", lw), ("LR", lr), ("LB", lb), ("LH", lh), ("LC", lc), ("LP", lp)):
        m.resource(k, v)
    d = lambda a: a.astype(np.float64)  # noqa: E731
    w, r, b, p = d(lw[0, 0]), d(lr[0, 0]), d(lb[0, 0, 0]), d(lp[0, 0, 0])
    h, c = d(lh[0, 0, 0]), d(lc[0, 0, 0])
    sig = lambda v: 1 / (1 + np.exp(-v))  # noqa: E731
    seq_out = []
    for t in range(steps):
        a = w @ d(lx[0, t, 0]) + r @ h + b[:4 * hid] + b[4 * hid:]
        gi, go, gf, gc = (a[k * hid:(k + 1) * hid] for k in range(4))
        i_t = sig(gi + p[:hid] * c)
        f_t = sig(gf + p[2 * hid:] * c)
        c = f_t * c + i_t * np.tanh(gc)
        h = sig(go + p[hid:2 * hid] * c) * np.tanh(c)
        seq_out.append(h)
    wants = {"lseq": np.array(seq_out).reshape(steps, 1, 1, hid).astype(np.float32),
             "lh": h.reshape(1, 1, 1, hid).astype(np.float32),
             "lc": c.reshape(1, 1, 1, hid).astype(np.float32)}
    outs = {k: m.resource(k, count=v.size, dtype=np.float32) for k, v in wants.items()}
    tol = {"abs": steps * (2.0 ** -10 + (inp + hid + 2) ** 2 * 2.0 ** -23)}  # conformance/gen/rnn.py's
    m.op("lstm", "DML_OPERATOR_LSTM",
         {"InputTensor": tensor(lx), "WeightTensor": tensor(lw), "RecurrenceTensor": tensor(lr),
          "BiasTensor": tensor(lb), "HiddenInitTensor": tensor(lh), "CellMemInitTensor": tensor(lc),
          "PeepholeTensor": tensor(lp), "OutputSequenceTensor": tensor(wants["lseq"]),
          "OutputSingleTensor": tensor(wants["lh"]), "OutputCellSingleTensor": tensor(wants["lc"]),
          "ActivationDescs": [{"Type": "ACTIVATION_SIGMOID"}, {"Type": "ACTIVATION_TANH"},
                              {"Type": "ACTIVATION_TANH"}],
          "Direction": "DML_RECURRENT_NETWORK_DIRECTION_FORWARD", "ClipThreshold": 0.0,
          "UseClipThreshold": False, "CoupleInputForget": False},
         {"InputTensor": "LX", "WeightTensor": "LW", "RecurrenceTensor": "LR", "BiasTensor": "LB",
          "HiddenInitTensor": "LH", "CellMemInitTensor": "LC", "PeepholeTensor": "LP",
          "OutputSequenceTensor": outs["lseq"], "OutputSingleTensor": outs["lh"],
          "OutputCellSingleTensor": outs["lc"]},
         {outs[k]: (v, tol) for k, v in wants.items()})
    m.save()


def graphs():
    """A graph dispatchable (dmlcl's extension, docs/dispatch.md): several operator nodes
    joined by named values: a GEMM with its bias broadcast as C (stride 0) and a fused RELU,
    its weights OWNED_BY_DML (bound at initialization); a transpose (IDENTITY reading through
    permuted strides); SPLIT and JOIN (list bind points, a node of two outputs); a reader that
    reinterprets its writer's bytes (SOFTMAX1 over the GEMM's 8 values as one row); a
    MAX_POOLING2 without its optional OutputIndicesTensor; a second graph with inputs that feed
    no node (one bound, one not). Expected values from numpy."""
    m = Model("graphs")
    x = (np.arange(6, dtype=np.float32).reshape(1, 1, 2, 3) - 2) / 4
    w = (np.arange(12, dtype=np.float32).reshape(1, 1, 3, 4) - 5) / 8
    b = np.array([0.5, -0.25, 0, 1], dtype=np.float32)
    m.resource("X", x)
    m.resource("W", w)
    m.resource("B", b)
    h = np.maximum((x[0, 0].astype(np.float64) @ w[0, 0]) + b, 0).reshape(1, 1, 2, 4)
    ht = h.transpose(0, 1, 3, 2)  # {1,1,4,2}
    y = np.concatenate([ht[..., 1:], ht[..., :1]], axis=3)
    e = np.exp(h.reshape(-1) - h.max())
    z = (e / e.sum()).reshape(1, 1, 1, 8)
    p = np.array([[[[np.max(x[0, 0, :, 0:2]), np.max(x[0, 0, :, 1:3])]]]])
    f = {"DataType": "FLOAT32"}
    for name, a in (("Y", y), ("Z", z), ("P", p)):
        m.resource(name, count=a.size, dtype=np.float32)
    m.dispatchables["net"] = {
        "type": "graph",
        "inputs": ["x", "w", "b"],
        "outputs": ["y", "z", "p"],
        "nodes": {
            "mm": {"type": "DML_OPERATOR_GEMM",
                   "desc": {"ATensor": tensor(x), "BTensor": tensor(w, Flags="OWNED_BY_DML"),
                            "CTensor": dict(f, Sizes=[1, 1, 2, 4], Strides=[0, 0, 0, 1],
                                            Flags="OWNED_BY_DML"),
                            "OutputTensor": dict(f, Sizes=[1, 1, 2, 4]), "TransA": "NONE",
                            "TransB": "NONE", "Alpha": 1.0, "Beta": 1.0,
                            "FusedActivation": {"Type": "ACTIVATION_RELU"}},
                   "inputs": {"ATensor": "x", "BTensor": "w", "CTensor": "b"},
                   "outputs": {"OutputTensor": "h"}},
            "t": {"type": "ELEMENT_WISE_IDENTITY",
                  "desc": {"InputTensor": dict(f, Sizes=[1, 1, 4, 2], Strides=[8, 8, 1, 4]),
                           "OutputTensor": dict(f, Sizes=[1, 1, 4, 2])},
                  "inputs": {"InputTensor": "h"}, "outputs": {"OutputTensor": "ht"}},
            "split": {"type": "SPLIT",
                      "desc": {"InputTensor": dict(f, Sizes=[1, 1, 4, 2]),
                               "OutputTensors": [dict(f, Sizes=[1, 1, 4, 1])] * 2, "Axis": 3},
                      "inputs": {"InputTensor": "ht"},
                      "outputs": {"OutputTensors": ["s0", "s1"]}},
            "join": {"type": "JOIN",
                     "desc": {"InputTensors": [dict(f, Sizes=[1, 1, 4, 1])] * 2,
                              "OutputTensor": dict(f, Sizes=[1, 1, 4, 2]), "Axis": 3},
                     "inputs": {"InputTensors": ["s1", "s0"]}, "outputs": {"OutputTensor": "y"}},
            "softmax": {"type": "ACTIVATION_SOFTMAX1",
                        "desc": {"InputTensor": dict(f, Sizes=[1, 1, 1, 8]),
                                 "OutputTensor": dict(f, Sizes=[1, 1, 1, 8]), "Axes": [3]},
                        "inputs": {"InputTensor": "h"}, "outputs": {"OutputTensor": "z"}},
            "pool": {"type": "MAX_POOLING2",
                     "desc": {"InputTensor": tensor(x), "OutputTensor": dict(f, Sizes=[1, 1, 1, 2]),
                              "DimensionCount": 2, "Strides": [1, 1], "WindowSize": [2, 2],
                              "StartPadding": [0, 0], "EndPadding": [0, 0], "Dilations": [1, 1]},
                     "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "p"}},
        },
        "bindings": {"w": "W", "b": "B"}}
    m.commands.append({"type": "dispatch", "dispatchable": "net",
                       "bindings": {"x": "X", "y": "Y", "z": "Z", "p": "P"}})
    m.write("Y", y.astype(np.float32), {"ulp": 8})
    m.write("Z", z.astype(np.float32), {"ulp": 8})
    m.write("P", p.astype(np.float32), {"ulp": 0})
    # Graph inputs that feed no node (DirectMLX compiles such): one bound, one not.
    m.resource("N", count=x.size, dtype=np.float32)
    m.dispatchables["spare"] = {
        "type": "graph",
        "inputs": ["unused0", "x", "unused2"],
        "outputs": ["n"],
        "nodes": {
            "neg": {"type": "ELEMENT_WISE_NEGATE",
                    "desc": {"InputTensor": tensor(x), "OutputTensor": tensor(x)},
                    "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "n"}}}}
    m.commands.append({"type": "dispatch", "dispatchable": "spare",
                       "bindings": {"unused0": "W", "x": "X", "n": "N"}})
    m.write("N", -x, {"ulp": 0})
    m.save()


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    elementwise()
    math_ops()
    training()
    lrn_adam()
    activations_logic()
    gathers()
    scatters()
    generators()
    selection()
    regions()
    views()
    joins()
    features()
    reductions()
    pooling()
    resampling()
    gemm()
    convolutions()
    intmm()
    dxdispatch_forms()
    graphs()
