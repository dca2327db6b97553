#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""GELU's accuracy where it is small (x from -3 to -12), as each peer computes it: ONNX
Runtime's CPU Gelu (opset 20, approximate "none") and OpenVINO's CPU Gelu (erf mode), beside
dmlcl's ACTIVATION_GELU (through dmlcl.onnx and dmlcl-dispatch, when DMLCL_LIBRARY names a build's
library), against
x / 2 * erfc(-x / sqrt 2) in float64 (Python's math.erfc), in float32 ULPs of the exact value.
DirectML holds GELU to 18 ULP (reference/precision.md); a peer that forms 1 + erf(x / sqrt 2)
loses every digit there, which is what its speed on the gelu workload buys (docs/performance.md).
Run with scripts/venv's python: DMLCL_LIBRARY=build/libdmlcl.so .venv/bin/python bench/gelu_tail.py"""
import math
import sys

import numpy as np

X = np.array([-3, -4, -5, -6, -8, -10, -12], dtype=np.float32)


def exact(x):
    return 0.5 * float(x) * math.erfc(-float(x) / math.sqrt(2.0))


def ulps(got, want):
    w = np.float32(want)
    step = float(np.spacing(abs(w))) if w != 0 else 1.4e-45
    return (float(got) - want) / step


def gelu_model():
    import onnx.helper as h
    from onnx import TensorProto
    node = h.make_node("Gelu", ["x"], ["y"], approximate="none")
    graph = h.make_graph([node], "gelu", [h.make_tensor_value_info("x", TensorProto.FLOAT, [len(X)])],
                         [h.make_tensor_value_info("y", TensorProto.FLOAT, [len(X)])])
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 20)])


def dmlcl_gelu():
    """dmlcl's ACTIVATION_GELU through dmlcl.onnx and dmlcl-dispatch (DMLCL_LIBRARY names the
    build's library, e.g. build/libdmlcl.so; python/ on the path)."""
    import os
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
    import dmlcl.onnx
    lowered = dmlcl.onnx.lower(gelu_model(), {"x": [len(X)]})
    outputs, _ = dmlcl.onnx.run(lowered, {"x": X})
    return outputs["y"]


def onnxruntime_gelu():
    import onnxruntime as ort
    s = ort.InferenceSession(gelu_model().SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, {"x": X})[0]


def openvino_gelu():
    import openvino as ov
    from openvino import opset8 as ops8
    p = ops8.parameter([len(X)], ov.Type.f32)
    model = ov.Model([ops8.gelu(p, "erf")], [p], "gelu")
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return compiled([X])[0]


def main():
    peers = []
    for name, run in (("dmlcl", dmlcl_gelu), ("onnxruntime", onnxruntime_gelu),
                      ("openvino", openvino_gelu)):
        try:
            peers.append((name, run()))
        except Exception as e:  # a peer not installed: say so, go on
            print("%s: not run (%s)" % (name, e))
    print("x," + ",".join("%s value,%s ulps" % (n, n) for n, _ in peers) + ",exact")
    for i, x in enumerate(X):
        want = exact(x)
        cells = ["%.8e,%.3g" % (float(y[i]), ulps(y[i], want)) for _, y in peers]
        print("%g,%s,%.8e" % (x, ",".join(cells), want))


if __name__ == "__main__":
    main()
