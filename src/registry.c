/* The operators dmlcl implements (ops/registry.def) and the one way to create one. */
#include "internal.h"

static const dmli_op_class classes[] = {
#define DMLI_OP(type_, name_, id) {.type = type_, .name = name_, .steps = &dmli_op_##id},
#include "ops/registry.def"
#undef DMLI_OP
};

const dmli_op_class *dmli_op_class_find(DML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; ++i)
        if (classes[i].type == type)
            return &classes[i];
    return NULL;
}

HRESULT dmli_op_class_create(const dmli_op_class *cls, const void *desc, dmli_op_state *st)
{
    const dmli_op_steps *s = cls->steps;
    DMLI_TRY(s->validate(desc, st));
    if (s->infer)
        DMLI_TRY(s->infer(desc, st));
    s->lower(desc, st);
    return S_OK;
}
