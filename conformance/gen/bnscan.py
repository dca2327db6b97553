# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/batch_norm.json, lrn.json, cumulative.json and top_k.json:
DirectML's BATCH_NORMALIZATION (inference), LOCAL_RESPONSE_NORMALIZATION, CUMULATIVE_SUMMATION,
CUMULATIVE_PRODUCT, TOP_K and TOP_K1. DirectML's documentation examples verbatim (the scans' four each, TOP_K's three and
TOP_K1's four), generated cases over every type each operator takes, and one case per
validation rule.

Expected values, computed here in float64 / Python integers, never by dmlcl:
- BATCH_NORMALIZATION: Scale * (Input - Mean) / sqrt(Variance + Epsilon) + Bias in float64
  (Epsilon the descriptor's FLOAT32 value), rounded once to the type; with a fused activation
  the result is rounded to FLOAT32 first and the activation applied in float64 (ADD1's rule).
- LOCAL_RESPONSE_NORMALIZATION: x / (Bias + Alpha / LocalSize * s)^Beta in float64, s the squares
  over ONNX's window (i - floor((n - 1) / 2) to i + ceil((n - 1) / 2), clipped) across channels
  or n x n within one (docs/operators.md); the page has no example.
- Scans: the running sum (product) along the axis in float64, rounded once; integers exact,
  wrapped into the type (docs/operators.md). Float data are small integers or halves, so that
  the sums are exact and any order of a float32 scan gives them; one case of fractions carries
  an absolute tolerance (a float32 scan's error bound).
- TOP_K: each sequence sorted by value (descending for the largest, ascending for the
  smallest), equal values by ascending index; NaN above every number; -0 equal to +0
  (docs/operators.md). Values bit-exact, indices exact.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/bnscan.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases", "directml")
SCAN_TYPES = ["FLOAT32", "FLOAT16", "INT64", "INT32", "UINT64", "UINT32"]
TOPK_TYPES = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32",
              "UINT16", "UINT8"]
INC, DEC = "DML_AXIS_DIRECTION_INCREASING", "DML_AXIS_DIRECTION_DECREASING"


def f32(v):
    return float(np.float32(v))


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None, source=None):
    c = {"name": name,
         "source": source or (f"directml:DML_{op}_OPERATOR_DESC#"
                              + ("text" if error else "semantics")),
         "op": "DML_OPERATOR_" + op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def arr(t, values, shape):
    return np.array(values, dtype=NUMPY_TYPES[t]).reshape(shape)


def wrap(t, v):
    bits = np.iinfo(NUMPY_TYPES[t]).bits
    v &= (1 << bits) - 1
    if np.iinfo(NUMPY_TYPES[t]).min < 0 and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


# ---- BATCH_NORMALIZATION ---------------------------------------------------------------------

def act(name, p, y):
    if name == "RELU":
        return y if y > 0 or y != y else 0.0
    if name == "LEAKY_RELU":
        return y if y >= 0 else p["Alpha"] * y
    if name == "ELU":
        return y if y >= 0 else p["Alpha"] * math.expm1(y)
    raise ValueError(name)


def bn_expected(t, x, mean, var, scale, bias, eps, fused=None):
    """Element-wise over x's shape, the statistics broadcast (numpy)."""
    x64 = x.astype(np.float64)
    b = np.broadcast_to
    with np.errstate(all="ignore"):
        y = (b(scale, x.shape).astype(np.float64) * (x64 - b(mean, x.shape).astype(np.float64))
             / np.sqrt(b(var, x.shape).astype(np.float64) + np.float64(np.float32(eps)))
             + b(bias, x.shape).astype(np.float64))
    if fused:
        name, p = fused
        y = np.array([act(name, p, float(np.float32(v))) for v in y.reshape(-1)]).reshape(x.shape)
    with np.errstate(over="ignore"):
        return y.astype(NUMPY_TYPES[t])


def bn_case(name, t, shape, sshapes, rng, eps=1e-5, fused=None, note=None, strided=False):
    x = arr(t, rng.uniform(-20, 20, size=shape), shape)
    ranges = [(-5, 5), (0.01, 10), (-3, 3), (-10, 10)]
    stats = [arr(t, rng.uniform(lo, hi, size=s), s) for (lo, hi), s in zip(ranges, sshapes)]
    y = bn_expected(t, x, *stats, eps, fused)
    attrs = {"Spatial": True, "Epsilon": f32(eps)}
    if fused:
        attrs["FusedActivation"] = {"Type": "DML_OPERATOR_ACTIVATION_" + fused[0],
                                    **{k: f32(v) for k, v in fused[1].items()}}
    inputs = {"InputTensor": tensor(t, x)}
    if strided:  # a transposed view of a {shape[1], shape[0]} buffer
        inputs["InputTensor"]["strides"] = [1, shape[0]]
    for k, s in zip(["MeanTensor", "VarianceTensor", "ScaleTensor", "BiasTensor"], stats):
        inputs[k] = tensor(t, s)
    return case(name, "BATCH_NORMALIZATION", inputs, {"OutputTensor": tensor(t, y)},
                attrs=attrs, note=note)


def batch_norm_cases():
    rng = np.random.default_rng(1)
    got = []
    n = "directml.batch_normalization"
    for t in ["FLOAT32", "FLOAT16"]:
        got.append(bn_case(f"{n}.per-channel.{t.lower()}", t, [2, 3, 2, 2], [[1, 3, 1, 1]] * 4,
                           rng, note="NCHW, statistics per channel (ONNX's form)"))
        got.append(bn_case(f"{n}.full-statistics.{t.lower()}", t, [2, 3, 4], [[2, 3, 4]] * 4, rng))
        got.append(bn_case(f"{n}.mixed-broadcast.{t.lower()}", t, [2, 3, 4],
                           [[2, 1, 4], [1, 3, 1], [1, 1, 1], [2, 3, 1]], rng,
                           note="each statistic broadcast its own way"))
    got.append(bn_case(f"{n}.rank-1", "FLOAT32", [7], [[1]] * 4, rng, eps=0.0))
    got.append(bn_case(f"{n}.rank-5", "FLOAT32", [1, 2, 2, 2, 3], [[1, 2, 1, 1, 1]] * 4, rng,
                       eps=1e-3))
    got.append(bn_case(f"{n}.spatial-false", "FLOAT32", [1, 2, 3, 3], [[1, 2, 3, 3]] * 4, rng))
    got[-1]["attrs"]["Spatial"] = False
    got[-1]["note"] = "Spatial deprecated from feature level 4.0: no effect"
    got.append(bn_case(f"{n}.strided-input", "FLOAT32", [3, 4], [[1, 4]] * 4, rng, strided=True,
                       note="InputTensor read through strides {1, 3}"))
    for fused in [("RELU", {}), ("LEAKY_RELU", {"Alpha": 0.1}), ("ELU", {"Alpha": 0.7})]:
        c = bn_case(f"{n}.fused-{fused[0].lower()}", "FLOAT32", [2, 3, 2, 2], [[1, 3, 1, 1]] * 4,
                    rng, fused=fused)
        if fused[0] == "ELU":
            c["tolerance"] = {"ulp": 24}  # 6 and ELU's 18
        got.append(c)
    # Special values: NaN and infinities in the input, a zero variance with Epsilon 0.
    t = "FLOAT32"
    x = arr(t, [float("nan"), float("inf"), float("-inf"), -0.0, 1.0, -1.0, 0.0, 2.0], [2, 4])
    mean, var = arr(t, [0, 0, 0, 1], [1, 4]), arr(t, [1, 4, 0.25, 0], [1, 4])
    scale, bias = arr(t, [1, -1, 2, 1], [1, 4]), arr(t, [0, 1, -1, 0], [1, 4])
    y = bn_expected(t, x, mean, var, scale, bias, 0.0)
    got.append(case(f"{n}.special-values", "BATCH_NORMALIZATION",
                    {"InputTensor": tensor(t, x), "MeanTensor": tensor(t, mean),
                     "VarianceTensor": tensor(t, var), "ScaleTensor": tensor(t, scale),
                     "BiasTensor": tensor(t, bias)},
                    {"OutputTensor": tensor(t, y)}, attrs={"Spatial": True, "Epsilon": 0.0},
                    note="NaN and infinities propagate; variance 0 with Epsilon 0 divides by 0"))
    # One case per validation rule.
    f = "FLOAT32"
    x = tensor(f, np.zeros([2, 3]))
    s = tensor(f, np.ones([1, 3]))

    def bad(label, note, **changes):
        ins = {"InputTensor": x, "MeanTensor": s, "VarianceTensor": s, "ScaleTensor": s,
               "BiasTensor": s, "OutputTensor": {"type": f, "shape": [2, 3]}}
        attrs = {"Spatial": True, "Epsilon": 1e-5}
        for k, v in changes.items():
            (attrs if k == "FusedActivation" else ins)[k] = v
        return case(f"{n}.invalid-{label}", "BATCH_NORMALIZATION", ins, attrs=attrs,
                    error="invalid_argument", note=note)
    got.append(bad("input-type", "INT32 is in no table (FLOAT32, FLOAT16)",
                   InputTensor=tensor("INT32", np.zeros([2, 3])),
                   MeanTensor=tensor("INT32", np.ones([1, 3])),
                   VarianceTensor=tensor("INT32", np.ones([1, 3])),
                   ScaleTensor=tensor("INT32", np.ones([1, 3])),
                   BiasTensor=tensor("INT32", np.ones([1, 3])),
                   OutputTensor={"type": "INT32", "shape": [2, 3]}))
    got.append(bad("mean-type", "the six tensors have one DataType",
                   MeanTensor=tensor("FLOAT16", np.ones([1, 3]))))
    got.append(bad("variance-rank", "the six tensors have one DimensionCount",
                   VarianceTensor=tensor(f, np.ones([3]))))
    got.append(bad("scale-sizes", "a statistic's size is 1 or the input's",
                   ScaleTensor=tensor(f, np.ones([1, 2]))))
    got.append(bad("bias-sizes", "a statistic's size is 1 or the input's",
                   BiasTensor=tensor(f, np.ones([2, 2]))))
    got.append(bad("output-type", "OutputTensor has the input's DataType",
                   OutputTensor={"type": "FLOAT16", "shape": [2, 3]}))
    got.append(bad("output-sizes", "OutputTensor has the input's Sizes",
                   OutputTensor={"type": f, "shape": [3, 2]}))
    got.append(bad("fused-type", "ELEMENT_WISE_IDENTITY is not an activation DirectML fuses",
                   FusedActivation={"Type": 1}))
    return got


# ---- CUMULATIVE_SUMMATION, CUMULATIVE_PRODUCT ---------------------------------------------------

def scan(t, x, axis, reverse, exclusive, product):
    x = np.asarray(x)
    out = np.empty(x.shape, dtype=object)
    moved = np.moveaxis(x, axis, -1)
    res = np.moveaxis(out, axis, -1)
    is_float = t.startswith("FLOAT")
    for idx in np.ndindex(moved.shape[:-1]):
        seq = [float(v) if is_float else int(v) for v in moved[idx]]
        order = range(len(seq) - 1, -1, -1) if reverse else range(len(seq))
        acc = 1 if product else 0
        for i in order:
            if not exclusive:
                acc = acc * seq[i] if product else acc + seq[i]
            res[idx + (i,)] = acc if is_float else wrap(t, acc)
            if exclusive:
                acc = acc * seq[i] if product else acc + seq[i]
    return np.array(out.tolist(), dtype=object)


def scan_case(name, op, t, x, axis, direction, exclusive, note=None, source=None, tol=None):
    product = op == "CUMULATIVE_PRODUCT"
    excl = "HasExclusiveProduct" if product else "HasExclusiveSum"
    y = scan(t, x, axis, direction == DEC, exclusive, product)
    out = tensor(t, np.array(y.reshape(-1).tolist(), dtype=NUMPY_TYPES[t]), list(x.shape))
    if tol:
        out["tolerance"] = tol
    return case(name, op, {"InputTensor": tensor(t, x)}, {"OutputTensor": out},
                attrs={"Axis": axis, "AxisDirection": direction, excl: exclusive}, note=note,
                source=source)


def scan_values(t, shape, rng, product):
    n = int(np.prod(shape))
    if t.startswith("FLOAT"):
        pool = [0.5, 1, 2, -1, 1.5, -2, 3, -0.5] if product else [-4, -3, -1.5, 0, 0.5, 1, 2, 3.5]
        return arr(t, rng.choice(pool, size=n), shape)
    info = np.iinfo(NUMPY_TYPES[t])
    lo, hi = int(info.min), int(info.max)
    v = [int(rng.integers(-9, 10)) if rng.random() < 0.6 else int(rng.integers(lo // 2, hi // 2))
         for _ in range(n)]
    return np.array([wrap(t, a) for a in v], dtype=NUMPY_TYPES[t]).reshape(shape)


# The pages' printed outputs, verbatim; the generator checks its own values against them.
DOC_SCANS = {
    "CUMULATIVE_SUMMATION": [[2, 3, 6, 11, 3, 11, 18, 21, 9, 15, 17, 21],
                             [0, 2, 3, 6, 0, 3, 11, 18, 0, 9, 15, 17],
                             [11, 9, 8, 5, 21, 18, 10, 3, 21, 12, 6, 4],
                             [2, 1, 3, 5, 5, 9, 10, 8, 14, 15, 12, 12]],
    "CUMULATIVE_PRODUCT": [[2, 2, 6, 30, 3, 24, 168, 504, 9, 54, 108, 432],
                           [1, 2, 2, 6, 1, 3, 24, 168, 1, 9, 54, 108],
                           [30, 15, 15, 5, 504, 168, 21, 3, 432, 48, 8, 4],
                           [2, 1, 3, 5, 6, 8, 21, 15, 54, 48, 42, 60]],
}
DOC_TOPK = [([11, 10, 9, 8, 7, 6], [3, 2, 2, 3, 3, 2]),
            ([4, 5, 10, 11, 3, 2, 9, 8], [2, 2, 0, 0, 1, 1, 1, 1]),
            ([3, 2, 2, 5, 5, 4, 6, 6, 6], [3, 1, 2, 2, 3, 1, 0, 1, 2]),
            ([1, 2, 2, 3, 4, 5, 6, 6, 6], [0, 1, 2, 0, 1, 2, 0, 1, 2])]


def cumulative_cases():
    got = []
    doc_x = arr("FLOAT32", [2, 1, 3, 5, 3, 8, 7, 3, 9, 6, 2, 4], [1, 1, 3, 4])
    doc = [(3, INC, False), (3, INC, True), (3, DEC, False), (2, INC, False)]
    for op, desc in [("CUMULATIVE_SUMMATION", "DML_CUMULATIVE_SUMMATION_OPERATOR_DESC"),
                     ("CUMULATIVE_PRODUCT", "DML_CUMULATIVE_PRODUCT_OPERATOR_DESC")]:
        n = "directml." + op.lower()
        for i, (axis, d, e) in enumerate(doc, 1):
            c = scan_case(f"{n}.example-{i}", op, "FLOAT32", doc_x, axis, d, e,
                          source=f"directml:{desc}#example-{i}")
            assert c["expected"]["outputs"]["OutputTensor"]["data"] == DOC_SCANS[op][i - 1]
            got.append(c)
        rng = np.random.default_rng(2 if op == "CUMULATIVE_SUMMATION" else 3)
        product = op == "CUMULATIVE_PRODUCT"
        for t in SCAN_TYPES:
            for shape, axis, d, e in [([3, 5], 1, INC, False), ([2, 3, 4], 0, DEC, True),
                                      ([2, 6, 2], 1, DEC, False), ([9], 0, INC, True)]:
                x = scan_values(t, shape, rng, product)
                got.append(scan_case(f"{n}.{t.lower()}.axis{axis}-{'rev' if d == DEC else 'fwd'}"
                                     f"{'-excl' if e else ''}-{len(shape)}d", op, t, x, axis, d,
                                     e))
        # 8 dimensions, a strided input, integers that wrap.
        x = scan_values("INT32", [2, 1, 2, 1, 2, 1, 2, 3], rng, product)
        got.append(scan_case(f"{n}.rank-8", op, "INT32", x, 7, INC, False))
        x = scan_values("FLOAT32", [4, 3], rng, product)
        c = scan_case(f"{n}.strided-input", op, "FLOAT32", x, 0, INC, False,
                      note="InputTensor read through strides {1, 4}")
        c["inputs"]["InputTensor"]["strides"] = [1, 4]
        got.append(c)
        big = [2**31 - 1, 2, 3] if not product else [65536, 65536, 3]
        got.append(scan_case(f"{n}.int32-wraps", op, "INT32", arr("INT32", big, [3]), 0, INC,
                             False, note="integers wrap (two's complement)"))
        got.append(scan_case(f"{n}.uint32-wraps", op, "UINT32",
                             arr("UINT32", [4294967295, 2, 7] if not product
                                 else [4294967295, 3, 5], [3]), 0, INC, False,
                             note="integers wrap modulo 2^32"))
        # Fractions: not exact in float32; the error bound of a float32 scan in any order.
        x = arr("FLOAT32", rng.uniform(-1, 1, size=[16]) if not product
                else rng.uniform(0.8, 1.25, size=[16]), [16])
        ys = scan("FLOAT32", x, 0, False, False, product).astype(np.float64)
        bound = (16 * 2.0**-24 * float(np.sum(np.abs(x.astype(np.float64)))) if not product
                 else 16 * 2.0**-24 * float(np.max(np.abs(ys))))
        got.append(scan_case(f"{n}.fractions", op, "FLOAT32", x, 0, INC, False,
                             tol={"abs": bound},
                             note="tolerance: the error bound of a float32 scan in any order"))
        # One case per validation rule.
        excl = "HasExclusiveProduct" if product else "HasExclusiveSum"

        def bad(label, note, t="FLOAT32", out=None, **attrs):
            a = {"Axis": 0, "AxisDirection": INC, excl: False}
            a.update(attrs)
            return case(f"{n}.invalid-{label}", op,
                        {"InputTensor": tensor(t, np.ones([2, 3])),
                         "OutputTensor": out or {"type": t, "shape": [2, 3]}},
                        attrs=a, error="invalid_argument", note=note)
        got.append(bad("type", "INT16 is in no table", t="INT16"))
        got.append(bad("output-type", "Input and Output have one DataType",
                       out={"type": "FLOAT16", "shape": [2, 3]}))
        got.append(bad("output-sizes", "Input and Output have one Sizes",
                       out={"type": "FLOAT32", "shape": [3, 2]}))
        got.append(bad("output-rank", "Input and Output have one DimensionCount",
                       out={"type": "FLOAT32", "shape": [1, 2, 3]}))
        got.append(bad("axis", "Axis is below the DimensionCount", Axis=2))
        got.append(bad("axis-direction", "AxisDirection is INCREASING or DECREASING",
                       AxisDirection=2))
    return got


# ---- TOP_K, TOP_K1 -------------------------------------------------------------------------

def top_k(t, x, axis, k, smallest):
    moved = np.moveaxis(np.asarray(x), axis, -1)
    vals = np.empty(moved.shape[:-1] + (k,), dtype=x.dtype)
    idxs = np.empty(moved.shape[:-1] + (k,), dtype=np.int64)
    is_float = t.startswith("FLOAT")
    for idx in np.ndindex(moved.shape[:-1]):
        seq = moved[idx]

        def key(i):
            v = float(seq[i]) if is_float else int(seq[i])
            nan = is_float and v != v
            if smallest:
                return (1 if nan else 0, 0 if nan else v, i)
            return (0 if nan else 1, 0 if nan else -v, i)
        order = sorted(range(len(seq)), key=key)[:k]
        vals[idx] = seq[order]
        idxs[idx] = order
    return np.moveaxis(vals, -1, axis), np.moveaxis(idxs, -1, axis)


def topk_case(name, op, t, x, axis, k, direction=DEC, it="UINT32", note=None, source=None):
    v, i = top_k(t, x, axis, k, direction == INC)
    attrs = {"Axis": axis, "K": k}
    if op == "TOP_K1":
        attrs["AxisDirection"] = direction
    return case(name, op, {"InputTensor": tensor(t, x)},
                {"OutputValueTensor": tensor(t, v), "OutputIndexTensor": tensor(it, i)},
                attrs=attrs, note=note, source=source)


def topk_values(t, shape, rng, ties):
    n = int(np.prod(shape))
    if ties:
        return arr(t, rng.integers(-2 if t[0] != "U" else 0, 3, size=n), shape)
    if t.startswith("FLOAT"):
        return arr(t, rng.permutation(np.arange(n) - n // 2) * 0.75, shape)
    info = np.iinfo(NUMPY_TYPES[t])
    lo, hi = int(info.min), int(info.max)
    seen, v = set(), []
    while len(v) < n:
        if info.bits == 64:  # beyond numpy's int64 draws: spread over the type by a wrap
            a = wrap(t, int(rng.integers(-2**62, 2**62)) * 3)
        else:
            a = int(rng.integers(lo, hi, endpoint=True))
        if a not in seen:
            seen.add(a)
            v.append(a)
    return np.array(v, dtype=NUMPY_TYPES[t]).reshape(shape)


def top_k_cases():
    got = []
    ex_a = arr("FLOAT32", [0, 1, 10, 11, 3, 2, 9, 8, 4, 5, 6, 7], [1, 1, 3, 4])
    ex_t = arr("FLOAT32", [1, 2, 2, 3, 3, 4, 5, 5, 6, 6, 6, 6], [1, 1, 3, 4])
    examples = {"TOP_K": [(ex_a, 3, 2, DEC), (ex_a, 2, 2, DEC), (ex_t, 3, 3, DEC)],
                "TOP_K1": [(ex_a, 3, 2, DEC), (ex_a, 2, 2, DEC), (ex_t, 3, 3, DEC),
                           (ex_t, 3, 3, INC)]}
    for op in ["TOP_K", "TOP_K1"]:
        n = "directml." + op.lower()
        for i, (x, axis, k, d) in enumerate(examples[op], 1):
            c = topk_case(f"{n}.example-{i}", op, "FLOAT32", x, axis, k, d,
                          source=f"directml:DML_{op}_OPERATOR_DESC#example-{i}")
            out = c["expected"]["outputs"]
            assert (out["OutputValueTensor"]["data"], out["OutputIndexTensor"]["data"]) == \
                DOC_TOPK[i - 1]
            got.append(c)
        rng = np.random.default_rng(4 if op == "TOP_K" else 5)
        for j, t in enumerate(TOPK_TYPES):
            for shape, axis, k, ties in [([3, 6], 1, 3, False), ([5, 2, 3], 0, 5, True),
                                         ([2, 7], 1, 1, True)]:
                d = DEC if op == "TOP_K" or (j + k) % 2 else INC
                it = "UINT64" if (j + axis) % 2 else "UINT32"
                x = topk_values(t, shape, rng, ties)
                got.append(topk_case(f"{n}.{t.lower()}.axis{axis}-k{k}"
                                     f"{'-ties' if ties else ''}"
                                     f"{'-smallest' if d == INC else ''}", op, t, x, axis, k, d,
                                     it))
        # NaN ranks above every number; -0 equals +0 (index order).
        x = arr("FLOAT32", [1, float("nan"), -0.0, 0.0, float("nan"), float("-inf")], [6])
        for d in ([DEC, INC] if op == "TOP_K1" else [DEC]):
            got.append(topk_case(f"{n}.nan-and-zeros{'-smallest' if d == INC else ''}", op,
                                 "FLOAT32", x, 0, 6, d,
                                 note="NaN ranks above every number; -0 and +0 tie"))
        x = topk_values("INT16", [2, 1, 3, 1, 2, 1, 1, 4], rng, False)
        got.append(topk_case(f"{n}.rank-8", op, "INT16", x, 7, 2))
        x = topk_values("FLOAT32", [4, 3], rng, False)
        c = topk_case(f"{n}.strided-input", op, "FLOAT32", x, 0, 2,
                      note="InputTensor read through strides {1, 4}")
        c["inputs"]["InputTensor"]["strides"] = [1, 4]
        got.append(c)

        def bad(label, note, t="FLOAT32", val=None, idx=None, **attrs):
            a = {"Axis": 1, "K": 2}
            if op == "TOP_K1":
                a["AxisDirection"] = DEC
            a.update(attrs)
            k = a["K"] if 0 < a["K"] <= 4 else 1
            return case(f"{n}.invalid-{label}", op,
                        {"InputTensor": tensor(t, np.ones([3, 4])),
                         "OutputValueTensor": val or {"type": t, "shape": [3, k]},
                         "OutputIndexTensor": idx or {"type": "UINT32", "shape": [3, k]}},
                        attrs=a, error="invalid_argument", note=note)
        got.append(bad("type", "FLOAT64 is in no table", t="FLOAT64"))
        got.append(bad("value-type", "OutputValueTensor has the input's DataType",
                       val={"type": "FLOAT16", "shape": [3, 2]}))
        got.append(bad("index-type", "OutputIndexTensor is UINT32 or UINT64",
                       idx={"type": "INT32", "shape": [3, 2]}))
        got.append(bad("value-rank", "the three tensors have one DimensionCount",
                       val={"type": "FLOAT32", "shape": [1, 3, 2]}))
        got.append(bad("index-rank", "the three tensors have one DimensionCount",
                       idx={"type": "UINT32", "shape": [6]}))
        got.append(bad("value-sizes", "Sizes[Axis] of the outputs is K",
                       val={"type": "FLOAT32", "shape": [3, 3]}))
        got.append(bad("index-sizes", "the outputs have the input's other Sizes",
                       idx={"type": "UINT32", "shape": [2, 2]}))
        got.append(bad("axis", "Axis is below the DimensionCount", Axis=2))
        got.append(bad("k-zero", "K is at least 1", K=0))
        got.append(bad("k-past-axis", "K is at most the axis's size", K=5,
                       val={"type": "FLOAT32", "shape": [3, 5]},
                       idx={"type": "UINT32", "shape": [3, 5]}))
        if op == "TOP_K1":
            got.append(bad("axis-direction", "AxisDirection is INCREASING or DECREASING",
                           AxisDirection=2))
    return got


# ---- LOCAL_RESPONSE_NORMALIZATION -------------------------------------------------------------

def lrn(x, cross, n, alpha, beta, bias):
    """x / (bias + alpha / n * s)^beta, s the squares summed over ONNX's window (i - floor((n-1)/2)
    to i + ceil((n-1)/2), clipped) of C, or of H and W (n x n), in float64."""
    x64 = x.astype(np.float64)
    sq = x64 * x64
    s = np.zeros_like(x64)
    before, after = (n - 1) // 2, n // 2
    N, C, H, W = x.shape
    for c in range(C):
        for h in range(H):
            for w in range(W):
                if cross:
                    s[:, c, h, w] = sq[:, max(0, c - before):c + after + 1, h, w].sum(axis=1)
                else:
                    s[:, c, h, w] = sq[:, c, max(0, h - before):h + after + 1,
                                       max(0, w - before):w + after + 1].sum(axis=(1, 2))
    return x64 / np.power(np.float64(bias) + np.float64(alpha) / n * s, np.float64(beta))


def lrn_cases():
    got = []
    rng = np.random.default_rng(6)
    n = "directml.local_response_normalization"
    for t in ["FLOAT32", "FLOAT16"]:
        for cross, size, shape, p in [(True, 3, [2, 5, 2, 3], (1e-4, 0.75, 1.0)),
                                      (True, 4, [1, 6, 2, 2], (0.5, 0.5, 2.0)),
                                      (True, 9, [1, 3, 2, 2], (1.0, 1.0, 1.0)),
                                      (False, 3, [1, 2, 4, 5], (0.3, 0.75, 1.0)),
                                      (False, 2, [2, 1, 3, 3], (1.0, 0.25, 0.5))]:
            x = arr(t, rng.uniform(-4, 4, size=shape), shape)
            a, b, bias = (f32(v) for v in p)
            with np.errstate(over="ignore"):
                y = lrn(x, cross, size, a, b, bias).astype(NUMPY_TYPES[t])
            got.append(case(f"{n}.{'across' if cross else 'within'}-{size}.{t.lower()}",
                            "LOCAL_RESPONSE_NORMALIZATION", {"InputTensor": tensor(t, x)},
                            {"OutputTensor": tensor(t, y)},
                            attrs={"CrossChannel": cross, "LocalSize": size, "Alpha": a,
                                   "Beta": b, "Bias": bias},
                            note="window past the channels: clipped" if size > shape[1] and cross
                            else None))

    def bad(label, note, t="FLOAT32", shape=(1, 2, 2, 2), out=None, **attrs):
        a = {"CrossChannel": True, "LocalSize": 3, "Alpha": 1e-4, "Beta": 0.75, "Bias": 1.0}
        a.update(attrs)
        return case(f"{n}.invalid-{label}", "LOCAL_RESPONSE_NORMALIZATION",
                    {"InputTensor": tensor(t, np.ones(shape)),
                     "OutputTensor": out or {"type": t, "shape": list(shape)}},
                    attrs=a, error="invalid_argument", note=note)
    got.append(bad("type", "INT32 is in no table (FLOAT32, FLOAT16)", t="INT32"))
    got.append(bad("rank", "InputTensor has 4 dimensions", shape=(2, 2, 2)))
    got.append(bad("output-type", "Input and Output have one DataType",
                   out={"type": "FLOAT16", "shape": [1, 2, 2, 2]}))
    got.append(bad("output-sizes", "Input and Output have one Sizes",
                   out={"type": "FLOAT32", "shape": [1, 2, 2, 3]}))
    got.append(bad("local-size", "LocalSize is at least 1", LocalSize=0))
    return got


def main():
    for fname, cases in [("batch_norm.json", batch_norm_cases()), ("lrn.json", lrn_cases()),
                         ("cumulative.json", cumulative_cases()), ("top_k.json", top_k_cases())]:
        write(os.path.join(CASES, fname), cases)
        print(f"{fname}: {len(cases)} cases")


if __name__ == "__main__":
    main()
