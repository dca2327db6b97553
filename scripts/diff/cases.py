# SPDX-License-Identifier: MIT
"""What the random differential scripts share (scripts/diff/gemm.py, reduce.py, conv.py, ...):
the ULP distance, the loop that draws, runs and checks cases, printing each mismatch with its
replay line, and the command line that runs it."""
import argparse
import sys

import numpy as np


def ulps(got, want, dtype):
    """ULP distance on the integer line of the bit patterns (signs folded)."""
    itype = np.int16 if dtype == np.float16 else np.int32
    with np.errstate(over="ignore"):  # a float16 result past 65504 is infinity on both sides
        g = got.astype(dtype).view(itype).astype(np.int64)
        w = want.astype(dtype).view(itype).astype(np.int64)
    top = 1 << (15 if dtype == np.float16 else 31)
    g = np.where(g < 0, -top - g, g)
    w = np.where(w < 0, -top - w, w)
    return np.abs(g - w)


def run_cases(label, make_case, run_dml, check, describe, error, seed, cases, only=None,
              verbose=False, out=sys.stdout):
    """Case i draws from default_rng([seed, i]); run_dml raising `error` counts as a failure;
    check(case, got) returns (indices of the elements out of tolerance, expected)."""
    failed = 0
    for i in range(cases):
        rng = np.random.default_rng([seed, i])
        case = make_case(rng)
        if only is not None and i != only:
            continue
        try:
            got = run_dml(case)
        except error as e:
            failed += 1
            print(f"case {i}: dmlcl error {e}: {describe(case)} (replay: --seed {seed} "
                  f"--only {i})", file=out)
            continue
        bad, want = check(case, got)
        if bad.size:
            failed += 1
            j = bad[0]
            print(f"case {i}: {bad.size} mismatches, first at {j}: got "
                  f"{np.asarray(got).reshape(-1)[j]!r} want {want.reshape(-1)[j]!r}: "
                  f"{describe(case)} (replay: --seed {seed} --only {i})", file=out)
        elif verbose:
            print(f"case {i}: ok: {describe(case)}", file=out)
    ran = cases if only is None else 1
    print(f"{label}: {ran} cases, {failed} failed", file=out)
    return failed


def main(run, doc, default_cases, argv=None):
    """The scripts' command line: --seed, --cases (default_cases), --only, -v; run(seed, cases,
    only, verbose) returns the failures. Returns the exit status (1 on any failure)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=default_cases)
    ap.add_argument("--only", type=int)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    return 1 if run(args.seed, args.cases, args.only, args.verbose) else 0
