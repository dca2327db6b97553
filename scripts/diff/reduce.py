#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's reductions and normalisations against numpy.

Each case draws an operator (REDUCE with one of its twelve functions, ACTIVATION_SOFTMAX1,
ACTIVATION_LOG_SOFTMAX1, MEAN_VARIANCE_NORMALIZATION1), a rank of 1 to 5 with sizes 1 to 9,
a non-empty set of axes, a type (FLOAT32 or FLOAT16; INT32 or UINT32 for REDUCE's SUM,
MULTIPLY, MAX, MIN, ARGMAX and ARGMIN), and a layout: packed, or the input read through the
strides of a permuted memory order (a transposed tensor, never copied first). The DirectML
descriptor runs through libdmlcl (ctypes, the package's dmlcl._native); the reference is
numpy in float64 (Python integers' wrap for the integer types), rounded once to the output
type. Tolerances, reference/precision.md: exact for MAX, MIN, ARGMAX, ARGMIN and integers;
SUM, AVERAGE, L1, SUM_SQUARE, MULTIPLY N + 2 ULP (N the elements a result reduces) or the
float32 sum's bound (N + 1)·2^-24·Σ|x| where it cancels; L2 N + 2 ULP; LOG_SUM and
LOG_SUM_EXP, LOG_SOFTMAX1, MVN1 (a layer normalisation) 1/1024 absolute; SOFTMAX1 3N + 3 ULP;
a FLOAT16 output one ULP of its own more.

    python scripts/diff/reduce.py [--seed N] [--cases N] [--only K] [-v]

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import n, packed as _packed, tensor as _tensor  # noqa: E402

REDUCE, SOFTMAX1, LOG_SOFTMAX1, MVN1 = 55, 158, 159, 115  # DML_OPERATOR_*
FUNCTIONS = ["ARGMAX", "ARGMIN", "AVERAGE", "L1", "L2", "LOG_SUM", "LOG_SUM_EXP", "MAX", "MIN",
             "MULTIPLY", "SUM", "SUM_SQUARE"]  # DML_REDUCE_FUNCTION order
INTEGER_FUNCTIONS = {"ARGMAX", "ARGMIN", "MAX", "MIN", "MULTIPLY", "SUM"}
_P = ctypes.POINTER(n.TensorDesc)


class ReduceDesc(ctypes.Structure):
    _fields_ = [("Function", ctypes.c_int), ("In", _P), ("Out", _P),
                ("AxisCount", ctypes.c_uint32), ("Axes", ctypes.POINTER(ctypes.c_uint32))]


class SoftmaxDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("AxisCount", ctypes.c_uint32),
                ("Axes", ctypes.POINTER(ctypes.c_uint32))]


class Mvn1Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Scale", _P), ("Bias", _P), ("Out", _P),
                ("AxisCount", ctypes.c_uint32), ("Axes", ctypes.POINTER(ctypes.c_uint32)),
                ("NormalizeVariance", ctypes.c_int), ("Epsilon", ctypes.c_float),
                ("Fused", ctypes.c_void_p)]


def make_case(rng):
    op = rng.choice(["REDUCE"] * 6 + ["SOFTMAX1", "LOG_SOFTMAX1", "MVN1"])
    func = str(rng.choice(FUNCTIONS)) if op == "REDUCE" else None
    rank = int(rng.integers(1, 6))
    shape = [int(rng.integers(1, 10)) for _ in range(rank)]
    axes = sorted(int(a) for a in rng.choice(rank, int(rng.integers(1, rank + 1)),
                                             replace=False))
    if func in INTEGER_FUNCTIONS and rng.random() < 0.3:
        dtype = np.int32 if rng.random() < 0.5 else np.uint32
    else:
        dtype = np.float16 if rng.random() < 0.3 else np.float32
    order = list(rng.permutation(rank)) if rng.random() < 0.4 else None
    if np.dtype(dtype).kind == "f":
        if func == "MULTIPLY":  # products of magnitudes in [0.5, 2): no overflow
            x = rng.uniform(0.5, 2.0, shape) * rng.choice([-1, 1], shape)
        elif func in ("LOG_SUM",):  # a positive sum
            x = rng.uniform(0.0, 4.0, shape)
        else:
            x = rng.uniform(-8.0, 8.0, shape)
        x = x.astype(dtype)
    elif dtype == np.int32:
        x = rng.integers(-1000, 1001, shape).astype(np.int32)
        if func == "MULTIPLY":
            x = rng.integers(-40000, 40001, shape).astype(np.int32)  # wraps modulo 2^32
    else:
        x = rng.integers(0, 2000, shape).astype(np.uint32)
    out_shape = [1 if d in axes else s for d, s in enumerate(shape)]
    if op != "REDUCE" or func is None:
        out_shape = list(shape)
    return dict(op=str(op), func=func, shape=shape, axes=axes, dtype=dtype, order=order, x=x,
                out_shape=out_shape, variance=bool(rng.integers(2)), epsilon=1e-5)


def out_dtype(case):
    if case["func"] in ("ARGMAX", "ARGMIN"):
        return np.uint32
    return case["dtype"]


def run_dml(case):
    keep = []
    dt = case["dtype"]
    x = case["x"]
    order = case["order"]
    strides = _packed(case["shape"], order)
    # The input's memory in that order: element [i...] at sum(i * stride).
    mem = np.zeros(int(np.prod(case["shape"])), dtype=dt)
    idx = np.indices(case["shape"]).reshape(len(case["shape"]), -1)
    mem[np.dot(np.array(strides), idx)] = x.reshape(-1)
    ti = _tensor(dt, case["shape"], strides, keep)
    odt = out_dtype(case)
    to = _tensor(odt, case["out_shape"], _packed(case["out_shape"]), keep)
    axes = (ctypes.c_uint32 * len(case["axes"]))(*case["axes"])
    keep.append(axes)
    if case["op"] == "REDUCE":
        d = ReduceDesc(FUNCTIONS.index(case["func"]), ti, to, len(case["axes"]), axes)
        code = REDUCE
    elif case["op"] in ("SOFTMAX1", "LOG_SOFTMAX1"):
        d = SoftmaxDesc(ti, to, len(case["axes"]), axes)
        code = SOFTMAX1 if case["op"] == "SOFTMAX1" else LOG_SOFTMAX1
    else:
        d = Mvn1Desc(ti, None, None, to, len(case["axes"]), axes, int(case["variance"]),
                     case["epsilon"], None)
        code = MVN1
    keep.append(d)
    op = n.OperatorDesc(code, ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    inputs = [mem] if case["op"] != "MVN1" else [mem, None, None]
    return n.execute(ctypes.pointer(op), inputs, case["out_shape"], odt)


def reference(case):
    """(expected float64 or integer array, per-element absolute bound, ULP tolerance)."""
    x, axes, f = case["x"], tuple(case["axes"]), case["func"]
    count = int(np.prod([case["shape"][a] for a in axes]))
    if np.dtype(case["dtype"]).kind in "iu" and f not in ("ARGMAX", "ARGMIN"):
        xi = x.astype(object)
        if f == "SUM":
            r = np.sum(xi, axis=axes, keepdims=True)
        elif f == "MULTIPLY":
            r = np.prod(xi, axis=axes, keepdims=True)
        elif f == "MAX":
            r = np.max(xi, axis=axes, keepdims=True)
        else:
            r = np.min(xi, axis=axes, keepdims=True)
        bits = 32
        wrapped = np.vectorize(lambda v: int(v) % (1 << bits))(r)
        if case["dtype"] == np.int32:
            wrapped = np.where(wrapped >= 1 << 31, wrapped - (1 << 32), wrapped)
        return wrapped.astype(np.int64), None, 0
    xd = x.astype(np.float64)
    if f in ("ARGMAX", "ARGMIN"):
        rest = [d for d in range(xd.ndim) if d not in axes]
        moved = np.transpose(xd, rest + list(axes))
        flat = moved.reshape([xd.shape[d] for d in rest] + [-1])
        idx = np.argmax(flat, -1) if f == "ARGMAX" else np.argmin(flat, -1)
        return idx.reshape(case["out_shape"]).astype(np.int64), None, 0
    s = np.sum(np.abs(xd), axis=axes, keepdims=True) if axes else np.abs(xd)
    if case["op"] == "SOFTMAX1" or case["op"] == "LOG_SOFTMAX1":
        m = np.max(xd, axis=axes, keepdims=True)
        e = np.exp(xd - m)
        sm = e / np.sum(e, axis=axes, keepdims=True)
        if case["op"] == "SOFTMAX1":
            return sm, np.full(sm.shape, 2.0**-30), 3 * count + 3
        return np.log(sm), np.full(sm.shape, 1 / 1024), 0
    if case["op"] == "MVN1":
        mean = np.mean(xd, axis=axes, keepdims=True)
        y = xd - mean
        if case["variance"]:
            y = y / np.sqrt(np.mean(y * y, axis=axes, keepdims=True) + case["epsilon"])
        return y, np.full(y.shape, 1 / 1024), 0
    bound = (count + 1) * 2.0**-24
    if f == "SUM":
        return np.sum(xd, axis=axes, keepdims=True), bound * s, count + 2
    if f == "AVERAGE":
        return np.mean(xd, axis=axes, keepdims=True), bound * s / count, count + 2
    if f == "L1":
        return s, bound * s, count + 2
    if f == "SUM_SQUARE":
        q = np.sum(xd * xd, axis=axes, keepdims=True)
        return q, bound * q, count + 2
    if f == "L2":
        q = np.sqrt(np.sum(xd * xd, axis=axes, keepdims=True))
        return q, bound * q, count + 2
    if f == "MULTIPLY":
        p = np.prod(xd, axis=axes, keepdims=True)
        return p, bound * np.abs(p), count + 2
    if f == "MAX":
        return np.max(xd, axis=axes, keepdims=True), np.zeros(s.shape), 0
    if f == "MIN":
        return np.min(xd, axis=axes, keepdims=True), np.zeros(s.shape), 0
    if f == "LOG_SUM":
        return np.log(np.sum(xd, axis=axes, keepdims=True)), np.full(s.shape, 1 / 1024), 0
    m = np.max(xd, axis=axes, keepdims=True)  # LOG_SUM_EXP
    r = m + np.log(np.sum(np.exp(xd - m), axis=axes, keepdims=True))
    return r, np.full(r.shape, 1 / 1024), 0


def check(case, got):
    want, bound, tol = reference(case)
    got = np.asarray(got).reshape(want.shape)
    if bound is None:  # exact: integers and indices
        return np.flatnonzero(got.astype(np.int64) != want), want
    dt = case["dtype"]
    g = got.astype(np.float64)
    u = ulps(got, want, dt)
    half = dt == np.float16
    # A FLOAT16 output: rounded once more, half an ULP of its own (one counted).
    slack = np.abs(want) * (2.0**-11 if half else 0.0)
    with np.errstate(invalid="ignore"):  # infinity - infinity: u already says 0 apart
        close = (u <= tol + (1 if half else 0)) | (np.abs(g - want) <= bound + slack)
    if tol == 0 and case["func"] in ("MAX", "MIN"):
        close = u == 0
    return np.flatnonzero(~close), want


def describe(case):
    what = case["op"] + (" " + case["func"] if case["func"] else "")
    return (f"{what} {np.dtype(case['dtype']).name} {case['shape']} axes {case['axes']} "
            f"memory order {case['order']}")


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("reductions", make_case, run_dml, check, describe, n.Error, seed, cases, only,
                     verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 1000, argv)


if __name__ == "__main__":
    sys.exit(main())
