#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random broadcast cases with expectations from the upstream implementations.

OpenVINO Broadcast-1 and Broadcast-3 (numpy, explicit, bidirectional): the
verdict (accepted, or rejected by shape inference) comes from building the
opset1/opset3 node with the case's shapes and constant target_shape and
axes_mapping; the values come from a one-op model compiled on OpenVINO's CPU
plugin, run in a child process (some empty shapes crash it). The data moves
through the plugin as bytes (an extra trailing dimension of the element
width), so NaN payloads, -0.0 and 64-bit values cannot be altered by the
plugin's precision conversions. Every accepted case is also computed with
numpy (np.broadcast_to; explicit mode as a reshape onto the mapped axes, then
np.broadcast_to; bidirectional on np.broadcast_shapes) and the two are
compared. Where they disagree the case follows numpy and the text, and the
disagreement is counted by kind. Shapes the CPU plugin cannot run (a 0 in a
shape, a 0-D output) use numpy alone.

ONNX Expand-13: numpy's bidirectional broadcast (np.broadcast_shapes and
np.broadcast_to), which is what the ONNX reference evaluator does.

Broken cases (incompatible dims, short targets, bad axes_mapping) expect
{"error": "invalid_argument"} when both OpenVINO (or, for Expand, numpy)
and the rules reject them.

Writes dmlcl-case/1 files into --out and prints a summary.
"""
import argparse
import os
import random
import sys

import numpy as np

from common import NUMPY_TYPES, CpuPlugin, clear_out, tensor, write

SHAPE_TYPES = ["INT64", "INT32", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16"]


def random_data(rng, t, shape):
    """Pairwise-distinct values (as far as the type allows), -0.0 and infinities in floats."""
    n = int(np.prod(shape)) if shape else 1
    if t == "BOOLEAN":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    dt = np.dtype(NUMPY_TYPES[t])
    if dt.kind == "f":
        v = np.array([(i - n // 2) * 0.25 + rng.choice([0, 0.125]) for i in range(n)], dtype=np.float64)
        rng.shuffle(v)
        a = v.astype(dt)
        for i in range(n):
            r = rng.random()
            if r < 0.03:
                a[i] = -0.0
            elif r < 0.05:
                a[i] = np.inf if rng.random() < 0.5 else -np.inf
        return a.reshape(shape)
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    base = rng.randint(lo, hi)
    step = rng.choice([1, 7, 257, 65537, 2**31 + 1]) if dt.itemsize == 8 else rng.choice([1, 3, 101])
    vals = [lo + (base - lo + i * step) % (hi - lo + 1) for i in range(n)]
    return np.array(vals, dtype=object).astype(dt).reshape(shape)


def to_bytes(a):
    """An array as uint8 with one more dimension of the element width."""
    a = np.asarray(a)
    w = a.dtype.itemsize
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(a.shape + (w,))


# ---- the references ------------------------------------------------------------------------------

def numpy_broadcast(kind, mode, data, target, axes):
    """The output, or None when the rules reject the case."""
    if any(t < 0 for t in target):
        return None
    try:
        if kind == "onnx.Expand-13" or mode == "bidirectional":
            return np.broadcast_to(data, np.broadcast_shapes(data.shape, tuple(target)))
        if mode == "numpy":
            if len(target) < data.ndim:
                return None
            return np.broadcast_to(data, tuple(target))
        # explicit
        if axes is None:
            return None
        if data.ndim == 0 and len(axes) == 1:
            if not 0 <= axes[0] < len(target) or target[axes[0]] != 1:
                return None
        elif len(axes) != data.ndim:
            return None
        if any(not 0 <= a < len(target) for a in axes) or any(
                axes[i] >= axes[i + 1] for i in range(len(axes) - 1)):
            return None
        shape = [1] * len(target)
        for k, a in enumerate(axes):
            d = data.shape[k] if data.ndim else 1
            if d != 1 and d != target[a]:
                return None
            shape[a] = d
        return np.broadcast_to(data.reshape(shape), tuple(target))
    except ValueError:
        return None


def ov_node(version, mode, shape, ov_type, target, ttype, axes, atype):
    import openvino as ov
    import openvino.opset1 as o1
    import openvino.opset3 as o3
    p = o1.parameter(list(shape), ov_type)
    t = ov.op.Constant(np.asarray(target, dtype=NUMPY_TYPES[ttype]).reshape(-1))
    args = [p, t]
    if axes is not None:
        args.append(ov.op.Constant(np.asarray(axes, dtype=NUMPY_TYPES[atype]).reshape(-1)))
    if version == 1:
        return p, o1.broadcast(*args, mode=mode.upper())
    return p, o3.broadcast(*args, broadcast_spec=mode.upper())


def ov_verdict(version, mode, data, target, ttype, axes, atype):
    """(accepted, output shape or message) from OpenVINO's shape inference."""
    import openvino as ov
    try:
        _, node = ov_node(version, mode, data.shape, ov.Type.f32, target, ttype, axes, atype)
        return True, tuple(int(d) for d in node.get_output_shape(0))
    except Exception as e:  # noqa: BLE001 - OpenVINO raises several types
        return False, str(e).split("\n")[0][:120]


def ov_values(version, mode, data, target, ttype, axes, atype):
    """The output bytes from the CPU plugin (data moved as uint8)."""
    import openvino as ov
    b = to_bytes(data)
    w = b.shape[-1]
    axes2 = None if axes is None else list(axes) + [len(target)]
    if axes is not None and data.ndim == 0:
        axes2 = [len(target)]  # a 0-D data's bytes: one axis, the width
    p, node = ov_node(version, mode, b.shape, ov.Type.u8, list(target) + [w], ttype, axes2, atype)
    model = ov.Model([node], [p])
    compiled = ov.Core().compile_model(model, "CPU")
    return np.array(compiled([b])[0])


def worker(conn):
    while True:
        args = conn.recv()
        if args is None:
            return
        try:
            conn.send(("ok", ov_values(*args)))
        except Exception as e:  # noqa: BLE001
            conn.send(("error", str(e).split("\n")[0][:120]))


# ---- random cases ------------------------------------------------------------------------------

def random_shapes(rng, kind, mode):
    """data shape, target values, axes (or None)."""
    out_rank = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6])
    zero = rng.random() < 0.04
    out = [rng.choice([1, 2, 3, 4, 5, 6, 7]) for _ in range(out_rank)]
    while int(np.prod(out)) > 4000:
        out[out.index(max(out))] //= 2
    if zero and out_rank:
        out[rng.randrange(out_rank)] = 0
    data_rank = rng.randint(0, out_rank)
    axes = None
    if mode == "explicit":
        axes = sorted(rng.sample(range(out_rank), data_rank))
        data = [1 if rng.random() < 0.35 else out[a] for a in axes]
        if data_rank == 0 and out_rank and rng.random() < 0.4:
            axes = [rng.choice([i for i in range(out_rank)] if rng.random() < 0.3 else
                               [i for i in range(out_rank) if out[i] == 1] or [0])]
    else:
        data = [1 if rng.random() < 0.35 else out[out_rank - data_rank + k] for k in range(data_rank)]
    target = list(out)
    if kind == "onnx.Expand-13" or mode == "bidirectional":
        if rng.random() < 0.3:  # the data may be the larger one
            extra = [rng.choice([1, 2, 3]) for _ in range(rng.randint(1, 2))]
            data = extra + data
        for i in range(len(target)):
            if rng.random() < 0.3:
                target[i] = 1
        if rng.random() < 0.3 and target:
            del target[:rng.randint(1, len(target))]
    return data, target, axes


def break_case(rng, data, target, axes, mode):
    """One rule broken (often), else unchanged."""
    r = rng.random()
    if r < 0.06 and data:
        data[rng.randrange(len(data))] += rng.randint(1, 3)
    elif r < 0.09 and mode == "numpy" and len(target) > 0 and data:
        del target[0]
    elif r < 0.12 and axes is not None and len(axes) > 1:
        axes[0], axes[1] = axes[1], axes[0]
    elif r < 0.14 and axes is not None and axes:
        axes[-1] += rng.randint(1, 2)
    elif r < 0.16 and axes is not None:
        axes.append(rng.randint(0, 6))
    return data, target, axes


def openvino_case(rng, k, stats, cpu):
    version = rng.choice([1, 3])
    mode = rng.choice(["numpy", "explicit"] + (["bidirectional"] * 2 if version == 3 else []))
    t = rng.choice(list(NUMPY_TYPES))
    ttype = rng.choice(SHAPE_TYPES[:2] if rng.random() < 0.7 else SHAPE_TYPES)
    atype = rng.choice(["INT64", "INT32"])
    kind = "openvino.Broadcast-%d" % version
    dshape, target, axes = random_shapes(rng, kind, mode)
    dshape, target, axes = break_case(rng, dshape, target, axes, mode)
    if any(v > np.iinfo(NUMPY_TYPES[ttype]).max for v in target) or (
            axes and any(a > np.iinfo(NUMPY_TYPES[atype]).max for a in axes)):
        ttype, atype = "INT64", "INT64"
    data = random_data(rng, t, dshape)
    want = numpy_broadcast(kind, mode, data, target, axes)
    accepted, ov_shape = ov_verdict(version, mode, data, target, ttype, axes, atype)
    name = "diff.broadcast.%05d" % k
    inputs = {"data": tensor(t, data), "target_shape": tensor(ttype, target, [len(target)])}
    if axes is not None:
        inputs["axes_mapping"] = tensor(atype, axes, [len(axes)])
    c = {"name": name, "source": "diff:gen_broadcast.py", "op": kind, "attrs": {"mode": mode},
         "inputs": inputs}
    if want is None:
        if accepted:
            stats["openvino accepts, the rules reject (case expects the error)"] += 1
        else:
            stats["rejected by both"] += 1
        c["expected"] = {"error": "invalid_argument"}
        return c
    if not accepted:
        stats["openvino rejects, numpy accepts (case follows numpy): " + ov_shape[:60]] += 1
    elif tuple(ov_shape) != want.shape:
        stats["output shape differs from numpy's (case follows numpy)"] += 1
        stats.example("shape", "%s %s with %s: openvino %s, numpy %s" % (
            kind, mode, target, tuple(ov_shape), want.shape))
    if want.size == 0 or want.ndim == 0 or data.size == 0:
        stats["numpy only (the CPU plugin does not run this shape)"] += 1
    elif accepted and tuple(ov_shape) == want.shape:
        # The CPU plugin cannot read 8-bit shape constants (constant.hpp: buffer over-read);
        # shape inference above saw the case's own types.
        run_t = "INT64" if ttype in ("INT8", "UINT8") else ttype
        status, got = cpu.run(version, mode, data, target, run_t, axes, atype)
        if status != "ok":
            stats["CPU plugin %s: %s" % (status, got[:70])] += 1
        elif got.shape == to_bytes(want).shape and np.array_equal(got, to_bytes(want)):
            stats["openvino CPU == numpy"] += 1
        else:
            stats["openvino CPU != numpy (case follows numpy)"] += 1
    c["expected"] = {"outputs": {"output": tensor(t, want)}}
    return c


def onnx_case(rng, k, stats):
    t = rng.choice(list(NUMPY_TYPES))
    dshape, target, _ = random_shapes(rng, "onnx.Expand-13", "bidirectional")
    dshape, target, _ = break_case(rng, dshape, target, None, "bidirectional")
    if rng.random() < 0.03 and target:
        target[rng.randrange(len(target))] = -rng.randint(1, 3)
    data = random_data(rng, t, dshape)
    want = numpy_broadcast("onnx.Expand-13", "bidirectional", data, target, None)
    c = {"name": "diff.expand.%05d" % k, "source": "diff:gen_broadcast.py", "op": "onnx.Expand-13",
         "inputs": {"input": tensor(t, data), "shape": tensor("INT64", target, [len(target)])}}
    if want is None:
        stats["expand: rejected by numpy"] += 1
        c["expected"] = {"error": "invalid_argument"}
    else:
        stats["expand: numpy"] += 1
        c["expected"] = {"outputs": {"output": tensor(t, want)}}
    return c


class Count(dict):
    """Counters by message, and the first example of each topic."""

    def __init__(self):
        super().__init__()
        self.examples = {}

    def __missing__(self, key):
        return 0

    def example(self, topic, text):
        self.examples.setdefault(topic, text)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=1200, help="cases in all (3/4 OpenVINO, 1/4 ONNX)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="build/diff/broadcast")
    args = p.parse_args()
    clear_out(args.out)
    rng = random.Random(args.seed)
    stats = Count()
    cpu = CpuPlugin(worker, ("crash", "the CPU plugin died"))
    cases = []
    try:
        for k in range(args.count):
            cases.append(openvino_case(rng, k, stats, cpu) if k % 4 else onnx_case(rng, k, stats))
            if len(cases) == 100:
                write(os.path.join(args.out, "cases-%05d.json" % (k // 100)), cases)
                cases = []
        if cases:
            write(os.path.join(args.out, "cases-%05d.json" % (args.count // 100)), cases)
    finally:
        cpu.close()
    print("gen_broadcast: %d cases (seed %d) in %s" % (args.count, args.seed, args.out))
    for key in sorted(stats):
        print("  %5d  %s" % (stats[key], key))
    for topic, text in sorted(stats.examples.items()):
        print("  first %s difference: %s" % (topic, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
