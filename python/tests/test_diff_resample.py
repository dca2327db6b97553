# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-resample (random RESAMPLE, RESAMPLE1, RESAMPLE2, RESAMPLE3 and
UPSAMPLE_2D, nearest neighbour in every rounding mode and LINEAR (antialiased too), against
numpy; nearest exact, LINEAR within reference/precision.md's 84 ULP): a fixed seed, 40 cases.
The long sweep is scripts/diff-resample --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import resample  # noqa: E402


def test_random_resamplings_match_numpy():
    out = io.StringIO()
    failed = resample.run(seed=7, cases=40, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_resampling():
    # One nearest-neighbour case and one LINEAR case: exact and toleranced checks both.
    rngs = (np.random.default_rng([7, i]) for i in range(100))
    cases = [resample.make_case(r) for r in rngs]
    for linear in (False, True):
        case = next(c for c in cases if c["linear"] == linear and c["dtype"] == np.float32)
        got = resample.run_dml(case)
        assert resample.check(case, got)[0].size == 0
        wrong = np.array(got, copy=True)
        flat = wrong.reshape(-1)
        flat[0] = flat[0] * 2 + 1
        assert resample.check(case, wrong)[0].size >= 1
