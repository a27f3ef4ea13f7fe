/* Statistics over samples: best, median, mean, sample standard deviation, CV. */
#ifndef MEMBENCH_UTIL_STATS_H
#define MEMBENCH_UTIL_STATS_H

#include <stddef.h>

typedef struct {
    size_t n;
    double min, max, median, mean;
    double stddev; /* sample (n-1) standard deviation; 0 when n < 2 */
    double cv;     /* stddev / mean; 0 when mean is 0 */
} sample_stats;

/* Does not modify values. n may be 0 (all fields 0). */
sample_stats stats_compute(const double *values, size_t n);

#endif
