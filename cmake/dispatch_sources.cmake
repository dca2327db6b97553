# SPDX-License-Identifier: MIT
# dmlcl-dispatch's sources but its main (tools/dispatch): the model, descriptor, graph and
# serialized-graph readers and the runner, which tools/CMakeLists.txt builds into the program
# and the fuzz driver (fuzz/dispatch.c) and the unit tests' replay of it compile in.
set(DMLCL_DISPATCH_READER_SOURCES
    ${PROJECT_SOURCE_DIR}/tools/dispatch/graph.c ${PROJECT_SOURCE_DIR}/tools/dispatch/model.c
    ${PROJECT_SOURCE_DIR}/tools/dispatch/ops.c ${PROJECT_SOURCE_DIR}/tools/dispatch/read.c
    ${PROJECT_SOURCE_DIR}/tools/dispatch/serialized.c ${PROJECT_SOURCE_DIR}/tools/dispatch/run.c
    ${PROJECT_SOURCE_DIR}/tools/dispatch/values.c)
