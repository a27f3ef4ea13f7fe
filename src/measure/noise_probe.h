/* SPDX-License-Identifier: MIT */
/* How much the host moved during a run: a fixed piece of work (a dependent
 * multiply-add chain of about a millisecond, on the main thread) is timed at the
 * start and after each result, at most every PROBE_EVERY_S. Its spread over the
 * run says how much the CPU the run got changed: clock drift, time slices lost
 * to neighbours, throttling. It does not see memory contention from other guests
 * that leaves the CPU alone; each result's own interval shows that. */
#ifndef MEMBENCH_NOISE_PROBE_H
#define MEMBENCH_NOISE_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#define NOISE_PROBE_EVERY_S 0.1
#define NOISE_PROBE_MIN 5        /* fewer probes: no verdict */
#define NOISE_FLAG_PCT 5.0       /* a run whose host varied more is flagged */
#define NOISE_CPU_PRESSURE_WARN_PCT 10.0 /* other tasks waiting for a CPU: warned from here */

/* Seconds the fixed work took this time. */
double noise_probe_run(void);

typedef struct {
    size_t probes;
    bool known;           /* at least NOISE_PROBE_MIN probes */
    double median_s;      /* of the probe's times */
    double varied_pct;    /* ± this: half the 10th-90th percentile range, in % of the median */
    double meaningful_pct; /* differences below this are within the host's movement: 2 x varied_pct */
    bool flagged;         /* varied_pct > NOISE_FLAG_PCT */
} noise_verdict;

/* From the probe times of one run (not modified). */
noise_verdict noise_judge(const double *times_s, size_t n);

#endif
