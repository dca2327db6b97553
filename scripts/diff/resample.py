#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's resampling operators against numpy.

Each case draws an operator (RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 with or without
Antialiased, UPSAMPLE_2D), NEAREST_NEIGHBOR or LINEAR, a type (FLOAT32, FLOAT16 in about 30% of
the float cases; INT8 or UINT8 now and then for the RESAMPLE operators, whose 6.2 tables list
them), a rank (1 to 4 for the RESAMPLE operators, DimensionCount equal to it; 4 or 5 for
UPSAMPLE_2D) and 1 to 4 scaled dimensions (UPSAMPLE_2D: H and W by ScaleSize's integers 1 to
4). A scaled dimension's Scale is one of 1/4 to 4 (1/3, 0.6, 1.5, 2.25, 3.5 among them) or a
uniform float, its output floor(In·Scale) (ONNX Resize's scales), or an output drawn and the
Scale Out/In (ONNX's sizes); now and then an output 1 or 2 off that (the pages: the image
cropped or its edges clamped); Antialiased LINEAR cases mostly downscale (Scales 0.2 to 1, where
the filter widens). RESAMPLE1, RESAMPLE2 and RESAMPLE3 draw each dimension's
InputPixelOffset, OutputPixelOffset (and Scale) from one of ONNX Resize's
coordinate_transformation_modes as ONNX Runtime's DirectML provider maps them
(DmlOperatorResize.cpp; docs/operators.md): half_pixel 0.5/-0.5, asymmetric 0/0,
pytorch_half_pixel 0.5/-0.5 (an output of 1: Scale FLT_MAX, 0/0, ONNX's coordinate 0),
align_corners 0/0 with Scale (Out - 1)/(In - 1) (FLT_MAX where either is 1),
tf_half_pixel_for_nn 0/-0.5, and for RESAMPLE2 and RESAMPLE3 half_pixel_symmetric 0.5 -
(In/2)(1 - Out/(Scale·In)) / -0.5. Nearest neighbour: RESAMPLE2 and RESAMPLE3 draw ONNX's
nearest_mode, mapped as the provider maps it (round_prefer_floor INCREASING with the input
offsets +0.5, round_prefer_ceil DECREASING -0.5, floor DECREASING, ceil INCREASING); RESAMPLE1
rounds half up (round_prefer_ceil), or floor with the input offsets +0.5; RESAMPLE is
half_pixel rounding half up. LINEAR draws RoundingDirection freely (the pages: it affects only
nearest neighbour). The input and the output each packed or in a random memory order (read and
written through their strides);
values distinct (nearest), with few significant bits, or plain uniform ones; sizes 1 to 9, now
and then the innermost two up to 200 and 40 (past the kernels' tiles); at most 20000 output
elements. The DirectML descriptor runs through libdmlcl (ctypes, the package's
dmlcl._native).

The reference is numpy, written from DirectML's pages and ONNX's Resize. Per dimension the
input coordinate is the pages' OutputX = (InputX + InputPixelOffset)·Scale +
OutputPixelOffset solved for InputX, x = (o - OutputPixelOffset)/Scale - InputPixelOffset,
computed in float32 with each operation correctly rounded (docs/operators.md: DirectML's
float32 arithmetic; one x on every device), then in float64: nearest neighbour the element at
floor(x) (RoundingDirection DECREASING) or ceil(x) (INCREASING) for RESAMPLE2 and RESAMPLE3,
at the pixel centre nearest x, floor(x + 0.5), for RESAMPLE and RESAMPLE1 (their pages: "the
input element nearest to the corresponding pixel center"), and UPSAMPLE_2D's at floor((o +
0.5)/ScaleSize); LINEAR the elements floor(x) and floor(x) + 1 weighted 1 - w and w (w = x -
floor(x)), the product over the dimensions (UPSAMPLE_2D: H and W, at x = (o + 0.5)/s - 0.5);
Antialiased LINEAR along a Scale s < 1 ONNX's antialias filter: taps floor(x) + k, k from
floor(-1/s) + 1 to -floor(-1/s), weighted max(0, 1 - |k - w|·s), normalised to sum 1. Indices
are clamped to the input (the pages: the output edges are clamped; ONNX pads with the edge).
The weighted sums in float64. Tolerances (reference/precision.md, docs/operators.md): nearest
neighbour exact; LINEAR 84 ULP, or where the terms cancel 16 float32 epsilons of Σ|weight·x|
(Antialiased 64), a FLOAT16 output half an ULP of its own more; integer outputs of LINEAR the
weighted sum rounded to nearest (dmlcl's choice: nearest even, saturated) within half a unit
and that bound. The reference was checked against onnx.reference and ONNX Runtime's CPU Resize
on the configurations they take (one transform for every dimension): the differences left are
theirs (onnx.reference's float64 coordinates and Scale·In output length, ONNX Runtime's
identity for a Scale of 1 and its antialiasing's edge taps), each reproduced by one of the two.

    python scripts/diff/resample.py [--seed N] [--cases N] [--only K] [-v]

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import n, memory as _memory, packed as _packed, tensor as _tensor  # noqa: E402

CODES = {"UPSAMPLE_2D": 66, "RESAMPLE": 96, "RESAMPLE1": 116, "RESAMPLE2": 161,
         "RESAMPLE3": 175}  # DML_OPERATOR_*
INTERPOLATIONS = ["NEAREST_NEIGHBOR", "LINEAR"]  # DML_INTERPOLATION_MODE order
DIRECTIONS = ["INCREASING", "DECREASING"]  # DML_AXIS_DIRECTION order
# ONNX nearest_mode -> (RoundingDirection, InputPixelOffset adjustment), DmlOperatorResize.cpp.
NEAREST_MODES = {"round_prefer_floor": ("INCREASING", 0.5),
                 "round_prefer_ceil": ("DECREASING", -0.5), "floor": ("DECREASING", 0.0),
                 "ceil": ("INCREASING", 0.0)}
TRANSFORMS = ["half_pixel", "asymmetric", "pytorch_half_pixel", "align_corners",
              "tf_half_pixel_for_nn"]
SCALES = [0.25, 1 / 3, 0.4, 0.5, 0.6, 0.75, 0.8, 1.25, 1.5, 2.0, 2.25, 2.5, 3.0, 3.5, 4.0]
FLT_MAX = float(np.finfo(np.float32).max)
MAX_OUTPUT = 20000
EPS32 = 2.0**-24
_P = ctypes.POINTER(n.TensorDesc)
_F = ctypes.POINTER(ctypes.c_float)


class ResampleDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("InterpolationMode", ctypes.c_int),
                ("ScaleCount", ctypes.c_uint32), ("Scales", _F)]


_OFFSETS = [("DimensionCount", ctypes.c_uint32), ("Scales", _F), ("InputPixelOffsets", _F),
            ("OutputPixelOffsets", _F)]


class Resample1Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("InterpolationMode", ctypes.c_int)] + _OFFSETS


class Resample2Desc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("InterpolationMode", ctypes.c_int),
                ("RoundingDirection", ctypes.c_int)] + _OFFSETS


class Resample3Desc(ctypes.Structure):
    _fields_ = Resample2Desc._fields_ + [("Antialiased", ctypes.c_int)]


class Size2D(ctypes.Structure):
    _fields_ = [("Width", ctypes.c_uint32), ("Height", ctypes.c_uint32)]


class Upsample2DDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P), ("ScaleSize", Size2D),
                ("InterpolationMode", ctypes.c_int)]


def _floats(values, keep):
    a = (ctypes.c_float * len(values))(*values)
    keep.append(a)
    return a


def _from_memory(mem, shape, strides):
    """The elements of a tensor of `shape` that strides place in mem."""
    idx = np.indices(shape).reshape(len(shape), -1)
    return mem[np.dot(np.array(strides), idx)].reshape(shape)


def f32(v):
    return float(np.float32(v))


def transform(name, size, out, scale):
    """(Scale, InputPixelOffset, OutputPixelOffset) of ONNX's coordinate_transformation_mode
    `name` for one dimension, as ONNX Runtime's DirectML provider maps it (float32 values)."""
    if name in ("half_pixel", "pytorch_half_pixel"):
        if name == "pytorch_half_pixel" and out == 1:
            return FLT_MAX, 0.0, 0.0  # ONNX: coordinate 0 (or -0.5) for a one-element output
        return scale, 0.5, -0.5
    if name == "asymmetric":
        return scale, 0.0, 0.0
    if name == "align_corners":
        return (FLT_MAX if out == 1 or size == 1 else f32((out - 1) / (size - 1))), 0.0, 0.0
    if name == "tf_half_pixel_for_nn":
        return scale, 0.0, -0.5
    # half_pixel_symmetric, in float32 as the provider computes it.
    s, i, o = np.float32(scale), np.float32(size), np.float32(out)
    adjust = (i / np.float32(2.0)) * (np.float32(1.0) - o / (s * i))
    return scale, f32(np.float32(0.5) - adjust), -0.5


def _draw_scale(rng, down=False):
    """A Scale from SCALES or uniform; `down`: below 1 (antialiasing's domain)."""
    choices = [v for v in SCALES if v < 1] if down else SCALES
    if rng.random() < 0.25:
        return f32(rng.uniform(0.2, 1.0) if down else rng.uniform(0.3, 4.0))
    return f32(choices[int(rng.integers(len(choices)))])


def _draw_scaled(rng, down=False, top=9):
    """(input size (1 to top), output size, Scale) of a scaled dimension: ONNX's scales (the
    output floor(In·Scale)) or sizes (the Scale Out/In); now and then the output 1 or 2 off.
    `down`: mostly a Scale below 1."""
    down = down and rng.random() < 0.7
    while True:
        size = int(rng.integers(1, top + 1))
        if rng.random() < 0.3:
            out = int(rng.integers(1, (size if down else 4 * size) + 1))
            scale = f32(out / size)
        else:
            scale = _draw_scale(rng, down)
            out = int(np.floor(size * scale))
        if rng.random() < 0.1:
            out += int(rng.choice([-2, -1, 1, 2]))
        if out >= 1 and scale != 1.0:
            return size, out, scale


def _draw_axes(rng, rank, scaled, transforms, down, wide):
    """Per dimension: input and output size, Scale, offsets and the transform's name; `wide`:
    the innermost two dimensions up to 200 and 40 long."""
    axes = []
    for d in range(rank):
        top = (200 if d == rank - 1 else 40) if wide and d >= rank - 2 else None
        if d in scaled:
            size, out, scale = _draw_scaled(rng, down, top or 9)
        else:
            size = int(rng.integers(1, (top or 4) + 1))
            out, scale = size, 1.0
        name = transforms[int(rng.integers(len(transforms)))]
        s, i, o = transform(name, size, out, scale)
        axes.append(dict(size=size, out=out, scale=s, in_off=i, out_off=o, name=name))
    return axes


def _draw_resample(rng, op, linear, wide):
    rank = int(rng.integers(1, 5))
    scaled = set(rng.choice(rank, size=int(rng.integers(1, rank + 1)), replace=False).tolist())
    if op == "RESAMPLE":
        transforms = ["half_pixel"]
    elif op == "RESAMPLE1":
        transforms = TRANSFORMS
    else:
        transforms = TRANSFORMS + ["half_pixel_symmetric"]
    antialiased = op == "RESAMPLE3" and rng.random() < 0.6
    axes = _draw_axes(rng, rank, scaled, transforms, antialiased and linear, wide)
    rounding = DIRECTIONS[int(rng.integers(2))]
    nearest_mode = None
    if not linear:
        if op in ("RESAMPLE", "RESAMPLE1"):
            # Half up: round_prefer_ceil; floor(x) is half up with the input offsets +0.5.
            nearest_mode = "round_prefer_ceil" if op == "RESAMPLE" or rng.random() < 0.6 \
                else "floor"
            adjust = 0.5 if nearest_mode == "floor" else 0.0
        else:
            nearest_mode = list(NEAREST_MODES)[int(rng.integers(4))]
            rounding, adjust = NEAREST_MODES[nearest_mode]
        for a in axes:
            a["in_off"] = f32(a["in_off"] + adjust)
    return dict(axes=axes, rounding=rounding, nearest_mode=nearest_mode, antialiased=antialiased)


def _draw_upsample(rng, wide):
    rank = int(rng.integers(4, 6))
    axes = []
    for d in range(rank):
        top = (200 if d == rank - 1 else 40) if wide else 9
        size = int(rng.integers(1, (3 if d < rank - 2 else top) + 1))
        s = int(rng.integers(1, 5)) if d >= rank - 2 else 1
        axes.append(dict(size=size, out=size * s, scale=float(s), in_off=0.5, out_off=-0.5,
                         name="half_pixel" if d >= rank - 2 else "-"))
    return dict(axes=axes, rounding="DECREASING", nearest_mode=None, antialiased=False)


def _draw_values(rng, dtype, shape, linear):
    size = int(np.prod(shape))
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        if linear or rng.random() < 0.3:  # the whole range, its extremes included
            return "uniform", rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
        return "distinct", (rng.permutation(size) % 256 + info.min).astype(dtype).reshape(shape)
    kind = str(rng.choice(["distinct", "few bits", "uniform"] if not linear
                          else ["few bits", "few bits", "uniform"]))
    if kind == "distinct":  # exact in FLOAT16 too (4096 values k/8)
        k = rng.permutation(size) % 4096 - 2048
        return kind, (k / 8.0).astype(dtype).reshape(shape)
    if kind == "few bits":
        return kind, (rng.integers(-512, 513, shape) / 128.0).astype(dtype)
    return kind, rng.uniform(-2.0, 2.0, shape).astype(dtype)


def make_case(rng):
    op = str(rng.choice(["RESAMPLE"] * 3 + ["RESAMPLE1"] * 4 + ["RESAMPLE2"] * 5 +
                        ["RESAMPLE3"] * 5 + ["UPSAMPLE_2D"] * 3))
    linear = rng.random() < 0.5
    # Now and then rows and columns past the kernels' tiles (bands of 32 x 512 on CPUs).
    wide = rng.random() < 0.1
    while True:
        geo = (_draw_upsample(rng, wide) if op == "UPSAMPLE_2D"
               else _draw_resample(rng, op, linear, wide))
        out_shape = [a["out"] for a in geo["axes"]]
        if int(np.prod(out_shape)) <= MAX_OUTPUT:
            break
    x_shape = [a["size"] for a in geo["axes"]]
    if op != "UPSAMPLE_2D" and rng.random() < 0.15:
        dtype = [np.int8, np.uint8][int(rng.integers(2))]
    else:
        dtype = np.float16 if rng.random() < 0.3 else np.float32
    kind, x = _draw_values(rng, dtype, x_shape, linear)
    order = rng.permutation(len(x_shape)).tolist() if rng.random() < 0.25 else None
    out_order = rng.permutation(len(x_shape)).tolist() if rng.random() < 0.15 else None
    return dict(geo, op=op, linear=linear, dtype=dtype, x_shape=x_shape, out_shape=out_shape,
                x=x, values=kind, order=order, out_order=out_order)


def run_dml(case):
    keep = []
    dt = case["dtype"]
    x_strides = _packed(case["x_shape"], case["order"])
    tx = _tensor(dt, case["x_shape"], x_strides, keep)
    out_strides = _packed(case["out_shape"], case["out_order"])
    to = _tensor(dt, case["out_shape"], out_strides, keep)
    axes, mode = case["axes"], int(case["linear"])
    scales = _floats([a["scale"] for a in axes], keep)
    offsets = [len(axes), scales, _floats([a["in_off"] for a in axes], keep),
               _floats([a["out_off"] for a in axes], keep)]
    rounding = DIRECTIONS.index(case["rounding"])
    if case["op"] == "UPSAMPLE_2D":
        size = Size2D(int(axes[-1]["scale"]), int(axes[-2]["scale"]))
        d = Upsample2DDesc(tx, to, size, mode)
    elif case["op"] == "RESAMPLE":
        d = ResampleDesc(tx, to, mode, len(axes), scales)
    elif case["op"] == "RESAMPLE1":
        d = Resample1Desc(tx, to, mode, *offsets)
    elif case["op"] == "RESAMPLE2":
        d = Resample2Desc(tx, to, mode, rounding, *offsets)
    else:
        d = Resample3Desc(tx, to, mode, rounding, *offsets, int(case["antialiased"]))
    keep.append(d)
    op = n.OperatorDesc(CODES[case["op"]], ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    mem = n.execute(ctypes.pointer(op), [_memory(case["x"], x_strides)],
                    [int(np.prod(case["out_shape"]))], dt)
    return _from_memory(mem, case["out_shape"], out_strides)


def coordinates(out, scale, in_off, out_off):
    """x = (o - OutputPixelOffset)/Scale - InputPixelOffset for o < out, in float32 (numpy's
    float32 operations are IEEE's, each correctly rounded), returned as float64."""
    u = np.arange(out, dtype=np.float32) - np.float32(out_off)
    return ((u / np.float32(scale)) - np.float32(in_off)).astype(np.float64)


def _nearest_indices(case, a):
    """One dimension's input index per output coordinate, clamped to the input."""
    if case["op"] == "UPSAMPLE_2D":
        i = np.floor((np.arange(a["out"]) + 0.5) / a["scale"])
    else:
        x = coordinates(a["out"], a["scale"], a["in_off"], a["out_off"])
        if case["op"] in ("RESAMPLE", "RESAMPLE1"):
            i = np.floor(x + 0.5)
        else:
            i = np.ceil(x) if case["rounding"] == "INCREASING" else np.floor(x)
    return np.clip(i, 0, a["size"] - 1).astype(np.int64)


def _weights(case, a):
    """One dimension's (out × in) weight matrix: LINEAR's two neighbours, or the antialiasing
    filter along a Scale below 1; taps past an edge fall on the edge element."""
    size, out = a["size"], a["out"]
    w = np.zeros((out, size))
    if case["op"] == "UPSAMPLE_2D" and a["name"] == "-":
        w[np.arange(out), np.arange(out)] = 1.0
        return w
    x = coordinates(out, a["scale"], a["in_off"], a["out_off"])
    f = np.floor(x)
    frac = x - f
    s = min(float(np.float32(a["scale"])), 1.0)
    if not (case["antialiased"] and s < 1.0):
        taps, coeffs = np.array([0, 1]), np.stack([1 - frac, frac], axis=1)
    else:  # ONNX Resize's _linear_coeffs_antialias
        start = int(np.floor(-1.0 / s)) + 1
        taps = np.arange(start, 1 - start + 1)
        coeffs = np.clip(1 - np.abs(taps[None, :] - frac[:, None]) * s, 0, 1)
        coeffs = coeffs / coeffs.sum(axis=1, keepdims=True)
    for k, t in enumerate(taps):
        idx = np.clip(f + t, 0, size - 1).astype(np.int64)
        np.add.at(w, (np.arange(out), idx), coeffs[:, k])
    return w


def _apply(x, mats):
    """x with each dimension d contracted against mats[d] (out × in)."""
    for d, m in enumerate(mats):
        x = np.moveaxis(np.tensordot(m, x, axes=([1], [d])), 0, d)
    return x


def reference(case):
    """(expected, per-element absolute bound): nearest neighbour the input's own elements (bound
    None), LINEAR the float64 weighted sums and the cancellation bound."""
    axes = case["axes"]
    if not case["linear"]:
        return case["x"][np.ix_(*[_nearest_indices(case, a) for a in axes])], None
    mats = [_weights(case, a) for a in axes]
    x = case["x"].astype(np.float64)
    eps = (64 if case["antialiased"] else 16) * EPS32
    return _apply(x, mats), eps * _apply(np.abs(x), [np.abs(m) for m in mats])


def check(case, got):
    want, bound = reference(case)
    dt = case["dtype"]
    if bound is None:
        if np.dtype(dt).kind in "iu":
            return np.flatnonzero(got != want), want
        return np.flatnonzero(ulps(got, want, dt) != 0), want
    g = got.astype(np.float64)
    if np.dtype(dt).kind in "iu":
        info = np.iinfo(dt)
        near = np.clip(want, info.min, info.max)
        return np.flatnonzero(np.abs(g - near) > 0.5 + bound), want
    # A FLOAT16 output: the float32 result rounded once more, half an ULP of its own.
    slack = np.abs(want) * (2.0**-11 if dt == np.float16 else 0.0)
    close = (ulps(got, want, dt) <= 84) | (np.abs(g - want) <= bound + slack)
    return np.flatnonzero(~close), want


def _fmt(values):
    return "[" + ", ".join(f"{v:.9g}" for v in values) + "]"


def describe(case):
    axes = case["axes"]
    layout = f"order {case['order']}" if case["order"] else "packed"
    out_layout = f"order {case['out_order']}" if case["out_order"] else "packed"
    text = (f"{case['op']} {np.dtype(case['dtype']).name} "
            f"{INTERPOLATIONS[int(case['linear'])]} In{case['x_shape']} ({layout}) "
            f"Out{case['out_shape']} ({out_layout})")
    if case["op"] == "UPSAMPLE_2D":
        return (text + f" ScaleSize {{Width {int(axes[-1]['scale'])}, Height "
                f"{int(axes[-2]['scale'])}}} values {case['values']}")
    text += f" Scales {_fmt(a['scale'] for a in axes)}"
    if case["op"] != "RESAMPLE":
        text += (f" InputPixelOffsets {_fmt(a['in_off'] for a in axes)} OutputPixelOffsets "
                 f"{_fmt(a['out_off'] for a in axes)} ({', '.join(a['name'] for a in axes)})")
    if case["op"] in ("RESAMPLE2", "RESAMPLE3"):
        text += f" RoundingDirection {case['rounding']}"
    if case["op"] == "RESAMPLE3":
        text += f" Antialiased {int(case['antialiased'])}"
    if case["nearest_mode"]:
        text += f" (nearest_mode {case['nearest_mode']})"
    return text + f" values {case['values']}"


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("resampling", make_case, run_dml, check, describe, n.Error, seed, cases,
                     only, verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 300, argv)


if __name__ == "__main__":
    sys.exit(main())
