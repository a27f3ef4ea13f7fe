/* SPDX-License-Identifier: MIT */
/* Measuring in rounds, for every mode that does (the sweep, membench latency):
 * each round visits once, in plan order, every point that still wants samples
 * (plan/round_schedule decides which), with the session's step hook before each
 * visit; a point's record goes out when it wants no more, and a stop (signal, -t,
 * an error) sends out every point with the samples it has. --max-time is checked
 * before each round; --target-ci is the schedule's. The mode says what a point is
 * through the callbacks. Each visit is framed by two readings of the host's load
 * (measure/host_load), summed per point. */
#ifndef MEMBENCH_ROUND_LOOP_H
#define MEMBENCH_ROUND_LOOP_H

#include <stdbool.h>
#include <stddef.h>

#include "measure/host_load.h"
#include "modes/session.h"
#include "plan/round_schedule.h"

typedef struct {
    void *ctx;         /* the mode's state, passed to every callback */
    size_t n;          /* points, in plan order */
    double target;     /* --target-ci as a fraction; 0: none */
    double max_time_s; /* --max-time; 0: none */
    int planned_rounds; /* -r, --rounds: for the progress line (modes/round_progress) */
    int max_rounds;     /* at most this many rounds (a CV rule may add some); 0: no bound */
    /* The point's schedule as its samples stand (kept up to date by visit). A
     * point that failed (no figure to report) has samples 0. */
    const round_point *(*schedule)(void *ctx, size_t i);
    /* One visit in round `round` (from 1); false when the run must stop. */
    bool (*visit)(session *s, void *ctx, size_t i, int round);
    /* The point is done, or the run stopped: once per point, in the order the
     * points finish (all left over in plan order at the end). */
    void (*finish)(session *s, void *ctx, size_t i);
    /* The point's name in messages: "64 KB read", "64 KiB". */
    void (*name)(void *ctx, size_t i, char *buf, size_t len);
    /* Where the host's load over the point's visits is summed (zeroed by the mode):
     * its record carries that, not the interval since the record before it, which
     * for a point that finished after the points behind it is almost nothing. */
    host_load_span *(*load)(void *ctx, size_t i);
} round_loop;

typedef struct {
    int rounds;       /* rounds run (begun) */
    bool out_of_time; /* --max-time ended rounds that were still wanted */
    bool over_budget; /* the time budget refused a round past the planned ones */
    bool stopped;     /* a signal, -t or a failure ended the run */
} round_loop_result;

/* Runs the rounds from start (clock_now()); sets the plan's "rounds". */
round_loop_result round_loop_run(session *s, const round_loop *l, double start);

/* The same under a time budget (round_budget_allows): a round that owes no point
 * samples (past the planned ones, no restarted point's retakes) starts only when
 * its points' last visits, summed, end within budget_s of start. */
round_loop_result round_loop_run_budget(session *s, const round_loop *l, double start, double budget_s);

/* After the rounds: with --max-time, one warning when points have fewer samples
 * than they needed (`asked`: "-r 3"); with --target-ci (pct > 0), the plan's
 * target_ci_figures, target_ci_met_figures, target_ci_missed and one warning
 * naming the figures that missed. */
void round_loop_report(session *s, const round_loop *l, const round_loop_result *res, const char *asked,
                       double target_ci_pct);

#endif
