# SPDX-License-Identifier: MIT
# One test model: dmlcl-dispatch runs MODEL (its outputs into a fresh OUTDIR), then
# dmlcl-dispatch-check compares them and its printed lines with EXPECTED.
# Inputs: DISPATCH, CHECK, MODEL, EXPECTED, OUTDIR.
file(REMOVE_RECURSE ${OUTDIR})
file(MAKE_DIRECTORY ${OUTDIR})
execute_process(COMMAND ${DISPATCH} --output_path ${OUTDIR} ${MODEL}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE ${OUTDIR}/stdout.txt "${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dmlcl-dispatch ${MODEL}: exit ${rc}\n${out}${err}")
endif()
execute_process(COMMAND ${CHECK} ${EXPECTED} ${OUTDIR} ${OUTDIR}/stdout.txt
                RESULT_VARIABLE rc OUTPUT_VARIABLE check)
message("${check}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dmlcl-dispatch ${MODEL}: wrong results (above); its output:\n${out}")
endif()
