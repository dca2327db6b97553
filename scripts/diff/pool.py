#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's pooling operators against numpy.

Each case draws an operator (MAX_POOLING2, with or without its OutputIndicesTensor, UINT32 or
UINT64; AVERAGE_POOLING1, IncludePadding either way; LP_POOLING1 with P 1, 2 or 3), 2 or 3
spatial dimensions (input sizes 1 to 9, batch 1 or 2, channels 1 to 4), WindowSize, Strides
and Dilations 1 to 3, StartPadding and EndPadding 0 to 2 apart, the output at the size rule's
floor or (ceil_mode, now and then) ONNX's ceiling, a type (FLOAT32 or FLOAT16; for max pooling
also the eight integer types), the input packed or channels-last in memory (read through its
strides), and values with few significant bits, with many ties, or plain uniform ones. The
DirectML descriptor runs through libdmlcl (ctypes, the package's dmlcl._native). The reference
is numpy in float64 (max pooling in the input's own type) written from ONNX's MaxPool,
AveragePool and LpPool: the window on spatial axis i covers o·Strides - StartPadding +
k·Dilations, k < WindowSize, and its positions outside the input are never read; max: the
first of equal maxima in the window's row-major order, its index the element's flat position
in the input's Sizes (ONNX's Indices, storage_order 0); average: divided by the positions
inside the input, or with IncludePadding inside the padded input; LP: (Σ|x|^P)^(1/P). No
window is drawn that holds no input element: ONNX leaves it undefined and ONNX Runtime refuses
padding that wide (dmlcl's own choice, docs/operators.md#pooling, has its conformance cases in
conformance/cases/directml/pool.json).
Tolerances: max exact, value and index (reference/precision.md); average k + 2 ULP (k the
window's element count; precision.md) or where the sum cancels (k + 1)·2^-24·Σ|x| / count (a
FLOAT16 output one rounding more); LP k + 2 ULP for P 1, k + 5 for P 2 and k + 66 for P 3
(docs/operators.md: sqrt 3 ULP, pow twice 32 ULP).

    python scripts/diff/pool.py [--seed N] [--cases N] [--only K] [-v]

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import (  # noqa: E402  (after the path)
    n,
    execute_typed as _execute,
    memory as _memory,
    packed as _packed,
    tensor as _tensor,
    uints as _uints,
)

CODES = {"MAX_POOLING2": 110, "AVERAGE_POOLING1": 166, "LP_POOLING1": 165}  # DML_OPERATOR_*
INTEGERS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
_P = ctypes.POINTER(n.TensorDesc)
_U = ctypes.POINTER(ctypes.c_uint32)
_WINDOW = [("DimensionCount", ctypes.c_uint32), ("Strides", _U), ("WindowSize", _U),
           ("StartPadding", _U), ("EndPadding", _U), ("Dilations", _U)]


class MaxPooling2Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("Indices", _P)] + _WINDOW


class AveragePooling1Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)] + _WINDOW + [("IncludePadding", ctypes.c_int)]


class LpPooling1Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)] + _WINDOW + [("P", ctypes.c_uint32)]


def out_sizes(sizes, window, strides, dilations, start, end, ceil):
    """ONNX's output size per spatial axis: floor, or with ceil_mode the ceiling less a last
    window that would start in the end padding."""
    out = []
    for i, w in enumerate(window):
        span = sizes[i] + start[i] + end[i] - ((w - 1) * dilations[i] + 1)
        o = span // strides[i] + 1
        if ceil and span % strides[i] and o * strides[i] < sizes[i] + start[i]:
            o += 1
        out.append(o)
    return out


def _empty_window(size, window, stride, dilation, start, out):
    """Whether a window on this axis holds no input element (all padding: a case ONNX leaves
    undefined, ONNX Runtime refusing the padding)."""
    for o in range(out):
        if not any(0 <= o * stride - start + k * dilation < size for k in range(window)):
            return True
    return False


def _draw_geometry(rng):
    """The spatial arrays and the output sizes, or None where a window is larger than its
    padded input or holds no input element."""
    sp = int(rng.integers(2, 4))
    sizes = [int(rng.integers(1, 10)) for _ in range(sp)]
    window = [int(rng.integers(1, 4)) for _ in range(sp)]
    strides = [int(rng.integers(1, 4)) for _ in range(sp)]
    dilations = [int(rng.integers(1, 4)) for _ in range(sp)]
    start = [int(rng.integers(0, 3)) for _ in range(sp)]
    end = [int(rng.integers(0, 3)) for _ in range(sp)]
    ceil = rng.random() < 0.25
    if any((w - 1) * d + 1 > s + a + b for w, d, s, a, b in
           zip(window, dilations, sizes, start, end)):
        return None
    out = out_sizes(sizes, window, strides, dilations, start, end, ceil)
    if any(_empty_window(*axis) for axis in zip(sizes, window, strides, dilations, start, out)):
        return None
    return dict(sp=sp, sizes=sizes, window=window, strides=strides, dilations=dilations,
                start=start, end=end, ceil=ceil, out=out)


def _draw_values(rng, dtype, shape):
    kind = str(rng.choice(["few bits", "few bits", "ties", "uniform"]))
    if np.dtype(dtype).kind == "f":
        if kind == "few bits":
            return kind, (rng.integers(-512, 513, shape) / 128.0).astype(dtype)
        if kind == "ties":
            return kind, (rng.integers(-3, 4, shape) / 2.0).astype(dtype)
        return kind, rng.uniform(-2.0, 2.0, shape).astype(dtype)
    info = np.iinfo(dtype)
    if kind == "uniform":  # the whole range, its extremes included
        return kind, rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    lo = max(info.min, -20)
    return kind, rng.integers(lo, lo + 41, shape).astype(dtype)


def make_case(rng):
    geo = None
    while geo is None:
        geo = _draw_geometry(rng)
    op = str(rng.choice(["MAX_POOLING2"] * 4 + ["AVERAGE_POOLING1"] * 3 + ["LP_POOLING1"] * 3))
    if op == "MAX_POOLING2" and rng.random() < 0.25:
        dtype = INTEGERS[int(rng.integers(len(INTEGERS)))]
    else:
        dtype = np.float16 if rng.random() < 0.3 else np.float32
    x_shape = [int(rng.integers(1, 3)), int(rng.integers(1, 5))] + geo["sizes"]
    kind, x = _draw_values(rng, dtype, x_shape)
    indices = None
    if op == "MAX_POOLING2":
        indices = [None, np.uint32, np.uint64][int(rng.choice(3, p=[0.3, 0.4, 0.3]))]
    order = [0] + list(range(2, 2 + geo["sp"])) + [1] if rng.random() < 0.25 else None
    return dict(geo, op=op, dtype=dtype, x_shape=x_shape, out_shape=x_shape[:2] + geo["out"],
                x=x, values=kind, indices=indices, order=order,
                include_padding=bool(rng.integers(2)), p=int(rng.integers(1, 4)))


def run_dml(case):
    keep = []
    dt = case["dtype"]
    x_strides = _packed(case["x_shape"], case["order"])
    tx = _tensor(dt, case["x_shape"], x_strides, keep)
    to = _tensor(dt, case["out_shape"], _packed(case["out_shape"]), keep)
    window = [case["sp"]] + [_uints(case[k], keep) for k in
                             ("strides", "window", "start", "end", "dilations")]
    if case["op"] == "MAX_POOLING2":
        ti = (_tensor(case["indices"], case["out_shape"], _packed(case["out_shape"]), keep)
              if case["indices"] else None)
        d = MaxPooling2Desc(tx, to, ti, *window)
    elif case["op"] == "AVERAGE_POOLING1":
        d = AveragePooling1Desc(tx, to, *window, int(case["include_padding"]))
    else:
        d = LpPooling1Desc(tx, to, *window, case["p"])
    keep.append(d)
    op = n.OperatorDesc(CODES[case["op"]], ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    inputs = [_memory(case["x"], x_strides)]
    if case["op"] != "MAX_POOLING2":
        return _execute(ctypes.pointer(op), inputs, [(case["out_shape"], dt)])[0]
    idx_shape = case["out_shape"] if case["indices"] else None
    values, idx = _execute(ctypes.pointer(op), inputs, [(case["out_shape"], dt),
                                                        (idx_shape, case["indices"])])
    return _with_indices(values, idx)


def _with_indices(values, idx):
    """values, or with idx one record (value, index) per element, so a mismatch prints both."""
    if idx is None:
        return values
    both = np.empty(values.shape, dtype=[("value", values.dtype), ("index", np.uint64)])
    both["value"], both["index"] = values, idx
    return both


def _axis(a, i, rank):
    """a laid along axis 2 + i of a rank-`rank` tensor (every other axis 1)."""
    return a.reshape([-1 if j == 2 + i else 1 for j in range(rank)])


def _taps(case):
    """Per tap k of the window, in row-major order: the input element each output reads (its
    position clipped into the input), whether that position is inside the input, whether it is
    inside the padded input, and the element's flat index in the input's Sizes."""
    x, sp, rank = case["x"], case["sp"], case["x"].ndim
    nb, ch = x.shape[:2]
    for k in np.ndindex(*case["window"]):
        pos = [np.arange(case["out"][i]) * case["strides"][i] - case["start"][i] +
               k[i] * case["dilations"][i] for i in range(sp)]
        inside = np.ones([1] * rank, dtype=bool)
        padded = np.ones([1] * rank, dtype=bool)
        flat = (np.arange(nb).reshape([-1] + [1] * (rank - 1)) * ch +
                np.arange(ch).reshape([1, -1] + [1] * sp))
        clipped = []
        for i, p in enumerate(pos):
            size = case["sizes"][i]
            inside = inside & _axis((p >= 0) & (p < size), i, rank)
            padded = padded & _axis((p >= -case["start"][i]) & (p < size + case["end"][i]), i,
                                    rank)
            c = np.clip(p, 0, size - 1)
            flat = flat * size + _axis(c, i, rank)
            clipped.append(c)
        taken = x[(slice(None), slice(None)) + np.ix_(*clipped)]
        yield taken, inside, padded, flat


def reference(case):
    """(expected: values, or records of value and index for max pooling with indices;
    per-element absolute bound; ULP tolerance)."""
    shape, dt = case["out_shape"], case["dtype"]
    if case["op"] == "MAX_POOLING2":
        lowest = -np.inf if np.dtype(dt).kind == "f" else np.iinfo(dt).min
        best = np.full(shape, lowest, dtype=dt)
        index = np.zeros(shape, dtype=np.uint64)
        seen = np.zeros(shape, dtype=bool)
        for taken, inside, _, flat in _taps(case):
            take = inside & (~seen | (taken > best))  # strictly greater: the first maximum
            best = np.where(take, taken, best)
            index = np.where(take, flat.astype(np.uint64), index)
            seen = seen | inside
        return _with_indices(best, index if case["indices"] else None), None, 0
    total = np.zeros(shape)
    magnitude = np.zeros(shape)
    count = np.zeros(shape)
    for taken, inside, padded, _ in _taps(case):
        v = np.where(inside, np.abs(taken.astype(np.float64)), 0.0)
        if case["op"] == "AVERAGE_POOLING1":
            total += np.where(inside, taken.astype(np.float64), 0.0)
            magnitude += v
            count += padded if case["include_padding"] else inside
        else:
            total += v ** case["p"]
    k = int(np.prod(case["window"]))
    if case["op"] == "LP_POOLING1":
        return total ** (1.0 / case["p"]), np.zeros(shape), k + {1: 2, 2: 5}.get(case["p"], 66)
    return total / count, (k + 1) * 2.0**-24 * magnitude / count, k + 2


def check(case, got):
    want, bound, tol = reference(case)
    dt = case["dtype"]
    if case["op"] == "MAX_POOLING2":
        g, w = (got["value"], want["value"]) if case["indices"] else (got, want)
        wrong = ulps(g, w, dt) != 0 if np.dtype(dt).kind == "f" else g != w
        if case["indices"]:
            wrong = wrong | (got["index"] != want["index"])
        return np.flatnonzero(wrong), want
    # A FLOAT16 output: the float32 result rounded once more, half an ULP of its own.
    slack = np.abs(want) * (2.0**-11 if dt == np.float16 else 0.0)
    u = ulps(got, want, dt)
    close = (u <= tol) | (np.abs(got.astype(np.float64) - want) <= bound + slack) | (u <= 1)
    return np.flatnonzero(~close), want


def describe(case):
    layout = "channels-last" if case["order"] else "packed"
    extra = ""
    if case["op"] == "MAX_POOLING2":
        idx = case["indices"]
        extra = f" OutputIndicesTensor {np.dtype(idx).name.upper() if idx else '-'}"
    elif case["op"] == "AVERAGE_POOLING1":
        extra = f" IncludePadding {int(case['include_padding'])}"
    else:
        extra = f" P {case['p']}"
    return (f"{case['op']} {np.dtype(case['dtype']).name} In{case['x_shape']} ({layout}) "
            f"Out{case['out_shape']}{' (ceil_mode)' if case['ceil'] else ''} WindowSize "
            f"{case['window']} Strides {case['strides']} Dilations {case['dilations']} "
            f"StartPadding {case['start']} EndPadding {case['end']}{extra} values "
            f"{case['values']}")


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("pooling", make_case, run_dml, check, describe, n.Error, seed, cases, only,
                     verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 300, argv)


if __name__ == "__main__":
    sys.exit(main())
