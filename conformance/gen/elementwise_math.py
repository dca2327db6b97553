# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/elementwise_math.json: DirectML's further element-wise
arithmetic (ACOS, ACOSH, ASIN, ASINH, ATAN, ATANH, ATAN_YX, CLIP, CLIP1, CONSTANT_POW, COS,
COSH, ERF, MODULUS_FLOOR, MODULUS_TRUNCATE, POW, ROUND, SIGN, SIN, SINH, TAN, TANH, THRESHOLD)
on every type each operator takes, with special values, ScaleBias, every rounding mode, the
modulus and power rules, and one case per validation rule.

Expected values: numpy and Python's math in float64 (exact integers for integer tensors),
rounded once to the tensor's type, with the rules DirectML leaves open applied as
docs/operators.md states them: CLIP and THRESHOLD order -0 below +0, ignore a NaN bound and
keep a NaN input, a FLOAT bound on an integer tensor is truncated toward zero, saturated, NaN
0; SIGN of +-0 and NaN is 0; integer x mod 0 is x; floats as numpy.fmod and numpy.mod; integer
POW exact and wrapped, a negative exponent 1 / x^-e truncated (0 ^ negative: every bit set);
an integer POW by a float exponent computed in float32 then truncated and saturated. Float
outputs compare within the runner's per-operator tolerance (conformance/ops_math.c).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/elementwise_math.py
"""
import math
import os
import sys
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
SRC = "directml:DML_ELEMENT_WISE_{}_OPERATOR_DESC#"
TEN = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16",
       "UINT8"]
EIGHT = ["FLOAT32", "FLOAT16", "INT32", "INT16", "INT8", "UINT32", "UINT16", "UINT8"]
NAN, INF = float("nan"), float("inf")

# Unary float functions: f in float64 and inputs that exercise the domain and its edges.
FUNCS = {
    "ACOS": (np.arccos, [-1.0, -0.5, 0.0, -0.0, 0.25, 0.75, 1.0, 1.5, -2.0, NAN, INF, 0.1]),
    "ACOSH": (np.arccosh, [1.0, 1.5, 2.0, 10.0, 100.0, 0.5, -1.0, INF, NAN, 3.25, 1.125, 7.0]),
    "ASIN": (np.arcsin, [-1.0, -0.5, 0.0, -0.0, 0.25, 0.75, 1.0, 1.5, -2.0, NAN, -INF, 0.1]),
    "ASINH": (np.arcsinh, [-3.0, -0.5, 0.0, -0.0, 0.25, 2.0, 100.0, INF, -INF, NAN, 1e-3, 7.5]),
    "ATAN": (np.arctan, [-3.0, -0.5, 0.0, -0.0, 0.25, 2.0, 100.0, INF, -INF, NAN, 1e-3, 7.5]),
    "ATANH": (np.arctanh, [-1.0, -0.5, 0.0, -0.0, 0.25, 0.75, 1.0, 1.5, -2.0, NAN, 0.9, 0.1]),
    "COS": (np.cos, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -100.0, INF, NAN, 1.5, 6.25, 0.1]),
    "COSH": (np.cosh, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -9.0, INF, -INF, NAN, 1.5, 0.1]),
    "ERF": (None, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -9.0, INF, -INF, NAN, 1.5, 0.1]),
    "SIN": (np.sin, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -100.0, INF, NAN, 1.5, 6.25, 0.1]),
    "SINH": (np.sinh, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -9.0, INF, -INF, NAN, 1.5, 0.1]),
    "TAN": (np.tan, [0.0, -0.0, 0.5, -1.0, 1.25, -1.5, 3.0, INF, NAN, 0.75, 6.0, 0.1]),
    "TANH": (np.tanh, [0.0, -0.0, 0.5, -1.0, 3.0, 10.0, -9.0, INF, -INF, NAN, 1.5, 0.1]),
}


EXACT = {"CLIP", "CLIP1", "THRESHOLD", "ROUND", "SIGN", "MODULUS_TRUNCATE"}


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None):
    c = {"name": name, "source": SRC.format(op) + ("text" if error else "semantics"),
         "op": "DML_OPERATOR_ELEMENT_WISE_" + op}
    if attrs is not None:
        c["attrs"] = attrs
    c["inputs"] = inputs
    if outputs and op in EXACT:
        for out in outputs.values():
            if "nan" in out["data"]:
                # An exact result, but NaN payloads survive only raw moves
                # (reference/precision.md): any NaN, and -0 is +0 here (0 ulp apart).
                out["tolerance"] = {"ulp": 0}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def is_float(t):
    return t.startswith("FLOAT")


def in_type(t, v):
    """v as a value of type t (floats rounded to it), as a Python number."""
    with np.errstate(all="ignore"):
        return float(NUMPY_TYPES[t](v)) if is_float(t) else int(v)


def out_float(t, v):
    """A float64 result rounded once to type t."""
    with np.errstate(all="ignore"):
        return NUMPY_TYPES[t](np.float64(v))


def round_f32(x):
    """The float32 nearest the exact rational x, ties to even."""
    f = np.float32(float(x))
    best = None
    for c in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))):
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - x)
        if best is None or d < best[0] or (d == best[0] and int(c.view(np.uint32)) % 2 == 0):
            best = (d, c)
    return float(best[1])


def scale_bias(x, sb):
    """g(x) = x * Scale + Bias in FLOAT32, rounded once."""
    if not math.isfinite(x):
        return float(np.float32(np.float32(x) * np.float32(sb[0]) + np.float32(sb[1])))
    return round_f32(Fraction(x) * Fraction(sb[0]) + Fraction(sb[1]))


def wrap(t, v):
    info = np.iinfo(NUMPY_TYPES[t])
    span = int(info.max) - int(info.min) + 1
    return (int(v) - int(info.min)) % span + int(info.min)


def saturate(t, v):
    """A float to integer type t: truncated toward zero, saturated, NaN 0."""
    info = np.iinfo(NUMPY_TYPES[t])
    if v != v:
        return 0
    if v == INF or v >= int(info.max):
        return int(info.max)
    if v == -INF or v <= int(info.min):
        return int(info.min)
    return int(math.trunc(v))


def above(a, b):
    return a > b or (a == b and not math.copysign(1, a) < 0 and math.copysign(1, b) < 0)


def dml_max(a, b):
    return b if a != a else a if b != b else b if above(b, a) else a


def dml_min(a, b):
    return b if a != a else a if b != b else b if above(a, b) else a


def clip(x, lo, hi):
    return x if x != x else dml_max(lo, dml_min(x, hi))


def values(t, n, salt):
    if is_float(t):
        base = [1.5, -2.25, 0.0, -0.0, 3.0, 7.75, -0.5, 1e3, INF, -INF, NAN,
                65000.0 if t == "FLOAT16" else 1e30, 0.1, -3.5, 2.0, 1.0]
    else:
        info = np.iinfo(NUMPY_TYPES[t])
        base = [0, 1, 2, 3, 7, int(info.max), int(info.min), int(info.max) - 1, 5, 11, 100, 6, 9,
                4, 13, 8]
        if int(info.min) < 0:
            base += [-1, -7, -3, int(info.min) + 1]
    return [in_type(t, base[(i * 7 + salt) % len(base)]) for i in range(n)]


def io(t, shape, a, out, names=("InputTensor",), b=None, bt=None):
    inputs = {names[0]: tensor(t, np.array(a, dtype=object).reshape(shape))}
    if b is not None:
        inputs[names[1]] = tensor(bt or t, np.array(b, dtype=object).reshape(shape))
    return inputs, {"OutputTensor": tensor(t, np.array(out, dtype=object).reshape(shape))}


def refused(op, t, names=("InputTensor",), note=None):
    inputs = {n: tensor(t, [[1, 2]]) for n in names}
    return case(f"directml.element_wise_{op.lower()}.invalid-type", op, inputs,
                error="invalid_argument",
                note=note or f"{t} is in none of the operator's feature-level tables")


# ---- Unary float functions -------------------------------------------------------------------

def func_value(op, x):
    f = FUNCS[op][0]
    if op == "ERF":
        return math.erf(x)
    with np.errstate(all="ignore"):
        return float(f(np.float64(x)))


def func_cases():
    got = []
    for op in FUNCS:
        name = "directml.element_wise_" + op.lower()
        for t in ["FLOAT32", "FLOAT16"]:
            a = [in_type(t, v) for v in FUNCS[op][1]]
            ins, outs = io(t, [3, 4], a, [out_float(t, func_value(op, x)) for x in a])
            got.append(case(f"{name}.{t.lower()}", op, ins, outs))
        sb = (0.5, -0.25)
        a = [in_type("FLOAT32", v) for v in FUNCS[op][1][:8]]
        exp = [out_float("FLOAT32", func_value(op, scale_bias(x, sb))) for x in a]
        ins, outs = io("FLOAT32", [2, 4], a, exp)
        got.append(case(f"{name}.scale-bias", op, ins, outs,
                        attrs={"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}},
                        note="f(x * Scale + Bias), the ScaleBias in FLOAT32"))
        got.append(refused(op, "INT32"))
    # ATAN_YX: atan2(A, B) with the signed zeros and infinities of C99's table.
    y = [0.0, -0.0, 0.0, -0.0, 1.0, -1.0, 1.0, -1.0, INF, -INF, NAN, 3.0]
    x = [0.0, 0.0, -0.0, -0.0, 0.0, -0.0, -INF, INF, INF, -INF, 1.0, -4.0]
    for t in ["FLOAT32", "FLOAT16"]:
        a = [in_type(t, v) for v in y]
        b = [in_type(t, v) for v in x]
        ins, outs = io(t, [3, 4], a, [out_float(t, math.atan2(p, q)) for p, q in zip(a, b)],
                       names=("ATensor", "BTensor"), b=b)
        got.append(case(f"directml.element_wise_atan_yx.{t.lower()}", "ATAN_YX", ins, outs,
                        note="atan2(ATensor, BTensor): ATensor the y axis"))
    got.append(refused("ATAN_YX", "UINT8", ("ATensor", "BTensor")))
    got.append(case("directml.element_wise_atan_yx.invalid-types-differ", "ATAN_YX",
                    {"ATensor": tensor("FLOAT32", [[1.0, 2.0]]),
                     "BTensor": tensor("FLOAT16", [[1.0, 2.0]])},
                    error="invalid_argument", note="ATensor and BTensor have one DataType"))
    return got


# ---- CLIP, CLIP1, THRESHOLD ----------------------------------------------------------------

def bound(t, v):
    """A FLOAT bound in type t: float32 first (the descriptor's FLOAT), then the type's rule."""
    v = float(np.float32(v))
    return v if is_float(t) else saturate(t, v)


def clip_cases():
    got = []
    for t in TEN:
        a = values(t, 12, 3)
        lo, hi = (-2.5, 100.75) if is_float(t) else (-3.9, 100.5)
        exp = [clip(x, bound(t, lo), bound(t, hi)) for x in a]
        exp = [out_float(t, v) if is_float(t) else v for v in exp]
        ins, outs = io(t, [3, 4], a, exp)
        got.append(case(f"directml.element_wise_clip.{t.lower()}", "CLIP", ins, outs,
                        attrs={"Min": lo, "Max": hi},
                        note=None if is_float(t) else
                        "FLOAT bounds truncated toward zero for an integer tensor"))
        # CLIP1: the bounds in the tensor's own type.
        if is_float(t):
            lo1, hi1 = -0.5, 2.0
        else:
            info = np.iinfo(NUMPY_TYPES[t])
            lo1, hi1 = (int(info.min) + 5 if int(info.min) < 0 else 2), int(info.max) - 3
        exp = [clip(x, lo1, hi1) for x in a]
        exp = [out_float(t, v) if is_float(t) else v for v in exp]
        ins, outs = io(t, [3, 4], a, exp)
        got.append(case(f"directml.element_wise_clip1.{t.lower()}", "CLIP1", ins, outs,
                        attrs={"MinMaxDataType": t,
                               "Min": lo1 if abs(lo1) <= 2**53 else str(lo1),
                               "Max": hi1 if abs(hi1) <= 2**53 else str(hi1)}))
    t = "FLOAT32"
    a = [-0.0, -0.0, 0.0, 5.0, -5.0, 1.0, INF, -INF]
    for lo, hi, what in [(0.0, 2.0, "zeros"), (-1.0, -0.0, "zeros-max"), (3.0, -3.0, "crossed"),
                         ("nan", 2.0, "nan-bound")]:
        flo = NAN if lo == "nan" else lo
        exp = [out_float(t, clip(x, flo, hi)) for x in a]
        ins, outs = io(t, [2, 4], a, exp)
        got.append(case(f"directml.element_wise_clip.{what}", "CLIP", ins, outs,
                        attrs={"Min": lo, "Max": hi},
                        note="max(Min, min(x, Max)) with MAX's and MIN's order (-0 below +0, "
                             "a NaN bound ignored); a NaN input stays NaN"))
    sb = (-2.0, 1.0)
    a = values(t, 8, 5)
    exp = [out_float(t, clip(scale_bias(x, sb), -3.0, 4.0)) for x in a]
    ins, outs = io(t, [2, 4], a, exp)
    got.append(case("directml.element_wise_clip.scale-bias", "CLIP", ins, outs,
                    attrs={"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}, "Min": -3.0, "Max": 4.0}))
    got.append(case("directml.element_wise_clip.int8-saturated-nan", "CLIP",
                    *io("INT8", [1, 4], [-128, -3, 3, 127], [-128, -3, 0, 0]),
                    attrs={"Min": -1000.0, "Max": "nan"},
                    note="Min -1000 saturates to -128; a NaN Max converts to 0"))
    got.append(refused("CLIP", "FLOAT64"))
    got.append(case("directml.element_wise_clip1.invalid-minmax-type", "CLIP1",
                    {"InputTensor": tensor("INT16", [[1, 2]])}, error="invalid_argument",
                    attrs={"MinMaxDataType": "INT32", "Min": 0, "Max": 1},
                    note="MinMaxDataType must be OutputTensor.DataType"))
    # THRESHOLD: max(x, Min).
    for t in EIGHT:
        a = values(t, 12, 6)
        mn = 1.5 if is_float(t) else 5.75
        exp = [clip(x, bound(t, mn), x) for x in a]
        exp = [out_float(t, v) if is_float(t) else v for v in exp]
        got.append(case(f"directml.element_wise_threshold.{t.lower()}", "THRESHOLD",
                        *io(t, [3, 4], a, exp), attrs={"Min": mn}))
    got.append(case("directml.element_wise_threshold.zeros", "THRESHOLD",
                    *io("FLOAT32", [1, 4], [-0.0, 0.0, -1.0, 2.0], [0.0, 0.0, 0.0, 2.0]),
                    attrs={"Min": 0.0}, note="max(-0, +0) is +0"))
    got.append(case("directml.element_wise_threshold.nan", "THRESHOLD",
                    *io("FLOAT32", [1, 4], [NAN, -NAN, -1.0, 2.0], [NAN, NAN, 0.0, 2.0]),
                    attrs={"Min": 0.0}, note="a NaN input stays NaN"))
    got.append(case("directml.element_wise_clip.nan", "CLIP",
                    *io("FLOAT16", [1, 4], [NAN, 3.0, -3.0, 1.0], [NAN, 2.0, -2.0, 1.0]),
                    attrs={"Min": -2.0, "Max": 2.0}, note="a NaN input stays NaN"))
    sb = (0.5, -1.0)
    a = values("FLOAT16", 8, 2)
    exp = [out_float("FLOAT16", clip(scale_bias(x, sb), -0.75, scale_bias(x, sb))) for x in a]
    got.append(case("directml.element_wise_threshold.scale-bias-float16", "THRESHOLD",
                    *io("FLOAT16", [2, 4], a, exp),
                    attrs={"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}, "Min": -0.75}))
    got.append(refused("THRESHOLD", "INT64"))
    return got


# ---- CONSTANT_POW, POW -----------------------------------------------------------------------

def int_pow(a, e, signed):
    if e < 0:
        if a == 1:
            return 1
        if a == 0:
            return -1  # every bit set
        if signed and a == -1:
            return -1 if e % 2 else 1
        return 0
    return pow(a, e, 2**64)


def fpow(a, e):
    """C99's pow, but a negative base with a non-integral exponent is NaN as the pages say,
    -inf too (C99 gives pow(-inf, 0.5) = +inf; numpy's power NaN, as here)."""
    if a == -INF and not (math.isnan(e) or math.isinf(e) or float(e).is_integer()):
        return NAN
    odd = math.isfinite(e) and float(e).is_integer() and int(e) % 2 == 1
    if a == 0 and e < 0:  # Python raises; C99: an infinity
        return math.copysign(INF, a) if odd else INF
    try:
        return math.pow(a, e)
    except ValueError:
        return NAN
    except OverflowError:
        return -INF if a < 0 and odd else INF


def pow_cases():
    got = []
    for t, e in [("FLOAT32", 2.0), ("FLOAT32", 0.5), ("FLOAT32", -1.0), ("FLOAT32", 3.0),
                 ("FLOAT16", 2.0), ("FLOAT16", -0.5)]:
        a = values(t, 12, 2)
        exp = [out_float(t, fpow(x, e)) for x in a]
        got.append(case(f"directml.element_wise_constant_pow.{t.lower()}-{e:g}", "CONSTANT_POW",
                        *io(t, [3, 4], a, exp), attrs={"Exponent": e},
                        note="negative bases with integral exponents; NaN otherwise"))
    sb = (2.0, -1.0)
    a = values("FLOAT32", 8, 1)
    exp = [out_float("FLOAT32", fpow(scale_bias(x, sb), 2.0)) for x in a]
    got.append(case("directml.element_wise_constant_pow.scale-bias", "CONSTANT_POW",
                    *io("FLOAT32", [2, 4], a, exp),
                    attrs={"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}, "Exponent": 2.0}))
    got.append(refused("CONSTANT_POW", "INT32"))
    names = ("InputTensor", "ExponentTensor")
    for t in EIGHT:
        if is_float(t):
            a = [2.0, -2.0, 0.5, 0.0, -0.0, 3.0, -8.0, 1.0, INF, NAN, 10.0, 4.0]
            e = [3.0, 3.0, -1.0, -1.0, 3.0, 0.5, 1 / 3, NAN, -1.0, 0.0, 4.0, 0.5]
            a = [in_type(t, v) for v in a]
            e = [in_type(t, v) for v in e]
            exp = [out_float(t, fpow(x, y)) for x, y in zip(a, e)]
        else:
            signed = int(np.iinfo(NUMPY_TYPES[t]).min) < 0
            a = values(t, 12, 4)
            e = [3, 2, 0, 1, 5, 7, 31, 2, 0, 3, 1, 4]
            if signed:
                a[:4] = [2, -1, 0, 3]
                e[:4] = [-1, -3, -2, 40]
            exp = [wrap(t, int_pow(x, y, signed)) for x, y in zip(a, e)]
        got.append(case(f"directml.element_wise_pow.{t.lower()}", "POW",
                        *io(t, [3, 4], a, exp, names=names, b=e),
                        note=None if is_float(t) else
                        "exact, wrapped; a negative exponent gives 1 / x^-e truncated"))
    # Mixed types (feature level 3.0): an integer base with a float exponent computes in
    # float32, then truncates and saturates; a float base with an integer exponent.
    a = [10, 2, -8, 100, -100, 4]
    e = [1.5, -1.0, 1 / 3, 10.0, 11.0, 0.5]
    exp = [saturate("INT32", float(np.float32(fpow(x, float(np.float32(y)))))) for x, y in zip(a, e)]
    got.append(case("directml.element_wise_pow.int32-by-float32", "POW",
                    *io("INT32", [2, 3], a, exp, names=names, b=e, bt="FLOAT32"),
                    note="computed in float32, truncated toward zero, saturated, NaN 0"))
    a = [-2.0, 2.0, -8.0, 0.0]
    e = [3, -2, 0, -1]
    got.append(case("directml.element_wise_pow.float32-by-int8", "POW",
                    *io("FLOAT32", [1, 4], a, [out_float("FLOAT32", fpow(x, y))
                                                for x, y in zip(a, e)],
                        names=names, b=e, bt="INT8")))
    a = [0, 2, 255, 2]
    e = [-1, -1, 2, 9]
    got.append(case("directml.element_wise_pow.uint8-by-int8", "POW",
                    *io("UINT8", [1, 4], a, [wrap("UINT8", int_pow(x, y, False))
                                              for x, y in zip(a, e)],
                        names=names, b=e, bt="INT8"),
                    note="0 ^ -1 is every bit set (DIVIDE's 1 / 0); 2 ^ 9 wraps to 0"))
    got.append(case("directml.element_wise_pow.invalid-exponent-type", "POW",
                    {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]]),
                     "ExponentTensor": tensor("INT64", [[1, 2]])}, error="invalid_argument",
                    note="ExponentTensor.DataType is one of the operator's table"))
    got.append(refused("POW", "INT64", names))
    return got


# ---- MODULUS_FLOOR, MODULUS_TRUNCATE -----------------------------------------------------------

def int_mod(op, a, b):
    if b == 0:
        return a
    q = abs(a) // abs(b)
    r = a - b * (q if (a < 0) == (b < 0) else -q)
    if op == "MODULUS_FLOOR" and r != 0 and (r < 0) != (b < 0):
        r += b
    return r


def float_mod(op, a, b):
    with np.errstate(all="ignore"):
        f = np.fmod if op == "MODULUS_TRUNCATE" else np.mod
        return float(f(np.float64(a), np.float64(b)))


def mod_cases():
    got = []
    for op in ["MODULUS_FLOOR", "MODULUS_TRUNCATE"]:
        name = "directml.element_wise_" + op.lower()
        for t in TEN:
            if is_float(t):
                a = [5.5, -5.5, 5.5, -5.5, 1.0, -5.0, 5.0, -0.0, -6.0, 6.0, 0.0, 7.25]
                b = [2.0, 2.0, -2.0, -2.0, 0.75, INF, -INF, 3.0, 3.0, -3.0, -1.0, 0.5]
                a = [in_type(t, v) for v in a]
                b = [in_type(t, v) for v in b]
                exp = [out_float(t, float_mod(op, x, y)) for x, y in zip(a, b)]
            else:
                info = np.iinfo(NUMPY_TYPES[t])
                a = values(t, 12, 1)
                b = values(t, 12, 6)
                b[0] = 0
                if int(info.min) < 0:
                    a[1:5] = [7, -7, -7, int(info.min)]
                    b[1:5] = [-3, 3, -3, -1]
                exp = [int_mod(op, x, y) for x, y in zip(a, b)]
            got.append(case(f"{name}.{t.lower()}", op,
                            *io(t, [3, 4], a, exp, names=("ATensor", "BTensor"), b=b),
                            note="floats: NaN for a zero divisor" if is_float(t) else
                            "x mod 0 is x; the most negative value mod -1 is 0"))
        a = [1.0, -0.0, NAN, INF, 5.0, -INF]
        b = [0.0, 0.0, 2.0, 2.0, NAN, -1.0]
        got.append(case(f"{name}.nan", op,
                        *io("FLOAT32", [2, 3], a, [out_float("FLOAT32", float_mod(op, x, y))
                                                   for x, y in zip(a, b)],
                            names=("ATensor", "BTensor"), b=b),
                        note="NaN for a zero divisor, an infinite dividend or a NaN"))
        got.append(refused(op, "FLOAT64", ("ATensor", "BTensor")))
    return got


# ---- ROUND, SIGN ----------------------------------------------------------------------------

MODES = ["DML_ROUNDING_MODE_HALVES_TO_NEAREST_EVEN", "DML_ROUNDING_MODE_TOWARD_ZERO",
         "DML_ROUNDING_MODE_TOWARD_INFINITY"]


def round_by(mode, x):
    if not math.isfinite(x):
        return x
    if mode == 0:
        r = float(np.rint(x))
    elif mode == 1:
        r = float(math.trunc(x))
    else:
        r = float(math.floor(abs(x) + 0.5))
        r = math.copysign(r, x)
    return math.copysign(r, x) if r == 0 else r


def round_sign_cases():
    got = []
    xs = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4, -2.6, -0.0, INF, -0.25, 8388609.0]
    for t in ["FLOAT32", "FLOAT16"]:
        a = [in_type(t, v) for v in xs]
        for m, mode in enumerate(MODES):
            exp = [out_float(t, round_by(m, x)) for x in a]
            got.append(case(f"directml.element_wise_round.{t.lower()}-{m}", "ROUND",
                            *io(t, [3, 4], a, exp), attrs={"RoundingMode": mode}))
    got.append(case("directml.element_wise_round.nan", "ROUND",
                    *io("FLOAT16", [1, 3], [NAN, -INF, 0.5], [NAN, -INF, 0.0]),
                    attrs={"RoundingMode": MODES[0]}))
    got.append(case("directml.element_wise_round.invalid-mode", "ROUND",
                    {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]])}, error="invalid_argument",
                    attrs={"RoundingMode": 3}, note="RoundingMode is a DML_ROUNDING_MODE"))
    got.append(refused("ROUND", "INT32"))
    for t in TEN:
        if is_float(t):
            a = [in_type(t, v) for v in [-3.0, -0.0, 0.0, NAN, INF, -INF, 1e-3, -7.5]]
            exp = [out_float(t, 1.0 if x > 0 else -1.0 if x < 0 else 0.0) for x in a]
        else:
            a = values(t, 8, 2)
            exp = [1 if x > 0 else -1 if x < 0 else 0 for x in a]
        got.append(case(f"directml.element_wise_sign.{t.lower()}", "SIGN", *io(t, [2, 4], a, exp),
                        note="-1, 1, and 0 otherwise (+-0 and NaN)" if is_float(t) else None))
    got.append(refused("SIGN", "FLOAT64"))
    return got


def main():
    cases = func_cases() + clip_cases() + pow_cases() + mod_cases() + round_sign_cases()
    write(os.path.join(CASES, "directml", "elementwise_math.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
