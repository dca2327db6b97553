/* The operators dmlcl implements, by DML_OPERATOR_TYPE. */
#include "internal.h"

static const dmlcl_op_class *const classes[] = {
    &dmlcl_op_gather,    &dmlcl_op_identity,        &dmlcl_op_broadcast,
    &dmlcl_op_gather1,   &dmlcl_op_gather_elements, &dmlcl_op_gather_elements1,
    &dmlcl_op_gather_nd, &dmlcl_op_gather_nd1,      &dmlcl_op_gather_nd2,
    &dmlcl_op_slice,     &dmlcl_op_slice1,          &dmlcl_op_strided_slice,
};

const dmlcl_op_class *dmlcl_op_class_find(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
        if (classes[i]->type == type)
            return classes[i];
    return NULL;
}
