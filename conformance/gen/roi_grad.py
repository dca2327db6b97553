# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/roi_grad.json: DirectML's ROI_ALIGN_GRAD, ROI_ALIGN1's
backward pass.

OutputGradientTensor (the forward input's sizes): every sample of every region's bins scatters
the incoming gradient (over the bin's samples for AVERAGE; MAX: the bin's first maximal sample
alone) times its bilinear or nearest weights into the input elements it read; a sample outside
[-1, H] x [-1, W] read a constant and scatters nothing. OutputROIGradientTensor (ROITensor's
sizes): the derivative of <ROI_ALIGN1(x, rois), dY> by each region value: per sample the
page's imageGradX (x1, x2) or imageGradY (y1, y2), the bilinear slope (0 where the clamped
coordinate is integral or at an edge; NEAREST: 0), times the sample coordinate's derivative by
the value: SpatialScale * (1 - t) for x1, y1 and SpatialScale * t for x2, y2, t = (s -
OutputPixelOffset) / (bins * samples) (AlignRegionsToCorners: s / (bins * samples - 1)).

Cases: the page's example (its nearest crops: [1..12] -> [[3, 3, 9, 6], 0, [15, 9, 21, 12], 0]),
AVERAGE and MAX, LINEAR and NEAREST, half_pixel and output_half_pixel offsets, corners, sample
counts fixed and free, SpatialScales, FLOAT32 and FLOAT16, UINT64 batch indices and a batch past
N (clamped), ROI tensors of 3 and 4 dimensions, strided tensors, each output alone and both,
one case per validation rule.

Expected values: numpy in float64 (gen/roi.py's forward formulas for the values sampled).
Checks the generator makes, stopping on a disagreement: OutputGradientTensor is the adjoint of
the forward (gen/roi.py's align_np): <ROI_ALIGN1(x) - ROI_ALIGN1(0), dY> = <x, dX> (MAX: at
x, whose maximal samples fix the linear map); OutputROIGradientTensor matches a central finite
difference of <ROI_ALIGN1(x, rois), dY> by each region value (h = 1e-6) wherever no sample lies
within 1e-4 of a kink (an integral coordinate, an edge, a change of the sample count).
Tolerances, per output tensor: OutputGradientTensor 2^-13 of the largest sum of its terms'
magnitudes (at least 1: float32 sample positions move a weight by at most 2^-14) or N + 2 ULPs;
OutputROIGradientTensor 2^-12 of the largest sum of |coefficient * coordinate derivative| *
(the four values' magnitudes).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/roi_grad.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import roi as fwd  # noqa: E402  (ROI_ALIGN1's forward in float64: align_np)
from common import write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases", "directml")
SOURCE = "directml:DML_ROI_ALIGN_GRAD_OPERATOR_DESC#"
MODES = {True: "DML_INTERPOLATION_MODE_LINEAR", False: "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR"}
REDS = {True: "DML_REDUCE_FUNCTION_MAX", False: "DML_REDUCE_FUNCTION_AVERAGE"}


def placement(q, oh, ow, sx, sy, out_off, lo, hi, corners):
    hi = min(hi, 1024)
    lo = min(lo, hi)

    def count(size, bins):
        return int(min(max(math.ceil(abs(size) / bins), lo), hi))

    x1, y1 = q[0] * sx, q[1] * sy
    size_x, size_y = q[2] * sx - x1, q[3] * sy - y1
    nx, ny = count(size_x, ow), count(size_y, oh)
    tx, ty, shift = ow * nx, oh * ny, out_off
    if corners:
        tx, ty, shift = tx - 1, ty - 1, 0.0
    step_x = size_x / tx if tx > 0 else 0.0
    step_y = size_y / ty if ty > 0 else 0.0
    return x1, y1, nx, ny, tx, ty, shift, step_x, step_y


def taps(c, n, linear):
    """(i0, i1, w0, w1, slope) of a sample at c along an axis of n (in range)."""
    c = min(max(c, 0.0), n - 1.0)
    if not linear:
        i = min(max(math.ceil(c - 0.5), 0), n - 1)
        return i, i, 1.0, 0.0, False
    i0 = int(math.floor(c))
    i1 = min(i0 + 1, n - 1)
    w1 = c - i0
    return i0, i1, 1.0 - w1, w1, w1 != 0


def grad_np(x, dy, rois, batch, *, max_mode=False, linear=True, sx=1.0, sy=1.0, in_off=0.5,
            out_off=-0.5, lo=1, hi=2**32 - 1, corners=False):
    """dX, dROI, dX's magnitudes and term counts, dROI's magnitudes (float64)."""
    n, c, h, w = x.shape
    r_count, _, oh, ow = dy.shape
    dx = np.zeros(x.shape)
    mag = np.zeros(x.shape)
    terms = np.zeros(x.shape, dtype=np.int64)
    droi = np.zeros((r_count, 4))
    rmag = np.zeros((r_count, 4))
    for r in range(r_count):
        x1, y1, nx, ny, tx, ty, shift, step_x, step_y = placement(
            rois[r], oh, ow, sx, sy, out_off, lo, hi, corners)
        b = min(int(batch[r]), n - 1)
        for ch in range(c):
            plane = x[b, ch]
            for oy in range(oh):
                for ox in range(ow):
                    g = dy[r, ch, oy, ox]
                    coords = [((oy * ny + iy), (ox * nx + ix)) for iy in range(ny)
                              for ix in range(nx)]
                    pos = [((jy - shift) * step_y + y1 - in_off, (jx - shift) * step_x + x1 -
                            in_off) for jy, jx in coords]
                    if max_mode:
                        vals = [fwd_sample(plane, yy, xx, linear) for yy, xx in pos]
                        k = int(np.argmax(vals))  # numpy: the first maximum
                        chosen, coef = [k], g
                    else:
                        chosen, coef = range(len(pos)), g / len(pos)
                    for k in chosen:
                        (jy, jx), (yy, xx) = coords[k], pos[k]
                        if not (-1.0 <= yy <= h and -1.0 <= xx <= w):
                            continue
                        ay, ax = taps(yy, h, linear), taps(xx, w, linear)
                        for iy, wy in ((ay[0], ay[2]), (ay[1], ay[3])):
                            for ix, wx in ((ax[0], ax[2]), (ax[1], ax[3])):
                                if wy * wx == 0:
                                    continue
                                dx[b, ch, iy, ix] += coef * wy * wx
                                mag[b, ch, iy, ix] += abs(coef * wy * wx)
                                terms[b, ch, iy, ix] += 1
                        if not linear:
                            continue
                        v00, v01 = plane[ay[0], ax[0]], plane[ay[0], ax[1]]
                        v10, v11 = plane[ay[1], ax[0]], plane[ay[1], ax[1]]
                        gx = ay[2] * (v01 - v00) + ay[3] * (v11 - v10) if ax[4] else 0.0
                        gy = ax[2] * (v10 - v00) + ax[3] * (v11 - v01) if ay[4] else 0.0
                        ux = (jx - shift) / tx if tx > 0 else 0.0
                        uy = (jy - shift) / ty if ty > 0 else 0.0
                        dc = [sx * (1 - ux), sy * (1 - uy), sx * ux, sy * uy]
                        m4 = abs(v00) + abs(v01) + abs(v10) + abs(v11)
                        for q in range(4):
                            slope = gy if q % 2 else gx
                            droi[r, q] += coef * slope * dc[q]
                            if slope != 0:
                                rmag[r, q] += abs(coef * dc[q]) * m4
    return dx, droi, mag, terms, rmag


def fwd_sample(plane, y, xx, linear):
    h, w = plane.shape
    if not (-1.0 <= y <= h and -1.0 <= xx <= w):
        return 0.0
    a, b = taps(y, h, linear), taps(xx, w, linear)
    return (a[2] * (b[2] * plane[a[0], b[0]] + b[3] * plane[a[0], b[1]]) +
            a[3] * (b[2] * plane[a[1], b[0]] + b[3] * plane[a[1], b[1]]))


def kinks_near(rois, oh, ow, x_shape, kw, eps=1e-4):
    """Whether any sample of any region lies within eps of a kink of the ROI derivative."""
    _, _, h, w = x_shape
    for q in rois:
        for d in (-eps, eps):
            for k in range(4):
                qq = np.array(q, dtype=np.float64)
                qq[k] += d
                a = placement(q, oh, ow, kw["sx"], kw["sy"], kw["out_off"], kw["lo"], kw["hi"],
                              kw["corners"])
                b = placement(qq, oh, ow, kw["sx"], kw["sy"], kw["out_off"], kw["lo"], kw["hi"],
                              kw["corners"])
                if a[2:4] != b[2:4]:
                    return True
        x1, y1, nx, ny, tx, ty, shift, step_x, step_y = placement(
            q, oh, ow, kw["sx"], kw["sy"], kw["out_off"], kw["lo"], kw["hi"], kw["corners"])
        for j in range(oh * ny):
            c = (j - shift) * step_y + y1 - kw["in_off"]
            if min(abs(c - round(c)), abs(c + 1), abs(c - h)) < eps:
                return True
        for j in range(ow * nx):
            c = (j - shift) * step_x + x1 - kw["in_off"]
            if min(abs(c - round(c)), abs(c + 1), abs(c - w)) < eps:
                return True
    return False


def check(x, dy, rois, batch, dx, droi, kw):
    fk = dict(max_mode=kw["max_mode"], linear=kw["linear"], sx=kw["sx"], sy=kw["sy"],
              in_off=kw["in_off"], out_off=kw["out_off"], lo=kw["lo"], hi=kw["hi"],
              corners=kw["corners"])
    oh, ow = dy.shape[2:]
    y = fwd.align_np(x, rois, batch, oh, ow, **fk)
    y0 = fwd.align_np(np.zeros_like(x), rois, batch, oh, ow, **fk)
    lhs = float(np.sum((y - y0) * dy))
    rhs = float(np.sum(x * dx))
    scale = float(np.sum(np.abs(y * dy)) + np.sum(np.abs(x * dx))) + 1e-300
    assert abs(lhs - rhs) <= 1e-10 * scale, ("adjoint", lhs, rhs)
    if not kw["linear"] or kinks_near(rois, oh, ow, x.shape, kw):
        return False
    hstep = 1e-6
    for r in range(len(rois)):
        for k in range(4):
            up, down = rois.copy(), rois.copy()
            up[r, k] += hstep
            down[r, k] -= hstep
            fd = (np.sum(fwd.align_np(x, up, batch, oh, ow, **fk) * dy) -
                  np.sum(fwd.align_np(x, down, batch, oh, ow, **fk) * dy)) / (2 * hstep)
            assert abs(fd - droi[r, k]) <= 1e-5 * (1 + abs(fd)), ("finite difference", r, k,
                                                                   fd, droi[r, k])
    return True


def tensor(t, a, shape=None, strides=None):
    return fwd.tensor(t, a, shape=shape, strides=strides)


def stored(t, a):
    return np.asarray(a, dtype=np.float64).astype(fwd.NUMPY_TYPES[t]).astype(np.float64)


def grad_case(rng, name, x, dy, rois, batch, *, t="FLOAT32", it="UINT32", want_dx=True,
              want_droi=True, bind_x=True, roi_shape=None, dy_strides=None, dx_strides=None,
              note=None, **kw):
    kw = dict(dict(max_mode=False, linear=True, sx=1.0, sy=1.0, in_off=0.5, out_off=-0.5, lo=1,
                   hi=2**32 - 1, corners=False), **kw)
    x, dy, rois = stored(t, x), stored(t, dy), stored(t, rois)
    dx, droi, mag, terms, rmag = grad_np(x, dy, rois, batch, **kw)
    fd = check(x, dy, rois, batch, dx, droi, kw)
    attrs = {"ReductionFunction": REDS[kw["max_mode"]], "InterpolationMode": MODES[kw["linear"]],
             "SpatialScaleX": kw["sx"], "SpatialScaleY": kw["sy"],
             "InputPixelOffset": kw["in_off"], "OutputPixelOffset": kw["out_off"],
             "MinimumSamplesPerOutput": kw["lo"], "MaximumSamplesPerOutput": kw["hi"],
             "AlignRegionsToCorners": kw["corners"]}
    inputs = {}
    if bind_x:
        inputs["InputTensor"] = tensor(t, x)
    inputs["InputGradientTensor"] = tensor(t, dy, strides=dy_strides)
    inputs["ROITensor"] = tensor(t, rois, shape=roi_shape)
    inputs["BatchIndicesTensor"] = tensor(it, batch)
    outs = {}
    if want_dx:
        o = tensor(t, dx)
        m = max(1.0, float(mag.max()) if mag.size else 0.0)
        o["tolerance"] = {"ulp": int(terms.max()) + 2, "abs": m * 2.0 ** -13}
        outs["OutputGradientTensor"] = o
        if dx_strides:
            inputs["OutputGradientTensor"] = {"type": t, "shape": list(dx.shape),
                                              "strides": dx_strides}
    if want_droi:
        o = tensor(t, droi, shape=roi_shape)
        m = max(1.0, float(rmag.max()) if rmag.size else 0.0)
        o["tolerance"] = {"ulp": 8, "abs": m * 2.0 ** -12}
        outs["OutputROIGradientTensor"] = o
    notes = [n for n in (note, "ROI gradient checked by finite differences" if fd and want_droi
                         else None) if n]
    c = {"name": f"directml.roi_align_grad.{name}", "source": SOURCE + "semantics",
         "op": "DML_OPERATOR_ROI_ALIGN_GRAD", "attrs": attrs, "inputs": inputs,
         "expected": {"outputs": outs}}
    if notes:
        c["note"] = "; ".join(notes)
    return c


def random_rois(rng, count, h, w, sx=1.0, sy=1.0):
    got = []
    for _ in range(count):
        q = [rng.uniform(-2, w + 2) / sx, rng.uniform(-2, h + 2) / sy,
             rng.uniform(-2, w + 2) / sx, rng.uniform(-2, h + 2) / sy]
        got.append(q)
    return np.array(got)


def cases(rng):
    got = []
    # The page's example: nearest crops of a 4 x 4 input, 1.5x along W and 0.5x along H.
    dy = np.arange(1, 13, dtype=np.float64).reshape(4, 1, 1, 3)
    rois = np.array([[0, 0, 2, 2], [2, 0, 4, 2], [0, 2, 2, 4], [2, 2, 4, 4]], dtype=np.float64)
    c = grad_case(rng, "page-example", np.zeros((1, 1, 4, 4)), dy, rois, np.zeros(4, np.uint32),
                  linear=False, lo=1, hi=1, bind_x=False, want_droi=False,
                  note="the page's example")
    want = [3, 3, 9, 6, 0, 0, 0, 0, 15, 9, 21, 12, 0, 0, 0, 0]
    assert c["expected"]["outputs"]["OutputGradientTensor"]["data"] == want, c
    got.append(c)
    shape = (2, 2, 7, 8)
    for name, kw, extra in (
            ("average-linear", {}, {}),
            ("average-linear-output-half-pixel", {"in_off": 0.0}, {}),
            ("max-linear", {"max_mode": True}, {}),
            ("average-nearest", {"linear": False}, {}),
            ("max-nearest", {"max_mode": True, "linear": False}, {}),
            ("corners-two-samples", {"corners": True, "lo": 2, "hi": 2}, {}),
            ("scaled", {"sx": 0.5, "sy": 2.0, "lo": 1, "hi": 3}, {}),
            ("float16", {}, {"t": "FLOAT16"}),
            ("float16-max", {"max_mode": True}, {"t": "FLOAT16"}),
            ("input-gradient-only", {}, {"want_droi": False, "bind_x": False}),
            ("roi-gradient-only-rank3-uint64", {}, {"want_dx": False, "it": "UINT64",
                                                    "roi_shape": [1, 5, 4]}),
            ("strided", {"max_mode": True}, {"dy_strides": [24, 12, 4, 1],
                                             "dx_strides": [150, 75, 10, 1]})):
        x = rng.uniform(-1, 1, size=shape)
        dy = rng.uniform(-1, 1, size=(5, 2, 2, 3))
        rois = random_rois(rng, 5, shape[2], shape[3], kw.get("sx", 1.0), kw.get("sy", 1.0))
        rois = np.round(rois * 16) / 16
        batch = rng.integers(0, 2, size=5).astype(np.uint64)
        batch[2] = 7  # past N: clamped to the last batch
        got.append(grad_case(rng, name, x, dy, rois, batch, **extra, **kw))
    return got


def invalid_cases():
    got = []
    base = {"InputTensor": tensor("FLOAT32", np.zeros((1, 1, 4, 4))),
            "InputGradientTensor": tensor("FLOAT32", np.zeros((1, 1, 2, 2))),
            "ROITensor": tensor("FLOAT32", np.array([[0.0, 0.0, 3.0, 3.0]])),
            "BatchIndicesTensor": tensor("UINT32", np.zeros(1))}
    dx = {"type": "FLOAT32", "shape": [1, 1, 4, 4]}
    droi = {"type": "FLOAT32", "shape": [1, 4]}
    no_x = {k: v for k, v in base.items() if k != "InputTensor"}
    for label, inputs, attrs, why in (
            ("no-output", dict(base), {}, "at least one output"),
            ("roi-gradient-without-input", dict(no_x, OutputROIGradientTensor=droi), {},
             "InputTensor required with OutputROIGradientTensor"),
            ("max-without-input", dict(no_x, OutputGradientTensor=dx),
             {"ReductionFunction": REDS[True]}, "InputTensor required with MAX"),
            ("output-type", dict(base, OutputGradientTensor={"type": "FLOAT16",
                                                             "shape": [1, 1, 4, 4]}), {},
             "one DataType"),
            ("output-sizes", dict(base, OutputGradientTensor={"type": "FLOAT32",
                                                              "shape": [1, 1, 4, 5]}), {},
             "InputTensor's sizes"),
            ("roi-gradient-sizes", dict(base, OutputROIGradientTensor={"type": "FLOAT32",
                                                                       "shape": [1, 5]}), {},
             "ROITensor's sizes"),
            ("min-samples", dict(base, OutputGradientTensor=dx),
             {"MinimumSamplesPerOutput": 0}, "MinimumSamplesPerOutput at least 1")):
        got.append({"name": f"directml.roi_align_grad.invalid-{label}",
                    "source": SOURCE + "text", "op": "DML_OPERATOR_ROI_ALIGN_GRAD",
                    "attrs": attrs, "inputs": inputs,
                    "expected": {"error": "invalid_argument"}, "note": why})
    return got


def main():
    rng = np.random.default_rng(20261204)
    all_cases = cases(rng) + invalid_cases()
    names = [c["name"] for c in all_cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "roi_grad.json"), all_cases)
    fd = sum("finite differences" in c.get("note", "") for c in all_cases)
    print(f"{len(all_cases)} cases ({fd} checked by finite differences)")


if __name__ == "__main__":
    main()
