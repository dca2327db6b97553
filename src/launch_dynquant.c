/* SPDX-License-Identifier: MIT */
/*
 * The launch of a dynamic quantization (cl/dynquant.cl): its variant (the input's storage, the
 * output type's range), its table (cl/dynquant_abi.h) and its grid: one work-group, as many
 * items as the device allows up to DQ_GROUP_MAX (a power of two), since the scale depends on
 * every element before any is written; or, for larger tensors, several such work-groups after
 * a first step that writes each one's minimum and maximum (SPLIT). Pure host code, as
 * launch.c.
 */
#include <string.h>

#include "dynquant.h"
#include "launch.h"

_Static_assert(DMLI_DQ_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the dynamic quantization table fits");

#define DQ_GROUP_MAX 256
/* SPLIT's work-groups: each item at least this many elements, about this many work-groups a
 * compute unit, at most this many in all. */
#define DQ_ITEM_MIN 16
#define DQ_PARTS_PER_UNIT 2
#define DQ_PARTS_MAX 256

void dmli_launch_dynquant(const dmli_compute *c, const dmli_device_desc *dev,
                          dmli_compute_launch *l)
{
    const dmli_dynquant *q = DMLI_COMPUTE_WORK_CONST(c, dmli_dynquant);
    bool half = q->in_type == DML_TENSOR_DATA_TYPE_FLOAT16;
    bool sign = q->out_type == DML_TENSOR_DATA_TYPE_INT8;
    l->source = DMLI_SOURCE_DYNQUANT;
    l->kernel = "dynamic_quantize";
    size_t group = DQ_GROUP_MAX;
    while (group > 1 && (group > dev->max_work_group_size || group > dev->max_item_sizes[0]))
        group /= 2;
    int64_t count = 1;
    for (uint32_t d = 0; d < q->rank; ++d)
        count *= q->size[d];
    dmli_options *o = &l->defs;
    dmli_opt_str(o, "IN_T", half ? "ushort" : "float");
    dmli_opt_int(o, "IN_HALF", half);
    dmli_opt_str(o, "OUT_T", sign ? "char" : "uchar");
    dmli_opt_int(o, "QMIN", sign ? -128 : 0);
    dmli_opt_int(o, "QMAX", sign ? 127 : 255);
    dmli_opt_int(o, "GROUP", (int64_t)group);
    l->table[DMLI_DQ_RANK] = q->rank;
    l->table[DMLI_DQ_COUNT] = count;
    for (uint32_t d = 0; d < q->rank; ++d) {
        l->table[DMLI_DQ_SIZE(d)] = q->size[d];
        l->table[DMLI_DQ_IN_STRIDE(d)] = q->in_stride[d];
        l->table[DMLI_DQ_OUT_STRIDE(d)] = q->out_stride[d];
    }
    l->table_count = DMLI_DQ_TABLE;
    l->global[0] = l->local[0] = group;
    l->global[1] = l->global[2] = l->local[1] = l->local[2] = 1;
    /* Several work-groups where every item of them still has DQ_ITEM_MIN elements: about
     * DQ_PARTS_PER_UNIT a compute unit, at most DQ_PARTS_MAX. Their ranges first
     * (dynamic_quantize_range into scratch, 2 floats a work-group), then each folds them all. */
    int64_t parts = count / ((int64_t)group * DQ_ITEM_MIN);
    const int64_t most = (int64_t)dev->compute_units * DQ_PARTS_PER_UNIT;
    parts = parts < most ? parts : most;
    parts = parts < DQ_PARTS_MAX ? parts : DQ_PARTS_MAX;
    dmli_opt_int(o, "SPLIT", parts > 1);
    if (parts > 1) {
        l->table[DMLI_DQ_PARTS] = parts;
        l->global[0] = (size_t)parts * group;
        l->pre_kernel = "dynamic_quantize_range";
        l->pre_tensor = DMLI_DQ_INPUT;
        l->pre_bytes = (uint64_t)parts * 2 * sizeof(float);
        l->pre_global[0] = (size_t)parts * group;
        l->pre_local[0] = group;
        l->pre_global[1] = l->pre_global[2] = l->pre_local[1] = l->pre_local[2] = 1;
    }
}
