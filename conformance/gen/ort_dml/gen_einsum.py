# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/einsum.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
F = "FLOAT32"
a = rnd((4,)); b = rnd((5,))
cases.append(case("einsum-outer-product-k1", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, a.reshape(1, 1, 4, 1)), "BTensor": T(F, b.reshape(1, 1, 1, 5))},
    {"OutputTensor": out(F, np.outer(a, b).reshape(1, 1, 4, 5), 4)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
a = rnd((6,)); b = rnd((6,))
cases.append(case("einsum-inner-product-transB", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, a.reshape(1, 1, 1, 6)), "BTensor": T(F, b.reshape(1, 1, 1, 6))},
    {"OutputTensor": out(F, np.array(a @ b).reshape(1, 1, 1, 1), 16, 1e-6)}, attrs={"Alpha": 1.0, "Beta": 0.0, "TransB": "DML_MATRIX_TRANSFORM_TRANSPOSE"}))
A = rnd((2, 3, 4)); B = rnd((2, 5, 4))
cases.append(case("einsum-bij-bkj-transB-3d-as-4d", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, A.reshape(1, 2, 3, 4)), "BTensor": T(F, B.reshape(1, 2, 5, 4))},
    {"OutputTensor": out(F, np.einsum("bij,bkj->bik", A, B).reshape(1, 2, 3, 5), 12, 1e-6)}, attrs={"Alpha": 1.0, "Beta": 0.0, "TransB": "DML_MATRIX_TRANSFORM_TRANSPOSE"}))
# transA + transB with strided (permuted) A: aibj -> [a,b,i,j] strides
A = rnd((1, 3, 2, 4)); B = rnd((1, 4, 2, 5))  # aibj, ajbk
def perm_strides(shape):
    st = [int(np.prod(shape[i+1:])) for i in range(len(shape))]
    return [st[0], st[2], st[1], st[3]]
Av = np.transpose(A, (0, 2, 1, 3)); Bv = np.transpose(B, (0, 2, 1, 3))
cases.append(case("einsum-nhcw-strided-inputs", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, Av, strides=perm_strides(A.shape)), "BTensor": T(F, Bv, strides=perm_strides(B.shape))},
    {"OutputTensor": out(F, Av @ Bv, 12, 1e-6)}, attrs={"Alpha": 1.0, "Beta": 0.0}))
# GEMM TransA with a transposed-strided A ("double transpose")
A = rnd((1, 1, 3, 4))  # logical A^T view: sizes {1,1,4,3}? give A physically [3,4], view sizes {1,1,3,4} strides {0,0,1,3}
Ap = rnd((4, 3))  # physical
Alog = Ap.T  # sizes 3x4 logical
B = rnd((3, 5))
cases.append(case("gemm-transA-of-strided-view", "DML_OPERATOR_GEMM",
    {"ATensor": T(F, Alog.reshape(1, 1, 3, 4), strides=[0, 0, 1, 3]), "BTensor": T(F, B.reshape(1, 1, 3, 5))},
    {"OutputTensor": out(F, (Alog.T @ B).reshape(1, 1, 4, 5), 10, 1e-6)}, attrs={"Alpha": 1.0, "Beta": 0.0, "TransA": "DML_MATRIX_TRANSFORM_TRANSPOSE"}))
x = rnd((3, 4))
cases.append(case("einsum-reducesum-ij-j", "DML_OPERATOR_REDUCE", {"InputTensor": T(F, x)},
    {"OutputTensor": out(F, x.sum(axis=0, keepdims=True), 6, 1e-6)}, attrs={"Function": "DML_REDUCE_FUNCTION_SUM", "Axes": [0]}))
write("einsum.json", cases)
