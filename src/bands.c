/* SPDX-License-Identifier: MIT */
/*
 * Bands: an operator's steps that walk the same rows, as one dispatch (see
 * bands.h). Pure host code.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bands.h"

/* Dimensions of one segment's part of a row, or of the rows. */
typedef struct span_dim {
    int64_t size, os, is;
} span_dim;

/* Drops size-1 dimensions and merges those contiguous in output and input. */
static int merge_dims(span_dim *d, int rank)
{
    int r = 0;
    for (int k = 0; k < rank; ++k) {
        if (d[k].size == 1)
            continue;
        if (r > 0 && d[r - 1].os == d[k].os * d[k].size && d[r - 1].is == d[k].is * d[k].size) {
            int64_t outer = d[r - 1].size;
            d[r - 1] = d[k];
            d[r - 1].size *= outer;
            continue;
        }
        d[r++] = d[k];
    }
    return r;
}

/* A step's dimensions from `first` on as a segment: lines of a run contiguous in the output,
 * read with step -1, 0 or 1; false when they are not one. */
static bool as_segment(const dmli_plan *p, int first, dmli_band_seg *s)
{
    span_dim d[DMLI_MAX_RANK];
    int n = 0;
    for (int k = first; k < p->rank; ++k)
        d[n++] = (span_dim){p->size[k], p->out_stride[k], p->in_stride[k]};
    /* An innermost dimension of one element is a run of one (contiguous in any layout):
     * PADDING's one-column borders, JOIN's one-column pieces. */
    bool single = n > 0 && d[n - 1].size == 1;
    n = merge_dims(d, n);
    if (single && n > 0 && d[n - 1].os != 1)
        d[n++] = (span_dim){1, 1, 0};
    if (n > 2)
        return false;
    span_dim run = n ? d[n - 1] : (span_dim){1, 1, 0};
    span_dim line = n == 2 ? d[0] : (span_dim){1, 0, 0};
    if (run.os != 1 || run.is < -1 || run.is > 1)
        return false;
    s->run = run.size;
    s->run_is = run.is;
    s->lines = line.size;
    s->line_os = line.os;
    s->line_is = line.is;
    s->out_off = p->out_offset;
    s->in_off = p->in_offset;
    return true;
}

static bool is_empty(const dmli_plan *p)
{
    for (int d = 0; d < p->rank; ++d)
        if (p->size[d] == 0)
            return true;
    return false;
}

/* A step the band may take: a plain view of its tensors' rank with something to write. */
static bool candidate(const dmli_op_state *st, const dmli_op_step *s, int rank)
{
    const dmli_plan *p = &s->plan;
    const dmli_tensor *in = s->input == DMLI_STEP_CONSTANT ? NULL : &st->inputs[s->input];
    return p->kind == DMLI_PLAN_VIEW && p->rank == rank && !is_empty(p) &&
           p->elem_bytes == st->steps[0].plan.elem_bytes &&
           st->outputs[s->output].rank == (uint32_t)rank && (!in || in->rank == (uint32_t)rank);
}

/* The step covers dimension d of its output and of its input: d is not where the operator
 * splits its tensors (JOIN's and SPLIT's axis, PADDING's regions). */
static bool covers(const dmli_op_state *st, const dmli_op_step *s, int d)
{
    uint64_t n = (uint64_t)s->plan.size[d];
    return n == st->outputs[s->output].sizes[d] &&
           (s->input == DMLI_STEP_CONSTANT || n == st->inputs[s->input].sizes[d]);
}

static uint64_t plan_bytes(const dmli_plan *p)
{
    uint64_t n = p->elem_bytes;
    for (int d = 0; d < p->rank; ++d)
        n *= (uint64_t)p->size[d];
    return n;
}

uint32_t dmli_band_nbuf(uint32_t n, const dmli_device_desc *dev)
{
    static const uint32_t variants[] = {2, 4, 8, 16, 32, DMLI_BANDS_MAX_BUFS};
    /* Each buffer is a pointer and a long (16 bytes counted for either), and the table one more. */
    uint64_t limit = dev->max_parameter_size ? dev->max_parameter_size : 1024;
    for (size_t i = 0; i < sizeof variants / sizeof *variants; ++i)
        if (variants[i] >= n)
            return (uint64_t)variants[i] * 16 + 16 <= limit ? variants[i] : 0;
    return 0;
}

static int find_buf(dmli_band *b, bool output, int slot)
{
    for (uint32_t k = 0; k < b->n_bufs; ++k)
        if (b->bufs[k].output == output && b->bufs[k].slot == slot)
            return (int)k;
    b->bufs[b->n_bufs] = (dmli_band_buf){output, slot};
    return (int)b->n_bufs++;
}

static int cmp_seg(const void *a, const void *b)
{
    const dmli_band_seg *x = a, *y = b;
    if (x->out_buf != y->out_buf)
        return x->out_buf < y->out_buf ? -1 : 1;
    if (x->out_off != y->out_off)
        return x->out_off < y->out_off ? -1 : 1;
    return x->step < y->step ? -1 : x->step > y->step;
}

/* The widest unit (bytes, up to 16) every quantity of every segment is a multiple of. */
static uint32_t band_unit(const dmli_band *b)
{
    int64_t eb = b->elem_bytes;
    /* A reversed run moves elements, and so does one repeating an input element (the fill
     * constant is repeated over 16 bytes: its runs may move wider units). */
    for (uint32_t k = 0; k < b->n_segs; ++k)
        if (b->segs[k].run_is == -1 || (b->segs[k].run_is == 0 && b->segs[k].run > 1 &&
                                        b->bufs[b->segs[k].in_buf].slot != DMLI_STEP_CONSTANT))
            return b->elem_bytes;
    if (eb >= 16 || 16 % eb != 0)
        return b->elem_bytes;
    uint32_t unit = 16;
    for (; unit > b->elem_bytes; unit >>= 1) {
        bool ok = true;
        for (uint32_t k = 0; ok && k < b->n_segs; ++k) {
            const dmli_band_seg *s = &b->segs[k];
            int64_t v[] = {s->out_off, s->in_off, s->run, s->line_os, s->line_is};
            for (size_t j = 0; ok && j < sizeof v / sizeof *v; ++j)
                ok = (v[j] * eb) % unit == 0;
            for (int d = 0; ok && d < b->row_rank; ++d)
                ok = (s->os[d] * eb) % unit == 0 && (s->is[d] * eb) % unit == 0;
        }
        if (ok)
            break;
    }
    return unit;
}

static void widen(dmli_band *b)
{
    b->unit = band_unit(b);
    int64_t f = b->unit / b->elem_bytes;
    for (uint32_t k = 0; f > 1 && k < b->n_segs; ++k) {
        dmli_band_seg *s = &b->segs[k];
        s->out_off /= f;
        s->in_off /= f;
        s->run /= f;
        s->line_os /= f;
        s->line_is /= f;
        for (int d = 0; d < b->row_rank; ++d) {
            s->os[d] /= f;
            s->is[d] /= f;
        }
    }
}

/* The row dimensions shared by every segment: dropped where 1, merged where every segment
 * allows. */
static void merge_rows(dmli_band *b, const dmli_op_state *st, int rows)
{
    int r = 0;
    for (int d = 0; d < rows; ++d) {
        int64_t n = st->steps[b->segs[0].step].plan.size[d];
        if (n == 1)
            continue;
        bool merge = r > 0;
        for (uint32_t k = 0; merge && k < b->n_segs; ++k) {
            const dmli_band_seg *s = &b->segs[k];
            const dmli_plan *p = &st->steps[s->step].plan;
            merge = s->os[r - 1] == p->out_stride[d] * n && s->is[r - 1] == p->in_stride[d] * n;
        }
        if (merge)
            b->row_size[r - 1] *= n;
        else
            b->row_size[r++] = n;
        for (uint32_t k = 0; k < b->n_segs; ++k) {
            dmli_band_seg *s = &b->segs[k];
            const dmli_plan *p = &st->steps[s->step].plan;
            s->os[r - 1] = p->out_stride[d];
            s->is[r - 1] = p->in_stride[d];
        }
    }
    b->row_rank = r;
    b->rows = 1;
    for (int d = 0; d < r; ++d)
        b->rows *= (uint64_t)b->row_size[d];
}

/* Consecutive segments of one output with the same lines, starting in the first one's first
 * line, walk their lines together. */
static void make_strips(dmli_band *b)
{
    for (uint32_t k = 0; k < b->n_segs; ++k) {
        const dmli_band_seg *s = &b->segs[k];
        dmli_band_strip *last = b->n_strips ? &b->strips[b->n_strips - 1] : NULL;
        const dmli_band_seg *head = last ? &b->segs[last->first] : NULL;
        if (head && head->out_buf == s->out_buf && head->lines == s->lines &&
            (s->lines == 1 ||
             (head->line_os == s->line_os && s->out_off < head->out_off + head->line_os))) {
            last->count++;
            continue;
        }
        b->strips[b->n_strips++] = (dmli_band_strip){k, 1, s->lines};
    }
}

size_t dmli_band_table_count(const dmli_band *b)
{
    return DMLI_BANDS_HEADER + (size_t)b->row_rank + DMLI_BANDS_STRIP * (size_t)b->n_strips +
           (DMLI_SEG_FIXED + 2 * (size_t)b->row_rank) * b->n_segs;
}

/* Fewer rows than this many per compute unit, and more than this many bytes: the
 * per-step kernels, which split long runs into chunks, fill the device better. On GPUs
 * a row's lines are split over items too (launch_bands.c), so rows x lines count. */
#define ROWS_PER_UNIT 4
#define FEW_ROWS_BYTES (256 << 10)

bool dmli_band_build(const dmli_op_state *st, const dmli_device_desc *dev, dmli_band *b,
                     const char **why)
{
    memset(b, 0, sizeof *b);
    *why = "one plan, no steps";
    if (st->n_steps == 0)
        return false;
    b->in_band = calloc(st->n_steps, sizeof *b->in_band);
    b->segs = calloc(st->n_steps, sizeof *b->segs);
    b->strips = calloc(st->n_steps, sizeof *b->strips);
    *why = "out of host memory";
    if (!b->in_band || !b->segs || !b->strips) {
        dmli_band_free(b);
        return false;
    }
    b->elem_bytes = st->steps[0].plan.elem_bytes;
    int rank = st->steps[0].plan.rank;
    /* The rows: the outer dimensions every candidate covers, with the same size in each. */
    int rows = rank, first = -1;
    for (uint32_t i = 0; i < st->n_steps; ++i) {
        const dmli_op_step *step = &st->steps[i];
        b->op_bytes += plan_bytes(&step->plan);
        if (!candidate(st, step, rank))
            continue;
        if (first < 0)
            first = (int)i;
        for (int d = 0; d < rows; ++d)
            if (step->plan.size[d] != st->steps[first].plan.size[d] || !covers(st, step, d))
                rows = d;
    }
    for (uint32_t i = 0; i < st->n_steps; ++i) {
        const dmli_op_step *step = &st->steps[i];
        dmli_band_seg *s = &b->segs[b->n_segs];
        if (!candidate(st, step, rank) || !as_segment(&step->plan, rows, s))
            continue;
        s->step = i;
        s->out_buf = find_buf(b, true, (int)step->output);
        s->in_buf = find_buf(b, false, step->input);
        b->in_band[i] = true;
        b->n_segs++;
    }
    *why = "fewer than 2 steps share a band";
    if (b->n_segs < 2) {
        dmli_band_free(b);
        return false;
    }
    merge_rows(b, st, rows);
    for (uint32_t k = 0; k < b->n_segs; ++k) {
        const dmli_band_seg *s = &b->segs[k];
        b->bytes += b->rows * (uint64_t)s->lines * (uint64_t)s->run * b->elem_bytes;
    }
    widen(b);
    qsort(b->segs, b->n_segs, sizeof *b->segs, cmp_seg);
    make_strips(b);
    const char *fail = NULL;
    uint64_t fill = b->rows;
    if (dev->device_class == DMLCL_DEVICE_CLASS_GPU) {
        uint64_t lines = 1;
        for (uint32_t k = 0; k < b->n_strips; ++k)
            lines = (uint64_t)b->strips[k].lines > lines ? (uint64_t)b->strips[k].lines : lines;
        fill *= lines;
    }
    if (!dmli_band_nbuf(b->n_bufs, dev))
        fail = "more distinct buffers than the device's CL_DEVICE_MAX_PARAMETER_SIZE allows";
    else if (fill < ROWS_PER_UNIT * (uint64_t)dev->compute_units && b->bytes > FEW_ROWS_BYTES)
        fail = "too few rows to fill the device";
    else if (dmli_band_table_count(b) > DMLI_BANDS_TABLE_MAX)
        fail = "the segment table exceeds 64 KiB";
    if (fail) {
        *why = fail;
        dmli_band_free(b);
        return false;
    }
    *why = NULL;
    return true;
}

void dmli_band_free(dmli_band *b)
{
    free(b->in_band);
    free(b->segs);
    free(b->strips);
    b->in_band = NULL;
    b->segs = NULL;
    b->strips = NULL;
}
