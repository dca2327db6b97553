#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The peers: the dmlcl-bench workloads run the way a user would run them
instead of dmlcl: numpy, OpenVINO (CPU plugin, one op per model) and ONNX
Runtime (CPU provider). Same shapes and types as bench/workloads.c. Each
result is checked against numpy once (the reductions, normalisations and scans
from sum-inner on: every system's, against a float64 reference within
TOLERANCE); prints
`system,workload,bytes,seconds,min_seconds` (median and minimum of at least
--reps runs and --seconds per system, after two warm-up runs).

--chains runs bench/chains.c's chains instead, each as one model (ONNX
Runtime and OpenVINO optimise the whole graph) and as numpy expressions.
"""
import argparse
import glob
import math
import statistics
import sys
import time

import numpy as np

RNG = np.random.default_rng(12345)


def workloads():
    """name -> (inputs dict, numpy function writing into `out`, out shape, dtype)."""
    w = {}
    data = np.arange(50000 * 1024, dtype=np.uint32).view(np.float32).reshape(50000, 1024)
    idx = RNG.integers(0, 50000, 16384, dtype=np.int64)
    w["embedding-gather"] = dict(kind="gather", data=data, indices=idx, axis=0, batch_dims=0)
    data = np.arange(4096 * 4096, dtype=np.uint32).view(np.float32).reshape(4096, 4096)
    idx = RNG.integers(0, 4096, 2048, dtype=np.int64)
    w["inner-axis-gather"] = dict(kind="gather", data=data, indices=idx, axis=1, batch_dims=0)
    data = np.arange(64 * 1024 * 256, dtype=np.uint32).view(np.float32).reshape(64, 1024, 256)
    idx = RNG.integers(0, 1024, (64, 512), dtype=np.int64)
    w["batched-gather"] = dict(kind="gather", data=data, indices=idx, axis=1, batch_dims=1)
    # Finite half values: the OpenVINO CPU plugin does not keep NaN payloads.
    data = (np.arange(1048576 * 8, dtype=np.uint32) % 0x7800).astype(np.uint16).view(
        np.float16).reshape(1048576, 8)
    idx = RNG.integers(0, 1048576, 1048576, dtype=np.int64)
    w["small-row-gather"] = dict(kind="gather", data=data, indices=idx, axis=0, batch_dims=0)
    x = np.arange(64 * 3 * 512 * 512, dtype=np.uint32).view(np.float32).reshape(64, 3, 512, 512)
    w["reversing-slice"] = dict(kind="slice", data=x, begin=[0, -1, 0, 1], end=[64, -4, 512, 512],
                                step=[1, -1, 2, 2], py=(slice(None), slice(None, None, -1),
                                                        slice(None, None, 2), slice(1, None, 2)))
    w["row-slice"] = dict(kind="slice", data=x, begin=[0, 0, 100, 0], end=[64, 3, 412, 512],
                          step=[1, 1, 1, 1], py=(slice(None), slice(None), slice(100, -100),
                                                 slice(None)))
    c = np.arange(16, dtype=np.float32).reshape(16, 1, 1)
    w["channel-broadcast"] = dict(kind="broadcast", data=c, shape=[64, 16, 256, 256])
    b = np.arange(256 * 256, dtype=np.float32).reshape(1, 256, 256)
    w["batch-broadcast"] = dict(kind="broadcast", data=b, shape=[256, 256, 256])
    x = np.arange(32 * 64 * 128 * 128, dtype=np.uint32).view(np.float32).reshape(32, 64, 128, 128)
    w["nchw-to-nhwc"] = dict(kind="transpose", data=x, perm=[0, 2, 3, 1])
    x = np.arange(16 * 3 * 256 * 256, dtype=np.uint32).view(np.float32).reshape(16, 3, 256, 256)
    w["tile"] = dict(kind="tile", data=x, reps=[1, 1, 2, 2])
    x = np.arange(32 * 256 * 64 * 64, dtype=np.uint32).view(np.float32).reshape(32, 256, 64, 64)
    w["depth-to-space"] = dict(kind="depth_to_space", data=x, block=2)
    x = np.arange(32 * 64 * 128 * 128, dtype=np.uint32).view(np.float32).reshape(32, 64, 128, 128)
    w["space-to-depth"] = dict(kind="space_to_depth", data=x, block=2)
    at, parts = 0, []
    for k in (16, 32, 48, 32):
        n = 8 * 128 * 128 * k
        # Normal floats: the OpenVINO CPU plugin flushes denormal inputs of a concat to 0.
        parts.append((np.arange(n, dtype=np.float32) + at).reshape(8, 128, 128, k))
        at += n
    w["inner-concat"] = dict(kind="concat", inputs=parts, axis=3)
    x = np.arange(8 * 128 * 128 * 128, dtype=np.uint32).view(np.float32).reshape(8, 128, 128, 128)
    w["split-3"] = dict(kind="split", data=x, axis=2, lengths=[40, 48, 40])
    x = np.arange(16 * 64 * 128 * 128, dtype=np.uint32).view(np.float32).reshape(16, 64, 128, 128)
    w["constant-pad"] = dict(kind="pad", data=x, mode="constant", pads=[0, 0, 2, 2])
    w["reflect-pad"] = dict(kind="pad", data=x, mode="reflect", pads=[0, 0, 2, 2])
    # Element-wise: values with few significant bits (bench/workloads.c small_value), so the
    # sums and products are exact in every system.
    x = (RNG.integers(-2000, 2001, (16, 64, 128, 128)) * 0.125).astype(np.float32)
    b = (RNG.integers(-2000, 2001, (64,)) * 0.125).astype(np.float32)
    w["add-bias"] = dict(kind="binary", op="Add", data=x, other=b.reshape(1, 64, 1, 1))
    a = (RNG.integers(-2000, 2001, (16, 1024, 1024)) * 0.125).astype(np.float32)
    c = (RNG.integers(-2000, 2001, (16, 1024, 1024)) * 0.125).astype(np.float32)
    w["multiply"] = dict(kind="binary", op="Mul", data=a, other=c)
    # Activations over [16,1024,1024] f32 in [-8, 8); ADD then RELU of two such tensors.
    x = RNG.uniform(-8, 8, (16, 1024, 1024)).astype(np.float32)
    w["gelu"] = dict(kind="unary", op="Gelu", data=x)
    w["sigmoid"] = dict(kind="unary", op="Sigmoid", data=x)
    w["add1-relu"] = dict(kind="binary", op="AddRelu", data=a, other=c)
    # CAST f32 to f16 (eighths in [-250, 250]: exact in f16); CLIP of int8 to [-50, 50].
    w["cast-f16"] = dict(kind="unary", op="CastF16", data=x16_source())
    w["clip-i8"] = dict(kind="unary", op="ClipI8",
                        data=RNG.integers(-128, 128, (64, 1024, 1024), dtype=np.int8))
    # Reductions, normalisations and scans. Sums: eighths in [-64, 64], so every partial sum of a
    # row or column of 4096 is exact in float32 whatever the order; scores uniform in [-8, 8).
    s = (RNG.integers(-512, 513, (4096, 4096)) / 8).astype(np.float32)
    w["sum-inner"] = dict(kind="sum", data=s, axis=1)
    w["sum-outer"] = dict(kind="sum", data=s, axis=0)
    x = RNG.uniform(-8, 8, (4096, 4096)).astype(np.float32)
    w["softmax-rows"] = dict(kind="softmax", data=x, axis=1)
    w["softmax-attention"] = dict(kind="softmax", axis=2,
                                  data=RNG.uniform(-8, 8, (96, 128, 128)).astype(np.float32))
    for n in (384, 768):
        w[f"layernorm-{n}"] = dict(kind="layernorm", epsilon=1e-5,
                                   data=RNG.uniform(-8, 8, (4096, n)).astype(np.float32),
                                   scale=RNG.uniform(0.5, 1.5, n).astype(np.float32),
                                   bias=RNG.uniform(-1, 1, n).astype(np.float32))
    w["bn-relu"] = dict(kind="bn_relu", epsilon=1e-5,
                        data=RNG.uniform(-8, 8, (16, 64, 128, 128)).astype(np.float32),
                        mean=RNG.uniform(-1, 1, 64).astype(np.float32),
                        var=RNG.uniform(0.5, 2, 64).astype(np.float32),
                        scale=RNG.uniform(0.5, 1.5, 64).astype(np.float32),
                        bias=RNG.uniform(-1, 1, 64).astype(np.float32))
    w["argmax-inner"] = dict(kind="argmax", data=x, axis=1)  # softmax-rows' scores
    w["cumsum"] = dict(kind="cumsum", data=s, axis=1)
    # Pooling: the ResNet stem's 3x3/2 max pooling (padding 1) and a global average pool; eighths
    # in [-64, 64], so a window's sum (49 of them) is exact in float32.
    w["maxpool-3x3s2"] = dict(kind="maxpool", window=3, stride=2, pad=1,
                              data=(RNG.integers(-512, 513, (1, 64, 112, 112)) / 8).astype(
                                  np.float32))
    w["global-avgpool"] = dict(kind="global_avgpool",
                               data=(RNG.integers(-512, 513, (8, 2048, 7, 7)) / 8).astype(
                                   np.float32))
    # Resampling x2 in H and W: eighths in [-64, 64], so bilinear sums (sixteenths) are exact.
    f = (RNG.integers(-512, 513, (1, 64, 128, 128)) / 8).astype(np.float32)
    w["resample-linear-x2"] = dict(kind="resample", mode="linear", data=f)
    w["resample-nearest-x2"] = dict(kind="resample", mode="nearest", data=f)
    # The convolutions (bench/workloads_conv.c): eighths in [-1, 1], a bias.
    for name, (xs, ci, co, k, stride, pad, groups, transposed) in CONV_SHAPES.items():
        x = (RNG.integers(-8, 9, xs) / 8).astype(np.float32)
        fs = [ci, co // groups, k, k] if transposed else [co, ci // groups, k, k]
        w[name] = dict(kind="conv", data=x, filter=(RNG.integers(-8, 9, fs) / 8).astype(
            np.float32), bias=(RNG.integers(-8, 9, co) / 8).astype(np.float32), stride=stride,
            pad=pad, groups=groups, transposed=transposed)
    return w


# name -> (input shape, input channels, output channels, kernel side, stride, pad, groups,
# transposed), as bench/workloads_conv.c.
CONV_SHAPES = {
    "conv-stem": ([1, 3, 224, 224], 3, 64, 7, 2, 3, 1, False),
    "conv-3x3-56": ([1, 64, 56, 56], 64, 64, 3, 1, 1, 1, False),
    "conv-3x3-14": ([1, 256, 14, 14], 256, 256, 3, 1, 1, 1, False),
    "conv-1x1-56": ([1, 256, 56, 56], 256, 64, 1, 1, 0, 1, False),
    "conv-depthwise": ([1, 256, 56, 56], 256, 256, 3, 1, 1, 256, False),
    "conv-transposed": ([1, 64, 56, 56], 64, 32, 4, 2, 1, 1, True),
}


def conv64(w):
    """A convolution's definition in float64: FORWARD each output the sum over its window of the
    zero-padded input; transposed every input times every tap scattered, then cropped."""
    x, f, s, p, g = w["data"].astype(np.float64), w["filter"].astype(np.float64), w["stride"], \
        w["pad"], w["groups"]
    n, c, h, wd = x.shape
    k = f.shape[2]
    if w["transposed"]:
        co = f.shape[1] * g
        full = np.zeros((n, co, (h - 1) * s + k, (wd - 1) * s + k))
        cg, og = c // g, co // g
        for gi in range(g):
            for ky in range(k):
                for kx in range(k):
                    full[:, gi * og:(gi + 1) * og, ky:ky + (h - 1) * s + 1:s,
                         kx:kx + (wd - 1) * s + 1:s] += np.einsum(
                        "nchw,co->nohw", x[:, gi * cg:(gi + 1) * cg], f[gi * cg:(gi + 1) * cg, :,
                                                                        ky, kx])
        y = full[:, :, p:full.shape[2] - p, p:full.shape[3] - p]
    else:
        co = f.shape[0]
        xp = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
        oh, ow = (h + 2 * p - k) // s + 1, (wd + 2 * p - k) // s + 1
        y = np.zeros((n, co, oh, ow))
        cg, og = c // g, co // g
        for ky in range(k):
            for kx in range(k):
                win = xp[:, :, ky:ky + (oh - 1) * s + 1:s, kx:kx + (ow - 1) * s + 1:s]
                if g == 1:
                    y += np.einsum("nchw,oc->nohw", win, f[:, :, ky, kx])
                elif cg == 1 and og == 1:  # depthwise
                    y += win * f[:, 0, ky, kx].reshape(1, -1, 1, 1)
                else:
                    for gi in range(g):
                        y[:, gi * og:(gi + 1) * og] += np.einsum(
                            "nchw,oc->nohw", win[:, gi * cg:(gi + 1) * cg],
                            f[gi * og:(gi + 1) * og, :, ky, kx])
    return y + w["bias"].astype(np.float64).reshape(1, -1, 1, 1)


def x16_source():
    return (RNG.integers(-2000, 2001, (16, 1024, 1024)) * 0.125).astype(np.float32)


def numpy_unary(op, x, out=None):
    """The op as numpy users write it (GELU: numpy has no erf; math.erf per element)."""
    if op == "CastF16":
        if out is None:
            return x.astype(np.float16)
        np.copyto(out, x, casting="unsafe")
        return out
    if op == "ClipI8":
        return np.clip(x, np.int8(-50), np.int8(50), out=out)
    if op == "Sigmoid":
        r = np.negative(x, out=out)
        np.exp(r, out=r)
        r += 1
        return np.reciprocal(r, out=r)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    r = (0.5 * x * (1 + erf(x / math.sqrt(2)))).astype(np.float32)
    if out is not None:
        np.copyto(out, r)
    return r


def add_relu(a, b, out=None):
    r = np.add(a, b, out=out)
    return np.maximum(r, 0, out=r)


BINARY_NUMPY = {"Add": np.add, "Mul": np.multiply, "AddRelu": add_relu}


def tile_views(w, out):
    """numpy's fastest tile: out as (repeat, size) pairs, written from a broadcast of the data."""
    data, reps = w["data"], w["reps"]
    pairs = [v for r, n in zip(reps, data.shape) for v in (r, n)]
    src = data.reshape([v for n in data.shape for v in (1, n)])
    return out.reshape(pairs), np.broadcast_to(src, pairs)


def depth_to_space_view(x, b):
    """ONNX DepthToSpace DCR's reshape and transpose, as a numpy view."""
    n, c, h, wd = x.shape
    return x.reshape(n, b, b, c // (b * b), h, wd).transpose(0, 3, 4, 1, 5, 2)


def space_to_depth_view(x, b):
    """ONNX SpaceToDepth (DCR)'s reshape and transpose, as a numpy view."""
    n, c, h, wd = x.shape
    return x.reshape(n, c, h // b, b, wd // b, b).transpose(0, 3, 5, 1, 2, 4)


def split_pieces(w):
    return np.split(w["data"], np.cumsum(w["lengths"])[:-1], w["axis"])


def pad_width(w):
    return [(p, p) for p in w["pads"]]


# The reductions' tolerance against the float64 reference: None is exact (sums of eighths, the
# argmax's index); softmax 1e-5 relative; layernorm 1e-3 absolute; batch norm near float32's.
TOLERANCE = {"sum": None, "cumsum": None, "argmax": None, "softmax": dict(rtol=1e-5, atol=0),
             "layernorm": dict(rtol=0, atol=1e-3), "bn_relu": dict(rtol=1e-5, atol=1e-5),
             "maxpool": None, "global_avgpool": dict(rtol=1e-6, atol=0),
             "resample": dict(rtol=1e-6, atol=1e-6),
             "conv": dict(rtol=1e-5, atol=1e-3)}


def maxpool_view(w, x):
    """The windows of x padded with -inf: [N, C, OH, OW, K, K] (a view)."""
    k, s, p = w["window"], w["stride"], w["pad"]
    padded = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), constant_values=-np.inf)
    return np.lib.stride_tricks.sliding_window_view(padded, (k, k), axis=(2, 3))[:, :, ::s, ::s]


def bilinear_x2(x):
    """ONNX Resize linear, half_pixel, scale 2 on the last two axes, in float64."""
    def axis(n):
        o = np.arange(2 * n)
        c = np.clip((o + 0.5) / 2 - 0.5, 0, n - 1)
        i0 = np.floor(c).astype(np.int64)
        i1 = np.minimum(i0 + 1, n - 1)
        return i0, i1, c - i0
    y0, y1, wy = axis(x.shape[2])
    x0, x1, wx = axis(x.shape[3])
    rows = x[:, :, y0, :] * (1 - wy)[:, None] + x[:, :, y1, :] * wy[:, None]
    return rows[:, :, :, x0] * (1 - wx) + rows[:, :, :, x1] * wx


def reference64(w):
    """The reductions' expected output, from the definitions in float64 (an int64 argmax)."""
    x, k, axis = w["data"].astype(np.float64), w["kind"], w.get("axis")
    if k == "maxpool":
        return maxpool_view(w, x).max(axis=(4, 5))
    if k == "global_avgpool":
        return x.mean(axis=(2, 3), keepdims=True)
    if k == "conv":
        return conv64(w)
    if k == "sum":
        return x.sum(axis, keepdims=True)
    if k == "cumsum":
        return np.cumsum(x, axis)
    if k == "argmax":
        return np.argmax(x, axis, keepdims=True).astype(np.int64)
    if k == "resample":
        if w["mode"] == "nearest":
            return x.repeat(2, 2).repeat(2, 3)
        return bilinear_x2(x)
    if k == "softmax":
        e = np.exp(x - x.max(axis, keepdims=True))
        return e / e.sum(axis, keepdims=True)
    if k == "layernorm":
        d = x - x.mean(-1, keepdims=True)
        return d / np.sqrt((d * d).mean(-1, keepdims=True) + w["epsilon"]) * w["scale"] + w["bias"]
    c = [w[v].astype(np.float64).reshape(1, -1, 1, 1) for v in ("mean", "var", "scale", "bias")]
    return np.maximum((x - c[0]) / np.sqrt(c[1] + w["epsilon"]) * c[2] + c[3], 0)


def numpy_softmax(x, axis, out):
    np.subtract(x, x.max(axis, keepdims=True), out=out)
    np.exp(out, out=out)
    out /= out.sum(axis, keepdims=True)
    return out


def numpy_layernorm(w, out):
    x = w["data"]
    np.subtract(x, x.mean(-1, keepdims=True), out=out)
    out /= np.sqrt(x.var(-1, keepdims=True) + w["epsilon"])
    out *= w["scale"]
    out += w["bias"]
    return out


def numpy_bn_relu(w, out):
    """Inference batch norm folded into a per-channel scale and shift, as frameworks do."""
    a = w["scale"] / np.sqrt(w["var"] + np.float32(w["epsilon"]))
    np.multiply(w["data"], a.reshape(1, -1, 1, 1), out=out)
    out += (w["bias"] - w["mean"] * a).reshape(1, -1, 1, 1)
    return np.maximum(out, 0, out=out)


def numpy_reduction(w, out):
    """The reductions as numpy users write them; each returns its output (checked)."""
    x, k, axis = w["data"], w["kind"], w.get("axis")
    if k == "maxpool":  # a user's numpy: the windows of a padded copy, reduced
        return lambda: np.max(maxpool_view(w, x), axis=(4, 5), out=out)
    if k == "global_avgpool":
        return lambda: np.mean(x, axis=(2, 3), keepdims=True, out=out)
    if k == "sum":
        return lambda: np.sum(x, axis, keepdims=True, out=out)
    if k == "cumsum":
        return lambda: np.cumsum(x, axis, out=out)
    if k == "argmax":
        return lambda: np.argmax(x, axis, keepdims=True, out=out)
    if k == "resample":  # nearest: each element to a 2 x 2 block by a broadcast copy
        n, c, h, wd = x.shape
        blocks = out.reshape(n, c, h, 2, wd, 2)
        src = x[:, :, :, None, :, None]
        return lambda: (np.copyto(blocks, src), out)[1]
    if k == "softmax":
        return lambda: numpy_softmax(x, axis, out)
    if k == "layernorm":
        return lambda: numpy_layernorm(w, out)
    return lambda: numpy_bn_relu(w, out)


def numpy_reference(w):
    """The expected output (a split's outputs back to back, as dmlcl-bench compares them)."""
    k = w["kind"]
    if k == "tile":
        return np.tile(w["data"], w["reps"])
    if k == "concat":
        return np.concatenate(w["inputs"], w["axis"])
    if k == "split":
        return np.concatenate([p.reshape(-1) for p in split_pieces(w)])
    if k == "gather":
        if w["batch_dims"]:
            b = np.arange(w["data"].shape[0])[:, None]
            return w["data"][b, w["indices"]]
        return np.take(w["data"], w["indices"], axis=w["axis"])
    if k == "slice":
        return np.ascontiguousarray(w["data"][w["py"]])
    if k == "broadcast":
        return np.ascontiguousarray(np.broadcast_to(w["data"], w["shape"]))
    if k == "depth_to_space":
        n, c, h, wd = w["data"].shape
        b = w["block"]
        return np.ascontiguousarray(depth_to_space_view(w["data"], b)).reshape(
            n, c // (b * b), h * b, wd * b)
    if k == "space_to_depth":
        n, c, h, wd = w["data"].shape
        b = w["block"]
        return np.ascontiguousarray(space_to_depth_view(w["data"], b)).reshape(
            n, c * b * b, h // b, wd // b)
    if k == "pad":
        return np.pad(w["data"], pad_width(w), mode=w["mode"])
    if k == "binary":
        return BINARY_NUMPY[w["op"]](w["data"], w["other"])
    if k == "unary":
        return numpy_unary(w["op"], w["data"])
    return np.ascontiguousarray(w["data"].transpose(w["perm"]))


def numpy_runner(w, expected):
    out = np.empty_like(expected)
    k = w["kind"]
    if k in TOLERANCE:
        return numpy_reduction(w, out)
    if k == "concat":
        return lambda: np.concatenate(w["inputs"], w["axis"], out=out)
    if k == "split":
        views = split_pieces(w)
        outs = [np.empty_like(v) for v in views]
        return lambda: [np.copyto(o, v) for o, v in zip(outs, views)]
    if k == "gather" and not w["batch_dims"]:
        return lambda: np.take(w["data"], w["indices"], axis=w["axis"], out=out)
    if k == "gather":
        b = np.arange(w["data"].shape[0])[:, None]
        return lambda: np.copyto(out, w["data"][b, w["indices"]])
    if k == "slice":
        view = w["data"][w["py"]]
        return lambda: np.copyto(out, view)
    if k == "broadcast":
        view = np.broadcast_to(w["data"], w["shape"])
        return lambda: np.copyto(out, view)
    if k == "tile":
        dst, src = tile_views(w, out)
        return lambda: np.copyto(dst, src)
    if k == "depth_to_space":
        view = depth_to_space_view(w["data"], w["block"])
        return lambda: np.copyto(out.reshape(view.shape), view)
    if k == "space_to_depth":
        view = space_to_depth_view(w["data"], w["block"])
        return lambda: np.copyto(out.reshape(view.shape), view)
    if k == "pad":  # numpy.pad allocates its result: that is its cost
        return lambda: np.pad(w["data"], pad_width(w), mode=w["mode"])
    if k == "binary":
        fn = BINARY_NUMPY[w["op"]]
        return lambda: fn(w["data"], w["other"], out=out)
    if k == "unary":
        return lambda: numpy_unary(w["op"], w["data"], out=out)
    view = w["data"].transpose(w["perm"])
    return lambda: np.copyto(out, view)


def openvino_many(w, expected):
    """Concat and split: several inputs or outputs."""
    import openvino as ov
    from openvino import opset1 as ops1
    arrays = w["inputs"] if w["kind"] == "concat" else [w["data"]]
    params = [ops1.parameter(list(a.shape), ov.Type(a.dtype)) for a in arrays]
    if w["kind"] == "concat":
        outs = [ops1.concat(params, w["axis"])]
    else:
        node = ops1.variadic_split(params[0], ops1.constant(np.int64(w["axis"])),
                                   ops1.constant(np.array(w["lengths"], np.int64)))
        outs = list(node.outputs())
    model = ov.Model(outs, params, w.get("name", "op"))
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    for i, a in enumerate(arrays):
        request.set_input_tensor(i, ov.Tensor(a, shared_memory=True))

    def result():
        return np.concatenate([request.get_output_tensor(i).data.reshape(-1)
                               for i in range(len(outs))]).reshape(expected.shape)
    return request.infer, result


def openvino_reduction(w):
    """The reductions as OpenVINO opset ops: ReduceSum, CumSum, TopK (k 1, stable: the first
    index, as ONNX ArgMax; its index output), SoftMax, MVN * scale + bias (OpenVINO's ONNX
    LayerNormalization), BatchNormInference + Relu."""
    import openvino as ov
    from openvino import opset1 as ops1
    from openvino import opset3 as ops3
    from openvino import opset5 as ops5
    from openvino import opset6 as ops6
    from openvino import opset8 as ops8
    from openvino import opset11 as ops11
    data, k, axis = w["data"], w["kind"], w.get("axis")
    p = ops8.parameter(list(data.shape), ov.Type(data.dtype), name="data")
    if k == "maxpool":
        n, s, q = w["window"], w["stride"], w["pad"]
        node = ops8.max_pool(p, [s, s], [1, 1], [q, q], [q, q], [n, n]).output(0)
    elif k == "global_avgpool":  # OpenVINO's ONNX GlobalAveragePool: ReduceMean over H, W
        node = ops1.reduce_mean(p, ops8.constant(np.array([2, 3], np.int64)), keep_dims=True)
    elif k == "conv":  # Convolution / GroupConvolution / ConvolutionBackpropData + bias
        s, pd, g, f = [w["stride"]] * 2, [w["pad"]] * 2, w["groups"], w["filter"]
        if w["transposed"]:
            node = ops1.convolution_backprop_data(p, ops8.constant(f), s, pads_begin=pd, pads_end=pd,
                                                    dilations=[1, 1])
        elif g > 1:
            gf = f.reshape(g, f.shape[0] // g, f.shape[1], f.shape[2], f.shape[3])
            node = ops1.group_convolution(p, ops8.constant(gf), s, pd, pd, [1, 1])
        else:
            node = ops1.convolution(p, ops8.constant(f), s, pd, pd, [1, 1])
        node = ops1.add(node, ops8.constant(w["bias"].reshape(1, -1, 1, 1)))
    elif k == "sum":
        node = ops1.reduce_sum(p, ops8.constant(np.array([axis], np.int64)), keep_dims=True)
    elif k == "cumsum":
        node = ops3.cum_sum(p, ops8.constant(np.int64(axis)))
    elif k == "argmax":
        node = ops11.topk(p, ops8.constant(np.int64(1)), axis, "max", "value",
                          index_element_type="i64", stable=True).output(1)
    elif k == "softmax":
        node = ops8.softmax(p, axis)
    elif k == "resample":
        node = ops11.interpolate(p, ops8.constant(np.array([2.0, 2.0], np.float32)),
                                 "linear_onnx" if w["mode"] == "linear" else "nearest", "scales",
                                 coordinate_transformation_mode="half_pixel",
                                 nearest_mode="round_prefer_floor",
                                 axes=ops8.constant(np.array([2, 3], np.int64)))
    elif k == "layernorm":
        node = ops6.mvn(p, ops8.constant(np.array([-1], np.int64)), True, w["epsilon"],
                        "inside_sqrt")
        node = ops1.add(ops1.multiply(node, ops8.constant(w["scale"])), ops8.constant(w["bias"]))
    else:
        node = ops1.relu(ops5.batch_norm_inference(
            p, ops8.constant(w["scale"]), ops8.constant(w["bias"]), ops8.constant(w["mean"]),
            ops8.constant(w["var"]), w["epsilon"]))
    model = ov.Model([node], [p], w.get("name", "op"))
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.set_input_tensor(ov.Tensor(data, shared_memory=True))
    return request.infer, lambda: request.get_output_tensor().data


def openvino_runner(w, expected):
    import openvino as ov
    from openvino import opset1 as ops1
    from openvino import opset3 as ops3
    from openvino import opset8 as ops8
    if w["kind"] in ("concat", "split"):
        return openvino_many(w, expected)
    if w["kind"] in TOLERANCE:
        return openvino_reduction(w)
    data = w["data"]
    p = ops8.parameter(list(data.shape), ov.Type(data.dtype), name="data")
    k = w["kind"]
    if k == "gather":
        node = ops8.gather(p, ops8.constant(w["indices"]), ops8.constant(np.int64(w["axis"])),
                           w["batch_dims"])
    elif k == "slice":
        n = len(w["begin"])
        node = ops1.strided_slice(p, ops8.constant(np.array(w["begin"], np.int64)),
                                  ops8.constant(np.array(w["end"], np.int64)),
                                  ops8.constant(np.array(w["step"], np.int64)),
                                  begin_mask=[0] * n, end_mask=[0] * n)
        if w["step"][1] == -1:  # [:, ::-1, ...]: end before element 0 needs the end mask
            node = ops1.strided_slice(p, ops8.constant(np.array(w["begin"], np.int64)),
                                      ops8.constant(np.array(w["end"], np.int64)),
                                      ops8.constant(np.array(w["step"], np.int64)),
                                      begin_mask=[0] * n, end_mask=[0, 1, 0, 0])
    elif k == "broadcast":
        node = ops3.broadcast(p, ops8.constant(np.array(w["shape"], np.int64)), "numpy")
    elif k == "tile":
        node = ops1.tile(p, ops8.constant(np.array(w["reps"], np.int64)))
    elif k == "depth_to_space":
        node = ops1.depth_to_space(p, "blocks_first", w["block"])
    elif k == "space_to_depth":
        node = ops1.space_to_depth(p, "blocks_first", w["block"])
    elif k == "pad":
        pads = ops8.constant(np.array(w["pads"], np.int64))
        node = ops1.pad(p, pads, pads, w["mode"])
    elif k == "unary":
        if w["op"] == "CastF16":
            node = ops1.convert(p, "f16")
        elif w["op"] == "ClipI8":
            node = ops1.clamp(p, -50.0, 50.0)
        else:
            node = ops8.gelu(p, "erf") if w["op"] == "Gelu" else ops1.sigmoid(p)
    elif k == "binary":
        q = ops8.parameter(list(w["other"].shape), ov.Type(w["other"].dtype), name="other")
        node = (ops1.multiply if w["op"] == "Mul" else ops1.add)(p, q)
        if w["op"] == "AddRelu":
            node = ops1.relu(node)
        model = ov.Model([node], [p, q], w["op"])
        compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        request = compiled.create_infer_request()
        request.set_input_tensor(0, ov.Tensor(data, shared_memory=True))
        request.set_input_tensor(1, ov.Tensor(w["other"], shared_memory=True))
        return request.infer, lambda: request.get_output_tensor().data
    else:
        node = ops1.transpose(p, ops8.constant(np.array(w["perm"], np.int64)))
    model = ov.Model([node], [p], w.get("name", "op"))
    core = ov.Core()
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    request.set_input_tensor(ov.Tensor(data, shared_memory=True))
    return request.infer, lambda: request.get_output_tensor().data


def onnxruntime_many(w, expected):
    """Concat and split: several inputs or outputs."""
    import onnxruntime as ort
    from onnx import helper, numpy_helper
    arrays = w["inputs"] if w["kind"] == "concat" else [w["data"]]
    elem = helper.np_dtype_to_tensor_dtype(arrays[0].dtype)
    names = [f"x{i}" for i in range(len(arrays))]
    inits = []
    if w["kind"] == "concat":
        outs = ["out"]
        node = helper.make_node("Concat", names, outs, axis=w["axis"])
    else:
        outs = [f"out{i}" for i in range(len(w["lengths"]))]
        inits.append(numpy_helper.from_array(np.array(w["lengths"], np.int64), "split"))
        node = helper.make_node("Split", names + ["split"], outs, axis=w["axis"])
    graph = helper.make_graph([node], "op",
                              [helper.make_tensor_value_info(n, elem, list(a.shape))
                               for n, a in zip(names, arrays)],
                              [helper.make_tensor_value_info(o, elem, None) for o in outs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds, result = dict(zip(names, arrays)), {}

    def run():
        result["out"] = session.run(None, feeds)
    return run, lambda: np.concatenate([o.reshape(-1) for o in result["out"]]).reshape(
        expected.shape)


def onnxruntime_reduction(w):
    """The reductions as one ONNX node (BatchNormalization then Relu for bn_relu); parameters as
    initializers."""
    import onnxruntime as ort
    from onnx import helper, numpy_helper
    data, k, axis = w["data"], w["kind"], w.get("axis")
    elem = helper.np_dtype_to_tensor_dtype(data.dtype)
    inits, opset = [], 13
    if k == "maxpool":
        n, s, q = w["window"], w["stride"], w["pad"]
        nodes = [helper.make_node("MaxPool", ["data"], ["out"], kernel_shape=[n, n],
                                  strides=[s, s], pads=[q] * 4)]
    elif k == "global_avgpool":
        nodes = [helper.make_node("GlobalAveragePool", ["data"], ["out"])]
    elif k == "conv":
        inits += [numpy_helper.from_array(w["filter"], "filter"),
                  numpy_helper.from_array(w["bias"], "bias")]
        nodes = [helper.make_node("ConvTranspose" if w["transposed"] else "Conv",
                                  ["data", "filter", "bias"], ["out"], strides=[w["stride"]] * 2,
                                  pads=[w["pad"]] * 4, group=w["groups"])]
    elif k == "sum":
        inits.append(numpy_helper.from_array(np.array([axis], np.int64), "axes"))
        nodes = [helper.make_node("ReduceSum", ["data", "axes"], ["out"], keepdims=1)]
    elif k == "cumsum":
        inits.append(numpy_helper.from_array(np.array(axis, np.int64), "axis"))
        nodes = [helper.make_node("CumSum", ["data", "axis"], ["out"])]
    elif k == "argmax":
        nodes = [helper.make_node("ArgMax", ["data"], ["out"], axis=axis, keepdims=1)]
    elif k == "softmax":
        nodes = [helper.make_node("Softmax", ["data"], ["out"], axis=axis)]
    elif k == "resample":
        inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "scales"))
        nodes = [helper.make_node("Resize", ["data", "", "scales"], ["out"], mode=w["mode"])]
        opset = 19
    elif k == "layernorm":
        inits += [numpy_helper.from_array(w[v], v) for v in ("scale", "bias")]
        nodes = [helper.make_node("LayerNormalization", ["data", "scale", "bias"], ["out"],
                                  axis=-1, epsilon=w["epsilon"])]
        opset = 17
    else:
        inits += [numpy_helper.from_array(w[v], v) for v in ("scale", "bias", "mean", "var")]
        nodes = [helper.make_node("BatchNormalization", ["data", "scale", "bias", "mean", "var"],
                                  ["bn"], epsilon=w["epsilon"]),
                 helper.make_node("Relu", ["bn"], ["out"])]
        opset = 15
    out_elem = helper.np_dtype_to_tensor_dtype(np.dtype(np.int64)) if k == "argmax" else elem
    graph = helper.make_graph(nodes, w.get("name", "op"),
                              [helper.make_tensor_value_info("data", elem, list(data.shape))],
                              [helper.make_tensor_value_info("out", out_elem, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 8
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    result = {}

    def run():
        result["out"] = session.run(None, {"data": data})[0]
    return run, lambda: result["out"]


def onnxruntime_runner(w, expected):
    import onnxruntime as ort
    from onnx import helper, numpy_helper
    if w["kind"] in ("concat", "split"):
        return onnxruntime_many(w, expected)
    if w["kind"] in TOLERANCE:
        return onnxruntime_reduction(w)
    data = w["data"]
    elem = helper.np_dtype_to_tensor_dtype(data.dtype)
    inits, k = [], w["kind"]
    if k == "gather" and not w["batch_dims"]:
        inits.append(numpy_helper.from_array(w["indices"], "indices"))
        node = helper.make_node("Gather", ["data", "indices"], ["out"], axis=w["axis"])
    elif k == "gather":
        inits.append(numpy_helper.from_array(w["indices"][..., None], "indices"))
        node = helper.make_node("GatherND", ["data", "indices"], ["out"], batch_dims=1)
    elif k == "slice":
        ends = list(w["end"])
        if w["step"][1] == -1:
            ends[1] = -(2 ** 63)
        for name, v in (("starts", w["begin"]), ("ends", ends), ("steps", w["step"])):
            inits.append(numpy_helper.from_array(np.array(v, np.int64), name))
        inits.append(numpy_helper.from_array(np.arange(4, dtype=np.int64), "axes"))
        node = helper.make_node("Slice", ["data", "starts", "ends", "axes", "steps"], ["out"])
    elif k == "broadcast":
        inits.append(numpy_helper.from_array(np.array(w["shape"], np.int64), "shape"))
        node = helper.make_node("Expand", ["data", "shape"], ["out"])
    elif k == "tile":
        inits.append(numpy_helper.from_array(np.array(w["reps"], np.int64), "repeats"))
        node = helper.make_node("Tile", ["data", "repeats"], ["out"])
    elif k == "depth_to_space":
        node = helper.make_node("DepthToSpace", ["data"], ["out"], blocksize=w["block"],
                                mode="DCR")
    elif k == "space_to_depth":
        node = helper.make_node("SpaceToDepth", ["data"], ["out"], blocksize=w["block"])
    elif k == "pad":
        inits.append(numpy_helper.from_array(np.array(w["pads"] * 2, np.int64), "pads"))
        node = helper.make_node("Pad", ["data", "pads"], ["out"], mode=w["mode"])
    elif k == "unary" and w["op"] == "CastF16":
        node = helper.make_node("Cast", ["data"], ["out"], to=helper.np_dtype_to_tensor_dtype(
            np.dtype(np.float16)))
    elif k == "unary" and w["op"] == "ClipI8":
        inits = [numpy_helper.from_array(np.array(v, np.int8), n)
                 for n, v in (("lo", -50), ("hi", 50))]
        node = helper.make_node("Clip", ["data", "lo", "hi"], ["out"])
    elif k == "unary":
        node = helper.make_node(w["op"], ["data"], ["out"])
    elif k == "binary":
        nodes = [helper.make_node(w["op"], ["data", "other"], ["out"])]
        if w["op"] == "AddRelu":
            nodes = [helper.make_node("Add", ["data", "other"], ["sum"]),
                     helper.make_node("Relu", ["sum"], ["out"])]
        graph = helper.make_graph(
            nodes, "op",
            [helper.make_tensor_value_info("data", elem, list(data.shape)),
             helper.make_tensor_value_info("other", elem, list(w["other"].shape))],
            [helper.make_tensor_value_info("out", elem, None)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        feeds, result = {"data": data, "other": w["other"]}, {}

        def run_binary():
            result["out"] = session.run(None, feeds)[0]
        return run_binary, lambda: result["out"]
    else:
        node = helper.make_node("Transpose", ["data"], ["out"], perm=w["perm"])
    out_elem = helper.np_dtype_to_tensor_dtype(expected.dtype)
    graph = helper.make_graph([node], "op",
                              [helper.make_tensor_value_info("data", elem, list(data.shape))],
                              [helper.make_tensor_value_info("out", out_elem, None)], inits)
    opset = 20 if k == "unary" and w["op"] == "Gelu" else 13
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 9 if opset == 20 else 8
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    result = {}

    def run():
        result["out"] = session.run(None, {"data": data})[0]
    return run, lambda: result["out"]


def within(got, reference, tolerance):
    """A reduction's output against its float64 reference: same shape and type, then equal (the
    tolerance None) or np.allclose's tolerance."""
    got = np.asarray(got)
    if got.shape != reference.shape or got.dtype.kind != reference.dtype.kind:
        return False
    if tolerance is None:
        return np.array_equal(got, reference)
    return np.allclose(got, reference, **tolerance)


def last_level_cache_bytes():
    """The largest CPU cache of cpu0 (sysfs), or 32 MiB."""
    best = 0
    for index in glob.glob("/sys/devices/system/cpu/cpu0/cache/index*/size"):
        try:
            text = open(index).read().strip()
            best = max(best, int(text[:-1]) * {"K": 1 << 10, "M": 1 << 20}[text[-1]])
        except (OSError, ValueError, KeyError):
            pass
    return best or 32 << 20


_FLUSH = None


def flush_caches():
    """Reads a buffer twice the last-level cache: each timed run starts cold, as
    dmlcl-bench's contenders do (bench/limit.h limit_flush)."""
    global _FLUSH
    if _FLUSH is None:
        _FLUSH = np.ones(2 * last_level_cache_bytes() // 8, dtype=np.int64)
    return int(_FLUSH.sum())


def timed(fn, reps, seconds):
    fn()
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < reps or (time.perf_counter() - start < seconds and len(times) < 400):
        flush_caches()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def chains():
    """bench/chains.c's chains: name -> (input array, numpy function, onnx builder, ov builder)."""
    from onnx import helper, numpy_helper
    c = {}
    n, ch, h, w, r = 16, 32, 64, 64, 48
    x = RNG.standard_normal((n, ch, h, w)).astype(np.float32)
    idx = (np.arange(r, dtype=np.int64) * 29) % r

    def layout_np(a):
        return np.ascontiguousarray(a.transpose(0, 2, 3, 1)[:, 8:8 + r][:, idx])

    def layout_onnx():
        inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in
                 (("starts", [8]), ("ends", [8 + r]), ("axes", [1]), ("idx", idx))]
        nodes = [helper.make_node("Transpose", ["data"], ["t"], perm=[0, 2, 3, 1]),
                 helper.make_node("Slice", ["t", "starts", "ends", "axes"], ["s"]),
                 helper.make_node("Gather", ["s", "idx"], ["out"], axis=1)]
        return nodes, inits

    def layout_ov(p, ops):
        t = ops.transpose(p, ops.constant(np.array([0, 2, 3, 1], np.int64)))
        s = ops.slice(t, ops.constant(np.array([8], np.int64)),
                      ops.constant(np.array([8 + r], np.int64)),
                      ops.constant(np.array([1], np.int64)), ops.constant(np.array([1], np.int64)))
        return ops.gather(s, ops.constant(idx), ops.constant(np.int64(1)))
    c["layout-slice-gather"] = (x, layout_np, layout_onnx, layout_ov)

    n, ch, h, w = 8, 64, 64, 64
    v = RNG.standard_normal((1, ch, 1, 1)).astype(np.float32)

    def bcast_np(a):
        return np.ascontiguousarray(np.broadcast_to(a, (n, ch, h, w))[..., ::-1])

    def bcast_onnx():
        inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in
                 (("shape", [n, ch, h, w]), ("starts", [-1]), ("ends", [-(2 ** 63)]),
                  ("axes", [3]), ("steps", [-1]))]
        nodes = [helper.make_node("Expand", ["data", "shape"], ["b"]),
                 helper.make_node("Slice", ["b", "starts", "ends", "axes", "steps"], ["out"])]
        return nodes, inits

    def bcast_ov(p, ops):
        b = ops.broadcast(p, ops.constant(np.array([n, ch, h, w], np.int64)))
        return ops.slice(b, ops.constant(np.array([-1], np.int64)),
                         ops.constant(np.array([-(2 ** 63)], np.int64)),
                         ops.constant(np.array([-1], np.int64)), ops.constant(np.array([3], np.int64)))
    c["broadcast-reverse"] = (v, bcast_np, bcast_onnx, bcast_ov)
    return c


def run_chains(args):
    import onnxruntime as ort
    import openvino as ov
    from onnx import helper
    from openvino import opset8 as ops
    print("system,workload,bytes,seconds,min_seconds")
    only = set(filter(None, args.only.split(",")))
    for name, (data, np_fn, onnx_fn, ov_fn) in chains().items():
        if args.filter not in name or (only and name not in only):
            continue
        expected = np_fn(data)
        out = np.empty_like(expected)
        nodes, inits = onnx_fn()
        elem = helper.np_dtype_to_tensor_dtype(data.dtype)
        graph = helper.make_graph(nodes, name,
                                  [helper.make_tensor_value_info("data", elem, list(data.shape))],
                                  [helper.make_tensor_value_info("out", elem, None)], inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        model.ir_version = 8
        session = ort.InferenceSession(model.SerializeToString(),
                                       providers=["CPUExecutionProvider"])
        p = ops.parameter(list(data.shape), ov.Type(data.dtype), name="data")
        compiled = ov.Core().compile_model(ov.Model([ov_fn(p, ops)], [p], name), "CPU",
                                           {"INFERENCE_PRECISION_HINT": "f32"})
        request = compiled.create_infer_request()
        request.set_input_tensor(ov.Tensor(data, shared_memory=True))
        result = {}
        runners = {
            "numpy": (lambda: np.copyto(out, np_fn(data)), lambda: out),
            "onnxruntime": (lambda: result.__setitem__("o", session.run(None, {"data": data})[0]),
                            lambda: result["o"]),
            "openvino": (request.infer, lambda: request.get_output_tensor().data),
        }
        for system in args.systems.split(","):
            fn, got = runners[system]
            median, best = timed(fn, args.reps, args.seconds)
            if not np.array_equal(got().view(np.uint8), expected.view(np.uint8)):
                print(f"peers.py: {system} {name}: output differs from numpy", file=sys.stderr)
                sys.exit(1)
            print(f"{system},{name},{expected.nbytes},{median:.9f},{best:.9f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--chains", action="store_true")
    ap.add_argument("--filter", default="", help="only the workloads (chains) named with this")
    ap.add_argument("--only", default="", help="only these workloads (chains): names, comma separated")
    ap.add_argument("--systems", default="numpy,openvino,onnxruntime")
    args = ap.parse_args()
    if args.chains:
        run_chains(args)
        return
    print("system,workload,bytes,seconds,min_seconds")
    only = set(filter(None, args.only.split(",")))
    for name, w in workloads().items():
        if args.filter not in name or (only and name not in only):
            continue
        w["name"] = name
        reference = reference64(w) if w["kind"] in TOLERANCE else None
        expected = numpy_reference(w) if reference is None else reference.astype(
            np.int64 if w["kind"] == "argmax" else w["data"].dtype)
        for system in args.systems.split(","):
            if system == "numpy" and w.get("op") == "Gelu":
                continue  # numpy has no erf: a user would reach for scipy, not numpy
            if system == "numpy" and w.get("mode") == "linear":
                continue  # numpy has no resampling: a user would reach for a framework
            if system == "numpy" and w["kind"] == "conv":
                continue  # numpy has no convolution: ONNX Runtime and OpenVINO are the peers
            if system == "numpy":
                fn = numpy_runner(w, expected)
                # The reductions' numpy runners return their output: checked as the others'.
                result = fn if reference is not None else None
            else:
                fn, result = (openvino_runner if system == "openvino" else onnxruntime_runner)(
                    w, expected)
            seconds, best = timed(fn, args.reps, args.seconds)
            got = result() if result else None
            # Activations are transcendental: within 1e-5 relative or 2e-6 absolute (ONNX Runtime
            # approximates its logistic to about 1e-6 absolute; dmlcl's own
            # tolerance is precision.md's, checked by dmlcl-bench); the rest byte for byte.
            same = (lambda g: np.allclose(g, expected, rtol=1e-5, atol=2e-6)) \
                if w["kind"] == "unary" else \
                (lambda g: np.array_equal(g.view(np.uint8), expected.view(np.uint8)))
            if reference is not None:
                same = (lambda g: within(g, reference, TOLERANCE[w["kind"]]))
            if got is not None and not same(got):
                print(f"peers.py: {system} {name}: output differs from numpy", file=sys.stderr)
                sys.exit(1)
            print(f"{system},{name},{expected.nbytes},{seconds:.9f},{best:.9f}", flush=True)


if __name__ == "__main__":
    main()
