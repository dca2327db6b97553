# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/elementwise.json: DirectML's element-wise arithmetic
(ADD, SUBTRACT, MULTIPLY, DIVIDE, MAX, MIN, MEAN, DIFFERENCE_SQUARE, NEGATE, ABS, CEIL, FLOOR)
on every type class each operator takes, with special values, wrapping integers, a broadcast
by 0 strides, ScaleBias, and one case per validation rule.

Expected values: numpy's arithmetic in the tensor's own type (FLOAT32 and FLOAT16 correctly
rounded per operation, integers wrapping; SQRT, RECIP, EXP and LOG in float64, rounded once), with the rules DirectML leaves open applied as
docs/operators.md states them (integer DIVIDE truncating toward zero, by zero every bit set,
the most negative value by -1 itself; integer MEAN the exact mean truncated toward zero; MAX
and MIN giving the other operand for a NaN). Float outputs are compared within the operator's
tolerance (CASE-FORMAT version 3 defaults: reference/precision.md).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/elementwise.py
"""
import os
import sys
from fractions import Fraction

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
SRC = "directml:DML_ELEMENT_WISE_{}_OPERATOR_DESC#"

BINARY = ["ADD", "SUBTRACT", "MULTIPLY", "DIVIDE", "MAX", "MIN", "MEAN", "DIFFERENCE_SQUARE"]
UNARY = ["NEGATE", "ABS", "CEIL", "FLOOR", "SQRT", "RECIP", "EXP", "LOG"]
TEN = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16",
       "UINT8"]
TYPES = {op: TEN for op in ["ADD", "SUBTRACT", "MULTIPLY", "DIVIDE", "MAX", "MIN"]}
TYPES.update({"MEAN": ["FLOAT32", "FLOAT16", "INT32", "UINT32"],
              "DIFFERENCE_SQUARE": ["FLOAT32", "FLOAT16", "INT32", "UINT32"],
              "NEGATE": ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8"],
              "ABS": ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8"],
              "CEIL": ["FLOAT32", "FLOAT16"], "FLOOR": ["FLOAT32", "FLOAT16"],
              "SQRT": ["FLOAT32", "FLOAT16"], "RECIP": ["FLOAT32", "FLOAT16"],
              "EXP": ["FLOAT32", "FLOAT16"], "LOG": ["FLOAT32", "FLOAT16"]})
SCALE_BIAS = {"ABS", "CEIL", "FLOOR", "SQRT", "RECIP", "EXP", "LOG"}


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None):
    c = {"name": name, "source": SRC.format(op) + ("text" if error else "semantics"),
         "op": "DML_OPERATOR_ELEMENT_WISE_" + op}
    if attrs is not None:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def round_f32(x):
    """The float32 nearest the exact rational x, ties to even (no double rounding)."""
    f = np.float32(float(x))
    best = None
    for c in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))):
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - x)
        if best is None or d < best[0] or (d == best[0] and int(c.view(np.uint32)) % 2 == 0):
            best = (d, c)
    return best[1]


def is_float(t):
    return t.startswith("FLOAT")


def wrap(t, v):
    """Python int v wrapped into integer type t."""
    info = np.iinfo(NUMPY_TYPES[t])
    span = int(info.max) - int(info.min) + 1
    return (int(v) - int(info.min)) % span + int(info.min)


def int_op(op, t, a, b):
    info = np.iinfo(NUMPY_TYPES[t])
    a, b = int(a), int(b)
    if op == "ADD":
        return wrap(t, a + b)
    if op == "SUBTRACT":
        return wrap(t, a - b)
    if op == "MULTIPLY":
        return wrap(t, a * b)
    if op == "DIFFERENCE_SQUARE":
        return wrap(t, (a - b) * (a - b))
    if op == "DIVIDE":
        if b == 0:
            return wrap(t, -1)  # every bit set
        q = abs(a) // abs(b)
        return wrap(t, q if (a < 0) == (b < 0) else -q)
    if op == "MAX":
        return max(a, b)
    if op == "MIN":
        return min(a, b)
    if op == "MEAN":
        s = a + b
        return wrap(t, abs(s) // 2 * (1 if s >= 0 else -1))
    if op == "NEGATE":
        return wrap(t, -a)
    if op == "ABS":
        return wrap(t, abs(a))
    raise ValueError(op)


def float_op(op, t, a, b, sb=None):
    """In the tensor's type, one correctly rounded operation at a time (numpy)."""
    ft = NUMPY_TYPES[t]
    a = ft(a)
    b = ft(b)
    if sb is not None:  # g(x) = x * Scale + Bias in FLOAT32, rounded once (exact, then rounded)
        if np.isfinite(a):
            a = round_f32(Fraction(float(a)) * Fraction(sb[0]) + Fraction(sb[1]))
        else:  # infinities and NaN carry through
            a = np.float32(np.float32(a) * np.float32(sb[0]) + np.float32(sb[1]))
    with np.errstate(all="ignore"):
        if op == "ADD":
            return ft(a + b)
        if op == "SUBTRACT":
            return ft(a - b)
        if op == "MULTIPLY":
            return ft(a * b)
        if op == "DIVIDE":
            return ft(a / b)
        if op in ("MAX", "MIN"):
            if np.isnan(a) or np.isnan(b):
                return b if np.isnan(a) else a
            if a == b:  # -0 is below +0
                neg = np.signbit(a) and np.signbit(b) if op == "MAX" else (
                    np.signbit(a) or np.signbit(b))
                return ft(-0.0) if neg and a == 0 else a
            return ft(max(a, b)) if op == "MAX" else ft(min(a, b))
        if op == "MEAN":
            return ft((np.float64(a) + np.float64(b)) / 2)
        if op == "DIFFERENCE_SQUARE":
            return ft(np.float64(a - b) * np.float64(a - b))
        if op == "NEGATE":
            return ft(-a)
        if op == "ABS":
            return ft(abs(a))
        if op == "CEIL":
            return ft(np.ceil(a))
        if op == "FLOOR":
            return ft(np.floor(a))
        if op == "SQRT":
            return ft(np.sqrt(np.float64(a)))
        if op == "RECIP":
            return ft(1 / np.float64(a))
        if op == "EXP":
            return ft(np.exp(np.float64(a)))
        if op == "LOG":
            return ft(np.log(np.float64(a)))
    raise ValueError(op)


def values(t, n, salt):
    """n values of type t: extremes, zeros and ordinary ones (specials for floats)."""
    if is_float(t):
        base = [1.5, -2.25, 0.0, -0.0, 3.0, 7.75, -0.5, 1e3, float("inf"), float("-inf"),
                float("nan"), 65000.0 if t == "FLOAT16" else 1e30, 0.1, -3.5, 2.0, 1.0]
    else:
        info = np.iinfo(NUMPY_TYPES[t])
        base = [0, 1, 2, 3, 7, int(info.max), int(info.min), int(info.max) - 1, 5, 11, 100 % (
            int(info.max) + 1), 6, 9, 4, 13, 8]
        if int(info.min) < 0:
            base += [-1, -7, -3, int(info.min) + 1]
    return [base[(i * 7 + salt) % len(base)] for i in range(n)]


def compute(op, t, a, b=None, sb=None):
    out = []
    for i in range(len(a)):
        if is_float(t):
            out.append(float_op(op, t, a[i], b[i] if b is not None else 0, sb))
        else:
            out.append(int_op(op, t, a[i], b[i] if b is not None else 0))
    return out


def cases_for(op):
    got = []
    name = "directml.element_wise_" + op.lower()
    for t in TYPES[op]:
        n = 12
        a = values(t, n, 1)
        b = values(t, n, 5)
        if op in ("DIVIDE",) and not is_float(t):
            b[3] = 0  # division by zero
            b[4] = -1 if np.iinfo(NUMPY_TYPES[t]).min < 0 else 1
            a[4] = int(np.iinfo(NUMPY_TYPES[t]).min)
        shape = [3, 4]
        if op in BINARY:
            exp = compute(op, t, a, b)
            got.append(case(f"{name}.{t.lower()}", op,
                            {"ATensor": tensor(t, np.array(a, dtype=object).reshape(shape)),
                             "BTensor": tensor(t, np.array(b, dtype=object).reshape(shape))},
                            {"OutputTensor": tensor(t, np.array(exp, dtype=object).reshape(shape))}))
        else:
            exp = compute(op, t, a)
            got.append(case(f"{name}.{t.lower()}", op,
                            {"InputTensor": tensor(t, np.array(a, dtype=object).reshape(shape))},
                            {"OutputTensor": tensor(t, np.array(exp, dtype=object).reshape(shape))}))
    t = TYPES[op][0]  # FLOAT32
    if op in BINARY:
        # B broadcast along the rows by a 0 stride: B's logical data repeats its first row.
        a = values(t, 12, 2)
        row = values(t, 4, 3)
        b = row * 3
        exp = compute(op, t, a, b)
        bt = tensor(t, np.array(b, dtype=object).reshape([3, 4]))
        bt["strides"] = [0, 1]
        got.append(case(f"{name}.broadcast-b", op,
                        {"ATensor": tensor(t, np.array(a, dtype=object).reshape([3, 4])),
                         "BTensor": bt},
                        {"OutputTensor": tensor(t, np.array(exp, dtype=object).reshape([3, 4]))},
                        note="BTensor broadcast along dimension 0 by a stride of 0"))
        got.append(case(f"{name}.invalid-types-differ", op,
                        {"ATensor": tensor("FLOAT32", [[1.0, 2.0]]),
                         "BTensor": tensor("INT32", [[1, 2]])},
                        error="invalid_argument",
                        note="ATensor, BTensor and OutputTensor have one DataType"))
        got.append(case(f"{name}.invalid-sizes-differ", op,
                        {"ATensor": tensor("FLOAT32", [[1.0, 2.0]]),
                         "BTensor": tensor("FLOAT32", [[1.0], [2.0]])},
                        error="invalid_argument",
                        note="ATensor, BTensor and OutputTensor have one Sizes (broadcast with "
                             "0 strides)"))
    if op in SCALE_BIAS:
        sb = (-1.5, 0.25)
        a = values(t, 8, 4)
        exp = compute(op, t, a, sb=sb)
        got.append(case(f"{name}.scale-bias", op,
                        {"InputTensor": tensor(t, np.array(a, dtype=object).reshape([2, 4]))},
                        {"OutputTensor": tensor(t, np.array(exp, dtype=object).reshape([2, 4]))},
                        attrs={"ScaleBias": {"Scale": sb[0], "Bias": sb[1]}},
                        note="f(x * Scale + Bias), the ScaleBias in FLOAT32"))
    refused = next((x for x in TEN if x not in TYPES[op]), None)
    if refused is not None:
        inputs = ({"ATensor": tensor(refused, [[1, 2]]), "BTensor": tensor(refused, [[1, 2]])}
                  if op in BINARY else {"InputTensor": tensor(refused, [[1, 2]])})
        got.append(case(f"{name}.invalid-type", op, inputs, error="invalid_argument",
                        note=f"{refused} is in none of the operator's feature-level tables"))
    return got


def main():
    cases = []
    for op in BINARY + UNARY:
        cases += cases_for(op)
    write(os.path.join(CASES, "directml", "elementwise.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
