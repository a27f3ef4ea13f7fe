/* SPDX-License-Identifier: MIT */
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

struct bootstrap_cache {
    uint64_t seed;
    /* [na][nb]: BOOTSTRAP_RESAMPLES rows of na + nb counts, how often each index of
     * a, then of b, was drawn in that resample (A's draws first, as the generator ran) */
    unsigned char *kept[BOOTSTRAP_KEPT_MAX + 1][BOOTSTRAP_KEPT_MAX + 1];
    double ratios[BOOTSTRAP_RESAMPLES];
};

bootstrap_cache *bootstrap_cache_new(uint64_t seed)
{
    bootstrap_cache *c = calloc(1, sizeof *c);
    if (c)
        c->seed = seed;
    return c;
}

void bootstrap_cache_free(bootstrap_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i <= BOOTSTRAP_KEPT_MAX; i++)
        for (size_t j = 0; j <= BOOTSTRAP_KEPT_MAX; j++)
            free(c->kept[i][j]);
    free(c);
}

static const unsigned char *kept_draws(bootstrap_cache *c, size_t na, size_t nb)
{
    if (c->kept[na][nb])
        return c->kept[na][nb];
    unsigned char *rows = calloc(BOOTSTRAP_RESAMPLES, na + nb);
    if (!rows)
        return NULL;
    uint64_t state = c->seed;
    for (size_t i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
        unsigned char *row = rows + i * (na + nb);
        for (size_t k = 0; k < na; k++)
            row[draw(&state, na)]++;
        for (size_t k = 0; k < nb; k++)
            row[na + draw(&state, nb)]++;
    }
    return c->kept[na][nb] = rows;
}

/* order: the indices of v[0..n) by value (insertion sort; n is small). */
static void sort_order(const double *v, size_t n, unsigned char *order)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0 && v[order[j - 1]] > v[i]; j--)
            order[j] = order[j - 1];
        order[j] = (unsigned char)i;
    }
}

/* The median of the resample that drew index i count[i] times: the same order
 * statistics, hence the same value, as median_inplace of the drawn values. */
static double counted_median(const double *v, const unsigned char *order, const unsigned char *count, size_t n)
{
    size_t k = n / 2, cum = 0, j = 0;
    if (n % 2) {
        while ((cum += count[order[j]]) <= k)
            j++;
        return v[order[j]];
    }
    while ((cum += count[order[j]]) <= k - 1)
        j++;
    double lower = v[order[j]];
    while (cum <= k)
        cum += count[order[++j]];
    return (lower + v[order[j]]) / 2;
}

/* The 2.5th and 97.5th percentiles of the ratios: with 4000, the 101st and the
 * 3900th smallest (what sorting them and taking [100] and [3899] gives). */
static void percentiles(double *ratios, ratio_interval *r)
{
    r->low = select_kth(ratios, BOOTSTRAP_RESAMPLES, BOOTSTRAP_RESAMPLES / 40);
    r->high = select_kth(ratios, BOOTSTRAP_RESAMPLES, BOOTSTRAP_RESAMPLES - 1 - BOOTSTRAP_RESAMPLES / 40);
    r->told = true;
}

static bool ratios_kept(bootstrap_cache *c, const double *a, size_t na, const double *b, size_t nb)
{
    const unsigned char *rows = kept_draws(c, na, nb);
    if (!rows)
        return false;
    unsigned char oa[BOOTSTRAP_KEPT_MAX], ob[BOOTSTRAP_KEPT_MAX];
    sort_order(a, na, oa);
    sort_order(b, nb, ob);
    for (size_t i = 0; i < BOOTSTRAP_RESAMPLES; i++, rows += na + nb) {
        double ra = counted_median(a, oa, rows, na);
        c->ratios[i] = counted_median(b, ob, rows + na, nb) / ra;
    }
    return true;
}

static bool ratios_drawn(bootstrap_cache *c, const double *a, size_t na, const double *b, size_t nb)
{
    double *scratch = malloc((na > nb ? na : nb) * sizeof *scratch);
    if (!scratch)
        return false;
    uint64_t state = c->seed;
    for (size_t i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
        double ra = resampled_median(a, na, scratch, &state);
        c->ratios[i] = resampled_median(b, nb, scratch, &state) / ra;
    }
    free(scratch);
    return true;
}

static double median_of_copy(const double *v, size_t n, double *scratch)
{
    memcpy(scratch, v, n * sizeof *v);
    return median_inplace(scratch, n);
}

ratio_interval bootstrap_cached_ratio(bootstrap_cache *c, const double *a, size_t na, const double *b, size_t nb)
{
    ratio_interval r = {0, 0, 0, false};
    size_t n = na > nb ? na : nb;
    double small[BOOTSTRAP_KEPT_MAX], *scratch = n <= BOOTSTRAP_KEPT_MAX ? small : malloc(n * sizeof *scratch);
    if (!scratch)
        return r;
    r.ratio = median_of_copy(b, nb, scratch) / median_of_copy(a, na, scratch);
    if (scratch != small)
        free(scratch);
    if (na < BOOTSTRAP_MIN_SAMPLES || nb < BOOTSTRAP_MIN_SAMPLES)
        return r;
    bool kept = na <= BOOTSTRAP_KEPT_MAX && nb <= BOOTSTRAP_KEPT_MAX;
    if (kept ? ratios_kept(c, a, na, b, nb) : ratios_drawn(c, a, na, b, nb))
        percentiles(c->ratios, &r);
    return r;
}

ratio_interval bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb, uint64_t seed)
{
    bootstrap_cache *c = bootstrap_cache_new(seed);
    ratio_interval r = c ? bootstrap_cached_ratio(c, a, na, b, nb) : (ratio_interval){0, 0, 0, false};
    bootstrap_cache_free(c);
    return r;
}

static size_t side_total(const bootstrap_side *s, size_t *most)
{
    size_t total = 0;
    *most = 0;
    for (size_t r = 0; r < s->runs; r++) {
        total += s->counts[r];
        if (s->counts[r] > *most)
            *most = s->counts[r];
    }
    return total;
}

/* One resample's median of a side: its runs drawn (or each taken once), then each
 * drawn run's values. scratch holds runs x the most values of a run. */
static double resampled_side(const bootstrap_side *s, bool resample_runs, double *scratch, uint64_t *state)
{
    size_t m = 0;
    for (size_t k = 0; k < s->runs; k++) {
        size_t r = resample_runs ? draw(state, s->runs) : k;
        for (size_t j = 0; j < s->counts[r]; j++)
            scratch[m++] = s->values[r][draw(state, s->counts[r])];
    }
    return median_inplace(scratch, m);
}

static double pooled_median(const bootstrap_side *s, double *scratch)
{
    size_t m = 0;
    for (size_t r = 0; r < s->runs; r++)
        for (size_t j = 0; j < s->counts[r]; j++)
            scratch[m++] = s->values[r][j];
    return median_inplace(scratch, m);
}

ratio_interval bootstrap_runs_ratio(const bootstrap_side *a, const bootstrap_side *b, bool resample_runs,
                                    uint64_t seed)
{
    ratio_interval r = {0, 0, 0, false};
    size_t most_a, most_b, ta = side_total(a, &most_a), tb = side_total(b, &most_b);
    if (!ta || !tb)
        return r;
    size_t need_a = a->runs * most_a, need_b = b->runs * most_b;
    double *scratch = malloc((need_a > need_b ? need_a : need_b) * sizeof *scratch);
    double *ratios = malloc(BOOTSTRAP_RESAMPLES * sizeof *ratios);
    if (scratch && ratios) {
        r.ratio = pooled_median(b, scratch) / pooled_median(a, scratch);
        if (ta >= BOOTSTRAP_MIN_SAMPLES && tb >= BOOTSTRAP_MIN_SAMPLES) {
            uint64_t state = seed;
            for (size_t i = 0; i < BOOTSTRAP_RESAMPLES; i++) {
                double ra = resampled_side(a, resample_runs, scratch, &state);
                ratios[i] = resampled_side(b, resample_runs, scratch, &state) / ra;
            }
            percentiles(ratios, &r);
        }
    }
    free(scratch);
    free(ratios);
    return r;
}
