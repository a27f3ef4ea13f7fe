/* SPDX-License-Identifier: MIT */
/* What a loaded-latency curve must look like before its conclusions are stated.
 * As the injection delay grows the traffic thins: bandwidth falls, latency does
 * not rise, and at the largest delay latency is back at idle. Points that break
 * this (a host phase, a neighbour) are flagged, not smoothed; the knee is stated
 * only where the latency beyond it rises clear of the intervals. Each point's
 * latency carries its median interval (summary.median_low/high). */
#ifndef MEMBENCH_LOADED_CURVE_H
#define MEMBENCH_LOADED_CURVE_H

#include <stdbool.h>

typedef struct {
    double delay;
    double bandwidth_mb_s;
    double latency_ns, latency_low, latency_high; /* median and its interval */
} loaded_point;

/* Bandwidth a larger delay may gain over the smaller one before it is flagged: a
 * window's bandwidth has no interval, and windows on a quiet host agree within a
 * few percent. */
#define LOADED_BANDWIDTH_SLACK 0.10

/* How far from idle's median a loaded median may be and still count as idle. */
#define LOADED_IDLE_TOLERANCE 0.10

/* The largest delay's latency is back at idle: its median within
 * LOADED_IDLE_TOLERANCE of idle's median, and its interval meets idle's (two wide
 * intervals that overlap are not enough: +29% passed that way). */
bool loaded_back_to_idle(const loaded_point *largest, double idle_ns, double idle_low, double idle_high);

/* A loaded point below idle: its median more than LOADED_IDLE_TOLERANCE under
 * idle's. Traffic cannot make a chase faster, so the idle figure or this one
 * caught another phase of the host: said, never smoothed. */
bool loaded_below_idle(const loaded_point *p, double idle_ns);

/* points[0..n) in increasing delay. flags[i] (each point after the first): 1 its
 * bandwidth rose over the point before by more than LOADED_BANDWIDTH_SLACK, 2 its
 * latency interval lies wholly above the one before's, 3 both, 0 neither. Returns
 * how many points are flagged. */
int loaded_out_of_order(const loaded_point *points, int n, int *flags);

/* The knee (curve_knee's index) is significant when some point of higher
 * bandwidth has a latency interval wholly above the knee's, and that interval
 * also lies above idle's: the curve really bends there. */
bool loaded_knee_significant(const loaded_point *points, int n, int knee, double idle_high);

#endif
