/* STREAM's four kernels over double arrays, on one thread's index range:
 *   Copy  c = a          16 bytes per element counted
 *   Scale b = s * c      16
 *   Add   c = a + b      24
 *   Triad a = b + s * c  24
 * with regular or non-temporal stores, per ISA like the bandwidth kernels. The
 * range [lo, hi) may start anywhere; vector kernels handle unaligned ends with
 * scalar code so threads can split arrays at any element. */
#ifndef MEMBENCH_STREAM_KERNELS_H
#define MEMBENCH_STREAM_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { STREAM_COPY, STREAM_SCALE, STREAM_ADD, STREAM_TRIAD, STREAM_NFUNCS } stream_func;

typedef struct {
    double *a, *b, *c;
    double scalar;
} stream_arrays;

typedef void (*stream_fn)(const stream_arrays *s, size_t lo, size_t hi);

typedef struct {
    const char *isa;   /* "avx512", "avx2", "neon", "c" */
    bool nontemporal;
    stream_fn fn[STREAM_NFUNCS];
} stream_kernel_set;

/* Best set for this CPU with the given store kind; NULL if none (NT on portable C).
 * isa forces one ISA. Otherwise arrays that do not fit in the last-level cache get
 * AVX2 rather than AVX-512, as in the sweep: measured faster from DRAM (Triad with
 * regular stores +25% on a Zen 4 guest; see BENCHMARKS.md). */
const stream_kernel_set *stream_kernels_select(bool nontemporal, const char *isa, bool beyond_last_level_cache);
/* All sets built in (for tests). */
const stream_kernel_set *stream_kernel_sets(size_t *count);

extern const char *const stream_labels[STREAM_NFUNCS]; /* "Copy:      " ... as STREAM prints */
extern const int stream_bytes_per_element[STREAM_NFUNCS];

#endif
