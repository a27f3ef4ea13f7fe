#include "util/bootstrap.h"

#include <stdlib.h>
#include <string.h>

#include "util/splitmix64.h"

static void swap(double *x, double *y)
{
    double t = *x;
    *x = *y;
    *y = t;
}

/* The k-th smallest of v[0..n) (quickselect, three-way so that the many repeated
 * values of a resample cost no more than distinct ones). */
static double select_kth(double *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        double pivot = v[lo + (hi - lo) / 2];
        size_t lt = lo, i = lo, gt = hi; /* [lo,lt) < pivot, [lt,i) == pivot, [gt,hi) > pivot */
        while (i < gt) {
            if (v[i] < pivot)
                swap(&v[lt++], &v[i++]);
            else if (v[i] > pivot)
                swap(&v[i], &v[--gt]);
            else
                i++;
        }
        if (k < lt)
            hi = lt;
        else if (k >= gt)
            lo = gt;
        else
            return pivot;
    }
    return v[k];
}

double median_inplace(double *values, size_t n)
{
    double upper = select_kth(values, n, n / 2);
    if (n % 2)
        return upper;
    double lower = select_kth(values, n, n / 2 - 1);
    return (lower + upper) / 2;
}

/* A uniform index below n (the modulo bias of a 64-bit draw is negligible here). */
static size_t draw(uint64_t *state, size_t n)
{
    return (size_t)(splitmix64_next(state) % n);
}

static double resampled_median(const double *v, size_t n, double *scratch, uint64_t *state)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = v[draw(state, n)];
    return median_inplace(scratch, n);
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

ratio_interval bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, uint64_t seed)
{
    ratio_interval r = {0, 0, 0, false};
    size_t n = na > nb ? na : nb;
    double *scratch = malloc((n + BOOTSTRAP_RESAMPLES) * sizeof *scratch);
    if (!scratch)
        return r;
    double *ratios = scratch + n;
    memcpy(scratch, a, na * sizeof *a);
    double ma = median_inplace(scratch, na);
    memcpy(scratch, b, nb * sizeof *b);
    r.ratio = median_inplace(scratch, nb) / ma;
    if (na >= BOOTSTRAP_MIN_SAMPLES && nb >= BOOTSTRAP_MIN_SAMPLES) {
        uint64_t state = seed;
        for (size_t i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
            double ra = resampled_median(a, na, scratch, &state);
            ratios[i] = resampled_median(b, nb, scratch, &state) / ra;
        }
        qsort(ratios, BOOTSTRAP_RESAMPLES, sizeof *ratios, by_value);
        /* The 2.5th and 97.5th percentiles: with 4000 ratios, the 100th and the 3901st. */
        r.low = ratios[BOOTSTRAP_RESAMPLES / 40];
        r.high = ratios[BOOTSTRAP_RESAMPLES - 1 - BOOTSTRAP_RESAMPLES / 40];
        r.told = true;
    }
    free(scratch);
    return r;
}
