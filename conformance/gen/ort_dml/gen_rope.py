# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/rope.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
B, S, N, Hd, MS = 2, 3, 2, 4, 5
h2 = Hd // 2
for typ in ["FLOAT32", "FLOAT16"]:
    x = rnd((B, S, N * Hd), typ)
    pos = np.array([[0, 2, 4], [1, 1, 3]])
    ang = rng.uniform(0, 3, (MS, h2))
    cos = np.cos(ang); sin = np.sin(ang)
    if typ == "FLOAT16":
        cos = cos.astype(np.float16).astype(np.float64); sin = sin.astype(np.float16).astype(np.float64)
    else:
        cos = cos.astype(np.float32).astype(np.float64); sin = sin.astype(np.float32).astype(np.float64)
    xr = x.reshape(B, S, N, Hd)
    c = cos[pos][:, :, None, :]; s = sin[pos][:, :, None, :]
    x1, x2 = xr[..., :h2], xr[..., h2:]
    y = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1)  # [B,S,N,Hd]
    y5 = y.reshape(B, S, N, 2, h2)
    d5 = [B, S, N, 2, h2]
    half = [B, S, N, 1, h2]
    t = typ
    cs_str = [S * h2, h2, 0, 0, 1]
    cases.append({"name": f"ort-dml.rotary-embedding-graph-{t.lower()}", "source": "onnxruntime-dml:DmlOperatorRotaryEmbedding#graph", "op": "DML_GRAPH",
      "graph": {"nodes": [
        {"op": "DML_OPERATOR_SPLIT", "attrs": {"Axis": 3}, "inputs": {"InputTensor": "x"}, "tensors": {"InputTensor": D(t, d5)},
         "outputs": {"OutputTensors": ["x1", "x2"]}},
        {"op": "DML_OPERATOR_GATHER", "attrs": {"Axis": 2, "IndexDimensions": 2}, "inputs": {"InputTensor": "cos", "IndicesTensor": "pos"}, "outputs": {"OutputTensor": "gc"}},
        {"op": "DML_OPERATOR_GATHER", "attrs": {"Axis": 2, "IndexDimensions": 2}, "inputs": {"InputTensor": "sin", "IndicesTensor": "pos"}, "outputs": {"OutputTensor": "gs"}},
        {"op": "DML_OPERATOR_FILL_VALUE_SEQUENCE", "attrs": {"ValueDataType": t, "ValueStart": -1.0, "ValueDelta": 2.0}, "inputs": {}, "outputs": {"OutputTensor": "sign"}},
        {"op": "DML_OPERATOR_JOIN", "attrs": {"Axis": 3}, "inputs": {"InputTensors": ["x2", "x1"]}, "outputs": {"OutputTensor": "rot"}},
        {"op": "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", "inputs": {"ATensor": "x", "BTensor": "gc"},
         "tensors": {"ATensor": D(t, d5), "BTensor": D(t, d5, cs_str)}, "outputs": {"OutputTensor": "xc"}},
        {"op": "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", "inputs": {"ATensor": "rot", "BTensor": "gs"},
         "tensors": {"BTensor": D(t, d5, cs_str)}, "outputs": {"OutputTensor": "rs"}},
        {"op": "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", "inputs": {"ATensor": "rs", "BTensor": "sign"},
         "tensors": {"BTensor": D(t, d5, [0, 0, 0, 1, 0])}, "outputs": {"OutputTensor": "rss"}},
        {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "xc", "BTensor": "rss"}, "outputs": {"OutputTensor": "y"}}],
       "tensors": {"x1": D(t, half), "x2": D(t, half), "gc": D(t, [1, B, S, h2]), "gs": D(t, [1, B, S, h2]), "sign": D(t, [2]),
                   "rot": D(t, d5), "xc": D(t, d5), "rs": D(t, d5), "rss": D(t, d5)}},
      "inputs": {"x": T(t, x.reshape(1, B, S, N * Hd)), "pos": T("INT64", pos.reshape(1, 1, B, S)),
                 "cos": T(t, cos.reshape(1, 1, MS, h2)), "sin": T(t, sin.reshape(1, 1, MS, h2))},
      "expected": {"outputs": {"y": out(t, y5, 4, 2**-9 if t == "FLOAT16" else 1e-6)}}})
write("rope.json", cases)
