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


def test_folded_dequantize_at_opset_17(rng):
    """quantize_dynamic's quantized embedding table: a DequantizeLinear of constants at opset 17,
    which onnx.reference implements only from version 19: folded on the host all the same (the
    later version keeps the older semantics), then gathered."""
    table = rng.integers(-128, 128, size=(50, 8)).astype(np.int8)
    inits = {"t": table, "s": np.array(0.03125, np.float32), "z": np.array(3, np.int8)}
    nodes = [helper.make_node("DequantizeLinear", ["t", "s", "z"], ["f"]),
             helper.make_node("Gather", ["f", "ids"], ["y"])]
    m = model(nodes, [("ids", TensorProto.INT64, [2, 5])], [("y", TensorProto.FLOAT)], inits)
    lowered = check(m, {"ids": rng.integers(0, 50, size=(2, 5)).astype(np.int64)})
    assert lowered.operator_counts() == {"GATHER": 1}


def test_com_microsoft_qlinear_ops(rng):
    """quantize_static's QOperator format around its QLinearConvs: com.microsoft's QLinearAdd
    (a broadcast B; zero points of both signs) as ELEMENT_WISE_QUANTIZED_LINEAR_ADD,
    QLinearAveragePool (padding, strides, count_include_pad) and QLinearGlobalAveragePool as
    QUANTIZED_LINEAR_AVERAGE_POOLING; their outputs' shapes, unknown to ONNX's inference, are
    the lowering's own, and the DequantizeLinear after them gets its shape from them."""
    inits = {"sa": np.array(0.05, np.float32), "za": np.array(120, np.uint8),
             "sb": np.array(0.02, np.float32), "zb": np.array(3, np.uint8),
             "sc": np.array(0.07, np.float32), "zc": np.array(128, np.uint8),
             "sp": np.array(0.03, np.float32), "zp": np.array(100, np.uint8)}
    ms = "com.microsoft"
    nodes = [helper.make_node("QLinearAdd", ["a", "sa", "za", "b", "sb", "zb", "sc", "zc"],
                              ["c"], domain=ms),
             helper.make_node("QLinearAveragePool", ["c", "sc", "zc", "sp", "zp"], ["p"],
                              domain=ms, kernel_shape=[3, 3], strides=[2, 2],
                              pads=[1, 1, 1, 1], count_include_pad=1),
             helper.make_node("QLinearGlobalAveragePool", ["c", "sc", "zc", "sp", "zp"], ["g"],
                              domain=ms, channels_last=0),
             helper.make_node("DequantizeLinear", ["g", "sp", "zp"], ["f"])]
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [2, 4, 9, 9]),
                     helper.make_tensor_value_info("b", TensorProto.UINT8, [1, 4, 1, 9])],
        [helper.make_tensor_value_info(n, t, None) for n, t in
         (("c", TensorProto.UINT8), ("p", TensorProto.UINT8), ("f", TensorProto.FLOAT))],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                            helper.make_opsetid(ms, 1)])
    feeds = {"a": rng.integers(0, 256, size=(2, 4, 9, 9)).astype(np.uint8),
             "b": rng.integers(0, 256, size=(1, 4, 1, 9)).astype(np.uint8)}
    lowered = dml_onnx.lower(m, {k: v.shape for k, v in feeds.items()})
    assert lowered.operator_counts() == {"ELEMENT_WISE_QUANTIZED_LINEAR_ADD": 1,
                                         "QUANTIZED_LINEAR_AVERAGE_POOLING": 2,
                                         "ELEMENT_WISE_DEQUANTIZE_LINEAR": 1}
    got, _ = dml_onnx.run(lowered, feeds)
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
    for name in ("c", "p", "f"):
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def test_com_microsoft_transformer_ops(rng):
    """An encoder layer as ONNX Runtime's transformer optimizer writes it: FusedMatMul
    (transB, alpha) for the projections, com.microsoft's MultiHeadAttention (a bias, a
    {batch, kv_seq} key padding mask, an attention bias broadcast over the batch),
    SkipLayerNormalization (a bias, its input_skip_bias_sum read later), BiasGelu: GEMM,
    MULTIHEAD_ATTENTION, ELEMENT_WISE_ADD, MEAN_VARIANCE_NORMALIZATION1 and ACTIVATION_GELU,
    against ONNX Runtime CPU's kernels of them."""
    b, s, heads, hd = 2, 7, 4, 8
    h = heads * hd
    ms = "com.microsoft"
    w = {k: (rng.standard_normal((h, h)) / np.sqrt(h)).astype(np.float32) for k in "qkv"}
    inits = {"wq": w["q"], "wk": w["k"], "wv": w["v"],
             "bqkv": rng.standard_normal(3 * h).astype(np.float32) * 0.1,
             "ab": rng.standard_normal((1, heads, s, s)).astype(np.float32),
             "g": (1 + 0.1 * rng.standard_normal(h)).astype(np.float32),
             "be": (0.1 * rng.standard_normal(h)).astype(np.float32),
             "sb": (0.1 * rng.standard_normal(h)).astype(np.float32),
             "gb": (0.1 * rng.standard_normal(h)).astype(np.float32)}
    nodes = [helper.make_node("FusedMatMul", ["x", "wq"], ["q"], domain=ms, transB=1,
                              alpha=0.5),
             helper.make_node("FusedMatMul", ["x", "wk"], ["k"], domain=ms, transB=1),
             helper.make_node("FusedMatMul", ["x", "wv"], ["v"], domain=ms),
             helper.make_node("MultiHeadAttention", ["q", "k", "v", "bqkv", "mask", "ab"],
                              ["att"], domain=ms, num_heads=heads),
             helper.make_node("SkipLayerNormalization", ["att", "x", "g", "be", "sb"],
                              ["ln", "", "", "sum"], domain=ms, epsilon=1e-5),
             helper.make_node("BiasGelu", ["ln", "gb"], ["ge"], domain=ms),
             helper.make_node("Add", ["ge", "sum"], ["y"])]
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b, s, h]),
                     helper.make_tensor_value_info("mask", TensorProto.INT32, [b, s])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                            helper.make_opsetid(ms, 1)])
    mask = np.ones((b, s), np.int32)
    mask[1, 4:] = 0  # the second sequence padded after 4 keys
    mask[0, 6] = 0
    lowered = check(m, {"x": rng.standard_normal((b, s, h)).astype(np.float32), "mask": mask})
    counts = lowered.operator_counts()
    assert counts["MULTIHEAD_ATTENTION"] == 1 and counts["GEMM"] == 3, counts
    assert counts["MEAN_VARIANCE_NORMALIZATION1"] == 1 and counts["ACTIVATION_GELU"] == 1, counts


def test_com_microsoft_attention(rng):
    """com.microsoft's Attention (ONNX Runtime's BERT fusion): packed weights {hidden,
    3 hidden} split on the host into three GEMMs, then MULTIHEAD_ATTENTION with the bias and a
    mask_index of key lengths {batch}, and again with a {batch, seq} 0/1 mask."""
    b, s, heads, hd = 2, 6, 2, 8
    h = heads * hd
    ms = "com.microsoft"
    inits = {"w": (rng.standard_normal((h, 3 * h)) / np.sqrt(h)).astype(np.float32),
             "bias": (0.1 * rng.standard_normal(3 * h)).astype(np.float32)}
    for mask in (np.array([6, 3], np.int32), np.array([[1] * 6, [1, 1, 1, 1, 0, 0]], np.int32)):
        node = helper.make_node("Attention", ["x", "w", "bias", "m"], ["y"], domain=ms,
                                num_heads=heads)
        g = helper.make_graph(
            [node], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [b, s, h]),
                          helper.make_tensor_value_info("m", TensorProto.INT32, list(mask.shape))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
            [numpy_helper.from_array(v, k) for k, v in inits.items()])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                                helper.make_opsetid(ms, 1)])
        lowered = check(m, {"x": rng.standard_normal((b, s, h)).astype(np.float32), "m": mask})
        assert lowered.operator_counts() == {"GEMM": 3, "MULTIHEAD_ATTENTION": 1}


def test_com_microsoft_embed_layer_normalization(rng):
    """com.microsoft's EmbedLayerNormalization (ONNX Runtime's BERT embedding): the word
    rows at input_ids + the position rows (the first seq, broadcast over the batch) + the
    segment rows, normalized with gamma and beta; mask_index the mask's row sums (REDUCE SUM
    of INT32), read by an Attention as its key lengths."""
    b, s, h, heads = 2, 5, 16, 2
    ms = "com.microsoft"
    inits = {"we": rng.standard_normal((40, h)).astype(np.float32),
             "pe": rng.standard_normal((9, h)).astype(np.float32),
             "se": rng.standard_normal((2, h)).astype(np.float32),
             "g": (1 + 0.1 * rng.standard_normal(h)).astype(np.float32),
             "be": (0.1 * rng.standard_normal(h)).astype(np.float32),
             "w": (rng.standard_normal((h, 3 * h)) / np.sqrt(h)).astype(np.float32),
             "bias": (0.1 * rng.standard_normal(3 * h)).astype(np.float32)}
    nodes = [helper.make_node("EmbedLayerNormalization",
                              ["ids", "seg", "we", "pe", "se", "g", "be", "mask"],
                              ["emb", "mi", "sum"], domain=ms, epsilon=1e-6),
             helper.make_node("Attention", ["emb", "w", "bias", "mi"], ["att"], domain=ms,
                              num_heads=heads),
             helper.make_node("Add", ["att", "sum"], ["y"])]
    i32 = TensorProto.INT32
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info(n, i32, [b, s]) for n in ("ids", "seg",
                                                                          "mask")],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("mi", i32, None)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                            helper.make_opsetid(ms, 1)])
    mask = np.array([[1] * 5, [1, 1, 1, 0, 0]], np.int32)
    lowered = check(m, {"ids": rng.integers(0, 40, (b, s)).astype(np.int32),
                        "seg": rng.integers(0, 2, (b, s)).astype(np.int32), "mask": mask})
    counts = lowered.operator_counts()
    assert counts["GATHER"] == 2 and counts["REDUCE"] == 1, counts


def test_rms_normalizations(rng):
    """RMS normalization as MEAN_VARIANCE_NORMALIZATION2 without the mean: ONNX's
    RMSNormalization (opset 23, over the last two axes), ONNX Runtime's
    SimplifiedLayerNormalization and com.microsoft's SkipSimplifiedLayerNormalization (LLaMA's
    norm: a bias, its sum output read later), against ONNX Runtime CPU."""
    h = 24
    g = (1 + 0.1 * rng.standard_normal(h)).astype(np.float32)
    x = rng.standard_normal((2, 3, h)).astype(np.float32)
    node = helper.make_node("RMSNormalization", ["x", "g2"], ["y"], axis=-2, epsilon=1e-6)
    m = model([node], [("x", TensorProto.FLOAT, [2, 3, h])], [("y", TensorProto.FLOAT)],
              {"g2": rng.standard_normal((3, h)).astype(np.float32)}, opset=23)
    assert check(m, {"x": x}).operator_counts() == {"MEAN_VARIANCE_NORMALIZATION2": 1}
    ms = "com.microsoft"
    nodes = [helper.make_node("SimplifiedLayerNormalization", ["x", "g"], ["n"], axis=-1,
                              epsilon=1e-5),
             helper.make_node("SkipSimplifiedLayerNormalization", ["n", "x", "g", "b"],
                              ["y", "", "", "sum"], domain=ms, epsilon=1e-6),
             helper.make_node("Add", ["y", "sum"], ["z"])]
    gr = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                      [2, 3, h])],
                           [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
                           [numpy_helper.from_array(g, "g"),
                            numpy_helper.from_array((0.1 * rng.standard_normal(h))
                                                    .astype(np.float32), "b")])
    m = helper.make_model(gr, opset_imports=[helper.make_opsetid("", 17),
                                             helper.make_opsetid(ms, 1)])
    counts = check(m, {"x": x}).operator_counts()
    assert counts["MEAN_VARIANCE_NORMALIZATION2"] == 2, counts


def test_integer_and_quantized_products(rng):
    """MatMulInteger with a per-column B zero point [N] and B broadcast over A's batch (ONNX
    Runtime's CPU kernel, the reference, takes no per-row A zero point: conformance's cases
    cover that form), QLinearMatMul on its INT32 sum's source (power-of-two scales: every float32 step
    exact, so the requantization matches ONNX Runtime's bit for bit), ConvInteger with padding
    and QLinearConv with a per-channel filter scale and an INT32 bias, and
    com.microsoft.MatMulIntegerToFloat with a per-column B scale and a bias: one DirectML
    operator each."""
    a = rng.integers(0, 256, size=(2, 3, 6)).astype(np.uint8)
    b = rng.integers(-128, 128, size=(6, 5)).astype(np.int8)
    x = rng.integers(0, 256, size=(1, 4, 6, 6)).astype(np.uint8)
    inits = {"b": b, "zbc": rng.integers(-128, 128, size=(5,)).astype(np.int8),
             "zb": np.array(-3, np.int8), "sa": np.array(0.125, np.float32),
             "sb": np.array(0.0625, np.float32), "sy": np.array(16.0, np.float32),
             "zy": np.array(5, np.uint8), "sbc": np.array([0.25, 0.0625, 0.5, 0.125, 0.25],
                                                          np.float32),
             "bias": np.array([0.5, -1.25, 2.0, 0.0, 3.5], np.float32),
             "za0": np.array(128, np.uint8),
             "w": rng.integers(-128, 128, size=(3, 4, 3, 3)).astype(np.int8),
             "sx": np.array(0.03125, np.float32), "sw": np.array([0.25, 0.5, 0.125], np.float32),
             "zw": np.array([0, 0, 0], np.int8), "cb": np.array([100, -2000, 7], np.int32),
             "sc": np.array(4.0, np.float32), "zc": np.array(7, np.uint8)}
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "za0", "zbc"], ["mi"]),
             helper.make_node("QLinearMatMul", ["a", "sa", "za0", "b", "sb", "zb", "sy", "zy"],
                              ["qm"]),
             helper.make_node("ConvInteger", ["x", "w", "za0"], ["ci"], pads=[1, 1, 1, 1]),
             helper.make_node("QLinearConv", ["x", "sx", "za0", "w", "sw", "zw", "sc", "zc",
                                              "cb"], ["qc"], pads=[1, 0, 1, 0], strides=[1, 2]),
             helper.make_node("MatMulIntegerToFloat", ["a", "b", "sa", "sbc", "za0", "zb",
                                                       "bias"], ["mf"], domain="com.microsoft")]
    g = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [2, 3, 6]),
                     helper.make_tensor_value_info("x", TensorProto.UINT8, [1, 4, 6, 6])],
        [helper.make_tensor_value_info(n, t, None) for n, t in
         (("mi", TensorProto.INT32), ("qm", TensorProto.UINT8), ("ci", TensorProto.INT32),
          ("qc", TensorProto.UINT8), ("mf", TensorProto.FLOAT))],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                            helper.make_opsetid("com.microsoft", 1)])
    lowered = check(m, {"a": a, "x": x})
    assert lowered.operator_counts() == {"MATRIX_MULTIPLY_INTEGER": 1,
                                         "QUANTIZED_LINEAR_MATRIX_MULTIPLY": 1,
                                         "CONVOLUTION_INTEGER": 1,
                                         "QUANTIZED_LINEAR_CONVOLUTION": 1,
                                         "MATRIX_MULTIPLY_INTEGER_TO_FLOAT": 1}


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


def test_one_hot_and_eye_like(rng):
    """OneHot of computed INT64 indices (a negative one, one out of range) along axis 1 with
    INT32 values, and of FLOAT32 indices (CAST to INT64 first) on the last axis; EyeLike of an
    input it does not read (only its shape), k = 1, as FLOAT32."""
    inits = {"depth": np.array(5.0, np.float32), "vals": np.array([-2, 9], np.int32),
             "fvals": np.array([0.5, 3.0], np.float32), "one": np.array(1, np.int64)}
    nodes = [helper.make_node("Add", ["i", "one"], ["j"]),
             helper.make_node("OneHot", ["j", "depth", "vals"], ["y"], axis=1),
             helper.make_node("OneHot", ["f", "depth", "fvals"], ["z"]),
             helper.make_node("EyeLike", ["m"], ["e"], k=1, dtype=TensorProto.FLOAT)]
    m = model(nodes, [("i", TensorProto.INT64, [2, 3]), ("f", TensorProto.FLOAT, [4]),
                      ("m", TensorProto.FLOAT, [3, 4])],
              [("y", TensorProto.INT32), ("z", TensorProto.FLOAT), ("e", TensorProto.FLOAT)],
              inits)
    lowered = check(m, {"i": np.array([[0, -3, 6], [3, -7, 1]], np.int64),
                        "f": np.array([4.0, 0.0, 2.0, 7.0], np.float32),
                        "m": rng.standard_normal((3, 4)).astype(np.float32)})
    assert lowered.operator_counts() == {"ELEMENT_WISE_ADD": 1, "ONE_HOT": 2, "CAST": 1,
                                         "DIAGONAL_MATRIX1": 1}


def recurrent_model(op, layout, inits, shapes):
    """Mul, then a bidirectional op with every input (LSTM: and its peepholes, cell state), then
    Relu of Y and Neg of Y_h; Y_c (LSTM) a graph output."""
    dirs, hid = 2, inits["R"].shape[-1]
    names = ["x2", "W", "R", "B", "L", "h0"] + (["c0", "P"] if op == "LSTM" else [])
    outs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    attrs = {"hidden_size": hid, "direction": "bidirectional", "layout": layout}
    if op == "GRU":
        attrs["linear_before_reset"] = 1
    nodes = [helper.make_node("Mul", ["x", "two"], ["x2"]),
             helper.make_node(op, names, outs, **attrs),
             helper.make_node("Relu", ["Y"], ["y"]),
             helper.make_node("Neg", ["Y_h"], ["yh"])]
    ins = [(k, TensorProto.FLOAT, list(v)) for k, v in shapes.items()]
    graph_outs = [("y", TensorProto.FLOAT), ("yh", TensorProto.FLOAT)]
    if op == "LSTM":
        graph_outs.append(("Y_c", TensorProto.FLOAT))
    m = model(nodes, ins, graph_outs, inits)
    m.opset_import[0].version = 14  # layout
    return m


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("layout", [0, 1])
def test_recurrent(rng, op, layout):
    """A bidirectional RNN, GRU (linear_before_reset) or LSTM after a computed input, with
    biases, initial states, sequence lengths (a constant, shorter than the sequence for two
    batch elements) and LSTM's peepholes; ONNX's layouts 0 and 1 read and written through
    strides (no copy); Y and Y_h read by the next nodes, Y_c a graph output (LSTM). ONNX
    Runtime's CPU provider has no layout 1: its reference is the layout-0 model on the same
    values moved (batch first to sequence first and back)."""
    g = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
    seq, batch, inp, hid, dirs = 4, 3, 5, 6, 2
    inits = {"W": (rng.standard_normal((dirs, g * hid, inp)) * 0.4).astype(np.float32),
             "R": (rng.standard_normal((dirs, g * hid, hid)) * 0.4).astype(np.float32),
             "B": (rng.standard_normal((dirs, 2 * g * hid)) * 0.4).astype(np.float32),
             "L": np.array([4, 2, 3], np.int32), "two": np.array(2.0, np.float32)}
    if op == "LSTM":
        inits["P"] = (rng.standard_normal((dirs, 3 * hid)) * 0.4).astype(np.float32)
    feeds = {"x": (rng.standard_normal((seq, batch, inp)) * 0.5).astype(np.float32),
             "h0": (rng.standard_normal((dirs, batch, hid)) * 0.5).astype(np.float32)}
    if op == "LSTM":
        feeds["c0"] = (rng.standard_normal((dirs, batch, hid)) * 0.5).astype(np.float32)
    ref = recurrent_model(op, 0, inits, {k: v.shape for k, v in feeds.items()})
    if layout == 0:
        lowered = check(ref, feeds)
    else:
        moved = {"x": feeds["x"].transpose(1, 0, 2).copy()}
        moved.update({k: feeds[k].transpose(1, 0, 2).copy() for k in ("h0", "c0") if k in feeds})
        m = recurrent_model(op, 1, inits, {k: v.shape for k, v in moved.items()})
        lowered = dml_onnx.lower(m, {k: v.shape for k, v in moved.items()})
        got, _ = dml_onnx.run(lowered, moved)
        sess = ort.InferenceSession(ref.SerializeToString(), providers=["CPUExecutionProvider"])
        want = dict(zip([o.name for o in sess.get_outputs()], sess.run(None, feeds)))
        back = {"y": (2, 0, 1, 3), "yh": (1, 0, 2), "Y_c": (1, 0, 2)}  # to batch first
        for name, w in want.items():
            w = w.transpose(back[name])
            assert got[name].shape == w.shape, (name, got[name].shape, w.shape)
            assert np.max(np.abs(got[name] - w)) <= lowered.tolerance() * np.max(np.abs(w)), name
    assert lowered.operator_counts() == {"ELEMENT_WISE_MULTIPLY": 1, op: 1,
                                         "ACTIVATION_RELU": 1, "ELEMENT_WISE_NEGATE": 1}
def test_reverse_sequence_max_unpool(rng):
    """ReverseSequence (time axis 0, INT64 lengths along batch axis 1, one the whole axis)
    after an Add, and MaxUnpool of a computed input with INT64 indices (as ONNX's MaxPool
    writes them, one per 2x2 window): REVERSE_SUBSEQUENCES and MAX_UNPOOLING, each its own node."""
    lens = np.array([3, 1, 4], np.int64)
    idx = np.array([[[[1, 2], [12, 15]], [[16, 19], [24, 30]]]], np.int64)
    inits = {"one": np.array(1.0, np.float32), "lens": lens, "idx": idx}
    nodes = [helper.make_node("Add", ["x", "one"], ["a"]),
             helper.make_node("ReverseSequence", ["a", "lens"], ["r"], batch_axis=1,
                              time_axis=0),
             helper.make_node("Add", ["p", "one"], ["q"]),
             helper.make_node("MaxUnpool", ["q", "idx"], ["u"], kernel_shape=[2, 2],
                              strides=[2, 2])]
    m = model(nodes, [("x", TensorProto.FLOAT, [4, 3, 2]), ("p", TensorProto.FLOAT, [1, 2, 2, 2])],
              [("r", TensorProto.FLOAT), ("u", TensorProto.FLOAT)], inits)
    lowered = check(m, {"x": rng.standard_normal((4, 3, 2)).astype(np.float32),
                        "p": rng.standard_normal((1, 2, 2, 2)).astype(np.float32)})
    assert lowered.operator_counts() == {"ELEMENT_WISE_ADD": 2, "REVERSE_SUBSEQUENCES": 1,
                                         "MAX_UNPOOLING": 1}


def test_roialign_and_col2im(rng):
    """RoiAlign (opset 16, half_pixel; sampling_ratio 0 and 2) after a Relu, and Col2Im of a
    computed input: ROI_ALIGN1 and FOLD as ONNX Runtime's DirectML provider maps them; max mode
    refused with the node named."""
    rois = np.array([[0.5, 1.0, 6.0, 5.5], [2.0, 0.0, 7.5, 7.0], [1.0, 2.5, 3.0, 6.0]],
                    np.float32)
    inits = {"b": np.array([0, 1, 1], np.int64), "img": np.array([5, 6], np.int64),
             "blk": np.array([2, 3], np.int64)}
    nodes = [helper.make_node("Relu", ["x"], ["r"]),
             helper.make_node("RoiAlign", ["r", "rois", "b"], ["y"], output_height=3,
                              output_width=2, spatial_scale=1.0),
             helper.make_node("RoiAlign", ["x", "rois", "b"], ["y2"], output_height=2,
                              output_width=4, sampling_ratio=2, spatial_scale=0.5,
                              coordinate_transformation_mode="output_half_pixel"),
             helper.make_node("Abs", ["c"], ["ca"]),
             helper.make_node("Col2Im", ["ca", "img", "blk"], ["z"], pads=[1, 0, 0, 1],
                              strides=[1, 2])]
    m = model(nodes, [("x", TensorProto.FLOAT, [2, 3, 8, 8]), ("rois", TensorProto.FLOAT, [3, 4]),
                      ("c", TensorProto.FLOAT, [1, 12, 15])],
              [("y", TensorProto.FLOAT), ("y2", TensorProto.FLOAT), ("z", TensorProto.FLOAT)],
              inits)
    m.opset_import[0].version = 18
    lowered = check(m, {"x": rng.standard_normal((2, 3, 8, 8)).astype(np.float32),
                        "rois": rois,
                        "c": rng.standard_normal((1, 12, 15)).astype(np.float32)})
    assert lowered.operator_counts() == {"ACTIVATION_RELU": 1, "ROI_ALIGN1": 2,
                                         "ELEMENT_WISE_ABS": 1, "FOLD": 1}
    bad = model([helper.make_node("RoiAlign", ["x", "rois", "b"], ["y"], mode="max",
                                  name="rm")],
                [("x", TensorProto.FLOAT, [2, 3, 8, 8]), ("rois", TensorProto.FLOAT, [3, 4])],
                [("y", TensorProto.FLOAT)], {"b": inits["b"]})
    bad.opset_import[0].version = 18
    with pytest.raises(dml_onnx.UnsupportedModelError, match=r"node 'rm' \(RoiAlign\): mode"):
        dml_onnx.lower(bad, {"x": (2, 3, 8, 8), "rois": (3, 4)})


def test_maxroipool(rng):
    """MaxRoiPool as ROI_POOLING: regions on a grid of quarter pixels (scale 0.5), one past the
    input's edge, one inverted (one element wide), against ONNX Runtime's CPU kernel."""
    rois = np.array([[0, 0.5, 1.0, 9.0, 12.5], [1, 4.0, 2.0, 15.5, 15.0], [1, 10.0, 8.0, 2.0, 3.0],
                     [0, -4.0, -2.0, 20.0, 24.0]], np.float32)
    m = model([helper.make_node("MaxRoiPool", ["x", "r"], ["y"], pooled_shape=[3, 2],
                                spatial_scale=0.5)],
              [("x", TensorProto.FLOAT, [2, 3, 8, 7]), ("r", TensorProto.FLOAT, [4, 5])],
              [("y", TensorProto.FLOAT)], {})
    lowered = check(m, {"x": rng.standard_normal((2, 3, 8, 7)).astype(np.float32), "r": rois})
    assert lowered.operator_counts() == {"ROI_POOLING": 1}


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


def test_batchnorm_training_mode_is_refused():
    # The batch's statistics, not input_mean and input_var: never lowered to the inference form.
    c = 3
    inits = {k: np.ones(c, np.float32) for k in ("s", "b", "m", "v")}
    nodes = [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", ""],
                              training_mode=1, name="bt")]
    m = model(nodes, [("x", TensorProto.FLOAT, [2, c, 4])], [("y", TensorProto.FLOAT)], inits)
    with pytest.raises(dml_onnx.UnsupportedModelError,
                       match=r"node 'bt' \(BatchNormalization\): training_mode 1"):
        dml_onnx.lower(m, {"x": (2, c, 4)})
