#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/graph/elementwise.json: graphs of element-wise nodes in a row, as
models write formulas (the planner fuses such chains into one kernel where the result is
exact: docs/design.md). Each expectation is numpy's, node by node in the graph's own type (an
intermediate FLOAT16 tensor rounds to half between nodes, as DirectML stores it), never
dmlcl's output. The exact chains use values on a 1/16 grid whose every intermediate is exact in
float32; the GELU chain (as exporters write it) is computed with math.erf in float64, each node
rounded to float32, within ERF's absolute 1/1024 carried through the last two products. Run with
a python that has numpy (scripts/venv) from anywhere; it rewrites the file."""
import json
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "cases", "graph", "elementwise.json")
NP = {"FLOAT32": np.float32, "FLOAT16": np.float16, "FLOAT64": np.float64}


def tensor(t, a=None, shape=None, tolerance=None):
    if a is None:
        return {"type": t, "shape": list(shape)}
    a = np.asarray(a, dtype=NP[t])
    d = {"type": t, "shape": list(a.shape), "data": [float(v) for v in a.reshape(-1).tolist()]}
    if tolerance:
        d["tolerance"] = tolerance
    return d


def node(op, inputs, outputs, attrs=None):
    n = {"op": op}
    if attrs is not None:
        n["attrs"] = attrs
    n["inputs"] = inputs
    n["outputs"] = outputs
    return n


def graph_case(tag, nodes, inputs, outputs, tensors, note, graph_outputs=None):
    g = {"nodes": nodes, "tensors": tensors}
    if graph_outputs:
        g["outputs"] = graph_outputs
    return {"name": "dmlcl.graph.elementwise." + tag, "source": "dmlcl:graph#elementwise-" + tag,
            "op": "DML_GRAPH", "graph": g, "inputs": inputs,
            "expected": {"outputs": outputs}, "note": note}


def grid(rng, shape, lo=-4.0, hi=4.0):
    """Values on a 1/16 grid in [lo, hi]."""
    n = int(np.prod(shape))
    return (rng.integers(int(lo * 16), int(hi * 16) + 1, size=n) / 16.0).reshape(shape)


def binary(op, a, b, out):
    return node("DML_OPERATOR_ELEMENT_WISE_" + op, {"ATensor": a, "BTensor": b},
                {"OutputTensor": out})


def unary(op, x, out, attrs=None):
    return node(op, {"InputTensor": x}, {"OutputTensor": out}, attrs)


def cases():
    rng = np.random.default_rng(2026_11_28)
    out = []
    f32 = "FLOAT32"
    shape = [2, 3, 5]

    # Seven exactly rounded nodes (every intermediate exact on the 1/16 grid: sums and products
    # of small dyadic values), one map when fused; x read by two of them.
    x, b, c, d = (grid(rng, shape) for _ in range(4))
    c = np.where(c == 0, 0.5, c)  # nonzero factors: no signed zeros to track
    t1 = x + b
    t2 = t1 * c
    t3 = t2 - x
    t4 = np.maximum(t3, d)
    t5 = np.abs(t4 * 0.5 - 1.0)  # ABS with ScaleBias {0.5, -1}: exact here
    t6 = -t5
    y = np.maximum(t6 + 2.0, 0.0)  # IDENTITY with ScaleBias {1, 2}, then RELU
    f32t = {k: tensor(f32, shape=shape) for k in ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]}
    out.append(graph_case(
        "exact-chain",
        [binary("ADD", "x", "b", "t1"), binary("MULTIPLY", "t1", "c", "t2"),
         binary("SUBTRACT", "t2", "x", "t3"), binary("MAX", "t3", "d", "t4"),
         unary("DML_OPERATOR_ELEMENT_WISE_ABS", "t4", "t5",
               {"ScaleBias": {"Scale": 0.5, "Bias": -1.0}}),
         unary("DML_OPERATOR_ELEMENT_WISE_NEGATE", "t5", "t6"),
         unary("DML_OPERATOR_ELEMENT_WISE_IDENTITY", "t6", "t7",
               {"ScaleBias": {"Scale": 1.0, "Bias": 2.0}}),
         unary("DML_OPERATOR_ACTIVATION_RELU", "t7", "y")],
        {"x": tensor(f32, x), "b": tensor(f32, b), "c": tensor(f32, c), "d": tensor(f32, d)},
        {"y": tensor(f32, y)}, f32t,
        "eight element-wise nodes, x read twice: one map of seven operations (RELU the last "
        "one's activation), exact"))

    # GELU as ONNX exporters write it: x * 0.5 * (1 + erf(x / sqrt 2)), reading x twice.
    x = grid(rng, [4, 8], -6.0, 6.0).astype(np.float32)
    r2 = np.full([4, 8], 1 / math.sqrt(2), dtype=np.float32)
    one = np.ones([4, 8], dtype=np.float32)
    half = np.full([4, 8], 0.5, dtype=np.float32)
    a = (x * r2).astype(np.float32)
    e = np.array([math.erf(float(v)) for v in a.reshape(-1)], dtype=np.float32).reshape(a.shape)
    s = (e + one).astype(np.float32)
    p = (x * s).astype(np.float32)
    y = (p * half).astype(np.float32)
    out.append(graph_case(
        "gelu-as-exported",
        [binary("MULTIPLY", "x", "r2", "a"), unary("DML_OPERATOR_ELEMENT_WISE_ERF", "a", "e"),
         binary("ADD", "e", "one", "s"), binary("MULTIPLY", "x", "s", "p"),
         binary("MULTIPLY", "p", "half", "y")],
        {"x": tensor(f32, x), "r2": tensor(f32, r2), "one": tensor(f32, one),
         "half": tensor(f32, half)},
        {"y": tensor(f32, y, tolerance={"ulp": 4, "abs": 6.0 / 1024 / 2})},
        {k: tensor(f32, shape=[4, 8]) for k in ["a", "e", "s", "p"]},
        "five nodes, one map: ERF's absolute 1/1024 times |x| / 2 (|x| <= 6)"))

    # FLOAT16 intermediates round between nodes: the nodes stay apart, each result in half.
    f16 = "FLOAT16"
    x, b, c = (grid(rng, shape, -2.0, 2.0) for _ in range(3))
    h = lambda v: np.asarray(v, dtype=np.float16)
    t1 = h(h(x) * h(c))            # products of 1/16 grid values: exact in half (<= 11 bits)
    y = h(h(t1) + h(b) / np.float16(3))  # DIVIDE by 3 rounds; then ADD rounds
    out.append(graph_case(
        "float16-rounds-between-nodes",
        [binary("MULTIPLY", "x", "c", "t1"), binary("DIVIDE", "b", "three", "q"),
         binary("ADD", "t1", "q", "y")],
        {"x": tensor(f16, x), "b": tensor(f16, b), "c": tensor(f16, c),
         "three": tensor(f16, np.full(shape, 3.0))},
        {"y": tensor(f16, y, tolerance={"ulp": 1})},
        {k: tensor(f16, shape=shape) for k in ["t1", "q"]},
        "FLOAT16: each node's result is stored in half before the next reads it (DIVIDE within "
        "DirectML's 2 ulp of float32, then rounded to half: 1 half ulp)"))

    # A fan-out and a graph output in the middle of a chain keep their tensors.
    x, b = grid(rng, shape), grid(rng, shape)
    t1 = x + b
    t2 = t1 * t1
    t3 = t2 - t1
    y = np.maximum(t3, 0.0)
    out.append(graph_case(
        "fan-out-and-middle-output",
        [binary("ADD", "x", "b", "t1"), binary("MULTIPLY", "t1", "t1", "t2"),
         binary("SUBTRACT", "t2", "t1", "t3"), unary("DML_OPERATOR_ACTIVATION_RELU", "t3", "y")],
        {"x": tensor(f32, x), "b": tensor(f32, b)},
        {"y": tensor(f32, y), "t2": tensor(f32, t2)},
        {k: tensor(f32, shape=shape) for k in ["t1", "t3"]},
        "t1 feeds three node inputs (kept), t2 is also a graph output (kept); exact",
        graph_outputs=["y", "t2"]))

    # Nine MULTIPLYs by powers of two: eight operations are one map, the ninth apart.
    x = grid(rng, shape)
    k = np.full(shape, 2.0)
    nodes, v, prev = [], x.copy(), "x"
    for i in range(9):
        name = "y" if i == 8 else "m%d" % i
        nodes.append(binary("MULTIPLY", prev, "k", name))
        v = v * 2.0
        prev = name
    out.append(graph_case(
        "nine-multiplies",
        nodes, {"x": tensor(f32, x), "k": tensor(f32, k)}, {"y": tensor(f32, v)},
        {"m%d" % i: tensor(f32, shape=shape) for i in range(8)},
        "a chain longer than a map's eight operations: two kernels; exact"))

    # A gather feeding element-wise arithmetic: the map reads the gathered rows through the
    # indices (one kernel). An embedding lookup (axis 0, INT64 indices, negative ones from the
    # end, ones past the axis clamped as DirectML's GATHER) plus a tensor; an inner-axis gather
    # (INT32) times a tensor. Exact (one rounding per element).
    def dml_gather(data, idx, axis):
        n = data.shape[axis]
        j = np.where(idx < 0, idx + n, idx)
        return np.take(data, np.clip(j, 0, n - 1).reshape(-1), axis=axis)

    def gather_case(tag, data, idx, itype, axis, op, other, want, note):
        mid = "rows" if axis == 0 else "cols"
        return graph_case(
            tag,
            [node("DML_OPERATOR_GATHER", {"InputTensor": "data", "IndicesTensor": "idx"},
                  {"OutputTensor": mid}, {"Axis": axis, "IndexDimensions": 1}),
             binary(op, mid, "other", "y")],
            {"data": tensor(f32, data),
             "idx": {"type": itype, "shape": list(idx.shape), "data": idx.reshape(-1).tolist()},
             "other": tensor(f32, other)},
            {"y": tensor(f32, want)}, {mid: tensor(f32, shape=list(want.shape))}, note)

    table = grid(rng, [6, 4])
    idx = np.array([[3, -1, 0, 7, -9]], dtype=np.int64)
    b = grid(rng, [5, 4])
    out.append(gather_case(
        "embedding-gather-add", table, idx, "INT64", 0, "ADD", b, dml_gather(table, idx, 0) + b,
        "rows 3, -1 (= 5), 0, 7 (clamped to 5), -9 (clamped to 0) of the table plus b: one map "
        "reading the table through the indices; exact"))
    data = grid(rng, [3, 7])
    idx = np.array([[6, 0, -2, 2]], dtype=np.int32)
    c = grid(rng, [3, 4])
    out.append(gather_case(
        "inner-gather-multiply", data, idx, "INT32", 1, "MULTIPLY", c,
        dml_gather(data, idx, 1) * c,
        "columns 6, 0, -2 (= 5), 2 times c: the index changes along the map's run; exact"))

    # NCHW memory read as NHWC (an IDENTITY reading through strides) plus a channel bias (a
    # zero-stride B), then RELU: H x W = 32 and C = 32, whole tiles of a CPU map's reads across
    # the run (one kernel there), the transpose apart on GPUs. Exact.
    n_, c_, h_, w_ = 2, 32, 4, 8
    x = grid(rng, [n_, c_, h_, w_])
    b = grid(rng, [c_])
    y = np.maximum(x.transpose(0, 2, 3, 1) + b, 0.0)
    nhwc = [n_, h_, w_, c_]
    out.append(graph_case(
        "nchw-to-nhwc-add-bias-relu",
        [{"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "x"},
          "tensors": {"InputTensor": {"type": f32, "shape": nhwc,
                                      "strides": [c_ * h_ * w_, w_, 1, h_ * w_]}},
          "outputs": {"OutputTensor": "t"}},
         {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "t", "BTensor": "b"},
          "tensors": {"BTensor": {"type": f32, "shape": nhwc, "strides": [0, 0, 0, 1]}},
          "outputs": {"OutputTensor": "s"}},
         unary("DML_OPERATOR_ACTIVATION_RELU", "s", "y")],
        {"x": tensor(f32, x), "b": tensor(f32, b)}, {"y": tensor(f32, y)},
        {"t": tensor(f32, shape=nhwc), "s": tensor(f32, shape=nhwc)},
        "NCHW read as NHWC, a channel bias, RELU: one map on CPUs (the transposed input in "
        "tiles); exact"))
    # A CAST from FLOAT64 to FLOAT32, then an activation: the activation reads the rounded
    # FLOAT32 (a fusion that kept the double would not).
    x = np.array([[1 + 2.0**-30, 1 + 2.0**-40, 2 + 2.0**-28, -(1 + 2.0**-30), 3.0, 0.1]])
    t32 = x.astype(np.float32).astype(np.float64)
    out.append(graph_case(
        "cast64-then-linear",
        [unary("DML_OPERATOR_CAST", "x", "t"),
         unary("DML_OPERATOR_ACTIVATION_LINEAR", "t", "y", {"Alpha": 1.0, "Beta": -1.0})],
        {"x": tensor("FLOAT64", x)}, {"y": tensor(f32, t32 - 1.0)},
        {"t": tensor(f32, shape=x.shape)},
        "LINEAR(1, -1) of the value rounded to FLOAT32 (1 + 2^-30 rounds to 1: 0, not 9.3e-10)"))
    return out


def main():
    with open(OUT, "w") as fh:
        fh.write('{"format": "dmlcl-case/1", "cases": [\n')
        fh.write(",\n".join(json.dumps(c) for c in cases()))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
