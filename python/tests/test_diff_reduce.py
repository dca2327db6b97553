# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-reduce (random REDUCE, SOFTMAX1, LOG_SOFTMAX1 and MVN1 cases
against numpy in float64 under reference/precision.md's tolerances): a fixed seed, 40 cases.
The long sweep is scripts/diff-reduce --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import reduce as diff_reduce  # noqa: E402


def test_random_reduction_cases_match_numpy():
    out = io.StringIO()
    failed = diff_reduce.run(seed=11, cases=40, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_sum_and_a_wrong_index():
    for func, wrong_by in (("SUM", 0.01), ("ARGMAX", 1)):
        i = 0
        while True:
            case = diff_reduce.make_case(np.random.default_rng([11, i]))
            i += 1
            if case["func"] == func and np.dtype(case["dtype"]).kind == "f":
                break
        want, _, _ = diff_reduce.reference(case)
        got = want.astype(diff_reduce.out_dtype(case))
        assert diff_reduce.check(case, got)[0].size == 0
        wrong = got.copy()
        wrong.reshape(-1)[0] = wrong.reshape(-1)[0] + wrong_by * (1 + abs(wrong.reshape(-1)[0]))
        assert diff_reduce.check(case, wrong)[0].size == 1
