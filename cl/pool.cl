/* SPDX-License-Identifier: MIT */
/* The pool family's kernels (internal.h dmli_compute, kind DMLI_COMPUTE_POOL): none yet. */
