/* SPDX-License-Identifier: MIT */
/*
 * The launch of a GEMM (cl/gemm.cl, src/gemm.h): the variant (the tensors' type, the
 * activation, the block or tile: tuning data per device class), the kernel (by the operands'
 * strides), its grid and its table (cl/abi.h DMLI_GEMM_*). Pure host code, as launch.c.
 *
 * CPUs run gemm_blocks: a work-item an MR x (NV * VW) block, VW the device's preferred int
 * vector width (16 on AVX-512, 8 on AVX2; 4 at least); or gemm_dots where A and B both run
 * along k (B transposed: a linear layer's weight) and K fills a vector. GPUs run gemm_tiles:
 * work-groups of TX x TY items over a (TY * WM) x (TX * WN) tile, the group shrunk (halving TX,
 * then TY) to what the device takes, the block (WM x WN) to give every compute unit work.
 */
#include <string.h>

#include "gemm.h"
#include "launch.h"
#include "tuning.h"

_Static_assert(DMLI_GEMM_MAX_BATCH *DMLI_GEMM_DIM + DMLI_GEMM_HEADER <= DMLI_COMPUTE_TABLE_MAX,
               "the GEMM table fits the compute table");

/* The most temporary resource a B packed at every dispatch may ask for (bytes). */
#define DMLI_GEMM_PACK_EACH_MAX ((uint64_t)1 << 30)

static size_t ceil_div(int64_t a, int64_t b)
{
    return (size_t)((a + b - 1) / b);
}

/* The side of a tile whose halving adds more work-groups: 1 along n, 2 along m, 0 neither can
 * halve (n on a tie). */
static int halve_which(int64_t m, int64_t n, size_t batches, size_t cols, size_t rows, bool n_can,
                       bool m_can)
{
    size_t by_n =
        n_can ? ceil_div(n, (int64_t)(cols / 2)) * ceil_div(m, (int64_t)rows) * batches : 0;
    size_t by_m =
        m_can ? ceil_div(n, (int64_t)cols) * ceil_div(m, (int64_t)(rows / 2)) * batches : 0;
    if (!n_can && !m_can)
        return 0;
    return by_n >= by_m && n_can ? 1 : m_can ? 2 : 1;
}

/* A block side halved, a multiple of 4 and at least 4 (float4 groups). */
static size_t halve4(size_t w)
{
    return w / 2 < 4 ? 4 : w / 2 / 4 * 4;
}

/* The local memory tile t takes: two slabs of each operand (k rows of TM + 4 and TN + 4). */
static uint64_t slab_bytes(const dmli_tile *t, uint64_t local_extra)
{
    return 2 * t->tk * (t->ty * t->wm + 4 + t->tx * t->wn + 4) * sizeof(float) + local_extra;
}

dmli_tile dmli_tile_choose(const dmli_device_desc *dev, int64_t m, int64_t n, int64_t k,
                           uint32_t k_max, size_t batches, uint64_t local_extra)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    dmli_tile t;
    t.tx = tu->gemm_tile_items[0] ? tu->gemm_tile_items[0] : 16;
    t.ty = tu->gemm_tile_items[1] ? tu->gemm_tile_items[1] : 16;
    while (t.tx > 1 && (t.tx > dev->max_item_sizes[0] || t.tx * t.ty > dev->max_work_group_size))
        t.tx /= 2;
    while (t.ty > 1 && (t.ty > dev->max_item_sizes[1] || t.tx * t.ty > dev->max_work_group_size))
        t.ty /= 2;
    t.wn = tu->gemm_tile_block[0] < 4 ? 4 : tu->gemm_tile_block[0] / 4 * 4;
    t.wm = tu->gemm_tile_block[1] < 4 ? 4 : tu->gemm_tile_block[1] / 4 * 4;
    t.tk = tu->gemm_tile_k ? tu->gemm_tile_k : 8;
    const size_t tuned_floats = t.tk * (t.tx * t.wn + t.ty * t.wm); /* a k step's slabs */
    /* A block whose tile is twice the product or more along a side: halved along it (the
     * same groups, fewer idle rows or columns an item). */
    while (t.wm > 4 && m <= (int64_t)(t.ty * t.wm / 2))
        t.wm = halve4(t.wm);
    while (t.wn > 4 && n <= (int64_t)(t.tx * t.wn / 2))
        t.wn = halve4(t.wn);
    /* Then halved while the tiles would give fewer than gemm_tile_fill work-groups per 100
     * compute units (100: one each; 1024^3 in 128 x 128 tiles is 64 groups, half an H200's 132
     * units idle) or the slabs (and local_extra) would not fit the device's local memory: the
     * block first (down to 4 x 4), then the work-group (down to 8 x 8 items), each time the
     * side whose halving adds more groups. */
    const size_t want = ((size_t)tu->gemm_tile_fill * dev->compute_units + 99) / 100;
    for (;;) {
        const size_t cols = t.tx * t.wn, rows = t.ty * t.wm;
        const size_t groups = ceil_div(n, (int64_t)cols) * ceil_div(m, (int64_t)rows) * batches;
        if (groups >= want && slab_bytes(&t, local_extra) <= dev->local_mem_size)
            break;
        int side = halve_which(m, n, batches, cols, rows, t.wn > 4, t.wm > 4);
        if (side == 1) {
            t.wn = halve4(t.wn);
            continue;
        }
        if (side == 2) {
            t.wm = halve4(t.wm);
            continue;
        }
        side = halve_which(m, n, batches, cols, rows, t.tx > 8, t.ty > 8);
        if (side == 1)
            t.tx /= 2;
        else if (side == 2)
            t.ty /= 2;
        else
            break;
    }
    /* A smaller tile takes longer k steps (doubled up to k_max, and while the slabs hold no
     * more floats than the tuned tile's: about the same local memory, so as many groups a
     * compute unit): fewer steps, each a wait on global memory and a barrier. On an H200
     * 1024^3 in 64 x 64 tiles took 0.11 ms with steps of 16 against 0.13 with 8; the
     * convolutions' 32 x 32 tiles with steps of 32 were slower (their staging, a tap table
     * lookup a value, grows with the step): GEMM's k_max 16, the convolutions' 8. A step is no
     * longer than k. */
    const size_t sides = t.tx * t.wn + t.ty * t.wm;
    while (2 * t.tk <= k_max && (int64_t)(2 * t.tk) <= k && 2 * t.tk * sides <= tuned_floats) {
        dmli_tile longer = t;
        longer.tk *= 2;
        if (slab_bytes(&longer, local_extra) > dev->local_mem_size)
            break;
        t = longer;
    }
    /* A k step too long for the device's local memory even so (a tuning's): halved. */
    while (t.tk > 1 && slab_bytes(&t, local_extra) > dev->local_mem_size)
        t.tk /= 2;
    t.local_bytes = slab_bytes(&t, local_extra);
    return t;
}

uint32_t dmli_tile_split(const dmli_device_desc *dev, const dmli_tile *t, uint64_t groups,
                         int64_t k, int64_t *k_slice)
{
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    *k_slice = k;
    if (dev->device_class != DMLCL_DEVICE_CLASS_GPU || tu->tile_split_max < 2 || k <= 0 ||
        groups == 0)
        return 1;
    const uint64_t items = groups * t->tx * t->ty;
    const uint64_t want = (uint64_t)tu->tile_split_items * dev->compute_units;
    if (items >= want)
        return 1;
    const uint64_t steps = ((uint64_t)k + t->tk - 1) / t->tk;
    const uint64_t min_steps = tu->tile_split_steps ? tu->tile_split_steps : 1;
    uint64_t s = (want + items - 1) / items;
    if (s > steps / min_steps)
        s = steps / min_steps;
    if (s > tu->tile_split_max)
        s = tu->tile_split_max;
    if (s < 2)
        return 1;
    /* Whole k steps a slice, as even as they go; the slices that remain non-empty. */
    const uint64_t per = (steps + s - 1) / s;
    *k_slice = (int64_t)(per * t->tk);
    return (uint32_t)((steps + per - 1) / per);
}

uint64_t dmli_tile_split_bytes(const dmli_tile *t, uint64_t groups, uint32_t splits)
{
    return (uint64_t)splits * groups * (t->tx * t->wn) * (t->ty * t->wm) * sizeof(float);
}

/* A CPU kernel's grid (global id 2, the batch, set by the caller). gemm_blocks: m-blocks along
 * dimension 0, so that a work-group's items, and the groups that follow it, share B's panel (it
 * stays in L1/L2 while A's rows stream: 1024^3 went from ~105 to ~150 GFLOP per CPU-second,
 * 4096x4096x1024 from ~60-95 to ~125 on a loaded machine). gemm_dots: n-blocks along dimension
 * 0 (its panels are the same size). Work-groups of several blocks (a CPU runs a group's items in
 * one loop: a group per small block would cost a dispatch each); the last group's extra items
 * return at once. */
static void grid(const dmli_gemm *g, const dmli_tuning *tu, const dmli_device_desc *dev, bool dots,
                 uint32_t mr, uint32_t nv, uint32_t vw, size_t *global, size_t *local)
{
    size_t along = dots ? ceil_div(g->n, (int64_t)tu->gemm_dot_columns * tu->gemm_dot_blocks)
                        : ceil_div(g->m, mr);
    size_t across = dots ? ceil_div(g->m, tu->gemm_dot_rows) : ceil_div(g->n, (int64_t)(nv * vw));
    size_t group = tu->gemm_cpu_group < along ? tu->gemm_cpu_group : along;
    while (group > 1 && group > dev->max_item_sizes[0])
        group /= 2;
    local[0] = group;
    local[1] = 1;
    global[0] = (along + group - 1) / group * group;
    global[1] = across;
}

/* Whether the plain gemm_blocks would read B's panel (K rows of NV * VW values, b_k elements
 * apart) badly enough that packing B at every dispatch pays, from gemm_pack_min_m rows of
 * output (below, the pack's pass over B costs more than it saves: 1024 x 1024 at M = 8 took
 * 0.35 ms packed against 0.11; break-even near M = 50): where B is transposed or strided along n
 * (the plain kernel's panel path copies B column by column, per work-group, its accumulators
 * kept in memory across the copy's barriers), or is read by gemm_dots (B transposed, K of
 * gemm_dot_min_k or more) and is larger than gemm_pack_dots_bytes (a B that stays in a core's
 * cache gemm_dots reads as fast as a packed one), and
 * where the rows' addresses alias in the cache: rows b_k * size bytes apart fall at way / g
 * places of a way of the cache (g the largest power of two dividing the stride, at most the way),
 * so K * g / way rows share each set's ways (128 bytes a row: its two lines' sets); above
 * gemm_pack_ways of them the panel does not stay in the cache between the blocks that read it. */
static bool pack_each(const dmli_gemm *g, const dmli_tuning *tu, bool dots, uint32_t esize)
{
    if (!tu->gemm_pack_min_m || g->m < (int64_t)tu->gemm_pack_min_m)
        return false;
    if (dots)
        return (uint64_t)g->k * (uint64_t)g->n * esize > tu->gemm_pack_dots_bytes;
    if (g->b_n != 1)
        return true;
    const uint64_t way = tu->gemm_pack_way_bytes, stride = (uint64_t)g->b_k * esize;
    if (!way || !stride || (way & (way - 1)))
        return false;
    uint64_t low = stride & (~stride + 1); /* the largest power of two dividing it */
    if (low > way)
        low = way;
    if (low < 128)
        low = 128;
    return (uint64_t)g->k * low / way > tu->gemm_pack_ways;
}

/* The table (cl/abi.h DMLI_GEMM_*) of g; returns the batch coordinates. */
static size_t fill_table(const dmli_gemm *g, dmli_compute_launch *l)
{
    cl_long *t = l->table;
    t[DMLI_GEMM_M] = g->m;
    t[DMLI_GEMM_N] = g->n;
    t[DMLI_GEMM_K] = g->k;
    t[DMLI_GEMM_A_M] = g->a_m;
    t[DMLI_GEMM_A_K] = g->a_k;
    t[DMLI_GEMM_B_K] = g->b_k;
    t[DMLI_GEMM_B_N] = g->b_n;
    t[DMLI_GEMM_C_M] = g->c_m;
    t[DMLI_GEMM_C_N] = g->c_n;
    t[DMLI_GEMM_O_M] = g->o_m;
    t[DMLI_GEMM_O_N] = g->o_n;
    t[DMLI_GEMM_ALPHA] = dmli_float_bits(g->alpha);
    t[DMLI_GEMM_BETA] = dmli_float_bits(g->beta);
    for (int i = 0; i < 3; ++i)
        t[DMLI_GEMM_ACT + i] = dmli_float_bits(g->act_param[i]);
    t[DMLI_GEMM_BATCH_RANK] = g->batch_rank;
    t[DMLI_GEMM_HAS_C] = g->has_c;
    t[DMLI_GEMM_SPLITS] = 1;
    t[DMLI_GEMM_SPLIT_K] = g->k;
    t[DMLI_GEMM_PACK_KP] = g->k;
    t[DMLI_GEMM_B_NL] = g->b_nl ? g->b_nl : g->n > 0 ? g->n : 1;
    t[DMLI_GEMM_B_NH] = g->b_nh;
    size_t batches = 1;
    for (int d = 0; d < g->batch_rank; ++d) {
        cl_long *e = t + DMLI_GEMM_HEADER + DMLI_GEMM_DIM * d;
        e[0] = g->batch[d];
        e[1] = g->a_b[d];
        e[2] = g->b_b[d];
        e[3] = g->c_b[d];
        e[4] = g->o_b[d];
        batches *= (size_t)g->batch[d];
    }
    l->table_count = DMLI_GEMM_HEADER + DMLI_GEMM_DIM * (size_t)g->batch_rank;
    return batches;
}

/* g with its innermost batch dimension joined to n, where only B's columns need to know (A does
 * not move along it; C moves as a next column would, or not at all; the output's columns
 * continue across it): a strided 1x1 convolution's output rows (ops/conv.c lower_pointwise
 * makes each row a batch coordinate of OW columns, as B's rows are Strides apart: 7 to 28
 * columns of a 64-column block, 0.10-0.34 of ONNX Runtime's speed) become one product of
 * OH x OW columns. B's columns are then in groups (gemm.h b_nl, b_nh), which only gemm_pack_b
 * reads: for a B packed at every dispatch. Each output's sum is the same (k in order). */
static bool fold_n(const dmli_gemm *g, dmli_gemm *f)
{
    if (g->batch_rank == 0 || g->b_nl || g->n <= 0)
        return false;
    const int d = g->batch_rank - 1;
    if (g->a_b[d] != 0 || g->o_b[d] != g->o_n * g->n || (g->has_c && g->c_b[d] != g->c_n * g->n))
        return false;
    *f = *g;
    f->b_nl = g->n;
    f->b_nh = g->b_b[d];
    f->n = g->n * g->batch[d];
    f->batch_rank = d;
    return true;
}

/* A CPU launch's choices (dmli_launch_gemm): the block, the kernel, and whether B is packed. */
typedef struct cpu_plan {
    uint32_t vw, mr, nv;
    bool dots, pack, each;
    uint64_t b_batches, nblocks, floats;
} cpu_plan;

static void plan_cpu(const dmli_gemm *g, const dmli_tuning *tu, const dmli_device_desc *dev,
                     cpu_plan *p)
{
    uint32_t vw = dev->preferred_vector_width_int;
    vw = vw >= 16 ? 16 : vw >= 8 ? 8 : 4;
    uint32_t mr = tu->gemm_rows ? tu->gemm_rows : 1, nv = tu->gemm_vectors ? tu->gemm_vectors : 1;
    /* The block's MR x NV accumulators, NV vectors of B and A's broadcast value in the vector
     * registers: 32 where the device's vectors are 16 ints wide (AVX-512), 16 else (AVX2, SSE,
     * NEON's 32 of 4 lanes counted as 16: its width is 4): NV halved until they fit (the
     * tuned 6 x 4 becomes 6 x 2 on AVX2, 15 registers). */
    /* A product whose N fits in half the block's columns (attention's probabilities times V,
     * N = 32: every 64-column block would be a last, partial one, through the panel path) takes
     * a block of half the vectors and gemm_rows_narrow rows (8 x 2 on AVX-512). */
    while (nv > 1 && g->n <= (int64_t)(nv / 2 * vw)) {
        nv /= 2;
        if (tu->gemm_rows_narrow)
            mr = tu->gemm_rows_narrow;
    }
    const uint32_t registers = vw >= 16 ? 32 : 16;
    while (nv > 1 && mr * nv + nv + 1 > registers)
        nv /= 2;
    p->vw = vw;
    p->mr = mr;
    p->nv = nv;
    p->dots = g->a_k == 1 && g->b_k == 1 && g->b_n != 1 && g->k >= (int64_t)tu->gemm_dot_min_k;
    /* B packed (gemm_pack_b) as gemm_blocks reads it: [B's batch][n-block][k][NV * VW] floats,
     * columns past N repeating column N - 1, a block's B one stream, no panel path (B transposed
     * too). Once, at initialization, where B is owned by DML (a model's weights; program.c
     * decides: launch.h pre_owned_only); at every dispatch too, into the temporary resource,
     * where pack_each() says the plain kernel would read B badly. One B per coordinate of the
     * batch dimensions B moves along (a weight: one). */
    p->b_batches = 1;
    for (int d = 0; d < g->batch_rank; ++d)
        if (g->b_b[d] != 0)
            p->b_batches *= (uint64_t)g->batch[d];
    p->nblocks = ceil_div(g->n, (int64_t)(nv * vw));
    p->floats = p->nblocks * nv * vw * (uint64_t)g->k; /* one B's, k < 2^31 */
    p->pack = tu->gemm_prepack_b == 1 && g->k > 0 && p->floats <= ((uint64_t)1 << 40) &&
              p->b_batches <= ((uint64_t)1 << 40) / p->floats;
    p->each = p->pack &&
              pack_each(g, tu, p->dots, g->type == DML_TENSOR_DATA_TYPE_FLOAT16 ? 2 : 4) &&
              p->b_batches * p->floats * sizeof(float) <= DMLI_GEMM_PACK_EACH_MAX;
}

void dmli_launch_gemm(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_gemm *g = DMLI_COMPUTE_WORK_CONST(c, dmli_gemm);
    const dmli_tuning *tu = dmli_tuning_for(dev->device_class);
    const bool gpu = dev->device_class == DMLCL_DEVICE_CLASS_GPU;
    cpu_plan p = {0};
    dmli_gemm folded;
    if (!gpu) {
        plan_cpu(g, tu, dev, &p);
        /* A batch dimension joined to n where B is packed at every dispatch either way. */
        cpu_plan pf;
        if (p.each && tu->gemm_fold_n == 1 && fold_n(g, &folded)) {
            plan_cpu(&folded, tu, dev, &pf);
            if (pf.each) {
                g = &folded;
                p = pf;
            }
        }
    }
    cl_long *t = l->table;
    const size_t batches = fill_table(g, l);
    dmli_options *o = &l->defs;
    l->source = DMLI_SOURCE_GEMM;
    dmli_opt_int(o, "HALF", g->type == DML_TENSOR_DATA_TYPE_FLOAT16);
    dmli_opt_int(o, "ACT", (int)g->act);
    l->global[2] = batches;
    l->local[2] = 1;
    if (gpu) {
        dmli_tile tile = dmli_tile_choose(dev, g->m, g->n, g->k, tu->gemm_tile_k_max, batches, 0);
        size_t tx = tile.tx, ty = tile.ty, wn = tile.wn, wm = tile.wm, tk = tile.tk;
        l->kernel = "gemm_tiles";
        dmli_opt_int(o, "TX", (long long)tx);
        dmli_opt_int(o, "TY", (long long)ty);
        dmli_opt_int(o, "WN", (long long)wn);
        dmli_opt_int(o, "WM", (long long)wm);
        dmli_opt_int(o, "TK", (long long)tk);
        l->local[0] = tx;
        l->local[1] = ty;
        l->global[0] = ceil_div(g->n, (int64_t)(tx * wn)) * tx;
        l->global[1] = ceil_div(g->m, (int64_t)(ty * wm)) * ty;
        const uint64_t groups = (uint64_t)(l->global[0] / tx) * (l->global[1] / ty) * batches;
        int64_t k_slice;
        l->splits = dmli_tile_split(dev, &tile, groups, g->k, &k_slice);
        t[DMLI_GEMM_SPLITS] = l->splits;
        t[DMLI_GEMM_SPLIT_K] = k_slice;
        if (l->splits > 1)
            l->split_bytes = dmli_tile_split_bytes(&tile, groups, l->splits);
        return;
    }
    /* One program (both kernels) per type and activation. */
    dmli_opt_int(o, "MR", p.mr);
    dmli_opt_int(o, "NV", p.nv);
    dmli_opt_int(o, "VW", p.vw);
    dmli_opt_int(o, "DR", tu->gemm_dot_rows);
    dmli_opt_int(o, "NJ", tu->gemm_dot_columns);
    dmli_opt_int(o, "DS", tu->gemm_dot_blocks);
    dmli_opt_int(o, "KC", tu->gemm_pack_k);
    grid(g, tu, dev, p.dots, p.mr, p.nv, p.vw, l->global, l->local);
    l->kernel = p.dots ? "gemm_dots" : "gemm_blocks";
    if (!p.pack)
        return;
    l->kernel_plain = l->kernel;
    memcpy(l->plain_global, l->global, sizeof l->global);
    memcpy(l->plain_local, l->local, sizeof l->local);
    l->kernel = "gemm_blocks";
    grid(g, tu, dev, false, p.mr, p.nv, p.vw, l->global, l->local);
    dmli_opt_int(o, "PACKB", 1);
    /* gemm_pack_b: items of kp rows of k of one n-block of one B, about 16 a compute unit. */
    const uint64_t want = 16 * (uint64_t)(dev->compute_units ? dev->compute_units : 1),
                   blocks = p.nblocks * p.b_batches;
    uint64_t kchunks = blocks >= want ? 1 : (want + blocks - 1) / blocks;
    if (kchunks > (uint64_t)g->k)
        kchunks = (uint64_t)g->k;
    const int64_t kp = (g->k + (int64_t)kchunks - 1) / (int64_t)kchunks;
    t[DMLI_GEMM_PACK_KP] = kp;
    l->pre_kernel = "gemm_pack_b";
    l->pre_tensor = 1;
    l->pre_owned_only = !p.each;
    l->pre_def = "PACKB";
    l->pre_bytes = p.b_batches * p.floats * sizeof(float);
    l->pre_global[0] = (size_t)p.nblocks;
    l->pre_global[1] = (size_t)ceil_div(g->k, kp);
    l->pre_global[2] = (size_t)p.b_batches;
    l->pre_local[0] = l->pre_local[1] = l->pre_local[2] = 1;
}

bool dmli_restride_gemm(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset)
{
    dmli_gemm *g = DMLI_COMPUTE_WORK(c, dmli_gemm);
    if (g->rank == 0)
        return false; /* a convolution's GEMM: its strides are no one tensor's dimensions */
    if (i == 0) {
        g->a_m = strides[g->a_dim[0]];
        g->a_k = strides[g->a_dim[1]];
        for (int d = 0; d < g->batch_rank; ++d)
            g->a_b[d] = strides[g->batch_dim[d]];
    } else if (i == 1) {
        g->b_k = strides[g->b_dim[0]];
        g->b_n = strides[g->b_dim[1]];
        for (int d = 0; d < g->batch_rank; ++d)
            g->b_b[d] = strides[g->batch_dim[d]];
    } else if (i == 2 && g->has_c) {
        g->c_m = strides[g->rank - 2];
        g->c_n = strides[g->rank - 1];
        for (int d = 0; d < g->batch_rank; ++d)
            g->c_b[d] = strides[g->batch_dim[d]];
    } else {
        return false;
    }
    c->tensors[i].offset = offset;
    return true;
}
