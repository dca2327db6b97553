# Installs dmlcl into a scratch prefix and builds against it as users do,
# with nothing but `pkg-config --cflags --libs dmlcl`:
#  - the DirectML example (C++: #include <DirectML.h>, ComPtr, DMLCreateDevice), run;
#  - a C program with the C compiler only (C users need no C++ nor DirectX-Headers);
# and with CMake's find_package(dmlcl) and dmlcl::dmlcl, the example again.
# Inputs: BUILD_DIR, PREFIX, EXAMPLE, CXX, CC.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
file(GLOB_RECURSE pc_files ${PREFIX}/*/dmlcl.pc)
list(GET pc_files 0 pc)
get_filename_component(pc_dir ${pc} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
execute_process(COMMAND pkg-config --cflags --libs dmlcl OUTPUT_VARIABLE flags
                RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
if(rc)
  message(FATAL_ERROR "pkg-config --cflags --libs dmlcl failed")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
get_filename_component(libdir ${pc_dir} DIRECTORY)

execute_process(COMMAND ${CXX} -std=c++17 ${EXAMPLE} ${flags} -o ${PREFIX}/hello_directml
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "the example does not build with pkg-config's flags:\n${err}")
endif()
set(ENV{LD_LIBRARY_PATH} ${libdir})
execute_process(COMMAND ${PREFIX}/hello_directml RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(rc)
  message(FATAL_ERROR "the installed example failed (${rc}):\n${out}")
endif()

file(WRITE ${PREFIX}/c_user.c
     "#include <dmlcl/dmlcl.h>\n#include <stdio.h>\n"
     "int main(void) { printf(\"%s\\n\", dmlcl_version_string()); return dmlcl_version() == 0; }\n")
execute_process(COMMAND ${CC} -std=c11 ${PREFIX}/c_user.c ${flags} -o ${PREFIX}/c_user
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc)
  message(FATAL_ERROR "a C program does not build with the C compiler alone:\n${err}")
endif()
execute_process(COMMAND ${PREFIX}/c_user RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "the C program failed (${rc})")
endif()
file(WRITE ${PREFIX}/consumer/CMakeLists.txt
     "cmake_minimum_required(VERSION 3.16)\nproject(consumer LANGUAGES C CXX)\n"
     "set(CMAKE_CXX_STANDARD 17)\nfind_package(dmlcl REQUIRED)\n"
     "add_executable(hello ${EXAMPLE})\ntarget_link_libraries(hello PRIVATE dmlcl::dmlcl)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${PREFIX}/consumer -B ${PREFIX}/consumer/build
                        -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_C_COMPILER=${CC}
                        -DCMAKE_CXX_COMPILER=${CXX}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${PREFIX}/consumer/build
                  RESULT_VARIABLE rc OUTPUT_VARIABLE err ERROR_VARIABLE err)
endif()
if(rc)
  message(FATAL_ERROR "find_package(dmlcl) + dmlcl::dmlcl does not build the example:\n${err}")
endif()
execute_process(COMMAND ${PREFIX}/consumer/build/hello RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "the example built with find_package(dmlcl) failed (${rc})")
endif()
message(STATUS "installed dmlcl: the DirectML example (pkg-config and find_package) and a C "
               "program build and run")
