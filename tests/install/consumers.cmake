# SPDX-License-Identifier: MIT
# Installs dmlcl into a scratch prefix, moves the prefix elsewhere (both
# packages must be relocatable), and builds against it as users do, with no
# flag but what the packages give:
#  - pkg-config: a C and a C++ program, each against dmlcl (shared) and
#    dmlcl-static (the archive), checked to link the library they asked for;
#    with DirectML's C++ API, the DirectML example too;
#  - CMake: find_package(dmlcl) with dmlcl::dmlcl and dmlcl::dmlcl_static,
#    the same programs (and the DirectML example).
# Every program is run; each computes a gather and compares it with the
# values the ONNX specification gives.
# Inputs: BUILD_DIR, PREFIX, SOURCES (this folder), EXAMPLE, HAVE_COM, CMAKE, CC, CXX.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE} --install ${BUILD_DIR} --prefix ${PREFIX}/staged
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
file(RENAME ${PREFIX}/staged ${PREFIX}/moved)
set(root ${PREFIX}/moved)
file(GLOB_RECURSE pc_files ${root}/*/dmlcl.pc)
list(GET pc_files 0 pc)
get_filename_component(pc_dir ${pc} DIRECTORY)
get_filename_component(libdir ${pc_dir} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
set(ENV{LD_LIBRARY_PATH} ${libdir})

function(run_program exe)
  execute_process(COMMAND ${exe} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "${exe} failed (${rc}):\n${out}${err}")
  endif()
endfunction()

# Whether exe loads libdmlcl.so (wanted: shared) or carries the library in itself.
function(check_linkage exe shared)
  execute_process(COMMAND readelf -d ${exe} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(rc)
    return() # no readelf: the run alone is checked
  endif()
  string(FIND "${dyn}" "libdmlcl.so" at)
  if(shared AND at EQUAL -1)
    message(FATAL_ERROR "${exe} should load libdmlcl.so:\n${dyn}")
  elseif(NOT shared AND NOT at EQUAL -1)
    message(FATAL_ERROR "${exe} should carry libdmlcl.a, yet loads libdmlcl.so")
  endif()
endfunction()

set(programs c:${CC}:-std=c11:consumer.c)
if(CXX)
  list(APPEND programs cxx:${CXX}:-std=c++17:consumer.cpp)
endif()
foreach(module dmlcl dmlcl-static)
  execute_process(COMMAND pkg-config --cflags --libs ${module} OUTPUT_VARIABLE flags
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc)
    message(FATAL_ERROR "pkg-config --cflags --libs ${module} failed")
  endif()
  if(NOT flags MATCHES "${root}")
    message(FATAL_ERROR "pkg-config ${module} does not point into the moved prefix: ${flags}")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  foreach(p ${programs})
    string(REPLACE ":" ";" p "${p}")
    list(GET p 0 lang)
    list(GET p 1 compiler)
    list(GET p 2 std)
    list(GET p 3 source)
    set(exe ${PREFIX}/pc-${lang}-${module})
    # -Werror: dmlcl's headers must add no warning to an application's build.
    execute_process(COMMAND ${compiler} ${std} -Wall -Werror ${SOURCES}/${source} ${flags}
                            -o ${exe}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc)
      message(FATAL_ERROR "${source} does not build with pkg-config ${module}:\n${err}")
    endif()
    if(module STREQUAL "dmlcl")
      check_linkage(${exe} TRUE)
    else()
      check_linkage(${exe} FALSE)
    endif()
    run_program(${exe})
  endforeach()
endforeach()

if(HAVE_COM)
  execute_process(COMMAND pkg-config --cflags --libs dmlcl OUTPUT_VARIABLE flags
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  execute_process(COMMAND ${CXX} -std=c++17 ${EXAMPLE} ${flags} -o ${PREFIX}/hello_directml
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc)
    message(FATAL_ERROR "the DirectML example does not build with pkg-config's flags:\n${err}")
  endif()
  run_program(${PREFIX}/hello_directml)
endif()

# The installed tools, run from the moved prefix: dmlcl-conformance with no
# PATH finds the installed cases beside it.
if(EXISTS ${root}/bin/dmlcl-conformance)
  execute_process(COMMAND ${root}/bin/dmlcl-conformance --filter "directml.gather.*"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc OR NOT out MATCHES "cases: ${root}/share/dmlcl/conformance"
     OR NOT out MATCHES "\n[1-9][0-9]* passed, 0 failed\n$")
    message(FATAL_ERROR "the installed dmlcl-conformance (exit ${rc}):\n${out}${err}")
  endif()
endif()
if(EXISTS ${root}/bin/dmlcl-info)
  run_program(${root}/bin/dmlcl-info)
endif()

# find_package: one project, every program, shared and static.
set(project ${PREFIX}/cmake-consumer)
set(languages C)
if(CXX)
  set(languages "C CXX")
endif()
string(CONCAT text "cmake_minimum_required(VERSION 3.16)\nproject(consumer LANGUAGES ${languages})\n"
         "set(CMAKE_CXX_STANDARD 17)\nfind_package(dmlcl REQUIRED)\n"
         "foreach(kind shared static)\n"
         "  set(lib dmlcl::dmlcl)\n"
         "  if(kind STREQUAL static)\n    set(lib dmlcl::dmlcl_static)\n  endif()\n"
         "  add_executable(c-\${kind} ${SOURCES}/consumer.c)\n"
         "  target_link_libraries(c-\${kind} PRIVATE \${lib})\n")
if(CXX)
  string(APPEND text "  add_executable(cxx-\${kind} ${SOURCES}/consumer.cpp)\n"
                     "  target_link_libraries(cxx-\${kind} PRIVATE \${lib})\n")
endif()
string(APPEND text "endforeach()\n")
if(HAVE_COM)
  string(APPEND text "add_executable(hello ${EXAMPLE})\n"
                     "target_link_libraries(hello PRIVATE dmlcl::dmlcl)\n")
endif()
file(WRITE ${project}/CMakeLists.txt "${text}")
set(ENV{LD_LIBRARY_PATH} "")
execute_process(COMMAND ${CMAKE} -S ${project} -B ${project}/build
                        -DCMAKE_PREFIX_PATH=${root} -DCMAKE_C_COMPILER=${CC}
                        -DCMAKE_CXX_COMPILER=${CXX}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc)
  execute_process(COMMAND ${CMAKE} --build ${project}/build
                  RESULT_VARIABLE rc OUTPUT_VARIABLE err ERROR_VARIABLE err)
endif()
if(rc)
  message(FATAL_ERROR "find_package(dmlcl) does not build the consumers:\n${err}")
endif()
set(built c-shared c-static)
if(CXX)
  list(APPEND built cxx-shared cxx-static)
endif()
if(HAVE_COM)
  list(APPEND built hello)
endif()
foreach(exe ${built})
  if(exe MATCHES "static")
    check_linkage(${project}/build/${exe} FALSE)
  else()
    check_linkage(${project}/build/${exe} TRUE)
  endif()
  run_program(${project}/build/${exe})
endforeach()
message(STATUS "installed dmlcl (prefix moved after install): consumer.c/.cpp built and run "
               "with pkg-config dmlcl and dmlcl-static; ${built} with find_package(dmlcl)")
