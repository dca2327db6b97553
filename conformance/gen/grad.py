# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/grad.json: DirectML's training operators.

ACTIVATION_RELU_GRAD (dX = X > 0 ? dY : 0), ELEMENT_WISE_CLIP_GRAD and ELEMENT_WISE_CLIP_GRAD1
(dX = 0 where X <= Min or X >= Max, else dY), as their pages define them: every type of their
tables (RELU_GRAD FLOAT32 and FLOAT16; the CLIP gradients the ten types of feature level 5.0),
features at and around the bounds, zeros of both signs, NaN and infinities, CLIP_GRAD's FLOAT
bounds on integer tensors (truncated toward zero and saturated, as CLIP converts them), bounds
crossed and equal, UINT64 and INT64 bounds past 2^53, strided and broadcast inputs, strided
outputs, one to eight dimensions, and one case per validation rule.

SLICE_GRAD (OutputGradientTensor 0 except where SLICE1 read: there the incoming gradient): the
page's example and the same window backwards, every type of feature level 4.1's table, one to
eight dimensions, strides of either sign and past the window, gradients shorter than the window
allows, strided tensors, one case per validation rule.

AVERAGE_POOLING_GRAD and MAX_POOLING_GRAD: the pages' examples, 2 and 3 spatial axes,
strides, padding (IncludePadding both ways), ceil_mode's extra window, MAX's dilations and ties
(the lowest logical index wins, +0 above -0), FLOAT32 and FLOAT16, strided tensors, one case
per validation rule.

Expected values: numpy in float64 from the pages' formulas; at every feature away from a kink
(ReLU's 0, CLIP's bounds) the formula is checked against a central finite difference of the
forward operator (numpy.maximum(x, 0), numpy.clip) in float64, and the generator stops on a
disagreement. Each SLICE_GRAD result is checked to be the adjoint of SLICE1 (numpy's forward
slice): <SLICE1(x), dy> = <x, SLICE_GRAD(dy)> for a random x, in float64; each
AVERAGE_POOLING_GRAD result the adjoint of the forward average pooling, and each
MAX_POOLING_GRAD result of features without ties the derivative of <MAX_POOLING(x), dy>
(perturbing each feature, in float64).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/grad.py
"""
import itertools
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
TEN_TYPES = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32",
             "UINT16", "UINT8"]
RNG = np.random.default_rng(0x67726164)


def case(op, name, inputs, attrs, outputs=None, error=None, note=None):
    c = {"name": f"directml.{op.lower()}.{name}",
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs, "attrs": attrs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def type_range(t):
    info = np.iinfo(NUMPY_TYPES[t])
    return int(info.min), int(info.max)


def int_bound(t, v):
    """CLIP's conversion of a FLOAT bound to an integer type: toward zero, saturated, NaN 0."""
    v = float(np.float32(v))
    if math.isnan(v):
        return 0
    lo, hi = type_range(t)
    return max(lo, min(hi, int(math.trunc(v)) if abs(v) < 2.0**70 else (hi if v > 0 else lo)))


def relu_grad(x, dy):
    return np.where(x > 0, dy, np.zeros_like(dy))


def clip_grad(x, dy, lo, hi):
    stop = (x <= lo) | (x >= hi)
    return np.where(stop, np.zeros_like(dy), dy)


def check_finite_difference(kind, x, dy, lo=None, hi=None):
    """The formula against d/dx of the forward operator, in float64, away from its kinks."""
    h = 1e-6
    xs = np.asarray(x, np.float64).reshape(-1)
    gs = np.asarray(dy, np.float64).reshape(-1)
    for xv, g in zip(xs, gs):
        if not math.isfinite(xv):
            continue
        if kind == "relu":
            if abs(xv) < 1e-3:
                continue
            f = lambda v: max(v, 0.0)  # noqa: E731
            want = g if xv > 0 else 0.0
        else:
            if lo > hi or min(abs(xv - lo), abs(xv - hi)) < 1e-3:
                continue
            f = lambda v: float(np.clip(v, lo, hi))  # noqa: E731
            want = 0.0 if (xv <= lo or xv >= hi) else g
        fd = (f(xv + h) - f(xv - h)) / (2 * h) * g
        if abs(fd - want) > 1e-6 * max(1.0, abs(g)):
            sys.exit(f"grad.py: {kind} at x={xv}: formula {want}, finite difference {fd}")


def features(t, lo, hi, n):
    """n features of type t around the bounds, zero and the type's specials."""
    if t.startswith("FLOAT"):
        picks = [lo, hi, lo - 0.5, lo + 0.5, hi - 0.5, hi + 0.5, 0.0, -0.0, 1.0, -1.0,
                 (lo + hi) / 2, float("nan"), float("inf"), float("-inf")]
        vals = [picks[i] if i < len(picks) else float(RNG.integers(-64, 64)) / 4
                for i in RNG.permutation(max(n, len(picks)))[:n]]
        return np.array(vals, dtype=NUMPY_TYPES[t])
    tlo, thi = type_range(t)
    picks = [lo, hi, lo - 1, lo + 1, hi - 1, hi + 1, 0, 1, tlo, thi, (lo + hi) // 2]
    picks = [min(thi, max(tlo, int(p))) for p in picks]
    vals = [picks[i] if i < len(picks) else int(RNG.integers(max(tlo, -100), min(thi, 100) + 1))
            for i in RNG.permutation(max(n, len(picks)))[:n]]
    return np.array(vals, dtype=NUMPY_TYPES[t])


def gradients(t, n):
    if t.startswith("FLOAT"):
        return (RNG.integers(-200, 200, n) / 8).astype(NUMPY_TYPES[t])
    tlo, thi = type_range(t)
    return RNG.integers(max(tlo, -1000), min(thi, 1000) + 1, n).astype(NUMPY_TYPES[t])


def relu_cases():
    out = []
    op = "ACTIVATION_RELU_GRAD"
    for t in ["FLOAT32", "FLOAT16"]:
        for rank in (1, 3, 8):
            shape = [2, 3, 4] if rank == 3 else [14] if rank == 1 else [1, 2, 1, 1, 3, 1, 2, 1]
            n = int(np.prod(shape))
            x = features(t, 0.0, 0.0, n).reshape(shape)
            dy = gradients(t, n).reshape(shape)
            check_finite_difference("relu", x, dy)
            out.append(case(op, f"{t.lower()}-rank{rank}",
                            {"InputTensor": tensor(t, x), "InputGradientTensor": tensor(t, dy)},
                            {}, {"OutputGradientTensor": tensor(t, relu_grad(x, dy))}))
    # Strided features (a transposed layout), a broadcast gradient (its logical values, stored
    # once), a padded output.
    x = np.array([[-1.0, 2.0, 0.0], [3.0, -0.0, 0.5]], np.float32)
    dy = np.array([7.0, -8.0, 9.0], np.float32)
    full = np.broadcast_to(dy, x.shape)
    check_finite_difference("relu", x, full)
    out.append(case(op, "strided-broadcast",
                    {"InputTensor": dict(tensor("FLOAT32", x), strides=[1, 2]),
                     "InputGradientTensor": dict(tensor("FLOAT32", full), strides=[0, 1]),
                     "OutputGradientTensor": {"type": "FLOAT32", "shape": [2, 3],
                                              "strides": [4, 1]}},
                    {}, {"OutputGradientTensor": tensor("FLOAT32", relu_grad(x, full))}))
    # Validation: one case per rule.
    f = lambda t, s=(2, 2): {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa
    bad = [("int32", {"InputTensor": f("INT32"), "InputGradientTensor": f("INT32")},
            "InputTensor.DataType: FLOAT32 or FLOAT16"),
           ("gradient-type", {"InputTensor": f("FLOAT32"), "InputGradientTensor": f("FLOAT16")},
            "InputGradientTensor.DataType: InputTensor's"),
           ("gradient-sizes", {"InputTensor": f("FLOAT32"),
                               "InputGradientTensor": f("FLOAT32", (2, 3))},
            "InputGradientTensor.Sizes: InputTensor's"),
           ("output-type", {"InputTensor": f("FLOAT32"), "InputGradientTensor": f("FLOAT32"),
                            "OutputGradientTensor": {"type": "FLOAT16", "shape": [2, 2]}},
            "OutputGradientTensor.DataType: InputTensor's"),
           ("output-rank", {"InputTensor": f("FLOAT32"), "InputGradientTensor": f("FLOAT32"),
                            "OutputGradientTensor": {"type": "FLOAT32", "shape": [1, 2, 2]}},
            "OutputGradientTensor.DimensionCount: InputTensor's"),
           ("nine-dimensions", {"InputTensor": f("FLOAT32", [1] * 8 + [2]),
                                "InputGradientTensor": f("FLOAT32", [1] * 8 + [2])},
            "1 to 8 dimensions")]
    for name, inputs, note in bad:
        out.append(case(op, f"invalid-{name}", inputs, {}, error="invalid_argument", note=note))
    return out


def clip_cases(op):
    out = []
    one = op.endswith("1")
    bounds = [(-2.5, 3.75), (0.0, 6.0), (-100.25, 1000.5), (5.0, 5.0), (4.0, -4.0)]
    for t in TEN_TYPES:
        flt = t.startswith("FLOAT")
        for k, (lo, hi) in enumerate(bounds):
            if one and not flt:
                tlo, thi = type_range(t)
                lo_t = max(tlo, min(thi, int(math.trunc(lo))))
                hi_t = max(tlo, min(thi, int(math.trunc(hi))))
            elif flt:
                lo_t = float(NUMPY_TYPES[t](lo)) if one else float(np.float32(lo))
                hi_t = float(NUMPY_TYPES[t](hi)) if one else float(np.float32(hi))
            else:
                lo_t, hi_t = int_bound(t, lo), int_bound(t, hi)
            shape = [[12], [3, 4], [2, 1, 3, 2], [1, 2, 1, 2, 3], [2, 1, 1, 1, 1, 1, 2, 3]][k]
            n = int(np.prod(shape))
            x = features(t, lo_t, hi_t, n).reshape(shape)
            dy = gradients(t, n).reshape(shape)
            if flt:
                check_finite_difference("clip", x.astype(np.float64), dy, lo_t, hi_t)
            want = clip_grad(x.astype(np.float64) if flt else x.astype(object), dy, lo_t, hi_t)
            want = np.asarray(want, dtype=NUMPY_TYPES[t])
            attrs = ({"MinMaxDataType": t, "Min": lo_t, "Max": hi_t} if one
                     else {"Min": lo, "Max": hi})
            out.append(case(op, f"{t.lower()}-{k}",
                            {"InputTensor": tensor(t, x), "InputGradientTensor": tensor(t, dy)},
                            attrs, {"OutputGradientTensor": tensor(t, want)}))
    # 64-bit bounds past 2^53 (CLIP_GRAD1: typed, compared as 64-bit integers).
    if one:
        for t, lo, hi in (("UINT64", 2**63 - 1, 2**63 + 2), ("INT64", -2**62 - 1, 2**62 + 1)):
            x = np.array([lo - 1, lo, lo + 1, hi - 1, hi, hi + 1], dtype=object)
            dy = np.arange(1, 7)
            want = clip_grad(x, dy, lo, hi)
            out.append(case(op, f"{t.lower()}-past-2-53",
                            {"InputTensor": tensor(t, x.astype(NUMPY_TYPES[t])),
                             "InputGradientTensor": tensor(t, dy)},
                            {"MinMaxDataType": t, "Min": str(lo), "Max": str(hi)},
                            {"OutputGradientTensor": tensor(t, np.asarray(want, NUMPY_TYPES[t]))}))
    else:
        # FLOAT bounds past an integer type's range saturate to its ends.
        x = np.array([-128, -127, 0, 126, 127], np.int8)
        dy = np.array([1, 2, 3, 4, 5], np.int8)
        out.append(case(op, "int8-saturated-bounds",
                        {"InputTensor": tensor("INT8", x), "InputGradientTensor": tensor("INT8", dy)},
                        {"Min": -1e30, "Max": 1e30},
                        {"OutputGradientTensor": tensor("INT8", clip_grad(x, dy, -128, 127))}))
    # Strided (transposed) features with a strided output.
    x = np.array([[-3.0, 0.5, 2.0], [1.0, 4.0, -0.0]], np.float32)
    dy = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    attrs = ({"MinMaxDataType": "FLOAT32", "Min": -1.0, "Max": 2.0} if one
             else {"Min": -1.0, "Max": 2.0})
    check_finite_difference("clip", x, dy, -1.0, 2.0)
    out.append(case(op, "strided",
                    {"InputTensor": dict(tensor("FLOAT32", x), strides=[1, 2]),
                     "InputGradientTensor": tensor("FLOAT32", dy),
                     "OutputGradientTensor": {"type": "FLOAT32", "shape": [2, 3],
                                              "strides": [1, 2]}},
                    attrs, {"OutputGradientTensor": tensor("FLOAT32",
                                                           clip_grad(x, dy, -1.0, 2.0))}))
    # Validation: one case per rule.
    f = lambda t, s=(2, 2): {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa
    a = lambda t: ({"MinMaxDataType": t, "Min": 0, "Max": 1} if one  # noqa: E731
                   else {"Min": 0.0, "Max": 1.0})
    bad = [("float64", {"InputTensor": f("FLOAT64"), "InputGradientTensor": f("FLOAT64")},
            a("FLOAT64"), "InputTensor.DataType: the ten types of feature level 5.0"),
           ("gradient-type", {"InputTensor": f("INT32"), "InputGradientTensor": f("UINT32")},
            a("INT32"), "InputGradientTensor.DataType: InputTensor's"),
           ("gradient-sizes", {"InputTensor": f("INT8"), "InputGradientTensor": f("INT8", (2, 3))},
            a("INT8"), "InputGradientTensor.Sizes: InputTensor's"),
           ("output-type", {"InputTensor": f("INT16"), "InputGradientTensor": f("INT16"),
                            "OutputGradientTensor": {"type": "UINT16", "shape": [2, 2]}},
            a("INT16"), "OutputGradientTensor.DataType: InputTensor's"),
           ("output-sizes", {"InputTensor": f("FLOAT16"), "InputGradientTensor": f("FLOAT16"),
                             "OutputGradientTensor": {"type": "FLOAT16", "shape": [2, 1]}},
            a("FLOAT16"), "OutputGradientTensor.Sizes: InputTensor's")]
    if one:
        bad.append(("min-max-type", {"InputTensor": f("INT16"), "InputGradientTensor": f("INT16")},
                    a("INT32"), "MinMaxDataType: OutputGradientTensor.DataType"))
    for name, inputs, attrs, note in bad:
        out.append(case(op, f"invalid-{name}", inputs, attrs, error="invalid_argument", note=note))
    return out


def window_index(off, size, stride, n):
    """SLICE1's positions along one dimension for n gradient elements."""
    start = off + size - 1 if stride < 0 else off
    return [start + stride * j for j in range(n)]


def slice_grad(dy, out_shape, offs, sizes, strides):
    out = np.zeros(out_shape, dtype=dy.dtype)
    idx = [window_index(o, s, t, n) for o, s, t, n in zip(offs, sizes, strides, dy.shape)]
    out[np.ix_(*idx)] = dy
    # The adjoint check: <SLICE1(x), dy> = <x, SLICE_GRAD(dy)>.
    x = RNG.standard_normal(out_shape)
    lhs = float(np.sum(x[np.ix_(*idx)] * dy.astype(np.float64)))
    rhs = float(np.sum(x * out.astype(np.float64)))
    finite = np.all(np.isfinite(dy.astype(np.float64)))
    if finite and abs(lhs - rhs) > 1e-9 * max(1.0, abs(lhs)):
        sys.exit(f"grad.py: SLICE_GRAD is not SLICE1's adjoint: {lhs} against {rhs}")
    return out


def slice_cases():
    out = []
    op = "SLICE_GRAD"
    types = ["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64",
             "UINT32", "UINT16", "UINT8"]

    def one(name, t, dy, out_shape, offs, sizes, strides, dy_strides=None, out_strides=None):
        attrs = {"InputWindowOffsets": list(offs), "InputWindowSizes": list(sizes),
                 "InputWindowStrides": list(strides)}
        want = slice_grad(dy, out_shape, offs, sizes, strides)
        g = tensor(t, dy)
        if dy_strides:
            g["strides"] = dy_strides
        inputs = {"InputGradientTensor": g}
        if out_strides:
            inputs["OutputGradientTensor"] = {"type": t, "shape": list(out_shape),
                                              "strides": out_strides}
        out.append(case(op, name, inputs, attrs, {"OutputGradientTensor": tensor(t, want)}))

    page = np.array([[1.0, 3.0], [9.0, 11.0]], np.float32)
    one("page-example", "FLOAT32", page, (4, 4), (0, 0), (4, 4), (2, 2))
    one("page-example-backwards", "FLOAT32", page, (4, 4), (0, 0), (3, 3), (-2, -2))
    for k, t in enumerate(types):
        rank = 1 + k % 8
        out_shape = [int(RNG.integers(1, 6)) for _ in range(rank)]
        offs, sizes, strides, dshape = [], [], [], []
        for n in out_shape:
            o = int(RNG.integers(0, n))
            sz = int(RNG.integers(1, n - o + 1))
            st = int(RNG.choice([1, 2, 3, -1, -2, 7]))
            most = 1 + (sz - 1) // abs(st)
            offs.append(o), sizes.append(sz), strides.append(st)
            dshape.append(most if k % 3 else int(RNG.integers(1, most + 1)))
        if t.startswith("FLOAT"):
            dy = (RNG.integers(-64, 64, dshape) / 4).astype(NUMPY_TYPES[t])
        else:
            lo, hi = type_range(t)
            dy = RNG.integers(lo, hi, dshape, dtype=np.int64 if lo < 0 else np.uint64,
                              endpoint=True).astype(NUMPY_TYPES[t])
        one(f"{t.lower()}-rank{rank}", t, dy, out_shape, offs, sizes, strides)
    # Strided (transposed) gradient, padded output.
    dy = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    one("strided", "FLOAT32", dy, (3, 5), (1, 0), (2, 5), (1, -2), dy_strides=[1, 2],
        out_strides=[8, 1])
    # Validation: one case per rule.
    g = lambda t, s: {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa: E731
    o = lambda t, s: {"type": t, "shape": list(s)}  # noqa: E731
    ok = {"InputWindowOffsets": [0, 0], "InputWindowSizes": [3, 3], "InputWindowStrides": [2, 2]}
    bad = [
        ("output-type", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                         "OutputGradientTensor": o("FLOAT16", (4, 4))}, ok,
         "OutputGradientTensor.DataType: InputGradientTensor's"),
        ("output-rank", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                         "OutputGradientTensor": o("FLOAT32", (1, 4, 4))}, ok,
         "OutputGradientTensor.DimensionCount: InputGradientTensor's"),
        ("dimension-count", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                             "OutputGradientTensor": o("FLOAT32", (4, 4))},
         dict(ok, DimensionCount=1, InputWindowOffsets=[0], InputWindowSizes=[3],
              InputWindowStrides=[2]), "DimensionCount: the tensors'"),
        ("empty-window", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                          "OutputGradientTensor": o("FLOAT32", (4, 4))},
         dict(ok, InputWindowSizes=[3, 0]), "InputWindowSizes: at least 1"),
        ("window-past-output", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                                "OutputGradientTensor": o("FLOAT32", (4, 4))},
         dict(ok, InputWindowOffsets=[2, 0]), "the window inside OutputGradientTensor"),
        ("zero-stride", {"InputGradientTensor": g("FLOAT32", (2, 2)),
                         "OutputGradientTensor": o("FLOAT32", (4, 4))},
         dict(ok, InputWindowStrides=[2, 0]), "InputWindowStrides: not 0"),
        ("gradient-past-window", {"InputGradientTensor": g("FLOAT32", (2, 3)),
                                  "OutputGradientTensor": o("FLOAT32", (4, 4))}, ok,
         "InputGradientTensor.Sizes: at most 1 + (size - 1) / |stride|"),
    ]
    for name, inputs, attrs, note in bad:
        out.append(case(op, f"invalid-{name}", inputs, attrs, error="invalid_argument", note=note))
    return out


def pool_windows(xshape, dims, strides, window, start, end, dil, yshape):
    """For each forward output o (row-major): its positions inside the input, and the padded
    count (positions inside [-start, size + end))."""
    for o in np.ndindex(*yshape[2:]):
        axes, padded = [], 1
        for i in range(dims):
            first = o[i] * strides[i] - start[i]
            pos = [first + k * dil[i] for k in range(window[i])]
            axes.append([p for p in pos if 0 <= p < xshape[2 + i]])
            padded *= sum(1 for p in pos if -start[i] <= p < xshape[2 + i] + end[i])
        yield o, [tuple(q) for q in itertools.product(*axes)], padded


MAGNITUDE = {}  # the last result's largest sum of |term|, for the case's tolerance


def avg_pool_grad(dy, xshape, dims, strides, window, start, end, include):
    out, mag = np.zeros(xshape), np.zeros(xshape)
    for o, pos, padded in pool_windows(xshape, dims, strides, window, start, end, [1] * dims,
                                       dy.shape):
        div = padded if include else len(pos)
        for q in pos:
            out[(slice(None), slice(None)) + q] += dy[(slice(None), slice(None)) + o] / div
            mag[(slice(None), slice(None)) + q] += np.abs(dy[(slice(None), slice(None)) + o]) / div
    MAGNITUDE["max"] = float(mag.max())
    # Adjoint check against the forward average pooling.
    x = RNG.standard_normal(xshape)
    fwd = np.zeros(dy.shape)
    for o, pos, padded in pool_windows(xshape, dims, strides, window, start, end, [1] * dims,
                                       dy.shape):
        div = padded if include else len(pos)
        for q in pos:
            fwd[(slice(None), slice(None)) + o] += x[(slice(None), slice(None)) + q] / div
    lhs, rhs = float(np.sum(fwd * dy)), float(np.sum(x * out))
    if abs(lhs - rhs) > 1e-9 * max(1.0, abs(lhs)):
        sys.exit(f"grad.py: AVERAGE_POOLING_GRAD is not the adjoint: {lhs} against {rhs}")
    return out


def max_better(v, best):
    if math.isnan(v):
        return False
    if math.isnan(best) or v > best:
        return True
    return v == best == 0 and math.copysign(1, best) < 0 < math.copysign(1, v)


def max_pool(x, dims, strides, window, start, end, dil, yshape):
    """The forward max pooling and its argmax positions, by the forward's rule."""
    y, arg = np.full(yshape, -np.inf), {}
    for n, c in np.ndindex(*yshape[:2]):
        for o, pos, _ in pool_windows(x.shape, dims, strides, window, start, end, dil, yshape):
            best, at = None, None
            for q in pos:
                v = float(x[(n, c) + q])
                if best is None or max_better(v, best):
                    best, at = v, q
            if at is not None:
                y[(n, c) + o] = best
                arg[(n, c) + o] = at
    return y, arg


def max_pool_grad(x, dy, dims, strides, window, start, end, dil):
    out, mag = np.zeros(x.shape), np.zeros(x.shape)
    _, arg = max_pool(x, dims, strides, window, start, end, dil, dy.shape)
    for (n, c, *o), q in sorted(arg.items()):
        out[(n, c) + q] += dy[(n, c) + tuple(o)]
        mag[(n, c) + q] += abs(dy[(n, c) + tuple(o)])
    MAGNITUDE["max"] = float(mag.max())
    # Without ties: the derivative of <MAX_POOLING(x), dy>, one feature perturbed at a time.
    xs = x.astype(np.float64)
    flat = [v for v in xs.reshape(-1) if not math.isnan(v)]
    if len(set(flat)) == len(flat) and len(flat) == xs.size:
        base, _ = max_pool(xs, dims, strides, window, start, end, dil, dy.shape)
        for idx in np.ndindex(*xs.shape):
            h = 1e-7
            xp = xs.copy()
            xp[idx] += h
            up, _ = max_pool(xp, dims, strides, window, start, end, dil, dy.shape)
            fin = np.isfinite(base)
            d = float(np.sum((up[fin] - base[fin]) * dy[fin])) / h
            if abs(d - out[idx]) > 1e-5 * max(1.0, abs(out[idx])):
                sys.exit(f"grad.py: MAX_POOLING_GRAD at {idx}: {out[idx]}, numerically {d}")
    return out


def pooling_cases():
    out = []
    ex = np.array([[[[1, 2], [3, 4]]]], np.float64)

    def one(op, name, t, dy, xshape, strides, window, start, end, extra, x=None, dil=None,
            include=False, dy_strides=None, out_strides=None, tolerance=None):
        dims = len(window)
        attrs = {"Strides": list(strides), "WindowSize": list(window),
                 "StartPadding": list(start), "EndPadding": list(end)}
        attrs.update(extra)
        if op == "MAX_POOLING_GRAD":
            want = max_pool_grad(x.astype(np.float64), dy.astype(np.float64), dims, strides,
                                 window, start, end, dil)
        else:
            want = avg_pool_grad(dy.astype(np.float64), xshape, dims, strides, window, start,
                                 end, include)
        g = tensor(t, dy)
        if dy_strides:
            g["strides"] = dy_strides
        inputs = {"InputGradientTensor": g}
        if x is not None:
            inputs["InputTensor"] = tensor(t, x)
        if out_strides:
            inputs["OutputGradientTensor"] = {"type": t, "shape": list(xshape),
                                              "strides": out_strides}
        c = case(op, name, inputs, attrs, {"OutputGradientTensor": tensor(t, want)})
        # A sum of k terms: k + 2 ulps, or where it cancels (k + 2) epsilons of the output type
        # times the largest sum of the terms' magnitudes.
        k = int(np.prod([-(-w // st) for w, st in zip(window, strides)])) * (
            int(np.prod(dil)) if dil else 1)
        eps = 2.0**-10 if t == "FLOAT16" else 2.0**-23
        c["tolerance"] = {"ulp": k + 2, "abs": (k + 2) * eps * MAGNITUDE["max"]}
        out.append(c)

    one("AVERAGE_POOLING_GRAD", "page-example", "FLOAT32", ex.astype(np.float32), (1, 1, 3, 3),
        (1, 1), (2, 2), (0, 0), (0, 0), {"IncludePadding": False})
    xm = np.array([[[[1, 2, 3], [2, 4, 2], [5, 6, 7]]]], np.float32)
    one("MAX_POOLING_GRAD", "page-example", "FLOAT32", np.array([[[[1, 2], [4, 5]]]], np.float32),
        (1, 1, 3, 3), (1, 1), (2, 2), (0, 0), (0, 0), {"Dilations": [1, 1]}, x=xm, dil=[1, 1])
    # Ties and signed zeros: equal maxima to the lowest logical index, +0 above -0.
    xt = np.array([[[[5, 5, 5, -0.0, 0.0]]]], np.float32)
    one("MAX_POOLING_GRAD", "ties", "FLOAT32", np.array([[[[10, 20, 40, 80]]]], np.float32),
        (1, 1, 1, 5), (1, 1), (1, 2), (0, 0), (0, 0), {"Dilations": [1, 1]}, x=xt, dil=[1, 1])
    configs = [
        # dims, xshape spatial, strides, window, start, end, dilations, include, ceil
        (2, (5, 6), (2, 2), (3, 3), (1, 1), (1, 1), (1, 1), True, False),
        (2, (5, 6), (2, 2), (3, 3), (1, 0), (0, 1), (1, 2), False, False),
        (2, (4, 7), (1, 3), (2, 3), (0, 2), (0, 0), (2, 1), False, True),
        (2, (6, 6), (3, 3), (2, 2), (0, 0), (0, 0), (1, 1), True, False),
        (3, (3, 4, 5), (1, 2, 2), (2, 2, 3), (0, 1, 1), (1, 0, 1), (1, 1, 1), True, False),
        (3, (4, 3, 4), (2, 1, 2), (2, 2, 2), (0, 0, 0), (0, 0, 0), (1, 2, 1), False, True),
    ]
    for k, (dims, sp, st, win, s0, e0, dil, include, ceil) in enumerate(configs):
        for t in ("FLOAT32", "FLOAT16"):
            xshape = (2, 3) + sp
            ys = []
            for i in range(dims):
                padded = sp[i] + s0[i] + e0[i]
                span = (win[i] - 1) * dil[i] + 1
                y = 1 if span > padded else (padded - span) // st[i] + 1
                if ceil and span <= padded and (padded - span) % st[i]:
                    y += 1
                ys.append(y)
            yshape = (2, 3) + tuple(ys)
            dy = (RNG.integers(-64, 64, yshape) / 8).astype(NUMPY_TYPES[t])
            one("AVERAGE_POOLING_GRAD", f"{t.lower()}-{k}", t, dy, xshape, st, win, s0, e0,
                {"IncludePadding": include}, include=include) if dil == (1,) * dims else None
            # Features with ties in half the cases, distinct in the others (the derivative check).
            if k % 2:
                x = RNG.integers(-3, 4, xshape).astype(NUMPY_TYPES[t])
            else:
                x = RNG.permutation(np.arange(np.prod(xshape)) - 40).reshape(xshape) / 4
                x = x.astype(NUMPY_TYPES[t])
            one("MAX_POOLING_GRAD", f"{t.lower()}-{k}", t, dy, xshape, st, win, s0, e0,
                {"Dilations": list(dil)}, x=x, dil=list(dil))
    # Strided tensors: a transposed gradient, a padded output.
    dy = (np.arange(1, 13) / 4).reshape(1, 3, 2, 2).astype(np.float32)
    one("AVERAGE_POOLING_GRAD", "strided", "FLOAT32", dy, (1, 3, 4, 4), (2, 2), (2, 2), (0, 0),
        (0, 0), {"IncludePadding": True}, include=True, dy_strides=[12, 1, 3, 6],
        out_strides=[64, 20, 5, 1])
    # Validation: one case per rule.
    g = lambda t, s: {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa: E731
    o = lambda t, s: {"type": t, "shape": list(s)}  # noqa: E731
    base = {"Strides": [1, 1], "WindowSize": [2, 2], "StartPadding": [0, 0], "EndPadding": [0, 0]}
    bad = [
        ("AVERAGE_POOLING_GRAD", "int32", {"InputGradientTensor": g("INT32", (1, 1, 2, 2)),
                                          "OutputGradientTensor": o("INT32", (1, 1, 3, 3))},
         dict(base, IncludePadding=False), "InputGradientTensor.DataType: FLOAT32, FLOAT16"),
        ("AVERAGE_POOLING_GRAD", "output-type", {"InputGradientTensor": g("FLOAT32", (1, 1, 2, 2)),
                                                "OutputGradientTensor": o("FLOAT16", (1, 1, 3, 3))},
         dict(base, IncludePadding=False), "OutputGradientTensor.DataType: InputGradientTensor's"),
        ("AVERAGE_POOLING_GRAD", "gradient-sizes", {
            "InputGradientTensor": g("FLOAT32", (1, 1, 3, 2)),
            "OutputGradientTensor": o("FLOAT32", (1, 1, 3, 3))},
         dict(base, IncludePadding=False), "InputGradientTensor.Sizes: the forward output's"),
        ("AVERAGE_POOLING_GRAD", "zero-window", {"InputGradientTensor": g("FLOAT32", (1, 1, 2, 2)),
                                                "OutputGradientTensor": o("FLOAT32", (1, 1, 3, 3))},
         dict(base, WindowSize=[2, 0], IncludePadding=False), "WindowSize: at least 1"),
        ("MAX_POOLING_GRAD", "input-sizes", {"InputTensor": g("FLOAT32", (1, 1, 3, 4)),
                                             "InputGradientTensor": g("FLOAT32", (1, 1, 2, 2)),
                                             "OutputGradientTensor": o("FLOAT32", (1, 1, 3, 3))},
         dict(base, Dilations=[1, 1]), "InputTensor.Sizes: OutputGradientTensor's"),
        ("MAX_POOLING_GRAD", "zero-dilation", {"InputTensor": g("FLOAT32", (1, 1, 3, 3)),
                                               "InputGradientTensor": g("FLOAT32", (1, 1, 2, 2)),
                                               "OutputGradientTensor": o("FLOAT32", (1, 1, 3, 3))},
         dict(base, Dilations=[0, 1]), "Dilations: at least 1"),
        ("MAX_POOLING_GRAD", "three-dimensions", {"InputTensor": g("FLOAT32", (1, 3, 3)),
                                                  "InputGradientTensor": g("FLOAT32", (1, 2, 2)),
                                                  "OutputGradientTensor": o("FLOAT32", (1, 3, 3))},
         dict(base, Dilations=[1, 1]), "OutputGradientTensor.DimensionCount: 4 or 5"),
    ]
    for op, name, inputs, attrs, note in bad:
        out.append(case(op, f"invalid-{name}", inputs, attrs, error="invalid_argument", note=note))
    return out


def main():
    cases = relu_cases() + clip_cases("ELEMENT_WISE_CLIP_GRAD") + clip_cases("ELEMENT_WISE_CLIP_GRAD1")
    cases += slice_cases()
    cases += pooling_cases()
    path = os.path.join(CASES, "directml", "grad.json")
    write(path, cases)
    print(f"{path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
