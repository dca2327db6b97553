/* SPDX-License-Identifier: MIT */
/*
 * The launch of an integer matrix operator (cl/intmm.cl): its variant (A's and B's types, the
 * output's kind and type, the optional tensors present, product or convolution), its table
 * (cl/intmm_abi.h) and its grid: a work-item per DMLI_IMM_BLOCK outputs along D3, work-groups
 * of up to 64 items along D3 and D2. Pure host code, as launch.c.
 */
#include "intmm.h"
#include "launch.h"

_Static_assert(DMLI_IMM_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the integer matrix table fits");

/* Items a work-group along grid dimensions 0 and 1, at most. */
#define IMM_GROUP 64

static const char *int8_type(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 ? "char" : "uchar";
}

static void options(const dmli_intmm *m, dmli_options *o)
{
    dmli_opt_int(o, "CONV", m->conv);
    dmli_opt_str(o, "TA", int8_type(m->a_type));
    dmli_opt_str(o, "TB", int8_type(m->b_type));
    dmli_opt_int(o, "OUT_KIND", m->out_kind);
    if (m->out_kind == DMLI_IMM_OUT_INT32) {
        dmli_opt_str(o, "TO", "int");
    } else if (m->out_kind == DMLI_IMM_OUT_QUANT) {
        const bool s8 = m->out_type == DML_TENSOR_DATA_TYPE_INT8;
        dmli_opt_str(o, "TO", int8_type(m->out_type));
        dmli_opt_int(o, "QMIN", s8 ? -128 : 0);
        dmli_opt_int(o, "QMAX", s8 ? 127 : 255);
        dmli_opt_int(o, "HAS_OZP", m->present[DMLI_IMM_OZP]);
    } else {
        dmli_opt_str(o, "TO", dmli_map_storage_type(m->out_type));
        dmli_opt_int(o, "HALF", m->out_type == DML_TENSOR_DATA_TYPE_FLOAT16);
    }
    dmli_opt_int(o, "HAS_AZP", m->present[DMLI_IMM_AZP]);
    dmli_opt_int(o, "HAS_BZP", m->present[DMLI_IMM_BZP]);
    dmli_opt_int(o, "HAS_BIAS", m->present[DMLI_IMM_BIAS]);
}

/* The smallest power of two at least v, at most the largest one up to cap (cap >= 1). */
static size_t group_along(int64_t v, size_t cap)
{
    size_t g = 1;
    while (g * 2 <= cap && (int64_t)g < v)
        g *= 2;
    return g;
}

static size_t round_up(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

void dmli_launch_intmm(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_intmm *m = DMLI_COMPUTE_WORK_CONST(c, dmli_intmm);
    l->source = DMLI_SOURCE_INTMM;
    l->kernel = "intmm";
    options(m, &l->defs);
    cl_long *t = l->table;
    for (int i = 0; i < 4; ++i)
        t[DMLI_IMM_D(i)] = m->d[i];
    t[DMLI_IMM_K] = m->k;
    t[DMLI_IMM_CIN_G] = m->cin_g;
    t[DMLI_IMM_COUT_G] = m->cout_g;
    t[DMLI_IMM_IN_H] = m->in[0];
    t[DMLI_IMM_IN_W] = m->in[1];
    t[DMLI_IMM_K_H] = m->win[0];
    t[DMLI_IMM_K_W] = m->win[1];
    t[DMLI_IMM_STRIDE_H] = m->stride[0];
    t[DMLI_IMM_STRIDE_W] = m->stride[1];
    t[DMLI_IMM_DIL_H] = m->dil[0];
    t[DMLI_IMM_DIL_W] = m->dil[1];
    t[DMLI_IMM_PAD_H] = m->pad[0];
    t[DMLI_IMM_PAD_W] = m->pad[1];
    for (int r = 0; r < DMLI_IMM_ROLES; ++r)
        for (int d = 0; d < 4; ++d)
            t[DMLI_IMM_STRIDE(r, d)] = m->strides[r][d];
    l->table_count = DMLI_IMM_TABLE;
    const int64_t cols = (m->d[3] + DMLI_IMM_BLOCK - 1) / DMLI_IMM_BLOCK;
    size_t cap = dev->max_work_group_size < IMM_GROUP ? dev->max_work_group_size : IMM_GROUP;
    cap = cap < dev->max_item_sizes[0] ? cap : dev->max_item_sizes[0];
    size_t g0 = group_along(cols, cap ? cap : 1);
    size_t cap1 = (cap ? cap : 1) / g0;
    cap1 = cap1 < dev->max_item_sizes[1] ? cap1 : dev->max_item_sizes[1];
    size_t g1 = group_along(m->d[2], cap1 ? cap1 : 1);
    l->global[0] = round_up((size_t)cols, g0);
    l->global[1] = round_up((size_t)m->d[2], g1);
    l->global[2] = (size_t)(m->d[0] * m->d[1]);
    l->local[0] = g0;
    l->local[1] = g1;
    l->local[2] = 1;
}
