/* SPDX-License-Identifier: MIT */
/*
 * The normalising operators' lowering, run on the host: a small interpreter of dmli_reduce
 * (internal.h's semantics for SOFTMAX, LOG_SOFTMAX, HARDMAX, MVN, LP_NORM, in double) walks
 * each random case's reduction, before and after dmli_reduce_normalize, over FLOAT32 buffers
 * through the plan's own strides and offsets, and must agree with the oracle
 * (tests/ref/ref_normalize.c) read through the descriptions' strides: the axes, every
 * tensor's strides, scale and bias broadcast and the parameters are what the kernel needs.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ref_normalize.h"
#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32
#define MAX_ELEMS 4096

/* The value of op for element i of a row x (n values), internal.h's semantics. */
static double row_value(const dmli_reduce *r, const double *x, size_t n, size_t i)
{
    double m = -INFINITY, s = 0;
    switch (r->op) {
    case DMLI_REDUCE_SOFTMAX:
    case DMLI_REDUCE_LOG_SOFTMAX:
        for (size_t j = 0; j < n; ++j)
            m = fmax(m, x[j]);
        for (size_t j = 0; j < n; ++j)
            s += exp(x[j] - m);
        return r->op == DMLI_REDUCE_SOFTMAX ? exp(x[i] - m) / s : x[i] - m - log(s);
    case DMLI_REDUCE_HARDMAX: {
        size_t first = 0;
        for (size_t j = 1; j < n; ++j)
            if (x[j] > x[first])
                first = j;
        return i == first;
    }
    case DMLI_REDUCE_MVN: {
        double mean = 0, v = 0;
        for (size_t j = 0; r->use_mean && j < n; ++j)
            mean += x[j] / (double)n;
        if (!r->use_variance)
            return x[i] - mean;
        for (size_t j = 0; j < n; ++j)
            v += (x[j] - mean) * (x[j] - mean) / (double)n;
        return (x[i] - mean) / sqrt(v + r->param[DMLI_MAP_PARAM_OP]);
    }
    case DMLI_REDUCE_LP_NORM:
        for (size_t j = 0; j < n; ++j)
            s += r->iparam[DMLI_MAP_PARAM_OP] == 1 ? fabs(x[j]) : x[j] * x[j];
        s = r->iparam[DMLI_MAP_PARAM_OP] == 1 ? s : sqrt(s);
        return x[i] / fmax(s, r->param[DMLI_MAP_PARAM_OP + 1]);
    default: cr_assert_fail("op %d", (int)r->op); return 0;
    }
}

/* Element offset of a tensor at the coordinates (kept, reduced) of the plan's dimensions. */
static int64_t at(const dmli_reduce *r, const dmli_map_tensor *t, const int64_t *c)
{
    int64_t o = t->offset;
    for (int d = 0; d < r->rank; ++d)
        o += c[d] * t->stride[d];
    return o;
}

static bool next(const dmli_reduce *r, int64_t *c, bool reduced)
{
    for (int d = r->rank; d-- > 0;) {
        if (r->reduced[d] != reduced)
            continue;
        if (++c[d] < r->size[d])
            return true;
        c[d] = 0;
    }
    return false;
}

/* Runs r over buffers (by input slot) into out. */
static void interpret(const dmli_reduce *r, float *const *in, float *out)
{
    static double x[MAX_ELEMS];
    int64_t c[DMLI_MAX_RANK] = {0};
    do {
        size_t n = 0;
        do
            x[n++] = in[r->in[0].slot][at(r, &r->in[0], c)];
        while (next(r, c, true));
        size_t i = 0;
        do {
            double y = row_value(r, x, n, i++);
            if (r->op == DMLI_REDUCE_MVN) {
                /* Input 1 the scale, input 2 the bias (internal.h). */
                cr_assert_eq(r->n_inputs, 3);
                if (r->has_scale)
                    y *= in[r->in[1].slot][at(r, &r->in[1], c)];
                if (r->has_bias)
                    y += in[r->in[2].slot][at(r, &r->in[2], c)];
                if (r->act == DMLI_ACT_RELU)
                    y = y > 0 ? y : 0;
                else
                    cr_assert_eq(r->act, DMLI_ACT_NONE);
            }
            out[at(r, &r->out[0], c)] = (float)y;
        } while (next(r, c, true));
    } while (next(r, c, false));
}

typedef struct plan_case {
    unit_tensor t[4]; /* input, scale, bias, output */
    UINT axes[8];
    DML_ACTIVATION_RELU_OPERATOR_DESC relu;
    DML_OPERATOR_DESC fused;
    union {
        DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC s1;
        DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC mvn1;
        DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC mvn2;
        DML_LP_NORMALIZATION_OPERATOR_DESC lp;
    } d;
    DML_OPERATOR_DESC op;
} plan_case;

/* Padded or transposed strides for sizes (rank dims), or NULL (packed). */
static const UINT *strides_for(ref_rng *rng, UINT rank, const UINT *sizes, UINT *strides)
{
    if (ref_rng_chance(rng, 30))
        return NULL;
    UINT order[8];
    for (UINT d = 0; d < rank; ++d)
        order[d] = d;
    for (UINT d = rank; ref_rng_chance(rng, 50) && d > 1; --d) {
        UINT j = (UINT)ref_rng_below(rng, d), t = order[d - 1];
        order[d - 1] = order[j];
        order[j] = t;
    }
    UINT step = 1;
    for (UINT k = rank; k-- > 0;) {
        strides[order[k]] = sizes[order[k]] == 1 && ref_rng_chance(rng, 50) ? 0 : step;
        step *= sizes[order[k]] + (UINT)ref_rng_below(rng, 2);
    }
    return strides;
}

static void fill(ref_rng *rng, float *p, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        p[i] = (float)ref_rng_range(rng, -4000, 4000) / 1000.0f;
}

Test(normalize_plan, lowering_agrees_with_the_oracle)
{
    static plan_case c;
    static float buf[4][MAX_ELEMS], got[MAX_ELEMS], want[MAX_ELEMS];
    static const ref_norm_op ref_ops[5] = {REF_NORM_SOFTMAX, REF_NORM_LOG_SOFTMAX, REF_NORM_HARDMAX,
                                           REF_NORM_MVN, REF_NORM_LP};
    static const DML_OPERATOR_TYPE types[3] = {DML_OPERATOR_ACTIVATION_SOFTMAX1,
                                               DML_OPERATOR_ACTIVATION_LOG_SOFTMAX1,
                                               DML_OPERATOR_ACTIVATION_HARDMAX1};
    ref_rng rng = ref_rng_make(0x6E6F726Dull);
    for (int n = 0; n < 400; ++n) {
        memset(&c, 0, sizeof c);
        int kind = n % 6; /* 0-2 softmax family, 3 MVN1, 4 MVN2, 5 LP */
        UINT rank = 1 + (UINT)ref_rng_below(&rng, 5), sizes[8], strides[4][8];
        for (UINT d = 0; d < rank; ++d)
            sizes[d] = 1 + (UINT)ref_rng_below(&rng, 4);
        ref_norm_args a = {.epsilon = 1e-5f, .p = 1 + (unsigned)ref_rng_below(&rng, 2)};
        UINT n_axes = 0;
        for (UINT d = 0; d < rank; ++d)
            if (ref_rng_chance(&rng, 40))
                c.axes[n_axes++] = d;
        if (n_axes == 0 || kind == 5) {
            n_axes = 1;
            c.axes[0] = (UINT)ref_rng_below(&rng, rank);
        }
        if (n_axes > 1) { /* Axes in another order */
            UINT t = c.axes[0];
            c.axes[0] = c.axes[n_axes - 1];
            c.axes[n_axes - 1] = t;
        }
        for (UINT i = 0; i < n_axes; ++i)
            a.reduced[c.axes[i]] = true;
        const DML_TENSOR_DESC *td[4] = {NULL, NULL, NULL, NULL};
        for (int k = 0; k < 4; ++k) {
            UINT s[8];
            for (UINT d = 0; d < rank; ++d)
                s[d] = (k == 1 || k == 2) && ref_rng_chance(&rng, 50) ? 1 : sizes[d];
            if ((k == 1 || k == 2) && (kind < 3 || kind == 5 || ref_rng_chance(&rng, 30)))
                continue;
            td[k] = unit_tensor_set(&c.t[k], F32, rank, s, strides_for(&rng, rank, s, strides[k]));
            if (k == 3) /* an output gives every element its own slot */
                td[k] = unit_tensor_set(&c.t[k], F32, rank, s, NULL);
            cr_assert(c.t[k].buf.TotalTensorSizeInBytes / 4 <= MAX_ELEMS);
        }
        ref_norm_op rop = kind < 3 ? ref_ops[kind] : kind == 5 ? REF_NORM_LP : REF_NORM_MVN;
        c.op.Desc = &c.d;
        if (kind < 3) {
            c.op.Type = types[kind];
            c.d.s1 = (DML_ACTIVATION_SOFTMAX1_OPERATOR_DESC){td[0], td[3], n_axes, c.axes};
        } else if (kind == 3) {
            c.op.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION1;
            a.use_mean = true;
            a.use_variance = ref_rng_chance(&rng, 70);
            c.fused = (DML_OPERATOR_DESC){DML_OPERATOR_ACTIVATION_RELU, &c.relu};
            bool relu = ref_rng_chance(&rng, 40);
            a.act = relu ? REF_ACT_RELU : REF_ACT_NONE;
            c.d.mvn1 = (DML_MEAN_VARIANCE_NORMALIZATION1_OPERATOR_DESC){
                td[0],          td[1],  td[2],
                td[3],          n_axes, c.axes,
                a.use_variance, 1e-5f,  relu ? &c.fused : NULL};
        } else if (kind == 4) {
            c.op.Type = DML_OPERATOR_MEAN_VARIANCE_NORMALIZATION2;
            a.use_mean = ref_rng_chance(&rng, 50);
            a.use_variance = ref_rng_chance(&rng, 70);
            c.d.mvn2 = (DML_MEAN_VARIANCE_NORMALIZATION2_OPERATOR_DESC){
                td[0],  td[1],      td[2],          td[3], n_axes,
                c.axes, a.use_mean, a.use_variance, 1e-5f, NULL};
        } else {
            c.op.Type = DML_OPERATOR_LP_NORMALIZATION;
            c.d.lp = (DML_LP_NORMALIZATION_OPERATOR_DESC){td[0], td[3], c.axes[0], 1e-5f, a.p};
        }
        dmlcl_operator *op = NULL;
        HRESULT hr = dmlcl_operator_create(NULL, &c.op, &op);
        cr_assert(SUCCEEDED(hr), "case %d: %s", n, dmlcl_last_error());
        dmli_reduce r = dmli_operator_state(op)->reduce;
        dmlcl_operator_release(op);
        for (int k = 0; k < 3; ++k)
            fill(&rng, buf[k], MAX_ELEMS);
        ref_tensor rt[4];
        for (int k = 0; k < 4; ++k)
            if (td[k])
                rt[k] = ref_tensor_view(F32, rank, c.t[k].sizes,
                                        c.t[k].buf.Strides ? c.t[k].strides : NULL,
                                        k == 3 ? want : buf[k]);
        cr_assert(
            ref_normalize(rop, &a, &rt[0], td[1] ? &rt[1] : NULL, td[2] ? &rt[2] : NULL, &rt[3]));
        size_t count = c.t[3].buf.TotalTensorSizeInBytes / 4;
        float *ins[3] = {buf[0], buf[1], buf[2]};
        for (int pass = 0; pass < 2; ++pass) {
            if (pass)
                dmli_reduce_normalize(&r);
            memset(got, 0, sizeof got);
            interpret(&r, ins, got);
            for (size_t i = 0; i < count; ++i)
                cr_assert(fabsf(got[i] - want[i]) <= 1e-5f * (1 + fabsf(want[i])),
                          "case %d (kind %d, rank %u, pass %d) element %zu: %.9g, want %.9g", n,
                          kind, rank, pass, i, got[i], want[i]);
        }
    }
}
