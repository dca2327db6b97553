# SPDX-License-Identifier: MIT
"""The framework front-ends (include/dmlcl/frontends.h) described once each.

Every C front-end is `HRESULT dmlcl_<framework>_<op>(int opset, const args *,
dmlcl_frontend_result *)` and its args struct is the specification's inputs,
then its attributes, in order. A FrontEnd lists those members with the kinds
below; calling it with numpy arrays and Python values fills the struct, calls
the front-end, and runs the operator it describes:

    tensor("data")   const dmlcl_shape *data; DML_TENSOR_DATA_TYPE data_type;
                     a numpy array, bound as the operator's next input
    ints("starts")   const dmlcl_int_array *starts; const dmlcl_shape *starts_dims;
                     a list of integers (None: the optional input is absent)
    int_list("mask") const dmlcl_int_array *mask; (an attribute list, no dims)
    i64("axis")      int64_t axis
    string("mode")   const char *mode

Adding an operator is its FrontEnd line and a Python function that calls it.
"""
import ctypes

import numpy as np

from . import _native as n


class _Member:
    def __init__(self, kind, name, fields):
        self.kind, self.name, self.fields = kind, name, fields


def tensor(name):
    return _Member("tensor", name, [(name, ctypes.POINTER(n.Shape)), (name + "_type", ctypes.c_int)])


def ints(name):
    return _Member("ints", name, [(name, ctypes.POINTER(n.IntArray)),
                                  (name + "_dims", ctypes.POINTER(n.Shape))])


def int_list(name):
    return _Member("int_list", name, [(name, ctypes.POINTER(n.IntArray))])


def i64(name):
    return _Member("i64", name, [(name, ctypes.c_int64)])


def string(name):
    return _Member("string", name, [(name, ctypes.c_char_p)])


def _shape(dims):
    if len(dims) > n.DIMENSION_COUNT_MAX:
        raise n.UnsupportedError(0, "DXGI_ERROR_UNSUPPORTED",
                                 f"rank {len(dims)} is over {n.DIMENSION_COUNT_MAX}")
    s = n.Shape()
    s.rank = len(dims)
    for i, d in enumerate(dims):
        s.dims[i] = d
    return s


def _int_array(values, keep):
    a = np.ascontiguousarray(np.asarray(values, dtype=np.int64).reshape(-1))
    keep.append(a)
    return n.IntArray(n.INT64, a.size, a.ctypes.data)


class FrontEnd:
    """One C front-end: its symbol and its args struct's members, in order."""

    def __init__(self, symbol, *members):
        self.symbol, self.members = symbol, members
        fields = [f for m in members for f in m.fields]
        self.Args = type(symbol + "_args", (ctypes.Structure,), {"_fields_": fields})
        self.fn = getattr(n.lib, symbol)
        self.fn.argtypes = [ctypes.c_int, ctypes.POINTER(self.Args), ctypes.c_void_p]
        self.fn.restype = n.HRESULT

    def describe(self, opset, **values):
        """Fills and calls the front-end: returns (result buffer, bound
        inputs, output shape); raises with dmlcl's message when it refuses."""
        args, keep, inputs = self.Args(), [], []
        for m in self.members:
            v = values.get(m.name)
            if m.kind == "tensor":
                a = np.asarray(v)
                if a.dtype not in n.DATA_TYPES:
                    raise TypeError(f"dmlcl: {m.name}: dtype {a.dtype} is not supported "
                                    f"(supported: {sorted(str(t) for t in n.DATA_TYPES)})")
                s = _shape(a.shape)
                keep.append(s)
                setattr(args, m.name, ctypes.pointer(s))
                setattr(args, m.name + "_type", n.DATA_TYPES[a.dtype])
                inputs.append(a)
            elif m.kind in ("ints", "int_list") and v is not None:
                arr = _int_array(v, keep)
                keep.append(arr)
                setattr(args, m.name, ctypes.pointer(arr))
            elif m.kind == "i64":
                setattr(args, m.name, int(v or 0))
            elif m.kind == "string" and v is not None:
                b = v.encode()
                keep.append(b)
                setattr(args, m.name, b)
        result = ctypes.create_string_buffer(n.FRONTEND_RESULT_BYTES)
        n.check(self.fn(opset, ctypes.byref(args), result))
        head = n.FrontendResultHead.from_buffer(result)
        shape = tuple(head.output_shape.dims[i] for i in range(head.output_shape.rank))
        return result, inputs, shape

    def __call__(self, opset, device=None, **values):
        result, inputs, shape = self.describe(opset, **values)
        desc = ctypes.cast(result, ctypes.POINTER(n.OperatorDesc))
        out = n.execute(desc, inputs, shape, inputs[0].dtype, device)
        return out


ONNX_GATHER = FrontEnd("dmlcl_onnx_gather", tensor("data"), tensor("indices"), i64("axis"))
ONNX_GATHER_ELEMENTS = FrontEnd("dmlcl_onnx_gather_elements", tensor("data"), tensor("indices"),
                                i64("axis"))
ONNX_GATHER_ND = FrontEnd("dmlcl_onnx_gather_nd", tensor("data"), tensor("indices"),
                          i64("batch_dims"))
OPENVINO_GATHER = FrontEnd("dmlcl_openvino_gather", tensor("data"), tensor("indices"),
                           ints("axis"), i64("batch_dims"))
ONNX_SLICE = FrontEnd("dmlcl_onnx_slice", tensor("data"), ints("starts"), ints("ends"),
                      ints("axes"), ints("steps"))
OPENVINO_STRIDED_SLICE = FrontEnd("dmlcl_openvino_strided_slice", tensor("data"), ints("begin"),
                                  ints("end"), ints("stride"), int_list("begin_mask"),
                                  int_list("end_mask"), int_list("new_axis_mask"),
                                  int_list("shrink_axis_mask"), int_list("ellipsis_mask"))
ONNX_EXPAND = FrontEnd("dmlcl_onnx_expand", tensor("input"), ints("shape"))
OPENVINO_BROADCAST = FrontEnd("dmlcl_openvino_broadcast", tensor("data"), ints("target_shape"),
                              ints("axes_mapping"), string("mode"))
OPENVINO_TRANSPOSE = FrontEnd("dmlcl_openvino_transpose", tensor("data"), ints("input_order"))
ONNX_TILE = FrontEnd("dmlcl_onnx_tile", tensor("input"), ints("repeats"))
ONNX_DEPTH_TO_SPACE = FrontEnd("dmlcl_onnx_depth_to_space", tensor("input"), i64("blocksize"),
                               string("mode"))
ONNX_SPACE_TO_DEPTH = FrontEnd("dmlcl_onnx_space_to_depth", tensor("input"), i64("blocksize"))
