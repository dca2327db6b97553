/* SPDX-License-Identifier: MIT */
/*
 * The operator state's owned parts (src/registry.c): steps appended in
 * order with their slots and initialised plans, generated slot names, and a
 * deep copy that outlives its source (a graph node's copy of an operator).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static dmli_op_state *new_state(void)
{
    dmli_op_state *st = calloc(1, sizeof *st);
    cr_assert(st);
    return st;
}

Test(op_steps, appended_in_order_with_their_slots)
{
    dmli_op_state *st = new_state();
    /* Past several capacity doublings (1, 2, 4, ... 64). */
    for (int i = 0; i < 37; ++i) {
        dmli_plan *p = dmli_op_add_step(st, i % 3 == 0 ? DMLI_STEP_CONSTANT : i % 5,
                                        (uint32_t)(i % 7), DMLI_PLAN_VIEW, 4);
        dmli_plan_push(p, i + 1, 1, 0, 0, 0);
    }
    cr_assert_eq(st->n_steps, 37);
    cr_assert_not(st->out_of_memory);
    for (int i = 0; i < 37; ++i) {
        const dmli_op_step *s = &st->steps[i];
        cr_expect_eq(s->input, i % 3 == 0 ? DMLI_STEP_CONSTANT : i % 5, "step %d", i);
        cr_expect_eq(s->output, (uint32_t)(i % 7), "step %d", i);
        cr_expect_eq(s->plan.kind, DMLI_PLAN_VIEW);
        cr_expect_eq(s->plan.elem_bytes, 4);
        cr_expect_eq(s->plan.rank, 1);
        cr_expect_eq(s->plan.size[0], i + 1, "step %d", i);
    }
    dmli_op_state_release(st);
    cr_expect_eq(st->n_steps, 0);
    cr_expect_null(st->steps);
    free(st);
}

Test(op_steps, slot_names_and_deep_copy)
{
    dmli_op_state *st = new_state(), *copy = new_state();
    st->n_inputs = 3;
    st->n_outputs = 1;
    dmli_op_name_slots(st, false, 0, 3, "InputTensors");
    st->output_names[0] = "OutputTensor";
    cr_expect_str_eq(st->input_names[0], "InputTensors[0]");
    cr_expect_str_eq(st->input_names[2], "InputTensors[2]");
    dmli_plan_push(dmli_op_add_step(st, 2, 0, DMLI_PLAN_VIEW, 2), 5, 1, 1, 0, 0);
    cr_assert_eq(dmli_op_state_copy(copy, st), S_OK);
    /* The copy owns its names and steps: the source may change or go. */
    memset(st->slot_names, 'x', sizeof st->slot_names);
    st->steps[0].input = 0;
    dmli_op_state_release(st);
    free(st);
    cr_expect_str_eq(copy->input_names[1], "InputTensors[1]");
    cr_expect_str_eq(copy->output_names[0], "OutputTensor");
    cr_assert_eq(copy->n_steps, 1);
    cr_expect_eq(copy->steps[0].input, 2);
    cr_expect_eq(copy->steps[0].plan.size[0], 5);
    dmli_op_state_release(copy);
    free(copy);
}
