/* SPDX-License-Identifier: MIT */
/* The operators dmlcl implements (ops/registry.def), the one way to create one, and the
 * operator state's owned parts (multi-step lowering, slot names). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const dmli_op_class classes[] = {
#define DMLI_OP(type_, name_, id) {.type = type_, .name = name_, .steps = &dmli_op_##id},
#include "ops/registry.def"
#undef DMLI_OP
};

size_t dmli_op_class_count(void)
{
    return sizeof classes / sizeof classes[0];
}

const dmli_op_class *dmli_op_class_at(size_t i)
{
    return i < dmli_op_class_count() ? &classes[i] : NULL;
}

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
    st->n_steps = 0;
    st->steps = NULL;
    st->out_of_memory = false;
    HRESULT hr = s->validate(desc, st);
    if (SUCCEEDED(hr) && s->infer)
        hr = s->infer(desc, st);
    if (SUCCEEDED(hr)) {
        s->lower(desc, st);
        if (st->out_of_memory)
            hr = dmli_fail(E_OUTOFMEMORY, "%s: out of host memory for its kernel steps", cls->name);
    }
    if (FAILED(hr))
        dmli_op_state_release(st);
    return hr;
}

dmli_plan *dmli_op_add_step(dmli_op_state *st, int input, uint32_t output, dmli_plan_kind kind,
                            uint32_t elem_bytes)
{
    static _Thread_local dmli_plan discarded;
    dmli_op_step *grown = NULL;
    /* Capacity doubles at powers of two: no separate count to keep in step with n_steps. */
    uint32_t n = st->n_steps;
    if ((n & (n - 1)) == 0 && !st->out_of_memory) {
        grown = realloc(st->steps, (n ? 2 * (size_t)n : 1) * sizeof *st->steps);
        if (grown)
            st->steps = grown;
        else
            st->out_of_memory = true;
    }
    if (st->out_of_memory) {
        dmli_plan_init(&discarded, kind, elem_bytes);
        return &discarded;
    }
    dmli_op_step *step = &st->steps[st->n_steps++];
    memset(step, 0, sizeof *step);
    step->input = input;
    step->output = output;
    dmli_plan_init(&step->plan, kind, elem_bytes);
    return &step->plan;
}

void dmli_op_name_slots(dmli_op_state *st, bool outputs, uint32_t first, uint32_t count,
                        const char *field)
{
    for (uint32_t i = 0; i < count && first + i < DMLI_MAX_SLOTS; ++i) {
        char *name = st->slot_names[outputs][first + i];
        snprintf(name, DMLI_SLOT_NAME_BYTES, "%s[%u]", field, i);
        (outputs ? st->output_names : st->input_names)[first + i] = name;
    }
}

void dmli_op_state_release(dmli_op_state *st)
{
    free(st->steps);
    st->steps = NULL;
    st->n_steps = 0;
}

/* A name pointing into src's own storage points into dst's. */
static void rebase_names(dmli_op_state *dst, const dmli_op_state *src)
{
    uintptr_t lo = (uintptr_t)src->slot_names, hi = lo + sizeof src->slot_names;
    for (int k = 0; k < 2; ++k)
        for (uint32_t i = 0; i < DMLI_MAX_SLOTS; ++i) {
            const char **name = k ? &dst->output_names[i] : &dst->input_names[i];
            if ((uintptr_t)*name >= lo && (uintptr_t)*name < hi)
                *name = (const char *)dst->slot_names + ((uintptr_t)*name - lo);
        }
}

HRESULT dmli_op_state_copy(dmli_op_state *dst, const dmli_op_state *src)
{
    *dst = *src;
    dst->steps = NULL;
    rebase_names(dst, src);
    if (src->n_steps) {
        dst->steps = malloc(src->n_steps * sizeof *dst->steps);
        if (!dst->steps) {
            dst->n_steps = 0;
            return dmli_fail(E_OUTOFMEMORY, "out of host memory copying an operator's steps");
        }
        memcpy(dst->steps, src->steps, src->n_steps * sizeof *dst->steps);
    }
    return S_OK;
}
