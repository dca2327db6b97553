# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/bnorm_training.json: DirectML's batch-normalization
training operators.

BATCH_NORMALIZATION_TRAINING: per channel (an element of ScaleTensor's shape) the mean and the
biased variance of the input over every dimension where ScaleTensor's size is 1, then
Output = act(Scale * (Input - Mean) / sqrt(Variance + Epsilon) + Bias + FusedAdd).
BATCH_NORMALIZATION_GRAD: OutputGradient = dY * Scale / sqrt(Variance + Epsilon),
OutputScaleGradient = sum(dY * (X - Mean) / sqrt(Variance + Epsilon)), OutputBiasGradient =
sum(dY), the sums over every dimension where MeanTensor's size is 1.
BATCH_NORMALIZATION_TRAINING_GRAD: the same sums, and OutputGradient = Scale / sqrt(Variance +
Epsilon) * (dY - mean(dY) - (X - Mean) * mean(dY * (X - Mean)) / (Variance + Epsilon)).

Cases: ONNX's per-channel layout (NCHW, statistics {1, C, 1, 1}), other statistics' shapes
(several kept dimensions, every dimension kept: one element per channel, whose variance is 0;
none: one channel), 1 to 8 dimensions, FLOAT32 and FLOAT16, FusedAdd and fused activations,
strided (NHWC) and broadcast inputs, strided outputs, inputs whose mean is far from 0 (the
sums cancel), the gradients with the forward's statistics and with unrelated ones, and one
case per validation rule; a training step as one graph (the forward's mean and variance
feeding the training gradient).

Expected values: numpy in float64 from the pages' formulas, rounded once to the output type.
Checks, the generator stopping on a disagreement: every BATCH_NORMALIZATION_TRAINING output
of ONNX's per-channel form against onnx.reference's BatchNormalization-15 with training_mode 1
(its Y; its running statistics are not DirectML's outputs), in float64;
BATCH_NORMALIZATION_TRAINING_GRAD's three outputs against central finite differences of
<dY, BATCH_NORMALIZATION_TRAINING(X, Scale, Bias)> with respect to X, Scale and Bias (the
forward's statistics), and BATCH_NORMALIZATION_GRAD's against those of the inference form
(Mean and Variance fixed), in float64.

Tolerances, per output (stated in each case): the sums take reference/precision.md's reduce
sum rule, N + 2 ULP (N the elements a channel sums), or, where a sum cancels, the float32
computation's (N + 2) 2^-23 times the sum of the terms' magnitudes (DirectML computes FLOAT16
in float32); the normalized output and the training gradient add the normalization's 6 ULP
(BATCH_NORMALIZATION's) to the N + 2 of the statistics they rest on, and their absolute bound
is (N + 2) 2^-23 times |Scale / sqrt(Variance + Epsilon)| (mean|X| + |X - Mean|) + |Bias| +
|FusedAdd| (training) or times |Scale / sqrt(Variance + Epsilon)| (|dY| + mean|dY| + |X - Mean|
mean|dY (X - Mean)| / (Variance + Epsilon)) (training gradient); BATCH_NORMALIZATION_GRAD's
element-wise gradient 6 ULP.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/bnorm_training.py
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
RNG = np.random.default_rng(0x626E7472)
F32 = np.float32


def case(op, name, inputs, attrs, outputs=None, error=None, note=None):
    c = {"name": f"directml.{op.lower()}.{name}",
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs, "attrs": attrs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def values(t, shape, lo, hi, offset=0.0):
    """Multiples of 1/64 in [lo, hi] plus offset: exact in FLOAT16 and FLOAT32."""
    a = RNG.integers(int(lo * 64), int(hi * 64) + 1, size=shape) / 64.0 + offset
    return a.astype(NUMPY_TYPES[t]).astype(np.float64)


def reduced_axes(xshape, sshape):
    return tuple(i for i, (x, s) in enumerate(zip(xshape, sshape)) if s == 1)


def count(xshape, sshape):
    return int(np.prod([xshape[i] for i in reduced_axes(xshape, sshape)], dtype=np.int64))


def eps32(e):
    return float(F32(e))


ACTS = {
    None: lambda y: y,
    "DML_OPERATOR_ACTIVATION_RELU": lambda y: np.maximum(y, 0),
    "DML_OPERATOR_ACTIVATION_LEAKY_RELU": lambda y: np.where(y >= 0, y, float(F32(0.1)) * y),
}


def training(x, scale, bias, add, eps, sshape):
    """The page's forward in float64: (Output before the activation, mean, variance, bounds)."""
    ax = reduced_axes(x.shape, sshape)
    n = count(x.shape, sshape)
    mean = x.mean(axis=ax, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=ax, keepdims=True)
    k = scale / np.sqrt(var + eps)
    y = k * (x - mean) + bias + (add if add is not None else 0)
    mag_y = np.abs(k) * (np.abs(x).mean(axis=ax, keepdims=True) + np.abs(x - mean)) + \
        np.abs(bias) + (np.abs(add) if add is not None else 0)
    mag_m = np.abs(x).mean(axis=ax, keepdims=True)
    return y, mean, var, n, (mag_y, mag_m, var)


def grad(train, x, dy, mean, var, scale, eps, sshape):
    """The pages' gradients in float64: (dX, dScale, dBias, n, bounds)."""
    ax = reduced_axes(x.shape, sshape)
    n = count(x.shape, sshape)
    coef0 = 1 / np.sqrt(var + eps)
    xc = x - mean
    coef1 = dy * xc
    dscale = (coef1 * coef0).sum(axis=ax, keepdims=True)
    dbias = dy.sum(axis=ax, keepdims=True)
    if train:
        dx = scale * coef0 * ((dy - dy.mean(axis=ax, keepdims=True)) -
                              xc * coef1.mean(axis=ax, keepdims=True) / (var + eps))
        mag_dx = np.abs(scale * coef0) * (np.abs(dy) + np.abs(dy).mean(axis=ax, keepdims=True) +
                                          np.abs(xc) * np.abs(coef1).mean(axis=ax, keepdims=True) /
                                          (var + eps))
    else:
        dx = dy * (scale * coef0)
        mag_dx = np.abs(dx)
    mags = (mag_dx, (np.abs(coef1) * coef0).sum(axis=ax, keepdims=True),
            np.abs(dy).sum(axis=ax, keepdims=True))
    return dx, dscale, dbias, n, mags


def tol(n, extra, mag):
    """The sums' rule: n + 2 + extra ULP, or (n + 2) 2^-23 times the largest magnitude."""
    t = {"ulp": int(n + 2 + extra)}
    bound = float((n + 2) * 2.0 ** -23 * np.max(mag))
    if bound > 0:
        t["abs"] = bound
    return t


def tol_note(n, element):
    """The case's statement of its tolerances."""
    return (f"; tolerances: the sums over the channel's {n} elements {n + 2} ULP (precision.md's "
            f"reduce sum, N + 2) or {n + 2}·2^-23 times the sum of their terms' magnitudes where "
            f"they cancel; {element}")


def out_tensor(t, a, tolerance, strides=None):
    o = tensor(t, a.astype(NUMPY_TYPES[t]))
    o["tolerance"] = tolerance
    return o


def check_onnx(x, scale, bias, eps, y):
    """ONNX's BatchNormalization-15 in training mode (float64): its Y is DirectML's Output."""
    c = x.shape[1]
    node = helper.make_node("BatchNormalization", ["X", "S", "B", "M", "V"],
                            ["Y", "RM", "RV"], epsilon=eps, momentum=0.9, training_mode=1)
    d = onnx.TensorProto.DOUBLE
    graph = helper.make_graph(
        [node], "bn", [helper.make_tensor_value_info(n, d, None) for n in "XSBMV"],
        [helper.make_tensor_value_info(n, d, None) for n in ["Y", "RM", "RV"]])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)])
    ref = ReferenceEvaluator(model)
    got = ref.run(None, {"X": x, "S": scale.reshape(c), "B": bias.reshape(c),
                         "M": np.zeros(c), "V": np.ones(c)})[0]
    if not np.allclose(got, y, rtol=1e-12, atol=1e-12):
        raise SystemExit("onnx.reference's training BatchNormalization disagrees")


def check_fd(train, x, dy, scale, bias, mean, var, eps, sshape, want):
    """Central differences of <dY, forward> in float64 against (dX, dScale, dBias)."""
    ax = reduced_axes(x.shape, sshape)

    def loss(xv, sv, bv):
        if train:
            m = xv.mean(axis=ax, keepdims=True)
            v = ((xv - m) ** 2).mean(axis=ax, keepdims=True)
        else:
            m, v = mean, var
        return float((dy * (sv * (xv - m) / np.sqrt(v + eps) + bv)).sum())

    h = 1e-6
    for which, base, w in ((0, x, want[0]), (1, scale, want[1]), (2, bias, want[2])):
        num = np.zeros_like(base)
        for i in np.ndindex(base.shape):
            args = [x.copy(), scale.copy(), bias.copy()]
            args[which][i] += h
            up = loss(*args)
            args[which][i] -= 2 * h
            num[i] = (up - loss(*args)) / (2 * h)
        scale_of = max(1.0, float(np.max(np.abs(w))))
        if not np.allclose(num, w, rtol=1e-5, atol=1e-6 * scale_of):
            raise SystemExit(f"finite differences disagree (argument {which})")


def packed_strides(shape):
    s, out = 1, []
    for d in reversed(shape):
        out.append(s)
        s *= d
    return list(reversed(out))


def nhwc_strides(shape):
    """The strides of an NCHW tensor laid out as NHWC (channels innermost)."""
    n, c = shape[0], shape[1]
    spatial = shape[2:]
    sp = packed_strides(list(spatial))
    inner = int(np.prod(spatial))
    return [inner * c, 1] + [s * c for s in sp]


def training_case(name, t, xshape, sshape, eps=1e-5, add=False, act=None, offset=0.0,
                  x_strides=None, y_strides=None, onnx_check=False):
    x = values(t, xshape, -4, 4, offset)
    scale = values(t, sshape, -2, 2)
    bias = values(t, sshape, -1, 1)
    fa = values(t, xshape, -2, 2) if add else None
    e = eps32(eps)
    y, mean, var, n, (mag_y, mag_m, mag_v) = training(x, scale, bias, fa, e, sshape)
    if onnx_check and not add:
        check_onnx(x, scale, bias, e, y)
    y = ACTS[act](y.astype(F32).astype(np.float64) if act else y)
    xt = tensor(t, x.astype(NUMPY_TYPES[t]))
    if x_strides:
        xt["strides"] = x_strides
    inputs = {"InputTensor": xt, "ScaleTensor": tensor(t, scale.astype(NUMPY_TYPES[t])),
              "BiasTensor": tensor(t, bias.astype(NUMPY_TYPES[t]))}
    if add:
        inputs["FusedAddTensor"] = tensor(t, fa.astype(NUMPY_TYPES[t]))
    if y_strides:
        inputs["OutputTensor"] = {"type": t, "shape": list(xshape), "strides": y_strides}
    attrs = {"Epsilon": e}
    if act:
        attrs["FusedActivation"] = {"Type": act, **({"Alpha": 0.1} if "LEAKY" in act else {})}
    outs = {"OutputTensor": out_tensor(t, y, tol(n, 6, mag_y)),
            "OutputMeanTensor": out_tensor(t, mean, tol(n, 0, mag_m)),
            "OutputVarianceTensor": out_tensor(t, var, tol(n, 0, mag_v))}
    note = (f"{n} elements a channel; numpy float64" +
            ("; Output checked against onnx.reference's training-mode BatchNormalization-15"
             if onnx_check and not add else "") +
            tol_note(n, f"Output {n + 8} ULP (BATCH_NORMALIZATION's 6 on the sums') or the same "
                     "absolute bound over |k|(mean|X| + |X - mean|) + |Bias| + |FusedAdd|"))
    return case("BATCH_NORMALIZATION_TRAINING", name, inputs, attrs, outs, note=note)


def grad_case(op, name, t, xshape, sshape, eps=1e-5, forward_stats=True, offset=0.0,
              dy_strides=None, dx_strides=None, fd=True):
    train = op == "BATCH_NORMALIZATION_TRAINING_GRAD"
    x = values(t, xshape, -4, 4, offset)
    dy = values(t, xshape, -2, 2)
    scale = values(t, sshape, -2, 2)
    e = eps32(eps)
    ax = reduced_axes(xshape, sshape)
    if forward_stats:
        mean = x.mean(axis=ax, keepdims=True).astype(NUMPY_TYPES[t]).astype(np.float64)
        var = ((x - x.mean(axis=ax, keepdims=True)) ** 2).mean(axis=ax, keepdims=True)
        var = var.astype(NUMPY_TYPES[t]).astype(np.float64)
    else:
        mean = values(t, sshape, -1, 1)
        var = values(t, sshape, 0.25, 3)
    dx, dscale, dbias, n, (m0, m1, m2) = grad(train, x, dy, mean, var, scale, e, sshape)
    if fd and (not train or forward_stats):
        # The training gradient is the derivative where Mean and Variance are the batch's own.
        if train:
            mean = x.mean(axis=ax, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=ax, keepdims=True)
            dx, dscale, dbias, n, (m0, m1, m2) = grad(train, x, dy, mean, var, scale, e, sshape)
        check_fd(train, x, dy, scale, np.zeros_like(scale), mean, var, e, sshape,
                 (dx, dscale, dbias))
        mean_t, var_t = mean.astype(NUMPY_TYPES[t]), var.astype(NUMPY_TYPES[t])
        mean, var = mean_t.astype(np.float64), var_t.astype(np.float64)
        dx, dscale, dbias, n, (m0, m1, m2) = grad(train, x, dy, mean, var, scale, e, sshape)
    dyt = tensor(t, dy.astype(NUMPY_TYPES[t]))
    if dy_strides:
        dyt["strides"] = dy_strides
    inputs = {"InputTensor": tensor(t, x.astype(NUMPY_TYPES[t])), "InputGradientTensor": dyt,
              "MeanTensor": tensor(t, mean.astype(NUMPY_TYPES[t])),
              "VarianceTensor": tensor(t, var.astype(NUMPY_TYPES[t])),
              "ScaleTensor": tensor(t, scale.astype(NUMPY_TYPES[t]))}
    if dx_strides:
        inputs["OutputGradientTensor"] = {"type": t, "shape": list(xshape), "strides": dx_strides}
    outs = {"OutputGradientTensor": out_tensor(t, dx, tol(n, 6, m0) if train else {"ulp": 6}),
            "OutputScaleGradientTensor": out_tensor(t, dscale, tol(n, 0, m1)),
            "OutputBiasGradientTensor": out_tensor(t, dbias, tol(n, 0, m2))}
    note = f"{n} elements a channel; Mean and Variance " + \
        ("the input's own statistics" if forward_stats else "unrelated to the input") + \
        "; numpy float64" + ("; checked by finite differences" if fd and
                             (not train or forward_stats) else "") + \
        tol_note(n, f"OutputGradient {n + 8} ULP or the absolute bound over its terms "
                 "|k|(|dY| + mean|dY| + |X - Mean| mean|dY (X - Mean)| / (Variance + Epsilon))"
                 if train else "OutputGradient 6 ULP (element-wise, BATCH_NORMALIZATION's)")
    return case(op, name, inputs, {"Epsilon": e}, outs, note=note)


def training_cases():
    out = []
    nchw, per_c = [2, 3, 4, 5], [1, 3, 1, 1]
    for t in ("FLOAT32", "FLOAT16"):
        s = t.lower()
        out.append(training_case(f"nchw_{s}", t, nchw, per_c, onnx_check=True))
        out.append(training_case(f"fused_add_relu_{s}", t, nchw, per_c, add=True,
                                 act="DML_OPERATOR_ACTIVATION_RELU"))
    out.append(training_case("leaky_relu", "FLOAT32", [3, 2, 6], [1, 2, 1], eps=1e-3,
                             act="DML_OPERATOR_ACTIVATION_LEAKY_RELU"))
    out.append(training_case("ncdhw", "FLOAT32", [2, 4, 3, 2, 3], [1, 4, 1, 1, 1],
                             onnx_check=True))
    out.append(training_case("two_kept_dimensions", "FLOAT32", [3, 4, 5, 2], [1, 4, 1, 2]))
    out.append(training_case("last_dimension_kept", "FLOAT32", [4, 3, 5], [1, 1, 5]))
    out.append(training_case("one_channel", "FLOAT32", [2, 3, 7], [1, 1, 1]))
    out.append(training_case("every_dimension_kept", "FLOAT32", [3, 4], [3, 4], eps=0.01))
    out.append(training_case("rank1", "FLOAT32", [17], [1]))
    out.append(training_case("rank8", "FLOAT32", [2, 1, 2, 3, 1, 2, 2, 3],
                             [1, 1, 2, 1, 1, 1, 1, 3]))
    out.append(training_case("large_mean", "FLOAT32", [4, 2, 8, 8], [1, 2, 1, 1], offset=1000.0))
    out.append(training_case("long_channel", "FLOAT32", [8, 2, 16, 16], [1, 2, 1, 1]))
    out.append(training_case("nhwc_input", "FLOAT32", [2, 3, 4, 5], per_c,
                             x_strides=nhwc_strides([2, 3, 4, 5])))
    out.append(training_case("strided_output", "FLOAT16", [2, 3, 4, 5], per_c,
                             y_strides=nhwc_strides([2, 3, 4, 5])))
    return out


def grad_cases(op):
    out = []
    nchw, per_c = [2, 3, 4, 5], [1, 3, 1, 1]
    for t in ("FLOAT32", "FLOAT16"):
        s = t.lower()
        out.append(grad_case(op, f"nchw_{s}", t, nchw, per_c))
    out.append(grad_case(op, "unrelated_statistics", "FLOAT32", nchw, per_c,
                         forward_stats=False))
    out.append(grad_case(op, "two_kept_dimensions", "FLOAT32", [3, 4, 5, 2], [1, 4, 1, 2]))
    out.append(grad_case(op, "one_channel", "FLOAT32", [2, 3, 7], [1, 1, 1]))
    out.append(grad_case(op, "rank1", "FLOAT32", [9], [1], eps=1e-3))
    out.append(grad_case(op, "large_mean", "FLOAT32", [4, 2, 6, 6], [1, 2, 1, 1], offset=500.0,
                         fd=False))
    out.append(grad_case(op, "long_channel", "FLOAT32", [8, 2, 16, 16], [1, 2, 1, 1], fd=False))
    out.append(grad_case(op, "strided", "FLOAT32", nchw, per_c,
                         dy_strides=nhwc_strides(nchw), dx_strides=nhwc_strides(nchw)))
    return out


def desc(t, shape, data=True):
    a = np.zeros(shape)
    return tensor(t, a.astype(NUMPY_TYPES[t])) if data else {"type": t, "shape": list(shape)}


def refusal_cases():
    out = []
    x, s = [2, 3, 4], [1, 3, 1]

    def train(name, error, xs=x, ss=s, t="FLOAT32", over=None):
        inputs = {"InputTensor": desc(t, xs), "ScaleTensor": desc(t, ss),
                  "BiasTensor": desc(t, ss), "OutputTensor": desc(t, xs, False),
                  "OutputMeanTensor": desc(t, ss, False),
                  "OutputVarianceTensor": desc(t, ss, False)}
        inputs.update(over or {})
        return case("BATCH_NORMALIZATION_TRAINING", name, inputs, {"Epsilon": 1e-5},
                    error=error)

    def grad_refusal(op, name, error, over):
        t = "FLOAT32"
        inputs = {"InputTensor": desc(t, x), "InputGradientTensor": desc(t, x),
                  "MeanTensor": desc(t, s), "VarianceTensor": desc(t, s),
                  "ScaleTensor": desc(t, s), "OutputGradientTensor": desc(t, x, False),
                  "OutputScaleGradientTensor": desc(t, s, False),
                  "OutputBiasGradientTensor": desc(t, s, False)}
        inputs.update(over)
        return case(op, name, inputs, {"Epsilon": 1e-5}, error=error)

    out.append(train("refuse_int32", "invalid_argument", t="INT32"))
    out.append(train("refuse_float64", "invalid_argument", t="FLOAT64"))
    out.append(train("refuse_scale_size", "invalid_argument", ss=[1, 2, 1],
                     over={"BiasTensor": desc("FLOAT32", [1, 2, 1])}))
    out.append(train("refuse_bias_sizes", "invalid_argument",
                     over={"BiasTensor": desc("FLOAT32", [2, 1, 1])}))
    out.append(train("refuse_mean_sizes", "invalid_argument",
                     over={"OutputMeanTensor": desc("FLOAT32", [1, 3, 4], False)}))
    out.append(train("refuse_fused_add_sizes", "invalid_argument",
                     over={"FusedAddTensor": desc("FLOAT32", [2, 3, 5])}))
    out.append(train("refuse_output_type", "invalid_argument",
                     over={"OutputTensor": desc("FLOAT16", x, False)}))
    out.append(train("refuse_variance_rank", "invalid_argument",
                     over={"OutputVarianceTensor": desc("FLOAT32", [3, 1], False)}))
    for op in ("BATCH_NORMALIZATION_GRAD", "BATCH_NORMALIZATION_TRAINING_GRAD"):
        out.append(grad_refusal(op, "refuse_int32", "invalid_argument",
                                {k: dict(v, type="INT32", **({"data": [0] * len(v["data"])}
                                                             if "data" in v else {}))
                                 for k, v in {"InputTensor": desc("FLOAT32", x),
                                              "InputGradientTensor": desc("FLOAT32", x),
                                              "MeanTensor": desc("FLOAT32", s),
                                              "VarianceTensor": desc("FLOAT32", s),
                                              "ScaleTensor": desc("FLOAT32", s),
                                              "OutputGradientTensor": desc("FLOAT32", x, False),
                                              "OutputScaleGradientTensor":
                                                  desc("FLOAT32", s, False),
                                              "OutputBiasGradientTensor":
                                                  desc("FLOAT32", s, False)}.items()}))
        out.append(grad_refusal(op, "refuse_mean_size", "invalid_argument",
                                {"MeanTensor": desc("FLOAT32", [1, 2, 1])}))
        out.append(grad_refusal(op, "refuse_variance_sizes", "invalid_argument",
                                {"VarianceTensor": desc("FLOAT32", [2, 1, 1])}))
        out.append(grad_refusal(op, "refuse_input_gradient_sizes", "invalid_argument",
                                {"InputGradientTensor": desc("FLOAT32", [2, 3, 5])}))
        out.append(grad_refusal(op, "refuse_scale_gradient_type", "invalid_argument",
                                {"OutputScaleGradientTensor": desc("FLOAT16", s, False)}))
    return out


def graph_case():
    """A training step as one graph: BATCH_NORMALIZATION_TRAINING's mean and variance (float32
    intermediates) feed BATCH_NORMALIZATION_TRAINING_GRAD; Output and the three gradients are the
    graph's outputs."""
    t, xshape, sshape = "FLOAT32", [3, 2, 4, 3], [1, 2, 1, 1]
    x, dy = values(t, xshape, -4, 4), values(t, xshape, -2, 2)
    scale, bias = values(t, sshape, -2, 2), values(t, sshape, -1, 1)
    e = eps32(1e-5)
    y, mean, var, n, (mag_y, _, _) = training(x, scale, bias, None, e, sshape)
    mean32 = mean.astype(np.float32).astype(np.float64)
    var32 = var.astype(np.float32).astype(np.float64)
    dx, dscale, dbias, n, (m0, m1, m2) = grad(True, x, dy, mean32, var32, scale, e, sshape)
    nodes = [{"op": "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING", "attrs": {"Epsilon": e},
              "inputs": {"InputTensor": "x", "ScaleTensor": "scale", "BiasTensor": "bias"},
              "outputs": {"OutputTensor": "y", "OutputMeanTensor": "mean",
                          "OutputVarianceTensor": "var"}},
             {"op": "DML_OPERATOR_BATCH_NORMALIZATION_TRAINING_GRAD", "attrs": {"Epsilon": e},
              "inputs": {"InputTensor": "x", "InputGradientTensor": "dy", "MeanTensor": "mean",
                         "VarianceTensor": "var", "ScaleTensor": "scale"},
              "outputs": {"OutputGradientTensor": "dx", "OutputScaleGradientTensor": "dscale",
                          "OutputBiasGradientTensor": "dbias"}}]
    stat = {"type": t, "shape": sshape}
    c = {"name": "dmlcl.graph.bn_training_step", "source": "dmlcl:graph#bn_training_step",
         "op": "DML_GRAPH",
         "graph": {"nodes": nodes, "tensors": {"mean": stat, "var": stat},
                   "outputs": ["y", "dx", "dscale", "dbias"]},
         "inputs": {"x": tensor(t, x.astype(np.float32)), "dy": tensor(t, dy.astype(np.float32)),
                    "scale": tensor(t, scale.astype(np.float32)),
                    "bias": tensor(t, bias.astype(np.float32))},
         "expected": {"outputs": {"y": out_tensor(t, y, tol(n, 6, mag_y)),
                                  "dx": out_tensor(t, dx, tol(n, 6, m0)),
                                  "dscale": out_tensor(t, dscale, tol(n, 0, m1)),
                                  "dbias": out_tensor(t, dbias, tol(n, 0, m2))}},
         "note": f"{n} elements a channel; numpy float64, the gradient from the float32 "
                 "statistics the graph passes" +
                 tol_note(n, f"y and dx {n + 8} ULP or the absolute bounds over their terms")}
    return c


def main():
    cases = training_cases()
    cases += grad_cases("BATCH_NORMALIZATION_GRAD")
    cases += grad_cases("BATCH_NORMALIZATION_TRAINING_GRAD")
    cases += refusal_cases()
    cases.append(graph_case())
    path = os.path.join(CASES, "directml", "bnorm_training.json")
    write(path, cases)
    print(f"{path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
