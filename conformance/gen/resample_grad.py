# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/resample_grad.json: DirectML's RESAMPLE_GRAD (the adjoint of
RESAMPLE1: nearest rounds half up) and RESAMPLE_GRAD1 (of RESAMPLE2: RoundingDirection).

InputGradientTensor has the forward output's sizes, OutputGradientTensor the forward input's;
each forward output o adds weight(o, i) * dY[o] to every input element i it reads, the weights
those of the forward (gen/resample.py's axis_map: float32 coordinates, floor or ceil, clamped
to the edges, LINEAR's 1 - w and w). Cases: the pages' example (dY {4, 5, 6} -> dX {9, 6, 0,
0}), random shapes (GRAD rank 4, GRAD1 ranks 1 to 4), scales from downsampling to upsampling,
ONNX's coordinate modes and random offsets, both modes and rounding directions, FLOAT32 and
FLOAT16, strided tensors, one case per validation rule.

Expected values: numpy in float64, scattered from each forward output. Each result is checked
to be the adjoint of the forward (gen/resample.py's resample, float64): <RESAMPLE(x), dY> =
<x, dX> for a random x to 1e-12 of the products' magnitudes; the generator stops otherwise.
Tolerance, stated per case: a gradient element is a sum of N terms (N the most any element of
the case has), float32 compute: N + 2 ULPs (reduce sum's bound in reference/precision.md), or
(N + 2) float32 epsilons of the largest sum of the terms' magnitudes where the terms cancel.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/resample_grad.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import resample as fwd  # noqa: E402  (the forward's formulas, float32 coordinates)
from common import tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
EPS32 = 2.0 ** -24
MODES, DIRS, f32 = fwd.MODES, fwd.DIRS, fwd.f32


def resample_grad(dy, in_shape, scales, in_offs, out_offs, linear, ceil, half_up):
    """dX (float64), per element the number of terms and the sum of their magnitudes."""
    maps = [fwd.axis_map(in_shape[d], dy.shape[d], scales[d], in_offs[d], out_offs[d], linear,
                         ceil, half_up) for d in range(dy.ndim)]
    dx = np.zeros(in_shape)
    terms = np.zeros(in_shape, dtype=np.int64)
    mag = np.zeros(in_shape)
    for idx in np.ndindex(*dy.shape):
        corners = [((), 1.0)]
        for d, o in enumerate(idx):
            i0, i1, w = maps[d][o]
            nxt = []
            for at, wt in corners:
                nxt.append((at + (i0,), wt * (1 - w)))
                if w != 0:
                    nxt.append((at + (i1,), wt * w))
            corners = nxt
        for at, wt in corners:
            if wt == 0:
                continue
            dx[at] += wt * dy[idx]
            terms[at] += 1
            mag[at] += abs(wt * dy[idx])
    return dx, terms, mag


def check_adjoint(rng, dy, dx, in_shape, scales, in_offs, out_offs, linear, ceil, half_up):
    x = rng.uniform(-4, 4, size=in_shape)
    y, _ = fwd.resample(x, list(dy.shape), scales, in_offs, out_offs, linear, ceil, half_up)
    lhs, rhs = float(np.sum(y * dy)), float(np.sum(x * dx))
    scale = float(np.sum(np.abs(y * dy)) + np.sum(np.abs(x * dx)))
    assert abs(lhs - rhs) <= 1e-12 * scale + 1e-300, (lhs, rhs)


def strides_padded(shape):
    st, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        st[d] = acc
        acc *= shape[d] + (1 if d == len(shape) - 1 else 0)
    return st


def grad_case(rng, name, version, t, dy, in_shape, scales, in_offs, out_offs, linear,
              ceil=False, dy_strides=None, dx_strides=None, note=None):
    op = "RESAMPLE_GRAD" + ("1" if version else "")
    half_up = version == 0
    ceil = ceil and not half_up and not linear
    dx, terms, mag = resample_grad(dy, in_shape, scales, in_offs, out_offs, linear, ceil,
                                   half_up)
    check_adjoint(rng, dy, dx, in_shape, scales, in_offs, out_offs, linear, ceil, half_up)
    attrs = {"InterpolationMode": MODES[linear], "Scales": [f32(s) for s in scales],
             "InputPixelOffsets": [f32(v) for v in in_offs],
             "OutputPixelOffsets": [f32(v) for v in out_offs]}
    if version:
        attrs["RoundingDirection"] = DIRS[ceil]
    inp = tensor(t, dy)
    if dy_strides:
        inp["strides"] = dy_strides
    inputs = {"InputGradientTensor": inp}
    if dx_strides:
        inputs["OutputGradientTensor"] = {"type": t, "shape": list(in_shape),
                                          "strides": dx_strides}
    n = int(terms.max()) if terms.size else 0
    m = float(mag.max()) if mag.size else 0.0
    tol = {"ulp": n + 2}
    if m > 0:
        tol["abs"] = (n + 2) * EPS32 * m
    note = (note + "; " if note else "") + f"at most {n} terms an element: N + 2 ULPs"
    return fwd.case(name, op, inputs, {"OutputGradientTensor": tensor(t, dx)}, attrs=attrs,
                    note=note, tolerance=tol)


def page_cases(rng):
    """The pages' example: nearest, 0.5 along H and 1.5 along W of a {2, 2} input with
    x = o / Scale (RESAMPLE_GRAD: half up, so InputPixelOffsets 0.5 less on N, C too; GRAD1:
    offsets 0, DECREASING)."""
    dy = np.array([4.0, 5.0, 6.0]).reshape(1, 1, 1, 3)
    got = []
    for version, io in ((0, [0.5] * 4), (1, [0.0] * 4)):
        c = grad_case(rng, f"directml.resample_grad{version or ''}.page-example", version,
                      "FLOAT32", dy, [1, 1, 2, 2], [1.0, 1.0, 0.5, 1.5], io, [0.0] * 4, False,
                      note="the page's example: [4, 5, 6] -> [[9, 6], [0, 0]]")
        want = [9.0, 6.0, 0.0, 0.0]
        assert c["expected"]["outputs"]["OutputGradientTensor"]["data"] == want, c
        got.append(c)
    return got


def generated_cases(rng):
    got = []
    scale_pool = [2.0, 3.0, 0.5, 1.5, 0.75, 0.6, 1.7, 1.0, 4.0, 0.3]
    k = 0
    for version in (0, 1):
        for rank in ((4,) if version == 0 else (1, 2, 3, 4)):
            for linear in (False, True):
                for ceil in ((False, True) if version and not linear else (False,)):
                    for t in ("FLOAT32", "FLOAT16"):
                        k += 1
                        shape = [int(rng.integers(1, 6)) for _ in range(rank)]
                        if rank == 4:
                            shape[0] = int(rng.integers(1, 3))
                        scales = [float(rng.choice(scale_pool)) for _ in range(rank)]
                        in_offs = [float(rng.choice([0.5, 0.0, 0.25, -0.5])) for _ in range(rank)]
                        out_offs = [float(rng.choice([-0.5, 0.0, 0.5])) for _ in range(rank)]
                        out_shape = [max(1, int(math.floor(n * f32(s)))) for n, s in
                                     zip(shape, scales)]
                        if k % 5 == 0:  # the pages' crop and clamp: one more output
                            out_shape[-1] += 1
                        dy = fwd.stored(t, rng.uniform(-8, 8, size=out_shape))
                        dy_st = strides_padded(out_shape) if k % 3 == 0 else None
                        dx_st = strides_padded(shape) if k % 4 == 1 else None
                        mode = "linear" if linear else ("ceil" if ceil else "nearest")
                        got.append(grad_case(
                            rng, f"directml.resample_grad{version or ''}.{t.lower()}-rank{rank}-"
                                 f"{mode}-{k}", version, t, dy, shape, scales, in_offs, out_offs,
                            linear, ceil, dy_st, dx_st))
    # A large downscale: many outputs clamp onto the first and last elements (sums of many).
    dy = fwd.stored("FLOAT32", rng.uniform(-1, 1, size=[1, 1, 1, 64]))
    got.append(grad_case(rng, "directml.resample_grad1.clamped-edges", 1, "FLOAT32", dy,
                         [1, 1, 1, 3], [1.0, 1.0, 1.0, 4.0], [0.0] * 4, [0.0, 0.0, 0.0, 20.0],
                         True, note="outputs before 20 and past 28 clamp onto the edges"))
    return got


def invalid_cases():
    got = []
    dy4 = {"InputGradientTensor": tensor("FLOAT32", np.zeros([1, 1, 4, 4])),
           "OutputGradientTensor": {"type": "FLOAT32", "shape": [1, 1, 2, 2]}}
    g1 = {"InterpolationMode": MODES[True], "RoundingDirection": DIRS[False],
          "Scales": [1.0, 1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 4,
          "OutputPixelOffsets": [-0.5] * 4}
    g0 = {k: v for k, v in g1.items() if k != "RoundingDirection"}
    for label, change, why in (
            ("scale-zero", {"Scales": [1.0, 1.0, 0.0, 2.0]}, "each Scale greater than 0"),
            ("scale-inf", {"Scales": [1.0, "inf", 1.0, 2.0]}, "each Scale finite"),
            ("offset-nan", {"InputPixelOffsets": [0.5, 0.5, "nan", 0.5]}, "offsets finite"),
            ("count", {"Scales": [2.0, 2.0], "InputPixelOffsets": [0.5] * 2,
                       "OutputPixelOffsets": [-0.5] * 2},
             "DimensionCount equals the tensors' rank"),
            ("mode", {"InterpolationMode": 2}, "NEAREST_NEIGHBOR or LINEAR"),
            ("rounding", {"RoundingDirection": 2}, "INCREASING or DECREASING")):
        got.append(fwd.case(f"directml.resample_grad1.invalid-{label}", "RESAMPLE_GRAD1", dy4,
                            attrs={**g1, **change}, error="invalid_argument", note=why))
    got.append(fwd.case("directml.resample_grad.invalid-type", "RESAMPLE_GRAD",
                        {"InputGradientTensor": tensor("INT8", np.zeros([1, 1, 4, 4])),
                         "OutputGradientTensor": {"type": "INT8", "shape": [1, 1, 2, 2]}},
                        attrs=g0, error="invalid_argument", note="FLOAT32 and FLOAT16 only"))
    got.append(fwd.case("directml.resample_grad.invalid-output-type", "RESAMPLE_GRAD",
                        {**dy4, "OutputGradientTensor": {"type": "FLOAT16", "shape": [1, 1, 2, 2]}},
                        attrs=g0, error="invalid_argument", note="one DataType"))
    got.append(fwd.case("directml.resample_grad.invalid-rank3", "RESAMPLE_GRAD",
                        {"InputGradientTensor": tensor("FLOAT32", np.zeros([1, 4, 4])),
                         "OutputGradientTensor": {"type": "FLOAT32", "shape": [1, 2, 2]}},
                        attrs={**g0, "Scales": [1.0, 2.0, 2.0], "InputPixelOffsets": [0.5] * 3,
                               "OutputPixelOffsets": [-0.5] * 3},
                        error="invalid_argument", note="RESAMPLE_GRAD's table: rank 4"))
    got.append(fwd.case("directml.resample_grad1.invalid-rank5", "RESAMPLE_GRAD1",
                        {"InputGradientTensor": tensor("FLOAT32", np.zeros([1, 1, 1, 4, 4])),
                         "OutputGradientTensor": {"type": "FLOAT32", "shape": [1, 1, 1, 2, 2]}},
                        attrs={**g1, "Scales": [1.0] * 3 + [2.0] * 2,
                               "InputPixelOffsets": [0.5] * 5, "OutputPixelOffsets": [-0.5] * 5},
                        error="invalid_argument", note="RESAMPLE_GRAD1's table: ranks 1 to 4"))
    got.append(fwd.case("directml.resample_grad1.invalid-output-rank", "RESAMPLE_GRAD1",
                        {**dy4, "OutputGradientTensor": {"type": "FLOAT32", "shape": [1, 2, 2]}},
                        attrs=g1, error="invalid_argument", note="one DimensionCount"))
    return got


def main():
    rng = np.random.default_rng(20261203)
    cases = page_cases(rng) + generated_cases(rng) + invalid_cases()
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "directml", "resample_grad.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
