/* SPDX-License-Identifier: MIT */
/* The conv family's kernels (internal.h dmli_compute, kind DMLI_COMPUTE_CONV): none yet. */
