# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-pool (random MAX_POOLING2, AVERAGE_POOLING1 and LP_POOLING1 against numpy in float64, max pooling exact): a fixed seed, 60 cases. The long sweep is scripts/diff-pool --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import pool  # noqa: E402


def test_random_poolings_match_numpy():
    out = io.StringIO()
    failed = pool.run(seed=7, cases=60, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_pooling():
    # The first case of one output (MAX_POOLING2 with its indices returns a pair).
    case = next(c for c in (pool.make_case(np.random.default_rng([7, i])) for i in range(100))
                if c["op"] != "MAX_POOLING2" or not c["indices"])
    got = pool.run_dml(case)
    assert pool.check(case, got)[0].size == 0
    wrong = np.array(got, copy=True)
    flat = wrong.reshape(-1)
    flat[0] = flat[0] * 2 + 1
    assert pool.check(case, wrong)[0].size >= 1
