# SPDX-License-Identifier: MIT
"""ONNX Transpose, Pad, Concat and Split against onnx.reference and numpy;
OpenVINO Pad, Roll, Reverse, Concat, Split and VariadicSplit against numpy
(their specifications' words: Pad's modes are numpy.pad's, Roll is
numpy.roll, Reverse numpy.flip, the splits numpy.split)."""
import numpy as np
import pytest
from conftest import onnx_run, onnx_run_outputs

import dmlcl


@pytest.mark.parametrize("perm", [None, [1, 0, 2], [2, 0, 1]])
def test_onnx_transpose_matches_onnx(perm, rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    got = dmlcl.transpose(x, perm, mode="onnx")
    attrs = {} if perm is None else {"perm": perm}
    np.testing.assert_array_equal(got, onnx_run("Transpose", {"data": x}, **attrs))
    np.testing.assert_array_equal(dmlcl.transpose(x, perm, mode="openvino"), got)


def test_onnx_transpose_bad_perm_names_it():
    with pytest.raises(dmlcl.InvalidArgumentError, match="perm"):
        dmlcl.transpose(np.zeros((2, 3)), [0, 2])


@pytest.mark.parametrize("pad_mode", ["constant", "edge", "reflect", "wrap"])
def test_onnx_pad_matches_onnx(pad_mode, rng):
    x = rng.integers(-50, 50, size=(3, 4)).astype(np.int32)
    pads = [1, 2, 2, 0] if pad_mode != "constant" else [1, 0, 0, 3]
    value = np.int32(7) if pad_mode == "constant" else None
    got = dmlcl.pad(x, pads, pad_mode=pad_mode, constant_value=value)
    feeds = {"data": x, "pads": np.array(pads, np.int64), "constant_value": value}
    if value is None:
        del feeds["constant_value"]
    np.testing.assert_array_equal(got, onnx_run("Pad", feeds, opset=19, mode=pad_mode))


def test_onnx_pad_negative_crops(rng):
    # onnx.reference pads with numpy.pad, which takes no negative pads:
    # Pad-19's "negative removes" is a numpy slice.
    x = rng.integers(-50, 50, size=(3, 4)).astype(np.int32)
    got = dmlcl.pad(x, [1, -1, -2, 2], constant_value=np.int32(9))
    np.testing.assert_array_equal(got, np.pad(x[:1, 1:], [(1, 0), (0, 2)], constant_values=9))


def test_onnx_pad_axes_and_python_value(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float16)
    got = dmlcl.pad(x, [1, 2], constant_value=1.5, axes=[-1])
    want = onnx_run("Pad", {"data": x, "pads": np.array([1, 2], np.int64),
                            "constant_value": np.array(1.5, np.float16),
                            "axes": np.array([-1], np.int64)}, opset=19)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, np.pad(x, [(0, 0), (0, 0), (1, 2)], constant_values=1.5))


def test_pad_value_of_another_type_is_refused_by_dmlcl():
    with pytest.raises(dmlcl.InvalidArgumentError, match="constant_value"):
        dmlcl.pad(np.zeros((2, 2), np.float32), [1, 1, 1, 1], constant_value=np.float64(1))
    with pytest.raises(ValueError, match="constant_value"):
        dmlcl.pad(np.zeros((2, 2), np.int8), [1, 1, 1, 1], constant_value=0.5)


@pytest.mark.parametrize("pad_mode", ["constant", "edge", "reflect", "symmetric"])
def test_openvino_pad_matches_numpy(pad_mode, rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    begin, end = [2, 1], [0, 3]
    value = np.float32(-2) if pad_mode == "constant" else None
    got = dmlcl.pad(x, pads_begin=begin, pads_end=end, pad_mode=pad_mode,
                    constant_value=value, mode="openvino")
    kw = {"constant_values": -2} if pad_mode == "constant" else {}
    np.testing.assert_array_equal(got, np.pad(x, list(zip(begin, end)), mode=pad_mode, **kw))
    # pads in ONNX's layout mean the same
    np.testing.assert_array_equal(
        dmlcl.pad(x, begin + end, pad_mode=pad_mode, constant_value=value, mode="openvino"), got)


def test_openvino_pad_negative_crops_and_reflect_limit():
    x = np.arange(12, dtype=np.int64).reshape(3, 4)
    got = dmlcl.pad(x, pads_begin=[-1, 0], pads_end=[0, -2], mode="openvino")
    np.testing.assert_array_equal(got, x[1:, :2])
    with pytest.raises(dmlcl.InvalidArgumentError, match="reflect"):
        dmlcl.pad(x, pads_begin=[3, 0], pads_end=[0, 0], pad_mode="reflect", mode="openvino")


@pytest.mark.parametrize("shift,axes", [(1, [0, 1]), ([2, -1], [1, 0]), ([5], [-1]),
                                        ([1, 1], [0, 0])])
def test_openvino_roll_matches_numpy(shift, axes, rng):
    x = rng.integers(0, 100, size=(3, 4)).astype(np.uint16)
    want = np.roll(x, np.broadcast_to(shift, (len(axes),)).tolist(), axis=tuple(axes))
    np.testing.assert_array_equal(dmlcl.roll(x, shift, axes), want)


def test_roll_bad_axis_names_it():
    with pytest.raises(dmlcl.InvalidArgumentError, match="axes"):
        dmlcl.roll(np.zeros((2, 3)), [1], [2])


def test_openvino_reverse_index_and_mask(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float64)
    np.testing.assert_array_equal(dmlcl.reverse(x, [0, -1]), np.flip(x, (0, 2)))
    np.testing.assert_array_equal(dmlcl.reverse(x, [False, True, True], mode="mask"),
                                  np.flip(x, (1, 2)))
    np.testing.assert_array_equal(dmlcl.reverse(x, []), x)
    with pytest.raises(dmlcl.InvalidArgumentError, match="mask"):
        dmlcl.reverse(x, [True], mode="mask")


@pytest.mark.parametrize("mode", ["onnx", "openvino"])
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat_matches_onnx_and_numpy(mode, axis, rng):
    shapes = {0: [(1, 3), (2, 3), (0, 3)], 1: [(2, 1), (2, 4)], -1: [(2, 2)] * 5}[axis]
    xs = [rng.integers(0, 9, size=s).astype(np.int8) for s in shapes]
    got = dmlcl.concat(xs, axis=axis, mode=mode)
    np.testing.assert_array_equal(got, np.concatenate(xs, axis=axis))
    if mode == "onnx":
        want = onnx_run("Concat", {f"x{i}": x for i, x in enumerate(xs)}, axis=axis)
        np.testing.assert_array_equal(got, want)


def test_concat_many_inputs_and_mismatch():
    xs = [np.full((1, 2), i, np.float32) for i in range(64)]
    np.testing.assert_array_equal(dmlcl.concat(xs), np.concatenate(xs))
    with pytest.raises(dmlcl.UnsupportedError):
        dmlcl.concat(xs + xs[:1])
    with pytest.raises(dmlcl.InvalidArgumentError, match=r"input 1 has shape \{2,4\}"):
        dmlcl.concat([np.zeros((2, 3)), np.zeros((2, 4))], axis=0)


@pytest.mark.parametrize("split,num_outputs,axis", [([1, 3], None, 1), ([2, 0, 1], None, 0),
                                                    (None, 3, 0), (None, 3, 1)])
def test_onnx_split_matches_onnx(split, num_outputs, axis, rng):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    got = dmlcl.split(x, split, axis=axis, num_outputs=num_outputs)
    count = len(split) if split is not None else num_outputs
    feeds = {"input": x, "split": None if split is None else np.array(split, np.int64)}
    attrs = {} if num_outputs is None else {"num_outputs": num_outputs}
    want = onnx_run_outputs("Split", feeds, count, opset=18, axis=axis, **attrs)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_openvino_split_and_variadic_split(rng):
    x = rng.integers(0, 1000, size=(4, 6)).astype(np.int64)
    for g, w in zip(dmlcl.split(x, num_outputs=3, axis=1, mode="openvino"),
                    np.split(x, 3, axis=1), strict=True):
        np.testing.assert_array_equal(g, w)
    got = dmlcl.split(x, [1, -1, 2], axis=-1, mode="openvino")
    for g, w in zip(got, np.split(x, [1, 4], axis=1), strict=True):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(dmlcl.InvalidArgumentError, match="num_splits"):
        dmlcl.split(x, num_outputs=4, axis=1, mode="openvino")


def test_split_many_outputs_and_bad_lengths():
    x = np.arange(64 * 2, dtype=np.int32).reshape(64, 2)
    got = dmlcl.split(x, num_outputs=64)
    assert len(got) == 64 and all(np.array_equal(g, x[i:i + 1]) for i, g in enumerate(got))
    with pytest.raises(dmlcl.InvalidArgumentError, match="split"):
        dmlcl.split(x, [60, 5])
