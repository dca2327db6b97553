/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_RANDOM_GENERATOR (DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10): OutputTensor filled
 * with Philox-4x32-10 bits. A kernel of the selection family (cl/misc.cl philox).
 *
 * The state (the page): words 0-3 a 128-bit counter, words 4-5 the 64-bit key. dmlcl's reading
 * of the layout: the counter little-endian (word 0 its least significant, Philox's ctr[0]), the
 * key word 4 then 5 (Philox's key[0], key[1]). Output element e (row-major over OutputTensor's
 * logical coordinates) is word e % 4 of the block Philox(counter + e / 4, key); the output
 * state, when bound, is the counter plus ceil(elements / 4), the page's increment, and the key
 * unchanged (the page's worked example of the increment does not add up: 0x74746c65 + 324855
 * is 0x7479615c, not the 0x746f776e it prints).
 *
 * The rules (the page's table, feature level 3.0): Type PHILOX_4X32_10; InputStateTensor and
 * OutputStateTensor UINT32 of Sizes {1, 1, 1, 6}; OutputTensor UINT32, 4 dimensions, any sizes.
 */
#include "misc.h"
#include "ops/common.h"

#define OP "RANDOM_GENERATOR"

static HRESULT state_rule(const char *field, const dmli_tensor *t)
{
    static const uint64_t want[4] = {1, 1, 1, 6};
    DMLI_INVALID_IF(t->type != DML_TENSOR_DATA_TYPE_UINT32, OP ": %s.DataType (%s) must be UINT32",
                    field, dmli_type_name(t->type));
    DMLI_INVALID_IF(t->rank != 4, OP ": %s.DimensionCount (%u) must be 4", field, t->rank);
    return dmli_ops_expect_sizes(OP, field, t, want,
                                 "{1, 1, 1, 6} (PHILOX_4X32_10's counter and key)");
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_RANDOM_GENERATOR_OPERATOR_DESC *d = desc;
    DMLI_INVALID_IF(d->Type != DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10,
                    OP ": Type (%d) must be DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10 (0)",
                    (int)d->Type);
    DMLI_TRY(dmli_tensor_import(OP, "InputStateTensor", d->InputStateTensor, DMLI_TENSOR_INPUT,
                                &st->inputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT,
                                &st->outputs[0]));
    DMLI_TRY(dmli_tensor_import(OP, "OutputStateTensor", d->OutputStateTensor,
                                DMLI_TENSOR_OUTPUT | DMLI_TENSOR_OPTIONAL, &st->outputs[1]));
    const dmli_tensor *out = &st->outputs[0];
    DMLI_TRY(state_rule("InputStateTensor", &st->inputs[0]));
    DMLI_INVALID_IF(out->type != DML_TENSOR_DATA_TYPE_UINT32,
                    OP ": OutputTensor.DataType (%s) must be UINT32", dmli_type_name(out->type));
    DMLI_INVALID_IF(out->rank != 4, OP ": OutputTensor.DimensionCount (%u) must be 4", out->rank);
    if (st->outputs[1].present)
        DMLI_TRY(state_rule("OutputStateTensor", &st->outputs[1]));
    st->n_inputs = 1;
    st->n_outputs = 2;
    st->input_names[0] = "InputStateTensor";
    st->output_names[0] = "OutputTensor";
    st->output_names[1] = "OutputStateTensor";
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    (void)desc;
    const dmli_tensor *state = &st->inputs[0], *out = &st->outputs[0], *next = &st->outputs[1];
    st->computed = true;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_MISC);
    dmli_compute_add(c, st, false, 0);
    dmli_compute_add(c, st, true, 0);
    if (next->present)
        dmli_compute_add(c, st, true, 1);
    dmli_misc *m = DMLI_COMPUTE_WORK(c, dmli_misc);
    m->kind = DMLI_MISC_PHILOX;
    m->type = DML_TENSOR_DATA_TYPE_UINT32;
    m->has_state = next->present;
    m->rank = (int)out->rank;
    for (uint32_t k = 0; k < out->rank; ++k) {
        m->size[k] = (int64_t)out->sizes[k];
        m->stride[0][k] = out->strides[k];
    }
    m->param[0] = state->strides[3];
    m->param[1] = next->present ? next->strides[3] : 0;
}

const dmli_op_steps dmli_op_random_generator = {.validate = validate, .lower = lower};
