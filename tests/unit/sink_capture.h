/* SPDX-License-Identifier: MIT */
/* What a sink writes for a run, as text: the matrix sinks' tests lay out a plan,
 * hand the sink records and read back every byte it wrote. */
#ifndef MEMBENCH_TEST_SINK_CAPTURE_H
#define MEMBENCH_TEST_SINK_CAPTURE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/run_info.h"
#include "output/sink.h"

typedef struct {
    char *text;
    size_t len;
    FILE *f;
} sink_capture;

/* The stream the sink under test is to write to. */
FILE *sink_capture_open(sink_capture *c);
/* Runs s over info (its plan laid out by the caller): begin, recs[0..n) in order,
 * end with info->complete = complete. Destroys the sink, frees info and the
 * records; returns what was written (free it). */
char *sink_capture_run(sink_capture *c, sink *s, run_info *info, result_record *recs, size_t n, bool complete);

#endif
