/* SPDX-License-Identifier: MIT */
/*
 * ref_pad.c: the padding and roll oracle (see ref_pad.h). Plain loops over
 * output coordinates; the mirror and wrap modes fold one step at a time, as
 * the texts describe them ("folding new padding regions over previous
 * ones"), so the test pads stay within a few input sizes.
 */
#include "ref_pad.h"

/* The input coordinate t folds to, or -1 for the padding value. */
static int64_t fold(ref_pad_mode mode, int64_t t, int64_t n)
{
    if (t >= 0 && t < n)
        return t;
    switch (mode) {
    case REF_PAD_CONSTANT: return -1;
    case REF_PAD_EDGE: return t < 0 ? 0 : n - 1;
    case REF_PAD_REFLECT:
        if (n == 1)
            return 0;
        while (t < 0 || t >= n)
            t = t < 0 ? -t : 2 * (n - 1) - t;
        return t;
    case REF_PAD_SYMMETRIC:
        while (t < 0 || t >= n)
            t = t < 0 ? -t - 1 : 2 * n - 1 - t;
        return t;
    case REF_PAD_WRAP:
        while (t < 0)
            t += n;
        while (t >= n)
            t -= n;
        return t;
    }
    return -1;
}

bool ref_pad(const ref_tensor *input, const ref_tensor *output, ref_pad_mode mode,
             const int64_t *start, const int64_t *end, const void *value)
{
    if (input->rank != output->rank || input->type != output->type)
        return false;
    for (uint32_t d = 0; d < input->rank; ++d) {
        int64_t want = start[d] + (int64_t)input->sizes[d] + end[d];
        if ((int64_t)output->sizes[d] != (want < 0 ? 0 : want))
            return false;
        if (input->sizes[d] == 0 && output->sizes[d] > 0 && mode != REF_PAD_CONSTANT)
            return false;
    }
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, x[REF_MAX_DIMS];
    unsigned char elem[16];
    do {
        bool outside = false;
        for (uint32_t d = 0; d < input->rank; ++d) {
            int64_t t = fold(mode, (int64_t)o[d] - start[d], input->sizes[d]);
            outside |= t < 0;
            x[d] = t < 0 ? 0 : (uint32_t)t;
        }
        if (outside) {
            ref_put(output, o, value);
        } else {
            ref_get(input, x, elem);
            ref_put(output, o, elem);
        }
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}

bool ref_pad_crop_first(const ref_tensor *input, const ref_tensor *output, ref_pad_mode mode,
                        const int64_t *start, const int64_t *end, const void *value)
{
    ref_tensor cropped = *input;
    int64_t s[REF_MAX_DIMS], e[REF_MAX_DIMS];
    unsigned char *base = input->base;
    for (uint32_t d = 0; d < input->rank; ++d) {
        int64_t cut_s = start[d] < 0 ? -start[d] : 0, cut_e = end[d] < 0 ? -end[d] : 0;
        if (cut_s + cut_e > (int64_t)input->sizes[d])
            return false;
        cropped.sizes[d] = input->sizes[d] - (uint32_t)(cut_s + cut_e);
        if (cropped.sizes[d])
            base += cut_s * input->strides[d] * (int64_t)input->elem_size;
        s[d] = start[d] + cut_s;
        e[d] = end[d] + cut_e;
    }
    cropped.base = base;
    return ref_pad(&cropped, output, mode, s, e, value);
}

bool ref_roll(const ref_tensor *input, const ref_tensor *output, const int64_t *shifts)
{
    if (input->rank != output->rank || input->type != output->type)
        return false;
    for (uint32_t d = 0; d < input->rank; ++d)
        if (input->sizes[d] != output->sizes[d])
            return false;
    if (ref_element_count(output->rank, output->sizes) == 0)
        return true;
    uint32_t o[REF_MAX_DIMS] = {0}, x[REF_MAX_DIMS];
    unsigned char elem[16];
    do {
        for (uint32_t d = 0; d < input->rank; ++d) {
            int64_t n = input->sizes[d], s = shifts[d] % n;
            x[d] = (uint32_t)fold(REF_PAD_WRAP, (int64_t)o[d] - s, n);
        }
        ref_get(input, x, elem);
        ref_put(output, o, elem);
    } while (ref_next_coord(output->rank, output->sizes, o));
    return true;
}
