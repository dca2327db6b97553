# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/elementwise_activation.json: DirectML's activations
(ACTIVATION_CELU ... THRESHOLDED_RELU, PARAMETERIZED_RELU) and ELEMENT_WISE_ADD1 with every
activation DirectML fuses, on every type each takes, with special values (NaN, infinities,
-0.0, subnormals), a broadcast by 0 strides, and one case per validation rule.

Expected values: each activation's formula from DirectML's pages evaluated in float64 with
numpy (in the forms that keep float64 accurate: expm1, log1p, erfc; the parameters are the
descriptor's FLOAT32 values) and rounded once to the tensor's type; ADD1 rounds a + b to
FLOAT32 first (the activation applies to ADD's FLOAT32 result). Integers (RELU,
PARAMETERIZED_RELU, SHRINK) exactly, wrapped into the type; SHRINK's x -+ Bias truncated toward
zero. The rules DirectML leaves open follow docs/operators.md. Float outputs are compared within
the runner's default tolerance per activation (conformance/ops_activation.c).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/elementwise_activation.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
F = ["FLOAT32", "FLOAT16"]
SMALL_SIGNED = ["INT32", "INT16", "INT8"]
SMALL_UNSIGNED = ["UINT32", "UINT16", "UINT8"]

# name: (its FLOAT members with the parameters the cases use, its types)
ACTS = {
    "CELU": ({"Alpha": 1.3}, F),
    "ELU": ({"Alpha": 0.7}, F),
    "GELU": ({}, F),
    "HARD_SIGMOID": ({"Alpha": 0.2, "Beta": 0.5}, F),
    "HARD_SWISH": ({"Alpha": 1 / 6, "Beta": 0.5}, F),
    "IDENTITY": ({}, F),
    "LEAKY_RELU": ({"Alpha": 0.01}, F),
    "LINEAR": ({"Alpha": -1.7, "Beta": 0.3}, F),
    "PARAMETRIC_SOFTPLUS": ({"Alpha": 0.9, "Beta": 2.3}, F),
    "RELU": ({}, F + SMALL_SIGNED),
    "SCALED_ELU": ({"Alpha": 1.67326319217681884765625, "Gamma": 1.05070102214813232421875}, F),
    "SCALED_TANH": ({"Alpha": 1.7159, "Beta": 2 / 3}, F),
    "SHRINK": ({"Bias": 0.25, "Threshold": 0.5}, F + SMALL_SIGNED + SMALL_UNSIGNED),
    "SIGMOID": ({}, F),
    "SOFTPLUS": ({"Steepness": 1.7}, F),
    "SOFTSIGN": ({}, F),
    "SWISH": ({"SigmoidInputScale": 1.3}, F),
    "TANH": ({}, F),
    "THRESHOLDED_RELU": ({"Alpha": 1.0}, F),
}
FUSABLE = ["ELU", "HARD_SIGMOID", "IDENTITY", "LEAKY_RELU", "LINEAR", "PARAMETRIC_SOFTPLUS",
           "RELU", "SCALED_ELU", "SCALED_TANH", "SIGMOID", "SOFTPLUS", "SOFTSIGN", "TANH",
           "THRESHOLDED_RELU", "SHRINK", "CELU", "GELU"]


def f32(v):
    return float(np.float32(v))


def softplus(z):
    if z != z:
        return z
    return max(z, 0.0) + float(np.log1p(np.exp(-abs(z))))


def sigmoid(z):
    with np.errstate(all="ignore"):
        return float(1 / (1 + np.exp(np.float64(-z))))


def hard_sigmoid(x, a, b):
    v = a * x + b
    return 0.0 if v < 0 else 1.0 if v > 1 else v  # NaN stays NaN


def act_real(name, p, x):
    """The activation in float64 (p: the FLOAT32 parameters by member name)."""
    with np.errstate(all="ignore"):
        em1 = lambda v: float(np.expm1(np.float64(v)))  # noqa: E731
        if name == "CELU":
            a = p["Alpha"]
            return x if not x < 0 else min(0.0, a * em1(x / a))
        if name == "ELU":
            return x if x >= 0 else p["Alpha"] * em1(x)
        if name == "GELU":
            if x != x:
                return x
            return 0.5 * x * math.erfc(-x / math.sqrt(2))
        if name == "HARD_SIGMOID":
            return hard_sigmoid(x, p["Alpha"], p["Beta"])
        if name == "HARD_SWISH":
            return x * hard_sigmoid(x, p["Alpha"], p["Beta"])
        if name == "IDENTITY":
            return x
        if name == "LEAKY_RELU":
            return x if x >= 0 else p["Alpha"] * x
        if name == "LINEAR":
            return p["Alpha"] * x + p["Beta"]
        if name == "PARAMETRIC_SOFTPLUS":
            return p["Alpha"] * softplus(p["Beta"] * x)
        if name == "RELU":
            return x if (x != x or x > 0) else 0.0
        if name == "SCALED_ELU":
            return p["Gamma"] * x if x > 0 else p["Gamma"] * (p["Alpha"] * em1(x))
        if name == "SCALED_TANH":
            return p["Alpha"] * float(np.tanh(p["Beta"] * x))
        if name == "SHRINK":
            b, t = p["Bias"], p["Threshold"]
            return x - b if x > t else x + b if x < -t else 0.0
        if name == "SIGMOID":
            return sigmoid(x)
        if name == "SOFTPLUS":
            s = p["Steepness"]
            return softplus(s * x) / s
        if name == "SOFTSIGN":
            return math.copysign(1.0, x) if math.isinf(x) else x / (1 + abs(x))
        if name == "SWISH":
            return x * sigmoid(p["SigmoidInputScale"] * x)
        if name == "TANH":
            return float(np.tanh(x))
        if name == "THRESHOLDED_RELU":
            return x if x > p["Alpha"] else 0.0
    raise ValueError(name)


def wrap(t, v):
    info = np.iinfo(NUMPY_TYPES[t])
    span = int(info.max) - int(info.min) + 1
    return (int(v) - int(info.min)) % span + int(info.min)


def shrink_int(x, bias, threshold):
    """x -+ Bias exactly, truncated toward zero (0 for a non-finite Bias)."""
    from fractions import Fraction
    if x > threshold:
        v = Fraction(x) - Fraction(bias) if math.isfinite(bias) else None
    elif x < -threshold:
        v = Fraction(x) + Fraction(bias) if math.isfinite(bias) else None
    else:
        return 0
    if v is None:
        return 0
    return int(v)  # int() of a Fraction truncates toward zero


def act_int(name, p, t, x):
    if name == "RELU":
        return max(x, 0)
    if name == "SHRINK":
        return wrap(t, shrink_int(x, p["Bias"], p["Threshold"]))
    raise ValueError(name)


def float_values(t, n, salt):
    tiny = 6e-8 if t == "FLOAT16" else 1e-40
    big = 60000.0 if t == "FLOAT16" else 1e30
    base = [-0.0, 0.0, 1.5, -2.25, 3.0, -7.75, 0.1, -0.5, 0.4, -0.6, 20.0, -20.0, -12.5,
            float("inf"), float("-inf"), float("nan"), tiny, -tiny, big, -big, 0.75, -1.0]
    return [base[(i * 5 + salt) % len(base)] for i in range(n)]


def int_values(t, n, salt):
    info = np.iinfo(NUMPY_TYPES[t])
    base = [0, 1, 2, 3, 7, int(info.max), int(info.min), int(info.max) - 1, 5, 11, 100, 6]
    if int(info.min) < 0:
        base += [-1, -2, -3, -7, int(info.min) + 1]
    return [base[(i * 5 + salt) % len(base)] for i in range(n)]


def to_type(t, v):
    return np.array([v], dtype=NUMPY_TYPES[t])[0]


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None):
    c = {"name": name,
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": "DML_OPERATOR_" + op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def params32(p):
    return {k: f32(v) for k, v in p.items()}


def activation_cases(name):
    got = []
    p, types = ACTS[name]
    p = params32(p)
    op = "ACTIVATION_" + name
    cname = "directml.activation_" + name.lower()
    shape = [4, 5]
    for t in types:
        if t.startswith("FLOAT"):
            xs = [float(to_type(t, v)) for v in float_values(t, 20, 1)]
            ys = [act_real(name, p, x) for x in xs]
        else:
            xs = int_values(t, 20, 1)
            ys = [act_int(name, p, t, x) for x in xs]
        c = case(f"{cname}.{t.lower()}", op,
                 {"InputTensor": tensor(t, np.array(xs, dtype=object).reshape(shape))},
                 {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape(shape))},
                 attrs=dict(p))
        if t == "FLOAT16" and name in ("IDENTITY", "RELU", "THRESHOLDED_RELU"):
            # Exact, but computed in FLOAT32: a NaN stays a NaN, its payload not kept.
            c["tolerance"] = {"ulp": 0}
        got.append(c)
    # A strided input (a transposed view): data is logical, the runner places it by strides.
    t = "FLOAT32"
    xs = [float(to_type(t, v)) for v in float_values(t, 6, 3)]
    ys = [act_real(name, p, v) for v in xs]
    inp = tensor(t, np.array(xs, dtype=object).reshape([3, 2]))
    inp["strides"] = [1, 3]
    got.append(case(f"{cname}.strided-input", op, {"InputTensor": inp},
                    {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape([3, 2]))},
                    attrs=dict(p), note="InputTensor read through strides {1, 3}"))
    refused = "UINT8" if "UINT8" not in types else "INT64"
    got.append(case(f"{cname}.invalid-type", op,
                    {"InputTensor": tensor(refused, [[1, 2]])}, attrs=dict(p),
                    error="invalid_argument",
                    note=f"{refused} is in none of the operator's feature-level tables"))
    return got


def prelu_cases():
    got = []
    op = "ACTIVATION_PARAMETERIZED_RELU"
    cname = "directml.activation_parameterized_relu"
    for t in F + SMALL_SIGNED:
        if t.startswith("FLOAT"):
            xs = [float(to_type(t, v)) for v in float_values(t, 12, 2)]
            ss = [float(to_type(t, v)) for v in [0.25, -1.5, 2.0, 0.1]] * 3
            ys = [x if x >= 0 else s * x for x, s in zip(xs, ss)]
        else:
            xs = int_values(t, 12, 2)
            ss = [3, -1, 0, 2] * 3
            ys = [wrap(t, x if x >= 0 else s * x) for x, s in zip(xs, ss)]
        slope = tensor(t, np.array(ss, dtype=object).reshape([3, 4]))
        got.append(case(f"{cname}.{t.lower()}", op,
                        {"InputTensor": tensor(t, np.array(xs, dtype=object).reshape([3, 4])),
                         "SlopeTensor": slope},
                        {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape([3, 4]))},
                        note="integers wrap (the most negative value times a negative slope)"
                        if not t.startswith("FLOAT") else None))
    # The slope broadcast along the rows by a 0 stride (ONNX's per-channel slope).
    xs = [float(v) for v in float_values("FLOAT32", 12, 4)]
    row = [0.5, -2.0, 0.125, 3.0]
    slope = tensor("FLOAT32", np.array(row * 3, dtype=object).reshape([3, 4]))
    slope["strides"] = [0, 1]
    ys = [x if x >= 0 else row[i % 4] * x for i, x in enumerate(xs)]
    got.append(case(f"{cname}.broadcast-slope", op,
                    {"InputTensor": tensor("FLOAT32", np.array(xs, dtype=object).reshape([3, 4])),
                     "SlopeTensor": slope},
                    {"OutputTensor": tensor("FLOAT32",
                                            np.array(ys, dtype=object).reshape([3, 4]))},
                    note="SlopeTensor broadcast along dimension 0 by a stride of 0"))
    got.append(case(f"{cname}.invalid-slope-type", op,
                    {"InputTensor": tensor("FLOAT32", [[1.0, -2.0]]),
                     "SlopeTensor": tensor("FLOAT16", [[1.0, 2.0]])},
                    error="invalid_argument",
                    note="InputTensor, SlopeTensor and OutputTensor have one DataType"))
    got.append(case(f"{cname}.invalid-slope-sizes", op,
                    {"InputTensor": tensor("FLOAT32", [[1.0, -2.0]]),
                     "SlopeTensor": tensor("FLOAT32", [[1.0], [2.0]])},
                    error="invalid_argument", note="the slope has the input's Sizes"))
    got.append(case(f"{cname}.invalid-type", op,
                    {"InputTensor": tensor("UINT8", [[1, 2]]),
                     "SlopeTensor": tensor("UINT8", [[1, 2]])},
                    error="invalid_argument", note="UINT8 is in none of the tables"))
    return got


def add1_cases():
    got = []
    op = "ELEMENT_WISE_ADD1"
    cname = "directml.element_wise_add1"
    shape = [3, 4]
    for t in F + SMALL_SIGNED + SMALL_UNSIGNED:
        if t.startswith("FLOAT"):
            a = [float(to_type(t, v)) for v in float_values(t, 12, 1)]
            b = [float(to_type(t, v)) for v in float_values(t, 12, 7)]
            ys = [float(np.float32(x) + np.float32(y)) for x, y in zip(a, b)]
        else:
            a = int_values(t, 12, 1)
            b = int_values(t, 12, 7)
            ys = [wrap(t, x + y) for x, y in zip(a, b)]
        got.append(case(f"{cname}.{t.lower()}", op,
                        {"ATensor": tensor(t, np.array(a, dtype=object).reshape(shape)),
                         "BTensor": tensor(t, np.array(b, dtype=object).reshape(shape))},
                        {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape(shape))},
                        note="no FusedActivation: ADD"))
    for name in FUSABLE:
        p = params32(ACTS[name][0])
        for t in F if name in ("SIGMOID", "GELU", "RELU", "SOFTPLUS") else ["FLOAT32"]:
            a = [float(to_type(t, v)) for v in float_values(t, 12, 2)]
            b = [float(to_type(t, v)) for v in [0.5, -1.25, 2.0, -3.0] * 3]
            ys = [act_real(name, p, float(np.float32(x) + np.float32(y))) for x, y in zip(a, b)]
            bt = tensor(t, np.array(b, dtype=object).reshape(shape))
            bt["strides"] = [0, 1]
            got.append(case(f"{cname}.fused-{name.lower()}.{t.lower()}", op,
                            {"ATensor": tensor(t, np.array(a, dtype=object).reshape(shape)),
                             "BTensor": bt},
                            {"OutputTensor": tensor(t,
                                                    np.array(ys, dtype=object).reshape(shape))},
                            attrs={"FusedActivation": dict(Type="DML_OPERATOR_ACTIVATION_" + name,
                                                           **p)},
                            note="FusedActivation(a + b), a + b in FLOAT32; BTensor broadcast "
                                 "by a 0 stride"))
    two = {"ATensor": tensor("FLOAT32", [[1.0, -2.0]]), "BTensor": tensor("FLOAT32", [[1.0, 2.0]])}
    for name in ("SWISH", "HARD_SWISH"):
        got.append(case(f"{cname}.invalid-fused-{name.lower()}", op, two,
                        attrs={"FusedActivation": dict(Type="DML_OPERATOR_ACTIVATION_" + name,
                                                       **params32(ACTS[name][0]))},
                        error="invalid_argument",
                        note="not one of the activations DirectML fuses"))
    got.append(case(f"{cname}.invalid-fused-not-an-activation", op, two,
                    attrs={"FusedActivation": {"Type": 1}}, error="invalid_argument",
                    note="FusedActivation.Type 1 is ELEMENT_WISE_IDENTITY, not an activation"))
    got.append(case(f"{cname}.invalid-fused-on-integers", op,
                    {"ATensor": tensor("INT32", [[1, -2]]), "BTensor": tensor("INT32", [[1, 2]])},
                    attrs={"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_RELU"}},
                    error="invalid_argument",
                    note="a fused activation needs a FLOAT32 or FLOAT16 output"))
    got.append(case(f"{cname}.invalid-fused-steepness", op, two,
                    attrs={"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTPLUS",
                                               "Steepness": 0.0}},
                    error="invalid_argument",
                    note="SOFTPLUS's Steepness is not 0 (the formula divides by it), fused too"))
    got.append(case(f"{cname}.invalid-type", op,
                    {"ATensor": tensor("INT64", [[1, 2]]), "BTensor": tensor("INT64", [[1, 2]])},
                    error="invalid_argument", note="INT64 is in none of ADD1's tables"))
    return got


def extra_cases():
    got = []
    # Integer SHRINK with a fractional Bias and a negative one (results wrap).
    for t, bias, thr in (("INT8", 2.5, 1.5), ("INT8", -10.0, 0.0), ("UINT8", 0.75, -3.0),
                         ("INT16", 1e6, 0.0)):
        xs = int_values(t, 12, 3)
        p = {"Bias": f32(bias), "Threshold": f32(thr)}
        ys = [act_int("SHRINK", p, t, x) for x in xs]
        got.append(case(f"directml.activation_shrink.{t.lower()}-bias{bias:g}-threshold{thr:g}",
                        "ACTIVATION_SHRINK",
                        {"InputTensor": tensor(t, np.array(xs, dtype=object).reshape([3, 4]))},
                        {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape([3, 4]))},
                        attrs=p, note="x -+ Bias truncated toward zero, wrapped into the type"))
    got.append(case("directml.activation_softplus.invalid-steepness", "ACTIVATION_SOFTPLUS",
                    {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]])}, attrs={"Steepness": 0.0},
                    error="invalid_argument",
                    note="Steepness is not 0: ln(1 + e^(Steepness x)) / Steepness divides by it"))
    # Feature level 6.4 allows a Steepness below 1 (the feature-level history).
    for t in ("FLOAT32", "FLOAT16"):
        for steep in (0.5, 0.125, -2.0):
            xs = [float(to_type(t, v)) for v in float_values(t, 20, 5)]
            ys = [act_real("SOFTPLUS", {"Steepness": steep}, x) for x in xs]
            got.append(case(f"directml.activation_softplus.{t.lower()}-steepness{steep:g}",
                            "ACTIVATION_SOFTPLUS",
                            {"InputTensor": tensor(t, np.array(xs, dtype=object).reshape([4, 5]))},
                            {"OutputTensor": tensor(t, np.array(ys, dtype=object).reshape([4, 5]))},
                            attrs={"Steepness": steep},
                            note="Steepness below 1: feature level 6.4"))
    got.append(case("directml.activation_elu.invalid-sizes", "ACTIVATION_ELU",
                    {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]]),
                     "OutputTensor": {"type": "FLOAT32", "shape": [2, 1]}},
                    attrs={"Alpha": 1.0}, error="invalid_argument",
                    note="InputTensor and OutputTensor have one Sizes"))
    return got


def main():
    np.seterr(over="ignore")  # FLOAT16 results past 65504 round to infinity, as they should
    cases = []
    for name in ACTS:
        cases += activation_cases(name)
    cases += prelu_cases() + add1_cases() + extra_cases()
    write(os.path.join(CASES, "directml", "elementwise_activation.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
