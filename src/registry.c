/* The operators dmlcl implements (ops/registry.def) and the one way to create one. */
#include "internal.h"

static const dmlcl_op_class classes[] = {
#define DMLCL_OP(type_, name_, id) {.type = type_, .name = name_, .steps = &dmlcl_op_##id},
#include "ops/registry.def"
#undef DMLCL_OP
};

const dmlcl_op_class *dmlcl_op_class_find(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
        if (classes[i].type == type)
            return &classes[i];
    return NULL;
}

HRESULT dmlcl_op_class_create(const dmlcl_op_class *cls, const void *desc, dmlcl_op_state *st)
{
    const dmlcl_op_steps *s = cls->steps;
    DMLCL_TRY(s->validate(desc, st));
    if (s->infer)
        DMLCL_TRY(s->infer(desc, st));
    s->lower(desc, st);
    return S_OK;
}
