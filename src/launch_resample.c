/* SPDX-License-Identifier: MIT */
/*
 * The launch of a resampling (cl/resample.cl): its variant (storage type, interpolation,
 * rounding, VALUE_SCALE_2D's epilogue, outputs per work-item), its table (cl/resample_abi.h)
 * and its grid. Pure host code, as launch.c. Shapes live in the table only: one variant serves
 * every shape of a type and a mode.
 *
 * A work-item writes resample_rows x resample_vec outputs (the device class's tuning: 8 x 8 on
 * CPUs, the neighbours and weights of each dimension computed once per row or column of the
 * block; 4 rows x 1 on GPUs, neighbouring items reading neighbouring inputs). Grid: dimension 0
 * the innermost dimension's chunks, 1 dimension 3's blocks, 2 the product of dimensions 0 to
 * 2. RESAMPLE_GRAD(1): resample_grad, one item per element of the gradient written.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "launch.h"
#include "resample.h"
#include "tuning.h"

_Static_assert(DMLI_RS_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the resample table fits");

static void options(const dmli_resample *r, uint32_t vec, uint32_t rows, dmli_options *o)
{
    bool half = r->type == DML_TENSOR_DATA_TYPE_FLOAT16;
    bool integer = !dmli_type_is_float(r->type);
    dmli_opt_str(o, "T", dmli_map_storage_type(r->type));
    dmli_opt_int(o, "HALF", half);
    dmli_opt_int(o, "INT_OUT", integer && r->linear);
    dmli_opt_int(o, "LINEAR", r->linear);
    dmli_opt_int(o, "CEIL", r->ceil);
    dmli_opt_int(o, "AFFINE", r->affine);
    dmli_opt_int(o, "ANTIALIAS", r->antialias);
    dmli_opt_int(o, "VEC", vec);
    dmli_opt_int(o, "ROWS", rows);
}

/* cl/resample.cl's coordinate() and neighbours() for dimension d, on the host in the same
 * float32 operations (the quotient corrected by one fma): whether output coordinate o
 * interpolates (a weight of its second neighbour other than 0). */
static bool interpolates(const dmli_resample *r, int d, int64_t o)
{
    float u = (float)o - r->out_off[d];
    float q = u * r->recip[d];
    q = fmaf(fmaf(-q, r->scale_of[d], u), r->recip[d], q);
    float x = q - r->in_off[d];
    float f = floorf(x);
    return f >= 0.0f && f < (float)(r->in_size[d] - 1) && x - f != 0.0f;
}

/* BAND (cl/resample.cl): CPUs with bands in their tuning; not Antialiased; the output's
 * innermost stride 1 (the rows' contiguous stores); the input's column offsets within an int;
 * dimensions 0 to 2 nowhere interpolated (each band reads one input plane), checked output
 * coordinate by output coordinate where LINEAR (up to 2^16 a dimension); the stage in local
 * memory. */
static bool band(const dmli_resample *r, const dmli_tuning *tu, const dmli_device_desc *dev)
{
    if (dev->device_class != DMLCL_DEVICE_CLASS_CPU || !tu->resample_band_cols ||
        !tu->resample_band_rows || r->antialias || r->out_stride[4] != 1)
        return false;
    int64_t reach = r->in_stride[4] * (r->in_size[4] - 1);
    if (reach > INT32_MAX || reach < -(int64_t)INT32_MAX)
        return false;
    uint64_t slots = (uint64_t)tu->resample_band_rows * (r->linear ? 2 : 1);
    uint64_t bytes = (slots + 4) * tu->resample_band_cols * 4;
    if (bytes > dev->local_mem_size)
        return false;
    for (int d = 0; r->linear && d < 3; ++d) {
        if (r->out_size[d] > ((int64_t)1 << 16))
            return false;
        for (int64_t o = 0; o < r->out_size[d]; ++o)
            if (interpolates(r, d, o))
                return false;
    }
    return true;
}

static void fill_table(const dmli_resample *r, dmli_compute_launch *l)
{
    for (int d = 0; d < DMLI_RS_DIMS; ++d) {
        l->table[DMLI_RS_AT(d, DMLI_RS_OSIZE)] = r->out_size[d];
        l->table[DMLI_RS_AT(d, DMLI_RS_ISIZE)] = r->in_size[d];
        l->table[DMLI_RS_AT(d, DMLI_RS_IS)] = r->in_stride[d];
        l->table[DMLI_RS_AT(d, DMLI_RS_OS)] = r->out_stride[d];
        l->table[DMLI_RS_AT(d, DMLI_RS_SCALE_OF)] = dmli_float_bits(r->scale_of[d]);
        l->table[DMLI_RS_AT(d, DMLI_RS_RECIP)] = dmli_float_bits(r->recip[d]);
        l->table[DMLI_RS_AT(d, DMLI_RS_OUT_OFF)] = dmli_float_bits(r->out_off[d]);
        l->table[DMLI_RS_AT(d, DMLI_RS_IN_OFF)] = dmli_float_bits(r->in_off[d]);
    }
    l->table[DMLI_RS_SCALE] = dmli_float_bits(r->scale);
    for (int k = 0; k < 3; ++k)
        l->table[DMLI_RS_BIAS(k)] = dmli_float_bits(r->bias[k]);
    l->table_count = DMLI_RS_TABLE;
}

/* RESAMPLE_GRAD(1): resample_grad, one item per element of the gradient written (the
 * forward's input) in groups of up to resample_group, the grid rounded up to whole groups. */
static void launch_grad(const dmli_resample *r, const dmli_tuning *tuning,
                        const dmli_device_desc *dev, dmli_compute_launch *l)
{
    l->kernel = "resample_grad";
    options(r, 1, 1, &l->defs);
    dmli_opt_int(&l->defs, "GRAD", 1);
    fill_table(r, l);
    uint64_t count = 1;
    for (int d = 0; d < DMLI_RS_DIMS; ++d)
        count *= (uint64_t)r->in_size[d];
    size_t group = tuning->resample_group;
    group = group < dev->max_work_group_size ? group : dev->max_work_group_size;
    group = group < dev->max_item_sizes[0] ? group : dev->max_item_sizes[0];
    group = group ? group : 1;
    l->global[0] = (size_t)((count + group - 1) / group * group);
    l->global[1] = l->global[2] = 1;
    l->local[0] = group;
    l->local[1] = l->local[2] = 1;
}

void dmli_launch_resample(const dmli_compute *c, const dmli_device_desc *dev,
                          dmli_compute_launch *l)
{
    const dmli_resample *r = DMLI_COMPUTE_WORK_CONST(c, dmli_resample);
    const dmli_tuning *tuning = dmli_tuning_for(dev->device_class);
    uint32_t vec = tuning->resample_vec;
    l->source = DMLI_SOURCE_RESAMPLE;
    if (r->grad) {
        launch_grad(r, tuning, dev, l);
        return;
    }
    l->kernel = "resample";
    uint32_t block = tuning->resample_rows;
    bool banded = band(r, tuning, dev);
    if (banded) {
        vec = tuning->resample_band_cols;
        block = tuning->resample_band_rows;
        l->kernel = "resample_band";
    }
    options(r, vec, block, &l->defs);
    if (banded)
        dmli_opt_int(&l->defs, "BAND", 1);
    /* GPUs: an item's rows loaded before any is stored (cl/resample.cl GPU_ROWS; off with the
     * other batched loads, gpu_load_batch=1). */
    if (!banded && dev->device_class == DMLCL_DEVICE_CLASS_GPU && vec == 1 && block > 1 &&
        !r->antialias && dmli_load_batch(tuning) > 1)
        dmli_opt_int(&l->defs, "GPU_ROWS", 1);
    fill_table(r, l);
    if (banded) { /* a work-group of one item a band of block rows x vec columns of a plane */
        l->global[0] = (size_t)((r->out_size[4] + vec - 1) / vec);
        l->global[1] = (size_t)((r->out_size[3] + block - 1) / block);
        l->global[2] = (size_t)(r->out_size[0] * r->out_size[1] * r->out_size[2]);
        l->local[0] = l->local[1] = l->local[2] = 1;
        return;
    }
    /* A work-group of up to resample_group items: a whole chunked row when it fits (else
     * resample_group chunks of it, the grid rounded up to whole groups: items past the end
     * return at once), times the most rows of dimension 3 that divide it. Few large groups
     * on CPUs (each group costs PoCL a dispatch), warps' worth on GPUs. */
    uint64_t chunks = (uint64_t)((r->out_size[4] + vec - 1) / vec);
    uint64_t rows = (uint64_t)((r->out_size[3] + block - 1) / block);
    size_t limit = tuning->resample_group;
    limit = limit < dev->max_work_group_size ? limit : dev->max_work_group_size;
    size_t l0 = chunks < limit ? (size_t)chunks : limit;
    l0 = l0 < dev->max_item_sizes[0] ? l0 : dev->max_item_sizes[0];
    l0 = l0 ? l0 : 1;
    size_t l1 = limit / l0 < rows ? limit / l0 : (size_t)rows;
    l1 = l1 < dev->max_item_sizes[1] ? l1 : dev->max_item_sizes[1];
    l1 = l1 ? l1 : 1;
    while (rows % l1)
        --l1;
    l->global[0] = (size_t)((chunks + l0 - 1) / l0 * l0);
    l->global[1] = (size_t)rows;
    l->global[2] = (size_t)(r->out_size[0] * r->out_size[1] * r->out_size[2]);
    l->local[0] = l0;
    l->local[1] = l1;
    l->local[2] = 1;
}

/* A graph's view read in place of the input (launch.h dmli_compute_restride): its strides in
 * the operator's dimensions, the last rank of the five. */
bool dmli_restride_resample(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset)
{
    if (i != 0)
        return false;
    dmli_resample *r = DMLI_COMPUTE_WORK(c, dmli_resample);
    uint32_t pad = DMLI_RS_DIMS - r->rank;
    for (uint32_t d = 0; d < r->rank; ++d) {
        /* A gradient reads the forward's output (out_*). */
        if (r->grad)
            r->out_stride[pad + d] = strides[d];
        else
            r->in_stride[pad + d] = strides[d];
    }
    c->tensors[0].offset = offset;
    return true;
}
