# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/misc.json: the selection family's operators.
NONZERO_COORDINATES: the page's example, every input type, -0.0 and NaN, N from the effective
rank to the DimensionCount, 4 and 5 dimensions as the page's table has them, ONNX Runtime's form
(the input at its own rank, a {1} count, {M, N} coordinates with strides {2, 2M}), an all-zero
input, and one case per rule. REVERSE_SUBSEQUENCES: the page's two examples, every data and
length type, lengths past the axis (clamped), INT64 lengths (ONNX Runtime's form), strided
tensors, one to eight dimensions, every rule. MAX_UNPOOLING: ONNX's MaxUnpool example, the
indices of a real 2x2 max pooling (numpy), UINT32 and UINT64 indices, a strided output, indices
past the output (nothing written: dmlcl's rule, docs/operators.md), a repeated index (the
input's later element wins), every rule. RANDOM_GENERATOR: Random123's known-answer states,
counters that carry across words and wrap at 2^128, outputs that are not a multiple of four,
strided outputs, with and without the output state, every rule.

Expected values: numpy (np.argwhere, np.flip on slices, the max pooling's argmax) and a Philox-4x32-10
in plain Python written from Salmon et al.'s paper, which this script checks against Random123's
published known-answer vectors (kat_vectors) before writing anything; nothing from dmlcl.

Run from the repository root with the venv's python (scripts/venv):
    .venv/bin/python conformance/gen/misc.py
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts", "diff"))
from common import NUMPY_TYPES, tensor, write  # noqa: E402

CASES = os.path.join(HERE, "..", "cases")
TEN = ["FLOAT32", "FLOAT16", "INT64", "INT32", "INT16", "INT8", "UINT64", "UINT32", "UINT16",
       "UINT8"]
RNG = np.random.default_rng(0x6D697363)


def case(op, name, inputs, attrs, outputs=None, error=None, source=None, note=None):
    c = {"name": f"directml.{op.lower()}.{name}",
         "source": source or f"directml:DML_{op}_OPERATOR_DESC#"
         + ("text" if error else "semantics"),
         "op": f"DML_OPERATOR_{op}", "inputs": inputs, "attrs": attrs}
    c["expected"] = {"error": error} if error else {"outputs": outputs}
    if note:
        c["note"] = note
    return c


def desc(t, shape, strides=None):
    d = {"type": t, "shape": list(shape)}
    if strides is not None:
        d["strides"] = list(strides)
    return d


def with_strides(t, a, strides):
    d = tensor(t, a)
    d["strides"] = list(strides)
    return d


def random_data(t, shape, zeros=0.0):
    n = int(np.prod(shape))
    if t.startswith("FLOAT"):
        a = RNG.uniform(-8, 8, n).astype(NUMPY_TYPES[t])
    else:
        info = np.iinfo(NUMPY_TYPES[t])
        a = RNG.integers(max(info.min, -1000), min(info.max, 1000), n, endpoint=True).astype(
            NUMPY_TYPES[t])
    a[RNG.random(n) < zeros] = 0
    return a.reshape(shape)


# ---- NONZERO_COORDINATES -------------------------------------------------------------------

def nonzero_case(name, t, x, n_cols, crank=None, count_shape=None, coord_strides=None,
                 source=None, note=None):
    x = np.asarray(x, NUMPY_TYPES[t])
    rank = x.ndim
    crank = crank or rank
    rows = np.argwhere(x != 0)[:, rank - n_cols:].astype(np.uint32)  # row-major order
    m = x.size
    lead = [1] * (crank - 2)
    inputs = {"InputTensor": tensor(t, x),
              "OutputCoordinatesTensor": desc("UINT32", lead + [m, n_cols], coord_strides)}
    count_shape = count_shape or [1] * rank
    outputs = {"OutputCountTensor": tensor("UINT32", np.full(count_shape, len(rows), np.uint32)),
               "OutputCoordinatesTensor": tensor("UINT32", rows.reshape(lead + [len(rows),
                                                                               n_cols]))}
    return case("NONZERO_COORDINATES", name, inputs, {}, outputs, source=source, note=note)


def nonzero_cases():
    out = []
    x = np.array([[1.0, 0.0, 0.0, 2.0], [-0.0, 3.5, 0.0, -5.2]], np.float32).reshape(1, 1, 2, 4)
    out.append(nonzero_case("example", "FLOAT32", x, 3,
                            source="directml:DML_NONZERO_COORDINATES_OPERATOR_DESC#example",
                            note="the page's example; its rows past the count (printed as 0) "
                            "are undefined and not compared"))
    for t in TEN:
        shape = [1, 2, 3, 5] if t != "UINT8" else [2, 1, 3, 1, 4]
        x = random_data(t, shape, zeros=0.5)
        out.append(nonzero_case(f"type-{t.lower()}", t, x, len(shape)))
    x = np.array([0.0, -0.0, np.nan, 1e-40, -0.0, 0.0], np.float32).reshape(1, 1, 2, 3)
    out.append(nonzero_case("float32-signed-zeros-nan-subnormal", "FLOAT32", x, 2,
                            note="-0.0 is zero; NaN and a subnormal are not"))
    x = np.array([0, 0x8000, 0x7e00, 1, 0, 0x8001], np.uint16).view(np.float16).reshape(1, 1, 1, 6)
    out.append(nonzero_case("float16-signed-zeros-nan-subnormal", "FLOAT16", x, 1))
    x = random_data("INT32", [1, 1, 12, 5], zeros=0.6)
    for n in (2, 3, 4):
        out.append(nonzero_case(f"columns-{n}", "INT32", x, n,
                                note="N from the effective rank (2) to the DimensionCount"))
    x = random_data("INT8", [1, 1, 1, 1], zeros=0.0)
    out.append(nonzero_case("effective-rank-0", "INT8", x, 0 + 1,
                            note="a {1,1,1,1} input: effective rank 0; N 1 gives its last "
                            "coordinate"))
    for rank in (1, 2, 3, 6, 8):
        shape = [int(v) for v in RNG.integers(1, 4, rank)]
        shape[-1] = 3
        x = random_data("INT64", shape, zeros=0.4)
        m = x.size
        out.append(nonzero_case(f"onnx-runtime-form-rank-{rank}", "INT64", x, rank, crank=2,
                                count_shape=[1], coord_strides=[2, 2 * m],
                                note="ONNX Runtime's DirectML provider: the input at its rank, "
                                "count {1}, coordinates {M, N} with strides {2, 2M} "
                                "(DmlOperatorNonZero.cpp)"))
    x = np.zeros([1, 1, 3, 3], np.float32)
    out.append(nonzero_case("all-zero", "FLOAT32", x, 2, note="count 0: no row is defined"))
    x = random_data("UINT16", [1, 1, 40, 60], zeros=0.9)
    out.append(nonzero_case("sparse-2400", "UINT16", x, 2))
    x = random_data("FLOAT32", [1, 1, 1, 5000], zeros=0.5)
    out.append(nonzero_case("row-5000", "FLOAT32", x, 1,
                            note="past one work-item's share: the items' order kept"))

    def ref(name, inputs, note):
        return case("NONZERO_COORDINATES", name, inputs, {}, error="invalid_argument", note=note)

    def base(x_t="FLOAT32", n_t="UINT32", c_t="UINT32", nshape=(1, 1, 1, 1), cshape=(1, 1, 8, 3)):
        return {"InputTensor": tensor(x_t, np.ones([1, 1, 2, 4], NUMPY_TYPES[x_t])),
                "OutputCountTensor": desc(n_t, nshape),
                "OutputCoordinatesTensor": desc(c_t, cshape)}

    out += [
        ref("refused-input-float64", base(x_t="FLOAT64"), "InputTensor FLOAT64: not in the table"),
        ref("refused-count-int32", base(n_t="INT32"), "OutputCountTensor must be UINT32"),
        ref("refused-coordinates-uint64", base(c_t="UINT64"),
            "OutputCoordinatesTensor must be UINT32"),
        ref("refused-coordinates-rank-1", base(cshape=(8,)), "coordinates need {M, N}"),
        ref("refused-count-not-scalar", base(nshape=(1, 1, 1, 2)), "the count is a scalar"),
        ref("refused-coordinates-leading", base(cshape=(1, 2, 8, 3)), "leading sizes 1"),
        ref("refused-coordinates-m", base(cshape=(1, 1, 7, 3)), "M is the input's elements"),
        ref("refused-coordinates-n-small", base(cshape=(1, 1, 8, 1)),
            "N below the effective rank (2)"),
        ref("refused-coordinates-n-large", base(cshape=(1, 1, 8, 5)),
            "N above the DimensionCount (4)"),
    ]
    return out


# ---- REVERSE_SUBSEQUENCES ------------------------------------------------------------------

def reverse(x, lens, axis):
    out = np.array(x)
    moved = np.moveaxis(out, axis, -1)
    src = np.moveaxis(np.asarray(x), axis, -1)
    lens = np.moveaxis(np.asarray(lens), axis, -1)[..., 0]
    for idx in np.ndindex(moved.shape[:-1]):
        n = int(min(max(int(lens[idx]), 0), moved.shape[-1]))
        moved[idx][:n] = src[idx][:n][::-1]
    return out


def reverse_case(name, t, x, lt, lens, axis, in_strides=None, out_strides=None, source=None,
                 note=None):
    x = np.asarray(x, NUMPY_TYPES[t])
    lens = np.asarray(lens, NUMPY_TYPES[lt])
    want = reverse(x, lens, axis)
    xi = tensor(t, x) if in_strides is None else with_strides(t, x, in_strides)
    o = tensor(t, want) if out_strides is None else with_strides(t, want, out_strides)
    return case("REVERSE_SUBSEQUENCES", name,
                {"InputTensor": xi, "SequenceLengthsTensor": tensor(lt, lens)},
                {"Axis": axis}, {"OutputTensor": o}, source=source, note=note)


def reverse_cases():
    out = []
    x = np.arange(1, 13, dtype=np.float32).reshape(1, 1, 3, 4)
    src = "directml:DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC#example-{}"
    out.append(reverse_case("example-1", "FLOAT32", x, "UINT32",
                            np.array([2, 4, 3]).reshape(1, 1, 3, 1), 3, source=src.format(1)))
    out.append(reverse_case("example-2", "FLOAT32", x, "UINT32",
                            np.array([2, 3, 1, 0]).reshape(1, 1, 1, 4), 2, source=src.format(2),
                            note="lengths 1 and 0 change nothing"))
    for i, t in enumerate(TEN):
        lt = ["UINT32", "UINT64", "INT32", "INT64"][i % 4]
        shape = [2, 3, 4, 5]
        axis = i % 4
        x = random_data(t, shape)
        lshape = list(shape)
        lshape[axis] = 1
        lens = RNG.integers(0, shape[axis] + 3, lshape)
        out.append(reverse_case(f"type-{t.lower()}-{lt.lower()}", t, x, lt, lens, axis,
                                note="lengths past the axis clamped"))
    x = random_data("FLOAT16", [4, 2, 1, 5])
    out.append(reverse_case("onnx-runtime-form-int64", "FLOAT16", x, "INT64",
                            np.array([[4, 1, 3, 2, 0], [2, 4, 1, 1, 3]]).reshape(1, 2, 1, 5), 0,
                            note="ONNX Runtime's DirectML provider: ONNX's INT64 lengths, the "
                            "time axis 0 (DmlOperatorReverseSequence.cpp)"))
    x = random_data("INT32", [3, 4])
    out.append(reverse_case("negative-int32-lengths", "INT32", x, "INT32",
                            np.array([-1, 2, -7]).reshape(3, 1), 1,
                            note="a negative signed length reverses nothing (dmlcl's rule)"))
    x = random_data("UINT64", [2, 3, 4])
    out.append(reverse_case("uint64-lengths-past-2^32", "UINT64", x, "UINT64",
                            np.array([2 ** 32 + 1, 2, 3, 2 ** 40, 0, 1, 4, 2 ** 63]).reshape(
                                2, 1, 4), 1, note="64-bit lengths clamped, not truncated"))
    x = random_data("INT8", [3, 4])
    out.append(reverse_case("strided", "INT8", x, "UINT32", np.array([[3, 4, 1, 2]]), 0,
                            in_strides=[1, 3], out_strides=[5, 1],
                            note="a transposed input, a padded output"))
    for rank in (1, 5, 8):
        shape = [2] * rank
        axis = rank - 1 if rank > 1 else 0
        x = random_data("UINT8", shape)
        lshape = list(shape)
        lshape[axis] = 1
        out.append(reverse_case(f"rank-{rank}", "UINT8", x, "UINT32",
                                RNG.integers(0, 3, lshape), axis))

    def ref(name, inputs, axis, note):
        return case("REVERSE_SUBSEQUENCES", name, inputs, {"Axis": axis}, error="invalid_argument",
                    note=note)

    def base(x_t="FLOAT32", l_t="UINT32", o_t="FLOAT32", lshape=(1, 1, 3, 1), oshape=(1, 1, 3, 4)):
        return {"InputTensor": tensor(x_t, np.ones([1, 1, 3, 4], NUMPY_TYPES[x_t])),
                "SequenceLengthsTensor": tensor(l_t, np.ones(lshape, NUMPY_TYPES[l_t])),
                "OutputTensor": desc(o_t, oshape)}

    out += [
        ref("refused-input-float64", base(x_t="FLOAT64", o_t="FLOAT64"), 3, "FLOAT64 data"),
        ref("refused-lengths-float32", base(l_t="FLOAT32"), 3, "lengths are integers"),
        ref("refused-output-type", base(o_t="FLOAT16"), 3, "OutputTensor the input's type"),
        ref("refused-lengths-rank", base(lshape=(1, 3, 1)), 3, "one DimensionCount"),
        ref("refused-axis", base(), 4, "Axis below the DimensionCount"),
        ref("refused-lengths-sizes", base(lshape=(1, 1, 3, 4)), 3, "1 along Axis"),
        ref("refused-output-sizes", base(oshape=(1, 1, 4, 3)), 3, "the input's Sizes"),
    ]
    return out


# ---- MAX_UNPOOLING -------------------------------------------------------------------------

def unpool(x, idx, out_shape):
    out = np.zeros(int(np.prod(out_shape)), x.dtype)
    for v, i in zip(x.reshape(-1), idx.reshape(-1)):
        if int(i) < out.size:
            out[int(i)] = v
    return out.reshape(out_shape)


def max_pool_2x2(a):
    """ONNX MaxPool (2x2, stride 2) values and flat indices over the whole tensor."""
    n, c, h, w = a.shape
    vals = np.zeros((n, c, h // 2, w // 2), a.dtype)
    idx = np.zeros((n, c, h // 2, w // 2), np.int64)
    for b, ch, i, j in np.ndindex(vals.shape):
        win = a[b, ch, 2 * i:2 * i + 2, 2 * j:2 * j + 2]
        k = int(np.argmax(win))
        y, x = 2 * i + k // 2, 2 * j + k % 2
        vals[b, ch, i, j] = a[b, ch, y, x]
        idx[b, ch, i, j] = ((b * c + ch) * h + y) * w + x
    return vals, idx


def unpool_case(name, t, x, it, idx, out_shape, out_strides=None, source=None, note=None):
    x = np.asarray(x, NUMPY_TYPES[t])
    idx = np.asarray(idx, NUMPY_TYPES[it])
    want = unpool(x, idx, out_shape)
    o = tensor(t, want) if out_strides is None else with_strides(t, want, out_strides)
    return case("MAX_UNPOOLING", name, {"InputTensor": tensor(t, x), "IndicesTensor":
                                        tensor(it, idx)}, {}, {"OutputTensor": o},
                source=source, note=note)


def unpool_cases():
    out = [unpool_case("onnx-example", "FLOAT32", np.array([5, 6, 7, 8]).reshape(1, 1, 2, 2),
                       "UINT64", np.array([5, 7, 13, 15]).reshape(1, 1, 2, 2), [1, 1, 4, 4],
                       source="onnx:MaxUnpool-11#example",
                       note="ONNX's MaxUnpool example (export_without_output_shape)")]
    for i, t in enumerate(TEN):
        a = random_data(t, [2, 3, 4, 6])
        vals, idx = max_pool_2x2(a)
        it = "UINT64" if i % 2 else "UINT32"
        out.append(unpool_case(f"pooled-{t.lower()}-{it.lower()}", t, vals, it, idx,
                               [2, 3, 4, 6], note="the indices of a 2x2 max pooling (numpy)"))
    a = random_data("FLOAT32", [1, 2, 4, 4])
    vals, idx = max_pool_2x2(a)
    out.append(unpool_case("strided-output", "FLOAT32", vals, "UINT32", idx, [1, 2, 4, 4],
                           out_strides=[40, 20, 5, 1],
                           note="the index counts logical elements; the output padded"))
    out.append(unpool_case("output-shape-5x5", "FLOAT32", np.array([5, 6, 7, 8]).reshape(
        1, 1, 2, 2), "UINT64", np.array([6, 8, 16, 18]).reshape(1, 1, 2, 2), [1, 1, 5, 5],
        note="ONNX's export_with_output_shape layout: a larger output"))
    out.append(unpool_case("index-past-output", "INT16", np.array([1, 2, 3, 4]).reshape(
        1, 1, 2, 2), "UINT64", np.array([0, 16, 2 ** 32 + 1, 2 ** 64 - 1], np.uint64).reshape(
        1, 1, 2, 2), [1, 1, 4, 4], note="indices at or past the output's 16 elements write "
        "nothing (dmlcl's rule; the page states none), 2^32 + 1 is not 1"))
    out.append(unpool_case("repeated-index", "UINT8", np.array([1, 2, 3, 4]).reshape(
        1, 1, 2, 2), "UINT32", np.array([3, 3, 0, 3]).reshape(1, 1, 2, 2), [1, 1, 2, 3],
        note="index 3 three times: the input's last such element (4) wins (dmlcl's rule)"))

    def ref(name, inputs, note):
        return case("MAX_UNPOOLING", name, inputs, {}, error="invalid_argument", note=note)

    def base(x_t="FLOAT32", i_t="UINT32", o_t="FLOAT32", shape=(1, 1, 2, 2), ishape=None,
             oshape=(1, 1, 4, 4)):
        ishape = ishape or shape
        return {"InputTensor": tensor(x_t, np.ones(shape, NUMPY_TYPES[x_t])),
                "IndicesTensor": tensor(i_t, np.zeros(ishape, NUMPY_TYPES[i_t])),
                "OutputTensor": desc(o_t, oshape)}

    out += [
        ref("refused-input-float64", base(x_t="FLOAT64", o_t="FLOAT64"), "FLOAT64 data"),
        ref("refused-indices-int64", base(i_t="INT64"), "indices UINT32 or UINT64"),
        ref("refused-output-type", base(o_t="FLOAT16"), "the input's type"),
        ref("refused-rank-3", base(shape=(1, 2, 2), oshape=(1, 4, 4)), "4 dimensions"),
        ref("refused-indices-rank", base(ishape=(1, 2, 2)), "the input's DimensionCount"),
        ref("refused-output-rank", base(oshape=(1, 4, 4)), "the input's DimensionCount"),
        ref("refused-indices-sizes", base(ishape=(1, 1, 2, 3)), "the input's Sizes"),
    ]
    return out


# ---- RANDOM_GENERATOR ----------------------------------------------------------------------

M32 = 0xFFFFFFFF


def philox(ctr, key):
    """Philox-4x32-10 (Salmon et al., SC11): ctr 4 words, key 2 words."""
    x = list(ctr)
    k = list(key)
    for r in range(10):
        p0 = 0xD2511F53 * x[0]
        p1 = 0xCD9E8D57 * x[2]
        x = [((p1 >> 32) ^ x[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ x[3] ^ k[1]) & M32,
             p0 & M32]
        k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
    return x


KAT = [  # Random123's kat_vectors, "philox4x32 10": counter, key, answer
    ([0, 0, 0, 0], [0, 0], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]),
    ([M32] * 4, [M32] * 2, [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]),
    ([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0],
     [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]),
]


def words(v):
    return [(v >> (32 * i)) & M32 for i in range(4)]


def number(w):
    return sum(int(x) << (32 * i) for i, x in enumerate(w))


def generate(state, n):
    c = number(state[:4])
    out = []
    for b in range((n + 3) // 4):
        out += philox(words((c + b) % 2 ** 128), state[4:6])
    nxt = words((c + (n + 3) // 4) % 2 ** 128) + list(state[4:6])
    return np.array(out[:n], np.uint32), np.array(nxt, np.uint32)


def random_case(name, state, shape, with_state=True, out_strides=None, note=None, source=None):
    vals, nxt = generate(state, int(np.prod(shape)))
    vals = vals.reshape(shape)
    o = tensor("UINT32", vals) if out_strides is None else with_strides("UINT32", vals,
                                                                         out_strides)
    outputs = {"OutputTensor": o}
    if with_state:
        outputs["OutputStateTensor"] = tensor("UINT32", nxt.reshape(1, 1, 1, 6))
    return case("RANDOM_GENERATOR", name,
                {"InputStateTensor": tensor("UINT32", np.array(state, np.uint32).reshape(
                    1, 1, 1, 6))}, {"Type": "DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10"}, outputs,
                source=source, note=note)


def random_cases():
    for ctr, key, want in KAT:
        assert philox(ctr, key) == want, "Philox disagrees with Random123's known answers"
    out = []
    for i, (ctr, key, _) in enumerate(KAT):
        out.append(random_case(f"random123-kat-{i + 1}", ctr + key, [1, 1, 2, 2],
                               source="random123:kat_vectors#philox4x32-10",
                               note="Random123's known answer: the first block is its output; "
                               "the counter is words 0-3, word 0 least significant"))
    s = [int(v) for v in RNG.integers(0, 2 ** 32, 6)]
    out.append(random_case("shape-3x3x20x7", s, [3, 3, 20, 7], note="the page's {3,3,20,7219} "
                           "with a smaller last dimension: 1260 elements, 315 blocks"))
    out.append(random_case("carry-words-0-1", [M32, M32, 5, 0] + s[4:], [1, 2, 3, 5]))
    out.append(random_case("wrap-2^128", [M32 - 1] * 4 + s[4:], [1, 1, 3, 7],
                           note="the counter wraps past 2^128 - 1 to 0"))
    out.append(random_case("not-a-multiple-of-4", s, [1, 1, 1, 7]))
    out.append(random_case("one-element", s, [1, 1, 1, 1]))
    out.append(random_case("no-output-state", s, [2, 1, 3, 3], with_state=False))
    out.append(random_case("strided-output", s, [1, 2, 3, 4], out_strides=[30, 1, 10, 2],
                           note="element order is logical row-major, whatever the layout"))

    def ref(name, inputs, attrs, note):
        return case("RANDOM_GENERATOR", name, inputs, attrs, error="invalid_argument", note=note)

    def base(s_t="UINT32", sshape=(1, 1, 1, 6), o_t="UINT32", oshape=(1, 1, 2, 2), n_t="UINT32",
             nshape=(1, 1, 1, 6)):
        return {"InputStateTensor": tensor(s_t, np.zeros(sshape, NUMPY_TYPES[s_t])),
                "OutputTensor": desc(o_t, oshape), "OutputStateTensor": desc(n_t, nshape)}

    out += [
        ref("refused-type", base(), {"Type": 1}, "PHILOX_4X32_10 is the one generator"),
        ref("refused-state-int32", base(s_t="INT32"), {}, "the state is UINT32"),
        ref("refused-state-rank", base(sshape=(1, 1, 1, 1, 6)), {}, "4 dimensions"),
        ref("refused-state-sizes", base(sshape=(1, 1, 2, 3)), {}, "Sizes {1,1,1,6}"),
        ref("refused-output-float32", base(o_t="FLOAT32"), {}, "the output is UINT32"),
        ref("refused-output-rank", base(oshape=(2, 2, 2)), {}, "4 dimensions"),
        ref("refused-output-state-sizes", base(nshape=(1, 1, 1, 7)), {}, "Sizes {1,1,1,6}"),
    ]
    return out


def main():
    cases = nonzero_cases() + reverse_cases() + unpool_cases() + random_cases()
    write(os.path.join(CASES, "directml", "misc.json"), cases)
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
