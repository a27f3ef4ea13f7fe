/* SPDX-License-Identifier: MIT */
/* The figures a report leads with, one block per run: DRAM read, write and copy
 * bandwidth, idle latency, the last-level cache and where its size came from,
 * STREAM Triad and the host-noise verdict. Only what the run's JSON holds: a
 * figure it lacks is marked missing with why ("not measured", or "the largest
 * buffer fits the L3"), never made up. A size counts as DRAM when it is larger
 * than the last-level cache (a sweep's per-thread share of it). */
#ifndef MEMBENCH_REPORT_HEADLINE_H
#define MEMBENCH_REPORT_HEADLINE_H

#include <stdbool.h>

#include "core/run_load.h"

typedef struct {
    const loaded_record *rec; /* NULL: missing, see why */
    char why[128];            /* missing: "not measured"; else what the figure is ("best of 6 samples at 1 GiB") */
    bool may_not_be_dram;     /* below the DRAM rule, or its plateau check saw a cache (why says which) */
} headline_figure;

enum { HEAD_READ, HEAD_WRITE, HEAD_COPY, HEAD_LATENCY, HEAD_TRIAD, HEAD_FIGURES };

typedef struct {
    headline_figure fig[HEAD_FIGURES];
    char llc[80];      /* "L3 300 MiB (sysfs)", or "not in the run" */
    char probed[96];   /* the cache probe's effective last level one thread saw, a diagnostic; "" not run */
    bool llc_known;
    char llc_level[16];      /* "L3"; "" unknown */
    double llc_bytes;        /* 0 unknown */
    const char *llc_source;  /* "sysfs", "CPUID leaf 4"...; NULL not recorded */
    char caches[256];  /* every level the run used: "L1 48 KiB (sysfs), ..., L3 508 MiB (per package, CPUID ...)" */
    char dram_rule[160]; /* the plan's DRAM rule: "4x L3 ... = 2032 MiB"; "" not planned */
    double dram_footprint; /* the plan's DRAM footprint, all threads, bytes; 0 not planned */
    char noise[160];   /* the verdict in words */
    int noisy;         /* 1 flagged, 0 quiet, -1 no verdict */
    double random_ns;  /* the idle latency record's full random chase (page walks included), 0 when absent */
    char random_why[96];
} run_headline;

/* The key each figure has in the page (data-figure): "dram-read", ..., "stream-triad". */
extern const char *const headline_keys[HEAD_FIGURES];
/* Its name, the same in the page and the text: "DRAM copy (counted once)" (the
 * sweep counts the buffer once, sc-membench's meaning; STREAM's Copy twice). */
extern const char *const headline_names[HEAD_FIGURES];
void report_headline_of(const loaded_run *run, run_headline *h);

#endif
