/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ref_broadcast.h"
#include "ref_conv.h"

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

static void write_float(const ref_tensor *t, const uint32_t *coord, double y)
{
    unsigned char e[8];
    if (t->type == DML_TENSOR_DATA_TYPE_FLOAT16) {
        uint16_t h = ref_half_from_double(y);
        memcpy(e, &h, 2);
    } else {
        float f = (float)y;
        memcpy(e, &f, 4);
    }
    ref_put(t, coord, e);
}

bool ref_conv_output_sizes(const ref_conv_params *p, const uint32_t *in_sizes,
                           const uint32_t *filter_sizes, uint32_t *out_sizes)
{
    if (p->spatial < 1 || p->spatial > 3 || p->groups < 1 || in_sizes[1] % p->groups != 0)
        return false;
    out_sizes[0] = in_sizes[0];
    if (!p->backward) {
        if (filter_sizes[1] * p->groups != in_sizes[1] || filter_sizes[0] % p->groups != 0)
            return false;
        out_sizes[1] = filter_sizes[0];
    } else {
        if (filter_sizes[0] != in_sizes[1])
            return false;
        out_sizes[1] = filter_sizes[1] * p->groups;
    }
    for (uint32_t i = 0; i < p->spatial; ++i) {
        if (p->strides[i] < 1 || p->dilations[i] < 1)
            return false;
        int64_t window = (int64_t)(filter_sizes[2 + i] - 1) * p->dilations[i] + 1;
        int64_t pads = (int64_t)p->start[i] + p->end[i];
        int64_t o;
        if (!p->backward)
            o = in_sizes[2 + i] + pads < window
                    ? 0
                    : (in_sizes[2 + i] + pads - window) / p->strides[i] + 1;
        else
            o = (int64_t)(in_sizes[2 + i] - 1) * p->strides[i] + window - pads +
                p->output_padding[i];
        if (o < 1)
            return false;
        out_sizes[2 + i] = (uint32_t)o;
    }
    return true;
}

/* The slope bound of the activations the tests fuse (1 for the others' unit slopes). */
static double act_slope(const ref_conv_params *p)
{
    double s = 1;
    for (int i = 0; i < 2; ++i)
        if (fabs(p->act_param[i]) > s)
            s = fabs(p->act_param[i]);
    return p->act == REF_ACT_NONE ? 1 : s * (p->act == REF_ACT_SCALED_ELU ? 2 : 1);
}

unsigned ref_conv_ulps(const ref_conv_params *p, const ref_tensor *filter)
{
    uint64_t taps = filter->sizes[1];
    for (uint32_t i = 0; i < p->spatial; ++i)
        taps *= filter->sizes[2 + i];
    if (p->backward) /* an output's inputs: the group's input channels, Sizes[0] / groups */
        taps = taps / filter->sizes[1] * (filter->sizes[0] / p->groups);
    return (unsigned)(2 * taps) + (p->act == REF_ACT_NONE ? 0 : ref_activation_ulps(p->act));
}

/* The tap that filter position k (of K) stands for. */
static uint32_t tap(const ref_conv_params *p, uint32_t k, uint32_t K)
{
    return p->convolution ? K - 1 - k : k;
}

static bool shapes_ok(const ref_conv_params *p, const ref_tensor *in, const ref_tensor *filter,
                      const ref_tensor *bias, const ref_tensor *out)
{
    uint32_t r = p->spatial + 2, want[5];
    if ((in->type != DML_TENSOR_DATA_TYPE_FLOAT32 && in->type != DML_TENSOR_DATA_TYPE_FLOAT16) ||
        in->rank != r || filter->rank != r || out->rank != r || filter->type != in->type ||
        out->type != in->type || !ref_conv_output_sizes(p, in->sizes, filter->sizes, want))
        return false;
    for (uint32_t d = 0; d < r; ++d)
        if (d < 2 || !p->backward ? out->sizes[d] != want[d] : out->sizes[d] < want[d])
            return false;
    if (bias) {
        if (bias->rank != r || bias->type != in->type)
            return false;
        for (uint32_t d = 0; d < r; ++d)
            if (bias->sizes[d] != (d == 1 ? out->sizes[1] : 1))
                return false;
    }
    return true;
}

bool ref_conv(const ref_conv_params *p, const ref_tensor *in, const ref_tensor *filter,
              const ref_tensor *bias, const ref_tensor *out, double *bound)
{
    if (!shapes_ok(p, in, filter, bias, out))
        return false;
    const uint32_t r = p->spatial + 2;
    const uint64_t n_out = ref_element_count(r, out->sizes);
    double *sum = calloc(n_out ? n_out : 1, sizeof *sum);
    double *mag = calloc(n_out ? n_out : 1, sizeof *mag);
    uint64_t *terms = calloc(n_out ? n_out : 1, sizeof *terms);
    if (!sum || !mag || !terms) {
        free(sum), free(mag), free(terms);
        return false;
    }
    uint64_t ostride[5];
    ostride[r - 1] = 1;
    for (int d = (int)r - 2; d >= 0; --d)
        ostride[d] = ostride[d + 1] * out->sizes[d + 1];
    const uint32_t cin_g = in->sizes[1] / p->groups, cout_g = out->sizes[1] / p->groups;
    uint32_t ksizes[3];
    for (uint32_t i = 0; i < p->spatial; ++i)
        ksizes[i] = filter->sizes[2 + i];
    /* Every (input element, output channel of its group, tap): FORWARD adds the product to the
     * output whose window holds it there, BACKWARD to the output it lands on. */
    uint32_t ic[5] = {0};
    do {
        const uint32_t g = ic[1] / cin_g;
        const double x = read_float(in, ic);
        for (uint32_t col = 0; col < cout_g; ++col) {
            const uint32_t co = g * cout_g + col;
            uint32_t k[3] = {0};
            do {
                uint32_t fc[5], oc[5] = {ic[0], co};
                fc[0] = p->backward ? ic[1] : co;
                fc[1] = p->backward ? col : ic[1] - g * cin_g;
                bool inside = true;
                for (uint32_t i = 0; i < p->spatial && inside; ++i) {
                    fc[2 + i] = k[i];
                    int64_t t = tap(p, k[i], ksizes[i]);
                    int64_t o;
                    if (p->backward) {
                        o = (int64_t)ic[2 + i] * p->strides[i] + t * p->dilations[i] - p->start[i];
                    } else { /* in = o * S + t * D - start */
                        int64_t q = (int64_t)ic[2 + i] + p->start[i] - t * p->dilations[i];
                        inside = q >= 0 && q % p->strides[i] == 0;
                        o = q / p->strides[i];
                    }
                    inside = inside && o >= 0 && o < out->sizes[2 + i];
                    oc[2 + i] = (uint32_t)o;
                }
                if (!inside)
                    continue;
                const double prod = x * read_float(filter, fc);
                uint64_t at = 0;
                for (uint32_t d = 0; d < r; ++d)
                    at += oc[d] * ostride[d];
                sum[at] += prod;
                mag[at] += fabs(prod);
                terms[at] += 1;
            } while (ref_next_coord(p->spatial, ksizes, k));
        }
    } while (ref_next_coord(r, in->sizes, ic));
    const double u = ldexp(1, -24), slope = act_slope(p);
    uint32_t oc[5] = {0};
    uint64_t at = 0;
    do {
        double b = 0;
        if (bias) {
            uint32_t bc[5] = {0, oc[1], 0, 0, 0};
            b = read_float(bias, bc);
        }
        double y = sum[at] + b;
        if (p->act != REF_ACT_NONE)
            y = ref_act_real(p->act, p->act_param, y);
        write_float(out, oc, y);
        if (bound)
            bound[at] = (double)(terms[at] + 1) * u * (mag[at] + fabs(b)) * slope;
        ++at;
    } while (ref_next_coord(r, out->sizes, oc));
    free(sum), free(mag), free(terms);
    return true;
}
