#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's GEMM against numpy.

Each case draws FLOAT32 or FLOAT16, a rank of 2 to 6 (batch dimensions of sizes 1 to 3), M, N
and K from 1 to 70, TransA and TransB, C present or absent (its batch and matrix dimensions
numpy-broadcast from 1, read through zero strides), a batch broadcast of A or B (ONNX MatMul's:
zero strides), Alpha and Beta, and a fused RELU or SIGMOID now and then; values with few
significant bits. The DirectML descriptor runs through libdmlcl (ctypes, the package's
dmlcl._native); the reference is numpy's matmul in float64 (alpha * A'B' + beta * C, the
activation, rounded once to the output type). Tolerance (reference/precision.md): 2·K ULP,
+1 for alpha, +1 for C, or where the sum cancels 2·(K+1)·2^-24·|alpha|·Σ|a·b| + 2^-23·|beta·c|
(float32 accumulation), plus the activation's own.

    python scripts/diff/gemm.py [--seed N] [--cases N] [--only K] [-v]

DMLCL_DIFF_GEMM_MAX=D draws M, N and K up to D instead (ranks 2 and 3 past 70): products of
several GPU tiles (cl/tile.cl's 128 x 128 and smaller) with partial ones, e.g. with
DMLCL_DEVICE_CLASS=gpu.

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import n, tensor as _tensor  # noqa: E402

GEMM = 54  # DML_OPERATOR_GEMM
RELU, SIGMOID = 44, 47  # DML_OPERATOR_ACTIVATION_RELU, _SIGMOID
_P = ctypes.POINTER(n.TensorDesc)


class GemmDesc(ctypes.Structure):
    _fields_ = [("A", _P), ("B", _P), ("C", _P), ("Out", _P), ("TransA", ctypes.c_int),
                ("TransB", ctypes.c_int), ("Alpha", ctypes.c_float), ("Beta", ctypes.c_float),
                ("Fused", ctypes.POINTER(n.OperatorDesc))]


class ActDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)]


def _packed_strides(shape, broadcast):
    """Packed strides of shape, 0 where broadcast[i] (the array holds 1 there)."""
    strides, step = [0] * len(shape), 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = 0 if broadcast[i] else step
        step *= 1 if broadcast[i] else shape[i]
    return strides


_MAX = int(os.environ.get("DMLCL_DIFF_GEMM_MAX", "70"))


def make_case(rng):
    dtype = np.float16 if rng.random() < 0.3 else np.float32
    rank = int(rng.integers(2, 7 if _MAX <= 70 else 4))
    batch = [int(rng.integers(1, 4)) if rank > 2 else 1 for _ in range(rank - 2)]
    m, nn, k = (int(rng.integers(1, _MAX + 1)) for _ in range(3))
    ta, tb = bool(rng.integers(2)), bool(rng.integers(2))
    a_shape = batch + ([k, m] if ta else [m, k])
    b_shape = batch + ([nn, k] if tb else [k, nn])
    out_shape = batch + [m, nn]
    # Batch broadcast of A or B (a dimension read through stride 0), C broadcast anywhere.
    a_bc = [rank > 2 and rng.random() < 0.2 for _ in batch] + [False, False]
    b_bc = [rank > 2 and rng.random() < 0.2 for _ in batch] + [False, False]
    has_c = rng.random() < 0.5
    c_bc = [rng.random() < 0.3 for _ in out_shape]
    alpha = float(rng.choice([1.0, 1.0, -1.0, 0.5, 2.0]))
    beta = float(rng.choice([1.0, 0.5, -2.0, 0.0]))
    act = None if rng.random() < 0.7 else ("relu" if rng.random() < 0.5 else "sigmoid")

    def draw(shape, bc):
        held = [1 if b else s for s, b in zip(shape, bc)]
        return (rng.integers(-512, 513, held) / 128.0).astype(dtype)
    a, b = draw(a_shape, a_bc), draw(b_shape, b_bc)
    c = draw(out_shape, c_bc) if has_c else None
    return dict(dtype=dtype, ta=ta, tb=tb, a=a, b=b, c=c, a_shape=a_shape, b_shape=b_shape,
                out_shape=out_shape, a_bc=a_bc, b_bc=b_bc, c_bc=c_bc, alpha=alpha, beta=beta,
                act=act, k=k)


def run_dml(case):
    keep = []
    dt = case["dtype"]
    ta = _tensor(dt, case["a_shape"], _packed_strides(case["a_shape"], case["a_bc"]), keep)
    tb = _tensor(dt, case["b_shape"], _packed_strides(case["b_shape"], case["b_bc"]), keep)
    tc = (_tensor(dt, case["out_shape"], _packed_strides(case["out_shape"], case["c_bc"]), keep)
          if case["c"] is not None else None)
    to = _tensor(dt, case["out_shape"], _packed_strides(case["out_shape"],
                                                        [False] * len(case["out_shape"])), keep)
    fused = None
    if case["act"]:
        ad = ActDesc(None, None)
        od = n.OperatorDesc(RELU if case["act"] == "relu" else SIGMOID,
                            ctypes.cast(ctypes.pointer(ad), ctypes.c_void_p))
        keep += [ad, od]
        fused = ctypes.pointer(od)
    d = GemmDesc(ta, tb, tc, to, int(case["ta"]), int(case["tb"]), case["alpha"], case["beta"],
                 fused)
    keep.append(d)
    op = n.OperatorDesc(GEMM, ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    return n.execute(ctypes.pointer(op), [case["a"], case["b"], case["c"]], case["out_shape"], dt)


def reference(case):
    """Exact value and accumulation bound, float64."""
    a = np.broadcast_to(case["a"], case["a_shape"]).astype(np.float64)
    b = np.broadcast_to(case["b"], case["b_shape"]).astype(np.float64)
    if case["ta"]:
        a = np.swapaxes(a, -1, -2)
    if case["tb"]:
        b = np.swapaxes(b, -1, -2)
    y = case["alpha"] * np.matmul(a, b)
    bound = 2 * (case["k"] + 1) * 2.0**-24 * abs(case["alpha"]) * np.matmul(np.abs(a), np.abs(b))
    if case["c"] is not None:
        c = np.broadcast_to(case["c"], case["out_shape"]).astype(np.float64)
        y = y + case["beta"] * c
        bound = bound + 2.0**-23 * np.abs(case["beta"] * c)
    if case["act"] == "relu":
        y = np.maximum(y.astype(np.float32).astype(np.float64), 0)
    elif case["act"] == "sigmoid":
        y = 1 / (1 + np.exp(-y.astype(np.float32).astype(np.float64)))
        bound = bound + 2.0**-20  # sigmoid's 34 ULP near 1, within its slope of 1/4
    return y, bound


def check(case, got):
    want, bound = reference(case)
    dt = case["dtype"]
    tol = 2 * case["k"] + (case["alpha"] != 1) + (case["c"] is not None) + (34 if case["act"] ==
                                                                                 "sigmoid" else 0)
    g = got.astype(np.float64)
    close = (ulps(got, want, dt) <= tol) | (np.abs(g - want) <= bound) | \
        (ulps(got, want, dt) <= 1)
    return np.flatnonzero(~close), want


def describe(case):
    return (f"{np.dtype(case['dtype']).name} A{case['a_shape']} bc{case['a_bc']} "
            f"B{case['b_shape']} bc{case['b_bc']} TransA {int(case['ta'])} TransB "
            f"{int(case['tb'])} C {'-' if case['c'] is None else case['out_shape']} "
            f"bc{case['c_bc']} alpha {case['alpha']} beta {case['beta']} act {case['act']}")


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("GEMM", make_case, run_dml, check, describe, n.Error, seed, cases, only,
                     verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 200, argv)


if __name__ == "__main__":
    sys.exit(main())
