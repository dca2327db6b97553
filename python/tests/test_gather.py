# SPDX-License-Identifier: MIT
"""Gathers against onnx.reference (ONNX), numpy (DirectML) and OpenVINO's
Gather-8 specification written out in numpy (OpenVINO)."""
import numpy as np
import pytest
from conftest import onnx_run

import dmlcl

DTYPES = [np.float32, np.float16, np.float64, np.int8, np.uint8, np.int16, np.uint16, np.int32,
          np.uint32, np.int64, np.uint64, np.bool_]


def test_readme_example():
    out = dmlcl.gather(np.arange(6).reshape(3, 2), [2, 0], axis=0)
    assert out.tolist() == [[4, 5], [0, 1]]
    assert out.dtype == np.arange(6).dtype


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_onnx(dtype, rng):
    data = (rng.integers(0, 100, size=(4, 5)) % 2 if dtype == np.bool_
            else rng.integers(0, 100, size=(4, 5))).astype(dtype)
    indices = np.array([[3, -1], [0, 2]], dtype=np.int64)
    got = dmlcl.gather(data, indices, axis=0)
    assert got.dtype == data.dtype
    np.testing.assert_array_equal(got, onnx_run("Gather", {"data": data, "indices": indices},
                                                axis=0))


@pytest.mark.parametrize("trial", range(12))
def test_random_shapes_onnx(trial, rng):
    rank = int(rng.integers(1, 5))
    shape = tuple(int(s) for s in rng.integers(1, 5, size=rank))
    axis = int(rng.integers(-rank, rank))
    data = rng.standard_normal(shape).astype(np.float32)
    size = shape[axis]
    idx_shape = tuple(int(s) for s in rng.integers(1, 4, size=int(rng.integers(0, 3))))
    indices = rng.integers(-size, size, size=idx_shape).astype(
        np.int32 if trial % 2 else np.int64)
    got = dmlcl.gather(data, indices, axis=axis)
    want = onnx_run("Gather", {"data": data, "indices": indices}, axis=axis)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, np.take(data, indices, axis=axis))


@pytest.mark.parametrize("trial", range(6))
def test_directml_mode_matches_numpy_take(trial, rng):
    rank = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 5, size=rank))
    axis = int(rng.integers(0, rank))
    data = rng.integers(-50, 50, size=shape).astype(np.int32)
    indices = rng.integers(0, shape[axis], size=(2, 3)).astype(np.uint32)
    got = dmlcl.gather(data, indices, axis=axis, mode="directml")
    np.testing.assert_array_equal(got, np.take(data, indices.astype(np.int64), axis=axis))


def openvino_gather(data, indices, axis, batch_dims):
    """Gather-8 as its specification states it: per batch, numpy.take along
    axis; negative indices count from the end; out of range gives zeros."""
    r = data.ndim
    axis %= r
    batch_dims %= indices.ndim if batch_dims < 0 else max(indices.ndim, 1)
    batch_shape = data.shape[:batch_dims]
    out = np.zeros(data.shape[:axis] + indices.shape[batch_dims:] + data.shape[axis + 1:],
                   data.dtype)
    size = data.shape[axis]
    for b in np.ndindex(*batch_shape):
        d, i = data[b], indices[b]
        valid = (i >= -size) & (i < size)
        taken = np.take(d, np.where(valid, i, 0), axis=axis - batch_dims)
        mask = valid.reshape(valid.shape[:] + (1,) * (r - axis - 1))
        mask = mask.reshape((1,) * (axis - batch_dims) + mask.shape)
        out[b] = np.where(mask, taken, 0)
    return out


@pytest.mark.parametrize("batch_dims,axis", [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (-1, 2)])
def test_openvino_batch_dims(batch_dims, axis, rng):
    data = rng.standard_normal((2, 3, 4)).astype(np.float32)
    indices = rng.integers(-5, 5, size=(2, 3, 2)).astype(np.int64)
    got = dmlcl.gather(data, indices, axis=axis, batch_dims=batch_dims, mode="openvino")
    bd = batch_dims % indices.ndim
    np.testing.assert_array_equal(got, openvino_gather(data, indices, axis, bd))


def test_onnx_index_out_of_range_raises():
    with pytest.raises(dmlcl.IndexOutOfRangeError, match="is 7, outside"):
        dmlcl.gather(np.arange(6).reshape(3, 2), [7], axis=0)


def test_bad_axis_names_axis_and_value():
    with pytest.raises(dmlcl.InvalidArgumentError, match=r"axis \(4\)") as e:
        dmlcl.gather(np.arange(6).reshape(3, 2), [1], axis=4)
    assert isinstance(e.value, ValueError) and e.value.name == "E_INVALIDARG"


def test_bad_mode_and_batch_dims():
    with pytest.raises(ValueError, match="mode"):
        dmlcl.gather(np.arange(3), [0], mode="tensorflow")
    with pytest.raises(ValueError, match="batch_dims"):
        dmlcl.gather(np.arange(3), [0], batch_dims=1)


def test_gather_elements(rng):
    data = rng.standard_normal((3, 4)).astype(np.float32)
    for axis in (0, 1, -1):
        size = data.shape[axis]
        ishape = (2, 4) if axis == 0 else (3, 2)
        indices = rng.integers(-size, size, size=ishape).astype(np.int64)
        got = dmlcl.gather_elements(data, indices, axis=axis)
        # onnx.reference mishandles a negative axis (onnx 1.x gather_numpy slices
        # shape[:dim] + shape[dim + 1:]): it gets the same axis counted from 0.
        want = onnx_run("GatherElements", {"data": data, "indices": indices}, axis=axis % 2)
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(got, np.take_along_axis(data, indices % size, axis=axis))


@pytest.mark.parametrize("batch_dims", [0, 1])
def test_gather_nd(batch_dims, rng):
    data = rng.integers(0, 1000, size=(2, 3, 4)).astype(np.int32)
    m = 2
    indices = np.stack([rng.integers(0, data.shape[batch_dims + k], size=(2, 5))
                        for k in range(m)], axis=-1).astype(np.int64)
    got = dmlcl.gather_nd(data, indices, batch_dims=batch_dims)
    want = onnx_run("GatherND", {"data": data, "indices": indices}, batch_dims=batch_dims)
    np.testing.assert_array_equal(got, want)


def test_empty_output():
    got = dmlcl.gather(np.arange(6).reshape(3, 2), np.zeros((0,), np.int64), axis=0)
    assert got.shape == (0, 2)


def test_directml_mode_clamps_and_wraps():
    # DML_OPERATOR_GATHER (docs/operators.md, DirectML's rule): negative
    # indices of a signed type count from the end; out-of-range ones are
    # clamped into the axis, so reads stay inside the input.
    data = np.array([10, 20, 30], dtype=np.float32)
    got = dmlcl.gather(data, np.array([-1, 5, -7, 0], dtype=np.int32), mode="directml")
    assert got.tolist() == [30, 30, 10, 10]
