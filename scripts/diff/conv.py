#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random differential tests of dmlcl's CONVOLUTION against numpy.

Each case draws FLOAT32 or FLOAT16, 1, 2 or 3 spatial dimensions (input sizes 1 to 9, batch 1
or 2, filter sizes 1 to 3), Mode CONVOLUTION or CROSS_CORRELATION, Direction FORWARD or
BACKWARD (transposed, OutputPadding below the stride or the dilation, as ONNX's ConvTranspose
allows), Strides and Dilations 1 to 3, StartPadding and EndPadding 0 to 2 apart, GroupCount 1,
a divisor of the channels or the channel count (depthwise), BiasTensor present or absent and a
fused RELU or SIGMOID now and then; the input packed or channels-last in memory (read through
its strides); values with few significant bits, or plain uniform ones; at most 20000 output
elements. The DirectML descriptor runs through libdmlcl (ctypes, the package's dmlcl._native).
The reference is numpy in float64 written from ONNX's Conv (FORWARD) and ConvTranspose
(BACKWARD, the output size (In - 1)·Strides + (K - 1)·Dilations + 1 + OutputPadding -
StartPadding - EndPadding) definitions, with the taps flipped (k -> K - 1 - k) in CONVOLUTION
mode in both directions (DirectML's DML_CONVOLUTION_MODE page: CONVOLUTION flips the filter of
a forward convolution, CROSS_CORRELATION that of a backward one seen as a forward convolution
over a zero-inserted input, which is ConvTranspose with the filter as stored; ONNX Runtime's
DirectML provider maps Conv and ConvTranspose both to CROSS_CORRELATION). Tolerance
(reference/precision.md): 2·taps ULP (taps = the filter volume times the input channels of a
group), +1 for the bias, or where the sum cancels 2·(taps + 1)·2^-24·Σ|x·w| + 2^-23·|bias|
(float32 accumulation; a FLOAT16 output one rounding more), plus the activation's own.

    python scripts/diff/conv.py [--seed N] [--cases N] [--only K] [-v]

Prints the cases run and each mismatch with its replay line (--seed S --only K); exits 1 on any
mismatch or dmlcl error.
"""
import ctypes
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import main as cases_main, run_cases, ulps  # noqa: E402  (after the path)
from native import (  # noqa: E402  (after the path)
    n,
    memory as _memory,
    packed as _packed,
    tensor as _tensor,
    uints as _uints,
)

CONVOLUTION = 53  # DML_OPERATOR_CONVOLUTION
RELU, SIGMOID = 44, 47  # DML_OPERATOR_ACTIVATION_RELU, _SIGMOID
MODES = ["CONVOLUTION", "CROSS_CORRELATION"]  # DML_CONVOLUTION_MODE order
DIRECTIONS = ["FORWARD", "BACKWARD"]  # DML_CONVOLUTION_DIRECTION order
MAX_OUTPUT = 20000
_P = ctypes.POINTER(n.TensorDesc)
_U = ctypes.POINTER(ctypes.c_uint32)


class ConvDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Filter", _P), ("Bias", _P), ("Out", _P), ("Mode", ctypes.c_int),
                ("Direction", ctypes.c_int), ("DimensionCount", ctypes.c_uint32),
                ("Strides", _U), ("Dilations", _U), ("StartPadding", _U), ("EndPadding", _U),
                ("OutputPadding", _U), ("GroupCount", ctypes.c_uint32),
                ("Fused", ctypes.POINTER(n.OperatorDesc))]


class ActDesc(ctypes.Structure):
    _fields_ = [("In", _P), ("Out", _P)]


def out_sizes(direction, sizes, kernel, strides, dilations, start, end, out_pad):
    """ONNX's output size per spatial axis (Conv; ConvTranspose with output_padding)."""
    out = []
    for i, k in enumerate(kernel):
        window = (k - 1) * dilations[i] + 1
        if direction == "FORWARD":
            out.append((sizes[i] + start[i] + end[i] - window) // strides[i] + 1)
        else:
            out.append((sizes[i] - 1) * strides[i] + window + out_pad[i] - start[i] - end[i])
    return out


def _draw_geometry(rng):
    """Channels, groups and the spatial arrays; None where the draw breaks a rule (the window
    past the padded input, no BACKWARD output) or the output is too large."""
    sp = int(rng.integers(1, 4))
    direction = DIRECTIONS[int(rng.integers(2))]
    kind = rng.choice(["single", "single", "divisor", "depthwise"])
    if kind == "depthwise":
        groups = int(rng.integers(1, 9))
        cin_g, cout_g = 1, int(rng.integers(1, 3))
    else:
        groups = 1 if kind == "single" else int(rng.integers(2, 5))
        cin_g, cout_g = int(rng.integers(1, 6)), int(rng.integers(1, 6))
    batch = int(rng.integers(1, 3))
    sizes = [int(rng.integers(1, 10)) for _ in range(sp)]
    kernel = [int(rng.integers(1, 4)) for _ in range(sp)]
    strides = [int(rng.integers(1, 4)) for _ in range(sp)]
    dilations = [int(rng.integers(1, 4)) for _ in range(sp)]
    start = [int(rng.integers(0, 3)) for _ in range(sp)]
    end = [int(rng.integers(0, 3)) for _ in range(sp)]
    out_pad = [0] * sp
    if direction == "BACKWARD":
        out_pad = [int(rng.integers(0, max(s, d))) for s, d in zip(strides, dilations)]
    out = out_sizes(direction, sizes, kernel, strides, dilations, start, end, out_pad)
    if direction == "FORWARD" and any((k - 1) * d + 1 > s + a + b for k, d, s, a, b in
                                      zip(kernel, dilations, sizes, start, end)):
        return None
    if min(out) < 1 or batch * groups * cout_g * int(np.prod(out)) > MAX_OUTPUT:
        return None
    return dict(sp=sp, direction=direction, groups=groups, cin=groups * cin_g,
                cout=groups * cout_g, batch=batch, sizes=sizes, kernel=kernel, strides=strides,
                dilations=dilations, start=start, end=end, out_pad=out_pad, out=out)


def make_case(rng):
    geo = None
    while geo is None:
        geo = _draw_geometry(rng)
    case = dict(geo)
    dtype = np.float16 if rng.random() < 0.3 else np.float32
    mode = MODES[int(rng.integers(2))]
    plain = rng.random() < 0.3
    g, cin, cout = geo["groups"], geo["cin"], geo["cout"]
    x_shape = [geo["batch"], cin] + geo["sizes"]
    if geo["direction"] == "FORWARD":
        w_shape = [cout, cin // g] + geo["kernel"]
    else:
        w_shape = [cin, cout // g] + geo["kernel"]

    def draw(shape):
        if plain:
            return rng.uniform(-1.0, 1.0, shape).astype(dtype)
        return (rng.integers(-512, 513, shape) / 128.0).astype(dtype)
    has_bias = rng.random() < 0.5
    act = None if rng.random() < 0.7 else ("relu" if rng.random() < 0.5 else "sigmoid")
    # Channels-last memory ({N, spatial..., C}), read through the input's strides.
    order = [0] + list(range(2, 2 + geo["sp"])) + [1] if rng.random() < 0.25 else None
    case.update(dtype=dtype, mode=mode, plain=plain, x=draw(x_shape), w=draw(w_shape),
                bias=draw([1, cout] + [1] * geo["sp"]) if has_bias else None, act=act,
                order=order, x_shape=x_shape, w_shape=w_shape,
                out_shape=[geo["batch"], cout] + geo["out"])
    return case


def run_dml(case):
    keep = []
    dt = case["dtype"]
    x_strides = _packed(case["x_shape"], case["order"])
    tx = _tensor(dt, case["x_shape"], x_strides, keep)
    tw = _tensor(dt, case["w_shape"], _packed(case["w_shape"]), keep)
    b_shape = [1, case["cout"]] + [1] * case["sp"]
    tb = _tensor(dt, b_shape, _packed(b_shape), keep) if case["bias"] is not None else None
    to = _tensor(dt, case["out_shape"], _packed(case["out_shape"]), keep)
    fused = None
    if case["act"]:
        ad = ActDesc(None, None)
        od = n.OperatorDesc(RELU if case["act"] == "relu" else SIGMOID,
                            ctypes.cast(ctypes.pointer(ad), ctypes.c_void_p))
        keep += [ad, od]
        fused = ctypes.pointer(od)
    d = ConvDesc(tx, tw, tb, to, MODES.index(case["mode"]), DIRECTIONS.index(case["direction"]),
                 case["sp"], _uints(case["strides"], keep), _uints(case["dilations"], keep),
                 _uints(case["start"], keep), _uints(case["end"], keep),
                 _uints(case["out_pad"], keep), case["groups"], fused)
    keep.append(d)
    op = n.OperatorDesc(CONVOLUTION, ctypes.cast(ctypes.pointer(d), ctypes.c_void_p))
    inputs = [_memory(case["x"], x_strides), case["w"], case["bias"]]
    return n.execute(ctypes.pointer(op), inputs, case["out_shape"], dt)


def _forward(x, w, case):
    """ONNX Conv: y[n, m, o] = Σ x[n, c, o·s + k·d - start]·w[m, c', k] over the group's input
    channels c and the taps k; positions outside the input read 0."""
    g, sp, out = case["groups"], case["sp"], case["out"]
    nb, cin = x.shape[:2]
    cout = w.shape[0]
    pad = [(0, 0), (0, 0)] + list(zip(case["start"], case["end"]))
    xp = np.pad(x, pad)
    y = np.zeros([nb, cout] + out)
    for k in np.ndindex(*case["kernel"]):
        at = tuple(slice(k[i] * case["dilations"][i],
                         k[i] * case["dilations"][i] + (out[i] - 1) * case["strides"][i] + 1,
                         case["strides"][i]) for i in range(sp))
        patch = xp[(slice(None), slice(None)) + at].reshape([nb, g, cin // g] + out)
        wk = w[(slice(None), slice(None)) + k].reshape(g, cout // g, cin // g)
        y += np.einsum("ngc...,gmc->ngm...", patch, wk).reshape([nb, cout] + out)
    return y


def _backward(x, w, case):
    """ONNX ConvTranspose: y[n, m, o] = Σ x[n, c, i]·w[c, m', k] over i·s + k·d - start = o,
    the group's input channels c and the taps k (a scatter of every input element)."""
    g, sp, out = case["groups"], case["sp"], case["out"]
    nb, cin = x.shape[:2]
    cout = w.shape[1] * g
    sizes, s, d = case["sizes"], case["strides"], case["dilations"]
    full = [max((sizes[i] - 1) * s[i] + (case["kernel"][i] - 1) * d[i] + 1,
                case["start"][i] + out[i]) for i in range(sp)]
    buf = np.zeros([nb, cout] + full)
    xg = x.reshape([nb, g, cin // g] + sizes)
    for k in np.ndindex(*case["kernel"]):
        wk = w[(slice(None), slice(None)) + k].reshape(g, cin // g, cout // g)
        z = np.einsum("ngc...,gcm->ngm...", xg, wk).reshape([nb, cout] + sizes)
        at = tuple(slice(k[i] * d[i], k[i] * d[i] + (sizes[i] - 1) * s[i] + 1, s[i])
                   for i in range(sp))
        buf[(slice(None), slice(None)) + at] += z
    crop = tuple(slice(case["start"][i], case["start"][i] + out[i]) for i in range(sp))
    return buf[(slice(None), slice(None)) + crop]


def taps(case):
    """The products one output element sums at most: the filter volume times a group's input
    channels (both directions)."""
    return int(np.prod(case["kernel"])) * (case["cin"] // case["groups"])


def reference(case):
    """Exact value and accumulation bound, float64."""
    x = case["x"].astype(np.float64)
    w = case["w"].astype(np.float64)
    if case["mode"] == "CONVOLUTION":
        w = w[(slice(None), slice(None)) + (slice(None, None, -1),) * case["sp"]]
    conv = _forward if case["direction"] == "FORWARD" else _backward
    y = conv(x, w, case)
    bound = 2 * (taps(case) + 1) * 2.0**-24 * conv(np.abs(x), np.abs(w), case)
    if case["bias"] is not None:
        b = case["bias"].astype(np.float64)
        y = y + b
        bound = bound + 2.0**-23 * np.abs(b)
    if case["act"] == "relu":
        y = np.maximum(y.astype(np.float32).astype(np.float64), 0)
    elif case["act"] == "sigmoid":
        y = 1 / (1 + np.exp(-y.astype(np.float32).astype(np.float64)))
        bound = bound + 2.0**-20  # sigmoid's 34 ULP near 1, within its slope of 1/4
    return y, bound


def check(case, got):
    want, bound = reference(case)
    dt = case["dtype"]
    tol = 2 * taps(case) + (case["bias"] is not None) + (34 if case["act"] == "sigmoid" else 0)
    # A FLOAT16 output: the float32 result rounded once more, half an ULP of its own.
    slack = np.abs(want) * (2.0**-11 if dt == np.float16 else 0.0)
    u = ulps(got, want, dt)
    close = (u <= tol) | (np.abs(got.astype(np.float64) - want) <= bound + slack) | (u <= 1)
    return np.flatnonzero(~close), want


def describe(case):
    bias = "-" if case["bias"] is None else "yes"
    layout = "channels-last" if case["order"] else "packed"
    return (f"{np.dtype(case['dtype']).name} {case['mode']} {case['direction']} "
            f"In{case['x_shape']} ({layout}) Filter{case['w_shape']} Out{case['out_shape']} "
            f"Strides {case['strides']} Dilations {case['dilations']} StartPadding "
            f"{case['start']} EndPadding {case['end']} OutputPadding {case['out_pad']} "
            f"GroupCount {case['groups']} Bias {bias} act {case['act']} "
            f"values {'uniform' if case['plain'] else 'few bits'}")


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    return run_cases("CONVOLUTION", make_case, run_dml, check, describe, n.Error, seed, cases,
                     only, verbose, out)


def main(argv=None):
    return cases_main(run, __doc__, 200, argv)


if __name__ == "__main__":
    sys.exit(main())
