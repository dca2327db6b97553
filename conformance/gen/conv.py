# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/conv.json: DirectML's CONVOLUTION. Generated cases over
1, 2 and 3 spatial dimensions, FORWARD and BACKWARD (transposed), CONVOLUTION and
CROSS_CORRELATION modes, strides, dilations, asymmetric start and end padding, OutputPadding,
GroupCount (grouped, depthwise, depthwise with a multiplier), with and without a bias, fused
activations, FLOAT32 and FLOAT16, strided tensors (NHWC described by strides, padded outputs, a
broadcast bias), BACKWARD outputs larger than the rule's (ONNX Runtime's output_padding), and
one case per validation rule.

Expected values: the definition evaluated in float64 with numpy on the inputs as stored
(FLOAT16 inputs rounded first). FORWARD: the input zero-padded by StartPadding / EndPadding,
each output the sum over its window (tap k at o * Strides + k * Dilations) and the group's
input channels. BACKWARD: every input value times every tap scattered to i * Strides +
k * Dilations of a full-size output, which is then cropped by StartPadding (the output's extent
from there). CONVOLUTION mode flips the filter along each spatial dimension. + bias, then the
activation (elementwise_activation.act_real), rounded once to the output type.
Tolerance per case: 2 x the taps of an output ULP (reference/precision.md, convolution), or
the absolute bound of a float32 sum, (taps + 1) x 2^-24 x the largest sum of |products| + |bias|
over the outputs (where a sum cancels), times the activation's slope bound; plus the
activation's own ULPs.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/conv.py
"""
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
sys.path.insert(0, HERE)
from common import NUMPY_TYPES, tensor, write  # noqa: E402
from elementwise_activation import act_real  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
OP = "DML_OPERATOR_CONVOLUTION"
ACT_ULPS = {"RELU": 0, "LEAKY_RELU": 1, "SIGMOID": 34, "LINEAR": 2, "ELU": 18, "TANH": 0,
            "HARD_SIGMOID": 2, "IDENTITY": 0}


def stored(t, a):
    return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


def out_sizes(x_shape, w_shape, p):
    """The rule's output sizes (BACKWARD: the smallest)."""
    sp = len(x_shape) - 2
    if p["backward"]:
        sizes = [x_shape[0], w_shape[1] * p["groups"]]
    else:
        sizes = [x_shape[0], w_shape[0]]
    for i in range(sp):
        window = (w_shape[2 + i] - 1) * p["dil"][i] + 1
        pads = p["start"][i] + p["end"][i]
        if p["backward"]:
            sizes.append((x_shape[2 + i] - 1) * p["stride"][i] + window - pads + p["opad"][i])
        else:
            sizes.append((x_shape[2 + i] + pads - window) // p["stride"][i] + 1)
    return sizes


def conv(x, w, b, p, out_shape):
    """The convolution in float64, and the per-output sum of |products| and count of terms."""
    sp = x.ndim - 2
    g = p["groups"]
    if p["mode"] == "CONVOLUTION":
        w = np.flip(w, axis=tuple(range(2, 2 + sp)))
    n = x.shape[0]
    cin = x.shape[1]
    cout = out_shape[1]
    cin_g, cout_g = cin // g, cout // g
    ks = w.shape[2:]
    y = np.zeros(out_shape)
    mag = np.zeros(out_shape)
    terms = np.zeros(out_shape)
    if not p["backward"]:
        pad = [(0, 0), (0, 0)] + [(p["start"][i], p["end"][i]) for i in range(sp)]
        xp = np.pad(x, pad)
        for k in np.ndindex(*ks):
            sl = [slice(None), slice(None)]
            for i in range(sp):
                lo = k[i] * p["dil"][i]
                sl.append(slice(lo, lo + (out_shape[2 + i] - 1) * p["stride"][i] + 1,
                                p["stride"][i]))
            xs = xp[tuple(sl)]  # [n, cin, out...]
            for gi in range(g):
                xg = xs[:, gi * cin_g:(gi + 1) * cin_g]
                wg = w[gi * cout_g:(gi + 1) * cout_g, :, *k]  # [cout_g, cin_g]
                y[:, gi * cout_g:(gi + 1) * cout_g] += np.einsum("nc...,oc->no...", xg, wg)
                mag[:, gi * cout_g:(gi + 1) * cout_g] += np.einsum("nc...,oc->no...",
                                                                    np.abs(xg), np.abs(wg))
                terms[:, gi * cout_g:(gi + 1) * cout_g] += cin_g
    else:
        full = [max((x.shape[2 + i] - 1) * p["stride"][i] + (ks[i] - 1) * p["dil"][i] + 1,
                    p["start"][i] + out_shape[2 + i]) for i in range(sp)]
        yf = np.zeros([n, cout] + full)
        mf = np.zeros_like(yf)
        tf = np.zeros_like(yf)
        for k in np.ndindex(*ks):
            sl = [slice(None), slice(None)]
            for i in range(sp):
                lo = k[i] * p["dil"][i]
                sl.append(slice(lo, lo + (x.shape[2 + i] - 1) * p["stride"][i] + 1,
                                p["stride"][i]))
            for gi in range(g):
                xg = x[:, gi * cin_g:(gi + 1) * cin_g]
                wg = w[gi * cin_g:(gi + 1) * cin_g, :, *k]  # [cin_g, cout_g]
                osl = tuple([sl[0], slice(gi * cout_g, (gi + 1) * cout_g)] + sl[2:])
                yf[osl] += np.einsum("nc...,co->no...", xg, wg)
                mf[osl] += np.einsum("nc...,co->no...", np.abs(xg), np.abs(wg))
                tf[osl] += cin_g
        crop = tuple([slice(None), slice(None)] +
                     [slice(p["start"][i], p["start"][i] + out_shape[2 + i]) for i in range(sp)])
        y, mag, terms = yf[crop], mf[crop], tf[crop]
    if b is not None:
        bb = b.reshape([1, cout] + [1] * sp)
        y = y + bb
        mag = mag + np.abs(bb)
    return y, mag, terms


def activation(y, act):
    if act is None:
        return y
    name, params = act
    return np.vectorize(lambda v: act_real(name, params, float(v)), otypes=[np.float64])(y)


def slope(act):
    if act is None:
        return 1.0
    return max([1.0] + [abs(v) for k, v in act[1].items()])


def taps(w_shape, p):
    t = (w_shape[0] // p["groups"]) if p["backward"] else w_shape[1]
    for s in w_shape[2:]:
        t *= s
    return t


def params(sp, stride=1, dil=1, start=0, end=0, opad=0, groups=1, backward=False,
           mode="CROSS_CORRELATION"):
    def lst(v):
        return list(v) if isinstance(v, (list, tuple)) else [v] * sp
    return {"stride": lst(stride), "dil": lst(dil), "start": lst(start), "end": lst(end),
            "opad": lst(opad), "groups": groups, "backward": backward, "mode": mode}


def attrs_of(p, act=None):
    a = {"Mode": "DML_CONVOLUTION_MODE_" + p["mode"],
         "Direction": "DML_CONVOLUTION_DIRECTION_" + ("BACKWARD" if p["backward"] else "FORWARD"),
         "Strides": p["stride"], "Dilations": p["dil"], "StartPadding": p["start"],
         "EndPadding": p["end"], "OutputPadding": p["opad"], "GroupCount": p["groups"]}
    if act is not None:
        fused = {"Type": "DML_OPERATOR_ACTIVATION_" + act[0]}
        fused.update(act[1])
        a["FusedActivation"] = fused
    return a


def strided(t, a, strides):
    """A case tensor of a laid out with explicit element strides (the runner places each
    element at its strided offset)."""
    d = tensor(t, a)
    d["strides"] = list(strides)
    return d


def nhwc_strides(shape):
    """Strides of an {N, C, spatial...} tensor stored channels-last."""
    sp = shape[2:]
    s = [0] * len(shape)
    s[1] = 1
    acc = shape[1]
    for i in range(len(sp) - 1, -1, -1):
        s[2 + i] = acc
        acc *= sp[i]
    s[0] = acc
    return s


def make(rng, name, t, x_shape, w_shape, p, bias=True, act=None, extra=None, layout=None,
         note=None):
    x = stored(t, rng.uniform(-2, 2, size=x_shape))
    w = stored(t, rng.uniform(-1, 1, size=w_shape))
    shape = out_sizes(x_shape, w_shape, p)
    if extra:
        for i, e in enumerate(extra):
            shape[2 + i] += e
    cout = shape[1]
    b = stored(t, rng.uniform(-1, 1, size=[cout])) if bias else None
    y, mag, terms = conv(x, w, b, p, shape)
    y = activation(y, act)
    tol_ulp = 2 * taps(w_shape, p) + (ACT_ULPS[act[0]] if act else 0)
    bound = float(((terms + 1) * mag).max()) * 2.0 ** -24 * slope(act)
    if t == "FLOAT16":
        bound += float(np.abs(y).max()) * 2.0 ** -11
    inputs = {}
    if layout == "nhwc":
        inputs["InputTensor"] = strided(t, x, nhwc_strides(list(x_shape)))
    else:
        inputs["InputTensor"] = tensor(t, x)
    inputs["FilterTensor"] = tensor(t, w)
    if b is not None:
        bshape = [1, cout] + [1] * (len(x_shape) - 2)
        if layout == "bias-broadcast":  # strides of 0 on the size-1 dimensions
            inputs["BiasTensor"] = strided(t, b.reshape(bshape), [0, 1] + [0] * (len(x_shape) - 2))
        else:
            inputs["BiasTensor"] = tensor(t, b.reshape(bshape))
    out = tensor(t, y)
    if layout == "nhwc":
        inputs["OutputTensor"] = {"type": t, "shape": shape, "strides": nhwc_strides(shape)}
    elif layout == "padded-out":
        st = [1] * len(shape)
        acc = 1
        for d in range(len(shape) - 1, -1, -1):
            st[d] = acc
            acc *= shape[d] + (2 if d >= 2 else 0)
        inputs["OutputTensor"] = {"type": t, "shape": shape, "strides": st}
    out["tolerance"] = {"ulp": tol_ulp, "abs": bound}
    c = {"name": name, "source": "directml:DML_CONVOLUTION_OPERATOR_DESC#semantics", "op": OP,
         "attrs": attrs_of(p, act), "inputs": inputs, "expected": {"outputs": {"OutputTensor": out}}}
    if note:
        c["note"] = note
    return c


def generated(rng):
    got = []
    base = "directml.convolution"
    # FORWARD 2-D: kernels, strides, padding, dilations, groups; both types.
    for t in ("FLOAT32", "FLOAT16"):
        tt = t.lower()
        for k, s, pad, d in ((1, 1, 0, 1), (3, 1, 1, 1), (3, 2, 1, 1), (5, 1, 2, 1), (3, 1, 2, 2),
                             (2, 2, 0, 1), (7, 2, 3, 1), (3, 3, 0, 1), (4, 1, (1, 2), 1)):
            p = params(2, stride=s, dil=d, start=pad if not isinstance(pad, tuple) else pad[0],
                       end=pad if not isinstance(pad, tuple) else pad[1])
            got.append(make(rng, f"{base}.fwd2d.{tt}-k{k}-s{s}-p{pad}-d{d}".replace(" ", ""),
                            t, [1, 3, 11, 13], [4, 3, k, k], p))
        for g, cin, cout in ((2, 4, 6), (3, 6, 3), (4, 4, 4), (4, 4, 8), (8, 8, 8)):
            p = params(2, start=1, end=1, groups=g)
            kind = "depthwise" if g == cin else "grouped"
            got.append(make(rng, f"{base}.fwd2d.{tt}-{kind}-g{g}-c{cin}-o{cout}", t,
                            [2, cin, 7, 9], [cout, cin // g, 3, 3], p))
        # Asymmetric padding and non-square everything.
        p = params(2, stride=[1, 2], dil=[2, 1], start=[0, 2], end=[1, 0])
        got.append(make(rng, f"{base}.fwd2d.{tt}-asymmetric", t, [1, 2, 9, 12], [3, 2, 2, 4], p))
        # No bias, batch 3.
        got.append(make(rng, f"{base}.fwd2d.{tt}-no-bias-batch3", t, [3, 2, 6, 6], [5, 2, 3, 3],
                        params(2, start=1, end=1), bias=False))
    # 1-D and 3-D.
    for t in ("FLOAT32", "FLOAT16"):
        tt = t.lower()
        for k, s, pad, d, g in ((3, 1, 1, 1, 1), (5, 2, 2, 1, 1), (3, 1, 0, 3, 1), (3, 1, 1, 1, 4),
                                (1, 1, 0, 1, 2)):
            cin = 4
            p = params(1, stride=s, dil=d, start=pad, end=pad, groups=g)
            got.append(make(rng, f"{base}.fwd1d.{tt}-k{k}-s{s}-p{pad}-d{d}-g{g}", t, [2, cin, 23],
                            [4, cin // g, k], p))
        for k, s, pad, g in ((3, 1, 1, 1), (2, 2, 0, 1), (3, 1, 1, 2), (1, 1, 0, 1)):
            p = params(3, stride=s, start=pad, end=pad, groups=g)
            got.append(make(rng, f"{base}.fwd3d.{tt}-k{k}-s{s}-p{pad}-g{g}", t, [1, 2, 5, 6, 7],
                            [4, 2 // g, k, k, k], p))
    # Modes in both directions.
    for mode in ("CONVOLUTION", "CROSS_CORRELATION"):
        for back in (False, True):
            for sp in (1, 2, 3):
                p = params(sp, stride=2 if back else 1, start=1, end=1 if sp > 1 else 0,
                           backward=back, mode=mode)
                xs = [1, 3] + [5, 6, 7][3 - sp:]
                ws = ([3, 2] if back else [2, 3]) + [3, 2, 3][3 - sp:]
                got.append(make(rng, f"{base}.mode.{mode.lower()}-{'bwd' if back else 'fwd'}-{sp}d",
                                "FLOAT32", xs, ws, p))
    # BACKWARD: strides, padding, OutputPadding, groups, dilations, larger outputs.
    for t in ("FLOAT32", "FLOAT16"):
        tt = t.lower()
        for k, s, pad, op, d, g in ((3, 1, 1, 0, 1, 1), (4, 2, 1, 0, 1, 1), (3, 2, 1, 1, 1, 1),
                                    (2, 2, 0, 0, 1, 1), (3, 3, 0, 2, 1, 1), (3, 2, 0, 0, 2, 1),
                                    (3, 2, 1, 1, 1, 2), (3, 1, 1, 0, 1, 4), (5, 2, 2, 1, 1, 1)):
            cin = 4
            p = params(2, stride=s, dil=d, start=pad, end=pad, opad=op, groups=g, backward=True)
            got.append(make(rng, f"{base}.bwd2d.{tt}-k{k}-s{s}-p{pad}-op{op}-d{d}-g{g}", t,
                            [1, cin, 5, 6], [cin, 6 // g if g < 4 else 1, k, k], p))
        p = params(1, stride=2, start=1, end=0, backward=True)
        got.append(make(rng, f"{base}.bwd1d.{tt}-s2", t, [2, 3, 9], [3, 2, 4], p))
        p = params(3, stride=2, start=0, end=1, backward=True)
        got.append(make(rng, f"{base}.bwd3d.{tt}-s2", t, [1, 2, 3, 3, 4], [2, 2, 2, 2, 2], p))
    for extra in ([1, 1], [0, 2], [3, 0]):
        p = params(2, stride=2, start=1, end=1, backward=True)
        got.append(make(rng, f"{base}.bwd2d.larger-output-{extra[0]}{extra[1]}", "FLOAT32",
                        [1, 2, 4, 5], [2, 3, 3, 3], p, extra=extra,
                        note="an output past the size rule (ONNX Runtime passes ConvTranspose's "
                             "output_padding this way, OutputPadding 0): the gather's values "
                             "there, bias where no window reaches"))
    # Fused activations.
    acts = [("RELU", {}), ("LEAKY_RELU", {"Alpha": 0.125}), ("SIGMOID", {}),
            ("LINEAR", {"Alpha": 0.5, "Beta": -0.25}), ("ELU", {"Alpha": 1.0}),
            ("HARD_SIGMOID", {"Alpha": 0.2, "Beta": 0.5}), ("IDENTITY", {})]
    for name, prm in acts:
        for back in (False, True):
            for t in ("FLOAT32", "FLOAT16"):
                if t == "FLOAT16" and name not in ("RELU", "SIGMOID"):
                    continue
                p = params(2, stride=2 if back else 1, start=1, end=1, backward=back)
                got.append(make(rng, f"{base}.act.{name.lower()}-{'bwd' if back else 'fwd'}-"
                                     f"{t.lower()}", t, [1, 3, 6, 7],
                                [3, 4, 3, 3] if back else [4, 3, 3, 3], p, act=(name, prm)))
    # Strided tensors.
    for t in ("FLOAT32", "FLOAT16"):
        tt = t.lower()
        got.append(make(rng, f"{base}.layout.{tt}-nhwc", t, [1, 5, 6, 19], [7, 5, 3, 3],
                        params(2, start=1, end=1), layout="nhwc",
                        note="input and output channels-last through their strides"))
        got.append(make(rng, f"{base}.layout.{tt}-nhwc-bwd", t, [1, 4, 5, 6], [4, 3, 2, 2],
                        params(2, stride=2, backward=True), layout="nhwc"))
        got.append(make(rng, f"{base}.layout.{tt}-padded-output", t, [1, 3, 6, 21],
                        [4, 3, 3, 3], params(2, start=1, end=1), layout="padded-out"))
        got.append(make(rng, f"{base}.layout.{tt}-bias-broadcast-strides", t, [1, 2, 5, 5],
                        [3, 2, 3, 3], params(2), layout="bias-broadcast"))
    # Wider rows (the kernel's vector blocks: interior and both edges).
    for w in (16, 17, 33, 48):
        got.append(make(rng, f"{base}.rows.w{w}", "FLOAT32", [1, 3, 3, w], [9, 3, 3, 3],
                        params(2, start=1, end=1)))
        got.append(make(rng, f"{base}.rows.depthwise-w{w}", "FLOAT32", [1, 4, 5, w],
                        [4, 1, 3, 3], params(2, start=1, end=1, groups=4)))
    return got


def error_cases():
    """One case per validation rule (docs/operators.md, CONVOLUTION)."""
    got = []
    base = "directml.convolution.error"

    def err(name, x, w, attrs, out_shape, bias=None, note=None, t="FLOAT32", wt=None, ot=None):
        inputs = {"InputTensor": tensor(t, np.zeros(x)),
                  "FilterTensor": tensor(wt or t, np.zeros(w))}
        if bias is not None:
            inputs["BiasTensor"] = tensor(t, np.zeros(bias))
        inputs["OutputTensor"] = {"type": ot or t, "shape": out_shape}
        a = {"Strides": [1, 1], "Dilations": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0],
             "OutputPadding": [0, 0], "GroupCount": 1}
        a.update(attrs)
        c = {"name": f"{base}.{name}", "source": "directml:DML_CONVOLUTION_OPERATOR_DESC#text",
             "op": OP, "attrs": a, "inputs": inputs, "expected": {"error": "invalid_argument"}}
        if note:
            c["note"] = note
        return c

    x, w, o = [1, 2, 5, 5], [3, 2, 3, 3], [1, 3, 3, 3]
    got.append(err("int32", x, w, {}, o, t="INT32", note="FLOAT32 and FLOAT16 only"))
    got.append(err("filter-type", x, w, {}, o, wt="FLOAT16", note="one DataType"))
    got.append(err("output-type", x, w, {}, o, ot="FLOAT16", note="one DataType"))
    got.append(err("rank-2", [2, 5], [3, 2], {"Strides": [], "Dilations": [], "StartPadding": [],
                                              "EndPadding": [], "OutputPadding": []}, [1, 3],
                   note="3 to 5 dimensions"))
    got.append(err("filter-rank", x, [3, 2, 1, 3, 3], {}, o, note="one DimensionCount"))
    got.append(err("dimension-count", x, w, {"DimensionCount": 3, "Strides": [1, 1, 1],
                                             "Dilations": [1, 1, 1], "StartPadding": [0, 0, 0],
                                             "EndPadding": [0, 0, 0],
                                             "OutputPadding": [0, 0, 0]}, o,
                   note="DimensionCount is the input's DimensionCount - 2"))
    got.append(err("mode", x, w, {"Mode": 2}, o, note="a DML_CONVOLUTION_MODE"))
    got.append(err("direction", x, w, {"Direction": 2}, o, note="a DML_CONVOLUTION_DIRECTION"))
    got.append(err("stride-0", x, w, {"Strides": [1, 0]}, o, note="Strides at least 1"))
    got.append(err("dilation-0", x, w, {"Dilations": [0, 1]}, o, note="Dilations at least 1"))
    got.append(err("output-padding-forward", x, w, {"OutputPadding": [1, 0]}, o,
                   note="OutputPadding applies to BACKWARD"))
    got.append(err("group-0", x, w, {"GroupCount": 0}, o, note="GroupCount at least 1"))
    got.append(err("group-input", [1, 3, 5, 5], [4, 1, 3, 3], {"GroupCount": 2}, [1, 4, 3, 3],
                   note="GroupCount divides the input channels"))
    got.append(err("filter-channels", x, [3, 1, 3, 3], {}, o,
                   note="FORWARD filter {Cout, Cin / GroupCount}"))
    got.append(err("group-output", [1, 4, 5, 5], [3, 2, 3, 3], {"GroupCount": 2}, o,
                   note="GroupCount divides the output channels"))
    got.append(err("backward-filter", x, [3, 2, 3, 3], {"Direction": "DML_CONVOLUTION_DIRECTION_"
                                                                      "BACKWARD"}, [1, 2, 7, 7],
                   note="BACKWARD filter {Cin, Cout / GroupCount}"))
    got.append(err("output-size", x, w, {}, [1, 3, 3, 4], note="FORWARD output size exact"))
    got.append(err("output-channels", x, w, {}, [1, 4, 3, 3], note="output channels"))
    got.append(err("output-batch", x, w, {}, [2, 3, 3, 3], note="output batch"))
    got.append(err("window", x, [3, 2, 3, 3], {"Dilations": [3, 1]}, [1, 3, 1, 3],
                   note="the window fits the padded input"))
    got.append(err("backward-small-output", x, [2, 3, 3, 3],
                   {"Direction": "DML_CONVOLUTION_DIRECTION_BACKWARD"}, [1, 3, 6, 7],
                   note="BACKWARD output at least the rule's"))
    got.append(err("bias-size", x, w, {}, o, bias=[1, 2, 1, 1], note="bias {1, Cout, 1, 1}"))
    got.append(err("bias-rank", x, w, {}, o, bias=[1, 3, 1], note="one DimensionCount"))
    got.append(err("fused-not-activation", x, w,
                   {"FusedActivation": {"Type": 48}}, o,
                   note="FusedActivation an activation DirectML fuses (48: ACTIVATION_SOFTMAX, not one)"))
    return got


def main():
    rng = np.random.default_rng(0x434F4E56)
    cases = generated(rng) + error_cases()
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    path = os.path.join(CASES, "directml", "conv.json")
    write(path, cases)
    print(f"{path}: {len(cases)} cases")


if __name__ == "__main__":
    main()
