/* SPDX-License-Identifier: MIT */
/*
 * The launch of the window family (cl/roi.cl): its kernel and variant (the data's storage
 * type; ROI_ALIGN*: the batch indices' type, the reduction, the interpolation, the corners
 * rule, ROI_ALIGN_GRAD's bound tensors; FOLD: the accumulator; UNFOLD: the element's width), its
 * table (cl/roi_abi.h) and its grid: one dimension of output elements in work-groups of up to 64
 * items, the global size rounded up (items past the end return at once). Pure host code, as
 * launch.c.
 */
#include "launch.h"
#include "roi.h"

_Static_assert(DMLI_RG_GRAD_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the region table fits");
_Static_assert(DMLI_WN_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the window table fits");

#define ROI_GROUP 64

static void regions(const dmli_roi *r, dmli_compute_launch *l)
{
    cl_long *t = l->table;
    l->kernel = r->kind == DMLI_ROI_POOL    ? "roi_pool"
                : r->kind == DMLI_ROI_ALIGN ? "roi_align"
                                            : "roi_align_grad";
    dmli_opt_str(&l->defs, "T", dmli_map_storage_type(r->type));
    dmli_opt_int(&l->defs, "HALF", r->type == DML_TENSOR_DATA_TYPE_FLOAT16);
    if (r->kind != DMLI_ROI_POOL) {
        dmli_opt_str(&l->defs, "IDX_T", r->idx64 ? "ulong" : "uint");
        dmli_opt_int(&l->defs, "MAXMODE", r->max);
        dmli_opt_int(&l->defs, "LINEAR", r->linear);
        dmli_opt_int(&l->defs, "CORNERS", r->corners);
    }
    t[DMLI_RG_BATCH] = r->batch;
    t[DMLI_RG_CHANNELS] = r->channels;
    t[DMLI_RG_IN_H] = r->in_h;
    t[DMLI_RG_IN_W] = r->in_w;
    t[DMLI_RG_ROIS] = r->rois;
    t[DMLI_RG_OUT_H] = r->out_h;
    t[DMLI_RG_OUT_W] = r->out_w;
    for (int d = 0; d < 4; ++d) {
        t[DMLI_RG_IN_S + d] = r->in_s[d];
        t[DMLI_RG_OUT_S + d] = r->out_s[d];
    }
    t[DMLI_RG_ROI_SR] = r->roi_sr;
    t[DMLI_RG_ROI_SK] = r->roi_sk;
    t[DMLI_RG_IDX_S] = r->idx_s;
    t[DMLI_RG_SCALE_X] = dmli_float_bits(r->scale_x);
    t[DMLI_RG_SCALE_Y] = dmli_float_bits(r->scale_y);
    t[DMLI_RG_IN_OFF] = dmli_float_bits(r->in_off);
    t[DMLI_RG_OUT_OFF] = dmli_float_bits(r->out_off);
    t[DMLI_RG_OOB] = dmli_float_bits(r->oob);
    uint32_t hi = r->max_samples < DMLI_RG_SAMPLE_CAP ? r->max_samples : DMLI_RG_SAMPLE_CAP;
    uint32_t lo = r->min_samples < hi ? r->min_samples : hi;
    t[DMLI_RG_MIN_S] = lo;
    t[DMLI_RG_MAX_S] = hi;
    t[DMLI_RG_ITEMS] = r->rois * r->channels * r->out_h * r->out_w;
    l->table_count = DMLI_RG_TABLE;
    if (r->kind != DMLI_ROI_ALIGN_GRAD)
        return;
    /* ROI_ALIGN_GRAD: items are the gradient's elements, then the ROI gradient's. */
    dmli_opt_int(&l->defs, "ALIGN_GRAD", 1);
    dmli_opt_int(&l->defs, "HAS_X", r->has_x);
    dmli_opt_int(&l->defs, "HAS_DX", r->has_dx);
    dmli_opt_int(&l->defs, "HAS_DROI", r->has_droi);
    for (int d = 0; d < 4; ++d)
        t[DMLI_RG_DX_S + d] = r->dx_s[d];
    t[DMLI_RG_DROI_SR] = r->droi_sr;
    t[DMLI_RG_DROI_SK] = r->droi_sk;
    t[DMLI_RG_DX_ITEMS] = r->has_dx ? r->batch * r->channels * r->in_h * r->in_w : 0;
    t[DMLI_RG_DROI_ITEMS] = r->has_droi ? 4 * r->rois : 0;
    t[DMLI_RG_ITEMS] = t[DMLI_RG_DX_ITEMS] + t[DMLI_RG_DROI_ITEMS];
    l->table_count = DMLI_RG_GRAD_TABLE;
}

/* FOLD's accumulator: float32 for FLOAT16 and FLOAT32, double for FLOAT64, ulong (sums wrap
 * as the type's do) for the integers. */
static const char *accumulator(DML_TENSOR_DATA_TYPE type)
{
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT16:
    case DML_TENSOR_DATA_TYPE_FLOAT32: return "float";
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "double";
    default: return "ulong";
    }
}

static void windows(const dmli_roi *r, dmli_compute_launch *l)
{
    cl_long *t = l->table;
    if (r->kind == DMLI_ROI_FOLD) {
        l->kernel = "fold";
        dmli_opt_str(&l->defs, "T", dmli_map_storage_type(r->type));
        dmli_opt_int(&l->defs, "HALF", r->type == DML_TENSOR_DATA_TYPE_FLOAT16);
        dmli_opt_str(&l->defs, "ACC_T", accumulator(r->type));
        dmli_opt_int(&l->defs, "ACC_DOUBLE", r->type == DML_TENSOR_DATA_TYPE_FLOAT64);
    } else {
        l->kernel = "unfold";
        dmli_opt_str(&l->defs, "UNIT_T", dmli_unsigned_storage_type(r->type));
    }
    t[DMLI_WN_BATCH] = r->n;
    t[DMLI_WN_CHANNELS] = r->c;
    t[DMLI_WN_ND] = r->nd;
    t[DMLI_WN_K] = r->k;
    t[DMLI_WN_L] = r->l;
    int64_t items = r->n * r->c;
    if (r->kind == DMLI_ROI_FOLD)
        for (int d = 0; d < r->nd; ++d)
            items *= r->size[d];
    else
        items *= r->k * r->l;
    t[DMLI_WN_ITEMS] = items;
    t[DMLI_WN_IMG_SN] = r->img_sn;
    t[DMLI_WN_IMG_SC] = r->img_sc;
    t[DMLI_WN_COL_SN] = r->col_sn;
    t[DMLI_WN_COL_SK] = r->col_sk;
    t[DMLI_WN_COL_SL] = r->col_sl;
    for (int d = 0; d < DMLI_WN_DIMS; ++d) {
        bool on = d < r->nd;
        t[DMLI_WN_DIM(d)] = on ? r->size[d] : 1;
        t[DMLI_WN_DIM(d) + 1] = on ? r->window[d] : 1;
        t[DMLI_WN_DIM(d) + 2] = on ? r->stride[d] : 1;
        t[DMLI_WN_DIM(d) + 3] = on ? r->dilation[d] : 1;
        t[DMLI_WN_DIM(d) + 4] = on ? r->pad[d] : 0;
        t[DMLI_WN_DIM(d) + 5] = on ? r->blocks[d] : 1;
        t[DMLI_WN_DIM(d) + 6] = on ? r->img_s[d] : 0;
    }
    l->table_count = DMLI_WN_TABLE;
}

void dmli_launch_roi(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_roi *r = DMLI_COMPUTE_WORK_CONST(c, dmli_roi);
    l->source = DMLI_SOURCE_ROI;
    bool region =
        r->kind == DMLI_ROI_POOL || r->kind == DMLI_ROI_ALIGN || r->kind == DMLI_ROI_ALIGN_GRAD;
    if (region)
        regions(r, l);
    else
        windows(r, l);
    const uint64_t items = (uint64_t)l->table[region ? DMLI_RG_ITEMS : DMLI_WN_ITEMS];
    uint64_t group = ROI_GROUP;
    group = group < items ? group : items;
    group = group < dev->max_work_group_size ? group : dev->max_work_group_size;
    group = group < dev->max_item_sizes[0] ? group : dev->max_item_sizes[0];
    group = group ? group : 1;
    l->global[0] = (size_t)((items + group - 1) / group * group);
    l->global[1] = l->global[2] = 1;
    l->local[0] = (size_t)group;
    l->local[1] = l->local[2] = 1;
}
