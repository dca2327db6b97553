/* SPDX-License-Identifier: MIT */
/*
 * DML_OPERATOR_AVERAGE_POOLING_GRAD and DML_OPERATOR_MAX_POOLING_GRAD (feature level 3.0): the
 * backward passes of AVERAGE_POOLING and MAX_POOLING2. OutputGradientTensor has the forward
 * input's sizes, InputGradientTensor the forward output's; each output element x gathers the
 * incoming gradient of every forward window that holds x (the pages: "where indices overlap,
 * the values are summed"; elements no window selects are 0):
 *
 *   AVERAGE: dX[x] = sum over windows o holding x of dY[o] / count(o), count(o) the window's
 *            positions inside the input, or with IncludePadding inside the padded input (the
 *            forward's divisor, docs/operators.md#pooling);
 *   MAX:     dX[x] = sum over windows o whose maximum (the forward's rule: NaN only where
 *            nothing else is, +0 above -0, of equal maxima the lowest logical index, as the
 *            page says) is x of dY[o], the maximum found in InputTensor.
 *
 * Rules: the forward operators' (src/ops/pool.c) with the roles renamed: OutputGradientTensor
 * {N, C, H, W} or {N, C, D, H, W}, DimensionCount its spatial count; InputGradientTensor of its
 * DataType and DimensionCount, Sizes {N, C, o...} with o = (padded - window) / stride + 1 (or
 * one more where that division is inexact: ceil_mode; 1 where the window is larger than the
 * padded input); MAX's InputTensor of OutputGradientTensor's DataType and Sizes; every array
 * non-NULL, Strides, WindowSize and Dilations at least 1. Types FLOAT32 and FLOAT16. Lowers to
 * the gradient family's pool_grad (cl/grad.cl): a gather per output element, the windows in
 * row-major order, a compensated float sum rounded once: deterministic on every device.
 */
#include "grad.h"
#include "ops/common.h"

typedef struct pool_grad_view {
    const char *op;
    bool max;
    const DML_TENSOR_DESC *x, *dy, *dx;
    UINT dims;
    const UINT *strides, *window, *start, *end, *dilations; /* dilations NULL: all 1 */
    bool include_padding;
} pool_grad_view;

static pool_grad_view average_view(const void *desc)
{
    const DML_AVERAGE_POOLING_GRAD_OPERATOR_DESC *d = desc;
    return (pool_grad_view){"AVERAGE_POOLING_GRAD",
                            false,
                            NULL,
                            d->InputGradientTensor,
                            d->OutputGradientTensor,
                            d->DimensionCount,
                            d->Strides,
                            d->WindowSize,
                            d->StartPadding,
                            d->EndPadding,
                            NULL,
                            d->IncludePadding != 0};
}

static pool_grad_view max_view(const void *desc)
{
    const DML_MAX_POOLING_GRAD_OPERATOR_DESC *d = desc;
    return (pool_grad_view){"MAX_POOLING_GRAD",
                            true,
                            d->InputTensor,
                            d->InputGradientTensor,
                            d->OutputGradientTensor,
                            d->DimensionCount,
                            d->Strides,
                            d->WindowSize,
                            d->StartPadding,
                            d->EndPadding,
                            d->Dilations,
                            false};
}

static HRESULT check_array(const pool_grad_view *v, const char *field, const UINT *a, UINT min)
{
    DMLI_INVALID_IF(!a, "%s: %s is NULL (it has DimensionCount (%u) entries)", v->op, field,
                    v->dims);
    for (UINT i = 0; i < v->dims; ++i)
        DMLI_INVALID_IF(a[i] < min, "%s: %s[%u] (%u) must be at least %u", v->op, field, i, a[i],
                        min);
    return S_OK;
}

/* Slots: MAX InputTensor 0, InputGradientTensor 1; AVERAGE InputGradientTensor 0. */
static dmli_tensor *dy_of(const pool_grad_view *v, dmli_op_state *st)
{
    return &st->inputs[v->max ? 1 : 0];
}

static HRESULT validate_view(const pool_grad_view *v, dmli_op_state *st)
{
    const char *op = v->op;
    dmli_tensor *dy = dy_of(v, st), *dx = &st->outputs[0], *x = &st->inputs[0];
    if (v->max)
        DMLI_TRY(dmli_tensor_import(op, "InputTensor", v->x, DMLI_TENSOR_INPUT, x));
    DMLI_TRY(dmli_tensor_import(op, "InputGradientTensor", v->dy, DMLI_TENSOR_INPUT, dy));
    DMLI_TRY(dmli_tensor_import(op, "OutputGradientTensor", v->dx, DMLI_TENSOR_OUTPUT, dx));
    DMLI_INVALID_IF(dy->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        dy->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: InputGradientTensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)",
                    op, dmli_type_name(dy->type), op);
    DMLI_INVALID_IF(dx->rank != 4 && dx->rank != 5,
                    "%s: OutputGradientTensor.DimensionCount (%u) must be 4 ({N, C, H, W}) or 5 "
                    "({N, C, D, H, W})",
                    op, dx->rank);
    DMLI_TRY(dmli_ops_same_type(op, "OutputGradientTensor", dx, "InputGradientTensor", dy));
    DMLI_TRY(dmli_ops_same_rank(op, "InputGradientTensor", dy, "OutputGradientTensor", dx));
    if (v->max) {
        DMLI_TRY(dmli_ops_same_type(op, "InputTensor", x, "InputGradientTensor", dy));
        DMLI_TRY(dmli_ops_same_rank(op, "InputTensor", x, "OutputGradientTensor", dx));
    }
    DMLI_INVALID_IF(v->dims != dx->rank - 2,
                    "%s: DimensionCount (%u) must be OutputGradientTensor.DimensionCount - 2 (%u): "
                    "the spatial dimensions",
                    op, v->dims, dx->rank - 2);
    DMLI_TRY(check_array(v, "Strides", v->strides, 1));
    DMLI_TRY(check_array(v, "WindowSize", v->window, 1));
    DMLI_TRY(check_array(v, "StartPadding", v->start, 0));
    DMLI_TRY(check_array(v, "EndPadding", v->end, 0));
    if (v->max)
        DMLI_TRY(check_array(v, "Dilations", v->dilations, 1));
    st->n_inputs = v->max ? 2 : 1;
    st->n_outputs = 1;
    st->input_names[0] = v->max ? "InputTensor" : "InputGradientTensor";
    st->input_names[1] = "InputGradientTensor";
    st->output_names[0] = "OutputGradientTensor";
    return S_OK;
}

static uint64_t dilation_of(const pool_grad_view *v, UINT i)
{
    return v->dilations ? v->dilations[i] : 1;
}

/* InputGradientTensor's Sizes: the forward output's for a forward input of
 * OutputGradientTensor's (src/ops/pool.c's rule, ceil_mode's one more included). */
static HRESULT infer_view(const pool_grad_view *v, dmli_op_state *st)
{
    const dmli_tensor *dy = dy_of(v, st), *dx = &st->outputs[0];
    if (v->max)
        DMLI_TRY(dmli_ops_expect_sizes(v->op, "InputTensor", &st->inputs[0], dx->sizes,
                                       "OutputGradientTensor.Sizes: the forward input's"));
    uint64_t want[DMLI_MAX_RANK] = {dx->sizes[0], dx->sizes[1]}, ceil_sizes[DMLI_MAX_RANK];
    bool ceil_ok = dy->sizes[0] == want[0] && dy->sizes[1] == want[1];
    for (UINT i = 0; i < v->dims; ++i) {
        uint64_t padded = dx->sizes[2 + i] + v->start[i] + v->end[i];
        uint64_t window = ((uint64_t)v->window[i] - 1) * dilation_of(v, i) + 1;
        bool past = window > padded;
        DMLI_INVALID_IF(past && window > UINT32_MAX,
                        "%s: the window on spatial axis %u ((WindowSize %u - 1) * Dilations %llu "
                        "+ 1 = %llu) is larger than both the padded output gradient (%llu) and "
                        "4294967295",
                        v->op, i, v->window[i], (unsigned long long)dilation_of(v, i),
                        (unsigned long long)window, (unsigned long long)padded);
        want[2 + i] = past ? 1 : (padded - window) / v->strides[i] + 1;
        uint64_t got = dy->sizes[2 + i];
        if (got != want[2 + i] &&
            (past || got != want[2 + i] + 1 || (padded - window) % v->strides[i] == 0))
            ceil_ok = false;
        ceil_sizes[2 + i] = got;
    }
    ceil_sizes[0] = want[0];
    ceil_sizes[1] = want[1];
    return dmli_ops_expect_sizes(
        v->op, "InputGradientTensor", dy, ceil_ok ? ceil_sizes : want,
        "{N, C} of OutputGradientTensor, then (padded - window) / stride + 1 per spatial axis (1 "
        "where the window is larger than the padded output gradient), or one more where that "
        "division is inexact (ceil_mode): the forward pooling's output");
}

static void lower_view(const pool_grad_view *v, dmli_op_state *st)
{
    const dmli_tensor *dy = dy_of(v, st), *dx = &st->outputs[0];
    const dmli_tensor *x = v->max ? &st->inputs[0] : dy;
    dmli_compute *c = &st->compute;
    dmli_compute_init(c, DMLI_COMPUTE_GRAD);
    dmli_compute_add(c, st, false, 0);              /* X, or the gradient standing in */
    dmli_compute_add(c, st, false, v->max ? 1 : 0); /* dY */
    dmli_compute_add(c, st, true, 0);               /* dX */
    dmli_grad *g = DMLI_COMPUTE_WORK(c, dmli_grad);
    g->kind = v->max ? DMLI_GRAD_MAX_POOL : DMLI_GRAD_AVERAGE_POOL;
    g->elem_bytes = dx->elem_bytes;
    g->count = (int64_t)dx->elements;
    dmli_grad_pool *p = &g->pool;
    p->n = (int64_t)dx->sizes[0];
    p->c = (int64_t)dx->sizes[1];
    p->include_padding = v->include_padding;
    p->half = dx->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    for (int a = 0; a < 3; ++a) {
        p->in[a] = p->out[a] = p->window[a] = p->stride[a] = p->dilation[a] = 1;
        p->start[a] = p->end[a] = 0;
    }
    const dmli_tensor *ts[3] = {x, dy, dx};
    for (int t = 0; t < 3; ++t) {
        p->strides[t][0] = ts[t]->strides[0];
        p->strides[t][1] = ts[t]->strides[1];
        p->strides[t][2] = 0; /* a 4-D tensor's D: one element */
    }
    UINT first = 3 - v->dims;
    for (UINT i = 0; i < v->dims; ++i) {
        UINT a = first + i;
        p->in[a] = (int64_t)dx->sizes[2 + i];
        p->out[a] = (int64_t)dy->sizes[2 + i];
        p->window[a] = v->window[i];
        p->stride[a] = v->strides[i];
        p->dilation[a] = (int64_t)dilation_of(v, i);
        p->start[a] = v->start[i];
        p->end[a] = v->end[i];
        for (int t = 0; t < 3; ++t)
            p->strides[t][2 + a] = ts[t]->strides[2 + i];
    }
    st->computed = true;
}

static HRESULT validate_average(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = average_view(desc);
    return validate_view(&v, st);
}
static HRESULT infer_average(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = average_view(desc);
    return infer_view(&v, st);
}
static void lower_average(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = average_view(desc);
    lower_view(&v, st);
}
static HRESULT validate_max(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = max_view(desc);
    return validate_view(&v, st);
}
static HRESULT infer_max(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = max_view(desc);
    return infer_view(&v, st);
}
static void lower_max(const void *desc, dmli_op_state *st)
{
    pool_grad_view v = max_view(desc);
    lower_view(&v, st);
}

const dmli_op_steps dmli_op_average_pooling_grad = {
    .validate = validate_average, .infer = infer_average, .lower = lower_average};
const dmli_op_steps dmli_op_max_pooling_grad = {
    .validate = validate_max, .infer = infer_max, .lower = lower_max};
