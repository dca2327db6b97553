# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/attn.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"
B, S, W, N = 2, 3, 4, 2; H = W // N
X = rnd((B, S, W)); Wt = rnd((W, 3 * W)); bias = rnd((3 * W,))
qkv = X @ Wt + bias
u = 2 * W + 4
cases.append(case("attention-gemm-3d-bcast-weights-bias", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, X), "BTensor": T(F, np.broadcast_to(Wt, (B, W, 3 * W)), strides=[0, 3 * W, 1]),
     "CTensor": T(F, np.broadcast_to(bias, (B, S, 3 * W)), strides=[0, 0, 1])},
    {"OutputTensor": out(F, qkv, u, 1e-5)}, attrs={"Alpha": 1.0, "Beta": 1.0}))
# graph: GEMM -> IDENTITY reading the GEMM output as {B,S,N,3,H} with strides (transpose 3 <-> N)
tr = qkv.reshape(B, S, 3, N, H).transpose(0, 1, 3, 2, 4)
strides = [S * N * 3 * H, N * 3 * H, H, N * H, 1]
cases.append({"name": "ort-dml.attention-graph-gemm-then-5d-transpose-view", "source": "onnxruntime-dml:DmlOperatorAttention#graph", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_GEMM", "attrs": {"Alpha": 1.0, "Beta": 1.0}, "inputs": {"ATensor": "x", "BTensor": "w", "CTensor": "b"},
      "tensors": {"BTensor": D(F, [B, W, 3 * W], [0, 3 * W, 1]), "CTensor": D(F, [B, S, 3 * W], [0, 0, 1])},
      "outputs": {"OutputTensor": "qkv"}},
     {"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "qkv"},
      "tensors": {"InputTensor": D(F, [B, S, N, 3, H], strides)}, "outputs": {"OutputTensor": "y"}}],
   "tensors": {"qkv": D(F, [B, S, 3 * W])}},
  "inputs": {"x": T(F, X), "w": T(F, Wt.reshape(1, W, 3 * W)), "b": T(F, bias.reshape(1, 1, 3 * W))},
  "expected": {"outputs": {"y": out(F, tr, u, 1e-5)}}})
# older Attention: Q·K^T with strided 4-D views of the qkv buffer {B, N, S, H}, softmax over last axis, then ·V
q = qkv[..., :W].reshape(B, S, N, H).transpose(0, 2, 1, 3)
k = qkv[..., W:2 * W].reshape(B, S, N, H).transpose(0, 2, 1, 3)
v = qkv[..., 2 * W:].reshape(B, S, N, H).transpose(0, 2, 1, 3)
sc = (q @ k.transpose(0, 1, 3, 2)) / np.sqrt(H)
e = np.exp(sc - sc.max(-1, keepdims=True)); p = e / e.sum(-1, keepdims=True)
o = p @ v
qstr = [S * 3 * W, H, 3 * W, 1]  # view of qkv as {B,N,S,H}
cases.append({"name": "ort-dml.attention-graph-strided-qk-softmax-v", "source": "onnxruntime-dml:DmlOperatorAttention#graph-older", "op": "DML_GRAPH",
  "graph": {"nodes": [
     {"op": "DML_OPERATOR_SLICE1", "attrs": {"InputWindowOffsets": [0, 0, 0], "InputWindowSizes": [B, S, W], "InputWindowStrides": [1, 1, 1]},
      "inputs": {"InputTensor": "qkv"}, "outputs": {"OutputTensor": "qs"}},
     {"op": "DML_OPERATOR_SLICE1", "attrs": {"InputWindowOffsets": [0, 0, W], "InputWindowSizes": [B, S, W], "InputWindowStrides": [1, 1, 1]},
      "inputs": {"InputTensor": "qkv"}, "outputs": {"OutputTensor": "ks"}},
     {"op": "DML_OPERATOR_SLICE1", "attrs": {"InputWindowOffsets": [0, 0, 2 * W], "InputWindowSizes": [B, S, W], "InputWindowStrides": [1, 1, 1]},
      "inputs": {"InputTensor": "qkv"}, "outputs": {"OutputTensor": "vs"}},
     {"op": "DML_OPERATOR_GEMM", "attrs": {"Alpha": float(1 / np.sqrt(H)), "Beta": 0.0, "TransB": "DML_MATRIX_TRANSFORM_TRANSPOSE"},
      "inputs": {"ATensor": "qs", "BTensor": "ks"},
      "tensors": {"ATensor": D(F, [B, N, S, H], [S * W, H, W, 1]), "BTensor": D(F, [B, N, S, H], [S * W, H, W, 1])},
      "outputs": {"OutputTensor": "scores"}},
     {"op": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "attrs": {"Axes": [3]}, "inputs": {"InputTensor": "scores"}, "outputs": {"OutputTensor": "probs"}},
     {"op": "DML_OPERATOR_GEMM", "attrs": {"Alpha": 1.0, "Beta": 0.0}, "inputs": {"ATensor": "probs", "BTensor": "vs"},
      "tensors": {"BTensor": D(F, [B, N, S, H], [S * W, H, W, 1])},
      "outputs": {"OutputTensor": "ctx"}}],
   "tensors": {"qs": D(F, [B, S, W]), "ks": D(F, [B, S, W]), "vs": D(F, [B, S, W]), "scores": D(F, [B, N, S, S]), "probs": D(F, [B, N, S, S])}},
  "inputs": {"qkv": T(F, qkv)},
  "expected": {"outputs": {"ctx": out(F, o, 64, 1e-5)}}})
# GEMM with fused SOFTMAX1 over the last axis of 4-D (DML 6.1 fusion the EP uses in newer graphs)
cases.append(case("gemm-4d-strided-transB-fused-softmax1", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, q), "BTensor": T(F, k)},
    {"OutputTensor": out(F, p, 64, 1e-6)},
    attrs={"Alpha": float(1 / np.sqrt(H)), "Beta": 0.0, "TransB": "DML_MATRIX_TRANSFORM_TRANSPOSE", "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": [3]}}))
write("attn.json", cases)
