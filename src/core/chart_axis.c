/* SPDX-License-Identifier: MIT */
#include "core/chart_axis.h"

#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/stats.h"

/* The smallest 1, 2 or 5 times a power of ten at or above x (x > 0). */
static double nice_step(double x)
{
    double p = pow(10, floor(log10(x)));
    static const double m[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (m[i] * p >= x * (1 - 1e-12))
            return m[i] * p;
    return 10 * p;
}

chart_axis chart_axis_fit(double min, double max, bool log_axis, double px_lo, double px_hi)
{
    chart_axis a = {.log2 = log_axis, .px_lo = px_lo, .px_hi = px_hi};
    if (log_axis) {
        if (!(min > 0) || !isfinite(min))
            min = max;
        if (!(max > 0) || !isfinite(max))
            min = max = 1;
        a.lo = exp2(floor(log2(min)));
        a.hi = exp2(ceil(log2(max)));
        if (a.hi <= a.lo) { /* one size: an octave either side */
            a.lo /= 2;
            a.hi *= 2;
        }
        return a;
    }
    if (!isfinite(max) || max <= 0)
        max = 1;
    a.step = nice_step(max / 5);
    a.lo = 0;
    a.hi = a.step * ceil(max / a.step - 1e-9);
    if (a.hi < max) /* rounding */
        a.hi += a.step;
    return a;
}

double chart_axis_px(const chart_axis *a, double v)
{
    double f;
    if (a->log2)
        f = v > 0 ? (log2(v) - log2(a->lo)) / (log2(a->hi) - log2(a->lo)) : 0;
    else
        f = (v - a->lo) / (a->hi - a->lo);
    if (!(f > 0))
        f = 0;
    if (f > 1)
        f = 1;
    return a->px_lo + f * (a->px_hi - a->px_lo);
}

size_t chart_axis_ticks(const chart_axis *a, double *out, size_t cap)
{
    size_t n = 0;
    if (a->log2) {
        int first = (int)lround(log2(a->lo)), last = (int)lround(log2(a->hi));
        int every = 1;
        while ((last - first) / every + 1 > (int)cap)
            every *= 2;
        for (int e = first; e <= last && n < cap; e += every)
            out[n++] = exp2(e);
        return n;
    }
    long steps = lround((a->hi - a->lo) / a->step);
    long every = 1;
    while (steps / every + 1 > (long)cap)
        every++;
    for (long i = 0; i <= steps && n < cap; i += every)
        out[n++] = a->lo + (double)i * a->step;
    return n;
}

const char *chart_tick_label(double v, bool bytes, char *buf, size_t len)
{
    if (bytes) {
        static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        size_t u = 0;
        while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
            v /= 1024;
            u++;
        }
        snprintf(buf, len, "%g %s", v, units[u]);
    } else {
        snprintf(buf, len, "%.10g", v);
    }
    return buf;
}

chart_whisker chart_whisker_of(const double *samples, size_t n)
{
    chart_whisker w = {NAN, NAN};
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || samples[i] < w.low)
            w.low = samples[i];
        if (i == 0 || samples[i] > w.high)
            w.high = samples[i];
    }
    return w;
}

chart_whisker chart_whisker_median_ci(const double *samples, size_t n)
{
    chart_whisker w = {NAN, NAN};
    if (n == 0)
        return w;
    sample_stats st = stats_compute(samples, n); /* the JSON's summary.median_interval */
    if (st.n != n)
        return w; /* out of memory */
    if (n == 1)
        return (chart_whisker){samples[0], samples[0]};
    return (chart_whisker){st.median_low, st.median_high};
}

double chart_shade(double v, double min, double max)
{
    if (!(max > min))
        return 0.5;
    double f = (v - min) / (max - min);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}
