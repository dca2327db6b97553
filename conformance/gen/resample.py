# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/resample.json: DirectML's resampling operators,
UPSAMPLE_2D, RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 and VALUE_SCALE_2D: worked examples,
generated cases (ranks 1 to 4, UPSAMPLE_2D's 5, FLOAT32, FLOAT16, INT8, UINT8, nearest
neighbour with both rounding directions and LINEAR, scales up and down, integral and not,
the offsets of every ONNX coordinate_transformation_mode as ONNX Runtime's DirectML provider
maps them (DmlOperatorResize.cpp), outputs cropped and clamped, strided inputs and outputs),
ONNX Resize-19 configurations checked against onnx.reference (antialias=1 as RESAMPLE3's
Antialiased too), one case per validation rule, and graphs/resample.json's computed nodes in
graphs.

Expected values: DirectML's coordinate transform, OutputX = (InputX + InputPixelOffset) * Scale
+ OutputPixelOffset solved for InputX, as dmlcl states it (docs/operators.md): x = (o -
OutputPixelOffset) / Scale - InputPixelOffset in float32, the quotient q = u * (1 / Scale)
corrected once by fma(fma(-q, Scale, u), 1 / Scale, q) (the correctly rounded quotient); nearest takes floor(x) (DECREASING) or ceil(x) (INCREASING), and UPSAMPLE_2D,
RESAMPLE, RESAMPLE1 round half up (floor with InputPixelOffset 0.5 less); LINEAR weighs
floor(x) and floor(x) + 1 by 1 - w and w (w = x - floor(x)); indices clamped to the input. The
weighted sums in float64 with numpy, rounded once to the output type (integers to nearest even,
saturated). Antialiased LINEAR along a Scale s < 1: taps floor(x) + k, k from floor(-1/s) + 1
to -floor(-1/s), weighted max(0, 1 - |k - frac(x)| s), normalised per dimension. LINEAR cases carry 84 ULPs (precision.md) or an absolute bound of 16 float32
epsilons of the largest sum of |weight * input| where the terms may cancel.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/resample.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
EPS32 = 2.0 ** -24


def f32(v):
    return float(np.float32(v))


def stored(t, a):
    return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


# ---- DirectML's transform (float32 coordinates, float64 sums) ------------------------------

def fma32(o, a, b):
    """fma(o, a, b) of float32 values in float32, rounded once: o * a is exact in float64; the
    sum's float64 rounding error is recovered (two-sum) to break a float32 tie the right way."""
    p = float(o) * float(a)
    s = p + float(b)
    bb = s - p
    e = (p - (s - bb)) + (float(b) - bb)
    f = np.float32(s)
    if e != 0 and float(f) != s:
        lo = np.nextafter(f, np.float32(-np.inf)) if float(f) > s else f
        hi = np.nextafter(lo, np.float32(np.inf))
        if s - float(lo) == float(hi) - s:
            f = hi if e > 0 else lo
    return float(f)


def coordinates(n_out, scale, in_off, out_off):
    """x per output coordinate: (o - out_off) / scale - in_off in float32, the quotient
    corrected once (the correctly rounded quotient)."""
    y = f32(scale)
    inv = f32(1.0 / y)
    out_off, in_off = f32(out_off), f32(in_off)
    xs = []
    for o in range(n_out):
        u = f32(o - out_off)
        q = 0.0 if u == 0 else f32(u * inv)  # 0 / Scale is 0, whatever 1 / Scale rounds to
        if math.isfinite(q):  # a quotient past float's range rounds to infinity
            q = fma32(fma32(-q, y, u), inv, q)
        xs.append(f32(q - in_off))
    return xs


def antialias_taps(n_in, n_out, scale, in_off, out_off):
    """Per output coordinate: [(index, normalised weight)] of the stretched triangle filter
    (ONNX Resize's antialias; indices clamped, weight-0 taps left out)."""
    s = min(f32(scale), 1.0)
    inv = f32(1.0 / f32(scale)) if f32(scale) < 1.0 else 1.0
    start = math.floor(-inv) + 1
    got = []
    for x in coordinates(n_out, scale, in_off, out_off):
        f = math.floor(x)
        ratio = x - f
        ws = [max(0.0, 1.0 - abs(k - ratio) * s) for k in range(start, 2 - start)]
        total = sum(ws)
        got.append([(min(max(f + k, 0), n_in - 1), w / total)
                    for k, w in zip(range(start, 2 - start), ws) if w != 0])
    return got


def axis_map(n_in, n_out, scale, in_off, out_off, linear, ceil, half_up):
    """Per output coordinate: (i0, i1, w)."""
    if not linear and half_up:
        in_off = in_off - 0.5
    y = f32(scale)
    inv = f32(1.0 / y)
    out_off, in_off = f32(out_off), f32(in_off)
    got = []
    for o in range(n_out):
        u = f32(o - out_off)
        q = 0.0 if u == 0 else f32(u * inv)  # 0 / Scale is 0, whatever 1 / Scale rounds to
        if math.isfinite(q):  # a quotient past float's range rounds to infinity
            q = fma32(fma32(-q, y, u), inv, q)
        x = f32(q - in_off)
        f = x if math.isinf(x) else math.ceil(x) if (not linear and ceil) else math.floor(x)
        w = 0.0
        if not f >= 0:
            i0 = 0
        elif f >= n_in - 1:
            i0 = n_in - 1
        else:
            i0 = int(f)
            if linear:
                w = x - f
        got.append((i0, i0 + 1 if w != 0 else i0, w))
    return got


def resample(x, out_shape, scales, in_offs, out_offs, linear, ceil=False, half_up=False,
             antialias=False):
    """The output (float64) and the sum of |weight * input| per element."""
    if linear and antialias and any(f32(s) < 1.0 for s in scales):
        taps = [antialias_taps(x.shape[d], out_shape[d], scales[d], in_offs[d], out_offs[d])
                for d in range(x.ndim)]
        y = np.zeros(out_shape)
        mag = np.zeros(out_shape)
        for idx in np.ndindex(*out_shape):
            terms = [((), 1.0)]
            for d, o in enumerate(idx):
                terms = [(at + (i,), wt * w) for at, wt in terms for i, w in taps[d][o]]
            y[idx] = sum(wt * x[at] for at, wt in terms)
            mag[idx] = sum(abs(wt * x[at]) for at, wt in terms)
        return y, mag
    maps = [axis_map(x.shape[d], out_shape[d], scales[d], in_offs[d], out_offs[d], linear, ceil,
                     half_up) for d in range(x.ndim)]
    y = np.zeros(out_shape)
    mag = np.zeros(out_shape)
    for idx in np.ndindex(*out_shape):
        terms = [((), 1.0)]
        for d, o in enumerate(idx):
            i0, i1, w = maps[d][o]
            nxt = []
            for at, wt in terms:
                nxt.append((at + (i0,), wt * (1 - w)))
                if w != 0:
                    nxt.append((at + (i1,), wt * w))
            terms = nxt
        s = sum(wt * x[at] for at, wt in terms)
        y[idx] = s
        mag[idx] = sum(abs(wt * x[at]) for at, wt in terms)
    return y, mag


def as_output(t, y):
    if t in ("INT8", "UINT8"):
        lo, hi = (-128, 127) if t == "INT8" else (0, 255)
        return np.clip(np.rint(y), lo, hi)
    return y


# ---- Cases ---------------------------------------------------------------------------------

def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None, tolerance=None,
         source=None):
    c = {"name": name,
         "source": source or f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else
                                                                     "semantics"),
         "op": "DML_OPERATOR_" + op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if tolerance:
        c["tolerance"] = tolerance
    if note:
        c["note"] = note
    return c


MODES = {False: "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR", True: "DML_INTERPOLATION_MODE_LINEAR"}
DIRS = {False: "DML_AXIS_DIRECTION_DECREASING", True: "DML_AXIS_DIRECTION_INCREASING"}


def linear_tolerance(t, mag, eps=16):
    if t in ("INT8", "UINT8"):
        return None
    m = float(mag.max()) if mag.size else 0.0
    return {"ulp": 84, "abs": eps * EPS32 * m} if m > 0 else {"ulp": 84}


def data(rng, t, shape):
    if t == "INT8":
        return rng.integers(-128, 128, size=shape).astype(np.float64)
    if t == "UINT8":
        return rng.integers(0, 256, size=shape).astype(np.float64)
    return stored(t, rng.uniform(-10, 10, size=shape))


def resample_case(name, version, t, x, out_shape, scales, in_offs, out_offs, linear, ceil=False,
                  in_strides=None, out_strides=None, note=None, antialiased=None):
    op = "RESAMPLE" + ("" if version == 0 else str(version))
    half_up = version < 2
    y, mag = resample(x, out_shape, scales, in_offs, out_offs, linear, ceil and not half_up,
                      half_up, bool(antialiased))
    attrs = {"InterpolationMode": MODES[linear], "Scales": [f32(s) for s in scales]}
    if version >= 1:
        attrs["InputPixelOffsets"] = [f32(v) for v in in_offs]
        attrs["OutputPixelOffsets"] = [f32(v) for v in out_offs]
    if version >= 2:
        attrs["RoundingDirection"] = DIRS[ceil]
    if version == 3 and antialiased is not None:
        attrs["Antialiased"] = antialiased
    inp = tensor(t, x)
    if in_strides:
        inp["strides"] = in_strides
    inputs = {"InputTensor": inp}
    out = tensor(t, as_output(t, y))
    if out_strides:
        inputs["OutputTensor"] = {"type": t, "shape": list(out_shape), "strides": out_strides}
    tol = linear_tolerance(t, mag, 64 if antialiased else 16) if linear else None
    return case(name, op, inputs, {"OutputTensor": out}, attrs=attrs, note=note, tolerance=tol)


def worked_cases():
    got = []
    x = np.array([1.0, 2.0, 4.0])
    for version in (0, 1, 2):
        for linear in (False, True):
            got.append(resample_case(
                f"directml.resample{version or ''}.worked-1d-x2-{'linear' if linear else 'nearest'}",
                version, "FLOAT32", x, [6], [2.0], [0.5], [-0.5], linear,
                note="pixel centres: x = (o + 0.5) / 2 - 0.5; linear 1, 1.25, 1.75, 2.5, 3.5, 4; "
                     "nearest half up 1, 1, 2, 2, 4, 4 (RESAMPLE2 DECREASING: floor)"))
    got.append(resample_case("directml.resample2.worked-1d-x2-ceil", 2, "FLOAT32", x, [6], [2.0],
                             [0.5], [-0.5], False, ceil=True,
                             note="INCREASING: ceil(x) = 0, 1, 1, 2, 2, 3 -> 2 (clamped)"))
    got.append(resample_case("directml.resample1.worked-asymmetric-down2", 1, "FLOAT32",
                             np.arange(1.0, 7.0), [3], [0.5], [0.0], [0.0], False,
                             note="x = 2o: the even elements"))
    got.append(resample_case("directml.resample1.worked-crop", 1, "FLOAT32", x, [4], [2.0], [0.5],
                             [-0.5], True, note="an output shorter than in * scale: cropped"))
    got.append(resample_case("directml.resample1.worked-clamp", 1, "FLOAT32", x, [9], [2.0],
                             [0.5], [-0.5], True,
                             note="an output longer than in * scale: the edge repeats"))
    return got


# ONNX Runtime's DirectML provider's map from ONNX Resize's coordinate_transformation_mode to
# (input offset, output offset, scale) per axis, and from nearest_mode to (rounding up, input
# offset adjustment).
def onnx_axis(mode, n_in, n_out, scale, roi=(0.0, 1.0)):
    if mode == "half_pixel":
        return 0.5, -0.5, scale
    if mode == "half_pixel_symmetric":
        adj = n_out / (scale * n_in)
        return 0.5 - (n_in / 2.0) * (1.0 - adj), -0.5, scale
    if mode == "pytorch_half_pixel":
        return (0.0, 0.0, 3.4028234663852886e38) if n_in <= 1 else (0.5, -0.5, scale)
    if mode == "align_corners":
        if n_out <= 1 or n_in <= 1:
            return 0.0, 0.0, 3.4028234663852886e38
        return 0.0, 0.0, (n_out - 1) / (n_in - 1)
    if mode == "asymmetric":
        return 0.0, 0.0, scale
    if mode == "tf_half_pixel_for_nn":
        return 0.0, -0.5, scale
    raise ValueError(mode)


NEAREST_MODES = {"round_prefer_floor": (True, 0.5), "round_prefer_ceil": (False, -0.5),
                 "floor": (False, 0.0), "ceil": (True, 0.0)}


def onnx_reference(x, mode, nearest_mode, coord, scales, antialias=0):
    """ONNX Resize-19 on x, by onnx.reference's evaluator."""
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
    attrs = {"mode": mode, "coordinate_transformation_mode": coord, "antialias": antialias}
    if nearest_mode:
        attrs["nearest_mode"] = nearest_mode
    node = helper.make_node("Resize", ["X", "", "S"], ["Y"], **attrs)
    graph = helper.make_graph(
        [node], "resize", [helper.make_tensor_value_info("X", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("S", TensorProto.FLOAT, None)],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)])
    return ReferenceEvaluator(model).run(None, {"X": x, "S": np.array(scales, np.float32)})[0]


def ties_only(y, want, shape, out_shape, scales, in_offs, out_offs):
    """Where nearest neighbour's results differ only at coordinates that are a rounding
    boundary in exact arithmetic (an integer, or a half for the round_prefer modes): float32
    (dmlcl, DirectML) and onnx.reference's float64 round them apart, and neither is wrong."""
    near = []
    for d in range(len(shape)):
        s = float(np.float32(scales[d]))
        xs = [(o - out_offs[d]) / s - in_offs[d] for o in range(out_shape[d])]
        near.append({o for o, x in enumerate(xs) if abs(x * 2 - round(x * 2)) < 1e-5})
    for idx in zip(*np.nonzero(y.astype(np.float32) != want.astype(np.float32))):
        if not any(idx[d] in near[d] for d in range(len(shape))):
            return False
    return True


def onnx_cases(rng):
    got = []
    coords = ["half_pixel", "half_pixel_symmetric", "pytorch_half_pixel", "align_corners",
              "asymmetric", "tf_half_pixel_for_nn"]
    shapes = [([1, 1, 4, 4], [1, 1, 2.0, 2.0]), ([1, 2, 4, 6], [1, 1, 0.5, 0.75]),
              ([1, 1, 3, 5], [1, 1, 1.7, 0.6]), ([2, 3, 2], [1, 1, 3.0])]
    for coord in coords:
        for mode in ("nearest", "linear"):
            for nearest_mode in (NEAREST_MODES if mode == "nearest" else [None]):
                shape, scales = shapes[len(got) % len(shapes)]
                x = stored("FLOAT32", rng.uniform(-10, 10, size=shape)).astype(np.float32)
                out_shape = [int(math.floor(s * f32(k))) for s, k in zip(shape, scales)]
                old = coord == "tf_half_pixel_for_nn"  # Resize-11 only: not onnx.reference's
                want = None if old else onnx_reference(x, mode, nearest_mode, coord,
                                                       scales).astype(np.float64)
                in_offs, out_offs, sc = [], [], []
                for d in range(len(shape)):
                    io, oo, s = onnx_axis(coord, shape[d], out_shape[d], scales[d])
                    in_offs.append(io)
                    out_offs.append(oo)
                    sc.append(s)
                ceil = False
                if mode == "nearest":
                    ceil, adj = NEAREST_MODES[nearest_mode]
                    in_offs = [v + adj for v in in_offs]
                # The descriptor's FLOATs.
                in_offs, out_offs, sc = ([f32(v) for v in in_offs], [f32(v) for v in out_offs],
                                         [f32(v) for v in sc])
                y, mag = resample(x.astype(np.float64), out_shape, sc, in_offs, out_offs,
                                  mode == "linear", ceil, False)
                tag = f"{coord}-{mode}" + (f"-{nearest_mode}" if nearest_mode else "")
                if old:
                    agree = True
                elif mode == "nearest":
                    agree = np.array_equal(y.astype(np.float32), want.astype(np.float32))
                    if not agree:
                        agree = ties_only(y, want, shape, out_shape, sc, in_offs, out_offs)
                else:
                    agree = np.allclose(y, want, rtol=1e-5, atol=1e-5)
                assert agree, f"onnx {tag}: DirectML's mapping disagrees with onnx.reference"
                attrs = {"InterpolationMode": MODES[mode == "linear"],
                         "RoundingDirection": DIRS[ceil],
                         "Scales": [f32(s) for s in sc],
                         "InputPixelOffsets": [f32(v) for v in in_offs],
                         "OutputPixelOffsets": [f32(v) for v in out_offs]}
                got.append(case(f"directml.resample2.onnx-{tag}", "RESAMPLE2",
                                {"InputTensor": tensor("FLOAT32", x)},
                                {"OutputTensor": tensor("FLOAT32", y)}, attrs=attrs,
                                tolerance=linear_tolerance("FLOAT32", mag)
                                if mode == "linear" else None,
                                source="onnx:Resize-19#" + tag,
                                note="ONNX Runtime's DirectML provider's mapping "
                                     "(DmlOperatorResize.cpp); the expected values agree with "
                                     "onnx.reference"))
    return got


def antialias_cases(rng):
    """RESAMPLE3 Antialiased LINEAR downscales as ONNX Resize-19 antialias=1 through ONNX
    Runtime's DirectML mapping, checked against onnx.reference."""
    got = []
    for coord, shape, scales in (("half_pixel", [1, 1, 8, 8], [1, 1, 0.5, 0.5]),
                                 ("half_pixel", [1, 2, 6, 9], [1, 1, 0.6, 0.3]),
                                 ("asymmetric", [1, 1, 7, 5], [1, 1, 0.75, 0.4]),
                                 ("align_corners", [1, 1, 9, 9], [1, 1, 0.5, 0.5]),
                                 ("half_pixel", [2, 12], [1, 0.25]),
                                 ("half_pixel", [1, 1, 4, 4], [1, 1, 0.5, 2.0]),
                                 # filters wider than the input: edges take many taps
                                 ("half_pixel", [1, 40], [1, 0.05]),
                                 ("asymmetric", [3, 64], [1, 0.03125])):
        x = stored("FLOAT32", rng.uniform(-10, 10, size=shape)).astype(np.float32)
        out_shape = [int(math.floor(n * f32(k))) for n, k in zip(shape, scales)]
        want = onnx_reference(x, "linear", None, coord, scales, antialias=1).astype(np.float64)
        in_offs, out_offs, sc = [], [], []
        for d in range(len(shape)):
            io, oo, s = onnx_axis(coord, shape[d], out_shape[d], scales[d])
            in_offs.append(f32(io))
            out_offs.append(f32(oo))
            sc.append(f32(s))
        y, mag = resample(x.astype(np.float64), out_shape, sc, in_offs, out_offs, True,
                          antialias=True)
        tag = f"{coord}-{'x'.join(map(str, shape))}-" + "-".join(f"{v:g}" for v in scales[-2:])
        if coord != "align_corners":  # ONNX's align_corners takes the fractional length
            assert np.allclose(y, want, rtol=1e-5, atol=1e-5), f"antialias {tag}"
        attrs = {"InterpolationMode": MODES[True], "RoundingDirection": DIRS[False],
                 "Scales": sc, "InputPixelOffsets": in_offs, "OutputPixelOffsets": out_offs,
                 "Antialiased": True}
        got.append(case(f"directml.resample3.antialiased-{tag}", "RESAMPLE3",
                        {"InputTensor": tensor("FLOAT32", x)},
                        {"OutputTensor": tensor("FLOAT32", y)}, attrs=attrs,
                        tolerance=linear_tolerance("FLOAT32", mag, 64),
                        source="onnx:Resize-19#antialias-" + tag,
                        note="the triangle filter stretched by 1/Scale (ONNX Resize antialias=1 "
                             "through ONNX Runtime's DirectML mapping; onnx.reference agrees "
                             "except align_corners, whose ONNX scale is fractional)"))
    # Tiny scales: a filter of 2 / Scale taps (2e10 at 1e-10) over 6 inputs; on a constant
    # input the normalised filter gives the constant.
    for scale in (1e-6, 1e-10, 1e-20, 1e-40):
        x = np.full([1, 6], 5.0)
        attrs = {"InterpolationMode": MODES[True], "RoundingDirection": DIRS[False],
                 "Scales": [1.0, f32(scale)], "InputPixelOffsets": [0.5, 0.5],
                 "OutputPixelOffsets": [-0.5, -0.5], "Antialiased": True}
        got.append(case(f"directml.resample3.antialiased-constant-scale-{scale:g}", "RESAMPLE3",
                        {"InputTensor": tensor("FLOAT32", x)},
                        {"OutputTensor": tensor("FLOAT32", np.full([1, 2], 5.0))}, attrs=attrs,
                        tolerance={"ulp": 4},
                        note="a filter far wider than the input: its edge taps summed, not "
                             "walked (1e-10 had taken 32 s and given NaN)"))
    return got


def generated_cases(rng):
    got = []
    scale_pool = [2.0, 3.0, 0.5, 1.5, 0.75, 0.6, 1.7, 1.0, 4.0, 0.3]
    types = ["FLOAT32", "FLOAT16", "INT8", "UINT8"]
    k = 0
    for version in (0, 1, 2, 3):
        for rank in (1, 2, 3, 4):
            for linear in (False, True):
                for ceil in ((False, True) if version >= 2 and not linear else (False,)):
                    t = types[k % 4]
                    k += 1
                    shape = [int(rng.integers(1, 5)) for _ in range(rank)]
                    if linear and t in ("INT8", "UINT8"):
                        scales = [2.0 if rng.random() < 0.5 else 1.0 for _ in range(rank)]
                        in_offs, out_offs = [0.5] * rank, [-0.5] * rank
                    else:
                        scales = [float(rng.choice(scale_pool)) for _ in range(rank)]
                        in_offs = [float(rng.choice([0.5, 0.0, 0.25, -0.5])) for _ in range(rank)]
                        out_offs = [float(rng.choice([-0.5, 0.0, 0.5])) for _ in range(rank)]
                    if version == 0:
                        in_offs, out_offs = [0.5] * rank, [-0.5] * rank
                    out_shape = [max(1, int(math.floor(n * f32(s)))) for n, s in
                                 zip(shape, scales)]
                    x = data(rng, t, shape)
                    in_strides = out_strides = None
                    if k % 3 == 0:
                        in_strides = list(reversed(np.cumprod([1] + list(reversed(
                            [n + 1 for n in shape[1:]]))).tolist()))
                        in_strides = [int(v) for v in in_strides]
                    if k % 4 == 1 and rank >= 2:
                        out_strides = [0] * rank
                        acc = 1
                        for d in range(rank - 1, -1, -1):
                            out_strides[d] = acc
                            acc *= out_shape[d] + (1 if d == rank - 1 else 0)
                    mode = "linear" if linear else ("ceil" if ceil else "nearest")
                    got.append(resample_case(
                        f"directml.resample{version or ''}.{t.lower()}-rank{rank}-{mode}-{k}",
                        version, t, x, out_shape, scales, in_offs, out_offs, linear, ceil,
                        in_strides, out_strides,
                        antialiased=True if version == 3 else None))
    # RESAMPLE3: Antialiased TRUE where nothing filters (NEAREST, or scales of 1 and more).
    x = data(rng, "FLOAT32", [1, 1, 3, 3])
    got.append(resample_case("directml.resample3.antialiased-upscale", 3, "FLOAT32", x,
                             [1, 1, 6, 6], [1.0, 1.0, 2.0, 2.0], [0.5] * 4, [-0.5] * 4, True,
                             antialiased=True,
                             note="antialiasing stretches the filter by max(1, 1 / scale): "
                                  "nothing when upscaling"))
    return got


def upsample_case(name, t, x, sh, sw, linear, in_strides=None):
    rank = x.ndim
    out_shape = list(x.shape)
    out_shape[-2] *= sh
    out_shape[-1] *= sw
    scales = [1.0] * rank
    scales[-2], scales[-1] = sh, sw
    y, mag = resample(x, out_shape, scales, [0.5] * rank, [-0.5] * rank, linear, False, True)
    inp = tensor(t, x)
    if in_strides:
        inp["strides"] = in_strides
    return case(name, "UPSAMPLE_2D", {"InputTensor": inp}, {"OutputTensor": tensor(t, y)},
                attrs={"ScaleSize": {"Width": sw, "Height": sh},
                       "InterpolationMode": MODES[linear]},
                tolerance=linear_tolerance(t, mag) if linear else None)


def upsample_cases(rng):
    got = []
    x = np.array([[[[1.0, 2.0], [3.0, 4.0]]]])
    got.append(upsample_case("directml.upsample_2d.worked-nearest-2x2", "FLOAT32", x, 2, 2, False))
    got.append(upsample_case("directml.upsample_2d.worked-linear-2x2", "FLOAT32", x, 2, 2, True))
    k = 0
    for t in ("FLOAT32", "FLOAT16"):
        for rank in (4, 5):
            for linear in (False, True):
                for sh, sw in ((2, 2), (3, 1), (1, 4)):
                    shape = [int(rng.integers(1, 4)) for _ in range(rank)]
                    x = data(rng, t, shape)
                    strides = None
                    k += 1
                    if k % 3 == 0:
                        strides = [0] * rank
                        acc = 1
                        for d in range(rank - 1, -1, -1):
                            strides[d] = acc
                            acc *= shape[d] + (2 if d == rank - 1 else 0)
                    got.append(upsample_case(
                        f"directml.upsample_2d.{t.lower()}-rank{rank}-"
                        f"{'linear' if linear else 'nearest'}-h{sh}w{sw}-{k}",
                        t, x, sh, sw, linear, strides))
    return got


def value_scale_cases(rng):
    got = []
    for t in ("FLOAT32", "FLOAT16"):
        for c in (1, 3):
            shape = [2, c, 3, 4]
            x = data(rng, t, shape)
            scale = f32(rng.uniform(-2, 2))
            bias = [f32(v) for v in rng.uniform(-5, 5, size=c)]
            y = x * scale + np.array(bias).reshape(1, c, 1, 1)
            got.append(case(f"directml.value_scale_2d.{t.lower()}-c{c}", "VALUE_SCALE_2D",
                            {"InputTensor": tensor(t, x)}, {"OutputTensor": tensor(t, y)},
                            attrs={"Scale": scale, "Bias": bias},
                            note="x * Scale + Bias[c], rounded once"))
    x = data(rng, "FLOAT32", [1, 3, 2, 2])
    inp = tensor("FLOAT32", x)
    inp["strides"] = [1, 1, 6, 3]  # NHWC
    y = x * 0.5 + np.array([1.0, 2.0, 3.0]).reshape(1, 3, 1, 1)
    got.append(case("directml.value_scale_2d.nhwc-input", "VALUE_SCALE_2D", {"InputTensor": inp},
                    {"OutputTensor": tensor("FLOAT32", y)},
                    attrs={"Scale": 0.5, "Bias": [1.0, 2.0, 3.0]}))
    return got


def invalid_cases():
    got = []
    x4 = {"InputTensor": tensor("FLOAT32", np.zeros([1, 1, 2, 2]))}
    out4 = {"type": "FLOAT32", "shape": [1, 1, 4, 4]}
    r2 = {"InterpolationMode": MODES[True], "RoundingDirection": DIRS[False],
          "Scales": [1.0, 1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 4,
          "OutputPixelOffsets": [-0.5] * 4}
    for label, change, why in (
            ("scale-zero", {"Scales": [1.0, 1.0, 0.0, 2.0]}, "each Scale greater than 0"),
            ("scale-negative", {"Scales": [1.0, 1.0, -2.0, 2.0]}, "each Scale greater than 0"),
            ("scale-inf", {"Scales": [1.0, 1.0, "inf", 2.0]}, "each Scale finite"),
            ("offset-nan", {"InputPixelOffsets": [0.5, 0.5, "nan", 0.5]}, "offsets finite"),
            ("offset-inf", {"OutputPixelOffsets": [-0.5, "-inf", -0.5, -0.5]}, "offsets finite"),
            ("count", {"Scales": [2.0, 2.0], "InputPixelOffsets": [0.5] * 2,
                       "OutputPixelOffsets": [-0.5] * 2},
             "DimensionCount equals the tensors' rank"),
            ("mode", {"InterpolationMode": 2}, "NEAREST_NEIGHBOR or LINEAR"),
            ("rounding", {"RoundingDirection": 2}, "INCREASING or DECREASING")):
        got.append(case(f"directml.resample2.invalid-{label}", "RESAMPLE2",
                        {**x4, "OutputTensor": out4}, attrs={**r2, **change},
                        error="invalid_argument", note=why))
    x5 = {"InputTensor": tensor("FLOAT32", np.zeros([1, 1, 1, 2, 2])),
          "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 1, 4, 4]}}
    got.append(case("directml.resample.invalid-rank5", "RESAMPLE", x5,
                    attrs={"InterpolationMode": MODES[False], "Scales": [1, 1, 1, 2, 2]},
                    error="invalid_argument", note="ranks 1 to 4"))
    got.append(case("directml.resample1.invalid-output-type", "RESAMPLE1",
                    {**x4, "OutputTensor": {"type": "FLOAT16", "shape": [1, 1, 4, 4]}},
                    attrs={k: v for k, v in r2.items() if k != "RoundingDirection"},
                    error="invalid_argument", note="one DataType"))
    got.append(case("directml.resample3.invalid-output-rank", "RESAMPLE3",
                    {**x4, "OutputTensor": {"type": "FLOAT32", "shape": [1, 4, 4]}},
                    attrs=r2, error="invalid_argument", note="one DimensionCount"))
    for label, inputs, attrs, why in (
            ("output-sizes", {**x4, "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 4, 3]}},
             {"ScaleSize": {"Width": 2, "Height": 2}, "InterpolationMode": MODES[False]},
             "the output is {N, C, H * Height, W * Width}"),
            ("scale-zero", {**x4, "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 0, 4]}},
             {"ScaleSize": {"Width": 2, "Height": 0}, "InterpolationMode": MODES[False]},
             "ScaleSize.Height greater than 0"),
            ("rank3", {"InputTensor": tensor("FLOAT32", np.zeros([1, 2, 2])),
                       "OutputTensor": {"type": "FLOAT32", "shape": [1, 4, 4]}},
             {"ScaleSize": {"Width": 2, "Height": 2}}, "ranks 4 and 5"),
            ("mode", {**x4, "OutputTensor": out4},
             {"ScaleSize": {"Width": 2, "Height": 2}, "InterpolationMode": 5},
             "NEAREST_NEIGHBOR or LINEAR")):
        got.append(case(f"directml.upsample_2d.invalid-{label}", "UPSAMPLE_2D", inputs,
                        attrs=attrs, error="invalid_argument", note=why))
    x3 = {"InputTensor": tensor("FLOAT32", np.zeros([1, 3, 2, 2]))}
    for label, inputs, attrs, why in (
            ("channels-2", {"InputTensor": tensor("FLOAT32", np.zeros([1, 2, 2, 2]))},
             {"Scale": 1.0, "Bias": [0.0, 0.0]}, "ChannelCount 1 or 3"),
            ("channels-mismatch", x3, {"Scale": 1.0, "Bias": [0.0]}, "ChannelCount equals C"),
            ("output-sizes", {**x3, "OutputTensor": {"type": "FLOAT32", "shape": [1, 3, 2, 3]}},
             {"Scale": 1.0, "Bias": [0.0, 0.0, 0.0]}, "the output has the input's Sizes"),
            ("rank3", {"InputTensor": tensor("FLOAT32", np.zeros([3, 2, 2]))},
             {"Scale": 1.0, "Bias": [0.0, 0.0, 0.0]}, "rank 4")):
        got.append(case(f"directml.value_scale_2d.invalid-{label}", "VALUE_SCALE_2D", inputs,
                        attrs=attrs, error="invalid_argument", note=why))
    # A type outside the page's table is a descriptor that breaks a rule (as for every other
    # operator), not a capability the device lacks.
    for op, t, attrs, out_shape, why in (
            ("RESAMPLE1", "INT32", {k: v for k, v in r2.items() if k != "RoundingDirection"},
             [1, 1, 4, 4], "FLOAT32, FLOAT16, INT8 or UINT8"),
            ("UPSAMPLE_2D", "UINT8", {"ScaleSize": {"Width": 2, "Height": 2},
                                      "InterpolationMode": MODES[False]},
             [1, 1, 4, 4], "FLOAT32 or FLOAT16"),
            ("VALUE_SCALE_2D", "INT8", {"Scale": 1.0, "Bias": [0.0]}, [1, 1, 2, 2],
             "FLOAT32 or FLOAT16")):
        got.append(case(f"directml.{op.lower()}.invalid-type-{t.lower()}", op,
                        {"InputTensor": tensor(t, np.zeros([1, 1, 2, 2])),
                         "OutputTensor": {"type": t, "shape": out_shape}},
                        attrs=attrs, error="invalid_argument", note=why))
    return got


def graph_case(name, nodes, tensors, inputs, outputs, note, tolerance=None):
    c = {"name": "dmlcl.graph." + name, "source": "dmlcl:graph#" + name, "op": "DML_GRAPH",
         "graph": {"nodes": nodes, "tensors": tensors}, "inputs": inputs,
         "expected": {"outputs": outputs}, "note": note}
    if tolerance:
        c["tolerance"] = tolerance
    return c


def graph_cases(rng):
    """Computed resampling nodes in graphs: chained, after a view, before a map."""
    got = []
    x = stored("FLOAT32", rng.integers(-64, 65, size=[1, 3, 2, 3]) / 8)
    bias = [0.5, -1.0, 2.0]
    v = x * 0.5 + np.array(bias).reshape(1, 3, 1, 1)
    y = v.repeat(2, axis=2).repeat(2, axis=3)
    got.append(graph_case(
        "value-scale-then-upsample",
        [{"op": "DML_OPERATOR_VALUE_SCALE_2D", "attrs": {"Scale": 0.5, "Bias": bias},
          "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "v"}},
         {"op": "DML_OPERATOR_UPSAMPLE_2D",
          "attrs": {"ScaleSize": {"Width": 2, "Height": 2}, "InterpolationMode": MODES[False]},
          "inputs": {"InputTensor": "v"}, "outputs": {"OutputTensor": "y"}}],
        {"v": {"type": "FLOAT32", "shape": [1, 3, 2, 3]}}, {"x": tensor("FLOAT32", x)},
        {"y": tensor("FLOAT32", y)}, "an image normalised per channel, then upsampled: two "
        "computed nodes, the intermediate in the graph's temporary"))
    x = stored("FLOAT32", rng.integers(-64, 65, size=[1, 2, 4, 6]) / 8)
    s = x[:, :, 1:3, :]
    y, mag = resample(s, [1, 2, 4, 12], [1.0, 1.0, 2.0, 2.0], [0.5] * 4, [-0.5] * 4, True)
    r = np.maximum(y, 0)
    got.append(graph_case(
        "slice-resample-relu",
        [{"op": "DML_OPERATOR_SLICE", "attrs": {"Offsets": [0, 0, 1, 0], "Sizes": [1, 2, 2, 6],
                                                 "Strides": [1, 1, 1, 1]},
          "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "s"}},
         {"op": "DML_OPERATOR_RESAMPLE2",
          "attrs": {"InterpolationMode": MODES[True], "RoundingDirection": DIRS[False],
                    "Scales": [1.0, 1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 4,
                    "OutputPixelOffsets": [-0.5] * 4},
          "inputs": {"InputTensor": "s"}, "outputs": {"OutputTensor": "r"}},
         {"op": "DML_OPERATOR_ACTIVATION_RELU", "inputs": {"InputTensor": "r"},
          "outputs": {"OutputTensor": "y"}}],
        {"s": {"type": "FLOAT32", "shape": [1, 2, 2, 6]},
         "r": {"type": "FLOAT32", "shape": [1, 2, 4, 12]}},
        {"x": tensor("FLOAT32", x)}, {"y": tensor("FLOAT32", r)},
        "a view feeding a bilinear resample, a map after it (eighths: the sums are exact)",
        tolerance=linear_tolerance("FLOAT32", mag)))
    x = stored("FLOAT32", rng.integers(-64, 65, size=[1, 3, 2, 4]) / 8)
    inp = tensor("FLOAT32", x)  # laid out NHWC by its strides
    inp["strides"] = [24, 1, 12, 3]
    y, _ = resample(x, [1, 3, 4, 8], [1.0, 1.0, 2.0, 2.0], [0.5] * 4, [-0.5] * 4, False,
                    half_up=True)
    got.append(graph_case(
        "nhwc-identity-resample",
        [{"op": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "inputs": {"InputTensor": "x"},
          "outputs": {"OutputTensor": "t"}},
         {"op": "DML_OPERATOR_RESAMPLE", "attrs": {"InterpolationMode": MODES[False],
                                                  "Scales": [1.0, 1.0, 2.0, 2.0]},
          "inputs": {"InputTensor": "t"}, "outputs": {"OutputTensor": "y"}}],
        {"t": {"type": "FLOAT32", "shape": [1, 3, 2, 4]}}, {"x": inp},
        {"y": tensor("FLOAT32", y)},
        "an NHWC input made NCHW by IDENTITY, then resampled: the planner reads it through the "
        "composed strides (dmli_restride_resample)"))
    return got


def main():
    rng = np.random.default_rng(20261128)
    cases = (worked_cases() + onnx_cases(rng) + generated_cases(rng) + upsample_cases(rng) +
             value_scale_cases(rng) + invalid_cases())
    cases += antialias_cases(np.random.default_rng(20261129))
    # A Scale so small that o / Scale passes float's range from some o on: clamped to the last
    # element (the page: the output edges are clamped), not NaN.
    x = np.array([1.0, 2.0, 3.0])
    for linear in (False, True):
        cases.append(resample_case(
            f"directml.resample2.tiny-scale-{'linear' if linear else 'nearest'}", 2, "FLOAT32", x,
            [40], [1e-37], [0.0], [0.0], linear,
            note="o / 1e-37 overflows float from o = 35: the last element"))
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "directml", "resample.json"), cases)
    graphs = graph_cases(rng)
    write(os.path.join(CASES, "graph", "resample.json"), graphs)
    print(f"{len(cases)} cases, {len(graphs)} graph cases")


if __name__ == "__main__":
    main()
