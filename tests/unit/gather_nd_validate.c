/* SPDX-License-Identifier: MIT */
/*
 * Host-only validation and lowering of the gathers beyond DML_GATHER:
 * DML_GATHER_ELEMENTS, DML_GATHER_ND, DML_GATHER_ND1 (directml-facts.md
 * 4.5-4.7) and the extensions DMLCL_GATHER1, DMLCL_GATHER_ELEMENTS1,
 * DMLCL_GATHER_ND2 (dmlcl/ext_gather.h). Every rule has a test that breaks it
 * and checks the HRESULT and that the message names the operator and field;
 * the lowering tests read the plan an operator class builds (batch dims step
 * all three tensors, ND reads tuple components at the last-dim stride).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "internal.h"
#include "support.h"

#define N(a) ((UINT)(sizeof(a) / sizeof((a)[0])))

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC op = {type, desc};
    dmlcl_operator *o = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &op, &o);
    dmlcl_operator_release(o);
    return hr;
}

/* The operator fails with hr and a message containing every fragment. */
static void expect_fail(DML_OPERATOR_TYPE type, const void *desc, HRESULT hr, const char *a,
                        const char *b)
{
    unit_expect_error(create(type, desc), hr, a, b);
}

/* The plan an operator class lowers to (normalised when asked). */
static dmli_op_state lowered(DML_OPERATOR_TYPE type, const void *desc, bool normalize)
{
    dmli_op_state st;
    memset(&st, 0, sizeof st);
    const dmli_op_class *cls = dmli_op_class_find(type);
    cr_assert(cls != NULL);
    cr_assert_eq(dmli_op_class_create(cls, desc, &st), S_OK, "%s", dmlcl_last_error());
    if (normalize)
        dmli_plan_normalize(&st.plan);
    return st;
}

/* ---- GATHER_ELEMENTS ------------------------------------------------------------------ */

typedef struct elements {
    unit_tensor in, idx, out;
    DML_GATHER_ELEMENTS_OPERATOR_DESC d;
} elements;

/* facts 4.5: Input {3,3}, Indices {2,3}, Axis 0 -> Output {2,3}. */
static void elements_init(elements *e)
{
    static const UINT in[] = {3, 3}, idx[] = {2, 3};
    e->d.InputTensor = unit_tensor_set(&e->in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, NULL);
    e->d.IndicesTensor = unit_tensor_set(&e->idx, DML_TENSOR_DATA_TYPE_UINT32, 2, idx, NULL);
    e->d.OutputTensor = unit_tensor_set(&e->out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, idx, NULL);
    e->d.Axis = 0;
}

Test(gather_elements_validate, documented_example_is_valid)
{
    elements e;
    elements_init(&e);
    cr_expect_eq(create(DML_OPERATOR_GATHER_ELEMENTS, &e.d), S_OK, "%s", dmlcl_last_error());
}

Test(gather_elements_validate, output_type_must_match_input)
{
    elements e;
    elements_init(&e);
    static const UINT s[] = {2, 3};
    e.d.OutputTensor =
        unit_tensor_set(&e.out, DML_TENSOR_DATA_TYPE_UINT32, 2, s, NULL); /* the page's DOC-BUG */
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "GATHER_ELEMENTS",
                "OutputTensor.DataType (UINT32)");
}

Test(gather_elements_validate, axis_range)
{
    elements e;
    elements_init(&e);
    e.d.Axis = 2;
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "Axis (2)", "DimensionCount");
}

Test(gather_elements_validate, indices_sizes_off_axis)
{
    elements e;
    elements_init(&e);
    static const UINT s[] = {2, 2};
    e.d.IndicesTensor = unit_tensor_set(&e.idx, DML_TENSOR_DATA_TYPE_UINT32, 2, s, NULL);
    e.d.OutputTensor = unit_tensor_set(&e.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL);
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "IndicesTensor.Sizes[1] (2)",
                "InputTensor.Sizes[1] (3)");
}

Test(gather_elements_validate, output_sizes_are_indices_sizes)
{
    elements e;
    elements_init(&e);
    static const UINT s[] = {3, 3};
    e.d.OutputTensor = unit_tensor_set(&e.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL);
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "OutputTensor.Sizes ({3,3})",
                "{2,3}");
}

Test(gather_elements_validate, ranks_and_types)
{
    elements e;
    elements_init(&e);
    static const UINT s3[] = {1, 2, 3};
    e.d.IndicesTensor = unit_tensor_set(&e.idx, DML_TENSOR_DATA_TYPE_UINT32, 3, s3, NULL);
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "IndicesTensor.DimensionCount",
                NULL);
    elements_init(&e);
    e.in.buf.DataType = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, DXGI_ERROR_UNSUPPORTED, "extension type", NULL);
    elements_init(&e);
    static const UINT s[] = {2, 3};
    e.d.IndicesTensor = unit_tensor_set(&e.idx, DML_TENSOR_DATA_TYPE_INT16, 2, s, NULL);
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "IndicesTensor.DataType (INT16)",
                NULL);
}

Test(gather_elements_validate, zero_sizes_are_invalid_in_directml)
{
    elements e;
    elements_init(&e);
    static const UINT s[] = {0, 3};
    e.d.IndicesTensor = unit_tensor_set(&e.idx, DML_TENSOR_DATA_TYPE_UINT32, 2, s, NULL);
    e.d.OutputTensor = unit_tensor_set(&e.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL);
    expect_fail(DML_OPERATOR_GATHER_ELEMENTS, &e.d, E_INVALIDARG, "Sizes[0] (0)", NULL);
}

Test(gather_elements_lower, every_dim_steps_indices_and_output)
{
    elements e;
    elements_init(&e);
    static const UINT in_strides[] = {1, 3}; /* column-major input */
    unit_tensor_set_strides(&e.in, in_strides);
    dmli_op_state st = lowered(DML_OPERATOR_GATHER_ELEMENTS, &e.d, false);
    const dmli_plan *p = &st.plan;
    cr_assert_eq(p->kind, DMLI_PLAN_INDEXED);
    cr_assert_eq(p->rank, 2);
    cr_expect_eq(p->in_stride[0], 0, "the axis dim reads the input through the index");
    cr_expect_eq(p->in_stride[1], 3);
    cr_expect_eq(p->idx_stride[0], 3);
    cr_expect_eq(p->idx_stride[1], 1);
    cr_expect_eq(p->axis_size[0], 3);
    cr_expect_eq(p->axis_stride[0], 1);
    cr_expect_eq(p->policy, DMLI_OOR_CLAMP);
    cr_expect(p->wrap_negative);
}

/* ---- GATHER_ND, GATHER_ND1 ----------------------------------------------------------------- */

typedef struct nd {
    unit_tensor in, idx, out;
    DML_GATHER_ND1_OPERATOR_DESC d;
} nd;

/* facts 4.7 example 2: Input {1,3,2,2}, Indices {1,3,2,2}, counts 3, 3, batch 1 -> {1,1,3,2}. */
static void nd_init(nd *n)
{
    static const UINT in[] = {1, 3, 2, 2}, out[] = {1, 1, 3, 2};
    n->d.InputTensor = unit_tensor_set(&n->in, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL);
    n->d.IndicesTensor = unit_tensor_set(&n->idx, DML_TENSOR_DATA_TYPE_UINT32, 4, in, NULL);
    n->d.OutputTensor = unit_tensor_set(&n->out, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
    n->d.InputDimensionCount = 3;
    n->d.IndicesDimensionCount = 3;
    n->d.BatchDimensionCount = 1;
}

Test(gather_nd_validate, documented_examples_are_valid)
{
    nd n;
    nd_init(&n);
    cr_expect_eq(create(DML_OPERATOR_GATHER_ND1, &n.d), S_OK, "%s", dmlcl_last_error());
    /* GATHER_ND: Input {3,4,5,6,7}, Indices {1,1,1,2,3}, counts 5 and 3 -> {1,1,2,6,7}. */
    static const UINT in[] = {3, 4, 5, 6, 7}, idx[] = {1, 1, 1, 2, 3}, out[] = {1, 1, 2, 6, 7};
    DML_GATHER_ND_OPERATOR_DESC d = {
        unit_tensor_set(&n.in, DML_TENSOR_DATA_TYPE_INT8, 5, in, NULL),
        unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT64, 5, idx, NULL),
        unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_INT8, 5, out, NULL), 5, 3};
    cr_expect_eq(create(DML_OPERATOR_GATHER_ND, &d), S_OK, "%s", dmlcl_last_error());
    /* The page's formula slices the input's last m dims (DOC-BUG): {1,2} ++ {5,6,7}. */
    static const UINT wrong[] = {1, 2, 5, 6, 7};
    d.OutputTensor = unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_INT8, 5, wrong, NULL);
    expect_fail(DML_OPERATOR_GATHER_ND, &d, E_INVALIDARG, "OutputTensor.Sizes ({1,2,5,6,7})",
                "{1,1,2,6,7}");
}

Test(gather_nd_validate, dimension_counts)
{
    nd n;
    nd_init(&n);
    n.d.InputDimensionCount = 0;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "GATHER_ND1: InputDimensionCount (0)",
                NULL);
    nd_init(&n);
    n.d.InputDimensionCount = 5;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "InputDimensionCount (5)", "(4)");
    nd_init(&n);
    n.d.IndicesDimensionCount = 0;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "IndicesDimensionCount (0)", NULL);
    nd_init(&n);
    n.d.InputDimensionCount = 2; /* InputTensor.Sizes[1] (3) is then padding */
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "InputTensor.Sizes[1] (3) must be 1",
                "InputDimensionCount");
}

Test(gather_nd_validate, batch_rules)
{
    nd n;
    nd_init(&n);
    n.d.BatchDimensionCount = 3;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "BatchDimensionCount (3)", NULL);
    nd_init(&n);
    static const UINT in[] = {1, 2, 2, 2};
    n.d.InputTensor = unit_tensor_set(&n.in, DML_TENSOR_DATA_TYPE_FLOAT32, 4, in, NULL);
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "batch dimension 0",
                "IndicesTensor.Sizes[1] (3)");
}

Test(gather_nd_validate, tuple_length)
{
    nd n;
    nd_init(&n);
    static const UINT idx[] = {1, 3, 2, 3}, out[] = {1, 1, 3, 2};
    n.d.IndicesTensor = unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_UINT32, 4, idx, NULL);
    n.d.OutputTensor = unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "IndicesTensor.Sizes[3] (3)",
                "coordinate tuple length");
}

Test(gather_nd_validate, shared_dimension_count_and_types)
{
    nd n;
    nd_init(&n);
    static const UINT idx[] = {3, 2, 2};
    n.d.IndicesTensor = unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_UINT32, 3, idx, NULL);
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "IndicesTensor.DimensionCount (3)",
                NULL);
    nd_init(&n);
    n.idx.buf.DataType = DML_TENSOR_DATA_TYPE_FLOAT32;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "IndicesTensor.DataType (FLOAT32)",
                NULL);
    nd_init(&n);
    n.out.buf.DataType = DML_TENSOR_DATA_TYPE_FLOAT16;
    expect_fail(DML_OPERATOR_GATHER_ND1, &n.d, E_INVALIDARG, "OutputTensor.DataType (FLOAT16)",
                NULL);
}

Test(gather_nd_validate, output_sizes_crop_leading_ones_only)
{
    /* Input {2,2}, Indices {2,2} (full 2-tuples): output meaningful {2} -> {1,2}. */
    nd n;
    static const UINT s[] = {2, 2}, out[] = {1, 2}, bad[] = {2, 1};
    DML_GATHER_ND_OPERATOR_DESC d = {
        unit_tensor_set(&n.in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL),
        unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT32, 2, s, NULL),
        unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out, NULL), 2, 2};
    cr_expect_eq(create(DML_OPERATOR_GATHER_ND, &d), S_OK, "%s", dmlcl_last_error());
    d.OutputTensor = unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, bad, NULL);
    expect_fail(DML_OPERATOR_GATHER_ND, &d, E_INVALIDARG, "OutputTensor.Sizes ({2,1})", "{1,2}");
}

Test(gather_nd_lower, tuple_components_and_batch)
{
    nd n;
    nd_init(&n);
    dmli_op_state st = lowered(DML_OPERATOR_GATHER_ND1, &n.d, false);
    const dmli_plan *p = &st.plan;
    cr_assert_eq(p->kind, DMLI_PLAN_INDEXED);
    cr_expect_eq(p->components, 2, "the tuple length");
    cr_expect_eq(p->comp_idx_stride, 1, "the indices' last-dim stride");
    cr_expect_eq(p->comp_pos_stride, 1);
    cr_expect_eq(p->axis_size[0], 2);
    cr_expect_eq(p->axis_size[1], 2);
    cr_expect_eq(p->axis_stride[0], 2);
    cr_expect_eq(p->axis_stride[1], 1);
    /* The batch dim (3) steps input, indices and output. */
    int batch = -1;
    for (int d = 0; d < p->rank; ++d)
        if (p->size[d] == 3)
            batch = d;
    cr_assert_geq(batch, 0);
    cr_expect_eq(p->in_stride[batch], 4);
    cr_expect_eq(p->idx_stride[batch], 4);
    cr_expect_eq(p->out_stride[batch], 2);
}

Test(gather_nd_lower, strided_tuples)
{
    /* Indices {2,2} stored column-major: components are 2 index elements apart. */
    nd n;
    static const UINT s[] = {2, 2}, out[] = {1, 2}, col[] = {1, 2};
    DML_GATHER_ND_OPERATOR_DESC d = {
        unit_tensor_set(&n.in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, s, NULL),
        unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT32, 2, s, NULL),
        unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out, NULL), 2, 2};
    unit_tensor_set_strides(&n.idx, col);
    dmli_op_state st = lowered(DML_OPERATOR_GATHER_ND, &d, true);
    cr_expect_eq(st.plan.comp_idx_stride, 2);
    cr_expect_eq(st.plan.components, 2);
}

/* ---- The extensions ---------------------------------------------------------------------------
 */

typedef struct g1 {
    unit_tensor in, idx, out;
    DMLCL_GATHER1_OPERATOR_DESC d;
} g1;

/* OpenVINO Gather-8's IR example: data {2,64,128}, indices {2,32,21}, batch 1, axis 1. */
static void g1_init(g1 *g)
{
    static const UINT in[] = {2, 64, 128}, idx[] = {2, 32, 21}, out[] = {2, 32, 21, 128};
    g->d.InputTensor = unit_tensor_set(&g->in, DML_TENSOR_DATA_TYPE_FLOAT32, 3, in, NULL);
    g->d.IndicesTensor = unit_tensor_set(&g->idx, DML_TENSOR_DATA_TYPE_INT8, 3, idx, NULL);
    g->d.OutputTensor = unit_tensor_set(&g->out, DML_TENSOR_DATA_TYPE_FLOAT32, 4, out, NULL);
    g->d.Axis = 1;
    g->d.IndexDimensions = 3;
    g->d.BatchDimensionCount = 1;
    g->d.OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_ZERO;
    g->d.AllowNegativeIndices = 1;
}

Test(gather1_validate, ir_example_is_valid)
{
    g1 g;
    g1_init(&g);
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER1, &g.d), S_OK, "%s", dmlcl_last_error());
}

Test(gather1_validate, rules)
{
    g1 g;
    g1_init(&g);
    g.d.BatchDimensionCount = 2;
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "GATHER1: BatchDimensionCount (2)",
                "Axis (1)");
    g1_init(&g);
    g.d.Axis = 3;
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "Axis (3)", NULL);
    g1_init(&g);
    g.d.IndexDimensions = 4;
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "IndexDimensions (4)", NULL);
    g1_init(&g);
    g.d.IndexDimensions = 2; /* IndicesTensor.Sizes[0] (2) is then padding */
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "IndicesTensor.Sizes[0] (2)", NULL);
    g1_init(&g);
    g.d.OutOfRangePolicy = (DMLCL_OUT_OF_RANGE_POLICY)7;
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "OutOfRangePolicy (7)", NULL);
    g1_init(&g);
    g.idx.buf.DataType = DMLCL_TENSOR_DATA_TYPE_BOOLEAN;
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "IndicesTensor.DataType (BOOLEAN)",
                NULL);
    g1_init(&g);
    static const UINT idx[] = {3, 32, 21};
    g.d.IndicesTensor = unit_tensor_set(&g.idx, DML_TENSOR_DATA_TYPE_INT32, 3, idx, NULL);
    expect_fail(DMLCL_OPERATOR_GATHER1, &g.d, E_INVALIDARG, "batch dimension 0",
                "IndicesTensor.Sizes[0] (3)");
}

Test(gather1_validate, output_padding_and_scalars)
{
    /* Data {5}, a scalar index (IndexDimensions 0): a 0-D result is {1}, or {1,1}. */
    g1 g;
    static const UINT in[] = {5}, one[] = {1}, ones[] = {1, 1}, two[] = {2};
    DMLCL_GATHER1_OPERATOR_DESC d = {
        unit_tensor_set(&g.in, DML_TENSOR_DATA_TYPE_FLOAT32, 1, in, NULL),
        unit_tensor_set(&g.idx, DML_TENSOR_DATA_TYPE_INT64, 1, one, NULL),
        unit_tensor_set(&g.out, DML_TENSOR_DATA_TYPE_FLOAT32, 1, one, NULL),
        0,
        0,
        0,
        DMLCL_OUT_OF_RANGE_POLICY_ERROR,
        0};
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER1, &d), S_OK, "%s", dmlcl_last_error());
    d.OutputTensor = unit_tensor_set(&g.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, ones, NULL);
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER1, &d), S_OK, "%s", dmlcl_last_error());
    d.OutputTensor = unit_tensor_set(&g.out, DML_TENSOR_DATA_TYPE_FLOAT32, 1, two, NULL);
    expect_fail(DMLCL_OPERATOR_GATHER1, &d, E_INVALIDARG, "OutputTensor.Sizes ({2})", "{1}");
}

Test(gather1_validate, extension_types_and_empty_tensors)
{
    g1 g;
    static const UINT in[] = {0, 3}, idx[] = {2}, out[] = {2, 3}, e_idx[] = {0}, e_out[] = {0, 3};
    DMLCL_GATHER1_OPERATOR_DESC d = {
        unit_tensor_set(&g.in, DMLCL_TENSOR_DATA_TYPE_COMPLEX128, 2, in, NULL),
        unit_tensor_set(&g.idx, DML_TENSOR_DATA_TYPE_UINT16, 1, idx, NULL),
        unit_tensor_set(&g.out, DMLCL_TENSOR_DATA_TYPE_COMPLEX128, 2, out, NULL),
        0,
        1,
        0,
        DMLCL_OUT_OF_RANGE_POLICY_ZERO,
        1};
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER1, &d), S_OK, "ZERO on an empty axis: %s",
                 dmlcl_last_error());
    d.OutOfRangePolicy = DMLCL_OUT_OF_RANGE_POLICY_CLAMP;
    expect_fail(DMLCL_OPERATOR_GATHER1, &d, E_INVALIDARG, "CLAMP", "InputTensor.Sizes[Axis = 0]");
    d.IndicesTensor = unit_tensor_set(&g.idx, DML_TENSOR_DATA_TYPE_UINT16, 1, e_idx, NULL);
    d.OutputTensor = unit_tensor_set(&g.out, DMLCL_TENSOR_DATA_TYPE_COMPLEX128, 2, e_out, NULL);
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER1, &d), S_OK, "CLAMP, empty output: %s",
                 dmlcl_last_error());
    g.in.buf.DataType = DMLCL_TENSOR_DATA_TYPE_STRING;
    g.out.buf.DataType = DMLCL_TENSOR_DATA_TYPE_STRING;
    expect_fail(DMLCL_OPERATOR_GATHER1, &d, DXGI_ERROR_UNSUPPORTED, "STRING", NULL);
}

Test(gather1_lower, batch_dims_step_all_three_tensors)
{
    g1 g;
    g1_init(&g);
    dmli_op_state st = lowered(DMLCL_OPERATOR_GATHER1, &g.d, false);
    const dmli_plan *p = &st.plan;
    cr_assert_eq(p->rank, 4);
    /* output dims: batch (2), index dims (32, 21), then the input's 128. */
    cr_expect_eq(p->size[0], 2);
    cr_expect_eq(p->in_stride[0], 64 * 128);
    cr_expect_eq(p->idx_stride[0], 32 * 21);
    cr_expect_eq(p->out_stride[0], 32 * 21 * 128);
    cr_expect_eq(p->in_stride[1], 0);
    cr_expect_eq(p->idx_stride[1], 21);
    cr_expect_eq(p->idx_stride[3], 0);
    cr_expect_eq(p->in_stride[3], 1);
    cr_expect_eq(p->axis_size[0], 64);
    cr_expect_eq(p->axis_stride[0], 128);
    cr_expect_eq(p->idx_type, DMLI_INDEX_INT8);
    cr_expect_eq(p->policy, DMLI_OOR_ZERO);
    dmli_plan_normalize(&st.plan);
    cr_expect_eq(st.plan.rank, 3, "the two index dims merge");
}

Test(gather_elements1_validate, policy_and_extension_rules)
{
    elements e;
    elements_init(&e);
    DMLCL_GATHER_ELEMENTS1_OPERATOR_DESC d = {e.d.InputTensor, e.d.IndicesTensor, e.d.OutputTensor,
                                              0, DMLCL_OUT_OF_RANGE_POLICY_ERROR};
    e.in.buf.DataType = DMLCL_TENSOR_DATA_TYPE_BFLOAT16;
    e.out.buf.DataType = DMLCL_TENSOR_DATA_TYPE_BFLOAT16;
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER_ELEMENTS1, &d), S_OK, "%s", dmlcl_last_error());
    dmli_op_state st = lowered(DMLCL_OPERATOR_GATHER_ELEMENTS1, &d, false);
    cr_expect_eq(st.plan.policy, DMLI_OOR_ERROR);
    d.OutOfRangePolicy = (DMLCL_OUT_OF_RANGE_POLICY)-1;
    expect_fail(DMLCL_OPERATOR_GATHER_ELEMENTS1, &d, E_INVALIDARG, "GATHER_ELEMENTS1",
                "OutOfRangePolicy (-1)");
}

Test(gather_nd2_validate, ranks_may_differ)
{
    /* ONNX GatherND data [2,3] (r 2), indices [4,1] (q 2) -> [4,3]; and a 0-D result. */
    nd n;
    static const UINT in[] = {2, 3}, idx[] = {4, 1}, out[] = {4, 3};
    DMLCL_GATHER_ND2_OPERATOR_DESC d = {
        unit_tensor_set(&n.in, DML_TENSOR_DATA_TYPE_FLOAT32, 2, in, NULL),
        unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT64, 2, idx, NULL),
        unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 2, out, NULL),
        2,
        2,
        0,
        DMLCL_OUT_OF_RANGE_POLICY_ERROR};
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER_ND2, &d), S_OK, "%s", dmlcl_last_error());
    static const UINT idx2[] = {2}, one[] = {1};
    d.IndicesTensor = unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT64, 1, idx2, NULL);
    d.IndicesDimensionCount = 1;
    d.OutputTensor = unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 1, one, NULL);
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER_ND2, &d), S_OK, "%s", dmlcl_last_error());
    static const UINT zero[] = {0, 2};
    d.IndicesTensor = unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT64, 2, zero, NULL);
    d.IndicesDimensionCount = 2;
    d.OutputTensor = unit_tensor_set(&n.out, DML_TENSOR_DATA_TYPE_FLOAT32, 1, zero, NULL);
    cr_expect_eq(create(DMLCL_OPERATOR_GATHER_ND2, &d), S_OK, "%s", dmlcl_last_error());
    static const UINT m0[] = {2, 0};
    d.IndicesTensor = unit_tensor_set(&n.idx, DML_TENSOR_DATA_TYPE_INT64, 2, m0, NULL);
    expect_fail(DMLCL_OPERATOR_GATHER_ND2, &d, E_INVALIDARG, "GATHER_ND2",
                "coordinate tuple length");
}
