# SPDX-License-Identifier: MIT
"""Transpose, tile and depth/space rearrangements against numpy and onnx.reference."""
import numpy as np
import pytest
from conftest import onnx_run

import dmlcl


@pytest.mark.parametrize("perm", [None, [1, 0, 2], [2, 0, 1], [0, 1, 2]])
def test_transpose_matches_numpy(perm, rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    np.testing.assert_array_equal(dmlcl.transpose(x, perm), np.transpose(x, perm))


def test_transpose_bad_permutation_is_refused():
    with pytest.raises(dmlcl.InvalidArgumentError):
        dmlcl.transpose(np.zeros((2, 3)), [0, 0])


@pytest.mark.parametrize("repeats", [[2, 1], [1, 3], [2, 2], [0, 1]])
def test_tile_matches_onnx(repeats, rng):
    x = rng.integers(0, 50, size=(2, 3)).astype(np.int16)
    got = dmlcl.tile(x, repeats)
    np.testing.assert_array_equal(got, onnx_run("Tile", {"input": x,
                                                         "repeats": np.array(repeats, np.int64)}))
    np.testing.assert_array_equal(got, np.tile(x, repeats))


@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_matches_onnx(mode, rng):
    x = rng.standard_normal((1, 8, 2, 3)).astype(np.float32)
    got = dmlcl.depth_to_space(x, 2, mode=mode)
    np.testing.assert_array_equal(got, onnx_run("DepthToSpace", {"input": x}, blocksize=2,
                                                mode=mode))


def test_space_to_depth_matches_onnx_and_inverts(rng):
    x = rng.standard_normal((2, 3, 4, 6)).astype(np.float64)
    got = dmlcl.space_to_depth(x, 2)
    np.testing.assert_array_equal(got, onnx_run("SpaceToDepth", {"input": x}, blocksize=2))
    np.testing.assert_array_equal(dmlcl.depth_to_space(got, 2), x)
