/* SPDX-License-Identifier: MIT */
/* The compute families' launches (launch.h dmli_launch_compute): each kind's own launch, then
 * the options rendered once (they key the program cache). */
#include <string.h>

#include "launch.h"

typedef void (*launch_fn)(const dmli_compute *c, const dmli_device_desc *device,
                          dmli_compute_launch *launch);

static const launch_fn launchers[DMLI_COMPUTE_KINDS] = {
    [DMLI_COMPUTE_GEMM] = dmli_launch_gemm,
    [DMLI_COMPUTE_CONV] = dmli_launch_conv,
};

void dmli_launch_compute(const dmli_compute *c, const dmli_device_desc *device,
                         dmli_compute_launch *launch)
{
    memset(launch, 0, sizeof *launch);
    launchers[c->kind](c, device, launch);
    dmli_options_render(&launch->defs, launch->options, sizeof launch->options);
}
