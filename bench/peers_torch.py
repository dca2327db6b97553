#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyTorch as the GPU peer: dmlcl-bench's workloads (bench/peers.py's and
bench/peers_matrix.py's shapes, types and data) run on a CUDA (or ROCm) device
the way PyTorch users write them, each output checked once against numpy (the
reductions, convolutions and GEMMs against their float64 definitions within
peers.py's tolerances), and timed by CUDA events: the median and the minimum of
at least --reps launches after three warm-ups, the L2 flushed before each (as
dmlcl-bench flushes caches), and the median wall-clock time of the same launches
with the host's wait (launch and synchronize, as dmlcl-bench's dmlcl_s). Prints
CSV lines `system,workload,bytes,seconds,min_seconds,wall_seconds` for two
systems: `torch` (the
workload) and `torch-copy` (a device-to-device copy of the workload's output
bytes, the copy a user would call the limit). TF32 is off: float32 inputs
computed in float32, as DirectML's FLOAT32 GEMM and convolution are.

--merge DMLCL_CSV prints, instead of timing, the side-by-side table of a
dmlcl-bench CSV (its --csv-file) and this script's CSV (--torch-csv): each
workload's time on the device by events for both (dmlcl's dmlcl_events_s) and
by the synchronous wall clock for both, their ratios, and the ratios to the
limit dmlcl-bench measured in its run.
"""
import argparse
import csv
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def torch_runner(torch, F, w, dev):
    """The workload as a PyTorch user writes it: a function returning its output (a split's
    outputs as a list)."""
    t = lambda a: torch.from_numpy(np.ascontiguousarray(a)).to(dev)
    k = w["kind"]
    if k == "gather":
        data, idx = t(w["data"]), t(w["indices"])
        if w["batch_dims"]:
            b = torch.arange(data.shape[0], device=dev)[:, None]
            return lambda: data[b, idx]
        return lambda: torch.index_select(data, w["axis"], idx.reshape(-1)).reshape(
            list(data.shape[:w["axis"]]) + list(idx.shape) + list(data.shape[w["axis"] + 1:]))
    if k == "slice":
        x = t(w["data"])
        flips = [i for i, s in enumerate(w["py"]) if s.step is not None and s.step < 0]
        fwd = tuple(slice(s.start, s.stop, s.step) if not (s.step and s.step < 0) else
                    slice(None) for s in w["py"])
        if flips:
            return lambda: x[fwd].flip(flips)
        return lambda: x[fwd].contiguous()
    if k == "broadcast":
        x = t(w["data"])
        return lambda: x.expand(w["shape"]).contiguous()
    if k == "transpose":
        x = t(w["data"])
        return lambda: x.permute(w["perm"]).contiguous()
    if k == "tile":
        x = t(w["data"])
        return lambda: x.repeat(w["reps"])
    if k in ("depth_to_space", "space_to_depth"):
        x, b = t(w["data"]), w["block"]
        n, c, h, wd = x.shape
        if k == "depth_to_space":  # ONNX DCR: reshape, permute, reshape
            return lambda: x.reshape(n, b, b, c // (b * b), h, wd).permute(
                0, 3, 4, 1, 5, 2).reshape(n, c // (b * b), h * b, wd * b)
        return lambda: x.reshape(n, c, h // b, b, wd // b, b).permute(0, 3, 5, 1, 2, 4).reshape(
            n, c * b * b, h // b, wd // b)
    if k == "concat":
        parts = [t(p) for p in w["inputs"]]
        return lambda: torch.cat(parts, w["axis"])
    if k == "split":
        x = t(w["data"])
        return lambda: [p.contiguous() for p in torch.split(x, w["lengths"], w["axis"])]
    if k == "pad":
        x = t(w["data"])
        pads = [v for p in reversed(w["pads"]) for v in (p, p)]
        while pads and pads[-1] == 0:
            pads.pop()
        return lambda: F.pad(x, pads, mode=w["mode"])
    if k == "binary":
        a, b = t(w["data"]), t(w["other"])
        if w["op"] == "Add":
            return lambda: torch.add(a, b)
        if w["op"] == "Mul":
            return lambda: torch.mul(a, b)
        return lambda: torch.relu_(torch.add(a, b))
    if k == "unary":
        x = t(w["data"])
        op = w["op"]
        if op == "Gelu":
            return lambda: F.gelu(x)
        if op == "Sigmoid":
            return lambda: torch.sigmoid(x)
        if op == "CastF16":
            return lambda: x.to(torch.float16)
        if op == "ClipI8":
            return lambda: torch.clamp(x, -50, 50)
        raise ValueError(f"unary op {op}: no PyTorch form")
    if k == "sum":
        x = t(w["data"])
        return lambda: torch.sum(x, w["axis"], keepdim=True)
    if k == "cumsum":
        x = t(w["data"])
        return lambda: torch.cumsum(x, w["axis"])
    if k == "argmax":
        x = t(w["data"])
        return lambda: torch.argmax(x, w["axis"], keepdim=True)
    if k == "softmax":
        x = t(w["data"])
        return lambda: torch.softmax(x, w["axis"])
    if k == "layernorm":
        x, s, b = t(w["data"]), t(w["scale"]), t(w["bias"])
        return lambda: F.layer_norm(x, (x.shape[-1],), s, b, w["epsilon"])
    if k == "bn_relu":
        x, m, v, s, b = (t(w[n]) for n in ("data", "mean", "var", "scale", "bias"))
        return lambda: torch.relu_(F.batch_norm(x, m, v, s, b, False, 0.0, w["epsilon"]))
    if k == "maxpool":
        x = t(w["data"])
        return lambda: F.max_pool2d(x, w["window"], w["stride"], w["pad"])
    if k == "global_avgpool":
        x = t(w["data"])
        return lambda: F.adaptive_avg_pool2d(x, 1)
    if k == "resample":
        x = t(w["data"])
        if w["mode"] == "nearest":
            return lambda: F.interpolate(x, scale_factor=2, mode="nearest")
        return lambda: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
    if k == "conv":
        x, f, b = t(w["data"]), t(w["filter"]), t(w["bias"])
        if w["transposed"]:
            return lambda: F.conv_transpose2d(x, f, b, w["stride"], w["pad"], groups=w["groups"])
        return lambda: F.conv2d(x, f, b, w["stride"], w["pad"], groups=w["groups"])
    if k == "gemm":
        a, b = t(w["a"]), t(w["b"])
        return (lambda: torch.matmul(a, b.transpose(1, 2))) if w["trans_b"] else (
            lambda: torch.matmul(a, b))
    raise SystemExit(f"peers_torch: no PyTorch form for kind {k}")


def all_workloads():
    import peers
    import peers_matrix
    w = peers.workloads()
    for name in peers_matrix.GEMMS:
        a, b, trans_b = peers_matrix.operands(name)
        w[name] = dict(kind="gemm", a=a, b=b, trans_b=trans_b)
    return w


def expected_output(w):
    """(expected array, tolerance or None for byte-exact, float64 reference?)"""
    import peers
    k = w["kind"]
    if k == "gemm":
        b = np.swapaxes(w["b"], 1, 2) if w["trans_b"] else w["b"]
        return np.matmul(w["a"].astype(np.float64), b), None, True  # small integers: exact
    if k in peers.TOLERANCE:
        return peers.reference64(w), peers.TOLERANCE[k], True
    return peers.numpy_reference(w), None, False


def check(name, got, w):
    import peers
    want, tol, is_ref = expected_output(w)
    if isinstance(got, list):
        got = np.concatenate([g.reshape(-1) for g in got])
    got = np.asarray(got)
    if w["kind"] == "unary":
        ok = got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=2e-6)
    elif is_ref:
        if w["kind"] == "gemm":
            ok = np.array_equal(got.reshape(want.shape), want)
        else:
            ok = peers.within(got, want.astype(np.int64) if w["kind"] == "argmax" else want, tol)
    else:
        ok = got.shape == want.shape and np.array_equal(got.view(np.uint8), want.view(np.uint8))
    if not ok:
        print(f"peers_torch: {name}: PyTorch's output differs from the reference", file=sys.stderr)
    return ok


def time_events(torch, fn, reps, seconds, flush):
    """Median and minimum by CUDA events (the device's time: start to end of the launches; the
    L2 flush queued before the start event keeps the GPU busy while the host launches, so the
    events see no host time), and the median wall-clock time of one synchronous launch with the
    host's wait (launch and synchronize, as dmlcl-bench's dmlcl_s), each after an L2 flush.
    (A synchronize between the flush and the start event puts the host's launch of fn inside the
    events: the first H200 run of the wall column, 2026-11-30, read 0.025 ms for a max pooling
    CUDA events put at 0.008 two days before.)"""
    import time
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times, spent = [], 0.0
    while len(times) < reps or (spent < seconds and len(times) < 400):
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        t = start.elapsed_time(end) / 1e3
        times.append(t)
        spent += t + 2e-4
    walls = []
    for _ in range(max(reps, min(len(times), 100))):
        flush.zero_()
        torch.cuda.synchronize()
        w0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        walls.append(time.perf_counter() - w0)
    return statistics.median(times), min(times), statistics.median(walls)


def out_bytes(got):
    if isinstance(got, list):
        return sum(g.numel() * g.element_size() for g in got)
    return got.numel() * got.element_size()


def run(args):
    import torch
    import torch.nn.functional as F
    if not torch.cuda.is_available():
        raise SystemExit("peers_torch: PyTorch sees no CUDA/ROCm device")
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")
    props = torch.cuda.get_device_properties(dev)
    print(f"# torch {torch.__version__} on {props.name}", file=sys.stderr)
    # Twice the L2 (60 MB on an H200), zeroed before each timed launch.
    flush = torch.empty(max(2 * getattr(props, "L2_cache_size", 64 << 20), 128 << 20) // 4,
                        dtype=torch.float32, device=dev)
    only = set(filter(None, args.only.split(",")))
    failed = 0
    print("system,workload,bytes,seconds,min_seconds,wall_seconds", flush=True)
    for name, w in all_workloads().items():
        if args.filter not in name or (only and name not in only):
            continue
        try:
            fn = torch_runner(torch, F, w, dev)
            got = fn()
            torch.cuda.synchronize()
            host = [g.cpu().numpy() for g in got] if isinstance(got, list) else got.cpu().numpy()
        except Exception as e:  # noqa: BLE001 - one workload's failure is reported, not fatal
            print(f"peers_torch: {name}: {type(e).__name__}: {e}", file=sys.stderr)
            failed += 1
            continue
        if not args.no_check and not check(name, host, w):
            failed += 1
            continue
        nbytes = out_bytes(got)
        med, best, wall = time_events(torch, fn, args.reps, args.seconds, flush)
        print(f"torch,{name},{nbytes},{med:.9f},{best:.9f},{wall:.9f}", flush=True)
        src = torch.empty(max(nbytes // 4, 1), dtype=torch.float32, device=dev)
        dst = torch.empty_like(src)
        med, best, wall = time_events(torch, lambda: dst.copy_(src), args.reps, args.seconds,
                                      flush)
        print(f"torch-copy,{name},{nbytes},{med:.9f},{best:.9f},{wall:.9f}", flush=True)
        del got, src, dst
    if failed:
        raise SystemExit(f"peers_torch: {failed} workload(s) differ from the reference")


def merge(args):
    """The side-by-side table: dmlcl-bench's CSV (seconds and its limit) and this script's.
    Two like-for-like ratios: the device's time (dmlcl by OpenCL profiling events, PyTorch by
    CUDA events: the launches on the GPU, without the host) and the wall-clock time of one
    synchronous launch (enqueue and wait, both). A CSV of an older dmlcl-bench or of this
    script without those columns leaves their cells n/a."""
    torch_rows = {}
    with open(args.torch_csv) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            torch_rows[(r["system"], r["workload"])] = r

    def num(row, key):
        try:
            v = float(row.get(key) or "nan")
        except ValueError:
            return float("nan")
        return v if v > 0 else float("nan")

    def ms(v):
        return "n/a" if v != v else f"{v * 1e3:.3f}"

    def ratio(a, b):
        return "n/a" if a != a or b != b else f"{a / b:.2f}"

    print("| workload | dmlcl ms (events) | PyTorch ms (events) | PyTorch / dmlcl (events) | "
          "dmlcl ms (wall, synchronous) | PyTorch ms (wall, synchronous) | PyTorch / dmlcl "
          "(wall) | dmlcl / limit (wall) | PyTorch / limit (events) |")
    print("|---|---|---|---|---|---|---|---|---|")
    ahead = ahead_wall = timed = total = 0
    with open(args.merge) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            name = r["workload"]
            t = torch_rows.get(("torch", name))
            if t is None:
                continue
            d, lim, de = num(r, "dmlcl_s"), num(r, "limit_s"), num(r, "dmlcl_events_s")
            tt, tw = num(t, "seconds"), num(t, "wall_seconds")
            total += 1
            if de == de:
                timed += 1
                ahead += de <= tt
            ahead_wall += tw == tw and d <= tw
            # The limit is the time of the traffic at the best mechanism: ratios are limit / time.
            print(f"| {name} | {ms(de)} | {ms(tt)} | {ratio(tt, de)} | {ms(d)} | {ms(tw)} | "
                  f"{ratio(tw, d)} | {ratio(lim, d)} | {ratio(lim, tt)} |")
    print(f"\ndmlcl at or ahead of PyTorch on {ahead} of {timed} workloads by the device's time "
          f"(events), on {ahead_wall} of {total} by the synchronous wall clock.")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--filter", default="")
    ap.add_argument("--only", default="", help="only these workloads: names, comma separated")
    ap.add_argument("--no-check", action="store_true", help="skip the output checks")
    ap.add_argument("--merge", metavar="DMLCL_CSV")
    ap.add_argument("--torch-csv", metavar="TORCH_CSV")
    args = ap.parse_args()
    if args.merge:
        merge(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
