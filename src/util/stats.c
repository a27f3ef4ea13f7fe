#include "util/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sample_stats stats_compute(const double *values, size_t n)
{
    sample_stats s;
    memset(&s, 0, sizeof s);
    if (n == 0)
        return s;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_double);
    s.n = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += sorted[i];
    s.mean = sum / (double)n;
    if (n > 1) {
        double sq = 0;
        for (size_t i = 0; i < n; i++)
            sq += (sorted[i] - s.mean) * (sorted[i] - s.mean);
        s.stddev = sqrt(sq / (double)(n - 1));
    }
    s.cv = s.mean != 0 ? s.stddev / s.mean : 0;
    free(sorted);
    return s;
}
