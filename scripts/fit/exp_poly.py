# SPDX-License-Identifier: MIT
"""The polynomial of cl/exp.cl: e^r = 1 + r + r^2 P(r) on |r| <= ln 2 / 2, P of degree 4 fitted
for the smallest maximum relative error of e^r (a minimax fit by Lawson's iteration: weighted
least squares whose weights grow where the error is largest), in double. Prints P's
coefficients rounded to float, as cl/exp.cl writes them, and the fit's error in units of 2^-24
(the float rounding of the evaluation comes on top: tests/ops/kernels.c holds the whole exp to
2 ULPs). Run: scripts/fit-exp [--degree N]."""
import argparse

import numpy as np


def fit(degree, iterations=300):
    h = np.log(2.0) / 2
    r = h * np.cos(np.linspace(0.0, np.pi, 6001))  # Chebyshev points: dense at the ends
    r = r[r != 0.0]
    target = (np.expm1(r) - r) / (r * r)  # P's ideal values
    weight = r * r / np.exp(r)  # an error in P is r^2 / e^r of e^r's relative error
    basis = np.vander(r, degree + 1, increasing=True)
    w = np.ones_like(r)
    for _ in range(iterations):
        sw = np.sqrt(w) * weight
        c, *_ = np.linalg.lstsq(basis * sw[:, None], target * sw, rcond=None)
        err = np.abs(weight * (target - basis @ c))
        w = w * err
        w /= w.sum()
    c32 = c.astype(np.float32).astype(np.float64)
    err32 = np.max(np.abs(weight * (target - basis @ c32)))
    return c32, err32


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--degree", type=int, default=4)
    a = ap.parse_args()
    c, err = fit(a.degree)
    print("P, constant term first (float):", ", ".join("%.9e" % v for v in c))
    print("maximum relative error of e^r from P's fit: %.3g (%.3f of 2^-24)" % (err, err * 2**24))


if __name__ == "__main__":
    main()
