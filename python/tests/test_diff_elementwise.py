# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-elementwise (random element-wise and activation
cases against numpy under docs/operators.md's rules): a fixed seed, 60 cases.
The long sweep is scripts/diff-elementwise --cases N."""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import elementwise  # noqa: E402


def test_random_elementwise_cases_match_numpy():
    out = io.StringIO()
    failed = elementwise.run(seed=30, cases=60, ops=None, out=out)
    assert failed == 0, out.getvalue()


def test_integer_rules_are_dmlcls():
    # The documented choices the reference encodes, where numpy differs.
    import numpy as np
    i8 = np.dtype(np.int8)
    assert elementwise._int_div(7, 0, i8) == -1
    assert elementwise.wrap([elementwise._int_div(-128, -1, i8)], i8)[0] == -128
    assert elementwise._int_mod_trunc(-7, 0, i8) == -7
    assert elementwise.to_int_sat(np.float64(np.nan), i8) == 0
    assert elementwise.to_int_sat(np.float64(1e9), i8) == 127
