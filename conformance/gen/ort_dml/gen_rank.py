# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/rank.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"
def bstr(src, shape):
    r = len(shape); src = (1,) * (r - len(src)) + tuple(src); st = []; acc = 1
    for i in reversed(range(r)):
        if src[i] == 1: st.append(0)
        else: st.append(acc); acc *= src[i]
    return list(reversed(st))
sh = (2, 1, 2, 1, 2, 1, 2, 2)
A = rnd(sh); Bs = (1, 2, 1, 2, 1, 1, 2, 1); Bv = rnd(Bs)
out8 = np.broadcast_shapes(sh, Bs)
cases.append(case("add-8d-bcast", "DML_OPERATOR_ELEMENT_WISE_ADD",
    {"ATensor": T(F, np.broadcast_to(A, out8), strides=bstr(sh, out8)), "BTensor": T(F, np.broadcast_to(Bv, out8), strides=bstr(Bs, out8))},
    {"OutputTensor": out(F, A + Bv, 1)}))
x = rnd((2, 2, 1, 2, 2, 3))
cases.append(case("reduce-6d", "DML_OPERATOR_REDUCE", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, x.sum(axis=(1, 4), keepdims=True), 6, 1e-6)},
    attrs={"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [4, 1]}))
cases.append(case("argmax-6d", "DML_OPERATOR_ARGMAX", {"InputTensor": T(F, x)}, {"OutputTensor": T("INT64", np.argmax(x, axis=5)[..., None])},
    attrs={"Axes": [5], "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}))
def sm(x, ax):
    e = np.exp(x - x.max(axis=ax, keepdims=True)); return e / e.sum(axis=ax, keepdims=True)
x5 = rnd((2, 1, 2, 3, 4))
cases.append(case("softmax1-5d-axis4", "DML_OPERATOR_ACTIVATION_SOFTMAX1", {"InputTensor": T(F, x5)}, {"OutputTensor": out(F, sm(x5, 4), 20, 1e-7)}, attrs={"Axes": [4]}))
cases.append(case("softmax1-5d-axis1", "DML_OPERATOR_ACTIVATION_SOFTMAX1", {"InputTensor": T(F, x5)}, {"OutputTensor": out(F, sm(x5, 1), 20, 1e-7)}, attrs={"Axes": [1]}))
x6 = rnd((2, 2, 2, 1, 2, 3))
m = x6.mean(axis=(4, 5), keepdims=True); v = ((x6 - m) ** 2).mean(axis=(4, 5), keepdims=True)
cases.append(case("mvn1-6d", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", {"InputTensor": T(F, x6)}, {"OutputTensor": out(F, (x6 - m) / np.sqrt(v + 1e-5), 8, 1 / 1024)},
    attrs={"Axes": [4, 5], "NormalizeVariance": True, "Epsilon": 1e-5}))
xi = rng.integers(-5, 5, (1, 2, 1, 2, 3))
cases.append(case("cumsum-5d", "DML_OPERATOR_CUMULATIVE_SUMMATION", {"InputTensor": T("INT32", xi)}, {"OutputTensor": T("INT32", np.cumsum(xi, axis=3))},
    attrs={"Axis": 3, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": False}))
xt = rnd((1, 2, 1, 2, 5))
idx = np.argsort(-xt, axis=4, kind="stable")[..., :2]
cases.append(case("topk1-5d", "DML_OPERATOR_TOP_K1", {"InputTensor": T(F, xt)}, {"OutputValueTensor": T(F, np.take_along_axis(xt, idx, 4)), "OutputIndexTensor": T("UINT64", idx)},
    attrs={"Axis": 4, "K": 2, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING"}))
xp = rnd((1, 1, 2, 2, 2))
cases.append(case("padding1-5d-reflect", "DML_OPERATOR_PADDING1", {"InputTensor": T(F, xp)}, {"OutputTensor": T(F, np.pad(xp, [(0, 0), (0, 0), (1, 1), (1, 0), (0, 1)], mode="reflect"))},
    attrs={"PaddingMode": "DML_PADDING_MODE_REFLECTION", "PaddingValueDataType": "FLOAT32", "PaddingValue": 0, "StartPadding": [0, 0, 1, 1, 0], "EndPadding": [0, 0, 1, 0, 1]}))
data = rnd((2, 3, 2, 2, 2)); ids = np.array([2, 0, 1, 1])
cases.append(case("gather-5d-axis1", "DML_OPERATOR_GATHER", {"InputTensor": T(F, data), "IndicesTensor": T("INT64", ids.reshape(1, 1, 1, 1, 4))},
    {"OutputTensor": T(F, np.take(data, ids, axis=1))}, attrs={"Axis": 1, "IndexDimensions": 1}))
write("rank.json", cases)
