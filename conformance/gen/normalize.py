# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/normalize.json: DirectML's normalising operators,
ACTIVATION_SOFTMAX, LOG_SOFTMAX, HARDMAX and their *1 versions (Axes), MEAN_VARIANCE_NORMALIZATION
(and 1, 2) and LP_NORMALIZATION: the page examples (ACTIVATION_HARDMAX1's three verbatim;
ACTIVATION_LOG_SOFTMAX1's page repeats HARDMAX1's outputs, so its three inputs are cases with
the log-softmax values and an erratum), generated cases (axis sets inner, outer, middle, split
and all, rows of one element, ranks 1 to 8, FLOAT16, strided inputs and outputs, scale and bias
broadcast, fused activations, MVN2's four UseMean/UseVariance forms, LP's P 1 and 2 and a zero
row), and one case per validation rule.

Expected values: the formulas of DirectML's pages (docs/operators.md where they are silent)
evaluated in float64 with numpy on the inputs as stored (FLOAT16 inputs rounded first), the
parameters as the descriptor's FLOAT32, each result rounded once to the output type. Rows: the
elements sharing every coordinate outside the axes. SOFTMAX exp(x - max) / sum; LOG_SOFTMAX
(x - max) - log(sum); HARDMAX 1 at the row's first largest value (row-major over the axes in
dimension order); MVN act(scale * (x - mean) / sqrt(var + eps) + bias), var biased, the mean
0 without UseMean (MVN2), no division without the variance; LP x / max(||row||_P, eps).
Float outputs are compared within the runner's default tolerances (conformance/ops_normalize.c).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/normalize.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
sys.path.insert(0, HERE)
from common import NUMPY_TYPES, tensor, write  # noqa: E402
from elementwise_activation import act_real  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
DML_OPERATOR_ACTIVATION_SOFTMAX = 48  # directml.h's value: a Type the runner passes as is


def f32(v):
    return float(np.float32(v))


def stored(t, a):
    """a as the tensor of type t holds it, in float64."""
    return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


# ---- The formulas (float64) ---------------------------------------------------------------

def rows_apply(x, axes, fn):
    """fn on each row of x (the elements sharing the coordinates outside axes); the row is
    flattened row-major over the axes in dimension order, and fn returns the row's results."""
    axes = sorted(axes)
    keep = [d for d in range(x.ndim) if d not in axes]
    perm = keep + axes
    xt = np.transpose(x, perm)
    lead = xt.shape[:len(keep)]
    flat = xt.reshape(lead + (-1,))
    out = np.empty_like(flat)
    for idx in np.ndindex(*lead):
        out[idx] = fn(flat[idx])
    out = out.reshape(xt.shape)
    return np.transpose(out, np.argsort(perm))


def softmax_row(r):
    e = np.exp(r - r.max())
    return e / e.sum()


def log_softmax_row(r):
    m = r.max()
    return (r - m) - np.log(np.exp(r - m).sum())


def hardmax_row(r):
    out = np.zeros_like(r)
    out[int(np.argmax(r))] = 1.0  # numpy's argmax: the first largest
    return out


FUNCS = {"SOFTMAX": softmax_row, "LOG_SOFTMAX": log_softmax_row, "HARDMAX": hardmax_row}


def mvn(x, axes, use_mean, use_variance, eps, scale=None, bias=None, act=None):
    def row(r):
        m = r.mean() if use_mean else 0.0
        if not use_variance:
            return r - m
        v = ((r - m) ** 2).mean()
        return (r - m) / np.sqrt(v + eps)
    y = rows_apply(x, axes, row)
    if scale is not None:
        y = y * scale
    if bias is not None:
        y = y + bias
    if act is not None:
        name, p = act
        y = np.vectorize(lambda v: act_real(name, p, float(v)), otypes=[np.float64])(y)
    return y


def lp(x, axis, p, eps):
    def row(r):
        norm = np.abs(r).sum() if p == 1 else np.sqrt((r * r).sum())
        return r / max(norm, eps)
    return rows_apply(x, [axis], row)


# ---- Cases --------------------------------------------------------------------------------

def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None, source=None,
         erratum=None):
    c = {"name": name,
         "source": source or f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else
                                                                     "semantics"),
         "op": "DML_OPERATOR_" + op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    if erratum:
        c["erratum"] = erratum
    return c


PAGE_INPUT = [[[12, 0], [-101, 11]], [[3, 234], [0, -101]]]


def page_cases():
    got = []
    x = np.array(PAGE_INPUT, dtype=np.float64)
    # HARDMAX1's page: examples 1 to 3, verbatim.
    for k, (axes, want) in enumerate((
            ([1], [[[1, 0], [0, 1]], [[1, 1], [0, 0]]]),
            ([0], [[[1, 0], [0, 1]], [[0, 1], [1, 0]]]),
            ([0, 2], [[[0, 0], [0, 1]], [[0, 1], [0, 0]]])), 1):
        assert (rows_apply(x, axes, hardmax_row) == np.array(want)).all()
        got.append(case(f"directml.activation_hardmax1.example-{k}", "ACTIVATION_HARDMAX1",
                        {"InputTensor": tensor("FLOAT32", x)},
                        {"OutputTensor": tensor("FLOAT32", np.array(want, dtype=np.float64))},
                        attrs={"Axes": axes},
                        source=f"directml:DML_ACTIVATION_HARDMAX1_OPERATOR_DESC#example-{k}"))
    # LOG_SOFTMAX1's page prints HARDMAX1's outputs for the same inputs and axes.
    for k, axes in enumerate(([1], [0], [0, 2]), 1):
        y = rows_apply(x, axes, log_softmax_row)
        got.append(case(
            f"directml.activation_log_softmax1.example-{k}", "ACTIVATION_LOG_SOFTMAX1",
            {"InputTensor": tensor("FLOAT32", x)}, {"OutputTensor": tensor("FLOAT32", y)},
            attrs={"Axes": axes},
            source=f"directml:DML_ACTIVATION_LOG_SOFTMAX1_OPERATOR_DESC#example-{k}",
            erratum="the page prints ACTIVATION_HARDMAX1's outputs (1 at each row's largest "
                    "value, 0 elsewhere), which contradicts its own formula "
                    "ln(exp(x_i) / sum exp(x_j)); this case holds the formula's values"))
    return got


def softmax_family_cases(rng):
    got = []
    for fn in ("SOFTMAX", "LOG_SOFTMAX", "HARDMAX"):
        row = FUNCS[fn]
        op, op1 = "ACTIVATION_" + fn, "ACTIVATION_" + fn + "1"
        cname, cname1 = "directml." + op.lower(), "directml." + op1.lower()

        def data(shape, t, ties=False):
            if ties:  # small integers: a row holds its largest value more than once
                a = rng.integers(-3, 4, size=shape).astype(np.float64)
            else:
                a = rng.normal(0.0, 3.0, size=shape)
            return stored(t, a)

        # The 1.0 operators: the last dimension, effective rank <= 2.
        for shape, t in (([1, 1, 3, 7], "FLOAT32"), ([4, 5], "FLOAT16"), ([9], "FLOAT32"),
                         ([1, 1, 1, 1], "FLOAT32"), ([1, 6, 1], "FLOAT32"),
                         ([1, 1, 2, 33], "FLOAT16")):
            x = data(shape, t, ties=fn == "HARDMAX")
            y = rows_apply(x, [len(shape) - 1], row)
            got.append(case(f"{cname}.{t.lower()}-{'x'.join(map(str, shape))}", op,
                            {"InputTensor": tensor(t, x)}, {"OutputTensor": tensor(t, y)}))
        # Large values: exp(x) overflows unless the row's largest is taken out.
        x = np.array([[1000.0, 1001.0, 999.0, -1000.0], [-88.0, -87.5, -200.0, 0.0]])
        got.append(case(f"{cname}.large-values", op, {"InputTensor": tensor("FLOAT32", x)},
                        {"OutputTensor": tensor("FLOAT32", rows_apply(x, [1], row))},
                        note="exp(x - max): no overflow at 1000"))
        # The *1 operators: axis sets.
        shape = [2, 3, 4, 5]
        for axes in ([3], [0], [1, 2], [0, 2], [2, 0], [0, 1, 2, 3], [1, 3]):
            for t in ("FLOAT32", "FLOAT16"):
                if t == "FLOAT16" and axes not in ([3], [0, 2]):
                    continue
                x = data(shape, t, ties=fn == "HARDMAX")
                y = rows_apply(x, axes, row)
                got.append(case(f"{cname1}.{t.lower()}-axes{''.join(map(str, axes))}", op1,
                                {"InputTensor": tensor(t, x)}, {"OutputTensor": tensor(t, y)},
                                attrs={"Axes": axes}))
        # Rows of one element (the axis has size 1), rank 1 and rank 8.
        for shape, axes in (([3, 1, 4], [1]), ([7], [0]), ([2, 1, 3, 1, 2, 2, 1, 3], [2, 5, 7])):
            x = data(shape, "FLOAT32", ties=fn == "HARDMAX")
            got.append(case(f"{cname1}.shape{'x'.join(map(str, shape))}-axes"
                            f"{''.join(map(str, axes))}", op1,
                            {"InputTensor": tensor("FLOAT32", x)},
                            {"OutputTensor": tensor("FLOAT32", rows_apply(x, axes, row))},
                            attrs={"Axes": axes}))
        # A strided (transposed) input and a strided output.
        x = data([4, 6], "FLOAT32", ties=fn == "HARDMAX")
        inp = tensor("FLOAT32", x)
        inp["strides"] = [1, 4]
        got.append(case(f"{cname1}.strided-input", op1, {"InputTensor": inp},
                        {"OutputTensor": tensor("FLOAT32", rows_apply(x, [1], row))},
                        attrs={"Axes": [1]}, note="InputTensor read through strides {1, 4}"))
        x = data([3, 5], "FLOAT16", ties=fn == "HARDMAX")
        got.append(case(f"{cname1}.strided-output", op1, {
            "InputTensor": tensor("FLOAT16", x),
            "OutputTensor": {"type": "FLOAT16", "shape": [3, 5], "strides": [1, 3]}},
            {"OutputTensor": tensor("FLOAT16", rows_apply(x, [0], row))}, attrs={"Axes": [0]},
            note="OutputTensor written through strides {1, 3}"))
        # One case per rule.
        bad = {"invalid_argument"}
        got.append(case(f"{cname}.invalid-type", op, {"InputTensor": tensor("INT32", [[1, 2]])},
                        error="invalid_argument", note="FLOAT32 and FLOAT16 only"))
        got.append(case(f"{cname}.invalid-effective-rank", op,
                        {"InputTensor": tensor("FLOAT32", np.zeros([2, 3, 4]))},
                        error="invalid_argument",
                        note="every dimension but the last two must be 1 (effective rank <= 2)"))
        got.append(case(f"{cname}.invalid-output-sizes", op,
                        {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]]),
                         "OutputTensor": {"type": "FLOAT32", "shape": [2, 1]}},
                        error="invalid_argument", note="the output has the input's Sizes"))
        got.append(case(f"{cname}.invalid-output-type", op,
                        {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]]),
                         "OutputTensor": {"type": "FLOAT16", "shape": [1, 2]}},
                        error="invalid_argument", note="the output has the input's DataType"))
        got.append(case(f"{cname}.invalid-output-rank", op,
                        {"InputTensor": tensor("FLOAT32", [[1.0, 2.0]]),
                         "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 2]}},
                        error="invalid_argument",
                        note="the output has the input's DimensionCount"))
        x = np.zeros([2, 3])
        for label, axes, why in (("axis-out-of-range", [2], "an axis below DimensionCount"),
                                 ("repeated-axis", [1, 1], "Axes is a set"),
                                 ("no-axis", [], "AxisCount at least 1"),
                                 ("too-many-axes", [0, 1, 0], "AxisCount <= DimensionCount")):
            got.append(case(f"{cname1}.invalid-{label}", op1,
                            {"InputTensor": tensor("FLOAT32", x)}, attrs={"Axes": axes},
                            error="invalid_argument", note=why))
        del bad
    return got


def mvn_cases(rng):
    got = []
    eps = f32(1e-5)

    def data(shape, t, spread=2.0):
        return stored(t, rng.normal(0.5, spread, size=shape))

    # MEAN_VARIANCE_NORMALIZATION: {N, C, H, W}.
    op = "MEAN_VARIANCE_NORMALIZATION"
    shape = [2, 3, 4, 5]
    for cross in (False, True):
        for nv in (False, True):
            for t in ("FLOAT32", "FLOAT16"):
                x = data(shape, t)
                axes = [1, 2, 3] if cross else [2, 3]
                y = mvn(x, axes, True, nv, eps)
                got.append(case(f"directml.mvn.{t.lower()}-cross{int(cross)}-variance{int(nv)}",
                                op, {"InputTensor": tensor(t, x)}, {"OutputTensor": tensor(t, y)},
                                attrs={"CrossChannel": cross, "NormalizeVariance": nv,
                                       "Epsilon": eps},
                                note="CrossChannel: axes {1, 2, 3}, else {2, 3} (its page)"))
    # Scale and bias per channel, a fused activation.
    for t, act in (("FLOAT32", ("RELU", {})), ("FLOAT16", ("LEAKY_RELU", {"Alpha": f32(0.1)}))):
        x = data(shape, t)
        s = stored(t, rng.uniform(0.5, 1.0, size=[1, 3, 1, 1]))
        b = stored(t, rng.uniform(-1, 1, size=[1, 3, 1, 1]))
        y = mvn(x, [2, 3], True, True, eps, s, b, act)
        fused = {"Type": "DML_OPERATOR_ACTIVATION_" + act[0], **act[1]}
        got.append(case(f"directml.mvn.{t.lower()}-scale-bias-{act[0].lower()}", op,
                        {"InputTensor": tensor(t, x), "ScaleTensor": tensor(t, s),
                         "BiasTensor": tensor(t, b)}, {"OutputTensor": tensor(t, y)},
                        attrs={"CrossChannel": False, "NormalizeVariance": True, "Epsilon": eps,
                               "FusedActivation": fused}))
    # MEAN_VARIANCE_NORMALIZATION1: Axes.
    op1 = "MEAN_VARIANCE_NORMALIZATION1"
    for shape, axes, t in (([2, 3, 4, 5], [0, 2, 3], "FLOAT32"), ([2, 3, 4, 5], [3], "FLOAT32"),
                           ([2, 3, 4, 5], [1, 2, 3], "FLOAT16"), ([6, 10], [1], "FLOAT16"),
                           ([24], [0], "FLOAT32"), ([2, 2, 3, 2, 4], [1, 3], "FLOAT32"),
                           ([3, 1, 4], [1], "FLOAT32")):
        x = data(shape, t)
        y = mvn(x, axes, True, True, eps)
        got.append(case(f"directml.mvn1.{t.lower()}-shape{'x'.join(map(str, shape))}-axes"
                        f"{''.join(map(str, axes))}", op1, {"InputTensor": tensor(t, x)},
                        {"OutputTensor": tensor(t, y)},
                        attrs={"Axes": axes, "NormalizeVariance": True, "Epsilon": eps},
                        note="a row of one element gives 0" if 1 in
                        [shape[a] for a in axes] else None))
    # Layer normalization: scale and bias along the normalised axis; scale alone; bias alone.
    x = data([4, 8], "FLOAT32")
    s = stored("FLOAT32", rng.uniform(-1, 1, size=[1, 8]))
    b = stored("FLOAT32", rng.uniform(-1, 1, size=[1, 8]))
    for label, sc, bi in (("scale-bias", s, b), ("scale-only", s, None), ("bias-only", None, b)):
        inputs = {"InputTensor": tensor("FLOAT32", x)}
        if sc is not None:
            inputs["ScaleTensor"] = tensor("FLOAT32", sc)
        if bi is not None:
            inputs["BiasTensor"] = tensor("FLOAT32", bi)
        got.append(case(f"directml.mvn1.layer-norm-{label}", op1, inputs,
                        {"OutputTensor": tensor("FLOAT32", mvn(x, [1], True, True, eps, sc, bi))},
                        attrs={"Axes": [1], "NormalizeVariance": True, "Epsilon": eps},
                        note="scale and bias vary along the normalised axis; either alone "
                             "(feature level 5.2)"))
    # Scale and bias broadcast in other dimensions, a strided input, a fused SIGMOID.
    x = data([2, 3, 4], "FLOAT32")
    s = stored("FLOAT32", rng.uniform(0.2, 1, size=[2, 1, 4]))
    b = stored("FLOAT32", rng.uniform(-1, 1, size=[1, 3, 1]))
    inp = tensor("FLOAT32", x)
    inp["strides"] = [1, 2, 6]
    got.append(case("directml.mvn1.strided-broadcast-sigmoid", op1,
                    {"InputTensor": inp, "ScaleTensor": tensor("FLOAT32", s),
                     "BiasTensor": tensor("FLOAT32", b)},
                    {"OutputTensor": tensor("FLOAT32", mvn(x, [0, 2], True, True, eps, s, b,
                                                           ("SIGMOID", {})))},
                    attrs={"Axes": [0, 2], "NormalizeVariance": True, "Epsilon": eps,
                           "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SIGMOID"}},
                    note="InputTensor strides {1, 2, 6}; ScaleTensor {2, 1, 4}, BiasTensor "
                         "{1, 3, 1} broadcast"))
    x = data([3, 6], "FLOAT32", spread=5.0)
    got.append(case("directml.mvn1.no-variance", op1, {"InputTensor": tensor("FLOAT32", x)},
                    {"OutputTensor": tensor("FLOAT32", mvn(x, [1], True, False, eps))},
                    attrs={"Axes": [1], "NormalizeVariance": False, "Epsilon": eps},
                    note="x - mean: no division, Epsilon unused"))
    # A large epsilon shows where it goes (inside the square root).
    x = data([2, 4], "FLOAT32")
    got.append(case("directml.mvn1.large-epsilon", op1, {"InputTensor": tensor("FLOAT32", x)},
                    {"OutputTensor": tensor("FLOAT32", mvn(x, [1], True, True, 4.0))},
                    attrs={"Axes": [1], "NormalizeVariance": True, "Epsilon": 4.0},
                    note="(x - mean) / sqrt(variance + Epsilon)"))
    # Rows far from 0 with a small spread: their mean is no float32, and (x - the rounded mean)
    # / deviation misses the tolerance by up to 40x (a generator of their own, so the cases
    # above keep their data).
    near = np.random.default_rng(20261203)
    for opn, label, offset, spread, shape in (
            (op1, "near-constant-row", 1000.0, 0.02, [1, 8]),
            (op1, "large-offset-rows", 10000.0, 0.03, [2, 16]),
            ("MEAN_VARIANCE_NORMALIZATION2", "near-constant-row", 1000.0, 0.02, [3, 8])):
        x = stored("FLOAT32", offset + near.uniform(-spread, spread, size=shape))
        e = f32(1e-5) if opn != op1 else 0.0
        attrs = ({"Axes": [1], "NormalizeVariance": True, "Epsilon": e} if opn == op1 else
                 {"Axes": [1], "UseMean": True, "UseVariance": True, "Epsilon": e})
        got.append(case(f"directml.{'mvn1' if opn == op1 else 'mvn2'}.{label}", opn,
                        {"InputTensor": tensor("FLOAT32", x)},
                        {"OutputTensor": tensor("FLOAT32", mvn(x, [1], True, True, e))},
                        attrs=attrs,
                        note=f"rows of {offset:g} +- {spread:g}: the mean is no float32"))
    # MEAN_VARIANCE_NORMALIZATION2: UseMean, UseVariance.
    op2 = "MEAN_VARIANCE_NORMALIZATION2"
    for um in (False, True):
        for uv in (False, True):
            for t in ("FLOAT32", "FLOAT16"):
                x = data([3, 2, 8], t)
                s = stored(t, rng.uniform(0.5, 1, size=[1, 1, 8]))
                b = stored(t, rng.uniform(-1, 1, size=[1, 1, 8]))
                y = mvn(x, [1, 2], um, uv, eps, s, b)
                got.append(case(f"directml.mvn2.{t.lower()}-mean{int(um)}-variance{int(uv)}",
                                op2, {"InputTensor": tensor(t, x), "ScaleTensor": tensor(t, s),
                                      "BiasTensor": tensor(t, b)},
                                {"OutputTensor": tensor(t, y)},
                                attrs={"Axes": [1, 2], "UseMean": um, "UseVariance": uv,
                                       "Epsilon": eps},
                                note="without UseMean the variance is taken about 0 (RMS "
                                     "normalisation)" if uv and not um else None))
    x = data([2, 5], "FLOAT32")
    got.append(case("directml.mvn2.rms-elu", op2, {"InputTensor": tensor("FLOAT32", x)},
                    {"OutputTensor": tensor("FLOAT32", mvn(x, [1], False, True, eps, None, None,
                                                           ("ELU", {"Alpha": 1.0})))},
                    attrs={"Axes": [1], "UseMean": False, "UseVariance": True, "Epsilon": eps,
                           "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_ELU",
                                               "Alpha": 1.0}}))
    # One case per rule.
    x4 = np.zeros([1, 2, 2, 2])
    base = {"InputTensor": tensor("FLOAT32", x4)}
    rules = [
        ("mvn", op, {"InputTensor": tensor("FLOAT32", np.zeros([2, 2, 2]))},
         {"CrossChannel": False}, "MEAN_VARIANCE_NORMALIZATION takes 4 dimensions"),
        ("mvn", op, {"InputTensor": tensor("INT32", np.zeros([1, 2, 2, 2]))}, {},
         "FLOAT32 and FLOAT16 only"),
        ("mvn", op, {**base, "ScaleTensor": tensor("FLOAT16", np.ones([1, 2, 1, 1]))}, {},
         "ScaleTensor has the input's DataType"),
        ("mvn", op, {**base, "ScaleTensor": tensor("FLOAT32", np.ones([2, 1, 1]))}, {},
         "ScaleTensor has the input's DimensionCount"),
        ("mvn", op, {**base, "BiasTensor": tensor("FLOAT32", np.ones([1, 3, 1, 1]))}, {},
         "each BiasTensor size is the input's or 1"),
        ("mvn", op, {**base, "OutputTensor": {"type": "FLOAT32", "shape": [1, 2, 2, 1]}}, {},
         "the output has the input's Sizes"),
        ("mvn", op, {**base, "OutputTensor": {"type": "FLOAT16", "shape": [1, 2, 2, 2]}}, {},
         "the output has the input's DataType"),
        ("mvn", op, base, {"FusedActivation": {"Type": DML_OPERATOR_ACTIVATION_SOFTMAX}},
         "ACTIVATION_SOFTMAX is no fusable activation"),
        ("mvn1", op1, base, {"Axes": [4]}, "an axis below DimensionCount"),
        ("mvn1", op1, base, {"Axes": [2, 2]}, "Axes is a set"),
        ("mvn1", op1, base, {"Axes": []}, "AxisCount at least 1"),
        ("mvn1", op1, {**base, "ScaleTensor": tensor("FLOAT32", np.ones([1, 2, 2, 3]))},
         {"Axes": [3]}, "each ScaleTensor size is the input's or 1"),
        ("mvn2", op2, base, {"Axes": [5]}, "an axis below DimensionCount"),
        ("mvn2", op2, {**base, "BiasTensor": tensor("FLOAT16", np.ones([1, 1, 1, 1]))},
         {"Axes": [3]}, "BiasTensor has the input's DataType"),
    ]
    for k, (short, o, inputs, attrs, why) in enumerate(rules):
        got.append(case(f"directml.{short}.invalid-{k}", o, inputs, attrs=attrs or None,
                        error="invalid_argument", note=why))
    return got


def lp_cases(rng):
    got = []
    op = "LP_NORMALIZATION"
    eps = f32(1e-5)
    for shape, axis, p, t in (([2, 3, 4, 5], 3, 2, "FLOAT32"), ([2, 3, 4, 5], 0, 1, "FLOAT32"),
                              ([2, 3, 4, 5], 1, 2, "FLOAT16"), ([6, 7], 1, 1, "FLOAT16"),
                              ([9], 0, 2, "FLOAT32"), ([3, 1, 2], 1, 2, "FLOAT32"),
                              ([2, 2, 2, 2, 2, 3], 4, 1, "FLOAT32")):
        x = stored(t, rng.normal(0, 2, size=shape))
        got.append(case(f"directml.lp_normalization.{t.lower()}-shape{'x'.join(map(str, shape))}"
                        f"-axis{axis}-p{p}", op, {"InputTensor": tensor(t, x)},
                        {"OutputTensor": tensor(t, lp(x, axis, p, eps))},
                        attrs={"Axis": axis, "P": p, "Epsilon": eps}))
    x = np.array([[0.0, 0.0, 0.0], [1e-7, -2e-7, 0.0], [3.0, -4.0, 0.0]])
    x = stored("FLOAT32", x)
    got.append(case("directml.lp_normalization.zero-and-tiny-rows", op,
                    {"InputTensor": tensor("FLOAT32", x)},
                    {"OutputTensor": tensor("FLOAT32", lp(x, 1, 2, eps))},
                    attrs={"Axis": 1, "P": 2, "Epsilon": eps},
                    note="x / max(norm, Epsilon): a zero row stays 0, a tiny one is divided "
                         "by Epsilon (docs/operators.md)"))
    x = stored("FLOAT32", rng.normal(0, 2, size=[4, 3]))
    inp = tensor("FLOAT32", x)
    inp["strides"] = [1, 4]
    got.append(case("directml.lp_normalization.strided-input", op, {"InputTensor": inp},
                    {"OutputTensor": tensor("FLOAT32", lp(x, 0, 2, eps))},
                    attrs={"Axis": 0, "P": 2, "Epsilon": eps}))
    base = {"InputTensor": tensor("FLOAT32", np.ones([2, 3]))}
    for label, inputs, attrs, why in (
            ("p3", base, {"Axis": 1, "P": 3, "Epsilon": eps}, "P is 1 or 2"),
            ("p0", base, {"Axis": 1, "P": 0, "Epsilon": eps}, "P is 1 or 2"),
            ("axis", base, {"Axis": 2, "P": 2, "Epsilon": eps}, "Axis below DimensionCount"),
            ("type", {"InputTensor": tensor("INT32", np.ones([2, 3]))},
             {"Axis": 1, "P": 2, "Epsilon": eps}, "FLOAT32 and FLOAT16 only"),
            ("output-sizes", {**base, "OutputTensor": {"type": "FLOAT32", "shape": [3, 2]}},
             {"Axis": 1, "P": 2, "Epsilon": eps}, "the output has the input's Sizes")):
        got.append(case(f"directml.lp_normalization.invalid-{label}", op, inputs, attrs=attrs,
                        error="invalid_argument", note=why))
    return got


def main():
    rng = np.random.default_rng(20261128)
    cases = page_cases() + softmax_family_cases(rng) + mvn_cases(rng) + lp_cases(rng)
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "directml", "normalize.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
