/* The operators dmlcl implements, by DML_OPERATOR_TYPE. */
#include "internal.h"

static const dmlcl_op_class *const classes[] = {
    &dmlcl_op_gather,
};

const dmlcl_op_class *dmlcl_op_class_find(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
        if (classes[i]->type == type)
            return classes[i];
    return NULL;
}
