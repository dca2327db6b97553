#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/graph/multi.json: graph cases whose nodes take or
give lists of tensors (JOIN, SPLIT, Concat, Split) next to PADDING, TILE,
SLICE and DEPTH_TO_SPACE. Each expectation is what numpy computes for the
whole chain (np.split, np.concatenate, np.pad, np.tile, slicing, the DCR
depth-to-space rearrangement), never dmlcl's output. Run with a python that
has numpy (scripts/venv) from anywhere; it rewrites the file."""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "cases", "graph", "multi.json")
NP = {"FLOAT32": np.float32, "UINT32": np.uint32}


def tensor(t, a=None, shape=None):
    """A case tensor: with data (a) or a description (shape)."""
    if a is None:
        return {"type": t, "shape": list(shape)}
    a = np.asarray(a, dtype=NP[t])
    data = [float(v) if t == "FLOAT32" else int(v) for v in a.reshape(-1).tolist()]
    return {"type": t, "shape": list(a.shape), "data": data}


def seq(shape, t="FLOAT32", start=0):
    return (np.arange(int(np.prod(shape))) + start).astype(NP[t]).reshape(shape)


def node(op, inputs, outputs, attrs=None):
    n = {"op": op}
    if attrs is not None:
        n["attrs"] = attrs
    n["inputs"] = inputs
    n["outputs"] = outputs
    return n


def graph_case(tag, nodes, inputs, outputs=None, tensors=None, error=None, graph_outputs=None,
               note=None):
    g = {"nodes": nodes}
    if tensors:
        g["tensors"] = tensors
    if graph_outputs:
        g["outputs"] = graph_outputs
    c = {"name": "dmlcl.graph." + tag, "source": "dmlcl:graph#" + tag, "op": "DML_GRAPH",
         "graph": g, "inputs": inputs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def slice_attrs(offsets, sizes, strides):
    return {"Offsets": offsets, "Sizes": sizes, "Strides": strides}


def take(a, offsets, sizes, strides):
    """DML SLICE: per axis, sizes[i] elements from offsets[i] in steps of strides[i]."""
    return a[tuple(slice(o, o + (n - 1) * s + 1, s) for o, n, s in zip(offsets, sizes, strides))]


def depth_to_space_dcr(x, bs):
    n, c, h, w = x.shape
    y = x.reshape(n, bs, bs, c // (bs * bs), h, w).transpose(0, 3, 4, 1, 5, 2)
    return y.reshape(n, c // (bs * bs), h * bs, w * bs)


def cases():
    out = []
    f = "FLOAT32"

    # SPLIT whose outputs feed different nodes and the graph outputs.
    x = seq([1, 1, 4, 3], f, 1)
    top, bottom = np.split(x, [1], axis=2)[0], np.split(x, [1], axis=2)[1]
    sl = ([0, 0, 0, 0], [1, 1, 2, 2], [1, 1, 2, 2])
    out.append(graph_case(
        "split-fan-out",
        [node("DML_OPERATOR_SPLIT", {"InputTensor": "x"}, {"OutputTensors": ["top", "bottom"]},
              {"Axis": 2}),
         node("DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": "top"},
              {"OutputTensor": "y_top"}),
         node("DML_OPERATOR_SLICE", {"InputTensor": "bottom"}, {"OutputTensor": "y_bottom"},
              slice_attrs(*sl))],
        {"x": tensor(f, x)},
        {"y_top": tensor(f, top), "y_bottom": tensor(f, take(bottom, *sl)),
         "bottom": tensor(f, bottom)},
        tensors={"top": tensor(f, shape=top.shape)},
        note="rows 0 | 1..3; the bottom rows are both a graph output and a slice's input"))

    # SPLIT then JOIN with the halves exchanged.
    x = seq([1, 1, 4, 3], "UINT32", 10)
    a, b = np.split(x, 2, axis=2)
    out.append(graph_case(
        "split-join-swapped",
        [node("DML_OPERATOR_SPLIT", {"InputTensor": "x"}, {"OutputTensors": ["a", "b"]},
              {"Axis": 2}),
         node("DML_OPERATOR_JOIN", {"InputTensors": ["b", "a"]}, {"OutputTensor": "y"},
              {"Axis": 2})],
        {"x": tensor("UINT32", x)},
        {"y": tensor("UINT32", np.concatenate([b, a], axis=2))},
        tensors={"a": tensor("UINT32", shape=a.shape), "b": tensor("UINT32", shape=b.shape)},
        note="FromNodeOutputIndex 1 feeds JOIN's slot 0 and 0 feeds slot 1"))

    # JOIN (one graph input read twice) then a SLICE.
    p, q = seq([1, 1, 2, 3], f), seq([1, 1, 2, 3], f, 100)
    j = np.concatenate([p, q, p], axis=3)
    sl = ([0, 0, 0, 2], [1, 1, 2, 4], [1, 1, 1, 2])
    out.append(graph_case(
        "join-slice",
        [node("DML_OPERATOR_JOIN", {"InputTensors": ["p", "q", "p"]}, {"OutputTensor": "j"},
              {"Axis": 3}),
         node("DML_OPERATOR_SLICE", {"InputTensor": "j"}, {"OutputTensor": "y"},
              slice_attrs(*sl))],
        {"p": tensor(f, p), "q": tensor(f, q)},
        {"y": tensor(f, take(j, *sl))},
        tensors={"j": tensor(f, shape=j.shape)},
        note="every other column of p|q|p from column 2"))

    # PADDING after a SLICE: constant and reflection; PADDING1 on integers.
    x = seq([1, 1, 4, 4], f, 1)
    sl = ([0, 0, 1, 1], [1, 1, 2, 3], [1, 1, 1, 1])
    s = take(x, *sl)
    pads = [(0, 0), (0, 0), (1, 1), (2, 1)]
    start, end = [p0 for p0, _ in pads], [p1 for _, p1 in pads]
    for mode, np_mode in (("CONSTANT", "constant"), ("REFLECTION", "reflect")):
        attrs = {"PaddingMode": "DML_PADDING_MODE_" + mode, "StartPadding": start,
                 "EndPadding": end}
        kw = {}
        if mode == "CONSTANT":
            attrs["PaddingValue"] = -2.5
            kw["constant_values"] = -2.5
        out.append(graph_case(
            "slice-padding-" + mode.lower(),
            [node("DML_OPERATOR_SLICE", {"InputTensor": "x"}, {"OutputTensor": "s"},
                  slice_attrs(*sl)),
             node("DML_OPERATOR_PADDING", {"InputTensor": "s"}, {"OutputTensor": "y"}, attrs)],
            {"x": tensor(f, x)},
            {"y": tensor(f, np.pad(s, pads, mode=np_mode, **kw))},
            tensors={"s": tensor(f, shape=s.shape)}))
    xu = seq([1, 1, 4, 4], "UINT32", 1)
    su = take(xu, *sl)
    out.append(graph_case(
        "slice-padding1-constant",
        [node("DML_OPERATOR_SLICE", {"InputTensor": "x"}, {"OutputTensor": "s"},
              slice_attrs(*sl)),
         node("DML_OPERATOR_PADDING1", {"InputTensor": "s"}, {"OutputTensor": "y"},
              {"PaddingMode": "DML_PADDING_MODE_CONSTANT", "StartPadding": start,
               "EndPadding": end, "PaddingValueDataType": "UINT32",
               "PaddingValue": 4294967295})],
        {"x": tensor("UINT32", xu)},
        {"y": tensor("UINT32", np.pad(su, pads, constant_values=4294967295))},
        tensors={"s": tensor("UINT32", shape=su.shape)}))

    # TILE then a SLICE (a view of a view: one fused step).
    x = seq([1, 1, 2, 3], f, 1)
    t = np.tile(x, (1, 1, 2, 3))
    sl = ([0, 0, 1, 2], [1, 1, 2, 5], [1, 1, 2, 1])
    out.append(graph_case(
        "tile-slice",
        [node("DML_OPERATOR_TILE", {"InputTensor": "x"}, {"OutputTensor": "t"},
              {"RepeatsCount": 4, "Repeats": [1, 1, 2, 3]}),
         node("DML_OPERATOR_SLICE", {"InputTensor": "t"}, {"OutputTensor": "y"},
              slice_attrs(*sl))],
        {"x": tensor(f, x)},
        {"y": tensor(f, take(t, *sl))},
        tensors={"t": tensor(f, shape=t.shape)}))

    # DEPTH_TO_SPACE then a JOIN with a graph input.
    x = seq([1, 8, 1, 2], "UINT32")
    w = seq([1, 1, 2, 4], "UINT32", 1000)
    d = depth_to_space_dcr(x, 2)
    out.append(graph_case(
        "depth-to-space-join",
        [node("DML_OPERATOR_DEPTH_TO_SPACE", {"InputTensor": "x"}, {"OutputTensor": "d"},
              {"BlockSize": 2}),
         node("DML_OPERATOR_JOIN", {"InputTensors": ["w", "d"]}, {"OutputTensor": "y"},
              {"Axis": 1})],
        {"x": tensor("UINT32", x), "w": tensor("UINT32", w)},
        {"y": tensor("UINT32", np.concatenate([w, d], axis=1))},
        tensors={"d": tensor("UINT32", shape=d.shape)},
        note="depth-to-space in DCR order (DirectML's DEPTH_TO_SPACE)"))

    # Framework front-ends as nodes: onnx.Split-18 then openvino.Concat-1.
    x = seq([4, 3], f, 1)
    p, q = np.split(x, 2, axis=0)
    out.append(graph_case(
        "framework-split-concat",
        [node("onnx.Split-18", {"input": "x"}, {"outputs": ["p", "q"]},
              {"axis": 0, "num_outputs": 2}),
         node("openvino.Concat-1", {"inputs": ["q", "p"]}, {"output": "y"}, {"axis": 1})],
        {"x": tensor(f, x)},
        {"p": tensor(f, p), "y": tensor(f, np.concatenate([q, p], axis=1))},
        tensors={"q": tensor(f, shape=q.shape)}))

    # Graph inputs no node reads (DirectMLX's Compile counts every InputTensor a program
    # made): legal, bound, never read.
    x = seq([1, 1, 4, 3], f, 1)
    out.append(graph_case(
        "unused-graph-inputs",
        [node("DML_OPERATOR_SLICE", {"InputTensor": "x"}, {"OutputTensor": "y"},
              slice_attrs([0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 2]))],
        {"before": tensor(f, seq([2, 2], f)), "x": tensor(f, x),
         "after": tensor("UINT32", seq([3], "UINT32"))},
        {"y": tensor(f, take(x, [0, 0, 1, 0], [1, 1, 2, 2], [1, 1, 2, 2]))},
        note="DML_GRAPH_DESC asks edges of the nodes' inputs and outputs only: graph inputs "
             "0 and 2 feed no node"))

    # Errors: a SPLIT output nothing reads; a JOIN of halves that differ off its axis.
    shape4 = [1, 1, 4, 3]
    out.append(graph_case(
        "split-output-unconnected",
        [node("DML_OPERATOR_SPLIT", {"InputTensor": "x"}, {"OutputTensors": ["top", "bottom"]},
              {"Axis": 2})],
        {"x": tensor(f, seq(shape4, f))},
        tensors={"top": tensor(f, shape=[1, 1, 2, 3]), "bottom": tensor(f, shape=[1, 1, 2, 3])},
        graph_outputs=["top"], error="invalid_argument",
        note="every node output feeds an edge (DML_GRAPH_DESC); bottom feeds none"))
    out.append(graph_case(
        "split-join-mismatch",
        [node("DML_OPERATOR_SPLIT", {"InputTensor": "x"}, {"OutputTensors": ["a", "b"]},
              {"Axis": 2}),
         node("DML_OPERATOR_JOIN", {"InputTensors": ["a", "b"]}, {"OutputTensor": "y"},
              {"Axis": 3})],
        {"x": tensor(f, seq(shape4, f))},
        tensors={"a": tensor(f, shape=[1, 1, 1, 3]), "b": tensor(f, shape=[1, 1, 3, 3]),
                 "y": tensor(f, shape=[1, 1, 3, 6])},
        graph_outputs=["y"], error="invalid_argument",
        note="JOIN's inputs must match off the axis: 1 and 3 rows joined on columns"))
    return out


def main():
    with open(OUT, "w") as fh:
        fh.write('{"format": "dmlcl-case/1", "cases": [\n')
        fh.write(",\n".join(json.dumps(c) for c in cases()))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
