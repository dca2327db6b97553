# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-gemm (random GEMM cases against numpy in float64 under
reference/precision.md's tolerance): a fixed seed, 16 cases. The long sweep is
scripts/diff-gemm --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import gemm  # noqa: E402


def test_random_gemm_cases_match_numpy():
    out = io.StringIO()
    failed = gemm.run(seed=7, cases=16, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_product():
    case = gemm.make_case(np.random.default_rng([7, 0]))
    want, _ = gemm.reference(case)
    got = want.astype(case["dtype"])
    assert gemm.check(case, got)[0].size == 0
    wrong = got.copy()
    wrong.reshape(-1)[0] = wrong.reshape(-1)[0] * 2 + 1
    assert gemm.check(case, wrong)[0].size == 1
