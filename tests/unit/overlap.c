/* SPDX-License-Identifier: MIT */
/*
 * An output never overlaps itself: output strides that put two elements at
 * one address are refused at creation, with the two coordinates. The
 * expected verdict of every case comes from enumerating all element offsets
 * here (independent of dmlcl's steps: nested strides, dominant dimensions,
 * the two-dimension closed form, the bitmap), and a refusal's coordinates
 * are checked to collide.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#define F32 DML_TENSOR_DATA_TYPE_FLOAT32

typedef struct layout {
    UINT rank;
    UINT sizes[8], strides[8];
} layout;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The oracle: every element's offset, sorted, checked for a repeat. */
static bool enumerated_overlap(const layout *l)
{
    uint64_t n = 1;
    for (UINT d = 0; d < l->rank; ++d)
        n *= l->sizes[d];
    uint64_t *off = malloc((n ? n : 1) * sizeof *off);
    cr_assert(off);
    for (uint64_t e = 0; e < n; ++e) {
        uint64_t rest = e, o = 0;
        for (UINT d = l->rank; d-- > 0;) {
            o += (rest % l->sizes[d]) * l->strides[d];
            rest /= l->sizes[d];
        }
        off[e] = o;
    }
    qsort(off, n, sizeof *off, cmp_u64);
    bool dup = false;
    for (uint64_t e = 1; e < n && !dup; ++e)
        dup = off[e] == off[e - 1];
    free(off);
    return dup;
}

static HRESULT create_identity(const layout *l)
{
    unit_tensor in, out;
    unit_tensor_set(&in, F32, l->rank, l->sizes, NULL);
    unit_tensor_set(&out, F32, l->rank, l->sizes, l->strides);
    DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC d = {&in.desc, &out.desc, NULL};
    DML_OPERATOR_DESC desc = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, &d};
    dmlcl_operator *op = NULL;
    HRESULT hr = dmlcl_operator_create(NULL, &desc, &op);
    dmlcl_operator_release(op);
    return hr;
}

/* Reads "{a,b,...}" at *p; advances past it. */
static bool parse_coords(const char **p, UINT rank, uint64_t *c)
{
    const char *s = strchr(*p, '{');
    if (!s)
        return false;
    ++s;
    for (UINT d = 0; d < rank; ++d) {
        char *end;
        c[d] = strtoull(s, &end, 10);
        if (end == s || *end != (d + 1 < rank ? ',' : '}'))
            return false;
        s = end + 1;
    }
    *p = s;
    return true;
}

/* The refusal names two distinct in-range coordinates at one offset. */
static void expect_collision_named(const layout *l, int line)
{
    const char *msg = dmlcl_last_error(), *p = strstr(msg, "elements ");
    cr_assert(p, "line %d: no coordinates in \"%s\"", line, msg);
    cr_expect(strstr(msg, "OutputTensor") && strstr(msg, "an output never overlaps itself"),
              "line %d: \"%s\" names neither the tensor nor the rule", line, msg);
    uint64_t a[8], b[8], oa = 0, ob = 0;
    cr_assert(parse_coords(&p, l->rank, a) && parse_coords(&p, l->rank, b),
              "line %d: unreadable coordinates in \"%s\"", line, msg);
    for (UINT d = 0; d < l->rank; ++d) {
        cr_expect(a[d] < l->sizes[d] && b[d] < l->sizes[d], "line %d: out of range: %s", line, msg);
        oa += a[d] * l->strides[d];
        ob += b[d] * l->strides[d];
    }
    cr_expect(memcmp(a, b, l->rank * sizeof *a) != 0, "line %d: one element twice: %s", line, msg);
    cr_expect_eq(oa, ob, "line %d: offsets %llu and %llu differ: %s", line, (unsigned long long)oa,
                 (unsigned long long)ob, msg);
}

static void check_layout(const layout *l, int line)
{
    bool overlap = enumerated_overlap(l);
    HRESULT hr = create_identity(l);
    if (!overlap) {
        cr_expect_eq(hr, S_OK, "line %d: disjoint layout refused: %s", line, dmlcl_last_error());
        return;
    }
    cr_expect_eq(hr, DXGI_ERROR_UNSUPPORTED, "line %d: overlapping layout: %s (%s)", line,
                 dmlcl_hresult_name(hr), dmlcl_last_error());
    if (hr == DXGI_ERROR_UNSUPPORTED)
        expect_collision_named(l, line);
}

#define L(rank, ...) ((const layout){rank, __VA_ARGS__})
#define CHECK(l) check_layout(&(l), __LINE__)

Test(overlap, packed_padded_permuted_accepted)
{
    CHECK(L(2, {4, 8}, {8, 1}));               /* packed */
    CHECK(L(2, {4, 8}, {10, 1}));              /* padded rows */
    CHECK(L(3, {2, 3, 4}, {1, 2, 6}));         /* permuted (column-major) */
    CHECK(L(4, {2, 3, 4, 5}, {60, 1, 15, 3})); /* NCHW as NHWC */
    CHECK(L(2, {1, 5}, {0, 1}));               /* a 0 stride on a size-1 dimension names nothing */
}

Test(overlap, aliasing_refused)
{
    CHECK(L(2, {64, 64}, {1, 1})); /* the audit's race */
    CHECK(L(2, {2, 3}, {0, 1}));   /* broadcast-like: zero stride */
    CHECK(L(2, {4, 3}, {2, 3}));   /* (3,0) and (0,2) */
    CHECK(L(3, {2, 2, 2}, {1, 2, 3}));
}

/* Interleaved and disjoint: only the exact step can tell. */
Test(overlap, interleaved_disjoint_accepted)
{
    CHECK(L(2, {3, 2}, {2, 3}));       /* offsets 0 2 4 3 5 7 */
    CHECK(L(2, {3, 3}, {2, 3}));       /* 0 3 6 2 5 8 4 7 10 */
    CHECK(L(3, {2, 2, 2}, {2, 3, 4})); /* three interleaved dimensions: the bitmap */
    CHECK(L(3, {2, 2, 3}, {1, 6, 4}));
}

/* Two large dimensions: the closed form, both verdicts, no enumeration of 2^32 offsets. */
Test(overlap, two_large_dimensions)
{
    layout ok = L(2, {65535, 65535}, {65536, 65535});
    cr_expect_eq(create_identity(&ok), S_OK, "%s", dmlcl_last_error());
    layout bad = L(2, {65535, 65535}, {100, 99});
    cr_expect_eq(create_identity(&bad), DXGI_ERROR_UNSUPPORTED, "%s", dmlcl_last_error());
    expect_collision_named(&bad, __LINE__);
}

/* Interleaved over more than the bitmap allows: refused as unsupported, not guessed. */
Test(overlap, undecidable_within_bounds_is_unsupported)
{
    layout l = L(3, {2000, 2000, 1000}, {1000003, 1000033, 999983});
    unit_expect_error(create_identity(&l), DXGI_ERROR_UNSUPPORTED, "cannot prove",
                      "an output never overlaps itself");
}

/* Every small layout (ranks 1-4, sizes 1-4, strides 0-9), against the enumeration. */
Test(overlap, random_small_layouts_match_enumeration)
{
    unsigned seed = 20261123;
    srand(seed);
    int refused = 0, accepted = 0;
    for (int i = 0; i < 4000; ++i) {
        layout l = {(UINT)(1 + rand() % 4), {0}, {0}};
        for (UINT d = 0; d < l.rank; ++d) {
            l.sizes[d] = (UINT)(1 + rand() % 4);
            l.strides[d] = (UINT)(rand() % 10);
        }
        bool overlap = enumerated_overlap(&l);
        check_layout(&l, 10000 + i);
        overlap ? ++refused : ++accepted;
    }
    cr_expect(refused > 100 && accepted > 100, "seed %u: %d refused, %d accepted", seed, refused,
              accepted);
}
