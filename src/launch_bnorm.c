/* SPDX-License-Identifier: MIT */
/*
 * The launch of the batch-normalization training family (cl/bnorm.cl): its variant (the kernel,
 * the type, FusedAdd, the activation, the training gradient), its table (cl/bnorm_abi.h) and its
 * grid: one work-group per channel along dimension 1, its items (the largest power of two up to
 * BN_GROUP_MAX within the device's limits, whatever the shape) along dimension 0. The group's
 * size fixes the sums' order: one per device. Pure host code, as launch.c.
 */
#include "bnorm.h"
#include "launch.h"

_Static_assert(DMLI_BN_TABLE <= DMLI_COMPUTE_TABLE_MAX, "the batch-normalization table fits");

#define BN_GROUP_MAX 64

/* The largest power of two within BN_GROUP_MAX and the device's limits: one local size for
 * every shape (PoCL builds a work-group function per local size). */
static size_t group_size(const dmli_device_desc *dev)
{
    size_t limit = BN_GROUP_MAX;
    if (limit > dev->max_work_group_size)
        limit = dev->max_work_group_size;
    if (limit > dev->max_item_sizes[0])
        limit = dev->max_item_sizes[0];
    size_t group = 1;
    while (group * 2 <= limit)
        group *= 2;
    return group;
}

void dmli_launch_bnorm(const dmli_compute *c, const dmli_device_desc *dev, dmli_compute_launch *l)
{
    const dmli_bnorm *b = DMLI_COMPUTE_WORK_CONST(c, dmli_bnorm);
    l->source = DMLI_SOURCE_BNORM;
    l->kernel = b->kind == DMLI_BNORM_TRAINING ? "bn_training" : "bn_grad";
    dmli_opt_int(&l->defs, "HALF", b->half);
    dmli_opt_int(&l->defs, "GROUP_MAX", BN_GROUP_MAX);
    if (b->kind == DMLI_BNORM_TRAINING) {
        dmli_opt_int(&l->defs, "HAS_ADD", b->has_add);
        dmli_opt_int(&l->defs, "ACT", (int)b->act);
    } else {
        dmli_opt_int(&l->defs, "TRAINING", b->kind == DMLI_BNORM_TRAINING_GRAD);
    }
    l->table[DMLI_BN_CHANNELS] = b->channels;
    l->table[DMLI_BN_REDUCED] = b->reduced;
    l->table[DMLI_BN_RANK] = b->rank;
    l->table[DMLI_BN_EPS] = dmli_float_bits(b->epsilon);
    for (int i = 0; i < 3; ++i)
        l->table[DMLI_BN_ACT(i)] = dmli_float_bits(b->act_param[i]);
    for (uint32_t d = 0; d < b->rank; ++d) {
        l->table[DMLI_BN_CSIZE(d)] = b->csize[d];
        l->table[DMLI_BN_RSIZE(d)] = b->rsize[d];
        for (int r = 0; r < DMLI_BN_ROLES; ++r)
            l->table[DMLI_BN_STRIDE(r, d)] = b->stride[r][d];
    }
    l->table_count = DMLI_BN_TABLE;
    size_t group = group_size(dev);
    l->global[0] = group;
    l->global[1] = (size_t)b->channels;
    l->global[2] = 1;
    l->local[0] = group;
    l->local[1] = l->local[2] = 1;
}
