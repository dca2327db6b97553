/* SPDX-License-Identifier: MIT */
/* ref_gemm.c: see ref_gemm.h. */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_gemm.h"

static double read_float(const ref_tensor *t, const uint32_t *coord)
{
    unsigned char e[8];
    ref_get(t, coord, e);
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h;
        memcpy(&h, e, 2);
        return ref_half_to_double(h);
    }
    float f;
    memcpy(&f, e, 4);
    return f;
}

static bool same(const ref_tensor *t, const ref_tensor *ref)
{
    return t->type == ref->type && t->rank == ref->rank;
}

bool ref_gemm(const ref_tensor *a, const ref_tensor *b, const ref_tensor *c, bool trans_a,
              bool trans_b, double alpha, double beta, ref_act act, const double *p,
              const ref_tensor *out, double *bound)
{
    uint32_t r = out->rank;
    if (out->type != DML_TENSOR_DATA_TYPE_FLOAT32 && out->type != DML_TENSOR_DATA_TYPE_FLOAT16)
        return false;
    if (r < 2 || !same(a, out) || !same(b, out) || (c && !same(c, out)))
        return false;
    uint32_t m = out->sizes[r - 2], n = out->sizes[r - 1];
    uint32_t am = trans_a ? a->sizes[r - 1] : a->sizes[r - 2];
    uint32_t k = trans_a ? a->sizes[r - 2] : a->sizes[r - 1];
    uint32_t bk = trans_b ? b->sizes[r - 1] : b->sizes[r - 2];
    uint32_t bn = trans_b ? b->sizes[r - 2] : b->sizes[r - 1];
    if (am != m || bk != k || bn != n)
        return false;
    for (uint32_t i = 0; i + 2 < r; ++i)
        if (a->sizes[i] != out->sizes[i] || b->sizes[i] != out->sizes[i])
            return false;
    if (c && memcmp(c->sizes, out->sizes, r * sizeof out->sizes[0]) != 0)
        return false;
    if (ref_element_count(r, out->sizes) == 0)
        return true;
    const double u = 0x1p-24;
    uint32_t coord[REF_MAX_DIMS] = {0}, ac[REF_MAX_DIMS], bc[REF_MAX_DIMS];
    uint64_t at = 0;
    do {
        memcpy(ac, coord, r * sizeof *coord);
        memcpy(bc, coord, r * sizeof *coord);
        double s = 0, sa = 0;
        for (uint32_t x = 0; x < k; ++x) {
            ac[trans_a ? r - 2 : r - 1] = x;
            ac[trans_a ? r - 1 : r - 2] = coord[r - 2];
            bc[trans_b ? r - 1 : r - 2] = x;
            bc[trans_b ? r - 2 : r - 1] = coord[r - 1];
            double t = read_float(a, ac) * read_float(b, bc);
            s += t;
            sa += fabs(t);
        }
        double cv = c ? read_float(c, coord) : 0;
        double y = alpha * s + (c ? beta * cv : 0);
        if (bound)
            bound[at++] = 2.0 * (k + 1) * u * fabs(alpha) * sa + (c ? 2 * u * fabs(beta * cv) : 0);
        if (act != REF_ACT_NONE)
            y = ref_act_real(act, p, (double)(float)y);
        unsigned char e[8];
        if (out->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
            uint16_t h = ref_half_from_double(y);
            memcpy(e, &h, 2);
        } else {
            float f = (float)y;
            memcpy(e, &f, 4);
        }
        ref_put(out, coord, e);
    } while (ref_next_coord(r, out->sizes, coord));
    return true;
}

unsigned ref_gemm_ulps(uint64_t k, bool alpha, bool has_c)
{
    return (unsigned)(2 * k + (alpha ? 1 : 0) + (has_c ? 1 : 0));
}
