# SPDX-License-Identifier: MIT
"""A short run of scripts/diff-graphs (random ONNX graphs lowered by dmlcl.onnx, run by
dmlcl-dispatch as one DirectML graph, against ONNX Runtime CPU): a fixed seed, 30 graphs. The
long sweep is scripts/diff-graphs --cases N."""
import io
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "diff"))

import graphs  # noqa: E402


def test_random_graphs_match_onnx_runtime():
    out = io.StringIO()
    failed = graphs.run(seed=11, cases=30, out=out)
    assert failed == 0, out.getvalue()


def test_the_check_catches_a_wrong_output():
    model, feeds, outs, _ = graphs.make_case(11, 0)
    want, moves = graphs.references(11, 0, model, feeds, outs)
    got = graphs.run_dml(model, feeds)
    assert graphs.check(outs, want, moves, got) == []
    wrong = {k: np.array(v, copy=True) for k, v in got.items()}
    flat = wrong[outs[0]].reshape(-1)
    flat[0] = flat[0] + 0.01 + abs(flat[0]) * 0.01
    assert len(graphs.check(outs, want, moves, wrong)) == 1
