# SPDX-License-Identifier: MIT
"""Shared helpers of the ONNX Runtime DirectML-provider descriptor-form cases.

Each gen_*.py here writes conformance/cases/ort-dml/NAME.json: DirectML operators (and graphs)
in the exact descriptor forms ONNX Runtime's DirectML execution provider builds for an ONNX
operator (tensors padded to 4-D or 5-D, broadcasts by zero strides, transposes through strides,
OWNED_BY_DML weights, fused activations, ...), with small seeded data. Every expectation is
numpy or onnx.reference in float64 of the ONNX operator's definition, never dmlcl's output.
Run each with a python that has numpy and onnx (scripts/venv), from anywhere:
    .venv/bin/python conformance/gen/ort_dml/gen_gemm.py
"""
import json, math, os
import numpy as np
rng = np.random.default_rng(1234)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cases", "ort-dml")
NPT = {"FLOAT32": np.float32, "FLOAT16": np.float16, "INT32": np.int32, "INT64": np.int64,
       "UINT32": np.uint32, "UINT64": np.uint64, "UINT8": np.uint8, "INT8": np.int8,
       "UINT16": np.uint16, "INT16": np.int16}

def jv(x):
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if math.isnan(x): return "nan"
        if math.isinf(x): return "inf" if x > 0 else "-inf"
        return x
    return int(x)

def T(typ, arr, strides=None, shape=None):
    a = np.asarray(arr)
    d = {"type": typ, "shape": list(shape if shape is not None else a.shape),
         "data": [jv(v) for v in a.reshape(-1).tolist()]}
    if strides is not None:
        d["strides"] = list(strides)
    return d

def D(typ, shape, strides=None):
    d = {"type": typ, "shape": list(shape)}
    if strides is not None:
        d["strides"] = list(strides)
    return d

def rnd(shape, typ="FLOAT32", lo=-2, hi=2):
    a = rng.uniform(lo, hi, size=shape)
    if typ == "FLOAT16":
        return a.astype(np.float16).astype(np.float64)
    if typ == "FLOAT32":
        return a.astype(np.float32).astype(np.float64)
    return np.round(a).astype(NPT[typ])

def case(name, op, inputs, outputs=None, attrs=None, error=None, note=None, tol=None):
    c = {"name": "ort-dml." + name, "source": "onnxruntime-dml:descriptor-forms#" + name,
         "op": op, "inputs": inputs}
    if attrs is not None:
        c["attrs"] = attrs
    if error:
        c["expected"] = {"error": error}
    else:
        c["expected"] = {"outputs": outputs}
    if note: c["note"] = note
    if tol: c["tolerance"] = tol
    return c

def out(typ, arr, ulp=None, abs_=None, strides=None):
    d = T(typ, arr, strides)
    tol = {}
    if ulp is not None: tol["ulp"] = ulp
    if abs_ is not None: tol["abs"] = abs_
    if tol: d["tolerance"] = tol
    return d

def write(fname, cases):
    """One case a line, as every generated case file of the project."""
    with open(os.path.join(OUT, fname), "w") as f:
        f.write('{"format": "dmlcl-case/1", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")
