# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/elem.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from math import erf
cases = []
F = "FLOAT32"
FLT_MAX = float(np.finfo(np.float32).max)
def bshape(a, shape):  # broadcast with DML strides (right aligned, 0 where size 1 / missing)
    a = np.asarray(a); r = len(shape); src = (1,) * (r - a.ndim) + a.shape
    st = []; acc = 1
    for i in reversed(range(r)):
        if src[i] == 1: st.append(0)
        else: st.append(acc); acc *= src[i]
    return np.broadcast_to(a.reshape(src), shape), list(reversed(st))
def bin_case(name, op, A, Bv, ref, typ=F, tol=None, outtyp=None):
    shape = np.broadcast_shapes(np.shape(A), np.shape(Bv)); shape4 = (1,) * (4 - len(shape)) + tuple(shape)
    a, sa = bshape(A, shape4); b, sb = bshape(Bv, shape4)
    o = out(outtyp or typ, np.broadcast_to(ref, shape).reshape(shape4), *(tol or (None, None)))
    cases.append(case(name, op, {"ATensor": T(typ, a, strides=sa), "BTensor": T(typ, b, strides=sb)}, {"OutputTensor": o}))
# binary broadcasting forms (4-D padded, zero strides, different ranks)
A = rnd((2, 3, 4)); B = rnd((4,))
bin_case("add-3d-plus-1d", "DML_OPERATOR_ELEMENT_WISE_ADD", A, B, A + B, tol=(1, None))
A = rnd((3, 1)); B = rnd((1, 4))
bin_case("mul-outer-bcast", "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", A, B, A * B, tol=(1, None))
A = rnd((2, 1, 3)); B = rnd((4, 1)) + 3
bin_case("div-both-bcast", "DML_OPERATOR_ELEMENT_WISE_DIVIDE", A, B, A / B, tol=(2, None))
A = rnd((1,)); B = rnd((2, 2, 3))
bin_case("sub-scalar-minus-3d", "DML_OPERATOR_ELEMENT_WISE_SUBTRACT", A, B, A - B, tol=(1, None))
# 5-D broadcast (rank 5 stays 5)
A = rnd((2, 1, 3, 1, 2)); B = rnd((1, 2, 1, 2, 1))
shape = (2, 2, 3, 2, 2); a, sa = bshape(A, shape); b, sb = bshape(B, shape)
cases.append(case("add-5d-bcast", "DML_OPERATOR_ELEMENT_WISE_ADD", {"ATensor": T(F, a, strides=sa), "BTensor": T(F, b, strides=sb)},
                  {"OutputTensor": out(F, A + B, 1)}))
# INT64 add with broadcast (shape arithmetic), INT32
A = rng.integers(-50, 50, (2, 3)); B = rng.integers(-50, 50, (3,))
bin_case("add-int64-bcast", "DML_OPERATOR_ELEMENT_WISE_ADD", A, B, A + B, typ="INT64")
bin_case("mul-int32-bcast", "DML_OPERATOR_ELEMENT_WISE_MULTIPLY", A, B, A * B, typ="INT32")
bin_case("div-int64-bcast", "DML_OPERATOR_ELEMENT_WISE_DIVIDE", A, np.where(B == 0, 7, B), np.trunc(A / np.where(B == 0, 7, B)).astype(np.int64), typ="INT64")
# comparisons -> UINT8 (bool) with broadcast
A = rnd((2, 3)); B = A[0]
shape4 = (1, 1, 2, 3); a, sa = bshape(A, shape4); b, sb = bshape(B, shape4)
cases.append(case("less-bcast-bool", "DML_OPERATOR_ELEMENT_WISE_LOGICAL_LESS_THAN", {"ATensor": T(F, a, strides=sa), "BTensor": T(F, b, strides=sb)},
                  {"OutputTensor": T("UINT8", (A < B).astype(np.uint8).reshape(shape4))}))
cases.append(case("equal-int64-bcast", "DML_OPERATOR_ELEMENT_WISE_LOGICAL_EQUALS",
    {"ATensor": T("INT64", np.array([[1, 2, 3], [3, 2, 1]]).reshape(1, 1, 2, 3)), "BTensor": T("INT64", np.broadcast_to(np.array([1, 2, 1]), (1, 1, 2, 3)), strides=[0, 0, 0, 1])},
    {"OutputTensor": T("UINT8", np.array([[1, 1, 0], [0, 1, 1]]).reshape(1, 1, 2, 3))}))
# Where: ELEMENT_WISE_IF with bool condition broadcast, A scalar-broadcast, B full
cond = np.array([[1, 0, 1]], dtype=np.uint8); A = rnd((1,)); B = rnd((2, 3))
shape4 = (1, 1, 2, 3); c, sc = bshape(cond, shape4); a, sa = bshape(A, shape4); b, sb = bshape(B, shape4)
cases.append(case("where-bcast", "DML_OPERATOR_ELEMENT_WISE_IF",
    {"ConditionTensor": T("UINT8", c, strides=sc), "ATensor": T(F, a, strides=sa), "BTensor": T(F, b, strides=sb)},
    {"OutputTensor": T(F, np.where(cond.astype(bool), A, B).reshape(shape4))}))
# Where with FLOAT16 and INT64 values (attention mask patterns)
cases.append(case("where-int64", "DML_OPERATOR_ELEMENT_WISE_IF",
    {"ConditionTensor": T("UINT8", c, strides=sc), "ATensor": T("INT64", np.full(shape4, -7), strides=[0, 0, 0, 0]), "BTensor": T("INT64", np.arange(6).reshape(shape4))},
    {"OutputTensor": T("INT64", np.where(c.astype(bool), -7, np.arange(6).reshape(shape4)))}))
m = rnd((2, 3), "FLOAT16")
cases.append(case("where-fp16-mask-neg-inf", "DML_OPERATOR_ELEMENT_WISE_IF",
    {"ConditionTensor": T("UINT8", c, strides=sc), "ATensor": T("FLOAT16", np.full(shape4, -np.inf), strides=[0, 0, 0, 0]), "BTensor": T("FLOAT16", m.reshape(shape4))},
    {"OutputTensor": T("FLOAT16", np.where(c.astype(bool), -np.inf, m.reshape(shape4)))}))
# Clip-11 as CLIP1, MinMaxDataType the input's, absent bound -> the type's clamped DBL_MAX
x = rnd((1, 1, 2, 4)) * 3; x[0, 0, 0, 0] = np.inf; x[0, 0, 0, 1] = -np.inf
cases.append(case("clip11-min-only-max-fltmax", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
    {"InputTensor": T(F, x)}, {"OutputTensor": T(F, np.minimum(np.maximum(x, 0.0), FLT_MAX))},
    attrs={"MinMaxDataType": "FLOAT32", "Min": 0.0, "Max": FLT_MAX}))
xh = rnd((1, 1, 2, 4), "FLOAT16") * 3
cases.append(case("clip11-fp16", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
    {"InputTensor": T("FLOAT16", xh)}, {"OutputTensor": T("FLOAT16", np.clip(xh, -1.0, 0.5))},
    attrs={"MinMaxDataType": "FLOAT16", "Min": -1.0, "Max": 0.5}))
cases.append(case("clip11-fp16-default-max", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
    {"InputTensor": T("FLOAT16", xh)}, {"OutputTensor": T("FLOAT16", np.maximum(xh, 0.0))},
    attrs={"MinMaxDataType": "FLOAT16", "Min": 0.0, "Max": 65504.0}))
xi = rng.integers(-100, 100, (1, 1, 2, 4))
cases.append(case("clip11-int64", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
    {"InputTensor": T("INT64", xi)}, {"OutputTensor": T("INT64", np.clip(xi, -5, 9223372036854775807))},
    attrs={"MinMaxDataType": "INT64", "Min": -5, "Max": 9223372036854775807}))
cases.append(case("clip11-int32", "DML_OPERATOR_ELEMENT_WISE_CLIP1",
    {"InputTensor": T("INT32", xi)}, {"OutputTensor": T("INT32", np.clip(xi, -2147483648, 20))},
    attrs={"MinMaxDataType": "INT32", "Min": -2147483648, "Max": 20}))
cases.append(case("clip7-lowest-max", "DML_OPERATOR_ELEMENT_WISE_CLIP",
    {"InputTensor": T(F, x)}, {"OutputTensor": T(F, np.clip(x, -FLT_MAX, FLT_MAX))}, attrs={"Min": -FLT_MAX, "Max": FLT_MAX}))
# Gelu / Erf / Pow
x = rnd((1, 1, 3, 5)) * 3
g = np.array([0.5 * v * (1 + erf(v / np.sqrt(2))) for v in x.reshape(-1)]).reshape(x.shape)
cases.append(case("gelu-4d", "DML_OPERATOR_ACTIVATION_GELU", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, g, 18, 1e-6)}))
xh = rnd((1, 1, 3, 5), "FLOAT16") * 3
g = np.array([0.5 * v * (1 + erf(v / np.sqrt(2))) for v in xh.reshape(-1)]).reshape(xh.shape)
cases.append(case("gelu-fp16", "DML_OPERATOR_ACTIVATION_GELU", {"InputTensor": T("FLOAT16", xh)}, {"OutputTensor": out("FLOAT16", g, 4, 2**-10)}))
e = np.array([erf(v) for v in x.reshape(-1)]).reshape(x.shape)
cases.append(case("erf-4d", "DML_OPERATOR_ELEMENT_WISE_ERF", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, e, None, 1 / 1024)}))
xp = np.abs(rnd((1, 1, 2, 3))) + 0.1
cases.append(case("constant-pow-2", "DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW", {"InputTensor": T(F, xp)},
    {"OutputTensor": out(F, xp ** 2, 32)}, attrs={"Exponent": 2.0}))
cases.append(case("constant-pow-0.5", "DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW", {"InputTensor": T(F, xp)},
    {"OutputTensor": out(F, xp ** 0.5, 32)}, attrs={"Exponent": 0.5}))
xn = rnd((1, 1, 2, 3))
cases.append(case("constant-pow-3-negative-base", "DML_OPERATOR_ELEMENT_WISE_CONSTANT_POW", {"InputTensor": T(F, xn)},
    {"OutputTensor": out(F, xn ** 3, 32)}, attrs={"Exponent": 3.0}))
ex = np.array([2.0, 3.0, 0.5]); xe, se = bshape(ex, (1, 1, 2, 3))
cases.append(case("pow-exponent-bcast", "DML_OPERATOR_ELEMENT_WISE_POW", {"InputTensor": T(F, xp), "ExponentTensor": T(F, xe, strides=se)},
    {"OutputTensor": out(F, xp ** ex, 32)}))
cases.append(case("pow-negative-base-integer-exp", "DML_OPERATOR_ELEMENT_WISE_POW", {"InputTensor": T(F, xn), "ExponentTensor": T(F, np.full((1, 1, 2, 3), 2.0), strides=[0, 0, 0, 0])},
    {"OutputTensor": out(F, xn ** 2, 32)}))
# PRelu slope broadcast {1,C,1,1} from ONNX slope [C,1,1]
x = rnd((1, 3, 2, 2)); s = rnd((3, 1, 1)); sb_, ss = bshape(s, (1, 3, 2, 2))
cases.append(case("prelu-slope-bcast", "DML_OPERATOR_ACTIVATION_PARAMETERIZED_RELU", {"InputTensor": T(F, x), "SlopeTensor": T(F, sb_, strides=ss)},
    {"OutputTensor": out(F, np.where(x >= 0, x, x * s), 1)}))
# ADD1 with fused RELU (DmlFusedAdd) broadcast
A = rnd((2, 3)); B = rnd((3,)); shape4 = (1, 1, 2, 3); a, sa = bshape(A, shape4); b, sb = bshape(B, shape4)
cases.append(case("add1-fused-relu-bcast", "DML_OPERATOR_ELEMENT_WISE_ADD1", {"ATensor": T(F, a, strides=sa), "BTensor": T(F, b, strides=sb)},
    {"OutputTensor": out(F, np.maximum(A + B, 0).reshape(shape4), 1)}, attrs={"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_RELU"}}))
# Mean of 3 inputs: IDENTITY with ScaleBias 1/3 (in place in ORT)
x = rnd((1, 1, 2, 3))
cases.append(case("identity-scalebias-third", "DML_OPERATOR_ELEMENT_WISE_IDENTITY", {"InputTensor": T(F, x)},
    {"OutputTensor": out(F, x * np.float32(1 / 3), 2)}, attrs={"ScaleBias": {"Scale": float(np.float32(1 / 3)), "Bias": 0.0}}))
# Cast: float->int64 (truncation), int64->float, float->fp16, fp16->float, bool(uint8)->float, float->uint8 (bool semantics? ONNX Cast to bool is !=0 but to UINT8 is conversion)
xf = np.array([-2.7, -0.5, 0.0, 0.5, 1.5, 2.7, 100.9, -100.9]).reshape(1, 1, 2, 4)
cases.append(case("cast-f32-int64", "DML_OPERATOR_CAST", {"InputTensor": T(F, xf)}, {"OutputTensor": T("INT64", np.trunc(xf).astype(np.int64))}))
cases.append(case("cast-f32-int32", "DML_OPERATOR_CAST", {"InputTensor": T(F, xf)}, {"OutputTensor": T("INT32", np.trunc(xf).astype(np.int32))}))
xi = np.array([-3, 0, 7, 1 << 40, -(1 << 40), 5, 2, 1]).reshape(1, 1, 2, 4)
cases.append(case("cast-int64-f32", "DML_OPERATOR_CAST", {"InputTensor": T("INT64", xi)}, {"OutputTensor": T(F, xi.astype(np.float32))}))
cases.append(case("cast-int64-int32", "DML_OPERATOR_CAST", {"InputTensor": T("INT64", np.array([-3, 0, 7, 5, 2, 1, 100000, -100000]).reshape(1, 1, 2, 4))},
                  {"OutputTensor": T("INT32", np.array([-3, 0, 7, 5, 2, 1, 100000, -100000]).reshape(1, 1, 2, 4))}))
xr = rnd((1, 1, 2, 4)) * 100
cases.append(case("cast-f32-f16", "DML_OPERATOR_CAST", {"InputTensor": T(F, xr)}, {"OutputTensor": out("FLOAT16", xr.astype(np.float16).astype(np.float64), 1)}))
cases.append(case("cast-f16-f32", "DML_OPERATOR_CAST", {"InputTensor": T("FLOAT16", xr.astype(np.float16))}, {"OutputTensor": T(F, xr.astype(np.float16).astype(np.float64))}))
cases.append(case("cast-u8-f32", "DML_OPERATOR_CAST", {"InputTensor": T("UINT8", np.array([0, 1, 1, 0]).reshape(1, 1, 1, 4))}, {"OutputTensor": T(F, np.array([0., 1, 1, 0]).reshape(1, 1, 1, 4))}))
cases.append(case("cast-int32-int64-negative", "DML_OPERATOR_CAST", {"InputTensor": T("INT32", np.array([-1, -2147483648, 2147483647, 0]).reshape(1, 1, 1, 4))},
                  {"OutputTensor": T("INT64", np.array([-1, -2147483648, 2147483647, 0]).reshape(1, 1, 1, 4))}))
cases.append(case("cast-f16-int64", "DML_OPERATOR_CAST", {"InputTensor": T("FLOAT16", np.array([-2.5, 3.75, 1000.0, -0.25]).reshape(1, 1, 1, 4))},
                  {"OutputTensor": T("INT64", np.array([-2, 3, 1000, 0]).reshape(1, 1, 1, 4))}))
write("elem.json", cases)
