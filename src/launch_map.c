/* SPDX-License-Identifier: MIT */
/*
 * The launch of a map (cl/map.cl): its options (the operation, the input count, each
 * tensor's storage type, the compute type, FAST when every run is contiguous), its grid and
 * its table (cl/abi.h DMLI_MAP_*). Pure host code, as launch.c.
 *
 * The innermost dimension is the run; the others are rows. CPUs: a work-item walks a chunk of
 * a run (whole runs when there are rows enough) for ROWS_PER_ITEM rows, map_items_per_unit
 * items per compute unit; GPUs (GRID1): a one-dimensional grid of work-groups, each over a
 * chunk of one row, its items a group's width apart (geometry; tuning.h).
 */
#include <stdio.h>
#include <string.h>

#include "launch.h"
#include "tuning.h"

_Static_assert(DMLI_MAP_MAX_INPUTS == DMLI_MAP_INPUTS, "the map's inputs: internal.h and cl/abi.h");
_Static_assert(DMLI_MAP_MAX_PARAMS == DMLI_MAP_PARAMS,
               "the map's parameters: internal.h and cl/abi.h");
_Static_assert(DMLI_MAP_MAX_STAGES == DMLI_MAP_STAGES, "a chain's stages: internal.h and cl/abi.h");
_Static_assert(DMLI_MAP_RANK_MAX == DMLI_MAX_RANK, "the map's dimensions: internal.h and cl/abi.h");

const char *dmli_map_storage_type(DML_TENSOR_DATA_TYPE type)
{
    switch (type) {
    case DML_TENSOR_DATA_TYPE_FLOAT64: return "double";
    case DML_TENSOR_DATA_TYPE_FLOAT16: return "ushort";
    case DML_TENSOR_DATA_TYPE_INT8: return "char";
    case DML_TENSOR_DATA_TYPE_UINT8: return "uchar";
    case DML_TENSOR_DATA_TYPE_INT16: return "short";
    case DML_TENSOR_DATA_TYPE_UINT16: return "ushort";
    case DML_TENSOR_DATA_TYPE_INT32: return "int";
    case DML_TENSOR_DATA_TYPE_UINT32: return "uint";
    case DML_TENSOR_DATA_TYPE_INT64: return "long";
    case DML_TENSOR_DATA_TYPE_UINT64: return "ulong";
    default: return "float";
    }
}

static bool contiguous_runs(const dmli_map *m)
{
    if (m->rank == 0)
        return true;
    int in = m->rank - 1;
    bool fast = m->out.stride[in] == 1;
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        fast = fast && m->in[k].stride[in] == 1;
    return fast;
}

static bool is_signed(DML_TENSOR_DATA_TYPE t)
{
    return t == DML_TENSOR_DATA_TYPE_INT8 || t == DML_TENSOR_DATA_TYPE_INT16 ||
           t == DML_TENSOR_DATA_TYPE_INT32 || t == DML_TENSOR_DATA_TYPE_INT64;
}

const char *dmli_unsigned_storage_type(DML_TENSOR_DATA_TYPE t)
{
    switch (dmli_type_size(t)) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

/*
 * The compute type: float (FLOAT16, FLOAT32) or double (a FLOAT64 tensor); for integers long
 * or ulong, wide enough that 8- to 32-bit operands never overflow, the result wrapped into
 * the output's width by the store: ulong where the operation wraps by definition (ADD,
 * SUBTRACT, MULTIPLY, DIFFERENCE_SQUARE, NEGATE: modular in any width; ABS of INT64: its
 * sign bit tested), long where a signed comparison or division needs the sign (MAX, MIN,
 * DIVIDE, MEAN, ABS of signed types up to 32 bits), ulong for unsigned types; MIN, MAX, CLIP
 * and THRESHOLD of one type up to 32 bits in that type (below).
 */
static const char *compute_type(const dmli_map *m, bool *integer, bool *sign)
{
    DML_TENSOR_DATA_TYPE t = m->out.type;
    bool dbl = t == DML_TENSOR_DATA_TYPE_FLOAT64, flt = dmli_type_is_float(t);
    for (uint32_t k = 0; k < m->n_inputs; ++k) {
        if (m->gather.on && k == m->gather.index)
            continue; /* indices: no operand */
        dbl = dbl || m->in[k].type == DML_TENSOR_DATA_TYPE_FLOAT64;
        flt = flt || dmli_type_is_float(m->in[k].type);
    }
    *integer = !flt;
    *sign = false;
    if (flt)
        return dbl ? "double" : "float";
    /* MIN, MAX, CLIP and THRESHOLD of one integer type of 8 to 32 bits (no activation, no
     * chain, no gather): exact in the type itself (the bounds are the type's already: CLIP1's
     * by rule, CLIP's and THRESHOLD's saturated to it, src/ops/elementwise_math.c), so a
     * vector holds 64 INT8 lanes instead of 8 longs (clip-i8 1.39x with STREAM,
     * docs/kernels.md). */
    bool own = (m->op == DMLI_MAP_MAX || m->op == DMLI_MAP_MIN || m->op == DMLI_MAP_CLIP ||
                m->op == DMLI_MAP_THRESHOLD) &&
               m->act == DMLI_ACT_NONE && m->n_stages <= 1 && !m->gather.on &&
               dmli_type_size(t) <= 4;
    for (uint32_t k = 0; own && k < m->n_inputs; ++k)
        own = m->in[k].type == t;
    if (own) {
        *sign = is_signed(t);
        return dmli_map_storage_type(t);
    }
    bool wraps = m->op == DMLI_MAP_ADD || m->op == DMLI_MAP_SUBTRACT ||
                 m->op == DMLI_MAP_MULTIPLY || m->op == DMLI_MAP_DIFFERENCE_SQUARE ||
                 m->op == DMLI_MAP_NEGATE || m->op == DMLI_MAP_IDENTITY ||
                 m->op == DMLI_MAP_FILL_SEQUENCE ||
                 (m->op == DMLI_MAP_ABS && dmli_type_size(t) == 8);
    /* A comparison's UINT8 or UINT32 result says nothing of its operands: their own type
     * orders them (INT64 compared in long, UINT64 in ulong, exactly). */
    if (m->op == DMLI_MAP_COMPARE && m->n_inputs > 0)
        t = m->in[0].type;
    /* An activation compares its value with 0 or a threshold: signed, whatever the type
     * (every integer type an activation takes has at most 32 bits). */
    wraps = wraps && m->act == DMLI_ACT_NONE;
    *sign = (is_signed(t) || m->act != DMLI_ACT_NONE) && !wraps;
    /* POW: a signed exponent of an unsigned base, or the reverse, both in long (its inputs
     * are 8 to 32 bits). DEQUANTIZE of 32-bit integers (on the encodings of its float tensors):
     * the difference of two UINT32 values has a sign, exact in long. */
    *sign = *sign || m->op == DMLI_MAP_POW || m->op == DMLI_MAP_DEQUANTIZE_LINEAR ||
            m->op == DMLI_MAP_DEQUANTIZE_SCALE;
    return *sign ? "long" : "ulong";
}

static void options(const dmli_map *m, dmli_map_launch *l)
{
    bool integer, sign;
    const char *compute = compute_type(m, &integer, &sign);
    dmli_options *o = &l->defs;
    dmli_opt_int(o, "NIN", m->n_inputs);
    dmli_opt_int(o, "OP", (int)m->op);
    dmli_opt_int(o, "SCALE_BIAS", m->scale_bias);
    dmli_opt_str(o, "COMPUTE_T", compute);
    dmli_opt_int(o, "COMPUTE_DOUBLE", strcmp(compute, "double") == 0);
    dmli_opt_int(o, "INT_COMPUTE", integer);
    dmli_opt_int(o, "SIGNED_COMPUTE", sign);
    dmli_opt_str(o, "OUT_T",
                 integer ? dmli_unsigned_storage_type(m->out.type)
                         : dmli_map_storage_type(m->out.type));
    dmli_opt_int(o, "OUT_HALF", m->out.type == DML_TENSOR_DATA_TYPE_FLOAT16);
    dmli_opt_int(o, "OUT_SAT", !integer && !dmli_type_is_float(m->out.type));
    dmli_opt_int(o, "FAST", contiguous_runs(m));
    dmli_opt_int(o, "ACT", (int)m->act);
    char name[24]; /* "IN" + a uint32 + "_HALF" */
    for (uint32_t k = 0; k < m->n_inputs; ++k) {
        snprintf(name, sizeof name, "IN%u_T", k);
        dmli_opt_str(o, name, dmli_map_storage_type(m->in[k].type));
        snprintf(name, sizeof name, "IN%u_HALF", k);
        dmli_opt_int(o, name, m->in[k].type == DML_TENSOR_DATA_TYPE_FLOAT16);
    }
    /* A gather read through: which input it feeds, which input holds its indices. */
    if (m->gather.on) {
        dmli_opt_int(o, "GATHER", (int)m->gather.input);
        dmli_opt_int(o, "GIDX", (int)m->gather.index);
        dmli_opt_int(o, "GIDX_SIGNED", is_signed(m->in[m->gather.index].type));
        dmli_opt_int(o, "GWRAP", m->gather.wrap);
        dmli_opt_int(o, "GZERO", m->gather.policy == DMLI_OOR_ZERO);
        /* One index per row (a row gather: its rows read contiguously, the index resolved
         * once per row). */
        dmli_opt_int(o, "GIDX_ROW",
                     m->rank == 0 || m->in[m->gather.index].stride[m->rank - 1] == 0);
    }
    /* A chain: its stage count and each stage's list (cl/map.cl S0 .. S7). */
    if (m->n_stages > 1) {
        dmli_opt_int(o, "STAGES", m->n_stages);
        for (uint32_t s = 0; s < m->n_stages; ++s) {
            dmli_map_stage st = dmli_map_get_stage(m, s);
            char list[28];
            int n = snprintf(list, sizeof list, "%d,%d,%d", (int)st.op, (int)st.act,
                             st.scale_bias ? 1 : 0);
            for (uint32_t j = 0; j < DMLI_MAP_MAX_ARGS; ++j) {
                uint8_t a = j < st.n_args ? st.arg[j] : 0;
                n += snprintf(list + n, sizeof list - (size_t)n,
                              a >= DMLI_MAP_ARG_STAGE(0) ? ",y%u" : ",x%u",
                              a >= DMLI_MAP_ARG_STAGE(0) ? a - DMLI_MAP_ARG_STAGE(0) : a);
            }
            snprintf(name, sizeof name, "S%u", s);
            dmli_opt_str(o, name, list);
        }
    }
    /* Run strides of 0 and 1 as constants, where not every one is 1 (FAST): a broadcast
     * operand (a bias) beside contiguous ones keeps the loop vectorisable. */
    int in = m->rank - 1;
    if (m->rank > 0 && !contiguous_runs(m)) {
        if (m->out.stride[in] == 1)
            dmli_opt_int(o, "OUT_RS", 1);
        for (uint32_t k = 0; k < m->n_inputs; ++k)
            if (m->in[k].stride[in] == 0 || m->in[k].stride[in] == 1) {
                snprintf(name, sizeof name, "IN%u_RS", k);
                dmli_opt_int(o, name, m->in[k].stride[in]);
            }
    }
    dmli_options_render(o, l->options, sizeof l->options);
}

/* GPUs: the elements an item loads and stores as one vector of each tensor (cl/map.cl GVEC):
 * map_gpu_vector_bytes of the widest tensor's type, for maps whose runs are all contiguous and
 * that read no gather through; 1 (none) otherwise or where that is under 2 elements. */
static uint32_t gpu_vector(const dmli_map *m, const dmli_device_desc *dev)
{
    const uint32_t bytes = dmli_tuning_for(dev->device_class)->map_gpu_vector_bytes;
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU || !bytes || m->gather.on ||
        !contiguous_runs(m))
        return 1;
    uint64_t widest = dmli_type_size(m->out.type);
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        if (dmli_type_size(m->in[k].type) > widest)
            widest = dmli_type_size(m->in[k].type);
    uint32_t v = 1;
    while (v < 16 && (uint64_t)(2 * v) * widest <= bytes)
        v *= 2;
    return v >= 2 ? v : 1;
}

static void geometry(const dmli_map *m, const dmli_device_desc *dev, dmli_map_launch *l)
{
    int64_t run = m->rank ? m->size[m->rank - 1] : 1;
    uint64_t rows = 1;
    for (int d = 0; d + 1 < m->rank; ++d)
        rows *= (uint64_t)m->size[d];
    l->rows = rows;
    const dmli_tuning *t = dmli_tuning_for(dev->device_class);
    if (dev->device_class == DMLCL_DEVICE_CLASS_GPU) {
        /* One grid dimension (GPUs bound the others to 65535 groups): work-groups of G items
         * (the power of two that holds the run, 32 to map_group), each over a chunk of G x K
         * elements of one row, its items G apart (a warp's accesses consecutive); K (up to
         * map_gpu_elements) while the grid keeps map_gpu_groups_per_unit groups per compute
         * unit, so that a row's offsets (divisions) are worked out once per K elements. */
        size_t group = 32;
        while (group < (size_t)run && group < t->map_group)
            group *= 2;
        while (group > 1 && group > dev->max_work_group_size)
            group /= 2;
        /* K at least the item's vector (GVEC), so that a chunk is a whole number of them. */
        const uint64_t vec = gpu_vector(m, dev);
        uint64_t k = t->map_gpu_elements > vec ? t->map_gpu_elements : vec,
                 units = dev->compute_units ? dev->compute_units : 1;
        for (; k > vec; k /= 2) {
            uint64_t per_row = ((uint64_t)run + group * k - 1) / (group * k);
            if (per_row * rows >= (uint64_t)t->map_gpu_groups_per_unit * units)
                break;
        }
        l->chunk = (int64_t)(group * k);
        /* Groups a row: at least 1 (the kernel divides by it; an empty map is never run). */
        l->rows_per_item = run > 0 ? ((uint64_t)run + group * k - 1) / (group * k) : 1;
        l->local[0] = group;
        l->local[1] = l->local[2] = 1;
        l->global[0] = (size_t)(l->rows_per_item * rows) * group;
        l->global[1] = l->global[2] = 1;
        return;
    }
    uint64_t want = t->map_items_per_unit * (uint64_t)dev->compute_units;
    if (rows >= want) {
        l->chunk = run;
        l->rows_per_item = (rows + want - 1) / want;
    } else {
        uint64_t per_row = (want + rows - 1) / rows;
        int64_t chunk = (run + (int64_t)per_row - 1) / (int64_t)per_row;
        int64_t whole = t->map_chunk_multiple; /* whole vectors of a contiguous run */
        chunk = (chunk + whole - 1) / whole * whole;
        l->chunk = chunk < run ? chunk : run;
        l->rows_per_item = 1;
    }
    l->local[0] = l->local[1] = l->local[2] = 1;
    l->global[0] = 1;
    l->global[1] = (size_t)((run + l->chunk - 1) / l->chunk);
    l->global[2] = (size_t)((rows + l->rows_per_item - 1) / l->rows_per_item);
}

/*
 * Whether a map is bound by memory on a CPU, so that non-temporal stores pay (cl/map.cl STREAM):
 * every stage's operation and activation a few vector instructions an element (arithmetic,
 * comparisons, bits, casts, fills, ReLU's kin, cl/exp.cl's exp and the sigmoids built on it).
 * The others (erf and GELU's erfc, the trigonometric, hyperbolic, logarithmic and power
 * functions: long polynomials or the device's scalar library calls) keep plain stores: GELU,
 * compute-bound at 0.36 of the copy, was 0.93-0.97x as fast with them (dmlcl-ab, PoCL).
 */
static bool cheap_op(dmli_map_op op)
{
    if (op >= DMLI_MAP_COMPARE) /* comparisons, logic, bits, tests, IF, CAST, fills, PRELU, BN */
        return true;
    switch (op) {
    case DMLI_MAP_IDENTITY:
    case DMLI_MAP_ADD:
    case DMLI_MAP_SUBTRACT:
    case DMLI_MAP_MULTIPLY:
    case DMLI_MAP_DIVIDE:
    case DMLI_MAP_MAX:
    case DMLI_MAP_MIN:
    case DMLI_MAP_MEAN:
    case DMLI_MAP_DIFFERENCE_SQUARE:
    case DMLI_MAP_NEGATE:
    case DMLI_MAP_ABS:
    case DMLI_MAP_CEIL:
    case DMLI_MAP_FLOOR:
    case DMLI_MAP_SQRT:
    case DMLI_MAP_RECIP:
    case DMLI_MAP_EXP:
    case DMLI_MAP_CLIP:
    case DMLI_MAP_MODULUS_FLOOR:
    case DMLI_MAP_MODULUS_TRUNCATE:
    case DMLI_MAP_ROUND:
    case DMLI_MAP_SIGN:
    case DMLI_MAP_THRESHOLD:
    case DMLI_MAP_RELU_GRAD:
    case DMLI_MAP_CLIP_GRAD:
    case DMLI_MAP_QUANTIZE_LINEAR:
    case DMLI_MAP_QUANTIZE_SCALE:
    case DMLI_MAP_DEQUANTIZE_LINEAR:
    case DMLI_MAP_DEQUANTIZE_SCALE: return true;
    default: return false;
    }
}

static bool cheap_act(dmli_act act)
{
    switch (act) {
    case DMLI_ACT_NONE:
    case DMLI_ACT_IDENTITY:
    case DMLI_ACT_RELU:
    case DMLI_ACT_LEAKY_RELU:
    case DMLI_ACT_THRESHOLDED_RELU:
    case DMLI_ACT_LINEAR:
    case DMLI_ACT_HARD_SIGMOID:
    case DMLI_ACT_HARD_SWISH:
    case DMLI_ACT_SHRINK:
    case DMLI_ACT_SIGMOID:
    case DMLI_ACT_SWISH:
    case DMLI_ACT_SOFTSIGN: return true;
    default: return false;
    }
}

/*
 * The input a CPU map reads across the run in tiles (cl/map.cl TILE, TK), or -1: the output's
 * run has stride 1; one input of a 4-byte type reads the run with a stride other than 0 or 1
 * and the next outer dimension d with stride 1 (NCHW read into NHWC: the run C, d the merged
 * H x W), every other input reads the run with stride 0 or 1; d's size and the run multiples
 * of DMLI_MAP_TILE (the run in chunks of up to DMLI_MAP_TILE_RUN); no gather read through. Read
 * element by element along the run, such an input cost a strided load an element: NCHW to NHWC + a
 * channel bias ran at 0.38 of the copy, slower than the tiled transpose and the ADD apart.
 */
static int tile_input(const dmli_map *m)
{
    /* ONE_HOT and DIAGONAL read the element's position, which a tile's rows do not keep. */
    if (m->op == DMLI_MAP_ONE_HOT || m->op == DMLI_MAP_DIAGONAL)
        return -1;
    if (m->rank < 2 || m->out.stride[m->rank - 1] != 1 || m->gather.on ||
        m->size[m->rank - 2] % DMLI_MAP_TILE != 0 || m->size[m->rank - 1] % DMLI_MAP_TILE != 0)
        return -1;
    int run = m->rank - 1, d = m->rank - 2, tk = -1;
    for (uint32_t k = 0; k < m->n_inputs; ++k) {
        int64_t s = m->in[k].stride[run];
        if (s == 0 || s == 1)
            continue;
        if (tk >= 0 || m->in[k].stride[d] != 1 || dmli_type_size(m->in[k].type) != 4 ||
            m->in[k].type == DML_TENSOR_DATA_TYPE_FLOAT16)
            return -1;
        tk = (int)k;
    }
    return tk;
}

bool dmli_map_tiles(const dmli_map *m)
{
    return tile_input(m) >= 0;
}

bool dmli_map_memory_bound(const dmli_map *m)
{
    for (uint32_t s = 0; s < (m->n_stages > 1 ? m->n_stages : 1); ++s) {
        dmli_map_stage st = dmli_map_get_stage(m, s);
        if (!cheap_op(st.op) || !cheap_act(st.act))
            return false;
    }
    return true;
}

cl_long dmli_param_bits(double real, int64_t integer, const char *compute)
{
    if (strcmp(compute, "float") == 0)
        return dmli_float_bits(real);
    if (strcmp(compute, "double") == 0) {
        cl_long bits;
        memcpy(&bits, &real, sizeof bits);
        return bits;
    }
    return integer; /* an integer compute type: long, ulong or a tensor's own (MIN, MAX, ...) */
}

cl_long dmli_float_bits(double v)
{
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return (cl_long)bits;
}

/* Parameter i in the compute type's bits (cl/map.cl PARAM). */
static cl_long param_bits(const dmli_map *m, int i)
{
    bool integer, sign;
    return dmli_param_bits(m->param[i], m->iparam[i], compute_type(m, &integer, &sign));
}

static void table(const dmli_map *m, dmli_map_launch *l)
{
    cl_long *t = l->table;
    memset(t, 0, sizeof l->table);
    int in = m->rank - 1;
    t[DMLI_MAP_OUTER_RANK] = m->rank > 1 ? m->rank - 1 : 0;
    t[DMLI_MAP_RUN] = m->rank ? m->size[in] : 1;
    t[DMLI_MAP_CHUNK] = l->chunk;
    t[DMLI_MAP_ROWS] = (cl_long)l->rows;
    t[DMLI_MAP_ROWS_PER_ITEM] = (cl_long)l->rows_per_item;
    for (int i = 0; i < DMLI_MAP_PARAMS; ++i)
        t[DMLI_MAP_PARAM(i)] = param_bits(m, i);
    t[DMLI_MAP_RUN_OS] = m->rank ? m->out.stride[in] : 0;
    for (uint32_t k = 0; k < m->n_inputs; ++k)
        t[DMLI_MAP_RUN_IS(k)] = m->rank ? m->in[k].stride[in] : 0;
    cl_long *dim = t + DMLI_MAP_HEADER;
    for (int d = in - 1; d >= 0; --d, dim += DMLI_MAP_DIM) { /* innermost first */
        dim[0] = m->size[d];
        dim[1] = m->out.stride[d];
        for (uint32_t k = 0; k < m->n_inputs; ++k)
            dim[2 + k] = m->in[k].stride[d];
    }
    l->table_count = (size_t)(dim - t);
    for (uint32_t s = 1; s < m->n_stages; ++s) {
        for (int i = 0; i < DMLI_MAP_PARAMS; ++i) {
            bool integer, sign;
            t[DMLI_MAP_STAGE_PARAM((int)s, i)] = dmli_param_bits(
                m->stage[s].param[i], m->stage[s].iparam[i], compute_type(m, &integer, &sign));
        }
        l->table_count = (size_t)DMLI_MAP_STAGE_PARAM((int)s, DMLI_MAP_PARAMS);
    }
    if (m->gather.on) {
        t[DMLI_MAP_GATHER_N] = m->gather.axis_size;
        t[DMLI_MAP_GATHER_S] = m->gather.axis_stride;
        l->table_count = DMLI_MAP_GATHER_S + 1;
    }
}

void dmli_launch_map(const dmli_map *m, const dmli_device_desc *dev, dmli_map_launch *l)
{
    memset(l, 0, sizeof *l);
    options(m, l);
    geometry(m, dev, l);
    bool integer, sign;
    const char *compute = compute_type(m, &integer, &sign);
    if (dev->device_class == DMLCL_DEVICE_CLASS_GPU) {
        dmli_opt_int(&l->defs, "GRID1", 1);
        const uint32_t gvec = gpu_vector(m, dev);
        if (gvec > 1)
            dmli_opt_int(&l->defs, "GVEC", gvec);
        /* Element by element, an item's loads waited on its stores (cl/map.cl GB): its
         * share of a chunk (up to map_gpu_elements) is loaded first. A constant of the
         * tuning, not of the launch's share, so that one variant serves every shape. */
        const dmli_tuning *tg = dmli_tuning_for(dev->device_class);
        uint32_t gb = dmli_load_batch(tg);
        if (gb > tg->map_gpu_elements)
            gb = tg->map_gpu_elements ? tg->map_gpu_elements : 1;
        if (gvec == 1 && !m->gather.on && gb > 1)
            dmli_opt_int(&l->defs, "GB", gb);
        dmli_options_render(&l->defs, l->options, sizeof l->options);
        table(m, l);
        return;
    }
    /* CPUs: a memory-bound map whose output run has stride 1 and is far larger than the
     * caches stores whole non-temporal lines (cl/map.cl STREAM; the threshold as data
     * movement's, launch.c): add-bias 1.49x, multiply 1.36x, add1-relu 1.26x, cast-f16 1.24x,
     * clip-i8 1.13x, sigmoid 1.11x (dmlcl-ab, PoCL, 64 MiB outputs). */
    uint64_t out_bytes = dmli_type_size(m->out.type);
    for (int d = 0; d < m->rank; ++d)
        out_bytes *= (uint64_t)m->size[d];
    if (m->rank > 0 && m->out.stride[m->rank - 1] == 1 && dmli_map_memory_bound(m) &&
        dmli_launch_streams(dev, out_bytes))
        dmli_opt_int(&l->defs, "STREAM", 1);
    /* CPUs: an input read across the run (a layout change) in tiles along the next outer
     * dimension, where it is contiguous (cl/map.cl TILE). */
    int tk = tile_input(m);
    if (tk >= 0) {
        int d = m->rank - 2;
        dmli_opt_int(&l->defs, "TILE", DMLI_MAP_TILE);
        dmli_opt_int(&l->defs, "TK", tk);
        if (dev->prefetch)
            dmli_opt_int(&l->defs, "TILE_PF", 2);
        dmli_opt_int(&l->defs, "TILE_RUN", DMLI_MAP_TILE_RUN);
        /* 16 x 16 blocks where the CPU's float vectors are 16 wide (cl/map.cl TILE16). */
        if (dev->native_vector_width_float >= 16 &&
            dmli_tuning_for(dev->device_class)->map_tile_block16 == 1)
            dmli_opt_int(&l->defs, "TILE16", 1);
        char name[16]; /* "TD" + a uint32 */
        for (uint32_t k = 0; k < m->n_inputs; ++k)
            if (m->in[k].stride[d] == 0 || m->in[k].stride[d] == 1) {
                snprintf(name, sizeof name, "TD%u", k);
                dmli_opt_int(&l->defs, name, (int)m->in[k].stride[d]);
            }
        /* Whole runs, and rows an item in whole tiles (d's size is a multiple of TILE, so a
         * tile never crosses into another row of the outer dimensions). */
        l->chunk = m->size[m->rank - 1];
        l->rows_per_item = (l->rows_per_item + DMLI_MAP_TILE - 1) / DMLI_MAP_TILE * DMLI_MAP_TILE;
        if (l->global[1] > 1) { /* geometry() split runs: rows were few */
            uint64_t want = dmli_tuning_for(dev->device_class)->map_items_per_unit *
                            (uint64_t)dev->compute_units;
            uint64_t per = (l->rows + want - 1) / want;
            l->rows_per_item = (per + DMLI_MAP_TILE - 1) / DMLI_MAP_TILE * DMLI_MAP_TILE;
        }
        l->global[1] = 1;
        l->global[2] = (size_t)((l->rows + l->rows_per_item - 1) / l->rows_per_item);
    }
    dmli_options_render(&l->defs, l->options, sizeof l->options);
    if (!integer && strcmp(compute, "float") == 0 && dev->native_vector_width_float >= 2) {
        /* A CPU's float loop vectorised at twice its native width (cl/map.cl VW): two
         * independent vectors an iteration keep the FP units busy through the long dependent
         * chains of exp, sigmoid and erfc (GELU 1.3x, docs/kernels.md); the compiler's own
         * choice on AVX-512 was 8 lanes. */
        uint32_t vw = 2 * dev->native_vector_width_float;
        dmli_opt_int(&l->defs, "VW", (int)(vw > 64 ? 64 : vw));
        dmli_options_render(&l->defs, l->options, sizeof l->options);
    }
    table(m, l);
}
