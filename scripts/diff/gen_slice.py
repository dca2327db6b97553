#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential cases for dmlcl's slices, with upstream expectations.

  gen_slice.py [--seed S] [--count N] [--onnx-count K] [--out DIR]
      Random openvino.StridedSlice-1 cases (all five masks, negative and huge
      strides, begin/end far outside, integer inputs of every width, masks of
      every length, 0-D and empty data) with the output of OpenVINO's CPU
      plugin, and random onnx.Slice-13 cases with onnx.reference's, written
      in the dmlcl-case/1 format to DIR/strided_slice.json and DIR/slice.json.
  gen_slice.py --documented [--root DIR]
      Rewrites conformance/cases/{openvino/strided_slice,onnx/slice,
      directml/slice}.json: the documents' examples, settled against the
      upstream implementations, with errata, and every validation error.

Selections are computed on an int32 iota of the data's shape (the element
numbers), so the plugin's internal precision (it runs i64 as i32, f64 as
f32) cannot touch the values; the case's typed data is then indexed by them.
Every case also runs on OpenVINO's reference evaluator (constant folding of
the same graph). Where the two disagree, the one that agrees with the
specification (model_strided_slice, never the expectation itself) gives the
expectation and the case says so: the CPU plugin mis-slices a shrunk axis next
to a new axis; the reference evaluator ignores begin_mask on a shrunk axis.
Where neither agrees, the case is dropped and counted.

Known OpenVINO limits the random cases steer around (the documented cases
cover them by hand): masks of different lengths (OpenVINO refuses them, the
specification allows them: the cases give dmlcl lists of random lengths and
OpenVINO the same lists cut or padded to M), colliding mask bits (OpenVINO's
shape inference and its evaluators disagree), a stride of -2^31 or of a
magnitude above 2^31 (the CPU plugin crashes), and a begin_mask on a shrunk
axis with an out-of-range begin (OpenVINO checks the ignored value).
"""
import argparse
import json
import os
import random
import re
import sys

import numpy as np

from common import TYPE_NAMES

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1

MASKS = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


# ---- Case-format encoding ---------------------------------------------------------------

def value_json(v):
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (np.integer, int)):
        v = int(v)
        return v if abs(v) <= 2**53 else str(v)
    f = float(v)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    if f == 0 and np.signbit(f):
        return "-0.0"
    return f


def tensor_json(a, type_name=None):
    a = np.asarray(a)
    return {"type": type_name or TYPE_NAMES[a.dtype], "shape": list(a.shape),
            "data": [value_json(v) for v in a.ravel()]}


def distinct_data(rng, shape, dtype):
    """Pairwise-distinct values of dtype (booleans: 0/1), with -0.0 and inf in floats."""
    n = int(np.prod(shape)) if shape else 1
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (np.arange(n) % 2).astype(np.bool_).reshape(shape)
    if dtype.kind == "f":
        v = (np.arange(n, dtype=np.float64) - n // 2) * 0.25
        rng.shuffle(v)
        a = v.astype(dtype)
        if n > 3:
            a[rng.randrange(n)] = -0.0 if 0.0 in v else a[0]
            a[rng.randrange(n)] = np.inf
        return a.reshape(shape)
    info = np.iinfo(dtype)
    lo, hi = max(info.min, -(2**62)), min(info.max, 2**62)
    picks = set()
    while len(picks) < n:
        picks.add(rng.randint(lo, hi) if rng.random() < 0.5 or hi - lo < 4 * n
                  else rng.randint(-n, n) if info.min < 0 else rng.randint(0, 2 * n))
    v = list(picks)
    rng.shuffle(v)
    return np.array(v, dtype=dtype).reshape(shape)


# ---- OpenVINO --------------------------------------------------------------------------

_ov = None


def ov_modules():
    global _ov
    if _ov is None:
        import openvino as ov
        import openvino.opset1 as op1
        _ov = (ov, op1, ov.Core())
    return _ov


def ov_const(values, dtype):
    ov, op1, _ = ov_modules()
    v = np.asarray(values, dtype=dtype)
    if v.size == 0:
        return ov.op.Constant(ov.Type(v.dtype), ov.Shape(list(v.shape)), [])
    return op1.constant(v)


def ov_strided_slice(shape, begin, end, stride, masks, idx_dtype=np.int64, fold=False):
    """The element numbers StridedSlice-1 selects from an iota of shape; raises on errors."""
    ov, op1, core = ov_modules()
    iota = np.arange(int(np.prod(shape)) if shape else 1, dtype=np.int32).reshape(shape)
    data = op1.constant(iota) if fold else op1.parameter(list(shape), ov.Type.i32)
    s = ov_const(stride if stride is not None else [1] * len(begin), idx_dtype)
    node = op1.strided_slice(data, ov_const(begin, idx_dtype), ov_const(end, idx_dtype), s,
                             *[list(m) for m in masks])
    model = ov.Model([node], [] if fold else [data])
    return core.compile_model(model, "CPU")([] if fold else [iota])[0]


def ov_expected(shape, begin, end, stride, masks, idx_dtype, model):
    """('ok', selection, note), ('error', message, note) or ('skip', None, why).

    OpenVINO has two implementations: the CPU plugin and the reference evaluator (constant
    folding). Where they disagree, the one that agrees with the specification (model, a
    selection) gives the expectation; where neither does, the case is dropped and counted.
    """
    try:
        cpu = ov_strided_slice(shape, begin, end, stride, masks, idx_dtype)
    except Exception as e:  # OpenVINO's validation
        return "error", str(e).strip().splitlines()[-1][:200], "OpenVINO CPU plugin"
    if cpu.size == 0:
        return "ok", cpu, "OpenVINO CPU plugin"

    def same(a, b):
        return not isinstance(b, str) and a.shape == b.shape and np.array_equal(a, b)
    ref = ov_strided_slice(shape, begin, end, stride, masks, idx_dtype, fold=True)
    if same(cpu, ref):
        return "ok", cpu, "OpenVINO CPU plugin (agrees with its reference evaluator)"
    if same(cpu, model):
        return "ok", cpu, ("OpenVINO CPU plugin; its reference evaluator differs (it ignores "
                           "begin_mask on a shrunk axis, or reads uninitialised memory)")
    if same(ref, model):
        return "ok", ref, ("OpenVINO reference evaluator (constant folding); the CPU plugin "
                           "returned shape %s with other elements" % (list(cpu.shape),))
    return "skip", None, "the CPU plugin and the reference evaluator disagree with the text"


# ---- The specification, as a model (a cross-check, never the expectation) ------------------

class Invalid(Exception):
    pass


def model_strided_slice(shape, begin, end, stride, masks):
    """Output shape and selection per the text, OpenVINO where the text is silent."""
    m_count = len(begin)
    stride = list(stride) if stride is not None else [1] * m_count

    def bit(m, i):
        return i < len(masks[m]) and masks[m][i] == 1
    for m in masks:
        if any(v not in (0, 1) for v in m):
            raise Invalid("mask value")
    kinds = []
    for i in range(m_count):
        kinds.append("ell" if bit(4, i) else "new" if bit(2, i) else "shrink" if bit(3, i)
                     else "slice")
    if kinds.count("ell") > 1:
        raise Invalid("two ellipses")
    real = sum(k in ("shrink", "slice") for k in kinds)
    rank = len(shape)
    if real > rank:
        raise Invalid("more real entries than dims")
    index, out, j = [], [], 0
    for i, k in enumerate(kinds + ["end"]):
        if k in ("ell", "end"):
            for _ in range(rank - real if k == "ell" else rank - j):
                index.append(np.arange(shape[j]))
                out.append(shape[j])
                j += 1
        elif k == "new":
            out.append(1)
        elif k == "shrink":
            d = shape[j]
            b = 0 if bit(0, i) else begin[i]
            if d == 0 or not (bit(0, i) or -d <= b < d):
                raise Invalid("shrink index")
            index.append(b + d if b < 0 else b)
            j += 1
        else:
            d, s = shape[j], stride[i]
            if s == 0:
                raise Invalid("stride 0")
            rev = s < 0
            b = (d - 1 if rev else 0) if bit(0, i) else begin[i] + (d if begin[i] < 0 else 0)
            b = max(0, min(b, d - 1 if rev else d))
            e = (-1 if rev else d) if bit(1, i) else end[i] + (d if end[i] < 0 else 0)
            e = max(-1 if rev else 0, min(e, d))
            sel = [] if d == 0 else list(range(b, e, s))
            index.append(np.array(sel, dtype=np.int64))
            out.append(len(sel))
            j += 1
    iota = np.arange(int(np.prod(shape)) if shape else 1).reshape(shape)
    sel = iota
    for ax in reversed(range(len(index))):
        sel = np.take(sel, index[ax], axis=ax)
    return sel.reshape(out)


# ---- ONNX ------------------------------------------------------------------------------------

def onnx_expected(shape, starts, ends, axes, steps, tind):
    """onnx.reference's selection on an iota; duplicate axes are the spec's error (the reference
    evaluator lets the last one win)."""
    from onnx import TensorProto, helper
    from onnx.reference import ReferenceEvaluator
    rank = len(shape)
    if axes is not None:
        norm = [a + rank if a < 0 else a for a in axes]
        if len(set(norm)) != len(norm):
            return "error", "duplicate axes (ONNX: axes must be unique; onnxruntime rejects)"
    t = TensorProto.INT32 if tind == np.int32 else TensorProto.INT64
    names = ["data", "starts", "ends"] + (["axes"] if axes is not None else
                                          [""] if steps is not None else [])
    feeds = {"data": np.arange(int(np.prod(shape)) if shape else 1, dtype=np.int64).reshape(shape),
             "starts": np.array(starts, dtype=tind), "ends": np.array(ends, dtype=tind)}
    if axes is not None:
        feeds["axes"] = np.array(axes, dtype=tind)
    if steps is not None:
        names.append("steps")
        feeds["steps"] = np.array(steps, dtype=tind)
    inputs = [helper.make_tensor_value_info("data", TensorProto.INT64, None)]
    inputs += [helper.make_tensor_value_info(n, t, None) for n in names[1:] if n]
    node = helper.make_node("Slice", names, ["output"])
    graph = helper.make_graph([node], "g", inputs,
                              [helper.make_tensor_value_info("output", TensorProto.INT64, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    try:
        return "ok", np.asarray(ReferenceEvaluator(model).run(None, feeds)[0])
    except Exception as e:
        return "error", "%s: %s" % (type(e).__name__, e)


# ---- Random StridedSlice cases ---------------------------------------------------------------

IDX_TYPES = [np.int64, np.int64, np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint32,
             np.uint64]
DATA_TYPES = [np.float32, np.int32, np.float16, np.int64, np.float64, np.uint16, np.int16,
              np.uint8, np.int8, np.uint64, np.uint32]


def data_type_for(rng, shape):
    """A random data type wide enough for distinct values."""
    t = rng.choice(DATA_TYPES)
    if np.dtype(t).itemsize == 1 and (int(np.prod(shape)) if shape else 1) > 250:
        t = np.int32
    return t


def random_shape(rng, max_rank, max_elems=1500):
    rank = rng.choice([0] + list(range(1, max_rank + 1)) * 3)
    shape = [rng.choice([1, 1, 2, 3, 4, 5, 6, 7]) for _ in range(rank)]
    while np.prod(shape) > max_elems:
        shape[int(np.argmax(shape))] //= 2
    if rank and rng.random() < 0.06:
        shape[rng.randrange(rank)] = 0
    return shape


def random_lists(rng, shape, idx_dtype):
    """begin/end/stride and masks of M entries, without the collisions OpenVINO mishandles."""
    rank = len(shape)
    info = np.iinfo(idx_dtype)
    m = rng.randint(0 if rng.random() < 0.05 else 1, rank + 3)
    at = rng.randrange(m) if m and rng.random() < 0.3 else -1
    kinds, taken = [], 0
    for i in range(m):
        r = rng.random()
        k = "ell" if i == at else "new" if taken >= rank or r < 0.15 else \
            "shrink" if r < 0.3 else "slice"
        taken += k in ("shrink", "slice")
        kinds.append(k)
    after = sum(k in ("shrink", "slice") for k in kinds[at + 1:]) if at >= 0 else 0
    begin, end, stride, masks, j = [], [], [], [[0] * m for _ in MASKS], 0
    signed = info.min < 0

    def bound(d):
        r = rng.random()
        if r < 0.07:
            return rng.choice([info.min, info.max, info.min + 1, info.max - 1])
        if r < 0.1 and signed:
            return rng.choice([INT32_MIN, INT32_MAX, -(2**40), 2**40])
        return rng.randint(-d - 3, d + 3)
    for i, k in enumerate(kinds):
        if k == "ell":
            j = rank - after
        d = shape[j] if k in ("shrink", "slice") else 1
        b, e = bound(d), bound(d)
        s = rng.choice([1, 1, 1, 2, 3, -1, -1, -2, -3, 5, -7, 1000, -1000, INT32_MAX,
                        -INT32_MAX])
        if k == "slice" and rng.random() < 0.5 and d:
            b = rng.randint(0, d - 1)
            e = rng.randint(b + 1, d + 2) if s > 0 else rng.randint(-2, b - 1)
            if e < 0:
                e -= d
        if k == "shrink":
            b = rng.randint(-d, d - 1) if d and rng.random() < 0.95 else rng.choice([d, -d - 1])
        if k != "ell":
            masks[0][i] = int(rng.random() < 0.25)
            masks[1][i] = int(rng.random() < 0.25)
        if k == "shrink" and masks[0][i] and not -d <= b < d:
            masks[0][i] = 0  # OpenVINO checks the ignored begin
        masks[2][i] = int(k == "new")
        masks[3][i] = int(k == "shrink")
        masks[4][i] = int(k == "ell")
        if not signed:
            b, e, s = max(b, 0), max(e, 0), abs(s) or 1
        begin.append(int(np.clip(b, info.min, info.max)))
        end.append(int(np.clip(e, info.min, info.max)))
        stride.append(int(np.clip(s, info.min, info.max)))
        j += k in ("shrink", "slice")
    return begin, end, stride, masks


def break_lists(rng, shape, begin, end, stride, masks, signed=True):
    """One validation error, or None when this list cannot show the chosen one."""
    m = len(begin)
    slices = [i for i in range(m) if not any(masks[k][i] for k in (2, 3, 4))]
    choice = rng.choice(["stride0", "ellipses", "real", "mask2", "length", "shrink"])
    if choice == "stride0" and slices:
        stride[rng.choice(slices)] = 0
        return "stride 0 on a slice"
    if choice == "ellipses" and m >= 2:
        for i in rng.sample(range(m), 2):
            for k in range(5):
                masks[k][i] = int(k == 4)
        return "two ellipses"
    if choice == "real":
        extra = len(shape) + 1 - sum(not (masks[2][i] or masks[4][i]) for i in range(m))
        for _ in range(max(extra, 0)):
            begin.append(0), end.append(1), stride.append(1)
            for k in range(5):
                masks[k].append(0)
        return "more entries take dimensions than data has"
    if choice == "mask2" and m:
        masks[rng.randrange(2)][rng.randrange(m)] = 2
        return "a mask value of 2"
    if choice == "length" and m:
        end.pop()
        return "end shorter than begin"
    shrinks = [i for i in range(m) if masks[3][i] and not masks[2][i] and not masks[4][i]]
    if choice == "shrink" and shrinks:
        i = rng.choice(shrinks)
        masks[0][i] = 0
        begin[i] = rng.choice([100, -100]) if signed else 100  # every dimension is smaller
        return "a shrink index outside its dimension"
    return None


def case_masks(rng, masks):
    """The masks as a case gives them: any length (shorter: trailing zeros dropped; longer:
    junk past M, which the specification says is ignored)."""
    out = {}
    for name, vals in zip(MASKS, masks):
        vals = list(vals)
        r = rng.random()
        if r < 0.3:
            while vals and vals[-1] == 0:
                vals.pop()
        elif r < 0.5:
            vals += [rng.randint(0, 1) for _ in range(rng.randint(1, 3))]
        if vals or rng.random() < 0.5:
            out[name] = vals
    return out


def ov_case(rng, n, seed):
    shape = random_shape(rng, 6)
    idx_dtype = rng.choice(IDX_TYPES)
    begin, end, stride, masks = random_lists(rng, shape, idx_dtype)
    signed = np.iinfo(idx_dtype).min < 0
    broken = (break_lists(rng, shape, begin, end, stride, masks, signed) if rng.random() < 0.08
              else None)
    m = len(begin)
    data = distinct_data(rng, shape, data_type_for(rng, shape))
    has_stride = rng.random() < 0.85 or any(s != 1 for s in stride)
    case = {
        "name": "diff.openvino.strided_slice.%d.%d" % (seed, n),
        "source": "diff:openvino-cpu#seed-%d-case-%d" % (seed, n),
        "op": "openvino.StridedSlice-1",
        "attrs": case_masks(rng, masks),
        "inputs": {"data": tensor_json(data),
                   "begin": tensor_json(np.array(begin, dtype=idx_dtype)),
                   "end": tensor_json(np.array(end, dtype=idx_dtype))},
    }
    if has_stride:
        case["inputs"]["stride"] = tensor_json(np.array(stride, dtype=idx_dtype))
    # OpenVINO gets the same lists with masks of exactly M entries.
    ov_masks = [list(mk[:m]) + [0] * max(0, m - len(mk)) for mk in masks]
    try:
        if len(end) != m:
            raise Invalid("lengths")
        model = model_strided_slice(shape, begin, end, stride, ov_masks)
    except Invalid as e:
        model = "invalid: %s" % e
    verdict, got, note = ov_expected(shape, begin, end, stride, ov_masks, idx_dtype, model)
    if verdict == "skip":
        return None, False, note
    agree = (verdict == "error") == isinstance(model, str) and (
        verdict == "error" or (model.shape == got.shape and np.array_equal(model, got)))
    if verdict == "error":
        case["expected"] = {"error": "invalid_argument"}
        note += " rejects it: " + got
    else:
        case["expected"] = {"outputs": {"output": tensor_json(data.ravel()[got.astype(np.int64)]
                                                              .reshape(got.shape),
                                                              TYPE_NAMES[data.dtype])}}
    case["note"] = note + ("; broken on purpose: " + broken if broken else "")
    return case, agree, note


# ---- Random Slice-13 cases ---------------------------------------------------------------------

def onnx_case(rng, n, seed):
    shape = random_shape(rng, 5)
    if not shape:
        shape = [rng.randint(1, 6)]
    rank = len(shape)
    tind = rng.choice([np.int64, np.int64, np.int32])
    info = np.iinfo(tind)
    k = rng.randint(0, rank)
    axes = rng.sample(range(rank), k)
    use_axes = rng.random() < 0.7 or axes != list(range(k))
    if not use_axes:
        axes = list(range(k))
    axes_given = [a - rank if rng.random() < 0.3 else a for a in axes]
    steps = [rng.choice([1, 1, 2, 3, -1, -1, -2, -3, 7, -7, info.max, info.min, info.min + 1])
             for _ in range(k)]
    use_steps = rng.random() < 0.7 or any(s != 1 for s in steps)

    def bound():
        if rng.random() < 0.12:
            return rng.choice([info.min, info.max, INT32_MIN, INT32_MAX])
        return rng.randint(-9, 9)
    starts, ends = [bound() for _ in range(k)], [bound() for _ in range(k)]
    broken = None
    if rng.random() < 0.08 and k:
        broken = rng.choice(["step0", "dup", "axis"])
        if broken == "step0":
            steps[rng.randrange(k)] = 0
            use_steps = True
        elif broken == "dup" and rank >= 1:
            axes_given.append(axes_given[0] - rank if axes_given[0] >= 0 else axes_given[0] + rank)
            starts.append(0), ends.append(1), steps.append(1)
            use_axes = True
        else:
            axes_given[rng.randrange(k)] = rng.choice([rank, -rank - 1])
            use_axes = True
    data = distinct_data(rng, shape, data_type_for(rng, shape))
    verdict, got = onnx_expected(shape, starts, ends, axes_given if use_axes else None,
                                 steps if use_steps else None, tind)
    case = {
        "name": "diff.onnx.slice.%d.%d" % (seed, n),
        "source": "diff:onnx-reference#seed-%d-case-%d" % (seed, n),
        "op": "onnx.Slice-13",
        "inputs": {"data": tensor_json(data), "starts": tensor_json(np.array(starts, tind)),
                   "ends": tensor_json(np.array(ends, tind))},
    }
    if use_axes:
        case["inputs"]["axes"] = tensor_json(np.array(axes_given, tind))
    if use_steps:
        case["inputs"]["steps"] = tensor_json(np.array(steps, tind))
    if verdict == "error":
        case["expected"] = {"error": "invalid_argument"}
        case["note"] = "onnx.reference / ONNX rules reject it: " + got[:200]
    else:
        case["expected"] = {"outputs": {"output": tensor_json(
            data.ravel()[got.astype(np.int64)].reshape(got.shape), TYPE_NAMES[data.dtype])}}
        case["note"] = "expected from onnx.reference (numpy slicing)"
    return case


def write_suite(path, cases):
    """One case per block, each list of values on one line."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    text = json.dumps({"format": "dmlcl-case/1", "cases": cases}, indent=1)
    scalar = r'(?:"[^"\\]*"|[-+.\w]+)'
    flat = re.sub(r"\[\s*((?:%s\s*,\s*)*%s)?\s*\]" % (scalar, scalar),
                  lambda m: "[" + re.sub(r",\s*", ", ", m.group(1) or "") + "]", text)
    assert json.loads(flat) == json.loads(text)
    with open(path, "w") as f:
        f.write(flat + "\n")


def random_main(args):
    rng = random.Random(args.seed)
    ov_cases, disagree, cpu_wrong, ref_wrong, skipped = [], 0, 0, 0, 0
    for n in range(args.count):
        case, agree, note = ov_case(rng, n, args.seed)
        if case is None:
            skipped += 1
            print("case %d dropped: %s" % (n, note), file=sys.stderr)
            continue
        ov_cases.append(case)
        disagree += not agree
        cpu_wrong += note.startswith("OpenVINO reference evaluator")
        ref_wrong += "its reference evaluator differs" in note
        if not agree:
            print("model and OpenVINO disagree on %s" % case["name"], file=sys.stderr)
    onnx_cases = [onnx_case(rng, n, args.seed) for n in range(args.onnx_count)]
    write_suite(os.path.join(args.out, "strided_slice.json"), ov_cases)
    write_suite(os.path.join(args.out, "slice.json"), onnx_cases)
    print("gen_slice: seed %d: %d StridedSlice-1 cases (%d expected errors; %d where the CPU "
          "plugin is wrong and its reference evaluator is used, %d where the reference evaluator "
          "is wrong; %d dropped, both wrong; %d where the specification model disagrees), "
          "%d Slice-13 cases (%d expected errors) in %s"
          % (args.seed, len(ov_cases), sum("error" in c["expected"] for c in ov_cases),
             cpu_wrong, ref_wrong, skipped, disagree, len(onnx_cases),
             sum("error" in c["expected"] for c in onnx_cases), args.out))


# ---- The documented cases (--documented) ------------------------------------------------------

DOC_RNG = random.Random(20261121)


def norm_masks(attrs, m):
    """The masks as OpenVINO must get them: exactly M entries (the text pads and cuts)."""
    return [list(attrs.get(k, []))[:m] + [0] * max(0, m - len(attrs.get(k, []))) for k in MASKS]


def ss_case(name, source, data, begin, end, stride=None, attrs=None, idx=np.int64,
            erratum=None, note=None, error=False, hand=None, ov_check=True, list_shapes=None):
    """A StridedSlice-1 case: OpenVINO's answer, which must agree with the specification model
    (hand: a selection worked out by hand where OpenVINO cannot run the case)."""
    attrs = attrs or {}
    m = len(begin)
    masks = norm_masks(attrs, m)
    shape = list(data.shape)
    case = {"name": "openvino.strided_slice." + name, "source": source,
            "op": "openvino.StridedSlice-1"}
    if attrs:
        case["attrs"] = attrs
    case["inputs"] = {"data": tensor_json(data)}
    for key, vals in (("begin", begin), ("end", end), ("stride", stride)):
        if vals is None:
            continue
        a = np.array(vals, dtype=idx)
        if list_shapes and key in list_shapes:
            a = a.reshape(list_shapes[key])
        case["inputs"][key] = tensor_json(a)
    if error:
        if ov_check:
            shaped = [np.array(v, dtype=idx).reshape((list_shapes or {}).get(k, [len(v)]))
                      if v is not None else None
                      for k, v in (("begin", begin), ("end", end), ("stride", stride))]
            try:
                ov_strided_slice(shape, *shaped, masks, idx)
                raise SystemExit("OpenVINO accepts error case " + name)
            except SystemExit:
                raise
            except Exception as e:
                note = (note + "; " if note else "") + "OpenVINO rejects it too: " + \
                    str(e).strip().splitlines()[-1][:160]
        case["expected"] = {"error": "invalid_argument"}
    else:
        model = model_strided_slice(shape, begin, end, stride, masks)
        if hand is not None:
            sel = np.asarray(hand)
            assert sel.shape == model.shape and np.array_equal(sel, model), name
            source_note = "worked out by hand from the text"
        else:
            verdict, sel, source_note = ov_expected(shape, begin, end, stride, masks, idx, model)
            assert verdict == "ok", (name, verdict, sel, source_note)
            assert sel.shape == model.shape and np.array_equal(sel, model), name
        out = data.ravel()[sel.astype(np.int64)].reshape(sel.shape)
        case["expected"] = {"outputs": {"output": tensor_json(out, TYPE_NAMES[data.dtype])}}
        note = (note + "; " if note else "") + "expected: " + source_note
    if erratum:
        case["erratum"] = erratum
    if note:
        case["note"] = note
    return case


def data_of(shape, dtype=np.int32):
    return distinct_data(DOC_RNG, shape, dtype)


def strided_slice_documented():
    ex = "openvino:StridedSlice-1#example-%d"
    text = "openvino:StridedSlice-1#text-"
    c = []
    c.append(ss_case(
        "example-1", ex % 1, data_of([4] * 6), [0, 1, 0, 1, 3, 3], [4, 4, 4, 4, 0, 0],
        [1, 1, 2, 2, -1, -2],
        erratum="The document prints the fifth output dimension as 4 with element ids "
        "[3, 2, 1, 0]. 3:0:-1 stops before end 0 (the text: a negative stride stops when "
        "slicing_index <= end), so it takes 3, 2, 1: the output is [4, 3, 2, 2, 3, 2], as "
        "OpenVINO and numpy (x[0:4, 1:4, 0:4:2, 1:4:2, 3:0:-1, 3:0:-2]) give."))
    c.append(ss_case(
        "example-2", ex % 2, data_of([2, 2], np.float32), [1234, 2], [1234, 4321], [1, -1],
        erratum="The document prints output dims 1 and 1 (element 2 of each). By the text's "
        "clamping, dim 0: begin 1234 -> 2, end 1234 -> 2, nothing; dim 1 (reversed): begin "
        "2 -> size-1 = 1, end 4321 -> size = 2, and a negative stride from 1 never gets below "
        "2: nothing. Both dims are empty, [0, 0], as OpenVINO and numpy (x[2:3, 2:1:-1]) give."))
    c.append(ss_case("example-3", ex % 3, data_of([2, 3, 4], np.int16), [0, 0, 0], [2, 2, -1],
                     [1, 1, 1]))
    c.append(ss_case(
        "example-4", ex % 4, data_of([2, 3, 4], np.float32), [1, 1, 123], [0, 0, 2], [1, 1, -1],
        attrs={"begin_mask": [0, 1, 1], "end_mask": [1, 1, 1],
               "new_axis_mask": [0, 0, 0, 0, 0], "shrink_axis_mask": [0, 0],
               "ellipsis_mask": [0]},
        erratum="The document prints the third output dimension as 3 (ids [3, 2, 1]) and the "
        "text says end_mask sets end to 0 when reversing. A masked end on a reversed dim runs "
        "through element 0, as x[1:, :, ::-1] does: 4 elements [3, 2, 1, 0], output [1, 3, 4] "
        "(OpenVINO and numpy agree).",
        note="masks of 3, 3, 5, 2 and 1 entries, as printed: the text pads and cuts them; "
        "OpenVINO refuses masks of different lengths, so it ran them cut/padded to 3"))
    c.append(ss_case(
        "example-5", ex % 5, data_of([2, 4], np.uint8), [1234, 0, -1, 0], [1234, 2, 9876, 4],
        [132, 1, 241, 1],
        attrs={"begin_mask": [0, 0, 0, 0], "end_mask": [0, 0, 0, 0],
               "new_axis_mask": [1, 0, 1, 0], "shrink_axis_mask": [0, 0, 0, 0],
               "ellipsis_mask": [0, 0, 0, 0]}))
    c.append(ss_case(
        "example-6", ex % 6, data_of([1, 2, 4, 5, 3], np.float16), [0, 0, 0, 0, 0],
        [1, 0, 384, 640, 8], [1, 1, 1, 1, 1],
        attrs={"begin_mask": [0] * 5, "end_mask": [0] * 5, "new_axis_mask": [0] * 5,
               "shrink_axis_mask": [0, 1, 0, 0, 0], "ellipsis_mask": [0] * 5},
        note="the document's data is {1, 2, 384, 640, 8} (output {1, 384, 640, 8}); this "
        "case keeps its rank and lists on a small {1, 2, 4, 5, 3}, where the ends clamp: "
        "output {1, 4, 5, 3}"))
    zeros3 = {"begin_mask": [0, 0, 0], "end_mask": [0, 0, 0], "new_axis_mask": [0, 0, 0],
              "shrink_axis_mask": [0, 0, 0], "ellipsis_mask": [0, 1, 0]}
    c.append(ss_case(
        "example-7", ex % 7, data_of([6, 2, 1, 2, 1, 1, 1, 1, 1, 7]), [0, 0, 0], [4, 0, 5],
        [1, -1, 1], attrs=zeros3,
        erratum="The document calls the data 10-D and says the ellipsis skips 8 dims, but "
        "lists 12 input dims of 10 and 12 output dims (4, ten 10s, 5). By the text the "
        "ellipsis hides rank - (M - new axes - 1) = rank - 2 dims: for the intended 10-D "
        "data, 8, and the output is [4, 10 x 8, 5] (10 dims); the printed shapes only fit a "
        "12-D data (see example-7-as-printed-rank).",
        note="intended data: 10-D; here the small {6, 2, 1, 2, 1, 1, 1, 1, 1, 7} of that "
        "rank; the ellipsis entry's begin/end/stride (0, 0, -1) are ignored"))
    c.append(ss_case(
        "example-7-as-printed-rank", ex % 7, data_of([6, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 7]),
        [0, 0, 0], [4, 0, 5], [1, -1, 1], attrs=zeros3,
        note="the printed 12-D data (small, same rank): 10 hidden dims, 12 output dims, as "
        "the printed output port shows"))
    c.append(ss_case(
        "example-8", ex % 8, data_of([5, 2, 1, 1, 1, 1, 1, 1, 2, 7]), [2, 1, 10, 10],
        [123, 1, 10, 5], [1, -1, 1, 1],
        attrs={"begin_mask": [0, 0, 1, 1], "end_mask": [1, 1, 0, 0],
               "new_axis_mask": [0, 0, 1], "shrink_axis_mask": [0], "ellipsis_mask": [0, 1]},
        erratum="The document lists 12 input dims of 10, but its output (11 dims: 8, eight "
        "10s, 1, 5) and its comment (8 = 10 - (4 - 1 - 1)) are those of the 10-D data the "
        "text names; its begin/end/stride ports are declared with 3 elements but hold 4. With "
        "the intended 10-D data the output is as printed: here [3, 2, 1, 1, 1, 1, 1, 1, 2, 1, "
        "5] on the small {5, 2, 1, 1, 1, 1, 1, 1, 2, 7}.",
        note="masks of 4, 4, 3, 1 and 2 entries: padded with zeros (OpenVINO, which refuses "
        "different lengths, ran them padded to 4)"))

    # What the text says outside the examples, and where it is silent.
    c.append(ss_case(
        "begin-equals-end", text + "begin-equals-end", data_of([5]), [2], [2], [1],
        erratum="The text says begin == end adds one element (the dim is kept as 1); OpenVINO "
        "and numpy (x[2:2]) give an empty dim."))
    c.append(ss_case(
        "shrink-ignores-end", text + "shrink-axis", data_of([4, 3]), [2], [0], [1],
        attrs={"shrink_axis_mask": [1]},
        erratum="The text says begin must equal end on a shrunk axis; OpenVINO uses begin "
        "only and ignores end (here 0): x[2]."))
    c.append(ss_case("shrink-negative-begin", text + "shrink-axis", data_of([4, 3]), [0, -1],
                     [0, 0], [1, 0], attrs={"shrink_axis_mask": [0, 1]},
                     note="stride 0 on a shrunk axis is ignored"))
    c.append(ss_case(
        "shrink-with-begin-mask", text + "shrink-axis", data_of([4, 3]), [3], [0], [1],
        attrs={"begin_mask": [1], "shrink_axis_mask": [1]},
        note="begin_mask replaces begin by 0 on every entry, a shrunk one too: x[0]. "
        "OpenVINO's CPU plugin does this; its reference evaluator (and TensorFlow) ignore "
        "begin_mask on a shrunk axis and would take x[3]"))
    c.append(ss_case(
        "reversed-begin-below-start", text + "clamping", data_of([5]), [-10], [0], [-1],
        attrs={"end_mask": [1]},
        note="begin -10 + 5 = -5 clamps to 0 (the text, OpenVINO): one element x[0]; numpy's "
        "x[-10::-1] is empty"))
    c.append(ss_case("reversed-end-mask-step-2", text + "end-mask", data_of([5]), [4], [0], [-2],
                     attrs={"end_mask": [1]}))
    c.append(ss_case("reversed-begin-mask", text + "begin-mask", data_of([5]), [0], [1], [-1],
                     attrs={"begin_mask": [1]}, note="a masked begin on a reversed dim: size-1"))
    c.append(ss_case("int64-extremes-reversed", text + "clamping", data_of([5]), [INT64_MAX],
                     [INT64_MIN], [-1]))
    c.append(ss_case("int64-extremes-forward", text + "clamping", data_of([5]), [INT64_MIN],
                     [INT64_MAX], [1]))
    c.append(ss_case("stride-int64-max", text + "clamping", data_of([5]), [INT64_MIN],
                     [INT64_MAX], [INT64_MAX]))
    c.append(ss_case(
        "stride-int64-min", text + "clamping", data_of([5]), [INT64_MAX], [INT64_MIN],
        [INT64_MIN], hand=[4],
        note="OpenVINO's CPU plugin dies with SIGFPE here (|INT64_MIN|); by the text begin "
        "clamps to 4, end to -1, and one step leaves the dim: x[4]"))
    c.append(ss_case("stride-absent", "openvino:StridedSlice-1#input-stride", data_of([4, 5]),
                     [1, -2], [3, 5]))
    c.append(ss_case("uint64-end-above-int64-max", "openvino:StridedSlice-1#input-T_IND",
                     data_of([5]), [1], [2**64 - 3], None, idx=np.uint64,
                     note="2^64-3 is a huge positive end (clamped), not -3"))
    c.append(ss_case("int8-lists", "openvino:StridedSlice-1#input-T_IND", data_of([5]), [-3],
                     [-128], [-1], idx=np.int8))
    c.append(ss_case("int16-lists", "openvino:StridedSlice-1#input-T_IND", data_of([7, 3]),
                     [6, -1], [0, -4], [-3, -1], idx=np.int16))
    c.append(ss_case("uint8-lists", "openvino:StridedSlice-1#input-T_IND", data_of([300]),
                     [255], [10], [7], idx=np.uint8, note="begin 255 > end 10: empty"))
    c.append(ss_case("uint32-lists", "openvino:StridedSlice-1#input-T_IND", data_of([6, 4]),
                     [1, 0], [4294967295, 3], [2, 1], idx=np.uint32))
    c.append(ss_case("masks-shorter", text + "masks", data_of([4, 5, 6]), [1, 1, 1], [3, 3, 3],
                     [1, 1, 1], attrs={"begin_mask": [1], "end_mask": [0, 1]},
                     note="shorter masks are padded with zeros"))
    c.append(ss_case(
        "masks-longer-ignored", text + "masks", data_of([4, 5, 6]), [1, 1, 1], [3, 3, 3],
        [1, 1, 1], attrs={"new_axis_mask": [0, 0, 0, 1], "ellipsis_mask": [0, 0, 0, 1, 1]},
        note="entries past M are ignored, even a second ellipsis or a new axis (OpenVINO "
        "would refuse these lists: it ran them cut to 3)"))
    c.append(ss_case(
        "new-axis-then-shrink", text + "new-axis", data_of([3, 4]), [0, 1], [0, 0], [1, 1],
        attrs={"new_axis_mask": [1, 0], "shrink_axis_mask": [0, 1]},
        note="x[np.newaxis, 1]: OpenVINO's CPU plugin returns garbage here; its reference "
        "evaluator and numpy give row 1 under a new axis"))
    c.append(ss_case(
        "colliding-new-axis-and-shrink", text + "masks", data_of([3, 4]), [1], [2], [1],
        attrs={"new_axis_mask": [1], "shrink_axis_mask": [1]}, hand=np.arange(12).reshape(1, 3, 4),
        note="one entry with both bits: the new axis wins (OpenVINO's shape inference order: "
        "ellipsis, new axis, shrink); OpenVINO's evaluators disagree with its own shape "
        "inference here, so this is worked out from that order"))
    c.append(ss_case(
        "colliding-ellipsis-and-new-axis", text + "masks", data_of([3, 4]), [0, 1], [0, 3],
        [1, 1], attrs={"new_axis_mask": [1, 0], "ellipsis_mask": [1, 0]},
        hand=np.arange(12).reshape(3, 4)[:, 1:3],
        note="the ellipsis wins over a new axis on one entry (OpenVINO's shape inference); "
        "worked out from that order"))
    c.append(ss_case("ellipsis-of-no-dims", text + "ellipsis", data_of([3, 4]), [1, 0, 1],
                     [2, 0, 3], [1, 1, 1], attrs={"ellipsis_mask": [0, 1, 0]}))
    c.append(ss_case("implicit-trailing-ellipsis", text + "ellipsis", data_of([2, 3, 4]), [1],
                     [2], [1]))
    c.append(ss_case("ellipsis-first", text + "ellipsis", data_of([2, 3, 4]), [0, -1], [0, 0],
                     [1, -2], attrs={"ellipsis_mask": [1], "end_mask": [0, 1]}))
    c.append(ss_case("scalar-data-new-axes", text + "new-axis", np.array(7.5, np.float32),
                     [0, 0], [0, 0], [1, 1], attrs={"new_axis_mask": [1, 1]}))
    c.append(ss_case("scalar-data-no-entries", text + "ellipsis", np.array(-3, np.int64), [], [],
                     []))
    c.append(ss_case("empty-data", text + "clamping", data_of([2, 0, 3]), [1, 0], [2, 5], [1, -1]))
    c.append(ss_case("bool-data", text + "types", np.array([[1, 0, 1], [0, 0, 1]], np.bool_),
                     [1], [-3], [-1], attrs={"end_mask": [0]}))

    # Every validation error.
    e = "openvino:StridedSlice-1#error-"
    c.append(ss_case("error-stride-zero", e + "stride-zero", data_of([5]), [0], [5], [0],
                     error=True))
    c.append(ss_case("error-two-ellipses", e + "ellipsis", data_of([2, 3]), [0, 0], [1, 1],
                     [1, 1], attrs={"ellipsis_mask": [1, 1]}, error=True))
    c.append(ss_case("error-begin-end-lengths", e + "lengths", data_of([2, 3]), [0, 0], [1],
                     [1, 1], error=True))
    c.append(ss_case("error-stride-length", e + "lengths", data_of([2, 3]), [0, 0], [1, 1], [1],
                     error=True))
    c.append(ss_case("error-begin-not-1d", e + "rank", data_of([2, 3]), [0, 0], [1, 1], [1, 1],
                     list_shapes={"begin": [1, 2]}, error=True))
    bad = ss_case("error-begin-not-integer", e + "type", data_of([2, 3]), [0, 0], [1, 1], [1, 1],
                  error=True, ov_check=False, note="begin of FLOAT32: T_IND is an integer type")
    bad["inputs"]["begin"]["type"] = "FLOAT32"
    c.append(bad)
    c.append(ss_case("error-mask-value", e + "mask-value", data_of([2, 3]), [0, 0], [1, 1],
                     [1, 1], attrs={"begin_mask": [0, 2]}, error=True))
    c.append(ss_case("error-mask-value-past-entries", e + "mask-value", data_of([2, 3]), [0, 0],
                     [1, 1], [1, 1], attrs={"end_mask": [0, 0, 0, -1]}, error=True,
                     ov_check=False, note="ignored entries must still be 0 or 1 (OpenVINO "
                     "checks every mask value)"))
    c.append(ss_case("error-more-entries-than-dims", e + "rank", data_of([2, 3]), [0, 0, 0],
                     [1, 1, 1], [1, 1, 1], error=True))
    c.append(ss_case("error-more-entries-than-dims-with-ellipsis", e + "rank", data_of([2, 3]),
                     [0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 1, 1],
                     attrs={"ellipsis_mask": [0, 1, 0, 0]}, error=True))
    c.append(ss_case("error-shrink-index-too-large", e + "shrink", data_of([5]), [5], [6], [1],
                     attrs={"shrink_axis_mask": [1]}, error=True))
    c.append(ss_case("error-shrink-index-too-small", e + "shrink", data_of([5]), [-6], [0], [1],
                     attrs={"shrink_axis_mask": [1]}, error=True))
    c.append(ss_case("error-shrink-empty-dim", e + "shrink", data_of([3, 0]), [0, 0], [0, 0],
                     [1, 1], attrs={"begin_mask": [0, 1], "shrink_axis_mask": [0, 1]},
                     error=True, ov_check=False,
                     note="element 0 of an empty dim does not exist"))
    return c


def onnx_doc_case(name, source, data, starts, ends, axes=None, steps=None, tind=np.int64,
                  error=False, note=None, erratum=None, shapes=None):
    case = {"name": "onnx.slice." + name, "source": source, "op": "onnx.Slice-13",
            "inputs": {"data": tensor_json(data)}}
    for key, vals in (("starts", starts), ("ends", ends), ("axes", axes), ("steps", steps)):
        if vals is not None:
            a = np.array(vals, dtype=tind)
            if shapes and key in shapes:
                a = a.reshape(shapes[key])
            case["inputs"][key] = tensor_json(a)
    if error:
        case["expected"] = {"error": "invalid_argument"}
    else:
        verdict, sel = onnx_expected(list(data.shape), starts, ends, axes, steps, tind)
        assert verdict == "ok", (name, sel)
        out = data.ravel()[sel.astype(np.int64)].reshape(sel.shape)
        case["expected"] = {"outputs": {"output": tensor_json(out, TYPE_NAMES[data.dtype])}}
        note = (note + "; " if note else "") + "expected from onnx.reference"
    if erratum:
        case["erratum"] = erratum
    if note:
        case["note"] = note
    return case


def onnx_documented():
    t = "onnx:Slice-13#backend-test-%s"
    x = data_of([20, 10, 5], np.float32)
    c = [
        onnx_doc_case("slice", t % "slice", x, [0, 0], [3, 10], [0, 1], [1, 1]),
        onnx_doc_case("slice-neg", t % "slice_neg", x, [0], [-1], [1], [1]),
        onnx_doc_case("slice-start-out-of-bounds", t % "slice_start_out_of_bounds", x, [1000],
                      [1000], [1], [1]),
        onnx_doc_case("slice-end-out-of-bounds", t % "slice_end_out_of_bounds", x, [1], [1000],
                      [1], [1]),
        onnx_doc_case("slice-default-axes", t % "slice_default_axes", x, [0, 0, 3],
                      [20, 10, 4]),
        onnx_doc_case("slice-default-steps", t % "slice_default_steps", x, [0, 0, 3],
                      [20, 10, 4], [0, 1, 2]),
        onnx_doc_case("slice-neg-steps", t % "slice_neg_steps", x, [20, 10, 4], [0, 0, 1],
                      [0, 1, 2], [-1, -3, -2]),
        onnx_doc_case("slice-negative-axes", t % "slice_negative_axes", x, [0, 0, 3],
                      [20, 10, 4], [0, -2, -1]),
    ]
    s = "onnx:Slice-13#text-"
    v = data_of([10], np.int64)
    c += [
        onnx_doc_case("int64-sentinels-forward", s + "sentinels", v, [INT64_MIN], [INT64_MAX]),
        onnx_doc_case("int64-sentinels-reversed", s + "sentinels", v, [INT64_MAX], [INT64_MIN],
                      [0], [-1]),
        onnx_doc_case("int32-sentinels-reversed", s + "sentinels", data_of([4, 6], np.uint16),
                      [INT32_MAX], [INT32_MIN], [-1], [-2], tind=np.int32),
        onnx_doc_case("int32-sentinels-forward", s + "sentinels", data_of([4, 6], np.uint16),
                      [INT32_MIN], [INT32_MAX], [0], [3], tind=np.int32),
        onnx_doc_case("step-int64-min", s + "clamping", v, [INT64_MAX], [INT64_MIN], [0],
                      [INT64_MIN]),
        onnx_doc_case(
            "reversed-start-below-beginning", s + "clamping", data_of([5], np.float32), [-10],
            [-100], [0], [-1],
            note="numpy and onnx.reference: -10 + 5 = -5 is before the beginning, nothing to "
            "take; the ONNX text clamps starts to [0, dims-1] for negative steps and "
            "onnxruntime gives one element (x[0]); dmlcl follows onnx.reference"),
        onnx_doc_case("reversed-to-beginning", s + "clamping", v, [8], [-11], [0], [-2]),
        onnx_doc_case("axes-any-order", s + "axes", data_of([2, 3, 4], np.int8), [1, -1],
                      [4, INT64_MIN], [-1, 0], [2, -1]),
        onnx_doc_case("scalar-data", s + "data", np.array(2.5, np.float64), [], []),
        onnx_doc_case("empty-data", s + "data", data_of([0, 3], np.int32), [1], [3], [1]),
        onnx_doc_case("empty-result", s + "clamping", data_of([3, 4], np.int32), [2], [1], [1]),
    ]
    e = "onnx:Slice-13#error-"
    y = data_of([2, 3], np.float32)
    c += [
        onnx_doc_case("error-duplicate-axes", e + "axes", y, [0, 1], [1, 2], [1, -1], error=True,
                      note="-1 and 1 name one axis; onnxruntime rejects it (onnx.reference lets "
                      "the last win)"),
        onnx_doc_case("error-step-zero", e + "steps", y, [0], [1], [0], [0], error=True),
        onnx_doc_case("error-axis-too-large", e + "axes", y, [0], [1], [2], error=True),
        onnx_doc_case("error-axis-too-small", e + "axes", y, [0], [1], [-3], error=True),
        onnx_doc_case("error-starts-ends-lengths", e + "lengths", y, [0, 0], [1], error=True),
        onnx_doc_case("error-axes-length", e + "lengths", y, [0], [1], [0, 1], error=True),
        onnx_doc_case("error-steps-length", e + "lengths", y, [0], [1], [0], [1, 1], error=True),
        onnx_doc_case("error-starts-not-1d", e + "rank", y, [0, 0], [1, 1], [0, 1], error=True,
                      shapes={"starts": [1, 2]}),
        onnx_doc_case("error-too-many-starts", e + "axes", y, [0, 0, 0], [1, 1, 1], error=True,
                      note="without axes, starts names axes 0..2 of a 2-D data"),
    ]
    mixed = onnx_doc_case("error-mixed-index-types", e + "types", y, [0], [1], [0], error=True,
                          note="starts INT32, ends INT64: one type Tind for all")
    mixed["inputs"]["starts"]["type"] = "INT32"
    floaty = onnx_doc_case("error-starts-not-integer", e + "types", y, [0], [1], error=True)
    floaty["inputs"]["starts"]["type"] = "FLOAT32"
    floaty["inputs"]["ends"]["type"] = "FLOAT32"
    return c + [mixed, floaty]


def dml_case(op, name, source, in_sizes, attrs, out_sizes=None, want=None, error=False,
             note=None, dtype=np.float32, in_strides=None, values=None):
    """A DirectML case; expectations worked out by hand from the formulas of facts 4.8-4.9."""
    n = int(np.prod(in_sizes))
    data = (np.arange(1, n + 1).astype(dtype) if values is None else values).reshape(in_sizes)
    case = {"name": "directml.%s.%s" % (op.lower(), name), "source": source,
            "op": "DML_OPERATOR_" + op, "attrs": attrs, "inputs": {"InputTensor": tensor_json(data)}}
    if in_strides is not None:
        case["inputs"]["InputTensor"]["strides"] = in_strides
    if error:
        if out_sizes is not None:
            case["inputs"]["OutputTensor"] = {"type": TYPE_NAMES[np.dtype(dtype)],
                                              "shape": out_sizes}
        case["expected"] = {"error": "invalid_argument"}
    else:
        offsets = attrs["Offsets" if op == "SLICE" else "InputWindowOffsets"]
        strides = attrs["Strides" if op == "SLICE" else "InputWindowStrides"]
        sizes = attrs.get("Sizes") or attrs.get("InputWindowSizes")
        if op == "SLICE":
            out_sizes = out_sizes or sizes
            start = offsets
        else:
            start = [o + (s - 1 if st < 0 else 0) for o, s, st in zip(offsets, sizes, strides)]
        idx = np.ix_(*[[st + k * sd for k in range(o)]
                       for st, sd, o in zip(start, strides, out_sizes)])
        out = data[idx]
        if want is not None:
            assert np.array_equal(out.ravel(), np.array(want, dtype=dtype)), (name, out)
        case["inputs"]["OutputTensor"] = {"type": TYPE_NAMES[np.dtype(dtype)], "shape": out_sizes}
        case["expected"] = {"outputs": {"OutputTensor": tensor_json(out)}}
    if note:
        case["note"] = note
    return case


def directml_documented():
    s1 = "directml:DML_SLICE_OPERATOR_DESC#example-%d"
    s2 = "directml:DML_SLICE1_OPERATOR_DESC#example-%d"
    v = "directml:DML_SLICE_OPERATOR_DESC#validation-"
    v1 = "directml:DML_SLICE1_OPERATOR_DESC#validation-"
    i4 = [1, 1, 4, 4]
    c = [
        dml_case("SLICE", "example-1", s1 % 1, i4,
                 {"Offsets": [0, 0, 1, 2], "Sizes": [1, 1, 3, 2], "Strides": [1, 1, 1, 1]},
                 want=[7, 8, 11, 12, 15, 16]),
        dml_case("SLICE", "example-2", s1 % 2, i4,
                 {"Offsets": [0, 0, 1, 0], "Sizes": [1, 1, 2, 2], "Strides": [1, 1, 2, 3]},
                 want=[5, 8, 13, 16]),
        dml_case("SLICE", "example-3", s1 % 3, [1, 1, 5, 5],
                 {"Offsets": [0, 0, 1, 1], "Sizes": [1, 1, 3, 2], "Strides": [1, 1, 1, 2]},
                 want=[7, 9, 12, 14, 17, 19],
                 note="DxDispatch's model dml_slice.json (input 1..25); output worked out"),
        dml_case("SLICE1", "example-1", s2 % 1, i4,
                 {"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 1, 4, 3],
                  "InputWindowStrides": [1, 1, 2, 2]}, out_sizes=[1, 1, 2, 2],
                 want=[2, 4, 10, 12]),
        dml_case("SLICE1", "example-2", s2 % 2, i4,
                 {"InputWindowOffsets": [0, 0, 0, 1], "InputWindowSizes": [1, 1, 4, 3],
                  "InputWindowStrides": [1, 1, -2, 2]}, out_sizes=[1, 1, 2, 2],
                 want=[14, 16, 6, 8],
                 note="the page's text says InputWindowSizes[0] where it means [2] (cosmetic)"),
        dml_case("SLICE", "stride-zero", v + "strides", i4,
                 {"Offsets": [0, 0, 2, 1], "Sizes": [1, 1, 3, 2], "Strides": [1, 1, 0, 2]},
                 note="DirectML's SLICE page sets no rule on Strides and its formula stays "
                 "inside the input for 0 (each output row repeats input row 2): dmlcl accepts "
                 "it (SLICE1 forbids 0)"),
        dml_case("SLICE", "one-dim-uint8", v + "ranks", [9],
                 {"Offsets": [2], "Sizes": [3], "Strides": [3]}, dtype=np.uint8),
        dml_case("SLICE", "eight-dims-int64", v + "ranks", [2, 1, 2, 1, 3, 1, 2, 2],
                 {"Offsets": [1, 0, 0, 0, 1, 0, 0, 1], "Sizes": [1, 1, 2, 1, 2, 1, 2, 1],
                  "Strides": [1, 1, 1, 1, 1, 1, 1, 1]}, dtype=np.int64),
        dml_case("SLICE", "strided-input", v + "strides", [3, 4],
                 {"Offsets": [1, 1], "Sizes": [2, 2], "Strides": [1, 2]}, in_strides=[8, 2],
                 values=np.arange(10, 22, dtype=np.float32), note="input rows 8 elements apart"),
        dml_case("SLICE1", "output-shorter-than-window", v1 + "output-sizes", [1, 1, 4, 6],
                 {"InputWindowOffsets": [0, 0, 1, 0], "InputWindowSizes": [1, 1, 3, 6],
                  "InputWindowStrides": [1, 1, -1, 2]}, out_sizes=[1, 1, 2, 2],
                 note="1 <= Output.Sizes <= 1 + (size-1)/|stride|: the first elements"),
        dml_case("SLICE1", "stride-int-min", v1 + "strides", [1, 1, 4, 4],
                 {"InputWindowOffsets": [0, 0, 1, 1], "InputWindowSizes": [1, 1, 3, 2],
                  "InputWindowStrides": [1, 1, INT32_MIN, 1]}, out_sizes=[1, 1, 1, 2],
                 note="|INT_MIN| leaves one element: the window's last row"),
        dml_case("SLICE1", "float16-reversed", v1 + "strides", [5, 3],
                 {"InputWindowOffsets": [0, 0], "InputWindowSizes": [5, 3],
                  "InputWindowStrides": [-1, -1]}, out_sizes=[5, 3], dtype=np.float16),
        # Validation errors.
        dml_case("SLICE", "error-sizes-differ-from-output", v + "sizes", i4,
                 {"Offsets": [0, 0, 0, 0], "Sizes": [1, 1, 2, 2], "Strides": [1, 1, 1, 1]},
                 out_sizes=[1, 1, 2, 3], error=True),
        dml_case("SLICE", "error-window-outside-input", v + "bounds", i4,
                 {"Offsets": [0, 0, 2, 0], "Sizes": [1, 1, 2, 2], "Strides": [1, 1, 2, 1]},
                 out_sizes=[1, 1, 2, 2], error=True),
        dml_case("SLICE", "error-uint-wraparound", v + "bounds", i4,
                 {"Offsets": [0, 0, 2147483648, 0], "Sizes": [1, 1, 2, 2],
                  "Strides": [1, 1, 2147483648, 1]}, out_sizes=[1, 1, 2, 2], error=True,
                 note="2^31 + 2^31 wraps to 0 in 32 bits; the bound is checked in 64"),
        dml_case("SLICE", "error-dimension-count", v + "dimension-count", i4,
                 {"DimensionCount": 3, "Offsets": [0, 0, 0], "Sizes": [1, 2, 2],
                  "Strides": [1, 1, 1]}, out_sizes=[1, 1, 4, 4], error=True),
        dml_case("SLICE1", "error-window-empty", v1 + "window", i4,
                 {"InputWindowOffsets": [0, 0, 0, 0], "InputWindowSizes": [1, 1, 0, 2],
                  "InputWindowStrides": [1, 1, 1, 1]}, out_sizes=[1, 1, 1, 2], error=True),
        dml_case("SLICE1", "error-window-outside-input", v1 + "window", i4,
                 {"InputWindowOffsets": [0, 0, 2, 0], "InputWindowSizes": [1, 1, 3, 2],
                  "InputWindowStrides": [1, 1, 1, 1]}, out_sizes=[1, 1, 3, 2], error=True),
        dml_case("SLICE1", "error-stride-zero", v1 + "strides", i4,
                 {"InputWindowOffsets": [0, 0, 0, 0], "InputWindowSizes": [1, 1, 2, 2],
                  "InputWindowStrides": [1, 1, 0, 1]}, out_sizes=[1, 1, 2, 2], error=True),
        dml_case("SLICE1", "error-output-beyond-window", v1 + "output-sizes", i4,
                 {"InputWindowOffsets": [0, 0, 0, 0], "InputWindowSizes": [1, 1, 4, 3],
                  "InputWindowStrides": [1, 1, -2, 1]}, out_sizes=[1, 1, 3, 3], error=True,
                 note="1 + (4-1)/2 = 2 rows at most"),
        dml_case("SLICE1", "error-dimension-count", v1 + "dimension-count", i4,
                 {"DimensionCount": 2, "InputWindowOffsets": [0, 0], "InputWindowSizes": [4, 4],
                  "InputWindowStrides": [1, 1]}, out_sizes=[1, 1, 4, 4], error=True),
    ]
    return c


def documented_main(root):
    for rel, cases in (("conformance/cases/openvino/strided_slice.json", strided_slice_documented()),
                       ("conformance/cases/onnx/slice.json", onnx_documented()),
                       ("conformance/cases/directml/slice.json", directml_documented())):
        path = os.path.join(root, rel)
        write_suite(path, cases)
        print("%s: %d cases" % (rel, len(cases)))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=1200)
    p.add_argument("--onnx-count", type=int, default=400)
    p.add_argument("--out", default="build/diff/slice")
    p.add_argument("--documented", action="store_true")
    p.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    args = p.parse_args()
    if args.documented:
        documented_main(args.root)
    else:
        random_main(args)


if __name__ == "__main__":
    main()
