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

typedef struct {
    compare_row *rows;
    size_t count;
    size_t matched, only_a, only_b, faster, slower, same, untold, beyond;
    size_t two_levels; /* figures in both whose samples fell in two levels in A or B */
    /* Each interval of B/A widened by how much each run's host moved (host_noise.varied_pct,
     * 0 for a run without a verdict): a run's own batches cannot see what changes only
     * between runs, and on a noisy host that is most of it. False with --within-run. */
    bool host_widened;
    double host_a_pct, host_b_pct;
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
 * gate that compared nothing must not pass); else 0. */
int compare_exit_status(const compare_report *r);

/* "faster", "slower", "no difference within noise", ... */
const char *compare_verdict_text(compare_verdict v);
/* Higher is better for bandwidth, lower for latency. */
bool compare_higher_is_better(const loaded_record *r);
/* The verdict for B/A's interval; the ratio decides nothing on its own. */
compare_verdict compare_judge(const ratio_interval *ri, bool higher_is_better);

#endif
