/* SPDX-License-Identifier: MIT */
/* perf bench numa mem's text output for `membench numa mem`: perf's banner, the
 * ` # Running NAME, "..."` line, the binding lists and their NOTEs, the task header,
 * -d's process, address and -x lines, -c's progress lines, and the result lines in
 * perf 6.1's layouts, so
 * the regexes of mmtests and lkp-tests read them unchanged:
 *   default: " %-30s %15.3f, %-15s %s"  (" main,   ...   6.852, GB/sec,   total-speed")
 *   -q:      " %14.3f %s"                ("          6.852 GB/sec total speed")
 * with -d -d a line per thread. The values come from the record (modes/numa_mem_mode.c
 * says how each is defined); the sink computes nothing but units. */
#ifndef MEMBENCH_NUMA_SINK_H
#define MEMBENCH_NUMA_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

typedef enum {
    NUMA_SINK_RUN,  /* one run: its Running line, header and results */
    NUMA_SINK_SUITE /* -a: the suite's banner (each test has its own NUMA_SINK_RUN) */
} numa_sink_role;

typedef struct {
    bool quiet;          /* -q */
    int details;         /* -d count */
    bool convergence;    /* -m: the NUMA-convergence-latency line */
    bool show_convergence; /* -c: a line per kept placement sample */
    const char *name;    /* "main," or the suite test's name, comma included */
    const char *command; /* shown in the Running line */
    numa_sink_role role;
    bool banner;         /* perf's first line, "# Running 'numa/mem' benchmark:" (not a suite's tests) */
    bool tight;          /* --tight-loop: every result key says so ("tight-total-speed", "tight-loop GB/sec ..."),
                            so no script reads membench's loop as perf's figure */
} numa_sink_spec;

/* The spec's texts must outlive the sink. */
sink *numa_sink_create(FILE *f, const numa_sink_spec *spec);

#endif
