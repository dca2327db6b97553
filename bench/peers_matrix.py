#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The compute workloads' peers (bench/workloads_matrix.c's shapes): numpy's matmul
(OpenBLAS), ONNX Runtime CPU (MLAS) and OpenVINO CPU (oneDNN), each the way a user runs it;
prints `system,workload,flops,seconds,min_seconds,gflops_median` (median and minimum of at
least --reps runs and --seconds per system, after two warm-up runs, each run from a cold
cache as dmlcl-bench's are). Every result is checked against a float64 product.

numpy runs in a child process with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset (this
machine's environment pins an older kernel for the tests' sake: ../.library/env/README.md),
and the child reports which kernel OpenBLAS then runs (threadpoolctl).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

from peers import last_level_cache_bytes  # bench/peers.py's rule

# name -> (batch, M, N, K, B transposed), as bench/workloads_matrix.c.
GEMMS = {
    "sgemm-1024": (1, 1024, 1024, 1024, False),
    "sgemm-4096x4096x1024": (1, 4096, 4096, 1024, False),
    "gemm-projection": (1, 1024, 1536, 384, False),
    "gemm-attention": (96, 128, 128, 64, True),
}


def operands(name):
    batch, m, n, k, trans_b = GEMMS[name]
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, (batch, m, k)).astype(np.float32)
    b = rng.integers(-4, 5, (batch, n, k) if trans_b else (batch, k, n)).astype(np.float32)
    return a, b, trans_b


def flush_caches(_state={}):
    """Reads a buffer twice the last-level cache, as dmlcl-bench's contenders do (a fixed
    64 MiB left a 480 MiB L3 holding the operands: the peers ran warm, dmlcl cold)."""
    if "buf" not in _state:
        _state["buf"] = np.ones(2 * last_level_cache_bytes() // 8, dtype=np.int64)
    return int(_state["buf"].sum())


def timed(fn, reps, seconds):
    fn()
    fn()
    times = []
    start = time.perf_counter()
    while len(times) < reps or (time.perf_counter() - start < seconds and len(times) < 200):
        flush_caches()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def check(name, got):
    a, b, trans_b = operands(name)
    want = np.matmul(a.astype(np.float64), np.swapaxes(b, 1, 2) if trans_b else b)
    if not np.array_equal(got.reshape(want.shape), want):  # small integers: exact
        sys.exit(f"peers_matrix: {name}: wrong result")


def numpy_child(names, reps, seconds):
    """Runs in the child: numpy with the current OpenBLAS kernel."""
    out = []
    for name in names:
        a, b, trans_b = operands(name)
        bb = np.swapaxes(b, 1, 2) if trans_b else b
        res = np.empty((a.shape[0], a.shape[1], bb.shape[2]), np.float32)
        med, mn = timed(lambda: np.matmul(a, bb, out=res), reps, seconds)
        check(name, res)
        out.append((name, med, mn))
    try:
        from threadpoolctl import threadpool_info
        kernel = ";".join(f"{i.get('internal_api')} {i.get('architecture')} threads "
                          f"{i.get('num_threads')}" for i in threadpool_info())
    except ImportError:
        kernel = "threadpoolctl not installed"
    print(json.dumps({"results": out, "kernel": kernel}))


def onnxruntime_runner(name):
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper
    a, b, trans_b = operands(name)
    batch, m, n, k, _ = GEMMS[name]
    if batch == 1 and not trans_b:  # Gemm, as a linear layer exports
        node = helper.make_node("Gemm", ["a", "b"], ["out"])
        a2, b2 = a[0], b[0]
    else:
        node = helper.make_node("MatMul", ["a", "bt"], ["out"])
        a2, b2 = a, np.ascontiguousarray(np.swapaxes(b, 1, 2)) if trans_b else b
    graph = helper.make_graph(
        [node], "op", [helper.make_tensor_value_info("a", TensorProto.FLOAT, list(a2.shape))],
        [helper.make_tensor_value_info("out", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(b2, "b" if node.op_type == "Gemm" else "bt")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    res = {}

    def run():
        res["out"] = s.run(None, {"a": a2})[0]
    return run, lambda: res["out"]


def openvino_runner(name):
    import openvino as ov
    from openvino import opset8 as ops
    a, b, trans_b = operands(name)
    p = ops.parameter(list(a.shape), ov.Type.f32)
    mm = ops.matmul(p, ops.constant(b), False, trans_b)
    compiled = ov.Core().compile_model(ov.Model([mm], [p], "gemm"), "CPU",
                                       {"INFERENCE_PRECISION_HINT": "f32"})
    req = compiled.create_infer_request()
    return (lambda: req.infer({0: a})), (lambda: req.get_output_tensor(0).data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--only", help="comma-separated workload names")
    ap.add_argument("--numpy-child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = [n for n in GEMMS if not args.only or n in args.only.split(",")]
    if args.numpy_child:
        return numpy_child(names, args.reps, args.seconds)
    print("system,workload,flops,seconds,min_seconds,gflops_median")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    child = subprocess.run([sys.executable, __file__, "--numpy-child", "--reps", str(args.reps),
                            "--seconds", str(args.seconds)] +
                           (["--only", args.only] if args.only else []),
                           env=env, capture_output=True, text=True, check=True)
    report = json.loads(child.stdout)
    print(f"# numpy: {report['kernel']}", file=sys.stderr)
    rows = [("numpy", n, med, mn) for n, med, mn in report["results"]]
    for system, runner in (("onnxruntime", onnxruntime_runner), ("openvino", openvino_runner)):
        for name in names:
            try:
                run, result = runner(name)
            except ImportError as e:
                print(f"# {system}: {e}", file=sys.stderr)
                break
            med, mn = timed(run, args.reps, args.seconds)
            check(name, np.asarray(result()))
            rows.append((system, name, med, mn))
    for system, name, med, mn in rows:
        batch, m, n, k, _ = GEMMS[name]
        flops = 2.0 * batch * m * n * k
        print(f"{system},{name},{flops:.0f},{med:.6f},{mn:.6f},{flops / med / 1e9:.1f}")


if __name__ == "__main__":
    main()
