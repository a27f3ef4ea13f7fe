/* SPDX-License-Identifier: MIT */
/* `membench numa mem -a`: perf bench numa mem's suite of 45 tests, each run as a
 * step of the numa-mem mode (session_open_step) with perf's options for it. Scaled
 * to the machine: a test whose CPUs or nodes this machine cannot give runs as "not
 * applicable" and says why (as perf does) and the suite goes on; a test whose
 * memory exceeds the budget is scaled down and says so; -s replaces every test's
 * time (perf: 20 s, 100 s for the convergence tests). */
#ifndef MEMBENCH_NUMA_SUITE_H
#define MEMBENCH_NUMA_SUITE_H

#include "cli/numa_options.h"
#include "modes/session.h"

#define NUMA_SUITE_TESTS 45
#define NUMA_SUITE_MAX_ARGS 32

typedef struct {
    session *steps; /* one per test, opened and planned by the plan */
    int opened;
    char *argv[NUMA_SUITE_TESTS][NUMA_SUITE_MAX_ARGS];
    int argc[NUMA_SUITE_TESTS];
    char command[NUMA_SUITE_TESTS][512];
} numa_suite;

/* The name perf prints for test i ("RAM-bw-local,", " 1x3-convergence,"). */
const char *numa_suite_name(int i);

int numa_suite_plan(session *s, numa_suite *u, const numa_options *o);
void numa_suite_run(session *s, numa_suite *u);
void numa_suite_free(numa_suite *u);

#endif
