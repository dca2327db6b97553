# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/reduce.json (and four graph cases,
conformance/cases/graph/reduce.json): DirectML's reductions, DML_OPERATOR_REDUCE
(every DML_REDUCE_FUNCTION), DML_OPERATOR_ARGMIN and DML_OPERATOR_ARGMAX: the pages' examples,
every function on every type of its table over inner, outer, middle, several, all and no axes
(the 64-bit integers of feature levels 4.1 and 5.0 over inner, outer and both),
strided inputs and outputs, FLOAT16, long rows, ties in both directions, NaN, infinities,
integer wrapping, and one case per validation rule.

Expected values: numpy in float64 (exact Python integers for integer tensors), rounded once to
the output type, with the rules DirectML leaves open applied as docs/operators.md states them:
MAX and MIN ignore NaN and order -0 below +0; ARGMAX and ARGMIN never pick a NaN over a number,
take -0 equal to +0, ties to the first index (the last with DML_AXIS_DIRECTION_DECREASING), an
all-NaN row the first (last) index; an index counts row-major over the reduced axes in
dimension order; SUM, MULTIPLY, L1 and SUM_SQUARE of integers wrap; AxisCount 0 reduces each
element alone.
Float outputs carry a tolerance: reference/precision.md's N ULP (SUM, L1, MULTIPLY), N+1
(SUM_SQUARE), N+2 (AVERAGE, L2), or within the float32 accumulation's bound N 2^-24 sum|terms|
where a signed sum cancels; LOG_SUM and LOG_SUM_EXP within 1/1024; MIN, MAX, indices exact.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/reduce.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
NAN, INF = float("nan"), float("inf")
FUNCTIONS = ["ARGMAX", "ARGMIN", "AVERAGE", "L1", "L2", "LOG_SUM", "LOG_SUM_EXP", "MAX", "MIN",
             "MULTIPLY", "SUM", "SUM_SQUARE"]
EIGHT = ["FLOAT32", "FLOAT16", "INT32", "INT16", "INT8", "UINT32", "UINT16", "UINT8"]
TYPES = {f: ["FLOAT32", "FLOAT16"] for f in FUNCTIONS}
TYPES.update({"ARGMAX": EIGHT, "ARGMIN": EIGHT, "MAX": EIGHT, "MIN": EIGHT,
              "MULTIPLY": ["FLOAT32", "FLOAT16", "INT32", "UINT32"],
              "SUM": ["FLOAT32", "FLOAT16", "INT32", "UINT32"]})
INDEX_TYPES = ["UINT32", "INT32", "UINT64", "INT64"]
U = 2.0 ** -24  # float32's unit roundoff: the accumulation's


def is_float(t):
    return t.startswith("FLOAT")


def is_arg(f):
    return f in ("ARGMAX", "ARGMIN")


# ---- The oracle ------------------------------------------------------------------------------

def dml_max(a, b):
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    if a == b:
        return b if math.copysign(1, a) < 0 else a  # -0 below +0
    return a if a > b else b


def dml_min(a, b):
    if math.isnan(a):
        return b
    if math.isnan(b):
        return a
    if a == b:
        return a if math.copysign(1, a) < 0 else b
    return a if a < b else b


def arg(row, sign, last):
    best = None
    for i, x in enumerate(row):
        if math.isnan(x):
            continue
        if best is None or sign * x > sign * row[best] or (x == row[best] and last):
            best = i
    if best is None:
        best = len(row) - 1 if last else 0
    return best


def log_sum_exp(row):
    if any(math.isnan(x) for x in row):
        return NAN
    if INF in row:
        return INF
    finite = [x for x in row if x != -INF]
    if not finite:
        return -INF
    m = max(finite)
    return m + math.log(math.fsum(math.exp(x - m) for x in finite))


def wrap(t, v):
    info = np.iinfo(NUMPY_TYPES[t])
    span = int(info.max) - int(info.min) + 1
    return (int(v) - int(info.min)) % span + int(info.min)


def float_row(f, row):
    """f of the row in float64 (exact sums), and the float32 accumulation's absolute bound."""
    n = len(row)
    with np.errstate(all="ignore"):
        s = math.fsum(row) if all(math.isfinite(x) for x in row) else float(np.sum(row))
        sa = math.fsum(abs(x) for x in row) if all(math.isfinite(x) for x in row) else \
            float(np.sum(np.abs(row)))
        sq = math.fsum(x * x for x in row)
        if f == "AVERAGE":
            return s / n, (n + 2) * U * sa / n
        if f == "L1":
            return sa, n * U * sa
        if f == "L2":
            return math.sqrt(sq), (n + 2) * U * math.sqrt(sq)
        if f == "SUM_SQUARE":
            return sq, (n + 1) * U * sq
        if f == "SUM":
            return s, n * U * sa
        if f == "MULTIPLY":
            p = float(np.prod(np.array(row, dtype=np.float64)))
            return p, n * U * abs(p)
        if f == "LOG_SUM":
            v = math.log(s) if s > 0 else (-INF if s == 0 else NAN)
            return v, 1 / 1024 + (n * U * sa / abs(s) if s else 0)
        if f == "LOG_SUM_EXP":
            return log_sum_exp(row), 1 / 1024
    acc = NAN
    for x in row:
        acc = dml_max(acc, x) if f == "MAX" else dml_min(acc, x)
    return acc, 0.0


def int_row(f, t, row):
    if f == "SUM":
        return wrap(t, sum(row))
    if f == "L1":
        return wrap(t, sum(abs(v) for v in row))
    if f == "SUM_SQUARE":
        return wrap(t, sum(v * v for v in row))
    if f == "MULTIPLY":
        return wrap(t, math.prod(row))
    return max(row) if f == "MAX" else min(row)


def rows(x, axes):
    """x's rows: the reduced axes (in dimension order) moved last and flattened."""
    axes = sorted(axes)
    kept = [d for d in range(x.ndim) if d not in axes]
    y = np.transpose(x, kept + axes)
    kshape = [x.shape[d] for d in kept]
    n = int(np.prod([x.shape[d] for d in axes])) if axes else 1
    return y.reshape(kshape + [n]).reshape(-1, n), n


def reduce(f, t, x, axes, last=False, out_type=None):
    """The expected output (values, output type) and the case tolerance (or None)."""
    oshape = [1 if d in axes else s for d, s in enumerate(x.shape)]
    r, n = rows(x, axes)
    vals, bound = [], 0.0
    for row in r.tolist():
        if is_arg(f):
            vals.append(arg(row, 1 if f == "ARGMAX" else -1, last))
        elif is_float(t):
            v, b = float_row(f, row)
            vals.append(v)
            bound = max(bound, b)
        else:
            vals.append(int_row(f, t, [int(v) for v in row]))
    ot = out_type or ("UINT32" if is_arg(f) else t)
    with np.errstate(all="ignore"):
        out = np.array(vals, dtype=np.float64 if is_float(ot) else object)
        out = out.astype(NUMPY_TYPES[ot]).reshape(oshape)
    tol = None
    if is_float(ot) and f not in ("MAX", "MIN"):
        ulps = {"SUM": n, "L1": n, "MULTIPLY": n, "SUM_SQUARE": n + 1, "AVERAGE": n + 2,
                "L2": n + 2}.get(f)
        if t == "FLOAT16":  # plus the final rounding to float16
            bound += 2.0 ** -11 * float(np.nanmax(np.abs(out.astype(np.float64)), initial=0))
        tol = {"abs": bound if math.isfinite(bound) else 0.0}
        if ulps:
            tol["ulp"] = ulps
    return out, ot, tol


# ---- Cases ----------------------------------------------------------------------------------

def case(name, op, x, t, attrs, f, axes, last=False, out_type=None, strides=None, out_strides=None,
         source=None, note=None, data_t=None):
    x = np.asarray(x, dtype=NUMPY_TYPES[t])
    xin = tensor(t, x)
    if strides:
        xin["strides"] = strides
    out, ot, tol = reduce(f, t, x.astype(np.float64) if is_float(t) else x.astype(object), axes,
                          last, out_type)
    c = {"name": name, "source": source or "directml:DML_{}_OPERATOR_DESC#semantics".format(
        op), "op": "DML_OPERATOR_" + op, "attrs": attrs, "inputs": {"InputTensor": xin}}
    if out_strides:
        c["inputs"]["OutputTensor"] = {"type": ot, "shape": list(out.shape),
                                       "strides": out_strides}
    o = tensor(ot, out)
    if tol is not None:
        o["tolerance"] = tol
    elif is_float(ot) and "nan" in o["data"]:
        # An exact result, but NaN payloads survive only raw moves (reference/precision.md):
        # any NaN (an NVIDIA GPU's half conversions give 0x7fff).
        o["tolerance"] = {"ulp": 0}
    c["expected"] = {"outputs": {"OutputTensor": o}}
    if note:
        c["note"] = note
    return c


def reduce_case(name, f, t, x, axes, **kw):
    attrs = {"Function": "DML_REDUCE_FUNCTION_" + f, "Axes": list(axes)}
    return case(name, "REDUCE", x, t, attrs, f, axes, **kw)


def arg_case(name, f, t, x, axes, last=False, **kw):
    attrs = {"Axes": list(axes),
             "AxisDirection": "DML_AXIS_DIRECTION_" + ("DECREASING" if last else "INCREASING")}
    return case(name, f, x, t, attrs, f, axes, last=last, **kw)


def error_case(name, op, x_type, shape, attrs, out_type, out_shape, why, out_strides=None):
    xin = tensor(x_type, np.zeros(shape, dtype=NUMPY_TYPES[x_type]))
    out = {"type": out_type, "shape": out_shape}
    if out_strides:
        out["strides"] = out_strides
    return {"name": name, "source": "directml:DML_{}_OPERATOR_DESC#text".format(op),
            "op": "DML_OPERATOR_" + op, "attrs": attrs,
            "inputs": {"InputTensor": xin, "OutputTensor": out},
            "expected": {"error": "invalid_argument"}, "note": why}


def values(rng, f, t, shape):
    """Inputs suited to f on type t: float values exact in FLOAT16, integers of the type."""
    if is_float(t):
        if f == "MULTIPLY":
            v = rng.integers(12, 21, shape) / 16.0  # 0.75 .. 1.25: no overflow on long rows
            return v * rng.choice([-1.0, 1.0], shape)
        if f == "LOG_SUM":
            return rng.integers(1, 64, shape) / 16.0
        return rng.integers(-64, 65, shape) / 16.0
    info = np.iinfo(NUMPY_TYPES[t])
    if f == "MULTIPLY":
        lo, hi = (-3, 3) if info.min < 0 else (0, 3)
    elif is_arg(f):
        lo, hi = max(int(info.min), -5), min(int(info.max), 5)  # ties are common
    else:
        lo, hi = int(info.min), int(info.max)
    return rng.integers(lo, hi, shape, endpoint=True, dtype=np.int64)


AXIS_SETS = [("inner", [2]), ("outer", [0]), ("middle", [1]), ("outer-inner", [0, 2]),
             ("inner-two", [1, 2]), ("all", [0, 1, 2]), ("none", [])]


def generated(rng):
    cases = []
    shape = (3, 4, 5)
    small = (2, 3, 4)
    for f in FUNCTIONS:
        for t in TYPES[f]:
            x = values(rng, f, t, shape)
            for label, axes in AXIS_SETS:
                name = "directml.reduce.{}.{}.{}".format(f.lower(), t.lower(), label)
                cases.append(reduce_case(name, f, t, x, axes))
    # The ARGMIN and ARGMAX operators: every input type, every index type, both directions.
    for f in ("ARGMIN", "ARGMAX"):
        for i, t in enumerate(EIGHT):
            x = values(rng, f, t, small)
            for label, axes in AXIS_SETS:
                for last in (False, True):
                    name = "directml.{}.{}.{}.{}".format(f.lower(), t.lower(), label,
                                                         "last" if last else "first")
                    cases.append(arg_case(name, f, t, x, axes, last,
                                          out_type=INDEX_TYPES[(i + len(axes)) % 4]))
    return cases


# Feature levels 4.1 and 5.0 (the pages' newest tables): INT64 and UINT64 inputs to ARGMIN and
# ARGMAX, MIN, MAX, SUM and MULTIPLY; the 32- and 64-bit integers to L1 and SUM_SQUARE.
WIDE = {"ARGMAX": ["INT64", "UINT64"], "ARGMIN": ["INT64", "UINT64"], "MAX": ["INT64", "UINT64"],
        "MIN": ["INT64", "UINT64"], "SUM": ["INT64", "UINT64"], "MULTIPLY": ["INT64", "UINT64"],
        "L1": ["INT64", "INT32", "UINT64", "UINT32"],
        "SUM_SQUARE": ["INT64", "INT32", "UINT64", "UINT32"]}


def wide_values(rng, f, t, shape):
    """Integers of type t as Python ints: the whole range (sums and squares wrap), small ones for
    MULTIPLY and the arg picks (ties)."""
    info = np.iinfo(NUMPY_TYPES[t])
    lo, hi = int(info.min), int(info.max)
    if f == "MULTIPLY":
        lo, hi = (-3, 3) if lo < 0 else (0, 3)
    elif is_arg(f):
        lo, hi = max(lo, -5), min(hi, 5)
    n = int(np.prod(shape))
    v = [lo + (int(rng.integers(0, 2 ** 32)) << 32 | int(rng.integers(0, 2 ** 32))) %
         (hi - lo + 1) for _ in range(n)]
    # The extremes, and for the picks values past 2^53 (no double holds them apart).
    v[0], v[-1] = lo, hi
    if is_arg(f) and n > 2:
        big = hi - 1 if hi > 2 ** 60 else hi
        v[1] = big
        v[2] = big
    return np.array(v, dtype=NUMPY_TYPES[t]).reshape(shape)


def wide_types():
    rng = np.random.default_rng(20261203)  # of its own: the other cases keep their data
    cases = []
    shape = (3, 4, 5)
    for f, types in WIDE.items():
        for t in types:
            x = wide_values(rng, f, t, shape)
            for label, axes in (("inner", [2]), ("outer", [0]), ("outer-inner", [0, 2])):
                name = "directml.reduce.{}.{}.{}".format(f.lower(), t.lower(), label)
                cases.append(reduce_case(name, f, t, x, axes,
                                         out_type="INT64" if is_arg(f) else None))
                if is_arg(f):
                    for last in (False, True):
                        name = "directml.{}.{}.{}.{}".format(f.lower(), t.lower(), label,
                                                             "last" if last else "first")
                        cases.append(arg_case(name, f, t, x, axes, last, out_type="UINT64"))
    return cases


def strided(rng):
    """Inputs and outputs through strides: padded rows, a transposed layout, broadcast (0)."""
    cases = []
    x = rng.integers(-64, 65, (2, 3, 4)) / 16.0
    pad = [40, 12, 2]          # every row padded, every element a gap after it
    trans = [1, 8, 2]          # {2, 3, 4} laid out as {3, 4, 2} (the first dimension innermost)
    for f in FUNCTIONS:
        t = "FLOAT32"
        xf = values(rng, f, t, (2, 3, 4))
        cases.append(reduce_case("directml.reduce.{}.strided-padded".format(f.lower()), f, t, xf,
                                 [1], strides=pad, out_strides=[8, 0, 2]))
        cases.append(reduce_case("directml.reduce.{}.strided-transposed".format(f.lower()), f,
                                 "FLOAT16", xf, [0, 2], strides=trans))
    bx = np.broadcast_to(x[:, :1, :], (2, 3, 4))
    cases.append(reduce_case("directml.reduce.sum.broadcast-input", "SUM", "FLOAT32", bx, [1],
                             strides=[4, 0, 1]))
    cases.append(arg_case("directml.argmax.broadcast-input.last", "ARGMAX", "FLOAT32", bx, [1],
                          last=True, strides=[4, 0, 1], note="a broadcast row ties everywhere"))
    cases.append(arg_case("directml.argmin.strided-transposed", "ARGMIN", "INT8",
                          rng.integers(-3, 4, (2, 3, 4)), [0, 1], strides=trans,
                          out_type="INT64"))
    return cases


def shapes(rng):
    """Ranks 1 to 8, long rows (the tolerance grows with N), a reduced dimension of size 1."""
    cases = []
    for rank in range(1, 9):
        shape = tuple(int(s) for s in rng.integers(1, 4, rank))
        axes = sorted(int(a) for a in rng.choice(rank, int(rng.integers(1, rank + 1)),
                                                 replace=False))
        for f in ("SUM", "MAX", "ARGMAX", "L2"):
            x = values(rng, f, "FLOAT32", shape)
            cases.append(reduce_case("directml.reduce.{}.rank{}".format(f.lower(), rank), f,
                                     "FLOAT32", x, axes))
    for n in (1000, 4097):
        long_fs = ("SUM", "AVERAGE", "L2", "LOG_SUM_EXP", "MAX", "ARGMIN")
        for f in long_fs if n < 4000 else ("SUM",):
            for t in ("FLOAT32", "FLOAT16"):
                x = values(rng, f, t, (2, n))
                cases.append(reduce_case("directml.reduce.{}.{}.long{}".format(
                    f.lower(), t.lower(), n), f, t, x, [1]))
        x = rng.integers(0, 2**31, (n,), dtype=np.int64)
        cases.append(reduce_case("directml.reduce.sum.uint32.long{}".format(n), "SUM", "UINT32",
                                 x, [0], note="wraps modulo 2^32"))
    # Keeping Axes' order out of the index: {2, 0} counts as {0, 2}.
    x = rng.integers(-64, 65, (2, 3, 4)) / 16.0
    c = arg_case("directml.argmax.axes-unordered", "ARGMAX", "FLOAT32", x, [0, 2])
    c["attrs"]["Axes"] = [2, 0]
    c["note"] = "the index is row-major over the reduced axes in dimension order"
    cases.append(c)
    return cases


def special():
    """NaN, infinities, signed zeros, ties, integer wrapping."""
    cases = []
    nan_rows = np.array([[NAN, 1, NAN, 3], [NAN, NAN, NAN, NAN], [-0.0, 0.0, -1, -0.0],
                         [2, NAN, 2, -INF]])
    for f in ("MAX", "MIN"):
        for t in ("FLOAT32", "FLOAT16"):
            cases.append(reduce_case("directml.reduce.{}.{}.nan-zero".format(f.lower(),
                                                                            t.lower()),
                                     f, t, nan_rows, [1],
                                     note="NaN ignored (MAX's rule), all-NaN NaN, -0 below +0"))
    for f in ("ARGMAX", "ARGMIN"):
        for last in (False, True):
            cases.append(arg_case("directml.{}.nan-zero.{}".format(
                f.lower(), "last" if last else "first"), f, "FLOAT32", nan_rows, [1], last=last,
                note="NaN never wins; an all-NaN row: the first (last) index; -0 equals +0"))
        cases.append(reduce_case("directml.reduce.{}.nan-zero".format(f.lower()), f, "FLOAT16",
                                 nan_rows, [1]))
    inf_rows = np.array([[1, INF, 2], [-INF, -INF, -INF], [INF, -INF, 0], [NAN, 1, 2]])
    for f in ("SUM", "LOG_SUM_EXP", "MAX", "L1"):
        cases.append(reduce_case("directml.reduce.{}.inf-nan".format(f.lower()), f, "FLOAT32",
                                 inf_rows, [1]))
    cases.append(reduce_case("directml.reduce.log_sum.signs", "LOG_SUM", "FLOAT32",
                             np.array([[1, 2, 3], [-1, -2, 0], [1, -1, 0]]), [1],
                             note="log of a negative sum is NaN, of 0 -inf"))
    # Integers: SUM and MULTIPLY wrap.
    big = np.array([[2**31 - 1, 1, 5], [-2**31, -1, 0], [2**30, 2**30, 2**30]])
    cases.append(reduce_case("directml.reduce.sum.int32.wrap", "SUM", "INT32", big, [1]))
    cases.append(reduce_case("directml.reduce.multiply.int32.wrap", "MULTIPLY", "INT32",
                             np.array([[65536, 65536, 3], [-7, 2**20, 2**12], [1, 1, 1]]), [1]))
    cases.append(reduce_case("directml.reduce.multiply.uint32.wrap", "MULTIPLY", "UINT32",
                             np.array([[65536, 65536, 3], [7, 2**20, 2**12], [0, 9, 9]]), [1]))
    cases.append(reduce_case("directml.reduce.sum.uint32.wrap", "SUM", "UINT32",
                             np.array([[2**32 - 1, 2, 0], [2**31, 2**31, 7]]), [1]))
    # Extremes of the small integer types.
    for t in ("INT8", "UINT8", "INT16", "UINT16"):
        info = np.iinfo(NUMPY_TYPES[t])
        x = np.array([[info.min, info.max, 0], [info.max, info.max, info.min]])
        for f in ("MAX", "MIN", "ARGMAX", "ARGMIN"):
            cases.append(reduce_case("directml.reduce.{}.{}.extremes".format(f.lower(),
                                                                            t.lower()),
                                     f, t, x, [1]))
    return cases


def examples():
    """The pages' examples, as printed."""
    x = np.array([[1, 2, 3], [3, 0, 4], [2, 4, 2]])
    y = np.array([[1, 2, 3], [3, 0, 4], [2, 5, 2]])
    src = "directml:DML_{}_OPERATOR_DESC#example-{}"
    cases = []
    for i, axes in enumerate(([0], [1], [0, 1]), 1):
        c = reduce_case("directml.reduce.example-{}".format(i), "SUM", "FLOAT32", x, axes,
                        source=src.format("REDUCE", i))
        if i == 3:
            c["note"] = ("the page's comment lists the elements as {1, 2, 3, 3, 0, 4, 2, 5, 2} "
                         "but its input holds 4 where it says 5; the printed sum, 21, is the "
                         "input's")
        cases.append(c)
        for f in ("ARGMIN", "ARGMAX"):
            cases.append(arg_case("directml.{}.example-{}".format(f.lower(), i), f, "FLOAT32", y,
                                  axes, source=src.format(f, i)))
    cases.append(arg_case("directml.argmax.axis-direction-increasing", "ARGMAX", "FLOAT32",
                          np.array([3, 2, 1, 2, 3]), [0],
                          source="directml:DML_ARGMAX_OPERATOR_DESC#AxisDirection"))
    cases.append(arg_case("directml.argmax.axis-direction-decreasing", "ARGMAX", "FLOAT32",
                          np.array([3, 2, 1, 2, 3]), [0], last=True,
                          source="directml:DML_ARGMAX_OPERATOR_DESC#AxisDirection"))
    cases.append(arg_case("directml.argmin.axis-direction-increasing", "ARGMIN", "FLOAT32",
                          np.array([1, 2, 3, 2, 1]), [0],
                          source="directml:DML_ARGMIN_OPERATOR_DESC#AxisDirection"))
    cases.append(arg_case("directml.argmin.axis-direction-decreasing", "ARGMIN", "FLOAT32",
                          np.array([1, 2, 3, 2, 1]), [0], last=True,
                          source="directml:DML_ARGMIN_OPERATOR_DESC#AxisDirection"))
    assert cases[0]["expected"]["outputs"]["OutputTensor"]["data"] == [6, 6, 9]
    assert cases[2]["expected"]["outputs"]["OutputTensor"]["data"] == [1, 2, 1]
    assert cases[1]["expected"]["outputs"]["OutputTensor"]["data"] == [0, 1, 2]
    assert cases[-6]["expected"]["outputs"]["OutputTensor"]["data"] == [4]
    assert cases[-5]["expected"]["outputs"]["OutputTensor"]["data"] == [7]
    return cases


def validation():
    """One case per rule src/ops/reduce.c checks."""
    fn = {"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [1]}
    e = []
    s = [2, 3, 4]
    e.append(error_case("directml.reduce.error.function", "REDUCE", "FLOAT32", s,
                        {"Function": 12, "Axes": [1]}, "FLOAT32", [2, 1, 4],
                        "Function must be a DML_REDUCE_FUNCTION"))
    e.append(error_case("directml.argmax.error.axis-direction", "ARGMAX", "FLOAT32", s,
                        {"Axes": [1], "AxisDirection": 2}, "UINT32", [2, 1, 4],
                        "AxisDirection must be a DML_AXIS_DIRECTION"))
    e.append(error_case("directml.reduce.error.axis-range", "REDUCE", "FLOAT32", s,
                        {"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [3]}, "FLOAT32", s,
                        "an axis must be below the DimensionCount"))
    e.append(error_case("directml.argmin.error.axis-range", "ARGMIN", "FLOAT32", s,
                        {"Axes": [0, 5]}, "UINT32", [1, 3, 4],
                        "an axis must be below the DimensionCount"))
    e.append(error_case("directml.reduce.error.axis-repeated", "REDUCE", "FLOAT32", s,
                        {"Function": "DML_REDUCE_FUNCTION_MAX", "Axes": [1, 1]}, "FLOAT32",
                        [2, 1, 4], "each axis is reduced once"))
    e.append(error_case("directml.reduce.error.axis-count", "REDUCE", "FLOAT32", s,
                        {"Function": "DML_REDUCE_FUNCTION_MAX", "Axes": [0, 1, 2, 0]},
                        "FLOAT32", [1, 1, 1], "AxisCount at most the DimensionCount"))
    e.append(error_case("directml.reduce.error.reduced-size", "REDUCE", "FLOAT32", s, fn,
                        "FLOAT32", [2, 3, 4], "a reduced axis has size 1 in the output"))
    e.append(error_case("directml.reduce.error.kept-size", "REDUCE", "FLOAT32", s, fn,
                        "FLOAT32", [2, 1, 5], "a kept axis has the input's size"))
    e.append(error_case("directml.reduce.error.no-axes-size", "REDUCE", "FLOAT32", s,
                        {"Function": "DML_REDUCE_FUNCTION_SUM"}, "FLOAT32", [2, 1, 4],
                        "AxisCount 0 keeps every size"))
    e.append(error_case("directml.reduce.error.dimension-count", "REDUCE", "FLOAT32", s, fn,
                        "FLOAT32", [2, 4], "the output keeps the input's DimensionCount"))
    e.append(error_case("directml.reduce.error.output-type", "REDUCE", "FLOAT32", s, fn,
                        "FLOAT16", [2, 1, 4], "the output has the input's type"))
    e.append(error_case("directml.reduce.error.argmax-output-type", "REDUCE", "FLOAT32", s,
                        {"Function": "DML_REDUCE_FUNCTION_ARGMAX", "Axes": [1]}, "FLOAT32",
                        [2, 1, 4], "ARGMAX writes an index type"))
    e.append(error_case("directml.argmin.error.output-type", "ARGMIN", "INT8", s,
                        {"Axes": [1]}, "UINT16", [2, 1, 4],
                        "ARGMIN writes INT32, UINT32, INT64 or UINT64"))
    bad = {"AVERAGE": "INT64", "L1": "UINT8", "L2": "INT16", "LOG_SUM": "INT32",
           "LOG_SUM_EXP": "UINT32", "SUM_SQUARE": "INT8", "SUM": "INT16", "MULTIPLY": "UINT8",
           "MAX": "FLOAT64", "MIN": "FLOAT64", "ARGMAX": "FLOAT64", "ARGMIN": "FLOAT64"}
    for f, t in bad.items():
        e.append(error_case("directml.reduce.error.type.{}".format(f.lower()), "REDUCE", t, s,
                            {"Function": "DML_REDUCE_FUNCTION_" + f, "Axes": [1]},
                            "UINT32" if is_arg(f) else t, [2, 1, 4],
                            "{} is not in {}'s table".format(t, f)))
    e.append(error_case("directml.argmax.error.input-type", "ARGMAX", "FLOAT64", s, {"Axes": [1]},
                        "INT64", [2, 1, 4], "FLOAT64 is not in ARGMAX's table"))
    return e


def graph_cases(rng):
    """Reductions as graph nodes: after an ADD, after a SLICE (a view into the reduction's
    read), an index into an IDENTITY, a sum into an ADD. Sixteenths: every sum is exact."""
    a = rng.integers(-64, 65, (2, 3, 4)) / 16.0
    b = rng.integers(-64, 65, (2, 3, 4)) / 16.0
    f32 = "FLOAT32"
    src = "dmlcl:graph#"

    def t(x, typ=f32):
        return tensor(typ, x)

    def desc(shape, typ=f32):
        return {"type": typ, "shape": list(shape)}

    add_sum = {"name": "dmlcl.graph.reduce.add-then-sum", "source": src + "reduce-add-then-sum",
               "op": "DML_GRAPH", "graph": {"nodes": [
                   {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "a",
                                                                      "BTensor": "b"},
                    "outputs": {"OutputTensor": "s"}},
                   {"op": "DML_OPERATOR_REDUCE", "attrs": {"Function": "DML_REDUCE_FUNCTION_SUM",
                                                           "Axes": [0, 2]},
                    "inputs": {"InputTensor": "s"}, "outputs": {"OutputTensor": "y"}}],
                   "tensors": {"s": desc((2, 3, 4))}},
               "inputs": {"a": t(a), "b": t(b)},
               "expected": {"outputs": {"y": t((a + b).sum(axis=(0, 2), keepdims=True))}}}
    sl = a[:, 1:3, ::2]
    slice_max = {"name": "dmlcl.graph.reduce.slice-then-max", "source": src + "reduce-slice",
                 "op": "DML_GRAPH", "graph": {"nodes": [
                     {"op": "DML_OPERATOR_SLICE", "attrs": {"Offsets": [0, 1, 0],
                                                            "Sizes": [2, 2, 2],
                                                            "Strides": [1, 1, 2]},
                      "inputs": {"InputTensor": "a"}, "outputs": {"OutputTensor": "v"}},
                     {"op": "DML_OPERATOR_REDUCE",
                      "attrs": {"Function": "DML_REDUCE_FUNCTION_MAX", "Axes": [1]},
                      "inputs": {"InputTensor": "v"}, "outputs": {"OutputTensor": "y"}}],
                     "tensors": {"v": desc((2, 2, 2))}},
                 "inputs": {"a": t(a)},
                 "expected": {"outputs": {"y": t(sl.max(axis=1, keepdims=True))}}}
    idx = np.argmax(a.reshape(2, 12), axis=1).reshape(2, 1, 1)
    arg_id = {"name": "dmlcl.graph.reduce.argmax-then-identity", "source": src + "reduce-argmax",
              "op": "DML_GRAPH", "graph": {"nodes": [
                  {"op": "DML_OPERATOR_ARGMAX", "attrs": {"Axes": [1, 2]},
                   "inputs": {"InputTensor": "a"}, "outputs": {"OutputTensor": "i"}},
                  {"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "i"},
                   "outputs": {"OutputTensor": "y"}}],
                  "tensors": {"i": desc((2, 1, 1), "UINT32")}},
              "inputs": {"a": t(a)},
              "expected": {"outputs": {"y": t(idx, "UINT32"), "i": t(idx, "UINT32")}},
              "note": "the index is both a graph output and the identity's input"}
    s1 = a.sum(axis=2, keepdims=True)
    sum_add = {"name": "dmlcl.graph.reduce.sum-then-add", "source": src + "reduce-sum-add",
               "op": "DML_GRAPH", "graph": {"nodes": [
                   {"op": "DML_OPERATOR_REDUCE", "attrs": {"Function": "DML_REDUCE_FUNCTION_SUM",
                                                           "Axes": [2]},
                    "inputs": {"InputTensor": "a"}, "outputs": {"OutputTensor": "s"}},
                   {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "s",
                                                                      "BTensor": "s"},
                    "outputs": {"OutputTensor": "y"}}],
                   "tensors": {"s": desc((2, 3, 1))}},
               "inputs": {"a": t(a)},
               "expected": {"outputs": {"y": t(s1 + s1)}}}
    return [add_sum, slice_max, arg_id, sum_add]


def main():
    rng = np.random.default_rng(20261128)
    cases = (examples() + generated(rng) + strided(rng) + shapes(rng) + special() + validation() +
             wide_types())
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "directml", "reduce.json"), cases)
    graphs = graph_cases(rng)
    write(os.path.join(CASES, "graph", "reduce.json"), graphs)
    print("{} cases, {} graph cases".format(len(cases), len(graphs)))


if __name__ == "__main__":
    main()
