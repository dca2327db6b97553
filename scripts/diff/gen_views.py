#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random view cases (tile, transpose, reverse) with expectations from the upstream implementations.

OpenVINO Tile-1, Transpose-1, Reverse-1 (index and mask modes): the verdict
(accepted, or rejected by shape inference) comes from building the opset1
node with the case's shapes and constant list input; the values come from a
one-op model compiled on OpenVINO's CPU plugin, in a child process. The data
moves through the plugin as bytes (an extra trailing dimension of the
element width, which the list input leaves alone), so NaN payloads, -0.0 and
64-bit values cannot be altered by its precision conversions. Every accepted
case is also computed with numpy (np.tile, np.transpose, np.flip) and the two
are compared; where they disagree the case follows numpy and the text, and
the disagreement is counted. Shapes the plugin does not run (a 0 in a shape,
0-D data) use numpy alone.

ONNX Tile-13 and Transpose-13: the values of onnx.reference's evaluator on a
one-node model (its Tile is np.tile, which also takes repeats of another
length: the specification's rule, one repeat per dimension, decides those
cases, and they are counted).

Broken cases (negative repeats, orders that are not permutations, axes out
of range, lists of the wrong length, a mask of another type) expect
{"error": "invalid_argument"}.

Writes dmlcl-case/1 files into --out and prints a summary.
"""
import argparse
import os
import random
import sys

import numpy as np

from common import NUMPY_TYPES, CpuPlugin, clear_out, tensor, write

LIST_TYPES = ["INT64", "INT32", "INT8", "INT16", "UINT8", "UINT16", "UINT32", "UINT64"]


def random_data(rng, t, shape):
    """Pairwise-distinct values (as far as the type allows), NaN, -0.0 and infinities in floats."""
    n = int(np.prod(shape)) if shape else 1
    if t == "BOOLEAN":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    dt = np.dtype(NUMPY_TYPES[t])
    if dt.kind == "f":
        a = np.array([(i - n // 2) * 0.25 for i in range(n)], dtype=np.float64)
        rng.shuffle(a)
        a = a.astype(dt)
        for i in range(n):
            r = rng.random()
            if r < 0.03:
                a[i] = -0.0
            elif r < 0.05:
                a[i] = np.inf if rng.random() < 0.5 else -np.inf
            elif r < 0.06:
                a[i] = np.nan
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


def random_shape(rng, max_rank=6, limit=600):
    rank = rng.choice([0] + [1, 2, 2, 3, 3, 4, 4, 5] + list(range(1, max_rank + 1)))
    shape = [rng.choice([1, 2, 3, 4, 5]) for _ in range(rank)]
    while int(np.prod(shape)) > limit:
        shape[shape.index(max(shape))] //= 2
    if rank and rng.random() < 0.05:
        shape[rng.randrange(rank)] = 0
    return shape


def fits(t, values):
    info = np.iinfo(NUMPY_TYPES[t])
    return all(info.min <= v <= info.max for v in values)


# ---- numpy and the rules of the specifications ---------------------------------------------------

def numpy_tile(data, repeats, same_length):
    """The output, or None when the rules reject the case. OpenVINO (not same_length) reads a
    negative repeat as 0 copies (tile_shape_inference.hpp); ONNX's np.tile refuses one."""
    if same_length and (any(r < 0 for r in repeats) or len(repeats) != data.ndim):
        return None
    repeats = [max(r, 0) for r in repeats]
    if not repeats:
        return data.copy()
    return np.tile(data, repeats)


def numpy_transpose(data, order):
    if not order:
        return np.transpose(data)
    if sorted(order) != list(range(data.ndim)):
        return None
    return np.transpose(data, order)


def numpy_reverse(data, mode, axis):
    r = data.ndim
    if mode == "mask":
        if len(axis) != r:
            return None
        axes = tuple(k for k in range(r) if axis[k])
    else:
        if len(axis) > r or any(not -r <= a < r for a in axis):
            return None
        axes = tuple(sorted({a % r for a in axis}))
    return np.flip(data, axes) if axes else data.copy()


# ---- OpenVINO ------------------------------------------------------------------------------------

IR_TYPES = {"INT8": "i8", "INT16": "i16", "INT32": "i32", "INT64": "i64", "UINT8": "u8",
            "UINT16": "u16", "UINT32": "u32", "UINT64": "u64", "BOOLEAN": "boolean"}


def ir_dims(shape):
    return "".join("<dim>%d</dim>" % d for d in shape)


def reverse_model(shape, data_type, lst, ltype, mode):
    """Reverse-1 has no Python factory: a one-layer IR (data Parameter, axis Const) read by Core."""
    import openvino as ov
    blob = np.asarray(lst, dtype=NUMPY_TYPES[ltype]).reshape(-1).tobytes()
    xml = """<?xml version="1.0"?>
<net name="reverse" version="11"><layers>
<layer id="0" name="data" type="Parameter" version="opset1"><data shape="%(s)s" element_type="%(t)s"/>
<output><port id="0" precision="%(P)s">%(d)s</port></output></layer>
<layer id="1" name="axis" type="Const" version="opset1">
<data element_type="%(lt)s" shape="%(n)d" offset="0" size="%(size)d"/>
<output><port id="0" precision="%(LP)s"><dim>%(n)d</dim></port></output></layer>
<layer id="2" name="reverse" type="Reverse" version="opset1"><data mode="%(mode)s"/>
<input><port id="0">%(d)s</port><port id="1"><dim>%(n)d</dim></port></input>
<output><port id="2" precision="%(P)s">%(d)s</port></output></layer>
<layer id="3" name="out" type="Result" version="opset1"><input><port id="0">%(d)s</port></input></layer>
</layers><edges>
<edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
</edges></net>""" % {"s": ",".join(map(str, shape)), "t": data_type, "d": ir_dims(shape),
                     "lt": IR_TYPES[ltype], "P": {"f32": "FP32", "u8": "U8"}[data_type],
                     "LP": IR_TYPES[ltype].upper().replace("BOOLEAN", "BOOL"), "n": len(lst), "size": len(blob), "mode": mode}
    weights = ov.Tensor(np.frombuffer(blob or b"\0", dtype=np.uint8).copy())
    return ov.Core().read_model(model=xml, weights=weights)


def ov_node(kind, shape, ov_type, lst, ltype, mode):
    import openvino as ov
    import openvino.opset1 as o1
    if kind == "reverse":
        m = reverse_model(shape, "f32" if ov_type == ov.Type.f32 else "u8", lst, ltype, mode)
        return m.get_parameters()[0], m.get_results()[0].input_value(0).get_node()
    p = o1.parameter(list(shape), ov_type)
    c = ov.op.Constant(np.asarray(lst, dtype=NUMPY_TYPES[ltype]).reshape(-1))
    if kind == "tile":
        return p, o1.tile(p, c)
    return p, o1.transpose(p, c)


def ov_verdict(kind, shape, lst, ltype, mode):
    import openvino as ov
    try:
        _, node = ov_node(kind, shape, ov.Type.f32, lst, ltype, mode)
        return True, tuple(int(d) for d in node.get_output_shape(0))
    except Exception as e:  # noqa: BLE001 - OpenVINO raises several types
        return False, str(e).split("\n")[0][:120]


def ov_values(kind, data, lst, ltype, mode):
    """The output bytes from the CPU plugin: the list extended over the byte dimension."""
    import openvino as ov
    b = to_bytes(data)
    r = data.ndim
    if kind == "tile":
        lst = [1] * max(0, r - len(lst)) + list(lst) + [1]
    elif kind == "transpose":
        lst = (list(lst) if lst else list(range(r - 1, -1, -1))) + [r]
    elif mode == "mask":
        lst = list(lst) + [False]
    else:
        lst = [a % r for a in lst]
    if kind == "reverse":
        model = reverse_model(b.shape, "u8", lst, ltype, mode)
    else:
        p, node = ov_node(kind, b.shape, ov.Type.u8, lst, ltype, mode)
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


def ov_lists(rng, kind, rank):
    """A list input (mostly valid, a broken rule now and then), its type, the mode."""
    mode = None
    if kind == "tile":
        n = rng.choice([rank, rank, rank, max(0, rank - rng.randint(1, 2)), rank + rng.randint(1, 2)])
        big = 0
        lst = []
        for _ in range(n):
            v = rng.choice([1, 1, 2, 3, 2, 3, 1, 1, 2, 0] if big < 3 else [1])
            big += v != 1
            lst.append(v)
        if lst and rng.random() < 0.06:
            lst[rng.randrange(len(lst))] = -rng.randint(1, 3)
    elif kind == "transpose":
        lst = [] if rng.random() < 0.15 else rng.sample(range(rank), rank)
        r = rng.random()
        if lst and r < 0.05:
            lst[rng.randrange(rank)] = rng.choice([-1, rank, rank + 1])
        elif len(lst) > 1 and r < 0.1:
            lst[0] = lst[1]
        elif r < 0.13:
            lst = lst + [0] if rng.random() < 0.5 else lst[:-1]
    else:
        mode = rng.choice(["index", "mask"])
        if mode == "mask":
            n = rank if rng.random() > 0.06 else rank + rng.choice([-1, 1])
            lst = [rng.random() < 0.5 for _ in range(max(0, n))]
            return lst, "BOOLEAN", mode
        n = rng.randint(0, rank) if rng.random() > 0.06 else rank + 1
        lst = [rng.randint(-rank, rank - 1) if rank else 0 for _ in range(n)]
        if lst and rng.random() < 0.06:
            lst[rng.randrange(len(lst))] = rng.choice([rank, -rank - 1])
    types = [t for t in LIST_TYPES if fits(t, lst)]
    return lst, rng.choice(types if rng.random() < 0.5 else types[:2] or types), mode


def openvino_case(rng, k, stats, cpu):
    kind = rng.choice(["tile", "transpose", "reverse"])
    t = rng.choice(list(NUMPY_TYPES))
    shape = random_shape(rng)
    data = random_data(rng, t, shape)
    lst, ltype, mode = ov_lists(rng, kind, len(shape))
    if kind == "tile":
        want = numpy_tile(data, lst, False)
    elif kind == "transpose":
        want = numpy_transpose(data, lst)
    else:
        want = numpy_reverse(data, mode, lst)
    op = {"tile": "openvino.Tile-1", "transpose": "openvino.Transpose-1",
          "reverse": "openvino.Reverse-1"}[kind]
    name = {"tile": "repeats", "transpose": "input_order", "reverse": "axis"}[kind]
    c = {"name": "diff.views.ov.%05d" % k, "source": "diff:gen_views.py", "op": op,
         "inputs": {"data": tensor(t, data), name: tensor(ltype, lst, [len(lst)])}}
    if mode:
        c["attrs"] = {"mode": mode}
    accepted, ov_shape = ov_verdict(kind, shape, lst, ltype, mode)
    if want is None:
        stats["%s: rejected by %s" % (kind, "both" if not accepted else
                                     "the rules (openvino accepts; case expects the error)")] += 1
        if accepted:
            stats.example("%s accepted by openvino" % kind, "data %s, %s %s %s%s: output %s" % (
                shape, name, ltype, lst, " mode " + mode if mode else "", ov_shape))
        c["expected"] = {"error": "invalid_argument"}
        return c
    if not accepted:
        stats["%s: openvino rejects, numpy accepts (case follows numpy): %s" % (kind, ov_shape[:50])] += 1
    elif tuple(ov_shape) != want.shape:
        stats["%s: output shape differs from numpy's (case follows numpy)" % kind] += 1
    elif want.size == 0 or data.ndim == 0 or data.size == 0:
        stats["%s: numpy only (the CPU plugin does not run this shape)" % kind] += 1
    else:
        status, got = cpu.run(kind, data, lst, ltype, mode)
        if status != "ok":
            stats["%s: CPU plugin %s: %s" % (kind, status, got[:60])] += 1
        elif got.shape == to_bytes(want).shape and np.array_equal(got, to_bytes(want)):
            stats["%s: openvino CPU == numpy" % kind] += 1
        else:
            stats["%s: openvino CPU != numpy (case follows numpy)" % kind] += 1
    c["expected"] = {"outputs": {"output": tensor(t, want)}}
    return c


# ---- ONNX ----------------------------------------------------------------------------------------

def onnx_run(op, data, repeats, perm):
    """onnx.reference's output, or the exception's first line."""
    import onnx
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
    elem = helper.np_dtype_to_tensor_dtype(data.dtype)
    inputs = [helper.make_tensor_value_info("x", elem, list(data.shape))]
    names = ["x"]
    feeds = {"x": data}
    if op == "Tile":
        inputs.append(helper.make_tensor_value_info("r", TensorProto.INT64, [len(repeats)]))
        names.append("r")
        feeds["r"] = np.asarray(repeats, dtype=np.int64)
        node = helper.make_node("Tile", names, ["y"])
    else:
        node = helper.make_node("Transpose", names, ["y"])
        if perm is not None:  # an empty list too (make_node cannot type one)
            node.attribute.append(helper.make_attribute("perm", perm, attr_type=onnx.AttributeProto.INTS))
    graph = helper.make_graph([node], "g", inputs, [helper.make_tensor_value_info("y", elem, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    try:
        return np.asarray(ReferenceEvaluator(model).run(None, feeds)[0]), None
    except Exception as e:  # noqa: BLE001
        return None, str(e).split("\n")[0][:80]


def onnx_case(rng, k, stats):
    t = rng.choice(list(NUMPY_TYPES))
    shape = random_shape(rng)
    data = random_data(rng, t, shape)
    rank = len(shape)
    c = {"name": "diff.views.onnx.%05d" % k, "source": "diff:gen_views.py"}
    if rng.random() < 0.5:
        reps, _, _ = ov_lists(rng, "tile", rank)
        if rng.random() < 0.85:
            reps = (reps + [1] * rank)[:rank] if len(reps) != rank else reps
        want = numpy_tile(data, reps, True)
        got, err = onnx_run("Tile", data, reps, None)
        c.update({"op": "onnx.Tile-13", "inputs": {"input": tensor(t, data),
                                                     "repeats": tensor("INT64", reps, [len(reps)])}})
        what = "Tile"
    else:
        perm, _, _ = ov_lists(rng, "transpose", rank)
        absent = not perm and rng.random() < 0.5
        want = numpy_transpose(data, perm)
        got, err = onnx_run("Transpose", data, None, None if absent else perm)
        c.update({"op": "onnx.Transpose-13", "inputs": {"data": tensor(t, data)}})
        if not absent:
            c["attrs"] = {"perm": perm}
        what = "Transpose"
    if want is None:
        stats["onnx %s: rejected by %s" % (what, "both" if got is None else
                                          "the rules (onnx.reference accepts)")] += 1
        c["expected"] = {"error": "invalid_argument"}
        return c
    if got is None:
        stats["onnx %s: onnx.reference fails, numpy accepts (case follows numpy): %s" % (what, err)] += 1
    elif got.shape == want.shape and np.array_equal(to_bytes(got), to_bytes(want)):
        stats["onnx %s: onnx.reference == numpy" % what] += 1
    else:
        stats["onnx %s: onnx.reference != numpy (case follows numpy)" % what] += 1
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
    p.add_argument("--count", type=int, default=1200, help="OpenVINO cases")
    p.add_argument("--onnx-count", type=int, default=1200, help="ONNX cases")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="build/diff/views")
    args = p.parse_args()
    clear_out(args.out)
    rng = random.Random(args.seed)
    stats = Count()
    cpu = CpuPlugin(worker, ("crash", "the CPU plugin died"))
    cases, n = [], 0
    try:
        for k in range(args.count + args.onnx_count):
            cases.append(openvino_case(rng, k, stats, cpu) if k < args.count
                         else onnx_case(rng, k, stats))
            if len(cases) == 100:
                write(os.path.join(args.out, "cases-%05d.json" % n), cases)
                cases, n = [], n + 1
        if cases:
            write(os.path.join(args.out, "cases-%05d.json" % n), cases)
    finally:
        cpu.close()
    print("gen_views: %d OpenVINO + %d ONNX cases (seed %d) in %s" % (
        args.count, args.onnx_count, args.seed, args.out))
    for key in sorted(stats):
        print("  %5d  %s" % (stats[key], key))
    for topic, text in sorted(stats.examples.items()):
        print("  first case %s: %s" % (topic, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
