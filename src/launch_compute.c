/* SPDX-License-Identifier: MIT */
/* The compute families' launches (launch.h dmli_launch_compute): each kind's own launch, then
 * the options rendered once (they key the program cache). */
#include <string.h>

#include "launch.h"

typedef void (*launch_fn)(const dmli_compute *c, const dmli_device_desc *device,
                          dmli_compute_launch *launch);

static const launch_fn launchers[DMLI_COMPUTE_KINDS] = {
    [DMLI_COMPUTE_GEMM] = dmli_launch_gemm,         [DMLI_COMPUTE_POOL] = dmli_launch_pool,
    [DMLI_COMPUTE_RESAMPLE] = dmli_launch_resample, [DMLI_COMPUTE_CONV] = dmli_launch_conv,
    [DMLI_COMPUTE_SCATTER] = dmli_launch_scatter,   [DMLI_COMPUTE_RNN] = dmli_launch_rnn,
    [DMLI_COMPUTE_MISC] = dmli_launch_misc,         [DMLI_COMPUTE_ROI] = dmli_launch_roi,
    [DMLI_COMPUTE_GRAD] = dmli_launch_grad,         [DMLI_COMPUTE_INTMM] = dmli_launch_intmm,
    [DMLI_COMPUTE_DYNQUANT] = dmli_launch_dynquant, [DMLI_COMPUTE_ATTN] = dmli_launch_attention,
    [DMLI_COMPUTE_BNORM] = dmli_launch_bnorm,
};

typedef bool (*restride_fn)(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset);

/* The families that take new strides for an input (graphs fuse views into their reads). */
static const restride_fn restriders[DMLI_COMPUTE_KINDS] = {
    [DMLI_COMPUTE_GEMM] = dmli_restride_gemm,
    [DMLI_COMPUTE_POOL] = dmli_restride_pool,
    [DMLI_COMPUTE_RESAMPLE] = dmli_restride_resample,
};

bool dmli_compute_restride(dmli_compute *c, uint32_t i, const int64_t *strides, int64_t offset)
{
    if (i >= c->n_tensors || c->tensors[i].output || !restriders[c->kind])
        return false;
    return restriders[c->kind](c, i, strides, offset);
}

void dmli_launch_compute(const dmli_compute *c, const dmli_device_desc *device,
                         dmli_compute_launch *launch)
{
    memset(launch, 0, sizeof *launch);
    launchers[c->kind](c, device, launch);
    if (launch->splits > 1) {
        /* The split's two steps (launch.h): the slices' partial sums, then their sums. */
        dmli_options defs = launch->defs;
        dmli_opt_int(&defs, "SPLIT", 1);
        dmli_options_render(&defs, launch->options, sizeof launch->options);
        defs = launch->defs;
        dmli_opt_int(&defs, "SPLIT", 2);
        dmli_options_render(&defs, launch->options2, sizeof launch->options2);
        return;
    }
    launch->splits = 1;
    dmli_options_render(&launch->defs, launch->options, sizeof launch->options);
    if (launch->pre_owned_only) {
        /* The variant without the first step: its macro left out. */
        dmli_options plain = {0};
        for (uint32_t i = 0; i < launch->defs.n; ++i)
            if (strcmp(launch->defs.defs[i].name, launch->pre_def) != 0)
                dmli_opt_str(&plain, launch->defs.defs[i].name, launch->defs.defs[i].value);
        dmli_options_render(&plain, launch->options_plain, sizeof launch->options_plain);
    }
}
