# SPDX-License-Identifier: MIT
# Refused models (DIR/expected.txt: "model.json message" per line): dmlcl-dispatch must exit 1
# with "dmlcl-dispatch: MODEL: message" and "nothing was dispatched" on stderr, and must not
# have dispatched or printed anything. Inputs: DISPATCH, DIR.
file(STRINGS ${DIR}/expected.txt lines)
set(failures "")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  string(FIND "${line}" " " space)
  string(SUBSTRING "${line}" 0 ${space} model)
  math(EXPR start "${space} + 1")
  string(SUBSTRING "${line}" ${start} -1 message)
  execute_process(COMMAND ${DISPATCH} ${DIR}/${model} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  string(FIND "${err}" "dmlcl-dispatch: ${DIR}/${model}: ${message}" at)
  string(FIND "${err}" "${DIR}/${model}: nothing was dispatched" nothing)
  if(NOT rc EQUAL 1 OR at EQUAL -1 OR nothing EQUAL -1 OR out MATCHES "Dispatch '|Resource '")
    string(APPEND failures "${model}: exit ${rc}, want the message\n  ${message}\nstderr:\n${err}stdout:\n${out}\n")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
message("${count} models refused, each with its message")
