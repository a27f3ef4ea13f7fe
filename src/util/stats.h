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
} sample_stats;

#define STATS_MEDIAN_LEVEL 0.95

/* Coverage of [x(j), x(n+1-j)] as an interval of the median (1 <= j <= n/2). */
double stats_median_coverage(size_t n, size_t j);

/* A sorted copy of values (ascending), to free; NULL when n is 0 or memory runs out. */
double *stats_sorted_copy(const double *values, size_t n);

/* Does not modify values. n may be 0 (all fields 0). */
sample_stats stats_compute(const double *values, size_t n);

#endif
