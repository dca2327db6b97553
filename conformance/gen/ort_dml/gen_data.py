# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/data.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"
def packed(shape):
    st = []; acc = 1
    for s in reversed(shape): st.append(acc); acc *= s
    return list(reversed(st))
# ---- Reduce (native rank, axes in ONNX's order, keepdims 0 keeps reduced dims as 1)
x = rnd((2, 3, 4))
for fn, ref, tol in [("DML_REDUCE_FUNCTION_SUM", lambda v, a: v.sum(axis=a, keepdims=True), (8, 1e-6)),
                     ("DML_REDUCE_FUNCTION_AVERAGE", lambda v, a: v.mean(axis=a, keepdims=True), (10, 1e-6)),
                     ("DML_REDUCE_FUNCTION_MAX", lambda v, a: v.max(axis=a, keepdims=True), (0, None)),
                     ("DML_REDUCE_FUNCTION_L2", lambda v, a: np.sqrt((v * v).sum(axis=a, keepdims=True)), (10, 1e-6)),
                     ("DML_REDUCE_FUNCTION_LOG_SUM_EXP", lambda v, a: np.log(np.exp(v).sum(axis=a, keepdims=True)), (40, 1e-5))]:
    for axes in [[2, 0], [1], [0, 1, 2]]:
        cases.append(case(f"reduce-{fn.split('_')[-1].lower()}-axes-{'-'.join(map(str, axes))}", "DML_OPERATOR_REDUCE",
            {"InputTensor": T(F, x)}, {"OutputTensor": out(F, ref(x, tuple(axes)), *tol)}, attrs={"Function": fn, "Axes": axes}))
# ReduceMean over the last axis of a 4-D FP16 (SimplifiedLayerNorm / RMSNorm style)
xh = rnd((1, 2, 3, 8), "FLOAT16")
cases.append(case("reduce-average-fp16-last", "DML_OPERATOR_REDUCE", {"InputTensor": T("FLOAT16", xh)},
    {"OutputTensor": out("FLOAT16", xh.mean(axis=3, keepdims=True), 12, 2**-10)}, attrs={"Function": "DML_REDUCE_FUNCTION_AVERAGE", "Axes": [3]}))
# ReduceSum INT64
xi = rng.integers(-100, 100, (2, 3, 4))
cases.append(case("reduce-sum-int64", "DML_OPERATOR_REDUCE", {"InputTensor": T("INT64", xi)},
    {"OutputTensor": T("INT64", xi.sum(axis=(0, 2), keepdims=True))}, attrs={"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [2, 0]}))
# 1-D full reduce to {1}
v = rnd((7,))
cases.append(case("reduce-sum-1d", "DML_OPERATOR_REDUCE", {"InputTensor": T(F, v)},
    {"OutputTensor": out(F, v.sum(keepdims=True), 8, 1e-6)}, attrs={"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [0]}))
# ---- ArgMax / ArgMin: INT64 output (native), select_last_index
x = np.array([[1, 5, 5, 2], [7, 7, 0, 7], [3, 1, 3, 3]], dtype=np.float64).reshape(1, 3, 4)
am_first = np.argmax(x, axis=2).reshape(1, 3, 1)
am_last = (3 - np.argmax(x[:, :, ::-1], axis=2)).reshape(1, 3, 1)
cases.append(case("argmax-int64-first", "DML_OPERATOR_ARGMAX", {"InputTensor": T(F, x)}, {"OutputTensor": T("INT64", am_first)},
                  attrs={"Axes": [2], "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}))
cases.append(case("argmax-int64-last", "DML_OPERATOR_ARGMAX", {"InputTensor": T(F, x)}, {"OutputTensor": T("INT64", am_last)},
                  attrs={"Axes": [2], "AxisDirection": "DML_AXIS_DIRECTION_DECREASING"}))
cases.append(case("argmin-int64-axis0of3", "DML_OPERATOR_ARGMIN", {"InputTensor": T(F, x.reshape(3, 4, 1))}, {"OutputTensor": T("INT64", np.argmin(x.reshape(3, 4, 1), axis=0)[None])},
                  attrs={"Axes": [0], "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}))
# emulated INT64 as UINT32 with doubled strides (devices without 64-bit): output {1,3,1} strides {6,2,2}
cases.append(case("argmax-uint32-doubled-strides", "DML_OPERATOR_ARGMAX", {"InputTensor": T(F, x), "OutputTensor": D("UINT32", [1, 3, 1], [6, 2, 2])},
                  {"OutputTensor": T("UINT32", am_first, strides=[6, 2, 2])}, attrs={"Axes": [2], "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}))
# ---- TopK: 4-D, TOP_K1, index output UINT32 with doubled strides (Remap64bitDmlDataTypesTo32bit + ForceUnsigned)
x = rnd((1, 1, 2, 6))
K = 3
idx = np.argsort(-x, axis=3, kind="stable")[..., :K]; vals = np.take_along_axis(x, idx, 3)
st = [2 * s for s in packed([1, 1, 2, K])]
cases.append(case("topk-index-uint32-doubled-strides", "DML_OPERATOR_TOP_K1",
    {"InputTensor": T(F, x), "OutputValueTensor": D(F, [1, 1, 2, K]), "OutputIndexTensor": D("UINT32", [1, 1, 2, K], st)},
    {"OutputValueTensor": T(F, vals), "OutputIndexTensor": T("UINT32", idx, strides=st)},
    attrs={"Axis": 3, "K": K, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING"}))
idx2 = np.argsort(x, axis=3, kind="stable")[..., :K]
cases.append(case("topk-smallest-uint64", "DML_OPERATOR_TOP_K1",
    {"InputTensor": T(F, x)},
    {"OutputValueTensor": T(F, np.take_along_axis(x, idx2, 3)), "OutputIndexTensor": T("UINT64", idx2)},
    attrs={"Axis": 3, "K": K, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING"}))
# FP16 TopK along axis 2 of 4-D
xh = rnd((1, 2, 5, 2), "FLOAT16")
idx3 = np.argsort(-xh, axis=2, kind="stable")[:, :, :2]
cases.append(case("topk-fp16-axis2", "DML_OPERATOR_TOP_K1", {"InputTensor": T("FLOAT16", xh)},
    {"OutputValueTensor": T("FLOAT16", np.take_along_axis(xh, idx3, 2)), "OutputIndexTensor": T("UINT64", idx3)},
    attrs={"Axis": 2, "K": 2, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING"}))
# ---- CumSum: 4-D padded, axis adjusted, exclusive + reverse
x = rnd((1, 1, 2, 5))
cs = np.cumsum(x[..., ::-1], axis=3)[..., ::-1]; ex = cs - x
cases.append(case("cumsum-4d-excl-rev", "DML_OPERATOR_CUMULATIVE_SUMMATION", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, ex, 8, 1e-6)},
    attrs={"Axis": 3, "AxisDirection": "DML_AXIS_DIRECTION_DECREASING", "HasExclusiveSum": True}))
xi = rng.integers(-5, 5, (1, 1, 3, 2))
cases.append(case("cumsum-int64-axis2", "DML_OPERATOR_CUMULATIVE_SUMMATION", {"InputTensor": T("INT64", xi)}, {"OutputTensor": T("INT64", np.cumsum(xi, axis=2))},
    attrs={"Axis": 2, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": False}))
cases.append(case("cumsum-int32-axis2", "DML_OPERATOR_CUMULATIVE_SUMMATION", {"InputTensor": T("INT32", xi)}, {"OutputTensor": T("INT32", np.cumsum(xi, axis=2))},
    attrs={"Axis": 2, "AxisDirection": "DML_AXIS_DIRECTION_INCREASING", "HasExclusiveSum": False}))
# ---- Gather (rank = max of data/indices/output ranks; IndexDimensions = indices rank)
data = rnd((3, 4))
# scalar index, axis 0: data {3,4}, indices {1,1}, output {1,4}, IndexDimensions 0
cases.append(case("gather-scalar-index", "DML_OPERATOR_GATHER",
    {"InputTensor": T(F, data), "IndicesTensor": T("INT64", np.array([[2]]))}, {"OutputTensor": T(F, data[2].reshape(1, 4))},
    attrs={"Axis": 0, "IndexDimensions": 0}))
cases.append(case("gather-scalar-index-axis1", "DML_OPERATOR_GATHER",
    {"InputTensor": T(F, data), "IndicesTensor": T("INT64", np.array([[-1]]))}, {"OutputTensor": T(F, data[:, 3].reshape(1, 3))},
    attrs={"Axis": 1, "IndexDimensions": 0}))
# 1-D data with scalar index: all {1}
v = rnd((5,))
cases.append(case("gather-1d-scalar", "DML_OPERATOR_GATHER",
    {"InputTensor": T(F, v), "IndicesTensor": T("INT32", np.array([3]))}, {"OutputTensor": T(F, v[3:4])}, attrs={"Axis": 0, "IndexDimensions": 0}))
# embedding lookup: data [5,4] (padded to {1,1,5,4}), indices [2,3] ({1,1,2,3}), output [2,3,4] ({1,2,3,4}); axis 0 -> dml 2
emb = rnd((5, 4)); ids = np.array([[0, 4, 2], [1, 1, 3]])
cases.append(case("gather-embedding-rank-padded", "DML_OPERATOR_GATHER",
    {"InputTensor": T(F, emb.reshape(1, 1, 5, 4)), "IndicesTensor": T("INT64", ids.reshape(1, 1, 2, 3))},
    {"OutputTensor": T(F, emb[ids].reshape(1, 2, 3, 4))}, attrs={"Axis": 2, "IndexDimensions": 2}))
# data [3,4] indices [2,2,2] axis 0 -> output [2,2,2,4] rank 4: data {1,1,3,4} axis 2, indices {1,2,2,2}
ids = np.array([[[0, 2], [1, 0]], [[2, 2], [1, 1]]])
cases.append(case("gather-indices-rank3", "DML_OPERATOR_GATHER",
    {"InputTensor": T(F, data.reshape(1, 1, 3, 4)), "IndicesTensor": T("INT64", ids.reshape(1, 2, 2, 2))},
    {"OutputTensor": T(F, data[ids])}, attrs={"Axis": 2, "IndexDimensions": 3}))
# GatherElements 3-D
d3 = rnd((2, 3, 2)); ie = rng.integers(0, 3, (2, 2, 2))
cases.append(case("gather-elements-3d-axis1", "DML_OPERATOR_GATHER_ELEMENTS",
    {"InputTensor": T(F, d3), "IndicesTensor": T("INT64", ie)}, {"OutputTensor": T(F, np.take_along_axis(d3, ie, 1))}, attrs={"Axis": 1}))
# GatherND1 batch 1
d = rnd((2, 3, 4)); ind = np.array([[[1, 2]], [[0, 3]]])  # [2,1,2]
ref = np.stack([d[b][tuple(ind[b, 0])] for b in range(2)]).reshape(2, 1)
cases.append(case("gathernd1-batch1", "DML_OPERATOR_GATHER_ND1",
    {"InputTensor": T(F, d), "IndicesTensor": T("INT64", ind)}, {"OutputTensor": T(F, ref.reshape(1, 2, 1))},
    attrs={"InputDimensionCount": 3, "IndicesDimensionCount": 3, "BatchDimensionCount": 1}))
# ---- Slice1 with negative steps, 4-D padded
x = np.arange(2 * 3 * 5, dtype=np.float64).reshape(1, 2, 3, 5)
cases.append(case("slice1-negative-step", "DML_OPERATOR_SLICE1", {"InputTensor": T(F, x)},
    {"OutputTensor": T(F, x[:, :, ::-1, 4:0:-2])},
    attrs={"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 2, 3, 4], "InputWindowStrides": [1, 1, -1, -2]}))
# ---- Join / Split on 4-D with adjusted axis, INT64
a = rng.integers(0, 9, (1, 1, 2, 3)); b = rng.integers(0, 9, (1, 1, 1, 3))
cases.append(case("join-int64-axis2", "DML_OPERATOR_JOIN", {"InputTensors": [T("INT64", a), T("INT64", b)]},
    {"OutputTensor": T("INT64", np.concatenate([a, b], axis=2))}, attrs={"Axis": 2}))
x = rnd((1, 2, 5, 2))
cases.append(case("split-uneven-axis2", "DML_OPERATOR_SPLIT", {"InputTensor": T(F, x)},
    {"OutputTensors": [T(F, x[:, :, :3]), T(F, x[:, :, 3:])]}, attrs={"Axis": 2}))
# ---- Transpose: IDENTITY with permuted strides, native rank (here 6-D)
x = rnd((2, 1, 3, 2, 1, 2)); perm = [5, 2, 0, 3, 1, 4]
ps = packed(x.shape); sizes = [x.shape[p] for p in perm]; strides = [ps[p] for p in perm]
cases.append(case("transpose-6d", "DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": T(F, np.transpose(x, perm), strides=strides)},
    {"OutputTensor": T(F, np.transpose(x, perm))}))
x = rnd((2, 3, 4)); perm = [0, 2, 1]; ps = packed(x.shape)
cases.append(case("transpose-3d-fp16", "DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": T("FLOAT16", np.transpose(x, perm), strides=[ps[p] for p in perm])},
    {"OutputTensor": T("FLOAT16", np.transpose(x, perm))}))
# ---- Expand: IDENTITY with zero strides to 4-D
v = rnd((3, 1))
cases.append(case("expand-zero-strides", "DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": T(F, np.broadcast_to(v, (1, 2, 3, 4)), strides=[0, 0, 1, 0])},
    {"OutputTensor": T(F, np.broadcast_to(v, (1, 2, 3, 4)))}))
cases.append(case("expand-int64-scalar", "DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": T("INT64", np.full((1, 1, 2, 3), -5), strides=[0, 0, 0, 0])},
    {"OutputTensor": T("INT64", np.full((1, 1, 2, 3), -5))}))
# ---- Range: FILL_VALUE_SEQUENCE {1,1,1,n}
cases.append(case("range-int64", "DML_OPERATOR_FILL_VALUE_SEQUENCE", {"OutputTensor": D("INT64", [1, 1, 1, 5])},
    {"OutputTensor": T("INT64", np.arange(10, -5, -3).reshape(1, 1, 1, 5))}, attrs={"ValueDataType": "INT64", "ValueStart": 10, "ValueDelta": -3}))
cases.append(case("range-f32", "DML_OPERATOR_FILL_VALUE_SEQUENCE", {"OutputTensor": D(F, [1, 1, 1, 4])},
    {"OutputTensor": out(F, np.array([0.5, 0.75, 1.0, 1.25]).reshape(1, 1, 1, 4), 2)}, attrs={"ValueDataType": "FLOAT32", "ValueStart": 0.5, "ValueDelta": 0.25}))
cases.append(case("range-int32", "DML_OPERATOR_FILL_VALUE_SEQUENCE", {"OutputTensor": D("INT32", [1, 1, 1, 4])},
    {"OutputTensor": T("INT32", np.array([0, 1, 2, 3]).reshape(1, 1, 1, 4))}, attrs={"ValueDataType": "INT32", "ValueStart": 0, "ValueDelta": 1}))
# ---- Pad: PADDING1, 4-D, value typed as the input
x = rnd((1, 1, 2, 3))
cases.append(case("pad1-constant-f32", "DML_OPERATOR_PADDING1", {"InputTensor": T(F, x)},
    {"OutputTensor": T(F, np.pad(x, [(0, 0), (0, 0), (1, 0), (2, 1)], constant_values=-1.5))},
    attrs={"PaddingMode": "DML_PADDING_MODE_CONSTANT", "PaddingValueDataType": "FLOAT32", "PaddingValue": -1.5, "StartPadding": [0, 0, 1, 2], "EndPadding": [0, 0, 0, 1]}))
cases.append(case("pad1-reflect", "DML_OPERATOR_PADDING1", {"InputTensor": T(F, x)},
    {"OutputTensor": T(F, np.pad(x, [(0, 0), (0, 0), (1, 1), (2, 2)], mode="reflect"))},
    attrs={"PaddingMode": "DML_PADDING_MODE_REFLECTION", "PaddingValueDataType": "FLOAT32", "PaddingValue": 0, "StartPadding": [0, 0, 1, 2], "EndPadding": [0, 0, 1, 2]}))
xi = rng.integers(-9, 9, (1, 1, 2, 2))
cases.append(case("pad1-int64-constant", "DML_OPERATOR_PADDING1", {"InputTensor": T("INT64", xi)},
    {"OutputTensor": T("INT64", np.pad(xi, [(0, 0), (0, 0), (0, 1), (1, 0)], constant_values=-3))},
    attrs={"PaddingMode": "DML_PADDING_MODE_CONSTANT", "PaddingValueDataType": "INT64", "PaddingValue": -3, "StartPadding": [0, 0, 0, 1], "EndPadding": [0, 0, 1, 0]}))
xh = rnd((1, 1, 2, 2), "FLOAT16")
cases.append(case("pad1-fp16-edge", "DML_OPERATOR_PADDING1", {"InputTensor": T("FLOAT16", xh)},
    {"OutputTensor": T("FLOAT16", np.pad(xh, [(0, 0), (0, 0), (2, 1), (1, 2)], mode="edge"))},
    attrs={"PaddingMode": "DML_PADDING_MODE_EDGE", "PaddingValueDataType": "FLOAT16", "PaddingValue": 0, "StartPadding": [0, 0, 2, 1], "EndPadding": [0, 0, 1, 2]}))
write("data.json", cases)
