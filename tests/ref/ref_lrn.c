/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_lrn.h"

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

unsigned ref_lrn_ulps(bool cross_channel, uint32_t local_size)
{
    return 32 + 2 + (cross_channel ? local_size : local_size * local_size);
}

bool ref_lrn(const ref_tensor *in, const ref_tensor *out, bool cross_channel, uint32_t local_size,
             double alpha, double beta, double bias)
{
    if ((in->type != DML_TENSOR_DATA_TYPE_FLOAT32 && in->type != DML_TENSOR_DATA_TYPE_FLOAT16) ||
        in->rank != 4 || out->type != in->type || out->rank != 4 ||
        memcmp(in->sizes, out->sizes, 4 * sizeof in->sizes[0]) != 0 || local_size < 1)
        return false;
    int64_t before = (local_size - 1) / 2, after = local_size / 2; /* floor, ceil of (n-1)/2 */
    uint32_t c[4] = {0};
    if (ref_element_count(4, in->sizes) == 0)
        return true;
    do {
        double s = 0;
        uint32_t w[4];
        memcpy(w, c, sizeof w);
        /* The window's dimensions: C, or H and W. */
        int first = cross_channel ? 1 : 2, last = cross_channel ? 1 : 3;
        int64_t lo[4], hi[4];
        for (int d = first; d <= last; ++d) {
            lo[d] = (int64_t)c[d] - before < 0 ? 0 : (int64_t)c[d] - before;
            hi[d] = (int64_t)c[d] + after > (int64_t)in->sizes[d] - 1 ? (int64_t)in->sizes[d] - 1
                                                                      : (int64_t)c[d] + after;
        }
        if (cross_channel) {
            for (int64_t i = lo[1]; i <= hi[1]; ++i) {
                w[1] = (uint32_t)i;
                double v = read_float(in, w);
                s += v * v;
            }
        } else {
            for (int64_t i = lo[2]; i <= hi[2]; ++i)
                for (int64_t j = lo[3]; j <= hi[3]; ++j) {
                    w[2] = (uint32_t)i;
                    w[3] = (uint32_t)j;
                    double v = read_float(in, w);
                    s += v * v;
                }
        }
        double y = read_float(in, c) / pow(bias + alpha / local_size * s, beta);
        unsigned char e[8];
        if (out->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
            uint16_t h = ref_half_from_double(y);
            memcpy(e, &h, 2);
        } else {
            float f = (float)y;
            memcpy(e, &f, 4);
        }
        ref_put(out, c, e);
    } while (ref_next_coord(4, in->sizes, c));
    return true;
}
