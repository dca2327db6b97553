#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential cases for dmlcl's concatenations and splits, with upstream expectations.

  gen_joins.py [--seed S] [--count N] [--out DIR]
      N random cases of each of openvino.Concat-1, Split-1, VariadicSplit-1
      (expected from OpenVINO's CPU plugin) and onnx.Concat-13, Split-13,
      Split-18 (expected from onnx.reference, validity from ONNX's checker
      with strict shape inference), written in the dmlcl-case/1 format to
      DIR/<op>.json.

The upstream runs on an int32 iota of each input (element numbers, offset per
input), so no precision of the plugin can touch the values; the case's typed
data is then indexed by the numbers it returns. A case the upstream refuses
expects invalid_argument. Every case is also checked against a model of the
specification written here (which elements each output takes, or that the
case breaks a rule); where the upstream and the model disagree the case is
dropped and counted, never expected from the model.
"""
import argparse
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import NUMPY_TYPES, clear_out, tensor, write  # noqa: E402

INT_TYPES = ["INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"]
NP_INT = {t: NUMPY_TYPES[t] for t in INT_TYPES}


class Invalid(Exception):
    pass


# ---- Data --------------------------------------------------------------------------------

def typed_data(rng, t, n):
    """n values of case type t (distinct as far as the type allows)."""
    if t == "BOOLEAN":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_)
    if t.startswith("FLOAT"):
        return np.array([rng.randint(-5000, 5000) / 8 for _ in range(n)], dtype=NUMPY_TYPES[t])
    info = np.iinfo(NUMPY_TYPES[t])
    lo, hi = max(int(info.min), -(2**62)), min(int(info.max), 2**62)
    vals = [rng.randint(lo, hi) for _ in range(n)]
    if n and rng.random() < 0.2:
        vals[0] = int(info.max)
    return np.array(vals, dtype=NUMPY_TYPES[t])


def random_shape(rng, rank, zero_percent=4):
    return [0 if rng.randrange(100) < zero_percent else rng.randint(1, 4) for _ in range(rank)]


def int_list(rng, t, values):
    """values as a 1-D case tensor of integer type t."""
    return tensor(t, np.array(values, dtype=NP_INT[t]))


# ---- The specification, as a model ---------------------------------------------------------

def model_concat(shapes, axis):
    """The output shape of concatenating shapes along axis, or Invalid."""
    if not shapes:
        raise Invalid("no inputs")
    r = len(shapes[0])
    if r == 0 or not -r <= axis < r:
        raise Invalid("axis")
    a = axis % r
    for s in shapes:
        if len(s) != r or any(s[d] != shapes[0][d] for d in range(r) if d != a):
            raise Invalid("shapes")
    out = list(shapes[0])
    out[a] = sum(s[a] for s in shapes)
    return a, out


def model_lengths(kind, dim, n=None, lengths=None, version=13):
    """The pieces' lengths along the axis, or Invalid."""
    if kind == "ov-split":
        if n < 1 or dim % n:
            raise Invalid("num_splits")
        return [dim // n] * n
    if kind == "ov-variadic":
        if not lengths or sum(v == -1 for v in lengths) > 1 or any(v < -1 for v in lengths):
            raise Invalid("split_lengths")
        known = sum(v for v in lengths if v >= 0)
        if -1 in lengths:
            if known > dim:
                raise Invalid("rest")
            return [v if v >= 0 else dim - known for v in lengths]
        if known != dim:
            raise Invalid("sum")
        return list(lengths)
    if kind == "onnx-split":
        if lengths is not None:
            if any(v < 0 for v in lengths) or sum(lengths) != dim or len(lengths) != n:
                raise Invalid("split")
            return list(lengths)
        if n < 1 or dim % n:
            raise Invalid("equal parts")
        return [dim // n] * n
    # onnx-num-outputs
    chunk = -(-dim // n)
    last = dim - chunk * (n - 1)
    if last < 0:
        raise Invalid("last part")
    return [chunk] * (n - 1) + [last]


def pieces(iota, axis, lengths):
    cuts = np.cumsum(lengths)[:-1]
    return np.split(iota, cuts, axis)


# ---- OpenVINO ---------------------------------------------------------------------------------

_ov = None


def ov_modules():
    global _ov
    if _ov is None:
        import openvino as ov
        import openvino.opset1 as op1
        _ov = (ov, op1, ov.Core())
    return _ov


def ov_run(build, iotas):
    """Compiles build(params) on the CPU plugin over int32 iotas; the outputs, or raises."""
    ov, op1, core = ov_modules()
    params = [op1.parameter(list(a.shape), ov.Type.i32) for a in iotas]
    outs = build(op1, params)
    model = ov.Model(outs if isinstance(outs, list) else [outs], params)
    compiled = core.compile_model(model, "CPU")
    res = compiled(list(iotas))
    return [np.asarray(res[o]) for o in compiled.outputs]


def iotas_for(shapes):
    out, at = [], 0
    for s in shapes:
        n = int(np.prod(s))
        out.append(np.arange(at, at + n, dtype=np.int32).reshape(s))
        at += n
    return out


def agree(got, want):
    return len(got) == len(want) and all(
        g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want))


class Counter:
    def __init__(self):
        self.cases, self.errors, self.dropped = [], 0, []


def finish(counter, name, source, op, inputs, attrs, upstream, model, typed_flat, list_out,
           note):
    """Adds the case when upstream and model agree (both errors, or the same elements)."""
    up_err, model_err = isinstance(upstream, Exception), isinstance(model, Invalid)
    if up_err != model_err or (not up_err and not agree(upstream, model)):
        why = (f"upstream: {str(upstream).strip().splitlines()[-1][:120]}" if up_err else
               "upstream: " + str([list(u.shape) for u in upstream]))
        mod = f"model: {model}" if model_err else "model: " + str([list(m.shape) for m in model])
        counter.dropped.append(f"{name}: {why}; {mod}")
        return
    c = {"name": name, "source": source, "op": op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    if up_err:
        c["expected"] = {"error": "invalid_argument"}
        counter.errors += 1
    else:
        t = typed_flat[1]
        outs = [tensor(t, typed_flat[0][u.reshape(-1)], list(u.shape)) for u in upstream]
        c["expected"] = {"outputs": {"outputs": outs} if list_out else {"output": outs[0]}}
    c["note"] = note
    counter.cases.append(c)


def gen_concat(rng, n, onnx):
    t = rng.choice(list(NUMPY_TYPES))
    rank = rng.randint(1, 5)
    count = rng.choice([1, 2, 3, 4, rng.randint(5, 12)])
    base = random_shape(rng, rank)
    axis = rng.randint(-rank, rank - 1)
    if rng.randrange(100) < 5:
        axis = rng.choice([rank, -rank - 1])
    shapes = []
    for _ in range(count):
        s = list(base)
        s[axis % rank] = rng.randint(0, 4)
        if rng.randrange(100) < 3:
            s[rng.randrange(rank)] += 1
        shapes.append(s)
    iotas = iotas_for(shapes)
    typed = typed_data(rng, t, sum(int(np.prod(s)) for s in shapes))
    flats, at = [], 0
    for s in shapes:
        k = int(np.prod(s))
        flats.append(typed[at:at + k].reshape(s))
        at += k
    try:
        a, _ = model_concat(shapes, axis)
        model = [np.concatenate(iotas, a)]
    except Invalid as e:
        model = e
    inputs = {"inputs": [tensor(t, f) for f in flats]}
    return t, shapes, iotas, typed, axis, model, inputs


def ov_concat_case(rng, n, counter):
    t, shapes, iotas, typed, axis, model, inputs = gen_concat(rng, n, False)
    try:
        up = ov_run(lambda op1, p: op1.concat(p, axis), iotas)
    except Exception as e:
        up = e
    finish(counter, f"diff.openvino.concat1.{n}", "diff:openvino-cpu", "openvino.Concat-1",
           inputs, {"axis": axis}, up, model, (typed, t), False, "expected: OpenVINO CPU plugin")


def split_data(rng):
    t = rng.choice(list(NUMPY_TYPES))
    rank = rng.randint(1, 5)
    shape = random_shape(rng, rank, 3)
    axis = rng.randint(-rank, rank - 1)
    shape[axis % rank] = rng.randint(0, 12)
    typed = typed_data(rng, t, int(np.prod(shape)))
    return t, rank, shape, axis, typed


def axis_input(rng, axis):
    """The axis input, a scalar or of shape [1]: its case tensor, type and array (the upstream
    run takes the same array: Split-1 refuses the [1] form, VariadicSplit-1 takes it)."""
    t = rng.choice([x for x in INT_TYPES if not (x.startswith("U") and axis < 0)])
    a = np.array(axis if rng.random() < 0.5 else [axis], dtype=NP_INT[t])
    return tensor(t, a), t, a


def ov_split_case(rng, n, counter):
    t, rank, shape, axis, typed = split_data(rng)
    dim = shape[axis % rank]
    divisors = [k for k in range(1, max(dim, 1) + 1) if dim % k == 0] if dim else [1, 2, 3]
    k = rng.choice(divisors) if rng.randrange(100) >= 6 else rng.choice([0, dim + 1, 5])
    iota = iotas_for([shape])[0]
    try:
        model = pieces(iota, axis % rank, model_lengths("ov-split", dim, n=k))
    except Invalid as e:
        model = e
    ax, _, axa = axis_input(rng, axis)
    if axa.ndim:
        model = Invalid("axis of shape [1]: Split-1's axis is a scalar (its shape inference)")

    def build(op1, p):
        c = op1.constant(axa)
        return list(op1.split(p[0], c, k).outputs())
    try:
        up = ov_run(build, [iota])
    except Exception as e:
        up = e
    finish(counter, f"diff.openvino.split1.{n}", "diff:openvino-cpu", "openvino.Split-1",
           {"data": tensor(t, typed.reshape(shape)), "axis": ax}, {"num_splits": k}, up, model,
           (typed, t), True, "expected: OpenVINO CPU plugin")


def random_lengths(rng, dim, count):
    """count lengths >= 0 summing to dim."""
    cuts = sorted(rng.randint(0, dim) for _ in range(count - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [dim])]


def ov_variadic_case(rng, n, counter):
    t, rank, shape, axis, typed = split_data(rng)
    dim = shape[axis % rank]
    lengths = random_lengths(rng, dim, rng.randint(1, 6))
    if rng.random() < 0.4:
        lengths[rng.randrange(len(lengths))] = -1
    if rng.randrange(100) < 8:
        lengths[rng.randrange(len(lengths))] += rng.choice([1, -3, 2])
    lt = rng.choice([x for x in INT_TYPES if not x.startswith("U") or min(lengths) >= 0])
    iota = iotas_for([shape])[0]
    try:
        model = pieces(iota, axis % rank, model_lengths("ov-variadic", dim, lengths=lengths))
    except Invalid as e:
        model = e
    ax, _, axa = axis_input(rng, axis)

    def build(op1, p):
        c = op1.constant(axa)
        sl = op1.constant(np.array(lengths, dtype=NP_INT[lt]))
        return list(op1.variadic_split(p[0], c, sl).outputs())
    try:
        up = ov_run(build, [iota])
    except Exception as e:
        up = e
    finish(counter, f"diff.openvino.variadic_split1.{n}", "diff:openvino-cpu",
           "openvino.VariadicSplit-1",
           {"data": tensor(t, typed.reshape(shape)), "axis": ax,
            "split_lengths": int_list(rng, lt, lengths)}, None, up, model, (typed, t), True,
           "expected: OpenVINO CPU plugin")


# ---- ONNX ------------------------------------------------------------------------------------

def onnx_run(node_kw, iotas, extra_inputs, n_out, opset):
    """Checks the model (strict shape inference) and runs onnx.reference; raises on errors."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.reference import ReferenceEvaluator
    names = [f"x{i}" for i in range(len(iotas))]
    extra_names = list(extra_inputs)
    outs = [f"y{i}" for i in range(n_out)]
    node = helper.make_node(node_kw.pop("op"), names + extra_names, outs, **node_kw)
    inits = [numpy_helper.from_array(v, k) for k, v in extra_inputs.items()]
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(nm, TensorProto.INT32, list(a.shape))
         for nm, a in zip(names, iotas)],
        [helper.make_tensor_value_info(o, TensorProto.INT32, [None] * iotas[0].ndim)
         for o in outs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    for o in inferred.graph.output:
        if any(d.HasField("dim_value") and d.dim_value < 0
               for d in o.type.tensor_type.shape.dim):
            raise ValueError("shape inference gives a negative dimension")
    got = ReferenceEvaluator(model).run(None, dict(zip(names, iotas)))
    return [np.asarray(g) for g in got]


def onnx_concat_case(rng, n, counter):
    t, shapes, iotas, typed, axis, model, inputs = gen_concat(rng, n, True)
    try:
        up = onnx_run({"op": "Concat", "axis": axis}, iotas, {}, 1, 13)
    except Exception as e:
        up = e
    finish(counter, f"diff.onnx.concat13.{n}", "diff:onnx-reference", "onnx.Concat-13", inputs,
           {"axis": axis}, up, model, (typed, t), False,
           "expected: onnx.reference; validity: onnx.checker (strict shape inference)")


def onnx_split_case(rng, n, counter, version):
    t, rank, shape, axis, typed = split_data(rng)
    dim = shape[axis % rank]
    count = rng.randint(1, 6)
    kw, extra, attrs = {"op": "Split", "axis": axis}, {}, {"axis": axis}
    mode = rng.choice(["split", "equal"] if version == 13 else ["split", "num_outputs"])
    if mode == "split":
        lengths = random_lengths(rng, dim, count)
        if rng.randrange(100) < 6:
            lengths[0] += rng.choice([1, -1])
        extra["split"] = np.array(lengths, dtype=np.int64)
        try:
            lens = model_lengths("onnx-split", dim, n=count, lengths=lengths)
        except Invalid as e:
            lens = e
    elif mode == "equal":
        count = rng.choice([k for k in range(1, 7) if dim % k == 0] if rng.random() < 0.9
                           else [4, 5])
        try:
            lens = model_lengths("onnx-split", dim, n=count)
        except Invalid as e:
            lens = e
    else:
        kw["num_outputs"] = attrs["num_outputs"] = count
        try:
            lens = model_lengths("onnx-num-outputs", dim, n=count)
        except Invalid as e:
            lens = e
    iota = iotas_for([shape])[0]
    model = lens if isinstance(lens, Invalid) else pieces(iota, axis % rank, lens)
    try:
        up = onnx_run(kw, [iota], extra, count, version)
    except Exception as e:
        up = e
    inputs = {"input": tensor(t, typed.reshape(shape))}
    if "split" in extra:
        inputs["split"] = tensor("INT64", extra["split"])
    c_before = len(counter.cases)
    finish(counter, f"diff.onnx.split{version}.{n}", "diff:onnx-reference",
           f"onnx.Split-{version}", inputs, attrs, up, model, (typed, t), True,
           "expected: onnx.reference; validity: onnx.checker (strict shape inference)")
    # An expected error gives the runner no output count; Split-13 without split needs one.
    if (len(counter.cases) > c_before and isinstance(up, Exception) and mode == "equal"):
        counter.cases.pop()
        counter.errors -= 1


GENERATORS = {
    "openvino_concat": ov_concat_case,
    "openvino_split": ov_split_case,
    "openvino_variadic_split": ov_variadic_case,
    "onnx_concat": onnx_concat_case,
    "onnx_split13": lambda r, n, c: onnx_split_case(r, n, c, 13),
    "onnx_split18": lambda r, n, c: onnx_split_case(r, n, c, 18),
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=400)
    p.add_argument("--out", default="build/diff/joins")
    args = p.parse_args()
    clear_out(args.out)
    for name, gen in GENERATORS.items():
        rng = random.Random(f"{args.seed}/{name}")
        counter = Counter()
        for n in range(args.count):
            gen(rng, n, counter)
        write(os.path.join(args.out, name + ".json"), counter.cases)
        print(f"{name}: {len(counter.cases)} cases ({counter.errors} expect an error), "
              f"{len(counter.dropped)} dropped", file=sys.stderr)
        for d in counter.dropped[:5]:
            print("  dropped " + d, file=sys.stderr)


if __name__ == "__main__":
    main()
