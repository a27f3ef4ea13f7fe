/* SPDX-License-Identifier: MIT */
/* STREAM's four kernels as the STREAM harness uses them: over three double arrays,
 *   Copy  c = a          16 bytes per element counted (the rows' counted_bytes)
 *   Scale b = s * c      16
 *   Add   c = a + b      24
 *   Triad a = b + s * c  24
 * A "set" is the four kernels of one ISA with one kind of stores (regular or
 * non-temporal); the kernels themselves are ordinary descriptor rows of the one
 * kernel table (family KERNEL_STREAM), chosen through kernel_choose like the
 * sweep's. This file maps arrays to kernel arguments and rows to sets. */
#ifndef MEMBENCH_STREAM_KERNELS_H
#define MEMBENCH_STREAM_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernels/kernel.h"

typedef struct {
    double *a, *b, *c;
    double scalar;
} stream_arrays;

typedef struct {
    const char *isa; /* a row of the ISA table */
    bool nontemporal;
    const kernel *k[STREAM_NFUNCS]; /* Copy, Scale, Add, Triad */
} stream_kernel_set;

/* Set for this CPU with the given store kind; NULL if none (NT in portable C). isa
 * forces one ISA; otherwise kernel_choose's rule, as in the sweep: beyond the last-
 * level cache AVX2 rather than AVX-512 (Triad with regular stores +25% from DRAM on
 * a Zen 4 guest; see BENCHMARKS.md). */
const stream_kernel_set *stream_kernels_select(bool nontemporal, const char *isa, bool beyond_last_level_cache);
/* All sets built in (for tests and listings), whether or not this CPU runs them. */
const stream_kernel_set *stream_kernel_sets(size_t *count);

/* Arguments of kernel f on elements [lo, hi) of the arrays (pointers already
 * offset to lo, bytes = (hi - lo) * 8). */
kernel_args stream_kernel_args(const stream_arrays *s, stream_func f, size_t lo, size_t hi);

extern const char *const stream_labels[STREAM_NFUNCS]; /* "Copy:      " ... as STREAM prints */

#endif
