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
                     integers, a list or a scalar (None: the optional input is
                     absent); bools go as BOOLEAN
    int_list("mask") const dmlcl_int_array *mask; (an attribute list, no dims)
    tensors("inputs")
                     const dmlcl_shape *inputs; const DML_TENSOR_DATA_TYPE
                     *inputs_type; uint32_t input_count; a list of numpy
                     arrays, bound in order
    value("pad_value")
                     const void *pad_value; DML_TENSOR_DATA_TYPE pad_value_type;
                     const dmlcl_shape *pad_value_dims; one element the call
                     reads (None: the input is absent), not bound
    i64_array("perm")
                     const int64_t *perm; uint32_t perm_count
    i64("axis")      int64_t axis
    u32("count")     uint32_t count
    string("mode")   const char *mode

A split has result.output_count outputs (their shapes in output_shapes);
FrontEnd.run returns the list. Every result is cleared
(dmlcl_frontend_result_clear) after use, as Concat and Split may keep heap
storage in it.

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


def tensors(name):
    return _Member("tensors", name, [(name, ctypes.POINTER(n.Shape)),
                                     (name + "_type", ctypes.POINTER(ctypes.c_int)),
                                     ("input_count", ctypes.c_uint32)])


def value(name):
    return _Member("value", name, [(name, ctypes.c_void_p), (name + "_type", ctypes.c_int),
                                   (name + "_dims", ctypes.POINTER(n.Shape))])


def i64_array(name):
    return _Member("i64_array", name, [(name, ctypes.POINTER(ctypes.c_int64)),
                                       (name + "_count", ctypes.c_uint32)])


def u32(name):
    return _Member("u32", name, [(name, ctypes.c_uint32)])


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
    """values as a dmlcl_int_array and the dims of the tensor holding them
    (a scalar stays 0-D); booleans (a Reverse mask) go as BOOLEAN bytes."""
    v = np.asarray(values)
    if v.dtype == np.bool_:
        a, code = np.ascontiguousarray(v.astype(np.uint8).reshape(-1)), n.BOOLEAN
    else:
        a, code = np.ascontiguousarray(np.asarray(v, dtype=np.int64).reshape(-1)), n.INT64
    dims = _shape(v.shape)
    keep += [a, dims]
    return n.IntArray(code, a.size, a.ctypes.data), dims


def _dtype_code(name, a):
    if a.dtype not in n.DATA_TYPES:
        raise TypeError(f"dmlcl: {name}: dtype {a.dtype} is not supported "
                        f"(supported: {sorted(str(t) for t in n.DATA_TYPES)})")
    return n.DATA_TYPES[a.dtype]


class FrontEnd:
    """One C front-end: its symbol and its args struct's members, in order."""

    def __init__(self, symbol, *members):
        self.symbol, self.members = symbol, members
        fields = [f for m in members for f in m.fields]
        self.Args = type(symbol + "_args", (ctypes.Structure,), {"_fields_": fields})
        self.fn = getattr(n.lib, symbol)
        self.fn.argtypes = [ctypes.c_int, ctypes.POINTER(self.Args), ctypes.c_void_p]
        self.fn.restype = n.HRESULT

    def _fill(self, args, values, keep, inputs):
        for m in self.members:
            v = values.get(m.name)
            if m.kind == "tensor":
                a = np.asarray(v)
                s = _shape(a.shape)
                keep.append(s)
                setattr(args, m.name, ctypes.pointer(s))
                setattr(args, m.name + "_type", _dtype_code(m.name, a))
                inputs.append(a)
            elif m.kind == "tensors":
                arrays = [np.asarray(a) for a in v]
                shapes = (n.Shape * max(1, len(arrays)))(*[_shape(a.shape) for a in arrays])
                types = (ctypes.c_int * max(1, len(arrays)))(
                    *[_dtype_code(f"{m.name}[{i}]", a) for i, a in enumerate(arrays)])
                keep += [shapes, types]
                setattr(args, m.name, shapes)
                setattr(args, m.name + "_type", types)
                args.input_count = len(arrays)
                inputs += arrays
            elif m.kind == "value" and v is not None:
                a = np.array(v, order="C")  # a copy; 0-D stays 0-D (ascontiguousarray is 1-D)
                dims = _shape(a.shape)
                keep += [a, dims]
                setattr(args, m.name, a.ctypes.data)
                setattr(args, m.name + "_type", _dtype_code(m.name, a))
                setattr(args, m.name + "_dims", ctypes.pointer(dims))
            elif m.kind == "i64_array" and v is not None:
                a = np.ascontiguousarray(np.asarray(v, dtype=np.int64).reshape(-1))
                keep.append(a)
                setattr(args, m.name, a.ctypes.data_as(ctypes.POINTER(ctypes.c_int64)))
                setattr(args, m.name + "_count", a.size)
            elif m.kind in ("ints", "int_list") and v is not None:
                arr, dims = _int_array(v, keep)
                keep.append(arr)
                setattr(args, m.name, ctypes.pointer(arr))
                if m.kind == "ints":
                    setattr(args, m.name + "_dims", ctypes.pointer(dims))
            elif m.kind in ("i64", "u32"):
                setattr(args, m.name, int(v or 0))
            elif m.kind == "string" and v is not None:
                b = v.encode()
                keep.append(b)
                setattr(args, m.name, b)

    def describe(self, opset, **values):
        """Fills and calls the front-end: returns (result buffer, bound
        inputs, output shapes); raises with dmlcl's message when it refuses.
        The caller clears the result (n.clear_result) when done with it."""
        args, keep, inputs = self.Args(), [], []
        self._fill(args, values, keep, inputs)
        result = ctypes.create_string_buffer(n.FRONTEND_RESULT_BYTES)
        try:
            n.check(self.fn(opset, ctypes.byref(args), result))
            return result, inputs, n.result_output_shapes(result)
        except BaseException:
            n.clear_result(result)
            raise

    def run(self, opset, device=None, **values):
        """Describes and runs the operator: a list of its outputs."""
        result, inputs, shapes = self.describe(opset, **values)
        try:
            desc = ctypes.cast(result, ctypes.POINTER(n.OperatorDesc))
            return n.execute_outputs(desc, inputs, shapes, inputs[0].dtype, device)
        finally:
            n.clear_result(result)

    def __call__(self, opset, device=None, **values):
        """Describes and runs a one-output operator: its output."""
        return self.run(opset, device, **values)[0]


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
ONNX_TRANSPOSE = FrontEnd("dmlcl_onnx_transpose", tensor("data"), i64_array("perm"))
OPENVINO_REVERSE = FrontEnd("dmlcl_openvino_reverse", tensor("data"), ints("axis"),
                            string("mode"))
OPENVINO_ROLL = FrontEnd("dmlcl_openvino_roll", tensor("data"), ints("shift"), ints("axes"))
OPENVINO_PAD = FrontEnd("dmlcl_openvino_pad", tensor("data"), ints("pads_begin"),
                        ints("pads_end"), value("pad_value"), string("pad_mode"))
ONNX_PAD = FrontEnd("dmlcl_onnx_pad", tensor("data"), ints("pads"), value("constant_value"),
                    ints("axes"), string("mode"))
OPENVINO_CONCAT = FrontEnd("dmlcl_openvino_concat", tensors("inputs"), i64("axis"))
ONNX_CONCAT = FrontEnd("dmlcl_onnx_concat", tensors("inputs"), i64("axis"))
OPENVINO_SPLIT = FrontEnd("dmlcl_openvino_split", tensor("data"), ints("axis"),
                          i64("num_splits"))
OPENVINO_VARIADIC_SPLIT = FrontEnd("dmlcl_openvino_variadic_split", tensor("data"), ints("axis"),
                                   ints("split_lengths"))
ONNX_SPLIT = FrontEnd("dmlcl_onnx_split", tensor("input"), ints("split"), i64("axis"),
                      i64("num_outputs"), u32("output_count"))
