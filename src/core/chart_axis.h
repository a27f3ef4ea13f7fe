/* SPDX-License-Identifier: MIT */
/* Chart geometry, apart from any drawing: an axis maps data values to pixels
 * (linear from 0, or log2 for buffer sizes), picks its ticks, and a whisker is
 * the spread of a point's raw samples. The report (output/report_html.c) and
 * --svg draw with these; the unit tests check them without a browser. */
#ifndef MEMBENCH_CHART_AXIS_H
#define MEMBENCH_CHART_AXIS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double lo, hi;       /* data range shown, lo < hi */
    bool log2;           /* lo and hi powers of two, distances in octaves */
    double step;         /* linear: the tick step (a 1-2-5 number) */
    double px_lo, px_hi; /* where lo and hi are drawn (y axes: px_lo below px_hi) */
} chart_axis;

/* An axis holding every value of [min, max]. log2: out to the powers of two
 * around them, one octave either side of a single size. Linear: from 0 (rates and
 * times are read against zero) to the first tick step at or above max; a single
 * value, or all zeros, still gets a range. Non-finite or non-positive input on a
 * log axis is ignored in favour of a range around 1. */
chart_axis chart_axis_fit(double min, double max, bool log_axis, double px_lo, double px_hi);
/* The pixel of v; values outside the range are clamped to its ends. */
double chart_axis_px(const chart_axis *a, double v);
/* The tick values, ascending, at most cap of them (cap >= 2): log2 every power of
 * two (every 2nd, 4th... when there are too many), linear every step. */
size_t chart_axis_ticks(const chart_axis *a, double *out, size_t cap);
/* A tick label: with bytes "512 B", "4 KiB", "1 MiB", "1 GiB", else a number
 * without needless digits ("0", "2.5", "20000"). */
const char *chart_tick_label(double v, bool bytes, char *buf, size_t len);

/* The uncertainty drawn at a point: the smallest and largest raw sample. */
typedef struct {
    double low, high;
} chart_whisker;
chart_whisker chart_whisker_of(const double *samples, size_t n);
/* For a median: a distribution-free 95% confidence interval of the median from
 * the order statistics, [x(j), x(n+1-j)] with the largest j for which
 * P(Binomial(n, 1/2) < j) <= 2.5%; with under 6 samples that is the smallest to
 * the largest. NaN when n is 0 or memory runs out. */
chart_whisker chart_whisker_median_ci(const double *samples, size_t n);

/* Where v lies between min and max, in [0, 1] (0.5 when they are equal): a
 * heatmap cell's shade. */
double chart_shade(double v, double min, double max);

#endif
