/* SPDX-License-Identifier: MIT */
/*
 * SCATTER_ELEMENTS and SCATTER_ND on the host (no OpenCL device): every rule of their pages
 * broken once (the HRESULT, and a message naming the operator, the field and the value), the
 * lowering to the scatter family (parallel and walked dimensions, normalised), the launch per
 * device class, the plan check every accepted descriptor passes, and graph plans around a
 * scatter node (its own step, its tensors apart).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "drivers.h"
#include "graph_support.h"
#include "internal.h"
#include "launch.h"
#include "scatter.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define I64 DML_TENSOR_DATA_TYPE_INT64

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC op = {type, desc};
    dmlcl_operator *o = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &op, &o);
    dmlcl_operator_release(o);
    if (SUCCEEDED(hr)) {
        char why[FUZZ_WHY];
        cr_expect_eq(fuzz_check_plan(&op, why), 0, "plan check: %s", why);
    }
    return hr;
}

/* ---- SCATTER_ELEMENTS ------------------------------------------------------------------- */

typedef struct elements {
    unit_tensor in, idx, upd, out;
    DML_SCATTER_ELEMENTS_OPERATOR_DESC d;
} elements;

/* The page's example 2 (its InputTensor {3,3}: the page prints {2,3} for 3 x 3 data). */
static void elements_init(elements *e)
{
    static const UINT in[] = {3, 3}, idx[] = {2, 3};
    e->d.InputTensor = unit_tensor_set(&e->in, F32, 2, in, NULL);
    e->d.IndicesTensor = unit_tensor_set(&e->idx, U32, 2, idx, NULL);
    e->d.UpdatesTensor = unit_tensor_set(&e->upd, F32, 2, idx, NULL);
    e->d.OutputTensor = unit_tensor_set(&e->out, F32, 2, in, NULL);
    e->d.Axis = 0;
}

#define SE DML_OPERATOR_SCATTER_ELEMENTS

Test(scatter_validate, elements_examples_are_valid)
{
    elements e;
    elements_init(&e);
    cr_expect_eq(create(SE, &e.d), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(create(DML_OPERATOR_SCATTER, &e.d), S_OK, "the older name, the same value");
    static const UINT s5[] = {5}, s4[] = {4};
    unit_tensor_set(&e.in, F32, 1, s5, NULL);
    unit_tensor_set(&e.idx, U32, 1, s4, NULL);
    unit_tensor_set(&e.upd, F32, 1, s4, NULL);
    unit_tensor_set(&e.out, F32, 1, s5, NULL);
    cr_expect_eq(create(SE, &e.d), S_OK, "example 1: %s", dmlcl_last_error());
}

/* The table of feature level 4.1: the eleven types of 8 to 64 bits, four index types. */
Test(scatter_validate, elements_types)
{
    static const DML_TENSOR_DATA_TYPE data[] = {DML_TENSOR_DATA_TYPE_FLOAT64,
                                                F32,
                                                F16,
                                                I64,
                                                DML_TENSOR_DATA_TYPE_INT32,
                                                DML_TENSOR_DATA_TYPE_INT16,
                                                DML_TENSOR_DATA_TYPE_INT8,
                                                DML_TENSOR_DATA_TYPE_UINT64,
                                                U32,
                                                DML_TENSOR_DATA_TYPE_UINT16,
                                                DML_TENSOR_DATA_TYPE_UINT8};
    static const DML_TENSOR_DATA_TYPE index[] = {DML_TENSOR_DATA_TYPE_INT32, U32, I64,
                                                 DML_TENSOR_DATA_TYPE_UINT64};
    elements e;
    for (size_t t = 0; t < sizeof data / sizeof data[0]; ++t)
        for (size_t k = 0; k < sizeof index / sizeof index[0]; ++k) {
            elements_init(&e);
            unit_tensor_set_type(&e.in, data[t]);
            unit_tensor_set_type(&e.upd, data[t]);
            unit_tensor_set_type(&e.out, data[t]);
            unit_tensor_set_type(&e.idx, index[k]);
            cr_expect_eq(create(SE, &e.d), S_OK, "%s", dmlcl_last_error());
        }
    elements_init(&e);
    unit_tensor_set_type(&e.idx, F32);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "SCATTER_ELEMENTS", "IndicesTensor.DataType (FLOAT32)",
           "INT32, UINT32, INT64 or UINT64");
    unit_tensor_set_type(&e.idx, DML_TENSOR_DATA_TYPE_INT16);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.DataType (INT16)");
    unit_tensor_set_type(&e.idx, DML_TENSOR_DATA_TYPE_INT4);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.DataType (INT4)", "table");
    elements_init(&e);
    unit_tensor_set_type(&e.in, DML_TENSOR_DATA_TYPE_UINT4);
    unit_tensor_set_type(&e.upd, DML_TENSOR_DATA_TYPE_UINT4);
    unit_tensor_set_type(&e.out, DML_TENSOR_DATA_TYPE_UINT4);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "SCATTER_ELEMENTS: InputTensor.DataType (UINT4)",
           "not in the operator's table");
    elements_init(&e);
    unit_tensor_set_type(&e.in, DMLCL_TENSOR_DATA_TYPE_BOOLEAN);
    EXPECT(create(SE, &e.d), DXGI_ERROR_UNSUPPORTED, "InputTensor.DataType (BOOLEAN)",
           "extension type");
}

Test(scatter_validate, elements_same_type)
{
    elements e;
    elements_init(&e);
    unit_tensor_set_type(&e.upd, F16);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "SCATTER_ELEMENTS", "UpdatesTensor.DataType (FLOAT16)",
           "InputTensor.DataType (FLOAT32)");
    elements_init(&e);
    unit_tensor_set_type(&e.out, U32);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "OutputTensor.DataType (UINT32)",
           "InputTensor.DataType (FLOAT32)");
}

Test(scatter_validate, elements_same_rank)
{
    static const UINT s3[] = {1, 3, 3}, x3[] = {1, 2, 3};
    elements e;
    elements_init(&e);
    unit_tensor_set(&e.idx, U32, 3, x3, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.DimensionCount (3)",
           "InputTensor.DimensionCount (2)");
    elements_init(&e);
    unit_tensor_set(&e.upd, F32, 3, x3, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "UpdatesTensor.DimensionCount (3)");
    elements_init(&e);
    unit_tensor_set(&e.out, F32, 3, s3, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "OutputTensor.DimensionCount (3)");
    static const UINT nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    elements_init(&e);
    unit_tensor_set(&e.in, F32, 9, nine, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "InputTensor.DimensionCount (9)", "[1, 8]");
}

Test(scatter_validate, elements_axis)
{
    elements e;
    elements_init(&e);
    e.d.Axis = 2;
    EXPECT(create(SE, &e.d), E_INVALIDARG, "SCATTER_ELEMENTS: Axis (2)",
           "InputTensor.DimensionCount (2)");
    e.d.Axis = 1; /* indices {2,3} then differ from the input off the axis */
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.Sizes[0] (2)", "InputTensor.Sizes[0] (3)",
           "Axis (1)");
}

Test(scatter_validate, elements_sizes)
{
    static const UINT s22[] = {2, 2}, s23[] = {2, 3}, s43[] = {4, 3};
    elements e;
    elements_init(&e);
    unit_tensor_set(&e.idx, U32, 2, s22, NULL);
    unit_tensor_set(&e.upd, F32, 2, s22, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.Sizes[1] (2)",
           "InputTensor.Sizes[1] (3)");
    elements_init(&e);
    unit_tensor_set(&e.upd, F32, 2, s43, NULL);
    EXPECT(create(SE, &e.d), E_INVALIDARG, "UpdatesTensor.Sizes ({4,3})", "{2,3}",
           "IndicesTensor.Sizes");
    elements_init(&e);
    unit_tensor_set(&e.out, F32, 2, s23, NULL); /* the page's example 2 as printed */
    EXPECT(create(SE, &e.d), E_INVALIDARG, "OutputTensor.Sizes ({2,3})", "{3,3}",
           "InputTensor.Sizes");
    elements_init(&e);
    unit_tensor_set(&e.idx, U32, 2, s43, NULL); /* more updates along the axis than rows */
    unit_tensor_set(&e.upd, F32, 2, s43, NULL);
    cr_expect_eq(create(SE, &e.d), S_OK, "%s", dmlcl_last_error());
}

Test(scatter_validate, elements_tensor_rules)
{
    elements e;
    elements_init(&e);
    e.d.UpdatesTensor = NULL;
    EXPECT(create(SE, &e.d), E_INVALIDARG, "SCATTER_ELEMENTS", "UpdatesTensor");
    elements_init(&e);
    static const UINT overlap[] = {1, 1};
    unit_tensor_set_strides(&e.out, overlap);
    EXPECT(create(SE, &e.d), DXGI_ERROR_UNSUPPORTED, "SCATTER_ELEMENTS", "OutputTensor");
    elements_init(&e);
    e.idx.buf.TotalTensorSizeInBytes -= 4;
    EXPECT(create(SE, &e.d), E_INVALIDARG, "IndicesTensor.TotalTensorSizeInBytes");
}

/* ---- SCATTER_ND --------------------------------------------------------------------------- */

typedef struct nd {
    unit_tensor in, idx, upd, out;
    DML_SCATTER_ND_OPERATOR_DESC d;
} nd;

/* The page's example at DimensionCount 2 (its indices printed FLOAT32: UINT32). */
static void nd_init(nd *n)
{
    static const UINT in[] = {1, 8}, idx[] = {4, 1}, upd[] = {1, 4};
    n->d.InputTensor = unit_tensor_set(&n->in, F32, 2, in, NULL);
    n->d.IndicesTensor = unit_tensor_set(&n->idx, U32, 2, idx, NULL);
    n->d.UpdatesTensor = unit_tensor_set(&n->upd, F32, 2, upd, NULL);
    n->d.OutputTensor = unit_tensor_set(&n->out, F32, 2, in, NULL);
    n->d.InputDimensionCount = 1;
    n->d.IndicesDimensionCount = 2;
}

/* The page's shape example: input {3,4,5,6,7}, indices {1,1,1,2,3} (3 meaningful), updates
 * {1,1,2,6,7}. */
static void nd_shape_init(nd *n)
{
    static const UINT in[] = {3, 4, 5, 6, 7}, idx[] = {1, 1, 1, 2, 3}, upd[] = {1, 1, 2, 6, 7};
    n->d.InputTensor = unit_tensor_set(&n->in, F32, 5, in, NULL);
    n->d.IndicesTensor = unit_tensor_set(&n->idx, U32, 5, idx, NULL);
    n->d.UpdatesTensor = unit_tensor_set(&n->upd, F32, 5, upd, NULL);
    n->d.OutputTensor = unit_tensor_set(&n->out, F32, 5, in, NULL);
    n->d.InputDimensionCount = 5;
    n->d.IndicesDimensionCount = 3;
}

#define SND DML_OPERATOR_SCATTER_ND

Test(scatter_validate, nd_examples_are_valid)
{
    nd n;
    nd_init(&n);
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
    n.d.IndicesDimensionCount = 1; /* one tuple */
    static const UINT one[] = {1, 1};
    unit_tensor_set(&n.idx, U32, 2, one, NULL);
    unit_tensor_set(&n.upd, F32, 2, one, NULL);
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
    nd_shape_init(&n);
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set_type(&n.idx, I64);
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
}

Test(scatter_validate, nd_counts)
{
    nd n;
    nd_init(&n);
    n.d.InputDimensionCount = 0;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "SCATTER_ND: InputDimensionCount (0)",
           "[1, InputTensor.DimensionCount (2)]");
    n.d.InputDimensionCount = 3;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "InputDimensionCount (3)");
    nd_init(&n);
    n.d.IndicesDimensionCount = 0;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "IndicesDimensionCount (0)",
           "[1, IndicesTensor.DimensionCount (2)]");
    n.d.IndicesDimensionCount = 3;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "IndicesDimensionCount (3)");
    nd_init(&n);
    n.d.IndicesDimensionCount = 1; /* indices {4,1}: the 4 is not meaningful */
    EXPECT(create(SND, &n.d), E_INVALIDARG, "IndicesTensor.Sizes[0] (4) must be 1",
           "IndicesDimensionCount (1)");
    nd_shape_init(&n);
    n.d.InputDimensionCount = 4;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "InputTensor.Sizes[0] (3) must be 1",
           "InputDimensionCount (4)");
}

Test(scatter_validate, nd_tuple_length)
{
    nd n;
    nd_init(&n);
    static const UINT x2[] = {4, 2};
    unit_tensor_set(&n.idx, U32, 2, x2, NULL);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "IndicesTensor.Sizes[1] (2)", "tuple length",
           "InputDimensionCount (1)");
    n.d.InputDimensionCount = 2; /* {1,8} both meaningful: 2-tuples, one element each */
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
}

Test(scatter_validate, nd_updates_sizes)
{
    nd n;
    nd_init(&n);
    static const UINT u5[] = {1, 5}, u41[] = {4, 1};
    unit_tensor_set(&n.upd, F32, 2, u5, NULL);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "SCATTER_ND: UpdatesTensor.Sizes ({1,5})", "{1,4}");
    unit_tensor_set(&n.upd, F32, 2, u41, NULL);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "UpdatesTensor.Sizes ({4,1})", "right-aligned");
    /* Input {2,3,4}, indices {2,5,1} (all meaningful): updates would be {2,5,3,4}, 4 sizes in
     * 3 dimensions. With indices {1,5,1} the leading 1 finds no place and needs none. */
    static const UINT in[] = {2, 3, 4}, x[] = {2, 5, 1}, x1[] = {1, 5, 1}, u[] = {5, 3, 4};
    n.d.InputTensor = unit_tensor_set(&n.in, F32, 3, in, NULL);
    n.d.OutputTensor = unit_tensor_set(&n.out, F32, 3, in, NULL);
    n.d.IndicesTensor = unit_tensor_set(&n.idx, U32, 3, x, NULL);
    n.d.UpdatesTensor = unit_tensor_set(&n.upd, F32, 3, u, NULL);
    n.d.InputDimensionCount = 3;
    n.d.IndicesDimensionCount = 3;
    EXPECT(create(SND, &n.d), E_INVALIDARG, "UpdatesTensor.DimensionCount (3) is too small",
           "{2,5,3,4}");
    unit_tensor_set(&n.idx, U32, 3, x1, NULL);
    cr_expect_eq(create(SND, &n.d), S_OK, "%s", dmlcl_last_error());
}

Test(scatter_validate, nd_common_rules)
{
    nd n;
    nd_init(&n);
    static const UINT s9[] = {1, 9};
    unit_tensor_set(&n.out, F32, 2, s9, NULL);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "SCATTER_ND: OutputTensor.Sizes ({1,9})", "{1,8}");
    nd_init(&n);
    unit_tensor_set_type(&n.idx, F32); /* the page's example as printed */
    EXPECT(create(SND, &n.d), E_INVALIDARG, "SCATTER_ND: IndicesTensor.DataType (FLOAT32)");
    nd_init(&n);
    unit_tensor_set_type(&n.upd, DML_TENSOR_DATA_TYPE_INT32);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "UpdatesTensor.DataType (INT32)");
    nd_init(&n);
    static const UINT i8[] = {8}, x41[] = {4, 1}, u4[] = {4};
    unit_tensor_set(&n.in, F32, 1, i8, NULL); /* the page's example at its printed ranks */
    unit_tensor_set(&n.out, F32, 1, i8, NULL);
    unit_tensor_set(&n.idx, U32, 2, x41, NULL);
    unit_tensor_set(&n.upd, F32, 1, u4, NULL);
    EXPECT(create(SND, &n.d), E_INVALIDARG, "IndicesTensor.DimensionCount (2)",
           "InputTensor.DimensionCount (1)");
}

/* ---- Lowering, normalisation, launch ------------------------------------------------------ */

static const dmli_device_desc unit_cpu = {
    DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
    (uint64_t)32 << 20,     16};
static const dmli_device_desc unit_gpu = {
    DMLCL_DEVICE_CLASS_GPU, 132, 1024, {1024, 1024, 64}, 48 * 1024, 1, 1, 512, true, 4352,
    (uint64_t)50 << 20,     1};

static const dmli_op_state *state_of(dmlcl_operator **op, DML_OPERATOR_TYPE type, const void *d)
{
    DML_OPERATOR_DESC desc = {type, d};
    cr_assert_eq(dmlcl_operator_create(NULL, &desc, op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(*op);
    cr_assert(st->computed && st->compute.kind == DMLI_COMPUTE_SCATTER);
    cr_assert_eq(st->compute.n_tensors, 4);
    for (uint32_t i = 0; i < 3; ++i)
        cr_expect(!st->compute.tensors[i].output && st->compute.tensors[i].slot == i);
    cr_expect(st->compute.tensors[3].output && st->compute.tensors[3].slot == 0);
    cr_expect(!st->in_place, "no input shares the output's range");
    return st;
}

/* Example 2, axis 0: parallel over the columns (the run), walking the two rows of updates. */
Test(scatter_validate, elements_lowering)
{
    elements e;
    elements_init(&e);
    dmlcl_operator *op = NULL;
    const dmli_op_state *st = state_of(&op, SE, &e.d);
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_scatter);
    cr_expect_eq(s->elem_bytes, 4);
    cr_expect_eq(s->idx_type, DMLI_INDEX_UINT32);
    cr_assert_eq(s->n_outer, 1);
    cr_expect(s->outer_size[0] == 3 && s->outer_us[0] == 1 && s->outer_xs[0] == 1 &&
              s->outer_os[0] == 1);
    cr_assert_eq(s->n_walk, 1);
    cr_expect(s->walk_size[0] == 2 && s->walk_us[0] == 3 && s->walk_xs[0] == 3);
    cr_expect(s->components == 1 && s->axis_size[0] == 3 && s->axis_os[0] == 3);
    cr_expect(s->copy_rank == 2 && s->copy_size[0] == 3 && s->copy_os[0] == 3);
    static dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &unit_cpu, &l);
    cr_expect_str_eq(l.kernel, "scatter");
    cr_expect_eq(l.source, DMLI_SOURCE_SCATTER);
    cr_expect_str_eq(dmli_options_value(&l.defs, "UNIT_T"), "uint");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IDX_T"), "uint");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IDX_SIGNED"), "0");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ROW_INDEX"), "0");
    cr_expect_eq(l.table[DMLI_SC_RUN], 3);
    cr_expect_eq(l.table[DMLI_SC_CHUNK], 3, "a chunk of 256 cut to the run");
    cr_expect_eq(l.table[DMLI_SC_ITEMS], 1);
    cr_expect_eq(l.table[DMLI_SC_N_OUTER], 0);
    cr_expect_eq(l.table[DMLI_SC_N_WALK], 1);
    cr_expect_eq(l.table[DMLI_SC_WALKS], 2);
    cr_expect_eq(l.table[DMLI_SC_WALK(0)], 2);
    cr_expect_eq(l.table[DMLI_SC_COMP(0) + 1], 3);
    cr_expect(l.global[0] == 1 && l.local[0] == 1);
    dmli_launch_compute(&st->compute, &unit_gpu, &l);
    cr_expect_eq(l.table[DMLI_SC_CHUNK], 1, "GPUs: an element an item");
    cr_expect_eq(l.table[DMLI_SC_ITEMS], 3);
    cr_expect(l.global[0] == 3 && l.local[0] == 3, "%zu %zu", l.global[0], l.local[0]);
    dmlcl_operator_release(op);
}

/* Axis 1 of {4,1,6} with INT64 indices {4,1,5}: the size-1 dimension dropped, the rows the run
 * (indices read per element), the columns walked. */
Test(scatter_validate, elements_inner_axis)
{
    static const UINT in[] = {4, 1, 6}, idx[] = {4, 1, 5};
    elements e;
    e.d.InputTensor = unit_tensor_set(&e.in, DML_TENSOR_DATA_TYPE_UINT8, 3, in, NULL);
    e.d.IndicesTensor = unit_tensor_set(&e.idx, I64, 3, idx, NULL);
    e.d.UpdatesTensor = unit_tensor_set(&e.upd, DML_TENSOR_DATA_TYPE_UINT8, 3, idx, NULL);
    e.d.OutputTensor = unit_tensor_set(&e.out, DML_TENSOR_DATA_TYPE_UINT8, 3, in, NULL);
    e.d.Axis = 2;
    dmlcl_operator *op = NULL;
    const dmli_op_state *st = state_of(&op, SE, &e.d);
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_scatter);
    cr_assert_eq(s->n_outer, 1);
    cr_expect(s->outer_size[0] == 4 && s->outer_us[0] == 5 && s->outer_xs[0] == 5 &&
              s->outer_os[0] == 6);
    cr_assert_eq(s->n_walk, 1);
    cr_expect(s->walk_size[0] == 5 && s->walk_us[0] == 1 && s->walk_xs[0] == 1);
    static dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &unit_cpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "UNIT_T"), "uchar");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IDX_T"), "long");
    cr_expect_str_eq(dmli_options_value(&l.defs, "IDX_SIGNED"), "1");
    dmlcl_operator_release(op);
}

/* The page's shape example: 2 tuples walked (the leading 1s dropped), the {6,7} slice one
 * contiguous run of 42 that shares each tuple (ROW_INDEX), 3 components 1 apart. */
Test(scatter_validate, nd_lowering)
{
    nd n;
    nd_shape_init(&n);
    dmlcl_operator *op = NULL;
    const dmli_op_state *st = state_of(&op, SND, &n.d);
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_scatter);
    cr_assert_eq(s->n_walk, 1);
    cr_expect(s->walk_size[0] == 2 && s->walk_us[0] == 42 && s->walk_xs[0] == 3);
    cr_assert_eq(s->n_outer, 1);
    cr_expect(s->outer_size[0] == 42 && s->outer_us[0] == 1 && s->outer_xs[0] == 0 &&
              s->outer_os[0] == 1);
    cr_assert_eq(s->components, 3);
    cr_expect_eq(s->comp_xs, 1);
    cr_expect(s->axis_size[0] == 3 && s->axis_size[1] == 4 && s->axis_size[2] == 5);
    cr_expect(s->axis_os[0] == 840 && s->axis_os[1] == 210 && s->axis_os[2] == 42);
    static dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &unit_cpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "ROW_INDEX"), "1");
    cr_expect_eq(l.table[DMLI_SC_CHUNK], 11, "42 halved while 16 compute units lack items");
    cr_expect_eq(l.table[DMLI_SC_NCOMP], 3);
    cr_expect_eq(l.table[DMLI_SC_COMP_XS], 1);
    cr_expect_eq(l.table[DMLI_SC_COMP(2)], 5);
    dmlcl_operator_release(op);
}

/* Full tuples: one element a tuple, so one parallel position (a run of 1) walks them all. */
Test(scatter_validate, nd_full_tuples)
{
    nd n;
    nd_init(&n);
    static const UINT x2[] = {4, 2};
    unit_tensor_set(&n.idx, U32, 2, x2, NULL);
    n.d.InputDimensionCount = 2;
    dmlcl_operator *op = NULL;
    const dmli_op_state *st = state_of(&op, SND, &n.d);
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_scatter);
    cr_assert_eq(s->n_outer, 1);
    cr_expect(s->outer_size[0] == 1 && s->outer_os[0] == 0);
    cr_expect(s->n_walk == 1 && s->walk_size[0] == 4 && s->walk_xs[0] == 2 && s->walk_us[0] == 1);
    cr_expect(s->components == 2 && s->axis_size[0] == 1 && s->axis_size[1] == 8);
    static dmli_compute_launch l;
    dmli_launch_compute(&st->compute, &unit_gpu, &l);
    cr_expect(l.table[DMLI_SC_ITEMS] == 1 && l.global[0] == 1 && l.local[0] == 1);
    dmlcl_operator_release(op);
}

/* CPUs: a run of 2048 in one row, chunks of 256 halved until 16 compute units get 4 items each
 * (32 elements: 64 items); GPUs: an element an item, groups of 64. */
Test(scatter_validate, launch_fills_the_device)
{
    dmli_compute c;
    dmli_compute_init(&c, DMLI_COMPUTE_SCATTER);
    dmli_scatter *s = DMLI_COMPUTE_WORK(&c, dmli_scatter);
    s->elem_bytes = 2;
    s->idx_type = DMLI_INDEX_INT32;
    dmli_scatter_push(s, true, 100, 2048, 2048, 0);
    dmli_scatter_push(s, false, 2048, 1, 1, 1);
    s->components = 1;
    s->axis_size[0] = 7;
    s->axis_os[0] = 2048;
    dmli_scatter_normalize(s);
    static dmli_compute_launch l;
    dmli_launch_compute(&c, &unit_cpu, &l);
    cr_expect_eq(l.table[DMLI_SC_CHUNK], 32);
    cr_expect_eq(l.table[DMLI_SC_ITEMS], 64);
    cr_expect(l.global[0] == 64 && l.local[0] == 1, "%zu %zu", l.global[0], l.local[0]);
    cr_expect_str_eq(dmli_options_value(&l.defs, "UNIT_T"), "ushort");
    dmli_launch_compute(&c, &unit_gpu, &l);
    cr_expect(l.table[DMLI_SC_CHUNK] == 1 && l.table[DMLI_SC_ITEMS] == 2048);
    cr_expect(l.global[0] == 2048 && l.local[0] == 64, "%zu %zu", l.global[0], l.local[0]);
}

/* Walked dimensions merge where contiguous in the updates and the indices, never reordered;
 * parallel ones where contiguous in the updates, the indices and the output. */
Test(scatter_validate, normalize)
{
    dmli_scatter s;
    memset(&s, 0, sizeof s);
    dmli_scatter_push(&s, true, 2, 12, 6, 0);
    dmli_scatter_push(&s, false, 3, 20, 0, 4);
    dmli_scatter_push(&s, true, 3, 4, 2, 0); /* joins the walk before it: 2 x 3 */
    dmli_scatter_push(&s, false, 1, 99, 99, 99);
    dmli_scatter_push(&s, false, 4, 1, 0, 1); /* 3 x 4 contiguous in u and o, xs 0 */
    dmli_scatter_normalize(&s);
    cr_assert_eq(s.n_walk, 1);
    cr_expect(s.walk_size[0] == 6 && s.walk_us[0] == 4 && s.walk_xs[0] == 2);
    cr_assert_eq(s.n_outer, 2, "u stride 20 is not 4 x 1: %d", s.n_outer);
    cr_expect(s.outer_size[0] == 3 && s.outer_size[1] == 4);
    memset(&s, 0, sizeof s);
    dmli_scatter_push(&s, true, 2, 1, 1, 0); /* walked outer dimension stepping less: no join */
    dmli_scatter_push(&s, true, 3, 2, 2, 0);
    dmli_scatter_normalize(&s);
    cr_expect_eq(s.n_walk, 2, "row-major order kept");
    cr_expect(s.n_outer == 1 && s.outer_size[0] == 1, "every dimension indexed: a run of 1");
}

/* ---- Graphs ------------------------------------------------------------------------------- */

/* A transpose feeding a scatter's input and a scatter feeding an identity: three steps, each
 * tensor between them stored (a scatter takes no view into its reads and writes its own
 * output, apart from every input). */
Test(scatter_validate, graph_steps)
{
    static const UINT in[] = {3, 3}, tr[] = {1, 3}, idx[] = {2, 3};
    unit_tensor a, b, i_in, i_idx, i_upd, i_out, c, d;
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id1 = {unit_tensor_set(&a, F32, 2, in, tr),
                                                   unit_tensor_set(&b, F32, 2, in, NULL), NULL};
    DML_SCATTER_ELEMENTS_OPERATOR_DESC sc = {
        unit_tensor_set(&i_in, F32, 2, in, NULL), unit_tensor_set(&i_idx, U32, 2, idx, NULL),
        unit_tensor_set(&i_upd, F32, 2, idx, NULL), unit_tensor_set(&i_out, F32, 2, in, NULL), 0};
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC id2 = {unit_tensor_set(&c, F32, 2, in, NULL),
                                                   unit_tensor_set(&d, F32, 2, in, NULL), NULL};
    unit_graph g;
    dmli_graph *graph;
    dmli_graph_plan *plan;
    ug_init(&g);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id1);
    ug_node(&g, SE, &sc);
    ug_node(&g, DML_OPERATOR_ELEMENT_WISE_IDENTITY, &id2);
    ug_input(&g, 0, 0, 0);
    ug_input(&g, 1, 1, 1);
    ug_input(&g, 2, 1, 2);
    ug_edge(&g, 0, 1, 0);
    ug_edge(&g, 1, 2, 0);
    ug_output(&g, 2, 0);
    ug_desc(&g, 3, 1);
    ug_plan(&g.desc, &graph, &plan);
    cr_assert_eq(plan->n_steps, 3, "%u steps", plan->n_steps);
    const dmli_graph_step *s = &plan->steps[1];
    cr_assert(s->compute != NULL && s->compute->kind == DMLI_COMPUTE_SCATTER);
    cr_expect(s->tensors[0].kind == DMLI_SLOT_TEMP, "the transposed input stored");
    cr_expect(s->tensors[1].kind == DMLI_SLOT_INPUT && s->tensors[1].index == 1);
    cr_expect(s->tensors[2].kind == DMLI_SLOT_INPUT && s->tensors[2].index == 2);
    cr_expect(s->tensors[3].kind == DMLI_SLOT_TEMP, "the scatter's output stored");
    cr_expect_neq(s->tensors[0].offset, s->tensors[3].offset, "input and output apart");
    dmli_graph_plan_free(plan);
    dmli_graph_free(graph);
    ug_free(&g);
}
