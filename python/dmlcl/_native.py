# SPDX-License-Identifier: MIT
"""libdmlcl through ctypes: finding and loading the library, the C structs the
package passes, errors as exceptions, devices, and running an operator
description on numpy arrays (dmlcl_operator_create, dmlcl_operator_compile,
dmlcl_compiled_operator_execute on host memory)."""
import ctypes
import ctypes.util
import os
import threading

import numpy as np

# ---- The library ----------------------------------------------------------------------


def _candidates():
    env = os.environ.get("DMLCL_LIBRARY")
    if env:
        # Named explicitly: that file or nothing, so a wrong path is not hidden.
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, "libdmlcl.so")]
    system = ctypes.util.find_library("dmlcl")
    found += [system] if system else []
    return found + ["libdmlcl.so.0", "libdmlcl.so"]


def _load():
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(f"{path} (no such file)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
    raise ImportError("dmlcl: cannot load libdmlcl; tried " + "; ".join(tried) +
                      ". Install dmlcl, or set DMLCL_LIBRARY to the path of libdmlcl.so")


lib = _load()

# ---- C types (include/dmlcl/dmlcl.h, frontends.h, directml.h) ------------------------------

DIMENSION_COUNT_MAX = 16  # DMLCL_TENSOR_DIMENSION_COUNT_MAX
HRESULT = ctypes.c_int32


class Shape(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_uint32), ("dims", ctypes.c_int64 * DIMENSION_COUNT_MAX)]


class IntArray(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("count", ctypes.c_uint64), ("data", ctypes.c_void_p)]


class HostTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_uint64)]


class OperatorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


class BufferTensorDesc(ctypes.Structure):
    _fields_ = [("DataType", ctypes.c_int), ("Flags", ctypes.c_int),
                ("DimensionCount", ctypes.c_uint32), ("Sizes", ctypes.POINTER(ctypes.c_uint32)),
                ("Strides", ctypes.POINTER(ctypes.c_uint32)),
                ("TotalTensorSizeInBytes", ctypes.c_uint64),
                ("GuaranteedBaseOffsetAlignment", ctypes.c_uint32)]


class TensorDesc(ctypes.Structure):
    _fields_ = [("Type", ctypes.c_int), ("Desc", ctypes.c_void_p)]


TENSOR_TYPE_BUFFER = 1

# dmlcl_frontend_result begins with DML_OPERATOR_DESC desc, then dmlcl_shape
# output_shape; the rest is storage desc points into, which grows as
# front-ends are added. The package reads the first two members and gives
# the C side this much room (the struct is about 3 KiB today).
FRONTEND_RESULT_BYTES = 1 << 16


class FrontendResultHead(ctypes.Structure):
    _fields_ = [("desc", OperatorDesc), ("output_shape", Shape)]


# numpy dtype -> DML_TENSOR_DATA_TYPE (bool moves as its bytes: UINT8).
DATA_TYPES = {
    np.dtype(np.float32): 1, np.dtype(np.float16): 2, np.dtype(np.uint32): 3,
    np.dtype(np.uint16): 4, np.dtype(np.uint8): 5, np.dtype(np.int32): 6, np.dtype(np.int16): 7,
    np.dtype(np.int8): 8, np.dtype(np.float64): 9, np.dtype(np.uint64): 10,
    np.dtype(np.int64): 11, np.dtype(np.bool_): 5,
}
INT64 = 11

_P = ctypes.c_void_p
for _name, _args, _res in [
    ("dmlcl_last_error", [], ctypes.c_char_p),
    ("dmlcl_hresult_name", [HRESULT], ctypes.c_char_p),
    ("dmlcl_version_string", [], ctypes.c_char_p),
    ("dmlcl_device_create_from_spec", [ctypes.c_char_p, ctypes.POINTER(_P)], HRESULT),
    ("dmlcl_device_release", [_P], None),
    ("dmlcl_device_description", [_P], ctypes.c_char_p),
    ("dmlcl_device_get_class", [_P], ctypes.c_int),
    ("dmlcl_operator_create", [_P, ctypes.POINTER(OperatorDesc), ctypes.POINTER(_P)], HRESULT),
    ("dmlcl_operator_release", [_P], None),
    ("dmlcl_operator_input_count", [_P], ctypes.c_uint32),
    ("dmlcl_operator_output_count", [_P], ctypes.c_uint32),
    ("dmlcl_operator_compile", [_P, ctypes.c_int, ctypes.POINTER(_P)], HRESULT),
    ("dmlcl_compiled_operator_release", [_P], None),
    ("dmlcl_compiled_operator_execute", [_P, ctypes.c_uint32, ctypes.POINTER(HostTensor),
                                         ctypes.c_uint32, ctypes.POINTER(HostTensor)], HRESULT),
]:
    _f = getattr(lib, _name)
    _f.argtypes, _f.restype = _args, _res

version = lib.dmlcl_version_string().decode()

# ---- Errors -----------------------------------------------------------------------------


class Error(RuntimeError):
    """A dmlcl failure: hresult (int), name ("E_INVALIDARG") and dmlcl's message."""

    def __init__(self, hresult, name, message):
        super().__init__(f"{name}: {message}" if message else name)
        self.hresult, self.name, self.message = hresult, name, message


class InvalidArgumentError(Error, ValueError):
    """E_INVALIDARG: an argument breaks a rule of the operator's specification."""


class UnsupportedError(Error, NotImplementedError):
    """DXGI_ERROR_UNSUPPORTED: legal, but beyond what dmlcl implements."""


class IndexOutOfRangeError(Error, IndexError):
    """DMLCL_E_INDEX_OUT_OF_RANGE: an index outside its axis under the ERROR policy."""


_ERRORS = {-2147024809: InvalidArgumentError, -2005270524: UnsupportedError,
           -1596194815: IndexOutOfRangeError}


def check(hr):
    """Raises the exception for a failed HRESULT, with dmlcl's message."""
    if hr >= 0:
        return
    name = lib.dmlcl_hresult_name(hr).decode()
    message = lib.dmlcl_last_error().decode(errors="replace")
    raise _ERRORS.get(hr, Error)(hr, name, message)


# ---- Devices ----------------------------------------------------------------------------

_CLASSES = {1: "cpu", 2: "gpu", 3: "accelerator"}


class Device:
    """An OpenCL device. spec: "[PLATFORM:]DEVICE", each an index or part of the
    name, DEVICE also gpu, cpu or accelerator; None: DMLCL_PLATFORM and
    DMLCL_DEVICE, else the first GPU, else the first CPU (see dmlcl-info)."""

    def __init__(self, spec=None):
        handle = ctypes.c_void_p()
        check(lib.dmlcl_device_create_from_spec(spec.encode() if spec else None,
                                                ctypes.byref(handle)))
        self._handle = handle

    @property
    def description(self):
        return lib.dmlcl_device_description(self._handle).decode()

    @property
    def device_class(self):
        return _CLASSES.get(lib.dmlcl_device_get_class(self._handle), "?")

    def __repr__(self):
        return f"dmlcl.Device({self.description!r}, class {self.device_class})"

    def __del__(self):
        if getattr(self, "_handle", None) and lib is not None:
            lib.dmlcl_device_release(self._handle)
            self._handle = None


_default = None
_default_lock = threading.Lock()


def set_device(device):
    """Makes device (a Device, a spec string, or None for the environment's
    choice) the one operations use when they are given none."""
    global _default
    with _default_lock:
        _default = device if isinstance(device, Device) or device is None else Device(device)


def get_device():
    """The default device, created on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = Device()
        return _default


# ---- Running an operator on host memory -----------------------------------------------


def _padded(nbytes):
    # DirectML sizes tensors in multiples of 4 bytes; 16 covers any rounding.
    return max(16, (nbytes + 15) // 16 * 16)


def host_input(array):
    """A contiguous copy of array with room for the rounded tensor size."""
    a = np.ascontiguousarray(array)
    buf = np.zeros(_padded(a.nbytes), dtype=np.uint8)
    buf[:a.nbytes] = a.reshape(-1).view(np.uint8)
    return buf


def execute(desc, inputs, output_shape, output_dtype, device=None):
    """Creates, compiles and runs the operator desc (a pointer to a
    DML_OPERATOR_DESC) on device with inputs (numpy arrays in binding order;
    None for an absent optional input) and returns its one output."""
    device = device if device is not None else get_device()
    if isinstance(device, str):
        device = Device(device)
    op, compiled = ctypes.c_void_p(), ctypes.c_void_p()
    try:
        check(lib.dmlcl_operator_create(device._handle, desc, ctypes.byref(op)))
        slots = lib.dmlcl_operator_input_count(op)
        if slots != len(inputs) or lib.dmlcl_operator_output_count(op) != 1:
            raise Error(0, "binding", f"the operator has {slots} inputs, given {len(inputs)}")
        check(lib.dmlcl_operator_compile(op, 0, ctypes.byref(compiled)))
        keep = [None if a is None else host_input(a) for a in inputs]
        hin = (HostTensor * max(1, len(keep)))()
        for i, b in enumerate(keep):
            hin[i] = HostTensor(None, 0) if b is None else HostTensor(b.ctypes.data, b.nbytes)
        dtype = np.dtype(output_dtype)
        count = int(np.prod(output_shape, dtype=np.int64))
        out = np.zeros(_padded(count * dtype.itemsize), dtype=np.uint8)
        hout = HostTensor(out.ctypes.data, out.nbytes)
        check(lib.dmlcl_compiled_operator_execute(compiled, len(keep), hin, 1,
                                                  ctypes.byref(hout)))
        return out[:count * dtype.itemsize].view(dtype).reshape(output_shape).copy()
    finally:
        lib.dmlcl_compiled_operator_release(compiled)
        lib.dmlcl_operator_release(op)
