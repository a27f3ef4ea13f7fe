/* SPDX-License-Identifier: MIT */
#include "util/stats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* P(Bin(n, 1/2) = k), in logs so n in the thousands does not underflow. */
static double half_binomial(size_t n, size_t k)
{
    return exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) - (double)n * log(2.0));
}

double stats_median_coverage(size_t n, size_t j)
{
    double below = 0; /* P(B < j) */
    for (size_t k = 0; k < j; k++)
        below += half_binomial(n, k);
    double c = 1 - 2 * below;
    return c < 0 ? 0 : c;
}

static void median_interval(const double *sorted, size_t n, sample_stats *s)
{
    if (n < 2)
        return;
    size_t j = 1;
    double below = half_binomial(n, 0);
    while (j + 1 <= n / 2) {
        double next = below + half_binomial(n, j); /* P(B < j + 1) */
        if (1 - 2 * next < STATS_MEDIAN_LEVEL)
            break;
        below = next;
        j++;
    }
    s->median_low = sorted[j - 1];
    s->median_high = sorted[n - j];
    s->median_level = 1 - 2 * below;
}

/* The median of sorted[0..n) (n >= 1). */
static double sorted_median(const double *sorted, size_t n)
{
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

static void two_levels(const double *sorted, size_t n, sample_stats *s)
{
    size_t at = 0; /* the first sample above the largest jump; 0: none */
    double jump = 0;
    for (size_t i = 2; i + 2 <= n; i++) { /* 2 or more on each side: one outlier is not a level */
        if (!(sorted[i - 1] > 0))
            continue; /* a ratio needs a positive base */
        double r = sorted[i] / sorted[i - 1];
        if (r > jump) {
            jump = r;
            at = i;
        }
    }
    if (at == 0 || jump < STATS_LEVEL_JUMP)
        return;
    s->low_level_n = at;
    s->high_level_n = n - at;
    s->low_level_median = sorted_median(sorted, at);
    s->high_level_median = sorted_median(sorted + at, n - at);
    s->level_jump = jump;
}

double *stats_sorted_copy(const double *values, size_t n)
{
    double *sorted = n ? malloc(n * sizeof *sorted) : NULL;
    if (!sorted)
        return NULL;
    memcpy(sorted, values, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, compare_double);
    return sorted;
}

sample_stats stats_compute(const double *values, size_t n)
{
    sample_stats s;
    memset(&s, 0, sizeof s);
    double *sorted = stats_sorted_copy(values, n);
    if (!sorted)
        return s;
    s.n = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = sorted_median(sorted, n);
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
    median_interval(sorted, n, &s);
    two_levels(sorted, n, &s);
    free(sorted);
    return s;
}

size_t stats_time_batches(size_t n, const int *rounds, size_t max, size_t *batch_end)
{
    if (n == 0 || max == 0)
        return 0;
    size_t groups = 1;
    for (size_t i = 1; rounds && i < n; i++)
        groups += rounds[i] != rounds[i - 1];
    if (groups == 1)
        rounds = NULL; /* one round (or none known): runs of consecutive samples */
    if (!rounds)
        groups = n; /* every sample its own group */
    size_t k = groups < max ? groups : max;
    /* Group g goes to batch g * k / groups: consecutive groups, merged evenly. */
    size_t g = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (rounds ? rounds[i] != rounds[i - 1] : true))
            g++;
        size_t want = g * k / groups;
        if (want != b)
            batch_end[b++] = i;
    }
    batch_end[b++] = n;
    return b;
}

void stats_batch_interval(const double *values, const size_t *batch_end, size_t k, sample_stats *s)
{
    s->median_low = s->median_high = s->median_level = 0;
    s->median_batches = k;
    double *medians = k ? malloc(k * sizeof *medians) : NULL;
    if (!medians)
        return;
    size_t start = 0;
    for (size_t b = 0; b < k; b++) {
        sample_stats one = stats_compute(values + start, batch_end[b] - start);
        medians[b] = one.median;
        start = batch_end[b];
    }
    double *sorted = stats_sorted_copy(medians, k);
    sample_stats over = {0};
    if (sorted)
        median_interval(sorted, k, &over);
    s->median_low = over.median_low;
    s->median_high = over.median_high;
    s->median_level = over.median_level;
    free(sorted);
    free(medians);
}
