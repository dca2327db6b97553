# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/pool.json: DirectML's pooling operators MAX_POOLING,
MAX_POOLING1, MAX_POOLING2 (OutputIndicesTensor UINT32 or UINT64, Dilations), AVERAGE_POOLING,
AVERAGE_POOLING1 (IncludePadding, Dilations), LP_POOLING and LP_POOLING1 (P): 2 and 3 spatial
axes, strides, start and end padding, dilations, ceil_mode's output sizes, every type of the
tables (max pooling's 10, average and LP FLOAT32 and FLOAT16), ties, NaN and -0, windows in
the padding only, global pools (the window the whole spatial size, as ONNX Runtime's DirectML
provider lowers GlobalAveragePool and GlobalMaxPool), strided inputs and outputs, and one case
per validation rule.

Expected values: the pages' definition evaluated by plain loops here (numpy float64 on the
inputs as stored; FLOAT16 inputs rounded first), each result rounded once to the output type:
a window's positions o * stride - start + k * dilation, those outside the input never read;
max pooling the largest element (NaN only when the window holds nothing else, +0 over -0, the
first of equal ones), its index the element's position in the input's Sizes read row-major, an
empty window the type's lowest value and index 0; average the sum over the positions inside
the input divided by their count, or by the positions inside the padded input with
IncludePadding (0 for none); LP (sum |x|^P)^(1/P). The cases without NaN, -0 or empty windows
are checked against onnx.reference's MaxPool, AveragePool and LpPool where those exist
(--check). Float outputs are compared within the runner's default tolerances
(conformance/ops_pool.c).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/pool.py [--check]
"""
import itertools
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
FLOATS = ["FLOAT32", "FLOAT16"]
INTS = ["INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16", "UINT8"]
ONNX_CHECKS = []  # (x, kind, attrs, expected) checked against onnx.reference with --check


def out_size(n, k, s, a, b, d, ceil=False):
    padded, w = n + a + b, (k - 1) * d + 1
    if w > padded:  # one window (DirectMLX's MaxPooling sizes it so)
        return 1
    q, r = divmod(padded - w, s)
    return q + 1 + (1 if ceil and r else 0)


def beats(x, y):
    """x replaces the running maximum y (the max rule)."""
    if isinstance(x, float) or isinstance(x, np.floating):
        x, y = float(x), float(y)
        if np.isnan(x):
            return False
        if np.isnan(y):
            return True
        return x > y or (x == 0 and y == 0 and not np.signbit(x) and np.signbit(y))
    return x > y


def lowest(t):
    return float("-inf") if t in FLOATS else int(np.iinfo(NUMPY_TYPES[t]).min)


def pool(kind, x, t, window, strides, start, end, dil, out_sp, include=False, p=2):
    """The oracle: returns (y, indices) for x of shape [N, C, *spatial]."""
    n, c = x.shape[:2]
    sp = x.shape[2:]
    dims = len(sp)
    y = np.zeros([n, c] + list(out_sp), dtype=np.float64 if t in FLOATS else NUMPY_TYPES[t])
    y = y.astype(object) if t not in FLOATS else y
    idx = np.zeros([n, c] + list(out_sp), dtype=np.uint64)
    for b, ch in itertools.product(range(n), range(c)):
        for o in itertools.product(*[range(v) for v in out_sp]):
            best, best_at, found, acc, valid, padded = None, None, False, 0.0, 0, 0
            for k in itertools.product(*[range(w) for w in window]):
                pos = [o[i] * strides[i] - start[i] + k[i] * dil[i] for i in range(dims)]
                inside = all(0 <= pos[i] < sp[i] for i in range(dims))
                padded += all(-start[i] <= pos[i] < sp[i] + end[i] for i in range(dims))
                if not inside:
                    continue
                valid += 1
                v = x[(b, ch) + tuple(pos)]
                if kind == "MAX":
                    v = float(v) if t in FLOATS else int(v)
                    if not found or beats(v, best):
                        best, best_at = v, pos
                    found = True
                elif kind == "AVERAGE":
                    acc += float(v)
                else:
                    acc += abs(float(v)) ** p
            at = (b, ch) + o
            if kind == "MAX":
                y[at] = best if found else lowest(t)
                flat = 0
                if found:
                    for d, v in zip(x.shape, (b, ch) + tuple(best_at)):
                        flat = flat * d + v
                idx[at] = flat
            elif kind == "AVERAGE":
                div = padded if include else valid
                y[at] = acc / div if div else 0.0
            else:
                y[at] = acc ** (1.0 / p)
    return y, idx


def stored(t, a):
    return np.asarray(a, dtype=np.float64).astype(NUMPY_TYPES[t]).astype(np.float64)


def data(rng, t, shape, ties=False):
    if t in FLOATS:
        if ties:
            return stored(t, rng.integers(-3, 4, size=shape))
        return stored(t, rng.normal(0.0, 2.0, size=shape))
    info = np.iinfo(NUMPY_TYPES[t])
    lo, hi = max(int(info.min), -(2**62)), min(int(info.max), 2**62)
    if ties:
        lo, hi = max(lo, -3), min(hi, 4)
    a = rng.integers(lo, hi, size=shape, dtype=np.int64 if lo < 0 else np.uint64)
    return a.astype(NUMPY_TYPES[t])


OPS = {
    "MAX_POOLING": ("MAX", False, False), "MAX_POOLING1": ("MAX", True, False),
    "MAX_POOLING2": ("MAX", True, True), "AVERAGE_POOLING": ("AVERAGE", False, False),
    "AVERAGE_POOLING1": ("AVERAGE", False, True), "LP_POOLING": ("LP", False, False),
    "LP_POOLING1": ("LP", False, True),
}


def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None):
    c = {"name": "directml." + op.lower() + "." + name,
         "source": f"directml:DML_{op}_OPERATOR_DESC#" + ("text" if error else "semantics"),
         "op": "DML_OPERATOR_" + op}
    if attrs:
        c["attrs"] = attrs
    c["inputs"] = inputs
    for out in (outputs or {}).values():
        if out["type"] in FLOATS and "nan" in out["data"]:
            # An exact result, but NaN payloads survive only raw moves
            # (reference/precision.md): any NaN (an NVIDIA GPU's half conversions give 0x7fff).
            out["tolerance"] = {"ulp": 0}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def make(rng, name, op, t, shape, window, strides=None, start=None, end=None, dil=None,
         include=False, p=2, indices=None, ceil=False, x=None, in_strides=None,
         out_strides=None, note=None):
    kind, has_idx, has_dil = OPS[op]
    dims = len(shape) - 2
    strides = strides or [1] * dims
    start = start or [0] * dims
    end = end or [0] * dims
    dil = dil or [1] * dims
    out_sp = [out_size(shape[2 + i], window[i], strides[i], start[i], end[i], dil[i], ceil)
              for i in range(dims)]
    if x is None:
        x = data(rng, t, shape, ties=kind == "MAX" and t in FLOATS and rng.random() < 0.3)
    y, idx = pool(kind, x, t, window, strides, start, end, dil, out_sp, include, p)
    attrs = {"WindowSize": window, "Strides": strides, "StartPadding": start,
             "EndPadding": end}
    if has_dil:
        attrs["Dilations"] = dil
    if kind == "AVERAGE":
        attrs["IncludePadding"] = include
    if kind == "LP":
        attrs["P"] = p
    xin = tensor(t, x)
    if in_strides:
        xin["strides"] = in_strides
    inputs = {"InputTensor": xin}
    out_shape = [shape[0], shape[1]] + out_sp
    if out_strides:
        inputs["OutputTensor"] = {"type": t, "shape": out_shape, "strides": out_strides}
    outputs = {"OutputTensor": tensor(t, y)}
    if indices:
        outputs["OutputIndicesTensor"] = tensor(indices, idx.astype(NUMPY_TYPES[indices]))
    if not has_dil:
        assert dil == [1] * dims
    plain = t in FLOATS and not (np.isnan(x).any() or (x == 0).any())
    if plain:
        ONNX_CHECKS.append((x, kind, dict(kernel_shape=window, strides=strides,
                                          pads=start + end, dilations=dil,
                                          count_include_pad=int(include), p=p,
                                          ceil_mode=int(ceil)), y, idx if indices else None))
    return case(name, op, inputs, outputs, attrs=attrs, note=note)


def semantic_cases(rng):
    got = []
    # Every operator, both float types, 2 and 3 spatial axes, padding and strides.
    for op, (kind, has_idx, has_dil) in OPS.items():
        for t in FLOATS:
            got.append(make(rng, f"{t.lower()}-2d-3x3-s2-pad", op, t, [2, 3, 7, 8], [3, 3],
                            [2, 2], [1, 1], [1, 0], dil=None,
                            include=kind == "AVERAGE" and t == "FLOAT32",
                            indices="UINT32" if has_idx else None))
            got.append(make(rng, f"{t.lower()}-3d", op, t, [1, 2, 4, 5, 6], [2, 3, 2],
                            [2, 1, 2], [0, 1, 1], [1, 1, 0],
                            include=kind == "AVERAGE" and t == "FLOAT16",
                            indices="UINT64" if has_idx else None))
            got.append(make(rng, f"{t.lower()}-2d-window1", op, t, [1, 4, 3, 5], [1, 1],
                            note="a window of one element"))
            got.append(make(rng, f"{t.lower()}-2d-asymmetric", op, t, [1, 2, 9, 11], [2, 4],
                            [3, 2], [0, 2], [2, 3], include=True if kind == "AVERAGE" else False))
        if has_dil:
            for t in FLOATS:
                got.append(make(rng, f"{t.lower()}-dilations", op, t, [1, 3, 9, 10], [3, 2],
                                [1, 2], [1, 2], [2, 1], dil=[2, 3],
                                include=kind == "AVERAGE",
                                indices="UINT32" if has_idx else None))
                got.append(make(rng, f"{t.lower()}-3d-dilations", op, t, [1, 1, 6, 7, 7],
                                [2, 2, 2], [1, 2, 1], [0, 1, 0], [1, 0, 2], dil=[3, 2, 2],
                                indices="UINT64" if has_idx else None))
        # Long rows: several blocks of outputs along W, partial last block.
        got.append(make(rng, "float32-long-rows", op, "FLOAT32", [1, 2, 3, 45], [2, 3],
                        [1, 2], [1, 1], [0, 1], include=kind == "AVERAGE",
                        indices="UINT32" if has_idx else None))
        # ceil_mode: one more output where the division is inexact.
        got.append(make(rng, "float32-ceil-mode", op, "FLOAT32", [1, 2, 6, 7], [3, 2], [2, 2],
                        [0, 1], [0, 0], ceil=True, include=kind == "AVERAGE",
                        indices="UINT32" if has_idx else None,
                        note="OutputTensor one larger than the rule where the division is "
                             "inexact (ONNX ceil_mode, as ONNX Runtime's DirectML provider "
                             "passes it): the last window runs past the padded input"))
        # Global pooling: the window is the whole spatial size.
        got.append(make(rng, "float32-global", op, "FLOAT32", [2, 5, 7, 7], [7, 7],
                        note="GlobalAveragePool / GlobalMaxPool / GlobalLpPool as ONNX "
                             "Runtime's DirectML provider lowers them"))
        got.append(make(rng, "float16-global-3d", op, "FLOAT16", [1, 3, 3, 4, 5], [3, 4, 5]))
        # Strided input (NHWC through strides) and strided output.
        shape = [2, 3, 4, 5]
        got.append(make(rng, "float32-nhwc-input", op, "FLOAT32", shape, [2, 2], [2, 1],
                        [0, 1], [1, 0], in_strides=[60, 1, 15, 3],
                        note="InputTensor read through NHWC strides {60, 1, 15, 3}"))
        got.append(make(rng, "float16-strided-output", op, "FLOAT16", [1, 2, 4, 4], [2, 2],
                        [2, 2], out_strides=[8, 1, 4, 2],
                        note="OutputTensor written through strides {8, 1, 4, 2}"))
    # Max pooling: every type, ties, indices of both types.
    for t in FLOATS + INTS:
        for op in ("MAX_POOLING", "MAX_POOLING2"):
            got.append(make(rng, f"{t.lower()}-types", op, t, [1, 2, 5, 6], [2, 3], [1, 2],
                            [1, 1], [0, 1], indices="UINT64" if op == "MAX_POOLING2" else None))
        got.append(make(rng, f"{t.lower()}-ties", "MAX_POOLING1", t, [1, 2, 4, 4], [2, 2],
                        [1, 1], indices="UINT32",
                        x=data(rng, t, [1, 2, 4, 4], ties=True),
                        note="equal maxima: the first in the window's row-major order"))
    # NaN, -0 and windows in the padding only.
    x = np.array([[[[np.nan, 1.0, -0.0, 0.0], [np.nan, np.nan, 0.0, -0.0],
                    [-1.0, np.nan, -0.0, -0.0], [np.inf, -np.inf, 2.0, np.nan]]]])
    for t in FLOATS:
        got.append(make(rng, f"{t.lower()}-nan-and-zeros", "MAX_POOLING2", t, [1, 1, 4, 4],
                        [2, 2], [2, 2], indices="UINT32", x=stored(t, x),
                        note="NaN only when the window holds nothing else; +0 over -0"))
        got.append(make(rng, f"{t.lower()}-nan-only", "MAX_POOLING1", t, [1, 1, 2, 2], [2, 2],
                        indices="UINT64", x=stored(t, np.full([1, 1, 2, 2], np.nan)),
                        note="a window of NaN only: NaN, the first one's index"))
    for op in OPS:
        kind = OPS[op][0]
        for t in (["FLOAT32", "INT8"] if kind == "MAX" else ["FLOAT32"]):
            got.append(make(rng, f"{t.lower()}-window-in-padding", op, t, [1, 1, 3, 3], [2, 2],
                            [2, 2], [3, 0], [0, 0], include=kind == "AVERAGE",
                            indices="UINT32" if OPS[op][1] else None,
                            note="the first row of windows lies in the start padding: max "
                                 "the lowest value (index 0), average and LP 0"))
    # Average: both IncludePadding values with padding on every side.
    for inc in (False, True):
        for op in ("AVERAGE_POOLING", "AVERAGE_POOLING1"):
            got.append(make(rng, f"include-padding-{int(inc)}", op, "FLOAT32", [1, 2, 5, 5],
                            [3, 3], [1, 1], [2, 1], [1, 2], include=inc))
    # LP: P 1, 2, 3, 4.
    for p in (1, 2, 3, 4):
        for op in ("LP_POOLING", "LP_POOLING1"):
            for t in FLOATS:
                got.append(make(rng, f"{t.lower()}-p{p}", op, t, [1, 2, 5, 6], [2, 3], [1, 2],
                                [1, 0], [0, 1], p=p, dil=[2, 1] if op == "LP_POOLING1" else None))
    # A window larger than the padded input: one output on that axis (DirectMLX's MaxPooling
    # sizes it so), over the input's elements; the average counts the padded positions only.
    rng_past = np.random.default_rng(20261203)
    for op in OPS:
        kind = OPS[op][0]
        dil = [1, 2] if OPS[op][2] else None
        got.append(make(rng_past, "float32-window-past-padded", op, "FLOAT32", [1, 2, 3, 3],
                        [4, 4], [1, 2], [1, 0], [0, 1], dil=dil, include=kind == "AVERAGE",
                        indices="UINT32" if OPS[op][1] else None,
                        note="the window (4 x 4, or 4 x 7 dilated) is larger than the padded "
                             "input (4 x 4): one output per axis"))
    # The ResNet stem's 3x3/2 max pooling, padding 1 (small spatial size).
    got.append(make(rng, "float32-resnet-stem", "MAX_POOLING", "FLOAT32", [1, 8, 16, 16],
                    [3, 3], [2, 2], [1, 1], [1, 1]))
    return got


def error_cases():
    got = []
    x4 = tensor("FLOAT32", np.zeros([1, 2, 4, 4]))
    base = {"WindowSize": [2, 2], "Strides": [1, 1], "StartPadding": [0, 0],
            "EndPadding": [0, 0]}

    def bad(op, label, note, inputs=None, **attrs):
        a = dict(base)
        if OPS[op][2]:
            a["Dilations"] = [1, 1]
        a.update(attrs)
        got.append(case("invalid-" + label, op, inputs or {"InputTensor": x4}, attrs=a,
                        error="invalid_argument", note=note))

    for op in OPS:
        kind = OPS[op][0]
        bad(op, "rank-3", "InputTensor.DimensionCount 4 or 5",
            {"InputTensor": tensor("FLOAT32", np.zeros([2, 4, 4]))}, WindowSize=[2],
            Strides=[1], StartPadding=[0], EndPadding=[0], **({"Dilations": [1]} if OPS[op][2]
                                                              else {}))
        bad(op, "stride-0", "Strides at least 1", Strides=[1, 0])
        bad(op, "window-0", "WindowSize at least 1", WindowSize=[0, 2])
        bad(op, "dimension-count", "DimensionCount is the input's rank - 2", DimensionCount=3,
            WindowSize=[2, 2, 1], Strides=[1, 1, 1], StartPadding=[0, 0, 0],
            EndPadding=[0, 0, 0], **({"Dilations": [1, 1, 1]} if OPS[op][2] else {}))
        bad(op, "output-sizes", "the output-size rule (or ceil_mode's one more)",
            {"InputTensor": x4, "OutputTensor": {"type": "FLOAT32", "shape": [1, 2, 3, 2]}})
        bad(op, "output-batch", "the output keeps N and C",
            {"InputTensor": x4, "OutputTensor": {"type": "FLOAT32", "shape": [1, 1, 3, 3]}})
        bad(op, "output-type", "the output has the input's DataType",
            {"InputTensor": x4, "OutputTensor": {"type": "FLOAT16", "shape": [1, 2, 3, 3]}})
        if kind != "MAX":
            bad(op, "int32", "FLOAT32 and FLOAT16 only",
                {"InputTensor": tensor("INT32", np.zeros([1, 2, 4, 4]))})
        else:
            bad(op, "float64", "FLOAT32, FLOAT16 and the 8 integer types",
                {"InputTensor": tensor("FLOAT64", np.zeros([1, 2, 4, 4]))})
        if OPS[op][2]:
            bad(op, "dilation-0", "Dilations at least 1", Dilations=[0, 1])
        if kind == "LP":
            bad(op, "p-0", "P at least 1", P=0)
        if OPS[op][1]:
            bad(op, "indices-int64", "OutputIndicesTensor UINT32 or UINT64",
                {"InputTensor": x4,
                 "OutputIndicesTensor": {"type": "INT64", "shape": [1, 2, 3, 3]}})
            bad(op, "indices-sizes", "OutputIndicesTensor has the output's Sizes",
                {"InputTensor": x4,
                 "OutputIndicesTensor": {"type": "UINT32", "shape": [1, 2, 3, 2]}})
    return got


def check_onnx():
    """The plain cases against onnx.reference's operators (float32 there; a loose bound)."""
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
    n = 0
    for x, kind, a, y, idx in ONNX_CHECKS:
        # dmlcl's own rules where ONNX has none: empty windows (-inf), LpPool's ceil_mode.
        if (kind == "MAX" and np.isinf(np.asarray(y, dtype=np.float64)).any()) or \
                (kind == "LP" and a["ceil_mode"]):
            continue
        op = {"MAX": "MaxPool", "AVERAGE": "AveragePool", "LP": "LpPool"}[kind]
        attrs = {k: v for k, v in a.items() if k in ("kernel_shape", "strides", "pads",
                                                     "dilations", "ceil_mode")}
        if kind == "AVERAGE":
            attrs["count_include_pad"] = a["count_include_pad"]
        if kind == "LP":
            attrs["p"] = a["p"]
            attrs.pop("ceil_mode")
        outs = ["y", "i"] if idx is not None else ["y"]
        node = helper.make_node(op, ["x"], outs, **attrs)
        g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                         None)],
                              [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None)
                               for o in outs])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 22)])
        try:
            got = ReferenceEvaluator(m).run(None, {"x": x.astype(np.float32)})
        except Exception as e:  # noqa: BLE001
            print("onnx.reference cannot run", op, attrs, ":", e)
            continue
        if got[0].shape != y.shape or not np.allclose(got[0], y, rtol=1e-4, atol=1e-5):
            print("MISMATCH", op, attrs, x.shape)
            print(got[0].ravel()[:8], np.asarray(y).ravel()[:8])
        if idx is not None and not np.array_equal(got[1].astype(np.uint64), idx):
            print("INDEX MISMATCH", op, attrs)
        n += 1
    print(f"{n} cases checked against onnx.reference")


def main():
    rng = np.random.default_rng(20261128)
    cases = semantic_cases(rng) + error_cases()
    names = [c["name"] for c in cases]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup
    write(os.path.join(CASES, "directml", "pool.json"), cases)
    print(f"{len(cases)} cases")
    if "--check" in sys.argv:
        check_onnx()


if __name__ == "__main__":
    main()
