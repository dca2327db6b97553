/* SPDX-License-Identifier: MIT */
/*
 * The launch of a pooling (cl/pool.cl): its options (the operation, the storage and compute
 * types, indices, the shape of work), its grid and its table (cl/pool_abi.h). Pure host code.
 *
 * CPUs: a work-item computes pool_vec consecutive outputs along W (tuning.c), the grid
 * {W blocks, D * H, N * C} in groups of pool_cpu_group (RUN: pool_run_group) items along N * C;
 * GPUs (FLAT): a work-item an output, pool_group items a group, the grid flat over the outputs,
 * the window's taps gpu_load_batch a time loaded before they are folded (PB).
 * VLOAD where the layout allows: the outputs' window columns as vectors; RUN for global pooling
 * (a window of whole contiguous rows: one run per D slice).
 */
#include <string.h>

#include "../cl/pool_abi.h"
#include "launch.h"
#include "pool.h"
#include "tuning.h"

/* The lowest value of an integer type, as OpenCL C text. */
static const char *lowest(DML_TENSOR_DATA_TYPE t)
{
    switch ((int)t) {
    case DML_TENSOR_DATA_TYPE_INT8: return "(-128)";
    case DML_TENSOR_DATA_TYPE_INT16: return "(-32768)";
    case DML_TENSOR_DATA_TYPE_INT32: return "(-2147483647L-1)";
    case DML_TENSOR_DATA_TYPE_INT64: return "(-9223372036854775807L-1)";
    default: return "0";
    }
}

static bool is_signed_int(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_INT16 ||
           t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

static void options(const dmli_pool *w, int vec, int run_vec, bool flat, bool band, dmli_options *o)
{
    bool integer = !dmli_type_is_float(w->type);
    bool half = w->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    dmli_opt_int(o, "POP", (int)w->op);
    if (w->op == DMLI_POOL_LP)
        dmli_opt_int(o, "LP_P", w->p <= 2 ? (int)w->p : 0);
    dmli_opt_str(o, "IN_T", dmli_map_storage_type(w->type));
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_str(o, "OUT_T", dmli_map_storage_type(w->quant ? w->out_type : w->type));
    dmli_opt_int(o, "OUT_HALF", half);
    /* A quantized average sums its 8-bit integers in long (exact for any window). */
    if (w->quant) {
        bool sign = w->out_type == DML_TENSOR_DATA_TYPE_INT8;
        dmli_opt_int(o, "QUANT", 1);
        dmli_opt_int(o, "HAS_IZP", w->has_in_zp);
        dmli_opt_int(o, "HAS_OZP", w->has_out_zp);
        dmli_opt_int(o, "QMIN", sign ? -128 : 0);
        dmli_opt_int(o, "QMAX", sign ? 127 : 255);
    }
    dmli_opt_str(o, "COMPUTE_T", !integer ? "float" : is_signed_int(w->type) ? "long" : "ulong");
    dmli_opt_int(o, "INT_COMPUTE", integer);
    if (integer)
        dmli_opt_str(o, "LOWEST", lowest(w->type));
    dmli_opt_int(o, "INDICES", w->indices);
    if (w->indices)
        dmli_opt_str(o, "IDX_T", w->idx_type == DML_TENSOR_DATA_TYPE_UINT64 ? "ulong" : "uint");
    if (w->op == DMLI_POOL_AVERAGE)
        dmli_opt_int(o, "INCLUDE_PADDING", w->include_padding);
    dmli_opt_int(o, "FLAT", flat);
    /* Vector loads along W (cl/pool.cl VLOAD): VEC a multiple of 4, float compute, no indices, the
     * input's W stride 1 and the window's stride 1 or 2 (the ResNet stem's 3x3/2). */
    bool vectors =
        !band && vec % 4 == 0 && !integer && !w->quant && !w->indices && w->in_stride[4] == 1;
    /* Global pooling (cl/pool.cl RUN): one output along W whose window is whole rows, no
     * dilation on H and W, rows contiguous: each D slice's window is one run, folded in
     * run_vec lanes (a multiple of 4). */
    bool run = vectors && run_vec % 4 == 0 && w->out_size[2] == 1 &&
               w->window[2] == w->in_size[2] && w->start_pad[2] == 0 && w->dilation[2] == 1 &&
               w->dilation[1] == 1 && w->in_stride[3] == w->in_size[2];
    dmli_opt_int(o, "VEC", run ? run_vec : vec);
    if (run)
        dmli_opt_int(o, "RUN", 1);
    else if (vectors && (w->stride[2] == 1 || w->stride[2] == 2))
        dmli_opt_int(o, "VLOAD", (int)w->stride[2]);
}

static void table(const dmli_pool *w, int vec, cl_long *t, size_t *count)
{
    memset(t, 0, DMLI_POOL_TABLE * sizeof *t);
    t[DMLI_POOL_C] = (cl_long)w->channels;
    t[DMLI_POOL_NC] = (cl_long)(w->batch * w->channels);
    t[DMLI_POOL_BLOCKS] = (w->out_size[2] + vec - 1) / vec;
    t[DMLI_POOL_P] = w->p;
    t[DMLI_POOL_TOTAL] =
        (cl_long)(w->batch * w->channels) * w->out_size[0] * w->out_size[1] * w->out_size[2];
    for (int a = 0; a < 3; ++a) {
        t[DMLI_POOL_AXIS(a, DMLI_POOL_IN)] = w->in_size[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_OUT)] = w->out_size[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_K)] = w->window[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_S)] = w->stride[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_DIL)] = w->dilation[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_PAD)] = w->start_pad[a];
        t[DMLI_POOL_AXIS(a, DMLI_POOL_END)] = w->in_size[a] + w->end_pad[a];
    }
    for (int d = 0; d < 5; ++d) {
        t[DMLI_POOL_STRIDE(0, d)] = w->in_stride[d];
        t[DMLI_POOL_STRIDE(1, d)] = w->out_stride[d];
        t[DMLI_POOL_STRIDE(2, d)] = w->idx_stride[d];
    }
    for (int k = 0; k < 4; ++k)
        t[DMLI_POOL_QSTRIDE(k)] = w->quant ? w->q_stride[k] : 0;
    *count = DMLI_POOL_TABLE;
}

/* BAND (cl/pool.cl pool_band): max pooling without indices of floats or of integers of 8 or 16
 * bits or INT32 (each value above INT_MIN, the stage's mark for nothing) on CPUs with bands in
 * their tuning, 2-D (D a single plane), the output's W stride 1; output rows a band: the most,
 * up to pool_band_rows, whose windows cover at most pool_band_slots input rows ((rows - 1) x
 * stride + (window - 1) x dilation + 1 along H); 0 where one row's window does not fit, or the
 * stage does not fit the device's local memory. */
static int64_t band_rows(const dmli_pool *w, const dmli_tuning *tu, const dmli_device_desc *dev)
{
    if (dev->device_class != DMLCL_DEVICE_CLASS_CPU || !tu->pool_band_cols || !tu->pool_band_rows ||
        !tu->pool_band_slots || w->op != DMLI_POOL_MAX || w->indices ||
        !(dmli_type_is_float(w->type) || w->type == DML_TENSOR_DATA_TYPE_INT8 ||
          w->type == DML_TENSOR_DATA_TYPE_UINT8 || w->type == DML_TENSOR_DATA_TYPE_INT16 ||
          w->type == DML_TENSOR_DATA_TYPE_UINT16 || w->type == DML_TENSOR_DATA_TYPE_INT32) ||
        w->out_stride[4] != 1 || w->in_size[0] != 1 || w->out_size[0] != 1 || w->window[0] != 1 ||
        w->start_pad[0] != 0 ||
        (uint64_t)tu->pool_band_slots * tu->pool_band_cols * 4 > dev->local_mem_size)
        return 0;
    int64_t reach = (w->window[1] - 1) * w->dilation[1] + 1; /* one row's window */
    if (reach > (int64_t)tu->pool_band_slots)
        return 0;
    int64_t rows = 1 + ((int64_t)tu->pool_band_slots - reach) / w->stride[1];
    return rows < (int64_t)tu->pool_band_rows ? rows : (int64_t)tu->pool_band_rows;
}

/* STAGED (cl/pool.cl, GPUs): global pooling of floats without indices whose windows are whole
 * contiguous runs of at most pool_stage_taps elements, output g's run starting g runs after
 * the first (the input's {N, C} strides those of a contiguous tensor): a work-group's outputs
 * read one span, which it stages in local memory (group x (taps | 1) floats) before the
 * items fold their rows. */
static bool staged(const dmli_pool *w, const dmli_tuning *tu, const dmli_device_desc *dev,
                   size_t group)
{
    if (w->indices || w->quant || !dmli_type_is_float(w->type) || tu->pool_stage_taps < 2)
        return false;
    int64_t len = 1; /* the run so far, W first: axis a's stride is {N, C, D, H, W}'s 2 + a */
    for (int a = 2; a >= 0; --a) {
        if (w->out_size[a] != 1 || w->window[a] != w->in_size[a] || w->start_pad[a] != 0 ||
            w->end_pad[a] != 0 || w->dilation[a] != 1 ||
            (w->in_stride[2 + a] != len && w->in_size[a] > 1))
            return false;
        len *= w->in_size[a];
    }
    return len <= (int64_t)tu->pool_stage_taps && w->in_stride[1] == len &&
           (w->batch == 1 || w->in_stride[0] == len * (int64_t)w->channels) &&
           (uint64_t)group * ((uint64_t)tu->pool_stage_taps | 1) * sizeof(float) <=
               dev->local_mem_size;
}

void dmli_launch_pool(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_pool *w = DMLI_COMPUTE_WORK_CONST(c, dmli_pool);
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    bool flat = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    int vec = flat ? 1 : (int)tu->pool_vec;
    l->source = DMLI_SOURCE_POOL;
    l->kernel = "pool";
    int64_t rb = band_rows(w, tu, dev);
    if (rb) {
        vec = (int)tu->pool_band_cols;
        l->kernel = "pool_band";
    }
    options(w, vec, (int)tu->pool_run_vec, flat, rb != 0, &l->defs);
    table(w, vec, l->table, &l->table_count);
    if (rb) { /* a work-group of one item a band of rb rows x vec columns of an image plane */
        dmli_opt_int(&l->defs, "BAND", 1);
        dmli_opt_int(&l->defs, "SLOTS", (int)tu->pool_band_slots);
        bool unit = w->in_stride[4] == 1 && (w->stride[2] == 1 || w->stride[2] == 2);
        dmli_opt_int(&l->defs, "BSW", unit ? (int)w->stride[2] : 0);
        l->table[DMLI_POOL_BAND_ROWS] = rb;
        l->global[0] = (size_t)((w->out_size[2] + vec - 1) / vec);
        l->global[1] = (size_t)((w->out_size[1] + rb - 1) / rb);
        l->global[2] = (size_t)(w->batch * w->channels);
        l->local[0] = l->local[1] = l->local[2] = 1;
        return;
    }
    if (flat) {
        /* The window's taps gpu_load_batch at a time: loaded, then folded (cl/pool.cl PB). */
        dmli_opt_int(&l->defs, "PB", (int)dmli_load_batch(tu));
        size_t group = tu->pool_group;
        while (group > 1 && (group > dev->max_work_group_size || group > dev->max_item_sizes[0]))
            group /= 2;
        size_t total = (size_t)l->table[DMLI_POOL_TOTAL];
        if (staged(w, tu, dev, group)) {
            dmli_opt_int(&l->defs, "STAGED", 1);
            dmli_opt_int(&l->defs, "STAGE", (int)tu->pool_stage_taps);
            dmli_opt_int(&l->defs, "GROUP", (int)group);
        }
        l->global[0] = (total + group - 1) / group * group;
        l->global[1] = l->global[2] = 1;
        l->local[0] = group;
        l->local[1] = l->local[2] = 1;
    } else {
        /* Groups of pool_cpu_group items (pool_run_group for RUN) along N * C, the grid rounded
         * up to them (the items past N * C return): one group size per variant whatever the
         * shape, so PoCL, which builds a kernel per group size, builds one. */
        bool run = dmli_options_value(&l->defs, "RUN") != NULL;
        size_t group = run ? tu->pool_run_group : tu->pool_cpu_group;
        while (group > 1 && (group > dev->max_work_group_size || group > dev->max_item_sizes[2]))
            group /= 2;
        size_t nc = (size_t)(w->batch * w->channels);
        l->global[0] = (size_t)l->table[DMLI_POOL_BLOCKS];
        l->global[1] = (size_t)(w->out_size[0] * w->out_size[1]);
        l->global[2] = (nc + group - 1) / group * group;
        l->local[0] = l->local[1] = 1;
        l->local[2] = group;
    }
}

/* A graph's view read as the input (a layout change before a pooling): its strides over
 * {N, C, spatial...} placed on {N, C, D, H, W}; the indices count logical positions, so they
 * do not change. The outputs keep theirs. */
bool dmli_restride_pool(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset)
{
    if (i != DMLI_POOL_INPUT)
        return false;
    dmli_pool *w = DMLI_COMPUTE_WORK(c, dmli_pool);
    w->in_stride[0] = strides[0];
    w->in_stride[1] = strides[1];
    for (uint32_t k = 0; k < w->dims; ++k)
        w->in_stride[2 + 3 - w->dims + k] = strides[2 + k];
    c->tensors[i].offset = offset;
    return true;
}
