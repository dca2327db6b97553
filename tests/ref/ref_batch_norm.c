/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "ref_batch_norm.h"
#include "ref_broadcast.h"

double ref_batch_norm_real(double x, double mean, double var, double scale, double bias, double eps)
{
    return scale * (x - mean) / sqrt(var + eps) + bias;
}

unsigned ref_batch_norm_ulps(void)
{
    return 6;
}

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

static bool fits(const ref_tensor *stat, const ref_tensor *in)
{
    if (stat->type != in->type || stat->rank != in->rank)
        return false;
    for (uint32_t i = 0; i < in->rank; ++i)
        if (stat->sizes[i] != 1 && stat->sizes[i] != in->sizes[i])
            return false;
    return true;
}

bool ref_batch_norm(const ref_tensor *in, const ref_tensor *mean, const ref_tensor *var,
                    const ref_tensor *scale, const ref_tensor *bias, double eps, ref_act act,
                    const double *p, const ref_tensor *out)
{
    const ref_tensor *stats[4] = {mean, var, scale, bias};
    if (in->type != DML_TENSOR_DATA_TYPE_FLOAT32 && in->type != DML_TENSOR_DATA_TYPE_FLOAT16)
        return false;
    if (out->type != in->type || out->rank != in->rank ||
        memcmp(out->sizes, in->sizes, in->rank * sizeof in->sizes[0]) != 0)
        return false;
    for (int k = 0; k < 4; ++k)
        if (!fits(stats[k], in))
            return false;
    if (ref_element_count(in->rank, in->sizes) == 0)
        return true;
    uint32_t coord[REF_MAX_DIMS] = {0}, sc[REF_MAX_DIMS];
    do {
        double v[4];
        for (int k = 0; k < 4; ++k) {
            for (uint32_t i = 0; i < in->rank; ++i)
                sc[i] = stats[k]->sizes[i] == 1 ? 0 : coord[i];
            v[k] = read_float(stats[k], sc);
        }
        double y = ref_batch_norm_real(read_float(in, coord), v[0], v[1], v[2], v[3], eps);
        if (act != REF_ACT_NONE) /* on the FLOAT32 result (as ADD1's) */
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
    } while (ref_next_coord(in->rank, in->sizes, coord));
    return true;
}
