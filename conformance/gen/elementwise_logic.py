# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/elementwise_logic.json: DirectML's comparisons, logic, bit
operations, IS_NAN, IS_INFINITY, IF, CAST and the fills on every type class each operator
takes, with special values (NaN, infinities, -0, integer extremes, shift counts past the width,
out-of-range casts), a broadcast by 0 strides, a strided fill, and one case per validation rule.

Expected values: numpy in the tensors' own types (comparisons of the values, bit operations
on the encodings, numpy's float conversions, which round once), with the rules DirectML
leaves open applied as docs/operators.md states them (shift counts at or past the width give
0; floats cast to integers toward zero, saturated, NaN 0; integers cast to integers wrap;
FILL_VALUE_SEQUENCE's element i is ValueStart + i * ValueDelta in the logical row-major
order, integers wrapping). All exact but float FILL_VALUE_SEQUENCE (2 ULP).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/elementwise_logic.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
TEN = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16",
       "UINT8"]
ELEVEN = ["FLOAT64"] + TEN
UINTS = {"UINT8": np.uint8, "UINT16": np.uint16, "UINT32": np.uint32, "UINT64": np.uint64}
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
COMPARE = {"LOGICAL_EQUALS": np.equal, "LOGICAL_GREATER_THAN": np.greater,
           "LOGICAL_GREATER_THAN_OR_EQUAL": np.greater_equal, "LOGICAL_LESS_THAN": np.less,
           "LOGICAL_LESS_THAN_OR_EQUAL": np.less_equal}
LOGIC = {"LOGICAL_AND": np.logical_and, "LOGICAL_OR": np.logical_or,
         "LOGICAL_XOR": np.logical_xor}
BITOPS = {"BIT_AND": np.bitwise_and, "BIT_OR": np.bitwise_or, "BIT_XOR": np.bitwise_xor}


def src(op, error=False):
    name = op if op in ("CAST",) or op.startswith("FILL") else "ELEMENT_WISE_" + op
    return "directml:DML_{}_OPERATOR_DESC#{}".format(name, "text" if error else "semantics")


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None):
    full = op if op == "CAST" or op.startswith("FILL") else "ELEMENT_WISE_" + op
    c = {"name": "directml." + name, "source": src(op, error is not None),
         "op": "DML_OPERATOR_" + full}
    if attrs is not None:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def is_float(t):
    return t.startswith("FLOAT")


def values(t, n, salt):
    """n values of type t: specials first (rotated by salt), then ordinary ones."""
    if is_float(t):
        special = [0.0, -0.0, math.nan, math.inf, -math.inf, 1.5, -2.25, 3.0, 65504.0, 1e-3]
    else:
        info = np.iinfo(NUMPY_TYPES[t])
        special = [0, 1, int(info.max), int(info.min), 7, int(info.max) - 1, 3, 100 % (int(info.max) + 1)]
    k = salt % len(special)
    v = (special[k:] + special[:k]) * (n // len(special) + 1)
    return np.array(v[:n], dtype=NUMPY_TYPES[t])


def as_bits(a):
    return a.view(BITS[a.dtype.itemsize])


def comparisons():
    out = []
    for i, (op, fn) in enumerate(COMPARE.items()):
        for j, t in enumerate(TEN):
            a = values(t, 8, j)
            b = values(t, 8, j + 1 + i)
            b[0] = a[0]  # an equal pair
            if is_float(t):
                a[1], b[1] = -0.0, 0.0  # -0 == +0
            ot = "UINT8" if (i + j) % 2 == 0 else "UINT32"
            r = fn(a, b).astype(NUMPY_TYPES[ot])
            out.append(case(f"element_wise_{op.lower()}.{t.lower()}_{ot.lower()}", op,
                            {"ATensor": tensor(t, a.reshape(2, 4)),
                             "BTensor": tensor(t, b.reshape(2, 4))},
                            {"OutputTensor": tensor(ot, r.reshape(2, 4))}))
    # INT64 beyond 2^53 and UINT64 above INT64_MAX: compared exactly, in their own type.
    a = np.array([2**53 + 1, -1, -(2**63)], dtype=np.int64)
    b = np.array([2**53, 1, 2**63 - 1], dtype=np.int64)
    out.append(case("element_wise_logical_greater_than.int64_exact", "LOGICAL_GREATER_THAN",
                    {"ATensor": tensor("INT64", a), "BTensor": tensor("INT64", b)},
                    {"OutputTensor": tensor("UINT8", (a > b).astype(np.uint8))}))
    a = np.array([2**64 - 1, 1], dtype=np.uint64)
    b = np.array([1, 2**64 - 1], dtype=np.uint64)
    out.append(case("element_wise_logical_less_than.uint64_exact", "LOGICAL_LESS_THAN",
                    {"ATensor": tensor("UINT64", a), "BTensor": tensor("UINT64", b)},
                    {"OutputTensor": tensor("UINT32", (a < b).astype(np.uint32))}))
    # B broadcast along the rows by a 0 stride.
    a = values("FLOAT32", 12, 0).reshape(3, 4)
    row = np.array([0.0, math.nan, 1.5, -math.inf], dtype=np.float32)
    bt = tensor("FLOAT32", np.tile(row, (3, 1)))  # B's logical data repeats its row
    bt["strides"] = [0, 1]
    out.append(case("element_wise_logical_greater_than_or_equal.broadcast", "LOGICAL_GREATER_THAN_OR_EQUAL",
                    {"ATensor": tensor("FLOAT32", a), "BTensor": bt},
                    {"OutputTensor": tensor("UINT8", (a >= row).astype(np.uint8))}))
    return out


def logic():
    out = []
    for t in ["UINT8", "UINT32"]:
        a = np.array([0, 1, 0, 255, 2, 0, 7, 16], dtype=NUMPY_TYPES[t])
        b = np.array([0, 0, 3, 1, 0, 9, 7, 0], dtype=NUMPY_TYPES[t])
        for op, fn in LOGIC.items():
            out.append(case(f"element_wise_{op.lower()}.{t.lower()}", op,
                            {"ATensor": tensor(t, a), "BTensor": tensor(t, b)},
                            {"OutputTensor": tensor(t, fn(a, b).astype(NUMPY_TYPES[t]))}))
        out.append(case(f"element_wise_logical_not.{t.lower()}", "LOGICAL_NOT",
                        {"InputTensor": tensor(t, a)},
                        {"OutputTensor": tensor(t, (a == 0).astype(NUMPY_TYPES[t]))}))
    return out


def bits():
    out = []
    for j, t in enumerate(["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT8", "UINT16"]):
        a, b = values(t, 8, j), values(t, 8, j + 3)
        if is_float(t):  # finite results: a NaN's payload is no case value
            a = np.array([1.5, -2.25, 3.0, 0.75, -8.5, 100.0, 0.1, -1e-3], dtype=a.dtype)
            b = np.array([-0.5, 6.0, 0.3, -1.25, 2.0, -0.0, 7.5, 4.0], dtype=a.dtype)
        for op, fn in BITOPS.items():
            r = fn(as_bits(a), as_bits(b)).view(a.dtype)
            out.append(case(f"element_wise_{op.lower()}.{t.lower()}", op,
                            {"ATensor": tensor(t, a), "BTensor": tensor(t, b)},
                            {"OutputTensor": tensor(t, r)},
                            note="on the encodings" if is_float(t) else None))
        out.append(case(f"element_wise_bit_not.{t.lower()}", "BIT_NOT",
                        {"InputTensor": tensor(t, a)},
                        {"OutputTensor": tensor(t, np.invert(as_bits(a)).view(a.dtype))}))
        ot = "UINT8" if j % 2 else "UINT32"
        counts = np.array([bin(int(x)).count("1") for x in as_bits(a)], dtype=NUMPY_TYPES[ot])
        out.append(case(f"element_wise_bit_count.{t.lower()}_{ot.lower()}", "BIT_COUNT",
                        {"InputTensor": tensor(t, a)}, {"OutputTensor": tensor(ot, counts)}))
    for t, nt in UINTS.items():
        w = 8 * np.dtype(nt).itemsize
        a = np.array([1, 0x81, 2**w - 1, 5, 2**(w - 1), 3, 2**w - 1, 6], dtype=nt)
        n = np.array([0, 1, w - 1, w, w + 1, 2**(w - 1), 2, 255 % 2**w], dtype=nt)
        for op in ["BIT_SHIFT_LEFT", "BIT_SHIFT_RIGHT"]:
            r = [0 if int(c) >= w else ((int(x) << int(c)) % 2**w if op == "BIT_SHIFT_LEFT"
                                       else int(x) >> int(c)) for x, c in zip(a, n)]
            out.append(case(f"element_wise_{op.lower()}.{t.lower()}", op,
                            {"ATensor": tensor(t, a), "BTensor": tensor(t, n)},
                            {"OutputTensor": tensor(t, np.array(r, dtype=nt))},
                            note="a count at or past the width gives 0"))
    return out


def tests():
    out = []
    for t in ["FLOAT32", "FLOAT16"]:
        a = values(t, 10, 0)
        for ot in ["UINT8", "UINT32"]:
            out.append(case(f"element_wise_is_nan.{t.lower()}_{ot.lower()}", "IS_NAN",
                            {"InputTensor": tensor(t, a)},
                            {"OutputTensor": tensor(ot, np.isnan(a).astype(NUMPY_TYPES[ot]))}))
        for mode, want in [(0, np.isinf(a)), (1, np.isposinf(a)), (2, np.isneginf(a))]:
            out.append(case(f"element_wise_is_infinity.{t.lower()}_mode{mode}", "IS_INFINITY",
                            {"InputTensor": tensor(t, a)},
                            {"OutputTensor": tensor("UINT8", want.astype(np.uint8))},
                            attrs={"InfinityMode": mode}))
    return out


def select():
    out = []
    cond = np.array([1, 0, 255, 0, 2, 0, 0, 9], dtype=np.uint8)
    for j, t in enumerate(ELEVEN):
        a, b = values(t, 8, j), values(t, 8, j + 4)
        out.append(case(f"element_wise_if.{t.lower()}", "IF",
                        {"ConditionTensor": tensor("UINT8", cond), "ATensor": tensor(t, a),
                         "BTensor": tensor(t, b)},
                        {"OutputTensor": tensor(t, np.where(cond != 0, a, b))}))
    return out


def cast_value(x, ft, tt):
    """One element of type ft cast to type tt by the documented rules."""
    if is_float(tt):
        return NUMPY_TYPES[tt](NUMPY_TYPES[ft](x))  # numpy rounds once, to nearest even
    if is_float(ft):
        v = float(x)
        if v != v:
            return 0
        info = np.iinfo(NUMPY_TYPES[tt])
        if v >= int(info.max):
            return int(info.max)
        if v <= int(info.min):
            return int(info.min)
        return int(math.trunc(v))
    info = np.iinfo(NUMPY_TYPES[tt])
    span = int(info.max) - int(info.min) + 1
    return (int(x) - int(info.min)) % span + int(info.min)


CAST_PAIRS = [(f, t) for f in ELEVEN for t in ELEVEN if f != t and
              (ELEVEN.index(f) + 2 * ELEVEN.index(t)) % 5 == 0] + [
    ("FLOAT64", "FLOAT16"), ("FLOAT32", "INT8"), ("FLOAT32", "UINT8"), ("FLOAT32", "UINT64"),
    ("FLOAT16", "INT32"), ("INT64", "FLOAT32"), ("UINT64", "FLOAT64"), ("INT32", "INT8"),
    ("INT8", "UINT64"), ("FLOAT64", "INT64")]


def casts():
    out = []
    for f, t in dict.fromkeys(CAST_PAIRS):
        if is_float(f):
            a = np.array([math.nan, math.inf, -math.inf, -0.0, 2.7, -2.7, -0.5, 127.9, 128.0,
                          -129.0, 255.5, 1e30 if f != "FLOAT16" else 60000.0],
                         dtype=NUMPY_TYPES[f])
        else:
            info = np.iinfo(NUMPY_TYPES[f])
            vals = [0, 1, int(info.max), int(info.min), 300, 127, 128, int(info.max) // 3 * 2 + 1,
                    65519, -129, -1, 2**40 + 3]
            a = np.array([v if int(info.min) <= v <= int(info.max) else v % (int(info.max) + 1)
                          for v in vals], dtype=NUMPY_TYPES[f])
        r = np.array([cast_value(x, f, t) for x in a.tolist()], dtype=NUMPY_TYPES[t])
        out.append(case(f"cast.{f.lower()}_to_{t.lower()}", "CAST",
                        {"InputTensor": tensor(f, a.reshape(3, 4))},
                        {"OutputTensor": tensor(t, r.reshape(3, 4))}))
    d = np.array([1 + 2.0**-11 + 2.0**-40, 65520.0, -0.0, 2.0**-25], dtype=np.float64)
    out.append(case("cast.float64_to_float16_rounds_once", "CAST",
                    {"InputTensor": tensor("FLOAT64", d)},
                    {"OutputTensor": tensor("FLOAT16", d.astype(np.float16))},
                    note="1 + 2^-11 + 2^-40 rounds up; through FLOAT32 it would tie to 1.0"))
    return out


def fills():
    out = []
    for j, t in enumerate(ELEVEN):
        v = values(t, 3, j + 2)[0]
        shape = [2, 3, 2]
        out.append(case(f"fill_value_constant.{t.lower()}", "FILL_VALUE_CONSTANT", {},
                        {"OutputTensor": tensor(t, np.full(shape, v, dtype=NUMPY_TYPES[t]))},
                        attrs={"ValueDataType": t, "Value": tensor(t, [v])["data"][0]}))
        if is_float(t):
            start, delta = -2.5 + j, 0.75
            r = np.array([start + i * delta for i in range(12)], dtype=NUMPY_TYPES[t])
        else:
            info = np.iinfo(NUMPY_TYPES[t])
            start, delta = int(info.max) - 5, 2  # wraps past the maximum
            span = int(info.max) - int(info.min) + 1
            r = np.array([(start + i * delta - int(info.min)) % span + int(info.min)
                          for i in range(12)], dtype=NUMPY_TYPES[t])
        if t == "FLOAT64":  # no table of SEQUENCE's page lists it
            out.append(case(f"fill_value_sequence.{t.lower()}_not_in_table",
                            "FILL_VALUE_SEQUENCE", {"OutputTensor": {"type": t, "shape": shape}},
                            attrs={"ValueDataType": t, "ValueStart": start, "ValueDelta": delta},
                            error="invalid_argument",
                            note="SEQUENCE writes the ten types (its tables, up to 5.0)"))
            continue
        out.append(case(f"fill_value_sequence.{t.lower()}", "FILL_VALUE_SEQUENCE", {},
                        {"OutputTensor": tensor(t, r.reshape(shape))},
                        attrs={"ValueDataType": t, "ValueStart": start, "ValueDelta": delta}))
    # The pages' example: UINT8, 10 by -2 (254) over {1,1,2,2}.
    out.append(case("fill_value_sequence.uint8_example", "FILL_VALUE_SEQUENCE", {},
                    {"OutputTensor": tensor("UINT8", np.array([[[[10, 8], [6, 4]]]],
                                                              dtype=np.uint8))},
                    attrs={"ValueDataType": "UINT8", "ValueStart": 10, "ValueDelta": 254}))
    # A column-major output: the sequence follows the logical order, not memory's.
    seq = tensor("INT32", np.arange(6, dtype=np.int32).reshape(2, 3) * 3 + 1)
    seq["strides"] = [1, 2]
    out.append(case("fill_value_sequence.int32_column_major", "FILL_VALUE_SEQUENCE", {},
                    {"OutputTensor": seq},
                    attrs={"ValueDataType": "INT32", "ValueStart": 1, "ValueDelta": 3}))
    return out


def errors():
    out = []
    f32 = tensor("FLOAT32", [[1.0, 2.0]])
    out.append(case("element_wise_logical_equals.float_output", "LOGICAL_EQUALS",
                    {"ATensor": f32, "BTensor": f32,
                     "OutputTensor": {"type": "FLOAT32", "shape": [1, 2]}},
                    error="invalid_argument", note="comparisons write UINT8 or UINT32"))
    out.append(case("element_wise_logical_less_than.mixed_types", "LOGICAL_LESS_THAN",
                    {"ATensor": f32, "BTensor": tensor("INT32", [[1, 2]])},
                    error="invalid_argument"))
    out.append(case("element_wise_logical_and.int32", "LOGICAL_AND",
                    {"ATensor": tensor("INT32", [1, 0]), "BTensor": tensor("INT32", [1, 1])},
                    error="invalid_argument"))
    out.append(case("element_wise_bit_shift_left.int32", "BIT_SHIFT_LEFT",
                    {"ATensor": tensor("INT32", [1, 0]), "BTensor": tensor("INT32", [1, 1])},
                    error="invalid_argument", note="shifts take unsigned types only"))
    out.append(case("element_wise_is_infinity.bad_mode", "IS_INFINITY",
                    {"InputTensor": f32, "OutputTensor": {"type": "UINT8", "shape": [1, 2]}},
                    attrs={"InfinityMode": 3}, error="invalid_argument"))
    out.append(case("element_wise_is_nan.int32", "IS_NAN",
                    {"InputTensor": tensor("INT32", [1, 2]),
                     "OutputTensor": {"type": "UINT8", "shape": [2]}}, error="invalid_argument"))
    out.append(case("element_wise_if.float_condition", "IF",
                    {"ConditionTensor": f32, "ATensor": f32, "BTensor": f32},
                    error="invalid_argument", note="the condition is UINT8"))
    out.append(case("cast.other_sizes", "CAST",
                    {"InputTensor": f32, "OutputTensor": {"type": "INT32", "shape": [2, 1]}},
                    error="invalid_argument"))
    out.append(case("fill_value_constant.value_type_mismatch", "FILL_VALUE_CONSTANT",
                    {"OutputTensor": {"type": "FLOAT32", "shape": [2]}},
                    attrs={"ValueDataType": "INT32", "Value": 1}, error="invalid_argument",
                    note="ValueDataType must match OutputTensor.DataType"))
    return out


def main():
    cases = comparisons() + logic() + bits() + tests() + select() + casts() + fills() + errors()
    write(os.path.join(CASES, "directml", "elementwise_logic.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    with np.errstate(over="ignore"):  # casts past FLOAT16's range give infinity
        main()
