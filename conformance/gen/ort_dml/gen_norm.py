# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/norm.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
def mvn(x, axes, eps, scale=None, bias=None):
    m = x.mean(axis=tuple(axes), keepdims=True)
    v = ((x - m) ** 2).mean(axis=tuple(axes), keepdims=True)
    y = (x - m) / np.sqrt(v + eps)
    if scale is not None: y = y * scale
    if bias is not None: y = y + bias
    return y
LN = 1.0 / 1024
# 1. LayerNormalization as the DML EP: MVN1, Scale/Bias with the input's rank, packed (no strides): [1,1,H]
x = rnd((2, 3, 8)); g = rnd((8,)); b = rnd((8,))
y = mvn(x, [2], 1e-5, g, b)
cases.append(case("layernorm-mvn1-3d-axis-last", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T("FLOAT32", x), "ScaleTensor": T("FLOAT32", g.reshape(1, 1, 8)), "BiasTensor": T("FLOAT32", b.reshape(1, 1, 8))},
    {"OutputTensor": out("FLOAT32", y, 8, LN)}, attrs={"Axes": [2], "NormalizeVariance": True, "Epsilon": 1e-5}))
# axis=1 on 3-D: axes {1,2}, scale [1,3,8]
g2 = rnd((3, 8)); y = mvn(x, [1, 2], 1e-5, g2, None)
cases.append(case("layernorm-mvn1-3d-axis1-nobias", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T("FLOAT32", x), "ScaleTensor": T("FLOAT32", g2.reshape(1, 3, 8))},
    {"OutputTensor": out("FLOAT32", y, 8, LN)}, attrs={"Axes": [1, 2], "NormalizeVariance": True, "Epsilon": 1e-5}))
# 2-D input [4, 8] (rank 2, minDimensionCount 2)
x2 = rnd((4, 8)); y = mvn(x2, [1], 1e-5, g, b)
cases.append(case("layernorm-mvn1-2d", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T("FLOAT32", x2), "ScaleTensor": T("FLOAT32", g.reshape(1, 8)), "BiasTensor": T("FLOAT32", b.reshape(1, 8))},
    {"OutputTensor": out("FLOAT32", y, 8, LN)}, attrs={"Axes": [1], "NormalizeVariance": True, "Epsilon": 1e-5}))
# FLOAT16 layernorm
xh = rnd((2, 3, 8), "FLOAT16"); gh = rnd((8,), "FLOAT16"); bh = rnd((8,), "FLOAT16")
y = mvn(xh, [2], 1e-5, gh, bh)
cases.append(case("layernorm-mvn1-fp16", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T("FLOAT16", xh), "ScaleTensor": T("FLOAT16", gh.reshape(1, 1, 8)), "BiasTensor": T("FLOAT16", bh.reshape(1, 1, 8))},
    {"OutputTensor": out("FLOAT16", y, 8, 8 * 2**-10 * 4)}, attrs={"Axes": [2], "NormalizeVariance": True, "Epsilon": 1e-5}))
# 2. SkipLayerNormalization: MVN1 on {B,S,H,1} with axes {2,3}, gamma/beta {1,1,H,1}
x = rnd((2, 3, 8)); g = rnd((8,)); b = rnd((8,))
y = mvn(x, [2], 1e-5, g, b)
cases.append(case("skiplayernorm-mvn1-4d-axes23", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T("FLOAT32", x.reshape(2, 3, 8, 1)), "ScaleTensor": T("FLOAT32", g.reshape(1, 1, 8, 1)), "BiasTensor": T("FLOAT32", b.reshape(1, 1, 8, 1))},
    {"OutputTensor": out("FLOAT32", y.reshape(2, 3, 8, 1), 8, LN)}, attrs={"Axes": [2, 3], "NormalizeVariance": True, "Epsilon": 1e-5}))
# SkipLayerNorm graph: ADD(x, skip) -> ADD(., bias strides {0,0,1,0}) -> MVN1; outputs y and the sum
x = rnd((2, 3, 8)); sk = rnd((2, 3, 8)); bi = rnd((8,))
s = x + sk + bi; y = mvn(s, [2], 1e-5, g, b)
F = "FLOAT32"
cases.append({"name": "ort-dml.skiplayernorm-graph", "source": "onnxruntime-dml:DmlOperatorSkipLayerNormalization#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "x", "BTensor": "skip"}, "outputs": {"OutputTensor": "s1"}},
     {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "s1", "BTensor": "bias"},
      "tensors": {"BTensor": D(F, [2, 3, 8, 1], [0, 0, 1, 0])}, "outputs": {"OutputTensor": "sum"}},
     {"op": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", "attrs": {"Axes": [2, 3], "NormalizeVariance": True, "Epsilon": 1e-5},
      "inputs": {"InputTensor": "sum", "ScaleTensor": "gamma", "BiasTensor": "beta"}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"s1": D(F, [2, 3, 8, 1])}},
  "inputs": {"x": T(F, x.reshape(2, 3, 8, 1)), "skip": T(F, sk.reshape(2, 3, 8, 1)), "gamma": T(F, g.reshape(1, 1, 8, 1)),
             "beta": T(F, b.reshape(1, 1, 8, 1)), "bias": T(F, bi.reshape(1, 1, 8, 1))},
  "expected": {"outputs": {"y": out(F, y.reshape(2, 3, 8, 1), 8, LN), "sum": out(F, s.reshape(2, 3, 8, 1), 2, 1e-6)}}})
# 3. LayerNorm with FP16 input and FP32 scale: CAST(x) -> MVN1 -> CAST(y)
xh = rnd((2, 8), "FLOAT16"); g = rnd((8,)); b = rnd((8,))
y = mvn(xh, [1], 1e-5, g, b)
cases.append({"name": "ort-dml.layernorm-fp16-x-fp32-scale-graph", "source": "onnxruntime-dml:DmlOperatorLayerNormalization#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "x32"}},
     {"op": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", "attrs": {"Axes": [1], "NormalizeVariance": True, "Epsilon": 1e-5},
      "inputs": {"InputTensor": "x32", "ScaleTensor": "g", "BiasTensor": "b"}, "outputs": {"OutputTensor": "y32"}},
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "y32"}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"x32": D(F, [2, 8]), "y32": D(F, [2, 8])}},
  "inputs": {"x": T("FLOAT16", xh), "g": T(F, g.reshape(1, 8)), "b": T(F, b.reshape(1, 8))},
  "expected": {"outputs": {"y": out("FLOAT16", y, 4, 4 * 2**-10 * 4)}}})
# 4. InstanceNormalization graph: IDENTITY to NHWC strides, MVN1 axes {2,3} on the strided tensor, scale {1,C,1,1} strides {0,1,0,0}, IDENTITY back
N, C, H, W = 2, 3, 2, 4
x = rnd((N, C, H, W)); sc = rnd((C,)); bs = rnd((C,))
y = mvn(x, [2, 3], 1e-5, sc.reshape(1, C, 1, 1), bs.reshape(1, C, 1, 1))
tstr = [C * W * H, 1, C * W, C]
cases.append({"name": "ort-dml.instancenorm-graph-nhwc-strides", "source": "onnxruntime-dml:DmlOperatorInstanceNormalization#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "xt"}},
     {"op": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", "attrs": {"Axes": [2, 3], "NormalizeVariance": True, "Epsilon": 1e-5},
      "inputs": {"InputTensor": "xt", "ScaleTensor": "s", "BiasTensor": "b"}, "outputs": {"OutputTensor": "yt"}},
     {"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "yt"}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"xt": D(F, [N, C, H, W], tstr), "yt": D(F, [N, C, H, W], tstr)}},
  "inputs": {"x": T(F, x), "s": T(F, np.broadcast_to(sc.reshape(1, C, 1, 1), (1, C, 1, 1)), strides=[0, 1, 0, 0]),
             "b": T(F, bs.reshape(1, C, 1, 1), strides=[0, 1, 0, 0])},
  "expected": {"outputs": {"y": out(F, y, 8, LN)}}})
# single-op InstanceNorm MVN1 with NHWC-strided input/output
cases.append(case("instancenorm-mvn1-strided-io", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T(F, x, strides=tstr), "ScaleTensor": T(F, sc.reshape(1, C, 1, 1), strides=[0, 1, 0, 0]),
     "BiasTensor": T(F, bs.reshape(1, C, 1, 1), strides=[0, 1, 0, 0]), "OutputTensor": D(F, [N, C, H, W], tstr)},
    {"OutputTensor": out(F, y, 8, LN, strides=tstr)}, attrs={"Axes": [2, 3], "NormalizeVariance": True, "Epsilon": 1e-5}))
# 5. MeanVarianceNormalization (old MVN) CrossChannel false / true, 4-D
x = rnd((2, 3, 2, 3))
cases.append(case("mvn0-4d-no-cross", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION",
    {"InputTensor": T(F, x)}, {"OutputTensor": out(F, mvn(x, [2, 3], 1e-9), 8, LN)},
    attrs={"CrossChannel": False, "NormalizeVariance": True, "Epsilon": 1e-9}))
cases.append(case("mvn0-4d-cross", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION",
    {"InputTensor": T(F, x)}, {"OutputTensor": out(F, mvn(x, [1, 2, 3], 1e-9), 8, LN)},
    attrs={"CrossChannel": True, "NormalizeVariance": True, "Epsilon": 1e-9}))
cases.append(case("mvn0-4d-no-variance", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION",
    {"InputTensor": T(F, x)}, {"OutputTensor": out(F, x - x.mean(axis=(2, 3), keepdims=True), 8, 1e-6)},
    attrs={"CrossChannel": False, "NormalizeVariance": False, "Epsilon": 1e-9}))
# 6. BatchNormalization: input [N,C] (2-D, LeftAligned N, min 4 -> {N,C,1,1}); mean etc {1,C,1,1}
x = rnd((3, 4)); sc, bs, mn = rnd((4,)), rnd((4,)), rnd((4,)); vr = rnd((4,), lo=0.1, hi=2)
y = (x - mn) / np.sqrt(vr + 1e-5) * sc + bs
def c4(v): return T(F, v.reshape(1, 4, 1, 1))
cases.append(case("batchnorm-2d-as-4d", "DML_OPERATOR_BATCH_NORMALIZATION",
    {"InputTensor": T(F, x.reshape(3, 4, 1, 1)), "MeanTensor": c4(mn), "VarianceTensor": c4(vr), "ScaleTensor": c4(sc), "BiasTensor": c4(bs)},
    {"OutputTensor": out(F, y.reshape(3, 4, 1, 1), 8)}, attrs={"Spatial": True, "Epsilon": 1e-5}))
# 3-D input [N,C,L] -> {N,C,L,1} (LeftAligned), fused relu
x = rnd((2, 4, 5)); y = np.maximum((x - mn[:, None]) / np.sqrt(vr[:, None] + 1e-5) * sc[:, None] + bs[:, None], 0)
cases.append(case("batchnorm-3d-as-4d-fused-relu", "DML_OPERATOR_BATCH_NORMALIZATION",
    {"InputTensor": T(F, x.reshape(2, 4, 5, 1)), "MeanTensor": c4(mn), "VarianceTensor": c4(vr), "ScaleTensor": c4(sc), "BiasTensor": c4(bs)},
    {"OutputTensor": out(F, y.reshape(2, 4, 5, 1), 8)}, attrs={"Spatial": True, "Epsilon": 1e-5, "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_RELU"}}))
# 5-D input, {1,C,1,1,1}
x = rnd((1, 4, 2, 2, 2)); y = (x - mn.reshape(1, 4, 1, 1, 1)) / np.sqrt(vr.reshape(1, 4, 1, 1, 1) + 1e-5) * sc.reshape(1, 4, 1, 1, 1) + bs.reshape(1, 4, 1, 1, 1)
def c5(v): return T(F, v.reshape(1, 4, 1, 1, 1))
cases.append(case("batchnorm-5d", "DML_OPERATOR_BATCH_NORMALIZATION",
    {"InputTensor": T(F, x), "MeanTensor": c5(mn), "VarianceTensor": c5(vr), "ScaleTensor": c5(sc), "BiasTensor": c5(bs)},
    {"OutputTensor": out(F, y, 8)}, attrs={"Spatial": True, "Epsilon": 1e-5}))
# FP16 batchnorm
xh = rnd((1, 4, 2, 3), "FLOAT16"); sch, bsh, mnh = rnd((4,), "FLOAT16"), rnd((4,), "FLOAT16"), rnd((4,), "FLOAT16"); vrh = rnd((4,), "FLOAT16", 0.1, 2)
r = lambda v: v.reshape(1, 4, 1, 1)
y = (xh - r(mnh)) / np.sqrt(r(vrh) + 1e-5) * r(sch) + r(bsh)
cases.append(case("batchnorm-fp16", "DML_OPERATOR_BATCH_NORMALIZATION",
    {"InputTensor": T("FLOAT16", xh), "MeanTensor": T("FLOAT16", r(mnh)), "VarianceTensor": T("FLOAT16", r(vrh)), "ScaleTensor": T("FLOAT16", r(sch)), "BiasTensor": T("FLOAT16", r(bsh))},
    {"OutputTensor": out("FLOAT16", y, 8, 2**-9 * (np.abs(y).max() + 1))}, attrs={"Spatial": True, "Epsilon": 1e-5}))
# 7. Softmax-13 as the DML EP: 4-D padded, SOFTMAX1 Axes {axis + 4 - rank}
def softmax(x, axes):
    m = x.max(axis=tuple(axes), keepdims=True); e = np.exp(x - m); return e / e.sum(axis=tuple(axes), keepdims=True)
x = rnd((2, 3, 5)) * 3
for ax in [2, 1, 0]:
    y = softmax(x, [ax])
    cases.append(case(f"softmax13-3d-axis{ax}-as-4d", "DML_OPERATOR_ACTIVATION_SOFTMAX1",
        {"InputTensor": T(F, x.reshape(1, 2, 3, 5))}, {"OutputTensor": out(F, y.reshape(1, 2, 3, 5), 3 * x.shape[ax] + 3, 1e-7)},
        attrs={"Axes": [ax + 1]}))
# Softmax-1/11 (older opset): axes {axis..rank-1} shifted by padding
y = softmax(x, [1, 2])
cases.append(case("softmax11-3d-axis1-as-4d", "DML_OPERATOR_ACTIVATION_SOFTMAX1",
    {"InputTensor": T(F, x.reshape(1, 2, 3, 5))}, {"OutputTensor": out(F, y.reshape(1, 2, 3, 5), 50, 1e-7)}, attrs={"Axes": [2, 3]}))
y = np.log(softmax(x, [2]))
cases.append(case("logsoftmax13-3d-as-4d", "DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1",
    {"InputTensor": T(F, x.reshape(1, 2, 3, 5))}, {"OutputTensor": out(F, y.reshape(1, 2, 3, 5), 20, 1e-6)}, attrs={"Axes": [3]}))
# Softmax on attention scores: 4-D [B,heads,S,S], FP16
xh = rnd((1, 2, 3, 6), "FLOAT16") * 4
y = softmax(xh, [3])
cases.append(case("softmax13-fp16-4d", "DML_OPERATOR_ACTIVATION_SOFTMAX1",
    {"InputTensor": T("FLOAT16", xh)}, {"OutputTensor": out("FLOAT16", y, 24, 2**-10)}, attrs={"Axes": [3]}))
# old coerced form: ACTIVATION_SOFTMAX on {1,1,a,b}
y = softmax(x.reshape(2, 15), [1])
cases.append(case("softmax-legacy-coerced-2d-as-4d", "DML_OPERATOR_ACTIVATION_SOFTMAX",
    {"InputTensor": T(F, x.reshape(1, 1, 2, 15))}, {"OutputTensor": out(F, y.reshape(1, 1, 2, 15), 50, 1e-7)}))
write("norm.json", cases)
