/* SPDX-License-Identifier: MIT */
/* Two runs side by side, or two sets of runs (membench compare A1 A2 A3 vs B1 B2
 * B3): the figures of both matched, each with a verdict from its raw samples and,
 * with several runs a side, from the spread between the runs; and what differs
 * between the runs themselves. Produces rows; output/compare_table.c and compare_json.c print them. */
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
    /* "cannot tell (one run a side: the movement between runs is unknown)": with one
     * run on a side, a difference between the two runs may be the build's or the
     * host's between them (two runs of one build on a noisy guest read 0.57x), and
     * nothing in one run can say which. A 2x change the runs' own batches show keeps
     * its verdict (COMPARE_LARGE_CHANGE). */
    VERDICT_ONE_RUN,
    VERDICT_ONLY_A,      /* the figure is in one run only */
    VERDICT_ONLY_B
} compare_verdict;

typedef struct {
    const loaded_record *a, *b; /* the figure in each side's first run; one is NULL for ONLY_A/ONLY_B */
    /* The figure in every run of a side that has it (a_runs[0] == a): the medians
     * pool their samples, the interval draws from them. */
    const loaded_record *const *a_runs, *const *b_runs;
    size_t a_nruns, b_nruns;
    double a_median, b_median;  /* of the raw samples, all of a side's runs pooled (0 when absent) */
    ratio_interval ratio;       /* B/A */
    compare_verdict verdict;
    double worse_pct;           /* how much worse B is, in % (negative: better) */
    bool beyond_threshold;      /* slower, and worse by more than the threshold */
    /* Each run's samples of the figure fell in two levels (util/stats.h): that
     * median is neither level, and a verdict on it says little. */
    bool a_two_levels, b_two_levels;
} compare_row;

/* A side of a comparison: its run files and the runs read from them (count >= 1). */
typedef struct {
    const char *const *paths;
    const loaded_run *runs;
    size_t count;
} compare_side;

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
 * real, makes a halving read as noise or as cannot tell. With one run a side, a
 * change of this factor either way keeps its verdict: the most two runs of one
 * build were seen apart is 1.74x (0.574, a shared 2-vCPU guest). */
#define COMPARE_LARGE_CHANGE 2.0
/* --threshold's status when no figure is beyond it but some cannot be told: the
 * gate never passes silently (1: slower beyond it, or nothing compared; 2: bad input). */
#define COMPARE_EXIT_CANNOT_TELL 3

typedef struct {
    compare_row *rows;
    size_t count;
    size_t matched, only_a, only_b, faster, slower, same, untold, beyond;
    size_t too_wide;        /* of untold: the interval wider than the threshold */
    size_t one_run;         /* of untold: a difference one run a side cannot tell from the host's movement */
    bool gated;             /* --threshold given: the exit status is the gate's */
    double threshold_pct;   /* the verdicts' threshold: --threshold, else COMPARE_DEFAULT_THRESHOLD_PCT */
    size_t two_levels; /* figures in both whose samples fell in two levels in A or B */
    /* Each interval of B/A widened by how much each run's host moved (host_noise.varied_pct,
     * 0 for a run without a verdict): a run's own batches cannot see what changes only
     * between runs, and on a noisy host that is most of it. False with --within-run. */
    bool host_widened;
    double host_a_pct, host_b_pct;       /* as applied: at most COMPARE_HOST_WIDEN_CAP_PCT */
    bool host_a_capped, host_b_capped;   /* the run claimed more than the cap */
    size_t runs_a, runs_b;  /* runs a side */
    /* Several runs on both sides, drawn in the bootstrap (not --within-run): the
     * intervals hold the movement between runs, and no host widening is added. */
    bool between_runs;
    /* The resamples draw each side's runs, then their batches (not --within-run,
     * which pools a side's batches as one run's). */
    bool draw_runs;
    /* A side has one run (and not --within-run): a faster or slower under
     * COMPARE_LARGE_CHANGE is VERDICT_ONE_RUN. */
    bool one_run_rule;
    const loaded_record **members; /* the rows' a_runs and b_runs point in here */
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
/* The same for na runs of A and nb of B (each side's runs of one setup: see
 * compare_differences). The figures are those of each side's first run; a
 * figure's medians pool its samples over every run of the side that has it. With
 * several runs on both sides each interval is a hierarchical bootstrap over the
 * runs and their batches (util/bootstrap.h), not widened by the hosts; with one
 * run on a side, widen_by_hosts as compare_runs (when both sides have one) and a
 * difference under COMPARE_LARGE_CHANGE is VERDICT_ONE_RUN. widen_by_hosts false
 * (--within-run): the runs' batches pooled, no runs drawn, no one-run rule. */
bool compare_run_sets(const loaded_run *a, size_t na, const loaded_run *b, size_t nb, double threshold_pct,
                      bool widen_by_hosts, compare_report *out);
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
