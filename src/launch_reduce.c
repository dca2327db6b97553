/* SPDX-License-Identifier: MIT */
/*
 * The launch of a reduction (cl/reduce.cl): its options (the operation, the tensors' storage
 * types, the compute type, the shape of work), its grid and its table (cl/abi.h DMLI_RED_*).
 * Pure host code, as launch.c.
 *
 * ROWS mode when the innermost dimension is reduced: a work-item a row on CPUs (its LANES
 * lanes in private memory, vectorised along the run), a work-group of LANES items a row on
 * GPUs; the fixed lane tree makes both give one result. COLS mode when it is kept: a
 * work-item folds reduce_cols neighbouring rows (contiguous reads across them). Scans a row
 * per item in order (COLS: reduce_cols rows; GPUs a work-group a row, a tree scan a chunk at a
 * time); top-k an item per element.
 */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "tuning.h"

_Static_assert(DMLI_REDUCE_MAX_OUTPUTS + DMLI_REDUCE_MAX_INPUTS == DMLI_RED_TENSORS,
               "the reduction's tensors: internal.h and cl/abi.h");
_Static_assert(DMLI_MAP_ADD == 1 && DMLI_MAP_SUBTRACT == 2 && DMLI_MAP_MULTIPLY == 3,
               "cl/reduce.cl PRE_OP numbers the map's ADD, SUBTRACT, MULTIPLY");

static bool scans(dmli_reduce_op op)
{
    return op == DMLI_REDUCE_CUMSUM || op == DMLI_REDUCE_CUMPROD;
}

/* The compute type from input 0's type: float (FLOAT16, FLOAT32), double, ulong for UINT64
 * (its order and its wrap), long for the other integers (sums and products wrap modulo 2^64,
 * stored through the output's unsigned type of its width: the wrap of its own width). */
static const char *compute_type(const dmli_reduce *r, bool *integer, bool *sign)
{
    DML_TENSOR_DATA_TYPE t = r->in[0].type;
    *integer = !dmli_type_is_float(t);
    *sign = *integer && t != DML_TENSOR_DATA_TYPE_UINT64;
    if (!*integer)
        return t == DML_TENSOR_DATA_TYPE_FLOAT64 ? "double" : "float";
    return *sign ? "long" : "ulong";
}

static bool cols_mode(const dmli_reduce *r)
{
    return r->rank > 0 && !r->reduced[r->rank - 1] && r->op != DMLI_REDUCE_TOP_K &&
           r->op != DMLI_REDUCE_LRN;
}

static void options(const dmli_reduce *r, const dmli_reduce_launch *l, dmli_options *o)
{
    bool integer, sign;
    const char *compute = compute_type(r, &integer, &sign);
    bool index_out = r->op == DMLI_REDUCE_ARGMAX || r->op == DMLI_REDUCE_ARGMIN;
    dmli_opt_int(o, "ROP", (int)r->op);
    dmli_opt_int(o, "NIN", r->n_inputs);
    dmli_opt_int(o, "NOUT", r->n_outputs);
    dmli_opt_str(o, "COMPUTE_T", compute);
    dmli_opt_int(o, "COMPUTE_DOUBLE", strcmp(compute, "double") == 0);
    dmli_opt_int(o, "INT_COMPUTE", integer);
    dmli_opt_int(o, "SIGNED_COMPUTE", sign);
    static const char *const in_t[] = {"IN0_T", "IN1_T", "IN2_T", "IN3_T"};
    static const char *const in_half[] = {"IN0_HALF", "IN1_HALF", "IN2_HALF", "IN3_HALF"};
    for (uint32_t k = 0; k < r->n_inputs; ++k) {
        dmli_opt_str(o, in_t[k], dmli_map_storage_type(r->in[k].type));
        dmli_opt_int(o, in_half[k], r->in[k].type == DML_TENSOR_DATA_TYPE_FLOAT16);
    }
    DML_TENSOR_DATA_TYPE out = r->out[0].type;
    dmli_opt_str(o, "OUT0_T",
                 index_out || !dmli_type_is_float(out) ? dmli_unsigned_storage_type(out)
                                                       : dmli_map_storage_type(out));
    dmli_opt_int(o, "OUT0_HALF", !index_out && out == DML_TENSOR_DATA_TYPE_FLOAT16);
    if (r->n_outputs > 1)
        dmli_opt_str(o, "OUT1_T", dmli_unsigned_storage_type(r->out[1].type));
    dmli_opt_int(o, "INDEX_OUT", index_out);
    dmli_opt_int(o, "LANES", l->lanes);
    dmli_opt_int(o, "GROUP", l->group);
    dmli_opt_int(o, "COLS", l->cols);
    /* GPUs: a lane's loads of a pass issued before their first use (cl/reduce.cl RBATCH). */
    if (l->load_batch)
        dmli_opt_int(o, "RB", l->load_batch);
    if (l->rows_per_item > 1)
        dmli_opt_int(o, "RPI", l->rows_per_item);
    /* Strides of 1 along the lanes (the run, or the columns) as constants: vector loads. */
    const cl_long *t = l->table;
    if (t[l->cols ? DMLI_RED_COL_S(2) : DMLI_RED_RUN_S(2)] == 1)
        dmli_opt_int(o, "LANE1_IN0", 1);
    if (t[l->cols ? DMLI_RED_COL_S(0) : DMLI_RED_RUN_S(0)] == 1)
        dmli_opt_int(o, "LANE1_OUT0", 1);
    for (uint32_t k = 1; k < r->n_inputs && 2 + k < DMLI_RED_TENSORS; ++k)
        if (t[l->cols ? DMLI_RED_COL_S(2 + (int)k) : DMLI_RED_RUN_S(2 + (int)k)] == 1) {
            char name[16];
            snprintf(name, sizeof name, "LANE1_IN%u", (unsigned)k);
            dmli_opt_int(o, name, 1);
        }
    if (r->op == DMLI_REDUCE_ARGMAX || r->op == DMLI_REDUCE_ARGMIN)
        dmli_opt_int(o, "INDEX_LAST", r->index_last);
    if (r->op == DMLI_REDUCE_TOP_K)
        dmli_opt_int(o, "SMALLEST", r->smallest);
    if (scans(r->op)) {
        dmli_opt_int(o, "REVERSE", r->reverse);
        dmli_opt_int(o, "EXCLUSIVE", r->exclusive);
        /* CPUs: a row in blocks, then their carries, where a result reads back unrounded. */
        if (l->segments > 1)
            dmli_opt_int(o, "SEGS", l->segments);
    }
    if (r->op == DMLI_REDUCE_MVN) {
        dmli_opt_int(o, "USE_MEAN", r->use_mean);
        dmli_opt_int(o, "USE_VARIANCE", r->use_variance);
        dmli_opt_int(o, "HAS_SCALE", r->has_scale);
        dmli_opt_int(o, "HAS_BIAS", r->has_bias);
    }
    if (r->op == DMLI_REDUCE_LP_NORM)
        dmli_opt_int(o, "LP_P", r->iparam[DMLI_MAP_PARAM_OP]);
    /* exp(x - max) of rows of 64 or more takes x - max as rounded (cl/reduce.cl EXP_ROUNDED:
     * at most 87 ULPs, within softmax's 3N + 3). */
    bool exp_passes = r->op == DMLI_REDUCE_SOFTMAX || r->op == DMLI_REDUCE_LOG_SOFTMAX ||
                      r->op == DMLI_REDUCE_LOG_SUM_EXP;
    if (exp_passes && !integer && strcmp(compute, "float") == 0 && l->table[DMLI_RED_N] >= 64)
        dmli_opt_int(o, "EXP_ROUNDED", 1);
    if (l->sync && l->local[0] > 1) {
        dmli_opt_int(o, "SYNC", (int)l->sync);
        /* Each item prefetches its columns this many rows ahead (cl/reduce.cl CPF): a row's
         * piece of a work-group is a few KiB, a page or two, where a CPU's own prefetcher
         * starts over at every row. */
        if (t[DMLI_RED_COL_S(2)] == 1 && l->cols_prefetch)
            dmli_opt_int(o, "CPF", (int)l->cols_prefetch);
    }
    dmli_opt_int(o, "ACT", (int)r->act);
    if (r->pre_op != DMLI_MAP_IDENTITY)
        dmli_opt_int(o, "PRE_OP", (int)r->pre_op);
}

/* Parameter i in the compute type's bits (cl/reduce.cl PARAM). */
static cl_long param_bits(const dmli_reduce *r, int i)
{
    bool integer, sign;
    return dmli_param_bits(r->param[i], r->iparam[i], compute_type(r, &integer, &sign));
}

/* Tensor x's stride along dimension d (x as cl/abi.h numbers the tensors). */
static int64_t stride_of(const dmli_reduce *r, int x, int d)
{
    if (x < 2)
        return (uint32_t)x < r->n_outputs ? r->out[x].stride[d] : 0;
    return (uint32_t)(x - 2) < r->n_inputs ? r->in[x - 2].stride[d] : 0;
}

static cl_long *put_dim(const dmli_reduce *r, int d, cl_long *dim)
{
    dim[0] = r->size[d];
    for (int x = 0; x < DMLI_RED_TENSORS; ++x)
        dim[1 + x] = stride_of(r, x, d);
    return dim + DMLI_RED_DIM;
}

static void table(const dmli_reduce *r, dmli_reduce_launch *l)
{
    cl_long *t = l->table;
    memset(t, 0, sizeof l->table);
    int run_dim = -1, col_dim = l->cols ? r->rank - 1 : -1;
    for (int d = r->rank - 1; d >= 0 && run_dim < 0; --d)
        if (r->reduced[d])
            run_dim = d;
    cl_long *dim = t + DMLI_RED_HEADER;
    uint64_t rows = 1, n = 1;
    int kept = 0, outer = 0;
    for (int d = r->rank - 1; d >= 0; --d) /* kept dimensions, innermost first */
        if (!r->reduced[d] && d != col_dim) {
            dim = put_dim(r, d, dim);
            rows *= (uint64_t)r->size[d];
            ++kept;
        }
    for (int d = r->rank - 1; d >= 0; --d) /* then the outer reduced ones */
        if (r->reduced[d]) {
            n *= (uint64_t)r->size[d];
            if (d != run_dim) {
                dim = put_dim(r, d, dim);
                ++outer;
            }
        }
    t[DMLI_RED_KEPT] = kept;
    t[DMLI_RED_OUTER] = outer;
    t[DMLI_RED_ROWS] = (cl_long)rows;
    t[DMLI_RED_N] = (cl_long)n;
    t[DMLI_RED_RUN] = run_dim >= 0 ? r->size[run_dim] : 1;
    t[DMLI_RED_COLS] = col_dim >= 0 ? r->size[col_dim] : 1;
    for (int x = 0; x < DMLI_RED_TENSORS; ++x) {
        t[DMLI_RED_RUN_S(x)] = run_dim >= 0 ? stride_of(r, x, run_dim) : 0;
        t[DMLI_RED_COL_S(x)] = col_dim >= 0 ? stride_of(r, x, col_dim) : 0;
    }
    for (int i = 0; i < DMLI_RED_PARAMS; ++i)
        t[DMLI_RED_PARAM(i)] = param_bits(r, i);
    l->rows = rows;
    l->table_count = (size_t)(dim - t);
}

static size_t round_up(size_t n, size_t m)
{
    return (n + m - 1) / m * m;
}

/* The largest power of two up to want that the device takes as a work-group. */
static size_t group_for(const dmli_device_desc *dev, size_t want)
{
    size_t g = want;
    while (g > 1 && (g > dev->max_work_group_size || g > dev->max_item_sizes[0]))
        g /= 2;
    return g;
}

static void geometry(const dmli_reduce *r, const dmli_device_desc *dev, dmli_reduce_launch *l)
{
    const cl_long *t = l->table;
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    l->local[0] = l->local[1] = l->local[2] = 1;
    l->global[2] = 1;
    if (r->op == DMLI_REDUCE_TOP_K || r->op == DMLI_REDUCE_LRN) {
        size_t n = (size_t)t[DMLI_RED_N];
        l->local[0] = gpu ? group_for(dev, dmli_tuning_for(dev->device_class)->reduce_group) : 1;
        l->global[0] = round_up(n, l->local[0]);
        l->global[1] = (size_t)l->rows;
        return;
    }
    if (l->cols) {
        size_t cols = (size_t)t[DMLI_RED_COLS];
        size_t items = (cols + l->lanes - 1) / l->lanes;
        l->local[0] = gpu ? group_for(dev, dmli_tuning_for(dev->device_class)->reduce_group) : 1;
        if (l->sync) {
            /* CPUs: a work-group of the row's items in step (cl/reduce.cl SYNC), halved while
             * the groups are fewer than the compute units. */
            size_t g = dmli_tuning_for(dev->device_class)->reduce_cols_group;
            g = g < items ? g : items;
            while (g > 1 && (g > dev->max_work_group_size || g > dev->max_item_sizes[0] ||
                             (size_t)l->rows * ((items + g - 1) / g) < dev->compute_units))
                g /= 2;
            l->local[0] = g;
        }
        l->global[0] = round_up(items, l->local[0]);
        l->global[1] = (size_t)l->rows;
        return;
    }
    l->local[0] = l->group;
    l->global[0] = (size_t)l->rows * l->group;
    l->global[1] = 1;
    if (!gpu && l->group == 1 && l->lanes > 1) {
        /* CPUs: an item takes RPI rows in turn (cl/reduce.cl RPI), while there are items
         * enough for every compute unit 16 times over. */
        uint64_t rpi = dmli_tuning_for(dev->device_class)->reduce_rows_per_item;
        while (rpi > 1 && (l->rows + rpi - 1) / rpi < 16 * (uint64_t)dev->compute_units)
            rpi /= 2;
        if (rpi > 1) {
            l->rows_per_item = (uint32_t)rpi;
            l->global[0] = (size_t)((l->rows + rpi - 1) / rpi);
        }
    }
}

/* The normalisations: a second pass writes the row. */
static bool normalizes(dmli_reduce_op op)
{
    return op == DMLI_REDUCE_SOFTMAX || op == DMLI_REDUCE_LOG_SOFTMAX ||
           op == DMLI_REDUCE_HARDMAX || op == DMLI_REDUCE_MVN || op == DMLI_REDUCE_LP_NORM;
}

/* Output 0's bytes: a normalisation writes one element for each input element. */
static uint64_t out_bytes(const dmli_reduce *r)
{
    uint64_t bytes = dmli_type_size(r->out[0].type);
    for (int d = 0; d < r->rank; ++d)
        bytes *= (uint64_t)r->size[d];
    return bytes;
}

void dmli_launch_reduce(const dmli_reduce *r, const dmli_device_desc *dev, dmli_reduce_launch *l)
{
    memset(l, 0, sizeof *l);
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    l->cols = cols_mode(r);
    l->group = 1;
    bool integer, sign;
    bool picks = r->op == DMLI_REDUCE_ARGMAX || r->op == DMLI_REDUCE_ARGMIN ||
                 r->op == DMLI_REDUCE_MAX || r->op == DMLI_REDUCE_MIN ||
                 r->op == DMLI_REDUCE_HARDMAX;
    bool float_compute = strcmp(compute_type(r, &integer, &sign), "float") == 0;
    uint64_t row = 1;
    for (int d = 0; d < r->rank; ++d)
        if (r->reduced[d])
            row *= (uint64_t)r->size[d];
    if (l->cols) {
        l->lanes = tu->reduce_cols;
        if (!gpu && r->whole_rows && tu->reduce_split_lanes) {
            /* A split's first step (dmli_reduce_split): an item a whole row of columns, the
             * lanes the row's width to the next power of two (a variant per width class). */
            while (l->lanes < (uint64_t)r->size[r->rank - 1] && l->lanes < tu->reduce_split_lanes)
                l->lanes *= 2;
        } else if (!gpu && !scans(r->op) && tu->reduce_cols_sync > 1 &&
                   (uint64_t)r->size[r->rank - 1] > l->lanes) {
            l->sync = tu->reduce_cols_sync;
            /* Not where the compiler lacks __builtin_prefetch (Oclgrind: launch.h). */
            l->cols_prefetch = dev->prefetch ? tu->reduce_cols_prefetch_rows : 0;
        }
    } else if (scans(r->op) && gpu) {
        /* GPUs scan a row by a work-group, reduce_scan_group elements at a time. */
        l->group = l->lanes = group_for(dev, tu->reduce_scan_group);
    } else if (scans(r->op) || r->op == DMLI_REDUCE_TOP_K || r->op == DMLI_REDUCE_LRN) {
        l->lanes = 1;
        if (scans(r->op) && r->out[0].type != DML_TENSOR_DATA_TYPE_FLOAT16)
            l->segments = tu->reduce_scan_segments;
    } else {
        /* The lanes are the device class's, whatever group the device takes: a GPU whose
         * groups are smaller folds the same lanes in one item, by the same tree. */
        l->lanes = tu->reduce_lanes;
        /* GPUs: halved while a lane would take fewer than reduce_lane_elements of the row. */
        while (gpu && tu->reduce_lane_elements && l->lanes > tu->reduce_lanes_min && l->lanes > 1 &&
               row / l->lanes < tu->reduce_lane_elements)
            l->lanes /= 2;
        if (gpu && group_for(dev, l->lanes) == l->lanes)
            l->group = l->lanes;
        /* CPUs: a float pick over a row of at least reduce_pick_lanes elements deals it to
         * that many lanes (cl/reduce.cl VACC: that many / the vector width independent
         * chains of compare and select, where one vector's chain waited on the last; argmax
         * over rows of 4096 1.52x with 64 lanes). A pick's result is the row's, whatever its
         * lanes (ties go by index). */
        if (!gpu && picks && float_compute && tu->reduce_pick_lanes > l->lanes &&
            row >= tu->reduce_pick_lanes)
            l->lanes = tu->reduce_pick_lanes;
    }
    /* GPUs, folds and normalisations (a work-group a row, or an item a column): a lane's loads
     * of a pass in batches (cl/reduce.cl RBATCH). Not the scans, top-k or LRN. */
    if (gpu && !scans(r->op) && r->op != DMLI_REDUCE_TOP_K && r->op != DMLI_REDUCE_LRN &&
        !l->sync && (l->cols || l->group > 1))
        l->load_batch = dmli_load_batch(tu);
    table(r, l);
    geometry(r, dev, l);
    options(r, l, &l->defs);
    /* The picks' vectors hold 32-bit indices. */
    bool pick32 = picks && l->table[DMLI_RED_N] <= INT32_MAX;
    if (!gpu && !l->cols && l->lanes > 1 && (!picks || pick32) &&
        dev->native_vector_width_float >= 2 && float_compute) {
        if (pick32)
            dmli_opt_int(&l->defs, "PICK32", 1);
        /* A CPU's row at the native float width (cl/reduce.cl NATIVE_VW, its VN): the lane loop
         * vectorised that wide (LLVM's own choice on AVX-512 was 8 of the 16 lanes) and the folds'
         * lane states vectors in registers (VACC): softmax over rows of 4096 1.67x, over rows of
         * 128 1.45x (dmlcl-ab, docs/kernels.md). The picks hold their indices in int vectors
         * (PICK32: argmax over rows of 4096 1.44x; with the hint alone and 64-bit indices in
         * arrays it had been 0.78x), so a row past 2^31 elements keeps the compiler's choice. */
        uint32_t vn = dev->native_vector_width_float;
        dmli_opt_int(&l->defs, "NATIVE_VW", (int)(vn > l->lanes ? l->lanes : vn));
        /* The first pass prefetches input 0 this far ahead (cl/reduce.cl RPF: rows run on
         * into the next). */
        uint32_t unit = r->in[0].type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 2 : 4;
        if (tu->reduce_prefetch_bytes >= unit)
            dmli_opt_int(&l->defs, "RPF", (int)(tu->reduce_prefetch_bytes / unit));
    }
    /* CPUs: a float32 row scan whose input and output run with stride 1 goes in vectors of
     * the native width, each scanned in registers and offset by the carry of those before it
     * (cl/reduce.cl VSCAN), its output past a quarter of the cache in non-temporal lines. */
    uint32_t vn =
        tu->reduce_scan_vector == 1 ? dev->native_vector_width_float : tu->reduce_scan_vector;
    if (!gpu && scans(r->op) && l->segments > 1 && !l->cols &&
        r->in[0].type == DML_TENSOR_DATA_TYPE_FLOAT32 &&
        r->out[0].type == DML_TENSOR_DATA_TYPE_FLOAT32 && r->act == DMLI_ACT_NONE &&
        r->pre_op == DMLI_MAP_IDENTITY && l->table[DMLI_RED_RUN_S(2)] == 1 &&
        l->table[DMLI_RED_RUN_S(0)] == 1 && (vn == 4 || vn == 8 || vn == 16)) {
        dmli_opt_int(&l->defs, "VSCAN", (int)vn);
        if (dmli_launch_streams(dev, out_bytes(r)))
            dmli_opt_int(&l->defs, "STREAM", 1);
    }
    /* CPUs: a normalisation's writing pass past a quarter of the cache stores whole
     * non-temporal lines where its output runs with stride 1 (cl/reduce.cl STREAM; the
     * threshold as data movement's and the map's, launch.c). Not a softmax that stashes its
     * exponentials in the output (a float one) to read them back: its lines are in the cache
     * by then (stashed in private memory instead, softmax over rows of 128 measured 0.96x,
     * recomputed 0.80x). */
    bool stashes = r->op == DMLI_REDUCE_SOFTMAX && r->out[0].type != DML_TENSOR_DATA_TYPE_FLOAT16;
    if (!gpu && !l->cols && l->group == 1 && normalizes(r->op) && !stashes &&
        l->table[DMLI_RED_RUN_S(0)] == 1 && dmli_launch_streams(dev, out_bytes(r)))
        dmli_opt_int(&l->defs, "STREAM", 1);
    /* A float32 softmax whose rows are each one run of whole blocks of lanes, short enough
     * that two stay in the L1 cache through its three passes: an item takes its rows two at a
     * time (cl/reduce.cl SOFTMAX_PAIRS; rows of 128 1.17x, rows of 4096 0.97x). The kernel
     * keeps one row at a time where its vector path does not apply. */
    if (!gpu && r->op == DMLI_REDUCE_SOFTMAX && l->rows_per_item > 1 && l->lanes > 1 &&
        r->out[0].type == DML_TENSOR_DATA_TYPE_FLOAT32 && float_compute &&
        l->table[DMLI_RED_N] == l->table[DMLI_RED_RUN] && l->table[DMLI_RED_N] % l->lanes == 0 &&
        (uint64_t)l->table[DMLI_RED_N] <= tu->reduce_pair_max_run)
        dmli_opt_int(&l->defs, "PAIRS", 1);
    dmli_options_render(&l->defs, l->options, sizeof l->options);
}

/* The type of a split's scratch: the compute type's. */
static DML_TENSOR_DATA_TYPE scratch_type(const dmli_reduce *r)
{
    bool integer, sign;
    const char *compute = compute_type(r, &integer, &sign);
    if (!integer)
        return strcmp(compute, "double") == 0 ? DML_TENSOR_DATA_TYPE_FLOAT64
                                              : DML_TENSOR_DATA_TYPE_FLOAT32;
    return sign ? DML_TENSOR_DATA_TYPE_INT64 : DML_TENSOR_DATA_TYPE_UINT64;
}

bool dmli_reduce_split(const dmli_reduce *r0, const dmli_device_desc *dev, dmli_reduce *part,
                       dmli_reduce *comb, uint64_t *scratch_bytes)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    if (!tu->reduce_split_lanes)
        return false;
    dmli_reduce r = *r0;
    dmli_reduce_normalize(&r);
    if (r.empty || r.whole_rows || !cols_mode(&r) || r.n_inputs != 1 || r.n_outputs != 1 ||
        r.act != DMLI_ACT_NONE || r.pre_op != DMLI_MAP_IDENTITY || r.rank >= DMLI_MAX_RANK)
        return false;
    bool integer, sign;
    compute_type(&r, &integer, &sign);
    /* The two steps' operations: each slice's fold, then the slices' results folded into the
     * operation's (exact compositions: an average of equal slices' averages, the L2 norm of
     * the slices' L2 norms, the log of the sum of the slices' sums). Integers only where
     * every order wraps alike (sums, products) or picks. */
    dmli_reduce_op first, second;
    switch (r.op) {
    case DMLI_REDUCE_SUM:
    case DMLI_REDUCE_MULTIPLY:
    case DMLI_REDUCE_MAX:
    case DMLI_REDUCE_MIN: first = second = r.op; break;
    case DMLI_REDUCE_SUM_SQUARE:
        first = DMLI_REDUCE_SUM_SQUARE;
        second = DMLI_REDUCE_SUM;
        break;
    case DMLI_REDUCE_AVERAGE:
    case DMLI_REDUCE_L2:
        if (integer)
            return false;
        first = second = r.op;
        break;
    case DMLI_REDUCE_L1:
        if (integer)
            return false;
        first = DMLI_REDUCE_L1;
        second = DMLI_REDUCE_SUM;
        break;
    case DMLI_REDUCE_LOG_SUM:
        if (integer)
            return false;
        first = DMLI_REDUCE_SUM;
        second = DMLI_REDUCE_LOG_SUM;
        break;
    default: return false;
    }
    /* Whole rows of columns no wider than the tuning's, fewer of them than compute units, the
     * input past a quarter of the cache. */
    int last = r.rank - 1, d0 = -1;
    uint64_t kept = 1, elements = 1;
    for (int d = 0; d < r.rank; ++d) {
        elements *= (uint64_t)r.size[d];
        if (!r.reduced[d] && d != last)
            kept *= (uint64_t)r.size[d];
        if (r.reduced[d] && d0 < 0)
            d0 = d;
    }
    /* CPUs: past a quarter of the cache (streamed); GPUs: from reduce_split_bytes. */
    const uint64_t bytes_in = elements * dmli_type_size(r.in[0].type);
    const bool large = dev->device_class == DMLCL_DEVICE_CLASS_GPU
                           ? tu->reduce_split_bytes && bytes_in >= tu->reduce_split_bytes
                           : dmli_launch_streams(dev, bytes_in);
    if (d0 < 0 || (uint64_t)r.size[last] > tu->reduce_split_lanes || kept >= dev->compute_units ||
        !large)
        return false;
    /* Slices: the largest divisor of the outermost reduced dimension up to the compute units
     * per whole row, each at least 16 of its positions. */
    uint64_t want = (dev->compute_units + kept - 1) / kept, size0 = (uint64_t)r.size[d0],
             slices = 1;
    for (uint64_t p = want; p >= 2; --p)
        if (size0 % p == 0 && size0 / p >= 16) {
            slices = p;
            break;
        }
    if (slices < 2)
        return false;
    /* part: dimension d0 as [slices (kept), size0 / slices (reduced)]; its output the scratch,
     * dense over part's kept dimensions in order. */
    int rank = r.rank + 1;
    int64_t size[DMLI_MAX_RANK], in_s[DMLI_MAX_RANK], sc_s[DMLI_MAX_RANK];
    bool red[DMLI_MAX_RANK] = {false};
    for (int d = 0, e = 0; d < r.rank; ++d) {
        if (d == d0) {
            size[e] = (int64_t)slices;
            red[e] = false;
            in_s[e++] = r.in[0].stride[d] * (int64_t)(size0 / slices);
            size[e] = (int64_t)(size0 / slices);
            red[e] = true;
            in_s[e++] = r.in[0].stride[d];
        } else {
            size[e] = r.size[d];
            red[e] = r.reduced[d];
            in_s[e++] = r.in[0].stride[d];
        }
    }
    int64_t dense = 1;
    for (int e = rank - 1; e >= 0; --e) {
        sc_s[e] = red[e] ? 0 : dense;
        dense *= red[e] ? 1 : size[e];
    }
    DML_TENSOR_DATA_TYPE st = scratch_type(&r);
    dmli_reduce_init(part, first, 1, 1);
    part->whole_rows = true;
    part->in[0].type = r.in[0].type;
    part->in[0].slot = r.in[0].slot;
    part->in[0].offset = r.in[0].offset;
    part->out[0].type = st;
    for (int e = 0; e < rank; ++e)
        dmli_reduce_push(part, size[e], red[e], &sc_s[e], &in_s[e]);
    /* comb: the scratch as r's shape with d0 the slices, r's other reduced dimensions 1. */
    dmli_reduce_init(comb, second, 1, 1);
    comb->in[0].type = st;
    comb->out[0].type = r.out[0].type;
    comb->out[0].slot = r.out[0].slot;
    comb->out[0].offset = r.out[0].offset;
    for (int d = 0; d < r.rank; ++d) {
        int e = d < d0 ? d : d + 1; /* d's dimension in part (d0: the slices, e = d0) */
        int64_t os = r.out[0].stride[d];
        if (d == d0)
            dmli_reduce_push(comb, (int64_t)slices, true, &os, &sc_s[d0]);
        else if (r.reduced[d]) {
            int64_t zero = 0;
            dmli_reduce_push(comb, 1, true, &os, &zero);
        } else
            dmli_reduce_push(comb, r.size[d], false, &os, &sc_s[e]);
    }
    dmli_reduce_normalize(part);
    dmli_reduce_normalize(comb);
    *scratch_bytes = (uint64_t)dense * dmli_type_size(st);
    return true;
}
