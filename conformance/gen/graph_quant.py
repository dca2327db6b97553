#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/graph/quant.json: graphs with ELEMENT_WISE_DEQUANTIZE_LINEAR and
ELEMENT_WISE_QUANTIZE_LINEAR as ONNX Runtime's DirectML provider builds a QDQ model's
element-wise part (DequantizeLinear -> Add -> Relu -> QuantizeLinear), where the planner
fuses the nodes into one map (docs/design.md), and the nodes it keeps apart (a 32-bit
dequantization, FLOAT16 intermediates). Scales and zero points are graph inputs of their own
shape read through 0 strides (per tensor, per channel). Each expectation is numpy's node by
node in the graph's own types (docs/operators.md's rules: QUANTIZE rint(x / scale) in float32
plus the zero point, saturated; DEQUANTIZE (x - zero point) exact, rounded to float32, times
the scale), never dmlcl's output. Run with a python that has numpy (scripts/venv); it rewrites
the file."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

OUT = os.path.join(HERE, "..", "cases", "graph", "quant.json")
DQ = "DML_OPERATOR_ELEMENT_WISE_DEQUANTIZE_LINEAR"
Q = "DML_OPERATOR_ELEMENT_WISE_QUANTIZE_LINEAR"


def desc(t, shape, strides=None):
    d = {"type": t, "shape": list(shape)}
    if strides is not None:
        d["strides"] = list(strides)
    return d


def node(op, inputs, outputs, tensors=None):
    n = {"op": op, "inputs": inputs}
    if tensors:
        n["tensors"] = tensors
    n["outputs"] = outputs
    return n


def graph_case(tag, nodes, inputs, outputs, tensors, note):
    return {"name": "dmlcl.graph.quant." + tag, "source": "dmlcl:graph#quant-" + tag,
            "op": "DML_GRAPH", "graph": {"nodes": nodes, "tensors": tensors}, "inputs": inputs,
            "expected": {"outputs": outputs}, "note": note}


def quantize(x, s, zp, out_t):
    with np.errstate(all="ignore"):
        q = np.rint(np.asarray(x, np.float32) / np.asarray(s, np.float32)).astype(np.float64)
    info = np.iinfo(NUMPY_TYPES[out_t])
    q = np.clip(q + np.asarray(zp, np.float64), int(info.min), int(info.max))
    return np.where(np.isnan(q), 0, q).astype(NUMPY_TYPES[out_t])


def dequantize(x, s, zp, out_t):
    d = (np.asarray(x, np.int64) - np.asarray(zp, np.int64)).astype(np.float32)
    return (d * np.asarray(s, np.float32)).astype(NUMPY_TYPES[out_t])


def cases():
    rng = np.random.default_rng(2026_12_05)
    out = []
    shape, c = [2, 3, 4], 3
    channel = [0, 1, 0]  # {1, C, 1} read with strides {0, 1, 0}: per channel
    every = [0, 0, 0]    # one element: per tensor

    # ONNX Runtime's QDQ Add: DQ(a), DQ(b) per channel, ADD, RELU, Q per tensor into INT8.
    a = rng.integers(0, 256, size=shape)
    b = rng.integers(0, 256, size=shape)
    sa = np.array([0.05, 0.1, 0.02], np.float32)
    za = np.array([128, 100, 3], np.uint8)
    sb = np.array([0.04, 0.125, 0.25], np.float32)
    zb = np.array([120, 0, 255], np.uint8)
    sy, zy = np.float32(0.0625), np.int8(-20)
    fa = dequantize(a, sa.reshape(1, c, 1), za.reshape(1, c, 1), "FLOAT32")
    fb = dequantize(b, sb.reshape(1, c, 1), zb.reshape(1, c, 1), "FLOAT32")
    s = np.maximum(fa + fb, np.float32(0))
    y = quantize(s, sy, zy, "INT8")
    f32 = {k: desc("FLOAT32", shape) for k in ["fa", "fb", "sum", "relu"]}
    out.append(graph_case(
        "qdq-add-relu",
        [node(DQ, {"InputTensor": "a", "ScaleTensor": "sa", "ZeroPointTensor": "za"},
              {"OutputTensor": "fa"},
              {"ScaleTensor": desc("FLOAT32", shape, channel),
               "ZeroPointTensor": desc("UINT8", shape, channel)}),
         node(DQ, {"InputTensor": "b", "ScaleTensor": "sb", "ZeroPointTensor": "zb"},
              {"OutputTensor": "fb"},
              {"ScaleTensor": desc("FLOAT32", shape, channel),
               "ZeroPointTensor": desc("UINT8", shape, channel)}),
         node("DML_OPERATOR_ELEMENT_WISE_ADD", {"ATensor": "fa", "BTensor": "fb"},
              {"OutputTensor": "sum"}),
         node("DML_OPERATOR_ACTIVATION_RELU", {"InputTensor": "sum"}, {"OutputTensor": "relu"}),
         node(Q, {"InputTensor": "relu", "ScaleTensor": "sy", "ZeroPointTensor": "zy"},
              {"OutputTensor": "y"},
              {"ScaleTensor": desc("FLOAT32", shape, every),
               "ZeroPointTensor": desc("INT8", shape, every)})],
        {"a": tensor("UINT8", a), "b": tensor("UINT8", b), "sa": tensor("FLOAT32", sa),
         "za": tensor("UINT8", za), "sb": tensor("FLOAT32", sb), "zb": tensor("UINT8", zb),
         "sy": tensor("FLOAT32", [sy]), "zy": tensor("INT8", [zy])},
        {"y": tensor("INT8", y)}, f32,
        "QDQ Add as ONNX Runtime's DirectML provider lowers it: per-channel dequantizations "
        "(0 strides), ADD, RELU, a per-tensor quantization: one map, exact (the FLOAT32 "
        "intermediates are the float compute's own values)"))

    # A 32-bit dequantization (a bias) added to FLOAT32 data: two steps, the difference exact.
    x = (rng.integers(-64, 64, size=shape) / 8.0).astype(np.float32)
    bias = np.array([16777217, -2**31, 2**31 - 1], np.int32)
    zb32 = np.array([1, 0, -2**31], np.int32)
    fbias = dequantize(bias.reshape(1, c, 1), np.float32(0.5), zb32.reshape(1, c, 1), "FLOAT32")
    y = (x + np.broadcast_to(fbias, shape)).astype(np.float32)
    out.append(graph_case(
        "int32-bias-add",
        [node(DQ, {"InputTensor": "bias", "ScaleTensor": "s", "ZeroPointTensor": "z"},
              {"OutputTensor": "fb"},
              {"InputTensor": desc("INT32", shape, channel),
               "ScaleTensor": desc("FLOAT32", shape, every),
               "ZeroPointTensor": desc("INT32", shape, channel)}),
         node("DML_OPERATOR_ELEMENT_WISE_ADD", {"ATensor": "x", "BTensor": "fb"},
              {"OutputTensor": "y"})],
        {"bias": tensor("INT32", bias), "s": tensor("FLOAT32", [0.5]),
         "z": tensor("INT32", zb32), "x": tensor("FLOAT32", x)},
        {"y": tensor("FLOAT32", y)}, {"fb": desc("FLOAT32", shape)},
        "an INT32 dequantization (long, the difference exact: 16777217 - 1, (2^31 - 1) - "
        "(-2^31)) stays its own step; the ADD rounds once"))

    # FLOAT32 arithmetic into a QUANTIZE without a zero point (feature level 6.2): one map.
    x = (rng.integers(-512, 512, size=shape) / 16.0).astype(np.float32)
    m = (rng.integers(-8, 8, size=shape) / 4.0).astype(np.float32)
    p = (x * m).astype(np.float32)
    y = quantize(p, np.float32(0.25), 0, "INT8")
    out.append(graph_case(
        "multiply-quantize-no-zero-point",
        [node("DML_OPERATOR_ELEMENT_WISE_MULTIPLY", {"ATensor": "x", "BTensor": "m"},
              {"OutputTensor": "p"}),
         node(Q, {"InputTensor": "p", "ScaleTensor": "s"}, {"OutputTensor": "y"},
              {"ScaleTensor": desc("FLOAT32", shape, every)})],
        {"x": tensor("FLOAT32", x), "m": tensor("FLOAT32", m), "s": tensor("FLOAT32", [0.25])},
        {"y": tensor("INT8", y)}, {"p": desc("FLOAT32", shape)},
        "a product quantized without a zero point (halves on the grid: to even), saturated"))

    # FLOAT16 intermediates: DQ into FLOAT16, ADD in FLOAT16, Q from FLOAT16: three steps.
    q = rng.integers(-128, 128, size=shape)
    h = (rng.integers(-64, 64, size=shape) / 8.0).astype(np.float16)
    fq = dequantize(q, np.float16(0.1), 0, "FLOAT16")
    s16 = (fq.astype(np.float32) + h.astype(np.float32)).astype(np.float16)
    y = quantize(s16.astype(np.float32), np.float32(np.float16(0.05)), 7, "UINT8")
    out.append(graph_case(
        "float16-between-nodes",
        [node(DQ, {"InputTensor": "q", "ScaleTensor": "s"}, {"OutputTensor": "fq"},
              {"ScaleTensor": desc("FLOAT16", shape, every)}),
         node("DML_OPERATOR_ELEMENT_WISE_ADD", {"ATensor": "fq", "BTensor": "h"},
              {"OutputTensor": "sum"}),
         node(Q, {"InputTensor": "sum", "ScaleTensor": "sq", "ZeroPointTensor": "zq"},
              {"OutputTensor": "y"},
              {"ScaleTensor": desc("FLOAT16", shape, every),
               "ZeroPointTensor": desc("UINT8", shape, every)})],
        {"q": tensor("INT8", q), "s": tensor("FLOAT16", [0.1]), "h": tensor("FLOAT16", h),
         "sq": tensor("FLOAT16", [0.05]), "zq": tensor("UINT8", [7])},
        {"y": tensor("UINT8", y)},
        {"fq": desc("FLOAT16", shape), "sum": desc("FLOAT16", shape)},
        "FLOAT16 intermediates are rounded to half between the nodes (each its own step), each "
        "node computing in float32"))
    return out


def main():
    got = cases()
    write(OUT, got)
    print(f"{len(got)} cases")


if __name__ == "__main__":
    main()
