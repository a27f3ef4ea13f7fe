/* SPDX-License-Identifier: MIT */
/* A fleet's runs side by side: one row per run, the machine it ran on (host, CPU,
 * vCPUs, NUMA nodes) and its headline figures (core/report_headline.c, not worked
 * out again): DRAM read/write/copy, idle latency, the LLC, STREAM Triad, DRAM read
 * per thread and the noise verdict. The page's sortable table and the CSV
 * (output/report_fleet_html.c, output/report_csv.c) are written from these columns,
 * so both say the same. A figure the run lacks is a missing cell with the
 * headline's reason, never 0. */
#ifndef MEMBENCH_REPORT_FLEET_H
#define MEMBENCH_REPORT_FLEET_H

#include <stdbool.h>

#include "core/report_headline.h"
#include "core/run_load.h"

enum {
    FLEET_RUN, FLEET_HOST, FLEET_CPU, FLEET_VCPUS, FLEET_NODES, FLEET_MODE, FLEET_READ, FLEET_WRITE, FLEET_COPY,
    FLEET_LATENCY, FLEET_RANDOM_LATENCY, FLEET_LLC_LEVEL, FLEET_LLC_BYTES, FLEET_LLC_SOURCE, FLEET_TRIAD, FLEET_PER_THREAD,
    FLEET_THREADS, FLEET_NOISE, FLEET_VARIED, FLEET_COLUMNS
};

typedef enum { FLEET_TEXT, FLEET_COUNT, FLEET_MB_S, FLEET_NS, FLEET_BYTES, FLEET_PCT } fleet_unit;

typedef struct {
    const char *key;   /* the page's data-col: "dram-read" */
    const char *title; /* the page's header: "DRAM read GB/s" */
    const char *csv;   /* the CSV's header, unit in the name: "dram_read_gb_s" */
    fleet_unit unit;   /* FLEET_TEXT: sorted as text; else a number in the JSON's unit */
} fleet_column;

extern const fleet_column fleet_columns[FLEET_COLUMNS];

typedef struct {
    const char *name; /* the run's label in the report */
    const loaded_run *run;
    run_headline head;
    long long vcpus, nodes;  /* topology.cpus_online, numa_nodes' count; -1: not in the run */
    double per_thread;       /* the DRAM read figure over its record's threads, MB/s; NaN: missing */
    long long threads;       /* that record's threads; 0: missing */
    char per_thread_why[144];
} fleet_row;

/* One cell: a number in its column's unit, or text; missing (why set, never 0). */
typedef struct {
    bool missing;
    double value;     /* a number column's */
    const char *text; /* a text column's; the LLC size's as the page shows it */
    const char *why;  /* missing: why; else what the figure is, or NULL */
} fleet_cell;

void report_fleet_row_of(const loaded_run *run, const char *name, fleet_row *row);
fleet_cell report_fleet_cell(const fleet_row *row, int column, char *buf, size_t len);

#endif
