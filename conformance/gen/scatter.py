# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/scatter_elements.json and scatter_nd.json: DirectML's
SCATTER_ELEMENTS (and its older name SCATTER) and SCATTER_ND. The pages' examples (with their
errata and as printed), generated cases over every data type and index type of the pages'
tables (feature level 4.1's), and one case per validation rule.

Expected values, computed here by numpy loops over the updates in row-major order, never by
dmlcl, with dmlcl's rules where the pages are silent (docs/operators.md):
- an index of a signed type below 0 counts from the end of its axis; then every index is
  clamped into its axis (no write leaves the output);
- where two updates name one output element, the later one in the updates' row-major order
  stays (the pages: "no guarantee of which last write wins").
Every case whose indices are all inside their axes is also checked against onnx.reference
(ScatterElements and ScatterND, reduction "none": the same loops, the same winner).

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/scatter.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, jvalue, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases", "directml")
DATA_TYPES = ["FLOAT64", "FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64",
              "UINT32", "UINT16", "UINT8"]
INDEX_TYPES = ["INT32", "UINT32", "INT64", "UINT64"]
SE, SND = "SCATTER_ELEMENTS", "SCATTER_ND"
PAGE = {SE: "DML_SCATTER_OPERATOR_DESC", SND: "DML_SCATTER_ND_OPERATOR_DESC"}


def tensor(t, a, strides=None):
    a = np.asarray(a, dtype=NUMPY_TYPES[t])
    d = {"type": t, "shape": list(a.shape) or [1],
         "data": [jvalue(t, v) for v in a.reshape(-1).tolist()]}
    if strides is not None:
        d["strides"] = list(strides)
    return d


def desc(t, shape, strides=None):
    d = {"type": t, "shape": list(shape)}
    if strides is not None:
        d["strides"] = list(strides)
    return d


def case(name, op, attrs, inputs, out=None, error=None, note=None, source=None, erratum=None,
         op_name=None):
    c = {"name": "directml.{}.{}".format(op.lower(), name),
         "source": source or "directml:{}#{}".format(PAGE[op], "text" if error else "semantics"),
         "op": "DML_OPERATOR_" + (op_name or op), "attrs": attrs, "inputs": inputs,
         "expected": {"error": error} if error else {"outputs": {"OutputTensor": out}}}
    if erratum:
        c["erratum"] = erratum
    if note:
        c["note"] = note
    return c


def fix(v, n, signed):
    """dmlcl's index rule: negative values of a signed type from the end, then clamped."""
    v = int(v)
    if signed and v < 0:
        v += n
    return min(max(v, 0), n - 1)


def in_range(v, n, signed):
    v = int(v)
    return (-n <= v < n) if signed else (0 <= v < n)


def signed(t):
    return t.startswith("INT")


def scatter_elements(x, idx, upd, axis, it):
    out = x.copy()
    for c in np.ndindex(*idx.shape):
        o = list(c)
        o[axis] = fix(idx[c], x.shape[axis], signed(it))
        out[tuple(o)] = upd[c]
    return out


def scatter_nd(x, idx, upd, it):
    """On the meaningful shapes: x of rank r, idx of rank q, upd of rank q - 1 + r - m."""
    out = x.copy()
    m = idx.shape[-1]
    for t in np.ndindex(*idx.shape[:-1]):
        o = tuple(fix(idx[t + (k,)], x.shape[k], signed(it)) for k in range(m))
        out[o] = upd[t]
    return out


def onnx_check(op, x, idx, upd, axis, it, want):
    """The same result from onnx.reference where every index is inside its axis."""
    if op == SE:
        ok = all(in_range(v, x.shape[axis], signed(it)) for v in idx.reshape(-1))
    else:
        ok = all(in_range(idx[t + (k,)], x.shape[k], signed(it))
                 for t in np.ndindex(*idx.shape[:-1]) for k in range(idx.shape[-1]))
    if not ok:
        return False
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator

    kw = {"axis": axis} if op == SE else {}
    node = helper.make_node("ScatterElements" if op == SE else "ScatterND", ["x", "i", "u"],
                            ["y"], **kw)
    proto = helper.np_dtype_to_tensor_dtype
    g = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("x", proto(x.dtype), list(x.shape)),
         helper.make_tensor_value_info("i", TensorProto.INT64, list(idx.shape)),
         helper.make_tensor_value_info("u", proto(upd.dtype), list(upd.shape))],
        [helper.make_tensor_value_info("y", proto(x.dtype), list(x.shape))])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    i64 = np.array([int(v) for v in idx.reshape(-1)], dtype=np.int64).reshape(idx.shape)
    got = ReferenceEvaluator(model).run(None, {"x": x, "i": i64, "u": upd})[0]
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (op, x, idx, upd)
    return True


def values(rng, t, shape, offset=0):
    """Distinct-looking values of type t (floats with -0, infinities and NaN among them)."""
    n = int(np.prod(shape))
    if t.startswith("FLOAT"):
        v = (rng.permutation(n).astype(np.float64) + offset) * 0.5 - n / 4
        if n >= 6:
            v[rng.integers(n)] = -0.0
            v[rng.integers(n)] = np.inf
            v[rng.integers(n)] = -np.inf
        return v.astype(NUMPY_TYPES[t]).reshape(shape)
    info = np.iinfo(NUMPY_TYPES[t])
    span = min(int(info.max) - int(info.min), 1 << 62)
    v = [int(info.min) + int(rng.integers(span)) for _ in range(n)]
    if n >= 2:  # the type's extremes, past 2^53 for the 64-bit ones
        v[0], v[-1] = int(info.min), int(info.max)
    return np.array(v, dtype=NUMPY_TYPES[t]).reshape(shape)


def indices(rng, t, shape, n, bad=0.0):
    """Index values for an axis of n: valid, negative (signed types), and a share `bad` out
    of range (just past either end, the type's extremes, 2^32 + k for 64-bit types)."""
    info = np.iinfo(NUMPY_TYPES[t])
    out = []
    for _ in range(int(np.prod(shape))):
        v = int(rng.integers(n))
        if signed(t) and rng.random() < 0.3:
            v -= n
        if rng.random() < bad:
            choices = [n, n + 7, int(info.max)]
            if signed(t):
                choices += [-n - 1, int(info.min)]
            if info.bits == 64:
                choices += [(1 << 32) + int(rng.integers(n))]
            v = choices[int(rng.integers(len(choices)))]
        out.append(v)
    return np.array(out, dtype=NUMPY_TYPES[t]).reshape(shape)


# ---- SCATTER_ELEMENTS -------------------------------------------------------------------------


def elements_case(name, x_t, i_t, x, idx, upd, axis, note, strides=None, out_strides=None,
                  op_name=None):
    want = scatter_elements(x, idx, upd, axis, i_t)
    checked = onnx_check(SE, x, idx, upd, axis, i_t, want)
    s = strides or {}
    inputs = {"InputTensor": tensor(x_t, x, s.get("InputTensor")),
              "IndicesTensor": tensor(i_t, idx, s.get("IndicesTensor")),
              "UpdatesTensor": tensor(x_t, upd, s.get("UpdatesTensor"))}
    if out_strides:
        inputs["OutputTensor"] = desc(x_t, x.shape, out_strides)
    note = note + ("; onnx.reference agrees" if checked else "")
    return case(name, SE, {"Axis": axis}, inputs, tensor(x_t, want), note=note, op_name=op_name)


def elements_cases(rng):
    cs = []
    ex1 = (np.array([0, 1, 2, 3, 4], np.float32), np.array([3, 1, 3, 0], np.uint32),
           np.array([5, 6, 7, 8], np.float32))
    c = elements_case("example-1", "FLOAT32", "UINT32", *ex1, 0,
                      "index 3 twice: the page's output keeps the later update (7)")
    c["source"] = "directml:DML_SCATTER_OPERATOR_DESC#example-1"
    cs.append(c)
    c = elements_case("example-1-scatter", "FLOAT32", "UINT32", *ex1, 0,
                      "example 1 under the older name DML_OPERATOR_SCATTER (the same value, 94)",
                      op_name="SCATTER")
    c["source"] = "directml:DML_SCATTER_OPERATOR_DESC#remarks"
    cs.append(c)
    x2 = np.zeros((3, 3), np.float32)
    i2 = np.array([[1, 0, 2], [0, 2, 1]], np.uint32)
    u2 = np.array([[10, 11, 12], [20, 21, 22]], np.float32)
    c = elements_case("example-2", "FLOAT32", "UINT32", x2, i2, u2, 0,
                      "output[indices[y, x], x] = updates[y, x]")
    c["source"] = "directml:DML_SCATTER_OPERATOR_DESC#example-2"
    c["erratum"] = ("the page prints InputTensor Sizes {2,3} above 3 x 3 data and an OutputTensor "
                    "of Sizes {3,3}; OutputTensor.Sizes must be InputTensor's and the data has "
                    "three rows: the input is {3,3}")
    cs.append(c)
    cs.append(case("example-2-as-printed", SE, {"Axis": 0},
                   {"InputTensor": tensor("FLOAT32", np.zeros((2, 3))),
                    "IndicesTensor": tensor("UINT32", i2), "UpdatesTensor": tensor("FLOAT32", u2),
                    "OutputTensor": desc("FLOAT32", [3, 3])},
                   error="invalid_argument",
                   source="directml:DML_SCATTER_OPERATOR_DESC#example-2",
                   note="example 2 with its printed InputTensor Sizes {2,3}: OutputTensor.Sizes "
                        "{3,3} must equal InputTensor.Sizes"))
    # Every data type with an index type, shapes of 1 to 4 dimensions, any axis, some indices
    # out of range and duplicates.
    for n, x_t in enumerate(DATA_TYPES):
        for k, i_t in enumerate(INDEX_TYPES):
            if (n + k) % 2:
                continue
            rank = 1 + (n + k) % 4
            shape = [int(rng.integers(1, 5)) for _ in range(rank)]
            axis = int(rng.integers(rank))
            ishape = list(shape)
            ishape[axis] = int(rng.integers(1, 6))
            x = values(rng, x_t, shape)
            upd = values(rng, x_t, ishape, offset=1000)
            idx = indices(rng, i_t, ishape, shape[axis], bad=0.2)
            cs.append(elements_case("{}-{}".format(x_t.lower(), i_t.lower()), x_t, i_t, x, idx,
                                    upd, axis, "{}-D along axis {}".format(rank, axis)))
    # Eight dimensions, and an axis of one element (every index clamps or wraps to 0).
    x = values(rng, "INT16", [2, 1, 2, 1, 2, 1, 2, 3])
    idx = indices(rng, "INT64", [2, 1, 2, 1, 2, 1, 2, 2], 3, bad=0.2)
    cs.append(elements_case("rank-8", "INT16", "INT64", x, idx,
                            values(rng, "INT16", idx.shape, 50), 7, "8-D along the last axis"))
    x = values(rng, "FLOAT32", [3, 1, 4])
    idx = np.array([[[0, -1, 5, 0]], [[-2, 0, 0, 1]], [[0, 0, 0, 0]]], np.int32)
    cs.append(elements_case("axis-of-one", "FLOAT32", "INT32", x, idx,
                            values(rng, "FLOAT32", [3, 1, 4], 9), 1,
                            "Sizes[Axis] 1: every index names element 0 (-1 from the end, 5 and "
                            "-2 clamped)"))
    # The rules chosen where the page is silent.
    x = np.arange(10, 15, dtype=np.int64)
    idx = np.array([-1, -5, -6, 5, 1 << 40, -(1 << 63)], np.int64)
    cs.append(elements_case("negative-and-clamped", "INT64", "INT64", x, idx,
                            np.array([100, 101, 102, 103, 104, 105], np.int64), 0,
                            "-1 is element 4, -5 element 0; -6 and -2^63 clamp to 0, 5 and "
                            "2^40 to 4; element 0 keeps 105, element 4 the later 104"))
    idx = np.array([4, (1 << 32) + 1, (1 << 64) - 1], np.uint64)
    cs.append(elements_case("uint64-indices-clamped", "UINT8", "UINT64",
                            np.arange(5, dtype=np.uint8), idx, np.array([7, 8, 9], np.uint8), 0,
                            "2^32 + 1 clamps to 4 (not read as 1 in 32 bits), 2^64 - 1 too: the "
                            "last (9) stays"))
    x = np.zeros((2, 4), np.float32)
    idx = np.array([[1, 1, 1, 0], [1, 0, 0, 0], [0, 1, 1, 1]], np.uint32)
    cs.append(elements_case("duplicates-last-wins", "FLOAT32", "UINT32", x, idx,
                            np.arange(1, 13, dtype=np.float32).reshape(3, 4), 0,
                            "three updates a column into two rows: each element keeps its last "
                            "update in row-major order (dmlcl's rule; the page gives no "
                            "guarantee)"))
    # Layouts: a transposed input, broadcast indices and updates, a padded output.
    x = values(rng, "FLOAT32", [3, 4])
    idx = np.array([[2, 0, 1, 2]], np.int32)
    upd = np.array([[1.5, 2.5, 3.5, 4.5]], np.float32)
    cs.append(elements_case("strided", "FLOAT32", "INT32", x, idx, upd, 0,
                            "InputTensor read transposed (Strides {1,3}), OutputTensor padded "
                            "(Strides {6,1})", strides={"InputTensor": [1, 3]},
                            out_strides=[6, 1]))
    x = values(rng, "UINT16", [2, 3])
    idx = np.broadcast_to(np.array([[1], [0]], np.uint32), (2, 3))
    upd = np.broadcast_to(np.array([7, 8, 9], np.uint16), (2, 3))
    cs.append(elements_case("broadcast-inputs", "UINT16", "UINT32", x, idx, upd, 1,
                            "IndicesTensor Strides {1,0}, UpdatesTensor Strides {0,1}: each row "
                            "writes 7, 8, 9 to one column, the last (9) stays",
                            strides={"IndicesTensor": [1, 0], "UpdatesTensor": [0, 1]}))
    cs += elements_rules()
    return cs


def elements_rules():
    f, u = "FLOAT32", "UINT32"
    x = tensor(f, np.zeros((3, 3)))
    i = tensor(u, np.zeros((2, 3)))
    v = tensor(f, np.zeros((2, 3)))

    def bad(name, note, attrs=None, **kw):
        inputs = {"InputTensor": x, "IndicesTensor": i, "UpdatesTensor": v}
        inputs.update(kw)
        return case(name, SE, attrs or {"Axis": 0}, inputs, error="invalid_argument", note=note)

    return [
        bad("axis-out-of-range", "Axis (2) must be less than DimensionCount (2)", {"Axis": 2}),
        bad("indices-sizes-off-axis", "IndicesTensor.Sizes must equal InputTensor.Sizes but "
            "along Axis", IndicesTensor=tensor(u, np.zeros((2, 2))),
            UpdatesTensor=tensor(f, np.zeros((2, 2)))),
        bad("updates-sizes", "UpdatesTensor.Sizes must be IndicesTensor.Sizes",
            UpdatesTensor=tensor(f, np.zeros((3, 3)))),
        bad("output-sizes", "OutputTensor.Sizes must be InputTensor.Sizes",
            OutputTensor=desc(f, [2, 3])),
        bad("indices-rank", "every tensor of InputTensor's DimensionCount",
            IndicesTensor=tensor(u, np.zeros((1, 2, 3))),
            UpdatesTensor=tensor(f, np.zeros((1, 2, 3)))),
        bad("updates-rank", "UpdatesTensor of InputTensor's DimensionCount",
            UpdatesTensor=tensor(f, np.zeros((1, 2, 3)))),
        bad("output-rank", "OutputTensor of InputTensor's DimensionCount",
            OutputTensor=desc(f, [1, 3, 3])),
        bad("updates-type", "UpdatesTensor.DataType must be InputTensor's",
            UpdatesTensor=tensor("FLOAT16", np.zeros((2, 3)))),
        bad("output-type", "OutputTensor.DataType must be InputTensor's",
            OutputTensor=desc("INT32", [3, 3])),
        bad("indices-float", "IndicesTensor.DataType must be INT32, UINT32, INT64 or UINT64",
            IndicesTensor=tensor(f, np.zeros((2, 3)))),
        bad("indices-int16", "IndicesTensor.DataType INT16 is not in the table",
            IndicesTensor=tensor("INT16", np.zeros((2, 3)))),
        bad("dimension-count-9", "DimensionCount 9: the tables give 1 to 8",
            InputTensor=tensor(f, np.zeros([1] * 8 + [3])),
            IndicesTensor=tensor(u, np.zeros([1] * 8 + [3])),
            UpdatesTensor=tensor(f, np.zeros([1] * 8 + [3])), attrs={"Axis": 8}),
    ]


# ---- SCATTER_ND -------------------------------------------------------------------------------


def nd_case(name, x_t, i_t, x, idx, upd, rank, note, strides=None, out_strides=None):
    """x, idx, upd on their meaningful shapes, each padded with leading 1s to rank."""
    want = scatter_nd(x, idx, upd, i_t)
    checked = onnx_check(SND, x, idx, upd, 0, i_t, want)

    def pad(a):
        return a.reshape([1] * (rank - a.ndim) + list(a.shape))

    s = strides or {}
    inputs = {"InputTensor": tensor(x_t, pad(x), s.get("InputTensor")),
              "IndicesTensor": tensor(i_t, pad(idx), s.get("IndicesTensor")),
              "UpdatesTensor": tensor(x_t, pad(upd), s.get("UpdatesTensor"))}
    if out_strides:
        inputs["OutputTensor"] = desc(x_t, pad(x).shape, out_strides)
    note = note + ("; onnx.reference agrees" if checked else "")
    return case(name, SND, {"InputDimensionCount": x.ndim, "IndicesDimensionCount": idx.ndim},
                inputs, tensor(x_t, pad(want)), note=note)


def nd_cases(rng):
    cs = []
    x = np.arange(1, 9, dtype=np.float32)
    idx = np.array([[4], [3], [1], [7]], np.uint32)
    upd = np.array([9, 10, 11, 12], np.float32)
    c = nd_case("example", "FLOAT32", "UINT32", x, idx, upd, 2,
                "output[indices[x, 0]] = updates[x], every tensor at DimensionCount 2")
    c["source"] = "directml:DML_SCATTER_ND_OPERATOR_DESC#example"
    c["erratum"] = ("the page prints IndicesTensor's DataType as FLOAT32 (an index type is "
                    "needed: UINT32) and Sizes {8}, {4,1} and {4}, while its constraints say every "
                    "tensor has one DimensionCount: here all are 2-D, InputDimensionCount 1, "
                    "IndicesDimensionCount 2")
    cs.append(c)
    cs.append(case("example-as-printed", SND, {"InputDimensionCount": 1,
                                               "IndicesDimensionCount": 2},
                   {"InputTensor": tensor("FLOAT32", x), "IndicesTensor": tensor("UINT32", idx),
                    "UpdatesTensor": tensor("FLOAT32", upd)},
                   error="invalid_argument", source="directml:DML_SCATTER_ND_OPERATOR_DESC#example",
                   note="the example's printed DimensionCounts (1, 2, 1): the tensors must share "
                        "one"))
    cs.append(case("example-float-indices", SND, {"InputDimensionCount": 1,
                                                  "IndicesDimensionCount": 2},
                   {"InputTensor": tensor("FLOAT32", x.reshape(1, 8)),
                    "IndicesTensor": tensor("FLOAT32", idx),
                    "UpdatesTensor": tensor("FLOAT32", upd.reshape(1, 4))},
                   error="invalid_argument", source="directml:DML_SCATTER_ND_OPERATOR_DESC#example",
                   note="the example's printed FLOAT32 IndicesTensor: not an index type"))
    # The page's shape example, with data.
    x = values(rng, "INT32", [3, 4, 5, 6, 7])
    idx = np.array([[[2, 3, 4], [0, 1, -1]]], np.int64)
    cs.append(nd_case("shape-example", "INT32", "INT64", x, idx,
                      values(rng, "INT32", [1, 2, 6, 7], 5), 5,
                      "the page's Sizes: input {3,4,5,6,7}, indices {1,1,1,2,3} (a 1 x 2 array of "
                      "3-tuples), updates {1,1,2,6,7}"))
    for n, x_t in enumerate(DATA_TYPES):
        for k, i_t in enumerate(INDEX_TYPES):
            if (n + k) % 2 == 0:
                continue
            r = 1 + (n + k) % 3
            q = 1 + (n * 3 + k) % 3
            m = 1 + (n + 2 * k) % r
            shape = [int(rng.integers(1, 5)) for _ in range(r)]
            tuples = [int(rng.integers(1, 4)) for _ in range(q - 1)]
            x = values(rng, x_t, shape)
            cols = [indices(rng, i_t, tuples + [1], shape[j], bad=0.15) for j in range(m)]
            idx = np.concatenate(cols, axis=-1)
            ushape = tuples + shape[m:]
            upd = values(rng, x_t, ushape or [1], offset=1000).reshape(ushape)
            rank = max(r, q, len(ushape), 1) + (n + k) % 2
            cs.append(nd_case("{}-{}".format(x_t.lower(), i_t.lower()), x_t, i_t, x, idx, upd,
                              rank, "input {}, {} tuples of {}".format(shape, tuples or [1], m)))
    # Eight dimensions; full tuples (an element each); duplicates; clamping.
    x = values(rng, "UINT32", [2, 1, 2, 1, 2, 1, 2, 3])
    idx = np.array([[1, 0, 1, 0, 0, 0, 1], [0, 0, 0, 0, 1, 0, -1]], np.int64)
    cs.append(nd_case("rank-8", "UINT32", "INT64", x, idx, values(rng, "UINT32", [2, 3], 7), 8,
                      "8-D input, two 7-tuples, slices of 3"))
    x = np.zeros((2, 3), np.int8)
    idx = np.array([[0, 0], [1, 2], [0, 0], [1, -1], [5, -9]], np.int32)
    cs.append(nd_case("full-tuples-duplicates", "INT8", "INT32", x, idx,
                      np.array([1, 2, 3, 4, 5], np.int8), 2,
                      "one element a 2-tuple: (0,0) twice keeps the later 3, (1,-1) is (1,2) "
                      "and keeps 4, (5,-9) clamps to (1,0)"))
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    idx = np.array([[2], [-1], [0], [7]], np.int64)
    cs.append(nd_case("rows-negative-clamped", "FLOAT64", "INT64", x, idx,
                      np.arange(100, 116, dtype=np.float64).reshape(4, 4), 2,
                      "-1 is row 2, 7 clamps to row 2: row 2 keeps the last slice (112..115)"))
    x = values(rng, "FLOAT16", [3, 4])
    idx = np.broadcast_to(np.array([[1]], np.uint32), (3, 1))
    upd = np.broadcast_to(np.array([1.0, 2.0, 3.0, 4.0], np.float16), (3, 4))
    cs.append(nd_case("strided", "FLOAT16", "UINT32", x, idx, upd, 2,
                      "IndicesTensor Strides {0,1}, UpdatesTensor Strides {0,1} (broadcast), "
                      "OutputTensor transposed (Strides {1,3})",
                      strides={"IndicesTensor": [0, 1], "UpdatesTensor": [0, 1]},
                      out_strides=[1, 3]))
    cs += nd_rules()
    return cs


def nd_rules():
    f, u = "FLOAT32", "UINT32"
    x = tensor(f, np.zeros((1, 8)))
    i = tensor(u, np.zeros((4, 1)))
    v = tensor(f, np.zeros((1, 4)))
    ok = {"InputDimensionCount": 1, "IndicesDimensionCount": 2}

    def bad(name, note, attrs=None, **kw):
        inputs = {"InputTensor": x, "IndicesTensor": i, "UpdatesTensor": v}
        inputs.update(kw)
        a = dict(ok)
        a.update(attrs or {})
        return case(name, SND, a, inputs, error="invalid_argument", note=note)

    return [
        bad("input-dimension-count-0", "InputDimensionCount must be in [1, DimensionCount]",
            {"InputDimensionCount": 0}),
        bad("input-dimension-count-too-large", "InputDimensionCount 3 past DimensionCount 2",
            {"InputDimensionCount": 3}),
        bad("indices-dimension-count-0", "IndicesDimensionCount must be in [1, DimensionCount]",
            {"IndicesDimensionCount": 0}),
        bad("indices-dimension-count-too-large", "IndicesDimensionCount 3 past DimensionCount 2",
            {"IndicesDimensionCount": 3}),
        bad("input-leading-not-1", "InputTensor.Sizes before the meaningful dimensions must be 1",
            InputTensor=tensor(f, np.zeros((2, 8))), OutputTensor=desc(f, [2, 8])),
        bad("indices-leading-not-1", "IndicesTensor.Sizes before the meaningful dimensions must "
            "be 1", {"IndicesDimensionCount": 1}),
        bad("tuple-too-long", "the tuple length (IndicesTensor's last size, 2) must be at most "
            "InputDimensionCount (1)", IndicesTensor=tensor(u, np.zeros((4, 2)))),
        bad("updates-sizes", "UpdatesTensor.Sizes must be the tuples' sizes then the input's "
            "after them", UpdatesTensor=tensor(f, np.zeros((1, 5)))),
        bad("updates-too-small", "the updates' sizes {2,5,3,4} in 3 dimensions",
            {"InputDimensionCount": 3, "IndicesDimensionCount": 3},
            InputTensor=tensor(f, np.zeros((2, 3, 4))), OutputTensor=desc(f, [2, 3, 4]),
            IndicesTensor=tensor(u, np.zeros((2, 5, 1))),
            UpdatesTensor=tensor(f, np.zeros((5, 3, 4)))),
        bad("output-sizes", "OutputTensor.Sizes must be InputTensor.Sizes",
            OutputTensor=desc(f, [1, 9])),
        bad("updates-type", "UpdatesTensor.DataType must be InputTensor's",
            UpdatesTensor=tensor("INT32", np.zeros((1, 4)))),
        bad("output-type", "OutputTensor.DataType must be InputTensor's",
            OutputTensor=desc("FLOAT16", [1, 8])),
        bad("indices-int8", "IndicesTensor.DataType INT8 is not in the table",
            IndicesTensor=tensor("INT8", np.zeros((4, 1)))),
        bad("updates-rank", "every tensor of InputTensor's DimensionCount",
            UpdatesTensor=tensor(f, np.zeros((4,)))),
    ]


def main():
    rng = np.random.default_rng(20261201)
    write(os.path.join(CASES, "scatter_elements.json"), elements_cases(rng))
    write(os.path.join(CASES, "scatter_nd.json"), nd_cases(rng))


if __name__ == "__main__":
    main()
