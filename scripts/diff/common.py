# SPDX-License-Identifier: MIT
"""Helpers shared by the differential case generators (gen_*.py): the case
format's type names, its value and tensor encoding, writing case files, and
OpenVINO's CPU plugin in a child process."""
import json
import multiprocessing
import os

import numpy as np

# Case type name -> numpy type; the generators draw types in this order.
NUMPY_TYPES = {
    "FLOAT16": np.float16, "FLOAT32": np.float32, "FLOAT64": np.float64,
    "INT8": np.int8, "INT16": np.int16, "INT32": np.int32, "INT64": np.int64,
    "UINT8": np.uint8, "UINT16": np.uint16, "UINT32": np.uint32, "UINT64": np.uint64,
    "BOOLEAN": np.bool_,
}
# numpy dtype -> case type name.
TYPE_NAMES = {np.dtype(t): name for name, t in NUMPY_TYPES.items()}


def jvalue(t, v):
    """One element of case type t as JSON: NaN, infinities and -0.0 as strings,
    integers beyond 2^53 as decimal strings."""
    if t == "BOOLEAN":
        return bool(v)
    if t.startswith("FLOAT"):
        v = float(v)
        if v != v:
            return "nan"
        if v in (float("inf"), float("-inf")):
            return "inf" if v > 0 else "-inf"
        if v == 0 and np.signbit(v):
            return "-0.0"
        return v
    v = int(v)
    return str(v) if abs(v) > 2**53 else v


def tensor(t, a, shape=None):
    """A case tensor of type t holding a (with another shape when given)."""
    a = np.asarray(a, dtype=NUMPY_TYPES[t])
    return {"type": t, "shape": list(a.shape if shape is None else shape),
            "data": [jvalue(t, v) for v in a.reshape(-1).tolist()]}


def clear_out(path):
    """Creates the output folder, or removes the case files a previous run left there."""
    os.makedirs(path, exist_ok=True)
    for f in os.listdir(path):
        if f.endswith(".json"):
            os.remove(os.path.join(path, f))


def write(path, cases):
    """A dmlcl-case/1 file, one case a line."""
    with open(path, "w") as f:
        f.write('{"format": "dmlcl-case/1", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")


class CpuPlugin:
    """OpenVINO's CPU plugin in a child process, since some cases crash it.
    worker(conn) answers each argument tuple it receives until it gets None;
    run returns `crashed` when the child died, and the next run starts another."""

    def __init__(self, worker, crashed):
        self.ctx = multiprocessing.get_context("spawn")
        self.worker = worker
        self.crashed = crashed
        self.proc = None

    def start(self):
        # The child's end lives only in the child once start returns, so its death reads as EOF.
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=self.worker, args=(child,), daemon=True)
        self.proc.start()

    def run(self, *args):
        if self.proc is None or not self.proc.is_alive():
            self.start()
        self.conn.send(args)
        try:
            return self.conn.recv()
        except EOFError:
            self.proc.join()
            self.proc = None
            return self.crashed

    def close(self):
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join()
