#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes conformance/cases/directml/rnn.json: DirectML's RNN, GRU and LSTM against ONNX's own
RNN, GRU and LSTM (onnx.reference, computed in float64 on DOUBLE models whose values are float32
numbers), in DirectML's layouts: Input {1, seq, batch, input}, Weight {1, dirs, G*H, input},
Recurrence {1, dirs, G*H, H}, Bias {1, 1, dirs, 2*G*H}, HiddenInit and CellMemInit
{1, dirs, batch, H}, Peephole {1, 1, dirs, 3*H}, OutputSequence {seq, dirs, batch, H},
OutputSingle and OutputCellSingle {1, dirs, batch, H}; gates in ONNX's order (GRU z r h, LSTM
i o f c), as DirectML's pages give them. Tolerance: each step's gate sums (K = input + H + 2
terms, the GEMM rule) and TANH's 1/1024 (precision.md's activation row), carried through the
steps: abs = steps * (K^2 * 2^-23 + 2^-10). Expected values are never dmlcl's. Run with a
python that has numpy and onnx (scripts/venv); it rewrites the file."""
import json
import os

import numpy as np
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "cases", "directml", "rnn.json")
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DIRECTIONS = {"forward": "DML_RECURRENT_NETWORK_DIRECTION_FORWARD",
              "reverse": "DML_RECURRENT_NETWORK_DIRECTION_BACKWARD",
              "bidirectional": "DML_RECURRENT_NETWORK_DIRECTION_BIDIRECTIONAL"}
ACT = {"Tanh": "DML_OPERATOR_ACTIVATION_TANH", "Sigmoid": "DML_OPERATOR_ACTIVATION_SIGMOID",
       "Relu": "DML_OPERATOR_ACTIVATION_RELU"}


def f32(rng, shape, scale):
    return rng.uniform(-scale, scale, size=shape).astype(np.float32).astype(np.float64)


def tensor(a):
    a = np.asarray(a)
    return {"type": "FLOAT32", "shape": list(a.shape),
            "data": [float(v) for v in a.astype(np.float32).reshape(-1)]}


def case(rng, op, seq, batch, inp, hidden, direction="forward", acts=None, lbr=0, h0=False,
         c0=False, peep=False, bias=True, note=None):
    g = GATES[op]
    dirs = 2 if direction == "bidirectional" else 1
    x = f32(rng, [seq, batch, inp], 1.0)
    w = f32(rng, [dirs, g * hidden, inp], 0.5)
    r = f32(rng, [dirs, g * hidden, hidden], 0.5)
    b = f32(rng, [dirs, 2 * g * hidden], 0.5) if bias else None
    ih = f32(rng, [dirs, batch, hidden], 0.5) if h0 else None
    ic = f32(rng, [dirs, batch, hidden], 0.5) if c0 else None
    p = f32(rng, [dirs, 3 * hidden], 0.5) if peep else None
    names = ["X", "W", "R", "B" if bias else "", "", "initial_h" if h0 else ""]
    feeds = {"X": x, "W": w, "R": r}
    if bias:
        feeds["B"] = b
    if h0:
        feeds["initial_h"] = ih
    if op == "LSTM":
        names += ["initial_c" if c0 else "", "P" if peep else ""]
        if c0:
            feeds["initial_c"] = ic
        if peep:
            feeds["P"] = p
    while names and names[-1] == "":
        names.pop()
    attrs = {"hidden_size": hidden, "direction": direction}
    if acts:
        attrs["activations"] = acts * dirs
    if op == "GRU":
        attrs["linear_before_reset"] = lbr
    outs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    node = helper.make_node(op, names, outs, **attrs)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(k, TensorProto.DOUBLE, list(v.shape))
         for k, v in feeds.items()],
        [helper.make_tensor_value_info(o, TensorProto.DOUBLE, None) for o in outs])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    got = ReferenceEvaluator(model).run(None, feeds)
    y, yh = got[0], got[1]
    k = inp + hidden + 2
    tol = {"abs": seq * (k * k * 2.0 ** -23 + 2.0 ** -10)}
    inputs = {"InputTensor": tensor(x.reshape(1, seq, batch, inp)),
              "WeightTensor": tensor(w.reshape(1, dirs, g * hidden, inp)),
              "RecurrenceTensor": tensor(r.reshape(1, dirs, g * hidden, hidden))}
    if bias:
        inputs["BiasTensor"] = tensor(b.reshape(1, 1, dirs, 2 * g * hidden))
    if h0:
        inputs["HiddenInitTensor"] = tensor(ih.reshape(1, dirs, batch, hidden))
    if c0:
        inputs["CellMemInitTensor"] = tensor(ic.reshape(1, dirs, batch, hidden))
    if peep:
        inputs["PeepholeTensor"] = tensor(p.reshape(1, 1, dirs, 3 * hidden))
    default = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
    act_names = (acts or default[op]) * dirs
    out = {"OutputSequenceTensor": dict(tensor(y), tolerance=tol),
           "OutputSingleTensor": dict(tensor(yh.reshape(1, dirs, batch, hidden)), tolerance=tol)}
    if op == "LSTM":
        out["OutputCellSingleTensor"] = dict(tensor(got[2].reshape(1, dirs, batch, hidden)),
                                             tolerance=tol)
    a = {"ActivationDescs": [{"Type": ACT[n]} for n in act_names],
         "Direction": DIRECTIONS[direction]}
    if op == "GRU":
        a["LinearBeforeReset"] = bool(lbr)
    tag = "{}-{}-s{}b{}i{}h{}".format(op.lower(), direction, seq, batch, inp, hidden)
    tag += "".join(s for s, on in (("-lbr", lbr), ("-h0", h0), ("-c0", c0), ("-peephole", peep),
                                    ("-nobias", not bias)) if on)
    if acts:
        tag += "-" + "-".join(n.lower() for n in acts)
    c = {"name": "directml." + tag, "source": "directml:DML_{}_OPERATOR_DESC#onnx-reference".format(op),
         "op": "DML_OPERATOR_" + op, "attrs": a, "inputs": inputs, "expected": {"outputs": out},
         "note": note or "ONNX {} (onnx.reference, float64) in DirectML's layouts".format(op)}
    return c


def error_case(op, label, note, **changes):
    inputs = {"InputTensor": {"type": "FLOAT32", "shape": [1, 2, 1, 3], "data": [0.0] * 6},
              "WeightTensor": {"type": "FLOAT32", "shape": [1, 1, GATES[op] * 2, 3],
                               "data": [0.0] * (GATES[op] * 6)},
              "RecurrenceTensor": {"type": "FLOAT32", "shape": [1, 1, GATES[op] * 2, 2],
                                   "data": [0.0] * (GATES[op] * 4)},
              "OutputSingleTensor": {"type": "FLOAT32", "shape": [1, 1, 1, 2]}}
    default = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}
    attrs = {"ActivationDescs": [{"Type": ACT[n]} for n in default[op]],
             "Direction": DIRECTIONS["forward"]}
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
        case(rng, "RNN", 3, 2, 3, 4),
        case(rng, "RNN", 4, 1, 2, 3, "reverse", h0=True),
        case(rng, "RNN", 3, 2, 2, 3, "bidirectional", h0=True),
        case(rng, "GRU", 3, 2, 3, 4),
        case(rng, "GRU", 3, 2, 3, 4, lbr=1, h0=True),
        case(rng, "GRU", 2, 3, 2, 2, "bidirectional", lbr=1),
        case(rng, "GRU", 4, 1, 3, 2, "reverse", bias=False),
        case(rng, "LSTM", 3, 2, 3, 4),
        case(rng, "LSTM", 3, 2, 2, 3, h0=True, c0=True, peep=True),
        case(rng, "LSTM", 2, 2, 3, 2, "bidirectional", h0=True, c0=True, peep=True),
        case(rng, "LSTM", 4, 1, 2, 2, "reverse", bias=False),
    ]
    for op in GATES:
        got.append(error_case(op, "direction", "Direction is a DML_RECURRENT_NETWORK_DIRECTION",
                              Direction=7))
        got.append(error_case(op, "activation-count",
                              "ActivationDescCount: one per gate function and direction",
                              ActivationDescs=[{"Type": ACT["Tanh"]}] * 5))
        got.append(error_case(op, "weight-sizes", "WeightTensor {1, dirs, gates*H, input}",
                              WeightTensor={"type": "FLOAT32", "shape": [1, 1, GATES[op] * 2, 4],
                                            "data": [0.0] * (GATES[op] * 8)}))
        got.append(error_case(op, "type", "FLOAT32 and FLOAT16 only",
                              InputTensor={"type": "INT32", "shape": [1, 2, 1, 3],
                                           "data": [0] * 6}))
    return got


def main():
    with open(OUT, "w") as fh:
        fh.write('{"format": "dmlcl-case/1", "cases": [\n')
        fh.write(",\n".join(json.dumps(c) for c in cases()))
        fh.write("\n]}\n")


if __name__ == "__main__":
    main()
