# SPDX-License-Identifier: MIT
"""The operators as numpy functions. Each picks the framework's semantics
(mode) and goes through that framework's front-end, or, for DirectML, builds
the DirectML descriptor itself."""
import ctypes

import numpy as np

from . import _frontends as fe
from . import _native as n

ONNX_OPSET = 13  # the newest version of each ONNX operator dmlcl implements is in effect
OPENVINO_OPSET = 8


def _mode(mode, allowed):
    if mode not in allowed:
        raise ValueError(f"dmlcl: mode must be one of {', '.join(allowed)}, not {mode!r}")
    return mode


def gather(data, indices, axis=0, batch_dims=0, mode="onnx", device=None):
    """Gather along axis: data[:axis] + indices.shape[batch_dims:] + data[axis+1:].

    mode "onnx" (Gather-13: indices int32/int64, negative ones count from
    the end, one out of range raises IndexOutOfRangeError; batch_dims must
    be 0), "openvino" (Gather-8: batch_dims, any integer indices, out of
    range gives zeros), "directml" (DML_OPERATOR_GATHER on the same shapes;
    batch_dims must be 0).
    """
    _mode(mode, ("onnx", "openvino", "directml"))
    data, indices = np.asarray(data), np.asarray(indices)
    if mode == "openvino":
        return fe.OPENVINO_GATHER(OPENVINO_OPSET, device, data=data, indices=indices,
                                  axis=[axis], batch_dims=batch_dims)
    if batch_dims != 0:
        raise ValueError(f"dmlcl: batch_dims ({batch_dims}) must be 0 in mode {mode!r} "
                         "(ONNX Gather and DML_OPERATOR_GATHER have none; use mode='openvino')")
    if mode == "onnx":
        return fe.ONNX_GATHER(ONNX_OPSET, device, data=data, indices=indices, axis=axis)
    return _directml_gather(data, indices, axis, device)


def gather_elements(data, indices, axis=0, device=None):
    """ONNX GatherElements-13: output[i][j] = data[indices[i][j]][j] (axis 0), etc."""
    return fe.ONNX_GATHER_ELEMENTS(ONNX_OPSET, device, data=np.asarray(data),
                                   indices=np.asarray(indices), axis=axis)


def gather_nd(data, indices, batch_dims=0, device=None):
    """ONNX GatherND-13: indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:]."""
    return fe.ONNX_GATHER_ND(ONNX_OPSET, device, data=np.asarray(data),
                             indices=np.asarray(indices, dtype=np.int64), batch_dims=batch_dims)


def slice(data, starts, ends, axes=None, steps=None, device=None):  # noqa: A001 (ONNX's name)
    """ONNX Slice-13: starts/ends/steps per axis, clamped as numpy's slices are."""
    return fe.ONNX_SLICE(ONNX_OPSET, device, data=np.asarray(data), starts=starts, ends=ends,
                         axes=axes, steps=steps)


def strided_slice(data, begin, end, stride=None, begin_mask=None, end_mask=None,
                  new_axis_mask=None, shrink_axis_mask=None, ellipsis_mask=None, device=None):
    """OpenVINO StridedSlice-1, with its five masks (lists of 0 and 1)."""
    return fe.OPENVINO_STRIDED_SLICE(1, device, data=np.asarray(data), begin=begin, end=end,
                                     stride=stride, begin_mask=begin_mask, end_mask=end_mask,
                                     new_axis_mask=new_axis_mask,
                                     shrink_axis_mask=shrink_axis_mask,
                                     ellipsis_mask=ellipsis_mask)


def expand(input, shape, device=None):  # noqa: A002 (ONNX's name)
    """ONNX Expand-13: numpy's bidirectional broadcast of input and shape."""
    return fe.ONNX_EXPAND(ONNX_OPSET, device, input=np.asarray(input), shape=shape)


def broadcast(data, target_shape, axes_mapping=None, mode="numpy", device=None):
    """OpenVINO Broadcast-3: mode "numpy", "explicit" (with axes_mapping) or
    "bidirectional"."""
    return fe.OPENVINO_BROADCAST(3, device, data=np.asarray(data), target_shape=target_shape,
                                 axes_mapping=axes_mapping, mode=mode)


def transpose(data, perm=None, device=None):
    """numpy.transpose (OpenVINO Transpose-1): output dimension k is data's
    dimension perm[k]; perm None: the axes reversed."""
    return fe.OPENVINO_TRANSPOSE(1, device, data=np.asarray(data),
                                 input_order=[] if perm is None else perm)


def tile(input, repeats, device=None):  # noqa: A002 (ONNX's name)
    """ONNX Tile-13: input repeated repeats[i] times along dimension i."""
    return fe.ONNX_TILE(ONNX_OPSET, device, input=np.asarray(input), repeats=repeats)


def depth_to_space(input, blocksize, mode="DCR", device=None):  # noqa: A002
    """ONNX DepthToSpace-13 on [N, C, H, W]: mode "DCR" or "CRD"."""
    return fe.ONNX_DEPTH_TO_SPACE(ONNX_OPSET, device, input=np.asarray(input),
                                  blocksize=blocksize, mode=mode)


def space_to_depth(input, blocksize, device=None):  # noqa: A002
    """ONNX SpaceToDepth-13 on [N, C, H, W]."""
    return fe.ONNX_SPACE_TO_DEPTH(ONNX_OPSET, device, input=np.asarray(input),
                                  blocksize=blocksize)


# ---- DirectML's GATHER, described as DirectML code would -------------------------------

GATHER = 67  # DML_OPERATOR_GATHER
DIMENSION_COUNT_MAX1 = 8  # DML_TENSOR_DIMENSION_COUNT_MAX1


class _GatherDesc(ctypes.Structure):
    _fields_ = [("InputTensor", ctypes.POINTER(n.TensorDesc)),
                ("IndicesTensor", ctypes.POINTER(n.TensorDesc)),
                ("OutputTensor", ctypes.POINTER(n.TensorDesc)),
                ("Axis", ctypes.c_uint32), ("IndexDimensions", ctypes.c_uint32)]


def _buffer_tensor(dtype_code, itemsize, sizes, keep):
    dims = (ctypes.c_uint32 * len(sizes))(*sizes)
    total = int(np.prod(sizes, dtype=np.int64)) * itemsize
    b = n.BufferTensorDesc(dtype_code, 0, len(sizes), dims, None, (total + 3) // 4 * 4, 0)
    t = n.TensorDesc(n.TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(b), ctypes.c_void_p))
    keep += [dims, b, t]
    return ctypes.pointer(t)


def _directml_gather(data, indices, axis, device):
    """DML_GATHER_OPERATOR_DESC: every tensor of one dimension count D, data
    and indices padded with leading 1s, IndexDimensions = rank(indices), the
    output's sizes data[:axis] + indices + data[axis+1:] right-aligned in D."""
    r, q = data.ndim, indices.ndim
    if r == 0:
        raise ValueError("dmlcl: gather: data must have at least one dimension")
    if not -r <= axis < r:
        raise ValueError(f"dmlcl: gather: axis ({axis}) must be in [{-r}, {r - 1}]")
    axis %= r
    if data.dtype not in n.DATA_TYPES or indices.dtype not in n.DATA_TYPES:
        raise TypeError(f"dmlcl: gather: dtypes {data.dtype}, {indices.dtype} not supported")
    out_shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
    d = max(r, q, len(out_shape), 1)
    if d > DIMENSION_COUNT_MAX1:
        raise n.UnsupportedError(0, "DXGI_ERROR_UNSUPPORTED",
                                 f"DML_OPERATOR_GATHER: {d} dimensions are over "
                                 f"{DIMENSION_COUNT_MAX1}")

    def pad(shape):
        return (1,) * (d - len(shape)) + tuple(shape)

    keep = []
    desc = _GatherDesc(
        _buffer_tensor(n.DATA_TYPES[data.dtype], data.itemsize, pad(data.shape), keep),
        _buffer_tensor(n.DATA_TYPES[indices.dtype], indices.itemsize, pad(indices.shape), keep),
        _buffer_tensor(n.DATA_TYPES[data.dtype], data.itemsize, pad(out_shape), keep),
        axis + d - r, q)
    op = n.OperatorDesc(GATHER, ctypes.cast(ctypes.pointer(desc), ctypes.c_void_p))
    return n.execute(ctypes.pointer(op), [data, indices], out_shape, data.dtype, device)
