#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Random gather cases with expectations from the upstream implementations.

OpenVINO Gather-8: a one-op model (openvino opset8) compiled on OpenVINO's
CPU plugin; every output is also computed with OpenVINO's reference
implementation (Node.evaluate). Where the two disagree the case follows the
reference and the specification (out-of-range indices give zeros) and the
disagreement is counted; shapes with a 0 are not compiled on the CPU plugin
(it dies with SIGFPE on them) and use the reference alone.

ONNX Gather-1/11/13: onnx.reference.ReferenceEvaluator; an index it rejects
expects {"error": "index_out_of_range"}. Gather-1 has no negative indices
(its text bounds indices to the axis), so a negative index there expects the
error too, although the reference evaluator wraps it.

Writes dmlcl-case/1 files into --out and prints a summary.
"""
import argparse
import os
import random
import sys

import numpy as np
import onnx
import openvino as ov
import openvino.opset8 as ops
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

from common import CpuPlugin, clear_out, tensor, write

TYPES = {
    # case type: (numpy type, OpenVINO type, ONNX type)
    "FLOAT16": (np.float16, ov.Type.f16, TensorProto.FLOAT16),
    "FLOAT32": (np.float32, ov.Type.f32, TensorProto.FLOAT),
    "FLOAT64": (np.float64, ov.Type.f64, TensorProto.DOUBLE),
    "INT8": (np.int8, ov.Type.i8, TensorProto.INT8),
    "INT16": (np.int16, ov.Type.i16, TensorProto.INT16),
    "INT32": (np.int32, ov.Type.i32, TensorProto.INT32),
    "INT64": (np.int64, ov.Type.i64, TensorProto.INT64),
    "UINT8": (np.uint8, ov.Type.u8, TensorProto.UINT8),
    "UINT16": (np.uint16, ov.Type.u16, TensorProto.UINT16),
    "UINT32": (np.uint32, ov.Type.u32, TensorProto.UINT32),
    "UINT64": (np.uint64, ov.Type.u64, TensorProto.UINT64),
    "BOOLEAN": (np.bool_, ov.Type.boolean, TensorProto.BOOL),
}
DATA_TYPES = ["FLOAT32", "FLOAT16", "FLOAT64", "INT8", "UINT8", "INT16", "INT32", "INT64",
              "UINT64", "BOOLEAN"]
INT_TYPES = ["INT8", "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64"]
# OpenVINO's reference lacks these data types: evaluate on a type that holds
# every value exactly (16-bit integers widened, FLOAT64 bits as INT64).
WIDEN = {"INT16": np.int32, "UINT16": np.int32}
VIEW = {"FLOAT64": np.int64}


# ---- random inputs -------------------------------------------------------------------------------

def random_data(rng, t, shape):
    n = int(np.prod(shape)) if shape else 1
    if t == "BOOLEAN":
        return np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_).reshape(shape)
    dt = TYPES[t][0]
    if t.startswith("FLOAT"):
        vals = [rng.choice([rng.uniform(-1e3, 1e3), rng.randint(-100, 100) / 8.0]) for _ in range(n)]
        for _ in range(n // 10):
            vals[rng.randrange(n)] = rng.choice([float("inf"), float("-inf"), -0.0])
        return np.array(vals, dtype=dt).reshape(shape)
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    return np.array([rng.randint(lo, hi) for _ in range(n)], dtype=dt).reshape(shape)


def random_indices(rng, t, shape, axis_size, negative, oor):
    """Valid indices, negative ones when allowed; with oor, some outside the axis."""
    n = int(np.prod(shape)) if shape else 1
    dt = TYPES[t][0]
    info = np.iinfo(dt)
    signed = info.min < 0
    vals = []
    for _ in range(n):
        if axis_size > 0 and not (oor and rng.random() < 0.3):
            v = rng.randrange(axis_size)
            if negative and signed and rng.random() < 0.4:
                v -= axis_size
        else:
            v = rng.choice([axis_size, axis_size + rng.randint(0, 5), int(info.max)]
                           + ([-axis_size - 1, -axis_size - rng.randint(1, 5), int(info.min)]
                              if signed else []))
        vals.append(max(int(info.min), min(int(info.max), v)))
    return np.array(vals, dtype=dt).reshape(shape)


def random_shape(rng, rank, allow_empty):
    return [0 if allow_empty and rng.random() < 0.03 else rng.randint(1, 4) for _ in range(rank)]


# ---- OpenVINO ------------------------------------------------------------------------------------

core = ov.Core()


def ov_cpu(data, dtype, indices, itype, axis, axis_type, batch_dims):
    p0 = ops.parameter(list(data.shape), TYPES[dtype][1])
    p1 = ops.parameter(list(indices.shape), TYPES[itype][1])
    g = ops.gather(p0, p1, ops.constant(axis, TYPES[axis_type][1]), batch_dims=batch_dims)
    compiled = core.compile_model(ov.Model([g], [p0, p1]), "CPU")
    return np.asarray(list(compiled([data, indices]).values())[0])


def ov_cpu_exact(data, dtype, indices, itype, axis, axis_type, batch_dims):
    """The CPU plugin computes 64-bit types in 32 bits: run those as pairs of
    INT32 (a trailing dim of 2), which it moves exactly, with the axis
    normalised for the extra dim."""
    if dtype not in ("FLOAT64", "INT64", "UINT64"):
        return ov_cpu(data, dtype, indices, itype, axis, axis_type, batch_dims)
    pairs = np.ascontiguousarray(data).view(np.int32).reshape(list(data.shape) + [2])
    a = int(axis.reshape(-1)[0])
    a = np.array(a + data.ndim if a < 0 else a, dtype=np.int64).reshape(axis.shape)
    got = ov_cpu(pairs, "INT32", indices, itype, a, "INT64", batch_dims)
    return np.ascontiguousarray(got).view(TYPES[dtype][0]).reshape(got.shape[:-1])


def cpu_worker(conn):
    while True:
        args = conn.recv()
        if args is None:
            return
        conn.send(ov_cpu_exact(*args))


def ov_reference(data, dtype, indices, axis, batch_dims):
    d = data.view(VIEW[dtype]) if dtype in VIEW else data.astype(WIDEN.get(dtype, data.dtype))
    i = indices
    if i.dtype == np.uint64:
        i = np.minimum(i, np.uint64(2**63 - 1))
    i = i.astype(np.int64)
    a = np.asarray(axis, dtype=np.int64)
    p0 = ops.parameter(list(d.shape), ov.Type(d.dtype))
    p1 = ops.parameter(list(i.shape), ov.Type.i64)
    g = ops.gather(p0, p1, ops.constant(a), batch_dims=batch_dims)
    shape = list(g.get_output_shape(0))
    res = ov.Tensor(ov.Type(d.dtype), ov.Shape(shape))
    if not g.evaluate([res], [ov.Tensor(d), ov.Tensor(np.ascontiguousarray(i)), ov.Tensor(a)]):
        raise RuntimeError("OpenVINO's reference cannot evaluate this Gather")
    r = np.array(res.data).reshape(shape)
    return r.view(TYPES[dtype][0]) if dtype in VIEW else r.astype(TYPES[dtype][0])


def bits_equal(a, b):
    return a.shape == b.shape and np.ascontiguousarray(a).tobytes() == np.ascontiguousarray(b).tobytes()


def openvino_case(rng, k, stats, cpu):
    r = rng.randint(1, 6)
    q = rng.randint(0, 4)
    lo = min(r, q)
    b = rng.randint(0, min(lo, r - 1))
    axis = rng.randint(b, r - 1)
    dshape = random_shape(rng, r, allow_empty=True)
    ishape = dshape[:b] + random_shape(rng, q - b, allow_empty=True)
    dtype, itype = rng.choice(DATA_TYPES), rng.choice(INT_TYPES)
    oor = rng.random() < 0.25
    data = random_data(rng, dtype, dshape)
    indices = random_indices(rng, itype, ishape, dshape[axis], True, oor)
    oor = oor or dshape[axis] == 0  # an empty axis has no valid index
    axis_attr = axis - r if rng.random() < 0.4 else axis
    b_attr = b - q if 0 < b < q and b - q >= -lo and rng.random() < 0.4 else b
    axis_type = rng.choice(INT_TYPES) if axis_attr >= 0 else rng.choice(INT_TYPES[:4])
    axis_arr = np.array(axis_attr if rng.random() < 0.5 else [axis_attr], dtype=TYPES[axis_type][0])
    want = ov_reference(data, dtype, indices, axis, b)
    note = "expected: OpenVINO CPU plugin"
    got = cpu.run(data, dtype, indices, itype, axis_arr, axis_type, b_attr)
    empty = 0 in dshape or 0 in ishape
    if got is None:
        stats["ov_cpu_crashed_empty" if empty else "ov_cpu_crashed"] += 1
        note = "expected: OpenVINO reference; the CPU plugin crashed"
    elif not bits_equal(got, want):
        why = "out-of-range" if oor else "other"
        stats["ov_cpu_disagrees_" + why] += 1
        note = "expected: OpenVINO reference; the CPU plugin differs (%s, %s data)" % (why, dtype)
    stats["openvino.Gather-8"] += 1
    stats["oor_cases"] += int(oor)
    attrs = {"batch_dims": b_attr}
    inputs = {"data": tensor(dtype, data), "indices": tensor(itype, indices),
              "axis": tensor(axis_type, axis_arr)}
    return {"name": "diff.openvino.gather8.%04d" % k, "source": "diff:openvino-cpu",
            "op": "openvino.Gather-8", "attrs": attrs, "inputs": inputs,
            "expected": {"outputs": {"output": tensor(dtype, want)}}, "note": note}


# ---- ONNX ------------------------------------------------------------------------------------------

def onnx_expected(version, data, dtype, indices, itype, axis):
    r, q = data.ndim, indices.ndim
    node = helper.make_node("Gather", ["data", "indices"], ["output"], axis=axis)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("data", TYPES[dtype][2], list(data.shape)),
         helper.make_tensor_value_info("indices", TYPES[itype][2], list(indices.shape))],
        [helper.make_tensor_value_info("output", TYPES[dtype][2],
                                       ["d%d" % i for i in range(q + r - 1)])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)])
    try:
        return ReferenceEvaluator(model).run(None, {"data": data, "indices": indices})[0]
    except IndexError:
        return None


def onnx_case(rng, k, stats):
    version = rng.choice([1, 11, 13, 13])
    r = rng.randint(1, 6)
    q = rng.randint(0, 3)
    dshape = random_shape(rng, r, allow_empty=True)
    ishape = random_shape(rng, q, allow_empty=True)
    axis = rng.randrange(r)
    dtype, itype = rng.choice(DATA_TYPES), rng.choice(["INT32", "INT64"])
    oor = rng.random() < 0.2
    data = random_data(rng, dtype, dshape)
    indices = random_indices(rng, itype, ishape, dshape[axis], version >= 11 or rng.random() < 0.2,
                             oor)
    axis_attr = axis - r if rng.random() < 0.4 else axis
    want = onnx_expected(version, data, dtype, indices, itype, axis_attr)
    note = "expected: onnx.reference"
    size = dshape[axis]
    wide = indices.astype(np.float64)  # exact enough for a range test, any sign
    if version == 1 and want is not None and (wide < 0).any() and not (wide >= size).any():
        want = None
        stats["onnx_gather1_negative_error_by_spec"] += 1
        note = "Gather-1 has no negative indices: an error (onnx.reference wraps them)"
    elif want is not None and ((wide < -size) | (wide >= size)).any():
        want = None
        stats["onnx_empty_output_error_by_spec"] += 1
        note = ("an index is out of range: an error by the spec, although np.take in "
                "onnx.reference checks nothing when the dims before the axis are empty")
    name = "onnx.Gather-%d" % version
    stats[name] += 1
    stats["oor_cases"] += int(oor)
    if want is None:
        stats["onnx_index_out_of_range"] += 1
        expected = {"error": "index_out_of_range"}
    else:
        expected = {"outputs": {"output": tensor(dtype, want)}}
    return {"name": "diff.onnx.gather%d.%04d" % (version, k), "source": "diff:onnx-reference",
            "op": name, "attrs": {"axis": axis_attr},
            "inputs": {"data": tensor(dtype, data), "indices": tensor(itype, indices)},
            "expected": expected, "note": note}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=1200, help="cases in all (half OpenVINO, half ONNX)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="build/diff/gather")
    a = p.parse_args()
    rng = random.Random(a.seed)
    clear_out(a.out)
    stats = {k: 0 for k in ["openvino.Gather-8", "onnx.Gather-1", "onnx.Gather-11", "onnx.Gather-13",
                            "oor_cases", "onnx_index_out_of_range",
                            "onnx_gather1_negative_error_by_spec", "onnx_empty_output_error_by_spec",
                            "ov_cpu_crashed_empty",
                            "ov_cpu_disagrees_out-of-range",
                            "ov_cpu_disagrees_other", "ov_cpu_crashed"]}
    n_ov = a.count // 2
    cpu = CpuPlugin(cpu_worker, None)
    ov_cases = [openvino_case(rng, k, stats, cpu) for k in range(n_ov)]
    cpu.close()
    onnx_cases = [onnx_case(rng, k, stats) for k in range(a.count - n_ov)]
    for i in range(0, len(ov_cases), 100):
        write(os.path.join(a.out, "openvino_gather8_%02d.json" % (i // 100)), ov_cases[i:i + 100])
    for i in range(0, len(onnx_cases), 100):
        write(os.path.join(a.out, "onnx_gather_%02d.json" % (i // 100)), onnx_cases[i:i + 100])
    print("gen_gather: seed %d, %d cases in %s" % (a.seed, a.count, a.out))
    for k, v in stats.items():
        print("  %-40s %d" % (k, v))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
