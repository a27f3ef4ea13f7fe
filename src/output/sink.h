/* SPDX-License-Identifier: MIT */
/* Where results go. Every output format is a sink behind this one interface:
 * begin once the run is planned, record for each result as it is produced (so
 * Ctrl-C leaves everything measured so far), end when the run is over (complete
 * or not). Sinks only format what run_info and the records say; they never
 * measure, and modes never format. Adding a format means adding one sink. */
#ifndef MEMBENCH_SINK_H
#define MEMBENCH_SINK_H

#include <stdbool.h>

#include "core/result.h"
#include "core/run_info.h"

typedef struct sink sink;

typedef struct {
    void (*begin)(sink *s, const run_info *info);
    void (*record)(sink *s, const run_info *info, const result_record *r);
    void (*end)(sink *s, const run_info *info);
    void (*destroy)(sink *s);
    /* a burst of records ended (sink_burst); NULL: each record is written as it comes */
    void (*burst_end)(sink *s, const run_info *info);
} sink_ops;

/* Each sink's own struct starts with this. */
struct sink {
    const sink_ops *ops;
    bool failed; /* a write of this sink's was lost (said by the sink); the run fails */
    int burst;   /* sink_burst's depth: > 0 while records come in a burst */
};

/* NULL-safe dispatch (a missing operation does nothing). */
void sink_begin(sink *s, const run_info *info);
void sink_record(sink *s, const run_info *info, const result_record *r);
void sink_end(sink *s, const run_info *info);
void sink_destroy(sink *s);

/* Records made together with nothing measured between them (a round loop's points
 * finished at its end: 53 records of a default latency curve within 0.4 s) come
 * in a burst: a sink that rewrites a whole document per record (JSON, OpenMetrics)
 * writes once, at the burst's end, instead of once per record (each rewrite of
 * that curve's 200 KB document took 6-16 ms). on: the burst begins; off: it ends
 * (bursts nest; the outermost's end writes). */
void sink_burst(sink *s, bool on, const run_info *info);

#endif
