# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/roi.json and fold.json: DirectML's ROI_POOLING, ROI_ALIGN,
ROI_ALIGN1, FOLD and UNFOLD. The FOLD and UNFOLD pages' examples (as printed), generated cases
over the pages' types, strided tensors, and one case per validation rule.

Expected values, never from dmlcl:
- FOLD on floats: onnx.reference's Col2Im (float64); on integers a numpy scatter-add
  (np.add.at) of the columns, wrapped to the type;
- UNFOLD: numpy slices of the zero-padded image (float64 and exact integers);
- ROI_ALIGN / ROI_ALIGN1 in ONNX's forms (average, bilinear, half_pixel or output_half_pixel,
  one spatial scale, OutOfBoundsInputValue 0, regions of at least one pixel): onnx.reference's
  RoiAlign (float64); the other forms (MAX, nearest, corners, two scales, an out-of-bounds
  value, inverted regions, clamped sample counts) numpy loops of the ROI_ALIGN1 page's
  pseudocode in float64 with dmlcl's rules where it is silent (docs/operators.md);
- ROI_POOLING: numpy loops of the page's formulas (float64), an empty bin 0.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/roi.py
"""
import math
import os
import sys

import numpy as np
from onnx.reference.ops.op_col2im import Col2Im
from onnx.reference.ops.op_roi_align import RoiAlign

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, jvalue, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases", "directml")
PAGE = {"ROI_POOLING": "DML_ROI_POOLING_OPERATOR_DESC",
        "ROI_ALIGN": "DML_ROI_ALIGN_OPERATOR_DESC",
        "ROI_ALIGN1": "DML_ROI_ALIGN1_OPERATOR_DESC",
        "FOLD": "DML_FOLD_OPERATOR_DESC", "UNFOLD": "DML_UNFOLD_OPERATOR_DESC"}
WINDOW_TYPES = ["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64",
                "UINT32", "UINT16", "UINT8"]


def tensor(t, a, shape=None, strides=None):
    a = np.asarray(a, dtype=NUMPY_TYPES[t])
    d = {"type": t, "shape": list(a.shape if shape is None else shape),
         "data": [jvalue(t, v) for v in a.reshape(-1).tolist()]}
    if strides is not None:
        d["strides"] = list(strides)
    return d


def case(op, name, attrs, inputs, out=None, error=None, source=None, note=None):
    c = {"name": "directml.{}.{}".format(op.lower(), name),
         "source": source or "directml:{}#{}".format(PAGE[op], "text" if error else "semantics"),
         "op": "DML_OPERATOR_" + op, "attrs": attrs, "inputs": inputs,
         "expected": {"error": error} if error else {"outputs": {"OutputTensor": out}}}
    if note:
        c["note"] = note
    return c


# ---- FOLD, UNFOLD ------------------------------------------------------------------------

def blocks(size, w, s, d, sp, ep):
    return [(size[i] + sp[i] + ep[i] - d[i] * (w[i] - 1) - 1) // s[i] + 1 for i in range(len(w))]


def unfold_np(img, w, s, d, sp, ep):
    """{N, C, S...} -> {N, C * K, L}: each window position a strided slice of the padded
    image."""
    n, c = img.shape[:2]
    nd = len(w)
    padded = np.pad(img, [(0, 0), (0, 0)] + [(sp[i], ep[i]) for i in range(nd)])
    b = blocks(img.shape[2:], w, s, d, sp, ep)
    rows = []
    for k in np.ndindex(*w):
        idx = tuple(slice(k[i] * d[i], k[i] * d[i] + (b[i] - 1) * s[i] + 1, s[i])
                    for i in range(nd))
        rows.append(padded[(slice(None), slice(None)) + idx].reshape(n, c, -1))
    return np.stack(rows, axis=2).reshape(n, c * len(rows), -1)


def fold_int(col, size, w, s, d, sp, ep, t):
    """The adjoint of unfold_np by np.add.at into the padded image, wrapped to type t."""
    n = col.shape[0]
    nd = len(w)
    k = int(np.prod(w))
    c = col.shape[1] // k
    b = blocks(size, w, s, d, sp, ep)
    padded = np.zeros([n, c] + [size[i] + sp[i] + ep[i] for i in range(nd)], dtype=np.int64)
    cols = col.astype(np.int64).reshape([n, c, k] + b)
    for j, kk in enumerate(np.ndindex(*w)):
        idx = tuple(slice(kk[i] * d[i], kk[i] * d[i] + (b[i] - 1) * s[i] + 1, s[i])
                    for i in range(nd))
        np.add.at(padded, (slice(None), slice(None)) + idx, cols[:, :, j])
    crop = tuple(slice(sp[i], sp[i] + size[i]) for i in range(nd))
    return padded[(slice(None), slice(None)) + crop].astype(NUMPY_TYPES[t])


def fold_ref(col, size, w, s, d, sp, ep, t):
    if t.startswith("FLOAT"):
        out = Col2Im.eval(col.astype(np.float64), np.array(size, dtype=np.int64),
                          np.array(w, dtype=np.int64), dilations=list(d), pads=list(sp) + list(ep),
                          strides=list(s))
        return np.asarray(out)
    return fold_int(col, size, w, s, d, sp, ep, t)


def values(rng, t, shape):
    if t.startswith("FLOAT"):
        a = rng.uniform(-1, 1, size=shape)
        return a.astype(NUMPY_TYPES[t]).astype(np.float64)
    lo = 0 if t.startswith("UINT") else -60
    return rng.integers(lo, 60, size=shape).astype(NUMPY_TYPES[t])


def window_attrs(nd, w, s, d, sp, ep):
    return {"DimensionCount": nd, "WindowSizes": list(w), "Strides": list(s),
            "Dilations": list(d), "StartPadding": list(sp), "EndPadding": list(ep)}


def fold_cases(rng):
    cases = []
    col = np.arange(144, dtype=np.float64)
    page = [("example-1", 1, [1, 9, 4], (0, 0), (0, 0),
             [[0, 5, 13, 9], [14, 38, 54, 32], [38, 86, 102, 56], [26, 57, 65, 35]]),
            ("example-2", 1, [1, 9, 8], (1, 0), (1, 0),
             [[26, 70, 102, 60], [78, 183, 231, 129], [84, 195, 243, 135],
              [82, 182, 214, 116]]),
            ("example-3", 2, [1, 18, 8], (1, 0), (1, 0),
             [[26, 70, 102, 60], [78, 183, 231, 129], [84, 195, 243, 135], [82, 182, 214, 116],
              [170, 358, 390, 204], [294, 615, 663, 345], [300, 627, 675, 351],
              [226, 470, 502, 260]])]
    for name, c, shape, sp, ep, want in page:
        x = col[:int(np.prod(shape))].reshape(shape)
        y = np.array(want, dtype=np.float64).reshape(1, c, 4, 4)
        got = fold_ref(x, [4, 4], [3, 3], [1, 1], [1, 1], sp, ep, "FLOAT32")
        assert np.array_equal(got, y), name
        cases.append(case("FOLD", name, window_attrs(2, [3, 3], [1, 1], [1, 1], sp, ep),
                          {"InputTensor": tensor("FLOAT32", x)}, tensor("FLOAT32", y),
                          source="directml:DML_FOLD_OPERATOR_DESC#" + name))
    img = np.arange(25, dtype=np.float64).reshape(1, 1, 5, 5)
    for name, sp, ep in [("example-1", (0, 0), (0, 0)), ("example-2", (1, 0), (1, 0))]:
        y = unfold_np(img, [3, 3], [1, 1], [1, 1], sp, ep)
        cases.append(case("UNFOLD", name, window_attrs(2, [3, 3], [1, 1], [1, 1], sp, ep),
                          {"InputTensor": tensor("FLOAT32", img)}, tensor("FLOAT32", y),
                          source="directml:DML_UNFOLD_OPERATOR_DESC#" + name))
    shapes = [  # N, C, spatial, window, strides, dilations, start, end
        (2, 3, [7], [3], [2], [1], [1], [0]),
        (1, 2, [6, 7], [3, 2], [2, 1], [1, 2], [1, 0], [0, 1]),
        (2, 1, [5, 5], [2, 2], [3, 3], [1, 1], [0, 0], [0, 0]),
        (1, 2, [4, 3, 5], [2, 2, 3], [1, 2, 1], [1, 1, 2], [0, 1, 1], [1, 0, 1]),
        (1, 1, [3, 2, 2, 3], [2, 1, 2, 2], [1, 1, 1, 2], [1, 1, 1, 1], [0, 0, 1, 0],
         [0, 1, 0, 1]),
    ]
    for i, t in enumerate(WINDOW_TYPES):
        n, c, size, w, s, d, sp, ep = shapes[i % len(shapes)]
        nd = len(w)
        b = blocks(size, w, s, d, sp, ep)
        k, l = int(np.prod(w)), int(np.prod(b))
        x = values(rng, t, (n, c * k, l))
        y = fold_ref(x, size, w, s, d, sp, ep, t)
        cases.append(case("FOLD", "{}-{}d".format(t.lower(), nd),
                          window_attrs(nd, w, s, d, sp, ep), {"InputTensor": tensor(t, x)},
                          tensor(t, y)))
        img = values(rng, t, [n, c] + size)
        cases.append(case("UNFOLD", "{}-{}d".format(t.lower(), nd),
                          window_attrs(nd, w, s, d, sp, ep), {"InputTensor": tensor(t, img)},
                          tensor(t, unfold_np(img, w, s, d, sp, ep))))
    # Strided tensors: a padded innermost run, and the columns with leading 1s.
    n, c, size, w, s, d, sp, ep = shapes[1]
    b = blocks(size, w, s, d, sp, ep)
    x = values(rng, "FLOAT32", (n, c * 6, int(np.prod(b))))
    y = fold_ref(x, size, w, s, d, sp, ep, "FLOAT32")
    xs = [c * 6 * (x.shape[2] + 2), x.shape[2] + 2, 1]
    cases.append(case("FOLD", "strided", window_attrs(2, w, s, d, sp, ep),
                      {"InputTensor": tensor("FLOAT32", x, strides=xs),
                       "OutputTensor": {"type": "FLOAT32", "shape": list(y.shape),
                                        "strides": [c * 6 * 9, 6 * 9, 9, 1]}},
                      tensor("FLOAT32", y)))
    img = values(rng, "FLOAT16", [n, c] + size)
    cols = unfold_np(img, w, s, d, sp, ep)
    cases.append(case("UNFOLD", "leading-ones", window_attrs(2, w, s, d, sp, ep),
                      {"InputTensor": tensor("FLOAT16", img)},
                      tensor("FLOAT16", cols, shape=[1, 1] + list(cols.shape))))
    # One case per rule.
    base = window_attrs(2, [3, 3], [1, 1], [1, 1], [0, 0], [0, 0])
    good_col = tensor("FLOAT32", np.zeros((1, 9, 4)))
    good_img = {"type": "FLOAT32", "shape": [1, 1, 4, 4]}

    def bad(op, name, note, attrs=None, inp=None, out=None):
        a = dict(base, **(attrs or {}))
        if op == "FOLD":
            ins = {"InputTensor": inp or good_col, "OutputTensor": out or good_img}
        else:
            ins = {"InputTensor": inp or tensor("FLOAT32", np.zeros((1, 1, 4, 4))),
                   "OutputTensor": out or {"type": "FLOAT32", "shape": [1, 9, 4]}}
        return case(op, "invalid-" + name, a, ins, error="invalid_argument", note=note)

    cases += [
        bad("FOLD", "dimension-count", "DimensionCount must be in [1, 6]",
            attrs={"DimensionCount": 0, "WindowSizes": [], "Strides": [], "Dilations": [],
                   "StartPadding": [], "EndPadding": []}),
        bad("UNFOLD", "stride-zero", "Strides must be at least 1", attrs={"Strides": [1, 0]}),
        bad("FOLD", "window-zero", "WindowSizes must be at least 1",
            attrs={"WindowSizes": [0, 3]}),
        bad("UNFOLD", "dilation-zero", "Dilations must be at least 1",
            attrs={"Dilations": [0, 1]}),
        bad("UNFOLD", "no-window-fits", "the dilated window must fit the padded image",
            attrs={"WindowSizes": [5, 3]}, out={"type": "FLOAT32", "shape": [1, 15, 1]}),
        bad("FOLD", "channels", "InputTensor.Sizes[1] must be C times the window's positions",
            inp=tensor("FLOAT32", np.zeros((1, 8, 4)))),
        bad("FOLD", "blocks", "InputTensor.Sizes[2] must be the blocks' count",
            inp=tensor("FLOAT32", np.zeros((1, 9, 5)))),
        bad("UNFOLD", "output-type", "OutputTensor.DataType must be InputTensor's",
            out={"type": "FLOAT16", "shape": [1, 9, 4]}),
        bad("UNFOLD", "image-rank", "the image has DimensionCount + 2 dimensions",
            inp=tensor("FLOAT32", np.zeros((1, 1, 1, 4, 4)))),
    ]
    return cases


# ---- ROI_ALIGN, ROI_ALIGN1 ---------------------------------------------------------------

def align_np(x, rois, batch, oh, ow, *, max_mode=False, linear=True, sx=1.0, sy=1.0,
             in_off=0.5, out_off=-0.5, oob=0.0, lo=1, hi=2**32 - 1, corners=False):
    """The ROI_ALIGN1 page's loops in float64: samples per bin ceil(|size| / bins) clamped to
    [lo, min(hi, 1024)]; a sample outside [-1, H] x [-1, W] is `oob`; coordinates clamped into
    the input; nearest rounds halves down."""
    n, c, h, w = x.shape
    out = np.zeros((len(rois), c, oh, ow))
    hi = min(hi, 1024)
    lo = min(lo, hi)

    def count(size, bins):
        q = math.ceil(abs(size) / bins)
        return int(min(max(q, lo), hi))

    def sample(plane, y, xx):
        if not (-1.0 <= y <= h and -1.0 <= xx <= w):
            return oob
        y = min(max(y, 0.0), h - 1.0)
        xx = min(max(xx, 0.0), w - 1.0)
        if not linear:
            return plane[min(max(math.ceil(y - 0.5), 0), h - 1),
                         min(max(math.ceil(xx - 0.5), 0), w - 1)]
        y0, x0 = int(math.floor(y)), int(math.floor(xx))
        y1, x1 = min(y0 + 1, h - 1), min(x0 + 1, w - 1)
        ly, lx = y - y0, xx - x0
        top = plane[y0, x0] * (1 - lx) + plane[y0, x1] * lx
        bottom = plane[y1, x0] * (1 - lx) + plane[y1, x1] * lx
        return top * (1 - ly) + bottom * ly

    for r, (q, b) in enumerate(zip(rois, batch)):
        x1, y1 = q[0] * sx, q[1] * sy
        size_x, size_y = q[2] * sx - x1, q[3] * sy - y1
        nx, ny = count(size_x, ow), count(size_y, oh)
        tx, ty, shift = ow * nx, oh * ny, out_off
        if corners:
            tx, ty, shift = tx - 1, ty - 1, 0.0
        step_x = size_x / tx if tx > 0 else 0.0
        step_y = size_y / ty if ty > 0 else 0.0
        plane_b = min(int(b), n - 1)
        for ch in range(c):
            plane = x[plane_b, ch]
            for oy in range(oh):
                for ox in range(ow):
                    vals = [sample(plane, (oy * ny + iy - shift) * step_y + y1 - in_off,
                                   (ox * nx + ix - shift) * step_x + x1 - in_off)
                            for iy in range(ny) for ix in range(nx)]
                    out[r, ch, oy, ox] = max(vals) if max_mode else sum(vals) / len(vals)
    return out


def align_cases(rng):
    cases = []
    x = rng.uniform(-1, 1, size=(2, 2, 8, 9)).astype(np.float32).astype(np.float64)
    rois = np.array([[0.5, 1.25, 7.0, 6.5], [2.0, 0.0, 8.5, 7.75], [1.0, 2.0, 4.0, 3.0],
                     [0.0, 0.0, 9.0, 8.0], [5.25, 3.5, 9.0, 8.0]])
    batch = np.array([0, 1, 1, 0, 1], dtype=np.uint64)
    f = "FLOAT32"

    def inputs(xx, rr, bb, t=f, it="UINT32", roi_shape=None, idx_shape=None):
        return {"InputTensor": tensor(t, xx),
                "ROITensor": tensor(t, rr, shape=roi_shape),
                "BatchIndicesTensor": tensor(it, bb, shape=idx_shape)}

    # ONNX's forms, checked against onnx.reference's RoiAlign.
    for half, ratio, (oh, ow) in [(True, 0, (3, 4)), (False, 0, (2, 2)), (True, 2, (4, 3)),
                                  (False, 3, (5, 5))]:
        scale = 0.5
        want = RoiAlign.eval(x, rois / scale, batch.astype(np.int64), output_height=oh,
                             output_width=ow, sampling_ratio=ratio, spatial_scale=scale,
                             mode="avg",
                             coordinate_transformation_mode="half_pixel" if half
                             else "output_half_pixel")
        ours = align_np(x, rois, batch, oh, ow, in_off=0.5 if half else 0.0,
                        lo=ratio or 1, hi=ratio or 2**32 - 1)
        assert np.allclose(want, ours, atol=1e-12), (half, ratio)
        attrs = {"SpatialScaleX": scale, "SpatialScaleY": scale,
                 "InputPixelOffset": 0.5 if half else 0.0, "OutputPixelOffset": -0.5,
                 "MinimumSamplesPerOutput": ratio or 1,
                 "MaximumSamplesPerOutput": ratio or 4294967295}
        name = "onnx-{}-ratio{}".format("half-pixel" if half else "output-half-pixel", ratio)
        cases.append(case("ROI_ALIGN1", name, attrs,
                          inputs(x, rois / scale, batch, it="UINT64"), tensor(f, want),
                          note="ONNX RoiAlign's form (ONNX Runtime's DirectML provider's "
                               "mapping); expected values from onnx.reference"))
        if half:
            a0 = {k: v for k, v in attrs.items() if "PixelOffset" not in k}
            cases.append(case("ROI_ALIGN", name, a0, inputs(x, rois / scale, batch),
                              tensor(f, want),
                              note="ROI_ALIGN: ROI_ALIGN1's offsets 0.5 and -0.5; "
                                   "onnx.reference"))
    # DirectML's own forms, numpy loops of the page's pseudocode.
    inv = rois.copy()
    inv[1] = [8.0, 7.0, 1.5, 0.5]  # inverted: mirrored
    inv[2] = [3.0, 4.0, 3.0, 4.0]   # empty: one input coordinate
    inv[4] = [-4.0, -3.0, 12.0, 11.0]  # past the edges
    forms = [
        ("max-linear", dict(max_mode=True), {"ReductionFunction": "DML_REDUCE_FUNCTION_MAX"}),
        ("nearest", dict(linear=False),
         {"InterpolationMode": "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR"}),
        ("max-nearest-samples-2", dict(max_mode=True, linear=False, lo=2, hi=2),
         {"ReductionFunction": "DML_REDUCE_FUNCTION_MAX",
          "InterpolationMode": "DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR",
          "MinimumSamplesPerOutput": 2, "MaximumSamplesPerOutput": 2}),
        ("scales-out-of-bounds-value", dict(sx=0.5, sy=0.25, oob=-3.5),
         {"SpatialScaleX": 0.5, "SpatialScaleY": 0.25, "OutOfBoundsInputValue": -3.5}),
        ("samples-clamped", dict(lo=2, hi=3),
         {"MinimumSamplesPerOutput": 2, "MaximumSamplesPerOutput": 3}),
    ]
    for name, kw, attrs in forms:
        rr = inv.copy()
        if "sx" in kw:
            rr[:, 0::2] /= kw["sx"]
            rr[:, 1::2] /= kw["sy"]
        want = align_np(x, rr, batch, 3, 4, **kw)
        cases.append(case("ROI_ALIGN", name, attrs, inputs(x, rr, batch), tensor(f, want)))
        want1 = align_np(x, rr, batch, 3, 4, in_off=0.0, out_off=0.0, **kw)
        a1 = dict(attrs, InputPixelOffset=0.0, OutputPixelOffset=0.0)
        cases.append(case("ROI_ALIGN1", name + "-offsets-0", a1, inputs(x, rr, batch),
                          tensor(f, want1)))
    want = align_np(x, inv, batch, 4, 3, corners=True, lo=1, hi=2)
    cases.append(case("ROI_ALIGN1", "corners",
                      {"AlignRegionsToCorners": True, "MaximumSamplesPerOutput": 2},
                      inputs(x, inv, batch), tensor(f, want)))
    # FLOAT16, ROITensor {1, 1, NumROIs, 4}, BatchIndicesTensor {1, NumROIs}.
    xh = x.astype(np.float16).astype(np.float64)
    rh = inv.astype(np.float16).astype(np.float64)
    want = align_np(xh, rh, batch, 2, 3)
    cases.append(case("ROI_ALIGN", "float16-four-dimension-rois",
                      {}, inputs(xh, rh, batch, t="FLOAT16", roi_shape=[1, 1, 5, 4],
                                 idx_shape=[1, 5]), tensor("FLOAT16", want)))
    # One case per rule.
    good = inputs(x, rois, batch)
    out = {"type": f, "shape": [5, 2, 2, 2]}

    def bad(op, name, note, attrs=None, **tensors):
        ins = dict(good, OutputTensor=out)
        ins.update(tensors)
        return case(op, "invalid-" + name, attrs or {}, ins, error="invalid_argument",
                    note=note)

    cases += [
        bad("ROI_ALIGN", "reduction", "ReductionFunction must be AVERAGE or MAX",
            {"ReductionFunction": 10}),  # DML_REDUCE_FUNCTION_SUM
        bad("ROI_ALIGN1", "interpolation", "InterpolationMode must be NEAREST_NEIGHBOR or LINEAR",
            {"InterpolationMode": 5}),
        bad("ROI_ALIGN", "minimum-samples-zero", "MinimumSamplesPerOutput must be at least 1",
            {"MinimumSamplesPerOutput": 0}),
        bad("ROI_ALIGN1", "minimum-above-maximum",
            "MinimumSamplesPerOutput must be at most MaximumSamplesPerOutput",
            {"MinimumSamplesPerOutput": 3, "MaximumSamplesPerOutput": 2}),
        bad("ROI_ALIGN", "input-type", "InputTensor.DataType must be FLOAT32 or FLOAT16",
            InputTensor=tensor("INT32", np.zeros((2, 2, 8, 9))),
            OutputTensor={"type": "INT32", "shape": [5, 2, 2, 2]}),
        bad("ROI_ALIGN", "roi-type", "ROITensor.DataType must be InputTensor's",
            ROITensor=tensor("FLOAT16", rois)),
        bad("ROI_ALIGN", "indices-type", "BatchIndicesTensor.DataType must be UINT32",
            BatchIndicesTensor=tensor("INT32", batch)),
        bad("ROI_ALIGN", "roi-sizes", "ROITensor.Sizes must be {NumROIs, 4} after 1s",
            ROITensor=tensor(f, np.zeros((5, 5)))),
        bad("ROI_ALIGN1", "indices-count", "BatchIndicesTensor.Sizes must be {NumROIs}",
            BatchIndicesTensor=tensor("UINT32", batch[:4])),
        bad("ROI_ALIGN", "output-sizes", "OutputTensor.Sizes must be {NumROIs, C, H, W}",
            OutputTensor={"type": f, "shape": [4, 2, 2, 2]}),
        bad("ROI_ALIGN", "input-rank", "InputTensor.DimensionCount must be 4",
            InputTensor=tensor(f, np.zeros((1, 2, 2, 8, 9)))),
    ]
    return cases


# ---- ROI_POOLING ---------------------------------------------------------------------------

def pool_np(x, rois, scale, ph, pw):
    """The page's formulas in float64: corners rounded half away from zero, a region of at
    least one element, bins [floor(i size / P), ceil((i + 1) size / P)) from the corner,
    clamped into the input; an empty bin 0; batch values clamped into [0, N)."""
    n, c, h, w = x.shape
    out = np.zeros((len(rois), c, ph, pw))

    def rnd(v):
        return int(math.floor(abs(v) + 0.5)) * (1 if v >= 0 else -1)

    for r, q in enumerate(rois):
        b = min(max(int(q[0]), 0), n - 1)
        x1, y1, x2, y2 = (rnd(v * scale) for v in q[1:])
        rh, rw = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
        for oy in range(ph):
            ys = min(max(oy * rh // ph + y1, 0), h)
            ye = min(max(-(-(oy + 1) * rh // ph) + y1, 0), h)
            for ox in range(pw):
                xs = min(max(ox * rw // pw + x1, 0), w)
                xe = min(max(-(-(ox + 1) * rw // pw) + x1, 0), w)
                if ye > ys and xe > xs:
                    out[r, :, oy, ox] = x[b, :, ys:ye, xs:xe].max(axis=(1, 2))
    return out


def pool_cases(rng):
    cases = []
    for t, scale, (ph, pw) in [("FLOAT32", 1.0, (2, 3)), ("FLOAT32", 0.0625, (3, 3)),
                               ("FLOAT16", 0.5, (4, 2))]:
        x = rng.uniform(-1, 1, size=(2, 2, 9, 11)).astype(NUMPY_TYPES[t]).astype(np.float64)
        rois = []
        for _ in range(6):
            b = float(rng.integers(0, 3))
            corners = (rng.integers(-8, 48, size=4) / 4.0 / scale).tolist()
            rois.append([b] + corners)
        rois = np.array(rois, dtype=NUMPY_TYPES[t]).astype(np.float64)
        want = pool_np(x, rois, scale, ph, pw)
        cases.append(case("ROI_POOLING", "{}-scale-{}".format(t.lower(), scale),
                          {"SpatialScale": scale, "PooledSize": {"Width": pw, "Height": ph}},
                          {"InputTensor": tensor(t, x),
                           "ROITensor": tensor(t, rois, shape=[1, 1, 6, 5])},
                          tensor(t, want)))
    x = rng.uniform(-1, 1, size=(1, 2, 4, 4)).astype(np.float32).astype(np.float64)
    rois = np.array([[0, 0, 0, 3, 3]], dtype=np.float64)
    good = {"InputTensor": tensor("FLOAT32", x),
            "ROITensor": tensor("FLOAT32", rois, shape=[1, 1, 1, 5])}

    def bad(name, note, attrs, **tensors):
        ins = dict(good, OutputTensor={"type": "FLOAT32", "shape": [1, 2, 2, 2]})
        ins.update(tensors)
        return case("ROI_POOLING", "invalid-" + name, attrs, ins, error="invalid_argument",
                    note=note)

    cases += [
        bad("pooled-size", "OutputTensor.Sizes must be {NumROIs, C, PooledSize.Height, "
            "PooledSize.Width}", {"PooledSize": {"Width": 3, "Height": 2}}),
        bad("roi-sizes", "ROITensor.Sizes must be {1, 1, NumROIs, 5}", {},
            ROITensor=tensor("FLOAT32", np.zeros((1, 1, 1, 4)))),
        bad("roi-rank", "ROITensor.DimensionCount must be 4", {},
            ROITensor=tensor("FLOAT32", np.zeros((1, 5)))),
        bad("input-type", "InputTensor.DataType must be FLOAT32 or FLOAT16", {},
            InputTensor=tensor("FLOAT64", x)),
    ]
    return cases


def main():
    rng = np.random.default_rng(20261203)
    write(os.path.join(CASES, "roi.json"), pool_cases(rng) + align_cases(rng))
    write(os.path.join(CASES, "fold.json"), fold_cases(rng))


if __name__ == "__main__":
    main()
