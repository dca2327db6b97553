/* runtime.c's internals shared with execute.c. */
#ifndef DMLCL_RUNTIME_H
#define DMLCL_RUNTIME_H

#include "internal.h"

/* The compiled operator's state, with its operator's name and device (borrowed). */
const dmlcl_op_state *dmlcl_compiled_operator_state(const dmlcl_compiled_operator *compiled,
                                                    const char **name, dmlcl_device **device);

#endif /* DMLCL_RUNTIME_H */
