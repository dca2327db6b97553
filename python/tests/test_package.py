# SPDX-License-Identifier: MIT
"""The package itself: devices, errors, loading, and the room it gives the
C front-ends' result struct."""
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import dmlcl
from dmlcl import _native

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_version_is_the_library_version():
    assert dmlcl.version == dmlcl.__version__


def test_device_by_spec_and_default():
    d = dmlcl.Device("0:0")
    assert " / " in d.description and d.device_class in ("cpu", "gpu", "accelerator")
    out = dmlcl.gather(np.arange(4), [3, 1], device=d)
    assert out.tolist() == [3, 1]
    dmlcl.set_device(d)
    assert dmlcl.get_device() is d
    dmlcl.set_device(None)


def test_unknown_device_raises_with_the_message():
    with pytest.raises(dmlcl.InvalidArgumentError, match="no OpenCL device matches"):
        dmlcl.Device("no-such-device-name")


def test_bad_library_path_is_an_import_error():
    env = dict(os.environ, DMLCL_LIBRARY="/nonexistent/libdmlcl.so")
    r = subprocess.run([sys.executable, "-c", "import dmlcl"], env=env, capture_output=True,
                       text=True)
    assert r.returncode != 0 and "DMLCL_LIBRARY" in r.stderr


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="complex"):
        dmlcl.gather(np.ones(3, np.complex64), [0])


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_result_room_covers_the_c_struct(tmp_path):
    """FRONTEND_RESULT_BYTES must exceed sizeof(dmlcl_frontend_result), and
    desc and output_shape must sit where FrontendResultHead says."""
    src = tmp_path / "probe.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <dmlcl/frontends.h>\n"
                   "int main(void) { printf(\"%zu %zu\", sizeof(dmlcl_frontend_result), "
                   "offsetof(dmlcl_frontend_result, output_shape)); return 0; }\n")
    exe = tmp_path / "probe"
    subprocess.run(["cc", "-std=c11", f"-I{ROOT}/include", str(src), "-o", str(exe)], check=True)
    size, offset = map(int, subprocess.run([str(exe)], capture_output=True, text=True,
                                           check=True).stdout.split())
    assert size < _native.FRONTEND_RESULT_BYTES
    assert offset == _native.FrontendResultHead.output_shape.offset
