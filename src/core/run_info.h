/* SPDX-License-Identifier: MIT */
/* Everything about a run that is not a result: who ran what, where, with which
 * options and plan, what was said along the way, and how it ended. Every mode fills
 * one (through its session); every sink reads it. It depends on nothing above it:
 * options, placement and plan are kept as neutral key/values and text. */
#ifndef MEMBENCH_CORE_RUN_INFO_H
#define MEMBENCH_CORE_RUN_INFO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/params.h"
#include "core/result.h"
#include "core/warn_kind.h"
#include "topology/topology.h"

/* One thread of the run's placement. */
typedef struct {
    char *cpus;   /* the place, e.g. "0" or "0-3" */
    int node;     /* node of its first CPU */
    int mem_node; /* where its memory goes */
} run_thread;

typedef struct {
    char policy[96]; /* how the places were chosen */
    bool pinned;
    run_thread *threads;
    int n;
} run_placement;

/* How much the host moved during the run (see measure/noise_probe.h and
 * measure/host_load.h); filled at the run's end, all -1/false before. */
typedef struct {
    bool measured;           /* false until the run ends, and for a step */
    size_t probes;           /* times the fixed CPU probe ran */
    const double *probe_times_s; /* each time it took (the session's, valid while it lives) */
    const double *probe_at_s;    /* when each began, seconds since the run's start (the same) */
    bool known;              /* enough probes for a verdict (either probe's) */
    bool cpu_known;          /* enough CPU probes for theirs */
    double probe_median_s;   /* the CPU probe's */
    double cpu_varied_pct;   /* the CPU probe's verdict */
    size_t memory_probes;    /* times the memory probe ran (0: it could not) */
    const double *memory_probe_times_s; /* each time it took (the session's) */
    size_t memory_probe_bytes; /* its buffer (a quarter read each time) */
    bool memory_known;
    bool memory_counted; /* its buffer outgrows the last level: its verdict is in varied_pct */
    double memory_probe_median_s, memory_varied_pct;
    double varied_pct;       /* the host varied ± this: the larger of the two verdicts */
    double meaningful_pct;   /* differences below this are not meaningful */
    bool flagged;            /* varied_pct above the threshold */
    double steal_pct, cpu_pressure_pct, memory_pressure_pct; /* over the run; -1 unknown */
} run_host_noise;

typedef struct {
    const char *mode;
    int argc;
    char **argv;         /* the whole command line, program name first */
    char started_at[32]; /* ISO 8601, UTC */
    char hostname[256];
    char cpu_model[256];
    char os_kernel[256];
    const char *isa_list; /* kernel ISAs usable here */
    const char *arch;     /* "x86_64", "aarch64", ... */
    const char *ref_counter; /* the constant-rate counter latency is also given in; NULL: none */
    const topology *topo; /* NULL when the mode has none */

    param_list options;   /* every option's value, from the option tables */
    run_placement placement;
    param_section plan;     /* what the mode decided to measure, and why */
    param_section analysis; /* what it concluded from the results */

    char **warnings;
    warn_kind *warning_kinds; /* each warning's kind, in the same order */
    size_t nwarnings;
    char **errors; /* what failed, as said on stderr */
    size_t nerrors;

    run_host_noise noise;

    const result_list *results; /* so far, in order */
    double elapsed_s;
    bool complete;
    const char *stopped_by; /* NULL, "time limit", "SIGINT", ..., "error" */
    int exit_status;
} run_info;

/* Fills the command line, start time and host description. */
void run_info_start(run_info *info, const char *mode, int argc, char **argv, const topology *t);
/* Keeps a copy of the warning text and its kind (said by the caller, or at the
 * end by output/warning_summary). */
void run_info_warn(run_info *info, warn_kind kind, const char *text);
/* Keeps a copy of the error text (said on stderr by the caller). */
void run_info_error(run_info *info, const char *text);
/* Replaces the placement with n threads (policy and pinned set by the caller). */
run_thread *run_info_set_threads(run_info *info, int n);
void run_info_free(run_info *info);

#endif
