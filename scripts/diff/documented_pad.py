# SPDX-License-Identifier: MIT
"""The documented examples of the pad and roll pages as cases (gen_pad.py --documented).

Expected values are the ones the documents print, typed in here; each is checked
against numpy.pad / numpy.roll (and the crop-relative model of gen_pad.py for
OpenVINO's negative pads) and an erratum is recorded where they differ. Examples
that print only shapes (OpenVINO's XML examples) pad an iota; their values come
from numpy. Error cases, one per rule, expect invalid_argument.
"""
import json
import os

import numpy as np

from common import tensor
from gen_pad import model_pad_index, take

DML_IN = [[1, 2, 3, 4], [5, 6, 7, 8], [1, 2, 3, 4], [5, 6, 7, 8]]
DML_PRINTED = {
    "CONSTANT": [[9] * 10, [9, 9, 1, 2, 3, 4, 9, 9, 9, 9], [9, 9, 5, 6, 7, 8, 9, 9, 9, 9],
                 [9, 9, 1, 2, 3, 4, 9, 9, 9, 9], [9, 9, 5, 6, 7, 8, 9, 9, 9, 9], [9] * 10,
                 [9] * 10, [9] * 10],
    "EDGE": [[1, 1, 1, 2, 3, 4, 4, 4, 4, 4], [1, 1, 1, 2, 3, 4, 4, 4, 4, 4],
             [5, 5, 5, 6, 7, 8, 8, 8, 8, 8], [1, 1, 1, 2, 3, 4, 4, 4, 4, 4],
             [5, 5, 5, 6, 7, 8, 8, 8, 8, 8], [5, 5, 5, 6, 7, 8, 8, 8, 8, 8],
             [5, 5, 5, 6, 7, 8, 8, 8, 8, 8], [5, 5, 5, 6, 7, 8, 8, 8, 8, 8]],
    "REFLECTION": [[7, 6, 5, 6, 7, 8, 7, 6, 5, 6], [3, 2, 1, 2, 3, 4, 3, 2, 1, 2]] * 4,
    "SYMMETRIC": [[2, 1, 1, 2, 3, 4, 4, 3, 2, 1], [2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
                  [6, 5, 5, 6, 7, 8, 8, 7, 6, 5], [2, 1, 1, 2, 3, 4, 4, 3, 2, 1],
                  [6, 5, 5, 6, 7, 8, 8, 7, 6, 5], [6, 5, 5, 6, 7, 8, 8, 7, 6, 5],
                  [2, 1, 1, 2, 3, 4, 4, 3, 2, 1], [6, 5, 5, 6, 7, 8, 8, 7, 6, 5]],
}
NP = {"CONSTANT": "constant", "EDGE": "edge", "REFLECTION": "reflect", "SYMMETRIC": "symmetric",
      "WRAP": "wrap", "constant": "constant", "edge": "edge", "reflect": "reflect",
      "symmetric": "symmetric", "wrap": "wrap"}


def check(case, printed, computed):
    """The printed output, or the computed one with an erratum where they differ."""
    printed = np.asarray(printed)
    if printed.shape != computed.shape or not np.array_equal(printed, computed):
        case["erratum"] = (f"the document prints {printed.tolist()}; numpy gives "
                           f"{computed.tolist()}")
        return computed
    return printed


def error(name, source, op, attrs, inputs, why):
    c = {"name": name, "source": source, "op": op, "inputs": inputs,
         "expected": {"error": "invalid_argument"}, "note": why}
    if attrs:
        c["attrs"] = attrs
    return c


def directml_cases():
    cases = []
    x = np.array(DML_IN, dtype=np.float32).reshape(1, 1, 4, 4)
    pw = [(0, 0), (0, 0), (1, 3), (2, 4)]
    for op, struct in (("PADDING", "DML_PADDING_OPERATOR_DESC"),
                       ("PADDING1", "DML_PADDING1_OPERATOR_DESC")):
        for n, mode in enumerate(["CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC"], 1):
            attrs = {"PaddingMode": f"DML_PADDING_MODE_{mode}", "StartPadding": [0, 0, 1, 2],
                     "EndPadding": [0, 0, 3, 4]}
            if op == "PADDING1":
                attrs["PaddingValueDataType"] = "FLOAT32"
            if mode == "CONSTANT":
                attrs["PaddingValue"] = 9
            kw = {"constant_values": 9} if mode == "CONSTANT" else {}
            c = {"name": f"directml.{op.lower()}.example-{n}",
                 "source": f"directml:{struct}#example-{n}", "op": f"DML_OPERATOR_{op}",
                 "attrs": attrs, "inputs": {"InputTensor": tensor("FLOAT32", x)}}
            y = check(c, np.array(DML_PRINTED[mode], dtype=np.float32).reshape(1, 1, 8, 10),
                      np.pad(x, pw, mode=NP[mode], **kw))
            c["expected"] = {"outputs": {"OutputTensor": tensor("FLOAT32", y)}}
            cases.append(c)
    # WRAP has no page (DML_TARGET_VERSION 0x6400): numpy's "wrap", pads past the input too.
    w = np.arange(6, dtype=np.int16).reshape(2, 3)
    cases.append({"name": "directml.padding1.wrap", "source": "dmlcl:DML_PADDING_MODE_WRAP",
                  "op": "DML_OPERATOR_PADDING1",
                  "attrs": {"PaddingMode": "DML_PADDING_MODE_WRAP", "PaddingValueDataType": "INT16",
                            "StartPadding": [1, 4], "EndPadding": [3, 2]},
                  "inputs": {"InputTensor": tensor("INT16", w)},
                  "expected": {"outputs": {"OutputTensor": tensor(
                      "INT16", np.pad(w, [(1, 3), (4, 2)], mode="wrap"))}}})
    f = {"InputTensor": tensor("FLOAT32", x)}
    base = {"PaddingMode": "DML_PADDING_MODE_CONSTANT", "StartPadding": [0, 0, 1, 2],
            "EndPadding": [0, 0, 3, 4]}
    src = "directml:DML_PADDING_OPERATOR_DESC#rules"
    cases += [
        error("directml.padding.error.output-sizes", src, "DML_OPERATOR_PADDING", base,
              dict(f, OutputTensor={"type": "FLOAT32", "shape": [1, 1, 8, 9]}),
              "OutputTensor.Sizes[3] must be 4 + 2 + 4"),
        error("directml.padding.error.output-type", src, "DML_OPERATOR_PADDING", base,
              dict(f, OutputTensor={"type": "FLOAT16", "shape": [1, 1, 8, 10]}),
              "InputTensor and OutputTensor share one DataType"),
        error("directml.padding.error.dimension-count", src, "DML_OPERATOR_PADDING",
              dict(base, StartPadding=[0, 1, 2], EndPadding=[0, 3, 4]),
              dict(f, OutputTensor={"type": "FLOAT32", "shape": [1, 1, 8, 10]}),
              "DimensionCount (the lists' length) must equal the tensors' rank"),
        error("directml.padding.error.mode", src, "DML_OPERATOR_PADDING",
              dict(base, PaddingMode=7), f, "PaddingMode must be a DML_PADDING_MODE value"),
        error("directml.padding1.error.value-type", "directml:DML_PADDING1_OPERATOR_DESC#rules",
              "DML_OPERATOR_PADDING1", dict(base, PaddingValueDataType="INT32"), f,
              "PaddingValueDataType must match OutputTensor.DataType"),
    ]
    return cases


OV_DATA = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
OV_PRINTED = {
    "positive": {
        "constant": [[0, 1, 2, 3, 4, 0, 0, 0], [0, 5, 6, 7, 8, 0, 0, 0],
                     [0, 9, 10, 11, 12, 0, 0, 0], [0] * 8, [0] * 8],
        "edge": [[1, 1, 2, 3, 4, 4, 4, 4], [5, 5, 6, 7, 8, 8, 8, 8],
                 [9, 9, 10, 11, 12, 12, 12, 12], [9, 9, 10, 11, 12, 12, 12, 12],
                 [9, 9, 10, 11, 12, 12, 12, 12]],
        "reflect": [[2, 1, 2, 3, 4, 3, 2, 1], [6, 5, 6, 7, 8, 7, 6, 5],
                    [10, 9, 10, 11, 12, 11, 10, 9], [6, 5, 6, 7, 8, 7, 6, 5],
                    [2, 1, 2, 3, 4, 3, 2, 1]],
        "symmetric": [[1, 1, 2, 3, 4, 4, 3, 2], [5, 5, 6, 7, 8, 8, 7, 6],
                      [9, 9, 10, 11, 12, 12, 11, 10], [9, 9, 10, 11, 12, 12, 11, 10],
                      [5, 5, 6, 7, 8, 8, 7, 6]],
    },
    "mixed": {
        "constant": [[0] * 6, [0] * 6, [2, 3, 4, 0, 0, 0], [6, 7, 8, 0, 0, 0]],
        "edge": [[2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [2, 3, 4, 4, 4, 4], [6, 7, 8, 8, 8, 8]],
        "reflect": [[10, 11, 12, 11, 10, 9], [6, 7, 8, 7, 6, 5], [2, 3, 4, 3, 2, 1],
                    [6, 7, 8, 7, 6, 5]],
        "symmetric": [[6, 7, 8, 8, 7, 6], [2, 3, 4, 4, 3, 2], [2, 3, 4, 4, 3, 2],
                      [6, 7, 8, 8, 7, 6]],
    },
}
PADS = {"positive": ([0, 1], [2, 3]), "negative": ([-1, -1], [-1, -1]), "mixed": ([2, -1], [-1, 3])}


def ov_pad(version, name, source, mode, data, begin, end, printed=None, value=None, t="INT32",
           erratum=None):
    inputs = {"data": tensor(t, data), "pads_begin": tensor("INT64", begin),
              "pads_end": tensor("INT64", end)}
    if value is not None:
        inputs["pad_value"] = tensor(t, np.array(value))
    c = {"name": name, "source": source, "op": f"openvino.Pad-{version}",
         "attrs": {"pad_mode": mode}, "inputs": inputs}
    idx = model_pad_index(list(data.shape), begin, end, mode)
    computed = take(data, idx, 0 if value is None else value)
    y = computed if printed is None else check(c, np.array(printed, dtype=data.dtype), computed)
    if erratum:
        c["erratum"] = erratum
    c["expected"] = {"outputs": {"output": tensor(t, y, list(idx.shape))}}
    return c


def openvino_pad_cases():
    cases = []
    for mode, printed in OV_PRINTED["positive"].items():
        for v in (1, 12):
            cases.append(ov_pad(v, f"openvino.pad{v}.example-{mode}",
                                f"openvino:Pad-{v}#example-{mode}", mode, OV_DATA,
                                *PADS["positive"], printed))
    for kind in ("negative", "mixed"):
        for mode in ("constant", "edge", "reflect", "symmetric"):
            printed = [[6, 7]] if kind == "negative" else OV_PRINTED[kind][mode]
            cases.append(ov_pad(12, f"openvino.pad12.example-{kind}-{mode}",
                                f"openvino:Pad-12#example-{kind}-{mode}", mode, OV_DATA,
                                *PADS[kind], printed))
    # The XML examples print shapes only: an iota padded, values from numpy.
    iota = np.arange(1 * 3 * 32 * 40, dtype=np.int32).reshape(1, 3, 32, 40)
    for v in (1, 12):
        cases.append(ov_pad(v, f"openvino.pad{v}.example-xml-constant",
                            f"openvino:Pad-{v}#example-xml-constant", "constant", iota,
                            [0, 5, 2, 1], [1, 0, 3, 7], value=15, t="INT32"))
        cases.append(ov_pad(v, f"openvino.pad{v}.example-xml-edge",
                            f"openvino:Pad-{v}#example-xml-edge", "edge", iota, [0, 5, 2, 1],
                            [1, 0, 3, 7], t="INT32"))
    iota2 = np.arange(2 * 3 * 32 * 40, dtype=np.int32).reshape(2, 3, 32, 40)
    cases.append(ov_pad(12, "openvino.pad12.example-xml-constant-negative",
                        "openvino:Pad-12#example-xml-constant-negative", "constant", iota2,
                        [0, -2, -8, 1], [-1, 4, -6, 7], value=15, t="INT32",
                        erratum="the example's comment for the first output dimension reads "
                                "'2 = 0 + 2 + (-1)' beside <dim>1</dim>: 0 + 2 + (-1) is 1, "
                                "the output {1,5,18,48}; its third comment, '18 = (-8) + 32 "
                                "(-6)', lacks a '+'"))
    # A crop past one end with a pad at the other: the text's max(..., 0) and its original
    # coordinates. OpenVINO 2026.4's CPU plugin crashes or reads outside the data here.
    cases.append(ov_pad(12, "openvino.pad12.crop-past-one-end", "openvino:Pad-12#outputs",
                        "constant", np.arange(1, 3, dtype=np.int32), [3], [-3]))
    cases[-1]["note"] = ("begin 3, end -3 on {2}: output {2}, both elements padding (the CPU "
                         "plugin of OpenVINO 2026.4 crashes on this)")
    cases.append(ov_pad(12, "openvino.pad12.crop-past-begin-edge", "openvino:Pad-12#outputs",
                        "edge", np.arange(1, 3, dtype=np.int32), [-3], [4]))
    cases[-1]["note"] = "begin -3, end 4 on {2}: output {3}, coordinates 3..5 of the input: edge"
    d = {"data": tensor("INT32", OV_DATA)}
    i64 = lambda v: tensor("INT64", v)
    src = "openvino:Pad-12#rules"
    cases += [
        error("openvino.pad1.error.negative", "openvino:Pad-1#rules", "openvino.Pad-1",
              {"pad_mode": "constant"}, dict(d, pads_begin=i64([0, -1]), pads_end=i64([0, 0])),
              "Pad-1 pads are of 'any non-negative integer type' (OpenVINO 2026 crops instead)"),
        error("openvino.pad12.error.reflect-limit", src, "openvino.Pad-12",
              {"pad_mode": "reflect"}, dict(d, pads_begin=i64([0, 4]), pads_end=i64([0, 0])),
              "reflect: pads_begin[1] (4) must be at most data.shape[1] - 1 (3)"),
        error("openvino.pad12.error.symmetric-limit", src, "openvino.Pad-12",
              {"pad_mode": "symmetric"}, dict(d, pads_begin=i64([0, 0]), pads_end=i64([4, 0])),
              "symmetric: pads_end[0] (4) must be at most data.shape[0] (3)"),
        error("openvino.pad12.error.pads-length", src, "openvino.Pad-12",
              {"pad_mode": "constant"}, dict(d, pads_begin=i64([1]), pads_end=i64([0, 0])),
              "pads_begin has one value per data dimension"),
        error("openvino.pad12.error.pads-2d", src, "openvino.Pad-12", {"pad_mode": "constant"},
              dict(d, pads_begin={"type": "INT64", "shape": [1, 2], "data": [0, 1]},
                   pads_end=i64([0, 0])), "pads_begin is 1-D"),
        error("openvino.pad12.error.pads-type", src, "openvino.Pad-12", {"pad_mode": "constant"},
              dict(d, pads_begin=tensor("FLOAT32", [0, 1]), pads_end=i64([0, 0])),
              "pads are of an integer type"),
        error("openvino.pad12.error.value-shape", src, "openvino.Pad-12",
              {"pad_mode": "constant"}, dict(d, pads_begin=i64([0, 1]), pads_end=i64([0, 0]),
                                             pad_value=tensor("INT32", [5])),
              "pad_value is a scalar"),
        error("openvino.pad12.error.value-type", src, "openvino.Pad-12",
              {"pad_mode": "constant"}, dict(d, pads_begin=i64([0, 1]), pads_end=i64([0, 0]),
                                             pad_value=tensor("FLOAT32", np.array(5.0))),
              "pad_value is of data's type T"),
        error("openvino.pad12.error.mode", src, "openvino.Pad-12", {"pad_mode": "wrap"},
              dict(d, pads_begin=i64([0, 1]), pads_end=i64([0, 0])),
              "pad_mode is constant, edge, reflect or symmetric"),
        error("openvino.pad12.error.edge-empty", src, "openvino.Pad-12", {"pad_mode": "edge"},
              {"data": {"type": "INT32", "shape": [0, 2], "data": []},
               "pads_begin": i64([1, 0]), "pads_end": i64([0, 0])},
              "edge has no element to copy from an empty dimension"),
    ]
    return cases


ROLL_DATA = np.arange(1, 13, dtype=np.int32).reshape(4, 3)
ROLL_EXAMPLES = [
    (1, 0, [[10, 11, 12], [1, 2, 3], [4, 5, 6], [7, 8, 9]]),
    ([-1, 2], [0, 1], [[5, 6, 4], [8, 9, 7], [11, 12, 10], [2, 3, 1]]),
    ([1, 2, 1], [0, 1, 0], [[8, 9, 7], [11, 12, 10], [2, 3, 1], [5, 6, 4]]),
]


def openvino_roll_cases():
    cases = []
    for n, (shift, axes, printed) in enumerate(ROLL_EXAMPLES, 1):
        c = {"name": f"openvino.roll7.example-{n}", "source": f"openvino:Roll-7#example-{n}",
             "op": "openvino.Roll-7",
             "inputs": {"data": tensor("INT32", ROLL_DATA),
                        "shift": tensor("INT64", np.array(shift)),
                        "axes": tensor("INT64", np.array(axes))}}
        sh = np.broadcast_to(np.array(shift), np.array(axes).shape)
        computed = np.roll(ROLL_DATA, tuple(np.atleast_1d(sh)), tuple(np.atleast_1d(axes)))
        y = check(c, np.array(printed, dtype=np.int32), computed)
        c["expected"] = {"outputs": {"output": tensor("INT32", y)}}
        cases.append(c)
    d = {"data": tensor("INT32", ROLL_DATA)}
    src = "openvino:Roll-7#rules"
    i64 = lambda v: tensor("INT64", np.array(v))
    cases += [
        error("openvino.roll7.error.lengths", src, "openvino.Roll-7", None,
              dict(d, shift=i64([1, 2]), axes=i64([0])),
              "a 1-D shift has one value per axis"),
        error("openvino.roll7.error.axis-range", src, "openvino.Roll-7", None,
              dict(d, shift=i64(1), axes=i64([2])), "axes lie in [-2, 1]"),
        error("openvino.roll7.error.shift-type", src, "openvino.Roll-7", None,
              dict(d, shift=tensor("INT16", np.array(1)), axes=i64([0])),
              "shift is int32 or int64"),
        error("openvino.roll7.error.axes-2d", src, "openvino.Roll-7", None,
              dict(d, shift=i64(1), axes={"type": "INT64", "shape": [1, 1], "data": [0]}),
              "axes is a scalar or 1-D"),
    ]
    return cases


ONNX_DATA = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], dtype=np.float32)
ONNX_EXAMPLES = [
    ("constant", [0, 2, 0, 0], [[0.0, 0.0, 1.0, 1.2], [0.0, 0.0, 2.3, 3.4], [0.0, 0.0, 4.5, 5.7]]),
    ("reflect", [0, 2, 0, 0], [[1.0, 1.2, 1.0, 1.2], [2.3, 3.4, 2.3, 3.4], [4.5, 5.7, 4.5, 5.7]]),
    ("edge", [0, 2, 0, 0], [[1.0, 1.0, 1.0, 1.2], [2.3, 2.3, 2.3, 3.4], [4.5, 4.5, 4.5, 5.7]]),
    ("wrap", [2, 1, 1, 1], [[3.4, 2.3, 3.4, 2.3], [5.7, 4.5, 5.7, 4.5], [1.2, 1.0, 1.2, 1.0],
                            [3.4, 2.3, 3.4, 2.3], [5.7, 4.5, 5.7, 4.5], [1.2, 1.0, 1.2, 1.0]]),
]


def onnx_backend_pad(x, pads, mode, value, axes):
    """The onnx backend node test's pad_impl, restated: pads per axis into np.pad."""
    r = x.ndim
    axes = list(range(r)) if axes is None else [a + r if a < 0 else a for a in axes]
    pw = [(0, 0)] * r
    for i, a in enumerate(axes):
        pw[a] = (pads[i], pads[i + len(axes)])
    kw = {"constant_values": value} if mode == "constant" else {}
    return np.pad(x, pw, mode=mode, **kw)


def onnx_cases():
    cases = []
    for n, (mode, pads, printed) in enumerate(ONNX_EXAMPLES, 1):
        for v in (18, 19):
            if mode == "wrap" and v == 18:
                continue
            c = {"name": f"onnx.pad{v}.example-{n}", "source": f"onnx:Pad-{v}#example-{n}",
                 "op": f"onnx.Pad-{v}", "attrs": {"mode": mode},
                 "inputs": {"data": tensor("FLOAT32", ONNX_DATA), "pads": tensor("INT64", pads)}}
            if mode == "constant":
                c["inputs"]["constant_value"] = tensor("FLOAT32", np.array(0.0, np.float32))
            y = check(c, np.array(printed, dtype=np.float32),
                      onnx_backend_pad(ONNX_DATA, pads, mode, 0.0, None))
            c["expected"] = {"outputs": {"output": tensor("FLOAT32", y)}}
            cases.append(c)
    rng = np.random.default_rng(19)
    tests = [("test_constant_pad", "constant", np.float32, [0, 0, 1, 3, 0, 0, 2, 4], None),
             ("test_constant_pad_axes", "constant", np.float32, [0, 3, 0, 4], [1, 3]),
             ("test_constant_pad_negative_axes", "constant", np.float32, [0, 3, 0, 4], [-3, -1]),
             ("test_edge_pad", "edge", np.int32, [0, 0, 1, 1, 0, 0, 1, 1], None),
             ("test_reflect_pad", "reflect", np.int32, [0, 0, 1, 1, 0, 0, 1, 1], None),
             ("test_wrap_pad", "wrap", np.int32, [0, 0, 1, 1, 0, 0, 1, 1], None)]
    for name, mode, dt, pads, axes in tests:
        x = (rng.standard_normal((1, 3, 4, 5)) * (1 if dt == np.float32 else 100)).astype(dt)
        t = "FLOAT32" if dt == np.float32 else "INT32"
        value = np.float32(1.2) if mode == "constant" else None
        c = {"name": f"onnx.pad19.{name}", "source": f"onnx:Pad-19#{name}", "op": "onnx.Pad-19",
             "attrs": {"mode": mode},
             "inputs": {"data": tensor(t, x), "pads": tensor("INT64", pads)},
             "note": "the backend test's data is random: seeded data here, its pad_impl's result"}
        if value is not None:
            c["inputs"]["constant_value"] = tensor("FLOAT32", np.array(value))
        if axes is not None:
            c["inputs"]["axes"] = tensor("INT64", axes)
        c["expected"] = {"outputs": {"output": tensor(t, onnx_backend_pad(x, pads, mode, value,
                                                                           axes))}}
        cases.append(c)
    # Negative pads ("add or remove (if negative)"): onnx.reference (numpy.pad) refuses them;
    # ONNX Runtime 1.23 crops first and pads what is left (printed here from its output).
    x5 = np.arange(5, dtype=np.float32)
    for mode, pads, ort_out in (("wrap", [-1, 3], [1, 2, 3, 4, 1, 2, 3]),
                                ("wrap", [2, -2], [1, 2, 0, 1, 2]),
                                ("reflect", [2, -2], [2, 1, 0, 1, 2]),
                                ("edge", [-1, 3], [1, 2, 3, 4, 4, 4, 4])):
        cases.append({"name": f"onnx.pad19.negative-{mode}-{pads[0]}-{pads[1]}",
                      "source": "onnxruntime:Pad-19#negative-pads", "op": "onnx.Pad-19",
                      "attrs": {"mode": mode},
                      "inputs": {"data": tensor("FLOAT32", x5), "pads": tensor("INT64", pads)},
                      "expected": {"outputs": {"output": tensor("FLOAT32", ort_out)}},
                      "note": "the crop comes first: a wrap repeats the cropped input"})
    d = {"data": tensor("FLOAT32", ONNX_DATA)}
    i64 = lambda v: tensor("INT64", v)
    src = "onnx:Pad-19#rules"
    cases += [
        error("onnx.pad18.error.wrap", "onnx:Pad-18#rules", "onnx.Pad-18", {"mode": "wrap"},
              dict(d, pads=i64([0, 1, 0, 1])), "wrap arrives in Pad-19"),
        error("onnx.pad19.error.pads-count", src, "onnx.Pad-19", {"mode": "constant"},
              dict(d, pads=i64([0, 1, 0])), "pads has 2 * num_axes values"),
        error("onnx.pad19.error.pads-type", src, "onnx.Pad-19", {"mode": "constant"},
              dict(d, pads=tensor("INT32", [0, 1, 0, 1])), "pads is tensor(int64)"),
        error("onnx.pad19.error.axes-repeated", src, "onnx.Pad-19", {"mode": "constant"},
              dict(d, pads=i64([0, 1, 0, 1]), axes=i64([1, -1])),
              "an axis named twice (behaviour undefined: refused)"),
        error("onnx.pad19.error.axes-range", src, "onnx.Pad-19", {"mode": "constant"},
              dict(d, pads=i64([0, 1]), axes=i64([2])), "axes lie in [-2, 1]"),
        error("onnx.pad19.error.value-type", src, "onnx.Pad-19", {"mode": "constant"},
              dict(d, pads=i64([0, 1, 0, 1]), constant_value=tensor("INT32", np.array(1))),
              "constant_value is of data's type T"),
        error("onnx.pad19.error.mode", src, "onnx.Pad-19", {"mode": "symmetric"},
              dict(d, pads=i64([0, 1, 0, 1])), "mode is constant, reflect, edge or wrap"),
        error("onnx.pad19.error.edge-empty", src, "onnx.Pad-19", {"mode": "edge"},
              {"data": {"type": "FLOAT32", "shape": [0, 2], "data": []},
               "pads": i64([1, 0, 0, 0])},
              "numpy.pad (onnx.reference): can't extend empty axis 0 using modes other than "
              "'constant'"),
    ]
    return cases


def write_documented(root):
    base = os.path.join(root, "conformance", "cases")
    files = {"directml/padding.json": directml_cases(), "openvino/pad.json": openvino_pad_cases(),
             "openvino/roll.json": openvino_roll_cases(), "onnx/pad.json": onnx_cases()}
    for rel, cases in files.items():
        with open(os.path.join(base, rel), "w") as f:
            f.write('{"format": "dmlcl-case/1", "cases": [\n')
            f.write(",\n".join(json.dumps(c) for c in cases))
            f.write("\n]}\n")
        errata = sum("erratum" in c for c in cases)
        print(f"{rel}: {len(cases)} cases, {errata} errata")
