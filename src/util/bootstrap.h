/* SPDX-License-Identifier: MIT */
/* Is B different from A beyond the noise? A bootstrap percentile interval of the
 * ratio of medians, median(B)/median(A): resample each side with replacement,
 * take the ratio of the resamples' medians, many times; the middle 95% of those
 * ratios is the interval. Medians, because a benchmark's samples have outliers
 * (an interrupt, a page fault) that would drag a mean; an interval of the ratio,
 * because it says how big the difference is, which a regression threshold needs
 * (a rank test only says whether there is one). The generator is splitmix64 with
 * a fixed seed, so the same samples always give the same answer. */
#ifndef MEMBENCH_BOOTSTRAP_H
#define MEMBENCH_BOOTSTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOOTSTRAP_RESAMPLES 4000
#define BOOTSTRAP_SEED 1
/* Fewer samples on a side than this and no interval is drawn: a bootstrap of one
 * or two values says nothing about their spread. */
#define BOOTSTRAP_MIN_SAMPLES 3

typedef struct {
    double ratio;    /* median(b) / median(a) */
    double low, high; /* the 95% interval of the ratio; both 0 when !told */
    bool told;       /* enough samples on both sides for an interval */
} ratio_interval;

/* Median of values[0..n) (n > 0); values is reordered. */
double median_inplace(double *values, size_t n);
/* a and b are not modified; na, nb > 0 and the values above 0. */
ratio_interval bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, uint64_t seed);

/* The same intervals, to the last bit, for many pairs of samples (compare judges
 * thousands of figures). Which index each draw picks depends only on the seed and
 * the two sample counts, so for counts up to BOOTSTRAP_KEPT_MAX the draws of each
 * (na, nb) are made once and kept, as how often each index was drawn in each
 * resample; an interval then costs a walk over its values in order per resample:
 * no generator, no sort, no allocation. Larger counts are drawn as before. */
#define BOOTSTRAP_KEPT_MAX 16
typedef struct bootstrap_cache bootstrap_cache;
bootstrap_cache *bootstrap_cache_new(uint64_t seed); /* NULL: out of memory */
void bootstrap_cache_free(bootstrap_cache *c);
/* told false (no interval) only with under BOOTSTRAP_MIN_SAMPLES a side, or out of memory. */
ratio_interval bootstrap_cached_ratio(bootstrap_cache *c, const double *a, size_t na, const double *b, size_t nb);

/* Several runs a side (membench compare A1 A2 A3 vs B1 B2 B3): a hierarchical
 * bootstrap. Each resample draws as many runs as the side has, with replacement,
 * then from each drawn run as many of its values (its time batches) as it has,
 * again with replacement, and takes the median of all values drawn; the ratio of
 * B's to A's is one resample's ratio. Runs of one build differ by more than their
 * own batches show on a noisy host (the host moves between runs), and drawing the
 * runs themselves puts that movement into the interval; with one run a side it
 * cannot, and the interval is the batches' alone. resample_runs false: every run
 * is taken once, only the batches are drawn (the runs pooled as if one). ratio is
 * median(all of B's values) / median(all of A's); told false with under
 * BOOTSTRAP_MIN_SAMPLES values on a side, or out of memory. */
typedef struct {
    const double *const *values; /* values[r][0..counts[r]): run r's batch medians */
    const size_t *counts;
    size_t runs;
} bootstrap_side;
ratio_interval bootstrap_runs_ratio(const bootstrap_side *a, const bootstrap_side *b, bool resample_runs,
                                    uint64_t seed);

#endif
