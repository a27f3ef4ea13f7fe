/* SPDX-License-Identifier: MIT */
/* Intel MLC's text layout for `membench mlc`: one sink per block of MLC's output
 * (a banner, then one block per test), each fed the records of the native mode that
 * measured it. The lines scripts scrape are MLC's, tab for tab (`ALL Reads        :`
 * then a tab and MB/s; ` 00000<TAB>329.26<TAB> 159154.0` loaded-latency rows; the
 * `Numa node` matrices); membench's own facts (DRAM traffic, spreads, placement) are
 * in --json and -v, never in these lines. */
#ifndef MEMBENCH_MLC_SINK_H
#define MEMBENCH_MLC_SINK_H

#include <stdbool.h>
#include <stdio.h>

#include "output/sink.h"

typedef enum {
    MLC_BLOCK_BANNER,           /* the run's first lines */
    MLC_BLOCK_IDLE,             /* --idle_latency: one CPU */
    MLC_BLOCK_EVERY_CPU,        /* -a: a line per CPU */
    MLC_BLOCK_LATENCY_MATRIX,   /* latency-matrix records */
    MLC_BLOCK_PEAK,             /* peak-bandwidth records */
    MLC_BLOCK_MAX,              /* peak-bandwidth --max records */
    MLC_BLOCK_BANDWIDTH_MATRIX, /* bandwidth-matrix records */
    MLC_BLOCK_LOADED,           /* loaded-latency records */
    MLC_BLOCK_TRAFFIC_ONLY,     /* -T: one peak-bandwidth step per delay */
    MLC_BLOCK_C2C               /* c2c records */
} mlc_block;

typedef struct {
    mlc_block block;
    bool blank_before;      /* a blank line first (every block but the first) */
    bool head;              /* the block's heading lines (-T: only its first step) */
    bool one_per_core;      /* -X: MLC's "one thread from each core" line */
    bool per_thread;        /* -B: each traffic thread's MB/s after the line */
    const char *traffic;    /* "Read-only" or "W5 (1 read : 1 regular write (copy))" */
    const char *banner;     /* MLC_BLOCK_BANNER: the first line */
    const char *arguments;  /* MLC_BLOCK_BANNER: the command line after "mlc", "" none */
    const char *buffers;    /* MLC_BLOCK_BANNER: MLC's "Using buffer size of ..." line, NULL none */
} mlc_block_spec;

/* The spec's texts must outlive the sink. NULL when out of memory. */
sink *mlc_sink_create(FILE *f, const mlc_block_spec *spec);

#endif
