/* SPDX-License-Identifier: MIT */
/*
 * Builders for the selection family (src/ops/nonzero_coordinates.c, reverse_subsequences.c,
 * max_unpooling.c, random_generator.c):
 *   NONZERO_COORDINATES   inputs InputTensor, OutputCountTensor (optional description: absent,
 *                         the expected count's), OutputCoordinatesTensor (a description, its
 *                         Sizes {1, ..., 1, M, N}); expected OutputCountTensor and
 *                         OutputCoordinatesTensor with the defined rows only ({..., count, N}):
 *                         the rows past the count are undefined (DirectML's page), so they are
 *                         bound but not compared
 *   REVERSE_SUBSEQUENCES  inputs InputTensor, SequenceLengthsTensor, OutputTensor (optional
 *                         description); attr Axis
 *   MAX_UNPOOLING         inputs InputTensor, IndicesTensor, OutputTensor (optional description)
 *   RANDOM_GENERATOR      inputs InputStateTensor, OutputTensor (optional description); the
 *                         OutputStateTensor bound where expected (or described); attr Type (a
 *                         DML_RANDOM_GENERATOR_TYPE name or number, absent: PHILOX_4X32_10)
 * Every result is exact.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "runner.h"

/* Output `name` from inputs.<name> (a description) or the expected output; optional: NULL
 * without either (*absent set). */
static rt_tensor *output(rt_build *b, const char *name, bool optional, bool *absent)
{
    const rt_tensor *given = rt_input(b, name);
    const rt_tensor *src = given ? given : rt_expected(b, name);
    if (absent)
        *absent = false;
    if (given != NULL && given->elems != NULL) {
        rt_fail(b, "inputs.%s describes the output and takes no data", name);
        return NULL;
    }
    if (src == NULL) {
        if (optional) {
            *absent = true;
            return NULL;
        }
        rt_fail(b, "%s needs inputs.%s or an expected %s", b->c->op, name, name);
        return NULL;
    }
    return rt_add_output(b, name, src->type, src->rank, src->sizes,
                         src->has_strides ? src->strides : NULL);
}

static int build_nonzero(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "OutputCountTensor",
                                         "OutputCoordinatesTensor", NULL};
    static const char *const attrs[] = {NULL};
    static const char *const outputs[] = {"OutputCountTensor", "OutputCoordinatesTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_NONZERO_COORDINATES_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    rt_tensor *count = output(b, "OutputCountTensor", false, NULL);
    if (count == NULL)
        return -1;
    const rt_tensor *desc = rt_input(b, "OutputCoordinatesTensor");
    const rt_tensor *want = rt_expected(b, "OutputCoordinatesTensor");
    if (desc == NULL || desc->elems != NULL)
        return rt_fail(b, "inputs.OutputCoordinatesTensor must describe the coordinates "
                          "({1, ..., 1, M, N}, no data)");
    if (desc->rank < 2) { /* the operator refuses it: bound as described */
        rt_tensor *t = output(b, "OutputCoordinatesTensor", false, NULL);
        if (t == NULL)
            return -1;
        d->InputTensor = &in->desc;
        d->OutputCountTensor = &count->desc;
        d->OutputCoordinatesTensor = &t->desc;
        b->desc.Type = DML_OPERATOR_NONZERO_COORDINATES;
        b->desc.Desc = d;
        return 0;
    }
    const unsigned r = desc->rank;
    UINT sizes[RT_MAX_RANK], strides[RT_MAX_RANK];
    memcpy(sizes, desc->sizes, sizeof sizes);
    if (want != NULL) {
        if (want->rank != r || want->sizes[r - 2] > desc->sizes[r - 2])
            return rt_fail(b, "expected OutputCoordinatesTensor must have the described rank "
                              "and at most M rows (the defined ones)");
        memcpy(sizes, want->sizes, sizeof sizes);
    }
    /* The compared tensor: the defined rows, laid out as the described tensor's first rows. */
    UINT step = 1;
    for (unsigned k = r; k-- > 0;) {
        strides[k] = desc->has_strides ? desc->strides[k] : step;
        step *= desc->sizes[k];
    }
    rt_tensor *coords = rt_add_output(b, "OutputCoordinatesTensor", desc->type, r, sizes, strides);
    if (coords == NULL)
        return -1;
    DML_BUFFER_TENSOR_DESC *full = rt_alloc(b, sizeof *full);
    DML_TENSOR_DESC *full_desc = rt_alloc(b, sizeof *full_desc);
    UINT *full_sizes = rt_alloc(b, r * sizeof *full_sizes);
    UINT *full_strides = rt_alloc(b, r * sizeof *full_strides);
    memcpy(full_sizes, desc->sizes, r * sizeof *full_sizes);
    memcpy(full_strides, strides, r * sizeof *full_strides);
    *full = coords->buffer_desc;
    full->Sizes = full_sizes;
    full->Strides = full_strides;
    full->TotalTensorSizeInBytes =
        DMLCalcBufferTensorSize(full->DataType, r, full_sizes, full_strides);
    coords->buffer_desc.TotalTensorSizeInBytes = full->TotalTensorSizeInBytes;
    coords->buffer_size = full->TotalTensorSizeInBytes;
    full_desc->Type = DML_TENSOR_TYPE_BUFFER;
    full_desc->Desc = full;
    d->InputTensor = &in->desc;
    d->OutputCountTensor = &count->desc;
    d->OutputCoordinatesTensor = full_desc;
    b->desc.Type = DML_OPERATOR_NONZERO_COORDINATES;
    b->desc.Desc = d;
    return 0;
}

static int build_reverse(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "SequenceLengthsTensor", "OutputTensor",
                                         NULL};
    static const char *const attrs[] = {"Axis", NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    const rt_tensor *len = rt_data_input(b, "SequenceLengthsTensor");
    if (len == NULL || rt_bind_input(b, len))
        return -1;
    rt_tensor *out = output(b, "OutputTensor", false, NULL);
    if (out == NULL || rt_attr_uint(b, "Axis", 0, &d->Axis))
        return -1;
    d->InputTensor = &in->desc;
    d->SequenceLengthsTensor = &len->desc;
    d->OutputTensor = &out->desc;
    b->desc.Type = DML_OPERATOR_REVERSE_SUBSEQUENCES;
    b->desc.Desc = d;
    return 0;
}

static int build_unpool(rt_build *b)
{
    static const char *const inputs[] = {"InputTensor", "IndicesTensor", "OutputTensor", NULL};
    static const char *const attrs[] = {NULL};
    static const char *const outputs[] = {"OutputTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_MAX_UNPOOLING_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *in = rt_data_input(b, "InputTensor");
    if (in == NULL || rt_bind_input(b, in))
        return -1;
    const rt_tensor *idx = rt_data_input(b, "IndicesTensor");
    if (idx == NULL || rt_bind_input(b, idx))
        return -1;
    rt_tensor *out = output(b, "OutputTensor", false, NULL);
    if (out == NULL)
        return -1;
    d->InputTensor = &in->desc;
    d->IndicesTensor = &idx->desc;
    d->OutputTensor = &out->desc;
    b->desc.Type = DML_OPERATOR_MAX_UNPOOLING;
    b->desc.Desc = d;
    return 0;
}

static int attr_generator(rt_build *b, DML_RANDOM_GENERATOR_TYPE *out)
{
    const cJSON *v = rt_attr(b, "Type");
    *out = DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10;
    if (v == NULL)
        return 0;
    if (cJSON_IsNumber(v) && rt_json_integral(v, -2147483648.0, 2147483647.0)) {
        *out = (DML_RANDOM_GENERATOR_TYPE)v->valueint;
        return 0;
    }
    if (cJSON_IsString(v) &&
        strcmp(v->valuestring, "DML_RANDOM_GENERATOR_TYPE_PHILOX_4X32_10") == 0)
        return 0;
    return rt_fail(b, "attrs.Type must be a DML_RANDOM_GENERATOR_TYPE name or number");
}

static int build_random(rt_build *b)
{
    static const char *const inputs[] = {"InputStateTensor", "OutputTensor", "OutputStateTensor",
                                         NULL};
    static const char *const attrs[] = {"Type", NULL};
    static const char *const outputs[] = {"OutputTensor", "OutputStateTensor", NULL};
    if (rt_check_names(b, inputs, attrs, outputs))
        return -1;
    DML_RANDOM_GENERATOR_OPERATOR_DESC *d = rt_alloc(b, sizeof *d);
    const rt_tensor *state = rt_data_input(b, "InputStateTensor");
    if (state == NULL || rt_bind_input(b, state))
        return -1;
    rt_tensor *out = output(b, "OutputTensor", false, NULL);
    if (out == NULL)
        return -1;
    bool absent;
    rt_tensor *next = output(b, "OutputStateTensor", true, &absent);
    if (next == NULL && (!absent || rt_add_absent_output(b, "OutputStateTensor")))
        return -1;
    if (attr_generator(b, &d->Type))
        return -1;
    d->InputStateTensor = &state->desc;
    d->OutputTensor = &out->desc;
    d->OutputStateTensor = next ? &next->desc : NULL;
    b->desc.Type = DML_OPERATOR_RANDOM_GENERATOR;
    b->desc.Desc = d;
    return 0;
}

const rt_op rt_ops_misc[] = {
    {"DML_OPERATOR_NONZERO_COORDINATES", build_nonzero},
    {"DML_OPERATOR_REVERSE_SUBSEQUENCES", build_reverse},
    {"DML_OPERATOR_MAX_UNPOOLING", build_unpool},
    {"DML_OPERATOR_RANDOM_GENERATOR", build_random},
    {NULL, NULL},
};
