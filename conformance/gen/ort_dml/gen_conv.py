# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/conv.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
def conv_ref(x, w, b, strides, pads_s, pads_e, dil, group):
    # x [N,C,*sp], w [M, C/g, *k]
    N, C = x.shape[:2]; M = w.shape[0]; sp = x.shape[2:]; ks = w.shape[2:]; nd = len(sp)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads_s[i], pads_e[i]) for i in range(nd)])
    osz = [(xp.shape[2 + i] - ((ks[i] - 1) * dil[i] + 1)) // strides[i] + 1 for i in range(nd)]
    y = np.zeros((N, M) + tuple(osz))
    cg = C // group; mg = M // group
    for o in np.ndindex(*osz):
        for kk in np.ndindex(*ks):
            idx = tuple(o[i] * strides[i] + kk[i] * dil[i] for i in range(nd))
            for g in range(group):
                xs = xp[(slice(None), slice(g * cg, (g + 1) * cg)) + idx]  # N, cg
                ws = w[(slice(g * mg, (g + 1) * mg), slice(None)) + kk]  # mg, cg
                y[(slice(None), slice(g * mg, (g + 1) * mg)) + o] += xs @ ws.T
    if b is not None:
        y += b.reshape((1, M) + (1,) * nd)
    return y
def convT_ref(x, w, b, strides, pads_s, pads_e, dil, group, outsz):
    # ONNX ConvTranspose: w [C, M/g, *k]; full output then crop pads_s, size outsz
    N, C = x.shape[:2]; sp = x.shape[2:]; ks = w.shape[2:]; nd = len(sp); mg = w.shape[1]; M = mg * group; cg = C // group
    full = [(sp[i] - 1) * strides[i] + (ks[i] - 1) * dil[i] + 1 for i in range(nd)]
    big = [max(full[i], pads_s[i] + outsz[i]) for i in range(nd)]
    y = np.zeros((N, M) + tuple(big))
    for ii in np.ndindex(*sp):
        for kk in np.ndindex(*ks):
            o = tuple(ii[i] * strides[i] + kk[i] * dil[i] for i in range(nd))
            for g in range(group):
                xs = x[(slice(None), slice(g * cg, (g + 1) * cg)) + ii]  # N,cg
                ws = w[(slice(g * cg, (g + 1) * cg), slice(None)) + kk]  # cg, mg
                y[(slice(None), slice(g * mg, (g + 1) * mg)) + o] += xs @ ws
    y = y[(slice(None), slice(None)) + tuple(slice(pads_s[i], pads_s[i] + outsz[i]) for i in range(nd))]
    if b is not None:
        y = y + b.reshape((1, M) + (1,) * nd)
    return y
def attrs(nd, strides, dil, ps, pe, group, direction="DML_CONVOLUTION_DIRECTION_FORWARD", fused=None):
    a = {"Mode": "DML_CONVOLUTION_MODE_CROSS_CORRELATION", "Direction": direction, "Strides": strides,
         "Dilations": dil, "StartPadding": ps, "EndPadding": pe, "OutputPadding": [0] * nd, "GroupCount": group}
    if fused: a["FusedActivation"] = fused
    return a
def tol(x, w, taps, typ="FLOAT32"):
    eps = 2.0**-23 if typ == "FLOAT32" else 2.0**-10
    return 2 * taps + 8, (taps + 4) * eps * (np.abs(x).max() * np.abs(w).max() * taps + 1)

# 1. 1-D conv padded to 4-D as the DML EP does: [N,C,W] -> [N,C,1,W], filter [M,C,1,k], bias [1,M,1,1]
#    spatial args padded to 2: strides {1,s}, pads {0,p}
x = rnd((2, 3, 9)); w = rnd((4, 3, 3)); b = rnd((4,))
y = conv_ref(x, w, b, [2], [1], [2], [1], 1)
u, a = tol(x, w, 9)
cases.append(case("conv1d-as-4d-bias", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x.reshape(2, 3, 1, 9)), "FilterTensor": T("FLOAT32", w.reshape(4, 3, 1, 3)),
     "BiasTensor": T("FLOAT32", b.reshape(1, 4, 1, 1))},
    {"OutputTensor": out("FLOAT32", y.reshape(2, 4, 1, -1), u, a)},
    attrs=attrs(2, [1, 2], [1, 1], [0, 1], [0, 2], 1)))
# 1b. same with dilation 2 and fused LeakyRelu
y = conv_ref(x, w, b, [1], [2], [2], [2], 1); yl = np.where(y > 0, y, 0.1 * y)
cases.append(case("conv1d-as-4d-dil-fused-leakyrelu", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x.reshape(2, 3, 1, 9)), "FilterTensor": T("FLOAT32", w.reshape(4, 3, 1, 3)),
     "BiasTensor": T("FLOAT32", b.reshape(1, 4, 1, 1))},
    {"OutputTensor": out("FLOAT32", yl.reshape(2, 4, 1, -1), u + 2, a)},
    attrs=attrs(2, [1, 1], [1, 2], [0, 2], [0, 2], 1, fused={"Type": "DML_OPERATOR_ACTIVATION_LEAKY_RELU", "Alpha": 0.1})))
# 2. depthwise 2-D conv with auto_pad SAME_LOWER (extra at start), stride 2, fused sigmoid... use RELU
x = rnd((1, 4, 6, 5)); w = rnd((4, 1, 3, 3)); b = rnd((4,))
# SAME_LOWER: in 6, stride 2 -> out 3, need = 2*2+3=7, pad 1 -> start (1+1)//2=1, end 0 ; W: in 5 -> out 3, need 7, pad 2 -> 1,1
y = np.maximum(conv_ref(x, w, b, [2, 2], [1, 1], [0, 1], [1, 1], 4), 0)
u, a = tol(x, w, 9)
cases.append(case("conv2d-depthwise-same-lower-fused-relu", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x), "FilterTensor": T("FLOAT32", w), "BiasTensor": T("FLOAT32", b.reshape(1, 4, 1, 1))},
    {"OutputTensor": out("FLOAT32", y, u, a)},
    attrs=attrs(2, [2, 2], [1, 1], [1, 1], [0, 1], 4, fused={"Type": "DML_OPERATOR_ACTIVATION_RELU"})))
# 3. grouped conv (2 groups) no bias
x = rnd((1, 4, 5, 5)); w = rnd((6, 2, 2, 2))
y = conv_ref(x, w, None, [1, 1], [0, 0], [1, 1], [1, 1], 2); u, a = tol(x, w, 8)
cases.append(case("conv2d-group2-nobias", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x), "FilterTensor": T("FLOAT32", w)},
    {"OutputTensor": out("FLOAT32", y, u, a)}, attrs=attrs(2, [1, 1], [1, 1], [0, 0], [1, 1], 2)))
# 4. 3-D conv (5-D tensors), bias [1,M,1,1,1]
x = rnd((1, 2, 3, 4, 4)); w = rnd((3, 2, 2, 2, 2)); b = rnd((3,))
y = conv_ref(x, w, b, [1, 2, 1], [0, 1, 0], [0, 0, 1], [1, 1, 1], 1); u, a = tol(x, w, 16)
cases.append(case("conv3d-bias", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x), "FilterTensor": T("FLOAT32", w), "BiasTensor": T("FLOAT32", b.reshape(1, 3, 1, 1, 1))},
    {"OutputTensor": out("FLOAT32", y, u, a)}, attrs=attrs(3, [1, 2, 1], [1, 1, 1], [0, 1, 0], [0, 0, 1], 1)))
# 5. ConvTranspose 1-D padded to 4-D with output_padding 1 as a larger output, OutputPadding 0
x = rnd((1, 2, 4)); w = rnd((2, 3, 3)); b = rnd((3,))
outW = (4 - 1) * 2 + 3 - 1 - 1 + 1  # pads 1,1 output_padding 1 -> 7
y = convT_ref(x, w, b, [2], [1], [1], [1], 1, [outW]); u, a = tol(x, w, 6)
cases.append(case("convtranspose1d-as-4d-outpad", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x.reshape(1, 2, 1, 4)), "FilterTensor": T("FLOAT32", w.reshape(2, 3, 1, 3)),
     "BiasTensor": T("FLOAT32", b.reshape(1, 3, 1, 1))},
    {"OutputTensor": out("FLOAT32", y.reshape(1, 3, 1, outW), u, a)},
    attrs=attrs(2, [1, 2], [1, 1], [0, 1], [0, 1], 1, direction="DML_CONVOLUTION_DIRECTION_BACKWARD")))
# 6. ConvTranspose 2-D group 2, stride 2, fused relu
x = rnd((1, 4, 3, 3)); w = rnd((4, 1, 3, 3)); b = rnd((2,))
y = np.maximum(convT_ref(x, w, b, [2, 2], [1, 1], [1, 1], [1, 1], 2, [5, 5]), 0); u, a = tol(x, w, 9)
cases.append(case("convtranspose2d-group2-fused-relu", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x), "FilterTensor": T("FLOAT32", w), "BiasTensor": T("FLOAT32", b.reshape(1, 2, 1, 1))},
    {"OutputTensor": out("FLOAT32", y, u, a)},
    attrs=attrs(2, [2, 2], [1, 1], [1, 1], [1, 1], 2, direction="DML_CONVOLUTION_DIRECTION_BACKWARD", fused={"Type": "DML_OPERATOR_ACTIVATION_RELU"})))
# 7. FLOAT16 conv with bias
x = rnd((1, 3, 5, 5), "FLOAT16"); w = rnd((2, 3, 3, 3), "FLOAT16"); b = rnd((2,), "FLOAT16")
y = conv_ref(x, w, b, [1, 1], [1, 1], [1, 1], [1, 1], 1)
cases.append(case("conv2d-fp16-bias", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT16", x), "FilterTensor": T("FLOAT16", w), "BiasTensor": T("FLOAT16", b.reshape(1, 2, 1, 1))},
    {"OutputTensor": out("FLOAT16", y.astype(np.float16).astype(np.float64), 60, 30 * 2**-10 * (np.abs(y).max() + 4))},
    attrs=attrs(2, [1, 1], [1, 1], [1, 1], [1, 1], 1)))
# 8. ConvTranspose with output_shape larger (pads computed from output shape)
x = rnd((1, 1, 3, 3)); w = rnd((1, 2, 3, 3))
y = convT_ref(x, w, None, [3, 2], [0, 0], [0, 0], [1, 1], 1, [10, 8]); u, a = tol(x, w, 9)
cases.append(case("convtranspose2d-output-shape", "DML_OPERATOR_CONVOLUTION",
    {"InputTensor": T("FLOAT32", x), "FilterTensor": T("FLOAT32", w)},
    {"OutputTensor": out("FLOAT32", y, u, a)},
    attrs=attrs(2, [3, 2], [1, 1], [0, 0], [0, 0], 1, direction="DML_CONVOLUTION_DIRECTION_BACKWARD")))
write("conv.json", cases)
