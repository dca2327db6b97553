# SPDX-License-Identifier: MIT
"""Writes conformance/cases/ort-dml/cast.json (see common.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
cases = []
def c(name, ti, xi, to, yo, tol=None):
    cases.append(case("cast-" + name, "DML_OPERATOR_CAST", {"InputTensor": T(ti, np.array(xi).reshape(1, 1, 1, -1))},
                      {"OutputTensor": out(to, np.array(yo, dtype=np.float64 if to.startswith("FLOAT") else object).reshape(1, 1, 1, -1), tol)}))
c("f32-f16-overflow-ties", "FLOAT32", [70000.0, -70000.0, 65519.0, 65520.0, 1.0009765625 + 2**-11, 1 + 2**-11, 1e-8, 3e-5], "FLOAT16",
  [np.inf, -np.inf, 65504.0, np.inf, float(np.float16(1.0009765625 + 2**-11)), float(np.float16(1 + 2**-11)), 0.0, float(np.float16(3e-5))])
c("i32-f16-rounding", "INT32", [2049, 2051, 65504, 65520, -3], "FLOAT16", [2048.0, 2052.0, 65504.0, np.inf, -3.0])
c("f16-i32", "FLOAT16", [-2.75, 1000.5, -0.0, 3.0], "INT32", [-2, 1000, 0, 3])
c("u8-f16", "UINT8", [0, 1, 255, 7], "FLOAT16", [0.0, 1.0, 255.0, 7.0])
c("i64-f16", "INT64", [-5, 4097, 1 << 40, 12], "FLOAT16", [-5.0, 4096.0, np.inf, 12.0])
c("f32-i8", "FLOAT32", [-128.9, 127.9, -1.5, 0.99], "INT8", [-128, 127, -1, 0])
c("i32-u8", "INT32", [0, 255, 1, 100], "UINT8", [0, 255, 1, 100])
c("u64-f32", "UINT64", np.array([0, 18446744073709551615, 1 << 40, 3], dtype=np.uint64), "FLOAT32", [0.0, 1.8446744073709552e19, float(1 << 40), 3.0])
c("i64-u32", "INT64", [0, 4294967295, 7, 1], "UINT32", [0, 4294967295, 7, 1])
c("f16-u8", "FLOAT16", [0.0, 1.0, 200.0, 3.5], "UINT8", [0, 1, 200, 3])
c("f64-f32", "FLOAT64", [1.0000000001, -2.5, 1e300, 3.0], "FLOAT32", [1.0, -2.5, np.inf, 3.0])
write("cast.json", cases)
