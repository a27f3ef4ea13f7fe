/* SPDX-License-Identifier: MIT */
/* Statistics over samples: best, median, mean, sample standard deviation, CV,
 * and a distribution-free interval of the median. */
#ifndef MEMBENCH_UTIL_STATS_H
#define MEMBENCH_UTIL_STATS_H

#include <stddef.h>

typedef struct {
    size_t n;
    double min, max, median, mean;
    double stddev; /* sample (n-1) standard deviation; 0 when n < 2 */
    double cv;     /* stddev / mean; 0 when mean is 0 */
    /* Interval of the population median from order statistics: [x(j), x(n+1-j)]
     * of the sorted samples covers it with probability 1 - 2 P(Bin(n, 1/2) < j),
     * whatever the distribution (samples independent). j is the largest giving
     * at least 95%; with n <= 5 none does, and [min, max] is given with its
     * smaller coverage in median_level. n < 2: no interval (level 0). */
    double median_low, median_high, median_level;
    /* 0: the interval above treats every sample as independent. k > 0: it was
     * taken over the medians of k batches of samples (stats_batch_interval). */
    size_t median_batches;
    /* Two levels: the samples, sorted, jump by STATS_LEVEL_JUMP or more between
     * two neighbours with 2 or more samples on each side (split at the largest
     * such jump): the point moved between cache levels or host phases during the
     * run, and its median is neither level. low_level_n 0: one level (the rest 0). */
    size_t low_level_n, high_level_n;
    double low_level_median, high_level_median;
    double level_jump; /* the jump: the upper neighbour over the lower */
} sample_stats;

#define STATS_MEDIAN_LEVEL 0.95

/* Two levels are told from noise by a jump of half or more between neighbouring
 * samples: cache levels differ by 2x and more in latency, and a host's slow
 * phase moves samples gradually (BENCHMARKS "Calibration", the Zen 4 guest: of
 * 3,200 records no bandwidth one split at 1.5, and the 51 latency ones that did
 * had their samples in two cache levels). */
#define STATS_LEVEL_JUMP 1.5

/* Coverage of [x(j), x(n+1-j)] as an interval of the median (1 <= j <= n/2). */
double stats_median_coverage(size_t n, size_t j);

/* Most batches stats_time_batches makes: 10 batch medians give a 97.9% interval
 * (the 2nd to the 9th), and batches stay long enough to hold a host's slow phase. */
#define STATS_MAX_BATCHES 10

/* Cuts n samples, in the order they were taken, into at most max batches of
 * consecutive samples: at the changes of round when rounds (one per sample, or
 * NULL) are given, consecutive rounds merged evenly when there are more than max;
 * else (no rounds, or all from one) near-equal runs of samples (one a batch when
 * n <= max). batch_end[i] is
 * one past the last sample of batch i (room for max). Returns the number of
 * batches (0 when n is 0). */
size_t stats_time_batches(size_t n, const int *rounds, size_t max, size_t *batch_end);

/* Replaces s's median interval by one that does not need independent samples.
 * A noisy host's slow phases last seconds, so samples taken back to back move
 * together and an interval over them claims far more than it holds (BENCHMARKS:
 * "Calibration"). So the samples (in the order taken) are cut into k batches,
 * each batch's median taken, and the order-statistics interval above is taken
 * over the k batch medians, with its level for k: the batch medians are
 * independent when a batch outlasts the host's phases, and each is as likely
 * above the median as below it. k < 2: no interval. The median itself and the
 * other fields stay those of all the samples. */
void stats_batch_interval(const double *values, const size_t *batch_end, size_t k, sample_stats *s);

/* A sorted copy of values (ascending), to free; NULL when n is 0 or memory runs out. */
double *stats_sorted_copy(const double *values, size_t n);

/* Does not modify values. n may be 0 (all fields 0). */
sample_stats stats_compute(const double *values, size_t n);

#endif
