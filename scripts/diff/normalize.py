#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's normalisations, arg-reductions, scans and top-k against
numpy.

Each case draws an operator that scripts/diff/reduce.py leaves out: BATCH_NORMALIZATION (Mean,
Variance, Scale, Bias per channel or of random broadcast, held with Sizes of 1 or read through
stride 0; Spatial; Epsilon, now and then 0 or negative), MEAN_VARIANCE_NORMALIZATION
(CrossChannel, NormalizeVariance), MEAN_VARIANCE_NORMALIZATION1 with ScaleTensor or BiasTensor,
MEAN_VARIANCE_NORMALIZATION2 (Axes, UseMean, UseVariance, optional broadcast Scale and Bias),
the three fusing RELU or SIGMOID now and then like batch normalisation; LP_NORMALIZATION (Axis,
P 1 or 2, Epsilon); LOCAL_RESPONSE_NORMALIZATION (CrossChannel, LocalSize 1 to 7, Alpha, Beta,
Bias); the 1.0 ACTIVATION_SOFTMAX, _LOG_SOFTMAX and _HARDMAX (effective rank at most 2, the
last dimension) and ACTIVATION_HARDMAX1 (Axes); ARGMAX and ARGMIN (Axes in any order, none now
and then, AxisDirection, INT32, UINT32, INT64 or UINT64 indices); CUMULATIVE_SUMMATION and
CUMULATIVE_PRODUCT (Axis, AxisDirection, exclusive); TOP_K and TOP_K1 (Axis, K from 1 to the
axis's size, AxisDirection, UINT32 or UINT64 indices). Ranks 1 to 8 (4 the most drawn;
MEAN_VARIANCE_NORMALIZATION and LOCAL_RESPONSE_NORMALIZATION 4 only), at most 20000 elements,
types from each operator's table (docs/operators.md). The input is read and the outputs written
through packed, permuted or padded strides (the input's padding holds values that would show).
Values: uniform, few significant bits, many ties, rows far from 0, whole integer ranges, and
special values where their rule is stated: NaN, infinities and signed zeros for ARGMAX, ARGMIN,
HARDMAX and top-k (docs/operators.md: a NaN is never picked over a number, an all-NaN row gives
the first index, with DECREASING the last; NaN ranks above every number in top-k; -0 equals
+0), NaN and infinities through the formulas of batch and mean-variance normalisation, the 1.0
softmax and log-softmax (a row holding +inf, or only -inf, NaN) and the scans, infinities and
zero rows for LP normalisation (max(norm, Epsilon)). CUMULATIVE_* in place is not drawn:
dmlcl_compiled_operator_execute copies each tensor to a buffer of its own (tests/ops/scan_topk.c
runs it in place).

The DirectML descriptor runs through libdmlcl (ctypes, the package's dmlcl._native). The
reference is numpy in float64 (integers in their own width: numpy's wrap), written from ONNX's
definitions and DirectML's pages: BatchNormalization's inference; the pages' Scale·(x − m)/
√(v + Epsilon) + Bias with the biased variance (ONNX LayerNormalization; without UseMean,
SimplifiedLayerNormalization); LpNormalization over max(norm, Epsilon); LRN's window from
c − ⌊(n−1)/2⌋ to c + ⌈(n−1)/2⌉ clipped, within a channel that window on H and on W, divided by
LocalSize (the page's formula); Hardmax; ArgMax and ArgMin with select_last_index; CumSum with
exclusive and reverse; TopK sorted, equal values by ascending index in both directions (the
TOP_K1 page). Tolerances (reference/precision.md, else docs/operators.md's bound; a FLOAT16
output one ULP of its own more): batch normalisation 6 ULP; the mean-variance normalisations
1/1024 absolute (times |Scale| past 1) or 2 ULP; LP_NORMALIZATION N + 3 ULP; LRN 32 + k + 2 ULP
(k the squares summed); SOFTMAX 3N + 3 ULP; LOG_SOFTMAX 3N + 3 ULP or (N + 3) ULPs of 1
absolute; a fused SIGMOID 34 ULP plus the error before it through its slope; the scans
n·2^-24·Σ|x| (sum) and n·2^-24·|p| (product) for a result of n terms; hardmax, indices, top-k
values (bit-exact) and integers exact; NaN matches any NaN.

    python scripts/diff/normalize.py [--seed N] [--cases N] [--only K] [-v]

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import n, execute_typed as _execute, tensor as _tensor, uints as _uints  # noqa: E402

CODES = {  # DML_OPERATOR_*
    "BATCH_NORMALIZATION": 72, "MEAN_VARIANCE_NORMALIZATION": 73,
    "MEAN_VARIANCE_NORMALIZATION1": 115, "MEAN_VARIANCE_NORMALIZATION2": 171,
    "LP_NORMALIZATION": 75, "LOCAL_RESPONSE_NORMALIZATION": 74, "ACTIVATION_SOFTMAX": 48,
    "ACTIVATION_LOG_SOFTMAX": 41, "ACTIVATION_HARDMAX": 36, "ACTIVATION_HARDMAX1": 160,
    "ARGMAX": 138, "ARGMIN": 137, "CUMULATIVE_SUMMATION": 105, "CUMULATIVE_PRODUCT": 145,
    "TOP_K": 71, "TOP_K1": 112,
}
ACTIVATIONS = {"RELU": 44, "SIGMOID": 47}  # DML_OPERATOR_ACTIVATION_*
FLOATS = [np.float32, np.float16]
SMALL_INTEGERS = [np.int32, np.int16, np.int8, np.uint32, np.uint16, np.uint8]
SCAN_TYPES = FLOATS + [np.int64, np.int32, np.uint64, np.uint32]
TOP_K_TYPES = FLOATS + [np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32, np.uint16,
                        np.uint8]
ARG_INDICES = [np.int32, np.uint32, np.int64, np.uint64]
LIMIT = 20000  # elements per case
_P = ctypes.POINTER(n.TensorDesc)
_U = ctypes.c_uint32
_F = ctypes.c_float
_I = ctypes.c_int
_ACT = ctypes.POINTER(n.OperatorDesc)
_AXES = [("AxisCount", _U), ("Axes", ctypes.POINTER(_U))]


class BatchNormDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Mean", _P), ("Variance", _P), ("Scale", _P), ("Bias", _P),
                ("Out", _P), ("Spatial", _I), ("Epsilon", _F), ("Fused", _ACT)]


class MvnDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Scale", _P), ("Bias", _P), ("Out", _P), ("CrossChannel", _I),
                ("NormalizeVariance", _I), ("Epsilon", _F), ("Fused", _ACT)]


class Mvn1Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Scale", _P), ("Bias", _P), ("Out", _P)] + _AXES + [
        ("NormalizeVariance", _I), ("Epsilon", _F), ("Fused", _ACT)]


class Mvn2Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Scale", _P), ("Bias", _P), ("Out", _P)] + _AXES + [
        ("UseMean", _I), ("UseVariance", _I), ("Epsilon", _F), ("Fused", _ACT)]


class LpDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("Axis", _U), ("Epsilon", _F), ("P", _U)]


class LrnDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("CrossChannel", _I), ("LocalSize", _U),
                ("Alpha", _F), ("Beta", _F), ("Bias", _F)]


class UnaryDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)]


class AxesDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)] + _AXES


class ArgDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)] + _AXES + [("AxisDirection", _I)]


class ScanDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("Axis", _U), ("AxisDirection", _I),
                ("HasExclusive", _I)]


class TopKDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Values", _P), ("Indices", _P), ("Axis", _U), ("K", _U)]


class TopK1Desc(ctypes.Structure):
    _fields_ = TopKDesc._fields_ + [("AxisDirection", _I)]


# ---- Tensors, layouts and memory ----------------------------------------------------------


def _strides(shape, order=None, pad=None, zero=None):
    """Strides of shape laid out in `order` (outermost first; default the logical order), each
    dimension `pad` elements longer in memory, 0 where zero[d] (a dimension read through stride
    0)."""
    rank = len(shape)
    order = list(range(rank)) if order is None else order
    pad = [0] * rank if pad is None else pad
    strides, step = [0] * rank, 1
    for d in reversed(order):
        if zero is not None and zero[d]:
            continue
        strides[d] = step
        step *= shape[d] + pad[d]
    return strides


def _layout(rng, shape, p_permuted=0.3, p_padded=0.2):
    """Packed strides, or those of a permuted memory order, with padding now and then."""
    rank = len(shape)
    order = [int(d) for d in rng.permutation(rank)] if rng.random() < p_permuted else None
    pad = [int(rng.integers(0, 3)) for _ in range(rank)] if rng.random() < p_padded else None
    return _strides(shape, order, pad)


def _extent(sizes, strides):
    return sum((s - 1) * st for s, st in zip(sizes, strides)) + 1


def _filler(dtype, count):
    """What the bytes strides skip hold: values that change any result they leak into."""
    if np.dtype(dtype).kind == "f":
        return np.resize(np.array([777.0, -777.0], dtype=dtype), count)
    info = np.iinfo(dtype)
    return np.resize(np.array([info.max, info.min], dtype=dtype), count)


def _memory(x, strides):
    """x's elements where strides place them (element [i...] at sum(i * stride)), the rest
    filler."""
    mem = _filler(x.dtype, _extent(x.shape, strides))
    idx = np.indices(x.shape).reshape(x.ndim, -1)
    mem[np.dot(np.array(strides, dtype=np.int64), idx)] = x.reshape(-1)
    return mem


def _read(mem, sizes, strides):
    idx = np.indices(sizes).reshape(len(sizes), -1)
    return mem[np.dot(np.array(strides, dtype=np.int64), idx)].reshape(sizes)


# ---- Drawing cases ------------------------------------------------------------------------

SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0]


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def _rank(rng):
    return 4 if rng.random() < 0.4 else int(rng.integers(1, 9))


def _shape(rng, rank, long_axis=None):
    """Sizes of rank dimensions, smaller the more there are, at most LIMIT elements; long_axis
    (now and then) up to 48."""
    top = {1: 64, 2: 24, 3: 12, 4: 9, 5: 6}.get(rank, 4)
    shape = [int(rng.integers(1, top + 1)) for _ in range(rank)]
    if long_axis is not None and rng.random() < 0.5:
        shape[long_axis] = int(rng.integers(1, 49))
    while int(np.prod(shape)) > LIMIT:
        d = max((s, i) for i, s in enumerate(shape) if i != long_axis)[1]
        shape[d] = max(1, shape[d] // 2)
    return shape


def _axes(rng, rank, p_empty=0.0):
    """A set of distinct axes in random order (the pages: any order), empty now and then."""
    if rng.random() < p_empty:
        return []
    count = int(rng.integers(1, rank + 1))
    return [int(a) for a in rng.choice(rank, count, replace=False)]


def _values(rng, dtype, shape, kinds):
    kind = _pick(rng, kinds)
    if np.dtype(dtype).kind == "f":
        if kind == "few bits":
            x = rng.integers(-512, 513, shape) / 128.0
        elif kind == "ties":
            x = rng.integers(-3, 4, shape) / 2.0
        elif kind == "far from 0":  # a row's mean large beside its spread
            x = 10.0 + rng.uniform(-1.0, 1.0, shape)
        elif kind == "products":  # magnitudes in [0.5, 2): long products stay finite
            x = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
        else:
            x = rng.uniform(-4.0, 4.0, shape)
        return kind, x.astype(dtype)
    info = np.iinfo(dtype)
    if kind == "whole range":
        return kind, rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    lo = max(info.min, -20)
    return kind, rng.integers(lo, lo + 41, shape).astype(dtype)


def _with_specials(rng, x, pool, fraction=0.2):
    x = x.copy()
    hit = rng.random(x.shape) < fraction
    x[hit] = np.array(pool, dtype=np.float64)[rng.integers(len(pool), size=int(hit.sum()))]
    return x


def _whole_rows(rng, x, axes, value, fraction=0.3):
    """x with some rows (the elements sharing the coordinates off `axes`) all `value`."""
    row_shape = [1 if d in axes else s for d, s in enumerate(x.shape)]
    return np.where(rng.random(row_shape) < fraction, np.array(value, dtype=x.dtype), x)


def _activation(rng):
    return None if rng.random() < 0.7 else _pick(rng, ["RELU", "SIGMOID"])


def _param(rng, name, held, shape):
    """An input broadcast to shape: Sizes of 1 where held has 1 (the operator broadcasts), or
    the full Sizes read through stride 0 there."""
    if rng.random() < 0.5:
        return (name, held, list(held.shape), _layout(rng, held.shape, 0.3, 0.0))
    zero = [h == 1 and s > 1 for h, s in zip(held.shape, shape)]
    return (name, held, list(shape), _strides(shape, zero=zero))


def _broadcast_shape(rng, shape, per_channel, keep=()):
    """A shape of 1 or shape's size per dimension: channel (dimension 1) only, or random;
    dimensions in keep never 1."""
    if per_channel and len(shape) > 1:
        return [s if d == 1 or d in keep else 1 for d, s in enumerate(shape)]
    return [s if d in keep or rng.random() < 0.5 else 1 for d, s in enumerate(shape)]


def _case(rng, op, dtype, shape, kinds, specials=None, p_specials=0.0):
    kind, x = _values(rng, dtype, shape, kinds)
    if specials and np.dtype(dtype).kind == "f" and rng.random() < p_specials:
        kind, x = kind + " with specials", _with_specials(rng, x, specials)
    return dict(op=op, dtype=dtype, shape=list(shape), x=x, x_strides=_layout(rng, shape),
                values=kind, act=None, fields={}, params=[], outputs=[])


def _same_output(rng, case):
    """The one output: the input's type and Sizes, its own layout."""
    shape = case["shape"]
    case["outputs"].append((shape, case["dtype"], _layout(rng, shape, 0.2, 0.15)))
    return case


def _make_batch_norm(rng, op):
    shape = _shape(rng, _rank(rng))
    act = _activation(rng)
    case = _case(rng, op, _pick(rng, FLOATS), shape, ["uniform", "few bits"],
                 None if act else [np.nan, np.inf, -np.inf], 0.15)
    spatial = bool(rng.integers(2))
    # Variance + Epsilon 0 or negative: non-finite results (no activation: RELU's NaN unsaid).
    degenerate = act is None and rng.random() < 0.1
    per_channel = rng.random() < 0.6
    for name, lo, hi in (("MeanTensor", -2, 2), ("VarianceTensor", 0.05, 4),
                         ("ScaleTensor", -2, 2), ("BiasTensor", -2, 2)):
        # Spatial FALSE (4.0 made it a no-op): Mean and Variance not broadcast over H and W.
        keep = ()
        if not spatial and len(shape) >= 3 and name in ("MeanTensor", "VarianceTensor"):
            keep = (len(shape) - 2, len(shape) - 1)
        held_shape = _broadcast_shape(rng, shape, per_channel, keep)
        held = rng.uniform(lo, hi, held_shape)
        if degenerate and name == "VarianceTensor":
            held[rng.random(held_shape) < 0.5] = 0.0
        case["params"].append(_param(rng, name, held.astype(case["dtype"]), shape))
    eps = _pick(rng, [0.0, -0.25]) if degenerate else _pick(rng, [1e-5, 1e-3, 0.1])
    case.update(act=act)
    case["fields"].update(Spatial=int(spatial), Epsilon=eps)
    return _same_output(rng, case)


def _scale_bias(rng, case, need_one):
    """Optional ScaleTensor and BiasTensor (either alone), each of random broadcast."""
    present = [rng.random() < 0.6, rng.random() < 0.6]
    if need_one and not any(present):
        present[int(rng.integers(2))] = True
    for name, on in zip(("ScaleTensor", "BiasTensor"), present):
        if not on:
            case["params"].append((name, None, None, None))
            continue
        held = rng.uniform(-2, 2, _broadcast_shape(rng, case["shape"], False))
        case["params"].append(_param(rng, name, held.astype(case["dtype"]), case["shape"]))


def _make_mvn(rng, op):
    rank = 4 if op == "MEAN_VARIANCE_NORMALIZATION" else _rank(rng)
    shape = _shape(rng, rank)
    act = _activation(rng)
    case = _case(rng, op, _pick(rng, FLOATS), shape, ["uniform", "few bits", "ties", "far from 0"],
                 None if act else [np.nan, np.inf, -np.inf], 0.1)
    f = case["fields"]
    if op == "MEAN_VARIANCE_NORMALIZATION":
        f["CrossChannel"] = int(rng.integers(2))
        case["axes"] = [1, 2, 3] if f["CrossChannel"] else [2, 3]
    else:
        f["Axes"] = case["axes"] = _axes(rng, rank)
    if op == "MEAN_VARIANCE_NORMALIZATION2":
        f["UseMean"] = int(rng.random() < 0.7)
        f["UseVariance"] = int(rng.random() < 0.75)
    else:
        f["NormalizeVariance"] = int(rng.random() < 0.75)
    f["Epsilon"] = _pick(rng, [1e-5, 1e-3, 0.1, 1.0])
    # MVN1 without ScaleTensor and BiasTensor is scripts/diff/reduce.py's.
    _scale_bias(rng, case, op == "MEAN_VARIANCE_NORMALIZATION1")
    case["act"] = act
    return _same_output(rng, case)


def _make_lp(rng, op):
    rank = _rank(rng)
    axis = int(rng.integers(rank))
    case = _case(rng, op, _pick(rng, FLOATS), _shape(rng, rank, axis), ["uniform", "few bits"],
                 [np.inf, -np.inf], 0.1)
    if rng.random() < 0.3:  # zero rows: divided by Epsilon (0/0 with Epsilon 0)
        case["x"] = _whole_rows(rng, case["x"], [axis], _pick(rng, [0.0, -0.0]))
        case["values"] += " with zero rows"
    case["fields"].update(Axis=axis, Epsilon=_pick(rng, [1e-5, 1e-3, 0.5, 0.0]),
                          P=int(rng.integers(1, 3)))
    return _same_output(rng, case)


def _make_lrn(rng, op):
    shape = [int(rng.integers(1, 3)), int(rng.integers(1, 10)), int(rng.integers(1, 10)),
             int(rng.integers(1, 10))]
    case = _case(rng, op, _pick(rng, FLOATS), shape, ["uniform", "few bits"])
    beta = _pick(rng, [0.75, 0.5, 1.0, float(np.float32(rng.uniform(0.1, 1.0)))])
    case["fields"].update(CrossChannel=int(rng.integers(2)), LocalSize=int(rng.integers(1, 8)),
                          Alpha=_pick(rng, [1e-4, 0.01, 0.5, 1.0]), Beta=beta,
                          Bias=_pick(rng, [1.0, 2.0, 0.5]))
    return _same_output(rng, case)


def _make_softmax(rng, op):
    rank = _rank(rng)
    if op == "ACTIVATION_HARDMAX1":
        shape = _shape(rng, rank)
        case_axes = _axes(rng, rank)
    else:  # the 1.0 operators: every dimension before the last two 1, the last normalised
        shape = [int(rng.integers(1, 65))]
        if rank > 1:
            shape = [1] * (rank - 2) + [int(rng.integers(1, 17))] + shape
        case_axes = [rank - 1]
    hard = op.startswith("ACTIVATION_HARDMAX")
    # Softmax and log-softmax too: a row holding +inf or only -inf is NaN, as numpy's formula
    # makes it (docs/operators.md).
    case = _case(rng, op, _pick(rng, FLOATS), shape, ["uniform", "few bits", "ties"],
                 SPECIALS, 0.3 if hard else 0.2)
    if hard and rng.random() < 0.2:
        case["x"] = _whole_rows(rng, case["x"], case_axes, np.nan)
        case["values"] += " with NaN rows"
    case["axes"] = case_axes
    if op == "ACTIVATION_HARDMAX1":
        case["fields"]["Axes"] = case_axes
    return _same_output(rng, case)


def _make_arg(rng, op):
    rank = _rank(rng)
    floats = rng.random() < 0.6
    dtype = _pick(rng, FLOATS if floats else SMALL_INTEGERS)
    kinds = ["uniform", "ties"] if floats else ["whole range", "ties"]
    shape = _shape(rng, rank)
    case = _case(rng, op, dtype, shape, kinds, SPECIALS, 0.3)
    axes = _axes(rng, rank, 0.1)
    if floats and rng.random() < 0.15:
        case["x"] = _whole_rows(rng, case["x"], axes, np.nan)
        case["values"] += " with NaN rows"
    case["axes"] = axes
    case["fields"].update(Axes=axes, AxisDirection=int(rng.integers(2)))
    out_shape = [1 if d in axes else s for d, s in enumerate(shape)]
    index = _pick(rng, ARG_INDICES)
    case["outputs"].append((out_shape, index, _layout(rng, out_shape, 0.2, 0.15)))
    return case


def _make_scan(rng, op):
    rank = _rank(rng)
    axis = int(rng.integers(rank))
    dtype = _pick(rng, SCAN_TYPES) if rng.random() < 0.4 else _pick(rng, FLOATS)
    if np.dtype(dtype).kind != "f":
        kinds = ["whole range", "ties"]
    elif op == "CUMULATIVE_PRODUCT":
        kinds = ["products", "few bits"]
    else:
        kinds = ["uniform", "few bits"]
    case = _case(rng, op, dtype, _shape(rng, rank, axis), kinds, SPECIALS, 0.1)
    exclusive = "HasExclusiveSum" if op == "CUMULATIVE_SUMMATION" else "HasExclusiveProduct"
    case["fields"].update({"Axis": axis, "AxisDirection": int(rng.integers(2)),
                           exclusive: int(rng.integers(2))})
    return _same_output(rng, case)


def _make_top_k(rng, op):
    rank = _rank(rng)
    axis = int(rng.integers(rank))
    dtype = _pick(rng, TOP_K_TYPES) if rng.random() < 0.5 else _pick(rng, FLOATS)
    floats = np.dtype(dtype).kind == "f"
    shape = _shape(rng, rank, axis)
    case = _case(rng, op, dtype, shape, ["uniform", "ties"] if floats else ["whole range", "ties"],
                 SPECIALS, 0.3)
    size = shape[axis]
    k = size if rng.random() < 0.2 else int(rng.integers(1, size + 1))
    case["fields"].update(Axis=axis, K=k)
    if op == "TOP_K1":
        case["fields"]["AxisDirection"] = int(rng.integers(2))
    out_shape = [k if d == axis else s for d, s in enumerate(shape)]
    for t in (dtype, _pick(rng, [np.uint32, np.uint64])):
        case["outputs"].append((out_shape, t, _layout(rng, out_shape, 0.2, 0.15)))
    return case


MAKERS = {
    "BATCH_NORMALIZATION": (_make_batch_norm, 3), "MEAN_VARIANCE_NORMALIZATION": (_make_mvn, 1),
    "MEAN_VARIANCE_NORMALIZATION1": (_make_mvn, 1), "MEAN_VARIANCE_NORMALIZATION2": (_make_mvn, 3),
    "LP_NORMALIZATION": (_make_lp, 2), "LOCAL_RESPONSE_NORMALIZATION": (_make_lrn, 2),
    "ACTIVATION_SOFTMAX": (_make_softmax, 1), "ACTIVATION_LOG_SOFTMAX": (_make_softmax, 1),
    "ACTIVATION_HARDMAX": (_make_softmax, 1), "ACTIVATION_HARDMAX1": (_make_softmax, 2),
    "ARGMAX": (_make_arg, 2), "ARGMIN": (_make_arg, 2), "CUMULATIVE_SUMMATION": (_make_scan, 2),
    "CUMULATIVE_PRODUCT": (_make_scan, 2), "TOP_K": (_make_top_k, 1), "TOP_K1": (_make_top_k, 2),
}  # operator: (its drawer, its weight among the operators)
_DRAW = [op for op, (_, weight) in MAKERS.items() for _ in range(weight)]


def make_case(rng):
    op = _DRAW[int(rng.integers(len(_DRAW)))]
    return MAKERS[op][0](rng, op)


# ---- Running through dmlcl ----------------------------------------------------------------


def _fused(case, keep):
    if case["act"] is None:
        return None
    ad = UnaryDesc(None, None)
    od = n.OperatorDesc(ACTIVATIONS[case["act"]], ctypes.cast(ctypes.pointer(ad), ctypes.c_void_p))
    keep += [ad, od]
    return ctypes.pointer(od)


def _desc(case, ins, outs, keep):
    """The operator's DirectML descriptor over the tensors ins and outs (binding order)."""
    op, f = case["op"], case["fields"]
    axes = [len(f.get("Axes", [])), _uints(f.get("Axes", []), keep)]
    if op == "BATCH_NORMALIZATION":
        return BatchNormDesc(*ins, *outs, f["Spatial"], f["Epsilon"], _fused(case, keep))
    if op == "MEAN_VARIANCE_NORMALIZATION":
        return MvnDesc(*ins, *outs, f["CrossChannel"], f["NormalizeVariance"], f["Epsilon"],
                       _fused(case, keep))
    if op == "MEAN_VARIANCE_NORMALIZATION1":
        return Mvn1Desc(*ins, *outs, *axes, f["NormalizeVariance"], f["Epsilon"],
                        _fused(case, keep))
    if op == "MEAN_VARIANCE_NORMALIZATION2":
        return Mvn2Desc(*ins, *outs, *axes, f["UseMean"], f["UseVariance"], f["Epsilon"],
                        _fused(case, keep))
    if op == "LP_NORMALIZATION":
        return LpDesc(*ins, *outs, f["Axis"], f["Epsilon"], f["P"])
    if op == "LOCAL_RESPONSE_NORMALIZATION":
        return LrnDesc(*ins, *outs, f["CrossChannel"], f["LocalSize"], f["Alpha"], f["Beta"],
                       f["Bias"])
    if op == "ACTIVATION_HARDMAX1":
        return AxesDesc(*ins, *outs, *axes)
    if op.startswith("ACTIVATION_"):
        return UnaryDesc(*ins, *outs)
    if op in ("ARGMAX", "ARGMIN"):
        return ArgDesc(*ins, *outs, *axes, f["AxisDirection"])
    if op.startswith("CUMULATIVE_"):
        exclusive = f.get("HasExclusiveSum", f.get("HasExclusiveProduct"))
        return ScanDesc(*ins, *outs, f["Axis"], f["AxisDirection"], exclusive)
    if op == "TOP_K":
        return TopKDesc(*ins, *outs, f["Axis"], f["K"])
    return TopK1Desc(*ins, *outs, f["Axis"], f["K"], f["AxisDirection"])


def _inputs(case):
    """(name, held array or None, Sizes, Strides) per input in binding order."""
    return [("InputTensor", case["x"], case["shape"], case["x_strides"])] + case["params"]


def run_dml(case):
    """The outputs dmlcl writes: one array, or for top-k records of (value, index)."""
    keep = []
    ins = [None if a is None else _tensor(a.dtype, sizes, strides, keep)
           for _, a, sizes, strides in _inputs(case)]
    outs = [_tensor(t, sizes, strides, keep) for sizes, t, strides in case["outputs"]]
    d = _desc(case, ins, outs, keep)
    op = n.OperatorDesc(CODES[case["op"]], ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    mems = [None if a is None else _memory(a, strides) for _, a, _, strides in _inputs(case)]
    got = _execute(ctypes.pointer(op), mems, [([_extent(sizes, strides)], t)
                                              for sizes, t, strides in case["outputs"]])
    got = [_read(g, sizes, strides) for g, (sizes, _, strides) in zip(got, case["outputs"])]
    return got[0] if len(got) == 1 else _records(*got)


def _records(values, indices):
    both = np.empty(values.shape, dtype=[("value", values.dtype), ("index", np.uint64)])
    both["value"], both["index"] = values, indices
    return both


# ---- The reference ------------------------------------------------------------------------


def _f32(v):
    """A FLOAT field's value as the descriptor holds it."""
    return float(np.float32(v))


def _spacing(v, dtype):
    """The ULP of |v| in dtype, as float64 (NaN where v is not finite)."""
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.spacing(np.abs(np.asarray(v, dtype=np.float64)).astype(dtype)).astype(np.float64)
    return np.where(np.isfinite(s), s, np.nan)


def _held(case, name, default):
    for k, a, _, _ in case["params"]:
        if k == name:
            return default if a is None else a.astype(np.float64)
    return default


def _activate(case, y, bound, tol):
    """y, bound and tol through the fused activation, applied to the float32 result: its error
    before (tol ULP of float32 and bound) carried through the slope, plus the activation's."""
    if case["act"] is None:
        return y, bound, tol
    before = bound + tol * _spacing(y, np.float32)
    if case["act"] == "RELU":
        return np.maximum(y, 0.0), before, tol
    with np.errstate(over="ignore"):
        s = 1.0 / (1.0 + np.exp(-y))
    return s, s * (1.0 - s) * before + 34 * _spacing(s, np.float32), 34


def _ref_batch_norm(case):
    x = case["x"].astype(np.float64)
    names = ("MeanTensor", "VarianceTensor", "ScaleTensor", "BiasTensor")
    m, v, s, b = (_held(case, k, None) for k in names)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = s * ((x - m) / np.sqrt(v + _f32(case["fields"]["Epsilon"]))) + b
    return _activate(case, y, np.zeros(y.shape), 6)


def _ref_mvn(case):
    f, axes = case["fields"], tuple(case["axes"])
    x = case["x"].astype(np.float64)
    with np.errstate(invalid="ignore"):
        y = x - np.mean(x, axis=axes, keepdims=True) if f.get("UseMean", 1) else x
        if f.get("UseVariance", f.get("NormalizeVariance")):
            y = y / np.sqrt(np.mean(y * y, axis=axes, keepdims=True) + _f32(f["Epsilon"]))
        scale = _held(case, "ScaleTensor", 1.0)
        y = scale * y + _held(case, "BiasTensor", 0.0)
    bound = np.broadcast_to(np.maximum(1.0, np.abs(scale)) / 1024, y.shape)
    return _activate(case, y, bound, 2)


def _ref_lp(case):
    f = case["fields"]
    x = case["x"].astype(np.float64)
    if f["P"] == 1:
        norm = np.sum(np.abs(x), axis=f["Axis"], keepdims=True)
    else:
        norm = np.sqrt(np.sum(x * x, axis=f["Axis"], keepdims=True))
    with np.errstate(invalid="ignore"):
        y = x / np.maximum(norm, _f32(f["Epsilon"]))
    return y, np.zeros(y.shape), case["shape"][f["Axis"]] + 3


def _ref_lrn(case):
    """ONNX LRN's window, c - floor((n-1)/2) to c + ceil((n-1)/2) clipped, across channels, or
    that window on H and on W within a channel; divided by LocalSize either way."""
    f = case["fields"]
    x = case["x"].astype(np.float64)
    size = f["LocalSize"]
    lo, hi = (size - 1) // 2, size - 1 - (size - 1) // 2
    sq = x * x
    s = np.zeros(x.shape)
    if f["CrossChannel"]:
        for c in range(x.shape[1]):
            s[:, c] = sq[:, max(0, c - lo):c + hi + 1].sum(axis=1)
    else:
        for h in range(x.shape[2]):
            for w in range(x.shape[3]):
                s[:, :, h, w] = sq[:, :, max(0, h - lo):h + hi + 1,
                                   max(0, w - lo):w + hi + 1].sum(axis=(2, 3))
    y = x / (_f32(f["Bias"]) + _f32(f["Alpha"]) / size * s) ** _f32(f["Beta"])
    squares = size if f["CrossChannel"] else size * size
    return y, np.zeros(y.shape), 32 + squares + 2


def _rows(x, axes):
    """x as one row per coordinate off `axes` (each row row-major over the axes in dimension
    order), and the permutation that moved them last."""
    ax = sorted(axes)
    perm = [d for d in range(x.ndim) if d not in ax] + ax
    count = int(np.prod([x.shape[a] for a in ax]))
    return np.transpose(x, perm).reshape(-1, count), perm


def _first(rows, largest, last):
    """Per row the index of the largest (smallest) value: a NaN never over a number, an all-NaN
    row every index a candidate; -0 equals +0; the first candidate, or with last the last."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN row
        best = np.nanmax(rows, axis=1) if largest else np.nanmin(rows, axis=1)
    cand = rows == best[:, None]
    cand[np.isnan(best)] = True
    if last:
        return rows.shape[1] - 1 - np.argmax(cand[:, ::-1], axis=1)
    return np.argmax(cand, axis=1)


def _ref_softmax(case):
    x = case["x"].astype(np.float64)
    axes = tuple(case["axes"])
    count = int(np.prod([case["shape"][a] for a in axes]))
    if case["op"].startswith("ACTIVATION_HARDMAX"):
        rows, perm = _rows(x, axes)
        hot = np.zeros(rows.shape)
        hot[np.arange(rows.shape[0]), _first(rows, True, False)] = 1.0
        moved = hot.reshape([x.shape[d] for d in perm])
        return np.transpose(moved, np.argsort(perm)), None, 0
    with np.errstate(invalid="ignore", divide="ignore"):  # inf - inf, 0 / NaN: NaN rows
        e = np.exp(x - np.max(x, axis=axes, keepdims=True))
        sm = e / np.sum(e, axis=axes, keepdims=True)
    if case["op"] == "ACTIVATION_SOFTMAX":
        return sm, np.zeros(sm.shape), 3 * count + 3
    one = 2.0**-10 if case["dtype"] == np.float16 else 2.0**-23
    with np.errstate(divide="ignore"):  # log 0: -inf beside finite values
        return np.log(sm), np.full(sm.shape, (count + 3) * one), 3 * count + 3


def _ref_arg(case):
    f = case["fields"]
    rows, _ = _rows(case["x"].astype(np.float64), f["Axes"])
    idx = _first(rows, case["op"] == "ARGMAX", f["AxisDirection"] == 1)
    return idx.reshape(case["outputs"][0][0]).astype(np.int64), None, 0


def _ref_scan(case):
    """ONNX CumSum (exclusive, reverse) and its product; integers in their own width (numpy's
    wrap), floats in float64 with the float32 scan's bound."""
    f, x = case["fields"], case["x"]
    axis, product = f["Axis"], case["op"] == "CUMULATIVE_PRODUCT"
    exclusive = f.get("HasExclusiveSum", f.get("HasExclusiveProduct"))
    flip = (lambda a: np.flip(a, axis)) if f["AxisDirection"] == 1 else (lambda a: a)
    x = flip(x)
    if np.dtype(x.dtype).kind != "f":
        acc = (np.cumprod if product else np.cumsum)(x, axis=axis, dtype=x.dtype)
        return flip(_shifted(acc, axis, exclusive, 1 if product else 0)), None, 0
    xd = x.astype(np.float64)
    terms = np.arange(1, x.shape[axis] + 1).reshape([-1 if d == axis else 1
                                                     for d in range(x.ndim)])
    with np.errstate(invalid="ignore", over="ignore"):
        acc = (np.cumprod if product else np.cumsum)(xd, axis=axis)
        mag = np.abs(acc) if product else np.cumsum(np.abs(xd), axis=axis)
        bound = terms * 2.0**-24 * mag
    return (flip(_shifted(acc, axis, exclusive, 1.0 if product else 0.0)),
            flip(_shifted(bound, axis, exclusive, 0.0)), 0)


def _shifted(a, axis, exclusive, first):
    """a, or for an exclusive scan a moved one along axis with `first` in front."""
    if not exclusive:
        return a
    head = np.full([1 if d == axis else s for d, s in enumerate(a.shape)], first, dtype=a.dtype)
    return np.concatenate([head, np.delete(a, -1, axis=axis)], axis=axis)


def _ref_top_k(case):
    """ONNX TopK (sorted) with DirectML's order: equal values by ascending index in both
    directions, NaN above every number. Sorted stably in the input's own type."""
    f = case["fields"]
    axis, k = f["Axis"], f["K"]
    largest = f.get("AxisDirection", 1) == 1
    moved = np.moveaxis(case["x"], axis, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    size = rows.shape[1]
    if largest:  # descending, ties ascending: an ascending stable sort of the reversed row
        order = size - 1 - np.argsort(rows[:, ::-1], axis=1, kind="stable")[:, ::-1]
    else:
        order = np.argsort(rows, axis=1, kind="stable")
    order = order[:, :k]
    values = np.take_along_axis(rows, order, axis=1)
    shape = list(moved.shape[:-1]) + [k]
    back = (lambda a: np.moveaxis(a.reshape(shape), -1, axis))
    return _records(back(values), back(order)), None, 0


REFERENCES = {
    "BATCH_NORMALIZATION": _ref_batch_norm, "MEAN_VARIANCE_NORMALIZATION": _ref_mvn,
    "MEAN_VARIANCE_NORMALIZATION1": _ref_mvn, "MEAN_VARIANCE_NORMALIZATION2": _ref_mvn,
    "LP_NORMALIZATION": _ref_lp, "LOCAL_RESPONSE_NORMALIZATION": _ref_lrn,
    "ACTIVATION_SOFTMAX": _ref_softmax, "ACTIVATION_LOG_SOFTMAX": _ref_softmax,
    "ACTIVATION_HARDMAX": _ref_softmax, "ACTIVATION_HARDMAX1": _ref_softmax,
    "ARGMAX": _ref_arg, "ARGMIN": _ref_arg, "CUMULATIVE_SUMMATION": _ref_scan,
    "CUMULATIVE_PRODUCT": _ref_scan, "TOP_K": _ref_top_k, "TOP_K1": _ref_top_k,
}


def reference(case):
    """(expected: float64, integers, or top-k records; per-element absolute bound, None where
    the result is exact; ULP tolerance)."""
    return REFERENCES[case["op"]](case)


# ---- Checking -----------------------------------------------------------------------------


def _bits(a):
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])


def check(case, got):
    want, bound, tol = reference(case)
    got = np.asarray(got).reshape(want.shape)
    if case["op"].startswith("TOP_K"):  # values bit-exact, indices exact
        wrong = (_bits(got["value"]) != _bits(want["value"])) | (got["index"] != want["index"])
        return np.flatnonzero(wrong), want
    if bound is None:  # indices, integers, hardmax
        if np.dtype(got.dtype).kind == "f":
            return np.flatnonzero(ulps(got, want, got.dtype) != 0), want
        return np.flatnonzero(got.astype(np.int64) != want.astype(np.int64)), want
    dt = case["dtype"]
    half = dt == np.float16
    g = got.astype(np.float64)
    # A FLOAT16 output: the float32 result rounded once more, half an ULP of its own.
    with np.errstate(invalid="ignore"):  # infinity - infinity: ulps already says 0 apart
        slack = np.abs(want) * (2.0**-11 if half else 0.0)
        close = (ulps(got, want, dt) <= tol + half) | (np.abs(g - want) <= bound + slack)
    nan = np.isnan(want)
    close = np.where(nan | np.isnan(g), nan & np.isnan(g), close)  # NaN matches any NaN
    return np.flatnonzero(~close), want


def _tensor_text(sizes, strides):
    packed = _strides(sizes)
    return f"{sizes}" + ("" if list(strides) == packed else f" strides {list(strides)}")


def describe(case):
    params = [f"{k} {'-' if a is None else _tensor_text(sizes, strides)}"
              for k, a, sizes, strides in case["params"]]
    outs = [f"{np.dtype(t).name} {_tensor_text(sizes, strides)}"
            for sizes, t, strides in case["outputs"]]
    fields = " ".join(f"{k} {v}" for k, v in case["fields"].items())
    act = f" FusedActivation {case['act']}" if case["act"] else ""
    return (f"{case['op']} {np.dtype(case['dtype']).name} In "
            f"{_tensor_text(case['shape'], case['x_strides'])} "
            + "".join(p + " " for p in params)
            + f"Out {', '.join(outs)} {fields}{act} values {case['values']}")


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("normalisations, arg-reductions, scans and top-k", make_case, run_dml, check,
                     describe, n.Error, seed, cases, only, verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 1000, argv)


if __name__ == "__main__":
    sys.exit(main())
