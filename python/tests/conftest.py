# SPDX-License-Identifier: MIT
"""Shared helpers: one-node ONNX models run by onnx.reference (the ONNX
project's own evaluator: the independent expectation for the ONNX modes)."""
import zlib

import numpy as np
import pytest

# onnx is required (scripts/requirements.txt): without it the suite fails, never skips.
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def onnx_run(op_type, inputs, opset=13, **attrs):
    """Runs op_type on inputs (name -> numpy array, in the operator's input
    order; None: an absent optional input) with attrs; returns output 0."""
    names = [name if value is not None else "" for name, value in inputs.items()]
    node = helper.make_node(op_type, names, ["y"], **attrs)
    feeds = {k: v for k, v in inputs.items() if v is not None}
    graph_inputs = [helper.make_tensor_value_info(
        k, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape) for k, v in feeds.items()]
    graph = helper.make_graph([node], "g", graph_inputs,
                              [helper.make_tensor_value_info("y", TensorProto.UNDEFINED, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return ReferenceEvaluator(model).run(None, feeds)[0]


@pytest.fixture
def rng(request):
    # One fixed seed per test, from its id: a failure replays as it failed.
    return np.random.default_rng(zlib.crc32(request.node.name.encode()))


__all__ = ["onnx_run", "numpy_helper"]
