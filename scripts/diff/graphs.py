# SPDX-License-Identifier: MIT
"""Random ONNX graphs through dmlcl.onnx and dmlcl-dispatch against ONNX Runtime (CPU).

Each case is a seeded random graph of 3 to 12 nodes over small float32 tensors: element-wise
arithmetic and activations (with broadcast operands, constant or not), GELU as exporters write
it (five nodes, which dmlcl.onnx makes one ACTIVATION_GELU), comparisons feeding Where, Pow by a
constant, Transpose, Concat, Gather with constant indices, Expand, Reshape, Softmax,
LayerNormalization, ReduceSum/Mean/Max/Min, MatMul and Gemm with constant weights, and on 4-D
tensors Conv (grouped, padded, strided, with or without a bias), the poolings and
BatchNormalization; tensors read by several nodes, and graph outputs taken from the middle of
the graph as well as its end. dmlcl.onnx lowers it to one
DirectML graph (as ONNX Runtime's DirectML provider lowers each node), dmlcl-dispatch runs it
(dmlcl's graph planner fuses what it can: maps into chains, views and gathers read through,
element-wise producers into reductions), and every output must match ONNX Runtime's on the
same inputs within a tolerance for chains of a few float32 operations (relative 2e-4 of the
output's largest magnitude, plus 1e-5), widened element by element by the graph's own
sensitivity to float32 rounding: 8 times the farthest ONNX Runtime's output moves when every
input and float constant moves by a random 2^-22 relative (three draws; a layer normalization
of a nearly constant row, or of its output again, amplifies any rounding before it, and both
sides round). What fails here and not in the operators' own tests is a lowering or a fusion.

    scripts/diff-graphs [--seed N] [--cases N] [--only K] [-v]
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from cases import main  # noqa: E402
from dmlcl import onnx as dml_onnx  # noqa: E402

OPSET = 17
RTOL, ATOL = 2e-4, 1e-5


class Builder:
    """A random graph under construction: tensors (name -> shape), nodes, initializers."""

    def __init__(self, rng):
        self.rng = rng
        self.shapes = {}
        self.bools = set()  # comparisons' outputs: read by Where only
        self.nodes, self.inits, self.inputs, self.feeds = [], [], [], {}
        self.count = 0
        self.log = []

    def name(self, kind):
        self.count += 1
        return f"{kind}{self.count}"

    def const(self, array):
        n = self.name("c")
        self.inits.append(numpy_helper.from_array(array, n))
        return n

    def graph_input(self, shape):
        n = self.name("x")
        self.inputs.append(helper.make_tensor_value_info(n, TensorProto.FLOAT, list(shape)))
        self.feeds[n] = self.rng.uniform(-2, 2, shape).astype(np.float32)
        self.shapes[n] = tuple(shape)
        return n

    def node(self, op, ins, shape, **attrs):
        out = self.name(op.lower())
        self.nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        self.shapes[out] = tuple(shape)
        self.log.append(f"{out} = {op}({', '.join(ins)}){' ' + str(attrs) if attrs else ''}"
                        f" -> {list(shape)}")
        return out

    def pick(self):
        names = [n for n in self.shapes if n not in self.bools]
        # later tensors more often: chains, with now and then a reader of an earlier one
        weights = np.arange(1, len(names) + 1, dtype=float) ** 2
        return names[self.rng.choice(len(names), p=weights / weights.sum())]


def broadcast_shape(rng, shape):
    """A shape that broadcasts to `shape`: some dimensions 1, maybe fewer of them."""
    s = [d if rng.random() < 0.6 else 1 for d in shape]
    if len(s) > 1 and rng.random() < 0.3:
        s = s[rng.integers(1, len(s)):]
    return tuple(s)


def add_node(b):
    rng = b.rng
    x = b.pick()
    shape = b.shapes[x]
    r = len(shape)
    kind = rng.choice(["binary", "binary", "unary", "unary", "transpose", "concat", "gather",
                       "expand", "reshape", "softmax", "layernorm", "reduce", "matmul", "gelu",
                       "where", "pow", "conv", "pool", "batchnorm"])
    if kind == "binary":
        op = str(rng.choice(["Add", "Sub", "Mul", "Max", "Min", "Div"]))
        same = [n for n, s in b.shapes.items() if s == shape and n not in b.bools]
        if op == "Div":  # by a constant away from 0
            y = b.const(rng.uniform(0.5, 2, broadcast_shape(rng, shape)).astype(np.float32))
        elif rng.random() < 0.5 and len(same) > 1:
            y = str(rng.choice(same))
        else:
            y = b.const(rng.uniform(-2, 2, broadcast_shape(rng, shape)).astype(np.float32))
        ins = [x, y] if rng.random() < 0.7 or op in ("Sub", "Div") else [y, x]
        return b.node(op, ins, shape)
    if kind == "unary":
        op = str(rng.choice(["Relu", "Sigmoid", "Tanh", "Abs", "Neg", "LeakyRelu", "Elu",
                             "Softplus", "Clip", "Exp"]))
        if op == "Clip":
            lo, hi = sorted(rng.uniform(-1.5, 1.5, 2).astype(np.float32))
            return b.node(op, [x, b.const(np.array(lo, np.float32)),
                               b.const(np.array(hi, np.float32))], shape)
        if op == "Exp":  # of a bounded value
            x = b.node("Tanh", [x], shape)
        attrs = {"alpha": 0.2} if op == "LeakyRelu" else {}
        return b.node(op, [x], shape, **attrs)
    if kind == "transpose" and r > 1:
        perm = [int(p) for p in rng.permutation(r)]
        return b.node("Transpose", [x], [shape[p] for p in perm], perm=perm)
    if kind == "concat":
        axis = int(rng.integers(0, r))
        same = [n for n, s in b.shapes.items() if s == shape and n not in b.bools]
        y = str(rng.choice(same))
        out = list(shape)
        out[axis] *= 2
        return b.node("Concat", [x, y] if rng.random() < 0.5 else [y, x], out, axis=axis)
    if kind == "gather":
        axis = int(rng.integers(0, r))
        n = shape[axis]
        k = int(rng.integers(1, n + 3))
        idx = rng.integers(-n, n, size=(k,) if rng.random() < 0.7 else (1, k)).astype(np.int64)
        out = list(shape[:axis]) + list(idx.shape) + list(shape[axis + 1:])
        if len(out) > 6:
            return None
        return b.node("Gather", [x, b.const(idx)], out, axis=axis)
    if kind == "expand":
        if not any(d == 1 for d in shape):
            return None
        out = [d if d != 1 else int(rng.integers(1, 4)) for d in shape]
        return b.node("Expand", [x, b.const(np.array(out, np.int64))], out)
    if kind == "reshape":
        total = int(np.prod(shape))
        dims = [d for d in range(1, total + 1) if total % d == 0]
        a = int(rng.choice(dims))
        out = [a, total // a]
        return b.node("Reshape", [x, b.const(np.array(out, np.int64))], out)
    if kind == "softmax":
        axis = int(rng.integers(-r, r))
        return b.node("Softmax", [x], shape, axis=axis)
    if kind == "layernorm":
        n = shape[-1]
        if n < 2:
            return None
        scale = b.const(rng.uniform(0.5, 1.5, n).astype(np.float32))
        bias = b.const(rng.uniform(-1, 1, n).astype(np.float32))
        return b.node("LayerNormalization", [x, scale, bias], shape, axis=-1, epsilon=1e-5)
    if kind == "reduce":
        op = str(rng.choice(["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"]))
        axes = sorted(int(a) for a in rng.choice(r, size=int(rng.integers(1, r + 1)),
                                                 replace=False))
        keep = int(rng.integers(0, 2))
        out = [1 if d in axes else s for d, s in enumerate(shape)] if keep else \
            [s for d, s in enumerate(shape) if d not in axes]
        if not out:
            return None
        if op == "ReduceSum":  # axes as an input from opset 13
            return b.node(op, [x, b.const(np.array(axes, np.int64))], out, keepdims=keep)
        return b.node(op, [x], out, axes=axes, keepdims=keep)
    if kind == "gelu":  # as exporters write it: x * 0.5 * (1 + erf(x / sqrt(2)))
        d = b.node("Div", [x, b.const(np.array(np.sqrt(2), np.float32))], shape)
        e = b.node("Erf", [d], shape)
        a = b.node("Add", [e, b.const(np.array(1, np.float32))], shape)
        m = b.node("Mul", [x, a], shape)
        return b.node("Mul", [m, b.const(np.array(0.5, np.float32))], shape)
    if kind == "where":
        y = b.const(rng.uniform(-2, 2, broadcast_shape(rng, shape)).astype(np.float32))
        c = b.node(str(rng.choice(["Greater", "Less", "Equal"])), [x, y], shape)
        b.bools.add(c)
        z = b.const(rng.uniform(-2, 2, broadcast_shape(rng, shape)).astype(np.float32))
        return b.node("Where", [c, x, z], shape)
    if kind == "pow":  # a constant exponent: CONSTANT_POW; of |x| + 0.5 where it is not whole
        e = float(rng.choice([2.0, 3.0, 0.5]))
        if e == 0.5:
            x = b.node("Add", [b.node("Abs", [x], shape), b.const(np.array(0.5, np.float32))],
                       shape)
        return b.node("Pow", [x, b.const(np.array(e, np.float32))], shape)
    if kind in ("conv", "pool", "batchnorm") and r != 4:
        return None
    if kind == "conv":
        n, c, h, w = shape
        groups = int(rng.choice([g for g in (1, c) if c % g == 0]))
        m = int(rng.integers(1, 5)) * groups
        k = [int(rng.integers(1, min(3, h) + 1)), int(rng.integers(1, min(3, w) + 1))]
        pads = [int(rng.integers(0, k[0])), int(rng.integers(0, k[1])),
                int(rng.integers(0, k[0])), int(rng.integers(0, k[1]))]
        strides = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
        oh = (h + pads[0] + pads[2] - k[0]) // strides[0] + 1
        ow = (w + pads[1] + pads[3] - k[1]) // strides[1] + 1
        wt = b.const((rng.uniform(-1, 1, (m, c // groups, k[0], k[1])) /
                      np.sqrt(c // groups * k[0] * k[1])).astype(np.float32))
        ins = [x, wt] + ([b.const(rng.uniform(-1, 1, m).astype(np.float32))]
                         if rng.random() < 0.5 else [])
        return b.node("Conv", ins, [n, m, oh, ow], kernel_shape=k, pads=pads, strides=strides,
                      group=groups)
    if kind == "pool":
        n, c, h, w = shape
        op = str(rng.choice(["MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool"]))
        if op.startswith("Global"):
            return b.node(op, [x], [n, c, 1, 1])
        k = [int(rng.integers(1, min(3, h) + 1)), int(rng.integers(1, min(3, w) + 1))]
        strides = [int(rng.integers(1, 3)), int(rng.integers(1, 3))]
        pads = [int(rng.integers(0, k[0])), int(rng.integers(0, k[1])),
                int(rng.integers(0, k[0])), int(rng.integers(0, k[1]))]
        oh = (h + pads[0] + pads[2] - k[0]) // strides[0] + 1
        ow = (w + pads[1] + pads[3] - k[1]) // strides[1] + 1
        return b.node(op, [x], [n, c, oh, ow], kernel_shape=k, strides=strides, pads=pads)
    if kind == "batchnorm":
        c = shape[1]
        ins = [x, b.const(rng.uniform(0.5, 1.5, c).astype(np.float32)),
               b.const(rng.uniform(-1, 1, c).astype(np.float32)),
               b.const(rng.uniform(-1, 1, c).astype(np.float32)),
               b.const(rng.uniform(0.5, 2, c).astype(np.float32))]
        return b.node("BatchNormalization", ins, shape, epsilon=1e-5)
    if kind == "matmul" and r >= 2:  # dmlcl.onnx lowers 2-D operands and up
        k = shape[-1]
        n = int(rng.integers(1, 9))
        w = b.const((rng.uniform(-1, 1, (k, n)) / np.sqrt(k)).astype(np.float32))
        if r == 2 and rng.random() < 0.5:
            c = b.const(rng.uniform(-1, 1, (n,)).astype(np.float32))
            return b.node("Gemm", [x, w, c], [shape[0], n])
        return b.node("MatMul", [x, w], list(shape[:-1]) + [n])
    return None


def make_case(seed, number):
    rng = np.random.default_rng([seed, number])
    b = Builder(rng)
    rank = int(rng.integers(1, 5))
    base = [int(d) for d in rng.integers(1, 7, size=rank)]
    b.graph_input(base)
    if rng.random() < 0.5:
        b.graph_input(base)
    want = int(rng.integers(3, 13))
    tries = 0
    while len(b.nodes) < want and tries < 200:
        tries += 1
        add_node(b)
    last = b.nodes[-1].output[0]
    outs = [last]
    inner = [n.output[0] for n in b.nodes[:-1] if n.output[0] not in b.bools]
    for _ in range(int(rng.integers(0, 3))):
        if inner:
            o = str(rng.choice(inner))
            if o not in outs:
                outs.append(o)
    graph = helper.make_graph(
        b.nodes, f"random{number}", b.inputs,
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, list(b.shapes[o])) for o in outs],
        b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model, b.feeds, outs, b.log


def perturbed(model, feeds, rng):
    """The model and feeds with every float input and constant moved by a random 2^-22
    relative."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    for i, t in enumerate(m.graph.initializer):
        a = numpy_helper.to_array(t)
        if a.dtype == np.float32:
            a = (a * (1 + rng.uniform(-1, 1, a.shape) * 2.0 ** -22)).astype(np.float32)
            m.graph.initializer[i].CopyFrom(numpy_helper.from_array(a, t.name))
    f = {k: (v * (1 + rng.uniform(-1, 1, v.shape) * 2.0 ** -22)).astype(np.float32)
         for k, v in feeds.items()}
    return m, f


def ort_run(ort, model, feeds, outs):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return dict(zip(outs, sess.run(outs, feeds)))


def check(outs, want, moves, got):
    """The outputs of got that miss want beyond the tolerance (module docstring), described."""
    bad = []
    for o in outs:
        w = np.asarray(want[o], np.float64)
        g = np.asarray(got[o], np.float64).reshape(w.shape)
        scale = float(np.max(np.abs(w))) if w.size else 0.0
        sensitivity = np.max([np.abs(np.asarray(m[o], np.float64) - w) for m in moves], axis=0)
        tol = ATOL + RTOL * scale + 8 * np.nan_to_num(sensitivity, nan=0.0, posinf=0.0)
        ok = (np.abs(g - w) <= tol) | (g == w) | (np.isnan(g) & np.isnan(w))
        if not ok.all():
            i = tuple(int(v) for v in np.argwhere(~ok)[0])
            bad.append(f"{o} at {i}: {g[i]!r}, ONNX Runtime {w[i]!r} ({int((~ok).sum())} of "
                       f"{w.size})")
    return bad


def references(seed, number, model, feeds, outs):
    """ONNX Runtime's outputs, and its outputs on three perturbed copies (the sensitivity)."""
    import onnxruntime as ort  # noqa: PLC0415
    want = ort_run(ort, model, feeds, outs)
    moves = [ort_run(ort, *perturbed(model, feeds, np.random.default_rng([seed, number, k])),
                     outs) for k in (1, 2, 3)]
    return want, moves


def run_dml(model, feeds):
    lowered = dml_onnx.lower(model, {k: v.shape for k, v in feeds.items()})
    return dml_onnx.run(lowered, feeds)[0]


def run(seed, cases, only=None, verbose=False, out=sys.stdout):
    failures = 0
    for number in range(cases):
        if only is not None and number != only:
            continue
        model, feeds, outs, log = make_case(seed, number)
        what = f"seed {seed} case {number}"
        try:
            want, moves = references(seed, number, model, feeds, outs)
            bad = check(outs, want, moves, run_dml(model, feeds))
        except Exception as e:  # noqa: BLE001
            bad = [f"{type(e).__name__}: {e}"]
        if bad:
            failures += 1
            print(f"FAIL {what}: " + "; ".join(bad) + "\n  " + "\n  ".join(log), file=out)
        elif verbose:
            print(f"ok {what}: {len(log)} nodes, outputs {outs}", file=out)
    print(f"graphs: {cases if only is None else 1} cases, {failures} failed", file=out)
    return failures


if __name__ == "__main__":
    sys.exit(main(run, __doc__, 100))
