#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the views' conformance case files (conformance/cases/*/tile.json,
transpose.json, reverse.json): the documented examples with the values the
documents print, or, where a document gives shapes only, data 0, 1, 2, ...
with the values numpy computes (np.tile, np.transpose, np.flip); then extra
cases and one error case per rule. Never from dmlcl. Run with the venv's
python (scripts/venv) from anywhere; it rewrites the files."""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import tensor  # noqa: E402

ROOT = os.path.join(HERE, "..", "cases")


def write(path, cases):
    with open(path, "w") as f:
        f.write('{"format": "dmlcl-case/1", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")


def seq(shape, t="FLOAT32"):
    n = int(np.prod(shape)) if len(shape) else 1
    a = np.arange(n)
    if t == "BOOLEAN":
        a = (a * 7 + 3) % 5 < 2
    elif t in ("UINT8", "INT8"):
        a = a % 100
    return a.reshape(shape)


def case(name, source, op, inputs, out=None, error=None, attrs=None, note=None, erratum=None,
         out_name="output"):
    c = {"name": name, "source": source, "op": op}
    if attrs is not None:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": {out_name: out}}
    if erratum:
        c["erratum"] = erratum
    if note:
        c["note"] = note
    return c


# ---- DirectML TILE ------------------------------------------------------------------------

def dml_tile():
    cs = []
    x = np.array([[[[1, 2, 3], [4, 5, 6]]]], dtype=np.float32)
    cs.append(case("directml.tile.example-1", "directml:DML_TILE_OPERATOR_DESC#example-1",
                   "DML_OPERATOR_TILE", {"InputTensor": tensor("FLOAT32", x)},
                   tensor("FLOAT32", [[[[1, 2, 3, 1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6, 4, 5, 6],
                                        [1, 2, 3, 1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6, 4, 5, 6],
                                        [1, 2, 3, 1, 2, 3, 1, 2, 3], [4, 5, 6, 4, 5, 6, 4, 5, 6]]]]),
                   attrs={"RepeatsCount": 4, "Repeats": [1, 1, 3, 3]}, out_name="OutputTensor",
                   note="the page labels the output tensor InputTensor (Sizes {1,1,6,9}); it is "
                        "OutputTensor, values as printed"))
    for t, shape, reps in [("FLOAT16", [3, 2], [2, 3]), ("UINT8", [5], [4]),
                           ("INT64", [2, 1, 3], [1, 4, 2]), ("FLOAT64", [2, 2], [1, 1]),
                           ("INT16", [1, 3, 1, 2], [3, 1, 2, 1])]:
        a = seq(shape, t)
        cs.append(case("directml.tile.%s-%s" % (t.lower(), "x".join(map(str, reps))),
                       "dmlcl:tile#types", "DML_OPERATOR_TILE", {"InputTensor": tensor(t, a)},
                       tensor(t, np.tile(a, reps)), attrs={"Repeats": reps},
                       out_name="OutputTensor", note="numpy.tile"))
    a = seq([2, 1, 2, 1, 2, 1, 2, 1], "INT32")
    reps = [2, 3, 2, 2, 1, 2, 2, 3]
    cs.append(case("directml.tile.rank8", "dmlcl:tile#rank-8", "DML_OPERATOR_TILE",
                   {"InputTensor": tensor("INT32", a)}, tensor("INT32", np.tile(a, reps)),
                   attrs={"Repeats": reps}, out_name="OutputTensor",
                   note="8 dimensions, 7 repeated: a plan of 15 dimensions before normalisation"))
    # Strided input (row padding) and a strided (column-major) output.
    a = seq([2, 3], "FLOAT32")
    t_in = tensor("FLOAT32", a)
    t_in["strides"] = [4, 1]
    out = np.tile(a, [2, 2])
    cs.append(case("directml.tile.strided", "dmlcl:tile#strides", "DML_OPERATOR_TILE",
                   {"InputTensor": t_in,
                    "OutputTensor": {"type": "FLOAT32", "shape": [4, 6], "strides": [1, 4]}},
                   tensor("FLOAT32", out), attrs={"Repeats": [2, 2]}, out_name="OutputTensor",
                   note="input rows padded to 4 elements, output column-major"))
    a = seq([2, 3], "FLOAT32")
    err = [
        ("repeats-count", {"RepeatsCount": 3, "Repeats": [1, 2, 1]},
         "RepeatsCount must equal InputTensor.DimensionCount"),
        ("repeats-zero", {"Repeats": [2, 0]}, "Repeats values must be larger than 0"),
        ("repeats-null", {"RepeatsCount": 2}, "Repeats must point to RepeatsCount values"),
    ]
    for n, attrs, note in err:
        cs.append(case("directml.tile.error-" + n, "directml:DML_TILE_OPERATOR_DESC#Repeats",
                       "DML_OPERATOR_TILE",
                       {"InputTensor": tensor("FLOAT32", a),
                        "OutputTensor": {"type": "FLOAT32", "shape": [2, 6]}},
                       error="invalid_argument", attrs=attrs, note=note))
    for n, ot, shape, note in [("output-size", "FLOAT32", [4, 3],
                                "OutputTensor.Sizes[i] = InputTensor.Sizes[i] * Repeats[i]"),
                               ("output-type", "INT32", [2, 6],
                                "InputTensor and OutputTensor must have the same DataType"),
                               ("output-rank", "FLOAT32", [1, 2, 6],
                                "OutputTensor must have the same DimensionCount as the input")]:
        cs.append(case("directml.tile.error-" + n, "directml:DML_TILE_OPERATOR_DESC#OutputTensor",
                       "DML_OPERATOR_TILE",
                       {"InputTensor": tensor("FLOAT32", a),
                        "OutputTensor": {"type": ot, "shape": shape}},
                       error="invalid_argument", attrs={"Repeats": [1, 2]}, note=note))
    write(ROOT + "/directml/tile.json", cs)


# ---- OpenVINO Tile-1 ------------------------------------------------------------------------

def ov_tile():
    cs = []
    docs = [("example-1", [2, 3, 4], [1, 2, 3], [2, 6, 12]),
            ("example-2", [2, 3, 4], [5, 1, 2, 3], [5, 2, 6, 12]),
            ("example-3", [5, 2, 3, 4], [1, 2, 3], [5, 2, 6, 12]),
            ("short-description-1", [2, 3], [2, 2, 2], [2, 4, 6]),
            ("short-description-2", [4, 2, 3], [2, 2], [4, 4, 6])]
    for n, shape, reps, want in docs:
        a = seq(shape)
        out = np.tile(a, reps)
        assert list(out.shape) == want
        cs.append(case("openvino.tile1." + n, "openvino:Tile-1#" + n, "openvino.Tile-1",
                       {"data": tensor("FLOAT32", a), "repeats": tensor("INT64", reps)},
                       tensor("FLOAT32", out),
                       note="the page gives shapes only (output %s); data 0, 1, 2, ... and "
                            "values by numpy.tile" % want))
    extras = [("scalar", [], "INT32", [3], "INT32", "0-D data: promoted to {1}"),
              ("scalar-no-repeats", [], "FLOAT32", [], "INT64", "0-D data, empty repeats: 0-D"),
              ("no-repeats", [2, 3], "FLOAT32", [], "INT8", "empty repeats: a copy"),
              ("zero-repeat", [2, 3], "FLOAT32", [2, 0], "UINT64", "a 0 repeat: an empty output"),
              ("zero-data", [0, 3], "INT16", [3, 2], "UINT8", "0-sized data"),
              ("boolean", [2, 3], "BOOLEAN", [2, 1, 2], "INT16", "BOOLEAN data (1 byte)"),
              ("rank9", [1, 2, 1, 2, 1, 2, 1, 2, 1], "UINT8", [2, 1, 2, 1, 2, 1, 2, 1, 3], "UINT32",
               "9 dimensions: beyond DirectML's 8"),
              ("repeats-int32", [3, 1], "FLOAT16", [2, 4], "INT32", "INT32 repeats"),
              ("repeats-uint16", [2, 2], "FLOAT64", [1, 3], "UINT16", "UINT16 repeats")]
    for n, shape, t, reps, rt, note in extras:
        a = seq(shape, t)
        out = np.tile(a, reps) if len(reps) else a.copy()
        cs.append(case("openvino.tile1." + n, "dmlcl:Tile-1#" + n, "openvino.Tile-1",
                       {"data": tensor(t, a), "repeats": tensor(rt, reps)}, tensor(t, out),
                       note=note + "; numpy.tile"))
    a = seq([2, 3])
    cs.append(case("openvino.tile1.negative", "dmlcl:Tile-1#negative", "openvino.Tile-1",
                   {"data": tensor("FLOAT32", a), "repeats": tensor("INT64", [1, -2])},
                   tensor("FLOAT32", np.zeros([2, 0])),
                   note="the text leaves negative repeats open; OpenVINO's shape inference "
                        "reads them as 0 copies (tile_shape_inference.hpp: "
                        "negative_repeats_to_zero): shape {2,0}"))
    for n, rep, note in [("repeats-2d", tensor("INT64", [[1, 2]]), "repeats must be 1-D"),
                         ("repeats-float", tensor("FLOAT32", [1, 2]),
                          "repeats must be of an integer type")]:
        cs.append(case("openvino.tile1.error-" + n, "openvino:Tile-1#inputs", "openvino.Tile-1",
                       {"data": tensor("FLOAT32", a), "repeats": rep}, error="invalid_argument",
                       note=note))
    write(ROOT + "/openvino/tile.json", cs)


# ---- OpenVINO Transpose-1 ---------------------------------------------------------------------

def ov_transpose():
    cs = []
    a = seq([2, 3, 4])
    cs.append(case("openvino.transpose1.example-1", "openvino:Transpose-1#example-1",
                   "openvino.Transpose-1",
                   {"data": tensor("FLOAT32", a), "input_order": tensor("INT64", [2, 0, 1])},
                   tensor("FLOAT32", np.transpose(a, [2, 0, 1])),
                   note="the page gives shapes only ({4,2,3}); data 0, 1, 2, ... and values by "
                        "numpy.transpose"))
    cs.append(case("openvino.transpose1.example-2", "openvino:Transpose-1#example-2",
                   "openvino.Transpose-1",
                   {"data": tensor("FLOAT32", a), "input_order": tensor("INT64", [])},
                   tensor("FLOAT32", np.transpose(a)),
                   note="empty input_order: the axes reversed ({4,3,2})"))
    extras = [("scalar", [], "FLOAT32", [], "INT32", "0-D data, empty input_order"),
              ("nchw-nhwc", [2, 3, 4, 5], "FLOAT16", [0, 2, 3, 1], "INT32", "NCHW to NHWC"),
              ("nhwc-nchw", [2, 4, 5, 3], "UINT8", [0, 3, 1, 2], "UINT8", "NHWC to NCHW"),
              ("identity", [3, 4], "INT64", [0, 1], "UINT64", "the identity order"),
              ("zero-size", [2, 0, 3], "FLOAT32", [2, 1, 0], "INT16", "0-sized data"),
              ("boolean", [2, 3, 2], "BOOLEAN", [1, 2, 0], "INT8", "BOOLEAN data"),
              ("rank10", [1, 2, 1, 3, 1, 2, 1, 2, 1, 2], "INT16",
               [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], "INT64", "10 dimensions, reversed"),
              ("rank9-rotate", [2, 1, 2, 1, 3, 1, 2, 1, 2], "INT32",
               [1, 2, 3, 4, 5, 6, 7, 8, 0], "UINT16", "9 dimensions rotated")]
    for n, shape, t, order, ot, note in extras:
        x = seq(shape, t)
        out = np.transpose(x, order) if len(order) else np.transpose(x)
        cs.append(case("openvino.transpose1." + n, "dmlcl:Transpose-1#" + n,
                       "openvino.Transpose-1",
                       {"data": tensor(t, x), "input_order": tensor(ot, order)}, tensor(t, out),
                       note=note + "; numpy.transpose"))
    for n, order, note in [("length", tensor("INT64", [1, 0]),
                            "input_order has n = rank values or none"),
                           ("range", tensor("INT64", [0, 3, 1]), "values in [0, n-1]"),
                           ("negative", tensor("INT64", [-1, 0, 1]), "values in [0, n-1]"),
                           ("repeat", tensor("INT64", [0, 1, 1]),
                            "every integer in [0, n-1] exactly once"),
                           ("2d", tensor("INT64", [[2, 0, 1]]), "input_order is a 1-D tensor"),
                           ("float", tensor("FLOAT32", [2, 0, 1]), "T_AXIS: any integer type")]:
        cs.append(case("openvino.transpose1.error-" + n, "openvino:Transpose-1#inputs",
                       "openvino.Transpose-1",
                       {"data": tensor("FLOAT32", a), "input_order": order},
                       error="invalid_argument", note=note))
    write(ROOT + "/openvino/transpose.json", cs)


# ---- OpenVINO Reverse-1 -----------------------------------------------------------------------

def ov_reverse():
    cs = []
    x = seq([3, 10, 4, 5], "INT32")
    cs.append(case("openvino.reverse1.example-1", "openvino:Reverse-1#example-1",
                   "openvino.Reverse-1",
                   {"data": tensor("INT32", x), "axis": tensor("INT64", [1])},
                   tensor("INT32", np.flip(x, 1)), attrs={"mode": "index"},
                   note="the page's example: index mode, one axis of a {3,10,100,200} tensor, "
                        "values and axis unspecified; here {3,10,4,5} (the JSON stays small) "
                        "and axis 1; numpy.flip"))
    extras = [("index-two", [2, 3, 4], "FLOAT32", "index", ("INT32", [0, 2]), (0, 2)),
              ("index-negative", [2, 3, 4], "FLOAT32", "index", ("INT64", [-1]), (2,)),
              ("index-duplicate", [3, 4], "INT16", "index", ("INT8", [1, -1]), (1,)),
              ("index-empty", [3, 4], "INT16", "index", ("INT64", []), ()),
              ("index-all", [2, 3, 2], "UINT8", "index", ("UINT64", [2, 1, 0]), (0, 1, 2)),
              ("mask", [2, 3, 4], "FLOAT16", "mask", ("BOOLEAN", [True, False, True]), (0, 2)),
              ("mask-none", [2, 3], "FLOAT32", "mask", ("BOOLEAN", [False, False]), ()),
              ("scalar-index", [], "FLOAT32", "index", ("INT64", []), ()),
              ("scalar-mask", [], "INT64", "mask", ("BOOLEAN", []), ()),
              ("zero-size", [2, 0, 3], "FLOAT32", "index", ("INT64", [2]), (2,)),
              ("boolean", [2, 3], "BOOLEAN", "index", ("INT64", [1]), (1,)),
              ("rank9", [2, 1, 2, 1, 2, 1, 2, 1, 3], "UINT8", "mask",
               ("BOOLEAN", [True, False, False, True, True, False, False, True, True]),
               (0, 3, 4, 7, 8))]
    for n, shape, t, mode, (at, axis), axes in extras:
        v = seq(shape, t)
        out = np.flip(v, axes) if axes else v.copy()
        cs.append(case("openvino.reverse1." + n, "dmlcl:Reverse-1#" + n, "openvino.Reverse-1",
                       {"data": tensor(t, v), "axis": tensor(at, axis)}, tensor(t, out),
                       attrs={"mode": mode}, note="numpy.flip over axes %s" % (list(axes),)))
    v = seq([2, 3, 4])
    errs = [("no-mode", None, tensor("INT64", [0]), "mode is required"),
            ("bad-mode", "axes", tensor("INT64", [0]), "mode is index or mask"),
            ("index-range", "index", tensor("INT64", [3]), "axes must be axes of data"),
            ("index-range-negative", "index", tensor("INT64", [-4]), "axes must be axes of data"),
            ("index-too-many", "index", tensor("INT64", [0, 1, 2, 0]),
             "index mode: the length is in [0, rank]"),
            ("index-boolean", "index", tensor("BOOLEAN", [True, False, True]),
             "index mode: T2 is an integer type"),
            ("mask-length", "mask", tensor("BOOLEAN", [True, False]),
             "mask mode: the length equals the rank"),
            ("mask-integer", "mask", tensor("INT64", [1, 0, 1]), "mask mode: T3 is boolean"),
            ("axis-2d", "index", tensor("INT64", [[0, 1]]), "axis is a 1-D tensor")]
    for n, mode, axis, note in errs:
        cs.append(case("openvino.reverse1.error-" + n, "openvino:Reverse-1#inputs",
                       "openvino.Reverse-1", {"data": tensor("FLOAT32", v), "axis": axis},
                       error="invalid_argument",
                       attrs={"mode": mode} if mode is not None else None, note=note))
    write(ROOT + "/openvino/reverse.json", cs)


# ---- ONNX Tile-13 -------------------------------------------------------------------------------

def onnx_tile():
    cs = []
    a = np.array([[1, 2], [3, 4]], dtype=np.float32)
    cs.append(case("onnx.tile13.summary", "onnx:Tile-13#summary", "onnx.Tile-13",
                   {"input": tensor("FLOAT32", a), "repeats": tensor("INT64", [1, 2])},
                   tensor("FLOAT32", [[1, 2, 1, 2], [3, 4, 3, 4]]),
                   note="the page's example: A = [[1, 2], [3, 4]], B = [1, 2]"))
    x = np.array([[0, 1], [2, 3]], dtype=np.float32)
    cs.append(case("onnx.tile13.tile_precomputed", "onnx:Tile-13#tile_precomputed",
                   "onnx.Tile-13",
                   {"input": tensor("FLOAT32", x), "repeats": tensor("INT64", [2, 2])},
                   tensor("FLOAT32", [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]]),
                   note="the backend test's values as printed"))
    x = (seq([2, 3, 4, 5]) / 4).astype(np.float32)
    reps = [3, 2, 1, 2]
    cs.append(case("onnx.tile13.tile", "onnx:Tile-13#tile", "onnx.Tile-13",
                   {"input": tensor("FLOAT32", x), "repeats": tensor("INT64", reps)},
                   tensor("FLOAT32", np.tile(x, reps)),
                   note="the backend test draws x of shape (2,3,4,5) and repeats in [1,10); "
                        "fixed values here; numpy.tile"))
    extras = [("scalar", [], "INT32", [], "0-D input, empty repeats: 0-D"),
              ("zero-repeat", [2, 3], "FLOAT32", [0, 2], "a 0 repeat: an empty output"),
              ("zero-input", [2, 0], "UINT8", [2, 3], "0-sized input"),
              ("boolean", [2, 2], "BOOLEAN", [3, 1], "BOOLEAN input"),
              ("rank9", [1, 2, 1, 2, 1, 2, 1, 2, 2], "INT8", [2, 1, 2, 1, 1, 1, 2, 1, 1],
               "9 dimensions"),
              ("ones", [3, 4], "INT64", [1, 1], "repeats all 1: a copy")]
    for n, shape, t, reps, note in extras:
        v = seq(shape, t)
        out = np.tile(v, reps) if len(reps) else v.copy()
        cs.append(case("onnx.tile13." + n, "dmlcl:Tile-13#" + n, "onnx.Tile-13",
                       {"input": tensor(t, v), "repeats": tensor("INT64", reps)}, tensor(t, out),
                       note=note + "; numpy.tile"))
    v = seq([2, 3])
    for n, rep, note in [("length", tensor("INT64", [2]),
                          "repeats has the same length as input's dimension number"),
                         ("length-long", tensor("INT64", [1, 2, 2]),
                          "repeats has the same length as input's dimension number"),
                         ("int32", tensor("INT32", [1, 2]), "T1: tensor(int64)"),
                         ("negative", tensor("INT64", [1, -1]), "numbers of copies: >= 0"),
                         ("2d", tensor("INT64", [[1, 2]]), "repeats is 1-D")]:
        cs.append(case("onnx.tile13.error-" + n, "onnx:Tile-13#inputs", "onnx.Tile-13",
                       {"input": tensor("FLOAT32", v), "repeats": rep}, error="invalid_argument",
                       note=note))
    write(ROOT + "/onnx/tile.json", cs)


# ---- ONNX Transpose-13 --------------------------------------------------------------------------

def onnx_transpose():
    cs = []
    x = (seq([2, 3, 4]) * 0.25 - 2).astype(np.float32)
    cs.append(case("onnx.transpose13.transpose_default", "onnx:Transpose-13#transpose_default",
                   "onnx.Transpose-13", {"data": tensor("FLOAT32", x)},
                   tensor("FLOAT32", np.transpose(x)),
                   note="the backend test draws random data of shape (2,3,4); fixed values "
                        "here; no perm: reversed"))
    import itertools
    for i, p in enumerate(itertools.permutations([0, 1, 2])):
        cs.append(case("onnx.transpose13.transpose_all_permutations_%d" % i,
                       "onnx:Transpose-13#transpose_all_permutations_%d" % i,
                       "onnx.Transpose-13", {"data": tensor("FLOAT32", x)},
                       tensor("FLOAT32", np.transpose(x, p)), attrs={"perm": list(p)},
                       note="perm %s of (2,3,4) (itertools.permutations order, as the test); "
                            "fixed data; numpy.transpose" % (list(p),)))
    extras = [("empty-perm", [2, 3, 4], "INT32", [], "an empty perm is the default order"),
              ("scalar", [], "FLOAT64", None, "0-D data"),
              ("zero-size", [0, 2, 3], "FLOAT32", [1, 2, 0], "0-sized data"),
              ("boolean", [2, 3], "BOOLEAN", [1, 0], "BOOLEAN data"),
              ("rank1", [5], "INT8", [0], "1-D: a copy"),
              ("rank9", [2, 1, 2, 1, 2, 1, 2, 1, 2], "UINT16", [8, 0, 7, 1, 6, 2, 5, 3, 4],
               "9 dimensions")]
    for n, shape, t, perm, note in extras:
        v = seq(shape, t)
        out = np.transpose(v, perm) if perm else np.transpose(v)
        cs.append(case("onnx.transpose13." + n, "dmlcl:Transpose-13#" + n, "onnx.Transpose-13",
                       {"data": tensor(t, v)}, tensor(t, out),
                       attrs={"perm": perm} if perm is not None else None,
                       note=note + "; numpy.transpose"))
    for n, perm, note in [("length", [1, 0], "perm permutes the axes of data (one per axis)"),
                          ("range", [0, 1, 3], "perm values in [0, rank)"),
                          ("negative", [0, -1, 1], "perm values in [0, rank)"),
                          ("repeat", [0, 0, 1], "no axis twice")]:
        cs.append(case("onnx.transpose13.error-" + n, "onnx:Transpose-13#attributes",
                       "onnx.Transpose-13", {"data": tensor("FLOAT32", x)},
                       error="invalid_argument", attrs={"perm": perm}, note=note))
    write(ROOT + "/onnx/transpose.json", cs)


dml_tile()
ov_tile()
ov_transpose()
ov_reverse()
onnx_tile()
onnx_transpose()
