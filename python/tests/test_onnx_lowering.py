# SPDX-License-Identifier: MIT
"""dmlcl.onnx: small ONNX graphs lowered to one DirectML graph, run by dmlcl-dispatch and
compared with ONNX Runtime CPU (the independent reference). The real models (ResNet-18,
MiniLM) run in scripts/models; these few-node graphs cover each lowering rule they use."""
import numpy as np
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from dmlcl import onnx as dml_onnx


def model(nodes, inputs, outputs, inits, opset=17):
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, None) for n, t in outputs],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def check(m, feeds):
    """Lowered and run against ONNX Runtime: |d| <= the graph's accumulated per-operator
    tolerance (Lowered.tolerance) times max |reference| per float output; integers equal."""
    lowered = dml_onnx.lower(m, {k: v.shape for k, v in feeds.items()})
    tol = lowered.tolerance()
    got, _ = dml_onnx.run(lowered, feeds)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
    for name, w in want.items():
        g = got[name]
        assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape, g.dtype)
        if w.dtype.kind == "f":
            assert np.max(np.abs(g - w)) <= tol * np.max(np.abs(w)), name
        else:
            np.testing.assert_array_equal(g, w)
    return lowered


def test_cnn_block(rng):
    """Conv + Relu (fused), MaxPool, a residual Add + Relu (ADD1 with a fused RELU),
    GlobalAveragePool, Flatten (an alias), Gemm with transB and a bias broadcast as C."""
    w1 = rng.standard_normal((8, 3, 3, 3)).astype(np.float32) * 0.3
    b1 = rng.standard_normal(8).astype(np.float32)
    w2 = rng.standard_normal((8, 8, 3, 3)).astype(np.float32) * 0.2
    fc = rng.standard_normal((5, 8)).astype(np.float32)
    fcb = rng.standard_normal(5).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c1"], ["r1"]),
             helper.make_node("MaxPool", ["r1"], ["p"], kernel_shape=[3, 3], strides=[2, 2],
                              pads=[1, 1, 1, 1]),
             helper.make_node("Conv", ["p", "w2"], ["c2"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
             helper.make_node("Add", ["c2", "p"], ["a"]),
             helper.make_node("Relu", ["a"], ["r2"]),
             helper.make_node("GlobalAveragePool", ["r2"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "fc", "fcb"], ["y"], transB=1)]
    m = model(nodes, [("x", TensorProto.FLOAT, [2, 3, 16, 16])], [("y", TensorProto.FLOAT), ("r2", TensorProto.FLOAT)],
              {"w1": w1, "b1": b1, "w2": w2, "fc": fc, "fcb": fcb})
    lowered = check(m, {"x": rng.standard_normal((2, 3, 16, 16)).astype(np.float32)})
    # Two convolutions (2·K ULP: K = 3·3·3, 8·3·3), ADD1 (1), a 4x4 average (16 + 2), the
    # GEMM (2·8 + 1 for alpha + 1 for C).
    assert lowered.tolerance() == (2 * 27 + 2 * 72 + 1 + 18 + 18) * 2.0 ** -23
    assert lowered.operator_counts() == {"CONVOLUTION": 2, "MAX_POOLING2": 1,
                                         "ELEMENT_WISE_ADD1": 1, "AVERAGE_POOLING": 1, "GEMM": 1}
    fused = [(op, how) for _, op, how in lowered.mapping if how == "FusedActivation"]
    assert fused == [("Relu", "FusedActivation")] * 2


def test_attention_block(rng):
    """An encoder's pieces as exported from PyTorch: an embedding Gather of int64 ids, a
    shape subgraph (Shape, Gather, Unsqueeze, Concat) folded into a Reshape's constant,
    MatMul + bias Add (GEMM with C), Transpose (IDENTITY through permuted strides), a batched
    MatMul, Div, the attention mask (Unsqueeze, Cast, Sub, Mul) broadcast into an Add, Softmax,
    LayerNormalization (MEAN_VARIANCE_NORMALIZATION1), Erf, a mean pooled by ReduceSum and
    Clip, Equal + Where, and a graph output that is an input (an IDENTITY)."""
    b, s, h, heads, vocab = 2, 6, 8, 2, 20
    emb = rng.standard_normal((vocab, h)).astype(np.float32)
    wq = rng.standard_normal((h, h)).astype(np.float32) * 0.3
    bq = rng.standard_normal(h).astype(np.float32)
    ln_w = rng.uniform(0.5, 1.5, h).astype(np.float32)
    ln_b = rng.standard_normal(h).astype(np.float32)
    c = {k: np.array(v, dtype) for k, v, dtype in (
        ("zero", 0, np.int64), ("ax0", [0], np.int64), ("ax12", [1, 2], np.int64),
        ("heads", [heads, h // heads], np.int64), ("one", 1.0, np.float32),
        ("big", -10000.0, np.float32), ("scale", 2.0, np.float32), ("ax1", [1], np.int64),
        ("eps", 1e-9, np.float32), ("sqrt2", 1.4142135, np.float32))}
    nodes = [
        helper.make_node("Gather", ["emb", "ids"], ["e"]),
        helper.make_node("Shape", ["e"], ["shp"]),
        helper.make_node("Gather", ["shp", "zero"], ["bdim"]),
        helper.make_node("Unsqueeze", ["bdim", "ax0"], ["bdim1"]),
        helper.make_node("Shape", ["ids"], ["sshp"]),
        helper.make_node("Gather", ["sshp", "ax1"], ["sdim1"]),
        helper.make_node("Concat", ["bdim1", "sdim1", "heads"], ["newshape"], axis=0),
        helper.make_node("MatMul", ["e", "wq"], ["q0"]),
        helper.make_node("Add", ["q0", "bq"], ["q"]),
        helper.make_node("Reshape", ["q", "newshape"], ["q4"]),
        helper.make_node("Transpose", ["q4"], ["qt"], perm=[0, 2, 1, 3]),
        helper.make_node("Transpose", ["q4"], ["kt"], perm=[0, 2, 3, 1]),
        helper.make_node("MatMul", ["qt", "kt"], ["sc0"]),
        helper.make_node("Div", ["sc0", "scale"], ["sc"]),
        helper.make_node("Unsqueeze", ["mask", "ax12"], ["m4"]),
        helper.make_node("Cast", ["m4"], ["mf"], to=TensorProto.FLOAT),
        helper.make_node("Sub", ["one", "mf"], ["inv"]),
        helper.make_node("Mul", ["inv", "big"], ["madd"]),
        helper.make_node("Add", ["sc", "madd"], ["scm"]),
        helper.make_node("Softmax", ["scm"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "qt"], ["ctx"]),
        helper.make_node("Transpose", ["ctx"], ["ctxt"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ctxt", "shp"], ["ctx3"]),
        helper.make_node("LayerNormalization", ["ctx3", "ln_w", "ln_b"], ["ln"], axis=-1,
                         epsilon=1e-5),
        helper.make_node("Div", ["ln", "sqrt2"], ["d"]),
        helper.make_node("Erf", ["d"], ["erf"]),
        helper.make_node("Mul", ["ln", "erf"], ["act"]),
        helper.make_node("Unsqueeze", ["mask", "ax12"], ["mm"]),
        helper.make_node("Cast", ["mask"], ["mcast"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["mcast", "ax12"], ["mexp"]),
        helper.make_node("Reshape", ["mexp", "newmask"], ["m3"]),
        helper.make_node("Mul", ["act", "m3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "ax1"], ["sum"], keepdims=0),
        helper.make_node("ReduceSum", ["m3", "ax1"], ["cnt"], keepdims=0),
        helper.make_node("Clip", ["cnt", "eps"], ["cntc"]),
        helper.make_node("Div", ["sum", "cntc"], ["pooled"]),
        helper.make_node("Equal", ["ids", "zero"], ["pad"]),
        helper.make_node("Where", ["pad", "zero", "ids"], ["ids_clean"]),
        helper.make_node("Identity", ["mask"], ["mask_out"]),
    ]
    inits = dict(c, emb=emb, wq=wq, bq=bq, ln_w=ln_w, ln_b=ln_b,
                 newmask=np.array([b, s, 1], np.int64))
    m = model(nodes, [("ids", TensorProto.INT64, ["b", "s"]), ("mask", TensorProto.INT64, ["b", "s"])],
              [("pooled", TensorProto.FLOAT), ("act", TensorProto.FLOAT),
               ("ids_clean", TensorProto.INT64), ("mask_out", TensorProto.INT64)], inits)
    ids = rng.integers(0, vocab, (b, s)).astype(np.int64)
    mask = np.ones((b, s), np.int64)
    mask[1, 4:] = 0
    lowered = check(m, {"ids": ids, "mask": mask})
    ops = lowered.operator_counts()
    assert ops["GEMM"] == 3 and ops["MEAN_VARIANCE_NORMALIZATION1"] == 1, ops
    assert ops["ELEMENT_WISE_IF"] == 1 and ops["REDUCE"] == 2 and ops["GATHER"] == 1, ops
    assert not any(op in ("Shape", "Concat") for _, op, _ in lowered.mapping)  # folded


def test_more_rules(rng):
    """BatchNormalization + Relu (fused), Pow by a constant scalar (CONSTANT_POW), AveragePool
    counting its padding, MaxPool with ceil_mode, Concat (JOIN), ReduceMean over two axes,
    Max with a broadcast, Conv with auto_pad SAME_UPPER and stride 2."""
    c = 4
    inits = {"s": rng.uniform(0.5, 1.5, c), "b": rng.standard_normal(c),
             "m": rng.standard_normal(c), "v": rng.uniform(0.5, 1.5, c), "two": np.array(2.0),
             "b4": rng.standard_normal((1, 2 * c, 1, 1)), "w": rng.standard_normal((2, c, 3, 3))}
    inits = {k: np.asarray(v, np.float32) for k, v in inits.items()}
    nodes = [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["bn"]),
             helper.make_node("Relu", ["bn"], ["r"]),
             helper.make_node("Pow", ["r", "two"], ["p"]),
             helper.make_node("AveragePool", ["p"], ["ap"], kernel_shape=[3, 3], strides=[2, 2],
                              pads=[1, 1, 1, 1], count_include_pad=1),
             helper.make_node("MaxPool", ["x"], ["mp"], kernel_shape=[3, 3], strides=[2, 2],
                              ceil_mode=1),
             helper.make_node("Concat", ["ap", "ap"], ["cc"], axis=1),
             helper.make_node("ReduceMean", ["cc"], ["rm"], axes=[1, 2], keepdims=1),
             helper.make_node("Max", ["rm", "b4"], ["y"]),
             helper.make_node("Conv", ["x", "w"], ["cv"], kernel_shape=[3, 3],
                              auto_pad="SAME_UPPER", strides=[2, 2])]
    m = model(nodes, [("x", TensorProto.FLOAT, [2, c, 9, 9])],
              [(n, TensorProto.FLOAT) for n in ("y", "mp", "cv")], inits)
    lowered = check(m, {"x": rng.standard_normal((2, c, 9, 9)).astype(np.float32)})
    assert lowered.operator_counts() == {
        "BATCH_NORMALIZATION": 1, "ELEMENT_WISE_CONSTANT_POW": 1, "AVERAGE_POOLING": 1,
        "MAX_POOLING2": 1, "JOIN": 1, "REDUCE": 1, "ELEMENT_WISE_MAX": 1, "CONVOLUTION": 1}


@pytest.mark.parametrize("half_first", [False, True])
def test_gelu_pattern(rng, half_first):
    """x * 0.5 * (1 + erf(x / sqrt(2))) as PyTorch exports it, in both orders of the two Muls,
    after a MatMul + bias: one ACTIVATION_GELU (ONNX Runtime's GeluFusion); a Div by another
    constant stays apart."""
    w = rng.standard_normal((8, 16)).astype(np.float32)
    inits = {"w": w, "bias": rng.standard_normal(16).astype(np.float32),
             "sqrt2": np.array(1.4142135, np.float32), "one": np.array(1.0, np.float32),
             "half": np.array(0.5, np.float32), "three": np.array(3.0, np.float32)}
    nodes = [helper.make_node("MatMul", ["x", "w"], ["mm"]),
             helper.make_node("Add", ["bias", "mm"], ["h"]),
             helper.make_node("Div", ["h", "sqrt2"], ["d"]),
             helper.make_node("Erf", ["d"], ["e"]),
             helper.make_node("Add", ["e", "one"], ["e1"])]
    if half_first:
        nodes += [helper.make_node("Mul", ["h", "half"], ["hh"]),
                  helper.make_node("Mul", ["hh", "e1"], ["g"])]
    else:
        nodes += [helper.make_node("Mul", ["h", "e1"], ["he"]),
                  helper.make_node("Mul", ["he", "half"], ["g"])]
    nodes += [helper.make_node("Div", ["g", "three"], ["d3"]),
              helper.make_node("Erf", ["d3"], ["y"])]
    m = model(nodes, [("x", TensorProto.FLOAT, [4, 8])], [("y", TensorProto.FLOAT)], inits)
    lowered = check(m, {"x": rng.standard_normal((4, 8)).astype(np.float32)})
    assert lowered.operator_counts() == {"GEMM": 1, "ACTIVATION_GELU": 1,
                                         "ELEMENT_WISE_DIVIDE": 1, "ELEMENT_WISE_ERF": 1}


def test_quantize_dequantize(rng):
    """QDQ as ONNX Runtime's DirectML provider lowers it (DmlOperatorElementwiseQLinear):
    QuantizeLinear per channel (axis 1: the 1-D scale and zero point read as {1, C, 1, 1} with
    0 strides) into UINT8, DequantizeLinear back, an Add of the two dequantized tensors, and a
    per-tensor QuantizeLinear into INT8; halves on the grid round to even, values past the
    range saturate. DequantizeLinear without a zero point (DirectML 6.2: absent)."""
    c = 3
    inits = {"s": np.array([0.05, 0.1, 0.25], np.float32),
             "z": np.array([128, 0, 250], np.uint8),
             "sy": np.array(0.125, np.float32), "zy": np.array(-3, np.int8),
             "s8": np.array(0.5, np.float32)}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["dq"], axis=1),
             helper.make_node("Add", ["dq", "x"], ["a"]),
             helper.make_node("QuantizeLinear", ["a", "sy", "zy"], ["y"]),
             helper.make_node("DequantizeLinear", ["y", "s8"], ["f"])]
    x = (rng.integers(-400, 400, size=(2, c, 4, 4)) / 8.0).astype(np.float32)
    m = model(nodes, [("x", TensorProto.FLOAT, [2, c, 4, 4])],
              [("q", TensorProto.UINT8), ("y", TensorProto.INT8), ("f", TensorProto.FLOAT)],
              inits)
    lowered = check(m, {"x": x})
    assert lowered.operator_counts() == {"ELEMENT_WISE_QUANTIZE_LINEAR": 2,
                                         "ELEMENT_WISE_DEQUANTIZE_LINEAR": 2,
                                         "ELEMENT_WISE_ADD": 1}


def test_scatters(rng):
    """ScatterElements along axis 1 after an Add (a computed input), ScatterND of rows with a
    negative index, feeding a Mul: SCATTER_ELEMENTS and SCATTER_ND, each its own node;
    indices without duplicates (ONNX's result is then defined)."""
    idx = np.array([[2, 0], [1, -3], [0, 2]], np.int64)
    rows = np.array([[2], [-3]], np.int64)
    inits = {"one": np.array(1.0, np.float32), "idx": idx, "rows": rows,
             "two": np.array(2.0, np.float32)}
    nodes = [helper.make_node("Add", ["x", "one"], ["a"]),
             helper.make_node("ScatterElements", ["a", "idx", "u"], ["s"], axis=1),
             helper.make_node("ScatterND", ["s", "rows", "v"], ["n"]),
             helper.make_node("Mul", ["n", "two"], ["y"])]
    m = model(nodes, [("x", TensorProto.FLOAT, [3, 4]), ("u", TensorProto.FLOAT, [3, 2]),
                      ("v", TensorProto.FLOAT, [2, 4])], [("y", TensorProto.FLOAT)], inits)
    lowered = check(m, {"x": rng.standard_normal((3, 4)).astype(np.float32),
                        "u": rng.standard_normal((3, 2)).astype(np.float32),
                        "v": rng.standard_normal((2, 4)).astype(np.float32)})
    assert lowered.operator_counts() == {"ELEMENT_WISE_ADD": 1, "SCATTER_ELEMENTS": 1,
                                         "SCATTER_ND": 1, "ELEMENT_WISE_MULTIPLY": 1}
    bad = model([helper.make_node("ScatterND", ["x", "rows", "v"], ["y"], reduction="add",
                                  name="sa")],
                [("x", TensorProto.FLOAT, [3, 4]), ("v", TensorProto.FLOAT, [2, 4])],
                [("y", TensorProto.FLOAT)], {"rows": rows})
    with pytest.raises(dml_onnx.UnsupportedModelError, match=r"node 'sa' \(ScatterND\): reduction"):
        dml_onnx.lower(bad, {"x": (3, 4), "v": (2, 4)})


def test_blocked_quantize_dequantize(rng):
    """QuantizeLinear and DequantizeLinear with block_size as DML_OPERATOR_QUANTIZE and
    DEQUANTIZE (6.3): the axis split into {blocks, block_size}, one scale and zero point per
    block read with stride 0 over its elements; against ONNX Runtime's CPU kernels."""
    inits = {"s": np.array([[0.5, 0.25, 2.0], [0.125, 1.0, 0.75]], np.float32),
             "z": np.array([[0, 10, 250], [128, 3, 90]], np.uint8)}
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], axis=1, block_size=4),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], axis=1, block_size=4)]
    x = (rng.integers(-400, 400, size=(2, 12)) / 8.0).astype(np.float32)
    m = model(nodes, [("x", TensorProto.FLOAT, [2, 12])],
              [("q", TensorProto.UINT8), ("y", TensorProto.FLOAT)], inits, opset=21)
    lowered = check(m, {"x": x})
    assert lowered.operator_counts() == {"QUANTIZE": 1, "DEQUANTIZE": 1}


def test_dynamic_quantize_linear(rng):
    """DynamicQuantizeLinear as DYNAMIC_QUANTIZE_LINEAR: the quantized tensor, the scale and
    the zero point (one-element tensors of the input's rank), then a DequantizeLinear reading
    them; against ONNX Runtime's CPU kernels."""
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["q", "s", "z"]),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"])]
    x = (rng.standard_normal((2, 3, 5)) * 4).astype(np.float32)
    m = model(nodes, [("x", TensorProto.FLOAT, [2, 3, 5])],
              [("q", TensorProto.UINT8), ("s", TensorProto.FLOAT), ("z", TensorProto.UINT8),
               ("y", TensorProto.FLOAT)], {})
    lowered = check(m, {"x": x})
    assert lowered.operator_counts() == {"DYNAMIC_QUANTIZE_LINEAR": 1,
                                         "ELEMENT_WISE_DEQUANTIZE_LINEAR": 1}


def test_unsupported_node_is_named():
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("NonZero", ["r"], ["y"], name="nz")]
    m = model(nodes, [("x", TensorProto.FLOAT, [4])], [("y", TensorProto.INT64)], {})
    with pytest.raises(dml_onnx.UnsupportedModelError, match=r"node 'nz' \(NonZero\)"):
        dml_onnx.lower(m, {"x": (4,)})
