# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/gemm.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
def gemm_ref(A, B, C, alpha, beta, ta, tb):
    a = np.swapaxes(A, -1, -2) if ta else A
    b = np.swapaxes(B, -1, -2) if tb else B
    r = alpha * np.matmul(a, b)
    if C is not None: r = r + beta * C
    return r
def tolf(A, B, K, typ="FLOAT32"):
    s = np.matmul(np.abs(A), np.abs(B)).max()
    eps = 2.0**-23 if typ == "FLOAT32" else 2.0**-10
    return 2 * K + 4, (K + 4) * eps * (s + 1)

# 1. ONNX Gemm, C [N] broadcast to the output {1,1,M,N} by strides {0,0,0,1}
M, K, N = 3, 4, 5
for (ta, tb, cshape, cstr, name) in [
        (0, 0, (N,), [0, 0, 0, 1], "gemm-4d-c-row"),
        (1, 1, (M, 1), [0, 0, 1, 0], "gemm-4d-transAB-c-col"),
        (0, 1, (1,), [0, 0, 0, 0], "gemm-4d-transB-c-scalar"),
        (0, 0, (M, N), None, "gemm-4d-c-full")]:
    A = rnd((K, M) if ta else (M, K)); B = rnd((N, K) if tb else (K, N)); C = rnd(cshape)
    ref = gemm_ref(A, B, np.broadcast_to(C, (M, N)), 0.5, 2.0, ta, tb)
    u, a = tolf(A.T if ta else A, B.T if tb else B, K)
    cases.append(case(name, "DML_OPERATOR_GEMM",
        {"ATensor": T("FLOAT32", A.reshape((1, 1) + A.shape)),
         "BTensor": T("FLOAT32", B.reshape((1, 1) + B.shape)),
         "CTensor": T("FLOAT32", np.broadcast_to(C, (M, N)).reshape(1, 1, M, N), strides=cstr)},
        {"OutputTensor": out("FLOAT32", ref.reshape(1, 1, M, N), u, a)},
        attrs={"TransA": ta, "TransB": tb, "Alpha": 0.5, "Beta": 2.0}))

# 2. Gemm with fused RELU, and C broadcast
A = rnd((M, K)); B = rnd((K, N)); C = rnd((N,))
ref = np.maximum(gemm_ref(A, B, np.broadcast_to(C, (M, N)), 1.0, 1.0, 0, 0), 0)
u, a = tolf(A, B, K)
cases.append(case("gemm-4d-fused-relu", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A.reshape(1, 1, M, K)), "BTensor": T("FLOAT32", B.reshape(1, 1, K, N)),
     "CTensor": T("FLOAT32", np.broadcast_to(C, (1, 1, M, N)), strides=[0, 0, 0, 1])},
    {"OutputTensor": out("FLOAT32", ref.reshape(1, 1, M, N), u, a)},
    attrs={"Alpha": 1.0, "Beta": 1.0, "FusedActivation": {"Type": "DML_OPERATOR_ACTIVATION_RELU"}}))

# 3. MatMul batch broadcast: A [2,3,2,4], B [4,5] -> B {2,3,4,5} strides {0,0,5,1}
A = rnd((2, 3, 2, 4)); B = rnd((4, 5))
ref = np.matmul(A, B); u, a = tolf(A, B, 4)
cases.append(case("matmul-batch-bcast-B", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A), "BTensor": T("FLOAT32", np.broadcast_to(B, (2, 3, 4, 5)), strides=[0, 0, 5, 1])},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# A [3,4] (broadcast) with B [2,1,4,5] -> out [2,1,3,5]
A = rnd((3, 4)); B = rnd((2, 1, 4, 5))
ref = np.matmul(A, B); u, a = tolf(A, B, 4)
cases.append(case("matmul-batch-bcast-A", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", np.broadcast_to(A, (2, 1, 3, 4)), strides=[0, 0, 4, 1]), "BTensor": T("FLOAT32", B)},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# batch dims broadcast both ways: A [2,1,3,4], B [1,3,4,2] -> [2,3,3,2]
A = rnd((2, 1, 3, 4)); B = rnd((1, 3, 4, 2))
ref = np.matmul(A, B); u, a = tolf(A, B, 4)
cases.append(case("matmul-batch-bcast-both", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", np.broadcast_to(A, (2, 3, 3, 4)), strides=[12, 0, 4, 1]),
     "BTensor": T("FLOAT32", np.broadcast_to(B, (2, 3, 4, 2)), strides=[0, 8, 2, 1])},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# 1-D A: [4] x [4,5] -> A {1,1,1,4}, out {1,1,1,5}
A = rnd((4,)); B = rnd((4, 5)); ref = A @ B; u, a = tolf(A[None], B, 4)
cases.append(case("matmul-1d-A", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A.reshape(1, 1, 1, 4)), "BTensor": T("FLOAT32", B.reshape(1, 1, 4, 5))},
    {"OutputTensor": out("FLOAT32", ref.reshape(1, 1, 1, 5), u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# 1-D B: [2,3,4] x [4] -> B [4,1] -> {2,1? } out shape [2,3,1] -> 4-D {1,2,3,1}; B {1,2,4,1} strides {0,0,1,0}
A = rnd((2, 3, 4)); B = rnd((4,)); ref = A @ B; u, a = tolf(A, B[:, None], 4)
cases.append(case("matmul-1d-B-batched", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A.reshape(1, 2, 3, 4)), "BTensor": T("FLOAT32", np.broadcast_to(B.reshape(4, 1), (1, 2, 4, 1)), strides=[0, 0, 1, 0])},
    {"OutputTensor": out("FLOAT32", ref.reshape(1, 2, 3, 1), u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# 5-D batched matmul (ORT passes the output rank through): A [2,2,2,3,4], B [4,5]
A = rnd((2, 2, 2, 3, 4)); B = rnd((4, 5)); ref = A @ B; u, a = tolf(A, B, 4)
cases.append(case("matmul-5d", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A), "BTensor": T("FLOAT32", np.broadcast_to(B, (2, 2, 2, 4, 5)), strides=[0, 0, 0, 5, 1])},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# FusedMatMul transA via strides (GetFusedMatMulSizesAndStrides): A physical [2,4,3] -> sizes {2,3,4} strides {12,1,3}; alpha 0.125
A = rnd((2, 4, 3)); B = rnd((2, 4, 5)); At = np.swapaxes(A, -1, -2); ref = 0.125 * (At @ B); u, a = tolf(At, B, 4)
cases.append(case("fusedmatmul-transA-strides", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", At, strides=[12, 1, 3]), "BTensor": T("FLOAT32", B)},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 0.125, "Beta": 0.0}))
# FusedMatMul transBatchB: B physical [4,2,5] (k, batch, n) -> sizes {2,4,5} strides {5,10,1}
A = rnd((2, 3, 4)); Bp = rnd((4, 2, 5)); Bl = np.transpose(Bp, (1, 0, 2)); ref = A @ Bl; u, a = tolf(A, Bl, 4)
cases.append(case("fusedmatmul-transBatchB-strides", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A), "BTensor": T("FLOAT32", Bl, strides=[5, 10, 1])},
    {"OutputTensor": out("FLOAT32", ref, u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# FLOAT16 gemm, C broadcast
A = rnd((1, 1, 3, 8), "FLOAT16"); B = rnd((1, 1, 8, 4), "FLOAT16"); C = rnd((4,), "FLOAT16")
ref = A @ B + C
s = (np.abs(A) @ np.abs(B)).max() + 1
cases.append(case("gemm-fp16-c-row", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT16", A), "BTensor": T("FLOAT16", B),
     "CTensor": T("FLOAT16", np.broadcast_to(C, (1, 1, 3, 4)), strides=[0, 0, 0, 1])},
    {"OutputTensor": out("FLOAT16", ref.astype(np.float16).astype(np.float64), 20, 12 * 2**-10 * s)},
    attrs={"Alpha": 1.0, "Beta": 1.0}))
# Gemm with C 2-D padded as {1,1,M,N} but Beta 0 (ONNX Gemm beta=0 still passes C)
A = rnd((3, 4)); B = rnd((4, 5)); C = rnd((5,)); ref = A @ B; u, a = tolf(A, B, 4)
cases.append(case("gemm-beta0-with-c", "DML_OPERATOR_GEMM",
    {"ATensor": T("FLOAT32", A.reshape(1, 1, 3, 4)), "BTensor": T("FLOAT32", B.reshape(1, 1, 4, 5)),
     "CTensor": T("FLOAT32", np.broadcast_to(C, (1, 1, 3, 5)), strides=[0, 0, 0, 1])},
    {"OutputTensor": out("FLOAT32", ref.reshape(1, 1, 3, 5), u, a)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
write("gemm.json", cases)
