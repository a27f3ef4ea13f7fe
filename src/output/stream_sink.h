/* SPDX-License-Identifier: MIT */
/* STREAM's output: its header, then per configuration and store kind its table
 * (Function, Best Rate MB/s, Avg/Min/Max time) and validation line, then the store
 * kinds side by side (or one kind alone when the peak is known) with the share of
 * theoretical peak when it is known, and with --scan the best configuration. Results arrive one per function (copy, scale,
 * add, triad); a table is printed once its four functions are in. */
#ifndef MEMBENCH_STREAM_SINK_H
#define MEMBENCH_STREAM_SINK_H

#include <stdio.h>

#include "output/sink.h"

#define STREAM_RULE "-------------------------------------------------------------\n"
#define STREAM_FUNCTIONS 4

/* One line of STREAM's table. */
typedef struct {
    double best_mb_s, avg_s, min_s, max_s;
} stream_row;

/* The row of a result: best rate, and the times of its samples. */
stream_row stream_row_of(const result_record *r);
/* rows: copy, scale, add, triad of one configuration and store kind. */
void stream_write_table(FILE *f, const stream_row rows[STREAM_FUNCTIONS], const char *validation);
/* Best rates per function of the kinds that ran (NULL: did not run, no column);
 * peak_gbs 0 = unknown (no share-of-peak columns). */
void stream_write_side_by_side(FILE *f, const double *regular, const double *nt, double peak_gbs);

/* Reads the header's values ("array_elements", "ntimes", "peak_gbs", "peak_source",
 * "scan") from the run's plan. */
sink *stream_sink_create(FILE *f);

#endif
