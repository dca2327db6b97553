/* SPDX-License-Identifier: MIT */
/* The resample family's kernels (internal.h dmli_compute, kind DMLI_COMPUTE_RESAMPLE): none yet. */
