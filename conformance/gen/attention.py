#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/attention.json: DirectML's MULTIHEAD_ATTENTION and
MULTIHEAD_ATTENTION1 against a numpy float64 implementation of their pages' decomposition
([Bias] -> Scale * Q . K^T -> [+ RelativePositionBias] -> [+ MaskFilterValue where the mask
hides a key] -> softmax over the keys -> . V), with past key/value before the new ones and the
present outputs their concatenation; every query/key/value form (separate, stacked QK, KV, QKV),
every mask kind, grouped-query heads (MULTIHEAD_ATTENTION1), FLOAT16 and a strided input; one
refusal per rule. Where ONNX Runtime's CPU com.microsoft.MultiHeadAttention takes the same case
(separate tensors, no grouped heads, a key-length or 2-D padding mask) the numpy result is
checked against it before it is written. Tolerance (tests/ops/attention.c's derivation:
precision.md's GEMM over head_size, softmax 3N + 3 and GEMM over N = the total keys, composed):
abs = 2 * (2 * (2E + 3) * 2^-24 * (Scale * 4E + 2) + (5N + 3) * 2^-24), plus the FLOAT16
output's rounding (2^-10 for |out| <= 2). Expected values are never dmlcl's. Run with a python
that has numpy (and onnxruntime for the cross-check: scripts/venv); it rewrites the file."""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "cases", "directml", "attention.json")
MASKS = ["DML_MULTIHEAD_ATTENTION_MASK_TYPE_NONE",
         "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_LENGTH",
         "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_SEQUENCE_END_START",
         "DML_MULTIHEAD_ATTENTION_MASK_TYPE_KEY_QUERY_SEQUENCE_LENGTH_START_END",
         "DML_MULTIHEAD_ATTENTION_MASK_TYPE_BOOLEAN"]
FILTER = -10000.0


def rand(rng, shape, dtype):
    a = rng.uniform(-1.0, 1.0, size=shape)
    return a.astype(np.float16 if dtype == "FLOAT16" else np.float32).astype(np.float64)


def tensor(a, dtype="FLOAT32", strides=None):
    a = np.asarray(a)
    t = {"type": dtype, "shape": list(a.shape)}
    flat = a.reshape(-1)
    if strides is not None:
        t["strides"] = list(strides)  # the runner lays the logical data out through them
    if dtype == "INT32":
        t["data"] = [int(v) for v in flat]
    else:
        t["data"] = [float(v) for v in flat]
    return t


def hidden_mask(mask_type, mask, b, heads, seq, total):
    """Boolean [b, heads, seq, total]: True where the mask hides the key."""
    t = np.arange(total)
    if mask_type == 1:
        return np.broadcast_to((t[None, :] >= mask.reshape(-1)[:b, None])[:, None, None, :],
                               (b, heads, seq, total))
    if mask_type == 2:
        end, start = mask[0], mask[1]
        h = (t[None, :] >= end[:, None]) | (t[None, :] < start[:, None])
        return np.broadcast_to(h[:, None, None, :], (b, heads, seq, total))
    if mask_type == 3:
        return np.broadcast_to((t[None, :] >= mask[:b, None])[:, None, None, :],
                               (b, heads, seq, total))
    if mask_type == 4:
        return mask == 0
    return np.zeros((b, heads, seq, total), dtype=bool)


def attention(q, k, v, bias, mask_type, mask, rpb, pk, pv, scale, kv_heads):
    """q {b, s, h, e}, k {b, l, hk, e}, v {b, l, hk, ve}: output {b, s, h * ve}, presents."""
    b, s, h, e = q.shape
    ve = v.shape[3]
    if bias is not None:
        q = q + bias[:h * e].reshape(h, e)
        k = k + bias[h * e:h * e + kv_heads * e].reshape(kv_heads, e)
        v = v + bias[h * e + kv_heads * e:].reshape(kv_heads, ve)
    kt = k.transpose(0, 2, 1, 3)  # {b, hk, l, e}
    vt = v.transpose(0, 2, 1, 3)
    if pk is not None:
        kt = np.concatenate([pk, kt], axis=2)
        vt = np.concatenate([pv, vt], axis=2)
    total = kt.shape[2]
    group = h // kv_heads
    kh = np.repeat(kt, group, axis=1)  # query head j reads key/value head j // group
    vh = np.repeat(vt, group, axis=1)
    x = np.einsum("bshe,bhte->bhst", q, kh) * scale
    if rpb is not None:
        x = x + rpb
    x = np.where(hidden_mask(mask_type, mask, b, h, s, total), x + FILTER, x)
    x = x - x.max(axis=3, keepdims=True)
    p = np.exp(x)
    p = p / p.sum(axis=3, keepdims=True)
    out = np.einsum("bhst,bhte->bshe", p, vh).reshape(b, s, h * ve)
    return out, kt, vt


def ort_check(q, k, v, bias, mask_type, mask, rpb, pk, pv, scale, heads, out, prk, prv):
    """ONNX Runtime's CPU com.microsoft.MultiHeadAttention on the same numbers, where it
    takes them; raises when they differ."""
    try:
        import onnxruntime as ort
        from onnx import TensorProto, helper
    except ImportError:
        return False
    b, s, h, e = q.shape
    feeds = {"query": q.reshape(b, s, h * e).astype(np.float32),
             "key": k.reshape(k.shape[0], k.shape[1], -1).astype(np.float32),
             "value": v.reshape(v.shape[0], v.shape[1], -1).astype(np.float32)}
    names = ["query", "key", "value", "", "", "", "", ""]
    if bias is not None:
        names[3] = "bias"
        feeds["bias"] = bias.astype(np.float32)
    if mask_type == 1:
        names[4] = "key_padding_mask"
        feeds["key_padding_mask"] = mask.reshape(-1).astype(np.int32)
    elif mask_type != 0:
        return False
    if rpb is not None:
        names[5] = "attention_bias"
        feeds["attention_bias"] = rpb.astype(np.float32)
    if pk is not None:
        names[6], names[7] = "past_key", "past_value"
        feeds["past_key"], feeds["past_value"] = pk.astype(np.float32), pv.astype(np.float32)
    while names[-1] == "":
        names.pop()
    outs = ["output", "present_key", "present_value"]
    node = helper.make_node("MultiHeadAttention", names, outs, domain="com.microsoft",
                            num_heads=heads, scale=float(scale), mask_filter_value=FILTER)
    inputs = []
    for n in names:
        if n:
            ty = TensorProto.INT32 if n == "key_padding_mask" else TensorProto.FLOAT
            inputs.append(helper.make_tensor_value_info(n, ty, list(feeds[n].shape)))
    graph = helper.make_graph([node], "g", inputs,
                              [helper.make_tensor_value_info(o, TensorProto.FLOAT, None)
                               for o in outs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                    helper.make_opsetid("com.microsoft", 1)])
    try:
        sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        got = sess.run(None, feeds)
    except Exception:  # a form this ONNX Runtime does not take: no cross-check
        return False
    assert np.allclose(got[0], out, atol=1e-4), "ONNX Runtime's output differs"
    if pk is not None:
        assert np.allclose(got[1], prk, atol=1e-5) and np.allclose(got[2], prv, atol=1e-5)
    return True


def case(rng, tag, b, s, l, h, e, ve, form="separate", bias=False, mask_type=0, rpb=False,
         past=0, presents=False, kv_heads=None, dtype="FLOAT32", strided=False, note=None):
    v1 = kv_heads is not None
    hk = kv_heads if v1 else h
    if form in ("qk", "qkv"):
        l = s
    total = past + l
    q = rand(rng, (b, s, h, e), dtype)
    k = rand(rng, (b, l, hk, e), dtype)
    v = rand(rng, (b, l, hk, ve), dtype)
    bb = rand(rng, (h * e + hk * e + hk * ve,), dtype) if bias else None
    r = rand(rng, (b, h, s, total), dtype) if rpb else None
    pk = rand(rng, (b, hk, past, e), dtype) if past else None
    pv = rand(rng, (b, hk, past, ve), dtype) if past else None
    mask = None
    if mask_type == 1:
        mask = rng.integers(1, total + 2, size=(1, b))
    elif mask_type == 2:
        start = rng.integers(0, total, size=b)
        mask = np.stack([start + 1 + rng.integers(0, total - start), start])
    elif mask_type == 3:
        mask = np.concatenate([rng.integers(1, total + 1, size=b), np.arange(b + 1) * s,
                               np.arange(b + 1) * l])
    elif mask_type == 4:
        mask = rng.integers(0, 2, size=(b, h, s, total))
        mask[..., 0] = 1
    out, prk, prv = attention(q, k, v, bb, mask_type, mask, r, pk, pv, 1.0 / np.sqrt(e), hk)
    checked = False
    if not v1 and form == "separate" and dtype == "FLOAT32":
        checked = ort_check(q, k, v, bb, mask_type, mask, r, pk, pv, 1.0 / np.sqrt(e), h, out,
                            prk, prv)
    inputs = {}

    def put(name, a, layout=None):
        st = None
        if strided:
            st, n = [], 1
            for i, d in reversed(list(enumerate(a.shape))):
                st.insert(0, n)
                n *= d + (2 if i == len(a.shape) - 1 else 0)
        inputs[name] = tensor(a, "INT32" if name == "MaskTensor" else dtype, st)

    if form == "separate":
        put("QueryTensor", q.reshape(b, s, h * e))
        put("KeyTensor", k.reshape(b, l, hk * e))
        put("ValueTensor", v.reshape(b, l, hk * ve))
    elif form == "qk":
        put("StackedQueryKeyTensor", np.stack([q, k], axis=3))
        put("ValueTensor", v.reshape(b, l, hk * ve))
    elif form == "kv":
        put("QueryTensor", q.reshape(b, s, h * e))
        put("StackedKeyValueTensor", np.stack([k, v], axis=3))
    else:
        put("StackedQueryKeyValueTensor", np.stack([q, k, v], axis=3))
    if bias:
        put("BiasTensor", bb)
    if mask_type:
        put("MaskTensor", mask)
    if rpb:
        put("RelativePositionBiasTensor", r)
    if past:
        put("PastKeyTensor", pk)
        put("PastValueTensor", pv)
    tol = 2 * (2 * (2 * e + 3) * 2.0 ** -24 * (4 * e / np.sqrt(e) + 2) + (5 * total + 3) * 2.0 ** -24)
    if dtype == "FLOAT16":
        tol += 2.0 ** -10
    outs = {"OutputTensor": dict(tensor(out, dtype), tolerance={"abs": tol})}
    if presents:
        ptol = {"abs": 2.0 ** -10 if dtype == "FLOAT16" else 2.0 ** -22}
        outs["OutputPresentKeyTensor"] = dict(tensor(prk, dtype), tolerance=ptol)
        outs["OutputPresentValueTensor"] = dict(tensor(prv, dtype), tolerance=ptol)
    attrs = {"Scale": float(np.float32(1.0 / np.sqrt(e))), "MaskFilterValue": FILTER,
             "MaskType": MASKS[mask_type]}
    if v1:
        attrs["QueryHeadCount"], attrs["KeyValueHeadCount"] = h, hk
    else:
        attrs["HeadCount"] = h
    op = "MULTIHEAD_ATTENTION1" if v1 else "MULTIHEAD_ATTENTION"
    why = note or "numpy float64 of the page's decomposition"
    if checked:
        why += "; ONNX Runtime's CPU MultiHeadAttention agrees"
    return {"name": "directml.{}.{}".format(op.lower(), tag),
            "source": "directml:DML_{}_OPERATOR_DESC#numpy".format(op),
            "op": "DML_OPERATOR_" + op, "attrs": attrs, "inputs": inputs,
            "expected": {"outputs": outs}, "note": why}


def error_case(label, note, op="MULTIHEAD_ATTENTION", drop=(), **changes):
    inputs = {"QueryTensor": {"type": "FLOAT32", "shape": [1, 2, 4], "data": [0.0] * 8},
              "KeyTensor": {"type": "FLOAT32", "shape": [1, 3, 4], "data": [0.0] * 12},
              "ValueTensor": {"type": "FLOAT32", "shape": [1, 3, 4], "data": [0.0] * 12},
              "OutputTensor": {"type": "FLOAT32", "shape": [1, 2, 4]}}
    attrs = {"Scale": 1.0, "MaskType": MASKS[0]}
    if op == "MULTIHEAD_ATTENTION1":
        attrs["QueryHeadCount"], attrs["KeyValueHeadCount"] = 2, 2
    else:
        attrs["HeadCount"] = 2
    for k in drop:
        inputs.pop(k)
    for k, v in changes.items():
        if k in attrs:
            attrs[k] = v
        else:
            inputs[k] = v
    return {"name": "directml.{}-invalid-{}".format(op.lower(), label),
            "source": "directml:DML_{}_OPERATOR_DESC#constraints".format(op),
            "op": "DML_OPERATOR_" + op, "attrs": attrs, "inputs": inputs,
            "expected": {"error": "invalid_argument"}, "note": note}


def cases():
    rng = np.random.default_rng(20261203)
    got = [
        case(rng, "separate", 2, 3, 4, 2, 4, 3),
        case(rng, "separate-bias-rpb", 2, 3, 5, 2, 2, 4, bias=True, rpb=True),
        case(rng, "stacked-qk-bias", 2, 3, 3, 2, 4, 5, form="qk", bias=True),
        case(rng, "stacked-kv", 1, 2, 5, 3, 2, 2, form="kv"),
        case(rng, "stacked-qkv-bias-rpb", 2, 4, 4, 2, 3, 3, form="qkv", bias=True, rpb=True),
        case(rng, "mask-key-sequence-length", 3, 2, 6, 2, 3, 2, mask_type=1),
        case(rng, "mask-key-sequence-end-start", 3, 2, 6, 2, 3, 2, mask_type=2),
        case(rng, "mask-key-query-sequence-length-start-end", 2, 3, 5, 2, 2, 3, mask_type=3),
        case(rng, "mask-boolean-past", 2, 2, 3, 2, 2, 2, mask_type=4, past=2),
        case(rng, "past-presents-bias", 2, 2, 3, 2, 3, 3, bias=True, past=4, presents=True),
        case(rng, "presents-no-past", 1, 3, 3, 2, 2, 3, presents=True),
        case(rng, "strided-mask-length", 2, 3, 4, 2, 2, 3, mask_type=1, bias=True, strided=True),
        case(rng, "float16", 2, 3, 4, 2, 4, 3, bias=True, rpb=True, past=2, presents=True,
             mask_type=4, dtype="FLOAT16"),
        case(rng, "gqa-4-2-past-presents", 2, 3, 3, 4, 4, 4, bias=True, past=2, presents=True,
             mask_type=4, kv_heads=2),
        case(rng, "gqa-6-1-stacked-kv", 1, 2, 4, 6, 3, 3, form="kv", mask_type=1, kv_heads=1,
             presents=True),
        case(rng, "equal-heads", 2, 2, 3, 2, 2, 2, kv_heads=2, rpb=True),
    ]
    got += [
        error_case("no-query", "exactly one query source", drop=("QueryTensor",)),
        error_case("two-keys", "exactly one key source",
                   StackedKeyValueTensor={"type": "FLOAT32", "shape": [1, 3, 2, 2, 2],
                                          "data": [0.0] * 24}),
        error_case("type", "FLOAT32 and FLOAT16 only",
                   QueryTensor={"type": "INT32", "shape": [1, 2, 4], "data": [0] * 8}),
        error_case("heads-divide", "hidden_size a multiple of HeadCount", HeadCount=3),
        error_case("mask-without-type", "MaskTensor needs a MaskType",
                   MaskTensor={"type": "INT32", "shape": [1, 1], "data": [2]}),
        error_case("type-without-mask", "a MaskType needs MaskTensor", MaskType=MASKS[1]),
        error_case("mask-type", "MaskType is a DML_MULTIHEAD_ATTENTION_MASK_TYPE", MaskType=9),
        error_case("bias-sizes", "BiasTensor {hidden + kv_hidden + value_hidden}",
                   BiasTensor={"type": "FLOAT32", "shape": [11], "data": [0.0] * 11}),
        error_case("output-sizes", "OutputTensor {batch, seq, heads * value_head_size}",
                   OutputTensor={"type": "FLOAT32", "shape": [1, 2, 6]}),
        error_case("past-alone", "PastKey and PastValue together",
                   PastKeyTensor={"type": "FLOAT32", "shape": [1, 2, 1, 2], "data": [0.0] * 4}),
        error_case("kv-heads-divide", "QueryHeadCount a multiple of KeyValueHeadCount",
                   op="MULTIHEAD_ATTENTION1", KeyValueHeadCount=3),
    ]
    return got


def main():
    with open(OUT, "w") as fh:
        fh.write('{"format": "dmlcl-case/1", "cases": [\n')
        fh.write(",\n".join(json.dumps(c) for c in cases()))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
