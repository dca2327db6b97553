# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/pool2.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from onnx import helper, TensorProto
from onnx.reference import ReferenceEvaluator
cases = []
F = "FLOAT32"
def onnx_pool(op, x, **attrs):
    node = helper.make_node(op, ["X"], ["Y"], **attrs)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape))],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    return ReferenceEvaluator(m).run(None, {"X": x.astype(np.float32)})[0].astype(np.float64)
x = rnd((1, 1, 4, 4))
for inc in [0, 1]:
    y = onnx_pool("AveragePool", x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1, count_include_pad=inc)
    cases.append(case(f"avgpool-ceil-pads-include{inc}", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T(F, x)},
        {"OutputTensor": out(F, y, 12, 1e-6)},
        attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1], "IncludePadding": bool(inc)},
        note=f"ONNX output {list(y.shape)}"))
    y = onnx_pool("MaxPool", x, kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1)
cases.append(case("maxpool-ceil-pads", "DML_OPERATOR_MAX_POOLING", {"InputTensor": T(F, x)}, {"OutputTensor": T(F, y)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1]}, note=f"ONNX output {list(y.shape)}"))
# 3-D maxpool with indices (5-D tensors), N=2,C=2
x5 = rnd((2, 2, 3, 3, 3))
node = helper.make_node("MaxPool", ["X"], ["Y", "I"], kernel_shape=[2, 2, 2], strides=[1, 1, 1])
g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x5.shape))],
                      [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None), helper.make_tensor_value_info("I", TensorProto.INT64, None)])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
Y, I = ReferenceEvaluator(m).run(None, {"X": x5.astype(np.float32)})
def fix_idx(x, Y):
    # own reference: whole-tensor flattened index of each window's first maximum
    out = np.zeros(Y.shape, dtype=np.int64)
    for n, c, d, h, w in np.ndindex(*Y.shape):
        win = x[n, c, d:d + 2, h:h + 2, w:w + 2]
        k = np.unravel_index(np.argmax(win), win.shape)
        out[n, c, d, h, w] = np.ravel_multi_index((n, c, d + k[0], h + k[1], w + k[2]), x.shape)
    return out
cases.append(case("maxpool3d-indices-n2c2", "DML_OPERATOR_MAX_POOLING2", {"InputTensor": T(F, x5)},
    {"OutputTensor": T(F, Y.astype(np.float64)), "OutputIndicesTensor": T("UINT64", fix_idx(x5, Y))},
    attrs={"WindowSize": [2, 2, 2], "Strides": [1, 1, 1], "StartPadding": [0, 0, 0], "EndPadding": [0, 0, 0], "Dilations": [1, 1, 1]}))
# LpPool p=2 with padding
y = onnx_pool("LpPool", x, kernel_shape=[2, 2], strides=[2, 2], pads=[1, 1, 1, 1], p=2)
cases.append(case("lppool-p2-pads", "DML_OPERATOR_LP_POOLING", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, y, 12, 1e-6)},
    attrs={"WindowSize": [2, 2], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1], "P": 2}))
write("pool2.json", cases)
