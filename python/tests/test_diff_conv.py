# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-conv (random CONVOLUTION (both modes and directions, groups, padding, dilations) against numpy in float64 under reference/precision.md's tolerance): a fixed seed, 6 cases. The long sweep is scripts/diff-conv --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import conv  # noqa: E402


def test_random_convolutions_match_numpy():
    out = io.StringIO()
    failed = conv.run(seed=7, cases=6, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_convolution():
    case = conv.make_case(np.random.default_rng([7, 0]))
    got = conv.run_dml(case)
    assert conv.check(case, got)[0].size == 0
    wrong = np.array(got, copy=True)
    flat = wrong.reshape(-1)
    flat[0] = flat[0] * 2 + 1
    assert conv.check(case, wrong)[0].size >= 1
