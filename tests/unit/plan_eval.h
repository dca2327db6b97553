/* SPDX-License-Identifier: MIT */
/*
 * plan_eval.h: runs a copy plan on host memory, the plain-loop meaning of
 * struct dmli_plan (src/internal.h) written from its field comments: every
 * output coordinate, its out / in / idx addresses, index values resolved
 * (negative counted from the end when wrap_negative, then the policy).
 * Used to check graph plans (fusion) against the reference applied node by
 * node, without a device.
 */
#ifndef DMLCL_TESTS_UNIT_PLAN_EVAL_H
#define DMLCL_TESTS_UNIT_PLAN_EVAL_H

#include "internal.h"

/* out, in, idx: element 0 of each bound tensor (plan offsets are added). */
void plan_eval(const dmli_plan *plan, void *out, const void *in, const void *idx);

/* A map (ScaleBias on FLOAT32 / FLOAT64) the same way: in[k] is input k's element 0. */
void map_eval(const dmli_map *map, void *out, void *const *in);

#endif /* DMLCL_TESTS_UNIT_PLAN_EVAL_H */
