/* SPDX-License-Identifier: MIT */
#include "measure/noise_probe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "measure/clock.h"
#include "util/stats.h"

/* 2^20 dependent 64-bit multiply-adds: about 1 ms on a 3-4 GHz core, long
 * enough for the clock's resolution, short enough to take often. */
#define PROBE_STEPS (1u << 20)

double noise_probe_run(void)
{
    volatile uint64_t seed = 1; /* the compiler cannot fold the chain */
    uint64_t x = seed;
    double t0 = clock_now();
    for (uint32_t i = 0; i < PROBE_STEPS; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    double t1 = clock_now();
    seed = x;
    return t1 - t0;
}

/* Linear interpolation between order statistics (the usual "type 7" quantile). */
static double quantile(const double *sorted, size_t n, double q)
{
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double f = pos - (double)i;
    return i + 1 < n ? sorted[i] + f * (sorted[i + 1] - sorted[i]) : sorted[n - 1];
}

noise_verdict noise_judge(const double *times_s, size_t n)
{
    noise_verdict v;
    memset(&v, 0, sizeof v);
    v.probes = n;
    if (n < NOISE_PROBE_MIN)
        return v;
    double *s = stats_sorted_copy(times_s, n);
    if (!s)
        return v;
    v.median_s = quantile(s, n, 0.5);
    if (v.median_s > 0) {
        v.known = true;
        v.varied_pct = 100 * (quantile(s, n, 0.9) - quantile(s, n, 0.1)) / (2 * v.median_s);
        v.meaningful_pct = 2 * v.varied_pct;
        v.flagged = v.varied_pct > NOISE_FLAG_PCT;
    }
    free(s);
    return v;
}
