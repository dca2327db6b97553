/* SPDX-License-Identifier: MIT */
/*
 * DML_JOIN, DML_SPLIT and their extension twins JOIN1 / SPLIT1 on the host:
 * the documented examples are valid, every rule of DirectML's pages (and of
 * dmlcl/ext_join.h) has a test that breaks it and checks the HRESULT and that
 * the message names the operator and the field, and the lowering (one view
 * step per piece, at the piece's offset along the axis) is checked against
 * offsets computed by hand.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "support.h"

#define MAXP 70

typedef struct join {
    unit_tensor one;
    unit_tensor pieces[MAXP];
    DML_TENSOR_DESC descs[MAXP];
    union {
        DML_JOIN_OPERATOR_DESC join;
        DML_SPLIT_OPERATOR_DESC split;
        DMLCL_JOIN1_OPERATOR_DESC join1;
        DMLCL_SPLIT1_OPERATOR_DESC split1;
    } d;
    DML_OPERATOR_DESC op;
} join;

/*
 * count pieces of rank dims `sizes`, each with axis size lens[i], and the
 * single tensor with their sum along axis; type for all.
 */
static void make(join *j, DML_OPERATOR_TYPE type, DML_TENSOR_DATA_TYPE dt, UINT rank,
                 const UINT *sizes, UINT axis, UINT count, const UINT *lens)
{
    memset(j, 0, sizeof *j);
    UINT s[UNIT_MAX_DIMS], sum = 0;
    memcpy(s, sizes, rank * sizeof *s);
    for (UINT i = 0; i < count; ++i) {
        s[axis] = lens[i];
        sum += lens[i];
        j->descs[i] = *unit_tensor_set(&j->pieces[i], dt, rank, s, NULL);
    }
    s[axis] = sum;
    const DML_TENSOR_DESC *one = unit_tensor_set(&j->one, dt, rank, s, NULL);
    bool split = type == DML_OPERATOR_SPLIT || type == DMLCL_OPERATOR_SPLIT1;
    if (split)
        j->d.split = (DML_SPLIT_OPERATOR_DESC){one, count, j->descs, axis};
    else
        j->d.join = (DML_JOIN_OPERATOR_DESC){count, j->descs, one, axis};
    j->op = (DML_OPERATOR_DESC){type, &j->d};
}

/* Re-points the descs after a piece changed (unit_tensor_set copies). */
static void refit_piece(join *j, UINT i)
{
    unit_tensor_fit(&j->pieces[i]);
    j->descs[i] = j->pieces[i].desc;
}

static HRESULT create(const DML_OPERATOR_DESC *desc)
{
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, desc, &op);
    if (SUCCEEDED(hr))
        dmlcl_operator_release(op);
    else
        cr_expect_null(op, "a failed create must not return an operator");
    return hr;
}

#define EXPECT(j, want, ...)                                               \
    do {                                                                   \
        const char *const needles_[] = {__VA_ARGS__, NULL};                \
        unit_expect_needles(create(&(j)->op), (want), needles_, __LINE__); \
    } while (0)

static const UINT s1126[] = {1, 1, 2, 6};

/* ---- Documented examples ---------------------------------------------------------------- */

Test(join_validate, documented_examples)
{
    join j;
    /* JOIN example 1: {1,1,2,3} + {1,1,2,4} on axis 3. */
    make(&j, DML_OPERATOR_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s1126, 3, 2, (UINT[]){3, 4});
    EXPECT(&j, S_OK, "");
    /* JOIN example 2: three {1,1,2,2} on axes 1, 2, 3. */
    for (UINT axis = 1; axis < 4; ++axis) {
        UINT s[] = {1, 1, 2, 2};
        make(&j, DML_OPERATOR_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s, axis, 3,
             (UINT[]){s[axis], s[axis], s[axis]});
        EXPECT(&j, S_OK, "");
    }
    /* SPLIT example 1 (axis 2 into 2, 1, 3) and 2 (axis 3 into 1, 1). */
    UINT s[] = {1, 1, 6, 2};
    make(&j, DML_OPERATOR_SPLIT, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s, 2, 3, (UINT[]){2, 1, 3});
    EXPECT(&j, S_OK, "");
    make(&j, DML_OPERATOR_SPLIT, DML_TENSOR_DATA_TYPE_FLOAT32, 4, s, 3, 2, (UINT[]){1, 1});
    EXPECT(&j, S_OK, "");
}

/* ---- Rules -------------------------------------------------------------------------------- */

static const DML_OPERATOR_TYPE all_types[] = {DML_OPERATOR_JOIN, DML_OPERATOR_SPLIT,
                                              DMLCL_OPERATOR_JOIN1, DMLCL_OPERATOR_SPLIT1};
static const char *const type_names[] = {"JOIN", "SPLIT", "JOIN1", "SPLIT1"};
static const char *const count_names[] = {"InputCount", "OutputCount", "InputCount", "OutputCount"};
static const char *const list_names[] = {"InputTensors", "OutputTensors", "InputTensors",
                                         "OutputTensors"};
static const char *const one_names[] = {"OutputTensor", "InputTensor", "OutputTensor",
                                        "InputTensor"};

static UINT *count_of(join *j, int t)
{
    return t & 1 ? &j->d.split.OutputCount : &j->d.join.InputCount;
}

static const DML_TENSOR_DESC **list_of(join *j, int t)
{
    return t & 1 ? &j->d.split.OutputTensors : &j->d.join.InputTensors;
}

static UINT *axis_of(join *j, int t)
{
    return t & 1 ? &j->d.split.Axis : &j->d.join.Axis;
}

Test(join_validate, count_zero_null_and_too_many)
{
    static join j;
    UINT lens[MAXP];
    for (UINT i = 0; i < MAXP; ++i)
        lens[i] = 1;
    for (int t = 0; t < 4; ++t) {
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_INT32, 2, (UINT[]){2, 3}, 1, 2, lens);
        *count_of(&j, t) = 0;
        EXPECT(&j, E_INVALIDARG, type_names[t], count_names[t], "greater than 0");
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_INT32, 2, (UINT[]){2, 3}, 1, 2, lens);
        *list_of(&j, t) = NULL;
        EXPECT(&j, E_INVALIDARG, type_names[t], list_names[t], "NULL");
        /* 64 pieces is dmlcl's most; 65 is unsupported, not invalid. */
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_INT32, 2, (UINT[]){2, 3}, 1, 64, lens);
        EXPECT(&j, S_OK, "");
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_INT32, 2, (UINT[]){2, 3}, 1, 65, lens);
        EXPECT(&j, DXGI_ERROR_UNSUPPORTED, type_names[t], count_names[t], "65");
    }
}

Test(join_validate, type_rank_axis_and_sizes)
{
    join j;
    for (int t = 0; t < 4; ++t) {
        const char *op = type_names[t];
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
             (UINT[]){1, 2, 3});
        unit_tensor_set_type(&j.pieces[1], DML_TENSOR_DATA_TYPE_INT16);
        refit_piece(&j, 1);
        EXPECT(&j, E_INVALIDARG, op, "[1].DataType", "INT16");

        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
             (UINT[]){1, 2, 3});
        j.pieces[2].buf.DimensionCount = 2;
        refit_piece(&j, 2);
        EXPECT(&j, E_INVALIDARG, op, "[2].DimensionCount");

        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
             (UINT[]){1, 2, 3});
        *axis_of(&j, t) = 3;
        EXPECT(&j, E_INVALIDARG, op, "Axis (3)", one_names[t]);

        /* A size off the axis differs. */
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
             (UINT[]){1, 2, 3});
        j.pieces[1].sizes[2] = 5;
        refit_piece(&j, 1);
        EXPECT(&j, E_INVALIDARG, op, "[1].Sizes[2] (5)", "only the Axis");

        /* The axis sizes sum to less, then more. */
        for (int more = 0; more < 2; ++more) {
            make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
                 (UINT[]){1, 2, 3});
            j.one.sizes[1] = more ? 7 : 5;
            unit_tensor_fit(&j.one);
            EXPECT(&j, E_INVALIDARG, op, "sum to 6", one_names[t]);
        }
        /* The single tensor absent. */
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_FLOAT16, 3, (UINT[]){2, 3, 4}, 1, 3,
             (UINT[]){1, 2, 3});
        if (t & 1)
            j.d.split.InputTensor = NULL;
        else
            j.d.join.OutputTensor = NULL;
        EXPECT(&j, E_INVALIDARG, op, one_names[t]);
    }
}

Test(join_validate, directml_tensor_rules_and_extension_ones)
{
    join j;
    UINT big[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2};
    for (int t = 0; t < 4; ++t) {
        bool ext = t >= 2;
        const char *op = type_names[t];
        /* A zero size: extension only (an empty piece takes no part). */
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_UINT8, 2, (UINT[]){2, 3}, 1, 3,
             (UINT[]){1, 0, 2});
        if (ext)
            EXPECT(&j, S_OK, "");
        else
            EXPECT(&j, E_INVALIDARG, op, "[1].Sizes[1] (0)");
        /* Extension types. */
        make(&j, all_types[t], DMLCL_TENSOR_DATA_TYPE_BOOLEAN, 2, (UINT[]){2, 3}, 0, 2,
             (UINT[]){1, 1});
        if (ext)
            EXPECT(&j, S_OK, "");
        else
            EXPECT(&j, DXGI_ERROR_UNSUPPORTED, op, "BOOLEAN");
        /* 16 dimensions. */
        make(&j, all_types[t], DML_TENSOR_DATA_TYPE_UINT64, 16, big, 15, 2, (UINT[]){1, 1});
        if (ext)
            EXPECT(&j, S_OK, "");
        else
            EXPECT(&j, E_INVALIDARG, op, "DimensionCount (16)");
    }
}

/* A SPLIT output whose own elements overlap: the import's output rule (dmlcl refuses it). */
Test(join_validate, output_strides_that_overlap)
{
    join j;
    make(&j, DML_OPERATOR_SPLIT, DML_TENSOR_DATA_TYPE_FLOAT32, 2, (UINT[]){2, 3}, 1, 2,
         (UINT[]){1, 2});
    unit_tensor_set_strides(&j.pieces[1], (UINT[]){1, 1});
    refit_piece(&j, 1);
    EXPECT(&j, DXGI_ERROR_UNSUPPORTED, "SPLIT", "OutputTensors[1]");
}

/* ---- Lowering ---------------------------------------------------------------------------- */

static dmli_op_state *lowered(const DML_OPERATOR_DESC *desc)
{
    dmli_op_state *st = calloc(1, sizeof *st);
    cr_assert_not_null(st);
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    cr_assert_not_null(cls);
    HRESULT hr = dmli_op_class_create(cls, desc->Desc, st);
    cr_assert_eq(hr, S_OK, "%s", dmlcl_last_error());
    return st;
}

static void expect_step(const dmli_op_state *st, uint32_t k, int input, uint32_t output,
                        int64_t in_offset, int64_t out_offset, const int64_t *size, int rank)
{
    cr_assert_gt(st->n_steps, k);
    const dmli_op_step *s = &st->steps[k];
    cr_expect_eq(s->input, input, "step %u reads input %d, want %d", k, s->input, input);
    cr_expect_eq(s->output, output, "step %u writes output %u, want %u", k, s->output, output);
    cr_expect_eq(s->plan.kind, DMLI_PLAN_VIEW);
    cr_expect_eq(s->plan.in_offset, in_offset, "step %u in_offset %lld, want %lld", k,
                 (long long)s->plan.in_offset, (long long)in_offset);
    cr_expect_eq(s->plan.out_offset, out_offset, "step %u out_offset %lld, want %lld", k,
                 (long long)s->plan.out_offset, (long long)out_offset);
    cr_assert_eq(s->plan.rank, rank);
    for (int d = 0; d < rank; ++d)
        cr_expect_eq(s->plan.size[d], size[d], "step %u size[%d]", k, d);
}

Test(join_lower, one_view_per_piece_at_its_offset)
{
    join j;
    /* JOIN example 2 on axis 2: output {1,1,6,2}, packed strides {12,12,2,1}. */
    make(&j, DML_OPERATOR_JOIN, DML_TENSOR_DATA_TYPE_FLOAT32, 4, (UINT[]){1, 1, 2, 2}, 2, 3,
         (UINT[]){2, 2, 2});
    dmli_op_state *st = lowered(&j.op);
    cr_assert_eq(st->n_steps, 3);
    for (uint32_t k = 0; k < 3; ++k)
        expect_step(st, k, (int)k, 0, 0, 4 * k, (int64_t[]){1, 1, 2, 2}, 4);
    dmli_op_state_release(st);
    free(st);

    /* SPLIT example 1: input {1,1,6,2} on axis 2 into 2, 1, 3: input offsets 0, 4, 6. */
    make(&j, DML_OPERATOR_SPLIT, DML_TENSOR_DATA_TYPE_FLOAT32, 4, (UINT[]){1, 1, 6, 2}, 2, 3,
         (UINT[]){2, 1, 3});
    st = lowered(&j.op);
    cr_assert_eq(st->n_steps, 3);
    expect_step(st, 0, 0, 0, 0, 0, (int64_t[]){1, 1, 2, 2}, 4);
    expect_step(st, 1, 0, 1, 4, 0, (int64_t[]){1, 1, 1, 2}, 4);
    expect_step(st, 2, 0, 2, 6, 0, (int64_t[]){1, 1, 3, 2}, 4);
    dmli_op_state_release(st);
    free(st);
}

Test(join_lower, strided_single_tensor_and_empty_pieces)
{
    join j;
    /* JOIN1 on axis 0 of {_, 3}, output rows 8 elements apart; the empty piece has no step. */
    make(&j, DMLCL_OPERATOR_JOIN1, DML_TENSOR_DATA_TYPE_INT8, 2, (UINT[]){0, 3}, 0, 3,
         (UINT[]){2, 0, 1});
    unit_tensor_set_strides(&j.one, (UINT[]){8, 1});
    dmli_op_state *st = lowered(&j.op);
    cr_assert_eq(st->n_steps, 2);
    expect_step(st, 0, 0, 0, 0, 0, (int64_t[]){2, 3}, 2);
    expect_step(st, 1, 2, 0, 0, 16, (int64_t[]){1, 3}, 2);
    cr_expect_eq(st->steps[1].plan.out_stride[0], 8);
    dmli_op_state_release(st);
    free(st);

    /* Everything empty: no step, an empty plan. */
    make(&j, DMLCL_OPERATOR_SPLIT1, DML_TENSOR_DATA_TYPE_INT8, 2, (UINT[]){0, 0}, 1, 2,
         (UINT[]){0, 0});
    st = lowered(&j.op);
    cr_expect_eq(st->n_steps, 0);
    dmli_plan p = st->plan;
    dmli_plan_normalize(&p);
    cr_expect(p.empty, "an empty split launches nothing");
    dmli_op_state_release(st);
    free(st);
}
