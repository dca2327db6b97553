# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/mvn2.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"; LN = 1.0 / 1024
def mvn2(x, axes, eps, use_mean, use_var, scale=None, bias=None):
    ax = tuple(axes)
    m = x.mean(axis=ax, keepdims=True) if use_mean else 0.0
    y = x - m
    if use_var:
        v = (y * y).mean(axis=ax, keepdims=True)
        y = y / np.sqrt(v + eps)
    if scale is not None: y = y * scale
    if bias is not None: y = y + bias
    return y
# LayerNormalization (newest DML EP): trailing 1s to 4-D, MVN2 Axes {axis..3}
x = rnd((2, 3, 8)); g = rnd((8,)); b = rnd((8,))
y = mvn2(x, [2], 1e-5, True, True, g, b)
cases.append(case("layernorm-mvn2-trailing-pad-axes23", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T(F, x.reshape(2, 3, 8, 1)), "ScaleTensor": T(F, g.reshape(1, 1, 8, 1)), "BiasTensor": T(F, b.reshape(1, 1, 8, 1))},
    {"OutputTensor": out(F, y.reshape(2, 3, 8, 1), 8, LN)}, attrs={"Axes": [2, 3], "UseMean": True, "UseVariance": True, "Epsilon": 1e-5}))
# SimplifiedLayerNormalization (RMSNorm): UseMean false, no bias
y = mvn2(x, [2], 1e-6, False, True, g, None)
cases.append(case("rmsnorm-mvn2-no-mean-no-bias", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T(F, x.reshape(2, 3, 8, 1)), "ScaleTensor": T(F, g.reshape(1, 1, 8, 1))},
    {"OutputTensor": out(F, y.reshape(2, 3, 8, 1), 8, LN)}, attrs={"Axes": [2, 3], "UseMean": False, "UseVariance": True, "Epsilon": 1e-6}))
xh = rnd((1, 4, 16), "FLOAT16") * 3; gh = rnd((16,), "FLOAT16")
y = mvn2(xh, [2], 1e-6, False, True, gh, None)
cases.append(case("rmsnorm-mvn2-fp16", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T("FLOAT16", xh.reshape(1, 4, 16, 1)), "ScaleTensor": T("FLOAT16", gh.reshape(1, 1, 16, 1))},
    {"OutputTensor": out("FLOAT16", y.reshape(1, 4, 16, 1), 8, 8 * 2**-10 * 4)}, attrs={"Axes": [2, 3], "UseMean": False, "UseVariance": True, "Epsilon": 1e-6}))
# 2-D input [N,H] -> [N,H,1,1], axes {1,2,3}
x2 = rnd((3, 8)); y = mvn2(x2, [1], 1e-5, True, True, g, b)
cases.append(case("layernorm-mvn2-2d-as-4d-axes123", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T(F, x2.reshape(3, 8, 1, 1)), "ScaleTensor": T(F, g.reshape(1, 8, 1, 1)), "BiasTensor": T(F, b.reshape(1, 8, 1, 1))},
    {"OutputTensor": out(F, y.reshape(3, 8, 1, 1), 8, LN)}, attrs={"Axes": [1, 2, 3], "UseMean": True, "UseVariance": True, "Epsilon": 1e-5}))
# 5-D input, axis 2 -> axes {2,3,4}; scale {1,1,a,b,c}
x5 = rnd((1, 2, 2, 3, 2)); g5 = rnd((2, 3, 2)); y = mvn2(x5, [2, 3, 4], 1e-5, True, True, g5, None)
cases.append(case("layernorm-mvn2-5d-axis2", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T(F, x5), "ScaleTensor": T(F, g5.reshape(1, 1, 2, 3, 2))},
    {"OutputTensor": out(F, y, 8, LN)}, attrs={"Axes": [2, 3, 4], "UseMean": True, "UseVariance": True, "Epsilon": 1e-5}))
# MVN2 with neither mean nor variance (scale/bias only)
y = mvn2(x, [2], 1e-5, False, False, g, b)
cases.append(case("mvn2-scale-bias-only", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2",
    {"InputTensor": T(F, x.reshape(2, 3, 8, 1)), "ScaleTensor": T(F, g.reshape(1, 1, 8, 1)), "BiasTensor": T(F, b.reshape(1, 1, 8, 1))},
    {"OutputTensor": out(F, y.reshape(2, 3, 8, 1), 4, 1e-6)}, attrs={"Axes": [2, 3], "UseMean": False, "UseVariance": False, "Epsilon": 1e-5}))
# Graph: FP32 input, FP16 scale/bias -> CAST scale, CAST bias -> MVN2 (output FLOAT16 from casting FP32 result)
x = rnd((2, 8)); gh = rnd((8,), "FLOAT16"); bh = rnd((8,), "FLOAT16")
y = mvn2(x, [1], 1e-5, True, True, gh, bh)
cases.append({"name": "ort-dml.layernorm-mvn2-fp32-x-fp16-scale-graph", "source": "onnxruntime-dml:DmlOperatorLayerNormalization#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "g"}, "outputs": {"OutputTensor": "g32"}},
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "b"}, "outputs": {"OutputTensor": "b32"}},
     {"op": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2", "attrs": {"Axes": [1, 2, 3], "UseMean": True, "UseVariance": True, "Epsilon": 1e-5},
      "inputs": {"InputTensor": "x", "ScaleTensor": "g32", "BiasTensor": "b32"}, "outputs": {"OutputTensor": "y32"}},
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "y32"}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"g32": D(F, [1, 8, 1, 1]), "b32": D(F, [1, 8, 1, 1]), "y32": D(F, [2, 8, 1, 1])}},
  "inputs": {"x": T(F, x.reshape(2, 8, 1, 1)), "g": T("FLOAT16", gh.reshape(1, 8, 1, 1)), "b": T("FLOAT16", bh.reshape(1, 8, 1, 1))},
  "expected": {"outputs": {"y": out("FLOAT16", y.reshape(2, 8, 1, 1), 4, 4 * 2**-10 * 4)}}})
write("mvn2.json", cases)
