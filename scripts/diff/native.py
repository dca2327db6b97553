# SPDX-License-Identifier: MIT
"""What the random differential scripts share to run a DirectML descriptor through libdmlcl
(ctypes, the package's dmlcl._native): tensor descriptors over sizes and strides, UINT arrays,
strides of a memory order, an array placed by strides, and outputs of several types."""
import ctypes
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "python"))

from dmlcl import _native as n  # noqa: E402  (after the path)


def tensor(dtype, sizes, strides, keep):
    """A pointer to a DML_TENSOR_DESC of a buffer tensor (its total size rounded up to 4 bytes);
    what it points to is appended to keep, which the caller holds through the call."""
    rank = len(sizes)
    last = sum((s - 1) * st for s, st in zip(sizes, strides))
    dims = (ctypes.c_uint32 * rank)(*sizes)
    st = (ctypes.c_uint32 * rank)(*strides)
    total = (last + 1) * np.dtype(dtype).itemsize
    b = n.BufferTensorDesc(n.DATA_TYPES[np.dtype(dtype)], 0, rank, dims, st,
                           (total + 3) // 4 * 4, 0)
    t = n.TensorDesc(n.TENSOR_TYPE_BUFFER, ctypes.cast(ctypes.pointer(b), ctypes.c_void_p))
    keep += [dims, st, b, t]
    return ctypes.pointer(t)


def uints(values, keep):
    """A UINT array of values (one element at least), kept alive in keep."""
    a = (ctypes.c_uint32 * max(1, len(values)))(*values)
    keep.append(a)
    return a


def packed(shape, order=None):
    """Strides of shape laid out in memory in `order` (outermost first; default the logical
    order)."""
    order = list(range(len(shape))) if order is None else order
    strides, step = [0] * len(shape), 1
    for d in reversed(order):
        strides[d] = step
        step *= shape[d]
    return strides


def memory(x, strides):
    """x's elements where strides (a memory order of x's own size) place them: element [i...]
    at sum(i * stride)."""
    mem = np.zeros(x.size, dtype=x.dtype)
    idx = np.indices(x.shape).reshape(x.ndim, -1)
    mem[np.dot(np.array(strides), idx)] = x.reshape(-1)
    return mem


def execute_typed(desc, inputs, outputs):
    """n.execute_outputs for outputs of different types ((shape, dtype) pairs; a shape None:
    the optional output is absent): each moved as bytes, then read as its type."""
    shapes = [[1] if s is None else list(s) + [np.dtype(t).itemsize] for s, t in outputs]
    got = n.execute_outputs(desc, inputs, shapes, np.uint8)
    return [None if s is None else g.reshape(-1).view(t).reshape(s)
            for g, (s, t) in zip(got, outputs)]
