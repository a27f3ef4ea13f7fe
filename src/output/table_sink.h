/* SPDX-License-Identifier: MIT */
/* sc-membench's -R output: the table (stdout), then the BENCHMARK SUMMARY, scores
 * and comparability warning (stderr, where sc-membench prints them). */
#ifndef MEMBENCH_TABLE_SINK_H
#define MEMBENCH_TABLE_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"
#include "output/summary.h"

typedef struct {
    double max_runtime;      /* -t, 0 if not given */
    int fixed_threads;       /* -p or OMP_NUM_THREADS, 0 if not given */
    const char *fixed_threads_source; /* "-p" or "OMP_NUM_THREADS" */
    int usable_cpus;
    unsigned long long single_size_kb; /* -s, 0 if not given */
    unsigned long long max_size_kb;    /* --max-size, 0 if not given */
    const char *stopped_by;  /* "time limit", "SIGINT", "SIGTERM", or NULL when complete */
    int latency_below_target; /* latency points that did not reach CV < 5% */
    int rounds;              /* the sweep's -r rounds (0: not said) */
    bool more_rounds;        /* --target-ci may add rounds */
} comparability;

void table_write_header(FILE *f);
void table_write_record(FILE *f, const result_record *r);
void table_write_summary(FILE *f, const run_summary *s, const comparability *c);
/* How much the host moved during the run (nothing before the run's end). */
void table_write_host_noise(FILE *f, const run_host_noise *n);

/* Table rows on table_f as results come; at the end the summary and scores on
 * summary_f, with c's flags plus how the run ended and the latency points that
 * missed their CV target (both read from the run). */
sink *table_sink_create(FILE *table_f, FILE *summary_f, const comparability *c);

#endif
