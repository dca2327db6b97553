# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-normalize (random batch, mean-variance, LP and local-response
normalisations, the 1.0 softmax family and HARDMAX1, ARGMAX and ARGMIN, the cumulative scans and
top-k against numpy in float64 under reference/precision.md's and docs/operators.md's
tolerances): a fixed seed, 40 cases that draw every one of the sixteen operators. The long
sweep is scripts/diff-normalize --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import normalize  # noqa: E402


def test_random_normalisation_cases_match_numpy():
    out = io.StringIO()
    failed = normalize.run(seed=5, cases=40, out=out)
    assert failed == 0, out.getvalue()


def _first_case(op):
    i = 0
    while True:
        case = normalize.make_case(np.random.default_rng([5, i]))
        i += 1
        if case["op"] == op:
            return case


def _as_output(case, want):
    """What a correct dmlcl would return: the reference in the output's type."""
    if want.dtype.names:
        return want.copy()
    return want.astype(case["outputs"][0][1])


def _spoil(got, want):
    """got with one element wrong: a top-k index, an integer's low bit, or a finite float moved
    past every tolerance."""
    flat = got.reshape(-1)
    if got.dtype.names:
        flat["index"][0] ^= 1
    elif got.dtype.kind in "iu":
        flat[0] ^= 1
    else:
        j = int(np.flatnonzero(np.isfinite(want.reshape(-1)))[0])
        flat[j] = flat[j] + 0.5 * (1 + abs(flat[j]))
    return got


def test_the_check_catches_a_wrong_value_of_every_operator():
    for op in normalize.CODES:
        case = _first_case(op)
        want, _, _ = normalize.reference(case)
        got = _as_output(case, want)
        assert normalize.check(case, got)[0].size == 0, op
        assert normalize.check(case, _spoil(got, want))[0].size == 1, op
