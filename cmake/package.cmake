# SPDX-License-Identifier: MIT
# Debian package (cpack -G DEB; scripts/package-check builds, inspects and
# installs it): the library (shared and static), headers, CMake and
# pkg-config files, the tools and the conformance cases, in one package.
set(CPACK_PACKAGE_NAME dmlcl)
set(CPACK_PACKAGE_VENDOR "the dmlcl authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "DirectML's operator model on OpenCL")
set(CPACK_PACKAGE_DESCRIPTION
    "dmlcl runs DirectML's data-movement operators (gathers, slices, broadcasts, strided\n\
copies) as OpenCL kernels on any OpenCL 1.2 device, with DirectML's descriptors and\n\
object model, the OpenVINO and ONNX front-ends, and DirectML's C++ API.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "the dmlcl authors")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# Run-time libraries from the binaries themselves (libOpenCL, libc, libcjson
# for dmlcl-conformance), then what building against dmlcl needs: OpenCL's
# headers and pkg-config file, and DirectX-Headers when <DirectML.h> needs them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(DMLCL_DEB_DEPENDS "ocl-icd-libopencl1 | libopencl1, ocl-icd-opencl-dev | opencl-dev, opencl-c-headers")
if(DMLCL_HAVE_COM)
  string(APPEND DMLCL_DEB_DEPENDS ", directx-headers-dev")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${DMLCL_DEB_DEPENDS}")
# A device to run on: PoCL on the CPU, or any vendor's ICD.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
include(CPack)
