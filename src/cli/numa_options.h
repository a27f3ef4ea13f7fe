/* SPDX-License-Identifier: MIT */
/* Options of `membench numa mem`: perf bench numa mem's command line (perf 6.1),
 * short and long names, defaults and --no- forms, so its command lines and the
 * mmtests/lkp-tests scripts built on them run unchanged; unlike perf, every value
 * is checked (see numa_options_check and README). */
#ifndef MEMBENCH_NUMA_OPTIONS_H
#define MEMBENCH_NUMA_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

typedef struct {
    common_options common; /* -h, --json, -v */
    int nr_proc;           /* -p */
    int nr_threads;        /* -t */
    double mb_global;      /* -G, MiB (perf: MB = 2^20) */
    double mb_proc;        /* -P */
    double mb_thread;      /* -T */
    double mb_proc_locked; /* -L */
    uint64_t nr_loops;     /* -l, 0 = unlimited */
    double nr_secs;        /* -s, 0 = no time limit */
    bool secs_given;
    uint64_t usleep_us;    /* -u */
    bool reads, writes, backwards, rand_walk, zero_memset; /* -R -W -B -r -Z */
    bool init_zero, init_random, init_cpu0;                /* -z -I -0 */
    int thp;               /* -H: > 0 MADV_HUGEPAGE, < 0 MADV_NOHUGEPAGE */
    const char *cpus;      /* -C LIST */
    const char *memnodes;  /* -M LIST */
    bool show_convergence;    /* -c */
    bool measure_convergence; /* -m */
    int perturb_secs;      /* -x */
    int details;           /* -d, repeatable */
    bool quiet;            /* -q */
    bool serialize;        /* -S */
    int all;               /* -a */
    bool if_applicable;    /* a -C/-M this machine cannot give: "not applicable", exit 0 */
    bool tight_loop;       /* sequential passes in membench's loop, under keys of its own */
} numa_options;

extern const option_table numa_option_table;
void numa_options_defaults(void *opts);
parse_result numa_options_check(void *opts, char *err, size_t errlen);

#endif
