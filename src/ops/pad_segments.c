/* SPDX-License-Identifier: MIT */
/*
 * Output segments of padding and roll (pads.h). Coordinates are 64-bit;
 * o - start is taken in 128 bits because a crop may be any INT64 value while
 * the output stays under 2^32. The periodic modes reduce that coordinate
 * modulo their period once per segment (host code, never in a kernel).
 */
#include "ops/pads.h"

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* x mod p in [0, p), p > 0. */
static int64_t mod_pos(__int128 x, int64_t p)
{
    __int128 r = x % p;
    return (int64_t)(r < 0 ? r + p : r);
}

/* A periodic mode's run from x (outside [0, n)): start, step and natural length. */
static void periodic(const dmli_pad_dim *d, __int128 x, dmli_pad_segment *s)
{
    int64_t n = d->in_size;
    if (n == 1) { /* every mode's period is the one element: it repeats, one run */
        *s = (dmli_pad_segment){.in_start = 0, .step = 0, .length = INT64_MAX};
        return;
    }
    switch ((int)d->mode) {
    case DML_PADDING_MODE_REFLECTION: {
        int64_t p = 2 * (n - 1), r = mod_pos(x, p);
        if (r < n - 1)
            *s = (dmli_pad_segment){.in_start = r, .step = 1, .length = n - 1 - r};
        else
            *s = (dmli_pad_segment){.in_start = p - r, .step = -1, .length = p - r};
        return;
    }
    case DML_PADDING_MODE_SYMMETRIC: {
        int64_t p = 2 * n, r = mod_pos(x, p);
        if (r < n)
            *s = (dmli_pad_segment){.in_start = r, .step = 1, .length = n - r};
        else
            *s = (dmli_pad_segment){.in_start = p - 1 - r, .step = -1, .length = p - r};
        return;
    }
    default: { /* WRAP */
        int64_t r = mod_pos(x, n);
        *s = (dmli_pad_segment){.in_start = r, .step = 1, .length = n - r};
        return;
    }
    }
}

dmli_pad_segment dmli_pad_segment_at(const dmli_pad_dim *d, int64_t o)
{
    int64_t n = d->in_size, rest = d->out_size - o;
    __int128 x = (__int128)o - d->start;
    dmli_pad_segment s;
    if (x >= 0 && x < n) {
        s = (dmli_pad_segment){.in_start = (int64_t)x, .step = 1, .length = n - (int64_t)x};
    } else if (d->mode == DML_PADDING_MODE_CONSTANT || n == 0) {
        s = (dmli_pad_segment){.constant = true, .length = INT64_MAX};
    } else if (d->mode == DML_PADDING_MODE_EDGE) {
        s = (dmli_pad_segment){.in_start = x < 0 ? 0 : n - 1, .step = 0, .length = INT64_MAX};
    } else {
        periodic(d, x, &s);
    }
    /* A run before the input stops where the input starts: that is one copy of its own. */
    if (x < 0)
        s.length = min64(s.length, -x > INT64_MAX ? INT64_MAX : (int64_t)-x);
    s.length = min64(s.length, rest);
    s.out_start = o;
    return s;
}

uint64_t dmli_pad_count_segments(const dmli_pad_dim *d, uint64_t cap)
{
    uint64_t count = 0;
    for (int64_t o = 0; o < d->out_size && count <= cap; ++count)
        o += dmli_pad_segment_at(d, o).length;
    return count;
}

/* CONSTANT: the one segment along d that reads the input; false when the crop leaves none. */
static bool kept_segment(const dmli_pad_dim *d, dmli_pad_segment *kept)
{
    for (int64_t o = 0; o < d->out_size;) {
        dmli_pad_segment s = dmli_pad_segment_at(d, o);
        if (!s.constant) {
            *kept = s;
            return true;
        }
        o += s.length;
    }
    return false;
}

static uint64_t constant_steps(const dmli_pad_dim *dims, uint32_t rank)
{
    uint64_t steps = 1;
    for (uint32_t i = 0; i < rank; ++i) {
        dmli_pad_segment kept;
        if (!kept_segment(&dims[i], &kept))
            return 1; /* nothing of the input survives: one fill */
        steps += (kept.out_start > 0) + (kept.out_start + kept.length < dims[i].out_size);
    }
    return steps;
}

uint64_t dmli_pad_count_steps(const dmli_pad_dim *dims, uint32_t rank, uint64_t cap)
{
    for (uint32_t i = 0; i < rank; ++i)
        if (dims[i].out_size == 0)
            return 0;
    if (dims[0].mode == DML_PADDING_MODE_CONSTANT)
        return constant_steps(dims, rank);
    uint64_t steps = 1;
    for (uint32_t i = 0; i < rank; ++i) {
        steps *= dmli_pad_count_segments(&dims[i], cap);
        if (steps > cap)
            return cap + 1;
    }
    return steps;
}

static dmli_pad_segment whole(const dmli_pad_dim *d)
{
    return (dmli_pad_segment){.out_start = 0, .length = d->out_size, .constant = true};
}

/*
 * CONSTANT: the slab before and after the kept input along each dimension,
 * spanning the kept range of the dimensions before it and all of those
 * after, then the kept input itself: each output element once.
 */
static bool constant_regions(const dmli_pad_dim *dims, uint32_t rank,
                             bool (*emit)(void *, const dmli_pad_region *), void *ctx)
{
    dmli_pad_segment kept[DMLI_MAX_RANK];
    dmli_pad_region r = {.constant = true};
    for (uint32_t i = 0; i < rank; ++i)
        r.seg[i] = whole(&dims[i]);
    for (uint32_t i = 0; i < rank; ++i)
        if (!kept_segment(&dims[i], &kept[i]))
            return emit(ctx, &r);
    for (uint32_t i = 0; i < rank; ++i) {
        int64_t end = kept[i].out_start + kept[i].length;
        if (kept[i].out_start > 0) {
            r.seg[i] = (dmli_pad_segment){.out_start = 0, .length = kept[i].out_start};
            if (!emit(ctx, &r))
                return false;
        }
        if (end < dims[i].out_size) {
            r.seg[i] = (dmli_pad_segment){.out_start = end, .length = dims[i].out_size - end};
            if (!emit(ctx, &r))
                return false;
        }
        r.seg[i] = kept[i];
    }
    r.constant = false;
    return emit(ctx, &r);
}

bool dmli_pad_regions(const dmli_pad_dim *dims, uint32_t rank,
                      bool (*emit)(void *ctx, const dmli_pad_region *r), void *ctx)
{
    for (uint32_t i = 0; i < rank; ++i)
        if (dims[i].out_size == 0)
            return true;
    if (dims[0].mode == DML_PADDING_MODE_CONSTANT)
        return constant_regions(dims, rank, emit, ctx);
    /* A mixed-radix count over each dimension's segments, the last fastest. */
    dmli_pad_region r = {.constant = false};
    for (uint32_t i = 0; i < rank; ++i)
        r.seg[i] = dmli_pad_segment_at(&dims[i], 0);
    for (;;) {
        if (!emit(ctx, &r))
            return false;
        uint32_t i = rank;
        for (;;) {
            if (i == 0)
                return true;
            --i;
            int64_t next = r.seg[i].out_start + r.seg[i].length;
            if (next < dims[i].out_size) {
                r.seg[i] = dmli_pad_segment_at(&dims[i], next);
                break;
            }
            r.seg[i] = dmli_pad_segment_at(&dims[i], 0);
        }
    }
}
