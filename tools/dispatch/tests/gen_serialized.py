# SPDX-License-Identifier: MIT
"""Writes dmlcl-dispatch's dmlSerializedGraph tests: DirectML graphs serialized as
ONNX Runtime's DirectML provider writes them (a FlatBuffer of DirectML's DmlGraphDesc
schema, DxDispatch's DirectMLHelpers/DmlGraphDesc_generated.h), the models that run
them, their expected outputs (numpy, from the operators' definitions), and the
malformed graphs refuse/ holds. Run it from anywhere:

    .venv/bin/python tools/dispatch/tests/gen_serialized.py

The writer lays each object out after the one that refers to it (uoffsets point
forward), each table after its vtable, every scalar at its natural alignment.
"""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
REFUSE = os.path.join(HERE, "refuse")

# ---- A FlatBuffer writer ---------------------------------------------------------------
# Objects: ("table", [field, ...]) with fields by id (None: absent), each ("u8", v),
# ("u64", v) or an object (stored as a uoffset); ("str", s); ("vec", fmt, [values]) of
# scalars; ("vec", "off", [objects]); ("struct", bytes, align).


class Writer:
    def __init__(self):
        self.b = bytearray()

    def align(self, n, extra=0):
        while (len(self.b) + extra) % n:
            self.b.append(0)

    def patch(self, at, target):
        struct.pack_into("<I", self.b, at, target - at)

    def emit(self, obj):
        """Writes obj (and what it refers to) at the end; returns where it is."""
        kind = obj[0]
        if kind == "str":
            data = obj[1].encode()
            self.align(4)
            at = len(self.b)
            self.b += struct.pack("<I", len(data)) + data + b"\0"
            return at
        if kind == "struct":
            self.align(obj[2])
            at = len(self.b)
            self.b += obj[1]
            return at
        if kind == "vec":
            fmt, values = obj[1], obj[2]
            if fmt == "off":
                self.align(4)
                at = len(self.b)
                self.b += struct.pack("<I", len(values)) + bytes(4 * len(values))
                for i, v in enumerate(values):
                    self.patch(at + 4 + 4 * i, self.emit(v))
                return at
            self.align(4)
            at = len(self.b)
            self.b += struct.pack("<I", len(values)) + struct.pack("<%d%s" % (len(values), fmt),
                                                                 *values)
            return at
        assert kind == "table"
        return self.table(obj[1])

    def table(self, fields):
        # The table's layout: its soffset, then each field at its alignment.
        layout, size = [], 4
        for f in fields:
            if f is None:
                layout.append(0)
                continue
            n = 1 if f[0] == "u8" else 8 if f[0] == "u64" else 4
            size = (size + n - 1) // n * n
            layout.append(size)
            size += n
        size = (size + 7) // 8 * 8
        vt = struct.pack("<HH", 4 + 2 * len(fields), size) + b"".join(
            struct.pack("<H", o) for o in layout)
        self.align(8, len(vt))  # the table after its vtable, 8-aligned
        vt_at = len(self.b)
        self.b += vt
        at = len(self.b)
        self.b += struct.pack("<i", at - vt_at) + bytes(size - 4)
        for f, o in zip(fields, layout):
            if f is None:
                continue
            if f[0] == "u8":
                self.b[at + o] = f[1]
            elif f[0] == "u64":
                struct.pack_into("<Q", self.b, at + o, f[1])
            else:
                self.patch(at + o, self.emit(f))
        return at

    def finish(self, root):
        self.b += bytes(8)  # the root uoffset, then padding to keep the table 8-aligned
        self.patch(0, self.table(root[1]))
        return bytes(self.b)


# ---- DirectML's DmlGraphDesc schema ------------------------------------------------------

DATA_TYPE_NAMES = {1: "FLOAT32", 2: "FLOAT16", 3: "UINT32", 6: "INT32", 13: "INT4"}


def tensor(sizes, dtype=1, strides=None):
    n = 2 if dtype == 2 else 4
    if strides is None:
        total = n * int(np.prod(sizes))
    else:
        total = n * (1 + sum((s - 1) * d for s, d in zip(sizes, strides)))
    total = (total + 3) // 4 * 4
    return ("table", [("str", "DML_TENSOR_DATA_TYPE_" + DATA_TYPE_NAMES[dtype]),
                      ("vec", "I", list(sizes)),
                      None if strides is None else ("vec", "I", list(strides)),
                      ("u64", total)])


def attr(name, variant, value):
    """An AttributeDesc: variant (AttributeFieldVariant) and its value object."""
    return ("table", [None if name is None else ("str", name), ("u8", variant), value])


def uint(name, v):
    return attr(name, 3, ("struct", struct.pack("<I", v), 4))


def flt(name, v):
    return attr(name, 6, ("struct", struct.pack("<f", v), 4))


def uints(name, v):
    return attr(name, 7, ("table", [("vec", "I", v)]))


def scale_bias(name, scale, bias):
    return attr(name, 10, ("struct", struct.pack("<ff", scale, bias), 4))


def scalar_f32(name, v):
    """A ScalarUnionData holding a ByteArray (the union's 8 bytes), as ONNX Runtime writes."""
    data = ("struct", struct.pack("<f", v) + bytes(4), 1)
    return attr(name, 12, ("table", [("u8", 1), data]))


def activation(name, type_, attrs):
    return attr(name, 1, ("table", [("str", type_), ("vec", "off", attrs)]))


def none(name):
    """An absent optional attribute, as ONNX Runtime writes a null FusedActivation: a type
    without a value."""
    return ("table", [None if name is None else ("str", name), ("u8", 1), None])


def op_node(name, type_, inputs, outputs, in_names, out_names, attrs):
    desc = ("table", [("str", "DML_OPERATOR_" + type_), ("vec", "off", inputs),
                      ("vec", "off", outputs), ("vec", "off", attrs)])
    return ("table", [("u8", 1), desc, ("str", name),
                      ("vec", "off", [("str", n) for n in in_names]),
                      ("vec", "off", [("str", n) for n in out_names])])


def named_constant(name, output):
    desc = ("table", [("u8", 1), ("table", [("str", name)])])
    return ("table", [("u8", 2), desc, ("str", name), ("vec", "off", []),
                      ("vec", "off", [("str", output)])])


def raw_constant(name, output, data):
    desc = ("table", [("u8", 2), ("table", [("vec", "B", list(data))])])
    return ("table", [("u8", 2), desc, ("str", name), ("vec", "off", []),
                      ("vec", "off", [("str", output)])])


def graph(nodes, inputs, outputs):
    root = ("table", [("vec", "off", nodes), ("vec", "off", [("str", n) for n in inputs]),
                      ("vec", "off", [("str", n) for n in outputs])])
    return Writer().finish(root)


# ---- The models -------------------------------------------------------------------------

def values(shape, start, step):
    """Distinct values, exact in FLOAT32."""
    n = int(np.prod(shape))
    return (start + step * np.arange(n, dtype=np.float64)).astype(np.float32).reshape(shape)


def model(name, bin_path, resources, bindings, outputs):
    cmds = [{"type": "dispatch", "dispatchable": "g", "bindings": bindings}]
    cmds += [{"type": "writeFile", "resource": r, "targetPath": "%s.%s.dat" % (name, r)}
             for r in outputs]
    return {"resources": resources,
            "dispatchables": {"g": {"type": "dmlSerializedGraph", "sourcePath": bin_path}},
            "commands": cmds}


def resource(a):
    return {"initialValuesDataType": "FLOAT32", "initialValues": [float(v) for v in a.flat]}


def zeros(n):
    return {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": n, "value": 0}}


def write_json(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def gemm_graph():
    """GEMM (a named constant B, inline constant data C read through strides, a fused
    LEAKY_RELU) -> ELEMENT_WISE_ADD -> CLIP (ScaleBias); the GEMM's output also a graph
    output; JOIN (a tensor list) and PADDING1 (a DML_SCALAR_UNION) beside them."""
    x, y = values((1, 1, 2, 3), -1.5, 0.25), values((1, 1, 2, 4), 0.5, -0.125)
    w, c = values((1, 1, 3, 4), -1.0, 0.1875), values((4,), 0.25, -0.5)
    nodes = [
        named_constant("w", "w:0"),
        raw_constant("c", "c:0", c.tobytes()),
        op_node("gemm", "GEMM",
                [tensor((1, 1, 2, 3)), tensor((1, 1, 3, 4)), tensor((1, 1, 2, 4), 1, (0, 0, 0, 1))],
                [tensor((1, 1, 2, 4))], ["x", "w:0", "c:0"], ["g"],
                [uint("TransA", 0), uint("TransB", 0), flt("Alpha", 0.5), flt("Beta", 1.0),
                 activation("FusedActivation", "DML_OPERATOR_ACTIVATION_LEAKY_RELU",
                            [flt("Alpha", 0.125)])]),
        op_node("add", "ELEMENT_WISE_ADD", [tensor((1, 1, 2, 4)), tensor((1, 1, 2, 4))],
                [tensor((1, 1, 2, 4))], ["g", "y"], ["s"], []),
        op_node("clip", "ELEMENT_WISE_CLIP", [tensor((1, 1, 2, 4))], [tensor((1, 1, 2, 4))],
                ["s"], ["out"],
                [scale_bias("ScaleBias", 2.0, -1.0), flt("Min", -1.5), flt("Max", 1.5)]),
        op_node("join", "JOIN", [tensor((1, 1, 2, 4)), tensor((1, 1, 2, 4))],
                [tensor((1, 1, 2, 8))], ["s", "y"], ["joined"],
                [uint("InputCount", 2), uint("Axis", 3)]),
        op_node("pad", "PADDING1", [tensor((1, 1, 2, 3))], [tensor((1, 1, 2, 5))],
                ["x"], ["padded"],
                [uint("PaddingMode", 0), uint("PaddingValueDataType", 1),
                 scalar_f32("PaddingValue", 7.5), uint("DimensionCount", 4),
                 uints("StartPadding", [0, 0, 0, 1]), uints("EndPadding", [0, 0, 0, 1])]),
    ]
    data = graph(nodes, ["x", "y"], ["out", "g", "joined", "padded"])
    # numpy: GEMM's Alpha*A@B + Beta*C, then LEAKY_RELU; the rest element-wise.
    d = lambda a: a.astype(np.float64)
    v = 0.5 * (d(x) @ d(w)) + d(c)
    g = np.where(v > 0, v, 0.125 * v).astype(np.float32)
    s = (d(g) + d(y)).astype(np.float32)
    out = np.clip(2.0 * d(s) - 1.0, -1.5, 1.5).astype(np.float32)
    joined = np.concatenate([s, y], axis=3)
    padded = np.pad(x, ((0, 0), (0, 0), (0, 0), (1, 1)), constant_values=7.5)
    return data, w, (x, y), {"out": (out, 4), "g": (g, 4), "joined": (joined, 4),
                             "padded": (padded, 0)}


def gen_models():
    data, w, (x, y), outs = gemm_graph()
    folder = os.path.join(MODELS, "serialized")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "gemm_graph.bin"), "wb") as f:
        f.write(data)
    w.tofile(os.path.join(folder, "w.bin"))
    resources = {"x": resource(x), "y": resource(y)}
    resources.update({k: zeros(a.size) for k, (a, _) in outs.items()})
    write_json(os.path.join(MODELS, "serialized.json"),
               model("serialized", "serialized/gemm_graph.bin", resources,
                     {k: k for k in ["x", "y"] + list(outs)}, list(outs)))
    expected = {"files": {"serialized.%s.dat" % k: {
        "type": "FLOAT32", "values": [float(v) for v in a.flat], "ulp": ulp}
        for k, (a, ulp) in outs.items()}, "stdout": []}
    write_json(os.path.join(MODELS, "serialized.expected.json"), expected)
    return data


def gen_refused(good):
    """Malformed graphs: each beside a model that runs it (refuse/expected.txt: messages)."""
    # A legal graph dmlcl refuses as unsupported: QUANTIZE to INT4 (dmlcl has no 4-bit tensors).
    one = graph([op_node("quant", "QUANTIZE", [tensor((1, 1, 2, 2)), tensor((1, 1, 1, 1))],
                         [tensor((1, 1, 2, 2), dtype=13)], ["x", "s"], ["y"],
                         [uint("QuantizationType", 1), uint("QuantizationTensorCount", 1)])],
                ["x", "s"], ["y"])
    bad_offset = bytearray(good)
    struct.pack_into("<I", bad_offset, 0, 0x7FFF0000)
    cases = {"serialized-truncated": good[:100], "serialized-bad-offset": bytes(bad_offset),
             "serialized-unsupported-type": one}
    for name, data in cases.items():
        with open(os.path.join(REFUSE, name + ".bin"), "wb") as f:
            f.write(data)
        names = ["x", "s", "y"] if data is one else ["x", "y"]
        write_json(os.path.join(REFUSE, name + ".json"),
                   model("refused", name + ".bin", {n: zeros(4) for n in names},
                         {n: n for n in names}, []))


if __name__ == "__main__":
    gen_refused(gen_models())
