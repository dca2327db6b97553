#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The integer matrix workloads' peers (bench/workloads_matrix.c's qgemm-projection,
mm-integer-1024 and qconv3x3-56): ONNX Runtime CPU's QLinearMatMul, MatMulInteger and QLinearConv
(MLAS's integer kernels), the operators ONNX Runtime's DirectML provider lowers to
QUANTIZED_LINEAR_MATRIX_MULTIPLY, MATRIX_MULTIPLY_INTEGER and QUANTIZED_LINEAR_CONVOLUTION; prints `system,workload,flops,seconds,min_seconds,gflops_median` as
bench/peers_matrix.py does (its timing: two warm-up runs, then at least --reps runs and
--seconds, each from a cold cache). Every result is checked against an exact integer product
(numpy int64), requantized as the workload's expected output is (scales powers of two).
"""
import argparse

import numpy as np

from peers_matrix import timed

# name -> (M, N, K, quantized output)
WORKLOADS = {
    "qgemm-projection": (1024, 1536, 384, True),
    "mm-integer-1024": (1024, 1024, 1024, False),
}
# The convolution: u8 [1, 64, 56, 56] x s8 [64, 64, 3, 3], padding 1, output scale 1/2.
CONV = "qconv3x3-56"
CONV_SO = 0.5


def conv_operands():
    rng = np.random.default_rng(13)
    x = rng.integers(0, 256, (1, 64, 56, 56), dtype=np.uint8)
    w = rng.integers(-128, 128, (64, 64, 3, 3), dtype=np.int8)
    return x, w


def conv_expected():
    x, w = conv_operands()
    xp = np.pad(x.astype(np.int64) - 128, ((0, 0), (0, 0), (1, 1), (1, 1)))
    s = np.zeros((64, 56, 56), np.int64)
    for ky in range(3):
        for kx in range(3):
            s += np.einsum("oc,chw->ohw", w[:, :, ky, kx].astype(np.int64),
                           xp[0, :, ky:ky + 56, kx:kx + 56])
    return np.clip(np.rint(s * (SA * SB / CONV_SO)) + 128, 0, 255).astype(np.uint8)[None]


def conv_runner():
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    x, w = conv_operands()
    inits = [numpy_helper.from_array(w, "w")]
    inits += [numpy_helper.from_array(np.array(v, t), n)
              for n, v, t in (("sx", SA, np.float32), ("zx", 128, np.uint8),
                              ("sw", SB, np.float32), ("zw", 0, np.int8),
                              ("sy", CONV_SO, np.float32), ("zy", 128, np.uint8))]
    node = helper.make_node("QLinearConv", ["x", "sx", "zx", "w", "sw", "zw", "sy", "zy"], ["y"],
                            pads=[1, 1, 1, 1])
    graph = helper.make_graph(
        [node], "op", [helper.make_tensor_value_info("x", TensorProto.UINT8, list(x.shape))],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    res = {}

    def run():
        res["y"] = s.run(None, {"x": x})[0]
    return run, lambda: res["y"]
SA, SB, SO = 1.0 / 64, 1.0 / 128, 0.25


def operands(name):
    m, n, k, _ = WORKLOADS[name]
    rng = np.random.default_rng(11)
    a = rng.integers(0, 256, (m, k), dtype=np.uint8)
    b = rng.integers(-128, 128, (k, n), dtype=np.int8)
    return a, b


def expected(name):
    a, b = operands(name)
    s = (a.astype(np.int64) - 128) @ b.astype(np.int64)
    if not WORKLOADS[name][3]:
        return s.astype(np.int32)
    return np.clip(np.rint(s * (SA * SB / SO)) + 128, 0, 255).astype(np.uint8)


def onnxruntime_runner(name):
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    a, b = operands(name)
    quant = WORKLOADS[name][3]
    inits = [numpy_helper.from_array(b, "b"),
             numpy_helper.from_array(np.array(128, np.uint8), "azp"),
             numpy_helper.from_array(np.array(0, np.int8), "bzp")]
    if quant:
        inits += [numpy_helper.from_array(np.array(v, np.float32), n)
                  for n, v in (("sa", SA), ("sb", SB), ("so", SO))]
        inits.append(numpy_helper.from_array(np.array(128, np.uint8), "ozp"))
        node = helper.make_node("QLinearMatMul", ["a", "sa", "azp", "b", "sb", "bzp", "so", "ozp"],
                                ["out"])
        out_type = TensorProto.UINT8
    else:
        node = helper.make_node("MatMulInteger", ["a", "b", "azp", "bzp"], ["out"])
        out_type = TensorProto.INT32
    graph = helper.make_graph(
        [node], "op", [helper.make_tensor_value_info("a", TensorProto.UINT8, list(a.shape))],
        [helper.make_tensor_value_info("out", out_type, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    res = {}

    def run():
        res["out"] = s.run(None, {"a": a})[0]
    return run, lambda: res["out"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--only", help="comma-separated workload names")
    args = ap.parse_args()
    names = [n for n in WORKLOADS if not args.only or n in args.only.split(",")]
    print("system,workload,flops,seconds,min_seconds,gflops_median")
    for name in names:
        run, result = onnxruntime_runner(name)
        med, mn = timed(run, args.reps, args.seconds)
        if not np.array_equal(np.asarray(result()), expected(name)):
            raise SystemExit(f"peers_quant: onnxruntime {name}: wrong result")
        m, n, k, _ = WORKLOADS[name]
        flops = 2.0 * m * n * k
        print(f"onnxruntime,{name},{flops:.0f},{med:.6f},{mn:.6f},{flops / med / 1e9:.1f}")
    if not args.only or CONV in args.only.split(","):
        run, result = conv_runner()
        med, mn = timed(run, args.reps, args.seconds)
        if not np.array_equal(np.asarray(result()), conv_expected()):
            raise SystemExit(f"peers_quant: onnxruntime {CONV}: wrong result")
        flops = 2.0 * 64 * 56 * 56 * 64 * 9
        print(f"onnxruntime,{CONV},{flops:.0f},{med:.6f},{mn:.6f},{flops / med / 1e9:.1f}")


if __name__ == "__main__":
    main()
