# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/gemm.json (and five graph cases,
conformance/cases/graph/gemm.json): DirectML's GEMM (DML_OPERATOR_GEMM),
Output = FusedActivation(Alpha * TransA(A) x TransB(B) + Beta * C): FLOAT32 and FLOAT16, 2 to 8
dimensions (the leading ones batch dimensions), every TransA/TransB pair, Alpha and Beta, C
present or absent, C broadcast by zero strides (ONNX Gemm's bias as ONNX Runtime's DirectML
provider describes it), batch dimensions broadcast by zero strides (ONNX MatMul's), operands and
outputs described by strides (transposed, padded rows), every activation DirectML fuses, K = 1,
sizes of 1, odd sizes, a few larger products, and one case per validation rule.

Expected values: the formula in float64 with numpy on the inputs as stored (FLOAT16 inputs
rounded first), Alpha and Beta as the descriptor's FLOAT32, the activation's formula (the
activation pages, conformance/gen/elementwise_activation.py), each result rounded once to the
output type; Beta is not applied without C (docs/operators.md). Inputs: normal values as the type
stores them; the large products (over 3000 elements in A, B and the output) multiples of 1/32 in
[-4, 4], which keep the file small and make the float32 products exact. Tolerance per case
(reference/precision.md): 2K + 2 ULP (K the inner dimension; +1 for Alpha, +1 for C) plus the
fused activation's ULPs, or within an absolute bound for sums that cancel: the float32
evaluation's (K + 3) 2^-24 (|Alpha| sum_k |a b| + |Beta c|), through the activation's slope,
plus the activation's own error and the output's rounding, the largest over the output.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/gemm.py
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
U = 2.0 ** -24  # float32's unit roundoff: the evaluation's
EPS = {"FLOAT32": 2.0 ** -23, "FLOAT16": 2.0 ** -10}  # one ULP at 1
NONE, TRANSPOSE = "DML_MATRIX_TRANSFORM_NONE", "DML_MATRIX_TRANSFORM_TRANSPOSE"
DML_OPERATOR_ACTIVATION_LOG_SOFTMAX = 41  # directml.h's value: not an activation DirectML fuses

# The activations DirectML fuses, with parameters and their own tolerance
# (conformance/ops_activation.c, reference/precision.md: ulps, absolute).
ACTIVATIONS = {
    "ELU": ({"Alpha": 0.75}, 18, 0.0),
    "HARD_SIGMOID": ({"Alpha": 0.2, "Beta": 0.5}, 1, 0.0),
    "IDENTITY": ({}, 0, 0.0),
    "LEAKY_RELU": ({"Alpha": 0.1}, 1, 0.0),
    "LINEAR": ({"Alpha": 1.5, "Beta": -0.25}, 2, 0.0),
    "PARAMETRIC_SOFTPLUS": ({"Alpha": 0.5, "Beta": 2.0}, 18, 0.0),
    "RELU": ({}, 0, 0.0),
    "SCALED_ELU": ({"Alpha": 1.67326, "Gamma": 1.0507}, 18, 0.0),
    "SCALED_TANH": ({"Alpha": 1.7159, "Beta": 0.6666}, 0, 1.0 / 1024),
    "SIGMOID": ({}, 34, 0.0),
    "SOFTPLUS": ({"Steepness": 2.0}, 18, 0.0),
    "SOFTSIGN": ({}, 2, 0.0),
    "TANH": ({}, 0, 1.0 / 1024),
    "THRESHOLDED_RELU": ({"Alpha": 0.5}, 0, 0.0),
    "SHRINK": ({"Bias": 0.25, "Threshold": 0.25}, 1, 0.0),
    "CELU": ({"Alpha": 0.8}, 18, 0.0),
    "GELU": ({}, 18, 0.0),
}


def f32(v):
    return float(np.float32(v))


def slope(name, p):
    """A bound on |act'| (the activations are continuous as parameterised here, but
    THRESHOLDED_RELU, whose step the generator keeps the values away from)."""
    a, b = abs(p.get("Alpha", 1.0)), abs(p.get("Beta", 1.0))
    return {"ELU": max(1.0, a), "HARD_SIGMOID": a, "LEAKY_RELU": max(1.0, a), "LINEAR": a,
            "PARAMETRIC_SOFTPLUS": a * b, "SCALED_ELU": abs(p.get("Gamma", 1.0)) * max(1.0, a),
            "SCALED_TANH": a * b, "SIGMOID": 0.25, "GELU": 1.13}.get(name, 1.0)


def stored(t, a):
    """a as the tensor of type t holds it, in float64."""
    return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


def rounded(t, a):
    with np.errstate(all="ignore"):
        return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


def mat(x, trans):
    return np.swapaxes(x, -1, -2) if trans else x


def gemm(t, a, b, c, ta, tb, alpha, beta, act=None):
    """The expected output (float64, rounded to t) and the case's tolerance."""
    am, bm = mat(a, ta), mat(b, tb)
    k = am.shape[-1]
    acc = np.matmul(am, bm)  # float64: each product of two FLOAT32 values exact
    mag = np.matmul(np.abs(am), np.abs(bm))
    alpha, beta = f32(alpha), f32(beta)
    pre = alpha * acc
    s = abs(alpha) * mag
    if c is not None:
        pre = pre + beta * c
        s = s + abs(beta) * np.abs(c)
    err = (k + 3) * U * s
    ulps = 2 * k + 2
    if act is None:
        y = pre
        own = np.zeros_like(y)
    else:
        name, p = act
        _, act_ulps, act_abs = ACTIVATIONS[name]
        pf = {key: f32(v) for key, v in p.items()}
        y = np.vectorize(lambda v: act_real(name, pf, float(v)), otypes=[np.float64])(pre)
        if name == "THRESHOLDED_RELU":
            assert (np.abs(pre - pf["Alpha"]) > err).all(), "a value at the threshold"
        err = err * slope(name, pf)
        own = act_ulps * EPS[t] * np.abs(y) + act_abs
        ulps += act_ulps
    out = rounded(t, y)
    bound = err + own + EPS[t] * np.abs(y)
    tol = {"ulp": int(ulps), "abs": float(np.max(bound, initial=0.0))}
    return out, tol


def strides_for(shape, order):
    """Packed element strides of shape laid out with dimensions `order` (outermost first)."""
    st = [0] * len(shape)
    step = 1
    for d in reversed(order):
        st[d] = step
        step *= shape[d]
    return st


def case(name, t, inputs, attrs, out=None, tol=None, note=None, out_desc=None):
    c = {"name": name, "source": "directml:DML_GEMM_OPERATOR_DESC#semantics",
         "op": "DML_OPERATOR_GEMM", "attrs": attrs, "inputs": inputs}
    if out_desc:
        c["inputs"]["OutputTensor"] = out_desc
    o = tensor(t, out)
    o["tolerance"] = tol
    c["expected"] = {"outputs": {"OutputTensor": o}}
    if note:
        c["note"] = note
    return c


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.cases = []

    def data(self, t, shape, exact=False):
        if exact:  # multiples of 1/32 in [-4, 4]: short in JSON, every product and sum exact
            return self.rng.integers(-128, 129, size=shape) / 32.0
        return stored(t, self.rng.normal(0.0, 1.0, size=shape))

    def add(self, name, t, m, k, n, batch=(), ta=False, tb=False, alpha=1.0, beta=1.0,
            with_c=True, act=None, a_strides=None, b_strides=None, c_strides=None,
            o_strides=None, a_bcast=(), b_bcast=(), c_bcast=(), note=None):
        """One case: A {batch, M, K} (or {batch, K, M} with ta), B {batch, K, N} ({batch, N, K}),
        C {batch, M, N}; *_bcast: dimensions (of the full rank) the tensor repeats (stride 0)."""
        batch = list(batch)
        ashape = batch + ([k, m] if ta else [m, k])
        bshape = batch + ([n, k] if tb else [k, n])
        oshape = batch + [m, n]

        exact = m * n + m * k + k * n > 3000

        def draw(shape, bcast):
            small = [1 if d in bcast else s for d, s in enumerate(shape)]
            return np.broadcast_to(self.data(t, small, exact), shape).copy()

        for _ in range(20):
            a = draw(ashape, a_bcast)
            b = draw(bshape, b_bcast)
            c = draw(oshape, c_bcast) if with_c else None
            try:
                out, tol = gemm(t, a, b, c, ta, tb, alpha, beta, act)
                break
            except AssertionError:
                continue
        else:
            raise RuntimeError(name + ": no data away from the activation's step")

        def desc(x, st, bcast):
            d = tensor(t, x)
            if bcast:
                st = st or strides_for(list(x.shape), list(range(x.ndim)))
                st = [0 if i in bcast else s for i, s in enumerate(st)]
            if st:
                d["strides"] = st
            return d

        inputs = {"ATensor": desc(a, a_strides, a_bcast), "BTensor": desc(b, b_strides, b_bcast)}
        if with_c:
            inputs["CTensor"] = desc(c, c_strides, c_bcast)
        attrs = {"TransA": TRANSPOSE if ta else NONE, "TransB": TRANSPOSE if tb else NONE,
                 "Alpha": f32(alpha), "Beta": f32(beta)}
        if act:
            attrs["FusedActivation"] = {"Type": "DML_OPERATOR_ACTIVATION_" + act[0],
                                        **{key: f32(v) for key, v in act[1].items()}}
        out_desc = None
        if o_strides:
            out_desc = {"type": t, "shape": oshape, "strides": o_strides}
        self.cases.append(case(name, t, inputs, attrs, out, tol, note, out_desc))


def generated(g):
    # Every TransA/TransB pair on both types over small, odd, unit and square sizes.
    shapes = [(1, 1, 1), (3, 4, 5), (17, 33, 19), (16, 16, 16), (1, 7, 1), (5, 1, 6),
              (2, 9, 1), (1, 13, 8)]
    alphas = [(1.0, 1.0), (0.5, 2.0), (-1.25, 0.75), (2.0, -1.0)]
    i = 0
    for t in ("FLOAT32", "FLOAT16"):
        for ta in (False, True):
            for tb in (False, True):
                for m, k, n in shapes:
                    alpha, beta = alphas[i % 4]
                    with_c = i % 3 != 2
                    i += 1
                    g.add(f"directml.gemm.{t.lower()}-{m}x{k}x{n}-trans{int(ta)}{int(tb)}"
                          f"{'' if with_c else '-no-c'}", t, m, k, n, ta=ta, tb=tb,
                          alpha=alpha, beta=beta, with_c=with_c)
    # Ranks 2 to 8: the leading dimensions are batch dimensions (some of one element).
    for r in range(2, 9):
        for t in ("FLOAT32", "FLOAT16"):
            batch = [int(v) for v in g.rng.integers(1, 4, size=r - 2)]
            if r >= 4 and t == "FLOAT16":
                batch[0] = 1
            g.add(f"directml.gemm.{t.lower()}-rank{r}", t, 3, 5, 4, batch=batch,
                  ta=(r % 2 == 1), tb=(r % 3 == 0), alpha=0.5 + r / 4, beta=1.0,
                  with_c=(r % 2 == 0), note=f"batch {batch}")
    g.add("directml.gemm.page-4d", "FLOAT32", 4, 6, 3, batch=[2, 3],
          note="the page's {BatchCount, ChannelCount, M, K} x {BatchCount, ChannelCount, K, N}")
    # C broadcast by zero strides (ONNX Gemm's bias): a row, a column, a scalar, over a batch.
    for label, bc, m, n in (("row", [0], 4, 7), ("column", [1], 5, 3), ("scalar", [0, 1], 3, 3)):
        for t in ("FLOAT32", "FLOAT16"):
            g.add(f"directml.gemm.{t.lower()}-c-broadcast-{label}", t, m, 6, n, beta=0.5,
                  c_bcast=bc, note=f"CTensor strides 0 in dimensions {bc}")
    g.add("directml.gemm.c-broadcast-batch", "FLOAT32", 3, 4, 5, batch=[2, 3], c_bcast=[0, 1, 2],
          note="C one row for every batch and row: strides {0, 0, 0, 1}")
    g.add("directml.gemm.c-broadcast-middle", "FLOAT32", 2, 3, 4, batch=[3, 2], c_bcast=[1],
          note="C repeated over the second batch dimension")
    # Batch broadcast by zero strides (ONNX MatMul's broadcasting, as the DirectML provider).
    for label, t, batch, ab, bb in (("b-over-batch", "FLOAT32", [3], (), [0]),
                                    ("a-over-batch", "FLOAT32", [4], [0], ()),
                                    ("mixed-4d", "FLOAT32", [2, 3], [1], [0]),
                                    ("f16-b-over-two", "FLOAT16", [2, 2], (), [0, 1]),
                                    ("rank6", "FLOAT32", [2, 1, 2, 3], [3], [0, 2])):
        g.add(f"directml.gemm.batch-broadcast-{label}", t, 3, 5, 4, batch=batch,
              a_bcast=list(ab), b_bcast=list(bb), with_c=False,
              note=f"A strides 0 in {list(ab)}, B in {list(bb)}")
    # Operands described by strides: a transposed layout with TransA NONE, padded rows, a
    # strided output, a strided C; and a transposed layout under TRANSPOSE (read twice over).
    g.add("directml.gemm.a-strides-transposed", "FLOAT32", 5, 7, 6, a_strides=[1, 5],
          note="A {5, 7} stored column-major: strides {1, 5}")
    g.add("directml.gemm.b-strides-transposed", "FLOAT16", 6, 5, 7, b_strides=[1, 5],
          note="B {5, 7} stored column-major: strides {1, 5}")
    g.add("directml.gemm.a-b-padded-rows", "FLOAT32", 4, 6, 5, a_strides=[9, 1], b_strides=[8, 1],
          note="rows of 6 (A) and 5 (B) in rows of 9 and 8 elements")
    g.add("directml.gemm.output-strided", "FLOAT32", 4, 3, 5, o_strides=[1, 4],
          note="the output written column-major: strides {1, 4}")
    g.add("directml.gemm.output-padded", "FLOAT16", 3, 5, 6, o_strides=[8, 1], with_c=False,
          note="output rows of 6 in rows of 8")
    g.add("directml.gemm.c-strides-transposed", "FLOAT32", 4, 3, 6, c_strides=[1, 4], beta=1.5,
          note="C {4, 6} stored column-major")
    g.add("directml.gemm.transposed-layouts-under-trans", "FLOAT32", 4, 5, 3, ta=True, tb=True,
          a_strides=[1, 5], b_strides=[1, 3],
          note="A {K, M} and B {N, K} themselves stored column-major: row-major M x K and K x N")
    g.add("directml.gemm.batch-strides-permuted", "FLOAT32", 3, 4, 5, batch=[2],
          a_strides=strides_for([2, 3, 4], [1, 0, 2]), b_strides=strides_for([2, 4, 5], [2, 1, 0]),
          o_strides=strides_for([2, 3, 5], [1, 0, 2]),
          note="A and the output {b, m, k} stored m-major, B fully reversed")
    # Every activation DirectML fuses, alternating the types.
    for j, (name, (p, _, _)) in enumerate(ACTIVATIONS.items()):
        t = "FLOAT32" if j % 2 == 0 else "FLOAT16"
        g.add(f"directml.gemm.{t.lower()}-fused-{name.lower()}", t, 5, 8, 6, alpha=0.75, beta=0.5,
              with_c=j % 3 != 1, act=(name, p), tb=j % 4 == 3)
    # Alpha 0, Beta 0, Beta without C.
    g.add("directml.gemm.alpha-zero", "FLOAT32", 3, 4, 5, alpha=0.0, beta=1.0,
          note="Alpha 0: Beta * C alone")
    g.add("directml.gemm.beta-zero", "FLOAT32", 3, 4, 5, alpha=1.0, beta=0.0,
          note="Beta 0: C read and multiplied by 0")
    g.add("directml.gemm.beta-without-c", "FLOAT16", 3, 4, 5, alpha=1.0, beta=3.0, with_c=False,
          note="Beta is ignored without C")
    # K = 1 (outer products), vectors, and larger products.
    g.add("directml.gemm.outer-product", "FLOAT32", 9, 1, 11, with_c=False, note="K = 1")
    g.add("directml.gemm.outer-product-trans", "FLOAT16", 8, 1, 7, ta=True, tb=True, note="K = 1")
    g.add("directml.gemm.gemv", "FLOAT32", 33, 47, 1, note="N = 1")
    g.add("directml.gemm.vecmat", "FLOAT32", 1, 47, 29, tb=True, note="M = 1")
    g.add("directml.gemm.dot", "FLOAT16", 1, 100, 1, with_c=False, note="M = N = 1")
    g.add("directml.gemm.large-70x90x130", "FLOAT32", 70, 90, 130, alpha=0.5, beta=2.0)
    g.add("directml.gemm.large-70x90x130-trans", "FLOAT32", 70, 90, 130, ta=True, tb=True,
          with_c=False)
    g.add("directml.gemm.large-f16-65x129x33", "FLOAT16", 65, 129, 33, tb=True)
    g.add("directml.gemm.large-64x64x64", "FLOAT32", 64, 64, 64, with_c=False)
    g.add("directml.gemm.large-long-k", "FLOAT32", 3, 1000, 5, with_c=False, note="K = 1000")
    g.add("directml.gemm.large-batched", "FLOAT32", 31, 20, 17, batch=[3, 2], ta=True,
          act=("RELU", {}))
    g.add("directml.gemm.large-rows", "FLOAT16", 129, 8, 3, c_bcast=[0])


def error_cases():
    got = []

    def t_(ty, shape, strides=None):
        d = tensor(ty, np.zeros(shape, dtype=NUMPY_TYPES[ty]))
        if strides:
            d["strides"] = strides
        return d

    def out(ty, shape):
        return {"type": ty, "shape": shape}

    F, H = "FLOAT32", "FLOAT16"
    base = {"ATensor": t_(F, [3, 4]), "BTensor": t_(F, [4, 5]), "OutputTensor": out(F, [3, 5])}
    rules = [
        ("type-int32", {"ATensor": t_("INT32", [3, 4]), "BTensor": t_("INT32", [4, 5]),
                        "OutputTensor": out("INT32", [3, 5])}, {}, "FLOAT32 and FLOAT16 only"),
        ("rank-1", {"ATensor": t_(F, [4]), "BTensor": t_(F, [4]), "OutputTensor": out(F, [1])},
         {}, "DimensionCount 2 to 8"),
        ("b-type", {**base, "BTensor": t_(H, [4, 5])}, {}, "B has A's DataType"),
        ("b-rank", {**base, "BTensor": t_(F, [1, 4, 5])}, {}, "B has A's DimensionCount"),
        ("c-type", {**base, "CTensor": t_(H, [3, 5])}, {}, "C has A's DataType"),
        ("c-rank", {**base, "CTensor": t_(F, [1, 3, 5])}, {}, "C has A's DimensionCount"),
        ("output-type", {**base, "OutputTensor": out(H, [3, 5])}, {},
         "the output has A's DataType"),
        ("output-rank", {**base, "OutputTensor": out(F, [1, 3, 5])}, {},
         "the output has A's DimensionCount"),
        ("trans-a", base, {"TransA": 2}, "TransA NONE or TRANSPOSE"),
        ("trans-b", base, {"TransB": 5}, "TransB NONE or TRANSPOSE"),
        ("k-mismatch", {**base, "BTensor": t_(F, [5, 5])}, {}, "A's K equals B's K"),
        ("k-mismatch-trans", base, {"TransA": TRANSPOSE}, "TransA: A's K is Sizes[0]"),
        ("batch-mismatch", {"ATensor": t_(F, [2, 3, 4]), "BTensor": t_(F, [3, 4, 5]),
                            "OutputTensor": out(F, [2, 3, 5])}, {}, "batch sizes agree"),
        ("batch-size-one", {"ATensor": t_(F, [2, 3, 4]), "BTensor": t_(F, [1, 4, 5]),
                            "OutputTensor": out(F, [2, 3, 5])}, {},
         "a batch broadcast is a stride of 0, not a size of 1"),
        ("output-sizes", {**base, "OutputTensor": out(F, [3, 4])}, {},
         "the output is {batch..., M, N}"),
        ("c-sizes", {**base, "CTensor": t_(F, [1, 5])}, {},
         "C has the output's sizes (a broadcast C is a stride of 0)"),
        ("fused-log-softmax", base,
         {"FusedActivation": {"Type": DML_OPERATOR_ACTIVATION_LOG_SOFTMAX}},
         "ACTIVATION_LOG_SOFTMAX is no activation DirectML fuses (GEMM fuses SOFTMAX and "
         "SOFTMAX1 alone, feature level 6.1)"),
        ("fused-softmax1-axis", base,
         {"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": [2]}},
         "the fused SOFTMAX1's Axes are below the output's DimensionCount"),
        ("fused-softmax1-no-axes", base,
         {"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": []}},
         "the fused SOFTMAX1 takes at least one axis"),
        ("fused-softmax1-repeat", base,
         {"FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": [1, 1]}},
         "the fused SOFTMAX1's Axes are a set"),
        ("rank-9", {"ATensor": t_(F, [1] * 7 + [3, 4]), "BTensor": t_(F, [1] * 7 + [4, 5]),
                    "OutputTensor": out(F, [1] * 7 + [3, 5])}, {}, "at most 8 dimensions"),
    ]
    for label, inputs, attrs, why in rules:
        got.append({"name": f"directml.gemm.invalid-{label}",
                    "source": "directml:DML_GEMM_OPERATOR_DESC#text", "op": "DML_OPERATOR_GEMM",
                    "attrs": attrs, "inputs": inputs, "expected": {"error": "invalid_argument"},
                    "note": why})
    return got


def graph_cases(rng):
    """GEMM as a graph node (a computed node is one step, its inputs wherever the planner puts
    them): after a SLICE (a strided view), after an ADD, before an ADD and a REDUCE, two GEMMs in
    a chain (the first's output also a graph output). Sixteenths and halves: every product and
    sum is exact; the tolerance is GEMM's 2K + 2 ULP all the same."""
    F = "FLOAT32"
    src = "dmlcl:graph#"

    def sixteenths(*shape):
        return rng.integers(-64, 65, size=shape) / 16.0

    def t(x):
        return tensor(F, x)

    def out(x, k):
        o = tensor(F, x)
        o["tolerance"] = {"ulp": 2 * k + 2}
        return o

    def desc(shape):
        return {"type": F, "shape": list(shape)}

    def gemm_node(a, b, y, c=None, **attrs):
        ins = {"ATensor": a, "BTensor": b}
        if c:
            ins["CTensor"] = c
        return {"op": "DML_OPERATOR_GEMM", "attrs": {"TransA": NONE, "TransB": NONE,
                                                     "Alpha": 1.0, "Beta": 1.0, **attrs},
                "inputs": ins, "outputs": {"OutputTensor": y}}

    def graph(name, nodes, tensors, inputs, outputs, note):
        return {"name": "dmlcl.graph.gemm." + name, "source": src + "gemm-" + name,
                "op": "DML_GRAPH", "graph": {"nodes": nodes, "tensors": tensors},
                "inputs": inputs, "expected": {"outputs": outputs}, "note": note}

    got = []
    x, b = sixteenths(4, 10), sixteenths(3, 5)
    a = x[1:4, ::3][:, :3]  # rows 1..3, columns 0, 3, 6
    got.append(graph("slice-then-gemm", [
        {"op": "DML_OPERATOR_SLICE", "attrs": {"Offsets": [1, 0], "Sizes": [3, 3],
                                               "Strides": [1, 3]},
         "inputs": {"InputTensor": "x"}, "outputs": {"OutputTensor": "a"}},
        gemm_node("a", "b", "y")], {"a": desc((3, 3))}, {"x": t(x), "b": t(b)},
        {"y": out(a @ b, 3)}, "GEMM reads the SLICE's strided view"))
    a1, a2, b = sixteenths(2, 4, 6), sixteenths(2, 4, 6), sixteenths(2, 6, 3)
    y = np.maximum((a1 + a2) @ b, 0)
    got.append(graph("add-then-gemm-relu", [
        {"op": "DML_OPERATOR_ELEMENT_WISE_ADD", "inputs": {"ATensor": "a1", "BTensor": "a2"},
         "outputs": {"OutputTensor": "a"}},
        gemm_node("a", "b", "y", FusedActivation={"Type": "DML_OPERATOR_ACTIVATION_RELU"})],
        {"a": desc((2, 4, 6))}, {"a1": t(a1), "a2": t(a2), "b": t(b)}, {"y": out(y, 6)},
        "batched GEMM of an ADD's output, fused RELU"))
    a, b, bias = sixteenths(5, 4), sixteenths(4, 6), sixteenths(5, 6)
    got.append(graph("gemm-then-add", [
        gemm_node("a", "b", "t", Alpha=0.5), {"op": "DML_OPERATOR_ELEMENT_WISE_ADD",
                                              "inputs": {"ATensor": "t", "BTensor": "bias"},
                                              "outputs": {"OutputTensor": "y"}}],
        {"t": desc((5, 6))}, {"a": t(a), "b": t(b), "bias": t(bias)},
        {"y": out(0.5 * (a @ b) + bias, 4)}, "ONNX MatMul + Add as two nodes"))
    a, b = sixteenths(3, 7, 4), sixteenths(3, 4, 5)
    got.append(graph("gemm-then-sum", [
        gemm_node("a", "b", "t"), {"op": "DML_OPERATOR_REDUCE",
                                   "attrs": {"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [1]},
                                   "inputs": {"InputTensor": "t"},
                                   "outputs": {"OutputTensor": "y"}}],
        {"t": desc((3, 7, 5))}, {"a": t(a), "b": t(b)},
        {"y": out((a @ b).sum(axis=1, keepdims=True), 7 * 4)},
        "a REDUCE over GEMM's rows"))
    a, b, c = sixteenths(4, 3), sixteenths(3, 5), sixteenths(4, 5)
    w = rng.integers(-4, 5, size=(2, 5)) / 2.0
    t1 = 2.0 * (a @ b) - c
    got.append(graph("chain", [
        gemm_node("a", "b", "t", "c", Alpha=2.0, Beta=-1.0),
        gemm_node("t", "w", "y", TransB=TRANSPOSE)], {"t": desc((4, 5))},
        {"a": t(a), "b": t(b), "c": t(c), "w": t(w)},
        {"y": out(t1 @ w.T, 5), "t": out(t1, 3)},
        "two GEMMs; the first's output is also a graph output"))
    # Attention: softmax(Q K^T / 4) V, the softmax fused into the first GEMM (feature level
    # 6.1), its output an intermediate the second reads.
    q, k, v = sixteenths(2, 6, 4), sixteenths(2, 6, 4), sixteenths(2, 6, 3)
    scores = 0.25 * (q @ np.swapaxes(k, 1, 2))
    p = np.exp(scores - scores.max(axis=2, keepdims=True))
    p = p / p.sum(axis=2, keepdims=True)
    y = out(p @ v, 6)
    y["tolerance"] = {"ulp": 2 * 6 + 2, "abs": 2e-5}
    got.append(graph("attention-fused-softmax", [
        gemm_node("q", "k", "p", TransB=TRANSPOSE, Alpha=0.25,
                  FusedActivation={"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": [2]}),
        gemm_node("p", "v", "y")], {"p": desc((2, 6, 6))},
        {"q": t(q), "k": t(k), "v": t(v)}, {"y": y},
        "GEMM with a fused SOFTMAX1 (its rows), then a GEMM of the probabilities"))
    return got


def softmax_rows(y, axes):
    """Softmax of y over the dimensions in axes, in float64."""
    m = np.max(y, axis=tuple(axes), keepdims=True)
    e = np.exp(y - m)
    return e / np.sum(e, axis=tuple(axes), keepdims=True)


def fused_softmax_cases():
    """FusedActivation ACTIVATION_SOFTMAX (the output's last dimension) and SOFTMAX1 (its Axes),
    which GEMM fuses from feature level 6.1 (the feature-level history): batched, transposed
    (attention's Q x K^T, scaled), across a batch dimension, FLOAT16, a strided output, a long
    row. Expected: softmax of alpha A B + beta C in float64. Tolerance: the product's error
    bound e (as the other cases'), which moves each softmax value y by at most 2 e y, plus the
    softmax's own 3N + 3 ULPs (reference/precision.md), N the row's length."""
    rng = np.random.default_rng(20261204)  # of its own: the other cases keep their data
    got = []
    specs = [  # name, type, batch, m, k, n, ta, tb, alpha, beta, with_c, axes (None: SOFTMAX)
        ("2d", "FLOAT32", [], 5, 7, 9, False, False, 1.0, 1.0, True, None),
        ("batch-rows", "FLOAT32", [2, 3], 4, 6, 8, False, False, 0.5, 1.0, True, [3]),
        ("batch-matrices", "FLOAT32", [2, 3], 4, 6, 8, False, False, 1.0, 0.5, True, [2, 3]),
        ("across-batch", "FLOAT32", [2, 3], 4, 6, 8, False, False, 1.0, 1.0, False, [1]),
        ("attention", "FLOAT32", [2, 4], 8, 16, 8, False, True, 0.25, 1.0, False, [3]),
        ("float16", "FLOAT16", [2], 6, 5, 16, False, False, 1.0, 1.0, True, [2]),
        ("long-row", "FLOAT32", [], 3, 4, 300, True, False, 1.0, 1.0, True, [1]),
    ]
    for label, t, batch, m, k, n, ta, tb, alpha, beta, with_c, axes in specs:
        ashape = batch + ([k, m] if ta else [m, k])
        bshape = batch + ([n, k] if tb else [k, n])
        oshape = batch + [m, n]
        a = stored(t, rng.normal(0.0, 1.0, size=ashape))
        b = stored(t, rng.normal(0.0, 1.0, size=bshape))
        c = stored(t, rng.normal(0.0, 1.0, size=oshape)) if with_c else None
        am, bm = mat(a, ta), mat(b, tb)
        al, be = f32(alpha), f32(beta)
        pre = al * np.matmul(am, bm) + (be * c if with_c else 0.0)
        mag = abs(al) * np.matmul(np.abs(am), np.abs(bm)) + (abs(be) * np.abs(c) if with_c else 0)
        e = (k + 3) * U * mag
        if t == "FLOAT16":  # the product rounded to the output's type before the softmax
            e = e + EPS[t] * np.abs(pre)
        rows = axes if axes is not None else [len(oshape) - 1]
        y = softmax_rows(pre, rows)
        n_row = int(np.prod([oshape[d] for d in rows]))
        bound = 2 * float(np.max(e)) * y + EPS[t] * y
        tol = {"ulp": 3 * n_row + 3, "abs": float(np.max(bound))}
        inputs = {"ATensor": tensor(t, a), "BTensor": tensor(t, b)}
        if with_c:
            inputs["CTensor"] = tensor(t, c)
        fused = ({"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX"} if axes is None else
                 {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX1", "Axes": axes})
        attrs = {"TransA": TRANSPOSE if ta else NONE, "TransB": TRANSPOSE if tb else NONE,
                 "Alpha": al, "Beta": be, "FusedActivation": fused}
        note = (f"rows over output dimensions {rows}; the product's bound e {float(np.max(e)):.3g}"
                " (feature level 6.1: GEMM fuses SOFTMAX and SOFTMAX1)")
        c_ = case(f"directml.gemm.fused-softmax-{label}", t, inputs, attrs, rounded(t, y), tol,
                  note)
        c_["source"] = "directml:dml-feature-level-history#DML_FEATURE_LEVEL_6_1"
        got.append(c_)
    # A strided output (rows 16 apart, 3 of them padding): the softmax reads it as written.
    t = "FLOAT32"
    a = stored(t, rng.normal(0.0, 1.0, size=[4, 5]))
    b = stored(t, rng.normal(0.0, 1.0, size=[5, 13]))
    pre = np.matmul(a, b)
    e = 8 * U * np.matmul(np.abs(a), np.abs(b))
    y = softmax_rows(pre, [1])
    c_ = case("directml.gemm.fused-softmax-strided-output", t,
              {"ATensor": tensor(t, a), "BTensor": tensor(t, b)},
              {"TransA": NONE, "TransB": NONE, "Alpha": 1.0, "Beta": 0.0,
               "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_SOFTMAX"}},
              rounded(t, y), {"ulp": 3 * 13 + 3, "abs": float(np.max(2 * np.max(e) * y + U * y))},
              "OutputTensor strides {16, 1}", {"type": t, "shape": [4, 13], "strides": [16, 1]})
    c_["source"] = "directml:dml-feature-level-history#DML_FEATURE_LEVEL_6_1"
    got.append(c_)
    return got


def main():
    g = Gen(np.random.default_rng(20261128))
    generated(g)
    cases = g.cases + error_cases() + fused_softmax_cases()
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    write(os.path.join(CASES, "directml", "gemm.json"), cases)
    graphs = graph_cases(g.rng)
    write(os.path.join(CASES, "graph", "gemm.json"), graphs)
    print(f"{len(cases)} cases, {len(graphs)} graph cases")


if __name__ == "__main__":
    main()
