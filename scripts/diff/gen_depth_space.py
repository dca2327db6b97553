#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Differential cases for dmlcl's depth/space rearrangements.

  gen_depth_space.py [--seed S] [--count N] [--onnx-count K] [--out DIR]
      Random openvino.DepthToSpace-1 / SpaceToDepth-1 cases (ranks 3 to 6,
      both modes, block sizes 1 to 4, every type, empty tensors) with the
      output of OpenVINO's CPU plugin, and random onnx.DepthToSpace-13 (DCR,
      CRD) / SpaceToDepth-13 cases with onnx.reference's, written in the
      dmlcl-case/1 format to DIR/openvino.json and DIR/onnx.json.
  gen_depth_space.py --documented [--root DIR]
      Rewrites conformance/cases/{directml,openvino,onnx}/depth_space.json:
      every documented example (checked here against the specifications'
      reshape/transpose formulas, computed with numpy), errata, and a case
      per validation rule.

The rearrangements run on an int32 iota of the data's shape (the element
numbers), so the plugin's internal precision cannot touch the values; the
case's typed data is then indexed by them.
"""
import argparse
import os
import random
import sys

import numpy as np

from common import NUMPY_TYPES, CpuPlugin, clear_out, tensor, write

# ---- The specifications' formulas (numpy) ----------------------------------------------------


def ov_depth_to_space(x, b, mode):
    """OpenVINO DepthToSpace-1's reshape / transpose / reshape."""
    n, c, dims = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(dims)
    if mode == "blocks_first":
        t = x.reshape([n] + [b] * k + [c // b**k] + dims)
        perm = [0, k + 1] + [j for i in range(k) for j in (k + 2 + i, 1 + i)]
    else:
        t = x.reshape([n, c // b**k] + [b] * k + dims)
        perm = [0, 1] + [j for i in range(k) for j in (k + 2 + i, 2 + i)]
    return t.transpose(perm).reshape([n, c // b**k] + [d * b for d in dims])


def ov_space_to_depth(x, b, mode):
    """OpenVINO SpaceToDepth-1's reshape / transpose / reshape."""
    n, c, dims = x.shape[0], x.shape[1], list(x.shape[2:])
    k = len(dims)
    t = x.reshape([n, c] + [v for d in dims for v in (d // b, b)])
    blocks = [3 + 2 * i for i in range(k)]
    rest = [2 + 2 * i for i in range(k)]
    perm = [0] + blocks + [1] + rest if mode == "blocks_first" else [0, 1] + blocks + rest
    return t.transpose(perm).reshape([n, c * b**k] + [d // b for d in dims])


def onnx_depth_to_space(x, bs, mode):
    """ONNX DepthToSpace-13's formula (Operators.md)."""
    b, c, h, w = x.shape
    if mode == "DCR":
        t = x.reshape(b, bs, bs, c // bs**2, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(b, c // bs**2, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(b, c // bs**2, h * bs, w * bs)


def onnx_space_to_depth(x, bs):
    """ONNX SpaceToDepth-13's formula (Operators.md)."""
    b, c, h, w = x.shape
    t = x.reshape(b, c, h // bs, bs, w // bs, bs).transpose(0, 3, 5, 1, 2, 4)
    return t.reshape(b, c * bs * bs, h // bs, w // bs)


def dml_depth_to_space(x, bs, order):
    """DirectML's DML_DEPTH_SPACE_ORDER layouts: the depth tensor's channel is
    (BlockHeight, BlockWidth, Channels) or (Channels, BlockHeight, BlockWidth)."""
    n, c, h, w = x.shape
    cn = c // (bs * bs)
    if order == "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW":
        t = x.reshape(n, bs, bs, cn, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, cn, bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, cn, h * bs, w * bs)


def dml_space_to_depth(x, bs, order):
    n, c, h, w = x.shape
    t = x.reshape(n, c, h // bs, bs, w // bs, bs)
    if order == "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW":
        t = t.transpose(0, 3, 5, 1, 2, 4)
    else:
        t = t.transpose(0, 1, 3, 5, 2, 4)
    return t.reshape(n, c * bs * bs, h // bs, w // bs)


# ---- Documented cases -----------------------------------------------------------------------

# The DirectML pages' tensors (UINT32): the depth layout, its DEPTH_COLUMN_ROW space layout
# and its COLUMN_ROW_DEPTH space layout.
DML_DEPTH = [[[[9 * k + 3 * r + i for i in range(3)] for r in range(2)] for k in range(8)]]
DML_SPACE_DCR = [[[[0, 18, 1, 19, 2, 20], [36, 54, 37, 55, 38, 56],
                   [3, 21, 4, 22, 5, 23], [39, 57, 40, 58, 41, 59]],
                  [[9, 27, 10, 28, 11, 29], [45, 63, 46, 64, 47, 65],
                   [12, 30, 13, 31, 14, 32], [48, 66, 49, 67, 50, 68]]]]
DML_SPACE_CRD = [[[[0, 9, 1, 10, 2, 11], [18, 27, 19, 28, 20, 29],
                   [3, 12, 4, 13, 5, 14], [21, 30, 22, 31, 23, 32]],
                  [[36, 45, 37, 46, 38, 47], [54, 63, 55, 64, 56, 65],
                   [39, 48, 40, 49, 41, 50], [57, 66, 58, 67, 59, 68]]]]

DCR, CRD = "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW", "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"

S2D_ERRATUM = (
    "the page's OutputTensor member text prints the output's dimensions as { Batch, Channels / "
    "(BlockSize * BlockSize), Height * BlockSize, Width * BlockSize }, DEPTH_TO_SPACE's rule; "
    "its own example maps {1,2,4,6} to {1,8,2,3}, which is { Batch, Channels * BlockSize * "
    "BlockSize, Height / BlockSize, Width / BlockSize }, as the page's earlier revision states "
    "([N, C * (BlockSize * BlockSize), H / BlockSize, W / BlockSize]) and as the inverse of "
    "DEPTH_TO_SPACE must be: the example is followed")


def check(doc, computed, what):
    if not np.array_equal(np.asarray(doc), computed):
        sys.exit(f"{what}: the document's values differ from the specification's formula")


def dml_cases():
    depth = np.array(DML_DEPTH, dtype=np.uint32)
    space = {DCR: np.array(DML_SPACE_DCR, dtype=np.uint32),
             CRD: np.array(DML_SPACE_CRD, dtype=np.uint32)}
    for order in (DCR, CRD):
        check(space[order], dml_depth_to_space(depth, 2, order), "DEPTH_TO_SPACE1 " + order)
        check(depth, dml_space_to_depth(space[order], 2, order), "SPACE_TO_DEPTH1 " + order)
    t = lambda a: tensor("UINT32", a)
    cases = []

    def case(name, source, op, attrs, inp, out, **extra):
        c = {"name": "directml." + name, "source": source, "op": op, "attrs": attrs,
             "inputs": {"InputTensor": inp}}
        c["expected"] = ({"error": out} if isinstance(out, str)
                         else {"outputs": {"OutputTensor": out}})
        c.update(extra)
        cases.append(c)

    case("space_to_depth.example", "directml:DML_SPACE_TO_DEPTH_OPERATOR_DESC#example",
         "DML_OPERATOR_SPACE_TO_DEPTH", {"BlockSize": 2}, t(space[DCR]), t(depth),
         erratum=S2D_ERRATUM)
    case("depth_to_space.example", "directml:DML_DEPTH_TO_SPACE_OPERATOR_DESC#example",
         "DML_OPERATOR_DEPTH_TO_SPACE", {"BlockSize": 2}, t(depth), t(space[DCR]))
    for n, order in ((1, DCR), (2, CRD)):
        case(f"space_to_depth1.example-{n}",
             f"directml:DML_SPACE_TO_DEPTH1_OPERATOR_DESC#example-{n}",
             "DML_OPERATOR_SPACE_TO_DEPTH1", {"BlockSize": 2, "Order": order},
             t(space[order]), t(depth), erratum=S2D_ERRATUM)
        case(f"depth_to_space1.example-{n}",
             f"directml:DML_DEPTH_TO_SPACE1_OPERATOR_DESC#example-{n}",
             "DML_OPERATOR_DEPTH_TO_SPACE1", {"BlockSize": 2, "Order": order},
             t(depth), t(space[order]))

    # Beyond the examples: other types, block sizes, strided tensors, and every rule.
    x = np.arange(2 * 18 * 2 * 3, dtype=np.int64).reshape(2, 18, 2, 3) - 50
    for order in (DCR, CRD):
        y = dml_depth_to_space(x, 3, order)
        case(f"depth_to_space1.int64-block3-{order[22:].lower()}", "extra",
             "DML_OPERATOR_DEPTH_TO_SPACE1", {"BlockSize": 3, "Order": order},
             tensor("INT64", x), tensor("INT64", y))
        case(f"space_to_depth1.int64-block3-{order[22:].lower()}", "extra",
             "DML_OPERATOR_SPACE_TO_DEPTH1", {"BlockSize": 3, "Order": order},
             tensor("INT64", y), tensor("INT64", x))
    h = np.arange(1 * 4 * 2 * 2).reshape(1, 4, 2, 2).astype(np.float16) / 4
    case("depth_to_space.float16-block1", "extra", "DML_OPERATOR_DEPTH_TO_SPACE",
         {"BlockSize": 1}, tensor("FLOAT16", h), tensor("FLOAT16", h),
         note="BlockSize 1 moves nothing: a copy")
    # An NHWC-strided input and a padded output: strides belong to the tensors, not the rule.
    inp = t(depth)
    inp["strides"] = [48, 1, 24, 8]
    c = {"name": "directml.depth_to_space1.strided", "source": "extra",
         "op": "DML_OPERATOR_DEPTH_TO_SPACE1", "attrs": {"BlockSize": 2, "Order": CRD},
         "inputs": {"InputTensor": inp,
                    "OutputTensor": {"type": "UINT32", "shape": [1, 2, 4, 6],
                                     "strides": [64, 32, 8, 1]}},
         "expected": {"outputs": {"OutputTensor": t(space[CRD])}},
         "note": "input channels-last (strides {48,1,24,8}); output rows padded to 8"}
    cases.append(c)

    err = "invalid_argument"
    u = lambda shape: tensor("UINT32", np.arange(int(np.prod(shape))).reshape(shape))
    for op, to_space in (("SPACE_TO_DEPTH", False), ("DEPTH_TO_SPACE", True),
                         ("SPACE_TO_DEPTH1", False), ("DEPTH_TO_SPACE1", True)):
        name, full = op.lower(), "DML_OPERATOR_" + op
        order = {"Order": DCR} if op.endswith("1") else {}
        good = [1, 8, 2, 3] if to_space else [1, 2, 4, 6]
        case(f"{name}.blocksize-0", "rule", full, {"BlockSize": 0, **order}, u(good), err,
             note="BlockSize 0 moves no block")
        case(f"{name}.rank-3", "rule", full, {"BlockSize": 2, **order},
             u(good[1:]), err, note="the tensors are 4-D {N, C, H, W}")
        case(f"{name}.rank-5", "rule", full, {"BlockSize": 2, **order},
             u([1] + good), err, note="the tensors are 4-D {N, C, H, W}")
        if to_space:
            case(f"{name}.channels-not-multiple", "rule", full, {"BlockSize": 2, **order},
                 u([1, 6, 2, 3]), err, note="C (6) must be a multiple of BlockSize^2 (4)")
        else:
            case(f"{name}.height-not-multiple", "rule", full, {"BlockSize": 2, **order},
                 u([1, 2, 3, 6]), err, note="H (3) must be a multiple of BlockSize (2)")
            case(f"{name}.width-not-multiple", "rule", full, {"BlockSize": 2, **order},
                 u([1, 2, 4, 5]), err, note="W (5) must be a multiple of BlockSize (2)")
        wrong = [1, 2, 4, 6] if to_space else [1, 8, 2, 3]
        wrong = [wrong[0], wrong[1], wrong[3], wrong[2]]
        c = {"name": f"directml.{name}.output-shape", "source": "rule", "op": full,
             "attrs": {"BlockSize": 2, **order},
             "inputs": {"InputTensor": u(good),
                        "OutputTensor": {"type": "UINT32", "shape": wrong}},
             "expected": {"error": err}, "note": "OutputTensor.Sizes must follow the rule"}
        cases.append(c)
        c = {"name": f"directml.{name}.output-type", "source": "rule", "op": full,
             "attrs": {"BlockSize": 2, **order},
             "inputs": {"InputTensor": u(good),
                        "OutputTensor": {"type": "INT32", "shape": [1, 2, 4, 6] if to_space
                                         else [1, 8, 2, 3]}},
             "expected": {"error": err},
             "note": "InputTensor and OutputTensor must have the same DataType"}
        cases.append(c)
        if order:
            case(f"{name}.order-2", "rule", full, {"BlockSize": 2, "Order": 2}, u(good), err,
                 note="Order is one of the two DML_DEPTH_SPACE_ORDER values")
    return cases


def ov_cases():
    cases = []

    def case(name, source, op, attrs, data, out, **extra):
        c = {"name": "openvino." + name, "source": source, "op": op, "attrs": attrs,
             "inputs": {"data": data}}
        c["expected"] = ({"error": out} if isinstance(out, str)
                         else {"outputs": {"output": out}})
        c.update(extra)
        cases.append(c)

    # The specifications' examples give shapes only: the data is the element numbers.
    x = np.arange(5 * 28 * 2 * 3, dtype=np.int32).reshape(5, 28, 2, 3)
    y = ov_depth_to_space(x, 2, "blocks_first")
    assert y.shape == (5, 7, 4, 6)
    case("depth_to_space1.example", "openvino:DepthToSpace-1#example", "openvino.DepthToSpace-1",
         {"mode": "blocks_first", "block_size": 2}, tensor("INT32", x), tensor("INT32", y),
         note="the page gives shapes ({5,28,2,3} -> {5,7,4,6}); data: element numbers, "
              "expected by the page's reshape/transpose formula")
    x = np.arange(5 * 7 * 4 * 6, dtype=np.int32).reshape(5, 7, 4, 6)
    y = ov_space_to_depth(x, 2, "blocks_first")
    assert y.shape == (5, 28, 2, 3)
    case("space_to_depth1.example", "openvino:SpaceToDepth-1#example", "openvino.SpaceToDepth-1",
         {"mode": "blocks_first", "block_size": 2}, tensor("INT32", x), tensor("INT32", y),
         note="the page gives shapes ({5,7,4,6} -> {5,28,2,3}); data: element numbers, "
              "expected by the page's reshape/transpose formula",
         erratum="an earlier revision of the page says of block_size that \"the depth "
                 "dimension size must be evenly divided by block_size ^ (len(input.shape) - 2)\""
                 " (DepthToSpace's rule); SpaceToDepth divides the spatial dimensions (its "
                 "reshape, and the current revision: \"the spatial dimensions must be evenly "
                 "divided by block_size\"): this example's depth 7 is no multiple of 4")
    # ONNX's DepthToSpace examples, which the OpenVINO pages refer to for the 4-D case.
    depth = np.array(DML_DEPTH, dtype=np.float32)
    for mode, space in (("blocks_first", DML_SPACE_DCR), ("depth_first", DML_SPACE_CRD)):
        check(space, ov_depth_to_space(depth, 2, mode), "OpenVINO " + mode)
        case(f"depth_to_space1.onnx-example-{mode}", "extra", "openvino.DepthToSpace-1",
             {"mode": mode, "block_size": 2}, tensor("FLOAT32", depth), tensor("FLOAT32", space),
             note="ONNX's DepthToSpace example, to which the page refers for the 4-D case")
        case(f"space_to_depth1.onnx-example-{mode}", "extra", "openvino.SpaceToDepth-1",
             {"mode": mode, "block_size": 2}, tensor("FLOAT32", space), tensor("FLOAT32", depth))

    # Other ranks, types, defaults and empty tensors.
    rng = np.random.default_rng(14)
    for shape, b, typ in (([2, 8, 3], 2, "INT8"), ([1, 16, 2, 1, 3], 2, "FLOAT64"),
                          ([2, 3 * 8, 1, 2, 2], 2, "UINT16"), ([1, 64, 1, 1, 1, 1, 1, 1], 2,
                                                               "BOOLEAN"),
                          ([1, 27, 2, 2, 1], 3, "INT64"), ([0, 8, 2, 2], 2, "FLOAT32"),
                          ([2, 0, 2, 2], 2, "UINT8")):
        x = rng.integers(0, 100, size=shape).astype(NUMPY_TYPES[typ])
        if typ == "BOOLEAN":
            x = (rng.integers(0, 2, size=shape) == 1)
        for mode in ("blocks_first", "depth_first"):
            y = ov_depth_to_space(x, b, mode)
            tag = f"{typ.lower()}-rank{len(shape)}-block{b}-{mode}"
            if 0 in shape:
                tag = f"empty-{'x'.join(map(str, shape))}-{mode}"
            case(f"depth_to_space1.{tag}", "extra", "openvino.DepthToSpace-1",
                 {"mode": mode, "block_size": b}, tensor(typ, x), tensor(typ, y))
            case(f"space_to_depth1.{tag}", "extra", "openvino.SpaceToDepth-1",
                 {"mode": mode, "block_size": b}, tensor(typ, y), tensor(typ, x))
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    case("depth_to_space1.default-block-size", "extra", "openvino.DepthToSpace-1",
         {"mode": "depth_first"}, tensor("FLOAT32", x), tensor("FLOAT32", x),
         note="block_size absent: 1 (a copy)")

    err = "invalid_argument"
    for op, name in (("openvino.DepthToSpace-1", "depth_to_space1"),
                     ("openvino.SpaceToDepth-1", "space_to_depth1")):
        good = np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)
        case(f"{name}.rank-2", "rule", op, {"mode": "blocks_first", "block_size": 2},
             tensor("FLOAT32", good.reshape(4, 4)), err, note="data has rank >= 3")
        for bad in (0, -2):
            case(f"{name}.block-size-{bad}", "rule", op, {"mode": "blocks_first",
                                                         "block_size": bad},
                 tensor("FLOAT32", good), err, note="block_size is a positive integer")
        case(f"{name}.mode-absent", "rule", op, {"block_size": 2}, tensor("FLOAT32", good), err,
             note="mode is required")
        case(f"{name}.mode-unknown", "rule", op, {"mode": "blocks_last", "block_size": 2},
             tensor("FLOAT32", good), err, note="mode is blocks_first or depth_first")
    case("depth_to_space1.depth-not-multiple", "rule", "openvino.DepthToSpace-1",
         {"mode": "depth_first", "block_size": 2}, tensor("FLOAT32", np.zeros((1, 4, 1, 1, 1))),
         err, note="depth 4 must be a multiple of block_size^3 = 8")
    case("space_to_depth1.spatial-not-multiple", "rule", "openvino.SpaceToDepth-1",
         {"mode": "depth_first", "block_size": 2}, tensor("FLOAT32", np.zeros((1, 1, 2, 4, 3))),
         err, note="every spatial dimension must be a multiple of block_size: 3 is not")
    return cases


def onnx_cases():
    cases = []

    def case(name, source, op, attrs, inp, out, **extra):
        c = {"name": "onnx." + name, "source": source, "op": op, "attrs": attrs,
             "inputs": {"input": inp}}
        c["expected"] = ({"error": out} if isinstance(out, str)
                         else {"outputs": {"output": out}})
        c.update(extra)
        cases.append(c)

    depth = np.array(DML_DEPTH, dtype=np.float32)
    for mode, space, anchor in (("DCR", DML_SPACE_DCR, "default_mode_example"),
                                ("CRD", DML_SPACE_CRD, "crd_mode_example")):
        check(space, onnx_depth_to_space(depth, 2, mode), "ONNX " + mode)
        case(f"depth_to_space13.{anchor}", f"onnx:DepthToSpace-13#{anchor}",
             "onnx.DepthToSpace-13", {"blocksize": 2, "mode": mode}, tensor("FLOAT32", depth),
             tensor("FLOAT32", space))
    x = np.arange(1 * 8 * 2 * 4, dtype=np.float32).reshape(1, 8, 2, 4)
    case("depth_to_space13.dcr_nonsquare", "onnx:DepthToSpace-13#nonsqure_matrix",
         "onnx.DepthToSpace-13", {"blocksize": 2, "mode": "DCR"}, tensor("FLOAT32", x),
         tensor("FLOAT32", onnx_depth_to_space(x, 2, "DCR")),
         note="the backend test's own formula on arange(64) {1,8,2,4}")
    doc_in = [[[[0, 6, 1, 7, 2, 8], [12, 18, 13, 19, 14, 20],
                [3, 9, 4, 10, 5, 11], [15, 21, 16, 22, 17, 23]]]]
    doc_out = np.arange(24, dtype=np.float32).reshape(1, 4, 2, 3)
    check(doc_out, onnx_space_to_depth(np.array(doc_in, dtype=np.float32), 2), "ONNX S2D")
    case("space_to_depth13.example", "onnx:SpaceToDepth-13#example", "onnx.SpaceToDepth-13",
         {"blocksize": 2}, tensor("FLOAT32", doc_in), tensor("FLOAT32", doc_out))
    x = (np.arange(2 * 2 * 6 * 6, dtype=np.float32).reshape(2, 2, 6, 6) * 0.125)
    case("space_to_depth13.spacetodepth", "onnx:SpaceToDepth-13#export", "onnx.SpaceToDepth-13",
         {"blocksize": 2}, tensor("FLOAT32", x), tensor("FLOAT32", onnx_space_to_depth(x, 2)),
         note="the backend test's {2,2,6,6} shape; its random data replaced by element numbers "
              "/ 8, expected by its formula")
    # The default mode, other types, empty tensors.
    depth_i = depth.astype(np.int16)
    case("depth_to_space13.mode-absent", "extra", "onnx.DepthToSpace-13", {"blocksize": 2},
         tensor("INT16", depth_i), tensor("INT16", np.array(DML_SPACE_DCR, dtype=np.int16)),
         note="mode defaults to DCR")
    b = np.array([True, False, False, True, True, True, False, True, False] * 4).reshape(1, 9, 2, 2)
    case("depth_to_space13.bool-crd-block3", "extra", "onnx.DepthToSpace-13",
         {"blocksize": 3, "mode": "CRD"}, tensor("BOOLEAN", b),
         tensor("BOOLEAN", onnx_depth_to_space(b, 3, "CRD")))
    e = np.zeros((0, 8, 1, 2), dtype=np.float32)
    case("depth_to_space13.empty", "extra", "onnx.DepthToSpace-13", {"blocksize": 2},
         tensor("FLOAT32", e), tensor("FLOAT32", onnx_depth_to_space(e, 2, "DCR")))
    e = np.zeros((2, 3, 0, 4), dtype=np.uint64)
    case("space_to_depth13.empty", "extra", "onnx.SpaceToDepth-13", {"blocksize": 2},
         tensor("UINT64", e), tensor("UINT64", onnx_space_to_depth(e, 2)))

    err = "invalid_argument"
    good = np.zeros((1, 4, 2, 2), dtype=np.float32)
    for op, name in (("onnx.DepthToSpace-13", "depth_to_space13"),
                     ("onnx.SpaceToDepth-13", "space_to_depth13")):
        case(f"{name}.rank-3", "rule", op, {"blocksize": 2}, tensor("FLOAT32", good[0]), err,
             note="the input is 4-D [N, C, H, W]")
        case(f"{name}.rank-5", "rule", op, {"blocksize": 2}, tensor("FLOAT32", good[None]), err,
             note="the input is 4-D [N, C, H, W]")
        case(f"{name}.blocksize-absent", "rule", op, {}, tensor("FLOAT32", good), err,
             note="blocksize is required")
        case(f"{name}.blocksize-negative", "rule", op, {"blocksize": -2},
             tensor("FLOAT32", good), err, note="blocksize must be positive")
    case("depth_to_space13.mode-unknown", "rule", "onnx.DepthToSpace-13",
         {"blocksize": 2, "mode": "RDC"}, tensor("FLOAT32", good), err,
         note="mode is DCR or CRD")
    case("depth_to_space13.channels-not-multiple", "rule", "onnx.DepthToSpace-13",
         {"blocksize": 2}, tensor("FLOAT32", np.zeros((1, 6, 2, 2))), err,
         note="C (6) must be a multiple of blocksize^2 (4)")
    case("space_to_depth13.height-not-multiple", "rule", "onnx.SpaceToDepth-13",
         {"blocksize": 2}, tensor("FLOAT32", np.zeros((1, 1, 3, 2))), err,
         note="H (3) must be a multiple of blocksize (2)")
    case("space_to_depth13.width-not-multiple", "rule", "onnx.SpaceToDepth-13",
         {"blocksize": 3}, tensor("FLOAT32", np.zeros((1, 1, 3, 4))), err,
         note="W (4) must be a multiple of blocksize (3)")
    return cases


def graph_cases():
    """The operators as graph nodes: their views compose with the next node's."""
    x = np.array(DML_DEPTH, dtype=np.uint32)
    t = lambda a: tensor("UINT32", a)
    s = dml_depth_to_space(x, 2, CRD)
    y1 = dml_space_to_depth(s, 2, DCR)
    y2 = dml_depth_to_space(x, 2, DCR)[:, 1:2, 1::2, :]
    node = lambda op, attrs, i, o: {"op": op, "attrs": attrs, "inputs": {"InputTensor": i},
                                    "outputs": {"OutputTensor": o}}
    return [
        {"name": "dmlcl.graph.depth-to-space-to-depth", "source": "extra", "op": "DML_GRAPH",
         "graph": {"nodes": [node("DML_OPERATOR_DEPTH_TO_SPACE1", {"BlockSize": 2, "Order": CRD},
                                  "x", "s"),
                             node("DML_OPERATOR_SPACE_TO_DEPTH1", {"BlockSize": 2, "Order": DCR},
                                  "s", "y")],
                   "tensors": {"s": {"type": "UINT32", "shape": [1, 2, 4, 6]}}},
         "inputs": {"x": t(x)}, "expected": {"outputs": {"y": t(y1)}},
         "note": "out in one order, back in the other: a channel permutation, one view"},
        {"name": "dmlcl.graph.depth-to-space-slice", "source": "extra", "op": "DML_GRAPH",
         "graph": {"nodes": [node("DML_OPERATOR_DEPTH_TO_SPACE", {"BlockSize": 2}, "x", "s"),
                             node("DML_OPERATOR_SLICE", {"Offsets": [0, 1, 1, 0],
                                                         "Sizes": [1, 1, 2, 6],
                                                         "Strides": [1, 1, 2, 1]}, "s", "y")],
                   "tensors": {"s": {"type": "UINT32", "shape": [1, 2, 4, 6]}}},
         "inputs": {"x": t(x)}, "expected": {"outputs": {"y": t(y2)}},
         "note": "rows 1 and 3 of channel 1 of the depth-to-space"},
    ]


def spec_of(op):
    """The <spec> of a case's source tag: the document its rules come from."""
    if op.startswith("DML_OPERATOR_"):
        return f"directml:DML_{op[len('DML_OPERATOR_'):]}_OPERATOR_DESC"
    if op == "DML_GRAPH":
        return "dmlcl:graph"
    return op.replace(".", ":", 1)


def tagged(cases):
    """Source tags for the cases beyond the examples: <spec>#error-<what> for a broken rule,
    <spec>#<what> for the others, <what> from the case's name."""
    for c in cases:
        what = c["name"].split(".", 2)[-1]
        if c["source"] == "rule":
            c["source"] = f"{spec_of(c['op'])}#error-{what}"
        elif c["source"] == "extra":
            c["source"] = f"{spec_of(c['op'])}#{what}"
    return cases


def documented(root):
    base = os.path.join(root, "conformance", "cases")
    write(os.path.join(base, "graph", "depth_space.json"), tagged(graph_cases()))
    write(os.path.join(base, "directml", "depth_space.json"), tagged(dml_cases()))
    write(os.path.join(base, "openvino", "depth_space.json"), tagged(ov_cases()))
    write(os.path.join(base, "onnx", "depth_space.json"), tagged(onnx_cases()))


# ---- Random differential cases -----------------------------------------------------------------

TYPES = list(NUMPY_TYPES)
CRASHED = "crashed"


def ov_worker(conn):
    """The CPU plugin: (op, mode, block, shape) -> the int32 iota rearranged, or an error text."""
    import openvino as ov
    from openvino import opset1

    core = ov.Core()
    while True:
        args = conn.recv()
        if args is None:
            return
        op, mode, block, shape = args
        try:
            p = opset1.parameter(shape, np.int32)
            f = opset1.depth_to_space if op == "d2s" else opset1.space_to_depth
            model = ov.Model([f(p, mode, block)], [p])
            compiled = core.compile_model(model, "CPU")
            x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
            conn.send(np.array(compiled([x])[0]))
        except Exception as e:  # OpenVINO rejects the node or the shape
            conn.send(str(e).splitlines()[0] if str(e) else type(e).__name__)


def spec_valid(op, shape, b):
    """The specifications' divisibility rules (rank and block size are drawn valid)."""
    k = len(shape) - 2
    if op == "d2s":
        return shape[1] % b**k == 0
    return all(d % b == 0 for d in shape[2:])


def random_shape(rng, op, k, b, valid):
    """[N, C, D1..DK] with dims that divide (or, when not valid, one that does not); a 0
    only in valid shapes (an empty array reshapes to anything, so upstream accepts any)."""
    n = rng.choice([1, 2, 3])
    dims = [rng.randint(1, 3) for _ in range(k)]
    if op == "d2s":
        c = rng.randint(1, 3) * b**k
        spatial = dims
    else:
        c = rng.randint(1, 4)
        spatial = [d * b for d in dims]
    if not valid:
        if op == "d2s" and b > 1:
            c += 1
        elif b > 1:
            spatial[rng.randrange(k)] += 1
    shape = [n, c] + spatial
    if spec_valid(op, shape, b) and rng.random() < 0.05:
        shape[rng.randrange(len(shape))] = 0
    return shape


def typed(rng, typ, iota):
    """The case's data: distinct-ish values of the type, indexed by the iota later."""
    count = iota.size
    if typ == "BOOLEAN":
        return np.array([rng.random() < 0.5 for _ in range(count)], dtype=np.bool_)
    dt = np.dtype(NUMPY_TYPES[typ])
    if dt.kind == "f":
        return (np.arange(count, dtype=np.float64) * 0.5 - count / 4).astype(dt)
    info = np.iinfo(dt)
    return np.array([rng.randint(int(info.min), int(info.max)) for _ in range(count)], dtype=dt)


def random_cases(seed, count, onnx_count):
    rng = random.Random(seed)
    plugin = CpuPlugin(ov_worker, CRASHED)
    ov_cases_, onnx_cases_ = [], []
    stats = {"errors": 0, "crashed": 0, "refused": 0}
    try:
        for i in range(count):
            op = rng.choice(["d2s", "s2d"])
            mode = rng.choice(["blocks_first", "depth_first"])
            k = rng.choice([1, 1, 2, 2, 2, 3, 4])
            b = rng.choice([1, 2, 2, 2, 3, 4]) if k < 3 else rng.choice([1, 2, 2])
            valid = rng.random() > 0.1
            shape = random_shape(rng, op, k, b, valid)
            typ = rng.choice(TYPES)
            got = plugin.run(op, mode, b, shape)
            name = "DepthToSpace-1" if op == "d2s" else "SpaceToDepth-1"
            c = {"name": f"diff.openvino.{op}.{i}", "source": "openvino-cpu-plugin",
                 "op": "openvino." + name, "attrs": {"mode": mode, "block_size": b}}
            iota = np.arange(int(np.prod(shape)), dtype=np.int64)
            data = typed(rng, typ, iota)
            c["inputs"] = {"data": tensor(typ, data.reshape(shape), shape)}
            if isinstance(got, str):
                if got == CRASHED:
                    stats["crashed"] += 1
                    continue
                if spec_valid(op, shape, b):
                    # The plugin refuses what the specification allows: not an expectation.
                    stats["refused"] += 1
                    print(f"gen_depth_space: the CPU plugin refuses {name} {mode} block {b} "
                          f"{shape}: {got[:120]}", file=sys.stderr)
                    continue
                stats["errors"] += 1
                c["expected"] = {"error": "invalid_argument"}
                c["note"] = got[:200]
            else:
                c["expected"] = {"outputs": {"output": tensor(typ, data[got.reshape(-1)],
                                                              list(got.shape))}}
            ov_cases_.append(c)
    finally:
        plugin.close()
    from onnx import helper, TensorProto
    from onnx.reference import ReferenceEvaluator

    for i in range(onnx_count):
        op = rng.choice(["d2s", "s2d"])
        b = rng.choice([1, 2, 2, 3])
        valid = rng.random() > 0.1
        shape = random_shape(rng, op, 2, b, valid)
        typ = rng.choice(TYPES)
        attrs = {"blocksize": b}
        name = "DepthToSpace" if op == "d2s" else "SpaceToDepth"
        if op == "d2s":
            attrs["mode"] = rng.choice(["DCR", "CRD"])
        node = helper.make_node(name, ["x"], ["y"], **attrs)
        graph = helper.make_graph([node], "g",
                                  [helper.make_tensor_value_info("x", TensorProto.INT64, shape)],
                                  [helper.make_tensor_value_info("y", TensorProto.INT64, None)])
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        iota = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
        data = typed(rng, typ, iota)
        c = {"name": f"diff.onnx.{op}.{i}", "source": "onnx.reference",
             "op": f"onnx.{name}-13", "attrs": attrs,
             "inputs": {"input": tensor(typ, data.reshape(shape), shape)}}
        try:
            got = ReferenceEvaluator(model).run(None, {"x": iota})[0]
            c["expected"] = {"outputs": {"output": tensor(typ, data[got.reshape(-1)],
                                                          list(got.shape))}}
        except Exception as e:  # the reference refuses the shape (reshape fails)
            stats["errors"] += 1
            c["expected"] = {"error": "invalid_argument"}
            c["note"] = (str(e).splitlines() or [type(e).__name__])[0][:200]
        onnx_cases_.append(c)
    return ov_cases_, onnx_cases_, stats


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--documented", action="store_true")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--onnx-count", type=int, default=1200)
    ap.add_argument("--out", default="build/diff/depth_space")
    a = ap.parse_args()
    if a.documented:
        documented(a.root)
        return
    ov_c, onnx_c, stats = random_cases(a.seed, a.count, a.onnx_count)
    clear_out(a.out)
    write(os.path.join(a.out, "openvino.json"), ov_c)
    write(os.path.join(a.out, "onnx.json"), onnx_c)
    print(f"gen_depth_space: {len(ov_c)} OpenVINO cases, {len(onnx_c)} ONNX cases "
          f"(expected errors {stats['errors']}; dropped: plugin crashes {stats['crashed']}, "
          f"valid shapes the plugin refuses {stats['refused']})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
