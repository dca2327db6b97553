#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's element-wise and activation operators.

Each case draws an operator, a type from the operator's table
(docs/operators.md), an output shape of 1 to 5 dimensions, and inputs of
numpy-broadcast shapes (a dimension of 1 read through a zero stride), with
values that mix ordinary numbers and special ones (NaN, +-inf, +-0,
subnormals, the extremes of integer types). The DirectML descriptor is run
through libdmlcl (ctypes, the package's dmlcl._native) and compared with a
numpy reference, computed in float64 (or exactly, in Python integers) and
rounded once to the output type, within the tolerance docs/operators.md
states for the operator (bit-exact where it states exact; a NaN matches any
NaN, and +-0 match each other only under a ULP or absolute tolerance).

Where dmlcl's documented rule differs from numpy's or ONNX's (integer
division by zero, MAX/MIN with NaN and signed zeros, shifts past the width,
CAST saturation, CLIP's crossed and NaN bounds, SIGN of NaN, MODULUS by
zero, QUANTIZE_LINEAR of NaN and FLOAT16 in float32, DEQUANTIZE_LINEAR's
exact 32-bit differences), the reference encodes dmlcl's documented rule, so
a mismatch is a bug. The one input left unchecked: integer POW with a negative exponent
whose positive power wraps (the page leaves unstated whether 1 / x^-e
divides by the wrapped power); those elements are skipped.

    python scripts/diff/elementwise.py [--seed N] [--cases N] [--ops ADD,EXP,...]

Prints the cases run per operator and each mismatch with its replay line
(--seed S --only K), and exits 1 on any mismatch. ScaleBias is never set
(NULL): the operators' own arithmetic is what is compared.
"""
import argparse
import ctypes
import math
import os
import re
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from dmlcl import _native as n  # noqa: E402  (after the path)


def _op_numbers():
    """DML_OPERATOR_TYPE from include/dmlcl/directml_optype.h: numbered in
    order of appearance, an alias (NAME = OTHER) taking no number."""
    text = open(os.path.join(ROOT, "include/dmlcl/directml_optype.h")).read()
    body = text[text.index("typedef enum DML_OPERATOR_TYPE"):]
    body = body[body.index("{") + 1:body.index("} DML_OPERATOR_TYPE")]
    numbers, k = {}, 0
    for line in body.splitlines():
        m = re.match(r"\s*DML_OPERATOR_(\w+)\s*(=[^,]*)?,", line)
        if not m:
            continue
        if m.group(2):
            continue
        numbers[m.group(1)] = k
        k += 1
    return numbers


OPS = _op_numbers()

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
I8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
U8, U16, U32, U64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
FLOATS = [F32, F16]
INTS = [I8, I16, I32, I64, U8, U16, U32, U64]
ARITH = FLOATS + INTS
ALL = [F16, F32, F64] + INTS
UINT_OF = {1: U8, 2: U16, 4: U32, 8: U64}

# ---- Values --------------------------------------------------------------------------


def draw_values(rng, dtype, shape, kind="any"):
    """Random values of dtype: ordinary ones plus about 1 in 8 special."""
    count = int(np.prod(shape, dtype=np.int64))
    if dtype.kind == "f":
        fi = np.finfo(dtype)
        scale = rng.choice([1.0, 4.0, 100.0, 1e4 if dtype == F16 else 1e30])
        v = rng.standard_normal(count) * scale
        if kind == "unit":
            v = rng.uniform(-1.2, 1.2, count)
        elif kind == "pos":
            v = np.abs(v) + rng.uniform(0, 2, count)
        special = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5,
                            2.5, -2.5, float(fi.max), -float(fi.max), float(fi.tiny),
                            float(fi.tiny) / 4, -float(fi.tiny) / 2, float(fi.eps)])
        pick = rng.random(count) < 0.125
        v = np.where(pick, special[rng.integers(0, len(special), count)], v)
        return v.astype(dtype).reshape(shape)
    info = np.iinfo(dtype)
    small = rng.integers(max(info.min, -20), min(info.max, 20) + 1, count, dtype=np.int64)
    full = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
    v = np.where(rng.random(count) < 0.5, small.astype(dtype), full)
    special = np.array([info.min, info.max, 0, 1, info.min + 1, info.max - 1], dtype=dtype)
    if info.min < 0:
        special = np.concatenate([special, np.array([-1], dtype=dtype)])
    pick = rng.random(count) < 0.125
    v = np.where(pick, special[rng.integers(0, len(special), count)], v)
    return v.astype(dtype).reshape(shape)


def draw_shapes(rng, inputs):
    """An output shape of 1-5 dims and, per input, a numpy-broadcast shape."""
    rank = int(rng.integers(1, 6))
    budget = int(rng.choice([8, 64, 512, 2048]))
    out = []
    for _ in range(rank):
        out.append(int(rng.integers(1, max(2, min(9, budget // max(1, int(np.prod(out))))))))
    shapes = []
    for _ in range(inputs):
        s = [1 if rng.random() < 0.3 else d for d in out]
        if rng.random() < 0.2:  # a lower-rank input, numpy's leading 1s
            s = [1] * int(rng.integers(0, rank + 1)) + s[len(s):]
        shapes.append(tuple(s))
    return tuple(out), shapes


# ---- References (numpy; dmlcl's documented rules) ------------------------------------


def wrap(values, dtype):
    """Python integers wrapped (two's complement) into an integer dtype."""
    bits = dtype.itemsize * 8
    out = []
    for v in values:
        v &= (1 << bits) - 1
        if dtype.kind == "i" and v >= 1 << (bits - 1):
            v -= 1 << bits
        out.append(v)
    return np.array(out, dtype=dtype)


def ints(a):
    return [int(x) for x in a.reshape(-1).tolist()]


def int_unary(f, x, dtype):
    return wrap([f(v) for v in ints(x)], dtype).reshape(x.shape)


def int_binary(f):
    def ref(a, b, dtype):
        return wrap([f(x, y, dtype) for x, y in zip(ints(a), ints(b))], dtype).reshape(a.shape)
    return ref


def _tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _int_div(x, y, dtype):
    return -1 if y == 0 else _tdiv(x, y)


def _int_mod_trunc(x, y, dtype):
    return x if y == 0 else x - y * _tdiv(x, y)


def _int_mod_floor(x, y, dtype):
    return x if y == 0 else x % y


def _int_pow(x, e, dtype):
    if e >= 0:
        return pow(x, e, 1 << (dtype.itemsize * 8))
    p = x ** (-e)
    if x == 0:
        return -1
    return _tdiv(1, p)


def fmax0(a, b):
    """MAX: NaN gives the other operand; -0 below +0."""
    r = np.fmax(a, b)
    z = (a == 0) & (b == 0)
    return np.where(z, np.where(np.signbit(a) & np.signbit(b), -0.0, 0.0), r)


def fmin0(a, b):
    r = np.fmin(a, b)
    z = (a == 0) & (b == 0)
    return np.where(z, np.where(np.signbit(a) | np.signbit(b), -0.0, 0.0), r)


def to_int_sat(x, dtype):
    """A float to an integer: toward zero, saturated, NaN 0."""
    info = np.iinfo(dtype)
    out = []
    for v in np.asarray(x, dtype=np.float64).reshape(-1).tolist():
        if v != v:
            out.append(0)
        elif v == math.inf:
            out.append(info.max)
        elif v == -math.inf:
            out.append(info.min)
        else:
            out.append(min(info.max, max(info.min, int(v))))
    return np.array(out, dtype=dtype).reshape(np.shape(x))


def _odd(y):
    return math.isfinite(y) and y == int(y) and int(y) % 2 == 1


def _c99_pow(x, y):
    if x == 0 and y < 0:  # Python raises; C99: +-inf, the sign kept for odd integers
        odd = _odd(y)
        return math.copysign(math.inf, x) if odd else math.inf
    try:
        return math.pow(x, y)
    except ValueError:  # a negative base, a non-integral exponent
        return math.nan
    except (ZeroDivisionError, OverflowError):
        odd = _odd(y)
        neg = math.copysign(1.0, x) < 0
        return -math.inf if odd and neg else math.inf


def c99_pow(x, y):
    """C99's pow (numpy's gives NaN for pow(-inf, 0.5))."""
    return np.vectorize(_c99_pow, otypes=[np.float64])(x, y)


def f64(a):
    return np.asarray(a, dtype=np.float64)


def erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def erfc(x):
    return np.vectorize(math.erfc, otypes=[np.float64])(x)


def round_away(x):
    r = np.sign(x) * np.floor(np.abs(x) + 0.5)
    return np.where(np.isfinite(x), np.copysign(r, x), x)


def sign(x):
    if x.dtype.kind == "f":
        return np.where(x > 0, 1.0, np.where(x < 0, -1.0, 0.0))
    return np.sign(x)


def gelu(x):
    with np.errstate(all="ignore"):
        return np.where(x == -np.inf, np.nan, x / 2 * erfc(-x / math.sqrt(2)))


def elu(x, alpha):
    return np.where(x > 0, x, np.where(np.isnan(x), x, alpha * np.expm1(x)))


def sigmoid(z):
    with np.errstate(all="ignore"):
        return np.where(z >= 0, 1 / (1 + np.exp(-z)), np.exp(z) / (1 + np.exp(z)))


def softplus(x, s):
    with np.errstate(all="ignore"):
        r = np.logaddexp(0.0, s * x) / s
    return np.where(np.isinf(s * x) & (s * x > 0), x, r)


# ---- The operator table --------------------------------------------------------------
# name: (DML operator, ONNX op the DirectML provider maps it to, types, arity, kind,
#        reference, tolerance). Tolerance: ("exact",), ("ulp", n), ("abs", eps) (or 1 ulp
#        of the output), kind: how the descriptor and inputs are laid out.

def _fl(f):
    return lambda x, t=None: f(f64(x))


def _arith(ffloat, fint):
    def ref(a, b, dtype):
        if dtype.kind == "f":
            with np.errstate(all="ignore"):
                return ffloat(f64(a), f64(b))
        return int_binary(fint)(a, b, dtype)
    return ref


TABLE = {
    "ADD": ("ELEMENT_WISE_ADD", "Add", ARITH, "binary",
            _arith(np.add, lambda x, y, t: x + y), ("ulp", 1)),
    "SUBTRACT": ("ELEMENT_WISE_SUBTRACT", "Sub", ARITH, "binary",
                 _arith(np.subtract, lambda x, y, t: x - y), ("ulp", 1)),
    "MULTIPLY": ("ELEMENT_WISE_MULTIPLY", "Mul", ARITH, "binary",
                 _arith(np.multiply, lambda x, y, t: x * y), ("ulp", 1)),
    "DIVIDE": ("ELEMENT_WISE_DIVIDE", "Div", ARITH, "binary",
               _arith(np.divide, _int_div), ("ulp", 2)),
    "MAX": ("ELEMENT_WISE_MAX", "Max", ARITH, "binary",
            _arith(fmax0, lambda x, y, t: max(x, y)), ("exact",)),
    "MIN": ("ELEMENT_WISE_MIN", "Min", ARITH, "binary",
            _arith(fmin0, lambda x, y, t: min(x, y)), ("exact",)),
    "MEAN": ("ELEMENT_WISE_MEAN", "-", [F32, F16, I32, U32], "binary",
             _arith(lambda a, b: (a + b) / 2, lambda x, y, t: _tdiv(x + y, 2)), ("ulp", 1)),
    "DIFFERENCE_SQUARE": ("ELEMENT_WISE_DIFFERENCE_SQUARE", "-", [F32, F16, I32, U32], "binary",
                          _arith(lambda a, b: (a - b) ** 2, lambda x, y, t: (x - y) ** 2),
                          ("ulp", 2)),
    "MODULUS_TRUNCATE": ("ELEMENT_WISE_MODULUS_TRUNCATE", "Mod(fmod=1)", ARITH, "binary",
                         _arith(np.fmod, _int_mod_trunc), ("exact",)),
    "MODULUS_FLOOR": ("ELEMENT_WISE_MODULUS_FLOOR", "Mod(fmod=0)", ARITH, "binary",
                      _arith(np.mod, _int_mod_floor), ("ulp", 1)),
    "POW": ("ELEMENT_WISE_POW", "Pow", [F32, F16, I8, I16, I32, U8, U16, U32], "pow",
            _arith(c99_pow, _int_pow), ("ulp", 32)),
    "CONSTANT_POW": ("ELEMENT_WISE_CONSTANT_POW", "Pow", FLOATS, "constant_pow", None,
                     ("ulp", 32)),
    "ATAN_YX": ("ELEMENT_WISE_ATAN_YX", "-", FLOATS, "binary",
                lambda a, b, t: np.arctan2(f64(a), f64(b)), ("ulp", 6)),
    "ABS": ("ELEMENT_WISE_ABS", "Abs", [F32, F16, I8, I16, I32, I64], "unary_sb",
            lambda x, t: np.abs(f64(x)) if t.kind == "f" else int_unary(abs, x, t), ("exact",)),
    "NEGATE": ("ELEMENT_WISE_NEGATE", "Neg", [F32, F16, I8, I16, I32, I64], "unary",
               lambda x, t: -f64(x) if t.kind == "f" else int_unary(lambda v: -v, x, t),
               ("exact",)),
    "CEIL": ("ELEMENT_WISE_CEIL", "Ceil", FLOATS, "unary_sb", _fl(np.ceil), ("exact",)),
    "FLOOR": ("ELEMENT_WISE_FLOOR", "Floor", FLOATS, "unary_sb", _fl(np.floor), ("exact",)),
    "SQRT": ("ELEMENT_WISE_SQRT", "Sqrt", FLOATS, "unary_sb", _fl(np.sqrt), ("ulp", 1)),
    "RECIP": ("ELEMENT_WISE_RECIP", "Reciprocal", FLOATS, "unary_sb",
              _fl(lambda x: 1 / x), ("ulp", 2)),
    "EXP": ("ELEMENT_WISE_EXP", "Exp", FLOATS, "unary_sb", _fl(np.exp), ("ulp", 32)),
    "LOG": ("ELEMENT_WISE_LOG", "Log", FLOATS, "unary_sb", _fl(np.log), ("abs", 1 / 1024)),
    "SIN": ("ELEMENT_WISE_SIN", "Sin", FLOATS, "unary_sb", _fl(np.sin), ("abs", 1 / 1024)),
    "COS": ("ELEMENT_WISE_COS", "Cos", FLOATS, "unary_sb", _fl(np.cos), ("abs", 1 / 1024)),
    "TAN": ("ELEMENT_WISE_TAN", "Tan", FLOATS, "unary_sb", _fl(np.tan), ("abs", 1 / 1024)),
    "TANH": ("ELEMENT_WISE_TANH", "Tanh", FLOATS, "unary_sb", _fl(np.tanh), ("abs", 1 / 1024)),
    "ERF": ("ELEMENT_WISE_ERF", "Erf", FLOATS, "unary_sb", _fl(erf), ("abs", 1 / 1024)),
    "ASIN": ("ELEMENT_WISE_ASIN", "Asin", FLOATS, "unary_sb", _fl(np.arcsin), ("ulp", 4)),
    "ACOS": ("ELEMENT_WISE_ACOS", "Acos", FLOATS, "unary_sb", _fl(np.arccos), ("ulp", 4)),
    "ATAN": ("ELEMENT_WISE_ATAN", "Atan", FLOATS, "unary_sb", _fl(np.arctan), ("ulp", 5)),
    "SINH": ("ELEMENT_WISE_SINH", "Sinh", FLOATS, "unary_sb", _fl(np.sinh), ("ulp", 4)),
    "COSH": ("ELEMENT_WISE_COSH", "Cosh", FLOATS, "unary_sb", _fl(np.cosh), ("ulp", 4)),
    "ASINH": ("ELEMENT_WISE_ASINH", "Asinh", FLOATS, "unary_sb", _fl(np.arcsinh), ("ulp", 4)),
    "ACOSH": ("ELEMENT_WISE_ACOSH", "Acosh", FLOATS, "unary_sb", _fl(np.arccosh), ("ulp", 4)),
    "ATANH": ("ELEMENT_WISE_ATANH", "Atanh", FLOATS, "unary_sb", _fl(np.arctanh), ("ulp", 5)),
    "ROUND": ("ELEMENT_WISE_ROUND", "Round", FLOATS, "round", None, ("exact",)),
    "SIGN": ("ELEMENT_WISE_SIGN", "Sign", ARITH, "unary", lambda x, t: sign(x), ("exact",)),
    "IS_NAN": ("ELEMENT_WISE_IS_NAN", "IsNaN", FLOATS, "is_nan",
               lambda x, t: np.isnan(x), ("exact",)),
    "IS_INFINITY": ("ELEMENT_WISE_IS_INFINITY", "IsInf", FLOATS, "is_inf", None, ("exact",)),
    "EQUALS": ("ELEMENT_WISE_LOGICAL_EQUALS", "Equal", ARITH, "compare", np.equal, ("exact",)),
    "GREATER_THAN": ("ELEMENT_WISE_LOGICAL_GREATER_THAN", "Greater", ARITH, "compare",
                     np.greater, ("exact",)),
    "GREATER_THAN_OR_EQUAL": ("ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL", "GreaterOrEqual",
                              ARITH, "compare", np.greater_equal, ("exact",)),
    "LESS_THAN": ("ELEMENT_WISE_LOGICAL_LESS_THAN", "Less", ARITH, "compare", np.less,
                  ("exact",)),
    "LESS_THAN_OR_EQUAL": ("ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL", "LessOrEqual", ARITH,
                           "compare", np.less_equal, ("exact",)),
    "LOGICAL_AND": ("ELEMENT_WISE_LOGICAL_AND", "And", [U8, U32], "logic",
                    lambda a, b: (a != 0) & (b != 0), ("exact",)),
    "LOGICAL_OR": ("ELEMENT_WISE_LOGICAL_OR", "Or", [U8, U32], "logic",
                   lambda a, b: (a != 0) | (b != 0), ("exact",)),
    "LOGICAL_XOR": ("ELEMENT_WISE_LOGICAL_XOR", "Xor", [U8, U32], "logic",
                    lambda a, b: (a != 0) ^ (b != 0), ("exact",)),
    "LOGICAL_NOT": ("ELEMENT_WISE_LOGICAL_NOT", "Not", [U8, U32], "logic_not",
                    lambda a: a == 0, ("exact",)),
    "BIT_AND": ("ELEMENT_WISE_BIT_AND", "BitwiseAnd", ALL, "bits", np.bitwise_and, ("bits",)),
    "BIT_OR": ("ELEMENT_WISE_BIT_OR", "BitwiseOr", ALL, "bits", np.bitwise_or, ("bits",)),
    "BIT_XOR": ("ELEMENT_WISE_BIT_XOR", "BitwiseXor", ALL, "bits", np.bitwise_xor, ("bits",)),
    "BIT_NOT": ("ELEMENT_WISE_BIT_NOT", "BitwiseNot", ALL, "bits_not", np.invert, ("bits",)),
    "BIT_COUNT": ("ELEMENT_WISE_BIT_COUNT", "-", ALL, "bit_count", None, ("exact",)),
    "BIT_SHIFT_LEFT": ("ELEMENT_WISE_BIT_SHIFT_LEFT", "BitShift(LEFT)", [U8, U16, U32, U64],
                       "shift", lambda x, c, w: (x << c) if c < w else 0, ("exact",)),
    "BIT_SHIFT_RIGHT": ("ELEMENT_WISE_BIT_SHIFT_RIGHT", "BitShift(RIGHT)", [U8, U16, U32, U64],
                        "shift", lambda x, c, w: (x >> c) if c < w else 0, ("exact",)),
    "IF": ("ELEMENT_WISE_IF", "Where", ALL, "if", None, ("bits",)),
    "QUANTIZE_LINEAR": ("ELEMENT_WISE_QUANTIZE_LINEAR", "QuantizeLinear", [F32, F16, I32],
                        "quantize", None, ("exact",)),
    "DEQUANTIZE_LINEAR": ("ELEMENT_WISE_DEQUANTIZE_LINEAR", "DequantizeLinear",
                          [I8, I16, I32, U8, U16, U32], "dequantize", None, ("exact",)),
    "CAST": ("CAST", "Cast", ALL, "cast", None, ("exact",)),
    "CLIP": ("ELEMENT_WISE_CLIP", "Clip", ARITH, "clip", None, ("exact",)),
    "CLIP1": ("ELEMENT_WISE_CLIP1", "Clip", ARITH, "clip1", None, ("exact",)),
    "RELU": ("ACTIVATION_RELU", "Relu", [F32, F16, I32, I16, I8], "unary",
             lambda x, t: (np.where(np.isnan(f64(x)), x, np.maximum(f64(x), 0.0) + 0.0)
                           if t.kind == "f" else np.maximum(x, 0)), ("exact",)),
    "SIGMOID": ("ACTIVATION_SIGMOID", "Sigmoid", FLOATS, "unary",
                _fl(lambda x: sigmoid(x)), ("ulp", 34)),
    "ACT_TANH": ("ACTIVATION_TANH", "Tanh", FLOATS, "unary", _fl(np.tanh), ("abs", 1 / 1024)),
    "ELU": ("ACTIVATION_ELU", "Elu", FLOATS, "alpha", None, ("ulp", 18)),
    "LEAKY_RELU": ("ACTIVATION_LEAKY_RELU", "LeakyRelu", FLOATS, "alpha", None, ("ulp", 1)),
    "SOFTPLUS": ("ACTIVATION_SOFTPLUS", "Softplus", FLOATS, "steepness", None, ("ulp", 18)),
    "CELU": ("ACTIVATION_CELU", "Celu", FLOATS, "alpha", None, ("ulp", 18)),
    "THRESHOLDED_RELU": ("ACTIVATION_THRESHOLDED_RELU", "ThresholdedRelu", FLOATS, "alpha", None,
                         ("exact",)),
    "SWISH": ("ACTIVATION_SWISH", "-", FLOATS, "alpha", None, ("ulp", 35)),
    "HARD_SIGMOID": ("ACTIVATION_HARD_SIGMOID", "HardSigmoid", FLOATS, "alpha", None,
                     ("ulp", 1)),
    "GELU": ("ACTIVATION_GELU", "Gelu", FLOATS, "unary", _fl(gelu), ("ulp", 18)),
    "SOFTSIGN": ("ACTIVATION_SOFTSIGN", "Softsign", FLOATS, "unary",
                 _fl(lambda x: np.where(np.isinf(x), np.sign(x), x / (1 + np.abs(x)))),
                 ("ulp", 2)),
}

# ---- ctypes descriptors ----------------------------------------------------------------

_P = ctypes.POINTER(n.TensorDesc)


class ScalarUnion(ctypes.Union):
    _fields_ = [("Bytes", ctypes.c_uint8 * 8), ("Int64", ctypes.c_int64),
                ("Float64", ctypes.c_double)]  # 8-byte aligned, as in C


def _tensor(dtype, out_shape, in_shape, keep):
    """A buffer tensor of out_shape's sizes reading an array of in_shape
    (numpy-broadcast onto out_shape) through its strides (0 where broadcast)."""
    rank = len(out_shape)
    full = (1,) * (rank - len(in_shape)) + tuple(in_shape)
    strides, step = [0] * rank, 1
    for i in range(rank - 1, -1, -1):
        strides[i] = 0 if full[i] == 1 and out_shape[i] != 1 else step
        step *= full[i]
    last = sum((s - 1) * st for s, st in zip(out_shape, strides))
    dims = (ctypes.c_uint32 * rank)(*out_shape)
    st = (ctypes.c_uint32 * rank)(*strides)
    total = (last + 1) * dtype.itemsize
    b = n.BufferTensorDesc(n.DATA_TYPES[dtype], 0, rank, dims, st, (total + 3) // 4 * 4, 0)
    t = n.TensorDesc(n.TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(b), ctypes.c_void_p))
    keep += [dims, st, b, t]
    return ctypes.pointer(t), strides


def run_dml(op, tensors, extra, inputs, out_shape, out_dtype):
    """tensors: [(dtype, shape)] for the inputs then the output; extra: [(name,
    ctype, value)] after them (ScaleBias pointers and scalars)."""
    keep, fields, values = [], [], []
    for k, spec in enumerate(tensors):
        p = None if spec is None else _tensor(spec[0], out_shape, spec[1], keep)[0]
        fields.append((f"t{k}", _P))  # None: an absent optional tensor (NULL)
        values.append(p)
    for name, ctype, value in extra:
        fields.append((name, ctype))
        values.append(value)
    desc_type = type("Desc", (ctypes.Structure,), {"_fields_": fields})
    desc = desc_type(*values)
    keep.append(desc)
    opdesc = n.OperatorDesc(OPS[op], ctypes.cast(ctypes.pointer(desc), ctypes.c_void_p))
    return n.execute(ctypes.pointer(opdesc), inputs, out_shape, out_dtype)


# ---- A case --------------------------------------------------------------------------


def quant_scale(rng, dtype, shape):
    """Scales: powers of two (exact quotients: halves are ties), ordinary values of either
    sign, and the draw's specials (0, NaN, infinities, subnormals)."""
    count = int(np.prod(shape, dtype=np.int64))
    pow2 = np.ldexp(1.0, rng.integers(-6, 7, count)) * rng.choice([1.0, -1.0], count, p=[.9, .1])
    v = np.where(rng.random(count) < 0.5, pow2, draw_values(rng, dtype, (count,)).astype(
        np.float64) / 16)
    return v.astype(dtype).reshape(shape)


def quant_case(rng, op, t, quantize, out, shapes, label):
    """QUANTIZE_LINEAR (FLOAT32, FLOAT16 or INT32 into INT8 or UINT8) or DEQUANTIZE_LINEAR
    (8- to 32-bit integers into FLOAT32 or FLOAT16), the zero point absent a quarter of the
    time, under docs/operators.md's rules: rint(x / scale) in float32 plus the zero point,
    saturated (NaN 0); (x - zero point) exact, rounded to float32, times the scale."""
    out_t = [I8, U8][int(rng.integers(0, 2))] if quantize else [F32, F16][int(rng.integers(0, 2))]
    scale_t = (F32 if t == I32 else t) if quantize else out_t
    zp_t = out_t if quantize else t
    x = draw_values(rng, t, shapes[0])
    if quantize and t.kind == "f" and rng.random() < 0.5:  # on the grid: halves and ties
        x = (rng.integers(-600, 600, shapes[0]) / 4).astype(t)
    s = quant_scale(rng, scale_t, shapes[1])
    z = draw_values(rng, zp_t, shapes[2]) if rng.random() < 0.75 else None
    label = f"{t.name}->{out_t.name}" + ("" if z is not None else " no zero point")
    xb, sb = np.broadcast_to(x, out), np.broadcast_to(s, out)
    zb = np.broadcast_to(z, out).astype(np.int64) if z is not None else np.zeros(out, np.int64)
    with np.errstate(all="ignore"):
        if quantize:
            q = np.rint(xb.astype(np.float32) / sb.astype(np.float32)).astype(np.float64) + zb
            info = np.iinfo(out_t)
            want = np.where(np.isnan(q), 0, np.clip(q, int(info.min), int(info.max)))
            want = want.astype(out_t)
        else:
            d = (xb.astype(np.int64) - zb).astype(np.float32)
            want = (d * sb.astype(np.float32)).astype(out_t)
    tensors = [(t, x.shape), (scale_t, s.shape), (zp_t, z.shape) if z is not None else None,
               (out_t, out)]
    return label, out, [x, s, z], lambda: run_dml(op, tensors, [], [x, s, z], out,
                                                  out_t), want, out_t, None


def make_case(rng, name):
    """Draws a case; returns (type name, out shape, inputs, run, reference, skip mask)."""
    op, _onnx, types, kind, ref, _tol = TABLE[name]
    t = types[int(rng.integers(0, len(types)))]
    arity = {"binary": 2, "pow": 2, "compare": 2, "logic": 2, "bits": 2, "shift": 2, "if": 3,
             "quantize": 3, "dequantize": 3}
    out, shapes = draw_shapes(rng, arity.get(kind, 1))
    sb = [("ScaleBias", ctypes.c_void_p, None)]
    skip = None
    label = t.name
    if kind in ("binary", "pow"):
        a = draw_values(rng, t, shapes[0])
        if kind == "pow" and t.kind != "f":
            b = rng.integers(-3 if t.kind == "i" else 0, 12, shapes[1]).astype(t)
        elif kind == "pow":
            b = np.where(rng.random(shapes[1]) < 0.5, rng.integers(-4, 5, shapes[1]),
                         draw_values(rng, t, shapes[1], "unit") * 4).astype(t)
        else:
            b = draw_values(rng, t, shapes[1])
        ab, bb = np.broadcast_to(a, out), np.broadcast_to(b, out)
        with np.errstate(all="ignore"):
            want = ref(ab, bb, t)
        if kind == "pow" and t.kind != "f":
            p = np.array([x ** -e if e < 0 and x not in (0, 1, -1) else 1
                          for x, e in zip(ints(ab), ints(bb))], dtype=object)
            lim = 1 << (t.itemsize * 8 - (1 if t.kind == "i" else 0))
            skip = np.array([abs(v) >= lim for v in p]).reshape(out)
        extra = sb if kind == "pow" else []
        return label, out, [a, b], lambda: run_dml(op, [(t, a.shape), (t, b.shape), (t, out)],
                                                   extra, [a, b], out, t), want, t, skip
    if kind in ("unary", "unary_sb", "round", "is_nan", "is_inf", "alpha", "steepness",
                "constant_pow", "logic_not", "bits_not", "bit_count", "cast", "clip", "clip1"):
        domain = {"ASIN": "unit", "ACOS": "unit", "ATANH": "unit"}.get(name, "any")
        if rng.random() < 0.3:
            domain = "any"
        x = draw_values(rng, t, shapes[0], domain)
        if kind == "logic_not":
            x = np.where(rng.random(x.shape) < 0.5, x % 2, x).astype(t)
        xb = np.broadcast_to(x, out)
        out_t, extra = t, []
        if kind == "unary_sb":
            extra = sb
        with np.errstate(all="ignore"):
            if kind in ("unary", "unary_sb"):
                want = ref(xb, t)
            elif kind == "round":
                mode = int(rng.integers(0, 3))
                label += f" mode={mode}"
                want = [np.rint, np.trunc, round_away][mode](f64(xb))
                extra = [("RoundingMode", ctypes.c_int, mode)]
            elif kind == "is_nan":
                out_t = [U8, U32][int(rng.integers(0, 2))]
                want = np.isnan(xb)
            elif kind == "is_inf":
                out_t, mode = U8, int(rng.integers(0, 3))
                label += f" mode={mode}"
                want = [np.isinf(xb), xb == np.inf, xb == -np.inf][mode]
                extra = [("InfinityMode", ctypes.c_int, mode)]
            elif kind in ("alpha", "steepness", "constant_pow"):
                if kind == "steepness":
                    v = float(np.float32(rng.choice([1.0, 1.5, 2.0, 10.0])))
                elif kind == "constant_pow":
                    v = float(np.float32(rng.choice([0.0, 0.5, 1.0, 2.0, 3.0, -1.0, -2.0, 1.5,
                                                     -0.5, 2.25])))
                elif name in ("CELU", "SWISH"):
                    v = float(np.float32(rng.choice([0.5, 1.0, 2.0, 1.5, 0.1])))
                else:
                    v = float(np.float32(rng.choice([0.01, 0.1, 1.0, 1.5, -0.5, 0.0])))
                label += f" {kind}={v}"
                xf = f64(xb)
                beta = []
                if name == "HARD_SIGMOID":
                    v2 = float(np.float32(rng.choice([0.5, 0.0, 0.2, -1.0])))
                    label += f" beta={v2}"
                    want = np.where(np.isnan(xf), xf, np.clip(v * xf + v2, 0.0, 1.0))
                    beta = [("Beta", ctypes.c_float, v2)]
                elif name == "CELU":
                    want = np.where(np.isnan(xf), xf, np.maximum(0.0, xf) +
                                    np.minimum(0.0, v * np.expm1(xf / v)))
                elif name == "SWISH":
                    want = xf * sigmoid(v * xf)
                elif name == "THRESHOLDED_RELU":
                    want = np.where(xf > v, xf, 0.0)
                elif name == "ELU":
                    want = elu(xf, v)
                elif name == "LEAKY_RELU":
                    want = np.where(xf >= 0, xf, xf * v)
                elif name == "SOFTPLUS":
                    want = softplus(xf, v)
                else:
                    want = c99_pow(xf, v)
                fname = {"alpha": "Alpha", "steepness": "Steepness", "constant_pow": "Exponent"}
                fname["alpha"] = "SigmoidInputScale" if name == "SWISH" else "Alpha"
                extra = ([] if kind != "constant_pow" else sb) + [
                    (fname[kind], ctypes.c_float, v)] + beta
            elif kind == "logic_not":
                want = ref(xb)
            elif kind == "bits_not":
                u = UINT_OF[t.itemsize]
                want = np.invert(xb.view(u)).view(t)
            elif kind == "bit_count":
                out_t = [U8, U32][int(rng.integers(0, 2))]
                u = UINT_OF[t.itemsize]
                want = np.array([bin(v).count("1") for v in ints(np.ascontiguousarray(xb)
                                                               .view(u))]).reshape(out)
            elif kind == "cast":
                out_t = ALL[int(rng.integers(0, len(ALL)))]
                label += f"->{out_t.name}"
                if out_t.kind in "iu" and t.kind == "f":
                    want = to_int_sat(xb, out_t)
                elif out_t.kind in "iu":
                    want = wrap(ints(xb), out_t).reshape(out)
                else:
                    want = xb.astype(out_t)
            elif kind in ("clip", "clip1"):
                if kind == "clip" or t.kind == "f":
                    cand = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 100.0, -100.0, np.nan, np.inf,
                            -np.inf, 1e10, -1e10, 3e38]
                    lo, hi = (float(np.float32(rng.choice(cand))) for _ in range(2))
                else:
                    lo, hi = (int(v) for v in draw_values(rng, t, (2,)))
                if kind == "clip1" and t.kind == "f":
                    lo, hi = float(t.type(lo)), float(t.type(hi))
                label += f" min={lo} max={hi}"
                if t.kind == "f":
                    lo_t, hi_t = np.float64(np.float32(lo)), np.float64(np.float32(hi))
                    xf = f64(xb)
                    want = np.where(np.isnan(xf), xf, fmax0(lo_t, fmin0(xf, hi_t)))
                else:
                    if kind == "clip":
                        lo_i, hi_i = (int(to_int_sat(np.float64(v), t)) for v in (lo, hi))
                    else:
                        lo_i, hi_i = lo, hi
                    want = np.maximum(lo_i, np.minimum(xb.astype(object), hi_i)).astype(t)
                if kind == "clip":
                    extra = sb + [("Min", ctypes.c_float, lo), ("Max", ctypes.c_float, hi)]
                else:
                    lo_u, hi_u = ScalarUnion(), ScalarUnion()
                    for u, v in ((lo_u, lo), (hi_u, hi)):
                        raw = np.array([v], dtype=t).view(np.uint8)
                        for i, byte in enumerate(raw):
                            u.Bytes[i] = int(byte)
                    extra = sb + [("MinMaxDataType", ctypes.c_int, n.DATA_TYPES[t]),
                                  ("Min", ScalarUnion, lo_u), ("Max", ScalarUnion, hi_u)]
        return label, out, [x], lambda: run_dml(op, [(t, x.shape), (out_t, out)], extra, [x],
                                                out, out_t), want, out_t, skip
    if kind in ("compare", "logic", "bits", "shift"):
        a = draw_values(rng, t, shapes[0])
        if kind == "shift":
            w = t.itemsize * 8
            b = rng.integers(0, w + 4, shapes[1]).astype(t)
            if rng.random() < 0.2:
                b = draw_values(rng, t, shapes[1])
        else:
            b = draw_values(rng, t, shapes[1])
            if kind == "compare" and rng.random() < 0.5:  # equal elements
                b = np.where(rng.random(shapes[1]) < 0.3, np.broadcast_to(a, out)[
                    tuple(slice(0, s) for s in (1,) * (len(out) - len(shapes[1])) +
                          shapes[1])].reshape(shapes[1]), b).astype(t)
            if kind == "logic":
                a = np.where(rng.random(a.shape) < 0.6, a % 2, a).astype(t)
                b = np.where(rng.random(b.shape) < 0.6, b % 2, b).astype(t)
        ab, bb = np.broadcast_to(a, out), np.broadcast_to(b, out)
        out_t = t
        if kind == "compare":
            out_t = [U8, U32][int(rng.integers(0, 2))]
            label += f"->{out_t.name}"
            want = ref(ab, bb)
        elif kind == "logic":
            want = ref(ab, bb)
        elif kind == "bits":
            u = UINT_OF[t.itemsize]
            want = ref(np.ascontiguousarray(ab).view(u), np.ascontiguousarray(bb).view(u)).view(t)
        else:
            w = t.itemsize * 8
            want = wrap([ref(x, c, w) for x, c in zip(ints(ab), ints(bb))], t).reshape(out)
        return label, out, [a, b], lambda: run_dml(op, [(t, a.shape), (t, b.shape), (out_t, out)],
                                                   [], [a, b], out, out_t), want, out_t, skip
    if kind in ("quantize", "dequantize"):
        return quant_case(rng, op, t, kind == "quantize", out, shapes, label)
    if kind == "if":
        c = rng.integers(0, 256, shapes[0]).astype(U8)
        c = np.where(rng.random(shapes[0]) < 0.7, c % 2, c).astype(U8)
        a, b = draw_values(rng, t, shapes[1]), draw_values(rng, t, shapes[2])
        want = np.where(np.broadcast_to(c, out) != 0, np.broadcast_to(a, out),
                        np.broadcast_to(b, out))
        return label, out, [c, a, b], lambda: run_dml(
            op, [(U8, c.shape), (t, a.shape), (t, b.shape), (t, out)], [], [c, a, b], out,
            t), want, t, skip
    raise AssertionError(kind)


# ---- Comparing -----------------------------------------------------------------------


def ordered(x):
    """Floats as integers in value order (+0 and -0 both 0): ULP distances."""
    u = UINT_OF[x.dtype.itemsize]
    bits = np.ascontiguousarray(x).view(u).astype(np.int64)
    sign = np.int64(1) << (x.dtype.itemsize * 8 - 1)
    mag = bits & (sign - 1) if x.dtype.itemsize < 8 else bits & 0x7FFFFFFFFFFFFFFF
    return np.where(np.ascontiguousarray(x).view(u) >> (x.dtype.itemsize * 8 - 1) == 1,
                    -mag, mag)


def mismatches(got, want, out_t, tol):
    """A boolean array: True where got is outside the tolerance of want."""
    if tol[0] == "bits" or out_t.kind != "f":
        u = UINT_OF[out_t.itemsize]
        return np.ascontiguousarray(got).view(u) != np.ascontiguousarray(
            np.asarray(want).astype(out_t)).view(u)
    with np.errstate(all="ignore"):
        w = np.asarray(want, dtype=np.float64).astype(out_t)
    wf = np.asarray(want, dtype=np.float64)
    nan_g, nan_w = np.isnan(got), np.isnan(w)
    bad = nan_g != nan_w
    both = ~nan_g & ~nan_w
    inf = np.isinf(got) | np.isinf(w)
    if tol[0] == "exact":
        same = got.view(UINT_OF[out_t.itemsize]) == w.view(UINT_OF[out_t.itemsize])
        return bad | (both & ~same)
    bad |= both & inf & (got != w)
    fin = both & ~inf
    dist = np.abs(ordered(got) - ordered(w))
    if tol[0] == "ulp":
        return bad | (fin & (dist > tol[1]))
    with np.errstate(all="ignore"):
        err = np.abs(got.astype(np.float64) - wf)
    return bad | (fin & (err > tol[1]) & (dist > 1))


def run(seed, cases, ops, only=None, verbose=False, out=sys.stdout):
    names = ops or list(TABLE)
    for nm in names:
        if nm not in TABLE:
            raise SystemExit(f"diff-elementwise: unknown operator {nm} (known: {', '.join(TABLE)})")
    counts, failures, errors = {}, [], []
    start = time.time()
    np.seterr(all="ignore")  # the references meet inf and NaN on purpose
    for k in range(cases):
        rng = np.random.default_rng([seed, k])
        name = names[int(rng.integers(0, len(names)))]
        if only is not None and k != only:
            continue
        label, shape, inputs, call, want, out_t, skip = make_case(rng, name)
        counts[name] = counts.get(name, 0) + 1
        replay = f"--seed {seed} --only {k}" + (f" --ops {','.join(ops)}" if ops else "")
        try:
            got = call()
        except n.Error as e:
            errors.append(f"case {k} {name} {label} {shape}: dmlcl error {e} ({replay})")
            continue
        bad = mismatches(got, np.broadcast_to(want, shape), out_t, TABLE[name][5])
        if skip is not None:
            bad &= ~skip
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            ins = [None if a is None else np.broadcast_to(a, shape)[idx] for a in inputs]
            failures.append(
                f"case {k} {name} {label} shape {shape}: {int(bad.sum())} of {bad.size} differ; "
                f"first at {idx}: inputs {[repr(v) for v in ins]} got {got[idx]!r} want "
                f"{np.asarray(want).astype(out_t)[idx] if out_t.kind != 'f' else want[idx]!r} "
                f"(replay: {replay})")
        if verbose:
            print(f"case {k} {name} {label} {shape}: {'MISMATCH' if bad.any() else 'ok'}",
                  file=out)
    took = time.time() - start
    print("cases per operator: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
          file=out)
    for line in failures + errors:
        print("MISMATCH " + line if line in failures else "ERROR " + line, file=out)
    total = sum(counts.values())
    print(f"diff-elementwise: seed {seed}: {total} cases, {len(counts)} operators, "
          f"{len(failures)} mismatches, {len(errors)} errors, {took:.1f} s", file=out)
    return len(failures) + len(errors)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=200)
    p.add_argument("--ops", default="", help="comma-separated names: " + ",".join(TABLE))
    p.add_argument("--only", type=int, help="run case K alone (a replay)")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args(argv)
    ops = [o.strip().upper() for o in a.ops.split(",") if o.strip()]
    cases = a.cases if a.only is None else max(a.cases, a.only + 1)
    return 1 if run(a.seed, cases, ops, a.only, a.verbose) else 0


if __name__ == "__main__":
    sys.exit(main())
