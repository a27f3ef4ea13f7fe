/* SPDX-License-Identifier: MIT */
/* Two runs side by side (membench compare): the figures of both matched, each
 * with a verdict from its raw samples, and what differs between the runs
 * themselves. Produces rows; output/compare_table.c and compare_json.c print them. */
#ifndef MEMBENCH_COMPARE_H
#define MEMBENCH_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run_load.h"
#include "util/bootstrap.h"

typedef enum {
    VERDICT_SAME,        /* "no difference within noise": the interval holds 1 */
    VERDICT_FASTER,      /* B better: more bandwidth, less latency */
    VERDICT_SLOWER,
    VERDICT_CANNOT_TELL, /* too few samples for an interval */
    /* "cannot tell (noise wider than the threshold)": the interval holds 1 but also
     * reaches beyond the threshold on the slow side, so it cannot tell a change of
     * the threshold's size from none. */
    VERDICT_TOO_WIDE,
    VERDICT_ONLY_A,      /* the figure is in one run only */
    VERDICT_ONLY_B
} compare_verdict;

typedef struct {
    const loaded_record *a, *b; /* the figure in each run; one is NULL for ONLY_A/ONLY_B */
    double a_median, b_median;  /* of the raw samples (0 when absent) */
    ratio_interval ratio;       /* B/A */
    compare_verdict verdict;
    double worse_pct;           /* how much worse B is, in % (negative: better) */
    bool beyond_threshold;      /* slower, and worse by more than the threshold */
    /* Each run's samples of the figure fell in two levels (util/stats.h): that
     * median is neither level, and a verdict on it says little. */
    bool a_two_levels, b_two_levels;
} compare_row;

/* Without --threshold the verdicts still ask whether a change of this size can be
 * told (an interval reaching beyond 5% slower and holding 1 cannot tell). */
#define COMPARE_DEFAULT_THRESHOLD_PCT 5.0
/* No run's host movement widens an interval by more than this: a claim of 50% (a
 * loaded host) or 99.9% (a doctored file) would otherwise hide any change. Two runs
 * at the cap widen B/A by at most 1.2/0.8 = 1.5x either way, so a change of 2x
 * still shows whenever the runs' own batches tell it within 1.33x. */
#define COMPARE_HOST_WIDEN_CAP_PCT 20.0
/* A median ratio of this factor or more the slow way (bandwidth B/A at most 1/2,
 * latency at least 2) that the runs' own batches call slower is slower, however
 * far the hosts' movement widens its interval: no host's movement, claimed or
 * real, makes a halving read as noise or as cannot tell. */
#define COMPARE_LARGE_CHANGE 2.0
/* --threshold's status when no figure is beyond it but some cannot be told: the
 * gate never passes silently (1: slower beyond it, or nothing compared; 2: bad input). */
#define COMPARE_EXIT_CANNOT_TELL 3

typedef struct {
    compare_row *rows;
    size_t count;
    size_t matched, only_a, only_b, faster, slower, same, untold, beyond;
    size_t too_wide;        /* of untold: the interval wider than the threshold (the rest: under 3 samples) */
    bool gated;             /* --threshold given: the exit status is the gate's */
    double threshold_pct;   /* the verdicts' threshold: --threshold, else COMPARE_DEFAULT_THRESHOLD_PCT */
    size_t two_levels; /* figures in both whose samples fell in two levels in A or B */
    /* Each interval of B/A widened by how much each run's host moved (host_noise.varied_pct,
     * 0 for a run without a verdict): a run's own batches cannot see what changes only
     * between runs, and on a noisy host that is most of it. False with --within-run. */
    bool host_widened;
    double host_a_pct, host_b_pct;       /* as applied: at most COMPARE_HOST_WIDEN_CAP_PCT */
    bool host_a_capped, host_b_capped;   /* the run claimed more than the cap */
    /* stop_poll() said stop before every figure was judged (stdout's reader gone,
     * when the mode watches it: `compare ... | head -1` of 20,000 figures): the rows
     * are partial, nothing is to be written. */
    bool stopped;
} compare_report;

/* What differs between the runs' identity: host, CPU model, kernel, mode and each
 * option that decides what is measured (not --json, -v and such). Writes
 * "host (vm vs box); option tries (3 vs 5)" into out; false when nothing differs. */
bool compare_differences(const loaded_run *a, const loaded_run *b, char *out, size_t len);
/* Matches the figures (mode, operation, metric, size, threads, nodes; repeats of
 * one such key in order) and judges each. threshold_pct < 0: no threshold.
 * widen_by_hosts: each interval also widened by the runs' host variation
 * (B/A's low times (1 - b%)/(1 + a%), its high times (1 + b%)/(1 - a%)).
 * False when out of memory. */
bool compare_runs(const loaded_run *a, const loaded_run *b, double threshold_pct, bool widen_by_hosts,
                  compare_report *out);
void compare_report_free(compare_report *r);
/* compare's exit status from its figures: 1 when one is beyond the threshold, and
 * when no figure is in both runs (an empty run, or runs with nothing in common: a
 * gate that compared nothing must not pass); with --threshold,
 * COMPARE_EXIT_CANNOT_TELL when some figure cannot be told; else 0. */
int compare_exit_status(const compare_report *r);

/* "faster", "slower", "no difference within noise", ... */
const char *compare_verdict_text(compare_verdict v);
/* Higher is better for bandwidth, lower for latency. */
bool compare_higher_is_better(const loaded_record *r);
/* The verdict for B/A's interval; the ratio decides nothing on its own. */
compare_verdict compare_judge(const ratio_interval *ri, bool higher_is_better);
/* The interval reaches beyond threshold_pct on the slow side (bandwidth: its low end
 * below 1 - PCT/100; latency: its high end above 1 + PCT/100). */
bool compare_reaches_beyond(const ratio_interval *ri, bool higher_is_better, double threshold_pct);
/* Why compare exits with status: "pass", "slower beyond the threshold", ... */
const char *compare_exit_reason(const compare_report *r);

#endif
