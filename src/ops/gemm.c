/* SPDX-License-Identifier: MIT */
/*
 * DirectML's GEMM: Output = FusedActivation(Alpha * TransA(A) x TransB(B) + Beta * C), one
 * product per batch coordinate. A computed operator of the matrix family (gemm.h,
 * launch_gemm.c, cl/gemm.cl): a transpose is a swap of the two innermost strides, never a
 * copy; every tensor is read through its own strides.
 *
 * DirectML's rules (the page; feature levels up to 6.4): ATensor, BTensor, CTensor (optional)
 * and OutputTensor of one DataType, FLOAT32 or FLOAT16, and one DimensionCount; A's Sizes
 * {batch..., M, K} ({..., K, M} with TransA TRANSPOSE), B's {batch..., K, N} ({..., N, K}),
 * C's and the output's {batch..., M, N}; TransA and TransB NONE or TRANSPOSE; FusedActivation
 * one DirectML fuses, or ACTIVATION_SOFTMAX / SOFTMAX1 (GEMM's own from feature level 6.1).
 * DirectML's table lists 4 dimensions (feature level 1.0) and 2 to 4 (4.0); dmlcl also takes
 * up to 8, the leading ones batch dimensions as the 4-D form's {BatchCount, ChannelCount}
 * (docs/operators.md). Batch sizes equal the output's in every tensor: a broadcast batch (ONNX
 * MatMul's) is a stride of 0, as ONNX Runtime's DirectML provider describes it.
 */
#include <string.h>

#include "gemm.h"
#include "ops/activation.h"
#include "ops/common.h"
#include "ops/normalize.h"

#define OP "GEMM"

typedef struct gemm_scratch {
    dmli_activation act;
    bool softmax;        /* FusedActivation SOFTMAX or SOFTMAX1 */
    dmli_norm_axes rows; /* ... the output dimensions of its rows */
} gemm_scratch;

/* FusedActivation ACTIVATION_SOFTMAX or ACTIVATION_SOFTMAX1, which GEMM alone fuses (feature
 * level 6.1, the feature-level history): the fused descriptor's tensors NULL, as every fused
 * activation's; SOFTMAX normalises the output's last dimension (its own page's rows),
 * SOFTMAX1 the output dimensions its Axes name (a set, each below the output's
 * DimensionCount). */
static HRESULT fused_softmax(const DML_OPERATOR_DESC *fused, uint32_t rank, gemm_scratch *s)
{
    const bool one = fused->Type == DML_OPERATOR_ACTIVATION_SOFTMAX1;
    DMLI_TRY(dmli_activation_fused_desc(OP, "FusedActivation", fused,
                                        one ? "ACTIVATION_SOFTMAX1" : "ACTIVATION_SOFTMAX"));
    const DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC *d = fused->Desc;
    memset(&s->rows, 0, sizeof s->rows);
    if (one)
        DMLI_TRY(dmli_norm_axes_check(OP ": FusedActivation->Desc (ACTIVATION_SOFTMAX1)",
                                      d->AxisCount, d->Axes, rank, &s->rows));
    else
        s->rows.reduced[rank - 1] = true;
    s->softmax = true;
    s->act.act = DMLI_ACT_NONE;
    s->act.param[0] = s->act.param[1] = s->act.param[2] = 0.0;
    return S_OK;
}

static HRESULT check_transform(const char *field, DML_MATRIX_TRANSFORM t)
{
    DMLI_INVALID_IF(t != DML_MATRIX_TRANSFORM_NONE && t != DML_MATRIX_TRANSFORM_TRANSPOSE,
                    "%s: %s (%d) must be DML_MATRIX_TRANSFORM_NONE (0) or "
                    "DML_MATRIX_TRANSFORM_TRANSPOSE (1)",
                    OP, field, (int)t);
    return S_OK;
}

static HRESULT validate(const void *desc, dmli_op_state *st)
{
    const DML_GEMM_OPERATOR_DESC *d = desc;
    dmli_tensor *a = &st->inputs[0], *b = &st->inputs[1], *c = &st->inputs[2],
                *out = &st->outputs[0];
    DMLI_TRY(dmli_tensor_import(OP, "ATensor", d->ATensor, DMLI_TENSOR_INPUT, a));
    DMLI_TRY(dmli_tensor_import(OP, "BTensor", d->BTensor, DMLI_TENSOR_INPUT, b));
    DMLI_TRY(
        dmli_tensor_import(OP, "CTensor", d->CTensor, DMLI_TENSOR_INPUT | DMLI_TENSOR_OPTIONAL, c));
    DMLI_TRY(dmli_tensor_import(OP, "OutputTensor", d->OutputTensor, DMLI_TENSOR_OUTPUT, out));
    DMLI_INVALID_IF(a->type != DML_TENSOR_DATA_TYPE_FLOAT32 &&
                        a->type != DML_TENSOR_DATA_TYPE_FLOAT16,
                    "%s: ATensor.DataType (%s) is not one %s takes (FLOAT32, FLOAT16)", OP,
                    dmli_type_name(a->type), OP);
    DMLI_INVALID_IF(a->rank < 2,
                    "%s: ATensor.DimensionCount (%u) must be 2 to 8 ({batch..., M, K}: the "
                    "two innermost dimensions are the matrix)",
                    OP, a->rank);
    DMLI_TRY(dmli_ops_same_type(OP, "BTensor", b, "ATensor", a));
    DMLI_TRY(dmli_ops_same_rank(OP, "BTensor", b, "ATensor", a));
    if (c->present) {
        DMLI_TRY(dmli_ops_same_type(OP, "CTensor", c, "ATensor", a));
        DMLI_TRY(dmli_ops_same_rank(OP, "CTensor", c, "ATensor", a));
    }
    DMLI_TRY(dmli_ops_same_type(OP, "OutputTensor", out, "ATensor", a));
    DMLI_TRY(dmli_ops_same_rank(OP, "OutputTensor", out, "ATensor", a));
    DMLI_TRY(check_transform("TransA", d->TransA));
    DMLI_TRY(check_transform("TransB", d->TransB));
    uint32_t r = a->rank;
    uint64_t ka = d->TransA ? a->sizes[r - 2] : a->sizes[r - 1];
    uint64_t kb = d->TransB ? b->sizes[r - 1] : b->sizes[r - 2];
    DMLI_INVALID_IF(ka != kb,
                    "%s: the inner dimensions differ: ATensor's K (Sizes[%u] = %llu, TransA %s) "
                    "must equal BTensor's K (Sizes[%u] = %llu, TransB %s)",
                    OP, d->TransA ? r - 2 : r - 1, (unsigned long long)ka,
                    d->TransA ? "TRANSPOSE" : "NONE", d->TransB ? r - 1 : r - 2,
                    (unsigned long long)kb, d->TransB ? "TRANSPOSE" : "NONE");
    for (uint32_t i = 0; i + 2 < r; ++i)
        DMLI_INVALID_IF(a->sizes[i] != b->sizes[i],
                        "%s: BTensor.Sizes[%u] (%llu) must equal ATensor.Sizes[%u] (%llu): the "
                        "batch dimensions agree (a broadcast batch is a stride of 0)",
                        OP, i, (unsigned long long)b->sizes[i], i, (unsigned long long)a->sizes[i]);
    gemm_scratch *s = DMLI_OP_SCRATCH(st, gemm_scratch);
    s->softmax = false;
    const DML_OPERATOR_DESC *fa = d->FusedActivation;
    if (fa && (fa->Type == DML_OPERATOR_ACTIVATION_SOFTMAX ||
               fa->Type == DML_OPERATOR_ACTIVATION_SOFTMAX1))
        DMLI_TRY(fused_softmax(fa, r, s));
    else
        DMLI_TRY(dmli_activation_fused(OP, "FusedActivation", fa, out->type, &s->act));
    st->input_names[0] = "ATensor";
    st->input_names[1] = "BTensor";
    st->input_names[2] = "CTensor";
    st->output_names[0] = "OutputTensor";
    st->n_inputs = 3;
    st->n_outputs = 1;
    return S_OK;
}

/* The output's Sizes: A's batch, then M and N. */
static void output_sizes(const DML_GEMM_OPERATOR_DESC *d, const dmli_op_state *st, uint64_t *want)
{
    const dmli_tensor *a = &st->inputs[0], *b = &st->inputs[1];
    uint32_t r = a->rank;
    for (uint32_t i = 0; i + 2 < r; ++i)
        want[i] = a->sizes[i];
    want[r - 2] = d->TransA ? a->sizes[r - 1] : a->sizes[r - 2];
    want[r - 1] = d->TransB ? b->sizes[r - 2] : b->sizes[r - 1];
}

static HRESULT infer(const void *desc, dmli_op_state *st)
{
    uint64_t want[DMLI_MAX_RANK];
    output_sizes(desc, st, want);
    DMLI_TRY(dmli_ops_expect_sizes(OP, "OutputTensor", &st->outputs[0], want,
                                   "A's batch sizes, then M and N"));
    if (st->inputs[2].present)
        DMLI_TRY(dmli_ops_expect_sizes(OP, "CTensor", &st->inputs[2], want,
                                       "the output's; a broadcast C is a stride of 0"));
    return S_OK;
}

static void lower(const void *desc, dmli_op_state *st)
{
    const DML_GEMM_OPERATOR_DESC *d = desc;
    const dmli_tensor *a = &st->inputs[0], *b = &st->inputs[1], *c = &st->inputs[2],
                      *out = &st->outputs[0];
    const gemm_scratch *s = DMLI_OP_SCRATCH(st, gemm_scratch);
    st->computed = true;
    dmli_compute *cp = &st->compute;
    dmli_compute_init(cp, DMLI_COMPUTE_GEMM);
    dmli_gemm *g = DMLI_COMPUTE_WORK(cp, dmli_gemm);
    uint32_t r = a->rank;
    g->type = out->type;
    g->m = (int64_t)out->sizes[r - 2];
    g->n = (int64_t)out->sizes[r - 1];
    g->k = (int64_t)(d->TransA ? a->sizes[r - 2] : a->sizes[r - 1]);
    g->rank = (int)r;
    g->a_dim[0] = d->TransA ? (int)r - 1 : (int)r - 2; /* m */
    g->a_dim[1] = d->TransA ? (int)r - 2 : (int)r - 1; /* k */
    g->b_dim[0] = d->TransB ? (int)r - 1 : (int)r - 2; /* k */
    g->b_dim[1] = d->TransB ? (int)r - 2 : (int)r - 1; /* n */
    g->a_m = d->TransA ? a->strides[r - 1] : a->strides[r - 2];
    g->a_k = d->TransA ? a->strides[r - 2] : a->strides[r - 1];
    g->b_k = d->TransB ? b->strides[r - 1] : b->strides[r - 2];
    g->b_n = d->TransB ? b->strides[r - 2] : b->strides[r - 1];
    g->has_c = c->present;
    g->c_m = c->present ? c->strides[r - 2] : 0;
    g->c_n = c->present ? c->strides[r - 1] : 0;
    g->o_m = out->strides[r - 2];
    g->o_n = out->strides[r - 1];
    /* Batch dimensions of one element carry nothing. */
    for (uint32_t i = 0; i + 2 < r; ++i) {
        if (out->sizes[i] == 1)
            continue;
        int j = g->batch_rank++;
        g->batch_dim[j] = (int)i;
        g->batch[j] = (int64_t)out->sizes[i];
        g->a_b[j] = a->strides[i];
        g->b_b[j] = b->strides[i];
        g->c_b[j] = c->present ? c->strides[i] : 0;
        g->o_b[j] = out->strides[i];
        g->softmax_batch[j] = s->softmax && s->rows.reduced[i];
    }
    g->softmax = s->softmax;
    g->softmax_m = s->softmax && s->rows.reduced[r - 2];
    g->softmax_n = s->softmax && s->rows.reduced[r - 1];
    g->alpha = d->Alpha;
    g->beta = c->present ? d->Beta : 0.0;
    g->act = s->act.act;
    for (int i = 0; i < 3; ++i)
        g->act_param[i] = s->act.param[i];
    dmli_compute_add(cp, st, false, 0);
    dmli_compute_add(cp, st, false, 1);
    dmli_compute_add(cp, st, false, c->present ? 2 : 0); /* A stands in for an absent C */
    dmli_compute_add(cp, st, true, 0);
}

const dmli_op_steps dmli_op_gemm = {.validate = validate, .infer = infer, .lower = lower};
