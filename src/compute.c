/* SPDX-License-Identifier: MIT */
/* The compute families' description (internal.h dmli_compute): the tensors an operator's one
 * kernel binds, in its argument order. */
#include <string.h>

#include "internal.h"

void dmli_compute_init(dmli_compute *c, dmli_compute_kind kind)
{
    memset(c, 0, sizeof *c);
    c->kind = kind;
}

void dmli_compute_add(dmli_compute *c, const dmli_op_state *st, bool output, uint32_t slot)
{
    const dmli_tensor *t = output ? &st->outputs[slot] : &st->inputs[slot];
    if (c->n_tensors >= DMLI_COMPUTE_MAX_TENSORS)
        return; /* the families list at most DMLI_COMPUTE_MAX_TENSORS (fixed per operator) */
    c->tensors[c->n_tensors++] = (dmli_compute_tensor){slot, output, t->type, 0};
    if (output && t->present && t->elements == 0)
        c->empty = true;
}
