# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/groupnorm.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"
Bn, Hh, Ww, C, G = 2, 2, 3, 4, 2; cpg = C // G
x = rnd((Bn, Hh, Ww, C)); gam = rnd((C,)); bet = rnd((C,))
# reference: NHWC group norm over (H, W, channels in group)
xr = x.reshape(Bn, Hh * Ww, G, cpg)
m = xr.mean(axis=(1, 3), keepdims=True); v = ((xr - m) ** 2).mean(axis=(1, 3), keepdims=True)
y = ((xr - m) / np.sqrt(v + 1e-5)).reshape(Bn, Hh, Ww, C) * gam + bet
ys = y * (1 / (1 + np.exp(-y)))
shape = [Bn, cpg, Hh * Ww, G]
xstr = [cpg * Hh * Ww * G, 1, cpg * G, cpg]
gstr = [0, 1, 0, cpg]
def view(a):  # logical view {B, cpg, HW, G} of NHWC data a
    return a.reshape(Bn, Hh * Ww, G, cpg).transpose(0, 3, 1, 2)
gv = np.broadcast_to(gam.reshape(G, cpg).T.reshape(1, cpg, 1, G), shape)
bv = np.broadcast_to(bet.reshape(G, cpg).T.reshape(1, cpg, 1, G), shape)
cases.append(case("groupnorm-mvn1-strided-io-scale", "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1",
    {"InputTensor": T(F, view(x), strides=xstr), "ScaleTensor": T(F, gv, strides=gstr), "BiasTensor": T(F, bv, strides=gstr),
     "OutputTensor": D(F, shape, xstr)},
    {"OutputTensor": out(F, view(y), 8, 1 / 1024, strides=xstr)}, attrs={"Axes": [1, 2], "NormalizeVariance": True, "Epsilon": 1e-5}))
# graph with swish and FP16 gamma/beta cast into the strided layout
gh = rnd((C,), "FLOAT16"); bh = rnd((C,), "FLOAT16")
y2 = ((xr - m) / np.sqrt(v + 1e-5)).reshape(Bn, Hh, Ww, C) * gh + bh
ys2 = y2 / (1 + np.exp(-y2))
gvh = np.broadcast_to(gh.reshape(G, cpg).T.reshape(1, cpg, 1, G), shape)
bvh = np.broadcast_to(bh.reshape(G, cpg).T.reshape(1, cpg, 1, G), shape)
cases.append({"name": "ort-dml.groupnorm-graph-cast-swish-strided", "source": "onnxruntime-dml:DmlOperatorGroupNorm#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "g"}, "outputs": {"OutputTensor": "g32"}},
     {"op": "DML_OPERATOR_CAST", "inputs": {"InputTensor": "b"}, "outputs": {"OutputTensor": "b32"}},
     {"op": "DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1", "attrs": {"Axes": [1, 2], "NormalizeVariance": True, "Epsilon": 1e-5},
      "inputs": {"InputTensor": "x", "ScaleTensor": "g32", "BiasTensor": "b32"}, "outputs": {"OutputTensor": "n"}},
     {"op": "DML_OPERATOR_ACTIVATION_SIGMOID", "inputs": {"InputTensor": "n"}, "outputs": {"OutputTensor": "s"}},
     {"op": "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", "inputs": {"ATensor": "n", "BTensor": "s"}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"g32": D(F, shape, xstr), "b32": D(F, shape, xstr), "n": D(F, shape, xstr), "s": D(F, shape, xstr)}},
  "inputs": {"x": T(F, view(x), strides=xstr), "g": T("FLOAT16", gvh, strides=gstr), "b": T("FLOAT16", bvh, strides=gstr)},
  "expected": {"outputs": {"y": out(F, view(ys2), 40, 1 / 1024, strides=xstr)}}})
write("groupnorm.json", cases)
