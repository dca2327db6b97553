# SPDX-License-Identifier: MIT
# The command lines of the installed tools, as scripts use them:
#  - --help prints the usage on stdout and exits 0; --version prints the
#    project's version; an unknown option exits 2;
#  - dmlcl-info --json is one JSON object naming the default device, and its
#    text lists that device with the spec that picks it; DMLCL_DEVICE=spec
#    picks it (and a spec naming nothing is refused, split as a spec);
#  - dmlcl-bench --csv prints the CSV header and rows only (the device line
#    goes to stderr): every stdout line has the header's five fields;
#  - dmlcl-conformance --json is one JSON object whose counts match its cases.
# Inputs: INFO, BENCH, CONFORMANCE, DISPATCH (paths; BENCH and DISPATCH may be empty), VERSION.
function(run out_var rc_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${out}" PARENT_SCOPE)
  set(${rc_var} "${rc}" PARENT_SCOPE)
endfunction()

set(tools ${INFO} ${CONFORMANCE})
if(DISPATCH)
  list(APPEND tools ${DISPATCH})
endif()
if(BENCH)
  list(APPEND tools ${BENCH})
endif()
foreach(tool ${tools})
  get_filename_component(name ${tool} NAME)
  run(out rc ${tool} --help)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "^usage: ${name}")
    message(FATAL_ERROR "${name} --help: exit ${rc}, stdout:\n${out}")
  endif()
  run(out rc ${tool} --version)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL "${name} ${VERSION} (libdmlcl ${VERSION})\n")
    message(FATAL_ERROR "${name} --version: exit ${rc}, stdout:\n${out}")
  endif()
  run(out rc ${tool} --no-such-option)
  if(NOT rc EQUAL 2)
    message(FATAL_ERROR "${name} --no-such-option: exit ${rc}, not 2")
  endif()
endforeach()

run(out rc ${INFO} --json)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dmlcl-info --json: exit ${rc}:\n${out}")
endif()
string(JSON spec ERROR_VARIABLE err GET "${out}" default spec)
if(err)
  message(FATAL_ERROR "dmlcl-info --json: not JSON with default.spec (${err}):\n${out}")
endif()
string(JSON built GET "${out}" device cache built_again)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "dmlcl-info: compiling the samples again built ${built} programs")
endif()
# --operators: the registry, without a device; JSON lists the same.
run(ops rc ${INFO} --operators)
foreach(op DML_OPERATOR_ELEMENT_WISE_ADD1 DML_OPERATOR_ACTIVATION_GELU DML_OPERATOR_CAST
        DML_OPERATOR_GATHER DMLCL_OPERATOR_BROADCAST)
  string(FIND "${ops}" "  ${op}\n" at)
  if(NOT rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "dmlcl-info --operators (exit ${rc}) does not list ${op}:\n${ops}")
  endif()
endforeach()
run(ops_json rc ${INFO} --operators --json)
string(JSON n ERROR_VARIABLE err LENGTH "${ops_json}" operators)
string(REGEX MATCHALL "\n  DMLC?L?_OPERATOR_" lines "${ops}")
list(LENGTH lines n_text)
if(err OR NOT n EQUAL n_text)
  message(FATAL_ERROR "dmlcl-info --operators --json: ${n} operators (${err}), text ${n_text}")
endif()

run(text rc ${INFO})
string(FIND "${text}" "* ${spec} " at)
if(at EQUAL -1)
  message(FATAL_ERROR "dmlcl-info does not mark the default device ${spec}:\n${text}")
endif()

# DMLCL_DEVICE set to a spec dmlcl-info printed picks that device, for that reason;
# one naming no device is refused with the platform and device it was split into.
run(out rc ${CMAKE_COMMAND} -E env DMLCL_PLATFORM= DMLCL_DEVICE=${spec} ${INFO} --json)
string(JSON again ERROR_VARIABLE err GET "${out}" default spec)
string(JSON why ERROR_VARIABLE err GET "${out}" default reason)
if(NOT rc EQUAL 0 OR NOT again STREQUAL spec OR NOT why MATCHES "^DMLCL_DEVICE=")
  message(FATAL_ERROR "DMLCL_DEVICE=${spec} dmlcl-info --json: exit ${rc}:\n${out}")
endif()
run(out rc ${CMAKE_COMMAND} -E env DMLCL_PLATFORM= DMLCL_DEVICE=97:98 ${INFO})
if(rc EQUAL 0 OR NOT out MATCHES "platform \"97\" and device \"98\"")
  message(FATAL_ERROR "DMLCL_DEVICE=97:98 dmlcl-info: exit ${rc}:\n${out}")
endif()

if(BENCH)
  run(out rc ${BENCH} --csv --filter small-row-gather)
  string(REGEX REPLACE "\n$" "" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  list(LENGTH lines n)
  list(GET lines 0 header)
  # The first five columns are fixed; the method's columns follow (docs/performance.md).
  if(NOT rc EQUAL 0 OR n LESS 2 OR NOT header MATCHES "^workload,bytes,dmlcl_s,limit_s,ratio(,|$)")
    message(FATAL_ERROR "dmlcl-bench --csv: exit ${rc}, stdout:\n${out}")
  endif()
  # Every line a row of the header's width: nothing else on stdout.
  string(REGEX REPLACE "[^,]" "" header_commas "${header}")
  foreach(line ${lines})
    string(REGEX REPLACE "[^,]" "" commas "${line}")
    if(NOT commas STREQUAL header_commas OR NOT line MATCHES "^[^,]+(,[^,]+)+$")
      message(FATAL_ERROR "dmlcl-bench --csv: not a CSV row of the header's width: ${line}")
    endif()
  endforeach()
endif()

run(out rc ${CONFORMANCE} --json --filter "directml.gather.*")
string(JSON passed ERROR_VARIABLE err GET "${out}" passed)
if(err OR NOT rc EQUAL 0)
  message(FATAL_ERROR "dmlcl-conformance --json: exit ${rc} (${err}):\n${out}")
endif()
string(JSON failed GET "${out}" failed)
string(JSON cases LENGTH "${out}" cases)
math(EXPR total "${passed} + ${failed}")
if(NOT total EQUAL cases OR cases EQUAL 0)
  message(FATAL_ERROR "dmlcl-conformance --json: ${passed} + ${failed} != ${cases} cases")
endif()
message(STATUS "tools: --help, --version, dmlcl-info (default ${spec}), bench CSV, "
               "conformance JSON (${cases} cases) as documented")
