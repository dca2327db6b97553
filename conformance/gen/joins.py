# SPDX-License-Identifier: MIT
"""Writes the documented-example cases of the join family into conformance/cases:
DirectML JOIN / SPLIT (their pages' examples, values as printed), OpenVINO
Concat-1 / Split-1 / VariadicSplit-1 (the spec pages' shape examples, filled
with distinct values; expected values by numpy), ONNX Concat-13 / Split-13 /
Split-18 (the onnx backend node tests, taken from the installed onnx package's
test case sources: inputs, attributes and expected outputs as they give
them), plus one case per error rule (expected invalid_argument).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/joins.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")


def f32(a):
    return tensor("FLOAT32", np.asarray(a, dtype=np.float32))


def case(name, source, op, inputs, outputs=None, attrs=None, error=None, **extra):
    c = {"name": name, "source": source, "op": op}
    if attrs is not None:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    c.update(extra)
    return c


def desc(t, shape):
    """An output description under inputs (type and shape, no data)."""
    return {"type": t, "shape": list(shape)}


# ---- DirectML ----------------------------------------------------------------------------

def directml():
    join_src = "directml:DML_JOIN_OPERATOR_DESC#"
    split_src = "directml:DML_SPLIT_OPERATOR_DESC#"
    op_j, op_s = "DML_OPERATOR_JOIN", "DML_OPERATOR_SPLIT"
    a = np.array([[[[1, 2, 3], [4, 5, 6]]]])
    b = np.array([[[[7, 8, 9, 10], [11, 12, 13, 14]]]])
    joins = [case("directml.join.example-1", join_src + "example-1", op_j,
                  {"InputTensors": [f32(a), f32(b)]},
                  {"OutputTensor": f32([[[[1, 2, 3, 7, 8, 9, 10], [4, 5, 6, 11, 12, 13, 14]]]])},
                  {"Axis": 3})]
    x = [np.array([[[[1, 2], [3, 4]]]]), np.array([[[[5, 6], [7, 8]]]]),
         np.array([[[[9, 10], [11, 12]]]])]
    printed = {1: [[[[1, 2], [3, 4]], [[5, 6], [7, 8]], [[9, 10], [11, 12]]]],
               2: [[[[1, 2], [3, 4], [5, 6], [7, 8], [9, 10], [11, 12]]]],
               3: [[[[1, 2, 5, 6, 9, 10], [3, 4, 7, 8, 11, 12]]]]}
    for axis, out in printed.items():
        joins.append(case(f"directml.join.example-2-axis-{axis}", join_src + "example-2", op_j,
                          {"InputTensors": [f32(t) for t in x]}, {"OutputTensor": f32(out)},
                          {"Axis": axis}))
    # Extra: a strided output, 64-bit integers at their extremes, one input.
    big = np.array([[-9223372036854775808, 9223372036854775807], [1, -1]], dtype=np.int64)
    joins.append(case("directml.join.int64-extremes", join_src + "types", op_j,
                      {"InputTensors": [tensor("INT64", big), tensor("INT64", big[::-1])]},
                      {"OutputTensor": tensor("INT64", np.concatenate([big, big[::-1]], 1))},
                      {"Axis": 1}))
    joins.append(case("directml.join.one-input", join_src + "text", op_j,
                      {"InputTensors": [f32(a)]}, {"OutputTensor": f32(a)}, {"Axis": 0}))
    padded = {"type": "FLOAT32", "shape": [1, 1, 2, 7], "strides": [16, 16, 8, 1]}
    joins.append(case("directml.join.padded-output", join_src + "example-1", op_j,
                      {"InputTensors": [f32(a), f32(b)], "OutputTensor": padded},
                      {"OutputTensor": f32(np.concatenate([a, b], 3))}, {"Axis": 3}))
    # Each rule broken once.
    rules = [
        ("input-count-0", {"InputTensors": [], "OutputTensor": desc("FLOAT32", [1, 1, 2, 7])}, 3),
        ("axis-out-of-range", {"InputTensors": [f32(a), f32(b)]}, 4),
        ("sizes-off-axis", {"InputTensors": [f32(a), f32(b)]}, 2),
        ("sum-of-axis", {"InputTensors": [f32(a), f32(b)],
                         "OutputTensor": desc("FLOAT32", [1, 1, 2, 8])}, 3),
        ("data-type", {"InputTensors": [f32(a), tensor("INT32", b)]}, 3),
        ("dimension-count", {"InputTensors": [f32(a), f32(b[0])]}, 2),
    ]
    for name, inputs, axis in rules:
        joins.append(case("directml.join.invalid-" + name, join_src + "text", op_j, inputs,
                          attrs={"Axis": axis}, error="invalid_argument"))

    whole = np.arange(1, 13).reshape(1, 1, 6, 2)
    splits = [case("directml.split.example-1", split_src + "example-1", op_s,
                   {"InputTensor": f32(whole)},
                   {"OutputTensors": [f32([[[[1, 2], [3, 4]]]]), f32([[[[5, 6]]]]),
                                      f32([[[[7, 8], [9, 10], [11, 12]]]])]}, {"Axis": 2}),
              case("directml.split.example-2", split_src + "example-2", op_s,
                   {"InputTensor": f32(whole)},
                   {"OutputTensors": [f32([[[[1], [3], [5], [7], [9], [11]]]]),
                                      f32([[[[2], [4], [6], [8], [10], [12]]]])]}, {"Axis": 3}),
              case("directml.split.one-output", split_src + "text", op_s,
                   {"InputTensor": f32(whole)}, {"OutputTensors": [f32(whole)]}, {"Axis": 1})]
    transposed = {"type": "FLOAT32", "shape": [1, 1, 3, 2], "strides": [6, 6, 1, 3]}
    splits.append(case("directml.split.transposed-output", split_src + "example-1", op_s,
                       {"InputTensor": f32(whole),
                        "OutputTensors": [desc("FLOAT32", [1, 1, 3, 2]), transposed]},
                       {"OutputTensors": [f32(whole[:, :, :3]), f32(whole[:, :, 3:])]},
                       {"Axis": 2}))
    bad = [
        ("sum-of-axis", [desc("FLOAT32", [1, 1, 2, 2]), desc("FLOAT32", [1, 1, 3, 2])], 2),
        ("axis-out-of-range", [desc("FLOAT32", [1, 1, 6, 2])], 4),
        ("sizes-off-axis", [desc("FLOAT32", [1, 1, 3, 1]), desc("FLOAT32", [1, 1, 3, 1])], 2),
        ("data-type", [desc("FLOAT32", [1, 1, 3, 2]), desc("FLOAT16", [1, 1, 3, 2])], 2),
        ("dimension-count", [desc("FLOAT32", [1, 3, 2]), desc("FLOAT32", [1, 1, 3, 2])], 2),
        ("output-count-0", [], 2),
    ]
    for name, outs, axis in bad:
        splits.append(case("directml.split.invalid-" + name, split_src + "text", op_s,
                           {"InputTensor": f32(whole), "OutputTensors": outs},
                           attrs={"Axis": axis}, error="invalid_argument"))
    return joins, splits


# ---- OpenVINO ----------------------------------------------------------------------------

def distinct(shape, t="FLOAT32"):
    """Distinct values for a shape (small integers in a float type stay exact)."""
    n = int(np.prod(shape))
    return np.arange(n).reshape(shape) % (251 if t in ("INT8", "UINT8") else 1 << 20)


def openvino():
    concat, split, vsplit = [], [], []
    src = "openvino:Concat-1#"
    # 140,000 elements: UINT8 (the page names no type) keeps the file near 1 MB a case;
    # values cycle with a prime period, so a channel or input out of place still shows.
    ins = [(np.arange(np.prod(s)).reshape(s) * 7 + 13 * k) % 97
           for k, s in enumerate(((1, 8, 50, 50), (1, 16, 50, 50), (1, 32, 50, 50)))]
    erratum = ("the example's comment prints 'concatenated axis: 8 + 16 + 32 = 48' while its "
               "output port gives 56; 8 + 16 + 32 is 56, which the output dimension (and the "
               "text: the sum of the inputs' sizes along axis) gives")
    for k, axis in enumerate((1, -3)):
        concat.append(case(f"openvino.concat1.example-{k + 1}", src + f"example-{k + 1}",
                           "openvino.Concat-1", {"inputs": [tensor("UINT8", t) for t in ins]},
                           {"output": tensor("UINT8", np.concatenate(ins, axis))}, {"axis": axis},
                           erratum=erratum))
    b = np.array([[True, False], [False, True]])
    concat.append(case("openvino.concat1.boolean-last-axis", src + "types", "openvino.Concat-1",
                       {"inputs": [tensor("BOOLEAN", b), tensor("BOOLEAN", ~b)]},
                       {"output": tensor("BOOLEAN", np.concatenate([b, ~b], -1))}, {"axis": -1}))
    two = [f32([[1, 2]]), f32([[3, 4], [5, 6]])]
    for name, inputs, axis in [("axis-out-of-range", two, 2), ("axis-below-range", two, -3),
                               ("shapes-off-axis", two, 1),
                               ("types", [f32([[1, 2]]), tensor("INT32", [[3, 4]])], 0),
                               ("ranks", [f32([[1, 2]]), f32([3, 4])], 0),
                               ("scalar", [f32(1.0)], 0), ("no-inputs", [], 0)]:
        concat.append(case("openvino.concat1.invalid-" + name, src + "text", "openvino.Concat-1",
                           {"inputs": inputs}, attrs={"axis": axis}, error="invalid_argument"))

    src = "openvino:Split-1#"
    data = distinct((6, 12, 10, 24))
    split.append(case("openvino.split1.example-1", src + "example-1", "openvino.Split-1",
                      {"data": f32(data), "axis": tensor("INT64", 1)},
                      {"outputs": [f32(t) for t in np.split(data, 3, 1)]}, {"num_splits": 3}))
    small = distinct((2, 6))
    for t in ("INT8", "UINT16", "INT32"):
        split.append(case(f"openvino.split1.axis-{t.lower()}", src + "input-axis",
                          "openvino.Split-1", {"data": f32(small), "axis": tensor(t, 1)},
                          {"outputs": [f32(x) for x in np.split(small, 2, 1)]},
                          {"num_splits": 2}))
    split.append(case("openvino.split1.negative-axis", src + "input-axis", "openvino.Split-1",
                      {"data": f32(small), "axis": tensor("INT64", -2)},
                      {"outputs": [f32(x) for x in np.split(small, 2, 0)]}, {"num_splits": 2}))
    for name, axis, n in [("not-divisible", 1, 4), ("num-splits-0", 1, 0),
                          ("axis-out-of-range", 2, 1)]:
        split.append(case("openvino.split1.invalid-" + name, src + "text", "openvino.Split-1",
                          {"data": f32(small), "axis": tensor("INT64", axis)},
                          attrs={"num_splits": n}, error="invalid_argument"))
    split.append(case("openvino.split1.invalid-axis-shape", src + "input-axis",
                      "openvino.Split-1", {"data": f32(small), "axis": tensor("INT64", [0, 1])},
                      attrs={"num_splits": 2}, error="invalid_argument"))
    split.append(case("openvino.split1.invalid-axis-shape-1", src + "input-axis",
                      "openvino.Split-1", {"data": f32(small), "axis": tensor("INT64", [1])},
                      attrs={"num_splits": 2}, error="invalid_argument",
                      note="Split-1's axis is a scalar (rank 0): OpenVINO's Split shape inference "
                           "refuses an axis of shape [1], which VariadicSplit-1 accepts"))

    src = "openvino:VariadicSplit-1#"
    for k, lengths in enumerate(([1, 2, 3], [-1, 2])):
        real = [x if x >= 0 else 6 - sum(v for v in lengths if v >= 0) for x in lengths]
        parts = np.split(data, np.cumsum(real)[:-1], 0)
        vsplit.append(case(f"openvino.variadic_split1.example-{k + 1}", src + f"example-{k + 1}",
                           "openvino.VariadicSplit-1",
                           {"data": f32(data), "axis": tensor("INT64", 0),
                            "split_lengths": tensor("INT64", lengths)},
                           {"outputs": [f32(p) for p in parts]}))
    vsplit.append(case("openvino.variadic_split1.zero-lengths", src + "input-split_lengths",
                       "openvino.VariadicSplit-1",
                       {"data": f32(small), "axis": tensor("UINT8", [1]),
                        "split_lengths": tensor("INT32", [0, 4, -1, 0])},
                       {"outputs": [f32(small[:, :0]), f32(small[:, :4]), f32(small[:, 4:]),
                                    f32(small[:, :0])]}))
    for name, lengths in [("two-minus-one", [-1, -1]), ("below-minus-one", [-2, 8]),
                          ("sum", [1, 2]), ("rest-negative", [7, -1])]:
        vsplit.append(case("openvino.variadic_split1.invalid-" + name, src + "input-split_lengths",
                           "openvino.VariadicSplit-1",
                           {"data": f32(small), "axis": tensor("INT64", 1),
                            "split_lengths": tensor("INT64", lengths)},
                           error="invalid_argument"))
    vsplit.append(case("openvino.variadic_split1.invalid-axis-shape", src + "input-axis",
                       "openvino.VariadicSplit-1",
                       {"data": f32(small), "axis": tensor("INT64", [[1]]),
                        "split_lengths": tensor("INT64", [2, 4])},
                       error="invalid_argument",
                       note="axis is a scalar or of shape [1]; a rank-2 axis is refused "
                            "(OpenVINO's VariadicSplit shape inference too)"))
    vsplit.append(case("openvino.variadic_split1.invalid-no-lengths", src + "input-split_lengths",
                       "openvino.VariadicSplit-1",
                       {"data": f32(small), "axis": tensor("INT64", 1),
                        "split_lengths": tensor("INT64", np.zeros(0, np.int64))},
                       error="invalid_argument",
                       note="split_lengths of shape [0] sums to 0, not data.shape[1] (6) "
                            "(OpenVINO's VariadicSplit shape inference refuses it too; on an "
                            "empty axis it would take it, with no outputs)"))
    return concat, split, vsplit


# ---- ONNX: the backend node tests ------------------------------------------------------

def onnx_node_tests(module, cls):
    """Every expect() the module's export functions make: (name, node, inputs, outputs, opset)."""
    got = []

    from onnx.defs import onnx_opset_version

    def record(node, inputs, outputs, name, **kw):
        opset = onnx_opset_version()  # expect()'s default: the newest opset
        for o in kw.get("opset_imports", []):
            if o.domain == "":
                opset = o.version
        got.append((name, node, inputs, outputs, opset))

    module.expect = record
    for attr in sorted(dir(cls)):
        if attr.startswith("export"):
            getattr(cls, attr)()
    return got


def onnx_cases():
    import onnx.backend.test.case.node.concat as concat_mod
    import onnx.backend.test.case.node.split as split_mod
    from onnx import helper

    concat, split = [], []
    for name, node, inputs, outputs, opset in onnx_node_tests(concat_mod, concat_mod.Concat):
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        concat.append(case("onnx.concat13." + name, "onnx:Concat-13#" + name, "onnx.Concat-13",
                           {"inputs": [f32(x) for x in inputs]}, {"output": f32(outputs[0])},
                           attrs))
    for name, node, inputs, outputs, opset in onnx_node_tests(split_mod, split_mod.Split):
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        v = 18 if opset >= 18 else 13
        ins = {"input": f32(inputs[0])}
        if len(inputs) > 1:
            ins["split"] = tensor("INT64", inputs[1])
        split.append(case(f"onnx.split{v}." + name, f"onnx:Split-{v}#" + name, f"onnx.Split-{v}",
                          ins, {"outputs": [f32(x) for x in outputs]}, attrs))

    x = np.arange(6, dtype=np.float32)
    concat.append(case("onnx.concat13.zero-size-input", "onnx:Concat-13#text", "onnx.Concat-13",
                       {"inputs": [f32(np.zeros((2, 0), np.float32)), f32(x.reshape(2, 3))]},
                       {"output": f32(x.reshape(2, 3))}, {"axis": 1}))
    concat.append(case("onnx.concat13.int64-exact", "onnx:Concat-13#types", "onnx.Concat-13",
                       {"inputs": [tensor("INT64", [2**62, -3]), tensor("INT64", [7])]},
                       {"output": tensor("INT64", [2**62, -3, 7])}, {"axis": 0}))
    for name, inputs, axis in [
            ("axis-out-of-range", [f32([[1]]), f32([[2]])], 2),
            ("shapes-off-axis", [f32([[1, 2]]), f32([[3]])], 0),
            ("types", [f32([1]), tensor("INT64", [2])], 0),
            ("scalar", [f32(1.0), f32(2.0)], 0)]:
        concat.append(case("onnx.concat13.invalid-" + name, "onnx:Concat-13#text",
                           "onnx.Concat-13", {"inputs": inputs}, attrs={"axis": axis},
                           error="invalid_argument"))
    # Split-18's num_outputs leaving an empty last part (shape inference and reference agree).
    six = np.arange(1, 7, dtype=np.float32)
    split.append(case("onnx.split18.num-outputs-empty-last", "onnx:Split-18#attr-num_outputs",
                      "onnx.Split-18", {"input": f32(six)},
                      {"outputs": [f32(six[0:2]), f32(six[2:4]), f32(six[4:6]), f32(six[6:])]},
                      {"axis": 0, "num_outputs": 4}))
    rules = [
        ("13", "split-negative", {"split": tensor("INT64", [7, -1])}, {}),
        ("13", "split-sum", {"split": tensor("INT64", [2, 2])}, {}),
        ("13", "split-type", {"split": tensor("INT32", [3, 3])}, {}),
        ("13", "axis-out-of-range", {"split": tensor("INT64", [3, 3])}, {"axis": 1}),
        ("18", "split-and-num-outputs", {"split": tensor("INT64", [3, 3])}, {"num_outputs": 2}),
        ("18", "neither-split-nor-num-outputs", {}, {}),
        ("18", "num-outputs-0", {}, {"num_outputs": 0}),
        ("18", "num-outputs-negative-last", {}, {"num_outputs": 5}),
    ]
    seven = np.arange(7, dtype=np.float32)
    for v, name, extra, attrs in rules:
        data = seven if name == "num-outputs-negative-last" else six
        ins = {"input": f32(data)}
        ins.update(extra)
        split.append(case(f"onnx.split{v}.invalid-" + name, f"onnx:Split-{v}#text",
                          f"onnx.Split-{v}", ins, attrs=attrs, error="invalid_argument"))
    return concat, split


def main():
    joins, splits = directml()
    write(os.path.join(CASES, "directml", "join.json"), joins)
    write(os.path.join(CASES, "directml", "split.json"), splits)
    concat, split, vsplit = openvino()
    write(os.path.join(CASES, "openvino", "concat.json"), concat)
    write(os.path.join(CASES, "openvino", "split.json"), split)
    write(os.path.join(CASES, "openvino", "variadic_split.json"), vsplit)
    concat, split = onnx_cases()
    write(os.path.join(CASES, "onnx", "concat.json"), concat)
    write(os.path.join(CASES, "onnx", "split.json"), split)


if __name__ == "__main__":
    main()
