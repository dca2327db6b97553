# SPDX-License-Identifier: MIT
"""Builds libdmlcl with CMake from the repository around this folder and puts
it inside the package, so that `pip install ./python` works on a machine with
OpenCL (the ICD loader and its headers) and CMake, and nothing of dmlcl
installed. DMLCL_PYTHON_BUILD=0 skips the build: the package then loads the
library from DMLCL_LIBRARY or the system (an installed libdmlcl)."""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        if os.environ.get("DMLCL_PYTHON_BUILD", "1") == "0":
            return
        if not os.path.isfile(os.path.join(ROOT, "CMakeLists.txt")):
            raise RuntimeError("dmlcl: the repository (CMakeLists.txt) is not beside python/; "
                               "install libdmlcl and set DMLCL_PYTHON_BUILD=0")
        build = os.path.join(HERE, "build", "libdmlcl")
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                               "-DDMLCL_BUILD_TESTS=OFF", "-DDMLCL_BUILD_CONFORMANCE=OFF",
                               "-DDMLCL_BUILD_TOOLS=OFF", "-DDMLCL_BUILD_BENCH=OFF",
                               "-DDMLCL_BUILD_EXAMPLES=OFF", "-DDMLCL_COM=OFF"])
        jobs = str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", build, "--target", "dmlcl", "-j", jobs])
        target = os.path.join(self.build_lib, "dmlcl")
        for lib in glob.glob(os.path.join(build, "libdmlcl.so*")):
            if not os.path.islink(lib):
                shutil.copy(lib, os.path.join(target, "libdmlcl.so"))


class BinaryDistribution(Distribution):
    """The wheel carries a shared library: tagged for this platform."""

    def has_ext_modules(self):
        return os.environ.get("DMLCL_PYTHON_BUILD", "1") != "0"


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
