# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/train.json: LOCAL_RESPONSE_NORMALIZATION_GRAD and
ADAM_OPTIMIZER.

LOCAL_RESPONSE_NORMALIZATION_GRAD: the derivative of LOCAL_RESPONSE_NORMALIZATION as dmlcl
defines the forward (docs/operators.md: D = Bias + Alpha / LocalSize * the squares summed over
the window, from p - floor((n - 1) / 2) to p + ceil((n - 1) / 2), clipped; channels, or n x n of
H and W; Y = X / D^Beta), found by summing over every forward element i whose window holds j
(no mirrored range): both modes, LocalSize 1 to 6 (even sizes place the window off centre),
past the tensor, Alpha, Beta (negative and 0 too) and Bias varied, FLOAT32 and FLOAT16, strided
tensors, one case per validation rule. Every expected value is checked against central finite
differences of the forward <LRN(x), dy> in float64; the generator stops on a disagreement.

ADAM_OPTIMIZER: the page's update line by line in float64 from the FLOAT hyperparameters and the
stored inputs: T from 1 to 10^4, T = 0 (the page's 0 / 0: NaN parameters), hyperparameters
varied, FLOAT32 and FLOAT16, strided and broadcast inputs, strided outputs, one case per rule.
Each case with T > 0 is also checked against onnx.reference's Adam (ai.onnx.preview.training,
norm_coefficient and norm_coefficient_post 0, which then computes the same update; at T = 0 it
skips the bias correction where DirectML's formula divides 0 by 0).

Tolerances (reference/precision.md): LRN_GRAD 40 + 5 W ULP (W the window's elements: pow 32,
the sums of squares, the gather's sum), or where the terms cancel that many float32 epsilons of
the largest sum of the terms' magnitudes; FLOAT16 output's rounding on top. ADAM: the moments
4 ULP or 3 epsilons of their terms' magnitudes; the parameters 2 ULP of X plus 100 ULP of the
update (two pows, a square root, quotients).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/train.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
RNG = np.random.default_rng(0x7472616E)
EPS32 = 2.0**-23


def case(op, name, inputs, attrs, outputs=None, error=None, note=None, tolerance=None):
    c = {"name": f"directml.{op.lower()}.{name}",
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs, "attrs": attrs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if tolerance:
        c["tolerance"] = tolerance
    if note:
        c["note"] = note
    return c


def stored(t, a):
    """a as the case's type stores it, back in float64."""
    return np.asarray(a, dtype=NUMPY_TYPES[t]).astype(np.float64)


def f32(v):
    return float(np.float32(v))


# ---- LOCAL_RESPONSE_NORMALIZATION_GRAD ------------------------------------------------------

def window(p, n, size):
    """The forward's window of position p along an axis of size `size`, clipped."""
    return range(max(p - (n - 1) // 2, 0), min(p + n // 2, size - 1) + 1)


def lrn_denominators(x, cross, n, alpha, bias):
    d = np.empty_like(x)
    nb, c_, h_, w_ = x.shape
    for idx in np.ndindex(x.shape):
        b, c, i, j = idx
        if cross:
            s = sum(x[b, k, i, j] ** 2 for k in window(c, n, c_))
        else:
            s = sum(x[b, c, p, q] ** 2 for p in window(i, n, h_) for q in window(j, n, w_))
        d[idx] = bias + alpha / n * s
    return d


def lrn_forward(x, cross, n, alpha, beta, bias):
    return x * lrn_denominators(x, cross, n, alpha, bias) ** -beta


def lrn_grad(x, dy, cross, n, alpha, beta, bias):
    """dX and each element's sum of the terms' magnitudes."""
    d = lrn_denominators(x, cross, n, alpha, bias)
    f = dy * x * d ** (-beta - 1)
    k = 2 * alpha * beta / n
    out, mag = dy * d ** -beta, np.abs(dy * d ** -beta)
    for j in np.ndindex(x.shape):
        acc = absacc = 0.0
        for i in np.ndindex(x.shape):
            if i[0] != j[0]:
                continue
            if cross:
                holds = i[2:] == j[2:] and j[1] in window(i[1], n, x.shape[1])
            else:
                holds = (i[1] == j[1] and j[2] in window(i[2], n, x.shape[2])
                         and j[3] in window(i[3], n, x.shape[3]))
            if holds:
                acc += f[i]
                absacc += abs(f[i])
        out[j] -= k * x[j] * acc
        mag[j] += abs(k * x[j]) * absacc
    return out, mag


def check_lrn(x, dy, cross, n, alpha, beta, bias, want, mag, name):
    for j in np.ndindex(x.shape):
        h = 1e-6 * max(1.0, abs(x[j]))
        xp = x.copy()
        xp[j] += h
        up = float(np.sum(lrn_forward(xp, cross, n, alpha, beta, bias) * dy))
        xp[j] -= 2 * h
        down = float(np.sum(lrn_forward(xp, cross, n, alpha, beta, bias) * dy))
        fd = (up - down) / (2 * h)
        if abs(fd - want[j]) > 1e-6 * (1 + mag[j]):
            sys.exit(f"train.py: LRN_GRAD {name} at {j}: {want[j]}, numerically {fd}")


def lrn_case(name, t, shape, cross, n, alpha=1.0, beta=0.75, bias=1.0, scale=2.0, strided=False):
    x = stored(t, RNG.uniform(-scale, scale, shape))
    dy = stored(t, RNG.uniform(-1, 1, shape))
    a, b, k = f32(alpha), f32(beta), f32(bias)
    want, mag = lrn_grad(x, dy, cross, n, a, b, k)
    check_lrn(x, dy, cross, n, a, b, k, want, mag, name)
    xi, gi = tensor(t, x), tensor(t, dy)
    inputs = {"InputTensor": xi, "InputGradientTensor": gi}
    if strided:  # X with padded rows, dY channels-last in memory, the output padded (the
        # runner lays the logical data out by the strides)
        s = list(shape)
        xi["strides"] = [s[1] * s[2] * (s[3] + 2), s[2] * (s[3] + 2), s[3] + 2, 1]
        gi["strides"] = [s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]]
        inputs["OutputGradientTensor"] = {"type": t, "shape": s,
                                          "strides": [s[1] * s[2] * (s[3] + 1),
                                                      s[2] * (s[3] + 1), s[3] + 1, 1]}
    w = n if cross else n * n
    ulp = 40 + 5 * min(w, 64 if cross else 4096)
    eps = EPS32
    tol = {"ulp": ulp, "abs": ulp * eps * float(mag.max())}
    if t == "FLOAT16":
        tol = {"ulp": 2, "abs": ulp * eps * float(mag.max()) + 2.0**-11 * float(np.abs(want).max())}
    attrs = {"CrossChannel": cross, "LocalSize": n, "Alpha": alpha, "Beta": beta, "Bias": bias}
    return case("LOCAL_RESPONSE_NORMALIZATION_GRAD", name, inputs, attrs,
                {"OutputGradientTensor": tensor(t, want)}, tolerance=tol)


def lrn_cases():
    out = []
    for n in range(1, 7):
        out.append(lrn_case(f"cross-{n}", "FLOAT32", (2, 5, 2, 3), True, n))
    for n in range(1, 5):
        out.append(lrn_case(f"within-{n}", "FLOAT32", (1, 2, 5, 4), False, n))
    out += [
        lrn_case("cross-past-channels", "FLOAT32", (1, 3, 2, 2), True, 9),
        lrn_case("within-past-plane", "FLOAT32", (1, 1, 3, 2), False, 7),
        lrn_case("cross-defaults", "FLOAT32", (1, 8, 3, 3), True, 5, alpha=1e-4),
        lrn_case("cross-alpha-2-bias-2", "FLOAT32", (2, 4, 2, 2), True, 3, alpha=2.0, bias=2.0),
        lrn_case("cross-beta-negative", "FLOAT32", (1, 6, 2, 2), True, 4, beta=-0.5),
        lrn_case("within-beta-zero", "FLOAT32", (1, 2, 3, 3), False, 3, beta=0.0),
        lrn_case("within-beta-2", "FLOAT32", (1, 1, 4, 4), False, 2, beta=2.0, bias=3.0),
        lrn_case("cross-large-inputs", "FLOAT32", (1, 5, 1, 4), True, 3, scale=20.0),
        lrn_case("cross-strided", "FLOAT32", (2, 4, 3, 2), True, 2, strided=True),
        lrn_case("within-strided", "FLOAT32", (1, 3, 4, 3), False, 4, strided=True),
        lrn_case("cross-float16", "FLOAT16", (1, 6, 2, 3), True, 3),
        lrn_case("within-float16", "FLOAT16", (1, 2, 4, 4), False, 2),
        lrn_case("within-float16-strided", "FLOAT16", (2, 2, 3, 3), False, 3, strided=True),
    ]
    g = lambda t, s: {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa: E731
    o = lambda t, s: {"type": t, "shape": list(s)}  # noqa: E731
    s4 = (1, 2, 2, 2)
    base = {"CrossChannel": True, "LocalSize": 3}
    bad = [
        ("int32", {"InputTensor": g("INT32", s4), "InputGradientTensor": g("INT32", s4),
                   "OutputGradientTensor": o("INT32", s4)}, base,
         "InputTensor.DataType: FLOAT32 or FLOAT16"),
        ("three-dimensions", {"InputTensor": g("FLOAT32", (2, 2, 2)),
                              "InputGradientTensor": g("FLOAT32", (2, 2, 2)),
                              "OutputGradientTensor": o("FLOAT32", (2, 2, 2))}, base,
         "InputTensor.DimensionCount: 4"),
        ("gradient-type", {"InputTensor": g("FLOAT32", s4), "InputGradientTensor": g("FLOAT16", s4),
                           "OutputGradientTensor": o("FLOAT32", s4)}, base,
         "InputGradientTensor.DataType: InputTensor's"),
        ("gradient-sizes", {"InputTensor": g("FLOAT32", s4),
                            "InputGradientTensor": g("FLOAT32", (1, 2, 2, 3)),
                            "OutputGradientTensor": o("FLOAT32", s4)}, base,
         "InputGradientTensor.Sizes: InputTensor's"),
        ("output-type", {"InputTensor": g("FLOAT16", s4), "InputGradientTensor": g("FLOAT16", s4),
                         "OutputGradientTensor": o("FLOAT32", s4)}, base,
         "OutputGradientTensor.DataType: InputTensor's"),
        ("output-sizes", {"InputTensor": g("FLOAT32", s4), "InputGradientTensor": g("FLOAT32", s4),
                          "OutputGradientTensor": o("FLOAT32", (1, 2, 2, 1))}, base,
         "OutputGradientTensor.Sizes: InputTensor's"),
        ("local-size-zero", {"InputTensor": g("FLOAT32", s4),
                             "InputGradientTensor": g("FLOAT32", s4),
                             "OutputGradientTensor": o("FLOAT32", s4)},
         {"CrossChannel": False, "LocalSize": 0}, "LocalSize: at least 1"),
    ]
    for name, inputs, attrs, note in bad:
        out.append(case("LOCAL_RESPONSE_NORMALIZATION_GRAD", f"invalid-{name}", inputs, attrs,
                        error="invalid_argument", note=note))
    return out


# ---- ADAM_OPTIMIZER -------------------------------------------------------------------------

def adam(x, m, v, g, t, lr, b1, b2, eps):
    """The page's pseudo-code, line by line (float64; t = 0 divides 0 by 0)."""
    m = b1 * m + (1.0 - b1) * g
    v = b2 * v + (1.0 - b2) * g * g
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = np.sqrt(1.0 - np.power(b2, t)) / (1.0 - np.power(b1, t))
    x = x - lr * alpha * m / (np.sqrt(v) + eps)
    return x, m, v


def check_onnx(x, m, v, g, t, lr, b1, b2, eps, want, name):
    """onnx.reference's Adam (regularization off) against the page's formula, float64."""
    from onnx.reference.ops.aionnx_preview_training.op_adam import _apply_adam
    got = _apply_adam(np.float64(lr), t, x, g, m, v, 0.0, 0.0, b1, b2, eps)
    for a, b in zip(got, want):
        if not np.allclose(a, b, rtol=1e-12, atol=1e-300):
            sys.exit(f"train.py: ADAM {name}: onnx.reference's Adam differs from the page's")


def adam_case(name, t, shape, step, lr=0.001, b1=0.9, b2=0.999, eps=1e-8, layout=None):
    x = stored(t, RNG.uniform(-3, 3, shape))
    m = stored(t, RNG.uniform(-1, 1, shape))
    v = stored(t, RNG.uniform(0, 1, shape))
    g = stored(t, RNG.uniform(-2, 2, shape))
    inputs = {"InputParametersTensor": tensor(t, x), "InputFirstMomentTensor": tensor(t, m),
              "InputSecondMomentTensor": tensor(t, v), "GradientTensor": tensor(t, g),
              "TrainingStepTensor": tensor(t, np.full((1, 1, 1, 1), step))}
    if layout == "broadcast":  # the gradient one row broadcast along H (stride 0), M padded
        g = np.broadcast_to(g[:, :, :1, :], shape).copy()
        inputs["GradientTensor"] = tensor(t, g)
        s = list(shape)
        inputs["GradientTensor"]["strides"] = [s[1] * s[3], s[3], 0, 1]
        inputs["InputFirstMomentTensor"]["strides"] = [s[1] * s[2] * (s[3] + 1),
                                                       s[2] * (s[3] + 1), s[3] + 1, 1]
        inputs["OutputSecondMomentTensor"] = {"type": t, "shape": s,
                                              "strides": [1, s[0], s[0] * s[1],
                                                          s[0] * s[1] * s[2]]}
    hp = [f32(lr), f32(b1), f32(b2), f32(eps)]
    want = adam(x, m, v, g, float(np.float32(step)), *hp)
    if step > 0:
        check_onnx(x, m, v, g, float(np.float32(step)), *hp, want, name)
    u = 2.0**-10 if t == "FLOAT16" else EPS32
    upd = np.abs(want[0] - x)
    upd = upd[np.isfinite(upd)]
    tol_x = {"ulp": 2, "abs": 2 * u * float(np.abs(x).max())
             + 100 * EPS32 * float(upd.max() if upd.size else 0)}
    tol_m = {"ulp": 4, "abs": 3 * u * float((np.abs(hp[1] * m) + np.abs((1 - hp[1]) * g)).max())}
    tol_v = {"ulp": 4, "abs": 4 * u * float((np.abs(hp[2] * v) + np.abs((1 - hp[2]) * g * g)).max())}
    outs = {}
    for key, val, tol in (("OutputParametersTensor", want[0], tol_x),
                          ("OutputFirstMomentTensor", want[1], tol_m),
                          ("OutputSecondMomentTensor", want[2], tol_v)):
        outs[key] = dict(tensor(t, val), tolerance=tol)
    attrs = {"LearningRate": lr, "Beta1": b1, "Beta2": b2, "Epsilon": eps}
    return case("ADAM_OPTIMIZER", name, inputs, attrs, outs)


def adam_cases():
    out = [
        adam_case("step-1", "FLOAT32", (1, 1, 2, 3), 1),
        adam_case("step-2", "FLOAT32", (2, 3, 4, 5), 2),
        adam_case("step-10", "FLOAT32", (1, 2, 3, 7), 10, lr=0.01),
        adam_case("step-10000", "FLOAT32", (1, 1, 1, 17), 10000, lr=0.1),
        adam_case("one-element", "FLOAT32", (1, 1, 1, 1), 3),
        adam_case("betas-half", "FLOAT32", (2, 2, 2, 2), 5, b1=0.5, b2=0.75, eps=1e-3),
        adam_case("beta1-zero", "FLOAT32", (1, 3, 1, 4), 4, b1=0.0),
        adam_case("epsilon-flt", "FLOAT32", (1, 1, 3, 5), 7, eps=1.1920929e-7),
        adam_case("step-0", "FLOAT32", (1, 1, 2, 2), 0),
        adam_case("strided-broadcast", "FLOAT32", (2, 2, 3, 4), 6, lr=0.05, layout="broadcast"),
        adam_case("float16", "FLOAT16", (1, 2, 3, 4), 3, lr=0.01, eps=1e-4),
        adam_case("float16-broadcast", "FLOAT16", (1, 3, 2, 5), 12, lr=0.01, eps=1e-4,
                  layout="broadcast"),
    ]
    g = lambda t, s: {"type": t, "shape": list(s), "data": [0] * int(np.prod(s))}  # noqa: E731
    o = lambda t, s: {"type": t, "shape": list(s)}  # noqa: E731
    s4, one = (1, 1, 2, 2), (1, 1, 1, 1)

    def tensors(t="FLOAT32", **over):
        d = {"InputParametersTensor": g(t, s4), "InputFirstMomentTensor": g(t, s4),
             "InputSecondMomentTensor": g(t, s4), "GradientTensor": g(t, s4),
             "TrainingStepTensor": {"type": t, "shape": list(one), "data": [1]},
             "OutputParametersTensor": o(t, s4), "OutputFirstMomentTensor": o(t, s4),
             "OutputSecondMomentTensor": o(t, s4)}
        d.update(over)
        return d

    bad = [
        ("int32", tensors("INT32"), "InputParametersTensor.DataType: FLOAT32 or FLOAT16"),
        ("three-dimensions", tensors(**{k: (g if k.startswith("In") or k == "GradientTensor"
                                            else o)("FLOAT32", (1, 2, 2))
                                         for k in ("InputParametersTensor",
                                                   "InputFirstMomentTensor",
                                                   "InputSecondMomentTensor", "GradientTensor",
                                                   "OutputParametersTensor",
                                                   "OutputFirstMomentTensor",
                                                   "OutputSecondMomentTensor")},
                                      TrainingStepTensor={"type": "FLOAT32", "shape": [1, 1, 1],
                                                          "data": [1]}),
         "InputParametersTensor.DimensionCount: 4"),
        ("moment-sizes", tensors(InputSecondMomentTensor=g("FLOAT32", (1, 1, 2, 1))),
         "InputSecondMomentTensor.Sizes: InputParametersTensor's"),
        ("gradient-type", tensors(GradientTensor=g("FLOAT16", s4)),
         "GradientTensor.DataType: InputParametersTensor's"),
        ("step-sizes", tensors(TrainingStepTensor=g("FLOAT32", (1, 1, 1, 2))),
         "TrainingStepTensor.Sizes: {1, 1, 1, 1}"),
        ("step-uint32", tensors(TrainingStepTensor={"type": "UINT32", "shape": list(one),
                                                    "data": [1]}),
         "TrainingStepTensor.DataType: the parameters' (the page's table, not its prose's UINT32)"),
        ("output-type", tensors(OutputFirstMomentTensor=o("FLOAT16", s4)),
         "OutputFirstMomentTensor.DataType: InputParametersTensor's"),
        ("output-sizes", tensors(OutputParametersTensor=o("FLOAT32", (1, 1, 2, 3))),
         "OutputParametersTensor.Sizes: InputParametersTensor's"),
    ]
    for name, inputs, note in bad:
        out.append(case("ADAM_OPTIMIZER", f"invalid-{name}", inputs, {},
                        error="invalid_argument", note=note))
    return out


def main():
    cases = lrn_cases() + adam_cases()
    path = os.path.join(CASES, "directml", "train.json")
    write(path, cases)
    print(f"{path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
