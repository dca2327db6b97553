/* SPDX-License-Identifier: MIT */
/*
 * ROI_POOLING's, ROI_ALIGN's, ROI_ALIGN1's, ROI_ALIGN_GRAD's, FOLD's and UNFOLD's validation on
 * the host (no
 * OpenCL device): each rule broken once from a valid fixture, checking the HRESULT and that
 * the message names the operator, the field, the value and the rule; the descriptions they
 * lower to.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dmlcl/dmlcl.h"
#include "internal.h"
#include "launch.h"
#include "roi.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define F16 DML_TENSOR_DATA_TYPE_FLOAT16
#define U32 DML_TENSOR_DATA_TYPE_UINT32
#define U64 DML_TENSOR_DATA_TYPE_UINT64
#define I32 DML_TENSOR_DATA_TYPE_INT32

#define EXPECT(hr, want, ...)                                  \
    do {                                                       \
        const char *const needles_[] = {__VA_ARGS__, NULL};    \
        unit_expect_needles((hr), (want), needles_, __LINE__); \
    } while (0)

static HRESULT create(DML_OPERATOR_TYPE type, const void *desc)
{
    DML_OPERATOR_DESC d = {type, desc};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &d, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* ---- Regions ------------------------------------------------------------------------------- */

/* Input {2, 3, 8, 9}; 5 regions; output {5, 3, 2, 4}. */
typedef struct region_fixture {
    unit_tensor x, pool_rois, rois, idx, y;
    DML_ROI_POOLING_OPERATOR_DESC pool;
    DML_ROI_ALIGN_OPERATOR_DESC align;
    DML_ROI_ALIGN1_OPERATOR_DESC align1;
} region_fixture;

static void regions(region_fixture *f)
{
    memset(f, 0, sizeof *f);
    const DML_TENSOR_DESC *x = unit_tensor_set(&f->x, F32, 4, (UINT[]){2, 3, 8, 9}, NULL);
    const DML_TENSOR_DESC *pr = unit_tensor_set(&f->pool_rois, F32, 4, (UINT[]){1, 1, 5, 5}, NULL);
    const DML_TENSOR_DESC *r = unit_tensor_set(&f->rois, F32, 2, (UINT[]){5, 4}, NULL);
    const DML_TENSOR_DESC *b = unit_tensor_set(&f->idx, U32, 1, (UINT[]){5}, NULL);
    const DML_TENSOR_DESC *y = unit_tensor_set(&f->y, F32, 4, (UINT[]){5, 3, 2, 4}, NULL);
    f->pool = (DML_ROI_POOLING_OPERATOR_DESC){x, pr, y, 1.0f, {.Width = 4, .Height = 2}};
    f->align = (DML_ROI_ALIGN_OPERATOR_DESC){
        x,    r,    b, y,         DML_REDUCE_FUNCTION_AVERAGE, DML_INTERPOLATION_MODE_LINEAR, 1.0f,
        1.0f, 0.0f, 1, UINT32_MAX};
    f->align1 = (DML_ROI_ALIGN1_OPERATOR_DESC){x,
                                               r,
                                               b,
                                               y,
                                               DML_REDUCE_FUNCTION_MAX,
                                               DML_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                               0.5f,
                                               0.5f,
                                               0.0f,
                                               -0.5f,
                                               0.0f,
                                               2,
                                               2,
                                               1};
}

Test(roi_validate, the_fixtures_are_valid)
{
    region_fixture f;
    regions(&f);
    cr_expect_eq(create(DML_OPERATOR_ROI_POOLING, &f.pool), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(create(DML_OPERATOR_ROI_ALIGN, &f.align), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), S_OK, "%s", dmlcl_last_error());
    /* The other allowed shapes: rois {1, 5, 4}, {1, 1, 5, 4}; indices {1, 5} .. {1, 1, 1, 5},
     * UINT64; FLOAT16. */
    unit_tensor_set(&f.rois, F16, 4, (UINT[]){1, 1, 5, 4}, NULL);
    unit_tensor_set(&f.idx, U64, 4, (UINT[]){1, 1, 1, 5}, NULL);
    unit_tensor_set_type(&f.x, F16);
    unit_tensor_set_type(&f.y, F16);
    cr_expect_eq(create(DML_OPERATOR_ROI_ALIGN, &f.align), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set(&f.rois, F16, 3, (UINT[]){1, 5, 4}, NULL);
    unit_tensor_set(&f.idx, U32, 2, (UINT[]){1, 5}, NULL);
    cr_expect_eq(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), S_OK, "%s", dmlcl_last_error());
}

Test(roi_validate, region_types)
{
    region_fixture f;
    regions(&f);
    unit_tensor_set_type(&f.x, I32);
    EXPECT(create(DML_OPERATOR_ROI_POOLING, &f.pool), E_INVALIDARG, "ROI_POOLING",
           "InputTensor.DataType", "INT32", "FLOAT32 or FLOAT16");
    regions(&f);
    unit_tensor_set_type(&f.rois, F16);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN", "ROITensor",
           "FLOAT16");
    regions(&f);
    unit_tensor_set_type(&f.y, F16);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), E_INVALIDARG, "ROI_ALIGN1", "OutputTensor",
           "FLOAT16");
    regions(&f);
    unit_tensor_set_type(&f.idx, I32);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "BatchIndicesTensor.DataType", "INT32", "UINT32");
}

Test(roi_validate, region_shapes)
{
    region_fixture f;
    regions(&f);
    unit_tensor_set(&f.x, F32, 3, (UINT[]){3, 8, 9}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "InputTensor.DimensionCount", "(3)", "must be 4");
    regions(&f);
    unit_tensor_set(&f.y, F32, 5, (UINT[]){1, 5, 3, 2, 4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_POOLING, &f.pool), E_INVALIDARG, "ROI_POOLING",
           "OutputTensor.DimensionCount", "(5)", "must be 4");
    regions(&f);
    unit_tensor_set(&f.pool_rois, F32, 2, (UINT[]){5, 5}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_POOLING, &f.pool), E_INVALIDARG, "ROI_POOLING",
           "ROITensor.DimensionCount", "(2)", "must be 4");
    regions(&f);
    unit_tensor_set(&f.pool_rois, F32, 4, (UINT[]){1, 1, 5, 4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_POOLING, &f.pool), E_INVALIDARG, "ROI_POOLING",
           "ROITensor.Sizes", "{1,1,5,4}", "{1, 1, NumROIs, 5}");
    regions(&f);
    f.pool.PooledSize.Height = 3;
    EXPECT(create(DML_OPERATOR_ROI_POOLING, &f.pool), E_INVALIDARG, "ROI_POOLING",
           "OutputTensor.Sizes", "{5,3,2,4}", "PooledSize.Height");
    regions(&f);
    unit_tensor_set(&f.rois, F32, 2, (UINT[]){5, 5}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN", "ROITensor.Sizes",
           "{5,5}", "{NumROIs, 4}");
    regions(&f);
    unit_tensor_set(&f.rois, F32, 1, (UINT[]){4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "ROITensor.DimensionCount", "(1)", "[2, 4]");
    regions(&f);
    unit_tensor_set(&f.rois, F32, 3, (UINT[]){2, 5, 4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), E_INVALIDARG, "ROI_ALIGN1",
           "ROITensor.Sizes", "{2,5,4}");
    regions(&f);
    unit_tensor_set(&f.idx, U32, 1, (UINT[]){4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "BatchIndicesTensor.Sizes", "{4}", "NumROIs");
    regions(&f);
    unit_tensor_set(&f.y, F32, 4, (UINT[]){5, 2, 2, 4}, NULL);
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "OutputTensor.Sizes", "{5,2,2,4}", "{5,3,2,4}");
}

Test(roi_validate, region_members)
{
    region_fixture f;
    regions(&f);
    f.align.ReductionFunction = DML_REDUCE_FUNCTION_SUM;
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN", "ReductionFunction",
           "AVERAGE", "MAX");
    regions(&f);
    f.align1.InterpolationMode = (DML_INTERPOLATION_MODE)7;
    EXPECT(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), E_INVALIDARG, "ROI_ALIGN1",
           "InterpolationMode (7)", "LINEAR");
    regions(&f);
    f.align.MinimumSamplesPerOutput = 0;
    EXPECT(create(DML_OPERATOR_ROI_ALIGN, &f.align), E_INVALIDARG, "ROI_ALIGN",
           "MinimumSamplesPerOutput (0)", "at least 1");
    regions(&f);
    f.align1.MinimumSamplesPerOutput = 3;
    EXPECT(create(DML_OPERATOR_ROI_ALIGN1, &f.align1), E_INVALIDARG, "ROI_ALIGN1",
           "MinimumSamplesPerOutput (3)", "MaximumSamplesPerOutput (2)");
}

Test(roi_validate, region_lowering)
{
    region_fixture f;
    regions(&f);
    unit_tensor_set(&f.rois, F32, 3, (UINT[]){1, 5, 4}, (UINT[]){40, 8, 2});
    unit_tensor_set(&f.idx, U64, 2, (UINT[]){1, 5}, (UINT[]){5, 1});
    DML_OPERATOR_DESC d = {DML_OPERATOR_ROI_ALIGN1, &f.align1};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    const dmli_compute *c = &st->compute;
    cr_assert(st->computed && c->kind == DMLI_COMPUTE_ROI && c->n_tensors == 4);
    const dmli_roi *r = DMLI_COMPUTE_WORK_CONST(c, dmli_roi);
    cr_expect_eq(r->kind, DMLI_ROI_ALIGN);
    cr_expect(r->max && !r->linear && r->corners && r->idx64);
    cr_expect_eq(r->roi_sr, 8);
    cr_expect_eq(r->roi_sk, 2);
    cr_expect_eq(r->idx_s, 1);
    cr_expect_eq(r->rois, 5);
    cr_expect_eq(r->in_s[1], 72);
    cr_expect(r->in_off == 0.0f && r->out_off == -0.5f && r->scale_x == 0.5f);
    dmlcl_operator_release(op);
}

/* ---- ROI_ALIGN_GRAD ------------------------------------------------------------------------ */

/* InputTensor {2, 3, 8, 9}, InputGradientTensor {5, 3, 2, 4}, 5 regions, both outputs. */
typedef struct grad_fixture {
    unit_tensor x, dy, rois, idx, dx, droi;
    DML_ROI_ALIGN_GRAD_OPERATOR_DESC d;
} grad_fixture;

static void grad_fixture_init(grad_fixture *f)
{
    memset(f, 0, sizeof *f);
    f->d = (DML_ROI_ALIGN_GRAD_OPERATOR_DESC){
        unit_tensor_set(&f->x, F32, 4, (UINT[]){2, 3, 8, 9}, NULL),
        unit_tensor_set(&f->dy, F32, 4, (UINT[]){5, 3, 2, 4}, NULL),
        unit_tensor_set(&f->rois, F32, 2, (UINT[]){5, 4}, NULL),
        unit_tensor_set(&f->idx, U32, 1, (UINT[]){5}, NULL),
        unit_tensor_set(&f->dx, F32, 4, (UINT[]){2, 3, 8, 9}, NULL),
        unit_tensor_set(&f->droi, F32, 2, (UINT[]){5, 4}, NULL),
        DML_REDUCE_FUNCTION_AVERAGE,
        DML_INTERPOLATION_MODE_LINEAR,
        1.0f,
        1.0f,
        0.5f,
        -0.5f,
        1,
        4,
        0};
}

#define AG DML_OPERATOR_ROI_ALIGN_GRAD

Test(roi_validate, align_grad_rules)
{
    grad_fixture f;
    grad_fixture_init(&f);
    cr_expect_eq(create(AG, &f.d), S_OK, "%s", dmlcl_last_error());
    /* Either output alone; InputTensor optional without MAX and the ROI gradient. */
    f.d.OutputROIGradientTensor = NULL;
    cr_expect_eq(create(AG, &f.d), S_OK, "%s", dmlcl_last_error());
    f.d.InputTensor = NULL;
    cr_expect_eq(create(AG, &f.d), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set(&f.dy, F16, 4, (UINT[]){5, 3, 2, 4}, NULL);
    unit_tensor_set(&f.rois, F16, 2, (UINT[]){5, 4}, NULL);
    unit_tensor_set(&f.dx, F16, 4, (UINT[]){2, 3, 8, 9}, NULL);
    cr_expect_eq(create(AG, &f.d), S_OK, "FLOAT16: %s", dmlcl_last_error());
    grad_fixture_init(&f);
    f.d.OutputGradientTensor = NULL;
    cr_expect_eq(create(AG, &f.d), S_OK, "%s", dmlcl_last_error());
    f.d.OutputROIGradientTensor = NULL;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "ROI_ALIGN_GRAD", "OutputGradientTensor",
           "OutputROIGradientTensor", "at least one");
    grad_fixture_init(&f);
    f.d.InputTensor = NULL;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "ROI_ALIGN_GRAD", "InputTensor is NULL",
           "OutputROIGradientTensor");
    f.d.OutputROIGradientTensor = NULL;
    f.d.ReductionFunction = DML_REDUCE_FUNCTION_MAX;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputTensor is NULL", "DML_REDUCE_FUNCTION_MAX");
    /* Types: FLOAT32, FLOAT16, one DataType; batch indices UINT32 (or UINT64). */
    grad_fixture_init(&f);
    unit_tensor_set(&f.dy, I32, 4, (UINT[]){5, 3, 2, 4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputGradientTensor.DataType (INT32)",
           "FLOAT32 or FLOAT16");
    grad_fixture_init(&f);
    unit_tensor_set_type(&f.x, F16);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputTensor.DataType (FLOAT16)");
    grad_fixture_init(&f);
    unit_tensor_set_type(&f.rois, F16);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "ROITensor.DataType (FLOAT16)");
    grad_fixture_init(&f);
    unit_tensor_set_type(&f.dx, F16);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputGradientTensor.DataType (FLOAT16)");
    grad_fixture_init(&f);
    unit_tensor_set_type(&f.droi, F16);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputROIGradientTensor.DataType (FLOAT16)");
    grad_fixture_init(&f);
    unit_tensor_set_type(&f.idx, I32);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "BatchIndicesTensor.DataType (INT32)", "UINT32");
    /* Ranks and sizes. */
    grad_fixture_init(&f);
    unit_tensor_set(&f.dy, F32, 3, (UINT[]){5, 3, 8}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputGradientTensor.DimensionCount (3)", "4");
    grad_fixture_init(&f);
    unit_tensor_set(&f.x, F32, 3, (UINT[]){2, 3, 72}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputTensor.DimensionCount (3)", "4");
    grad_fixture_init(&f);
    unit_tensor_set(&f.dx, F32, 5, (UINT[]){1, 2, 3, 8, 9}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputGradientTensor.DimensionCount (5)", "4");
    grad_fixture_init(&f);
    unit_tensor_set(&f.rois, F32, 2, (UINT[]){5, 5}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "ROITensor.Sizes ({5,5})", "{NumROIs, 4}");
    grad_fixture_init(&f);
    unit_tensor_set(&f.idx, U32, 1, (UINT[]){4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "BatchIndicesTensor.Sizes ({4})", "NumROIs");
    grad_fixture_init(&f);
    unit_tensor_set(&f.dy, F32, 4, (UINT[]){4, 3, 2, 4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputGradientTensor.Sizes[0] (4)", "NumROIs (5");
    grad_fixture_init(&f);
    unit_tensor_set(&f.dx, F32, 4, (UINT[]){2, 3, 8, 8}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputGradientTensor.Sizes", "InputTensor.Sizes");
    grad_fixture_init(&f);
    unit_tensor_set(&f.dy, F32, 4, (UINT[]){5, 2, 2, 4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputTensor.Sizes[1] (3)",
           "InputGradientTensor.Sizes[1] (2)");
    grad_fixture_init(&f);
    f.d.InputTensor = NULL;
    f.d.OutputROIGradientTensor = NULL;
    unit_tensor_set(&f.dy, F32, 4, (UINT[]){5, 2, 2, 4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputGradientTensor.Sizes[1] (3)",
           "InputGradientTensor.Sizes[1] (2)");
    grad_fixture_init(&f);
    unit_tensor_set(&f.droi, F32, 3, (UINT[]){1, 5, 4}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputROIGradientTensor.DimensionCount (3)",
           "ROITensor.DimensionCount (2)");
    grad_fixture_init(&f);
    unit_tensor_set(&f.droi, F32, 2, (UINT[]){5, 3}, NULL);
    EXPECT(create(AG, &f.d), E_INVALIDARG, "OutputROIGradientTensor.Sizes", "ROITensor.Sizes");
    /* Members: the forward's rules. */
    grad_fixture_init(&f);
    f.d.ReductionFunction = DML_REDUCE_FUNCTION_SUM;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "ReductionFunction (", "AVERAGE");
    grad_fixture_init(&f);
    f.d.InterpolationMode = (DML_INTERPOLATION_MODE)3;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InterpolationMode (3)");
    grad_fixture_init(&f);
    f.d.MinimumSamplesPerOutput = 0;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "MinimumSamplesPerOutput (0)", "at least 1");
    grad_fixture_init(&f);
    f.d.MinimumSamplesPerOutput = 5;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "MinimumSamplesPerOutput (5)",
           "MaximumSamplesPerOutput (4)");
    grad_fixture_init(&f);
    f.d.InputGradientTensor = NULL;
    EXPECT(create(AG, &f.d), E_INVALIDARG, "InputGradientTensor");
}

/* The description and the launch: the optional tensors bound in the kernel's order, the
 * variant's macros, one item per element of either output. */
Test(roi_validate, align_grad_lowering)
{
    static const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
        (uint64_t)32 << 20,     16};
    grad_fixture f;
    grad_fixture_init(&f);
    unit_tensor_set(&f.droi, F32, 3, (UINT[]){1, 5, 4}, (UINT[]){40, 8, 2});
    unit_tensor_set(&f.rois, F32, 3, (UINT[]){1, 5, 4}, NULL);
    f.d.ReductionFunction = DML_REDUCE_FUNCTION_MAX;
    f.d.AlignRegionsToCorners = 1;
    DML_OPERATOR_DESC d = {AG, &f.d};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    const dmli_compute *c = &st->compute;
    cr_assert(st->computed && c->kind == DMLI_COMPUTE_ROI && c->n_tensors == 6);
    cr_expect(!c->tensors[3].output && c->tensors[4].output && c->tensors[5].output);
    const dmli_roi *r = DMLI_COMPUTE_WORK_CONST(c, dmli_roi);
    cr_expect_eq(r->kind, DMLI_ROI_ALIGN_GRAD);
    cr_expect(r->has_x && r->has_dx && r->has_droi && r->max && r->corners);
    cr_expect(r->droi_sr == 8 && r->droi_sk == 2, "%lld %lld", (long long)r->droi_sr,
              (long long)r->droi_sk);
    dmli_compute_launch l;
    memset(&l, 0, sizeof l);
    dmli_launch_roi(c, &cpu, &l);
    cr_expect_str_eq(l.kernel, "roi_align_grad");
    cr_expect_str_eq(dmli_options_value(&l.defs, "ALIGN_GRAD"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "HAS_X"), "1");
    cr_expect_str_eq(dmli_options_value(&l.defs, "MAXMODE"), "1");
    cr_expect_eq(l.table[DMLI_RG_DX_ITEMS], 2 * 3 * 8 * 9);
    cr_expect_eq(l.table[DMLI_RG_DROI_ITEMS], 20);
    cr_expect_eq(l.table[DMLI_RG_ITEMS], 2 * 3 * 8 * 9 + 20);
    cr_expect_geq(l.global[0], 2 * 3 * 8 * 9 + 20);
    dmlcl_operator_release(op);
    /* The input gradient alone, AVERAGE: no InputTensor bound; the sizes from the output. */
    grad_fixture_init(&f);
    f.d.InputTensor = NULL;
    f.d.OutputROIGradientTensor = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    c = &dmli_operator_state(op)->compute;
    cr_expect_eq(c->n_tensors, 4);
    memset(&l, 0, sizeof l);
    dmli_launch_roi(c, &cpu, &l);
    cr_expect_str_eq(dmli_options_value(&l.defs, "HAS_X"), "0");
    cr_expect_str_eq(dmli_options_value(&l.defs, "HAS_DROI"), "0");
    cr_expect_eq(l.table[DMLI_RG_IN_W], 9);
    cr_expect_eq(l.table[DMLI_RG_DROI_ITEMS], 0);
    dmlcl_operator_release(op);
}

/* ---- Windows ------------------------------------------------------------------------------- */

/* Image {2, 3, 6, 7}, window {3, 2}, strides {2, 1}, dilations {1, 2}, pads {1, 0} / {0, 1}:
 * blocks {3, 6} (L 18), columns {2, 18, 18}. */
typedef struct window_fixture {
    unit_tensor img, col;
    UINT window[2], strides[2], dilations[2], start[2], end[2];
    DML_FOLD_OPERATOR_DESC fold;
    DML_UNFOLD_OPERATOR_DESC unfold;
} window_fixture;

static void windows(window_fixture *f)
{
    memset(f, 0, sizeof *f);
    const DML_TENSOR_DESC *img = unit_tensor_set(&f->img, F32, 4, (UINT[]){2, 3, 6, 7}, NULL);
    const DML_TENSOR_DESC *col = unit_tensor_set(&f->col, F32, 3, (UINT[]){2, 18, 18}, NULL);
    memcpy(f->window, (UINT[]){3, 2}, sizeof f->window);
    memcpy(f->strides, (UINT[]){2, 1}, sizeof f->strides);
    memcpy(f->dilations, (UINT[]){1, 2}, sizeof f->dilations);
    memcpy(f->start, (UINT[]){1, 0}, sizeof f->start);
    memcpy(f->end, (UINT[]){0, 1}, sizeof f->end);
    f->fold = (DML_FOLD_OPERATOR_DESC){col,        img,          2,        f->window,
                                       f->strides, f->dilations, f->start, f->end};
    f->unfold = (DML_UNFOLD_OPERATOR_DESC){img,        col,          2,        f->window,
                                           f->strides, f->dilations, f->start, f->end};
}

Test(roi_validate, the_window_fixtures_are_valid)
{
    window_fixture f;
    windows(&f);
    cr_expect_eq(create(DML_OPERATOR_FOLD, &f.fold), S_OK, "%s", dmlcl_last_error());
    cr_expect_eq(create(DML_OPERATOR_UNFOLD, &f.unfold), S_OK, "%s", dmlcl_last_error());
    unit_tensor_set(&f.col, F32, 5, (UINT[]){1, 1, 2, 18, 18}, NULL); /* leading 1s */
    cr_expect_eq(create(DML_OPERATOR_FOLD, &f.fold), S_OK, "%s", dmlcl_last_error());
}

Test(roi_validate, window_members)
{
    window_fixture f;
    windows(&f);
    f.fold.DimensionCount = 0;
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD", "DimensionCount (0)",
           "[1, 6]");
    windows(&f);
    f.unfold.DimensionCount = 7;
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD", "DimensionCount (7)",
           "[1, 6]");
    windows(&f);
    f.fold.Dilations = NULL;
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD", "Dilations is NULL");
    windows(&f);
    f.strides[1] = 0;
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD", "Strides[1] (0)",
           "at least 1");
    windows(&f);
    f.window[0] = 0;
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD", "WindowSizes[0] (0)",
           "at least 1");
    windows(&f);
    f.dilations[0] = 0;
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD", "Dilations[0] (0)");
    windows(&f);
    f.window[1] = 5; /* 2 * 4 + 1 > 7 + 1 */
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD",
           "no window fits along spatial dimension 1", "InputTensor.Sizes[3] (7)");
}

Test(roi_validate, window_tensors)
{
    window_fixture f;
    windows(&f);
    unit_tensor_set_type(&f.col, F16);
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD", "OutputTensor",
           "FLOAT16");
    windows(&f);
    unit_tensor_set(&f.img, F32, 5, (UINT[]){1, 2, 3, 6, 7}, NULL);
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD",
           "OutputTensor.DimensionCount (5)", "DimensionCount + 2 (4)");
    windows(&f);
    unit_tensor_set(&f.col, F32, 3, (UINT[]){2, 18, 17}, NULL);
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD", "OutputTensor.Sizes",
           "{2,18,17}", "{2,18,18}");
    windows(&f);
    unit_tensor_set(&f.col, F32, 3, (UINT[]){2, 17, 18}, NULL);
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD", "InputTensor.Sizes[1] (17)",
           "OutputTensor.Sizes[1] (3)", "WindowSizes (6)");
    windows(&f);
    unit_tensor_set(&f.col, F32, 2, (UINT[]){36, 18}, NULL);
    EXPECT(create(DML_OPERATOR_FOLD, &f.fold), E_INVALIDARG, "FOLD",
           "InputTensor.DimensionCount (2)", "at least 3");
    windows(&f);
    unit_tensor_set(&f.col, F32, 4, (UINT[]){2, 1, 18, 18}, NULL);
    EXPECT(create(DML_OPERATOR_UNFOLD, &f.unfold), E_INVALIDARG, "UNFOLD", "OutputTensor.Sizes",
           "{2,1,18,18}", "leading 1s");
}

Test(roi_validate, window_lowering)
{
    window_fixture f;
    windows(&f);
    unit_tensor_set(&f.col, F32, 3, (UINT[]){2, 18, 18}, (UINT[]){400, 20, 1});
    DML_OPERATOR_DESC d = {DML_OPERATOR_FOLD, &f.fold};
    dmlcl_operator *op = NULL;
    cr_assert_eq(dmlcl_operator_create(NULL, &d, &op), S_OK, "%s", dmlcl_last_error());
    const dmli_op_state *st = dmli_operator_state(op);
    const dmli_compute *c = &st->compute;
    cr_assert(st->computed && c->kind == DMLI_COMPUTE_ROI && c->n_tensors == 2);
    const dmli_roi *r = DMLI_COMPUTE_WORK_CONST(c, dmli_roi);
    cr_expect_eq(r->kind, DMLI_ROI_FOLD);
    cr_expect_eq(r->k, 6);
    cr_expect_eq(r->l, 18);
    cr_expect_eq(r->blocks[0], 3);
    cr_expect_eq(r->blocks[1], 6);
    cr_expect_eq(r->col_sn, 400);
    cr_expect_eq(r->col_sk, 20);
    cr_expect_eq(r->img_s[0], 7);
    /* The launch: the fold kernel, its table, one item per image element. */
    static const dmli_device_desc cpu = {
        DMLCL_DEVICE_CLASS_CPU, 16, 4096, {4096, 4096, 4096}, 512 * 1024, 16, 8, 128, true, 4352,
        (uint64_t)32 << 20,     16};
    dmli_compute_launch l;
    memset(&l, 0, sizeof l);
    dmli_launch_roi(c, &cpu, &l);
    cr_expect_str_eq(l.kernel, "fold");
    cr_expect_eq(l.table[DMLI_WN_ITEMS], 2 * 3 * 6 * 7);
    cr_expect_eq(l.table[DMLI_WN_DIM(1) + 3], 2, "dimension 1's dilation");
    cr_expect_eq(l.table[DMLI_WN_DIM(0) + 4], 1, "dimension 0's start padding");
    cr_expect_eq(l.local[0], 64);
    cr_expect_eq(l.global[0] % 64, 0);
    cr_expect_geq(l.global[0], 2 * 3 * 6 * 7);
    dmlcl_operator_release(op);
}
