# SPDX-License-Identifier: MIT
"""dmlcl for numpy: DirectML's data-movement operators on an OpenCL device,
with the semantics of ONNX, OpenVINO or DirectML.

    >>> import dmlcl, numpy
    >>> dmlcl.gather(numpy.arange(6).reshape(3, 2), [2, 0], axis=0)
    array([[4, 5],
           [0, 1]])

Arrays go in and come out as numpy arrays (copied to and from the device).
Device: dmlcl.set_device("gpu") or a Device per call (device=...); default
DMLCL_PLATFORM/DMLCL_DEVICE, else the first GPU, else the first CPU.
Failures raise dmlcl.Error (InvalidArgumentError, UnsupportedError,
IndexOutOfRangeError) with dmlcl's message.
"""
from ._native import (Device, Error, IndexOutOfRangeError, InvalidArgumentError,
                      UnsupportedError, get_device, set_device, version)
from ._ops import (broadcast, depth_to_space, expand, gather, gather_elements, gather_nd, slice,
                   space_to_depth, strided_slice, tile, transpose)

__version__ = "0.1.0"
__all__ = ["Device", "Error", "IndexOutOfRangeError", "InvalidArgumentError", "UnsupportedError",
           "broadcast", "expand", "gather", "gather_elements", "gather_nd", "get_device",
           "set_device", "slice", "strided_slice", "version", "depth_to_space", "space_to_depth",
           "tile", "transpose"]
