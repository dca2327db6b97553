/* SPDX-License-Identifier: MIT */
/*
 * fuzz_check_plan: the host-side half of "no access outside bound ranges".
 * For an accepted descriptor, the range of element offsets its plan can
 * reach (before and after normalisation) must lie in [0, TotalTensorSize-
 * InBytes) of each tensor: the output's, the data input's with every
 * in-range index value, the indices'. Computed in 128 bits, independently of
 * the library's own checked arithmetic. And an output never overlaps itself,
 * and an operator's steps write disjoint parts of its outputs (src/bands.c
 * runs them in one dispatch, in any order): up to 2^16 output elements in
 * all over a descriptor's steps have every element offset enumerated (the
 * rest of a long PAD's steps are bounds-checked only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers.h"
#include "grad.h"
#include "internal.h"
#include "launch.h"
#include "resample.h"
#include "scatter.h"

typedef __int128 wide;

typedef struct span {
    wide lo, hi; /* element offsets */
} span;

static void add_term(span *s, int64_t count, int64_t stride)
{
    wide t = (wide)(count - 1) * stride;
    if (t < 0)
        s->lo += t;
    else
        s->hi += t;
}

static span dims_span(const dmli_plan *p, int64_t offset, const int64_t *stride)
{
    span s = {offset, offset};
    for (int d = 0; d < p->rank; ++d)
        add_term(&s, p->size[d], stride[d]);
    return s;
}

static int inside(span s, uint32_t unit, const dmli_tensor *t, const char *what, const char *stage,
                  char *why)
{
    if (s.lo >= 0 && (s.hi + 1) * unit <= (wide)t->total_bytes)
        return 0;
    snprintf(why, FUZZ_WHY, "%s plan: %s offsets [%lld, %lld] x %u bytes leave its %llu bytes",
             stage, what, (long long)s.lo, (long long)s.hi, unit,
             (unsigned long long)t->total_bytes);
    return 1;
}

int fuzz_check_bounds(const dmli_plan *p, const dmli_tensor *out, const dmli_tensor *in,
                      const dmli_tensor *ix, const char *stage, char *why)
{
    for (int d = 0; d < p->rank; ++d)
        if (p->size[d] == 0)
            return 0;
    if (p->empty)
        return 0;
    if (p->kind == DMLI_PLAN_INDEXED) {
        span is = dims_span(p, p->idx_offset, p->idx_stride);
        add_term(&is, p->components, p->comp_idx_stride);
        if (inside(is, ix->elem_bytes, ix, "indices", stage, why))
            return 1;
        if (p->check_only)
            return 0;
    }
    if (inside(dims_span(p, p->out_offset, p->out_stride), p->elem_bytes, out, "output", stage,
               why))
        return 1;
    span reach = dims_span(p, p->in_offset, p->in_stride);
    for (int k = 0; p->kind == DMLI_PLAN_INDEXED && k < p->components; ++k) {
        if (p->axis_size[k] == 0)
            return 0; /* no index is in range: nothing is read */
        add_term(&reach, p->axis_size[k], p->axis_stride[k]);
    }
    return inside(reach, p->elem_bytes, in, "input", stage, why);
}

/* A plan reading input slot `input` (or the constant element) and writing output slot `output`. */
static int check(const dmli_op_state *st, const dmli_plan *p, int input, uint32_t output,
                 const char *stage, char *why)
{
    static const dmli_tensor constant = {.present = true, .total_bytes = sizeof st->constant};
    return fuzz_check_bounds(
        p, &st->outputs[output], input == DMLI_STEP_CONSTANT ? &constant : &st->inputs[input],
        p->kind == DMLI_PLAN_INDEXED ? &st->inputs[st->index_input] : NULL, stage, why);
}

static int cmp_wide(const void *a, const void *b)
{
    wide x = *(const wide *)a, y = *(const wide *)b;
    return x < y ? -1 : x > y;
}

/* Elements enumerated per descriptor, over all its steps: a PAD of 4096 steps would
 * otherwise take most of a second per input (under the sanitizers). */
#define ENUMERATE_MAX (1 << 16)

/* Element offsets written so far, (output slot << 64) + offset: each must be written once. */
typedef struct written {
    wide off[ENUMERATE_MAX];
    size_t n;
} written;

static void enumerate_outputs(const dmli_plan *p, uint32_t output, written *w)
{
    wide count = 1;
    for (int d = 0; d < p->rank && count <= ENUMERATE_MAX; ++d)
        count *= p->size[d];
    if (p->check_only || count == 0 || count > ENUMERATE_MAX - (wide)w->n)
        return;
    for (wide e = 0; e < count; ++e) {
        wide rest = e, o = p->out_offset;
        for (int d = p->rank; d-- > 0;) {
            o += (rest % p->size[d]) * p->out_stride[d];
            rest /= p->size[d];
        }
        w->off[w->n++] = ((wide)output << 64) + o;
    }
}

static int distinct_outputs(written *w, char *why)
{
    qsort(w->off, w->n, sizeof *w->off, cmp_wide);
    for (size_t e = 1; e < w->n; ++e)
        if (w->off[e] == w->off[e - 1]) {
            snprintf(why, FUZZ_WHY,
                     "two output elements (of one step, or of two steps) at output %u element "
                     "offset %lld",
                     (unsigned)(w->off[e] >> 64), (long long)(w->off[e] & (((wide)1 << 64) - 1)));
            return 1;
        }
    return 0;
}

/* A CPU, a large GPU and a GPU of small work-groups and local memory. */
static const dmli_device_desc devices[] = {
    {DMLCL_DEVICE_CLASS_CPU,
     16,
     4096,
     {4096, 4096, 4096},
     512 * 1024,
     16,
     8,
     128,
     true,
     4352,
     (uint64_t)32 << 20,
     16},
    {DMLCL_DEVICE_CLASS_GPU,
     132,
     1024,
     {1024, 1024, 64},
     48 * 1024,
     1,
     1,
     512,
     false,
     4352,
     (uint64_t)50 << 20,
     1},
    {DMLCL_DEVICE_CLASS_GPU,
     24,
     256,
     {256, 256, 256},
     4096,
     16,
     4,
     64,
     false,
     1024,
     (uint64_t)4 << 20,
     1},
};

/*
 * The launch of a normalised plan on a CPU, a large GPU and a GPU of small
 * work-groups and local memory (launch.c's rules are pure functions of the
 * plan and the device description): an NDRange OpenCL accepts (local sizes
 * within the device's limits and dividing the global ones), a shape buffer
 * and build options inside their arrays.
 */
int fuzz_check_launches(const dmli_plan *p, const char *what, char *why)
{
    if (p->empty || p->check_only)
        return 0;
    static _Thread_local dmli_launch l;
    for (size_t d = 0; d < sizeof devices / sizeof devices[0]; ++d) {
        const dmli_device_desc *dev = &devices[d];
        dmli_launch_plan(p, dev, &l);
        size_t product = 1;
        for (int k = 0; k < 3; ++k) {
            if (l.local[k] < 1 || l.local[k] > dev->max_item_sizes[k] || l.global[k] < 1 ||
                l.global[k] % l.local[k] != 0) {
                snprintf(why, FUZZ_WHY,
                         "%s plan on device %zu: local[%d] %zu, global %zu, item limit %zu", what,
                         d, k, l.local[k], l.global[k], dev->max_item_sizes[k]);
                return 1;
            }
            product *= l.local[k];
        }
        if (product > dev->max_work_group_size || l.shape_count > DMLI_LAUNCH_SHAPE_MAX ||
            strlen(l.options) + 1 >= sizeof l.options) {
            snprintf(why, FUZZ_WHY,
                     "%s plan on device %zu: work-group %zu (limit %zu), %zu shape longs, options "
                     "'%s'",
                     what, d, product, dev->max_work_group_size, l.shape_count, l.options);
            return 1;
        }
    }
    return 0;
}

/* A family's launch on device d: an NDRange OpenCL takes (local sizes within the device's
 * limits and dividing the global ones), its table and options within their arrays. */
static int check_grid(const size_t *local, const size_t *global, size_t table_count,
                      size_t table_max, const char *options, size_t options_size, size_t d,
                      const char *stage, const char *what, char *why)
{
    size_t product = 1;
    for (int k = 0; k < 3; ++k) {
        if (local[k] < 1 || local[k] > devices[d].max_item_sizes[k] || global[k] < 1 ||
            global[k] % local[k] != 0) {
            snprintf(why, FUZZ_WHY, "%s %s on device %zu: local[%d] %zu, global %zu", stage, what,
                     d, k, local[k], global[k]);
            return 1;
        }
        product *= local[k];
    }
    if (product > devices[d].max_work_group_size || table_count > table_max ||
        strlen(options) + 1 >= options_size) {
        snprintf(why, FUZZ_WHY, "%s %s on device %zu: work-group %zu, %zu table longs", stage, what,
                 d, product, table_count);
        return 1;
    }
    return 0;
}

/* A map inside its tensors (output and each input), and its launch an NDRange OpenCL takes
 * with a table inside its array, on every device above. */
static int check_map(const dmli_op_state *st, const dmli_map *m, const char *stage, char *why)
{
    if (m->empty)
        return 0;
    for (int d = 0; d < m->rank; ++d)
        if (m->size[d] == 0)
            return 0;
    span s = {m->out.offset, m->out.offset};
    for (int d = 0; d < m->rank; ++d)
        add_term(&s, m->size[d], m->out.stride[d]);
    if (m->out.slot >= st->n_outputs ||
        inside(s, dmli_type_size(m->out.type), &st->outputs[m->out.slot], "output", stage, why))
        return 1;
    for (uint32_t k = 0; k < m->n_inputs; ++k) {
        span r = {m->in[k].offset, m->in[k].offset};
        for (int d = 0; d < m->rank; ++d)
            add_term(&r, m->size[d], m->in[k].stride[d]);
        if (m->in[k].slot >= st->n_inputs ||
            inside(r, dmli_type_size(m->in[k].type), &st->inputs[m->in[k].slot], "input", stage,
                   why))
            return 1;
    }
    static _Thread_local dmli_map_launch l;
    for (size_t d = 0; d < sizeof devices / sizeof devices[0] && !m->empty; ++d) {
        dmli_launch_map(m, &devices[d], &l);
        if (check_grid(l.local, l.global, l.table_count, DMLI_MAP_TABLE_MAX, l.options,
                       sizeof l.options, d, stage, "map", why))
            return 1;
    }
    return 0;
}

/* Tensor x of a reduction (0, 1: outputs; 2 + k: input k): its element offsets. TOP_K writes
 * K positions along its reduced dimension, not the row's. */
static span reduce_span(const dmli_reduce *r, const dmli_map_tensor *t, bool output)
{
    span s = {t->offset, t->offset};
    for (int d = 0; d < r->rank; ++d) {
        int64_t count = r->size[d];
        if (output && r->reduced[d] && r->op == DMLI_REDUCE_TOP_K)
            count = r->iparam[DMLI_MAP_PARAM_OP] < count ? r->iparam[DMLI_MAP_PARAM_OP] : count;
        add_term(&s, count, t->stride[d]);
    }
    return s;
}

int fuzz_check_reduce(const dmli_reduce *r, const dmli_tensor *outs, const dmli_tensor *ins,
                      const char *stage, char *why)
{
    if (r->empty)
        return 0;
    for (int d = 0; d < r->rank; ++d)
        if (r->size[d] == 0)
            return 0;
    for (uint32_t j = 0; j < r->n_outputs; ++j)
        if (inside(reduce_span(r, &r->out[j], true), dmli_type_size(r->out[j].type), &outs[j],
                   "reduction output", stage, why))
            return 1;
    for (uint32_t k = 0; k < r->n_inputs; ++k)
        if (ins[k].present &&
            inside(reduce_span(r, &r->in[k], false), dmli_type_size(r->in[k].type), &ins[k],
                   "reduction input", stage, why))
            return 1;
    static _Thread_local dmli_reduce_launch l;
    for (size_t d = 0; d < sizeof devices / sizeof devices[0]; ++d) {
        dmli_launch_reduce(r, &devices[d], &l);
        if (check_grid(l.local, l.global, l.table_count, DMLI_RED_TABLE_MAX, l.options,
                       sizeof l.options, d, stage, "reduction", why))
            return 1;
    }
    return 0;
}

/* A reduction's tensors as its slots bind them. */
static int check_reduce(const dmli_op_state *st, const dmli_reduce *r, const char *stage, char *why)
{
    dmli_tensor outs[DMLI_REDUCE_MAX_OUTPUTS], ins[DMLI_REDUCE_MAX_INPUTS];
    for (uint32_t j = 0; j < r->n_outputs; ++j) {
        if (r->out[j].slot >= st->n_outputs) {
            snprintf(why, FUZZ_WHY, "%s reduction: output slot %u of %u", stage, r->out[j].slot,
                     st->n_outputs);
            return 1;
        }
        outs[j] = st->outputs[r->out[j].slot];
    }
    for (uint32_t k = 0; k < r->n_inputs; ++k) {
        if (r->in[k].slot >= st->n_inputs) {
            snprintf(why, FUZZ_WHY, "%s reduction: input slot %u of %u", stage, r->in[k].slot,
                     st->n_inputs);
            return 1;
        }
        ins[k] = st->inputs[r->in[k].slot];
    }
    return fuzz_check_reduce(r, outs, ins, stage, why);
}

/* Split-K's launch (src/launch.h dmli_compute_launch): GPUs only, 2 to 16 slices of whole k
 * steps that cover k once (the table's), its first step's grid an NDRange too, scratch for
 * every slice of every work-group's tile, the second step's options inside their array. */
static int check_split(const dmli_compute *c, const dmli_compute_launch *l, size_t d, char *why)
{
    const bool gemm = c->kind == DMLI_COMPUTE_GEMM;
    const cl_long splits = l->table[gemm ? DMLI_GEMM_SPLITS : DMLI_CONV_SPLITS];
    const cl_long k_slice = l->table[gemm ? DMLI_GEMM_SPLIT_K : DMLI_CONV_SPLIT_K];
    const cl_long k = gemm ? l->table[DMLI_GEMM_K] : k_slice * splits;
    size_t partial[3] = {l->global[0], l->global[1], l->global[2] * l->splits};
    uint64_t items = (uint64_t)l->global[0] * l->global[1] * l->global[2];
    if (devices[d].device_class != DMLCL_DEVICE_CLASS_GPU || l->splits > 16 ||
        (c->kind != DMLI_COMPUTE_GEMM && c->kind != DMLI_COMPUTE_CONV) ||
        splits != (cl_long)l->splits || k_slice < 1 || (splits - 1) * k_slice >= k ||
        splits * k_slice < k || partial[2] / l->splits != l->global[2] ||
        l->split_bytes < (uint64_t)l->splits * items * sizeof(float) ||
        strlen(l->options2) + 1 >= sizeof l->options2) {
        snprintf(why, FUZZ_WHY,
                 "computed operator on device %zu: split in %u (table %lld) of %lld for k %lld, "
                 "%llu bytes of scratch",
                 d, l->splits, (long long)splits, (long long)k_slice, (long long)k,
                 (unsigned long long)l->split_bytes);
        return 1;
    }
    return check_grid(l->local, partial, l->table_count, DMLI_COMPUTE_TABLE_MAX, l->options2,
                      sizeof l->options2, d, "split", "computed operator", why);
}

/* A scatter (scatter.h) against the tensors its slots bind (tensors[DMLI_SCATTER_*]): its copy
 * plan inside the input and the output, lowered and normalised, its launches valid; the
 * kernel's reach with every index value in its axis inside the indices, the updates and the
 * output. (Its parallel positions never meet: the output's coordinates differ there, and an
 * output's layout is injective, tensor.c.) */
int fuzz_check_scatter(const dmli_compute *c, const dmli_tensor *tensors, const char *stage,
                       char *why)
{
    const dmli_scatter *s = DMLI_COMPUTE_WORK_CONST(c, dmli_scatter);
    const dmli_tensor *out = &tensors[DMLI_SCATTER_OUTPUT], *idx = &tensors[DMLI_SCATTER_INDICES];
    static _Thread_local dmli_plan plan;
    dmli_scatter_copy_plan(s, &plan);
    if (fuzz_check_bounds(&plan, out, &tensors[DMLI_SCATTER_INPUT], NULL, stage, why))
        return 1;
    dmli_plan_normalize(&plan);
    if (fuzz_check_bounds(&plan, out, &tensors[DMLI_SCATTER_INPUT], NULL, stage, why) ||
        fuzz_check_launches(&plan, stage, why))
        return 1;
    span u = {0, 0}, x = {0, 0}, o = {0, 0};
    for (int i = 0; i < s->n_outer; ++i) {
        add_term(&u, s->outer_size[i], s->outer_us[i]);
        add_term(&x, s->outer_size[i], s->outer_xs[i]);
        add_term(&o, s->outer_size[i], s->outer_os[i]);
    }
    for (int j = 0; j < s->n_walk; ++j) {
        add_term(&u, s->walk_size[j], s->walk_us[j]);
        add_term(&x, s->walk_size[j], s->walk_xs[j]);
    }
    add_term(&x, s->components, s->comp_xs);
    for (int k = 0; k < s->components; ++k)
        add_term(&o, s->axis_size[k], s->axis_os[k]);
    return inside(x, idx->elem_bytes, idx, "scatter indices", stage, why) ||
           inside(u, s->elem_bytes, &tensors[DMLI_SCATTER_UPDATES], "scatter updates", stage,
                  why) ||
           inside(o, s->elem_bytes, out, "scatter output", stage, why);
}

/* A computed operator: its tensors are the state's (slot in range, the tensor's type), and
 * its launch an NDRange OpenCL takes with a table inside its array, on every device above.
 * (Where a family's kernel reads and writes is its own: its tests and Oclgrind runs; a
 * scatter's reach is checked here too.) */
static int check_compute(const dmli_op_state *st, const dmli_compute *c, char *why)
{
    if (c->kind >= DMLI_COMPUTE_KINDS || c->n_tensors > DMLI_COMPUTE_MAX_TENSORS) {
        snprintf(why, FUZZ_WHY, "computed operator: kind %d, %u tensors", (int)c->kind,
                 c->n_tensors);
        return 1;
    }
    for (uint32_t i = 0; i < c->n_tensors; ++i) {
        const dmli_compute_tensor *t = &c->tensors[i];
        uint32_t n = t->output ? st->n_outputs : st->n_inputs;
        const dmli_tensor *own = t->output ? &st->outputs[t->slot] : &st->inputs[t->slot];
        if (t->slot >= n || !own->present || own->type != t->type) {
            snprintf(why, FUZZ_WHY,
                     "computed operator: tensor %u (%s slot %u of %u) absent or "
                     "of another type",
                     i, t->output ? "output" : "input", t->slot, n);
            return 1;
        }
    }
    if (c->empty)
        return 0;
    if (c->kind == DMLI_COMPUTE_SCATTER) {
        const dmli_tensor tensors[4] = {st->inputs[DMLI_SCATTER_INPUT],
                                        st->inputs[DMLI_SCATTER_INDICES],
                                        st->inputs[DMLI_SCATTER_UPDATES], st->outputs[0]};
        if (fuzz_check_scatter(c, tensors, "lowered", why))
            return 1;
    }
    static _Thread_local dmli_compute_launch l;
    for (size_t d = 0; d < sizeof devices / sizeof devices[0]; ++d) {
        dmli_launch_compute(c, &devices[d], &l);
        if (l.refusal[0] != '\0')
            continue; /* this device cannot run it: compiling there fails with the refusal */
        if (check_grid(l.local, l.global, l.table_count, DMLI_COMPUTE_TABLE_MAX, l.options,
                       sizeof l.options, d, "lowered", "computed operator", why))
            return 1;
        if (l.splits > 1 && check_split(c, &l, d, why))
            return 1;
    }
    return 0;
}

int fuzz_check_state(struct dmli_op_state *st, char *why)
{
    if (st->computed)
        return check_compute(st, &st->compute, why);
    if (st->reduced) {
        if (check_reduce(st, &st->reduce, "lowered", why))
            return 1;
        dmli_reduce_normalize(&st->reduce);
        return check_reduce(st, &st->reduce, "normalised", why);
    }
    if (st->mapped) {
        if (check_map(st, &st->map, "lowered", why))
            return 1;
        dmli_map_normalize(&st->map);
        return check_map(st, &st->map, "normalised", why);
    }
    int bad = 0;
    static _Thread_local written w;
    w.n = 0;
    if (!st->n_steps) {
        bad = check(st, &st->plan, st->data_input, 0, "lowered", why);
        enumerate_outputs(&st->plan, 0, &w);
        bad = bad || distinct_outputs(&w, why);
        dmli_plan_normalize(&st->plan);
        bad = bad || check(st, &st->plan, st->data_input, 0, "normalised", why);
        bad = bad || fuzz_check_launches(&st->plan, "normalised", why);
    }
    /* Steps: each inside its own tensors, and together writing each output element at most
     * once (the steps' parts are disjoint). */
    for (uint32_t i = 0; i < st->n_steps && !bad; ++i) {
        dmli_op_step *s = &st->steps[i];
        bad = s->output >= st->n_outputs || (s->input != DMLI_STEP_CONSTANT &&
                                             (s->input < 0 || (uint32_t)s->input >= st->n_inputs));
        if (bad)
            snprintf(why, FUZZ_WHY, "step %u: input slot %d or output slot %u out of range", i,
                     s->input, s->output);
        bad = bad || check(st, &s->plan, s->input, s->output, "lowered step", why);
        if (!bad)
            enumerate_outputs(&s->plan, s->output, &w);
        dmli_plan_normalize(&s->plan);
        bad = bad || check(st, &s->plan, s->input, s->output, "normalised step", why);
        bad = bad || fuzz_check_launches(&s->plan, "normalised step", why);
    }
    return bad || (st->n_steps && distinct_outputs(&w, why));
}

int fuzz_check_plan(const DML_OPERATOR_DESC *desc, char *why)
{
    static _Thread_local dmli_op_state st;
    memset(&st, 0, sizeof st);
    st.index_input = -1;
    const dmli_op_class *cls = dmli_op_class_find(desc->Type);
    if (!cls || FAILED(dmli_op_class_create(cls, desc->Desc, &st))) {
        snprintf(why, FUZZ_WHY, "operator type %d: created once, refused the second time: %s",
                 (int)desc->Type, dmlcl_last_error());
        return 1;
    }
    int bad = fuzz_check_state(&st, why);
    dmli_op_state_release(&st);
    return bad;
}

uint64_t fuzz_work_bound(const dmlcl_operator *op)
{
    const dmli_op_state *st = dmli_operator_state(op);
    uint64_t in = 0, out = 0;
    for (uint32_t i = 0; i < st->n_inputs; ++i)
        if (st->inputs[i].present)
            in += st->inputs[i].elements;
    for (uint32_t j = 0; j < st->n_outputs; ++j)
        if (st->outputs[j].present)
            out += st->outputs[j].elements;
    if (in && out > UINT64_MAX / in)
        return UINT64_MAX;
    uint64_t bound = in * (out ? out : 1);
    /* RESAMPLE3's antialiased taps: 2 / Scale per dimension and output, past the input's
     * elements when the scale is tiny (the filter's footprint, clamped indices). */
    if (st->computed && st->compute.kind == DMLI_COMPUTE_RESAMPLE) {
        const dmli_resample *r = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_resample);
        for (int d = 0; r->antialias && d < DMLI_RS_DIMS; ++d) {
            double taps = 2.0 * (double)r->recip[d] + 2.0;
            if (!(taps < 1e18) || (double)bound * taps >= 1.8e19)
                return UINT64_MAX;
            bound = (uint64_t)((double)bound * (taps > 1 ? taps : 1));
        }
    }
    /* LOCAL_RESPONSE_NORMALIZATION_GRAD: each element walks up to W windows of W elements (W
     * the window's elements, clipped to the tensor). */
    if (st->computed && st->compute.kind == DMLI_COMPUTE_GRAD) {
        const dmli_grad *g = DMLI_COMPUTE_WORK_CONST(&st->compute, dmli_grad);
        if (g->kind == DMLI_GRAD_LRN) {
            const dmli_grad_lrn *l = &g->lrn;
            uint64_t n = l->local_size, w = 1;
            for (int d = l->cross_channel ? 1 : 2; d <= (l->cross_channel ? 1 : 3); ++d)
                w *= n < (uint64_t)l->sizes[d] ? n : (uint64_t)l->sizes[d];
            if (w * w > UINT64_MAX / (out ? out : 1))
                return UINT64_MAX;
            bound = bound > out * w * w ? bound : out * w * w;
        }
    }
    return bound;
}
