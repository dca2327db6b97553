# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/generate.json: DirectML's generators that read an
element's position. ONE_HOT: the page's four examples, every value type of its tables (up to
feature level 4.1: FLOAT64 and the 64-bit integers) with each index type, negative and
out-of-range indices, INT64 and UINT64 indices past 2^32 and 2^63, values tensors of other
shapes and strides (the page's example 3, a transposed pair, a 0 stride that reads OffValue
twice), a depth of 1, strided outputs, one to eight dimensions, and one case per validation
rule. DIAGONAL_MATRIX and DIAGONAL_MATRIX1: the pages' examples, every type, bands reversed,
empty and reaching INT_MIN and INT_MAX, with and without InputTensor, strided tensors, two to
four dimensions, FLOAT Values converted (toward zero, saturated, NaN 0; FLOAT16 to nearest
even), and every validation rule.

Expected values: numpy and plain Python from the page's rules (OffValue is the values tensor's
element 0, OnValue its element at coordinate 1 along the fastest-changing dimension of size
above 1; a signed type's negative index counts from the end; an index outside the axis leaves
its sequence OffValue). Every ONE_HOT case of signed indices is checked against
onnx.reference's OneHot-11, which defines the same sequence, and the generator stops on a
disagreement.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/generate.py
"""
import itertools
import os
import sys

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
VALUE_TYPES = ["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64",
               "UINT32", "UINT16", "UINT8"]
INDEX_TYPES = ["INT64", "INT32", "UINT64", "UINT32"]


def case(op, name, inputs, attrs, outputs=None, error=None, source=None, note=None):
    c = {"name": f"directml.{op.lower()}.{name}",
         "source": source or f"directml:DML_{op}_OPERATOR_DESC#"
         + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs, "attrs": attrs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


# ---- ONE_HOT ----------------------------------------------------------------------------

def on_off(values):
    """OffValue and OnValue of a values array (logical), by the page's rule."""
    coord = [0] * values.ndim
    for k in reversed(range(values.ndim)):
        if values.shape[k] > 1:
            coord[k] = 1
            break
    return values.reshape(-1)[0], values[tuple(coord)]


def one_hot(indices, index_t, values, axis, depth):
    off, on = on_off(values)
    shape = list(indices.shape)
    shape[axis] = depth
    out = np.empty(shape, values.dtype)
    signed = index_t.startswith("INT")
    for c in itertools.product(*[range(n) for n in shape]):
        ic = list(c)
        ic[axis] = 0
        i = int(indices[tuple(ic)])
        if signed and i < 0:
            i += depth
        out[c] = on if i == c[axis] else off
    return out


def onnx_check(indices, index_t, values, axis, depth, want):
    """onnx.reference's OneHot-11 (indices with the axis removed, depth, [off, on])."""
    if not index_t.startswith("INT") or values.dtype == np.float16:
        return
    off, on = on_off(values)
    node = helper.make_node("OneHot", ["i", "d", "v"], ["y"], axis=axis)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("i", onnx.TensorProto.INT64, None),
         helper.make_tensor_value_info("d", onnx.TensorProto.INT64, None),
         helper.make_tensor_value_info("v", helper.np_dtype_to_tensor_dtype(values.dtype),
                                       None)],
        [helper.make_tensor_value_info("y", helper.np_dtype_to_tensor_dtype(values.dtype),
                                       None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)])
    with np.errstate(over="ignore"):  # its on - off wraps in integer types, exactly
        got = ReferenceEvaluator(model).run(None, {
            "i": np.squeeze(indices.astype(np.int64), axis), "d": np.array(depth, np.int64),
            "v": np.array([off, on], values.dtype)})[0]
    if not np.array_equal(got.astype(want.dtype), want, equal_nan=True):
        raise SystemExit(f"onnx.reference's OneHot disagrees: {got} against {want}")


def one_hot_case(name, index_t, indices, value_t, values, axis, depth, values_strides=None,
                 out_strides=None, source=None, note=None):
    indices = np.asarray(indices, NUMPY_TYPES[index_t])
    values = np.asarray(values, NUMPY_TYPES[value_t])
    want = one_hot(indices, index_t, values, axis, depth)
    onnx_check(indices, index_t, values, axis, depth, want)
    v = tensor(value_t, values)
    if values_strides is not None:
        v["strides"] = list(values_strides)
    inputs = {"IndicesTensor": tensor(index_t, indices), "ValuesTensor": v}
    out = tensor(value_t, want)
    if out_strides is not None:
        out["strides"] = list(out_strides)
    return case("ONE_HOT", name, inputs, {"Axis": axis}, {"OutputTensor": out}, source=source,
                note=note)


def one_hot_examples():
    src = "directml:DML_ONE_HOT_OPERATOR_DESC#example-"
    return [
        one_hot_case("example-1", "UINT32", [[[[0], [3], [2]]]], "FLOAT32", [[[[0, 1]]]], 3, 4,
                     source=src + "1"),
        one_hot_case("example-2", "UINT32", [[[[0, 2, 1, 0]]]], "FLOAT32", [[[[0, 1]]]], 2, 3,
                     source=src + "2"),
        one_hot_case("example-3", "UINT32", [[[[0], [3], [2]]]], "FLOAT32",
                     [[[[4], [2], [9]]]], 3, 4, source=src + "3"),
        one_hot_case("example-4", "INT32", [[[[-3], [100], [3]]]], "FLOAT32", [[[[0, 1]]]], 3, 4,
                     source=src + "4"),
    ]


def value_pair(t):
    """Two distinct values of type t, away from 0 and 1 (a constant output cannot pass)."""
    if t.startswith("FLOAT"):
        return [-2.5, 7.25] if t != "FLOAT64" else [-0.0, 1.0000000000000002]
    info = np.iinfo(NUMPY_TYPES[t])
    return [int(info.max) - 1, int(info.min) + 3]


def one_hot_types():
    got, rng = [], np.random.default_rng(20261201)
    for n, vt in enumerate(VALUE_TYPES):
        it = INDEX_TYPES[n % len(INDEX_TYPES)]
        depth, axis = 5, n % 3
        shape = [2, 3, 2]
        shape[axis] = 1
        lo = -depth - 2 if it.startswith("INT") else 0
        idx = rng.integers(lo, depth + 2, size=shape)
        got.append(one_hot_case(f"{vt.lower()}-{it.lower()}-indices", it, idx, vt,
                                np.asarray(value_pair(vt), NUMPY_TYPES[vt]).reshape(1, 1, 2), axis, depth))
    return got


def one_hot_edges():
    big = 1 << 32
    return [
        one_hot_case("int64-past-2^32", "INT64",
                     [[big + 1], [-big + 2], [-1], [2], [-4], [1], [(1 << 62) + 2]], "FLOAT32",
                     [[0.5, -3.0]], 1, 3,
                     note="2^32 + 1 is not 1 and -2^32 + 2 is not -1: 64-bit indices are "
                          "compared whole"),
        one_hot_case("uint64-past-2^63", "UINT64",
                     [[big + 1], [1 << 63], [(1 << 64) - 1], [2], [big], [0]], "INT64",
                     [[-(1 << 63) + 5, (1 << 63) - 4]], 1, 3,
                     note="UINT64 indices are unsigned: 2^63 and 2^64 - 1 are outside the axis"),
        one_hot_case("uint32-past-2^31", "UINT32", [[1 << 31], [(1 << 32) - 1], [1]], "UINT8",
                     [[0, 255]], 1, 2),
        one_hot_case("values-column", "INT32", [[0, 1, -1]], "INT16", [[-7], [9]], 0, 2,
                     note="OnValue is along the values tensor's only dimension above 1, the "
                          "first"),
        one_hot_case("values-strided", "INT32", [[2, 0]], "FLOAT32", [[1.5, -0.25]], 0, 3,
                     values_strides=[0, 3],
                     note="OnValue read through the values tensor's stride (3 elements on)"),
        one_hot_case("values-broadcast", "UINT32", [[1, 0, 2]], "INT8", [[-5, -5]], 0, 3,
                     values_strides=[0, 0],
                     note="a 0 stride: OnValue is element 0 read again, so every element is it"),
        one_hot_case("values-2x3", "INT64", [[1], [0]], "UINT16", [[10, 20, 30], [40, 50, 60]],
                     1, 3, note="OffValue 10 (element 0), OnValue 20 (coordinate 1 along the "
                                "fastest dimension above 1)"),
        one_hot_case("depth-1", "INT32", [[0, -1, 1, -2]], "FLOAT32", [[0, 1]], 0, 1),
        one_hot_case("rank-1", "UINT32", [3], "FLOAT16", [-1.5, 2.0], 0, 5),
        one_hot_case("rank-8", "INT64", np.arange(-4, 4).reshape(1, 2, 1, 2, 1, 2, 1, 1), "UINT32",
                     np.reshape([4000000000, 7], [1, 1, 1, 1, 1, 1, 1, 2]), 7, 3),
        one_hot_case("strided-output", "INT32", [[1], [0], [2], [-1]], "FLOAT32", [[0, 1]], 1, 3,
                     out_strides=[1, 4], note="a column-major output"),
        one_hot_case("axis-0", "INT32", [[[0, 2], [1, -3]]], "INT8", [[[0, 1]]], 0, 3),
    ]


def one_hot_refused():
    src = "directml:DML_ONE_HOT_OPERATOR_DESC#text"

    def ref(name, idx_t, idx_shape, val_t, val_shape, out_t, out_shape, axis, note):
        inputs = {"IndicesTensor": tensor(idx_t, np.zeros(idx_shape)),
                  "ValuesTensor": tensor(val_t, np.arange(int(np.prod(val_shape))),
                                         val_shape),
                  "OutputTensor": {"type": out_t, "shape": out_shape}}
        return case("ONE_HOT", f"invalid-{name}", inputs, {"Axis": axis},
                    error="invalid_argument", source=src, note=note)
    return [
        ref("indices-int16", "INT16", [2, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 3], 1,
            "IndicesTensor.DataType: INT64, INT32, UINT64 or UINT32"),
        ref("indices-uint8", "UINT8", [2, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 3], 1,
            "IndicesTensor.DataType: INT64, INT32, UINT64 or UINT32"),
        ref("indices-float", "FLOAT32", [2, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 3], 1,
            "IndicesTensor.DataType: INT64, INT32, UINT64 or UINT32"),
        ref("output-type", "INT32", [2, 1], "FLOAT32", [1, 2], "FLOAT16", [2, 3], 1,
            "OutputTensor and ValuesTensor have one DataType"),
        ref("values-rank", "INT32", [2, 1], "FLOAT32", [2], "FLOAT32", [2, 3], 1,
            "one DimensionCount"),
        ref("output-rank", "INT32", [2, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 3, 1], 1,
            "one DimensionCount"),
        ref("axis", "INT32", [2, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 1], 2,
            "Axis below IndicesTensor.DimensionCount"),
        ref("one-value", "INT32", [2, 1], "FLOAT32", [1, 1], "FLOAT32", [2, 3], 1,
            "ValuesTensor has at least two elements"),
        ref("indices-axis-size", "INT32", [2, 3], "FLOAT32", [1, 2], "FLOAT32", [2, 3], 1,
            "IndicesTensor's size along Axis is 1"),
        ref("indices-other-size", "INT32", [3, 1], "FLOAT32", [1, 2], "FLOAT32", [2, 4], 1,
            "IndicesTensor's other sizes are the output's"),
    ]


# ---- DIAGONAL_MATRIX, DIAGONAL_MATRIX1 ------------------------------------------------------

def diagonal(shape, t, value, begin, end, input=None):
    """The page's pseudocode: topX = x - y; useValue = (End >= Begin) ^ (topX >= Begin) ^
    (topX < End)."""
    h, w = shape[-2], shape[-1]
    top = np.arange(w)[None, :] - np.arange(h)[:, None]
    use = (end >= begin) ^ (top >= begin) ^ (top < end)
    base = np.zeros(shape, NUMPY_TYPES[t]) if input is None else np.asarray(input, NUMPY_TYPES[t])
    return np.where(np.broadcast_to(use, shape), np.asarray(value, NUMPY_TYPES[t]), base)


def float_to(t, v):
    """DIAGONAL_MATRIX's FLOAT Value in type t: floats rounded, integers toward zero,
    saturated, NaN 0."""
    v = float(np.float32(v))
    if t.startswith("FLOAT"):
        return v
    if v != v:
        return 0
    info = np.iinfo(NUMPY_TYPES[t])
    return int(min(max(np.trunc(v), int(info.min)), int(info.max)))


def diag_case(name, shape, t, offset, value, out_strides=None, note=None, source=None):
    want = diagonal(shape, t, float_to(t, value), offset, offset + 1)
    out = tensor(t, want)
    if out_strides:
        out["strides"] = list(out_strides)
    return case("DIAGONAL_MATRIX", name, {}, {"Offset": offset, "Value": value},
                {"OutputTensor": out}, source=source, note=note)


def diag1_case(name, shape, t, value, begin, end, input=None, in_strides=None, note=None,
               source=None):
    want = diagonal(shape, t, value, begin, end, input)
    inputs = {}
    if input is not None:
        inputs["InputTensor"] = tensor(t, input)
        if in_strides:
            inputs["InputTensor"]["strides"] = list(in_strides)
    else:
        inputs["OutputTensor"] = {"type": t, "shape": list(shape)}
    attrs = {"ValueDataType": t, "Value": tensor(t, [value])["data"][0],
             "DiagonalFillBegin": begin, "DiagonalFillEnd": end}
    return case("DIAGONAL_MATRIX1", name, inputs, attrs, {"OutputTensor": tensor(t, want)},
                source=source, note=note)


def diagonal_cases():
    src0 = "directml:DML_DIAGONAL_MATRIX_OPERATOR_DESC#example-"
    src1 = "directml:DML_DIAGONAL_MATRIX1_OPERATOR_DESC#example-"
    m = [[4, 7, 3, 7, 9], [1, 2, 8, 6, 9], [9, 4, 1, 8, 7], [4, 3, 4, 2, 4]]
    imin, imax = -(1 << 31), (1 << 31) - 1
    got = [
        diag_case("example-1", [1, 1, 3, 3], "FLOAT32", 0, 1.0, source=src0 + "1"),
        diag_case("example-2", [1, 1, 3, 3], "FLOAT32", 1, 1.0, source=src0 + "2"),
        diag_case("example-3", [1, 1, 3, 2], "FLOAT32", -1, 1.0, source=src0 + "3"),
        diag_case("example-4", [1, 1, 3, 2], "FLOAT32", -3, 1.0, source=src0 + "4"),
        diag1_case("example-1", [4, 5], "FLOAT32", 7, 0, 1, source=src1 + "1",
                   note="the page prints 1 on the diagonal with Value 7; its pseudocode writes "
                        "Value, as here"),
        diag1_case("example-2", [4, 5], "FLOAT32", 7, 0, 3, source=src1 + "2"),
        diag1_case("example-3", [4, 5], "FLOAT32", 0, imin, 1, input=m, source=src1 + "3"),
        diag1_case("example-4", [4, 5], "FLOAT32", 0, 1, 0, input=m, source=src1 + "4"),
        diag_case("offset-int-max", [3, 4], "INT8", imax, 5.0),
        diag_case("value-truncated", [2, 3, 3], "INT32", 0, 10.6,
                  note="the page: 10.6 becomes 10"),
        diag_case("value-saturated", [3, 3], "UINT8", -1, -7.5, note="toward zero, saturated"),
        diag_case("value-saturated-high", [3, 3], "INT16", 1, 1e6),
        diag_case("value-nan", [3, 3], "INT32", 0, "nan", note="NaN gives 0, as CAST"),
        diag_case("float16-rounded", [2, 2], "FLOAT16", 0, 1.0009765625 + 2 ** -11,
                  note="a tie rounds to even"),
        diag_case("strided-output", [3, 4], "FLOAT32", 1, 2.5, out_strides=[1, 3]),
        diag1_case("empty-band", [3, 3], "INT64", -5, 2, 2, input=np.arange(9).reshape(3, 3),
                   note="Begin = End: no element takes Value"),
        diag1_case("whole-band", [2, 3, 4], "UINT16", 9, imin, imax),
        diag1_case("reversed-tril", [3, 4], "INT32", 0, 1, imin,
                   input=np.arange(12).reshape(3, 4) + 1,
                   note="Begin > End: Value outside [End, Begin), the lower triangle kept "
                        "(ONNX Runtime's Trilu upper=0, k=0)"),
        diag1_case("strided-input", [2, 3], "FLOAT64", -0.0, 0, 1,
                   input=[[1.5, 2.5, 3.5], [4.5, 5.5, 6.5]], in_strides=[1, 2]),
    ]
    for n, t in enumerate(VALUE_TYPES):
        info_v = 3 if not t.startswith("FLOAT") else -1.25
        shape = [[2, 3], [2, 2, 4], [1, 2, 3, 3]][n % 3]
        got.append(diag1_case(f"{t.lower()}", shape, t, info_v, -1, 1,
                              input=np.arange(int(np.prod(shape))).reshape(shape) + 10))
        got.append(diag_case(f"{t.lower()}", shape, t, n % 3 - 1, 2.0))
    return got


def diagonal_refused():
    src0 = "directml:DML_DIAGONAL_MATRIX_OPERATOR_DESC#text"
    src1 = "directml:DML_DIAGONAL_MATRIX1_OPERATOR_DESC#text"
    out = {"OutputTensor": {"type": "FLOAT32", "shape": [3, 3]}}
    a1 = {"ValueDataType": "FLOAT32", "Value": 1, "DiagonalFillBegin": 0, "DiagonalFillEnd": 1}

    def ref(op, name, inputs, attrs, note, src):
        return case(op, f"invalid-{name}", inputs, attrs, error="invalid_argument", source=src,
                    note=note)
    return [
        ref("DIAGONAL_MATRIX", "rank-1", {"OutputTensor": {"type": "FLOAT32", "shape": [3]}},
            {"Offset": 0, "Value": 1}, "2 to 4 dimensions", src0),
        ref("DIAGONAL_MATRIX", "rank-5",
            {"OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 1, 3, 3]}},
            {"Offset": 0, "Value": 1}, "2 to 4 dimensions", src0),
        ref("DIAGONAL_MATRIX1", "rank-5",
            {"OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 1, 3, 3]}}, a1,
            "2 to 4 dimensions", src1),
        ref("DIAGONAL_MATRIX1", "value-type", out, dict(a1, ValueDataType="FLOAT16"),
            "ValueDataType must match OutputTensor.DataType", src1),
        ref("DIAGONAL_MATRIX1", "input-type",
            dict(out, InputTensor=tensor("FLOAT16", np.zeros([3, 3]))), a1,
            "InputTensor and OutputTensor have one DataType", src1),
        ref("DIAGONAL_MATRIX1", "input-rank",
            dict(out, InputTensor=tensor("FLOAT32", np.zeros([1, 3, 3]))), a1,
            "InputTensor and OutputTensor have one DimensionCount", src1),
        ref("DIAGONAL_MATRIX1", "input-sizes",
            dict(out, InputTensor=tensor("FLOAT32", np.zeros([3, 2]))), a1,
            "InputTensor's Sizes are the output's (InputTensor[coordinate])", src1),
    ]


def main():
    cases = one_hot_examples() + one_hot_types() + one_hot_edges() + one_hot_refused() + \
        diagonal_cases() + diagonal_refused()
    write(os.path.join(CASES, "directml", "generate.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
