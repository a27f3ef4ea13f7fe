/* SPDX-License-Identifier: MIT */
/* The order in which the sweep visits its points. A noisy host has slow phases of
 * seconds; taking each point's samples back to back lets one phase wreck a few
 * points and spare the rest. So the sweep measures in rounds: every point that
 * still wants samples is visited once per round, in plan order, and each visit
 * adds samples. A point wants another visit while it has fewer samples than it
 * needs (-r), or its own rule asks for more (latency's CV), or a target interval
 * (--target-ci) is set and its median interval is wider. Pure: no clock, no I/O. */
#ifndef MEMBENCH_ROUND_SCHEDULE_H
#define MEMBENCH_ROUND_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/stats.h"

/* Buffers and chains kept between rounds: at most this many bytes of each kind
 * in all (or an eighth of the memory budget, if less); the rest are allocated
 * again at every visit. */
#define ROUND_KEEP_LIMIT (128ULL << 20)
/* --target-ci counts an interval only at this coverage: [min, max] of 3 batch medians
 * (75%) can be narrow by luck, and a target met with it would stop the run early. */
#define ROUND_TARGET_LEVEL 0.95

typedef struct {
    int samples;       /* samples the point has now */
    int needed;        /* samples it must have (-r; latency: its minimum) */
    int cap;           /* never more samples than this (0: no cap) */
    bool more;         /* its own rule wants more (latency: CV above target) */
    bool finished;     /* nothing more to do: failed, skipped, or already emitted */
    double half_width; /* median interval's larger side / median; < 0 when there is no interval */
    double level;      /* that interval's coverage (0.75 for 3 batches); 0 when there is none */
} round_point;

/* Whether the point wants another visit. target: --target-ci as a fraction, 0 = none. */
bool round_point_wants(const round_point *p, double target);

/* Whether the point's interval is within target and covers ROUND_TARGET_LEVEL (never
 * with fewer than 2 samples, nor with fewer than 6 batches: 5 give 93.75%). */
bool round_point_within(const round_point *p, double target);

/* The points to visit next round, in plan order: their indices go to visit (room
 * for n). Returns how many; 0 when the sweep is done. */
size_t round_next(const round_point *points, size_t n, double target, size_t *visit);

/* Whether the next round may start under a time budget of budget_s seconds of
 * measuring. A round that owes some point samples (one of the -r planned rounds,
 * or a restarted point's retakes: samples below needed) always does, so -r keeps
 * its meaning; a round only a point's own rule wants (latency's CV) only when
 * elapsed_s, the time since the rounds began, plus estimate_s, what the round
 * would take (its points' last visits), stays within the budget. budget_s <= 0:
 * no budget. */
bool round_budget_allows(bool owed, double elapsed_s, double estimate_s, double budget_s);

/* Pacing planned rounds under a time budget (membench latency): a point's last
 * visit, from its start to the next visit's, split into a part whose length follows
 * the sample's (its chases: warm-up and samples), as seconds per second of sample
 * length, and a rest taken as fixed; what no later visit repeats (first linking and
 * calibration) left out. gone: the point is visited no more (done, or failed). */
typedef struct {
    double fixed_s;
    double units;
    bool gone;
} round_pace_cost;

/* The cost of a visit that took cycle_s until the next began: chased_s of it in
 * chases with samples of sample_s, once_s in what no later visit repeats. */
round_pace_cost round_pace_cost_of(double cycle_s, double chased_s, double once_s, double sample_s);

/* The visits left, summed into *fixed_s and *units: points from..n-1 once more in
 * this round, and every point later_rounds times more; gone points not at all (a
 * negative fixed part counts as none). */
void round_pace_left(const round_pace_cost *points, size_t n, size_t from, int later_rounds, double *fixed_s,
                     double *units);

/* The sample length for the visits left: the longest with which fixed_s plus units
 * times the length ends within left_s, but never above max_s (the plan's) nor below
 * min_s; max_s while nothing is known of the visits (units <= 0). */
double round_pace_length(double left_s, double fixed_s, double units, double min_s, double max_s);

/* Whether round `next` (from 1) owes samples: one of the `planned` rounds, or one
 * visiting a point (visit: n indices into points) below its needed samples. */
bool round_owes_samples(int next, int planned, const round_point *points, const size_t *visit, size_t n);

/* What may be kept between rounds: ROUND_KEEP_LIMIT, or budget / 8 if less. */
uint64_t round_keep_limit(uint64_t budget);

/* The median interval's larger side as a fraction of the median (round_point's
 * half_width); -1 when there is no interval. */
double round_half_width(const sample_stats *s);

/* The point's samples and interval (half_width, level) from its statistics; stats
 * NULL: none yet (a failed point, or one without a record). */
void round_point_take_samples(round_point *p, int samples, const sample_stats *stats);

/* Latency samples per visit when a point's minimum is spread over `rounds`
 * visits: ceil(min_samples / rounds), at least 1. */
int round_samples_per_visit(int min_samples, int rounds);

/* Samples a visit takes when the point has `have`: per, or what is left under the
 * point's cap when that is less (cap 0: no cap), at least 1. */
int round_visit_samples(int per, int have, int cap);

#endif
