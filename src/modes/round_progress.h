/* SPDX-License-Identifier: MIT */
/* The rounds' progress line (modes/round_loop): which round of how many, and
 * when the run should end. Pure: the loop gives the clock's readings. */
#ifndef MEMBENCH_ROUND_PROGRESS_H
#define MEMBENCH_ROUND_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    int round;          /* the round under way, from 1 */
    int planned;        /* rounds the plan asks for (-r, --rounds) */
    int max_rounds;     /* at most this many (planned, or more for a CV rule); 0: no bound (--target-ci) */
    size_t visit;       /* visits done in this round */
    size_t nvisits;     /* visits this round makes */
    size_t done_visits; /* visits done in all rounds */
    double elapsed_s;   /* since the rounds began */
    double max_time_s;  /* --max-time: no round starts after it; 0: none */
    double limit_left_s; /* -t: what is left of it; < 0: none */
} round_progress;

typedef struct {
    double s;     /* seconds left; < 0: cannot be estimated yet */
    bool at_most; /* a bound (rounds past the plan, a time limit), not an estimate */
} round_eta;

/* Seconds left: the mean visit so far times the visits left of this round and of
 * the rounds to come (each as many as this one), to the end of the plan's rounds
 * (past them: to max_rounds, a bound), no later than --max-time's last round or -t
 * allow. Unknown (s < 0) until a round is done, and past the plan with no bound. */
round_eta round_progress_eta(const round_progress *p);

/* "round 2/3", "round 2/3 (up to 7)", "round 4 (up to 7)", "round 7 (until
 * --target-ci or --max-time)", then ", ETA 12 s" (", ETA <= 40 s" for a bound,
 * ", ETA --" when unknown). */
void round_progress_text(const round_progress *p, char *buf, size_t len);

#endif
