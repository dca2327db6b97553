# SPDX-License-Identifier: MIT
"""Slices and broadcasts against onnx.reference and numpy."""
import numpy as np
import pytest
from conftest import onnx_run

import dmlcl


@pytest.mark.parametrize("starts,ends,axes,steps", [
    ([1], [3], None, None),
    ([-1], [-(2**62)], [1], [-1]),
    ([0, 4], [3, 1], [0, 1], [2, -2]),
    ([10], [20], [0], None),
    ([2, 0], [2**40, 5], [-1, -2], [3, 1]),
])
def test_slice_matches_onnx(starts, ends, axes, steps, rng):
    data = rng.standard_normal((4, 6)).astype(np.float32)
    got = dmlcl.slice(data, starts, ends, axes=axes, steps=steps)
    feeds = {"data": data, "starts": np.array(starts, np.int64), "ends": np.array(ends, np.int64),
             "axes": None if axes is None else np.array(axes, np.int64),
             "steps": None if steps is None else np.array(steps, np.int64)}
    if axes is None and steps is None:
        del feeds["axes"], feeds["steps"]
    elif steps is None:
        del feeds["steps"]
    np.testing.assert_array_equal(got, onnx_run("Slice", feeds))


def test_slice_step_zero_is_an_error():
    with pytest.raises(dmlcl.InvalidArgumentError, match="steps"):
        dmlcl.slice(np.arange(5), [0], [5], steps=[0])


def test_strided_slice_against_numpy(rng):
    data = rng.integers(0, 100, size=(3, 4, 5)).astype(np.int16)
    np.testing.assert_array_equal(dmlcl.strided_slice(data, [0, 1], [3, 4], [2, 1]),
                                  data[0:3:2, 1:4])
    # begin_mask 1 ignores begin on axis 0; end_mask ignores end on axis 1
    np.testing.assert_array_equal(
        dmlcl.strided_slice(data, [2, 1], [3, 0], [1, 1], begin_mask=[1, 0], end_mask=[0, 1]),
        data[:3, 1:])
    # new axis at position 0, shrink axis 1 (index 2)
    np.testing.assert_array_equal(
        dmlcl.strided_slice(data, [0, 0, 2], [0, 3, 3], [1, 1, 1], new_axis_mask=[1],
                            shrink_axis_mask=[0, 0, 1]),
        data[np.newaxis, 0:3, 2])
    # ellipsis then the last axis reversed
    np.testing.assert_array_equal(
        dmlcl.strided_slice(data, [0, -1], [0, -6], [1, -1], ellipsis_mask=[1]),
        data[..., -1:-6:-1])


@pytest.mark.parametrize("shape,target", [((3,), [2, 3]), ((2, 1), [2, 4]), ((1, 3), [3, 1]),
                                          ((), [2, 2]), ((4,), [1])])
def test_expand_matches_onnx(shape, target, rng):
    x = rng.standard_normal(shape).astype(np.float64)
    got = dmlcl.expand(x, target)
    want = onnx_run("Expand", {"input": x, "shape": np.array(target, np.int64)})
    np.testing.assert_array_equal(got, want)
    assert got.shape == want.shape


def test_openvino_broadcast_modes(rng):
    x = rng.integers(0, 9, size=(3,)).astype(np.uint8)
    np.testing.assert_array_equal(dmlcl.broadcast(x, [2, 3]), np.broadcast_to(x, (2, 3)))
    # explicit: x's axis 0 is output axis 1 of [2, 3, 4]
    want = np.broadcast_to(x.reshape(1, 3, 1), (2, 3, 4))
    np.testing.assert_array_equal(dmlcl.broadcast(x, [2, 3, 4], axes_mapping=[1],
                                                  mode="explicit"), want)
    # bidirectional: numpy's rule both ways
    y = x.reshape(3, 1)
    np.testing.assert_array_equal(dmlcl.broadcast(y, [1, 4], mode="bidirectional"),
                                  np.broadcast_to(y, (3, 4)))


def test_broadcast_incompatible_names_the_rule():
    with pytest.raises(dmlcl.InvalidArgumentError) as e:
        dmlcl.expand(np.arange(3), [4])
    assert "Expand" in str(e.value)
