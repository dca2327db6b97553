#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cases for dmlcl's pads and roll, with upstream expectations.

  gen_pad.py [--seed S] [--count N] [--out DIR]
      Random cases: openvino.Pad-12 and Pad-1 (every mode, negative and mixed
      pads, every integer type for the pads, pad_value, empty dimensions) and
      openvino.Roll-7 (scalar and list shifts, repeated and negative axes)
      expected from OpenVINO's CPU plugin; onnx.Pad-18 and Pad-19 (axes,
      negative axes, constant_value, reflect/edge/wrap pads beyond the input)
      expected from onnx.reference; DML_OPERATOR_PADDING and PADDING1 from
      numpy.pad. N of each family (default 1200), in DIR/{openvino,onnx,
      directml}_pad.json.
  gen_pad.py --documented [--root DIR]
      Rewrites conformance/cases/{directml/padding,openvino/pad,openvino/roll,
      onnx/pad}.json: the documents' examples with the values they print,
      checked against numpy here (an erratum where they differ), the onnx
      backend node tests (test_*_pad, seeded data, their pad_impl), and a
      case per validation rule.

OpenVINO's plugin runs i64 as i32 and f64 as f32: the OpenVINO cases pad an
int32 iota of the data's shape (element numbers, the pad value -1) and index
the case's typed data by the result, so its precision cannot touch values.
Known OpenVINO behaviour the random cases steer around (the documented cases
cover the rules by hand): Pad-1 accepts negative pads (its text: "any
non-negative integer type"; dmlcl refuses them), the CPU plugin fails when
crops leave an output dimension of 0 (the text: max(..., 0)), and it refuses
edge and reflect on empty dimensions even with pads of 0.
onnx.reference (numpy.pad) refuses negative pads, which the ONNX text allows
("add or remove (if negative)"): negative ONNX pads are expected from the
model below (crop relative to the original input, as OpenVINO Pad-12 does),
and the cases say so.
"""
import argparse
import json
import os
import random
import sys

import numpy as np

from common import NUMPY_TYPES, CpuPlugin, clear_out, jvalue, tensor, write

INT_TYPES = ["INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"]
DATA_TYPES = list(NUMPY_TYPES)
GARBAGE = []  # OpenVINO cases whose output held element numbers outside the data
CRASHED = []  # OpenVINO cases that crashed the CPU plugin
DROPPED_ONNX = []  # why ONNX cases were dropped


# ---- The model: numpy's fold, pads relative to the original input -------------------------

def fold(mode, t, n):
    if 0 <= t < n:
        return t
    if mode == "constant":
        return -1
    if mode == "edge":
        return 0 if t < 0 else n - 1
    if mode == "reflect":
        if n == 1:
            return 0
        p = 2 * (n - 1)
        r = t % p
        return r if r < n else p - r
    if mode == "symmetric":
        p = 2 * n
        r = t % p
        return r if r < n else p - 1 - r
    return t % n  # wrap


def model_pad_index(shape, begin, end, mode):
    """Element numbers of data (or -1 for the pad value) each output element reads."""
    out = [max(0, b + n + e) for n, b, e in zip(shape, begin, end)]
    iota = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    res = np.empty(out, dtype=np.int64)
    for o in np.ndindex(*out):
        x = [fold(mode, oi - b, n) for oi, b, n in zip(o, begin, shape)]
        res[o] = -1 if min(x, default=0) < 0 else iota[tuple(x)]
    return res


def take(data, idx, value):
    """data's elements by number; -1: value."""
    flat = np.asarray(data).reshape(-1)
    out = np.empty(idx.shape, dtype=flat.dtype)
    for k, i in np.ndenumerate(idx):
        out[k] = value if i < 0 else flat[i]
    return out


def runs(mode, n, begin, out):
    """An upper bound of the copies dmlcl makes along one output dimension: a run per mirror
    or wrap period phase (ascending, descending), split where the kept input starts and ends.
    It only steers the random cases away from dmlcl's documented limit."""
    if n == 0:  # nothing to copy: a fill, or refused
        return 1
    count, o = 0, 0
    while o < out:
        x = o - begin
        if 0 <= x < n:
            length = n - x
        elif mode == "edge" or n == 1:
            length = -x if x < 0 else out - o
        elif mode == "reflect":
            p = 2 * (n - 1)
            r = x % p
            length = n - 1 - r if r < n - 1 else p - r
        elif mode == "symmetric":
            p = 2 * n
            r = x % p
            length = n - r if r < n else p - r
        else:
            length = n - x % n
        if x < 0:
            length = min(length, -x)
        o += length
        count += 1
    return count


def beyond_step_limit(mode, shape, begin, end):
    """More than dmlcl's documented 16384 copies (DMLI_PAD_MAX_STEPS): unsupported there."""
    if mode == "constant":
        return False
    total = 1
    for n, b, e in zip(shape, begin, end):
        total *= max(1, runs(mode, n, b, max(0, b + n + e)))
    return total > 16384


def random_data(rng, t, shape):
    n = int(np.prod(shape))
    dt = NUMPY_TYPES[t]
    if t == "BOOLEAN":
        return np.array([rng.randrange(2) for _ in range(n)], dtype=dt).reshape(shape)
    if t.startswith("FLOAT"):
        return (np.array([rng.randrange(-1000, 1000) for _ in range(n)]) * 0.25).astype(
            dt).reshape(shape)
    info = np.iinfo(dt)
    return np.array([rng.randint(int(info.min), int(info.max)) for _ in range(n)],
                    dtype=dt).reshape(shape)


def pad_value(rng, t):
    return random_data(rng, t, [1]).reshape(())


# ---- OpenVINO -------------------------------------------------------------------------------

def ov_worker(conn):
    import openvino as ov
    import openvino.opset1 as op1
    import openvino.opset7 as op7
    import openvino.opset12 as op12
    core = ov.Core()
    while True:
        args = conn.recv()
        if args is None:
            return
        kind, shape, a, b, extra = args
        try:
            iota = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
            p = op1.parameter(list(shape), ov.Type.i32)

            def const(values, dtype):
                v = np.array(values, dtype=dtype)
                if v.size == 0:  # opset1.constant refuses empty data
                    return ov.op.Constant(ov.Type(v.dtype), ov.Shape(list(v.shape)), [])
                return op1.constant(v)
            if kind == "roll":
                node = op7.roll(p, const(a[0], a[1]), const(b[0], b[1]))
            else:
                version, mode, idx_type = extra
                ops = op12 if version == 12 else op1
                args_ = [p, const(a, idx_type), const(b, idx_type), mode]
                if mode == "constant":
                    args_.append(op1.constant(np.array(-1, dtype=np.int32)))
                node = ops.pad(*args_)
            model = ov.Model([node], [p])
            conn.send(("ok", core.compile_model(model, "CPU")([iota])[0].astype(np.int64)))
        except Exception as ex:  # OpenVINO's refusal: the case expects invalid_argument
            conn.send(("error", " ".join(str(ex).split())[:300]))


def ov_pad_case(rng, plugin, k, version):
    rank = rng.randrange(0, 5)
    shape = [rng.choice([0, 1, 1, 2, 3, 4, 5]) if rng.random() < 0.15 else rng.randrange(1, 6)
             for _ in range(rank)]
    mode = rng.choice(["constant", "edge", "reflect", "symmetric"])
    lo = -3 if version == 12 else 0
    begin = [rng.randrange(lo, 5) for _ in shape]
    end = [rng.randrange(lo, 5) for _ in shape]
    if mode in ("reflect", "symmetric") and rng.random() < 0.9:
        lim = [n - (mode == "reflect") for n in shape]
        begin = [min(b, m) for b, m in zip(begin, lim)]
        end = [min(e, m) for e, m in zip(end, lim)]
    if any(n == 0 for n in shape) and mode != "constant":
        mode = "constant"  # OpenVINO refuses edge/reflect on any empty dimension
    out = [b + n + e for n, b, e in zip(shape, begin, end)]
    if any(o <= 0 for o in out):
        end = [e - o + 1 if o <= 0 else e for e, o in zip(end, out)]  # the plugin's crash
    idx_type = rng.choice(INT_TYPES if version == 12 else ["INT32", "INT64", "UINT8", "UINT64"])
    if idx_type.startswith("UINT") and min(begin + end, default=0) < 0:
        idx_type = "INT64"
    t = rng.choice(DATA_TYPES)
    status, res = plugin.run("pad", shape, begin, end, (version, mode, NUMPY_TYPES[idx_type]))
    if status == "crashed":
        CRASHED.append((version, shape, begin, end, mode, idx_type))
    data = random_data(rng, t, shape)
    inputs = {"data": tensor(t, data), "pads_begin": tensor(idx_type, begin),
              "pads_end": tensor(idx_type, end)}
    value = pad_value(rng, t)
    if mode == "constant" and rng.random() < 0.7:
        inputs["pad_value"] = tensor(t, value)
    else:
        value = np.zeros((), dtype=NUMPY_TYPES[t])
    case = {"name": f"openvino.pad{version}.random-{k}", "source": "diff:openvino-cpu",
            "op": f"openvino.Pad-{version}", "attrs": {"pad_mode": mode}, "inputs": inputs}
    if status == "crashed":
        return None
    override = ov_text_override(version, shape, begin, end, mode)
    if override:
        return ov_from_text(case, override, shape, begin, end, mode, data, value, t)
    if status == "error" and rank == 0:  # the CPU plugin refuses 0-D Pad: the text gives a copy
        case["source"] = "diff:model"
        case["note"] = "0-D data: OpenVINO's CPU plugin refuses it (" + res[:120] + ")"
        case["expected"] = {"outputs": {"output": tensor(t, data)}}
        return case
    if status == "error":
        case["expected"] = {"error": "invalid_argument"}
        case["note"] = "OpenVINO: " + res
        return case
    if res.size and (res.min() < -1 or res.max() >= max(1, data.size)):
        GARBAGE.append((version, shape, begin, end, mode))
        return None  # the plugin wrote element numbers that are not there
    case["expected"] = {"outputs": {"output": tensor(t, take(data, res, value), list(res.shape))}}
    return case


def ov_text_override(version, shape, begin, end, mode):
    """Where OpenVINO's CPU plugin departs from the text, why (the text gives the case)."""
    if version == 1 and min(begin + end, default=0) < 0:
        return "Pad-1 pads are non-negative (the text); OpenVINO crops"
    out = [b + n + e for n, b, e in zip(shape, begin, end)]
    if version == 12 and all(o > 0 for o in out) and any(
            b <= -n or e <= -n for n, b, e in zip(shape, begin, end)):
        return ("a crop reaching past one end: OpenVINO's CPU plugin reads outside the data "
                "(or crashes); the text's coordinates give the output")
    return None


def ov_from_text(case, why, shape, begin, end, mode, data, value, t):
    case["source"] = "diff:model"
    case["note"] = why
    if why.startswith("Pad-1"):
        case["expected"] = {"error": "invalid_argument"}
        return case
    lim = [n - (mode == "reflect") for n in shape]
    if mode in ("reflect", "symmetric") and any(
            b > m or e > m for b, e, m in zip(begin, end, lim)):
        case["expected"] = {"error": "invalid_argument"}
        return case
    idx = model_pad_index(shape, begin, end, mode)
    case["expected"] = {"outputs": {"output": tensor(t, take(data, idx, value), list(idx.shape))}}
    return case


def ov_roll_case(rng, plugin, k):
    rank = rng.randrange(1, 5)
    shape = [rng.randrange(0 if rng.random() < 0.1 else 1, 6) for _ in range(rank)]
    naxes = rng.randrange(1, 5)
    axes = [rng.randrange(-rank, rank) for _ in range(naxes)]
    scalar = rng.random() < 0.3
    shift = rng.randrange(-20, 20) if scalar else [rng.randrange(-20, 20) for _ in axes]
    if not scalar and rng.random() < 0.05:
        shift = [rng.randrange(-2**31, 2**31) for _ in axes]
    st, at = rng.choice(["INT32", "INT64"]), rng.choice(["INT32", "INT64"])
    axes_scalar = naxes == 1 and rng.random() < 0.3
    status, res = plugin.run("roll", shape, (shift, NUMPY_TYPES[st]),
                             (axes[0] if axes_scalar else axes, NUMPY_TYPES[at]), None)
    if status == "crashed":
        return None
    t = rng.choice(DATA_TYPES)
    data = random_data(rng, t, shape)
    case = {"name": f"openvino.roll7.random-{k}", "source": "diff:openvino-cpu",
            "op": "openvino.Roll-7",
            "inputs": {"data": tensor(t, data),
                       "shift": tensor(st, np.array(shift)),
                       "axes": tensor(at, np.array(axes[0] if axes_scalar else axes))}}
    if status == "error" and scalar and "shiftDims[0] == axesDims[0]" in res:
        # The text: a scalar shift rolls every axis named. The CPU plugin refuses it with
        # several axes (its shape inference accepts it): numpy.roll gives the expectation.
        sh = [shift] * len(axes) if not axes_scalar else shift
        case["source"] = "diff:numpy"
        case["note"] = "scalar shift, several axes: OpenVINO's CPU plugin refuses it (" + \
            res[-90:] + ")"
        case["expected"] = {"outputs": {"output": tensor(t, np.roll(
            data, sh, axes[0] if axes_scalar else tuple(axes)), shape)}}
    elif status == "error":
        case["expected"] = {"error": "invalid_argument"}
        case["note"] = "OpenVINO: " + res
    else:
        case["expected"] = {"outputs": {"output": tensor(t, take(data, res, 0), shape)}}
    return case


# ---- ONNX ---------------------------------------------------------------------------------

def onnx_reference_pad(version, data, pads, mode, value, axes):
    import onnx
    from onnx import helper
    from onnx.reference import ReferenceEvaluator
    from onnx.helper import np_dtype_to_tensor_dtype as tt
    names = ["x", "p", "c" if value is not None else ""]
    feeds = {"x": data, "p": np.array(pads, dtype=np.int64)}
    vi = [helper.make_tensor_value_info("x", tt(data.dtype), None),
          helper.make_tensor_value_info("p", onnx.TensorProto.INT64, None)]
    if value is not None:
        feeds["c"] = value
        vi.append(helper.make_tensor_value_info("c", tt(data.dtype), None))
    if axes is not None:
        names.append("a")
        feeds["a"] = np.array(axes[0], dtype=axes[1])
        vi.append(helper.make_tensor_value_info("a", tt(np.dtype(axes[1])), None))
    node = helper.make_node("Pad", names, ["y"], mode=mode)
    graph = helper.make_graph([node], "g", vi,
                              [helper.make_tensor_value_info("y", tt(data.dtype), None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)])
    return ReferenceEvaluator(m).run(None, feeds)[0]


def ort_pad(version, data, pads, mode, value, axes):
    """ONNX Runtime's Pad (CPU): the expectation for negative pads."""
    import onnxruntime as ort
    from onnx import helper, numpy_helper
    from onnx.helper import np_dtype_to_tensor_dtype as tt
    names, inits = ["x", "p"], [numpy_helper.from_array(np.array(pads, dtype=np.int64), "p")]
    if value is not None or axes is not None:
        names.append("c" if value is not None else "")
        if value is not None:
            inits.append(numpy_helper.from_array(np.array(value), "c"))
    if axes is not None:
        names.append("a")
        inits.append(numpy_helper.from_array(np.array(axes[0], dtype=axes[1]), "a"))
    node = helper.make_node("Pad", names, ["y"], mode=mode)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info(
        "x", tt(data.dtype), list(data.shape))], [helper.make_tensor_value_info(
            "y", tt(data.dtype), None)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)])
    m.ir_version = 9
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": data})[0]


def onnx_case(rng, k, version):
    rank = rng.randrange(0, 5)
    shape = [rng.randrange(0 if rng.random() < 0.1 else 1, 6) for _ in range(rank)]
    mode = rng.choice(["constant", "reflect", "edge"] + (["wrap"] if version >= 19 else []))
    axes = None
    dims = list(range(rank))
    if rank and rng.random() < 0.4:
        dims = rng.sample(range(rank), rng.randrange(1, rank + 1))
        axes = ([d - rank if rng.random() < 0.5 else d for d in dims],
                rng.choice([np.int32, np.int64]))
    negative = rng.random() < 0.15
    begin = [rng.randrange(-2 if negative else 0, 9) for _ in dims]
    end = [rng.randrange(-2 if negative else 0, 9) for _ in dims]
    t = rng.choice(DATA_TYPES)
    data = random_data(rng, t, shape)
    value = pad_value(rng, t) if mode == "constant" and rng.random() < 0.6 else None
    case = {"name": f"onnx.pad{version}.random-{k}", "source": "diff:onnx-reference",
            "op": f"onnx.Pad-{version}", "attrs": {"mode": mode},
            "inputs": {"data": tensor(t, data), "pads": tensor("INT64", begin + end)}}
    if rng.random() < 0.2 and mode == "constant":
        del case["attrs"]
    if value is not None:
        case["inputs"]["constant_value"] = tensor(t, value)
    if axes is not None:
        case["inputs"]["axes"] = tensor("INT64" if axes[1] is np.int64 else "INT32", axes[0])
    full_b, full_e = [0] * rank, [0] * rank
    for d, b, e in zip(dims, begin, end):
        full_b[d], full_e[d] = b, e
    empty_padded = any(n == 0 and (b + e) != 0 for n, b, e in zip(shape, full_b, full_e))
    if min(begin + end, default=0) < 0:
        case["source"] = "diff:onnxruntime"
        case["note"] = ("negative pads: onnx.reference (numpy.pad) refuses them; ONNX Runtime "
                        "crops first, then pads")
        kept = [n + min(b, 0) + min(e, 0) for n, b, e in zip(shape, full_b, full_e)]
        out = [max(0, b + n + e) for n, b, e in zip(shape, full_b, full_e)]
        if min(kept, default=0) < 0 or (mode != "constant" and any(
                k == 0 and o > 0 for k, o in zip(kept, out))):
            case["expected"] = {"error": "invalid_argument"}
            case["note"] += "; here a crop removes more than a dimension, or leaves nothing to repeat"
            return case
        try:
            y = ort_pad(version, data, begin + end, mode, value, axes)
        except Exception as ex:
            DROPPED_ONNX.append("onnxruntime: " + str(ex).splitlines()[0][:120])
            return None
        case["expected"] = {"outputs": {"output": tensor(t, y)}}
        return case
    if rank == 0:  # onnx.reference fails on 0-D data (numpy.pad with no axes): a copy
        case["source"] = "diff:model"
        case["note"] = "0-D data: onnx.reference raises; no pads, the output is the input"
        case["expected"] = {"outputs": {"output": tensor(t, data)}}
        return case
    if beyond_step_limit(mode, shape, full_b, full_e):
        DROPPED_ONNX.append("beyond dmlcl's 16384-copy limit (DXGI_ERROR_UNSUPPORTED)")
        return None
    try:
        y = onnx_reference_pad(version, data, begin + end, mode, value, axes)
    except Exception as ex:
        if not (empty_padded and mode != "constant"):
            DROPPED_ONNX.append("onnx.reference: " + str(ex).splitlines()[0][:120])
            return None
        case["expected"] = {"error": "invalid_argument"}
        case["note"] = "onnx.reference: " + str(ex).splitlines()[0][:160]
        return case
    case["expected"] = {"outputs": {"output": tensor(t, y)}}
    return case


# ---- DirectML -----------------------------------------------------------------------------

DML_MODES = ["DML_PADDING_MODE_CONSTANT", "DML_PADDING_MODE_EDGE", "DML_PADDING_MODE_REFLECTION",
             "DML_PADDING_MODE_SYMMETRIC", "DML_PADDING_MODE_WRAP"]
NP_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
DML_TYPES = [t for t in DATA_TYPES if t != "BOOLEAN"]


def dml_case(rng, k):
    rank = rng.randrange(1, 6)
    shape = [rng.randrange(1, 5) for _ in range(rank)]
    m = rng.randrange(5)
    start = [rng.randrange(0, 7) if rng.random() < 0.6 else 0 for _ in shape]
    end = [rng.randrange(0, 7) if rng.random() < 0.6 else 0 for _ in shape]
    while beyond_step_limit(NP_MODES[m], shape, start, end):  # dmlcl's documented limit
        d = rng.randrange(rank)  # not k: the case's number names it
        start[d], end[d] = start[d] // 2, end[d] // 2
    t = rng.choice(DML_TYPES)
    data = random_data(rng, t, shape)
    one = rng.random() < 0.5
    attrs = {"PaddingMode": DML_MODES[m], "StartPadding": start, "EndPadding": end}
    if one:
        v = pad_value(rng, t)
        attrs["PaddingValueDataType"] = t
        attrs["PaddingValue"] = jvalue(t, v)
    else:
        f = rng.randrange(-400, 400) * 0.25
        attrs["PaddingValue"] = f
        dt = NUMPY_TYPES[t]
        if t.startswith("FLOAT"):
            v = np.array(np.float32(f)).astype(dt)
        else:  # truncation toward zero, saturated (DirectML: "10.6 will become 10")
            info = np.iinfo(dt)
            v = np.array(min(max(int(np.trunc(f)), int(info.min)), int(info.max)), dtype=dt)
    kw = {"constant_values": v} if m == 0 else {}
    y = np.pad(data, list(zip(start, end)), mode=NP_MODES[m], **kw)
    return {"name": f"directml.padding{'1' if one else ''}.random-{k}", "source": "diff:numpy",
            "op": "DML_OPERATOR_PADDING1" if one else "DML_OPERATOR_PADDING", "attrs": attrs,
            "inputs": {"InputTensor": tensor(t, data)},
            "expected": {"outputs": {"OutputTensor": tensor(t, y)}}}


def random_cases(args):
    rng = random.Random(args.seed)
    plugin = CpuPlugin(ov_worker, ("crashed", None))
    ov_cases, onnx_cases, dml_cases, dropped = [], [], [], 0
    try:
        for k in range(args.count):
            c = (ov_pad_case(rng, plugin, k, 12 if k % 4 else 1) if k % 5
                 else ov_roll_case(rng, plugin, k))
            if c is None:
                dropped += 1
            else:
                ov_cases.append(c)
    finally:
        plugin.close()
    for k in range(args.count):
        c = onnx_case(rng, k, 19 if k % 2 else 18)
        if c is None:
            dropped += 1
        else:
            onnx_cases.append(c)
    dml_cases = [dml_case(rng, k) for k in range(args.count)]
    clear_out(args.out)
    write(os.path.join(args.out, "openvino_pad.json"), ov_cases)
    write(os.path.join(args.out, "onnx_pad.json"), onnx_cases)
    write(os.path.join(args.out, "directml_pad.json"), dml_cases)
    print(f"{len(ov_cases)} OpenVINO, {len(onnx_cases)} ONNX, {len(dml_cases)} DirectML cases; "
          f"{dropped} dropped ({len(GARBAGE)} where OpenVINO's output read outside the data)",
          file=sys.stderr)
    for g in GARBAGE[:5]:
        print("  garbage: OpenVINO Pad-%d shape %s begin %s end %s %s" % g, file=sys.stderr)
    print(f"{len(CRASHED)} crashed the CPU plugin", file=sys.stderr)
    from collections import Counter
    for why, n in Counter(DROPPED_ONNX).most_common(6):
        print(f"  ONNX dropped {n}: {why}", file=sys.stderr)
    for g in CRASHED[:8]:
        print("  crash: OpenVINO Pad-%d shape %s begin %s end %s %s pads %s" % g, file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--out", default="build/diff/pad")
    ap.add_argument("--documented", action="store_true")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    args = ap.parse_args()
    if args.documented:
        from documented_pad import write_documented
        write_documented(args.root)
    else:
        random_cases(args)


if __name__ == "__main__":
    main()
