/* SPDX-License-Identifier: MIT */
/*
 * ref_slice.c: the slicing oracle (see ref_slice.h). Plain loops over output
 * coordinates, element bytes copied through ref_get/ref_put.
 */
#include <stdlib.h>
#include <string.h>

#include "ref_slice.h"

/* ---- DML_SLICE, DML_SLICE1 -------------------------------------------------- */

static bool same_rank_and_type(const ref_tensor *a, const ref_tensor *b)
{
    return a->rank == b->rank && a->type == b->type && a->elem_size == b->elem_size;
}

/* Copies output[o] = input[start + step * o] after checking every read stays inside. */
static bool strided_copy(const ref_tensor *input, const ref_tensor *output, const int64_t *start,
                         const int64_t *step)
{
    uint32_t o[REF_MAX_DIMS] = {0}, in[REF_MAX_DIMS];
    unsigned char elem[16];
    for (uint32_t d = 0; d < input->rank; ++d) {
        int64_t last = start[d] + step[d] * ((int64_t)output->sizes[d] - 1);
        if (start[d] < 0 || start[d] >= input->sizes[d] || last < 0 || last >= input->sizes[d])
            return false;
    }
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    do {
        for (uint32_t d = 0; d < input->rank; ++d)
            in[d] = (uint32_t)(start[d] + step[d] * o[d]);
        ref_get(input, in, elem);
        ref_put(output, o, elem);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

bool ref_slice(const ref_tensor *input, const ref_tensor *output, const uint32_t *offsets,
               const uint32_t *strides)
{
    int64_t start[REF_MAX_DIMS], step[REF_MAX_DIMS];
    if (!same_rank_and_type(input, output))
        return false;
    for (uint32_t d = 0; d < input->rank; ++d) {
        start[d] = offsets[d];
        step[d] = strides[d];
    }
    return strided_copy(input, output, start, step);
}

bool ref_slice1(const ref_tensor *input, const ref_tensor *output, const uint32_t *offsets,
                const uint32_t *sizes, const int32_t *strides)
{
    int64_t start[REF_MAX_DIMS], step[REF_MAX_DIMS];
    if (!same_rank_and_type(input, output))
        return false;
    for (uint32_t d = 0; d < input->rank; ++d) {
        int64_t mag = strides[d] < 0 ? -(int64_t)strides[d] : strides[d];
        if (sizes[d] == 0 || (uint64_t)offsets[d] + sizes[d] > input->sizes[d] || mag == 0 ||
            output->sizes[d] > 1 + (sizes[d] - 1) / mag)
            return false;
        start[d] = strides[d] < 0 ? (int64_t)offsets[d] + sizes[d] - 1 : offsets[d];
        step[d] = strides[d];
    }
    return strided_copy(input, output, start, step);
}

/* ---- StridedSlice ---------------------------------------------------------------- */

enum kind { SLICE, NEW_AXIS, SHRINK, ELLIPSIS };

/* One input dimension's selection. */
typedef struct selection {
    int out;       /* output dimension, -1 when shrunk */
    int64_t count; /* elements taken */
    int64_t *idx;  /* their indices (count), or the shrink index in idx[0] */
} selection;

typedef struct walk {
    uint32_t rank, out_rank;
    uint32_t out_sizes[REF_MAX_DIMS];
    selection sel[REF_MAX_DIMS];
    const char *why;
} walk;

static bool bit(const uint32_t *mask, uint32_t i)
{
    return mask && mask[i];
}

/* The specification names one meaning per entry; where masks collide, OpenVINO's shape inference
 * order. */
static enum kind kind_of(const ref_ss_lists *l, uint32_t i)
{
    if (bit(l->ellipsis_mask, i))
        return ELLIPSIS;
    if (bit(l->new_axis_mask, i))
        return NEW_AXIS;
    if (bit(l->shrink_axis_mask, i))
        return SHRINK;
    return SLICE;
}

static bool fail(walk *w, const char *why)
{
    w->why = why;
    return false;
}

static bool add_out(walk *w, uint32_t size)
{
    if (w->out_rank == REF_MAX_DIMS)
        return fail(w, "the output would have more than 16 dimensions");
    w->out_sizes[w->out_rank++] = size;
    return true;
}

static bool take_whole(walk *w, uint32_t j, uint32_t d)
{
    selection *s = &w->sel[j];
    s->idx = malloc((d ? d : 1) * sizeof *s->idx);
    for (uint32_t k = 0; k < d; ++k)
        s->idx[k] = k;
    s->count = d;
    s->out = (int)w->out_rank;
    return add_out(w, d);
}

static bool take_shrink(walk *w, const ref_ss_lists *l, uint32_t i, uint32_t j, uint32_t d)
{
    selection *s = &w->sel[j];
    int64_t b = bit(l->begin_mask, i) ? 0 : l->begin[i];
    if (d == 0)
        return fail(w, "a shrunk axis of an empty dimension");
    if (b < -(int64_t)d || b >= (int64_t)d)
        return fail(w, "a shrink index outside its dimension");
    s->idx = malloc(sizeof *s->idx);
    s->idx[0] = b < 0 ? b + d : b;
    s->count = 1;
    s->out = -1;
    return true;
}

/*
 * The specification's walk: slicing_index starts at begin and moves by
 * stride; an element is added while the index has not reached end.
 */
static bool take_slice(walk *w, const ref_ss_lists *l, uint32_t i, uint32_t j, uint32_t d)
{
    selection *s = &w->sel[j];
    int64_t st = l->strides ? l->strides[i] : 1, n = d;
    if (st == 0)
        return fail(w, "stride 0");
    bool rev = st < 0;
    int64_t b = l->begin[i], e = l->end[i];
    if (bit(l->begin_mask, i))
        b = rev ? n - 1 : 0;
    else if (b < 0)
        b += n;
    if (b >= n)
        b = rev ? n - 1 : n;
    if (b < 0)
        b = 0;
    if (bit(l->end_mask, i))
        e = rev ? -1 : n;
    else if (e < 0)
        e += n;
    if (e >= n)
        e = n;
    if (e < 0)
        e = rev ? -1 : 0;
    s->idx = malloc((d ? d : 1) * sizeof *s->idx);
    s->count = 0;
    s->out = (int)w->out_rank;
    for (int64_t x = b; d > 0 && (rev ? x > e : x < e);) {
        s->idx[s->count++] = x;
        uint64_t left = rev ? (uint64_t)(x - e) : (uint64_t)(e - x);
        uint64_t mag = rev ? 0 - (uint64_t)st : (uint64_t)st;
        if (left <= mag)
            break;
        x += st;
    }
    return add_out(w, (uint32_t)s->count);
}

static void walk_free(walk *w)
{
    for (uint32_t j = 0; j < REF_MAX_DIMS; ++j)
        free(w->sel[j].idx);
}

static bool masks_valid(walk *w, const ref_ss_lists *l)
{
    const uint32_t *masks[5] = {l->begin_mask, l->end_mask, l->new_axis_mask, l->shrink_axis_mask,
                                l->ellipsis_mask};
    for (int m = 0; m < 5; ++m)
        for (uint32_t i = 0; masks[m] && i < l->count; ++i)
            if (masks[m][i] > 1)
                return fail(w, "a mask value other than 0 or 1");
    return true;
}

static bool run_walk(walk *w, uint32_t rank, const uint32_t *dims, const ref_ss_lists *l)
{
    uint32_t real = 0, ellipses = 0, j = 0;
    memset(w, 0, sizeof *w);
    w->rank = rank;
    if (!masks_valid(w, l))
        return false;
    for (uint32_t i = 0; i < l->count; ++i) {
        enum kind k = kind_of(l, i);
        ellipses += k == ELLIPSIS;
        real += k == SLICE || k == SHRINK;
    }
    if (ellipses > 1)
        return fail(w, "more than one ellipsis");
    if (real > rank)
        return fail(w, "more entries take input dimensions than the input has");
    for (uint32_t i = 0; i < l->count; ++i) {
        bool ok = true;
        switch (kind_of(l, i)) {
        case ELLIPSIS:
            for (uint32_t k = 0; ok && k < rank - real; ++k, ++j)
                ok = take_whole(w, j, dims[j]);
            break;
        case NEW_AXIS: ok = add_out(w, 1); break;
        case SHRINK: ok = take_shrink(w, l, i, j, dims[j]), ++j; break;
        case SLICE: ok = take_slice(w, l, i, j, dims[j]), ++j; break;
        }
        if (!ok)
            return false;
    }
    for (; j < rank; ++j) /* the implicit ellipsis */
        if (!take_whole(w, j, dims[j]))
            return false;
    return true;
}

bool ref_strided_slice_shape(uint32_t rank, const uint32_t *dims, const ref_ss_lists *lists,
                             uint32_t *out_rank, uint32_t *out_sizes, const char **why)
{
    walk w;
    bool ok = run_walk(&w, rank, dims, lists);
    if (ok) {
        *out_rank = w.out_rank;
        memcpy(out_sizes, w.out_sizes, w.out_rank * sizeof *out_sizes);
    }
    if (why)
        *why = w.why;
    walk_free(&w);
    return ok;
}

static bool output_matches(const walk *w, const ref_tensor *output)
{
    if (w->out_rank == 0)
        return output->rank == 1 && output->sizes[0] == 1;
    return output->rank == w->out_rank &&
           memcmp(output->sizes, w->out_sizes, w->out_rank * sizeof *w->out_sizes) == 0;
}

bool ref_strided_slice(const ref_tensor *input, const ref_tensor *output, const ref_ss_lists *lists)
{
    walk w = {0};
    uint32_t o[REF_MAX_DIMS] = {0}, in[REF_MAX_DIMS];
    unsigned char elem[16];
    bool ok = input->type == output->type && run_walk(&w, input->rank, input->sizes, lists) &&
              output_matches(&w, output);
    if (ok && ref_element_count(output->rank, output->sizes) > 0) {
        do {
            for (uint32_t j = 0; j < input->rank; ++j) {
                const selection *s = &w.sel[j];
                in[j] = (uint32_t)(s->out < 0 ? s->idx[0] : s->idx[o[s->out]]);
            }
            ref_get(input, in, elem);
            ref_put(output, o, elem);
        } while (ref_next_coord(output->rank, output->sizes, o));
    }
    walk_free(&w);
    return ok;
}
