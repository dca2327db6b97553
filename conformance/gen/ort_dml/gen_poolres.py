# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/poolres.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
import onnx
from onnx import helper, TensorProto
from onnx.reference import ReferenceEvaluator
cases = []
F = "FLOAT32"
FLT_MAX = float(np.finfo(np.float32).max)
def onnx_resize(x, sizes, mode, ctm, nearest="round_prefer_floor", roi=None):
    inputs = ["X", "roi", "", "sizes"]
    node = helper.make_node("Resize", inputs, ["Y"], mode=mode, coordinate_transformation_mode=ctm, nearest_mode=nearest)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, list(x.shape)),
                                        helper.make_tensor_value_info("roi", TensorProto.FLOAT, None),
                                        helper.make_tensor_value_info("sizes", TensorProto.INT64, [len(sizes)])],
                          [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])
    r = ReferenceEvaluator(m)
    return r.run(None, {"X": x.astype(np.float32), "roi": np.array(roi if roi is not None else [], dtype=np.float32), "sizes": np.array(sizes, dtype=np.int64)})[0].astype(np.float64)
def res1(name, x, outshape, mode, scales, inoff, outoff, ref, tol=84):
    cases.append(case(name, "DML_OPERATOR_RESAMPLE1", {"InputTensor": T(F, x)},
        {"OutputTensor": out(F, ref.reshape(outshape), tol if mode == "LINEAR" else 0, 1e-6 if mode == "LINEAR" else None)},
        attrs={"InterpolationMode": "DML_INTERPOLATION_MODE_" + ("LINEAR" if mode == "LINEAR" else "NEAREST_NEIGHBOR"),
               "Scales": scales, "InputPixelOffsets": inoff, "OutputPixelOffsets": outoff}))
x = rnd((1, 2, 3, 4))
# half_pixel linear 2x (H), 1.5x (W): 4-D, leading dims scale 1 offsets 0.5/-0.5
ref = onnx_resize(x, [1, 2, 6, 6], "linear", "half_pixel")
res1("resample1-linear-half-pixel", x, (1, 2, 6, 6), "LINEAR", [1, 1, 2, 1.5], [0.5] * 4, [-0.5] * 4, ref)
# align_corners linear: scales recomputed (out-1)/(in-1)
ref = onnx_resize(x, [1, 2, 5, 7], "linear", "align_corners")
res1("resample1-linear-align-corners", x, (1, 2, 5, 7), "LINEAR", [1, 1, 2.0, 2.0], [0.5, 0.5, 0, 0], [-0.5, -0.5, 0, 0], ref)
# align_corners with an output of size 1 on H: scale FLT_MAX
ref = onnx_resize(x, [1, 2, 1, 7], "linear", "align_corners")
res1("resample1-linear-align-corners-out1-fltmax", x, (1, 2, 1, 7), "LINEAR", [1, 1, FLT_MAX, 2.0], [0.5, 0.5, 0, 0], [-0.5, -0.5, 0, 0], ref)
# pytorch_half_pixel with input H = 1: scale FLT_MAX, offsets 0
x1 = rnd((1, 2, 1, 4))
ref = onnx_resize(x1, [1, 2, 3, 8], "linear", "pytorch_half_pixel")
res1("resample1-linear-pytorch-half-pixel-in1-fltmax", x1, (1, 2, 3, 8), "LINEAR", [1, 1, FLT_MAX, 2.0], [0.5, 0.5, 0, 0.5], [-0.5, -0.5, 0, -0.5], ref)
# nearest asymmetric floor: input offset +0.5 (ORT's adjustment)
ref = onnx_resize(x, [1, 2, 6, 8], "nearest", "asymmetric", "floor")
res1("resample1-nearest-asymmetric-floor", x, (1, 2, 6, 8), "NEAREST", [1, 1, 2, 2], [0.5, 0.5, 0.5, 0.5], [-0.5, -0.5, 0, 0], ref)
# nearest downsample asymmetric floor by 0.5 (scale 0.5)
x8 = rnd((1, 1, 4, 8))
ref = onnx_resize(x8, [1, 1, 2, 4], "nearest", "asymmetric", "floor")
res1("resample1-nearest-down-asymmetric-floor", x8, (1, 1, 2, 4), "NEAREST", [1, 1, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5], [-0.5, -0.5, 0, 0], ref)
# tf_crop_and_resize linear with roi [.., 0.2, 0.1 .. 0.8, 0.9]
roi = [0, 0, 0.25, 0.0, 1, 1, 0.75, 1.0]
ref = onnx_resize(x, [1, 2, 3, 5], "linear", "tf_crop_and_resize", roi=roi)
# H: in 3: inputOffset = -(0.25*2) = -0.5; scale = (3-1)/max((0.75-0.25)*2,1) = 2
# W: in 4: inputOffset = 0; scale = (5-1)/max(1*3,1) = 4/3
res1("resample1-linear-tf-crop-and-resize", x, (1, 2, 3, 5), "LINEAR", [1, 1, 2.0, float(np.float32(4 / 3))], [0.5, 0.5, -0.5, 0.0], [-0.5, -0.5, 0, 0], ref)
# 5-D half_pixel (3-D spatial) linear
x5 = rnd((1, 1, 2, 2, 3))
ref = onnx_resize(x5, [1, 1, 4, 3, 6], "linear", "half_pixel")
res1("resample1-5d-squeezed-to-4d-linear", x5.reshape(1, 2, 2, 3), (1, 4, 3, 6), "LINEAR", [1, 2, 1.5, 2], [0.5] * 4, [-0.5] * 4, ref)
# ---- Pooling
def pool_ref(x, k, s, ps, pe, kind, include=False, dil=None):
    nd = len(k); dil = dil or [1] * nd
    N, C = x.shape[:2]; sp = x.shape[2:]
    osz = [(sp[i] + ps[i] + pe[i] - ((k[i] - 1) * dil[i] + 1)) // s[i] + 1 for i in range(nd)]
    y = np.zeros((N, C) + tuple(osz)); idx = np.zeros((N, C) + tuple(osz), dtype=np.int64)
    for n in range(N):
        for c in range(C):
            for o in np.ndindex(*osz):
                vals = []; poss = []; cnt = 0
                for kk in np.ndindex(*k):
                    p = tuple(o[i] * s[i] - ps[i] + kk[i] * dil[i] for i in range(nd))
                    cnt += 1
                    if all(0 <= p[i] < sp[i] for i in range(nd)):
                        vals.append(x[(n, c) + p]); poss.append(np.ravel_multi_index((n, c) + p, x.shape))
                if kind == "max":
                    j = int(np.argmax(vals)); y[(n, c) + o] = vals[j]; idx[(n, c) + o] = poss[j]
                else:
                    y[(n, c) + o] = sum(vals) / (cnt if include else len(vals))
    return y, idx
x = rnd((2, 3, 5, 5))
y, idx = pool_ref(x, [3, 3], [2, 2], [1, 1], [1, 1], "max")
cases.append(case("maxpool2-indices-int64-n2c3", "DML_OPERATOR_MAX_POOLING2", {"InputTensor": T(F, x)},
    {"OutputTensor": T(F, y), "OutputIndicesTensor": T("UINT64", idx)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1], "Dilations": [1, 1]}))
y, idx = pool_ref(x, [2, 2], [1, 1], [0, 0], [0, 0], "max", dil=[2, 2])
cases.append(case("maxpool2-dilations-indices-uint64", "DML_OPERATOR_MAX_POOLING2", {"InputTensor": T(F, x)},
    {"OutputTensor": T(F, y), "OutputIndicesTensor": T("UINT64", idx)},
    attrs={"WindowSize": [2, 2], "Strides": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0], "Dilations": [2, 2]}))
# 1-D MaxPool [N,C,L] right-aligned to {1,N,C,L}, window {1,k}
x1 = rnd((2, 3, 7))
y, idx = pool_ref(x1.reshape(1, 2, 3, 7), [1, 3], [1, 2], [0, 1], [0, 1], "max")
cases.append(case("maxpool1d-as-4d-right-aligned-indices", "DML_OPERATOR_MAX_POOLING2", {"InputTensor": T(F, x1.reshape(1, 2, 3, 7))},
    {"OutputTensor": T(F, y), "OutputIndicesTensor": T("UINT64", idx)},
    attrs={"WindowSize": [1, 3], "Strides": [1, 2], "StartPadding": [0, 1], "EndPadding": [0, 1], "Dilations": [1, 1]}))
# AveragePool count_include_pad 0 and 1 with padding
y, _ = pool_ref(x, [3, 3], [2, 2], [1, 1], [1, 1], "avg", include=False)
cases.append(case("avgpool-exclude-pad", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, y, 12, 1e-6)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1], "IncludePadding": False}))
y, _ = pool_ref(x, [3, 3], [2, 2], [1, 1], [1, 1], "avg", include=True)
cases.append(case("avgpool-include-pad", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T(F, x)}, {"OutputTensor": out(F, y, 12, 1e-6)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [1, 1], "EndPadding": [1, 1], "IncludePadding": True}))
# ceil_mode: output larger than floor -> end padding region partially out of bounds (ORT passes larger output)
xc = rnd((1, 1, 4, 4))
# k=3, s=2, no pads: floor out = 1, ceil out = 2
yc = np.zeros((1, 1, 2, 2))
for i in range(2):
    for j in range(2):
        win = xc[0, 0, i * 2:i * 2 + 3, j * 2:j * 2 + 3]; yc[0, 0, i, j] = win.mean()
cases.append(case("avgpool-ceil-mode-larger-output", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T(F, xc)}, {"OutputTensor": out(F, yc, 12, 1e-6)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [0, 0], "EndPadding": [0, 0], "IncludePadding": False}))
ym = np.zeros((1, 1, 2, 2))
for i in range(2):
    for j in range(2):
        ym[0, 0, i, j] = xc[0, 0, i * 2:i * 2 + 3, j * 2:j * 2 + 3].max()
cases.append(case("maxpool-ceil-mode-larger-output", "DML_OPERATOR_MAX_POOLING", {"InputTensor": T(F, xc)}, {"OutputTensor": T(F, ym)},
    attrs={"WindowSize": [3, 3], "Strides": [2, 2], "StartPadding": [0, 0], "EndPadding": [0, 0]}))
# GlobalAveragePool 4-D and FP16
xg = rnd((2, 3, 4, 5))
cases.append(case("global-avgpool", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T(F, xg)}, {"OutputTensor": out(F, xg.mean(axis=(2, 3), keepdims=True), 24, 1e-6)},
    attrs={"WindowSize": [4, 5], "Strides": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0]}))
xgh = rnd((1, 2, 3, 3), "FLOAT16")
cases.append(case("global-avgpool-fp16", "DML_OPERATOR_AVERAGE_POOLING", {"InputTensor": T("FLOAT16", xgh)}, {"OutputTensor": out("FLOAT16", xgh.mean(axis=(2, 3), keepdims=True), 12, 2**-10)},
    attrs={"WindowSize": [3, 3], "Strides": [1, 1], "StartPadding": [0, 0], "EndPadding": [0, 0]}))
write("poolres.json", cases)
